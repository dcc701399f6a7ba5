"""Spite & Malice over the link: one seat moves at a time (engine_core/link/session.py).

A move from the link is checked before it is applied: it must be the peer's seat's, in the
peer's turn, and legal; an undo from the link must take back one of the peer's own moves of
the turn under way. Anything else is a desync: the host's state repairs it. At every turn's
end (the turn passes, a game ends or is dealt) both consoles hash the state and send the hash
keyed by the turn number. Nothing here allocates.
"""

from engine_core.game import V_STATUS, V_TURN
from engine_core.link.statehash import state_hash

from micropython import const

_CHANGED = const(4)  # session.CHANGED


def peer_move(s, seat, move):
    game = s.game
    if seat != s.peer_seat or game.vars[V_TURN] != seat or not game.is_legal(move):
        s.refused += 1
        s._found(state_hash(game), 0)
        return
    game.apply(move)
    s.peer_moves += 1
    s.flags |= _CHANGED
    after_move(s)


def peer_undo(s, seat):
    game = s.game
    if s.nerts or seat != s.peer_seat or game.vars[V_TURN] != seat or s.peer_moves == 0 \
            or not game.undo():
        s.refused += 1
        s._found(state_hash(game), 0)
        return
    s.peer_moves -= 1
    s.flags |= _CHANGED


def after_move(s):
    """After a move on either side: a turn that ended is counted, and both consoles send the
    hash of the state it left."""
    game = s.game
    if game.vars[V_TURN] == s.last_turn and game.vars[V_STATUS] == s.last_status:
        return
    s.last_turn = game.vars[V_TURN]
    s.last_status = game.vars[V_STATUS]
    s.turn_no += 1
    s.own_moves = 0
    s.peer_moves = 0
    s.my_hash(s.turn_no, state_hash(game))
