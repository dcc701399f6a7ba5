"""The hello of a link session (engine_core/link/session.py mixes this in; docs/link.md, "The
hello" and "Pairing"): a host opens a table and offers it to anyone in range, a joining
console lists the tables it hears (pairing.Tables) and its player picks one, the guest accepts
(or refuses) and both deal the same game from the seed. Nothing here allocates after the
session is made, but the game class an offer names, imported when its first offer comes.
"""

from engine_core import games
from engine_core import records as r
from engine_core.link import messages as m
from engine_core.link.messages import (COMPUTER, HERE, MAX_SEATS, R_GAME, R_RULES, S_WAITING, THERE,  # noqa: F401
                                       VERSION)


class Hello:
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
        # A new table, under an id of its own: its offer goes to anyone in range (a beacon)
        # until a guest takes it; then only that guest's frames of this table count.
        self._forget_queue()
        self.table_id = self.tables.new_table(self.ch.me, now_ms)
        self.table_host = self.ch.me
        self.ch.open_table(self.table_id, m.OFFER, b, 12 + self.players)
        self.joining = False
        self.go(m.E_HOST)

    def join(self, now_ms):
        """Listen for the tables offered in range: `tables` lists them, and poll() says F_OFFER
        when a new one comes (then offer_* is that one; choose(i) picks another)."""
        self.is_host = False
        self.asked = False
        self.game = None
        self.flags = 0
        self.joining = True
        self.offer_table = 0
        self._forget_queue()
        self.ch.listen()
        self.go(m.E_JOIN)

    def choose(self, i):
        """The player picks row i of `tables`: it becomes the offer accept() and refuse() answer."""
        t = self.tables
        self._load_offer(t.offers, t.offer_at(i), t.table[i], t.host[i])

    def accept(self, game, now_ms):
        """Take the offer: `game` is the offered game (offer_players, offer_options); the
        session sets the offered rules and deals. From now on only this table's host counts.
        Only an offer still waiting for its answer is taken: a second accept (a key pressed
        twice, or on a table already dealt) changes nothing and returns False."""
        if self.state != S_WAITING or self.is_host or not self.offer_table:
            return False
        self._answer()
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
        self._queue(m.ACCEPT, b, 7)
        self._begin()
        self._flush()
        return True

    def refuse(self, reason):
        """Say no to the offer (offer_*) that this console cannot play: its host is told why,
        then the table is set aside here as a player's no sets it (decline)."""
        if self.offer_table:
            self._answer()
            self.tx[0] = reason
            self._queue(m.REFUSE, self.tx, 1)
            self._flush()
        self.decline()

    def decline(self):
        """The player here said no to the offer (offer_*): set aside on this console only, the
        host not told. An offer goes to every console in range, so a bystander's no must not
        close a table another console may take (docs/link.md, "Pairing")."""
        if self.offer_table:
            self.tables.end(self.offer_host, self.offer_table)
            self.offer_table = 0
        self.joining = False
        self.go(m.E_REFUSE)

    def _answer(self):
        """The channel to the offer's table and its host, for the answer."""
        self.joining = False
        self._forget_queue()
        self.ch.pair(self.offer_table, self.offer_host)
        self.table_id = self.offer_table
        self.table_host = self.offer_host

    def cancel(self, now_ms):
        """Stop waiting (before the game started); the host's offer is withdrawn."""
        if self.is_host and self.state == S_WAITING:
            if self.ch.paired():  # a guest took it as we cancelled: it is told
                self._queue(m.BYE, self.tx, 0)
                self._flush()
            else:
                self.ch.listen()  # the offer goes out no more
            self.tables.end(self.table_host, self.table_id)
        self.joining = False
        self.go(m.E_CANCEL)

    def _on_offer(self, d, n):
        """An offer heard (a beacon: pairing.py): listed when it is well formed, playable here
        and not of a table that ended; a new one is news (F_OFFER): in the join list, or, after
        a linked game, the former partner's new table, which its player is asked about."""
        table = self.ch.rx_table
        host = self.ch.rx_from
        if (self.is_host and self.state == S_WAITING) or table == 0 or self.tables.ended(host, table):
            self.reject()  # two hosts, or a replay of a table that ended
            return
        if d[0] != VERSION or m.check_offer(d, n) or self._check_offer(d):
            self.reject()  # not listed: this console could not play it
            return
        if not self.tables.hear(host, table, d, n, self.now):
            return  # heard before
        self._load_offer(d, 0, table, host)
        self.is_host = False
        if not self.joining:
            self.go(m.E_OFFER)
        self.flags |= m.F_OFFER

    def _load_offer(self, d, at, table, host):
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
        """The offer this console's player is asked about was heard no more (GONE_MS): the
        question goes (F_LEFT)."""
        if self.offer_table and not self.joining and self.state == S_WAITING and not self.is_host \
                and self.tables.find(self.offer_host, self.offer_table) < 0:
            self.offer_table = 0
            self.go(m.E_CANCEL)
            self.flags |= m.F_LEFT

    def _check_offer(self, d):
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
        self.own_pile = -1  # this console's own payoff pile: found again for this table
        self.gen = 0
        self._configure()
        self._reset_play(0)
        self.flags |= m.F_STARTED

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
