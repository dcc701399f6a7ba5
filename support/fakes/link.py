"""A perfect channel of the contract's API (engine_core/link/channel.py), for testing the
session alone: every message arrives once, in order, at the other end's next poll. While the
wire is cut nothing arrives and the ends hear nothing (as the real channel, they deliver
what waited once it is restored)."""


class FakeWire:
    def __init__(self):
        self.queues = ([], [])  # messages on their way to end 0 and to end 1
        self.cut_now = False
        self.ends = (FakeChannel(self, 0), FakeChannel(self, 1))

    def end(self, i):
        return self.ends[i]

    def cut(self, flag):
        self.cut_now = flag


class FakeChannel:
    def __init__(self, wire, side):
        self.wire = wire
        self.side = side
        self.rx = bytearray(120)
        self.rx_len = 0
        self.inbox = []
        self.heard = 0
        self.sent = self.resent = self.received = self.bad = self.duplicates = self.restarts = 0
        self.payload_bytes = 0
        self.window = 1000  # messages in flight before send() says no
        self.now = 0

    def send(self, kind, data, length):
        assert 1 <= kind <= 63 and length <= 120
        queue = self.wire.queues[1 - self.side]
        if len(queue) >= self.window:
            return False
        queue.append((kind, bytes(data[:length])))
        self.sent += 1
        self.payload_bytes += length + 1
        return True

    def poll(self, now_ms):
        self.now = now_ms
        if self.wire.cut_now:
            return
        self.heard = now_ms  # the other end's keep-alives
        queue = self.wire.queues[self.side]
        self.inbox.extend(queue)
        del queue[:]

    def receive(self):
        if not self.inbox:
            return -1
        kind, data = self.inbox.pop(0)
        self.rx[:len(data)] = data
        self.rx_len = len(data)
        self.received += 1
        return kind

    def silent_ms(self, now_ms):
        return now_ms - self.heard

    def pending(self):
        return len(self.wire.queues[1 - self.side])

    def reset(self):
        self.inbox = []
