"""A table shared by two consoles over a Channel (engine_core/link/channel.py; docs/link.md,
"Sessions").

The host offers a game (game, rule profile, seed, options, who sits where) to anyone in range
under a table id of its own; a joining console lists the tables it hears, its player picks
one, the guest accepts and both deal the same game from the seed (hello.py; pairing.py). Each
console then sends the moves made at it, and both compare a 30-bit hash of the state
(statehash.py): after every turn in Spite & Malice, every second of game time in Nerts. A
disagreement, or a move from the link that is not legal, is repaired by the host sending its
whole state (the saved-game record, in chunks), which the guest loads (transfer.py). A
turn-based game (the TURN_BASED flag: Spite & Malice) goes in lockstep (lockstep.py), the
others (Nerts) in time order (realtime.py, timeline.py). Every message from the peer is checked
before it acts (messages.py, ACCEPTS_HOST and ACCEPTS_GUEST below, then the game); the states
move only through TRANSITIONS.

The session holds the table (its game, state, seats, generation, the clock of the last poll)
and is made of parts that hold their own state, each made once here with what it needs:
Hello (offers, the join list, the answer), Outbox (what it sends, in order), Repair (hashes
compared, the state re-sent), Transfer (that state, sent and loaded) and the play (Lockstep,
Realtime). A part reads the table's public fields and changes the session only through the
methods under "what the parts ask of the session" (docs/link.md, "The session's parts").

Messages (kind, then the payload; ints big-endian, four-byte ones as records.put_i32):
    OFFER   1  version, game id, rules, players, options(4), seed(4), one seat kind a player
               (a beacon to anyone in range, every 500 ms while the table is open)
    ACCEPT  2  version, game id, rules, seed(4)
    REFUSE  3  reason
    MOVE    4  gen, then one or more records: seat, move(3) [, time(4), counter(2): Nerts]
    UNDO    5  gen, seat
    HASH    6  gen, key(4), hash(4)        key: the turn number, or the second of game time (Nerts)
    CLOCK   7  gen, time(4)                Nerts: no move of mine will be older than this
    RESYNC  8  gen, hash(4)                the guest asks for the host's state (the host: "we disagree")
    STATE   9  gen, offset(2), total(2), key(4), hash(4), up to 107 bytes of the record
    BYE    10  (nothing)
    FULL   11  as OFFER: the host's table, taken (a beacon every second while the two play)
`gen` counts the host's state re-sends (and Nerts rounds): a message of another generation
was sent before the state it would apply to was replaced, and is dropped.

Allocation: the constructor allocates everything; poll, local_move, local_undo, tick and
leave allocate nothing (tests/test_link_session.py runs both consoles under heap_lock).
"""

from engine_core import OVER
from engine_core import games, rng
from engine_core import records as r
from engine_core.game import V_STATUS
from engine_core.link import messages as m
from engine_core.link.messages import (COMPUTER, HERE, MAX_SEATS, R_BUSY, R_DECLINED, R_GAME,  # noqa: F401
                                       R_INVALID, R_RULES, R_VERSION, S_DESYNC, S_IDLE, S_LEFT,
                                       S_PAUSED, S_PLAYING, S_WAITING, THERE, VERSION)
from engine_core.link.transfer import Transfer
from engine_core.link.hello import Hello
from engine_core.link.outbox import Outbox
from engine_core.link.repair import RESYNCS_PER_MINUTE, Repair  # noqa: F401
from engine_core.link.lockstep import Lockstep
from engine_core.link.realtime import Realtime

from micropython import const

_TYPING = const(0)  # true for the type checker alone (tools/device/mypy-device.ini, always_true)
if _TYPING:
    from typing import Any

    from engine_core.link.channel import Channel

# The codes the link's modules share live in messages.py; the session's names for them.
K_OFFER, K_ACCEPT, K_REFUSE, K_MOVE, K_UNDO = m.OFFER, m.ACCEPT, m.REFUSE, m.MOVE, m.UNDO
K_HASH, K_CLOCK, K_RESYNC, K_STATE, K_BYE = m.HASH, m.CLOCK, m.RESYNC, m.STATE, m.BYE
OFFER, STARTED, CHANGED, PAUSED = m.F_OFFER, m.F_STARTED, m.F_CHANGED, m.F_PAUSED
RESUMED, DESYNC, LEFT, REFUSED = m.F_RESUMED, m.F_DESYNC, m.F_LEFT, m.F_REFUSED

# Which kinds each state takes from the peer (bit k: kind k), as host and as guest. Anything
# else is counted in `rejected` and changes nothing (docs/link.md, "What each state accepts").
_PLAY_BOTH = 1 << K_MOVE | 1 << K_UNDO | 1 << K_HASH | 1 << K_CLOCK | 1 << K_BYE
_HEARD = const(0x802)  # 1 << OFFER | 1 << FULL: a table heard, open (an offer) or taken (FULL)
ACCEPTS_HOST = (
    _HEARD,  # S_IDLE: an offer, shown (the link screen) or asked (elsewhere); a full table, listed
    1 << K_ACCEPT | 1 << K_REFUSE | 1 << K_BYE,  # S_WAITING: the answer to this offer
    _PLAY_BOTH | 1 << K_RESYNC,  # S_PLAYING
    _PLAY_BOTH | 1 << K_RESYNC,  # S_PAUSED
    _HEARD,  # S_LEFT: a new offer, asked
    _PLAY_BOTH | 1 << K_RESYNC,  # S_DESYNC
)
ACCEPTS_GUEST = (  # RESYNC from the host: "we disagree" (the guest then compares and asks)
    _HEARD,
    _HEARD | 1 << K_BYE | 1 << K_ACCEPT,  # S_WAITING: the offer, the host withdrawing it or starting a party table
    _PLAY_BOTH | 1 << K_STATE | 1 << K_RESYNC,
    _PLAY_BOTH | 1 << K_STATE | 1 << K_RESYNC,
    _HEARD,
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

class Session:
    def __init__(self, channel: "Channel"):
        self.ch = channel
        self.own = channel  # this console's channel; a party table's host uses a Hub (hub.py)
        self.hub: "Any" = None
        channel.listen()  # until this console hosts or joins: offers in range are heard, nothing said
        # The game on the table (engine_core/game.py), None between games; its parts ask it
        # only while one is on the table, so it is not narrowed at each use.
        self.game: "Any" = None
        self.all_at_once = False  # the game's players all play at once (not TURN_BASED)
        self.is_host = False
        self.state = S_IDLE
        self.resume_state = S_PLAYING  # the state a pause returns to
        self.flags = 0
        self.my_seat = 0
        self.peer_seat = 1
        self.seats = bytearray(MAX_SEATS)
        self.owner = bytearray(MAX_SEATS)  # host: the leg (hub.py) of each THERE seat's guest
        self.party = False  # more than two consoles at the table (a Hub at the host)
        self.waiting_start = False  # a party table's guest accepted: the host starts the game
        self.away_told = 0  # the seats away as the screens last told the player (linkplay.py)
        self.away = 0  # a party table's host: bit p, seat p's guest is away (hub.py)
        self.src = 0  # the hub's leg of the message being handled (0: the one peer)
        self.players = 0
        self.seed = 0
        self.generator = rng.SPECTRAL  # the table's dealer: the host's (hello.py; an older host's COMBINED)
        self.gen = 0
        self.refusal = 0
        self.hash_here = 0
        self.hash_there = 0
        self.orphans = 0  # bit p: seat p was played through the peer, who left
        self.rejected = 0  # messages refused unread: wrong layout, field, seat, state or table
        self.record = m.LOCKSTEP_RECORD  # a MOVE record's size in this table's play
        self.now = 0  # the clock of the last poll
        self.restarts = getattr(channel, "restarts", 0)  # the channel's start-overs seen
        # The parts, each holding its own state (docs/link.md, "The session's parts").
        self.transfer = Transfer(self)  # the host's whole state, sent or received
        self.outbox = Outbox(self, channel, self.transfer)  # messages waiting for the channel
        self.repair = Repair(self, self.outbox, self.transfer)  # the hashes compared, the state re-sends
        self.hello = Hello(self, channel, self.outbox)  # offers, the join list, the answer
        self.tables = self.hello.tables
        # How the game is played over the link, chosen by its TURN_BASED flag: one seat at a
        # time (lockstep.py) or all at once in time order (realtime.py). Both made here.
        self.lockstep = Lockstep(self, self.outbox, self.repair)
        self.realtime = Realtime(self, self.outbox, self.repair)
        self.play = self.realtime if self.all_at_once else self.lockstep
        self.timeline = self.realtime.timeline

    # --- what the screens call (the hello's verbs: hello.py) ---

    def host(self, game, seed, options, seats, now_ms):
        self.hello.host(game, seed, options, seats, now_ms)

    def join(self, now_ms):
        self.hello.join(now_ms)  # subset: ok (the hello's join, not str.join)

    def choose(self, i):
        self.hello.choose(i)

    def accept(self, game, now_ms):
        return self.hello.accept(game, now_ms)

    def refuse(self, reason):
        self.hello.refuse(reason)

    def decline(self):
        self.hello.decline()

    def cancel(self, now_ms):
        self.hello.cancel(now_ms)

    # The offer to answer, and the counts (firmware/main.py link_state), as the parts keep them.
    @property
    def offer_game_id(self):
        return self.hello.offer_game_id

    @property
    def offer_players(self):
        return self.hello.offer_players

    @property
    def offer_options(self):
        return self.hello.offer_options

    @property
    def offer_rules(self):
        return self.hello.offer_rules

    @property
    def offer_table(self):
        return self.hello.offer_table

    @property
    def asked(self):
        """The guest asked for the host's state and waits for it (repair.py)."""
        return self.repair.asked

    @property
    def moves_sent(self):
        return self.outbox.moves_sent

    @property
    def messages_sent(self):
        return self.outbox.messages_sent

    @property
    def bytes_sent(self):
        return self.outbox.bytes_sent

    @property
    def hashes_compared(self):
        return self.repair.hashes_compared

    @property
    def desyncs(self):
        return self.repair.desyncs

    @property
    def refused(self):
        return self.repair.refused

    @property
    def repairs(self):
        return self.repair.repairs

    def use(self, hub):
        """Host a party table through `hub` (hub.Hub: a channel per guest), or (None) through
        this console's own channel again. Before host()."""
        ch = hub if hub is not None else self.own
        self.hub = hub
        self.ch = self.outbox.ch = self.hello.ch = ch
        self.restarts = ch.restarts

    def start(self, now_ms):
        """A party table's host starts the game (hub.py: the guests that accepted are told,
        the seats no guest took go to the computer)."""
        if self.party and self.is_host and self.state == S_WAITING and self.game is not None:
            self.hub.start(self)

    def legs(self):  # the peers whose horizons count (bit i: hub leg i, seated, not lagging; one peer: 1)
        return self.hub.live & ~self.hub.lag if self.party and self.is_host else 1

    def leave(self, now_ms):
        """Say goodbye; the screens then offer 'continue against the computer'."""
        if self.state != S_IDLE and self.state != S_LEFT:
            out = self.outbox
            out.forget()  # what waits is moot: the goodbye goes first
            out.queue(K_BYE, out.tx, 0)
            out.flush()
            self.ch.poll(now_ms)
        self.left()

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
        if self.game is None or self.state == S_IDLE or self.state == S_LEFT or self.repair.asked:
            return
        self.play.local_move(move)
        self.transfer.observe()
        self.outbox.flush()

    def local_undo(self, now_ms):
        """This console undid its last move (only when may_undo() said so): send that."""
        if self.game is None or self.state == S_LEFT or self.repair.asked or not self.play.local_undo():
            return
        b = self.outbox.tx
        b[0] = self.gen
        b[1] = self.my_seat
        self.outbox.queue(K_UNDO, b, 2)
        self.outbox.flush()

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
            if self.playing() or (self.is_host and self.state == S_WAITING):
                self.outbox.forget()
                self.left()
                self.flags |= LEFT
        if self.playing():
            self.play.before()
            self.transfer.observe()  # this console's own payoff pile, as its own moves left it
        kind = ch.receive()
        heard = kind >= 0
        while kind >= 0:
            self.src = self.hub.src if self.hub is not None else 0  # the guest it came from (hub.py)
            self.on(kind, ch.rx, ch.rx_len)
            kind = ch.receive()
        if heard and self.playing():
            self.transfer.observe()  # a deal of the peer's just applied: its pile, before a move here
        if self.party and self.is_host and self.playing():
            self.hub.tend(self, now_ms)  # guests gone quiet or away (hub.py)
        self.silence(now_ms)
        self.tables.expire(now_ms)
        self.hello.withdrawn()
        self.repair.expire(now_ms)
        if self.playing():
            self.play.after()
        if self.outbox.overflowed() and self.playing():
            self.repair.lost()
        self.outbox.flush()
        ch.poll(now_ms)
        f = self.flags
        self.flags = 0
        return f

    # --- what the parts ask of the session (docs/link.md, "The session's parts") ---

    def attach(self, game):
        """The table's game (hosting, or accepting an offer): its play chosen, seats cleared."""
        self.game = game
        self.players = game.players
        self.all_at_once = not game.TURN_BASED
        self.play = self.lockstep if game.TURN_BASED else self.realtime
        self.record = self.play.RECORD
        game.check_position()  # (what the check imports, imported now: a STATE is checked in play)
        for p in range(MAX_SEATS):
            self.seats[p] = 0

    def fresh(self):
        """A new table: an asked state and news of the last one not yet read are moot."""
        self.repair.stop_asking()
        self.flags = 0

    def be_guest(self):
        self.is_host = False

    def drop_game(self):
        self.game = None

    def sit(self, is_host, seed, kinds, mine, peer):
        """Who sits where: the seat kinds of the players (this console's view), its own seat
        and the peer's."""
        self.is_host = is_host
        self.seed = seed
        self.my_seat = mine
        self.peer_seat = peer
        guests = 0
        for p in range(self.players):
            self.seats[p] = kinds[p]
            self.owner[p] = guests  # a party table's k-th guest seat is its hub's leg k
            if kinds[p] == THERE or kinds[p] == m.OTHER:
                guests += 1
        self.party = guests > 1
        if is_host and self.party != (self.hub is not None):
            raise ValueError("a Hub (use) hosts more than one console's seat, and only that")
        self.waiting_start = False
        self.away = 0

    def begin(self):
        """Both sides agreed: deal and set who plays where."""
        game = self.game
        if game is None or not self.go(m.E_START):
            return  # no longer waiting for this table (it was withdrawn)
        game.deal(self.seed, self.generator)
        self.waiting_start = False
        if self.is_host:
            self.ch.announce(m.FULL)  # the table taken: its offer goes on, saying so
        self.transfer.forget_own()  # this console's own payoff pile: found again for this table
        self.gen = 0
        self.configure()
        self.reset_play(0)
        self.flags |= m.F_STARTED

    def configure(self):
        """Computer players act at the host only; people's seats wait for their moves."""
        game = self.game
        if game is None:
            return
        if not self.all_at_once:
            game.bots = False
            return
        game.bots = True
        for p in range(self.players):
            if self.is_host and self.seats[p] == COMPUTER:
                if not game.bot.is_computer(p):
                    game.set_bot(p, 2, 2)
            else:
                game.set_bot(p, -1, 0)

    def reset_play(self, key):
        """Counters after a deal or a loaded state; key: the turn number or the game time."""
        self.repair.reset()
        self.play.reset(key)

    def news(self, f):
        """What poll() returns next gains the flags f."""
        self.flags |= f

    def saw(self, mine, theirs):
        """The hashes of a disagreement, this console's and the peer's (the table shows them)."""
        self.hash_here = mine
        self.hash_there = theirs

    def changed(self):
        self.flags |= CHANGED

    def new_generation(self):
        """A new round (real time) or state (the host's): what was sent for the old one is dropped."""
        self.gen = (self.gen + 1) & 0xFF

    def take_generation(self, gen):
        """The host's state was loaded: its generation is the table's."""
        self.gen = gen

    def state_sent(self):
        """The host's state went whole (outbox.py): the consoles agree again."""
        if self.is_host:
            self.go(m.E_AGREE)

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

    def reject(self):
        """A message from the link that is refused: counted, and nothing else happens."""
        self.rejected += 1

    # --- start and end, silence, messages in ---

    def left(self):
        self.go(m.E_LEAVE)
        self.waiting_start = False  # (a party table's seat: given up with the table)
        self.hello.end_table()  # its offer, replayed, is no new table
        self.repair.stop_asking()
        self.orphans = 0
        for p in range(self.players):
            if self.seats[p] != HERE:
                self.orphans |= 1 << p
        self.play.forget()

    def playing(self):
        return self.state == S_PLAYING or self.state == S_PAUSED or self.state == S_DESYNC

    def silence(self, now_ms):
        silent = self.ch.silent_ms(now_ms) >= SILENCE_MS  # (the transitions looked up only on a change)
        if silent != (self.state == S_PAUSED) and self.go(m.E_SILENT if silent else m.E_HEARD):
            self.flags |= PAUSED if silent else RESUMED

    def accepts(self, kind):
        """Whether a message of `kind` is one this session takes in its state (ACCEPTS_*)."""
        table = ACCEPTS_HOST if self.is_host else ACCEPTS_GUEST
        return 1 <= kind <= m.KINDS and table[self.state] >> kind & 1 == 1

    def on(self, kind, d, n):
        """A message from the peer: checked, then acted on."""
        if not self.accepts(kind) or m.check(kind, d, n, self.players, self.record):
            self.reject()
            return
        repair = self.repair
        if kind == K_OFFER or kind == m.FULL:
            self.hello.on_offer(d, n, kind == m.FULL)
        elif kind == K_ACCEPT:
            game = self.game  # (the host's, offered; a party guest's, accepted)
            if game is None or d[0] != VERSION or d[1] != games.game_id(game.NAME) \
                    or d[2] != game.rules or r.get_i32(d, 3) != self.seed or self.is_host == self.waiting_start:
                self.reject()
            elif self.party and self.is_host:
                self.hub.seat(self.src)  # one more guest seated: the host starts (start())
                self.flags |= CHANGED
            else:
                self.begin()
        elif self.party and self.is_host and (kind == K_REFUSE or kind == K_BYE):
            if self.state == S_WAITING:
                self.hub.reopen(self.src)  # that guest said no: its seat is offered again
            else:
                self.hub.leave(self.src)  # that guest left: its seat goes as the host chose
        elif kind == K_REFUSE:
            self.refusal = d[0]
            self.go(m.E_REFUSE)
            self.flags |= REFUSED
        elif kind == K_BYE:
            self.left()
            self.flags |= LEFT
        elif kind == K_STATE:
            repair.on_state(d, n)
        elif kind == K_RESYNC and self.party and not self.is_host:
            if 0 < (self.gen - d[0]) & 0xFF < 128:
                return  # a "take my state" older than the state held here (the host's gen before it)
            # A party host's "take my state", of this generation or a later one
            repair.on_told(r.get_i32(d, 1))
        elif self.hub is not None and self.hub.note(self.src, d[0] != self.gen, self.now):
            return  # a guest of another generation (it missed a state: the hub has it sent again)
        elif d[0] != self.gen or repair.asked:
            return  # sent before the state it would apply to was replaced: dropped
        elif kind == K_MOVE:
            self.on_moves(d, n)
        elif kind == K_UNDO:
            self.play.peer_undo(d[1])
        elif kind == K_HASH:
            repair.on_hash(r.get_i32(d, 1), r.get_i32(d, 5))
        elif kind == K_CLOCK:
            self.play.peer_clock(r.get_i32(d, 1))
            if n > 5 and self.party and not self.is_host:
                self.realtime.peer_away(d[5])  # the host says whose guests are away (hub.py)
        elif kind == K_RESYNC:
            if self.is_host:
                repair.on_resync(r.get_i32(d, 1))
            else:
                repair.on_told(r.get_i32(d, 1))

    def on_moves(self, d, n):
        """A MOVE message: one or more move records after the generation byte (moves that
        waited for the channel travel together)."""
        size = self.record
        gen = self.gen
        at = 1
        while at + size <= n and self.gen == gen and not self.repair.asked:
            self.play.peer_move(d, at)
            at += size
