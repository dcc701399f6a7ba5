"""A perfect channel of the contract's API (engine_core/link/channel.py), for testing the
session alone: every message arrives once, in order, at the other end's next poll. While the
wire is cut nothing arrives and the ends hear nothing (as the real channel, they deliver
what waited once it is restored). Pairing as the channel's: every message carries its table,
writer and addressee, judged by pairing.admits; an open table's offer arrives at the other
end every BEACON_MS. A message put straight into a queue as (kind, data) is taken as written
by the other end as it is addressed when it arrives."""

from engine_core.link import pairing
from engine_core.link.channel import BEACON_MS


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
        self.me = 0x100 + side
        self.listening = False
        self.table = 0
        self.partner = 0
        self.beacon = None  # (kind, data) of an open table
        self.offered = b""  # its offer's bytes
        self.beacon_at = None
        self.refused = 0
        self.rx_table = self.rx_from = 0

    def open_table(self, table, kind, data, n):
        self._new_link(False, table, 0)
        self.beacon = (kind, bytes(data[:n]))
        self.offered = self.beacon[1]
        self.beacon_at = None

    def announce(self, kind):
        """The taken table's offer goes on as a beacon of `kind` (0: none)."""
        self.beacon = (kind, self.offered) if kind and self.table else None
        self.beacon_at = None

    def pair(self, table, partner):
        self._new_link(False, table, partner)

    def listen(self):
        self._new_link(True, 0, 0)

    def paired(self):
        return self.partner != 0

    def _new_link(self, listening, table, partner):
        self.listening, self.table, self.partner = listening, table, partner
        self.beacon = None
        self.inbox = []  # (what was written is on its way: the other end's pairing judges it)

    def _address(self, item):
        if len(item) == 2:  # straight into the queue: as the other end writes now
            other = self.wire.ends[1 - self.side]
            item = item + (other.table, other.me, other.partner)
        return item

    def send(self, kind, data, length):
        assert 1 <= kind <= 63 and length <= 120
        queue = self.wire.queues[1 - self.side]
        if len(queue) >= self.window:
            return False
        if self.listening or (self.table and not self.partner):
            return True  # a channel that is not paired writes nothing (send's messages wait)
        queue.append((kind, bytes(data[:length]), self.table, self.me, self.partner))
        self.sent += 1
        self.payload_bytes += length + 1
        return True

    def poll(self, now_ms):
        self.now = now_ms
        if self.wire.cut_now:
            return
        other = self.wire.ends[1 - self.side]
        if other.beacon is not None and (other.beacon_at is None or now_ms - other.beacon_at >= BEACON_MS):
            other.beacon_at = now_ms
            self.wire.queues[self.side].append(other.beacon + (other.table, other.me, 0))
        queue = self.wire.queues[self.side]
        for item in queue:
            kind, data, table, writer, to = self._address(item)
            verdict = pairing.admits(self.listening, self.table, self.partner, self.me, table, writer, to)
            if verdict == pairing.REFUSED:
                self.refused += 1
                continue
            if verdict == pairing.OWN:
                continue
            if verdict == pairing.FIRST:
                self.partner = writer
                self.beacon = None
            self.inbox.append((kind, data, table, writer))
        del queue[:]
        self.heard = now_ms  # the other end's keep-alives

    def receive(self):
        if not self.inbox:
            return -1
        kind, data, self.rx_table, self.rx_from = self.inbox.pop(0)
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
