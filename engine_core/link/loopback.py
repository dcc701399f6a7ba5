"""A simulated link between two channels, with seeded faults, for tests (docs/link.md).

    from engine_core.link.loopback import Wire
    wire = Wire(seed, drop=0, dup=0, reorder=0, corrupt=0, delay=0)   # per-mille rates per chunk
    a, b = wire.end(0), wire.end(1)     # transports: what a writes, b reads, and back
    wire.cut(True)                      # from now on everything written is lost ...
    wire.cut(False)                     # ... until now
    wire.deliver(now_ms)                # the wire's clock: a chunk is readable `delay` ms after it was written

Each write(buf, n) is one chunk; readinto(buf) gives the bytes of one chunk (the rest of a chunk
longer than buf stays for the next read), so the wire behaves like datagrams and like a byte
stream at once. Every chunk written draws from the seeded generator (engine_core/rng.py):
lost (drop), queued twice (dup), held back and delivered after the next chunk (reorder), one
byte changed (corrupt). The same seed and the same writes give the same faults on CPython and
MicroPython. All buffers are made in the constructor: writing and reading allocate nothing, so
the wire runs under micropython.heap_lock() too. A chunk that does not fit the wire's buffer is
refused (write returns 0), as a full UART buffer would.
"""

from micropython import const

from array import array

from engine_core import rng

CAPACITY = const(4096)  # bytes in flight each way
CHUNKS = const(64)  # chunks in flight each way
HOLD_MAX = const(256)  # a longer chunk is never held back


class _End:
    """One end of the wire: a transport."""

    def __init__(self, wire, side):
        self._wire = wire
        self._side = side

    def write(self, buf, n):
        return self._wire.put(self._side, buf, n)

    def readinto(self, buf):
        return self._wire.take(1 - self._side, buf)


class Wire:
    """Two transports joined through a faulty medium. Counters: dropped, duplicated, reordered,
    corrupted, lost (written while cut), refused (did not fit)."""

    def __init__(self, seed, drop=0, dup=0, reorder=0, corrupt=0, delay=0):
        self.drop = drop
        self.dup = dup
        self.reorder = reorder
        self.corrupt = corrupt
        self.delay = delay
        self._x = rng.seed_state(seed)
        self._cut = False
        self._clock = 0
        # Per direction (0: written at end 0, read at end 1; 1: the other way).
        self._data = [bytearray(CAPACITY), bytearray(CAPACITY)]
        self._start = array("i", [0, 0])  # first byte of the oldest chunk
        self._used = array("i", [0, 0])  # bytes queued
        self._clen = [array("i", [0] * CHUNKS), array("i", [0] * CHUNKS)]
        self._ctime = [array("i", [0] * CHUNKS), array("i", [0] * CHUNKS)]
        self._chead = array("i", [0, 0])
        self._ccount = array("i", [0, 0])
        self._held = [bytearray(HOLD_MAX), bytearray(HOLD_MAX)]
        self._held_len = array("i", [0, 0])
        self._ends = (_End(self, 0), _End(self, 1))
        self.dropped = 0
        self.duplicated = 0
        self.reordered = 0
        self.corrupted = 0
        self.lost = 0
        self.refused = 0

    def end(self, side):
        """The transport at end 0 or 1."""
        return self._ends[side]

    def cut(self, on):
        """While cut, everything written (and anything held back) is lost."""
        self._cut = on
        if on:
            self._held_len[0] = 0
            self._held_len[1] = 0

    def deliver(self, now_ms):
        """Set the wire's clock: chunks written `delay` ms ago or earlier become readable."""
        self._clock = now_ms

    def _draw(self):
        self._x = rng.step(self._x)
        return self._x % 1000

    def put(self, d, buf, n):
        """Write buf[0:n] into direction d; returns n (taken, perhaps lost) or 0 (no room)."""
        if n <= 0:
            return 0
        if not self._fits(d, n + self._held_len[d]):
            self.refused += 1
            return 0
        if self._cut:
            self.lost += 1
            return n
        if self._draw() < self.drop:
            self.dropped += 1
            return n
        flip = -1
        if self._draw() < self.corrupt:
            self.corrupted += 1
            flip = self._draw() % n
        twice = self._draw() < self.dup
        if self._draw() < self.reorder and self._held_len[d] == 0 and n <= HOLD_MAX and not twice:
            self.reordered += 1
            held = self._held[d]
            for i in range(n):
                held[i] = buf[i]
            if flip >= 0:
                held[flip] ^= 1 + self._draw() % 255
            self._held_len[d] = n
            return n
        self._queue(d, buf, n, flip)
        if twice and self._fits(d, n + self._held_len[d]):
            self.duplicated += 1
            self._queue(d, buf, n, -1)
        if self._held_len[d]:
            self._queue(d, self._held[d], self._held_len[d], -1)
            self._held_len[d] = 0
        return n

    def _fits(self, d, n):
        return self._used[d] + n <= CAPACITY and self._ccount[d] + 2 < CHUNKS

    def _queue(self, d, buf, n, flip):
        data = self._data[d]
        pos = (self._start[d] + self._used[d]) % CAPACITY
        for i in range(n):
            data[pos] = buf[i]
            pos += 1
            if pos == CAPACITY:
                pos = 0
        if flip >= 0:
            k = (self._start[d] + self._used[d] + flip) % CAPACITY
            data[k] ^= 1 + self._draw() % 255
        self._used[d] += n
        c = (self._chead[d] + self._ccount[d]) % CHUNKS
        self._clen[d][c] = n
        self._ctime[d][c] = self._clock
        self._ccount[d] += 1

    def take(self, d, buf):
        """Copy (part of) the oldest readable chunk of direction d into buf; bytes copied."""
        if self._ccount[d] == 0:
            return 0
        h = self._chead[d]
        if self.delay and self._clock - self._ctime[d][h] < self.delay:
            return 0
        left = self._clen[d][h]
        n = len(buf)
        if n > left:
            n = left
        data = self._data[d]
        pos = self._start[d]
        for i in range(n):
            buf[i] = data[pos]
            pos += 1
            if pos == CAPACITY:
                pos = 0
        self._start[d] = pos
        self._used[d] -= n
        if n == left:
            self._chead[d] = (h + 1) % CHUNKS
            self._ccount[d] -= 1
        else:
            self._clen[d][h] = left - n
        return n
