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

Epochs (docs/link.md, "Epochs: a peer that restarts"): the first EPOCH a fresh channel hears
is its peer's; another, in two valid frames whose ECHO is 0 or this side's epoch, means the
peer restarted: this side forgets what it was sending and receiving and asks the new peer
(GAP) to write its frames again. A frame whose ECHO names an older epoch of this side is
ignored and answered at once; late frames of a restarted peer's former epoch are ignored for
STALE_MS; a peer that acknowledges only what this side never sent for STALL_MS has both sides
take new epochs. `restarts` counts each start-over: the session's cue for a HELLO.

The channel's parts, each made once with what it needs: the send window (sending.py), the
pairing (pairing.py: whose frames, the beacon) and the receive queue (inbox.py); each
module says what it offers and asks (docs/link.md, "The session's parts").

No allocation after construction: frames are built in and parsed from preallocated buffers.
Call receive() until it gives -1 after each poll: a side that polls but leaves its messages
queued holds the sender back (flow control).
"""


from engine_core.link import pairing
from engine_core.link.pairing import BEACON_MS, Pairing  # noqa: F401 (BEACON_MS: for the link's users)
from engine_core.link.sending import Sending
from engine_core.link.inbox import QUEUE, Inbox  # noqa: F401
from engine_core.link.messages import PAYLOAD_MAX
from engine_core.link.crc import address_crc, crc16, frame_crc  # noqa: F401 (crc16: the channel's check, for its users)
from engine_core.link.frames import (FRAGMENT, FRAME_MAX, FROM_AT, GAP, HEADER, KIND_MAX, MORE, OVERHEAD,  # noqa: F401
                                     IN_SIZE, READS, SYNC)
from engine_core.link.messages import CLOCK_MASK  # noqa: F401 (_MASK below is its value)
from micropython import const

WINDOW = const(8)  # frames in flight; a power of two that divides 256
RESEND_MS = const(200)
KEEPALIVE_MS = const(500)
STALE_MS = const(2000)  # after a peer restarts, frames of its former epoch are ignored this long
STALL_MS = const(3000)  # the peer heard and nothing acknowledged this long: start over
_MASK = const(0x3FFFFFFF)  # messages.CLOCK_MASK, folded where used: clocks and counters wrap at 2**30
_OFFER = const(1)  # messages.OFFER and FULL: the kinds a beacon carries (an offer to anyone)
_FULL = const(11)


class Channel:
    """Reliable, ordered, de-duplicated messages of up to PAYLOAD_MAX bytes over `transport`.

    Counters: sent (messages accepted by send()), resent (frames written again), received
    (messages delivered in order), bad (frames or noise rejected: header or CRC), duplicates
    (frames already had), dropped (frames out of order or with no room to queue them), restarts
    (the link started over: the peer's epoch changed, or this side found the link stuck).
    refused (frames of another table or console: pairing.py), epoch: this side's current epoch
    (1..255); pass one for a repeatable test. window: frames in flight (2, 4, 8 or 16).
    me: this console's id (1..65535; 0: the transport's `console_id` if it has one, else drawn).

    Pairing (docs/link.md, "Pairing"): open_table() (a host), pair() (a guest), listen()
    (offers from anyone are received, as OFFER messages with rx_table and rx_from). A channel
    made and never paired is a plain point-to-point link.
    """

    def __init__(self, transport, epoch=0, window=WINDOW, me=0):
        if window not in (2, 4, 8, 16):
            raise ValueError("window must be 2, 4, 8 or 16")
        self._t = transport
        self.transport = transport
        # A transport that keeps one peer for a link's life (the simulator's listening socket)
        # is told when a new link begins (_new_link).
        self._renew = hasattr(transport, "new_link")
        self.epoch = epoch if 0 < epoch < 256 else pairing.draw_noise() % 255 + 1
        if not 0 < me < 65536:
            me = getattr(transport, "console_id", 0)
        self.me = me if 0 < me < 65536 else pairing.new_id(pairing.draw_noise())
        self.pairing = Pairing(self.me)  # whose frames (pairing.py)
        self.rx_table = 0  # the table and the writer of the message receive() gave
        self.rx_from = 0
        self.sending = Sending(self, window)  # the send window (sending.py)
        self._ackbuf = bytearray(OVERHEAD)
        self._out = bytearray(FRAME_MAX)  # the unwritten rest of a frame the transport took in part
        self._readdress()
        # Receive side.
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
        self.sending.clear()
        self.sending.start_clock(0)
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

    # --- pairing (pairing.py) ---

    def open_table(self, table, kind, data, n):
        """Host: a new link for `table` (1..65535), whose offer (a message of `kind`,
        data[0:n], at most FRAGMENT bytes) goes out as a beacon every BEACON_MS until the
        first guest's frame for it pairs the channel with that guest."""
        if n > FRAGMENT:
            raise ValueError("an offer fits one frame")
        self._new_link(False, table, 0)
        self.pairing.offer(kind, data, n)

    def pair(self, table, partner):
        """Guest: a new link to console `partner`'s `table` (the offer its player picked)."""
        self._new_link(False, table, partner)

    def listen(self):
        """No link: offers from any console are received (OFFER messages, rx_table, rx_from);
        nothing is written."""
        self._new_link(True, 0, 0)

    def paired(self):
        return self.pairing.partner != 0

    def announce(self, kind):
        """Host: the table taken, its offer goes on as a beacon of `kind` (FULL: a listening
        console lists the table as taken) every second while the link lasts; 0 stops it."""
        self.pairing.offer(kind, None, 0)

    def _new_link(self, listening, table, partner):
        self.reset()
        if self._renew:
            self._t.new_link()
        self.pairing.link(listening, table, partner)
        self._readdress()

    def _readdress(self):
        # The pairing changed: its addresses into every frame buffer this side writes from;
        # its table and partner shown as the channel's, and whether it writes link frames
        # (plain attributes, not properties: a class with a property looks up every attribute
        # stored in the class first, which costs a received frame about 25,000 fuel).
        pr = self.pairing
        for b in self.sending.slots:
            pr.stamp(b)
        pr.stamp(self._ackbuf)
        self.table = pr.table
        self.partner = pr.partner
        self._talking = pr.talking

    # --- sending (the window: sending.py) ---

    def send(self, kind, data, length):
        """Queue data[0:length] as a message of `kind`; False (nothing queued) when the window is full.

        Raises ValueError for a kind outside 1..63 or a length outside 0..PAYLOAD_MAX.
        The message is written at once if the transport takes it.
        """
        w = self.sending
        if not w.put(kind, data, length):
            return False
        self.sent = (self.sent + 1) & _MASK
        if self._talking:
            self.resent = (self.resent + w.pump(self._now)) & _MASK
        return True

    def pending(self):
        """Messages sent and not yet acknowledged."""
        return self.sending.pending()

    def write_frame(self, buf, n, now, addr_crc=-1):
        """Fill in ACK, EPOCH, ECHO and the CRC and hand the frame to the transport; the rest
        of it is kept if the transport took a part. Returns the bytes taken (0: nothing, the
        frame stays where it is for the next try). addr_crc: the CRC of the frame's own
        addresses when they are not the link's (a beacon to anyone while paired)."""
        buf[0] = SYNC
        buf[4] = self._expect
        buf[5] = self.epoch
        buf[6] = self._peer
        if self._gap:
            buf[2] |= GAP
        else:
            buf[2] &= 0x7F
        c = frame_crc(buf, 0, n, self.pairing.tx_crc if addr_crc < 0 else addr_crc)
        buf[n - 2] = c >> 8
        buf[n - 1] = c & 0xFF
        w = self._t.write(buf, n)
        if not w or w < 0:
            return 0
        taken = w
        out = self._out
        i = 0
        while w < n:
            out[i] = buf[w]
            i += 1
            w += 1
        self._out_len = i
        self._t_out = now
        self._ack_due = False
        self._gap = False
        return taken

    def finish(self):
        """Write what the transport left of the last frame; True when nothing of it waits."""
        n = self._out_len
        if n == 0:
            return True
        out = self._out
        w = self._t.write(out, n)
        if w is None or w <= 0:
            return False
        i = 0
        while w < n:
            out[i] = out[w]
            i += 1
            w += 1
        self._out_len = i
        return i == 0

    # --- receiving ---

    def poll(self, now_ms):
        """Read the transport, deliver, acknowledge, resend and keep alive (no allocation).

        now_ms: a millisecond clock below 2**30 (time.ticks_ms()); it may wrap at 2**30.
        """
        now = now_ms
        self._now = now
        w = self.sending
        if self._t_in < 0:  # the first poll (since start-up or a reset) starts the clocks
            self._t_in = now
            w.start_clock(now)
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
        if w.count and ((now - w.t_data) & _MASK) >= RESEND_MS:
            w.go_back(now)  # everything unacknowledged again
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
            pr = self.pairing
            if self._out_len:
                self.finish()
            elif pr.beacon_due(now):
                self.write_frame(pr.beacon, pr.beacon_len, now)
                pr.beaconed(now)
            return
        if w.upto < w.count or self._out_len:
            self.resent = (self.resent + w.pump(now)) & _MASK
        if self._out_len == 0 and (self._ack_due or self._t_out < 0
                                   or ((now - self._t_out) & _MASK) >= KEEPALIVE_MS):
            b = self._ackbuf
            b[1] = 0
            b[2] = 0
            b[3] = (w.base + w.count) & 0xFF
            self.write_frame(b, OVERHEAD, now)
        elif self._out_len == 0 and self.pairing.beacon_len and self.pairing.beacon_due(now):
            # A taken table's beacon (FULL), to anyone in range: not a keep-alive for the
            # partner, nor an answer to it (its clock and GAP stay as they were).
            pr = self.pairing
            t_out = self._t_out
            gap = self._gap
            self._gap = False
            self.write_frame(pr.beacon, pr.beacon_len, now, address_crc(pr.beacon, 0))
            self._t_out = t_out
            self._gap = gap
            pr.beaconed(now)

    def _parse(self, now):
        buf = self._in
        pr = self.pairing
        a = pr.rx_addr  # (changed in place when the link's addresses change)
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
            ours = buf[p + 7] == a[0] and buf[p + 8] == a[1] and buf[p + 9] == a[2] and buf[p + 10] == a[3]
            crc = buf[end - 2] << 8 | buf[end - 1]
            if not ours or frame_crc(buf, p, end, pr.rx_crc) != crc:
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
        pr = self.pairing
        if not ours or pr.listening:
            # Not addressed as a paired link's frames are (table, the partner, this console):
            # pairing.py says what it is.
            verdict = pairing.admits(pr.listening, pr.table, pr.partner, pr.me, buf[p + 7] << 8 | buf[p + 8],
                                     buf[p + 9] << 8 | buf[p + 10], buf[p + 11] << 8 | buf[p + 12])
            if verdict == pairing.REFUSED:
                self.refused = (self.refused + 1) & _MASK
                return
            if verdict == pairing.OWN:
                return  # the partner's beacon of this table: for the others in range
            if verdict == pairing.BEACON:
                kind = buf[p + 2] & 0x7F
                if kind != _OFFER and kind != _FULL:  # a stranger's frame to anyone is an offer or nothing
                    self.refused = (self.refused + 1) & _MASK
                    return
                if not self._asm:  # (a message in two frames being put together goes first)
                    self.inbox.offer(buf, p, ln)
                return
            if verdict == pairing.FIRST:
                pr.took(buf[p + 9] << 8 | buf[p + 10])  # the guest who took the table
                self._readdress()
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
        w = self.sending
        n = (buf[p + 4] - w.base) & 0xFF  # frames the peer acknowledges now
        if n <= w.count:
            self._t_sane = now
            if n:
                w.acked(n, buf[p + 4], now)
        kind = buf[p + 2]
        if kind & GAP:
            kind &= 0x7F
            # The peer is missing the frame it acknowledges up to: write everything again now
            # rather than after RESEND_MS; once per hole (or per RESEND_MS / 2), as a burst of
            # frames out of order brings several of these.
            if w.count and (w.base != self._gap_base or ((now - self._gap_t) & _MASK) >= RESEND_MS // 2):
                w.go_back(now)
                self._gap_base = w.base
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
        inbox = self.inbox
        count = inbox.count
        if at + ln > PAYLOAD_MAX or (at == 0 and count >= QUEUE + inbox.held):
            self.dropped = (self.dropped + 1) & _MASK  # no room: the peer writes it again
            return
        self._expect = (seq + 1) & 0xFF
        slot = (inbox.head + count) % (QUEUE + 1)
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
        inbox.table[slot] = pr.table
        inbox.writer[slot] = pr.partner
        inbox.count = count + 1
        self.received = (self.received + 1) & _MASK

    def _peer_restarted(self):
        # The peer is a new channel: nothing sent to or received from its old self matters.
        self.restarts = (self.restarts + 1) & _MASK
        self.sending.clear()
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
