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

from engine_core import records as r
from engine_core import save
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
    if save.restore_game(game, buf, n, s.used) != r.OK:
        return False
    try:
        bad = game.check_position() != ""
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
    """Guest: a STATE message; the state is loaded once its last chunk is in."""
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
