"""Real-time games over the link (Nerts): each console runs the whole table
(engine_core/link/session.py chooses this for a game whose TURN_BASED is false).

Every move carries the game time it was made at (the clock of the console that made it), its
seat and that seat's counter, and both consoles keep the moves in the order (time, seat,
counter) with a Timeline (timeline.py): a move of the peer's that is older than moves already
applied is put in its place by rolling back and replaying, skipping what is no longer legal
there (a foundation place taken by an earlier play).

What the console's own seats did is read from the game's journal (game.history): the
person's moves, and at the host the computer players' moves that game.tick() made. They get
the console's clock when they are read, and travel like any other move. The guest runs no
computer player: its computer seats wait for the host's moves.

Each console also tells the other its horizon (CLOCK, every CLOCK_EVERY_MS of game time, and
with every move): none of its later moves will be older. A move older than both horizons
(its own clock and the peer's) is final and leaves the window. At every whole second T of
game time that is final on both sides, both hash the state as it is with every move older than
T (undoing the window's newer moves, hashing, applying them again), so two consoles in step
always compare the same point. Nothing here allocates after construction.
"""

from array import array

from engine_core import OVER
from engine_core import records as r
from engine_core.games.nerts_moves import DEAL_MOVE, V_ROUND
from engine_core.link import messages as m
from engine_core.link.messages import CLOCK as _K_CLOCK
from engine_core.link.messages import COMPUTER as _COMPUTER
from engine_core.link.messages import HERE as _HERE
from engine_core.link.messages import OTHER as _OTHER
from engine_core.link.messages import THERE as _THERE
from engine_core.link.statehash import state_hash
from engine_core.link.timeline import Timeline

from micropython import const

_TYPING = const(0)  # true for the type checker alone (tools/device/mypy-device.ini, always_true)
if _TYPING:
    from engine_core.link.outbox import Outbox
    from engine_core.link.repair import Repair
    from engine_core.link.session import Session

CLOCK_EVERY_MS = const(250)
HASH_EVERY_MS = const(1000)
_ROUNDS_MOST = const(0x1000000)  # nerts_check's bound on the rounds dealt: counted no further
_HASHES_AT_ONCE = const(16)  # at most this many seconds hashed in a poll (repair._RING)
# What a peer's times are held to (docs/link.md, "Threat model"). Two consoles' game clocks
# differ by what a deal's delivery and each pause's start and end put between them: a pause
# starts when a side has heard nothing for 5 s (SILENCE_MS), and over a lossy link the last
# frame each side heard can be up to that far apart, so after a pause two friendly clocks can
# differ by up to 5 s until they have followed each other (below). A move or horizon more than
# 5 s ahead of this console's clock is refused. Each clock follows the other's (a believed
# time ahead of it moves it on, by no more than its own game time since it last did: it never
# runs more than twice as fast). Behind this console's clock a move may come late by any
# amount: a friendly console's moves can wait through several cuts (14 s over the faulty wire
# with cuts of tools/reliability/link_play.py); what bounds them is the peer's own horizon.
CLOCK_TOLERANCE_MS = const(5000)
# The fastest a seat moves: a person presses at most once a display frame (nerts_bot.GAP_MS,
# 33 ms: 30 a second), the computer player at its fastest once in 300 ms. More than 32 moves of
# one seat in any 1,000 ms of game time are refused.
MOVES_PER_S = const(32)
RATE_MS = const(1000)
LAG_MS = const(5000)  # a party table's host waits no longer for a guest's horizon (horizon())
# What a party guest's moves may cost the host's window (afford()): putting a move in its place
# undoes the window's newer moves, and a guest that dates its moves back to the table's horizon
# makes each one undo seconds of the others' play. Each guest's moves may undo at most
# ROLLBACK_MAX moves at once (a window: an honest guest's after a cut, over faulty wires, undid
# at most 130 in any 5 s) and one more every ROLLBACK_MS of game time (16 a second; an honest
# table's guests undo about 2 a second); a move that would undo more is refused.
ROLLBACK_MAX = const(160)
ROLLBACK_MS = const(62)


class Realtime:
    """The real-time table's own state (the window of recent moves, the horizons, the next
    hash, where the journal was last read). What the session asks of it: reset(t), key(),
    before(), after(), forget(), local_move(), local_undo(), may_undo(), may_deal(),
    peer_move(d, at), peer_undo(seat), peer_clock(t), and `timeline`. What it asks of the
    session: `game`, `players`, `seats`, `is_host`, `my_seat`, `peer_seat`, `gen`, changed(),
    new_generation(), reject(); of the Outbox: `tx`, move_record(), send_record(), queue(),
    waiting(); of the Repair: refuse_move(), my_hash(), lost(), `asked`."""

    RECORD = m.REALTIME_RECORD  # a move in a MOVE message: seat, move(3), time(4), counter(2)

    def __init__(self, session: "Session", outbox: "Outbox", repair: "Repair"):
        self.s = session
        self.out = outbox
        self.repair = repair
        self.timeline = Timeline()
        self.fresh = array("i", [0] * 64)  # moves found in the journal since the last look
        self.ctr = array("i", [0] * m.MAX_SEATS)  # each seat's move counter
        self.peer_h = 0  # the peer's horizon: none of its moves will be older
        self.leg_h = array("i", [0] * 3)  # a party table's host: each guest's (hub.py legs)
        self.sent_h = 0  # the last horizon this console sent
        self.next_check = 0  # the game time of the next hash
        self.seen_head = 0  # where this console last read the journal
        self.seen_clears = 0
        # Each peer seat's last MOVES_PER_S move times (a ring per seat: the oldest at recent_i).
        self.recent = array("i", [0] * (m.MAX_SEATS * MOVES_PER_S))
        self.recent_i = bytearray(m.MAX_SEATS)
        self.recent_n = bytearray(m.MAX_SEATS)
        self.follow_base = 0  # the game time when this console's clock last followed the peer's
        self.word_at = 0  # a party guest: when it last took the host's word of its round (transfer.py)
        self.spent = array("i", [0] * 3)  # a party host: each guest's rollbacks paid up to this game time

    def reset(self, t):
        """A new start at game time t (a deal, a state loaded): nothing pending, the next hash
        at the next whole second after t. The game's own clock is t: a loaded state's key is
        the host's word for its clock, and a key behind it would have the seconds between
        hashed at once (a key of 0 on a state at 2**30 ms: a million hashes in one poll)."""
        if self.s.game is not None:
            t = self.s.game.clock_ms
        self.timeline.clear()
        self.peer_h = t
        for i in range(3):
            self.leg_h[i] = t
            self.spent[i] = t - ROLLBACK_MAX * ROLLBACK_MS
        self.sent_h = t
        self.next_check = (t // HASH_EVERY_MS + 1) * HASH_EVERY_MS
        self.fresh_rate()
        self.synced()
        self.word_at = self.s.now

    def fresh_rate(self):
        self.follow_base = self.s.game.clock_ms if self.s.game is not None else 0
        for p in range(m.MAX_SEATS):
            self.recent_n[p] = 0
            self.recent_i[p] = 0

    def key(self):
        """A loaded state's key: the game time."""
        return self.s.game.clock_ms

    def before(self):
        """At the start of a poll: what this console's seats did since the last one."""
        self.scan()

    def after(self):
        """At the end of a poll: hashes of what is final, the horizon told."""
        self.settle()

    def forget(self):
        """The peer left: the window's moves are final as they are."""
        self.timeline.clear()

    def local_move(self, move):
        self.local(move)

    def local_undo(self):
        """Real-time play has no undo over the link."""
        return False

    def may_undo(self):
        return False

    def may_deal(self):
        """The host deals the next round, once the last round's end is final."""
        s = self.s
        return s.is_host and s.game.can_deal() and self.settled()

    def peer_undo(self, seat):
        """Real-time play has no undo over the link."""
        self.s.reject()

    def synced(self):
        """The journal as it stands is known (the session's own applies and undos included)."""
        s = self.s
        h = s.game.history
        self.seen_head = h.head
        self.seen_clears = h.clears

    def lost(self):
        """The window cannot hold what happened (full, or the journal forgot a move): repair."""
        self.repair.lost()

    def overflow(self):
        """This console's own moves, already in its game, do not fit the window (a peer whose
        horizon stands still while this console plays on fills it). Left out, the window would
        no longer be the journal's top, and the next undo to a second's end would undo other
        moves. The host, the referee, makes the window final as it stands: none of the peer's
        moves may come before it now (the peer's horizon moves up to this console's clock),
        and the guest is told (its state is sent when it asks). The guest asks for the host's
        state and plays nothing final until it comes."""
        s = self.s
        if s.is_host:
            self.timeline.clear()
            for i in range(3):
                if self.leg_h[i] < s.game.clock_ms:
                    self.leg_h[i] = s.game.clock_ms
            self.horizon()
        self.synced()
        self.repair.lost()

    def send(self, seat, move, t, ctr):
        b = self.out.move_record(seat, move)  # then the time and the seat's counter
        r.put_i32(b, 5, t)
        r.put_u16(b, 9, ctr)
        self.out.send_record(b, 11)
        if t > self.sent_h and not (self.s.party and self.s.is_host):  # (its horizon: CLOCK alone)
            self.sent_h = t

    def scan(self):
        """The moves made at this console since the last look (the journal's new MARK entries):
        stamped with the clock, put in the window and sent."""
        s = self.s
        game = s.game
        h = game.history
        if h.clears != self.seen_clears:
            self.synced()  # the journal was cleared under us (a deal: local() handles it)
            return
        computer = game.bot.computer
        for p in range(s.players):  # a settings change must not make a person's seat a computer
            if computer[p] and (s.seats[p] != _COMPUTER or not s.is_host):
                game.set_bot(p, -1, 0)
        if h.head == self.seen_head:
            return  # nothing new
        if (h.head - self.seen_head) % h.capacity > h.used:
            self.overflow()  # more happened than the journal holds (a tick of minutes): repair
            return
        if self.repair.asked:
            # Moves made while the host's state is on its way stay unread in the journal: the
            # state, when it comes, replaces them (reset: synced); when the guest stops asking
            # they are read, stamped and sent then. Read now and left out of the window, they
            # would be undone in the window's place when the next hash undoes the window.
            return
        k = h.moves_since(self.seen_head, self.fresh)
        self.seen_head = h.head
        if k == 0:
            return
        tl = self.timeline
        if k > len(self.fresh) or tl.count + k > tl.size:
            self.overflow()
            return
        t = game.clock_ms
        # The common case: they come after everything in the window, in the journal's order.
        in_order = True
        last_seat = -1
        if tl.count > 0:
            j = tl.count - 1
            if tl.time[j] > t or (tl.time[j] == t and tl.seat[j] > game.mover(self.fresh[0])):
                in_order = False
            elif tl.time[j] == t:
                last_seat = tl.seat[j]
        for j in range(k):
            seat = game.mover(self.fresh[j])
            if seat < last_seat:
                in_order = False
            last_seat = seat
        if not in_order:
            for j in range(k):
                if not game.undo():
                    self.lost()
                    return
        for j in range(k):
            move = self.fresh[j]
            seat = game.mover(move)
            self.ctr[seat] = (self.ctr[seat] + 1) & 0xFFFF
            if in_order:
                tl.put(tl.count, move, t, seat, self.ctr[seat])
                tl.done[tl.count - 1] = 1
            elif not tl.insert(game, move, t, seat, self.ctr[seat]):
                self.lost()
                return
            self.send(seat, move, t, self.ctr[seat])
        if not in_order:
            s.changed()  # our own moves went behind older ones of the peer
        self.synced()

    def local(self, move):
        """The console's person made `move` (already applied)."""
        s = self.s
        game = s.game
        if move != DEAL_MOVE:
            self.scan()
            return
        if not s.is_host:
            self.lost()  # only the host deals in Nerts (may_deal): the guest's table is the host's again
            return
        t = game.clock_ms
        seat = s.my_seat
        self.ctr[seat] = (self.ctr[seat] + 1) & 0xFFFF
        self.send(seat, DEAL_MOVE, t, self.ctr[seat])
        self.new_round(t)

    def new_round(self, t):
        """After a deal at time t: a new generation (moves of the old round are dropped)."""
        s = self.s
        s.new_generation()
        if s.party and s.game.vars[V_ROUND] < _ROUNDS_MOST:
            s.game.vars[V_ROUND] += 1  # every console counts the table's deals (transfer.py)
        self.word_at = s.now
        self.timeline.clear()
        self.fresh_rate()
        self.next_check = (t // HASH_EVERY_MS + 1) * HASH_EVERY_MS
        self.synced()

    def peer_clock(self, t):
        """The peer's horizon: never older than what it said before, nor ahead of this
        console's clock by more than the tolerance (otherwise refused, counted in rejected)."""
        src = self.s.src
        if t < self.leg_h[src] or t > self.s.game.clock_ms + CLOCK_TOLERANCE_MS:
            self.s.reject()
            return
        self.hear(src, t)
        self.follow(t)
        self.word_at = self.s.now

    def peer_away(self, bits):
        """A party guest: the seats whose guests are away, as the host's CLOCK says. Only the
        other guests' seats (OTHER) can be: a bit for this console's own seat, the host's, the
        computer's or a seat the table does not have says nothing and is left out."""
        s = self.s
        for p in range(8):
            if p >= s.players or s.seats[p] != _OTHER:
                bits &= ~(1 << p)
        if bits != s.away:
            s.away = bits
            s.changed()

    def hear(self, src, t):
        """The horizon of the peer at leg src (hub.py; the one peer: 0). At a party table's
        host the table's is the lowest of the seated guests' (none seated: its own clock)."""
        self.leg_h[src] = t
        self.horizon()

    def horizon(self):
        """A party table's host waits for no guest's horizon more than LAG_MS behind its clock
        (one that says nothing, or is cut, must not stall the others' windows: then none of
        its moves older than the horizon told is taken)."""
        s = self.s
        live = s.legs()
        h = -1
        for i in range(3):
            if live >> i & 1 and (h < 0 or self.leg_h[i] < h):
                h = self.leg_h[i]
        hub = s.party and s.is_host
        if hub and h < s.game.clock_ms - LAG_MS:
            h = s.game.clock_ms - LAG_MS
        if h > self.peer_h or not hub:
            self.peer_h = h

    def follow(self, t):
        """This console's clock follows the peer's (a believed time ahead of it), by no more
        than its own game time since it last did: the two clocks come back within a delivery
        of each other after a pause, and a peer cannot make this clock run more than twice as
        fast (the host's computer players keep their pace)."""
        game = self.s.game
        ahead = t - game.clock_ms
        budget = game.clock_ms - self.follow_base
        if ahead > budget:
            ahead = budget
        if ahead > 0:
            game.advance_clock(ahead)
            self.follow_base = game.clock_ms

    def believable(self, seat, t):
        """A peer's move time: not older than the peer's horizon (its times only go forward,
        and nothing may take a place before what it said was final), at most CLOCK_TOLERANCE_MS
        ahead of this console's clock, and no more than MOVES_PER_S moves of the seat in
        RATE_MS. A believed time is counted for the seat's rate."""
        s = self.s
        now = s.game.clock_ms
        if s.party and not s.is_host:
            now += CLOCK_TOLERANCE_MS  # a guest's move the host took ahead of its own clock, relayed
        if t < self.leg_h[s.src] or t > now + CLOCK_TOLERANCE_MS or (s.party and s.is_host and t < self.peer_h):
            return False
        base = seat * MOVES_PER_S
        i = self.recent_i[seat]
        if s.party and self.recent_n[seat] and t < self.recent[base + (i - 1) % MOVES_PER_S]:
            return False  # a party guest: the host's moves of many seats, each seat's in order
        if self.recent_n[seat] == MOVES_PER_S and t - self.recent[base + i] < RATE_MS:
            return False
        self.recent[base + i] = t
        self.recent_i[seat] = (i + 1) % MOVES_PER_S
        if self.recent_n[seat] < MOVES_PER_S:
            self.recent_n[seat] += 1
        return True

    def peer_move(self, d, at):
        """A move from the link (its record at d[at]: seat, move(3), time(4), counter(2)): put in
        its place (or, the host's deal, applied once the round's end is final here too)."""
        s = self.s
        game = s.game
        seat = d[at]
        move = d[at + 1] << 16 | d[at + 2] << 8 | d[at + 3]
        t = r.get_i32(d, at + 4)
        # The sender's seats: at the host the guest's person (at a party table, the guest of that
        # leg); at the guest every seat but its own. The move must be that seat's own (its
        # mover), whatever else it is.
        src = s.src
        theirs = s.seats[seat] == _THERE and s.owner[seat] == src if s.is_host else s.seats[seat] != _HERE
        if not theirs or (move != DEAL_MOVE and game.mover(move) != seat) or \
                (move == DEAL_MOVE and seat != s.peer_seat):
            self.repair.refuse_move(False)  # nothing changes: a friendly console never sends this
            return
        if not self.believable(seat, t):
            self.repair.refuse_move(False)  # a time a friendly console cannot have sent: nothing changes
            return
        if s.is_host or not s.party:
            self.hear(src, t)  # (a party guest's horizon is the host's CLOCK: moves of many seats)
        self.follow(t)
        self.word_at = s.now
        if move == DEAL_MOVE:
            gen = s.gen
            self.settle()
            if s.gen != gen or self.repair.asked:
                return
            if s.is_host or not game.is_legal(DEAL_MOVE):
                self.repair.refuse_move(True)
                return
            game.apply(DEAL_MOVE)
            if game.clock_ms < t:
                game.advance_clock(t - game.clock_ms)
            self.new_round(t)
            s.changed()
            return
        if self.timeline.count == self.timeline.size:
            self.repair.refuse_move(False)  # the window is full: the state that follows carries it
            self.overflow()
            return
        if s.party and s.is_host and not self.afford(src, t, seat, r.get_u16(d, at + 8)):
            self.repair.refuse_move(False)  # it would undo more than its guest may: nothing changes
            return
        if not self.timeline.insert(game, move, t, seat, r.get_u16(d, at + 8)):
            self.lost()
            return
        if s.party and s.is_host:
            self.out.relay(d, at, src)  # to the other guests
        self.synced()
        s.changed()

    def afford(self, src, t, seat, ctr):
        """A party host: whether the guest at leg src may have its move (t, seat, ctr) undo the
        window's newer moves to take its place (ROLLBACK_MAX at once, one a ROLLBACK_MS of game
        time after); when it may, what it undoes is paid for."""
        tl = self.timeline
        k = tl.applied_from(tl.position(t, seat, ctr)) * ROLLBACK_MS
        if k == 0:
            return True
        now = self.s.game.clock_ms
        if self.spent[src] < now - ROLLBACK_MAX * ROLLBACK_MS:
            self.spent[src] = now - ROLLBACK_MAX * ROLLBACK_MS
        if now - self.spent[src] < k:
            return False
        self.spent[src] += k
        return True

    def settle(self):
        """Hash every whole second that is final on both sides, forget final moves, and tell the
        peer this console's horizon."""
        s = self.s
        if self.repair.asked:
            return
        game = s.game
        if game.history.head != self.seen_head or game.history.clears != self.seen_clears:
            self.scan()  # moves made while asking, when the asking ended in this poll
            if self.repair.asked:
                return
        tl = self.timeline
        if s.party and s.is_host:
            self.horizon()
        final = game.clock_ms
        if self.peer_h < final:
            final = self.peer_h
        gen = s.gen
        if final - self.next_check >= _HASHES_AT_ONCE * HASH_EVERY_MS:
            # The peer keeps the hashes of its last _HASHES_AT_ONCE seconds (repair.py's ring):
            # older seconds could not be compared, so they are not hashed.
            self.next_check = (final // HASH_EVERY_MS - _HASHES_AT_ONCE + 1) * HASH_EVERY_MS
        while self.next_check <= final:
            i = tl.first_from(self.next_check)
            if not tl.undo_to(game, i):
                self.lost()
                return
            h = state_hash(game)
            tl.redo_from(game, i)
            t = self.next_check
            self.next_check += HASH_EVERY_MS
            self.repair.my_hash(t // HASH_EVERY_MS, h)  # keyed by the second: the hash ring's index
            if s.gen != gen or self.repair.asked:
                return  # the hashes disagreed: the state is on its way
        tl.drop_before(final)
        self.synced()
        h = game.clock_ms
        if s.party and s.is_host and self.peer_h < h:
            h = self.peer_h  # the guests' moves it relays are older than its own clock
        if h - self.sent_h >= CLOCK_EVERY_MS:
            self.out.flush()  # (a move queued in this poll, a party host's relay, waits only for this)
        if h - self.sent_h >= CLOCK_EVERY_MS and not self.out.waiting():
            # Only when nothing waits: a waiting move carries a horizon of its own, and a link
            # that takes nothing must not fill the queue with clocks. (A move the host relays
            # carries its mover's time, not the host's horizon: one queued in every poll, a
            # guest's 30 a second, kept the host's CLOCK from going, and its guests' windows
            # filled.)
            b = self.out.tx
            b[0] = s.gen
            r.put_i32(b, 1, h)
            b[5] = s.away  # (a party table's host: the seats whose guests are away)
            self.out.queue(_K_CLOCK, b, 6 if s.party and s.is_host else 5)
            self.sent_h = h

    def settled(self):
        """The round's end is final: no move in the window is applied (what comes now is too late
        for the round and skipped on both consoles)."""
        s = self.s
        if s.game.vars[0] != OVER:
            return False
        tl = self.timeline
        for i in range(tl.count):
            if tl.done[i]:
                return False
        return True
