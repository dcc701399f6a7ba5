"""Keeping two consoles in step (engine_core/link/session.py makes one Repair; docs/link.md,
"Hashes" and "Desync repair"): each console's state hashes, compared with the peer's; a
disagreement (or a move of the peer's seat that is not legal) has the host send its whole
state (transfer.py) and the guest ask for it, the host at most RESYNCS_PER_MINUTE times a
minute. Everything is allocated by the constructor.

The Repair's own state: the hashes of both sides waiting for the other's, when the host last
re-sent its state and last told the guest "we disagree" (`owed`: the guest's RESYNC that
follows gets the state), whether the guest asked for the state and waits for it (`asked`,
`asked_at`), and the counts: hashes_compared, desyncs, refused (moves from the link refused),
repairs (states sent or loaded), overflows (what could not be kept in step: lost()).

What the other parts may ask of it: reset() (a deal or a loaded state), refuse_move(disagree),
my_hash(key, h), on_hash(key, h), lost(), send_state(), may_resend(), on_told(theirs),
on_resync(theirs), on_state(d, n), stop_asking(), expire(now), and `asked`. What it asks of
the session: `game`, `gen`, `is_host`, `now`, `state`, `play` (its key()), go(event), reject(),
news(flags), saw(mine, theirs), new_generation(), take_generation(gen), configure(),
reset_play(key); of the Outbox: `tx`, `pending`, queue(), forget(), queue_state(); of the Transfer:
take(), receive(), acceptable(), `r_gen`.
"""

from array import array

from engine_core import records as r
from engine_core.link import messages as m
from engine_core.link.statehash import state_hash

from micropython import const

_TYPING = const(0)  # true for the type checker alone (tools/device/mypy-device.ini, always_true)
if _TYPING:
    from engine_core.link.outbox import Outbox
    from engine_core.link.session import Session
    from engine_core.link.transfer import Transfer

RESYNCS_PER_MINUTE = const(3)  # the host's state re-sent at most this often (a peer's RESYNC
# or a move of the peer's seat that is not legal: a stranger must not flood the link with it)
_ASKS_PER_MINUTE = const(3)  # the guest asks for the state at most this often, and loads one at
# most this often (a host that says "we disagree" again and again must not have it load states,
# and lose its undo, without end)
_RING = const(16)  # hashes kept per side, waiting for the other's
_MINUTE_MS = const(60000)  # the window of the guest's asks and loads, and of the host's re-sends


class Repair:
    def __init__(self, session: "Session", outbox: "Outbox", transfer: "Transfer"):
        self.s = session
        self.outbox = outbox
        self.transfer = transfer
        # Hashes: the key (turn number or game time) and value of this console's and the peer's.
        self.mine_key = array("i", [-1] * _RING)
        self.mine_hash = array("i", [0] * _RING)
        self.peer_key = array("i", [-1] * _RING)
        self.peer_hash = array("i", [0] * _RING)
        self.resent_at = array("i", [-_MINUTE_MS] * RESYNCS_PER_MINUTE)  # the last state re-sends
        self.resend_i = 0
        self.asked_times = array("i", [-_MINUTE_MS] * _ASKS_PER_MINUTE)  # guest: its last asks
        self.ask_i = 0
        self.loaded_times = array("i", [-_MINUTE_MS] * _ASKS_PER_MINUTE)  # guest: its last states loaded
        self.load_i = 0
        self.asked = False  # the guest asked for the state and waits for it
        self.asked_at = 0
        self.told_at = -m.ASK_MS  # host: when it last told the guest "we disagree"
        self.owed = False  # host: it told the guest of a disagreement (its RESYNC gets the state, within the limit)
        self.hashes_compared = 0
        self.desyncs = 0  # hash disagreements (or refused moves) found here
        self.refused = 0  # moves from the link that were not legal, or not the sender's seat's
        self.repairs = 0  # states loaded (guest) or sent (host)
        self.overflows = 0  # repairs for what could not be kept in step (lost())

    def reset(self):
        """After a deal or a loaded state: no hash waits for the other side's."""
        for i in range(_RING):
            self.mine_key[i] = -1
            self.peer_key[i] = -1

    def stop_asking(self):
        self.asked = False

    def expire(self, now_ms):
        """A guest that asked for the state and got none in ASK_MS plays on (the host did not
        agree that we disagree, or could not yet); the next hash compared tells again."""
        s = self.s
        if self.asked and s.state != m.S_PAUSED and (now_ms - self.asked_at) & m.CLOCK_MASK >= m.ASK_MS:
            self.asked = False
            s.go(m.E_AGREE)

    def refuse_move(self, disagree):
        """A move or undo from the link refused: counted; when it was of the peer's own seat
        (not legal there) the consoles disagree and the host's state repairs it, otherwise
        nothing changes."""
        self.refused += 1
        if disagree:
            self.found(state_hash(self.s.game), 0)

    def my_hash(self, key, h):
        """This console's hash at `key`: sent, and compared with the peer's when it has come."""
        b = self.outbox.tx
        b[0] = self.s.gen
        r.put_i32(b, 1, key)
        r.put_i32(b, 5, h)
        self.outbox.queue(m.HASH, b, 9)
        i = key % _RING
        self.mine_key[i] = key
        self.mine_hash[i] = h
        if self.peer_key[i] == key:
            self.compare(h, self.peer_hash[i])

    def on_hash(self, key, h):
        """The peer's hash at `key` (a HASH message): compared with this console's when it is made."""
        i = key % _RING
        self.peer_key[i] = key
        self.peer_hash[i] = h
        if self.mine_key[i] == key:
            self.compare(self.mine_hash[i], h)

    def compare(self, mine, theirs):
        self.hashes_compared += 1
        if mine != theirs:
            self.found(mine, theirs)

    def found(self, mine, theirs, follows=False):
        """The consoles disagree: the host sends its state, the guest asks for it (follows: a
        party host said so, and its state follows its word)."""
        self.desyncs += 1
        self.s.saw(mine, theirs)
        self.repair(mine, follows)

    def repair(self, mine, follows=False):
        """The host tells the guest; the guest asks for the state, at most _ASKS_PER_MINUTE
        times a minute, and not when it has loaded as many in the last minute. A party guest
        whose asks of the minute are spent and that the host tells (follows) waits for the
        state that follows the host's word without asking: the host sends it to every guest
        at once, and a guest's asks can all go unanswered before the host re-sends on its
        own (the host drops the asks of a guest that missed a state, which are of the
        generation it left, and answers none while its re-sends of the minute are spent)."""
        s = self.s
        if s.is_host:
            if self.may_resend():
                self.tell(mine)
            return
        if self.asked or (s.now - self.loaded_times[self.load_i]) & m.CLOCK_MASK < _MINUTE_MS:
            return
        if (s.now - self.asked_times[self.ask_i]) & m.CLOCK_MASK < _MINUTE_MS:
            if follows:
                self.asked = True
                self.asked_at = s.now
                s.go(m.E_DISAGREE)
            return
        self.asked_times[self.ask_i] = s.now
        self.ask_i = (self.ask_i + 1) % _ASKS_PER_MINUTE
        self.asked = True
        self.asked_at = s.now
        s.go(m.E_DISAGREE)
        b = self.outbox.tx
        b[0] = s.gen
        r.put_i32(b, 1, mine)
        self.outbox.queue(m.RESYNC, b, 5)

    def lost(self):
        """What happened cannot be kept in step (the queue overflowed while the link was
        down, or a Nerts window outgrew the journal): the host's state replaces it."""
        self.overflows += 1
        self.outbox.forget()
        self.asked = False
        if self.s.is_host:
            self.tell(state_hash(self.s.game))  # what this console lost: never limited
        else:
            self.repair(state_hash(self.s.game))

    def send_state(self):
        """Host: send the whole state (a new generation: what was on its way is dropped)."""
        s = self.s
        if s.party:
            # A party table: every guest is told first and asks (on_told), so that each takes
            # the state it asked for, and all go on in the new generation.
            self.resync(state_hash(s.game))
        self.owed = False
        self.resent_at[self.resend_i] = s.now
        self.resend_i = (self.resend_i + 1) % RESYNCS_PER_MINUTE
        s.new_generation()
        key = s.play.key()
        self.transfer.take(s.game, key)
        s.reset_play(key)
        self.repairs += 1
        s.news(m.F_DESYNC)
        s.go(m.E_DISAGREE)
        self.outbox.queue_state()

    def may_resend(self):
        """Whether the host may send its whole state again now (RESYNCS_PER_MINUTE; at a party
        table, once the last one has gone whole: a new generation while a state is still going
        out would overwrite it and put its "we disagree" behind it)."""
        if self.s.party and self.outbox.pending:
            return False
        return (self.s.now - self.resent_at[self.resend_i]) & m.CLOCK_MASK >= _MINUTE_MS

    def tell(self, mine):
        """Host: tell the guest "we disagree" (RESYNC with this console's hash): a guest takes a
        STATE only when it asked for it, after finding the disagreement itself. Once per
        ASK_MS; the guest's RESYNC that follows is owed the state."""
        s = self.s
        if s.party:
            self.send_state()  # at once, no round trip: the guests are told first (send_state)
            return
        self.owed = True
        if (s.now - self.told_at) & m.CLOCK_MASK < m.ASK_MS:
            return
        self.told_at = s.now
        self.resync(mine)

    def resync(self, h):
        b = self.outbox.tx
        b[0] = self.s.gen
        r.put_i32(b, 1, h)
        self.outbox.queue(m.RESYNC, b, 5)

    def on_told(self, theirs):
        """Guest: the host says we disagree. Believed only when its hash differs from this
        state's; then this console asks for the state as when it finds a disagreement. A party
        host's word is believed whatever the hashes, and its state follows it (send_state)."""
        party = self.s.party
        mine = state_hash(self.s.game)
        if theirs == mine and not party:
            self.s.reject()  # (at a party table the host re-sends its state to every guest)
            return
        self.found(mine, theirs, party)

    def on_resync(self, theirs):
        """The guest says it disagrees: believed only when its hash differs from this state's,
        and answered at most RESYNCS_PER_MINUTE times a minute, also when this console told it
        so first (a guest that fills the Nerts window again and again must not have the state
        sent more often: it asks again until the minute allows)."""
        mine = state_hash(self.s.game)
        if theirs == mine or not self.may_resend():
            self.s.reject()
            return
        self.owed = False
        self.s.saw(mine, theirs)
        self.send_state()

    def on_state(self, d, n):
        """Guest: a STATE message. Only a state this console asked for (it found the
        disagreement itself and sent RESYNC) is taken: any other is refused unread. Once its
        last chunk is in, it is loaded when it passes every check, and asked for again when not."""
        s = self.s
        if not self.asked:
            s.reject()
            return
        st = self.transfer
        if not st.receive(d, n):
            return
        game = s.game
        before = state_hash(game)
        self.asked = False
        if not st.acceptable(game):
            s.reject()  # nothing changed: the table stays as it was
            self.repair(before)  # a record this game cannot take: ask again
            return
        s.take_generation(st.r_gen)
        self.loaded_times[self.load_i] = s.now
        self.load_i = (self.load_i + 1) % _ASKS_PER_MINUTE
        s.configure()
        s.reset_play(r.get_i32(d, 5))
        self.repairs += 1
        s.go(m.E_AGREE)
        s.news(m.F_CHANGED | m.F_DESYNC)
