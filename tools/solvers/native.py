"""The Sir Tommy rollout searches compiled: tools/solvers/sir_tommy_rollouts.c through ctypes.

The C file is built once with the host's C compiler (`cc`) into the cache
(FIRMWARE_CACHE, default ~/.cache/pocket-card-console, as the firmware build), named by a
hash of the source so an edit builds it again. Without a compiler, or when the build fails,
`library()` answers None (the reason on stderr) and the solver runs the same searches in
Python, about twenty times slower (tools/solvers/solve_sir_tommy.py says so once on stderr).
"""

import ctypes
import hashlib
import os
import shutil
import subprocess
import sys
import tempfile

from tools.device import firmware

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE = os.path.join(HERE, "sir_tommy_rollouts.c")
LINE_BYTES = 168  # OPS in the C file: the longest line of operations
OUT_OF_MEMORY = -2

_loaded = []  # [library or None], once per process


def cache_dir():
    return os.path.join(firmware.cache_root(), "solvers")


def build(source=SOURCE):
    """The path of the shared library built from `source` (built now when not in the cache),
    or None with the reason printed on stderr."""
    with open(source, "rb") as f:
        digest = hashlib.sha256(f.read()).hexdigest()[:16]
    name = os.path.splitext(os.path.basename(source))[0]
    target = os.path.join(cache_dir(), "%s-%s.so" % (name, digest))
    if os.path.exists(target):
        return target
    cc = shutil.which("cc") or shutil.which("gcc")
    if cc is None:
        sys.stderr.write("no C compiler (cc) to build %s\n" % source)
        return None
    try:
        os.makedirs(cache_dir(), exist_ok=True)
        fd, temp = tempfile.mkstemp(suffix=".so", dir=cache_dir())
    except OSError as e:
        sys.stderr.write("no place to build %s: %s\n" % (source, e))
        return None
    os.close(fd)
    done = subprocess.run([cc, "-O2", "-shared", "-fPIC", "-o", temp, source],
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, universal_newlines=True)
    if done.returncode != 0:
        os.unlink(temp)
        sys.stderr.write("building %s failed:\n%s" % (source, done.stdout))
        return None
    os.replace(temp, target)  # atomic: two processes building at once both end with one file
    return target


def library():
    """The loaded library, or None (built on the first call of the process)."""
    if not _loaded:
        path = build()
        lib = None
        if path is not None:
            lib = ctypes.CDLL(path)
            lib.st_search.restype = ctypes.c_int
            lib.st_search.argtypes = [ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p,
                                      ctypes.POINTER(ctypes.c_int), ctypes.c_char_p, ctypes.c_int,
                                      ctypes.c_int, ctypes.POINTER(ctypes.c_int64), ctypes.c_int64,
                                      ctypes.c_char_p]
        _loaded.append(lib)
    return _loaded[0]


def search(lib, cards, piles, cnt, policy, width, nodes, limit):
    """One rollout search in C (see st_search): (line of operations or None, nodes after it,
    True when it stopped at the node limit)."""
    flat = bytes(r for pile in piles for r in pile)
    lens = (ctypes.c_int * 4)(*[len(pile) for pile in piles])
    count = ctypes.c_int64(nodes)
    line = ctypes.create_string_buffer(LINE_BYTES)
    n = lib.st_search(bytes(cards), len(cards), flat, lens, bytes(cnt), policy, width,
                      ctypes.byref(count), limit, line)
    if n == OUT_OF_MEMORY:
        raise MemoryError("the Sir Tommy beam of width %d" % width)
    if n > 0:
        return list(line.raw[:n]), count.value, False
    return None, count.value, n < 0
