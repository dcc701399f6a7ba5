"""Nerts over the link: each console runs the whole table (engine_core/link/session.py).

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
always compare the same point. Nothing here allocates.
"""

from engine_core import OVER
from engine_core import records as r
from engine_core.games.nerts_moves import DEAL_MOVE
from engine_core.link.statehash import state_hash

from micropython import const

CLOCK_EVERY_MS = const(250)
HASH_EVERY_MS = const(1000)
_K_MOVE = const(4)  # session.K_MOVE
_K_CLOCK = const(7)  # session.K_CLOCK
_CHANGED = const(4)  # session.CHANGED
RECORD = const(10)  # a move in a MOVE message: seat, move(3), time(4), counter(2)
_HERE = const(1)
_COMPUTER = const(3)


def reset(s, t):
    """A new start at game time t (a deal, a state loaded): nothing pending, the next hash
    at the next whole second after t."""
    s.timeline.clear()
    s.peer_h = t
    s.sent_h = t
    s.next_check = (t // HASH_EVERY_MS + 1) * HASH_EVERY_MS
    synced(s)


def synced(s):
    """The journal as it stands is known (the session's own applies and undos included)."""
    h = s.game.history
    s.seen_head = h.head
    s.seen_clears = h.clears


def lost(s):
    """The window cannot hold what happened (full, or the journal forgot a move): repair."""
    s.lost()


def send(s, seat, move, t, ctr):
    b = s.move_record(seat, move)  # then the time and the seat's counter
    r.put_i32(b, 5, t)
    r.put_u16(b, 9, ctr)
    s._queue(_K_MOVE, b, 11)
    s.moves_sent += 1
    if t > s.sent_h:
        s.sent_h = t


def scan(s):
    """The moves made at this console since the last look (the journal's new MARK entries):
    stamped with the clock, put in the window and sent."""
    game = s.game
    h = game.history
    if h.clears != s.seen_clears:
        synced(s)  # the journal was cleared under us (a deal: local() handles it)
        return
    for p in range(s.players):  # a settings change must not make a person's seat a computer
        if game.computer[p] and (s.seats[p] != _COMPUTER or not s.is_host):
            game.set_bot(p, -1, 0)
    if (h.head - s.seen_head) % h.capacity > h.used:
        lost(s)  # more happened than the journal holds (a tick of minutes): repair
        synced(s)
        return
    k = h.moves_since(s.seen_head, s.fresh)
    s.seen_head = h.head
    if k == 0 or s.asked:
        return  # moves made while the host's state is on its way go with the old state
    tl = s.timeline
    if k > len(s.fresh) or tl.count + k > tl.size:
        lost(s)
        return
    t = game.clock_ms
    # The common case: they come after everything in the window, in the journal's order.
    in_order = True
    last_seat = -1
    if tl.count > 0:
        j = tl.count - 1
        if tl.time[j] > t or (tl.time[j] == t and tl.seat[j] > game.mover(s.fresh[0])):
            in_order = False
        elif tl.time[j] == t:
            last_seat = tl.seat[j]
    for j in range(k):
        seat = game.mover(s.fresh[j])
        if seat < last_seat:
            in_order = False
        last_seat = seat
    if not in_order:
        for j in range(k):
            if not game.undo():
                lost(s)
                return
    for j in range(k):
        move = s.fresh[j]
        seat = game.mover(move)
        s.ctr[seat] = (s.ctr[seat] + 1) & 0xFFFF
        if in_order:
            tl.put(tl.count, move, t, seat, s.ctr[seat])
            tl.done[tl.count - 1] = 1
        elif not tl.insert(game, move, t, seat, s.ctr[seat]):
            lost(s)
            return
        send(s, seat, move, t, s.ctr[seat])
    if not in_order:
        s.flags |= _CHANGED  # our own moves went behind older ones of the peer
    synced(s)


def local(s, move):
    """The console's person made `move` (already applied)."""
    game = s.game
    if move != DEAL_MOVE:
        scan(s)
        return
    if not s.is_host:
        lost(s)  # only the host deals in Nerts (may_deal): the guest's table is the host's again
        return
    t = game.clock_ms
    seat = s.my_seat
    s.ctr[seat] = (s.ctr[seat] + 1) & 0xFFFF
    send(s, seat, DEAL_MOVE, t, s.ctr[seat])
    new_round(s, t)


def new_round(s, t):
    """After a deal at time t: a new generation (moves of the old round are dropped)."""
    s.gen = (s.gen + 1) & 0xFF
    s.timeline.clear()
    s.next_check = (t // HASH_EVERY_MS + 1) * HASH_EVERY_MS
    synced(s)


def peer_clock(s, t):
    if t > s.peer_h:
        s.peer_h = t


def peer_move(s, d, at):
    """A move from the link (its record at d[at]: seat, move(3), time(4), counter(2)): put in
    its place (or, the host's deal, applied once the round's end is final here too)."""
    game = s.game
    seat = d[at]
    move = d[at + 1] << 16 | d[at + 2] << 8 | d[at + 3]
    t = r.get_i32(d, at + 4)
    if seat >= s.players or s.seats[seat] == _HERE or (s.is_host and s.seats[seat] == _COMPUTER):
        s.refused += 1
        s._found(state_hash(game), 0)
        return
    if t > s.peer_h:
        s.peer_h = t
    if move == DEAL_MOVE:
        gen = s.gen
        settle(s)
        if s.gen != gen or s.asked:
            return
        if s.is_host or not game.is_legal(DEAL_MOVE):
            s.refused += 1
            s._found(state_hash(game), 0)
            return
        game.apply(DEAL_MOVE)
        if game.clock_ms < t:
            game.advance_clock(t - game.clock_ms)
        new_round(s, t)
        s.flags |= _CHANGED
        return
    if not s.timeline.insert(game, move, t, seat, r.get_u16(d, at + 8)):
        lost(s)
        return
    synced(s)
    s.flags |= _CHANGED


def settle(s):
    """Hash every whole second that is final on both sides, forget final moves, and tell the
    peer this console's horizon."""
    if s.asked:
        return
    game = s.game
    tl = s.timeline
    final = game.clock_ms
    if s.peer_h < final:
        final = s.peer_h
    gen = s.gen
    while s.next_check <= final:
        i = tl.first_from(s.next_check)
        if not tl.undo_to(game, i):
            lost(s)
            return
        h = state_hash(game)
        tl.redo_from(game, i)
        t = s.next_check
        s.next_check += HASH_EVERY_MS
        s.my_hash(t // HASH_EVERY_MS, h)  # keyed by the second: the hash ring's index
        if s.gen != gen or s.asked:
            return  # the hashes disagreed: the state is on its way
    tl.drop_before(final)
    synced(s)
    if game.clock_ms - s.sent_h >= CLOCK_EVERY_MS and s.q_count == 0:
        # Only when nothing waits: a waiting move carries a horizon of its own, and a link
        # that takes nothing must not fill the queue with clocks.
        b = s.tx
        b[0] = s.gen
        r.put_i32(b, 1, game.clock_ms)
        s._queue(_K_CLOCK, b, 5)
        s.sent_h = game.clock_ms


def settled(s):
    """The round's end is final: no move in the window is applied (what comes now is too late
    for the round and skipped on both consoles)."""
    if s.game.vars[0] != OVER:
        return False
    tl = s.timeline
    for i in range(tl.count):
        if tl.done[i]:
            return False
    return True
