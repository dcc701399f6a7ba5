"""Exact Aces Up solver: the whole deal is known (the stock order follows from the seed).

Depth-first search over the moves the rule profile allows, with two reductions:
- discards are made at once and in any order (they commute, and a discardable card stays
  discardable until the next deal; engine_core/ai/aces_up.py gives the argument; pass
  greedy_discards=False to search them as ordinary choices, which tests use to check it);
- a transposition table of positions already shown lost (columns and stock height).
A column's identity matters (the next deal puts a known card on each), so columns are not
sorted in the key.
"""

from tools.solvers.solve_run import Limit, run

from engine_core import games
from engine_core.games.aces_up import DEAL_MOVE, DISCARD, STOCK, value
from engine_core.game import move_code
from engine_core import cards

SUIT = [cards.suit(c) for c in range(52)]
VALUE = [value(c) for c in range(52)]


class Solver:
    def __init__(self, game, node_limit, greedy_discards=True):
        piles = game.piles
        self.cols = [[piles.card(1 + c, i) for i in range(piles.size[1 + c])] for c in range(4)]
        self.stock = [piles.card(STOCK, i) for i in range(piles.size[STOCK])]
        self.node_limit = node_limit
        self.greedy = greedy_discards
        self.nodes = 0
        self.lost = set()
        self.line = []

    def discards(self):
        cols = self.cols
        found = []
        for c in range(4):
            if cols[c]:
                card = cols[c][-1]
                s = SUIT[card]
                v = VALUE[card]
                for o in range(4):
                    if o != c and cols[o] and SUIT[cols[o][-1]] == s and VALUE[cols[o][-1]] > v:
                        found.append(c)
                        break
        return found

    def search(self, dealt):
        self.nodes += 1
        if self.nodes > self.node_limit:
            raise Limit()
        cols = self.cols
        line = self.line
        taken = []
        if self.greedy:
            found = self.discards()
            while found:
                c = found[0]
                taken.append((c, cols[c].pop()))
                line.append(move_code(1 + c, DISCARD))
                found = self.discards()
            won = self._choices(dealt, ())
        else:
            won = self._choices(dealt, self.discards())
        if not won:
            for c, card in reversed(taken):
                cols[c].append(card)
                line.pop()
        return won

    def _choices(self, dealt, discards):
        cols = self.cols
        line = self.line
        if dealt == len(self.stock) and sum(len(col) for col in cols) == 4:
            return True  # 48 discarded: won, whatever is still movable
        empty = [c for c in range(4) if not cols[c]]
        sources = [c for c in range(4) if len(cols[c]) >= 2] if empty else []
        if not discards and not sources:
            if dealt == len(self.stock):
                return sum(len(col) for col in cols) == 4
            for c in range(4):
                cols[c].append(self.stock[-1 - dealt - c])
            line.append(DEAL_MOVE)
            if self.search(dealt + 4):
                return True
            line.pop()
            for c in range(4):
                cols[c].pop()
            return False
        key = (tuple(map(tuple, cols)), dealt)
        if key in self.lost:
            return False
        for c in discards:
            card = cols[c].pop()
            line.append(move_code(1 + c, DISCARD))
            if self.search(dealt):
                return True
            line.pop()
            cols[c].append(card)
        for src in sources:
            for dst in empty:
                cols[dst].append(cols[src].pop())
                line.append(move_code(1 + src, 1 + dst))
                if self.search(dealt):
                    return True
                line.pop()
                cols[src].append(cols[dst].pop())
        self.lost.add(key)
        return False


def solve(game, node_limit, greedy_discards=True):
    """(True, moves) for a win, (False, None) when none exists, (None, None) past the limit;
    and the nodes searched. `moves` are move codes that win when applied in order."""
    solver = Solver(game, node_limit, greedy_discards)
    won = run(lambda: solver.search(0), 10000)
    if won is None:
        return None, None, solver.nodes
    return won, (list(solver.line) if won else None), solver.nodes


GAME = games.load("aces_up")
