"""Turn-based games over the link (Spite & Malice): one seat moves at a time
(engine_core/link/session.py chooses this for a game whose TURN_BASED is true).

A move from the link is checked before it is applied: it must be the peer's seat's, in the
peer's turn, and legal; an undo from the link must take back one of the peer's own moves of
the turn under way. A move or undo of a seat that is not the peer's is refused and changes
nothing (a friendly console never sends one); one of the peer's seat that is not legal is a
disagreement, which the host's state repairs. At every turn's end (the turn passes, a game
ends or is dealt) both consoles hash the state and send the hash keyed by the turn number.
Nothing here allocates after construction.
"""

from engine_core import PLAYING
from engine_core.game import V_STATUS, V_TURN
from engine_core.link import messages as m
from engine_core.link.statehash import state_hash

from micropython import const

_TYPING = const(0)  # true for the type checker alone (tools/device/mypy-device.ini, always_true)
if _TYPING:
    from engine_core.link.outbox import Outbox
    from engine_core.link.repair import Repair
    from engine_core.link.session import Session


class Lockstep:
    """The turn-based table's own state and rules. What the session asks of it: as of
    Realtime (realtime.py). What it asks of the session: `game`, `state`, `my_seat`,
    `peer_seat`, changed(), reject(); of the Outbox: move_record(), send_record(); of the
    Repair: refuse_move(), my_hash()."""

    RECORD = m.LOCKSTEP_RECORD  # a move in a MOVE message: seat, move(3)

    def __init__(self, session: "Session", outbox: "Outbox", repair: "Repair"):
        self.s = session
        self.out = outbox
        self.repair = repair
        self.turn_no = 0  # turns ended since the deal (or the state loaded): the hash's key
        self.own_moves = 0  # moves of this console in the turn under way
        self.peer_moves = 0
        self.last_turn = 0
        self.last_status = 0

    def reset(self, key):
        """After a deal or a loaded state; key: the turn number."""
        game = self.s.game
        self.turn_no = key
        self.own_moves = 0
        self.peer_moves = 0
        self.last_turn = game.vars[V_TURN]
        self.last_status = game.vars[V_STATUS]

    def key(self):
        return self.turn_no

    def before(self):
        """At the start of a poll: nothing to read (each move is sent as it is made)."""

    def after(self):
        """At the end of a poll: nothing waits."""

    def forget(self):
        """The peer left."""

    def local_move(self, move):
        s = self.s
        self.out.send_record(self.out.move_record(s.my_seat, move), 5)
        self.own_moves += 1
        self.after_move()

    def local_undo(self):
        if self.own_moves > 0:
            self.own_moves -= 1
        return True

    def may_undo(self):
        """The last move is this console's own, in its turn under way."""
        s = self.s
        game = s.game
        return (s.state == m.S_PLAYING and game.vars[V_STATUS] == PLAYING and game.vars[V_TURN] == s.my_seat
                and self.own_moves > 0 and game.can_undo())

    def may_deal(self):
        """The seat to move (the loser of the last game) deals the next one."""
        game = self.s.game
        return not game.match_over() and game.vars[V_TURN] == self.s.my_seat

    def peer_move(self, d, at):
        s = self.s
        game = s.game
        seat = d[at]
        move = d[at + 1] << 16 | d[at + 2] << 8 | d[at + 3]
        if seat != s.peer_seat:
            self.repair.refuse_move(False)  # not the sender's seat: never a matter of being out of step
            return
        if game.vars[V_TURN] != seat or not game.is_legal(move):
            self.repair.refuse_move(True)
            return
        game.apply(move)
        self.peer_moves += 1
        s.changed()
        self.after_move()

    def peer_undo(self, seat):
        s = self.s
        game = s.game
        if seat != s.peer_seat:
            self.repair.refuse_move(False)
            return
        if game.vars[V_TURN] != seat or self.peer_moves == 0 or not game.undo():
            self.repair.refuse_move(True)
            return
        self.peer_moves -= 1
        s.changed()

    def peer_clock(self, t):
        """Turn-based play has no clock to share."""
        self.s.reject()

    def after_move(self):
        """After a move on either side: a turn that ended is counted, and both consoles send
        the hash of the state it left."""
        game = self.s.game
        if game.vars[V_TURN] == self.last_turn and game.vars[V_STATUS] == self.last_status:
            return
        self.last_turn = game.vars[V_TURN]
        self.last_status = game.vars[V_STATUS]
        self.turn_no += 1
        self.own_moves = 0
        self.peer_moves = 0
        self.repair.my_hash(self.turn_no, state_hash(game))
