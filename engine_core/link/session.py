"""A table shared by two consoles over a Channel (engine_core/link/channel.py; docs/link.md,
"Sessions").

The host offers a game (game, rule profile, seed, options, who sits where); the guest accepts
and both deal the same game from the seed. From then on each console sends the moves made at
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
ACCEPTS_GUEST below, then the game); the states move only through TRANSITIONS.

Messages (kind, then the payload; ints big-endian, four-byte ones as records.put_i32):
    OFFER   1  version, game id, rules, players, options(4), seed(4), one seat kind a player
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

from array import array

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
from engine_core.link.statehash import state_hash
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
ACCEPTS_GUEST = (
    1 << K_OFFER,
    1 << K_OFFER | 1 << K_BYE,  # S_WAITING: the offer, or the host withdrawing it
    _PLAY_BOTH | 1 << K_STATE,
    _PLAY_BOTH | 1 << K_STATE,
    1 << K_OFFER,
    _PLAY_BOTH | 1 << K_STATE,
)

ASK_MS = const(5000)  # a guest that asked for the state and got none in this time plays on
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

RESYNCS_PER_MINUTE = const(3)  # the host's state re-sent at most this often (a peer's RESYNC
# or a move of the peer's seat that is not legal: a stranger must not flood the link with it)
SILENCE_MS = const(5000)  # a link silent this long pauses the game
STATE_HEAD = m.STATE_HEAD  # a STATE chunk's header
STATE_DATA = m.STATE_DATA  # record bytes per chunk
_QUEUE = const(128)  # messages waiting for room in the channel's send window
_SLOT = const(16)  # bytes a waiting message may hold
_RING = const(16)  # hashes kept per side, waiting for the other's
_PLACEHOLDER = const(255)  # a queue slot that stands for the state's chunks


class Session:
    def __init__(self, channel):
        self.ch = channel
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
        self.refusal = 0
        self.hash_here = 0
        self.hash_there = 0
        self.orphans = 0  # bit p: seat p was played through the peer, who left
        # Messages waiting for the channel.
        self.q_kind = bytearray(_QUEUE)
        self.q_len = bytearray(_QUEUE)
        self.q_data = bytearray(_QUEUE * _SLOT)
        self.q_head = 0
        self.q_count = 0
        self.tx = bytearray(120)
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
        # Hashes: the key (turn number or game time) and value of this console's and the peer's.
        self.mine_key = array("i", [-1] * _RING)
        self.mine_hash = array("i", [0] * _RING)
        self.peer_key = array("i", [-1] * _RING)
        self.peer_hash = array("i", [0] * _RING)
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
        self.resent_at = array("i", [-60000] * RESYNCS_PER_MINUTE)  # the last state re-sends
        self.resend_i = 0
        self.desyncs = 0  # hash disagreements (or refused moves) found here
        self.repairs = 0  # states loaded (guest) or sent (host)
        self.hashes_compared = 0
        self.overflows = 0  # repairs for what could not be kept in step (lost())
        self.dropped = 0  # messages that found the queue full (a link down for long)
        self.restarts = getattr(channel, "restarts", 0)  # the channel's start-overs seen
        self.dropped_seen = 0

    # --- what the screens call ---

    def host(self, game, seed, options, seats, now_ms):
        """Offer a table: `game` (made by games.load, rules set), a 30-bit seed, the options,
        and a seat kind per player (this console's view: HERE at seat 0, one THERE)."""
        self._attach(game)
        self.is_host = True
        self.asked = False
        self.flags = 0  # a new table: news of the last one not yet read is moot
        self.seed = seed & 0x3FFFFFFF
        self.my_seat = 0
        self.peer_seat = 0
        for p in range(self.players):
            self.seats[p] = seats[p]
            if seats[p] == THERE:
                self.peer_seat = p
        b = self.tx
        b[0] = VERSION
        b[1] = games.game_id(game.NAME)
        b[2] = game.rules
        b[3] = self.players
        r.put_i32(b, 4, game.options)
        r.put_i32(b, 8, self.seed)
        for p in range(self.players):
            b[12 + p] = seats[p]
        self._queue(K_OFFER, b, 12 + self.players)
        self.go(m.E_HOST)
        self._flush()

    def join(self, now_ms):
        """Wait for an offer (poll() says OFFER when one comes)."""
        self.is_host = False
        self.asked = False
        self.game = None
        self.flags = 0
        self.go(m.E_JOIN)

    def accept(self, game, now_ms):
        """Take the offer: `game` is the offered game (offer_players, offer_options); the
        session sets the offered rules and deals."""
        self._attach(game)
        game.set_rules(self.offer_rules)
        self.is_host = False
        self.seed = self.offer_seed
        for p in range(self.players):  # the offer was checked: one HERE (the host), one THERE
            kind = self.offer_seats[p]
            if kind == THERE:
                self.my_seat = p
                kind = HERE
            elif kind == HERE:
                self.peer_seat = p
                kind = THERE
            self.seats[p] = kind
        b = self.tx
        b[0] = VERSION
        b[1] = self.offer_game_id
        b[2] = self.offer_rules
        r.put_i32(b, 3, self.seed)
        self._queue(K_ACCEPT, b, 7)
        self._begin()
        self._flush()

    def refuse(self, reason):
        self.tx[0] = reason
        self._queue(K_REFUSE, self.tx, 1)
        self.go(m.E_REFUSE)
        self._flush()

    def cancel(self, now_ms):
        """Stop waiting (before the game started); the host's offer is withdrawn."""
        if self.is_host and self.state == S_WAITING:
            self._queue(K_BYE, self.tx, 0)
            self._flush()
        self.go(m.E_CANCEL)

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
        kind = ch.receive()
        while kind >= 0:
            self._on(kind, ch.rx, ch.rx_len)
            kind = ch.receive()
        self._silence(now_ms)
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

    def _attach(self, game):
        self.game = game
        self.players = game.players
        self.all_at_once = not game.TURN_BASED
        self.play = self.lockstep if game.TURN_BASED else self.realtime
        self.record = self.play.RECORD
        game.check_position()  # (what the check imports, imported now: a STATE is checked in play)
        for p in range(MAX_SEATS):
            self.seats[p] = 0

    def _begin(self):
        """Both sides agreed: deal and set who plays where."""
        if not self.go(m.E_START):
            return  # no longer waiting for this table (it was withdrawn)
        game = self.game
        game.deal(self.seed)
        self.gen = 0
        self._configure()
        self._reset_play(0)
        self.flags |= STARTED

    def _configure(self):
        """Computer players act at the host only; people's seats wait for their moves."""
        game = self.game
        if not self.all_at_once:
            game.bots = False
            return
        game.bots = True
        for p in range(self.players):
            if self.is_host and self.seats[p] == COMPUTER:
                if not game.computer[p]:
                    game.set_bot(p, 2, 2)
            else:
                game.set_bot(p, -1, 0)

    def _reset_play(self, key):
        """Counters after a deal or a loaded state; key: the turn number or the game time."""
        for i in range(_RING):
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
            self._on_resync(r.get_i32(d, 1))

    def _on_resync(self, theirs):
        """The guest says it disagrees: believed only when its hash differs from this state's,
        and answered at most RESYNCS_PER_MINUTE times a minute."""
        mine = state_hash(self.game)
        if theirs == mine or not self.may_resend():
            self.reject()
            return
        self.hash_there = theirs
        self.hash_here = mine
        self.send_state()

    def may_resend(self):
        """Whether the host may send its whole state again now (RESYNCS_PER_MINUTE)."""
        return (self.now - self.resent_at[self.resend_i]) & m.CLOCK_MASK >= 60000

    def _on_offer(self, d, n):
        if self.is_host and self.state == S_WAITING:
            self.reject()  # two hosts
            return
        self.is_host = False
        if d[0] != VERSION:
            reason = R_VERSION
        elif m.check_offer(d, n):
            reason = R_INVALID
            self.rejected += 1
        else:
            self.offer_version = d[0]
            self.offer_game_id = d[1]
            self.offer_rules = d[2]
            self.offer_players = d[3]
            self.offer_options = r.get_i32(d, 4)
            self.offer_seed = r.get_i32(d, 8)
            for p in range(MAX_SEATS):
                self.offer_seats[p] = d[m.OFFER_HEAD + p] if p < d[3] else 0
            reason = self._check_offer()
        if reason:
            self.refuse(reason)
        else:
            self.go(m.E_OFFER)
            self.flags |= OFFER

    def _check_offer(self):
        """0 when this console can play the offer, else the reason to refuse it."""
        name = games.name_of(self.offer_game_id)
        if name is None:
            return R_GAME
        try:
            cls = games.load(name)  # imported once, when the first offer of it comes
        except ImportError:
            return R_GAME  # a build without this game
        if not cls.MIN_PLAYERS <= self.offer_players <= cls.MAX_PLAYERS or self.offer_players > MAX_SEATS:
            return R_GAME
        for v in cls.RULES_PROFILES:
            if v == self.offer_rules:
                return 0
        return R_RULES

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

    def send_record(self, b, n):
        """A MOVE message of one record, b[0:n] (move_record's head, and more in real time)."""
        self._queue(K_MOVE, b, n)
        self.moves_sent += 1

    def send_message(self, kind, b, n):
        self._queue(kind, b, n)

    def waiting(self):
        """Messages wait for room in the channel's window."""
        return self.q_count > 0

    def changed(self):
        self.flags |= CHANGED

    def new_generation(self):
        """A new round (real time): what was sent for the old one is dropped."""
        self.gen = (self.gen + 1) & 0xFF

    def refuse_move(self, disagree):
        """A move or undo from the link refused: counted; when it was of the peer's own seat
        (not legal there) the consoles disagree and the host's state repairs it, otherwise
        nothing changes."""
        self.refused += 1
        if disagree:
            self._found(state_hash(self.game), 0)

    def move_record(self, seat, move):
        """A MOVE message's first five bytes in tx (gen, seat, the move's three); tx."""
        b = self.tx
        b[0] = self.gen
        b[1] = seat
        b[2] = (move >> 16) & 0xFF
        b[3] = (move >> 8) & 0xFF
        b[4] = move & 0xFF
        return b

    def _send_move(self, seat, move):
        self.send_record(self.move_record(seat, move), 5)

    # --- hashes ---

    def my_hash(self, key, h):
        """This console's hash at `key`: sent, and compared with the peer's when it has come."""
        b = self.tx
        b[0] = self.gen
        r.put_i32(b, 1, key)
        r.put_i32(b, 5, h)
        self._queue(K_HASH, b, 9)
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
                self.send_state()
        elif not self.asked:
            self.asked = True
            self.asked_at = self.now
            self.go(m.E_DISAGREE)
            b = self.tx
            b[0] = self.gen
            r.put_i32(b, 1, mine)
            self._queue(K_RESYNC, b, 5)

    def lost(self):
        """What happened cannot be kept in step (the queue overflowed while the link was
        down, or a Nerts window outgrew the journal): the host's state replaces it."""
        self.overflows += 1
        self._forget_queue()
        self.asked = False
        if self.is_host:
            self.send_state()  # what this console lost: not the peer's doing, never limited
        else:
            self._repair(state_hash(self.game))

    # --- the host's state, sent and loaded (transfer.py) ---

    def send_state(self):
        """Host: send the whole state (a new generation: what was on its way is dropped)."""
        self.resent_at[self.resend_i] = self.now
        self.resend_i = (self.resend_i + 1) % RESYNCS_PER_MINUTE
        transfer.send(self)
        if not self.s_pending:
            self.s_pending = True
            self._queue(_PLACEHOLDER, self.tx, 0)

    def _forget_queue(self):
        self.q_count = 0
        self.s_pending = False

    def _overflowed(self):
        """Messages were lost because the queue was full: what waits is of no more use, the
        host's state replaces it (a new generation)."""
        self.dropped_seen = self.dropped
        if self._playing():
            self.lost()

    # --- messages out ---

    def _queue(self, kind, data, n):
        if self.q_count == _QUEUE:
            self.dropped += 1  # poll() repairs: the host's state goes instead
            return
        i = (self.q_head + self.q_count) % _QUEUE
        self.q_kind[i] = kind
        self.q_len[i] = n
        at = i * _SLOT
        for k in range(n):
            self.q_data[at + k] = data[k]
        self.q_count += 1

    def _flush(self):
        """Hand waiting messages to the channel, in order, while its window has room."""
        ch = self.ch
        b = self.tx
        while self.q_count > 0:
            i = self.q_head
            kind = self.q_kind[i]
            if kind == _PLACEHOLDER:
                while self.s_pos < self.s_len:
                    n = transfer.chunk(self)
                    if not ch.send(K_STATE, b, n):
                        return
                    self.s_pos += n - STATE_HEAD
                    self.bytes_sent += n + 1
                    self.messages_sent += 1
                self.s_pending = False
                if self.is_host:
                    self.go(m.E_AGREE)
                self.q_head = (i + 1) % _QUEUE
                self.q_count -= 1
                continue
            n = self.q_len[i]
            at = i * _SLOT
            for k in range(n):
                b[k] = self.q_data[at + k]
            taken = 1
            if kind == K_MOVE:  # the moves waiting behind it, of the same generation, join it
                j = (i + 1) % _QUEUE
                while taken < self.q_count and self.q_kind[j] == K_MOVE and \
                        self.q_data[j * _SLOT] == b[0] and n + self.q_len[j] - 1 <= STATE_HEAD + STATE_DATA:
                    at = j * _SLOT
                    for k in range(1, self.q_len[j]):
                        b[n] = self.q_data[at + k]
                        n += 1
                    taken += 1
                    j = (j + 1) % _QUEUE
            if not ch.send(kind, b, n):
                return
            self.bytes_sent += n + 1
            self.messages_sent += 1
            self.q_head = (i + taken) % _QUEUE
            self.q_count -= taken
