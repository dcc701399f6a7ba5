"""The host's side of a party table: Nerts for three and four consoles (docs/link.md, "The
party table").

A star: the host is the hub and the referee. It holds one Channel (a leg) per guest, each over
a transport of its own (a socket per guest; a wire per guest in the tests), and the session
uses the Hub as its channel: what the session sends goes to every seated guest (a relayed
move to all but the guest it came from: the kind's top bits name that leg), what it receives
comes from any seated guest, `src` naming the leg. Leg i is the guest at the i-th seat the
host marked THERE; its offer marks that seat THERE and the other guests' seats OTHER
(messages.py), so to each guest the host is the two-console peer that plays every seat but
its own, and a guest hears no other guest. Only a console that hosts a table for more than two
makes one: the further legs' buffers are allocated then. Nothing allocates after that.

The session asks of it what it asks of a Channel (send, poll, receive, rx, rx_len, rx_table,
rx_from, silent_ms, restarts, open_table, listen, paired, announce, me) and, at a party table,
seat(leg), reopen(leg), leave(leg), start(session), tend(session, now); it reads `src`,
`live` and `lag` (a leg whose full window made it miss messages: its horizon no longer counts).
What it asks of the session: `players`, `seats`, `owner`, `away`, `outbox`,
`realtime`, `repair`; begin(), configure(), changed().
"""

from array import array

from engine_core.link import messages as m
from engine_core.link.channel import Channel
from engine_core.link.frames import FRAGMENT
from engine_core.link.pairing import FULL_MS

from micropython import const

_TYPING = const(0)  # true for the type checker alone (tools/device/mypy-device.ini, always_true)
if _TYPING:
    from engine_core.link.session import Session

LEGS = const(3)  # guests at one table, at most
AWAY_MS = const(5000)  # a seated guest silent this long is away (session.SILENCE_MS)
BACK_MS = const(1000)  # an away guest heard within this is back
TEND_MS = const(100)  # tend() looks at the legs no more often
BACKLOG = const(8)  # messages a guest's leg keeps while its send window is full (send)
# What becomes of an away guest's seat (the host's choice, `policy`).
WAIT = const(0)  # it waits: the guest comes back with the host's state when it is heard again
BOT = const(1)  # a computer player takes it over for the rest of the round
DROP = const(2)  # it stays as it is, for good


class Hub:
    def __init__(self, channel, transports):
        """channel: this console's own (leg 0); transports: one more for each further guest."""
        legs = [channel]
        for t in transports:
            legs.append(Channel(t, me=channel.me))
        self.legs = legs
        self.n = len(legs)
        # Each further leg's transport is its own guest's alone (a TCP seat: `private`), not a
        # radio every guest hears: every free seat is offered at once (poll).
        self.private = len(transports) > 0 and getattr(transports[0], "private", False)
        self.me = channel.me
        self.rx = channel.rx
        self.rx_len = 0
        self.rx_table = 0
        self.rx_from = 0
        self.src = 0  # the leg of the message receive() gave
        self.restarts = 0  # the table's: a guest's start-over ends only that guest's seat (away)
        self.live = 0  # bit i: leg i's guest sits at the table and hears what the session sends
        self.away = 0  # bit i: leg i's guest went silent, left or started over
        self.gone = 0  # bit i: away for good (it left, started over, or its seat was given away)
        self.policy = WAIT
        self.at = 0
        self.seen = array("i", [0] * LEGS)  # each leg's restarts, as last seen
        self.reopened = bytearray(LEGS)  # each leg's seat offered this many times at this table
        self.behind = 0  # bit i: leg i's guest speaks of another generation (it missed a state)
        self.behind_at = array("i", [0] * LEGS)  # since when
        # What a leg whose window is full keeps for it (send): at most BACKLOG messages each,
        # then it lags (bit i of `lag`, since lag_at[i]): nothing more goes to it until it has
        # taken what it was sent, then the host's state; unacknowledged for AWAY_MS, it is away.
        self.kept = [bytearray(m.PAYLOAD_MAX) for _ in range(self.n * BACKLOG)]
        self.kept_kind = bytearray(self.n * BACKLOG)
        self.kept_len = bytearray(self.n * BACKLOG)
        self.kept_head = bytearray(self.n)
        self.kept_count = bytearray(self.n)
        self.lag = 0
        self.lag_at = array("i", [0] * LEGS)
        self.now = 0
        self.tended = 0  # when tend last looked at the legs
        self.read = False  # every leg was read to the end since the last poll (receive)
        self.offer = bytearray(m.OFFER_HEAD + m.MAX_SEATS)
        self.offer_len = 0
        self.offer_table = 0

    # --- what a session asks of a channel ---

    def open_table(self, table, kind, data, n):
        """Each leg offers the table with its own guest's seat THERE, the others' OTHER. A
        table of fewer guests than the hub has legs uses its first legs (`n`), the rest listen."""
        guests = 0
        for k in range(n):
            self.offer[k] = data[k]
            if k >= m.OFFER_HEAD and (data[k] == m.THERE or data[k] == m.OTHER):
                guests += 1
        self.n = guests if guests < len(self.legs) else len(self.legs)
        for i in range(self.n, len(self.legs)):
            self.legs[i].listen()
        self.offer_len = n
        self.offer_table = table
        for i in range(LEGS):
            self.reopened[i] = 0
        self.live = self.away = self.gone = self.lag = 0
        for i in range(self.n):
            self.kept_count[i] = 0
            self.reopen(i)
            if i:
                self.legs[i].announce(0)  # one seat offered at a time (poll): on a shared radio
                # every guest hears the same offer, and the one that answers takes that seat

    def reopen(self, i):
        """Leg i offers the table again (before the start: its guest refused or left)."""
        b = self.offer
        k = 0
        for p in range(1, b[3]):
            at = m.OFFER_HEAD + p
            if b[at] == m.THERE or b[at] == m.OTHER:
                b[at] = m.THERE if k == i else m.OTHER
                k += 1
        # Each leg's seat is a table of its own id (the host's next ones): a guest that answers
        # the offer of a seat another guest took is that seat's leg's stranger, never another's.
        # A seat offered again is a new table (LEGS ids on): the guest that got up from it, whose
        # channel still speaks of the old one, does not sit down again unasked.
        self.legs[i].open_table((self.offer_table + i - 1 + LEGS * self.reopened[i]) % 65535 + 1, m.OFFER, b,
                                self.offer_len)
        self.reopened[i] = (self.reopened[i] + 1) & 0xFF
        self.seen[i] = self.legs[i].restarts
        self.live &= ~(1 << i)

    def listen(self):
        for leg in self.legs:
            leg.listen()
        self.live = self.away = self.gone = self.offer_len = self.lag = 0
        for i in range(self.n):
            self.kept_count[i] = 0

    def paired(self):
        return self.live != 0

    def announce(self, kind):
        """Every leg's offer goes on as `kind` (FULL), their beacons FULL_MS / LEGS apart: a
        poll writes one of them, not every leg's; kind 0: the table ended, no leg offers it."""
        if kind == 0:
            self.offer_len = 0  # (poll offers a free seat again while there is an offer)
        for i in range(self.n):
            leg = self.legs[i]
            leg.announce(kind)
            if kind and i:
                leg.pairing.t_beacon = (self.now + i * (FULL_MS // LEGS) - FULL_MS) & m.CLOCK_MASK

    def send(self, kind, data, n):
        """data[0:n] to every seated guest but the one kind >> 6 names (1 + its leg: a move
        relayed), and not to one that lags; False, and nothing sent, when none of them has room
        for it now (the session's outbox keeps it). One whose window is full while another's
        has room keeps it, behind what it kept before (drained by poll); one that has kept
        BACKLOG messages lags: a guest that does not acknowledge never holds up the others."""
        to = self.live & ~self.lag
        if kind > 63:
            to &= ~(1 << ((kind >> 6) - 1))
            kind &= 63
        frames = 1 if n <= FRAGMENT else 2
        ready = 0
        for i in range(self.n):
            if to >> i & 1:
                self.drain(i)
                w = self.legs[i].sending
                if self.kept_count[i] == 0 and w.count + frames <= w.size:
                    ready |= 1 << i
        if to and not ready:
            return False
        for i in range(self.n):
            if ready >> i & 1:
                self.legs[i].send(kind, data, n)
            elif to >> i & 1:
                self.keep(i, kind, data, n)
        return True

    def keep(self, i, kind, data, n):
        """data[0:n] kept for leg i, whose window is full; when it has kept BACKLOG, it lags."""
        c = self.kept_count[i]
        if c == BACKLOG:
            self.kept_count[i] = 0
            self.lag |= 1 << i
            self.lag_at[i] = self.now
            return
        k = i * BACKLOG + (self.kept_head[i] + c) % BACKLOG
        b = self.kept[k]
        for j in range(n):
            b[j] = data[j]
        self.kept_kind[k] = kind
        self.kept_len[k] = n
        self.kept_count[i] = c + 1

    def drain(self, i):
        """What leg i kept goes into its window, oldest first, while there is room."""
        leg = self.legs[i]
        while self.kept_count[i]:
            k = i * BACKLOG + self.kept_head[i]
            if not leg.send(self.kept_kind[k], self.kept[k], self.kept_len[k]):
                return
            self.kept_head[i] = (self.kept_head[i] + 1) % BACKLOG
            self.kept_count[i] -= 1

    def poll(self, now_ms):
        """Each leg drained and polled. A poll right after the session read every leg to the
        end (the last of its poll: session.py) is for what the session sent: a paired leg with
        no frame still to write is read at the next instead."""
        self.now = now_ms
        light = self.read
        self.read = False
        for i in range(self.n):
            if self.kept_count[i]:
                self.drain(i)
            leg = self.legs[i]
            if not light or leg.partner == 0 or leg.sending.upto < leg.sending.count:
                leg.poll(now_ms)
        if self.offer_len:  # before the start: the first leg no guest took offers its seat (each
            for i in range(self.n):  # one no guest took, when no other guest hears it: private)
                leg = self.legs[i]
                if leg.partner == 0:
                    if not leg.pairing.beacon_len:
                        leg.announce(m.OFFER)
                    if not self.private:
                        break

    def receive(self):
        """The next message from a guest not away, leg by leg; what an away guest says is
        dropped unread."""
        while self.at < self.n:
            i = self.at
            leg = self.legs[i]
            kind = leg.receive()
            if kind >= 0 and not self.away >> i & 1:
                self.src = i
                self.rx = leg.rx
                self.rx_len = leg.rx_len
                self.rx_table = leg.rx_table
                self.rx_from = leg.rx_from
                return kind
            if kind < 0:
                self.at += 1
        self.at = 0
        self.read = True
        return -1

    def silent_ms(self, now_ms):
        """The quietest seated guest's silence is not the table's: the table pauses only when
        every seated guest is silent (each one alone is away: tend)."""
        q = -1
        for i in range(self.n):
            if self.live >> i & 1:
                t = self.legs[i].silent_ms(now_ms)
                if q < 0 or t < q:
                    q = t
        return q if q > 0 else 0

    def pending(self):
        n = 0
        for leg in self.legs:
            n += leg.pending()
        return n

    # --- the party table's own ---

    def seat(self, i):
        """Leg i's guest accepted: it sits at the table, which says so to anyone in range."""
        self.live |= 1 << i
        self.legs[i].announce(m.FULL)

    def start(self, s: "Session"):
        """The host starts the game (Session.start): the guests seated are told (the offer's
        ACCEPT, back), a leg whose guest has not accepted offers no more and its seat goes to
        the computer."""
        empty = self.offer_len = 0
        for i in range(self.n):
            if not self.live >> i & 1:
                self.legs[i].listen()
                self.away |= 1 << i
                self.gone |= 1 << i
                empty |= 1 << i
        self.seat_away(s, empty, True)
        s.away = 0  # (a seat no guest took is the computer's, not a guest's that is away)
        b = s.outbox.tx
        o = self.offer
        for k in range(7):  # version, game, rules, seed(4): the offer's
            b[k] = o[k] if k < 3 else o[k + 5]
        s.outbox.queue(m.ACCEPT, b, 7)
        s.begin()
        s.outbox.flush()

    def seat_away(self, s: "Session", legs, computer):
        """The guests at legs `legs` (bits) are away (never came to the start, went quiet or
        left): their seats wait, or computer players take them over (s.away: the seats)."""
        for p in range(s.players):
            if s.seats[p] == m.THERE and legs >> s.owner[p] & 1:
                s.away |= 1 << p
                if computer:
                    s.seats[p] = m.COMPUTER
        s.configure()
        s.realtime.horizon()
        s.changed()

    def seat_back(self, s: "Session", i):
        """The guest at leg i is heard again: every guest takes the host's state."""
        for p in range(s.players):
            if s.owner[p] == i:
                s.away &= ~(1 << p)
        s.repair.send_state()

    def note(self, i, behind, now):
        """A message of leg i's guest, of another generation than the host's (behind) or not;
        returns behind."""
        bit = 1 << i
        if not behind:
            self.behind &= ~bit
        elif not self.behind & bit:
            self.behind |= bit
            self.behind_at[i] = now
        return behind

    def leave(self, i):
        """Leg i's guest said BYE."""
        self.gone |= 1 << i

    def tend(self, s: "Session", now_ms):
        """In play: a seated guest silent for AWAY_MS, gone (BYE), started over, or lagging with
        what it was sent unacknowledged for AWAY_MS (it hears nothing, or will not say so) is
        away, and its seat goes as `policy` says; an away guest heard again, and that has taken
        what it was sent, comes back with the host's state while its seat waits (sent to every
        guest, when the rate of re-sends allows), and so do a lagging guest that has taken what
        it was sent and a seated guest that has spoken of another generation for ASK_MS (a
        state missed: a friendly guest takes the state in a round trip). At most every TEND_MS:
        what it looks for lasts seconds."""
        if (now_ms - self.tended) & m.CLOCK_MASK < TEND_MS:
            return
        self.tended = now_ms
        for i in range(self.n):
            # (Not a lagging guest's: the state goes only to legs that do not lag, and a
            # re-send of the minute spent for it here left none for the lag's own, below.)
            if (self.behind & self.live & ~self.lag) >> i & 1 \
                    and (now_ms - self.behind_at[i]) & m.CLOCK_MASK >= m.ASK_MS and s.repair.may_resend():
                self.behind = 0
                s.repair.send_state()
                break
        for i in range(self.n):
            bit = 1 << i
            leg = self.legs[i]
            if leg.restarts != self.seen[i]:
                self.seen[i] = leg.restarts
                self.gone |= bit
            lags = self.lag & bit and leg.sending.count
            if self.live & bit:
                if self.gone & bit or leg.silent_ms(now_ms) >= AWAY_MS or \
                        lags and (now_ms - self.lag_at[i]) & m.CLOCK_MASK >= AWAY_MS:
                    self.live &= ~bit
                    self.lag &= ~bit
                    self.away |= bit
                    if self.policy != WAIT:
                        self.gone |= bit
                    self.seat_away(s, bit, self.policy == BOT)
                elif self.lag & bit and not lags and s.repair.may_resend():
                    self.lag &= ~bit  # it took what it was sent: the state, and on from there
                    s.repair.send_state()
            elif self.away & bit and not self.gone & bit and leg.silent_ms(now_ms) < BACK_MS \
                    and not leg.sending.count and s.repair.may_resend():
                self.away &= ~bit
                self.live |= bit
                self.seat_back(s, i)
