"""One shared medium for any number of consoles, in one process (as ESP-NOW's broadcast, or
consoles that all hear each other): whatever one end writes, every other end reads, one chunk
(datagram) at a time. `log` keeps every chunk written, (end, bytes), to be replayed."""


class Air:
    def __init__(self):
        self.ends = []
        self.log = []

    def end(self):
        e = AirEnd(self, len(self.ends))
        self.ends.append(e)
        return e

    def put(self, writer, data):
        self.log.append((writer, data))
        for e in self.ends:
            if e.index != writer:
                e.inbox.append(data)

    def replay(self, data, to=None):
        """`data` arrives again, at every end (or at end `to` alone)."""
        for e in self.ends:
            if to is None or e.index == to:
                e.inbox.append(bytes(data))


class AirEnd:
    def __init__(self, air, index):
        self.air = air
        self.index = index
        self.inbox = []

    def write(self, buf, n):
        self.air.put(self.index, bytes(buf[:n]))
        return n

    def readinto(self, buf):
        if not self.inbox:
            return 0
        data = self.inbox[0]
        n = min(len(buf), len(data))
        buf[:n] = data[:n]
        if n == len(data):
            self.inbox.pop(0)
        else:
            self.inbox[0] = data[n:]
        return n
