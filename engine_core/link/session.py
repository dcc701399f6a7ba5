"""A table shared by two consoles over a Channel (engine_core/link/channel.py; docs/link.md,
"Sessions").

The host offers a game (game, rule profile, seed, options, who sits where) to anyone in range
under a table id of its own; a joining console lists the tables it hears, its player picks
one, the guest accepts and both deal the same game from the seed (hello.py; pairing.py: from
then on only that table's frames from that console count). From then on each console sends the moves made at
it, and both check that they hold the same state by exchanging a 30-bit hash of it
(statehash.py): after every turn in Spite & Malice, every second of game time in Nerts. A
disagreement, or a move from the link that is not legal, is repaired by the host sending its
whole state (the saved-game record of engine_core/save.py, in chunks), which the guest loads
(transfer.py).

How the moves go is the game's TURN_BASED flag's choice, not its name's: a turn-based game
(Spite & Malice) in lockstep, one seat at a time, each move from the link checked before it
is applied and undo reaching only one's own moves of the turn under way (lockstep.Lockstep);
the others (Nerts) in time order (realtime.Realtime and timeline.py). Each owns its state and
talks to the session through a few methods (reset, key, before, after, forget, local_move,
local_undo, may_undo, may_deal, peer_move, peer_undo, peer_clock); they call back send_record,
send_message, refuse_move, changed, new_generation, lost, my_hash and waiting.

Every message from the peer is checked before it acts (messages.py, ACCEPTS_HOST and
ACCEPTS_GUEST below, then the game); the states move only through TRANSITIONS. The session's
jobs are mixed in from their own modules: the hello (hello.py), what it sends (outbox.py),
keeping in step (repair.py).

Messages (kind, then the payload; ints big-endian, four-byte ones as records.put_i32):
    OFFER   1  version, game id, rules, players, options(4), seed(4), one seat kind a player
               (a beacon to anyone in range, every 500 ms while the table is open)
    ACCEPT  2  version, game id, rules, seed(4)
    REFUSE  3  reason
    MOVE    4  gen, then one or more records: seat, move(3) [, time(4), counter(2): Nerts]
    UNDO    5  gen, seat
    HASH    6  gen, key(4), hash(4)        key: the turn number, or the second of game time (Nerts)
    CLOCK   7  gen, time(4)                Nerts: no move of mine will be older than this
    RESYNC  8  gen, hash(4)                the guest asks for the host's state
    STATE   9  gen, offset(2), total(2), key(4), hash(4), up to 107 bytes of the record
    BYE    10  (nothing)
`gen` counts the host's state re-sends (and Nerts rounds): a message of another generation
was sent before the state it would apply to was replaced, and is dropped.

Allocation: the constructor allocates everything; poll, local_move, local_undo, tick and
leave allocate nothing (tests/test_link_session.py runs both consoles under heap_lock).
"""

from engine_core import OVER
from engine_core import games
from engine_core import records as r
from engine_core import save
from engine_core.game import V_STATUS
from engine_core.link import messages as m
from engine_core.link.messages import (COMPUTER, HERE, MAX_SEATS, R_BUSY, R_DECLINED, R_GAME,  # noqa: F401
                                       R_INVALID, R_RULES, R_VERSION, S_DESYNC, S_IDLE, S_LEFT,
                                       S_PAUSED, S_PLAYING, S_WAITING, THERE, VERSION)
from engine_core.link import transfer
from engine_core.link.pairing import Tables
from engine_core.link.hello import Hello
from engine_core.link.outbox import Outbox
from engine_core.link.repair import RESYNCS_PER_MINUTE, Repair  # noqa: F401
from engine_core.link.lockstep import Lockstep
from engine_core.link.realtime import Realtime

from micropython import const

# The codes the link's modules share live in messages.py; the session's names for them.
K_OFFER = m.OFFER
K_ACCEPT = m.ACCEPT
K_REFUSE = m.REFUSE
K_MOVE = m.MOVE
K_UNDO = m.UNDO
K_HASH = m.HASH
K_CLOCK = m.CLOCK
K_RESYNC = m.RESYNC
K_STATE = m.STATE
K_BYE = m.BYE
OFFER = m.F_OFFER
STARTED = m.F_STARTED
CHANGED = m.F_CHANGED
PAUSED = m.F_PAUSED
RESUMED = m.F_RESUMED
DESYNC = m.F_DESYNC
LEFT = m.F_LEFT
REFUSED = m.F_REFUSED

# Which kinds each state takes from the peer (bit k: kind k), as host and as guest. Anything
# else is counted in `rejected` and changes nothing (docs/link.md, "What each state accepts").
_PLAY_BOTH = 1 << K_MOVE | 1 << K_UNDO | 1 << K_HASH | 1 << K_CLOCK | 1 << K_BYE
ACCEPTS_HOST = (
    1 << K_OFFER,  # S_IDLE: an offer, shown (the link screen) or asked (elsewhere)
    1 << K_ACCEPT | 1 << K_REFUSE | 1 << K_BYE,  # S_WAITING: the answer to this offer
    _PLAY_BOTH | 1 << K_RESYNC,  # S_PLAYING
    _PLAY_BOTH | 1 << K_RESYNC,  # S_PAUSED
    1 << K_OFFER,  # S_LEFT: a new offer, asked
    _PLAY_BOTH | 1 << K_RESYNC,  # S_DESYNC
)
ACCEPTS_GUEST = (  # RESYNC from the host: "we disagree" (the guest then compares and asks)
    1 << K_OFFER,
    1 << K_OFFER | 1 << K_BYE,  # S_WAITING: the offer, or the host withdrawing it
    _PLAY_BOTH | 1 << K_STATE | 1 << K_RESYNC,
    _PLAY_BOTH | 1 << K_STATE | 1 << K_RESYNC,
    1 << K_OFFER,
    _PLAY_BOTH | 1 << K_STATE | 1 << K_RESYNC,
)

ASK_MS = m.ASK_MS  # a guest that asked for the state and got none in this time plays on
# The session's states and what moves it between them: (event, the states it applies in, one
# bit each, the state it leads to). An event in a state not listed changes nothing.
_ANY = const(0x3F)
_RESUME = const(-1)  # the state before the pause
TRANSITIONS = (
    (m.E_HOST, _ANY, S_WAITING),
    (m.E_JOIN, _ANY, S_WAITING),
    (m.E_OFFER, 1 << S_IDLE | 1 << S_WAITING | 1 << S_LEFT, S_WAITING),
    (m.E_START, 1 << S_WAITING, S_PLAYING),
    (m.E_REFUSE, _ANY, S_IDLE),
    (m.E_CANCEL, _ANY, S_IDLE),
    (m.E_LEAVE, _ANY, S_LEFT),
    (m.E_SILENT, 1 << S_PLAYING | 1 << S_DESYNC, S_PAUSED),
    (m.E_HEARD, 1 << S_PAUSED, _RESUME),
    (m.E_DISAGREE, 1 << S_PLAYING, S_DESYNC),
    (m.E_AGREE, 1 << S_DESYNC, S_PLAYING),
)

SILENCE_MS = const(5000)  # a link silent this long pauses the game
STATE_HEAD = m.STATE_HEAD  # a STATE chunk's header
STATE_DATA = m.STATE_DATA  # record bytes per chunk

class Session(Hello, Outbox, Repair):
    def __init__(self, channel):
        self.ch = channel
        channel.listen()  # until this console hosts or joins: offers in range are heard, nothing said
        self.game = None
        self.all_at_once = False  # the game's players all play at once (not TURN_BASED)
        self.is_host = False
        self.state = S_IDLE
        self.resume_state = S_PLAYING  # the state a pause returns to
        self.flags = 0
        self.my_seat = 0
        self.peer_seat = 1
        self.seats = bytearray(MAX_SEATS)
        self.players = 0
        self.seed = 0
        self.gen = 0
        # The offer, as the guest received it (the host's view of the seats).
        self.offer_version = 0
        self.offer_game_id = 0
        self.offer_rules = 0
        self.offer_seed = 0
        self.offer_options = 0
        self.offer_players = 0
        self.offer_seats = bytearray(MAX_SEATS)
        self.offer_table = 0  # the offer's table (0: none to answer) and its host's console id
        self.offer_host = 0
        self.tables = Tables()  # the tables heard (pairing.py), and those that ended
        self.table_id = 0  # the table this console hosts or joined, and its host
        self.table_host = 0
        self.joining = False  # the player chose Join a table: offers are listed, not asked
        self.refusal = 0
        self.hash_here = 0
        self.hash_there = 0
        self.orphans = 0  # bit p: seat p was played through the peer, who left
        self._make_outbox()  # messages waiting for the channel (outbox.py)
        # The state being sent (host) or received (guest).
        self.sbuf = bytearray(save.BUFFER_SIZE)
        self.backup = bytearray(save.BUFFER_SIZE)  # the guest's state while a STATE is checked
        self.used = bytearray(256)
        self.s_len = 0
        self.s_pos = 0
        self.s_key = 0
        self.s_hash = 0
        self.s_pending = False  # a placeholder for the chunks is in the queue
        self.r_gen = -1
        self.r_total = 0
        self.r_pos = 0
        self.asked = False  # the guest asked for the state and waits for it
        self.asked_at = 0
        self.told_at = -ASK_MS  # host: when it last told the guest "we disagree"
        self.owed = False  # host: it told the guest of a disagreement (its RESYNC gets the state, within the limit)
        # This console's own payoff pile (Spite & Malice payoff, Nerts pile) as dealt or
        # loaded, and the fewest cards it has held since: a STATE may not go outside that.
        self.own_pile = -1
        self.own_game = None
        self.own_open = True
        self.own_base = bytearray(64)
        self.own_len = 0
        self.own_low = 0
        self._make_repair()  # the hashes compared, the state re-sends (repair.py)
        # How the game is played over the link, chosen by its TURN_BASED flag: one seat at a
        # time (lockstep.py) or all at once in time order (realtime.py). Both made here.
        self.lockstep = Lockstep(self)
        self.realtime = Realtime(self)
        self.play = self.lockstep
        self.timeline = self.realtime.timeline
        # Counters (the tests and the figures in docs/link.md).
        self.bytes_sent = 0  # payload bytes handed to the channel, the kind byte included
        self.messages_sent = 0
        self.moves_sent = 0
        self.refused = 0  # moves from the link that were not legal, or not the sender's seat's
        self.rejected = 0  # messages refused unread: wrong layout, field, seat, state or table
        self.record = m.LOCKSTEP_RECORD  # a MOVE record's size in this table's play
        self.now = 0  # the clock of the last poll
        self.desyncs = 0  # hash disagreements (or refused moves) found here
        self.repairs = 0  # states loaded (guest) or sent (host)
        self.hashes_compared = 0
        self.overflows = 0  # repairs for what could not be kept in step (lost())
        self.dropped = 0  # messages that found the queue full (a link down for long)
        self.restarts = getattr(channel, "restarts", 0)  # the channel's start-overs seen
        self.dropped_seen = 0

    # --- what the screens call ---

    def leave(self, now_ms):
        """Say goodbye; the screens then offer 'continue against the computer'."""
        if self.state != S_IDLE and self.state != S_LEFT:
            self._forget_queue()  # what waits is moot: the goodbye goes first
            self._queue(K_BYE, self.tx, 0)
            self._flush()
            self.ch.poll(now_ms)
        self._left()

    def seat_kind(self, p):
        return self.seats[p]

    def tick(self, ms):
        """The game clock, held while the link is silent (the screens may call game.tick
        themselves while s.state is not S_PAUSED)."""
        if self.game is not None and self.state != S_PAUSED:
            self.game.tick(ms)

    @property
    def turn_no(self):
        """Turns ended since the deal (lockstep play)."""
        return self.lockstep.turn_no

    def may_undo(self):
        """Spite & Malice: the last move is this console's own, in its turn under way."""
        return self.game is not None and self.play.may_undo()

    def may_deal(self):
        """Whether this console may start the next game (Spite & Malice: the seat to move,
        the loser of the last game) or round (Nerts: the host, once the round's end is final)."""
        game = self.game
        if game is None or self.state != S_PLAYING or game.vars[V_STATUS] != OVER:
            return False
        return self.play.may_deal()

    def local_move(self, move, now_ms):
        """This console applied `move` (of a seat that is HERE) to the game: send it."""
        if self.game is None or self.state == S_IDLE or self.state == S_LEFT or self.asked:
            return
        self.play.local_move(move)
        transfer.observe(self)
        self._flush()

    def local_undo(self, now_ms):
        """This console undid its last move (only when may_undo() said so): send that."""
        if self.game is None or self.state == S_LEFT or self.asked or not self.play.local_undo():
            return
        b = self.tx
        b[0] = self.gen
        b[1] = self.my_seat
        self._queue(K_UNDO, b, 2)
        self._flush()

    def poll(self, now_ms):
        """Drive the channel and the session; returns the flags of what happened (OFFER,
        STARTED, CHANGED, PAUSED, RESUMED, DESYNC, LEFT, REFUSED). No allocation."""
        ch = self.ch
        self.now = now_ms
        ch.poll(now_ms)
        if ch.restarts != self.restarts:
            # The link started over (the peer was switched off and on): what was on its way is
            # gone, and the peer knows nothing of this table. It left; a new offer may come.
            self.restarts = ch.restarts
            if self._playing() or (self.is_host and self.state == S_WAITING):
                self._forget_queue()
                self._left()
                self.flags |= LEFT
        if self._playing():
            self.play.before()
            transfer.observe(self)  # this console's own payoff pile, as its own moves left it
        kind = ch.receive()
        while kind >= 0:
            self._on(kind, ch.rx, ch.rx_len)
            kind = ch.receive()
        self._silence(now_ms)
        self.tables.expire(now_ms)
        self.withdrawn()
        if self.asked and self.state != S_PAUSED and (now_ms - self.asked_at) & m.CLOCK_MASK >= ASK_MS:
            self.asked = False  # the host did not agree that we disagree (or could not yet):
            self.go(m.E_AGREE)  # play on; the next hash compared tells again
        if self._playing():
            self.play.after()
        if self.dropped != self.dropped_seen:
            self._overflowed()
        self._flush()
        ch.poll(now_ms)
        f = self.flags
        self.flags = 0
        return f

    # --- start and end ---

    def _reset_play(self, key):
        """Counters after a deal or a loaded state; key: the turn number or the game time."""
        for i in range(len(self.mine_key)):
            self.mine_key[i] = -1
            self.peer_key[i] = -1
        self.play.reset(key)

    def go(self, event):
        """Take the transition of TRANSITIONS for `event` in the state now; False (and nothing
        changes) when there is none."""
        for row in TRANSITIONS:
            if row[0] == event and row[1] >> self.state & 1:
                to = row[2]
                if event == m.E_SILENT:
                    self.resume_state = self.state
                elif to == _RESUME:
                    to = self.resume_state
                self.state = to
                return True
        if event == m.E_AGREE and self.state == S_PAUSED:
            self.resume_state = S_PLAYING  # repaired while silent: the pause returns to play
        return False

    def _left(self):
        self.go(m.E_LEAVE)
        self.tables.end(self.table_host, self.table_id)  # its offer, replayed, is no new table
        self.asked = False
        self.orphans = 0
        for p in range(self.players):
            if self.seats[p] != HERE:
                self.orphans |= 1 << p
        self.play.forget()

    def _playing(self):
        return self.state == S_PLAYING or self.state == S_PAUSED or self.state == S_DESYNC

    # --- silence ---

    def _silence(self, now_ms):
        silent = self.ch.silent_ms(now_ms) >= SILENCE_MS
        if not silent and self.go(m.E_HEARD):
            self.flags |= RESUMED
        elif silent and self.go(m.E_SILENT):
            self.flags |= PAUSED

    # --- messages in ---

    def accepts(self, kind):
        """Whether a message of `kind` is one this session takes in its state (ACCEPTS_*)."""
        table = ACCEPTS_HOST if self.is_host else ACCEPTS_GUEST
        return 1 <= kind <= m.KINDS and table[self.state] >> kind & 1 == 1

    def reject(self):
        """A message from the link that is refused: counted, and nothing else happens."""
        self.rejected += 1

    def _on(self, kind, d, n):
        if not self.accepts(kind) or m.check(kind, d, n, self.players, self.record):
            self.reject()
            return
        if kind == K_OFFER:
            self._on_offer(d, n)
        elif kind == K_ACCEPT:
            if d[0] == VERSION and d[1] == games.game_id(self.game.NAME) and d[2] == self.game.rules \
                    and r.get_i32(d, 3) == self.seed:
                self._begin()
            else:
                self.reject()
        elif kind == K_REFUSE:
            self.refusal = d[0]
            self.go(m.E_REFUSE)
            self.flags |= REFUSED
        elif kind == K_BYE:
            self._left()
            self.flags |= LEFT
        elif kind == K_STATE:
            transfer.receive(self, d, n)
        elif d[0] != self.gen or self.asked:
            return  # sent before the state it would apply to was replaced: dropped
        elif kind == K_MOVE:
            self._on_moves(d, n)
        elif kind == K_UNDO:
            self.play.peer_undo(d[1])
        elif kind == K_HASH:
            self._peer_hash(r.get_i32(d, 1), r.get_i32(d, 5))
        elif kind == K_CLOCK:
            self.play.peer_clock(r.get_i32(d, 1))
        elif kind == K_RESYNC:
            if self.is_host:
                self._on_resync(r.get_i32(d, 1))
            else:
                self._on_told(r.get_i32(d, 1))

    def _on_moves(self, d, n):
        """A MOVE message: one or more move records after the generation byte (moves that
        waited for the channel travel together)."""
        size = self.record
        gen = self.gen
        at = 1
        while at + size <= n and self.gen == gen and not self.asked:
            self.play.peer_move(d, at)
            at += size

    # --- what lockstep.py and realtime.py ask of the session ---

    def changed(self):
        self.flags |= CHANGED

    def new_generation(self):
        """A new round (real time): what was sent for the old one is dropped."""
        self.gen = (self.gen + 1) & 0xFF
