"""MicroPython 1.27's unix port, built once from source: the native runtime of the long
MicroPython runs (tools/mpy.py, runtime="unix").

    python -m tools.mpy_unix          builds it if it is not in the cache; prints its path

The source is, first found first:
- MICROPY_UNIX_SRC: a MicroPython v1.27.0 folder with ports/unix, or a .tar.xz of one;
- ../shared/micropython/micropython-1.27.0-unix.tar.xz beside the repository.
There is no download: without either the build stops and says where it looked. The build
needs a C compiler and make (Debian's build-essential). The extracted source and the binary
are kept in the firmware's cache folder (FIRMWARE_CACHE, default ~/.cache/pocket-card-console),
the binary as micropython-unix-DIGEST, keyed by the source archive's digest: a second run
finds it there and builds nothing.
"""

import fcntl
import hashlib
import os
import shutil
import subprocess
import sys
import tarfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ARCHIVE = os.path.join(os.path.dirname(ROOT), "shared", "micropython", "micropython-1.27.0-unix.tar.xz")
PACKAGES = "build-essential"
# The switches leave out what would need a submodule the source does not carry.
MAKE_ARGS = ["VARIANT=standard", "FROZEN_MANIFEST=", "MICROPY_PY_BTREE=0", "MICROPY_PY_SSL=0",
             "MICROPY_PY_FFI=0"]


class BuildError(Exception):
    pass


def cache_root():
    return os.environ.get("FIRMWARE_CACHE") or os.path.join(os.path.expanduser("~"), ".cache",
                                                            "pocket-card-console")


def file_digest(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()[:16]


def _source():
    """(kind, path, key): where the source is and the key its binary is cached under."""
    given = os.environ.get("MICROPY_UNIX_SRC")
    if given:
        given = os.path.abspath(given)
        if os.path.isdir(given):
            if not os.path.isdir(os.path.join(given, "ports", "unix")):
                raise BuildError("MICROPY_UNIX_SRC=%s is not a MicroPython source folder (no ports/unix)"
                                 % given)
            return "folder", given, "dir-" + hashlib.sha256(given.encode()).hexdigest()[:16]
        if os.path.isfile(given):
            return "archive", given, file_digest(given)
        raise BuildError("MICROPY_UNIX_SRC=%s does not exist" % given)
    if os.path.isfile(ARCHIVE):
        return "archive", ARCHIVE, file_digest(ARCHIVE)
    raise BuildError("no MicroPython source for the unix port: looked for MICROPY_UNIX_SRC (not set) "
                     "and for %s (not there). Put MicroPython v1.27.0's source there, or set "
                     "MICROPY_UNIX_SRC to a v1.27.0 folder or .tar.xz of one (git clone --branch "
                     "v1.27.0 https://github.com/micropython/micropython)." % ARCHIVE)


def cached_binary():
    """The binary's path in the cache (it may not be built yet)."""
    return os.path.join(cache_root(), "micropython-unix-" + _source()[2])


def _extract(archive, folder):
    shutil.rmtree(folder, ignore_errors=True)
    os.makedirs(folder)
    print("unpacking %s" % archive, flush=True)
    with tarfile.open(archive, "r:xz") as tar:
        if hasattr(tarfile, "data_filter"):
            tar.extractall(folder, filter="data")
        else:
            tar.extractall(folder)
    source = os.path.join(folder, "micropython")
    if not os.path.isdir(os.path.join(source, "ports", "unix")):
        raise BuildError("%s holds no micropython/ports/unix folder" % archive)
    return source


def build(jobs=None):
    """The unix port's binary, built if the cache does not hold it; returns its path."""
    kind, path, key = _source()
    cache = cache_root()
    binary = os.path.join(cache, "micropython-unix-" + key)
    if os.path.exists(binary):
        return binary
    os.makedirs(cache, exist_ok=True)
    # One build at a time (test workers may all ask at once); the others then find it.
    with open(os.path.join(cache, "micropython-unix.lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if os.path.exists(binary):
            return binary
        missing = [t for t in ("cc", "make") if shutil.which(t) is None]
        if missing:
            raise BuildError("the unix port's build needs %s; install them with:\n"
                             "    sudo apt-get install %s" % (", ".join(missing), PACKAGES))
        source = path if kind == "folder" else _extract(path, os.path.join(cache, "unix-src-" + key))
        port = os.path.join(source, "ports", "unix")
        # The build goes into the cache, so a source folder may be read-only (CI's shared/).
        out = os.path.join(cache, "unix-build-" + key)
        print("building MicroPython's unix port (%s into %s), about a minute" % (port, out), flush=True)
        run = subprocess.run(["make", "-C", port, "BUILD=" + out] + MAKE_ARGS
                             + ["-j%d" % (jobs or os.cpu_count() or 1)],
                             stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        built = os.path.join(out, "micropython")
        if run.returncode != 0 or not os.path.isfile(built):
            raise BuildError("the unix port's build failed in %s:\n%s" % (port, run.stdout[-3000:]))
        shutil.copy2(built, binary + ".part")
        os.replace(binary + ".part", binary)
        shutil.rmtree(out, ignore_errors=True)
        if kind == "archive":
            shutil.rmtree(os.path.dirname(source), ignore_errors=True)
    return binary


def main():
    try:
        print(build())
    except BuildError as e:
        sys.exit("tools.mpy_unix: %s" % e)


if __name__ == "__main__":
    from tools.cli import help_or_go
    help_or_go(__doc__, '-m tools.mpy_unix')
    main()
