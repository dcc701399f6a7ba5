"""The bytes of a record's payload: big-endian integers put and got, and the one checked
reader every decoder of outside input uses (records, undo journals, a link's STATE).

The writers trust their values (the console made them); the reader trusts nothing: each field
is read against a declared range and the whole input is judged before anything is committed
(Reader). No allocation after start-up.
"""

from micropython import const

def put_u16(buf, pos, value):
    buf[pos] = (value >> 8) & 0xFF
    buf[pos + 1] = value & 0xFF
    return pos + 2


def get_u16(buf, pos):
    return buf[pos] << 8 | buf[pos + 1]


def put_i32(buf, pos, value):
    """A small int (-2**30 <= value < 2**30) in four bytes: a sign bit, then 30 bits.

    A negative value is stored as ~value (0 .. 2**30 - 1), so no step needs a larger int.
    """
    top = 0
    if value < 0:
        value = ~value
        top = 0x80
    buf[pos] = top | (value >> 24)
    buf[pos + 1] = (value >> 16) & 0xFF
    buf[pos + 2] = (value >> 8) & 0xFF
    buf[pos + 3] = value & 0xFF
    return pos + 4


def get_i32(buf, pos):
    """Inverse of put_i32. The bit put_i32 never sets (0x40 of the first byte) is ignored
    (Reader.i32 refuses it)."""
    top = buf[pos]
    value = (top & 0x3F) << 24 | buf[pos + 1] << 16 | buf[pos + 2] << 8 | buf[pos + 3]
    if top & 0x80:
        return ~value
    return value


class Reader:
    """The one checked reader of everything read from outside (records, undo journals, a
    link's STATE): fields in order, each within the range the caller declares. A field past
    the end or out of its range marks the input bad (for good: `ok` stays False) and reads as
    its lowest value, so a decoder runs to its end without a test after every field and
    without raising; it commits nothing until `done()` says the whole input passed. The same
    on every runtime: nothing is stored modulo 256, nothing raises. No allocation (decoders
    share the one instance below, READER)."""

    def __init__(self):
        self.buf = bytearray(0)  # the input, once start() gives it
        self.pos = 0
        self.end = 0
        self.ok = False

    def start(self, buf, pos, end):
        """Read buf[pos:end] (a record's payload) from its start."""
        self.buf = buf
        self.pos = pos
        self.end = end
        self.ok = end <= len(buf)
        return self

    def _take(self, n):
        """The position of the next n bytes, or -1 (marked bad) when they are not there."""
        at = self.pos
        if at + n > self.end:
            self.ok = False
            self.pos = self.end
            return -1
        self.pos = at + n
        return at

    def _within(self, value, lo, hi):
        if value < lo or value > hi:
            self.ok = False
            return lo
        return value

    def u8(self, lo, hi):
        """One byte, lo <= value <= hi."""
        at = self._take(1)
        if at < 0:
            return lo
        return self._within(self.buf[at], lo, hi)

    def u16(self, lo, hi):
        """Two bytes, big-endian (put_u16), lo <= value <= hi."""
        at = self._take(2)
        if at < 0:
            return lo
        return self._within(get_u16(self.buf, at), lo, hi)

    def i32(self, lo, hi):
        """Four bytes as put_i32 writes them, lo <= value <= hi; a first byte with the bit
        put_i32 never sets (0x40) is refused too."""
        at = self._take(4)
        if at < 0:
            return lo
        if self.buf[at] & 0x40:
            self.ok = False
            return lo
        return self._within(get_i32(self.buf, at), lo, hi)

    def skip(self, n):
        """Pass over n bytes (read again later, field by field); their position or -1."""
        if n < 0:
            self.ok = False
            return -1
        return self._take(n)

    def done(self):
        """True when every field was in range and the input ended exactly at its end."""
        return self.ok and self.pos == self.end


READER = Reader()
I32_MIN = const(-0x40000000)
I32_MAX = const(0x3FFFFFFF)
