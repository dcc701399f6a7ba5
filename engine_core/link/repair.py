"""Keeping two consoles in step (engine_core/link/session.py mixes this in; docs/link.md,
"Hashes" and "Desync repair"): each console's state hashes, compared with the peer's; a
disagreement (or a move of the peer's seat that is not legal) has the host send its whole
state (transfer.py) and the guest ask for it, the host at most RESYNCS_PER_MINUTE times a
minute. Everything is allocated by _make_repair().
"""

from array import array

from engine_core import records as r
from engine_core.link import messages as m
from engine_core.link import transfer
from engine_core.link.outbox import PLACEHOLDER
from engine_core.link.statehash import state_hash

from micropython import const

RESYNCS_PER_MINUTE = const(3)  # the host's state re-sent at most this often (a peer's RESYNC
# or a move of the peer's seat that is not legal: a stranger must not flood the link with it)
_RING = const(16)  # hashes kept per side, waiting for the other's


class Repair:
    def _make_repair(self):  # subset: ok (start-up: called from Session.__init__)
        # Hashes: the key (turn number or game time) and value of this console's and the peer's.
        self.mine_key = array("i", [-1] * _RING)
        self.mine_hash = array("i", [0] * _RING)
        self.peer_key = array("i", [-1] * _RING)
        self.peer_hash = array("i", [0] * _RING)
        self.resent_at = array("i", [-60000] * RESYNCS_PER_MINUTE)  # the last state re-sends
        self.resend_i = 0

    def refuse_move(self, disagree):
        """A move or undo from the link refused: counted; when it was of the peer's own seat
        (not legal there) the consoles disagree and the host's state repairs it, otherwise
        nothing changes."""
        self.refused += 1
        if disagree:
            self._found(state_hash(self.game), 0)

    def my_hash(self, key, h):
        """This console's hash at `key`: sent, and compared with the peer's when it has come."""
        b = self.tx
        b[0] = self.gen
        r.put_i32(b, 1, key)
        r.put_i32(b, 5, h)
        self._queue(m.HASH, b, 9)
        i = key % _RING
        self.mine_key[i] = key
        self.mine_hash[i] = h
        if self.peer_key[i] == key:
            self._compare(h, self.peer_hash[i])

    def _peer_hash(self, key, h):
        i = key % _RING
        self.peer_key[i] = key
        self.peer_hash[i] = h
        if self.mine_key[i] == key:
            self._compare(self.mine_hash[i], h)

    def _compare(self, mine, theirs):
        self.hashes_compared += 1
        if mine != theirs:
            self._found(mine, theirs)

    def _found(self, mine, theirs):
        """The consoles disagree: the host sends its state, the guest asks for it."""
        self.desyncs += 1
        self.hash_here = mine
        self.hash_there = theirs
        self._repair(mine)

    def _repair(self, mine):
        if self.is_host:
            if self.may_resend():
                self._tell(mine)
        elif not self.asked:
            self.asked = True
            self.asked_at = self.now
            self.go(m.E_DISAGREE)
            b = self.tx
            b[0] = self.gen
            r.put_i32(b, 1, mine)
            self._queue(m.RESYNC, b, 5)

    def lost(self):
        """What happened cannot be kept in step (the queue overflowed while the link was
        down, or a Nerts window outgrew the journal): the host's state replaces it."""
        self.overflows += 1
        self._forget_queue()
        self.asked = False
        if self.is_host:
            self._tell(state_hash(self.game))  # what this console lost: never limited
        else:
            self._repair(state_hash(self.game))

    def send_state(self):
        """Host: send the whole state (a new generation: what was on its way is dropped)."""
        self.owed = False
        self.resent_at[self.resend_i] = self.now
        self.resend_i = (self.resend_i + 1) % RESYNCS_PER_MINUTE
        transfer.send(self)
        if not self.s_pending:
            self.s_pending = True
            self._queue(PLACEHOLDER, self.tx, 0)

    def may_resend(self):
        """Whether the host may send its whole state again now (RESYNCS_PER_MINUTE)."""
        return (self.now - self.resent_at[self.resend_i]) & m.CLOCK_MASK >= 60000

    def _tell(self, mine):
        """Host: tell the guest "we disagree" (RESYNC with this console's hash): a guest takes a
        STATE only when it asked for it, after finding the disagreement itself. Once per
        ASK_MS; the guest's RESYNC that follows is owed the state."""
        self.owed = True
        if (self.now - self.told_at) & m.CLOCK_MASK < m.ASK_MS:
            return
        self.told_at = self.now
        b = self.tx
        b[0] = self.gen
        r.put_i32(b, 1, mine)
        self._queue(m.RESYNC, b, 5)

    def _on_told(self, theirs):
        """Guest: the host says we disagree. Believed only when its hash differs from this
        state's; then this console asks for the state as when it finds a disagreement."""
        mine = state_hash(self.game)
        if theirs == mine:
            self.reject()
            return
        self._found(mine, theirs)

    def _on_resync(self, theirs):
        """The guest says it disagrees: believed only when its hash differs from this state's,
        and answered at most RESYNCS_PER_MINUTE times a minute, also when this console told it
        so first (a guest that fills the Nerts window again and again must not have the state
        sent more often: it asks again until the minute allows)."""
        mine = state_hash(self.game)
        if theirs == mine or not self.may_resend():
            self.reject()
            return
        self.owed = False
        self.hash_there = theirs
        self.hash_here = mine
        self.send_state()
