"""Casket hints and auto-play.

Safe foundation moves: body piles build down in suit, so a card may serve as the target of
the two cards one rank below it in its suit. Once both of those are on foundations, nothing
can ever need it: it is safe to put it up. Aces and twos are always safe (an Ace goes to a
foundation of its own, never onto a two). Reserves and empty body piles take any card, so no
other card depends on anything.

Under rule profile 2 (reserves stack) the hint first follows the order in which the solver
(tools/solvers/solve_casket.py) tries moves, keeping only moves it never needs to take back: cards
up, cards onto body piles, a lone body card onto another, the waste card where it blocks least
(an empty body pile, else onto the reserve whose top is needed soonest after it), draw; once the
stock is out, lid cards into reserves and digging (the reserve whose playable card lies nearest
its top gives its top card to an empty body pile). It never advises taking the last move back.
On deals 0..99 following it wins 70 (docs/statistics.md). When none of these applies, the
one-move look-ahead below answers.

The hint looks one move ahead over what the player sees: every legal move but draw (moves to
equal targets, an empty reserve or an empty body pile, tried once) is made on the game, the
position is scored, and the move undone. The score counts cards up, jewels out, free reserves
and body piles, cards kept in body runs, and whether the waste card has a home; a move must
beat the position as it stands (so the hint never shuffles a card back and forth). When none
does, it draws; when it cannot draw, the least harmful move places the waste card; and when
only moves that gain nothing remain, it advises none (such moves could go round in circles).
The number
of moves scored is capped (NODE_LIMIT), which bounds the fuel of a hint
(tools/bench/bench_hints.py). Scoring goes through the undo journal; when that is nearly full the
engine's greedy rule answers instead, so a hint never costs the player an undo step.
"""

from array import array

from engine_core import PLAYING
from engine_core.ai.advisor import PatienceAdvisor
from engine_core.ai import takedown

from micropython import const

_STOCK = const(0)
_WASTE = const(1)
_JEWELS = const(2)
_LID1 = const(3)
_BODY1 = const(8)
_RES1 = const(16)
_FOUND1 = const(19)
_SOURCES = const(17)  # waste, 5 lids, 8 bodies, 3 reserves: piles 1 and 3..18
SOURCES = b"\x01\x03\x04\x05\x06\x07\x08\x09\x0a\x0b\x0c\x0d\x0e\x0f\x10\x11\x12"  # their pile ids
_DRAW_MOVE = const(0xFF0000)
FINISH_PLAYS = const(200)  # the finish's search: at most this many plays tried (takedown.py; 14 M fuel)
NODE_LIMIT = const(24)  # moves scored per hint at most: keeps the worst hint in budget (tools/bench/bench_hints.py)
# Profile 2's score reads the top WINDOW cards of each reserve: reading all of them cost
# 14.0 M fuel for 24 moves scored in the stress position (63 reserve cards), and a move
# changes only what lies near a reserve's top.
WINDOW = const(12)
_NONE = const(-0x3FFFFFFF)

SUIT = bytes([(c % 52) // 13 for c in range(104)])
RANK = bytes([c % 13 for c in range(104)])


class Advisor(PatienceAdvisor):
    """hint(), safe_move() and finish_move() for one Casket game object."""

    SEARCHES = True  # the moves it scores: up to 69 ms on an RP2040 (docs/performance.md)

    def __init__(self, game):
        PatienceAdvisor.__init__(self, game)  # self.game, self.work
        self.moves = array("i", [0] * game.MAX_MOVES)
        self.low = bytearray(4)  # per suit: the lower height of its two foundations
        self.high = bytearray(4)
        takedown.shared()  # the finish's search, made now (finish_move takes it)

    # --- foundations ---

    def _suit_heights(self):
        """Fill low/high: the two foundation heights of each suit (0 for one not started)."""
        piles = self.game.piles
        for s in range(4):
            self.low[s] = 0
            self.high[s] = 0
        for f in range(_FOUND1, _FOUND1 + 8):
            n = piles.size[f]
            if n:
                s = SUIT[piles.cards[piles.start[f]]]
                if n > self.high[s]:
                    self.low[s] = self.high[s]
                    self.high[s] = n
                elif n > self.low[s]:
                    self.low[s] = n

    def _foundation_for(self, card):
        """A foundation pile that takes card now, or -1."""
        piles = self.game.piles
        r = RANK[card]
        for f in range(_FOUND1, _FOUND1 + 8):
            n = piles.size[f]
            if n == 0:
                if r == 0:
                    return f
            elif n == r and SUIT[piles.cards[piles.start[f]]] == SUIT[card]:
                return f
        return -1

    def safe_move(self):
        """A foundation move no remaining card could ever need undone, or -1."""
        game = self.game
        if game.status() != PLAYING:
            return -1
        piles = game.piles
        self._suit_heights()
        for i in range(_SOURCES):
            p = SOURCES[i]
            c = piles.top(p)
            if c >= 0:
                r = RANK[c]
                if r <= 1 or self.low[SUIT[c]] >= r:
                    f = self._foundation_for(c)
                    if f >= 0:
                        return p << 16 | f << 8
        return -1

    # --- finish ---

    def finish_move(self):
        """With the stock and the jewels gone every card is in sight: when some order of
        foundation moves takes every card up (takedown.py: which of the two like cards goes
        first can decide it), its next move; else -1."""
        game = self.game
        if game.status() != PLAYING:
            return -1
        piles = game.piles
        if piles.size[_STOCK] > 0 or piles.size[_JEWELS] > 0:
            return -1
        t = takedown.shared()
        t.clear()
        for f in range(_FOUND1, _FOUND1 + 8):
            n = piles.size[f]
            if n < 13:
                t.slots[SUIT[piles.cards[piles.start[f]]] * 13 + n if n else takedown.ANY_ACE] += 1
        for i in range(_SOURCES):
            t.cursor[i] = piles.size[SOURCES[i]]
        first = t.first(piles, SOURCES, True, FINISH_PLAYS)
        if first < 0:
            return -1
        p = SOURCES[first]
        return p << 16 | self._foundation_for(piles.top(p)) << 8

    # --- hint ---

    def score(self):
        """How good the position looks to the player (higher is better)."""
        if self.game.rules != 1:
            return self.stacked_score()
        piles = self.game.piles
        total = 0
        for f in range(_FOUND1, _FOUND1 + 8):
            total += 100 * piles.size[f]
        total += 20 * (13 - piles.size[_JEWELS])
        free = 0
        for r in range(_RES1, _RES1 + 3):
            if piles.size[r] == 0:
                free += 1
        empty_bodies = 0
        for b in range(_BODY1, _BODY1 + 8):
            n = piles.size[b]
            if n == 0:
                empty_bodies += 1
            total += 3 * n
        total += 30 * free + 15 * empty_bodies
        w = piles.top(_WASTE)
        if w >= 0 and free == 0 and empty_bodies == 0 and not self._has_body_home(w):
            if self._foundation_for(w) < 0:
                total -= 80  # the waste card has nowhere to go: the game may end here
        return total

    def stacked_score(self):
        """The profile-2 score: cards up, jewels out, empty body piles, cards kept in body
        runs rather than reserves, and, worst, reserve cards lying on a card needed sooner
        (each such card must move again before the one below can play), counted in the top
        WINDOW cards of each reserve."""
        piles = self.game.piles
        self._suit_heights()
        total = 0
        for f in range(_FOUND1, _FOUND1 + 8):
            total += 100 * piles.size[f]
        total += 20 * (13 - piles.size[_JEWELS])
        for b in range(_BODY1, _BODY1 + 8):
            n = piles.size[b]
            if n == 0:
                total += 15
            total += 3 * n
        low = self.low
        high = self.high
        deck = piles.cards
        for r in range(_RES1, _RES1 + 3):
            n = piles.size[r]
            s = piles.start[r]
            total -= 4 * n
            below = 99
            first = s
            if n > WINDOW:
                first = s + n - WINDOW
            for i in range(first, s + n):  # _need, inlined: most of a hint's fuel
                c = deck[i]
                k = RANK[c]
                h = high[SUIT[c]]
                need = k - h if k >= h else k - low[SUIT[c]]
                if need > below:
                    total -= 12
                below = need
        return total

    def _has_body_home(self, card):
        piles = self.game.piles
        for b in range(_BODY1, _BODY1 + 8):
            t = piles.top(b)
            if t >= 0 and SUIT[t] == SUIT[card] and RANK[t] == RANK[card] + 1:
                return True
        return False

    def _duplicate(self, m):
        """True for a move into an empty reserve or body pile other than the first one."""
        piles = self.game.piles
        dst = (m >> 8) & 0xFF
        if piles.size[dst] != 0:
            return False
        if _RES1 <= dst < _RES1 + 3:
            first = _RES1
        elif _BODY1 <= dst < _BODY1 + 8:
            first = _BODY1
        else:
            return False
        for p in range(first, dst):
            if piles.size[p] == 0:
                return True
        return False

    # --- profile 2: stacking reserves ---

    def _need(self, card):
        """How far card is from going up: its rank above the foundation of its suit it can
        next go to (low/high from _suit_heights). 0: it goes up now."""
        s = SUIT[card]
        r = RANK[card]
        if r >= self.high[s]:
            return r - self.high[s]
        return r - self.low[s]

    def _reserve_for(self, card, body_ok):
        """Where card blocks least, as a pile id (-1: nowhere): an empty body pile (when
        body_ok: it builds down from card), else onto the reserve whose top is needed soonest
        after card (card comes off first), an empty reserve, and last the reserve whose top
        is needed least before card."""
        piles = self.game.piles
        if body_ok:
            b = self._empty_body()
            if b >= 0:
                return b
        mine = self._need(card)
        fit = -1
        fit_gap = 99
        least = -1
        least_gap = 99
        empty = -1
        for r in range(_RES1, _RES1 + 3):
            t = piles.top(r)
            if t < 0:
                if empty < 0:
                    empty = r
                continue
            n = self._need(t)
            if n >= mine:
                if n - mine < fit_gap:
                    fit = r
                    fit_gap = n - mine
            elif mine - n < least_gap:
                least = r
                least_gap = mine - n
        if fit >= 0:
            return fit
        if empty >= 0:
            return empty
        return least

    def _onto_body(self, src):
        """src's top card onto a body pile that builds down onto it, as a move, or -1."""
        piles = self.game.piles
        c = piles.top(src)
        if c < 0:
            return -1
        for b in range(_BODY1, _BODY1 + 8):
            t = piles.top(b)
            if t >= 0 and SUIT[t] == SUIT[c] and RANK[t] == RANK[c] + 1:
                return src << 16 | b << 8
        return -1

    def _unblocks(self, p):
        """True when the card under the top of pile p could go up, or (from a reserve) onto
        a body top. (Under a body pile's top lies the card one rank up: onto the other copy
        of its own top, a move that changes nothing.)"""
        piles = self.game.piles
        n = piles.size[p]
        if n < 2:
            return False
        c = piles.cards[piles.start[p] + n - 2]
        return self._foundation_for(c) >= 0 or (p >= _RES1 and self._has_body_home(c))

    def choose_stacked(self):
        """The profile-2 hint, close to the order the solver tries first
        (tools/solvers/solve_casket.py), with nothing it would take back: a card up; a lid, reserve
        or waste card onto a body pile; a lone body card onto another (the pile is free
        again); the waste card where it blocks least; draw. Once the stock is out: a lid
        card into a reserve (the casket opens), then digging: the top card of the reserve
        with a playable card nearest its top goes where it blocks least; a body card off a
        card that can go up. -1 when none of these is left."""
        game = self.game
        piles = game.piles
        for p in range(_WASTE, _FOUND1):
            if p != _JEWELS and p != _STOCK:
                c = piles.top(p)
                if c >= 0:
                    f = self._foundation_for(c)
                    if f >= 0:
                        return p << 16 | f << 8
        for p in range(_LID1, _BODY1):
            m = self._onto_body(p)
            if m >= 0:
                return m
        for p in range(_RES1, _RES1 + 3):
            m = self._onto_body(p)
            if m >= 0:
                return m
        m = self._onto_body(_WASTE)
        if m >= 0:
            return m
        for p in range(_BODY1, _BODY1 + 8):
            if piles.size[p] == 1:
                m = self._onto_body(p)
                if m >= 0:
                    return m
        self._suit_heights()
        w = piles.top(_WASTE)
        if w >= 0:
            return _WASTE << 16 | self._reserve_for(w, True) << 8
        if piles.size[_STOCK] > 0:
            return _DRAW_MOVE
        for p in range(_LID1, _BODY1):
            c = piles.top(p)
            if c >= 0:
                return p << 16 | self._reserve_for(c, False) << 8
        r = self._dig()
        if r >= 0:
            return r
        for p in range(_BODY1, _BODY1 + 8):
            if self._unblocks(p):
                return p << 16 | self._reserve_for(piles.top(p), True) << 8
        return -1

    def _playable(self, card):
        """True when card could go up or onto a body top now."""
        return self._foundation_for(card) >= 0 or self._has_body_home(card)

    def _dig(self):
        """The reserve whose playable card (one that could go up or onto a body top) lies
        nearest under its top, its top card moved to an empty body pile; -1 when there is
        none."""
        piles = self.game.piles
        best = -1
        best_depth = 999
        for r in range(_RES1, _RES1 + 3):
            n = piles.size[r]
            s = piles.start[r]
            for d in range(1, n):
                if self._playable(piles.cards[s + n - 1 - d]):
                    if d < best_depth:
                        best = r
                        best_depth = d
                    break
        if best < 0:
            return -1
        b = self._empty_body()  # (never onto another reserve: the rules forbid it)
        if b >= 0:
            return best << 16 | b << 8
        if best_depth == 1:
            # One card covers a playable one: free a body pile for it by moving a lone body
            # card onto a reserve whose top is needed no sooner (nothing gets buried), unless
            # that card is what the playable one would go onto.
            z = piles.cards[piles.start[best] + piles.size[best] - 2]
            for p in range(_BODY1, _BODY1 + 8):
                c = piles.top(p)
                if piles.size[p] == 1 and not (SUIT[c] == SUIT[z] and RANK[c] == RANK[z] + 1):
                    for r in range(_RES1, _RES1 + 3):
                        t = piles.top(r)
                        if r != best and (t < 0 or (self._need(t) >= self._need(c)
                                                    and not self._playable(t))):
                            return p << 16 | r << 8
        return -1

    def _empty_body(self):
        piles = self.game.piles
        for b in range(_BODY1, _BODY1 + 8):
            if piles.size[b] == 0:
                return b
        return -1

    def choose(self):
        """The hint when no safe move is left (hint() in PatienceAdvisor tries those first)."""
        game = self.game
        if game.rules != 1:
            m = self.choose_stacked()
            last = game.history.last_move()
            if m >= 0 and (last < 0 or m != ((last >> 8) & 0xFF) << 16 | (last >> 16) << 8):
                return m  # (never the last move taken back: that goes round in circles)
        hist = game.history
        if hist.used > hist.capacity - 64:
            return game.greedy_hint()  # scoring would push the oldest undo steps out
        moves = self.moves
        n = game.legal_moves(moves)
        base = self.score()
        best = -1
        best_score = _NONE
        waste_best = -1
        waste_score = _NONE
        can_draw = False
        for i in range(n):
            m = moves[i]
            if m == _DRAW_MOVE:
                can_draw = True
                continue
            if self.work >= NODE_LIMIT or self._duplicate(m):
                continue
            self.work += 1
            game.apply(m)
            s = self.score()
            game.undo()
            if s > best_score:
                best_score = s
                best = m
            if m >> 16 == _WASTE and s > waste_score:
                waste_score = s
                waste_best = m
        if best >= 0 and best_score > base:
            return best
        if can_draw:
            return _DRAW_MOVE
        if waste_best >= 0:
            return waste_best
        return -1  # only moves that change nothing for the better remain: none to advise


def attach(game):
    """The game's advisor (Game.attach_ai, at start-up)."""
    game.advisor = Advisor(game)
