"""The host's stand-in for MicroPython's built-in `micropython` module (CPython: the simulator,
the tests, the tools), so that device code writes `from micropython import const` and nothing
else. On MicroPython the built-in module is found first and this file is never read: it is not
frozen (manifest.py) nor copied to a board (tools/device/deploy.py), and the compiler folds
each `X = const(n)` into its uses (tests/test_micropython.py checks that on mpy-cross).

Everything else the built-in module has (viper, native, heap_lock, ...) exists only on the
device: asking for it here raises ImportError, as importing a missing `micropython` did, so
a driver module that needs it (firmware/expand_viper.py) fails to import and its caller takes
the plain path.
"""


def const(x):
    """MicroPython's compile-time constant; on the host, the value itself."""
    return x


def __getattr__(name):
    if name.startswith("__"):
        raise AttributeError(name)  # what the import system asks of any module
    raise ImportError("micropython." + name + " exists on MicroPython only")
