"""A reliable channel for small messages between two consoles (docs/link.md).

    from engine_core.link.channel import Channel, PAYLOAD_MAX
    ch = Channel(transport)                 # transport.write(buf, n) -> int, transport.readinto(buf) -> int
    ch.send(kind, data, length) -> bool     # kind 1..63, length <= PAYLOAD_MAX; False: the window is full
    ch.poll(now_ms)                         # read, check, acknowledge, resend, keep alive
    kind = ch.receive()                     # -1 or the next message's kind; its bytes: ch.rx[0:ch.rx_len]

A frame's layout, and how frames are found in a byte stream: frames.py.

Go-back-N with a window of WINDOW frames: a message is written at once if the window has room,
everything unacknowledged is written again RESEND_MS after the last progress, a frame out of
order is dropped, a duplicate is dropped and acknowledged again. A receiver that dropped a frame
out of order sets GAP in the next frame it writes: the sender then writes again at once what
is unacknowledged instead of waiting for RESEND_MS (five times the throughput at 5% loss).
A frame goes out at least every KEEPALIVE_MS, so silent_ms() tells a quiet peer from a gone one.

Epochs: the first EPOCH a fresh channel hears is its peer's. One that differs from it, in two
valid frames whose ECHO is 0 or this side's epoch (one could be line noise that passed the CRC),
means the peer restarted: this side forgets what it was sending and receiving (the session
above starts again with a HELLO) and asks the new peer (GAP) to write its frames again. A
frame whose ECHO names an older epoch of this side was meant for a channel that no longer
exists: its ACK and message are ignored, and this side answers at once so the peer learns the
new epoch. For STALE_MS after a peer restarted, late frames of its former epoch are ignored (a
reordering transport must not make this side flip back). Should the two sides still disagree
(a power-cycled peer that drew its old epoch again, one time in 255), this side hears the peer
acknowledge only what it never sent; after STALL_MS (3 s) of that it takes a new epoch, and
both sides start over. `restarts` counts each start-over: the session's cue for a HELLO.

No allocation after construction: frames are built in and parsed from preallocated buffers.
Call receive() until it gives -1 after each poll: a side that polls but leaves its messages
queued holds the sender back (flow control).
"""


from engine_core.link import pairing
from engine_core.link.pairing import Pairing
from engine_core.link.sending import Sending
from engine_core.link.inbox import QUEUE, Inbox  # noqa: F401
from engine_core.link.messages import PAYLOAD_MAX
from engine_core.link.crc import address_crc, crc16, frame_crc  # noqa: F401 (crc16: the channel's check, for its users)
from engine_core.link.frames import (FRAGMENT, FRAME_MAX, FROM_AT, GAP, HEADER, KIND_MAX, MORE, OVERHEAD,  # noqa: F401
                                     IN_SIZE, READS, SYNC)
from engine_core.link.messages import CLOCK_MASK
from micropython import const

WINDOW = const(8)  # frames in flight; a power of two that divides 256
RESEND_MS = const(200)
KEEPALIVE_MS = const(500)
STALE_MS = const(2000)  # after a peer restarts, frames of its former epoch are ignored this long
STALL_MS = const(3000)  # the peer heard and nothing acknowledged this long: start over
BEACON_MS = const(500)  # an open table's offer goes out this often
_MASK = CLOCK_MASK  # clocks and counters wrap at 2**30, as the app's clock does


def _noise():  # subset: ok (start-up: called from __init__)
    # A power cycle must give a different epoch and console id from the last ones, so
    # something that varies between boots: os.urandom where the port has it, else the
    # microsecond clock. 0..65535.
    e = 0
    try:
        import os
        b = os.urandom(2)
        e = b[0] << 8 | b[1]
    except Exception:  # no urandom (ImportError, AttributeError), or one that fails (WASI)
        import time
        e = hash(time.ticks_us()) & 0xFFFF  # (a small int's hash is itself: the stubs call ticks opaque)
    return e


class Channel(Pairing, Sending):
    """Reliable, ordered, de-duplicated messages of up to PAYLOAD_MAX bytes over `transport`.

    Counters: sent (messages accepted by send()), resent (frames written again), received
    (messages delivered in order), bad (frames or noise rejected: header or CRC), duplicates
    (frames already had), dropped (frames out of order or with no room to queue them), restarts
    (the link started over: the peer's epoch changed, or this side found the link stuck).
    refused (frames of another table or console: pairing.py), epoch: this side's current epoch
    (1..255); pass one for a repeatable test. window: frames in flight (2, 4, 8 or 16).
    me: this console's id (1..65535; 0: the transport's `console_id` if it has one, else drawn).

    Pairing (docs/link.md, "Pairing"): open_table() (a host: its offer goes out as a beacon
    until a guest's first frame pairs it), pair() (a guest: the table it picked), listen()
    (offers from anyone are received, as OFFER messages with rx_table and rx_from; nothing
    is written). A channel made and never paired is a plain point-to-point link.
    """

    def __init__(self, transport, epoch=0, window=WINDOW, me=0):
        if window not in (2, 4, 8, 16):
            raise ValueError("window must be 2, 4, 8 or 16")
        self._t = transport
        self.transport = transport
        # A transport that keeps one peer for a link's life (the simulator's listening socket)
        # is told when a new link begins (pairing.py, _new_link).
        self._renew = hasattr(transport, "new_link")
        self._window = window
        self.epoch = epoch if 0 < epoch < 256 else _noise() % 255 + 1
        if not 0 < me < 65536:
            me = getattr(transport, "console_id", 0)
        self.me = me if 0 < me < 65536 else pairing.new_id(_noise())
        self.listening = False
        self.table = 0  # the table this channel belongs to (0: none)
        self.partner = 0  # the console at the other end (0: not paired)
        self._beacon = bytearray(FRAME_MAX)  # an open table's offer, as a frame
        self._beacon_len = 0
        self._t_beacon = -1
        self.rx_table = 0  # the table and the writer of the message receive() gave
        self.rx_from = 0
        # Send side: one frame buffer per frame in flight (slot = seq % window).
        self._slots = [bytearray(FRAME_MAX) for _ in range(window)]
        self._ackbuf = bytearray(OVERHEAD)
        self._out = bytearray(FRAME_MAX)  # the unwritten rest of a frame the transport took in part
        # Receive side.
        self._tx_addr = bytearray(6)
        self.rx_addr = bytearray(6)
        self._address()
        self._in = bytearray(IN_SIZE)
        self._chunk = bytearray(IN_SIZE - FRAME_MAX)
        self.inbox = Inbox(self._in)  # messages received and not yet taken
        self.rx = self.inbox.slots[0]
        self.rx_len = 0
        self.sent = 0
        self.resent = 0
        self.received = 0
        self.bad = 0
        self.duplicates = 0
        self.dropped = 0
        self.restarts = 0
        self.refused = 0
        self._now = 0
        self._clear()

    def _clear(self):
        self._base = 0  # the oldest unacknowledged seq
        self._count = 0  # frames in flight
        self._upto = 0  # of those, how many have been written in this round
        self._tx_max = 0  # of those, how many have been written at least once
        self._t_data = 0  # when a frame was last written or acknowledged
        self._out_len = 0
        self._expect = 0  # the next seq wanted from the peer
        self._asm = 0  # bytes of a message in two frames had so far
        self.inbox.clear()
        self.rx_len = 0
        self._have = 0
        self._peer = 0  # the peer's epoch (0: not heard yet)
        self._old_peer = 0  # the peer's epoch before it restarted
        self._candidate = 0  # a new epoch heard once (taken when heard again)
        self._t_adopt = 0  # when the peer's epoch was taken
        self._t_sane = 0  # when the peer last acknowledged something inside this side's window
        self._ack_due = False
        self._gap = False  # a frame was dropped out of order: say so in the next frame written
        self._gap_base = -1  # the hole the last early resend was for
        self._gap_t = 0
        self._t_in = -1  # when a valid frame last came (-1: since the first poll)
        self._t_out = -1  # when a frame last went (-1: never: send one at once)

    def reset(self):
        """Forget both queues and the sequence numbers and take a new epoch: a new link.

        The peer notices the new epoch in the next frame and resets its side too.
        """
        self.epoch = self.epoch % 255 + 1
        self._clear()

    # --- receiving ---

    def poll(self, now_ms):
        """Read the transport, deliver, acknowledge, resend and keep alive (no allocation).

        now_ms: a millisecond clock below 2**30 (time.ticks_ms()); it may wrap at 2**30.
        """
        now = now_ms
        self._now = now
        if self._t_in < 0:  # the first poll (since start-up or a reset) starts the clocks
            self._t_in = now
            self._t_data = now
            self._t_sane = now
        # A bounded number of reads, each followed by the frames it completes.
        t = self._t
        for _ in range(READS):
            if self._have == 0:
                n = t.readinto(self._in)
                if not n:
                    break
                self._have = n
            else:
                n = t.readinto(self._chunk)
                if not n:
                    break
                buf = self._in
                chunk = self._chunk
                have = self._have
                i = 0
                while i < n:
                    buf[have + i] = chunk[i]
                    i += 1
                self._have = have + n
            self._parse(now)
        if self._count and ((now - self._t_data) & _MASK) >= RESEND_MS:
            self._upto = 0  # go back: everything unacknowledged again
            self._t_data = now
        # A peer that talks but acknowledges only what this side never sent (an ACK outside
        # base .. base + count, which a consistent link cannot give) disagrees about the link.
        # A silent peer is a cut, not a disagreement: it stops the clock.
        if ((now - self._t_in) & _MASK) > 2 * KEEPALIVE_MS:
            self._t_sane = now
        elif ((now - self._t_sane) & _MASK) >= STALL_MS:
            # Say a power-cycled peer drew its old epoch again. Start over; the peer sees the
            # new epoch and starts over too.
            self.restarts = (self.restarts + 1) & _MASK
            self.reset()  # (the next poll starts the clocks again)
        if not self._talking:
            if self._out_len:
                self._flush()
            elif self._beacon_len and (self._t_beacon < 0 or ((now - self._t_beacon) & _MASK) >= BEACON_MS):
                self._write(self._beacon, self._beacon_len, now)
                self._t_beacon = now
            return
        if self._upto < self._count or self._out_len:
            self._pump(now)
        if self._out_len == 0 and (self._ack_due or self._t_out < 0
                                   or ((now - self._t_out) & _MASK) >= KEEPALIVE_MS):
            b = self._ackbuf
            b[1] = 0
            b[2] = 0
            b[3] = (self._base + self._count) & 0xFF
            self._write(b, OVERHEAD, now)

    def _parse(self, now):
        buf = self._in
        have = self._have
        p = 0
        while True:
            while p < have and buf[p] != SYNC:
                p += 1
            if have - p < HEADER:
                break
            ln = buf[p + 1]
            kind = buf[p + 2] & 0x7F
            if ln > FRAGMENT or kind == MORE or buf[p + 5] == 0:
                self.bad = (self.bad + 1) & _MASK
                p += 1
                continue
            end = p + HEADER + ln + 2
            if end > have:
                break
            # A frame addressed as the link's own frames are (table, from the partner, to this
            # console) starts its CRC from the channel's CRC of those addresses.
            # A frame of this table from the partner starts its CRC from the CRC of the link's
            # own addresses (rx_crc), TO included: a TO that is not this console's (a 16-bit
            # difference, which a CRC-16 always sees) fails that check, and the full one below
            # tells it from noise.
            a = self.rx_addr
            ours = buf[p + 7] == a[0] and buf[p + 8] == a[1] and buf[p + 9] == a[2] and buf[p + 10] == a[3]
            crc = buf[end - 2] << 8 | buf[end - 1]
            if not ours or frame_crc(buf, p, end, self.rx_crc) != crc:
                ours = False
                if frame_crc(buf, p, end, address_crc(buf, p)) != crc:
                    self.bad = (self.bad + 1) & _MASK
                    p += 1
                    continue
            self._frame(buf, p, ln, now, ours)
            p = end
        # Keep the partial frame (or nothing) at the front for the next read.
        i = 0
        while p < have:
            buf[i] = buf[p]
            i += 1
            p += 1
        self._have = i

    def _frame(self, buf, p, ln, now, ours):
        if not ours or self.listening:
            # Not addressed as a paired link's frames are (table, the partner, this console):
            # pairing.py says what it is.
            verdict = pairing.admits(self.listening, self.table, self.partner, self.me, buf[p + 7] << 8 | buf[p + 8],
                                     buf[p + 9] << 8 | buf[p + 10], buf[p + 11] << 8 | buf[p + 12])
            if verdict == pairing.REFUSED:
                self.refused = (self.refused + 1) & _MASK
                return
            if verdict == pairing.BEACON:
                self._offered(buf, p, ln)
                return
            if verdict == pairing.FIRST:
                self.partner = buf[p + 9] << 8 | buf[p + 10]  # the guest who took the table
                self._beacon_len = 0
                self._address()
        epoch = buf[p + 5]
        echo = buf[p + 6]
        if epoch != self._peer:
            if echo and echo != self.epoch:
                self._ack_due = True  # from a former link (or noise): answer with who we are now
                return
            if epoch == self._old_peer and ((now - self._t_adopt) & _MASK) < STALE_MS:
                return  # a late frame of the peer's former self
            self._ack_due = True  # answer at once: the peer learns this side's epoch from it
            if self._peer:
                if epoch != self._candidate:
                    # A peer's new epoch is taken from the second valid frame that carries it,
                    # so that line noise passing the CRC (one candidate in 65,536) cannot
                    # restart the link. (The first epoch heard is taken at once.)
                    self._candidate = epoch
                    return
                self._peer_restarted()
                self._old_peer = self._peer
                self._gap = True  # the answer asks the new peer to write again at once what it has in flight
            self._peer = epoch
            self._t_adopt = now
        self._candidate = 0
        self._t_in = now
        if echo != self.epoch:
            self._ack_due = True  # the peer has not heard this side's epoch yet: tell it now
            if echo:
                return  # meant for an older epoch of this side
        n = (buf[p + 4] - self._base) & 0xFF  # frames the peer acknowledges now
        if n <= self._count:
            self._t_sane = now
            if n:
                self._base = buf[p + 4]
                self._count -= n
                self._upto = self._upto - n if self._upto > n else 0
                self._tx_max = self._tx_max - n if self._tx_max > n else 0
                self._t_data = now
        kind = buf[p + 2]
        if kind & GAP:
            kind &= 0x7F
            # The peer is missing the frame it acknowledges up to: write everything again now
            # rather than after RESEND_MS; once per hole (or per RESEND_MS / 2), as a burst of
            # frames out of order brings several of these.
            if self._count and (self._base != self._gap_base or ((now - self._gap_t) & _MASK) >= RESEND_MS // 2):
                self._upto = 0
                self._t_data = now
                self._gap_base = self._base
                self._gap_t = now
        if kind == 0:
            return
        self._ack_due = True
        seq = buf[p + 3]
        if seq != self._expect:
            if ((self._expect - seq) & 0xFF) <= 16:
                self.duplicates = (self.duplicates + 1) & _MASK
            else:
                self.dropped = (self.dropped + 1) & _MASK
                self._gap = True
            return
        at = self._asm
        if at + ln > PAYLOAD_MAX or (at == 0 and self.inbox.count >= QUEUE + self.inbox.held):
            self.dropped = (self.dropped + 1) & _MASK  # no room: the peer writes it again
            return
        inbox = self.inbox
        self._expect = (seq + 1) & 0xFF
        slot = (inbox.head + inbox.count) % (QUEUE + 1)
        src = p + HEADER
        if inbox.fb_in is not None and (at == 0 or at == FRAGMENT):
            # framebuf's blit copies in C without allocating (a quarter of the fuel of a loop);
            # it copies as far as the slot goes, and the rest of a message comes after.
            (inbox.fb_head if at == 0 else inbox.fb_tail)[slot].blit(inbox.fb_in, -src, 0)
        else:
            dst = inbox.slots[slot]
            for i in range(ln):
                dst[at + i] = buf[src + i]
        if kind & MORE:
            self._asm = at + ln
            return
        self._asm = 0
        inbox.kind[slot] = kind
        inbox.length[slot] = at + ln
        inbox.table[slot] = self.table
        inbox.writer[slot] = self.partner
        inbox.count += 1
        self.received = (self.received + 1) & _MASK

    def _offered(self, buf, p, ln):
        # A beacon: delivered as a message of its own (no sequence number, no acknowledgement)
        # when it is whole and the queue has room; beacons come again.
        kind = buf[p + 2] & 0x7F
        inbox = self.inbox
        if kind == 0 or kind & MORE or self._asm or inbox.count >= QUEUE + inbox.held:
            return
        slot = (inbox.head + inbox.count) % (QUEUE + 1)
        dst = inbox.slots[slot]
        for i in range(ln):
            dst[i] = buf[p + HEADER + i]
        inbox.kind[slot] = kind
        inbox.length[slot] = ln
        inbox.table[slot] = buf[p + 7] << 8 | buf[p + 8]
        inbox.writer[slot] = buf[p + 9] << 8 | buf[p + 10]
        inbox.count += 1

    def _peer_restarted(self):
        # The peer is a new channel: nothing sent to or received from its old self matters.
        self.restarts = (self.restarts + 1) & _MASK
        self._base = 0
        self._count = 0
        self._upto = 0
        self._tx_max = 0
        self._out_len = 0
        self._expect = 0
        self._asm = 0
        self.inbox.clear()
        self.rx_len = 0

    def receive(self):
        """The kind of the next message in order, or -1; its bytes are self.rx[0:self.rx_len],
        valid until the next receive()."""
        inbox = self.inbox
        if inbox.held:
            inbox.held = False
            inbox.head = (inbox.head + 1) % (QUEUE + 1)
            inbox.count -= 1
        if inbox.count == 0:
            self.rx_len = 0
            return -1
        h = inbox.head
        inbox.held = True
        self.rx = inbox.slots[h]
        self.rx_len = inbox.length[h]
        self.rx_table = inbox.table[h]
        self.rx_from = inbox.writer[h]
        return inbox.kind[h]

    def silent_ms(self, now_ms):
        """Milliseconds since the last valid frame from the peer (since the first poll if none)."""
        if self._t_in < 0:
            return 0
        return (now_ms - self._t_in) & _MASK
