"""The hello of a link session (engine_core/link/session.py mixes this in; docs/link.md, "The
hello" and "Pairing"): a host opens a table and offers it to anyone in range, a joining
console lists the tables it hears (pairing.Tables) and its player picks one, the guest accepts
(or refuses) and both deal the same game from the seed. Nothing here allocates after the
session is made, but the game class an offer names, imported when its first offer comes.
"""

from engine_core import games
from engine_core import records as r
from engine_core.link import messages as m
from engine_core.link.messages import (COMPUTER, HERE, MAX_SEATS, R_GAME, R_INVALID, R_RULES, R_VERSION,  # noqa: F401
                                       S_IDLE, S_LEFT, S_WAITING, THERE, VERSION)


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
        self._queue(m.OFFER, b, 12 + self.players)
        self.go(m.E_HOST)
        self._flush()

    def join(self, now_ms):
        """Wait for an offer (poll() says m.F_OFFER when one comes)."""
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
        self._queue(m.ACCEPT, b, 7)
        self._begin()
        self._flush()

    def refuse(self, reason):
        self.tx[0] = reason
        self._queue(m.REFUSE, self.tx, 1)
        self.go(m.E_REFUSE)
        self._flush()

    def cancel(self, now_ms):
        """Stop waiting (before the game started); the host's offer is withdrawn."""
        if self.is_host and self.state == S_WAITING:
            self._queue(m.BYE, self.tx, 0)
            self._flush()
        self.go(m.E_CANCEL)

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
            self.flags |= m.F_OFFER

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
