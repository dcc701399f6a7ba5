"""Sir Tommy hints and auto-play.

Foundations take any card of the next rank, whatever its suit, and nothing ever builds on a
holding pile, so a card on a foundation is never needed again: every foundation move is safe.
Auto-play still leaves one choice to the player: when more cards of a rank are ready than
foundations wait for it (say the current 5 and a 5 on res2, one foundation at 4), which one
goes is a real decision. Playing the holding pile's card is never worse than playing the
current one (putting the current card back on that pile gives the same position), so the hint
does that.

The real decision is where the current card goes when no foundation takes it. The hint looks
one card ahead over what the player knows: for every holding pile it counts the cards the
current card would bury that are needed before it (an *inversion*: a lower rank under a
higher one), plus the expected inversions of the next card, averaged over the ranks still
unseen (the stock's cards are unknown, but which cards they are is not) and placed at its
best. Everything is counted from per-pile rank histograms, so a hint costs a fixed amount of
work whatever the position (tools/bench/bench_hints.py).
"""

from array import array

from engine_core import PLAYING
from engine_core.ai.advisor import PatienceAdvisor
from engine_core.ai import takedown
from engine_core.game import move_code

from micropython import const

_STOCK = const(0)
_CURRENT = const(1)
_FOUND1 = const(2)
_RES1 = const(6)
_DRAW_MOVE = const(0xFF0000)
_W = const(14)  # row width of the per-pile tables: ranks 0..13
NODE_LIMIT = const(21)  # most work units a hint can spend: 4 + 52 // 4 for the tables, 4 piles placed
FINISH_PLAYS = const(500)  # the finish's search: at most this many plays tried (takedown.py)
HOLDING = b"\x06\x07\x08\x09"  # the finish's sources: res1..res4 (piles 6..9)

RANK = bytes([c % 13 for c in range(52)])


class Advisor(PatienceAdvisor):
    """hint(), safe_move() and finish_move() for one Sir Tommy game object."""

    def __init__(self, game):
        PatienceAdvisor.__init__(self, game)  # self.game, self.work
        self.height = bytearray(4)  # foundation heights: the rank each one takes next
        self.less = array("i", [0] * (4 * _W))  # less[p*_W + k]: cards of pile p ranked below k
        self.counts = bytearray(13)
        self.unseen = bytearray(13)  # cards of each rank the player has not seen yet
        takedown.shared()  # the finish's search, made now (finish_move takes it)

    def _heights(self):
        piles = self.game.piles
        for f in range(4):
            self.height[f] = piles.size[_FOUND1 + f]

    def _slots(self, rank):
        n = 0
        for f in range(4):
            if self.height[f] == rank:
                n += 1
        return n

    def _foundation_for(self, rank):
        for f in range(4):
            if self.height[f] == rank:
                return _FOUND1 + f
        return -1

    def _sources(self, rank):
        """How many exposed cards (current and holding-pile tops) have this rank."""
        piles = self.game.piles
        n = 0
        for p in range(_CURRENT, _RES1 + 4):
            if p == _CURRENT or p >= _RES1:
                t = piles.top(p)
                if t >= 0 and RANK[t] == rank:
                    n += 1
        return n

    def safe_move(self):
        """A foundation move no other card competes for, or -1."""
        game = self.game
        if game.status() != PLAYING:
            return -1
        self._heights()
        piles = game.piles
        for p in range(_CURRENT, _RES1 + 4):
            if p == _CURRENT or p >= _RES1:
                t = piles.top(p)
                if t >= 0:
                    k = RANK[t]
                    slots = self._slots(k)
                    if slots > 0 and self._sources(k) <= slots:
                        return move_code(p, self._foundation_for(k))
        return -1

    def _contested(self):
        """A holding-pile top to play when cards compete for a foundation (the one that buries
        the most lower cards), or -1."""
        piles = self.game.piles
        best = -1
        best_gain = -1
        for r in range(_RES1, _RES1 + 4):
            t = piles.top(r)
            if t >= 0 and self._slots(RANK[t]) > 0:
                gain = 0
                s = piles.start[r]
                for i in range(piles.size[r] - 1):
                    if RANK[piles.cards[s + i]] < RANK[t]:
                        gain += 1
                if gain > best_gain:
                    best = r
                    best_gain = gain
        if best < 0:
            return -1
        return move_code(best, self._foundation_for(RANK[piles.top(best)]))

    def _tables(self):
        """Fill less[] for each holding pile and unseen[] from what is visible."""
        piles = self.game.piles
        counts = self.counts
        less = self.less
        unseen = self.unseen
        for k in range(13):
            unseen[k] = 4
        for f in range(4):
            for k in range(self.height[f]):
                unseen[k] -= 1
        c = piles.top(_CURRENT)
        if c >= 0:
            unseen[RANK[c]] -= 1
        for p in range(4):
            for k in range(13):
                counts[k] = 0
            s = piles.start[_RES1 + p]
            n = piles.size[_RES1 + p]
            for i in range(n):
                counts[RANK[piles.cards[s + i]]] += 1
            base = p * _W
            less[base] = 0
            for k in range(13):
                less[base + k + 1] = less[base + k] + counts[k]
                unseen[k] -= counts[k]
            self.work += 1 + n // 4

    def _place(self, c):
        """The holding pile (0..3) for a current card of rank c: fewest inversions now plus the
        expected inversions of the next card."""
        piles = self.game.piles
        less = self.less
        unseen = self.unseen
        total = 0
        for k in range(13):
            total += unseen[k]
        best = 0
        best_score = -0x3FFFFFFF
        seen_empty = False
        for q in range(4):
            n = piles.size[_RES1 + q]
            if n == 0:
                if seen_empty:
                    continue  # empty piles are all alike
                seen_empty = True
            self.work += 1
            now = less[q * _W + c]
            ahead = 0
            for k in range(13):
                if unseen[k] == 0:
                    continue
                if self._slots(k) > 0:
                    continue  # it would go to a foundation: no inversion
                low = 99
                for p in range(4):
                    v = less[p * _W + k]
                    if p == q and c < k:
                        v += 1
                    if v < low:
                        low = v
                ahead += unseen[k] * low
            # Scores in 1/64 inversions; ties go to the lowest top that is not below c, else to
            # an empty pile, else to the highest top (the card needed last).
            score = -64 * now
            if total:
                score -= 64 * ahead // total
            t = piles.top(_RES1 + q)
            if t >= 0 and RANK[t] >= c:
                score -= RANK[t] - c
            elif t >= 0:
                score -= 20 + c - RANK[t]
            else:
                score -= 20
            if score > best_score:
                best_score = score
                best = q
        return best

    def choose(self):
        """The hint when no safe move is left (hint() in PatienceAdvisor tries those first)."""
        game = self.game
        m = self._contested()
        if m >= 0:
            return m
        piles = game.piles
        c = piles.top(_CURRENT)
        if c < 0:
            if piles.size[_STOCK] > 0:
                return _DRAW_MOVE
            return -1
        self._tables()
        return move_code(_CURRENT, _RES1 + self._place(RANK[c]))

    def finish_move(self):
        """With the stock and the current card gone only foundation moves remain: when some
        order of them takes every card up (takedown.py: which of two cards of a rank goes
        first can decide it), its next move; else -1."""
        game = self.game
        if game.status() != PLAYING:
            return -1
        piles = game.piles
        if piles.size[_STOCK] > 0 or piles.size[_CURRENT] > 0:
            return -1
        t = takedown.shared()
        t.clear()
        for f in range(4):
            if piles.size[_FOUND1 + f] < 13:
                t.slots[piles.size[_FOUND1 + f]] += 1
            t.cursor[f] = piles.size[_RES1 + f]
        first = t.first(piles, HOLDING, False, FINISH_PLAYS)
        if first < 0:
            return -1
        self._heights()
        return move_code(_RES1 + first, self._foundation_for(RANK[piles.top(_RES1 + first)]))


def attach(game):
    """The game's advisor (Game.attach_ai, at start-up)."""
    game.advisor = Advisor(game)
