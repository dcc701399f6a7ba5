"""The host's whole state, sent to the guest and loaded there (engine_core/link/session.py
makes one Transfer): the repair after a desync.

The state is the saved-game record of engine_core/save.py (encode_game: piles, variables, the
game's SAVED attributes, a CRC), about 250 bytes for Spite & Malice and 430 for a Nerts table
of four, sent in STATE messages of up to HEAD + DATA bytes:
    gen, offset(2), total(2), key(4), the host's hash(4), then the record's bytes
(key: the turn number, or the game time in Nerts). The host starts a new generation with it,
so that what either console sent before is dropped; the guest loads it (restore_game), takes
that generation, and both go on from there with empty undo journals. Nothing here allocates
after the constructor.

The Transfer's own state: the record being sent (host) or received (guest) with its
position, key and hash, the guest's copy of its state while a record is checked, and this
console's own payoff pile as its own moves left it. What the other parts may ask of it:
take(game, key) (host: the state to send), more(), chunk(b), sent(n) (the outbox sends it),
receive(d, n) (guest: a chunk in; True when the record is whole), acceptable(game) (the record
put into the game when it passes every check), observe(), forget_own(), `r_gen` (the
received record's generation). What it asks of the session: `game`, `gen`, `my_seat`,
`party`, `now`, and of its Realtime `word_at` (a party guest's last word of its round).
"""

from engine_core import PLAYING
from engine_core import cards
from engine_core import records as r
from engine_core import save
from engine_core.game import V_STATUS
from engine_core.games.nerts_moves import NERTS, STRIDE, V_ROUND, WASTE, WORK1, WORK4
from engine_core.link.messages import CLOCK_MASK
from engine_core.link.messages import STATE_DATA as DATA
from engine_core.link.messages import STATE_HEAD as HEAD
from engine_core.link.statehash import state_hash

from micropython import const

_TYPING = const(0)  # true for the type checker alone (tools/device/mypy-device.ini, always_true)
if _TYPING:
    from engine_core.link.session import Session

_CLOCK_MOST = const(864000000)  # a state's game clock at most 10 days on: the clocks compare
# as plain numbers, and one near 2**30 (where they wrap) left two tables out of step for good
MISSED_MS = const(5000)  # a party guest that took no word of its round from the host this long
# may have missed the round's end (it was away: hub.AWAY_MS): the host's next deal is taken

# A seat's own payoff pile (the cards only its own moves take), by seat: Spite & Malice's
# payoff, the Nerts pile.
OWN_PILES = (("p1.payoff", "p1.nerts"), ("p2.payoff", "p2.nerts"), ("p3.payoff", "p3.nerts"),
             ("p4.payoff", "p4.nerts"))


def dealt_fresh(game, seat):
    """Nerts: the seat's cards are as a deal leaves them, none moved since: 13 on its Nerts
    pile, one on each work pile, the rest in its stock, none on its waste nor on a foundation."""
    piles = game.piles
    base = seat * STRIDE
    if piles.size[base + NERTS] != 13 or piles.size[base + WASTE] != 0:
        return False
    n = 0
    for k in range(STRIDE):
        p = base + k
        if WORK1 <= k <= WORK4 and piles.size[p] != 1:
            return False
        at = piles.start[p]
        for i in range(piles.size[p]):
            if cards.deck(piles.cards[at + i]) != seat:
                return False
        n += piles.size[p]
    return n == game.deck_cards


class Transfer:
    def __init__(self, session: "Session"):
        self.s = session
        # The state being sent (host) or received (guest).
        self.sbuf = bytearray(save.BUFFER_SIZE)
        self.backup = bytearray(save.BUFFER_SIZE)  # the guest's state while a STATE is checked
        self.used = bytearray(256)
        self.s_len = 0
        self.s_pos = 0
        self.s_key = 0
        self.s_hash = 0
        self.r_gen = -1
        self.r_total = 0
        self.r_pos = 0
        # This console's own payoff pile (Spite & Malice payoff, Nerts pile) as dealt or
        # loaded, and the fewest cards it has held since: a STATE may not go outside that.
        self.own_pile = -1
        self.own_game = None
        self.own_open = True
        self.own_base = bytearray(64)
        self.own_len = 0
        self.own_low = 0
        # Whether the game here is over by the moves played here (not by a state loaded): only
        # then is the table between deals, and the host's next deal free to deal that pile.
        self.seen_status = -1  # the status as observe() or a loaded state last left it
        self.ended_here = False
        self.round = 0  # a party guest's round before a state (V_ROUND: the deals it has seen)

    # --- the host sends ---

    def take(self, game, key):
        """Host: the game's state into the buffer, to be sent under `key` (the journal is
        cleared: the guest's undo starts here too)."""
        game.history.clear()
        self.s_len = save.encode_game(game, 0, self.sbuf)
        self.s_pos = 0
        self.s_hash = state_hash(game)
        self.s_key = key

    def more(self):
        """Chunks of the state are still to go."""
        return self.s_pos < self.s_len

    def chunk(self, b):
        """The next chunk of the state into b; its length."""
        n = self.s_len - self.s_pos
        if n > DATA:
            n = DATA
        b[0] = self.s.gen
        r.put_u16(b, 1, self.s_pos)
        r.put_u16(b, 3, self.s_len)
        r.put_i32(b, 5, self.s_key)
        r.put_i32(b, 9, self.s_hash)
        for i in range(n):
            b[HEAD + i] = self.sbuf[self.s_pos + i]
        return HEAD + n

    def sent(self, n):
        """The chunk of n bytes went."""
        self.s_pos += n - HEAD

    # --- the guest receives ---

    def receive(self, d, n):
        """Guest: a STATE message's chunk; True when it completed the record (r_gen, r_total)."""
        at = r.get_u16(d, 1)
        if at == 0:
            self.r_gen = d[0]
            self.r_total = r.get_u16(d, 3)
            self.r_pos = 0
        elif d[0] != self.r_gen or at != self.r_pos:
            return False
        if self.r_total > len(self.sbuf) or self.r_pos + n - HEAD > self.r_total:
            return False
        for i in range(HEAD, n):
            self.sbuf[self.r_pos] = d[i]
            self.r_pos += 1
        return self.r_pos == self.r_total

    # --- this console's own payoff pile ---

    def forget_own(self):
        """A new table: this console's own payoff pile is found again."""
        self.own_pile = -1
        self.seen_status = -1
        self.ended_here = False

    def observe(self):
        """This console's own payoff pile as its own moves leave it: a new deal (other cards at
        the bottom) takes it as the new base; otherwise the fewest cards it held is kept. A
        STATE may not put there anything but the base's bottom part, nor fewer cards than that."""
        game = self.s.game
        if game is None or self.s.is_host:
            return  # (a host loads no state: its own pile needs no watching)
        status = game.vars[V_STATUS]
        if status == PLAYING:
            self.ended_here = False
        elif self.seen_status == PLAYING:
            self.ended_here = True  # a move played here ended the game
        self.seen_status = status
        if self.own_pile < 0 or self.own_game is not game:
            self.own_game = game
            self.own_pile = -1
            for name in OWN_PILES[self.s.my_seat]:
                p = game.pile_id(name)
                if p >= 0:
                    self.own_pile = p
            self.own_len = -1
            if self.own_pile < 0:
                return
        p = self.own_pile
        piles = game.piles
        n = piles.size[p]
        at = piles.start[p]
        same = self.own_len >= n
        i = 0
        while same and i < n:
            same = piles.cards[at + i] == self.own_base[i]
            i += 1
        if not same:
            self.take_own(game)
        elif n < self.own_low:
            self.own_low = n

    def take_own(self, game):
        """This console's own payoff pile as it is now becomes the base (a deal, or a state
        loaded): a later STATE may put back its cards, not others, nor take more off it."""
        piles = game.piles
        p = self.own_pile
        n = piles.size[p]
        if n > len(self.own_base):
            n = len(self.own_base)
        at = piles.start[p]
        for i in range(n):
            self.own_base[i] = piles.cards[at + i]
        self.own_len = n
        self.own_low = n

    def own_seat_kept(self, game):
        """After the record went into the game: this console's own payoff pile is one its own
        moves could have left (the base's bottom part, no fewer cards than it has held), or the
        table is between deals (the host may have dealt the next one). A party guest holds the
        host to the table's round counter (V_ROUND, every console's count of the deals): a
        state of an earlier round (a restart) is refused; one of its round keeps its pile as
        above, between deals too; one of a later round must leave its seat as a deal does
        (dealt_fresh), and is taken only at its round's end here (the round over) or when the
        host's word of its round stopped reaching it for MISSED_MS (it was away, and may have
        missed the end): never in the middle of a round it still hears."""
        s = self.s
        if s.party:
            got = game.vars[V_ROUND]
            if got != self.round:
                return got > self.round and dealt_fresh(game, s.my_seat) and \
                    (not self.own_open or (s.now - s.realtime.word_at) & CLOCK_MASK >= MISSED_MS)
        elif not self.own_open:
            return True
        p = self.own_pile
        if p < 0 or self.own_len < 0:
            return True
        piles = game.piles
        n = piles.size[p]
        if n < self.own_low or n > self.own_len:
            return False
        at = piles.start[p]
        for i in range(n):
            if piles.cards[at + i] != self.own_base[i]:
                return False
        return True

    def acceptable(self, game):
        """Put the received record into the game when it passes every check `load` makes at
        power-on: the record's CRC, this table's game, rules, players, options and seed, every
        card once and every pile within its capacity (save.restore_game), and the game's
        check_position. Otherwise the game is left exactly as it was (its state and journal).
        No allocation when it passes; check_position builds its message when it fails, which
        under heap_lock is a MemoryError: a failure too."""
        buf = self.sbuf
        n = self.r_total
        if r.check(buf, n, save.KIND_GAME) != r.OK or r.get_i32(buf, r.HEADER + 8) != game.seed:
            return False
        h = game.history
        head = h.head
        used = h.used
        moves = h.moves
        clears = h.clears
        size = save.encode_game(game, 0, self.backup)
        self.observe()
        # Between deals the next deal may be the host's: when the game ended here by its
        # moves. A game a loaded state called over is not between deals: the next state
        # must keep this console's own pile all the same.
        # Nor is it when the next deal is this console's own (Spite & Malice: the loser deals).
        self.own_open = game.vars[V_STATUS] == PLAYING or not self.ended_here or self.s.play.may_deal()
        self.round = game.vars[V_ROUND]
        if save.restore_game(game, buf, n, self.used) != r.OK:
            return False
        try:
            bad = game.check_position() != "" or not self.own_seat_kept(game) or game.clock_ms > _CLOCK_MOST
        except MemoryError:
            bad = True
        if bad:
            save.restore_game(game, self.backup, size, self.used, True)  # (its own values, unchecked)
            h.head = head  # the journal's entries are still there: clear() only forgot them
            h.used = used
            h.moves = moves
            h.clears = clears
            return False
        status = game.vars[V_STATUS]
        self.ended_here = self.ended_here and status != PLAYING  # (over here, and over as loaded)
        self.seen_status = status
        if self.own_pile >= 0 and self.own_game is game:
            # The pile as loaded is the base, before any move of this console's takes from it.
            # (A new round's pile was found only by observe() after the next move, as what that
            # move left: a card short, so the host's state that had not yet heard of the move
            # put back a card "never dealt" and was refused, and the guest kept its own round.)
            self.take_own(game)
        return True
