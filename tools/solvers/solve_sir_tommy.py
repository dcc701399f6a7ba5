"""Sir Tommy solver: the stock order is known from the seed, suits never matter.

The search works on ranks only; a position is the foundation heights, the four holding piles
and how many cards have been drawn. Between two draws:
- foundation moves no other exposed card competes for are made at once (a card on a
  foundation is never needed again, engine_core/ai/sir_tommy.py);
- when more cards of a rank are exposed than foundations take it, each holding-pile card is
  tried (the current card is never better: putting it back where the pile's card was gives
  the same position);
- otherwise the current card goes onto each holding pile in turn (piles with the same cards
  are tried once), and the next card is drawn.
Positions are compared with the four foundations and the four holding piles sorted (they are
interchangeable).

Two searches share the node limit (a node is one position after a placement):
1. **Depth-first search** over every placement, least-burying pile first (fewest cards below
   the current card's rank underneath, then the nearest top), with a table of positions shown
   lost and a dead-end test (`dead_end`: even if every card not yet drawn were free to play
   at any moment, and any foundation took any rank up to the highest one, some holding-pile
   card could never be played). It finds the easy wins, and when it runs to the end without
   one the deal is proven lost: nothing is pruned that could win. It gets at most
   DFS_NODES nodes.
2. **Beam search for a win**, widening: after each draw the positions are ranked by `score`
   and the best WIDTH kept, WIDTH = 16, 64, 256, ... until a win or the limit. Depth-first
   search keeps an early misplacement for ever; the beam compares whole positions at the
   same draw.

Every reported win is a line of engine moves; tools/solvers/solve.py replays it on the engine.
Proving a loss is rare: the relaxation only bites late, when the stock is nearly out (the
cross-check in tests/test_solvers.py compares the verdicts with a plain search over the
engine's own moves on such positions). docs/statistics.md has the measured rates.
"""

from tools.solvers.solve_run import Limit, run

from engine_core.games.sir_tommy import CURRENT, DRAW_MOVE, FOUND1, RES1, STOCK
from engine_core.game import move_code

RANK = [c % 13 for c in range(52)]
PROOF_NODES = 1000  # the search over every choice, first: proves endings lost, finds easy wins
DFS_NODES = 2000  # then the depth-first search with every foundation move made at once
WIDTHS = (16, 64, 256, 1024, 4096, 16384)

# The beam's score, tuned on seeds 10000..10099 at width 64 (docs/statistics.md).
PLAYED = 15  # per card on the foundations
PAIR = 8  # per higher card above a card in its holding pile
BLOCKED = 3  # per card with a higher card above it
URGENT = 2  # times how near the lowest foundation a blocked card's rank is (0..13)
EMPTY = 8  # per empty holding pile


def score(heights, piles):
    """Higher is better."""
    s = PLAYED * sum(heights)
    low = min(heights)
    for pile in piles:
        n = len(pile)
        if n == 0:
            s += EMPTY
            continue
        for i in range(n - 1):
            x = pile[i]
            above = 0
            for j in range(i + 1, n):
                if pile[j] > x:
                    above += 1
            if above:
                near = 13 - (x - low)
                s -= PAIR * above + BLOCKED + (URGENT * near if near > 0 else 0)
    return s


def safe(heights, rank):
    """True when a card of `rank` may go to a foundation at once: every foundation still
    short of that rank is waiting for exactly it, so every other card of the rank will find a
    foundation the moment it is free (playing earlier would otherwise take a place that a
    card under it needs: a foundation below the rank may never get there)."""
    if rank not in heights:
        return False
    for h in heights:
        if h < rank:
            return False
    return True


def settle(heights, piles, moves):
    """Make the safe foundation moves from the holding piles (lists, changed in place)."""
    moved = True
    while moved:
        moved = False
        for p in range(4):
            pile = piles[p]
            if pile and safe(heights, pile[-1]):
                f = heights.index(pile[-1])
                heights[f] += 1
                piles[p] = pile[:-1]
                moves.append(move_code(RES1 + p, FOUND1 + f))
                moved = True


def settle_all(heights, piles, moves, out):
    """Make every foundation move from the holding piles, safe or not (the beam's shortcut:
    it can lose a win, never invent one); `out` gets one (heights, piles, moves) per way of
    settling a rank more cards compete for than foundations take."""
    while True:
        moved = False
        for p in range(4):
            pile = piles[p]
            if not pile:
                continue
            t = pile[-1]
            if t not in heights:
                continue
            sources = 0
            for q in range(4):
                if piles[q] and piles[q][-1] == t:
                    sources += 1
            if sources > heights.count(t):
                for q in range(4):
                    if piles[q] and piles[q][-1] == t:
                        h2 = list(heights)
                        f = h2.index(t)
                        h2[f] += 1
                        p2 = list(piles)
                        p2[q] = piles[q][:-1]
                        settle_all(h2, p2, moves + [move_code(RES1 + q, FOUND1 + f)], out)
                return
            f = heights.index(t)
            heights[f] += 1
            piles[p] = pile[:-1]
            moves.append(move_code(RES1 + p, FOUND1 + f))
            moved = True
        if not moved:
            out.append((heights, piles, moves))
            return


def burial(pile, card):
    """Order of the holding piles for a card: fewest cards of lower rank underneath, then
    the nearest top at or above the card."""
    below = 0
    for r in pile:
        if r < card:
            below += 1
    gap = pile[-1] - card if pile and pile[-1] >= card else 20
    return (below, gap)


def key(heights, piles):
    return (tuple(sorted(heights)), tuple(sorted(piles)))


def dead_end(heights, piles, pool):
    """True when even with every card of `pool` (counts by rank) free to play at any moment,
    and any foundation taking any rank up to the highest foundation, some holding-pile card
    could never be played: then no continuation wins."""
    top = max(heights)
    avail = list(pool)
    stacks = [list(p) for p in piles]
    changed = True
    while changed:
        changed = False
        for s in stacks:
            while s and s[-1] <= top:
                avail[s.pop()] += 1
                changed = True
        while top < 13 and avail[top] > 0:
            top += 1
            changed = True
    for s in stacks:
        if s:
            return True
    return False


def flatten(line):
    """The moves of a line kept as nested (earlier line, moves) pairs."""
    parts = []
    while line is not None:
        line, moves = line
        parts.append(moves)
    out = []
    for moves in reversed(parts):
        out.extend(moves)
    return out


class Deal:
    """The ranks of a game position and the node count of the searches over it."""

    def __init__(self, game, node_limit):
        piles = game.piles
        self.draws = [RANK[piles.card(STOCK, i)] for i in range(piles.size[STOCK] - 1, -1, -1)]
        top = piles.top(CURRENT)
        self.current = RANK[top] if top >= 0 else -1
        self.heights = [piles.size[FOUND1 + f] for f in range(4)]
        self.piles = [tuple(RANK[piles.card(RES1 + p, i)] for i in range(piles.size[RES1 + p])) for p in range(4)]
        self.steps = len(self.draws) + 1  # step k places card(k); step 0 the current card
        self.nodes = 0
        self.node_limit = node_limit
        # pools[k]: cards of each rank not yet placed when step k begins
        self.pools = []
        for k in range(self.steps + 1):
            counts = [0] * 13
            for r in self.draws[max(0, k - 1):]:
                counts[r] += 1
            if k == 0 and self.current >= 0:
                counts[self.current] += 1
            self.pools.append(counts)

    def count(self):
        self.nodes += 1
        if self.nodes > self.node_limit:
            raise Limit()

    def card(self, step):
        """The card placed at `step` (-1: none, the position starts without a current card)."""
        if step == 0:
            return self.current
        return self.draws[step - 1]

    def start(self):
        """The positions before step 0: [(heights, piles, moves)]."""
        h = list(self.heights)
        p = list(self.piles)
        moves = []
        settle(h, p, moves)
        return [(h, p, moves)]

    def place_greedy(self, heights, piles, step, out):
        """The beam's moves for a step: the card goes to a foundation when one takes it, else
        onto each distinct holding pile; every foundation move is then made (settle_all)."""
        card = self.card(step)
        moves = [DRAW_MOVE] if step > 0 else []
        if card < 0:
            settle_all(list(heights), list(piles), moves, out)
            return
        if card in heights:
            h = list(heights)
            f = h.index(card)
            h[f] += 1
            moves.append(move_code(CURRENT, FOUND1 + f))
            settle_all(h, list(piles), moves, out)
            return
        tried = []
        for p in sorted(range(4), key=lambda q: burial(piles[q], card)):
            if piles[p] in tried:
                continue
            tried.append(piles[p])
            p2 = list(piles)
            p2[p] = piles[p] + (card,)
            settle_all(list(heights), p2, moves + [move_code(CURRENT, RES1 + p)], out)

    def place(self, heights, piles, step, out):
        """Every way of drawing (after step 0), making foundation moves and putting the card
        away: (heights, piles, moves) appended to out, each position once."""
        card = self.card(step)
        moves = [DRAW_MOVE] if step > 0 else []
        seen = set()
        self._plays(list(heights), list(piles), card, moves, seen, out)

    def _plays(self, heights, piles, card, moves, seen, out):
        """Positions reachable by foundation moves, then the placing of `card` (-1: none)."""
        if card >= 0 and safe(heights, card):
            f = heights.index(card)
            heights[f] += 1
            moves.append(move_code(CURRENT, FOUND1 + f))
            card = -1
        settle(heights, piles, moves)
        k = (card, tuple(sorted(heights)), tuple(sorted(piles)))
        if k in seen:
            return
        seen.add(k)
        if card < 0:
            out.append((heights, piles, moves))
        else:
            tried = []
            for p in sorted(range(4), key=lambda q: burial(piles[q], card)):
                if piles[p] in tried:
                    continue
                tried.append(piles[p])
                p2 = list(piles)
                p2[p] = piles[p] + (card,)
                out.append((list(heights), p2, moves + [move_code(CURRENT, RES1 + p)]))
            if card in heights:
                h2 = list(heights)
                f = h2.index(card)
                h2[f] += 1
                self._plays(h2, list(piles), -1, moves + [move_code(CURRENT, FOUND1 + f)], seen, out)
        # A foundation move that is not safe is a choice: each distinct one is tried.
        done = []
        for p in range(4):
            pile = piles[p]
            if pile and pile[-1] in heights and pile not in done:
                done.append(pile)
                h2 = list(heights)
                f = h2.index(pile[-1])
                h2[f] += 1
                p2 = list(piles)
                p2[p] = pile[:-1]
                self._plays(h2, p2, card, moves + [move_code(RES1 + p, FOUND1 + f)], seen, out)


def beam(deal, width):
    """A winning line found keeping the best `width` positions after each step, or None."""
    layer = []
    seen = set()
    for h, p, m in deal.start():
        k = key(h, p)
        if k not in seen:
            seen.add(k)
            layer.append((h, p, (None, m)))
    for step in range(deal.steps):
        nxt = []
        seen = set()
        for h, p, line in layer:
            out = []
            deal.place_greedy(h, p, step, out)
            for h2, p2, m2 in out:
                deal.count()
                k = key(h2, p2)
                if k not in seen:
                    seen.add(k)
                    nxt.append((h2, p2, (line, m2)))
        if not nxt:
            return None
        if len(nxt) > width:
            nxt.sort(key=lambda s: -score(s[0], s[1]))
            del nxt[width:]
        layer = nxt
    for h, p, line in layer:
        if sum(h) == 52:
            return flatten(line)
    return None


class Prover:
    """Depth-first search: True (a win, self.line) or False. Over every choice (`place`) a
    False is a proof that no win exists; with greedy=True (`place_greedy`) it only means
    that this search found none."""

    def __init__(self, deal, greedy=False):
        self.deal = deal
        self.lost = set()
        self.line = None
        self.place = deal.place_greedy if greedy else deal.place

    def search(self, heights, piles, step, line):
        deal = self.deal
        deal.count()
        if step == deal.steps:
            if sum(heights) == 52:
                self.line = flatten(line)
                return True
            return False
        k = (step, tuple(sorted(piles)))
        if k in self.lost:
            return False
        if dead_end(heights, piles, deal.pools[step]):
            self.lost.add(k)
            return False
        out = []
        self.place(heights, piles, step, out)
        for h2, p2, m2 in out:
            if self.search(h2, p2, step + 1, (line, m2)):
                return True
        self.lost.add(k)
        return False

    def prove(self):
        for h, p, m in self.deal.start():
            if self.search(h, p, 0, (None, m)):
                return True
        return False


def solve(game, node_limit, widths=WIDTHS, proof_nodes=PROOF_NODES, dfs_nodes=DFS_NODES):
    """(True, moves) for a win, (False, None) when none exists, (None, None) past the limit;
    and the nodes searched."""
    deal = Deal(game, min(node_limit, proof_nodes))
    prover = Prover(deal)
    won = run(prover.prove, 20000)
    if won is not None:
        return won, prover.line, deal.nodes
    for greedy_nodes in (dfs_nodes, node_limit):
        if deal.nodes >= node_limit:
            return None, None, deal.nodes
        deal.node_limit = min(node_limit, deal.nodes + greedy_nodes)
        if greedy_nodes == dfs_nodes:
            quick = Prover(deal, greedy=True)
            if run(quick.prove, 20000):
                return True, quick.line, deal.nodes
            continue
        try:
            for width in widths:
                line = beam(deal, width)
                if line is not None:
                    return True, line, deal.nodes
        except Limit:
            pass
    return None, None, deal.nodes
