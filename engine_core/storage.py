"""Where records live: a few named files, read and written as whole byte buffers.

A backend offers five operations on short file names ("game.dat"):
  read(name, buf)        -> bytes read into buf (at most len(buf)), or -1 when there is none
  write(name, buf, n)    writes buf[0:n] as the whole file (records.py makes a save atomic)
  rename(src, dst)       replaces dst by src (dst may exist)
  remove(name)           deletes the file when it exists
  exists(name)           True when the file exists
  listing()              the names of the files there (start-up only: it allocates)
and two attributes: `tag`, what makes this process's temporary names its own ('' on the device,
where one program runs; the process id on a host, where two could share a folder); `atomic`,
True where write() replaces the whole file or leaves it as it was, even through a power cut
(littlefs commits a file's new contents on close), so records.py may rewrite a record in place.
Errors are OSError with an errno (28 ENOSPC: the filesystem is full), as the os module raises.
read() raises OSError (EISDIR) for something at the name that is not a regular file (a
folder, a device, a pipe): records.py sets it aside instead of taking it for no file.

FileStorage keeps the files in one folder through the os module: the same code serves the
simulator (a folder on the host) and the device (a folder on its flash, littlefs on RP2040 and
ESP32). MemoryStorage keeps them in preallocated RAM: the tests and the soak use it.
"""

import os

from micropython import const

ENOENT = const(2)
EEXIST = const(17)
ENOSPC = const(28)  # MicroPython's errno module may lack the name; the number is POSIX
EISDIR = const(21)
try:  # this runtime's number for "no such file" (44 on MicroPython's WebAssembly build)
    import errno as _errno
    _NO_FILE = _errno.ENOENT
except (ImportError, AttributeError):
    _NO_FILE = ENOENT
_S_IFMT = const(0o170000)
_S_IFREG = const(0o100000)


def errno_of(error):
    """The errno of an OSError (MicroPython keeps it in args[0])."""
    if error.args and type(error.args[0]) is int:
        return error.args[0]
    return 0


class FileStorage:
    """Files in the folder `root` (created when missing)."""

    opened = 0  # backends this process made: part of each one's tag

    def __init__(self, root, atomic=False):
        self.root = root
        self.tag = ""
        self.atomic = atomic  # the caller knows the folder is on littlefs
        if hasattr(os, "getpid"):  # a host: this process, and this backend in it
            FileStorage.opened += 1
            self.tag = str(os.getpid()) + "-" + str(FileStorage.opened)
        make_dirs(root)

    def path(self, name):
        return self.root + "/" + name

    def read(self, name, buf):
        try:
            mode = os.stat(self.path(name))[0]
        except OSError as e:
            if errno_of(e) == ENOENT or errno_of(e) == _NO_FILE:
                return -1
            raise
        if mode & _S_IFMT != _S_IFREG:  # opening a pipe would wait for a writer for ever
            raise OSError(EISDIR)
        f = open(self.path(name), "rb")
        try:
            n = f.readinto(buf)
            return n if n else 0
        finally:
            f.close()

    def write(self, name, buf, n):
        f = open(self.path(name), "wb")
        try:
            view = memoryview(buf)
            done = 0
            while done < n:
                wrote = f.write(view[done:n])
                if not wrote:
                    raise OSError(ENOSPC)
                done += wrote
            if hasattr(f, "flush"):
                f.flush()
            if hasattr(os, "fsync"):  # CPython: make the bytes durable before the rename
                os.fsync(f.fileno())
        finally:
            f.close()

    def rename(self, src, dst):
        try:
            os.rename(self.path(src), self.path(dst))
        except OSError as e:
            # FAT refuses to rename over an existing file: drop the old one first. records.py
            # recovers from a power cut between the two steps (the new file is then the temp).
            if errno_of(e) != EEXIST:
                raise
            os.remove(self.path(dst))
            os.rename(self.path(src), self.path(dst))

    def remove(self, name):
        try:
            os.remove(self.path(name))
        except OSError as e:
            if errno_of(e) != ENOENT:
                raise

    def exists(self, name):
        try:
            os.stat(self.path(name))
            return True
        except OSError:
            return False

    def listing(self):
        return os.listdir(self.root)


def make_dirs(path):
    """mkdir -p on both runtimes (MicroPython's os has no makedirs)."""
    if hasattr(os, "makedirs"):
        os.makedirs(path, exist_ok=True)
        return
    for i in range(1, len(path)):
        if path[i] == "/":
            try:
                os.mkdir(path[:i])
            except OSError:
                pass
    try:
        os.mkdir(path)
    except OSError:
        pass


class MemoryStorage:
    """Up to `files` files of at most `size` bytes each, in RAM allocated once.

    Reading and writing allocate nothing (names are the caller's constant strings), so the
    save path can run under micropython.heap_lock(). `capacity` bounds the total bytes held,
    like a small filesystem: a write beyond it raises OSError(ENOSPC).
    """

    def __init__(self, files=8, size=2048, capacity=0):
        self.names = [None] * files
        self.data = []
        for _ in range(files):
            self.data.append(bytearray(size))
        self.length = [0] * files
        self.size = size
        self.capacity = capacity if capacity else files * size
        self.tag = ""
        self.atomic = False

    def _slot(self, name):
        for i in range(len(self.names)):
            if self.names[i] == name:
                return i
        return -1

    def used(self):
        total = 0
        for i in range(len(self.names)):
            if self.names[i] is not None:
                total += self.length[i]
        return total

    def read(self, name, buf):
        i = self._slot(name)
        if i < 0:
            return -1
        n = self.length[i]
        if n > len(buf):
            n = len(buf)
        src = self.data[i]
        for k in range(n):
            buf[k] = src[k]
        return n

    def write(self, name, buf, n):
        i = self._slot(name)
        if i < 0:
            i = self._slot(None)
            if i < 0:
                raise OSError(ENOSPC)
            self.names[i] = name
        self.length[i] = 0  # opening for writing truncates, as open(name, "wb") does
        room = self.capacity - self.used()
        if room > self.size:
            room = self.size
        dst = self.data[i]
        for k in range(n):
            if k == room:  # full: what was written stays, the rest never lands
                raise OSError(ENOSPC)
            dst[k] = buf[k]
            self.length[i] = k + 1
            self.wrote_byte()

    def wrote_byte(self):
        """Called after every byte a write stores (a place for tests to cut the power)."""

    def rename(self, src, dst):
        i = self._slot(src)
        if i < 0:
            raise OSError(ENOENT)
        j = self._slot(dst)
        if j >= 0 and j != i:
            self.names[j] = None
            self.length[j] = 0
        self.names[i] = dst

    def remove(self, name):
        i = self._slot(name)
        if i >= 0:
            self.names[i] = None
            self.length[i] = 0

    def exists(self, name):
        return self._slot(name) >= 0

    def listing(self):
        return [name for name in self.names if name is not None]
