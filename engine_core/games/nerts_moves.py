"""Nerts: reading the position and generating one player's moves (engine_core/games/nerts.py).

Values on work piles: v = rank * 2 + red (0 black, 1 red). A work pile is always a valid run,
so one "determined" card (not a joker, or a joker whose value is fixed) gives the value of
every position in it: the pile's *base* value. Jokers: V_JOKER + j holds 0 (free), 1 + v
(fixed on a work pile once a card was played onto it) or JOKER_DECLARED + kind (on a
foundation).

NertsMoves is made once by Nerts.__init__ with the game's piles and variables (it reads them
and never changes them), the number of players and whether jokers play. It owns its scratch
state: fill_need's table of what each foundation takes next (kept until the foundations
change), scan_work's caches of one player's work piles (size, base value, free jokers on
top), and what has_play found per player (kept until that player's piles or the foundations
change). Nothing here allocates. What the game, its checks and its computer players
(engine_core/ai/nerts_bot.py) may ask of it:

  reading   owner(pile), card_value(card), run_base(pile, first), top_value(pile),
            found_suit(f), through(p), empty_work(p, skip)
  moves     fill_need(), then player_moves(p, out, n, every), goes_to_foundation(card),
            card_fits_value(card, under)
  plays     is_play(code), any_play(out, start, n), has_play(p), waste_plays(p)
  memory    forget() (undo, a deal, a load, a foundation changed), known(p) (0 unknown,
            1 a play, 2 none), note(p, known) (what a look at all p's moves found)
  stuck     moved(p) (p's piles changed), flipped(p) (p turned stock cards), stuck(p): each
            True when every player is stuck now
"""

from array import array

from engine_core import cards
from engine_core.game import ACTION, move_code

from micropython import const

# Piles of player p: p * STRIDE + one of these.
NERTS = const(0)
WORK1 = const(1)
WORK4 = const(4)
STOCK = const(5)
WASTE = const(6)
STRIDE = const(7)

DEAL = const(0)  # action indexes, as in ACTIONS
FLIP = const(1)
CYCLE = const(2)
CALL = const(3)
DEAL_MOVE = const(0xFF0000)

SLIDE = const(0x40)  # arg flag: slid under the destination pile
JOKER_DECLARED = const(64)  # V_JOKER value: 64 + declared kind (on a foundation)

# Variable slots from V_GAME (7) on.
V_ROUND_OVER = const(7)  # 0 while playing; 1 everyone stuck; 2 + p: p called Nerts
V_PASS = const(8)  # + p: cards turned since p's last move but flip/cycle or any foundation play (capped)
V_JOKER = const(12)  # + j for joker id JOKER_BASE + j (8 jokers)
V_ROUND = const(20)  # a party table's rounds dealt (engine_core/link: 0 elsewhere; deals leave it)
PASS_CAP = const(120)

NEED_EMPTY = const(254)  # foundation need table: an empty slot takes any ace
NEED_DONE = const(255)  # a completed foundation takes nothing
DEFAULT_TARGET = const(100)

# The most moves one player can have (4 players, 16 foundations, jokers on):
#   to foundations: 6 sources (Nerts top, waste top, 4 work tops); at most 2 are jokers, each
#     with 4 declarations per slot (4 * 16), the others one per slot (16): 2*64 + 4*16 = 192;
#   Nerts top and waste top to the 4 work piles (on top, filling, or sliding under): 8;
#   work to work: an ordered pair of work piles (12 pairs) takes at most 13 run sizes (an empty
#     destination takes every K; an occupied one one K, or every K when it holds only free
#     jokers) plus one slide under: 12 * 14 = 168;
#   flip, cycle, nerts: 3.
PLAYER_MAX_MOVES = 371


_RED = b"\x00\x01\x01\x00"  # by suit: spades, hearts, diamonds, clubs


def value(card):
    """rank * 2 + red for a regular card."""
    return (card % 13) * 2 + _RED[(card // 13) & 3]


def shift(v, i):
    """The value i places above a card of value v on a work pile (i < 0: below it)."""
    return ((v >> 1) - i) * 2 + ((v ^ i) & 1)


class NertsMoves:
    """One Nerts game's move generation (the module's docstring gives its contract)."""

    def __init__(self, piles, variables, players, jokers):
        self.piles = piles
        self.vars = variables
        self.players = players
        self.jokers = jokers
        self.found0 = STRIDE * players
        self.founds = 4 * players
        self.need = bytearray(self.founds)  # what each foundation takes next (fill_need)
        self.need_valid = False  # need is kept until the foundations change
        self.need_count = bytearray(256)  # how many foundations take each need value
        # One player's work piles (_scan_work): size, base value (-1: only free jokers),
        # free jokers on top. Move generation reads these instead of the piles.
        self.work_size = bytearray(4)
        self.work_base = array("b", [0] * 4)
        self.work_free = bytearray(4)
        # What has_play found for each player, kept while nothing it depends on changed (the
        # player's own piles, the foundations): 0 unknown, 1 a play, 2 none.
        self.play_known = bytearray(players)
        self.play_moves = array("i", [0] * PLAYER_MAX_MOVES)  # scratch for has_play

    # --- what it remembers ---

    def forget(self):
        """Forget what was derived from the position (after undo, a deal, a load, or a
        change of the foundations)."""
        self.need_valid = False
        known = self.play_known
        for p in range(self.players):
            known[p] = 0

    def moved(self, p):
        """p's own piles changed (after any move of p's but a flip or a cycle): what was
        known of p's plays goes. True when every player is stuck now (see stuck)."""
        self.play_known[p] = 0
        return self.stuck(p)

    def flipped(self, p):
        """p turned cards from the stock (or the waste over): when p had no play, only the
        waste top is new, and it alone says whether p has one now. True when every player
        is stuck now (see stuck)."""
        if self.play_known[p] == 2:
            self.fill_need()
            self.play_known[p] = 1 if self.waste_plays(p) else 2
        else:
            self.play_known[p] = 0
        return self.stuck(p)

    def stuck(self, mover):
        """True when every player is stuck (docs/nerts.md: Stuck): each has turned all of
        their stock and waste since their last play (through) and none has a play. What
        has_play found is remembered per player, so this costs at most one move generation,
        for the mover (asked first: it is the one whose piles changed)."""
        size = self.piles.size
        passes = self.vars
        for p in range(self.players):
            base = p * STRIDE
            if passes[V_PASS + p] < size[base + STOCK] + size[base + WASTE]:
                return False
        self.fill_need()
        if self.has_play(mover):
            return False
        for p in range(self.players):
            if self.has_play(p):
                return False
        return True

    def known(self, p):
        """What is known of p's plays: 0 nothing, 1 p has a play, 2 p has none."""
        return self.play_known[p]

    def note(self, p, known):
        """Remember what a look at all of p's moves found (1 a play, 2 none)."""
        self.play_known[p] = known

    # --- reading the position ---

    def owner(self, pile):
        """The player a pile belongs to, or -1 for a foundation."""
        if pile >= self.found0:
            return -1
        return pile // STRIDE

    def card_value(self, card):
        """The work value of a card by itself: -1 for a free joker."""
        if card >= cards.JOKER_BASE:
            jv = self.vars[V_JOKER + card - cards.JOKER_BASE]
            if 0 < jv < JOKER_DECLARED:
                return jv - 1
            return -1
        return value(card)

    def run_base(self, pile, first):
        """The value the card at index `first` of a work pile has, judged from the cards at
        `first` and above only (-1 when they are all free jokers)."""
        piles = self.piles
        s = piles.start[pile]
        for i in range(first, piles.size[pile]):
            v = self.card_value(piles.cards[s + i])
            if v >= 0:
                return shift(v, first - i)
        return -1

    def top_value(self, pile):
        """The value of a work pile's top card (-1 when empty or all free jokers)."""
        n = self.piles.size[pile]
        if n == 0:
            return -1
        base = self.run_base(pile, 0)
        if base < 0:
            return -1
        return shift(base, n - 1)

    def fill_need(self):
        """need[k]: the kind foundation k takes next, NEED_EMPTY or NEED_DONE; need_count."""
        if self.need_valid:
            return
        self.need_valid = True
        piles = self.piles
        need = self.need
        count = self.need_count
        for k in range(self.founds):
            count[need[k]] = 0
        for k in range(self.founds):
            f = self.found0 + k
            n = piles.size[f]
            if n == 0:
                need[k] = NEED_EMPTY
            elif n == 13:
                need[k] = NEED_DONE
            else:
                c = piles.cards[piles.start[f]]
                if c < cards.JOKER_BASE:
                    need[k] = (c // 13 & 3) * 13 + n
                else:
                    need[k] = self.found_suit(f) * 13 + n
            count[need[k]] += 1

    def found_suit(self, f):
        piles = self.piles
        c = piles.cards[piles.start[f]]
        if c >= cards.JOKER_BASE:
            jv = self.vars[V_JOKER + c - cards.JOKER_BASE]
            if jv >= JOKER_DECLARED:
                return (jv - JOKER_DECLARED) // 13
            for i in range(1, piles.size[f]):
                d = piles.cards[piles.start[f] + i]
                if d < cards.JOKER_BASE:
                    return (d // 13) % 4
            return 0
        return (c // 13) % 4

    def through(self, p):
        """True when p has turned every card of stock and waste since their last move other than
        flip and cycle, or anyone's play on a foundation (docs/nerts.md: Stuck)."""
        base = p * STRIDE
        return self.vars[V_PASS + p] >= self.piles.size[base + STOCK] + self.piles.size[base + WASTE]

    # --- what fits where ---

    def _scan_work(self, p):
        """Fill the work-pile caches for player p."""
        piles = self.piles
        w = p * STRIDE + WORK1
        for i in range(4):
            n = piles.size[w + i]
            self.work_size[i] = n
            self.work_free[i] = 0
            if n == 0:
                self.work_base[i] = -1
            elif not self.jokers:
                self.work_base[i] = value(piles.cards[piles.start[w + i]])
            else:
                self.work_base[i] = self.run_base(w + i, 0)
                free = 0
                while free < n and self.card_value(piles.card(w + i, n - 1 - free)) < 0:
                    free += 1
                self.work_free[i] = free

    def _fits(self, v, count, i):
        """Can a run of `count` cards whose bottom has value v (-1: free jokers) go onto work
        pile i (0..3) of the scanned player?"""
        n = self.work_size[i]
        if n == 0:
            return True
        b = self.work_base[i]
        if b < 0:  # only free jokers there
            return v < 0 or (v >> 1) + n <= 12
        t = ((b >> 1) - n + 1) * 2 + ((b ^ (n - 1)) & 1)
        if v < 0:
            return (t >> 1) >= count
        return (v >> 1) == (t >> 1) - 1 and (v & 1) != (t & 1)

    def _slides(self, v, i):
        """Can a card of value v (-1: a free joker) slide under work pile i's base card? Under
        a pile of free jokers alone, when they can stand for the ranks below it (as the card
        filling the space and that pile moved onto it would have them)."""
        n = self.work_size[i]
        b = self.work_base[i]
        if n == 0:
            return False
        if b < 0:
            return v < 0 or (v >> 1) >= n
        if (b >> 1) == 12:
            return False
        return v < 0 or ((v >> 1) == (b >> 1) + 1 and (v & 1) != (b & 1))

    def empty_work(self, p, skip):
        """An empty work pile of p other than `skip`, or -1."""
        base = p * STRIDE
        for w in range(base + WORK1, base + WORK4 + 1):
            if w != skip and self.piles.size[w] == 0:
                return w
        return -1

    def _joker_matches(self, card, kind):
        """May joker `card` be declared as `kind`? (a fixed value keeps rank and colour)"""
        jv = self.vars[V_JOKER + card - cards.JOKER_BASE]
        if jv == 0:
            return True
        k = kind % 13 * 2
        s = kind // 13
        if s == 1 or s == 2:
            k += 1
        return jv - 1 == k

    def card_fits_value(self, card, under):
        """Does `card` go onto a work-pile card of value `under` (-1: unknown)?"""
        if under < 0:
            return False
        v = self.card_value(card)
        if v < 0:
            return (under >> 1) > 0
        return (v >> 1) == (under >> 1) - 1 and (v & 1) != (under & 1)

    def goes_to_foundation(self, card):
        """True when a regular card fits some foundation (fill_need first)."""
        if card >= cards.JOKER_BASE:
            return False
        k = card % 52
        return self.need_count[NEED_EMPTY if k % 13 == 0 else k] > 0

    # --- move generation ---

    def player_moves(self, p, out, n, every=True):
        """Write p's moves into out from index n; returns the new count (fill_need first).

        every=False (the computer players, has_play) leaves out what no player wants to
        look at: runs moved into an empty work pile, and all but the first foundation a
        regular card could go to (any empty slot takes an ace: one is enough)."""
        piles = self.piles
        base = p * STRIDE
        start = n
        self._scan_work(p)
        n = self._to_foundations(base + NERTS, out, n, every)
        n = self._to_foundations(base + WASTE, out, n, every)
        for w in range(base + WORK1, base + WORK4 + 1):
            n = self._to_foundations(w, out, n, every)
        empty = 0
        for i in range(4):
            if self.work_size[i] == 0:
                empty += 1
        n = self._to_work(base + NERTS, base, empty, out, n)
        n = self._to_work(base + WASTE, base, empty, out, n)
        for a in range(4):
            if self.work_size[a] > 0:
                for b in range(4):
                    if b != a and (every or self.work_size[b] > 0):
                        n = self._work_to_work(base + WORK1, a, b, empty, out, n)
        if piles.size[base + STOCK] + piles.size[base + WASTE] > 0:
            out[n] = ACTION << 16 | FLIP << 8 | p
            n += 1
        if piles.size[base + NERTS] == 0:
            out[n] = ACTION << 16 | CALL << 8 | p
            n += 1
        elif piles.size[base + STOCK] >= 2 and (every or self.through(p)):
            # Cycling is for a player with no play (a computer player cycles only once it
            # has gone through its stock, so its short list need not ask before).
            known = self.play_known[p]
            if known == 0:
                known = 1 if self.any_play(out, start, n) else 2
                self.play_known[p] = known
            if known == 2:
                out[n] = ACTION << 16 | CYCLE << 8 | p
                n += 1
        return n

    def moves_from(self, src, out):
        """The moves of pile src's owner from src alone, as player_moves lists them (every):
        is_legal's, at a fraction of their fuel. fill_need first."""
        base = src - src % STRIDE
        k = src - base
        if k == STOCK:
            return 0
        self._scan_work(base // STRIDE)
        n = self._to_foundations(src, out, 0, True)
        empty = 0
        for i in range(4):
            if self.work_size[i] == 0:
                empty += 1
        if k == NERTS or k == WASTE:
            return self._to_work(src, base, empty, out, n)
        a = k - WORK1
        for b in range(4):
            if b != a and self.work_size[a] > 0:
                n = self._work_to_work(base + WORK1, a, b, empty, out, n)
        return n

    def _to_foundations(self, src, out, n, every):
        c = self.piles.top(src)
        if c < 0:
            return n
        need = self.need
        if c >= cards.JOKER_BASE:
            first_empty = True
            for i in range(self.founds):
                want = need[i]
                if want == NEED_EMPTY:
                    if first_empty or every:
                        for s in range(4):
                            if self._joker_matches(c, s * 13):
                                out[n] = move_code(src, self.found0 + i, 1 + s * 13)
                                n += 1
                    first_empty = False
                elif want != NEED_DONE and self._joker_matches(c, want):
                    out[n] = move_code(src, self.found0 + i, 1 + want)
                    n += 1
            return n
        k = c % 52
        want = NEED_EMPTY if k % 13 == 0 else k
        if self.need_count[want] == 0:
            return n
        for i in range(self.founds):
            if need[i] == want:
                out[n] = src << 16 | (self.found0 + i) << 8
                n += 1
                if not every:
                    break
        return n

    def _to_work(self, src, base, empty, out, n):
        c = self.piles.top(src)
        if c < 0:
            return n
        v = self.card_value(c)
        for i in range(4):
            if self._fits(v, 1, i):
                out[n] = src << 16 | (base + WORK1 + i) << 8
                n += 1
            elif empty and self._slides(v, i):
                out[n] = src << 16 | (base + WORK1 + i) << 8 | SLIDE
                n += 1
        return n

    def _work_to_work(self, w1, a, b, empty, out, n):
        """Moves from work pile a to work pile b (0..3; w1 is the player's first work pile)."""
        na = self.work_size[a]
        code = (w1 + a) << 16 | (w1 + b) << 8
        nb = self.work_size[b]
        if nb == 0:
            for k in range(1, na + 1):
                out[n] = code | k
                n += 1
            return n
        base = self.work_base[a]
        free = self.work_free[a]
        plain = False
        if self.work_base[b] < 0:
            # b holds only free jokers: any run may fit under the values they would take.
            for k in range(1, na + 1):
                v = -1 if k <= free else ((base >> 1) - na + k) * 2 + ((base ^ (na - k)) & 1)
                if self._fits(v, k, b):
                    out[n] = code | k
                    n += 1
                    plain = plain or k == 1
        else:
            bb = self.work_base[b]
            t = (bb >> 1) - nb + 1  # the rank of b's top card
            if base >= 0:
                i = (base >> 1) - t + 1  # the index in a holding the rank below it
                k = na - i
                if free < k <= na and ((base ^ i) & 1) != ((bb ^ (nb - 1)) & 1):
                    out[n] = code | k
                    n += 1
                    plain = plain or k == 1
            k = 1
            while k <= free and k <= t:
                out[n] = code | k  # a run of free jokers
                n += 1
                plain = plain or k == 1
                k += 1
        if not plain and empty:
            v = -1 if free > 0 else ((base >> 1) - na + 1) * 2 + ((base ^ (na - 1)) & 1)
            if self._slides(v, b):
                out[n] = code | SLIDE
                n += 1
        return n

    # --- plays and being stuck ---

    def is_play(self, code):
        """Does a move of a player count as a play (anything but flip, cycle, or rearranging
        work piles that uncovers nothing useful)? fill_need first."""
        src = code >> 16
        if src == ACTION:
            return ((code >> 8) & 0xFF) == CALL
        dst = (code >> 8) & 0xFF
        if dst >= self.found0:
            return True
        where = src % STRIDE
        if where == NERTS or where == WASTE:
            return True
        arg = code & 0xFF
        piles = self.piles
        if piles.size[dst] == 0 or arg & SLIDE:
            return False
        na = piles.size[src]
        if arg == na:
            return True  # a space opens
        x = piles.card(src, na - arg - 1)
        if self.goes_to_foundation(x):
            return True
        nerts = src - where
        if piles.size[nerts] > 0:
            base = self.run_base(src, 0)
            if base >= 0:
                return self.card_fits_value(piles.top(nerts), shift(base, na - arg - 1))
        return False

    def any_play(self, out, start, n):
        for i in range(start, n):
            if self.is_play(out[i]):
                return True
        return False

    def has_play(self, p):
        """True when p has a play now (fill_need first)."""
        known = self.play_known[p]
        if known == 0:
            n = self.player_moves(p, self.play_moves, 0, False)
            known = self.play_known[p]  # player_moves may have found out
            if known == 0:
                known = 1 if self.any_play(self.play_moves, 0, n) else 2
                self.play_known[p] = known
        return known == 1

    def waste_plays(self, p):
        """Does p's waste top go anywhere (a foundation, a work pile)? fill_need first."""
        c = self.piles.top(p * STRIDE + WASTE)
        if c < 0:
            return False
        if c >= cards.JOKER_BASE or self.goes_to_foundation(c):
            return True
        self._scan_work(p)
        v = self.card_value(c)
        empty = False
        for i in range(4):
            if self.work_size[i] == 0:
                empty = True
        for i in range(4):
            if self._fits(v, 1, i) or (empty and self._slides(v, i)):
                return True
        return False

