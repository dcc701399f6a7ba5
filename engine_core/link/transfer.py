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
from engine_core.link.statehash import state_hash

from micropython import const

HEAD = const(13)  # a STATE chunk's header
DATA = const(107)  # record bytes per chunk (13 + 107 = 120, the channel's payload)
_CHANGED = const(4)  # session.CHANGED
_DESYNC = const(32)  # session.DESYNC
_S_PLAYING = const(2)  # session.S_PLAYING
_S_PAUSED = const(3)
_S_DESYNC = const(5)


def send(s):
    """Host: the state into the session's buffer, under a new generation (the session queues
    its chunks)."""
    game = s.game
    s.gen = (s.gen + 1) & 0xFF
    game.history.clear()  # the guest's undo starts here too
    s.s_len = save.encode_game(game, 0, s.sbuf)
    s.s_pos = 0
    s.s_hash = state_hash(game)
    s.s_key = game.clock_ms if s.nerts else s.turn_no
    s._reset_play(s.s_key)
    s.repairs += 1
    s.flags |= _DESYNC
    if s.state == _S_PLAYING:
        s.state = _S_DESYNC


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
    if r.check(s.sbuf, s.r_total, save.KIND_GAME) != r.OK or \
            save.restore_game(game, s.sbuf, s.r_total, s.used) != r.OK:
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
    if s.state == _S_DESYNC:
        s.state = _S_PLAYING
    elif s.state == _S_PAUSED:
        s.resume_state = _S_PLAYING
    s.flags |= _CHANGED | _DESYNC
