"""A table shared by two consoles over a Channel (engine_core/link/channel.py; docs/link.md,
"Sessions").

The host offers a game (game, rule profile, seed, options, who sits where); the guest accepts
and both deal the same game from the seed. From then on each console sends the moves made at
it, and both check that they hold the same state by exchanging a 30-bit hash of it
(statehash.py): after every turn in Spite & Malice, every second of game time in Nerts. A
disagreement, or a move from the link that is not legal, is repaired by the host sending its
whole state (the saved-game record of engine_core/save.py, in chunks), which the guest loads
(transfer.py).

Spite & Malice is played in lockstep: one seat moves at a time, a move from the link is
checked before it is applied, and undo reaches only one's own moves of the turn under way
(lockstep.py). Nerts is played in time order: realtime.py and timeline.py.

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

from engine_core import OVER, PLAYING
from engine_core import games
from engine_core import records as r
from engine_core import save
from engine_core.game import V_STATUS, V_TURN
from engine_core.link import lockstep
from engine_core.link import realtime as rt
from engine_core.link import transfer
from engine_core.link.statehash import state_hash
from engine_core.link.timeline import Timeline

from micropython import const

VERSION = const(1)  # of these messages

# Who sits at a seat, from one console's view.
HERE = const(1)
THERE = const(2)
COMPUTER = const(3)

# poll() flags.
OFFER = const(1)
STARTED = const(2)
CHANGED = const(4)
PAUSED = const(8)
RESUMED = const(16)
DESYNC = const(32)
LEFT = const(64)
REFUSED = const(128)

# Session states.
S_IDLE = const(0)
S_WAITING = const(1)
S_PLAYING = const(2)
S_PAUSED = const(3)
S_LEFT = const(4)
S_DESYNC = const(5)

# Message kinds.
K_OFFER = const(1)
K_ACCEPT = const(2)
K_REFUSE = const(3)
K_MOVE = const(4)
K_UNDO = const(5)
K_HASH = const(6)
K_CLOCK = const(7)
K_RESYNC = const(8)
K_STATE = const(9)
K_BYE = const(10)

# Reasons for a refusal.
R_DECLINED = const(1)  # the person at the guest said no
R_VERSION = const(2)  # another version of these messages
R_GAME = const(3)  # a game this console does not have
R_RULES = const(4)  # a rule profile it cannot play
R_BUSY = const(5)

SILENCE_MS = const(5000)  # a link silent this long pauses the game
MAX_SEATS = const(4)
STATE_HEAD = transfer.HEAD  # a STATE chunk's header
STATE_DATA = transfer.DATA  # record bytes per chunk
_QUEUE = const(128)  # messages waiting for room in the channel's send window
_SLOT = const(16)  # bytes a waiting message may hold
_RING = const(16)  # hashes kept per side, waiting for the other's
_PLACEHOLDER = const(255)  # a queue slot that stands for the state's chunks
_RECORD = const(4)  # a Spite & Malice move record: seat, move(3)


class Session:
    def __init__(self, channel):
        self.ch = channel
        self.game = None
        self.nerts = False
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
        # Lockstep (Spite & Malice).
        self.turn_no = 0
        self.own_moves = 0  # moves of this console in the turn under way
        self.peer_moves = 0
        self.last_turn = 0
        self.last_status = 0
        # Hashes: the key (turn number or game time) and value of this console's and the peer's.
        self.mine_key = array("i", [-1] * _RING)
        self.mine_hash = array("i", [0] * _RING)
        self.peer_key = array("i", [-1] * _RING)
        self.peer_hash = array("i", [0] * _RING)
        # Nerts (engine_core/link/realtime.py).
        self.timeline = Timeline()
        self.fresh = array("i", [0] * 64)  # moves found in the journal since the last look
        self.ctr = array("i", [0] * MAX_SEATS)  # each seat's move counter
        self.peer_h = 0  # the peer's horizon: none of its moves will be older
        self.sent_h = 0  # the last horizon this console sent
        self.next_check = 0  # the game time of the next hash
        self.seen_head = 0  # where this console last read the journal
        self.seen_clears = 0
        # Counters (the tests and the figures in docs/link.md).
        self.bytes_sent = 0  # payload bytes handed to the channel, the kind byte included
        self.messages_sent = 0
        self.moves_sent = 0
        self.refused = 0  # moves from the link that were not legal
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
        self.state = S_WAITING
        self._flush()

    def join(self, now_ms):
        """Wait for an offer (poll() says OFFER when one comes)."""
        self.is_host = False
        self.asked = False
        self.game = None
        self.state = S_WAITING

    def accept(self, game, now_ms):
        """Take the offer: `game` is the offered game (offer_players, offer_options); the
        session sets the offered rules and deals."""
        self._attach(game)
        game.set_rules(self.offer_rules)
        self.is_host = False
        self.seed = self.offer_seed
        self.peer_seat = 0
        for p in range(self.players):
            kind = self.offer_seats[p]
            if kind == THERE:
                self.my_seat = p
                kind = HERE
            elif kind == HERE:
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
        self.state = S_IDLE
        self._flush()

    def cancel(self, now_ms):
        """Stop waiting (before the game started); the host's offer is withdrawn."""
        if self.is_host and self.state == S_WAITING:
            self._queue(K_BYE, self.tx, 0)
            self._flush()
        self.state = S_IDLE

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

    def may_undo(self):
        """Spite & Malice: the last move is this console's own, in its turn under way."""
        game = self.game
        return (not self.nerts and game is not None and self.state == S_PLAYING
                and game.vars[V_STATUS] == PLAYING and game.vars[V_TURN] == self.my_seat
                and self.own_moves > 0 and game.can_undo())

    def may_deal(self):
        """Whether this console may start the next game (Spite & Malice: the seat to move,
        the loser of the last game) or round (Nerts: the host, once the round's end is final)."""
        game = self.game
        if game is None or self.state != S_PLAYING or game.vars[V_STATUS] != OVER:
            return False
        if self.nerts:
            return self.is_host and game.can_deal() and rt.settled(self)
        return not game.match_over() and game.vars[V_TURN] == self.my_seat

    def local_move(self, move, now_ms):
        """This console applied `move` (of a seat that is HERE) to the game: send it."""
        if self.game is None or self.state == S_IDLE or self.state == S_LEFT or self.asked:
            return
        if self.nerts:
            rt.local(self, move)
        else:
            self._send_move(self.my_seat, move)
            self.own_moves += 1
            lockstep.after_move(self)
        self._flush()

    def local_undo(self, now_ms):
        """This console undid its last move (only when may_undo() said so): send that."""
        if self.game is None or self.nerts or self.state == S_LEFT or self.asked:
            return
        b = self.tx
        b[0] = self.gen
        b[1] = self.my_seat
        self._queue(K_UNDO, b, 2)
        if self.own_moves > 0:
            self.own_moves -= 1
        self._flush()

    def poll(self, now_ms):
        """Drive the channel and the session; returns the flags of what happened (OFFER,
        STARTED, CHANGED, PAUSED, RESUMED, DESYNC, LEFT, REFUSED). No allocation."""
        ch = self.ch
        ch.poll(now_ms)
        if ch.restarts != self.restarts:
            # The link started over (the peer was switched off and on): what was on its way is
            # gone, and the peer knows nothing of this table. It left; a new offer may come.
            self.restarts = ch.restarts
            if self._playing() or (self.is_host and self.state == S_WAITING):
                self._forget_queue()
                self._left()
                self.flags |= LEFT
        if self.nerts and self._playing():
            rt.scan(self)
        kind = ch.receive()
        while kind >= 0:
            self._on(kind, ch.rx, ch.rx_len)
            kind = ch.receive()
        self._silence(now_ms)
        if self.nerts and self._playing():
            rt.settle(self)
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
        self.nerts = game.NAME == "nerts"
        for p in range(MAX_SEATS):
            self.seats[p] = 0

    def _begin(self):
        """Both sides agreed: deal and set who plays where."""
        game = self.game
        game.deal(self.seed)
        self.gen = 0
        self._configure()
        self._reset_play(0)
        self.state = S_PLAYING
        self.flags |= STARTED

    def _configure(self):
        """Computer players act at the host only; people's seats wait for their moves."""
        game = self.game
        if not self.nerts:
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
        game = self.game
        self.turn_no = key
        self.own_moves = 0
        self.peer_moves = 0
        self.last_turn = game.vars[V_TURN]
        self.last_status = game.vars[V_STATUS]
        for i in range(_RING):
            self.mine_key[i] = -1
            self.peer_key[i] = -1
        rt.reset(self, key)

    def _left(self):
        self.state = S_LEFT
        self.asked = False
        self.orphans = 0
        for p in range(self.players):
            if self.seats[p] != HERE:
                self.orphans |= 1 << p
        self.timeline.clear()

    def _playing(self):
        return self.state == S_PLAYING or self.state == S_PAUSED or self.state == S_DESYNC

    # --- silence ---

    def _silence(self, now_ms):
        silent = self.ch.silent_ms(now_ms) >= SILENCE_MS
        if self.state == S_PAUSED:
            if not silent:
                self.state = self.resume_state
                self.flags |= RESUMED
        elif silent and (self.state == S_PLAYING or self.state == S_DESYNC):
            self.resume_state = self.state
            self.state = S_PAUSED
            self.flags |= PAUSED

    # --- messages in ---

    def _on(self, kind, d, n):
        if kind == K_OFFER:
            self._on_offer(d, n)
        elif kind == K_ACCEPT:
            if self.is_host and self.state == S_WAITING and d[1] == games.game_id(self.game.NAME) \
                    and r.get_i32(d, 3) == self.seed:
                self._begin()
        elif kind == K_REFUSE:
            if self.is_host and self.state == S_WAITING:
                self.refusal = d[0]
                self.state = S_IDLE
                self.flags |= REFUSED
        elif kind == K_BYE:
            if self.state != S_IDLE and self.state != S_LEFT:
                self._left()
                self.flags |= LEFT
        elif kind == K_STATE:
            if not self.is_host and self._playing():
                transfer.receive(self, d, n)
        elif self._playing() and d[0] == self.gen and not self.asked:
            if kind == K_MOVE:
                self._on_moves(d, n)
            elif kind == K_UNDO:
                lockstep.peer_undo(self, d[1])
            elif kind == K_HASH:
                self._peer_hash(r.get_i32(d, 1), r.get_i32(d, 5))
            elif kind == K_CLOCK:
                rt.peer_clock(self, r.get_i32(d, 1))
            elif kind == K_RESYNC:
                if self.is_host:
                    self.hash_there = r.get_i32(d, 1)
                    self.hash_here = state_hash(self.game)
                    self.send_state()

    def _on_offer(self, d, n):
        if self.is_host or (self.state != S_WAITING and self.state != S_IDLE and self.state != S_LEFT):
            return
        self.offer_version = d[0]
        self.offer_game_id = d[1]
        self.offer_rules = d[2]
        self.offer_players = d[3]
        self.offer_options = r.get_i32(d, 4)
        self.offer_seed = r.get_i32(d, 8)
        for p in range(MAX_SEATS):
            self.offer_seats[p] = d[12 + p] if p < d[3] and 12 + p < n else 0
        reason = self._check_offer()
        if reason:
            self.refuse(reason)
        else:
            self.state = S_WAITING
            self.flags |= OFFER

    def _check_offer(self):
        """0 when this console can play the offer, else the reason to refuse it."""
        if self.offer_version != VERSION:
            return R_VERSION
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
        size = rt.RECORD if self.nerts else _RECORD
        gen = self.gen
        at = 1
        while at + size <= n and self.gen == gen and not self.asked:
            if self.nerts:
                rt.peer_move(self, d, at)
            else:
                lockstep.peer_move(self, d[at], d[at + 1] << 16 | d[at + 2] << 8 | d[at + 3])
            at += size

    # --- lockstep: Spite & Malice (lockstep.py) ---

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
        self._queue(K_MOVE, self.move_record(seat, move), 5)
        self.moves_sent += 1

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
            self.send_state()
        elif not self.asked:
            self.asked = True
            if self.state == S_PLAYING:
                self.state = S_DESYNC
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
        self._repair(state_hash(self.game))

    # --- the host's state, sent and loaded (transfer.py) ---

    def send_state(self):
        """Host: send the whole state (a new generation: what was on its way is dropped)."""
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
                if self.state == S_DESYNC and self.is_host:
                    self.state = S_PLAYING
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
