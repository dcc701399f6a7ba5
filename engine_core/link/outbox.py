"""What a link session sends (engine_core/link/session.py mixes this in): messages wait in a
queue until the channel's send window takes them, in order; moves of one generation that wait
together travel in one MOVE message, and a placeholder in the queue stands for the chunks of
the host's state (transfer.py). Everything is allocated by _make_outbox().
"""

from engine_core.link import messages as m
from engine_core.link import transfer

from micropython import const

_QUEUE = const(128)  # messages waiting for room in the channel's send window
_SLOT = const(16)  # bytes a waiting message may hold
PLACEHOLDER = const(255)  # a queue slot that stands for the state's chunks


class Outbox:
    def _make_outbox(self):  # subset: ok (start-up: called from Session.__init__)
        self.q_kind = bytearray(_QUEUE)
        self.q_len = bytearray(_QUEUE)
        self.q_data = bytearray(_QUEUE * _SLOT)
        self.q_head = 0
        self.q_count = 0
        self.tx = bytearray(m.PAYLOAD_MAX)

    def send_record(self, b, n):
        """A MOVE message of one record, b[0:n] (move_record's head, and more in real time)."""
        self._queue(m.MOVE, b, n)
        self.moves_sent += 1

    def send_message(self, kind, b, n):
        self._queue(kind, b, n)

    def waiting(self):
        """Messages wait for room in the channel's window."""
        return self.q_count > 0

    def move_record(self, seat, move):
        """A MOVE message's first five bytes in tx (gen, seat, the move's three); tx."""
        b = self.tx
        b[0] = self.gen
        b[1] = seat
        b[2] = (move >> 16) & 0xFF
        b[3] = (move >> 8) & 0xFF
        b[4] = move & 0xFF
        return b

    def _send_move(self, seat, move):
        self.send_record(self.move_record(seat, move), 5)

    def _forget_queue(self):
        self.q_count = 0
        self.s_pending = False

    def _overflowed(self):
        """Messages were lost because the queue was full: what waits is of no more use, the
        host's state replaces it (a new generation)."""
        self.dropped_seen = self.dropped
        if self._playing():
            self.lost()

    def _queue(self, kind, data, n):
        if self.q_count == _QUEUE:
            self.dropped += 1  # poll() repairs: the host's state goes instead
            return
        i = (self.q_head + self.q_count) % _QUEUE
        self.q_kind[i] = kind
        self.q_len[i] = n
        at = i * _SLOT
        for k in range(n):
            self.q_data[at + k] = data[k]
        self.q_count += 1

    def _flush(self):
        """Hand waiting messages to the channel, in order, while its window has room."""
        ch = self.ch
        b = self.tx
        while self.q_count > 0:
            i = self.q_head
            kind = self.q_kind[i]
            if kind == PLACEHOLDER:
                while self.s_pos < self.s_len:
                    n = transfer.chunk(self)
                    if not ch.send(m.STATE, b, n):
                        return
                    self.s_pos += n - m.STATE_HEAD
                    self.bytes_sent += n + 1
                    self.messages_sent += 1
                self.s_pending = False
                if self.is_host:
                    self.go(m.E_AGREE)
                self.q_head = (i + 1) % _QUEUE
                self.q_count -= 1
                continue
            n = self.q_len[i]
            at = i * _SLOT
            for k in range(n):
                b[k] = self.q_data[at + k]
            taken = 1
            if kind == m.MOVE:  # the moves waiting behind it, of the same generation, join it
                j = (i + 1) % _QUEUE
                while taken < self.q_count and self.q_kind[j] == m.MOVE and \
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
