"""Records in the browser: the engine's storage interface (engine_core/storage.py) on the
page's localStorage, so settings, statistics and the game in progress keep their record
format (engine_core/records.py) and their recovery from a damaged record.

Each file is one localStorage item named PREFIX + the file's name ("pocket-cards/game.dat"),
its bytes written as lower-case hex (localStorage keeps strings). An item that is not hex
reads as an OSError, which records.py treats as a file cut short: set aside, defaults used.
A write the browser refuses (its quota is full, or any other error of its storage) is
OSError(ENOSPC), which the Keeper reports as a full filesystem. The page hands over a store
whose methods never throw (web/page.js: a JavaScript exception would not become a Python one
here, it would stop the page): setItem and removeItem return '' or the error's name. A
damaged item too large to be copied aside is logged by its key, and records.py removes it.
Runs on MicroPython in the page (web/main.py) and on CPython (tests).
"""

import binascii

from engine_core.storage import ENOENT, ENOSPC

PREFIX = "pocket-cards/"
EIO = 5


class LocalStorage:
    """Files as items of `store`: the page's window.localStorage, or anything with its
    getItem(key) -> str or None, setItem(key, str) and removeItem(key)."""

    def __init__(self, store, prefix=PREFIX, log=print):
        self.store = store
        self.prefix = prefix
        self.tag = ""  # one page writes its records at a time
        self.atomic = False  # records go through a temporary item (engine_core/storage.py)
        self.log = log  # where an item removed for want of room is told (the page's console)
        self.told = ""  # the key last told of

    def listing(self):
        """No other writer leaves temporary files here (records.py looks for them)."""
        return ()

    def key(self, name):
        return self.prefix + name

    def read(self, name, buf):
        text = self.store.getItem(self.key(name))
        if text is None:
            return -1
        if len(text) > 2 * len(buf):
            raise OSError(EIO)  # longer than any record: damaged (not decoded, not copied)
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
            refused = self.store.setItem(key, text)  # '' or None: stored
        except Exception:  # a store that raises (a Python one; the page's never does)
            refused = "error"
        if refused:
            raise OSError(ENOSPC)

    def rename(self, src, dst):
        text = self.store.getItem(self.key(src))
        if text is None:
            raise OSError(ENOENT)
        if text[:1] == "!":  # the page could not hand it over (too long to copy, unreadable)
            self.too_big(self.key(src), text)
            raise OSError(ENOSPC)
        try:
            self._set(self.key(dst), text)
        except OSError:
            # No room for both copies: drop the old one first. records.py recovers from a
            # tab closed between the two steps (the new file is then the temp).
            self.store.removeItem(self.key(dst))
            try:
                self._set(self.key(dst), text)
            except OSError:
                self.too_big(self.key(src), text)
                raise
        self.store.removeItem(self.key(src))

    def too_big(self, key, text):
        """An item there is no room to copy, or that the page could not hand over (records.py
        then removes it): its key goes to the log first, once, so that someone can tell what
        went."""
        if key != self.told:
            self.told = key
            why = text[1:] if text[:1] == "!" else "%d characters" % len(text)
            self.log("%s (%s): no room to set it aside, removed" % (key, why))

    def remove(self, name):
        self.store.removeItem(self.key(name))

    def exists(self, name):
        return self.store.getItem(self.key(name)) is not None
