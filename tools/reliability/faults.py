"""A storage backend that fails on purpose: power cuts, a full filesystem, FAT-style renames,
littlefs-style whole-file writes.

Runs on CPython and MicroPython (the soak drives it on both). Based on MemoryStorage, so what
survives a cut is exactly the bytes stored before it.

    disk = FaultyStorage()
    disk.cut_after_bytes(17)   # the 18th byte written never lands, and nothing after it
    disk.cut_after_ops(2)      # the third write/rename/remove never happens
    disk.fat = True            # rename over an existing file = remove, then rename (two steps)
    disk.atomic = True         # a write cut short leaves the file as it was (littlefs)
    disk.capacity = 100        # writes past 100 bytes in all raise OSError(ENOSPC)
After a cut every call raises PowerCut until restart() (the device powered up again).
"""

from engine_core.storage import MemoryStorage


class PowerCut(Exception):
    """The power went: nothing after this point reaches the storage."""


class FaultyStorage(MemoryStorage):
    def __init__(self, files=8, size=2048, capacity=0):
        MemoryStorage.__init__(self, files, size, capacity)
        self.bytes_left = -1  # bytes that may still be stored before the cut (-1: no cut)
        self.ops_left = -1  # operations that may still happen before the cut (-1: no cut)
        self.dead = False
        self.fat = False
        self.bytes_written = 0  # counters, to size the experiments
        self.ops = 0

    def cut_after_bytes(self, n):
        self.bytes_left = n

    def cut_after_ops(self, n):
        self.ops_left = n

    def restart(self):
        self.dead = False
        self.bytes_left = -1
        self.ops_left = -1

    def _alive(self):
        if self.dead:
            raise PowerCut()
        if self.ops_left == 0:
            self.dead = True
            raise PowerCut()
        if self.ops_left > 0:
            self.ops_left -= 1
        self.ops += 1

    def wrote_byte(self):
        self.bytes_written += 1
        if self.bytes_left > 0:
            self.bytes_left -= 1

    def write(self, name, buf, n):
        self._alive()
        if self.bytes_left >= 0 and n > self.bytes_left:
            # Store what fits before the cut, then die (littlefs: nothing, the file is as it was).
            if not self.atomic:
                MemoryStorage.write(self, name, buf, self.bytes_left)
            self.dead = True
            raise PowerCut()
        if self.atomic and (n > self.size or n > self.capacity - self.used() + self._length(name)):
            raise OSError(28)  # ENOSPC, and the file as it was
        MemoryStorage.write(self, name, buf, n)

    def _length(self, name):
        i = self._slot(name)
        return self.length[i] if i >= 0 else 0

    def rename(self, src, dst):
        self._alive()
        if self.fat and self.exists(dst):
            MemoryStorage.remove(self, dst)
            self._alive()  # a cut may fall between the two steps
        MemoryStorage.rename(self, src, dst)

    def remove(self, name):
        self._alive()
        MemoryStorage.remove(self, name)

    def read(self, name, buf):
        if self.dead:
            raise PowerCut()
        return MemoryStorage.read(self, name, buf)
