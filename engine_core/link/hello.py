"""The hello of a link session (engine_core/link/session.py makes one Hello; docs/link.md, "The
hello" and "Pairing"): a host opens a table and offers it to anyone in range, a joining
console lists the tables it hears (pairing.Tables) and its player picks one, the guest accepts
(or refuses) and both deal the same game from the seed. Nothing here allocates after the
session is made, but the game class an offer names, imported when its first offer comes.

The Hello's own state: the tables heard (`tables`), the offer to answer (offer_*), the table
this console hosts or joined (table_id, table_host) and whether its player chose Join a table
(`joining`). What the session asks of it: host(), join(), choose(), accept(), refuse(),
decline(), cancel() (the screens' verbs, which the session passes on), on_offer(d, n, full),
withdrawn(), end_table(). What it asks of the session: `players`, `seed`, `state`,
`is_host`, `my_seat`, `peer_seat`, `now`, attach(game), fresh(), be_guest(), drop_game(),
sit(), begin(), go(), reject(), news(); of the Outbox: `tx`, queue(), forget(), flush(); of
the channel: open_table(), pair(), listen(), paired(), announce(), `me`, `rx_table`, `rx_from`.
"""

from engine_core import games
from engine_core import records as r
from engine_core.link import messages as m
from engine_core import rng
from engine_core.link.messages import HERE, MAX_SEATS, OLD_VERSION, R_GAME, R_RULES, S_WAITING, THERE, VERSION
from engine_core.link.pairing import Tables

from micropython import const

_SEATED_SILENCE_MS = const(5000)  # a seated party guest whose host says nothing this long: it left
_TYPING = const(0)  # true for the type checker alone (tools/device/mypy-device.ini, always_true)
if _TYPING:
    from engine_core.link.channel import Channel
    from engine_core.link.outbox import Outbox
    from engine_core.link.session import Session


class Hello:
    def __init__(self, session: "Session", channel: "Channel", outbox: "Outbox"):
        self.s = session
        self.ch = channel
        self.outbox = outbox
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
        self.kinds = bytearray(MAX_SEATS)  # the seats as this console sees the offer's
        self.tables = Tables()  # the tables heard (pairing.py), and those that ended
        self.table_id = 0  # the table this console hosts or joined, and its host
        self.table_host = 0
        self.joining = False  # the player chose Join a table: offers are listed, not asked

    def host(self, game, seed, options, seats, now_ms):
        """Offer a table: `game` (made by games.load, rules set), a 30-bit seed, the options,
        and a seat kind per player (this console's view: HERE at seat 0, one THERE)."""
        s = self.s
        s.attach(game)
        s.fresh()  # a new table: news of the last one not yet read is moot
        peer = 0
        for p in range(s.players):
            if seats[p] == THERE:
                peer = p
        s.sit(True, seed & 0x3FFFFFFF, seats, 0, peer)
        s.generator = rng.SPECTRAL
        b = self.outbox.tx
        b[0] = VERSION
        b[1] = games.game_id(game.NAME)
        b[2] = game.rules
        b[3] = s.players
        r.put_i32(b, 4, game.options)
        r.put_i32(b, 8, s.seed)
        for p in range(s.players):
            b[12 + p] = seats[p]
        # A new table, under an id of its own: its offer goes to anyone in range (a beacon)
        # until a guest takes it; then only that guest's frames of this table count.
        self.outbox.forget()
        self.table_id = self.tables.new_table(self.ch.me, now_ms)
        self.table_host = self.ch.me
        self.ch.open_table(self.table_id, m.OFFER, b, 12 + s.players)
        self.joining = False
        s.go(m.E_HOST)

    def join(self, now_ms):
        """Listen for the tables offered in range: `tables` lists them, and poll() says F_OFFER
        when a new one comes (then offer_* is that one; choose(i) picks another)."""
        s = self.s
        s.be_guest()
        s.fresh()
        s.drop_game()
        s.waiting_start = False
        self.joining = True
        self.offer_table = 0
        self.outbox.forget()
        self.ch.listen()
        s.go(m.E_JOIN)

    def choose(self, i):
        """The player picks row i of `tables`: it becomes the offer accept() and refuse() answer."""
        t = self.tables
        self.load_offer(t.offers, t.offer_at(i), t.table[i], t.host[i])

    def accept(self, game, now_ms):
        """Take the offer: `game` is the offered game (offer_players, offer_options); the
        session sets the offered rules and deals. From now on only this table's host counts.
        Only an offer still waiting for its answer is taken: a second accept (a key pressed
        twice, or on a table already dealt) changes nothing and returns False."""
        s = self.s
        if s.state != S_WAITING or s.is_host or not self.offer_table:
            return False
        self.answer()
        s.attach(game)
        game.set_rules(self.offer_rules)
        mine = s.my_seat
        peer = s.peer_seat
        kinds = self.kinds
        for p in range(s.players):  # the offer was checked: one HERE (the host), one THERE (OTHER stays)
            kind = self.offer_seats[p]
            if kind == THERE:
                mine = p
                kind = HERE
            elif kind == HERE:
                peer = p
                kind = THERE
            kinds[p] = kind
        s.sit(False, self.offer_seed, kinds, mine, peer)
        s.generator = rng.COMBINED if self.offer_version == OLD_VERSION else rng.SPECTRAL  # as the host deals
        b = self.outbox.tx
        b[0] = self.offer_version
        b[1] = self.offer_game_id
        b[2] = self.offer_rules
        r.put_i32(b, 3, s.seed)
        self.outbox.queue(m.ACCEPT, b, 7)
        if s.party:
            s.waiting_start = True  # a party table: its host starts the game (ACCEPT back)
        else:
            s.begin()
        self.outbox.flush()
        return True

    def refuse(self, reason):
        """Say no to the offer (offer_*) that this console cannot play: its host is told why,
        then the table is set aside here as a player's no sets it (decline)."""
        if self.offer_table:
            self.answer()
            self.outbox.tx[0] = reason
            self.outbox.queue(m.REFUSE, self.outbox.tx, 1)
            self.outbox.flush()
        self.decline()

    def decline(self):
        """The player here said no to the offer (offer_*): set aside on this console only, the
        host not told. An offer goes to every console in range, so a bystander's no must not
        close a table another console may take (docs/link.md, "Pairing")."""
        if self.offer_table:
            self.tables.end(self.offer_host, self.offer_table)
            self.offer_table = 0
        self.joining = False
        self.s.go(m.E_REFUSE)

    def answer(self):
        """The channel to the offer's table and its host, for the answer."""
        self.joining = False
        self.outbox.forget()
        self.ch.pair(self.offer_table, self.offer_host)
        self.table_id = self.offer_table
        self.table_host = self.offer_host

    def cancel(self, now_ms):
        """Stop waiting (before the game started); the host's offer is withdrawn, a party
        guest's seat given back."""
        s = self.s
        if s.is_host and s.state == S_WAITING:
            if self.ch.paired():  # a guest took it as we cancelled: it is told
                self.outbox.queue(m.BYE, self.outbox.tx, 0)
                self.outbox.flush()
            else:
                self.ch.listen()  # the offer goes out no more
            self.end_table()
        elif s.state == S_WAITING and s.waiting_start:  # seated at a party table: the host
            self.outbox.queue(m.BYE, self.outbox.tx, 0)  # offers the seat again, as a new table
            self.outbox.flush()
            s.waiting_start = False
            self.tables.end(self.table_host, self.table_id)  # (this one leaves the list)
        self.joining = False
        s.go(m.E_CANCEL)

    def end_table(self):
        """The table this console hosts or joined ended: its offer, replayed, is no new table;
        a host says no more that it is taken (FULL)."""
        self.tables.end(self.table_host, self.table_id)
        self.ch.announce(0)

    def on_offer(self, d, n, full):
        """An offer heard (a beacon: pairing.py): listed when it is well formed, playable here
        and not of a table that ended; a new one is news (F_OFFER): in the join list, or, after
        a linked game, the former partner's new table, which its player is asked about. `full`:
        a FULL beacon, the table taken by two consoles: listed as such, never news."""
        s = self.s
        table = self.ch.rx_table
        host = self.ch.rx_from
        if s.waiting_start:
            return  # seated at a party table: the next seat's offer (one radio) is no news here
        if (s.is_host and s.state == S_WAITING) or table == 0 or self.tables.ended(host, table):
            s.reject()  # two hosts, or a replay of a table that ended
            return
        if (d[0] != VERSION and d[0] != OLD_VERSION) or m.check_offer(d, n) or self.check_offer(d):
            s.reject()  # not listed: this console could not play it
            return
        if not self.tables.hear(host, table, d, n, s.now, full) or full:
            return  # heard before, or taken
        self.load_offer(d, 0, table, host)
        s.be_guest()
        if not self.joining:
            s.go(m.E_OFFER)
        s.news(m.F_OFFER)

    def load_offer(self, d, at, table, host):
        """The offer at d[at:] (checked) becomes the one to answer."""
        self.offer_version = d[at]
        self.offer_game_id = d[at + 1]
        self.offer_rules = d[at + 2]
        self.offer_players = d[at + 3]
        self.offer_options = r.get_i32(d, at + 4)
        self.offer_seed = r.get_i32(d, at + 8)
        for p in range(MAX_SEATS):
            self.offer_seats[p] = d[at + m.OFFER_HEAD + p] if p < self.offer_players else 0
        self.offer_table = table
        self.offer_host = host

    def withdrawn(self):
        """The offer this console's player is asked about was heard no more (GONE_MS), or
        another console took it (FULL): the question goes (F_LEFT); and the host of a party
        table this console sits at has said nothing for 5 s (F_LEFT too)."""
        s = self.s
        if s.waiting_start and s.state == S_WAITING and self.ch.silent_ms(s.now) >= _SEATED_SILENCE_MS:
            s.waiting_start = False  # seated at a party table whose host says nothing (it withdrew
            self.end_table()  # that table, or went): the player is told, as of a host that left
            s.go(m.E_CANCEL)
            s.news(m.F_LEFT)
            return
        if self.offer_table and not self.joining and s.state == S_WAITING and not s.is_host \
                and not s.waiting_start:
            t = self.tables
            i = t.find(self.offer_host, self.offer_table)
            if i >= 0 and not t.full[i]:
                return
            self.offer_table = 0
            s.go(m.E_CANCEL)
            s.news(m.F_LEFT)

    def check_offer(self, d):
        """0 when this console can play the offer d (its layout checked), else the reason why not."""
        name = games.name_of(d[1])
        if name is None:
            return R_GAME
        try:
            cls = games.load(name)  # imported once, when the first offer of it comes
        except ImportError:
            return R_GAME  # a build without this game
        if not cls.MIN_PLAYERS <= d[3] <= cls.MAX_PLAYERS or not games.options_ok(r.get_i32(d, 4)):
            return R_GAME
        for v in cls.RULES_PROFILES:
            if v == d[2]:
                return 0
        return R_RULES
