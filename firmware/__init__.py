"""The device app (docs/firmware.md).

Importing the package keeps the built-in modules the console imports in sys.modules: on
MicroPython an import of an "extensible" built-in module (array, time, machine, os, errno)
looks for a file of that name on every sys.path entry before it falls back to the built-in
one, a filesystem stat for each, and the built-in module is not kept in sys.modules, so every
such import does it again (on the emulated Pico, 139 littlefs stats before the title: about
22 ms). Looked up once here with sys.path empty, each is then found in sys.modules at once;
on a board, where nothing should stand in for them.
(No function or name is left behind: the heap is counted to the last block.)
"""

import sys

if sys.platform in ("rp2", "esp32"):  # (the host's MicroPython runs tests with fakes of them)
    _path = list(sys.path)
    sys.path.clear()
    try:
        for _name in ("array", "time", "machine", "os", "errno"):
            try:
                sys.modules[_name] = __import__(_name)
            except ImportError:  # a port without it
                pass
    finally:
        sys.path.extend(_path)
    del _path, _name
