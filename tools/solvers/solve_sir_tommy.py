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

import random

from tools.solvers.solve_run import Limit, run

from engine_core.games.sir_tommy import CURRENT, DRAW_MOVE, FOUND1, RES1, STOCK
from engine_core.game import move_code

RANK = [c % 13 for c in range(52)]
PROOF_NODES = 1000  # the search over every choice, first: proves endings lost, finds easy wins


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
    """True when some holding-pile card can never reach a foundation, whatever is played.

    Counting rule: a card of rank r played as the i-th of its rank needs i cards of rank r-1
    already played, so it needs, of rank r-1, at least (cards of rank r on the foundations)
    + 1 + (cards of rank r above it in its pile: they leave before it). Every card of rank
    r-1 that can ever be played counts for it: those on the foundations, those still to be
    drawn (`pool`, counts by rank, as if free at any moment), and the holding-pile cards this
    rule itself frees (all cards above them freed first). Freed counts only grow, so the
    freeing runs to a fixed point; a card it never frees is never played in any line
    (induction along a winning line: each card played there satisfies the rule with the cards
    played before it, all of them freed), so the position is lost."""
    played = [0] * 13
    for h in heights:
        for r in range(h):
            played[r] += 1
    free = [4] * 14  # free[r + 1]: cards of rank r that can reach a foundation; free[0]: Aces' need
    for r in range(13):
        free[r + 1] = played[r] + pool[r]
    depth = [len(p) for p in piles]
    changed = True
    while changed:
        changed = False
        for i in range(4):
            pile = piles[i]
            n = depth[i]
            while n:
                x = pile[n - 1]
                need = played[x] + 1
                for j in range(n, len(pile)):
                    if pile[j] == x:
                        need += 1
                if free[x] < need:
                    break
                free[x + 1] += 1
                n -= 1
                changed = True
            depth[i] = n
    for n in depth:
        if n:
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



# Operations of a rollout line (converted to engine moves by `moves_of`): the holding pile in
# the low bits.
_OP_PILE = 0  # + p: top of holding pile p to a foundation
_OP_CURRENT = 8  # the current card to a foundation
_OP_HOLD = 16  # + p: the current card onto holding pile p
_OP_DRAW = 24
_EMPTY_PILE = 20  # rank of an empty pile's place in the placing order (after every cover)
_INVERSION = 40  # start of the placing order of piles whose top is lower than the card


class Rollouts:
    """Nested rollouts (nested Monte Carlo search, level 1) for a win.

    A rollout plays the deal to its end by a fixed policy: every foundation move at once
    (from the holding piles first, the pile whose next card is lowest first; then the current
    card), else the current card onto the lowest top at or above it, else an empty pile, else
    the pile it hurts least (POLICIES). The search walks the deal card by card: it rolls out
    every distinct placing of the card, keeps the best line found so far (most cards on the
    foundations) and follows it one card further. Each rollout step is a node."""

    def __init__(self, deal, policy, noise, seed):
        self.cards = ([deal.current] if deal.current >= 0 else []) + deal.draws
        self.n = len(self.cards)
        self.deal = deal
        self.policy = policy
        self.noise = noise
        self.random = random.Random(seed).random

    def play(self, piles, cnt, line):
        """Every foundation move from the holding piles (the pile whose card below the top is
        lowest first: it frees the most)."""
        while True:
            best = -1
            below = 99
            for p in range(4):
                pile = piles[p]
                if pile:
                    r = pile[-1]
                    if (cnt[r - 1] if r else 4) > cnt[r]:
                        b = pile[-2] if len(pile) > 1 else -1
                        if b < below:
                            below = b
                            best = p
            if best < 0:
                return
            cnt[piles[best].pop()] += 1
            line.append(_OP_PILE + best)

    def choose(self, piles, q):
        """The holding pile for card q: the lowest top at or above q, else an empty pile, else
        (policy 0) the nearest top below q or (policy 1) the pile with the fewest cards below
        q, the other count breaking ties; `noise` adds up to that much at random to each
        pile's place in this order."""
        best = -1
        best_key = 1000.0
        noise = self.noise
        for p in range(4):
            pile = piles[p]
            if not pile:
                key = _EMPTY_PILE
            elif pile[-1] >= q:
                key = pile[-1] - q
            else:
                continue
            if noise:
                key += noise * self.random()
            if key < best_key:
                best_key = key
                best = p
        if best >= 0:
            return best  # noise stays below the gap to the piles it would cover (NOISE_MAX)
        for p in range(4):
            pile = piles[p]
            if pile and pile[-1] < q:
                lower = 0
                for r in pile:
                    if r < q:
                        lower += 1
                if lower > 15:
                    lower = 15
                if self.policy:
                    key = _INVERSION + lower * 16 + q - pile[-1]
                else:
                    key = _INVERSION + (q - pile[-1]) * 16 + lower
                if noise:
                    key += noise * self.random()
                if key < best_key:
                    best_key = key
                    best = p
        return best

    def rollout(self, k, piles, cnt, line):
        """Play from card k to the end by the policy (piles, cnt, line changed in place): the
        cards on the foundations at the end."""
        cards = self.cards
        n = self.n
        # want[r]: a foundation takes rank r (kept up to date as cards are played)
        want = [(cnt[r - 1] if r else 4) > cnt[r] for r in range(13)] + [False]
        steps = 0
        while True:
            steps += 1
            while True:  # foundation moves from the holding piles (as play())
                best = -1
                below = 99
                for p in range(4):
                    pile = piles[p]
                    if pile and want[pile[-1]]:
                        b = pile[-2] if len(pile) > 1 else -1
                        if b < below:
                            below = b
                            best = p
                if best < 0:
                    break
                r = piles[best].pop()
                cnt[r] += 1
                want[r] = (cnt[r - 1] if r else 4) > cnt[r]
                if r < 12:
                    want[r + 1] = cnt[r] > cnt[r + 1]
                line.append(_OP_PILE + best)
            if k == n:
                break
            q = cards[k]
            if want[q]:
                cnt[q] += 1
                want[q] = (cnt[q - 1] if q else 4) > cnt[q]
                if q < 12:
                    want[q + 1] = cnt[q] > cnt[q + 1]
                line.append(_OP_CURRENT)
            else:
                p = self.choose(piles, q)
                piles[p].append(q)
                line.append(_OP_HOLD + p)
            k += 1
            if k < n:
                line.append(_OP_DRAW)
        self.deal.nodes += steps
        return sum(cnt)

    def search(self):
        """A winning line of operations, or None (the deal's node limit: Limit)."""
        deal = self.deal
        cnt = [0] * 13
        for h in deal.heights:
            for r in range(h):
                cnt[r] += 1
        piles = [list(p) for p in deal.piles]
        line = [_OP_DRAW] if deal.current < 0 and self.n else []
        best = -1
        best_line = None
        for k in range(self.n + 1):
            if deal.nodes > deal.node_limit:
                raise Limit()
            base = list(line)
            self.play(piles, cnt, base)
            if k == self.n:
                return base if sum(cnt) == 52 else None
            q = self.cards[k]
            tails = []
            if (cnt[q - 1] if q else 4) > cnt[q]:
                tails.append(_OP_CURRENT)
            tried = []
            for p in range(4):
                if piles[p] not in tried:
                    tried.append(piles[p])
                    tails.append(_OP_HOLD + p)
            for op in tails:
                trial = base + [op]
                p2 = [list(x) for x in piles]
                c2 = list(cnt)
                if op == _OP_CURRENT:
                    c2[q] += 1
                else:
                    p2[op - _OP_HOLD].append(q)
                if k + 1 < self.n:
                    trial.append(_OP_DRAW)
                score = self.rollout(k + 1, p2, c2, trial)
                if score > best:
                    best = score
                    best_line = trial
                    if score == 52:
                        return best_line
            # Follow the best line one card further (its foundation moves are `base`'s).
            op = best_line[len(base)]
            if op == _OP_CURRENT:
                cnt[q] += 1
            else:
                piles[op - _OP_HOLD].append(q)
            line = best_line[:len(base) + (2 if k + 1 < self.n else 1)]
        return None


def moves_of(deal, ops):
    """The engine moves of a rollout line (foundation N: the first one the rank is next on)."""
    heights = list(deal.heights)
    piles = [list(p) for p in deal.piles]
    cards = ([deal.current] if deal.current >= 0 else []) + deal.draws
    k = 0 if deal.current >= 0 else -1
    moves = []
    for op in ops:
        if op == _OP_DRAW:
            k += 1
            moves.append(DRAW_MOVE)
        elif op == _OP_CURRENT:
            f = heights.index(cards[k])
            heights[f] += 1
            moves.append(move_code(CURRENT, FOUND1 + f))
        elif op >= _OP_HOLD:
            piles[op - _OP_HOLD].append(cards[k])
            moves.append(move_code(CURRENT, RES1 + op - _OP_HOLD))
        else:
            f = heights.index(piles[op].pop())
            heights[f] += 1
            moves.append(move_code(RES1 + op, FOUND1 + f))
    return moves


# The rollout searches tried in turn after the proof search: (policy, noise); noisy ones
# differ by their random seed, so the list repeats its last entry.
POLICIES = ((0, 0), (1, 0), (0, 4.0), (1, 4.0), (0, 12.0))


def solve(game, node_limit, proof_nodes=PROOF_NODES, policies=POLICIES):
    """(True, moves) for a win, (False, None) when none exists, (None, None) past the limit;
    and the nodes searched."""
    deal = Deal(game, min(node_limit, proof_nodes))
    prover = Prover(deal)
    won = run(prover.prove, 20000)
    if won is not None:
        return won, prover.line, deal.nodes
    deal.node_limit = node_limit
    try:
        attempt = 0
        while deal.nodes < node_limit:
            policy, noise = policies[min(attempt, len(policies) - 1)]
            ops = Rollouts(deal, policy, noise, attempt).search()
            if ops is not None:
                return True, moves_of(deal, ops), deal.nodes
            attempt += 1
            if noise == 0 and attempt >= len(policies):
                break
    except Limit:
        pass
    return None, None, deal.nodes
