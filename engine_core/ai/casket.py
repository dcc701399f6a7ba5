"""Casket hints and auto-play.

Safe foundation moves: body piles build down in suit, so a card may serve as the target of
the two cards one rank below it in its suit. Once both of those are on foundations, nothing
can ever need it: it is safe to put it up. Aces and twos are always safe (an Ace goes to a
foundation of its own, never onto a two). Reserves and empty body piles take any card, so no
other card depends on anything.

The hint looks one move ahead over what the player sees: every legal move but draw (moves to
equal targets, an empty reserve or an empty body pile, tried once) is made on the game, the
position is scored, and the move undone. The score counts cards up, jewels out, free reserves
and body piles, cards kept in body runs, and whether the waste card has a home; a move must
beat the position as it stands (so the hint never shuffles a card back and forth). When none
does, it draws; when it cannot draw, the least harmful move places the waste card; and when
only moves that gain nothing remain, it advises none (such moves could go round in circles).
The number
of moves scored is capped (NODE_LIMIT), which bounds the fuel of a hint
(tools/bench_hints.py). Scoring goes through the undo journal; when that is nearly full the
engine's greedy rule answers instead, so a hint never costs the player an undo step.
"""

from array import array

from engine_core import PLAYING
from engine_core.ai.advisor import PatienceAdvisor

try:
    from micropython import const
except ImportError:
    def const(x):
        return x

_STOCK = const(0)
_WASTE = const(1)
_JEWELS = const(2)
_LID1 = const(3)
_BODY1 = const(8)
_RES1 = const(16)
_FOUND1 = const(19)
_SOURCES = const(17)  # waste, 5 lids, 8 bodies, 3 reserves: piles 1 and 3..18
_DRAW_MOVE = const(0xFF0000)
NODE_LIMIT = const(24)  # moves scored per hint at most: keeps the worst hint in budget (tools/bench_hints.py)
_NONE = const(-0x3FFFFFFF)

SUIT = bytes([(c % 52) // 13 for c in range(104)])
RANK = bytes([c % 13 for c in range(104)])


class Advisor(PatienceAdvisor):
    """hint(), safe_move() and finish_move() for one Casket game object."""

    def __init__(self, game):
        self.game = game
        self.moves = array("i", [0] * game.MAX_MOVES)
        self.low = bytearray(4)  # per suit: the lower height of its two foundations
        self.high = bytearray(4)
        self.height = bytearray(8)  # finish simulation: foundation heights and suits
        self.suit = bytearray(8)
        self.cursor = bytearray(_SOURCES + 2)  # finish simulation: cards left per source
        self.work = 0

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

    def _source(self, i):
        """The pile id of source i (0: waste, 1..16: lids, bodies, reserves)."""
        if i == 0:
            return _WASTE
        return _LID1 + i - 1

    def safe_move(self):
        """A foundation move no remaining card could ever need undone, or -1."""
        game = self.game
        if game.status() != PLAYING:
            return -1
        piles = game.piles
        self._suit_heights()
        for i in range(_SOURCES):
            p = self._source(i)
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
        """With the stock and the jewels gone every card is in sight; when foundation moves
        alone then take every card up, the next of them, else -1."""
        game = self.game
        if game.status() != PLAYING:
            return -1
        piles = game.piles
        if piles.size[_STOCK] > 0 or piles.size[_JEWELS] > 0:
            return -1
        if not self._clears():
            return -1
        for i in range(_SOURCES):
            p = self._source(i)
            c = piles.top(p)
            if c >= 0:
                f = self._foundation_for(c)
                if f >= 0:
                    return p << 16 | f << 8
        return -1

    def _clears(self):
        """True when playing exposed cards up, in any order, takes every card up.

        Each body pile is a run down in suit, so it comes off in the order its foundation
        needs; simulated on heights and a cursor per source, without touching the game.
        """
        piles = self.game.piles
        height = self.height
        suit = self.suit
        cursor = self.cursor
        for f in range(8):
            n = piles.size[_FOUND1 + f]
            height[f] = n
            suit[f] = SUIT[piles.cards[piles.start[_FOUND1 + f]]] if n else 4
        for i in range(_SOURCES):
            cursor[i] = piles.size[self._source(i)]
        moved = True
        while moved:
            moved = False
            for i in range(_SOURCES):
                n = cursor[i]
                if n:
                    p = self._source(i)
                    c = piles.cards[piles.start[p] + n - 1]
                    r = RANK[c]
                    for f in range(8):
                        if height[f] == r and (suit[f] == SUIT[c] or r == 0):
                            height[f] = r + 1
                            suit[f] = SUIT[c]
                            cursor[i] = n - 1
                            moved = True
                            break
        for i in range(_SOURCES):
            if cursor[i]:
                return False
        return True

    # --- hint ---

    def score(self):
        """How good the position looks to the player (higher is better)."""
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

    def choose(self):
        """The hint when no safe move is left (hint() in PatienceAdvisor tries those first)."""
        game = self.game
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
