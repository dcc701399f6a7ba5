"""What a link session sends (engine_core/link/session.py makes one Outbox): messages wait in
a queue until the channel's send window takes them, in order; moves of one generation that
wait together travel in one MOVE message, and a placeholder in the queue stands for the
chunks of the host's state (transfer.py). Everything is allocated by the constructor.

The Outbox's own state: the queue, `tx` (the buffer a part builds a message in before it
queues it) and the counts of what went (bytes_sent, messages_sent, moves_sent) and of what
found the queue full (dropped).

What the other parts may ask of it: queue(kind, b, n), send_record(b, n), move_record(seat,
move), send_move(seat, move), queue_state(), forget(), flush(), waiting(), overflowed(), and
`tx`. What it asks of the session: the generation (`gen`) and, once the host's state has
gone, state_sent(); of the channel: send(); of the Transfer: more(), chunk(b), sent(n).
"""

from engine_core.link import messages as m

from micropython import const

_TYPING = const(0)  # true for the type checker alone (tools/device/mypy-device.ini, always_true)
if _TYPING:
    from engine_core.link.channel import Channel
    from engine_core.link.session import Session
    from engine_core.link.transfer import Transfer

_QUEUE = const(128)  # messages waiting for room in the channel's send window
_SLOT = const(16)  # bytes a waiting message may hold
PLACEHOLDER = const(255)  # a queue slot that stands for the state's chunks


class Outbox:
    def __init__(self, session: "Session", channel: "Channel", transfer: "Transfer"):
        self.s = session
        self.ch = channel
        self.transfer = transfer
        self.q_kind = bytearray(_QUEUE)
        self.q_len = bytearray(_QUEUE)
        self.q_data = bytearray(_QUEUE * _SLOT)
        self.q_head = 0
        self.q_count = 0
        self.pending = False  # a placeholder for the state's chunks is in the queue
        self.tx = bytearray(m.PAYLOAD_MAX)
        self.bytes_sent = 0  # payload bytes handed to the channel, the kind byte included
        self.messages_sent = 0
        self.moves_sent = 0
        self.dropped = 0  # messages that found the queue full (a link down for long)
        self.dropped_seen = 0

    def send_record(self, b, n):
        """A MOVE message of one record, b[0:n] (move_record's head, and more in real time)."""
        self.queue(m.MOVE, b, n)
        self.moves_sent += 1

    def waiting(self):
        """Messages wait for room in the channel's window."""
        return self.q_count > 0

    def move_record(self, seat, move):
        """A MOVE message's first five bytes in tx (gen, seat, the move's three); tx."""
        b = self.tx
        b[0] = self.s.gen
        b[1] = seat
        b[2] = (move >> 16) & 0xFF
        b[3] = (move >> 8) & 0xFF
        b[4] = move & 0xFF
        return b

    def relay(self, d, at, src):
        """A party table's host: a guest's move record d[at:at + 10], taken, to every other
        guest (the queue's kind names the leg it came from: hub.py)."""
        b = self.tx
        b[0] = self.s.gen
        for k in range(m.REALTIME_RECORD):
            b[1 + k] = d[at + k]
        self.queue(m.MOVE | (src + 1) << 6, b, 1 + m.REALTIME_RECORD)

    def send_move(self, seat, move):
        self.send_record(self.move_record(seat, move), 5)

    def forget(self):
        """What waits is dropped (a goodbye goes first, a new link, a new generation)."""
        self.q_count = 0
        self.pending = False

    def queue_state(self):
        """The host's state (in the Transfer) goes next after what waits, once."""
        if not self.pending:
            self.pending = True
            self.queue(PLACEHOLDER, self.tx, 0)

    def overflowed(self):
        """Whether messages were lost because the queue was full since the last call."""
        if self.dropped == self.dropped_seen:
            return False
        self.dropped_seen = self.dropped
        return True

    def queue(self, kind, data, n):
        """data[0:n] as a message of `kind`, after what waits (counted in dropped when full)."""
        if self.q_count == _QUEUE:
            self.dropped += 1  # the session's poll repairs: the host's state goes instead
            return
        i = (self.q_head + self.q_count) % _QUEUE
        self.q_kind[i] = kind
        self.q_len[i] = n
        at = i * _SLOT
        for k in range(n):
            self.q_data[at + k] = data[k]
        self.q_count += 1

    def flush(self):
        """Hand waiting messages to the channel, in order, while its window has room."""
        ch = self.ch
        b = self.tx
        while self.q_count > 0:
            i = self.q_head
            kind = self.q_kind[i]
            if kind == PLACEHOLDER:
                st = self.transfer
                while st.more():
                    n = st.chunk(b)
                    if not ch.send(m.STATE, b, n):
                        return
                    st.sent(n)
                    self.bytes_sent += n + 1
                    self.messages_sent += 1
                self.pending = False
                self.s.state_sent()
                self.q_head = (i + 1) % _QUEUE
                self.q_count -= 1
                continue
            n = self.q_len[i]
            at = i * _SLOT
            for k in range(n):
                b[k] = self.q_data[at + k]
            taken = 1
            if kind & 63 == m.MOVE:  # the moves waiting behind it, of the same generation, join it
                j = (i + 1) % _QUEUE
                while taken < self.q_count and self.q_kind[j] == kind and \
                        self.q_data[j * _SLOT] == b[0] and n + self.q_len[j] - 1 <= m.STATE_HEAD + m.STATE_DATA:
                    at = j * _SLOT
                    for k in range(1, self.q_len[j]):
                        b[n] = self.q_data[at + k]
                        n += 1
                    taken += 1
                    j = (j + 1) % _QUEUE
            if not ch.send(kind, b, n):
                return
            self.bytes_sent += n + 1
            self.messages_sent += 1
            self.q_head = (i + taken) % _QUEUE
            self.q_count -= taken
