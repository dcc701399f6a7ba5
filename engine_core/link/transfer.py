"""The host's whole state, sent to the guest and loaded there (engine_core/link/session.py):
the repair after a desync.

The state is the saved-game record of engine_core/save.py (encode_game: piles, variables, the
game's SAVED attributes, a CRC), about 250 bytes for Spite & Malice and 430 for a Nerts table
of four, sent in STATE messages of up to HEAD + DATA bytes:
    gen, offset(2), total(2), key(4), the host's hash(4), then the record's bytes
(key: the turn number, or the game time in Nerts). The host starts a new generation with it,
so that what either console sent before is dropped; the guest loads it (restore_game), takes
that generation, and both go on from there with empty undo journals. Nothing here allocates.
"""

from engine_core import PLAYING
from engine_core import records as r
from engine_core import save
from engine_core.game import V_STATUS
from engine_core.link.messages import F_CHANGED as _CHANGED
from engine_core.link.messages import F_DESYNC as _DESYNC
from engine_core.link.messages import E_AGREE, E_DISAGREE
from engine_core.link.messages import STATE_DATA as DATA
from engine_core.link.messages import STATE_HEAD as HEAD
from engine_core.link.statehash import state_hash


def send(s):
    """Host: the state into the session's buffer, under a new generation (the session queues
    its chunks)."""
    game = s.game
    s.gen = (s.gen + 1) & 0xFF
    game.history.clear()  # the guest's undo starts here too
    s.s_len = save.encode_game(game, 0, s.sbuf)
    s.s_pos = 0
    s.s_hash = state_hash(game)
    s.s_key = s.play.key()
    s._reset_play(s.s_key)
    s.repairs += 1
    s.flags |= _DESYNC
    s.go(E_DISAGREE)


def chunk(s):
    """The next chunk of the state into s.tx; its length."""
    b = s.tx
    n = s.s_len - s.s_pos
    if n > DATA:
        n = DATA
    b[0] = s.gen
    r.put_u16(b, 1, s.s_pos)
    r.put_u16(b, 3, s.s_len)
    r.put_i32(b, 5, s.s_key)
    r.put_i32(b, 9, s.s_hash)
    for i in range(n):
        b[HEAD + i] = s.sbuf[s.s_pos + i]
    return HEAD + n


# A seat's own payoff pile (the cards only its own moves take), by seat: Spite & Malice's
# payoff, the Nerts pile.
OWN_PILES = (("p1.payoff", "p1.nerts"), ("p2.payoff", "p2.nerts"), ("p3.payoff", "p3.nerts"),
             ("p4.payoff", "p4.nerts"))


def observe(s):
    """This console's own payoff pile as its own moves leave it: a new deal (other cards at
    the bottom) takes it as the new base; otherwise the fewest cards it held is kept. A STATE
    may not put there anything but the base's bottom part, nor fewer cards than that."""
    game = s.game
    if game is None:
        return
    if s.own_pile < 0 or s.own_game is not game:
        s.own_game = game
        s.own_pile = -1
        for name in OWN_PILES[s.my_seat]:
            p = game.pile_id(name)
            if p >= 0:
                s.own_pile = p
        s.own_len = -1
        if s.own_pile < 0:
            return
    p = s.own_pile
    piles = game.piles
    n = piles.size[p]
    at = piles.start[p]
    same = s.own_len >= n
    i = 0
    while same and i < n:
        same = piles.cards[at + i] == s.own_base[i]
        i += 1
    if not same:
        if n > len(s.own_base):
            n = len(s.own_base)
        for i in range(n):
            s.own_base[i] = piles.cards[at + i]
        s.own_len = n
        s.own_low = n
    elif n < s.own_low:
        s.own_low = n


def own_seat_kept(s, game):
    """After the record went into the game: this console's own payoff pile is one its own
    moves could have left (the base's bottom part, no fewer cards than it has held), or the
    table is between deals (the host may have dealt the next one)."""
    p = s.own_pile
    if p < 0 or s.own_len < 0 or not s.own_open:
        return True
    piles = game.piles
    n = piles.size[p]
    if n < s.own_low or n > s.own_len:
        return False
    at = piles.start[p]
    for i in range(n):
        if piles.cards[at + i] != s.own_base[i]:
            return False
    return True


def acceptable(s, game):
    """Put the received record into the game when it passes every check `load` makes at
    power-on: the record's CRC, this table's game, rules, players, options and seed, every
    card once and every pile within its capacity (save.restore_game), and the game's
    check_position. Otherwise the game is left exactly as it was (its state and journal).
    No allocation when it passes; check_position builds its message when it fails, which
    under heap_lock is a MemoryError: a failure too."""
    buf = s.sbuf
    n = s.r_total
    if r.check(buf, n, save.KIND_GAME) != r.OK or r.get_i32(buf, r.HEADER + 8) != game.seed:
        return False
    h = game.history
    head = h.head
    used = h.used
    moves = h.moves
    clears = h.clears
    size = save.encode_game(game, 0, s.backup)
    observe(s)
    s.own_open = game.vars[V_STATUS] == PLAYING  # between deals the next deal may be the host's
    if save.restore_game(game, buf, n, s.used) != r.OK:
        return False
    try:
        bad = game.check_position() != "" or not own_seat_kept(s, game)
    except MemoryError:
        bad = True
    if bad:
        save.restore_game(game, s.backup, size, s.used)
        h.head = head  # the journal's entries are still there: clear() only forgot them
        h.used = used
        h.moves = moves
        h.clears = clears
        return False
    return True


def receive(s, d, n):
    """Guest: a STATE message; the state is loaded once its last chunk is in. Only a state
    this console asked for (it found the disagreement itself and sent RESYNC) is taken: any
    other is refused unread."""
    if not s.asked:
        s.reject()
        return
    at = r.get_u16(d, 1)
    if at == 0:
        s.r_gen = d[0]
        s.r_total = r.get_u16(d, 3)
        s.r_pos = 0
    elif d[0] != s.r_gen or at != s.r_pos:
        return
    if s.r_total > len(s.sbuf) or s.r_pos + n - HEAD > s.r_total:
        return
    for i in range(HEAD, n):
        s.sbuf[s.r_pos] = d[i]
        s.r_pos += 1
    if s.r_pos == s.r_total:
        load(s, r.get_i32(d, 5), r.get_i32(d, 9))


def load(s, key, host_hash):
    game = s.game
    before = state_hash(game)
    if not acceptable(s, game):
        s.rejected += 1  # nothing changed: the table stays as it was
        if s.asked:
            s.asked = False  # a record this game cannot take: ask again
            s._repair(before)
        return
    if not s.asked:
        s.hash_here = before
        s.hash_there = host_hash
    s.asked = False
    s.gen = s.r_gen
    s._configure()
    s._reset_play(key)
    s.repairs += 1
    s.go(E_AGREE)
    s.flags |= _CHANGED | _DESYNC
