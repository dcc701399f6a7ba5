"""Records in the browser: the engine's storage interface (engine_core/storage.py) on the
page's localStorage, so settings, statistics and the game in progress keep their record
format (engine_core/records.py) and their recovery from a damaged record.

Each file is one localStorage item named PREFIX + the file's name ("pocket-cards/game.dat"),
its bytes written as lower-case hex (localStorage keeps strings). An item that is not hex
reads as an OSError, which records.py treats as a file cut short: set aside, defaults used.
A write the browser refuses (its quota is full) is OSError(ENOSPC), which the Keeper reports
as a full filesystem. Runs on MicroPython in the page (web/main.py) and on CPython (tests).
"""

import binascii

from engine_core.storage import ENOENT, ENOSPC

PREFIX = "pocket-cards/"
EIO = 5


class LocalStorage:
    """Files as items of `store`: the page's window.localStorage, or anything with its
    getItem(key) -> str or None, setItem(key, str) and removeItem(key)."""

    def __init__(self, store, prefix=PREFIX):
        self.store = store
        self.prefix = prefix
        self.tag = ""  # one page writes its records at a time

    def listing(self):
        """No other writer leaves temporary files here (records.py looks for them)."""
        return ()

    def key(self, name):
        return self.prefix + name

    def read(self, name, buf):
        text = self.store.getItem(self.key(name))
        if text is None:
            return -1
        try:
            data = binascii.unhexlify(text)
        except ValueError:
            raise OSError(EIO)
        n = len(data)
        if n > len(buf):
            n = len(buf)
        for i in range(n):
            buf[i] = data[i]
        return n

    def write(self, name, buf, n):
        text = binascii.hexlify(bytes(memoryview(buf)[:n])).decode()
        self._set(self.key(name), text)

    def _set(self, key, text):
        try:
            self.store.setItem(key, text)
        except Exception:  # the browser's QuotaExceededError, as the page's script raises it
            raise OSError(ENOSPC)

    def rename(self, src, dst):
        text = self.store.getItem(self.key(src))
        if text is None:
            raise OSError(ENOENT)
        try:
            self._set(self.key(dst), text)
        except OSError:
            # No room for both copies: drop the old one first. records.py recovers from a
            # tab closed between the two steps (the new file is then the temp).
            self.store.removeItem(self.key(dst))
            self._set(self.key(dst), text)
        self.store.removeItem(self.key(src))

    def remove(self, name):
        self.store.removeItem(self.key(name))

    def exists(self, name):
        return self.store.getItem(self.key(name)) is not None
