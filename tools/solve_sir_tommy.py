"""Exact Sir Tommy solver: the stock order is known from the seed, suits never matter.

The search works on ranks only. At each position:
- foundation moves no other card competes for are made at once (a card on a foundation is
  never needed again, engine_core/ai/sir_tommy.py);
- when more cards of a rank are ready than foundations take it, the search tries each
  holding-pile card (the current card is never better: putting it back where the pile's card
  was gives the same position);
- otherwise the current card goes onto each holding pile in turn (piles with the same cards
  are tried once), least-burying first; then the next card is drawn.
Positions shown lost are kept in a transposition table keyed on the cards drawn, the current
card, the foundation heights and the holding piles, both sorted (the four of each are
interchangeable).

Wins come quickly (seeds 0..99: 17 within 2,000 nodes, 20 within 20,000, 22 within 200,000);
proving a deal lost means exhausting every placement, which few deals allow within any limit
we can afford. A relaxation (cards still to come count as free, so only the holding piles can
be stuck) pruned about 5% of positions but never finished a proof, so it was left out: the
solver's rate is a proven lower bound, and undecided deals bound it from above
(docs/statistics.md).
"""

from tools.solve_run import Limit, run

from engine_core.games.sir_tommy import CURRENT, DRAW_MOVE, FOUND1, RES1, STOCK
from engine_core.game import move_code

RANK = [c % 13 for c in range(52)]


class Solver:
    def __init__(self, game, node_limit):
        piles = game.piles
        # Draw order: the stock's top card first.
        self.draws = [RANK[piles.card(STOCK, i)] for i in range(piles.size[STOCK] - 1, -1, -1)]
        top = piles.top(CURRENT)
        self.current = RANK[top] if top >= 0 else -1
        self.heights = [piles.size[FOUND1 + f] for f in range(4)]
        self.res = [[RANK[piles.card(RES1 + p, i)] for i in range(piles.size[RES1 + p])] for p in range(4)]
        self.node_limit = node_limit
        self.nodes = 0
        self.lost = set()
        self.line = []

    def key(self, drawn):
        return (drawn, self.current, tuple(sorted(self.heights)), tuple(sorted(map(tuple, self.res))))

    def _found(self, rank):
        return self.heights.index(rank)

    def _auto(self):
        """Make the uncontested foundation moves; returns what undo needs (a list of
        (source, foundation) with source -1 for the current card)."""
        done = []
        heights = self.heights
        res = self.res
        moved = True
        while moved:
            moved = False
            sources = {}
            if self.current >= 0:
                sources.setdefault(self.current, []).append(-1)
            for p in range(4):
                if res[p]:
                    sources.setdefault(res[p][-1], []).append(p)
            for rank, srcs in sources.items():
                slots = heights.count(rank)
                if slots and len(srcs) <= slots:
                    for s in srcs:
                        f = self._found(rank)
                        heights[f] += 1
                        if s < 0:
                            self.current = -1
                            self.line.append(move_code(CURRENT, FOUND1 + f))
                        else:
                            res[s].pop()
                            self.line.append(move_code(RES1 + s, FOUND1 + f))
                        done.append((s, f, rank))
                    moved = True
        return done

    def _unauto(self, done):
        for s, f, rank in reversed(done):
            self.heights[f] -= 1
            if s < 0:
                self.current = rank
            else:
                self.res[s].append(rank)
            self.line.pop()

    def search(self, drawn):
        self.nodes += 1
        if self.nodes > self.node_limit:
            raise Limit()
        done = self._auto()
        won = self._choose(drawn)
        if not won:
            self._unauto(done)
        return won

    def _choose(self, drawn):
        heights = self.heights
        res = self.res
        if sum(heights) == 52:
            return True
        key = self.key(drawn)
        if key in self.lost:
            return False
        # Cards competing for a foundation: try each holding-pile card.
        for p in range(4):
            if res[p] and res[p][-1] in heights:
                rank = res[p].pop()
                f = self._found(rank)
                heights[f] += 1
                self.line.append(move_code(RES1 + p, FOUND1 + f))
                if self.search(drawn):
                    return True
                self.line.pop()
                heights[f] -= 1
                res[p].append(rank)
        if self.current >= 0:
            c = self.current
            tried = set()
            order = sorted(range(4), key=lambda p: self._burial(p, c))
            for p in order:
                shape = tuple(res[p])
                if shape in tried:
                    continue
                tried.add(shape)
                res[p].append(c)
                self.current = -1
                self.line.append(move_code(CURRENT, RES1 + p))
                if self.search(drawn):
                    return True
                self.line.pop()
                self.current = c
                res[p].pop()
        elif drawn < len(self.draws):
            self.current = self.draws[drawn]
            self.line.append(DRAW_MOVE)
            if self.search(drawn + 1):
                return True
            self.line.pop()
            self.current = -1
        self.lost.add(key)
        return False

    def _burial(self, p, c):
        """How many cards needed before c it would cover; then how far above c the top is."""
        pile = self.res[p]
        below = sum(1 for r in pile if r < c)
        gap = (pile[-1] - c) if pile and pile[-1] >= c else 20
        return (below, gap)


def solve(game, node_limit):
    """(True, moves) for a win, (False, None) when none exists, (None, None) past the limit;
    and the nodes searched."""
    solver = Solver(game, node_limit)
    won = run(lambda: solver.search(0), 20000)
    if won is None:
        return None, None, solver.nodes
    return won, (list(solver.line) if won else None), solver.nodes
