"""Sir Tommy solver: the stock order is known from the seed, suits never matter.

The search works on ranks only; a position is the foundation heights, the four holding piles
and how many cards have been drawn (that fixes the foundations too: every other card is on
them). Two searches share the node limit, in turn:

1. **Proof search** (`Prover`, PROOF_NODES nodes): depth-first over every choice, so running
   out without a win proves the position lost. Between two draws
   - a foundation move is made at once only when every foundation short of that rank waits
     for exactly it (`safe`): then every other card of the rank finds a foundation the
     moment it is free, so the move takes nothing any later line needs;
   - every other foundation move is a choice, each distinct one tried; the current card
     goes onto each holding pile in turn (piles with the same cards are tried once).
   Pruning, each rule sound (it never calls a winnable position lost):
   - transposition table: positions shown lost, keyed on the draw count and the holding
     piles sorted (holding piles are interchangeable, and so are foundations, whose heights
     follow from the rest);
   - dead-end test (`dead_end`): a card of rank r played as the i-th of its rank needs i
     cards of rank r-1 played before it, and the cards above it in its pile leave first; a
     holding-pile card that cannot meet this even with every undrawn card free to play at
     any moment is never played (proof in `dead_end`).
   It decides endings (tests/test_solvers.py checks its verdicts, lost and won, against a
   plain search over the engine's own moves with no rule at all, and that an unsound rule
   is caught); from the deal's first card it runs out of nodes, and no deal has been proven
   lost this way (docs/statistics.md).
2. **Rollouts for a win** (`Rollouts`, the rest of the limit): a rollout plays the deal to
   its end by a fixed policy; a nested Monte Carlo search (level 1) over the placings of
   each card, then beams of positions ranked by their rollouts, 4, 16, 64, 256, 1,024 and
   4,096 wide, for each of two policies (SEARCHES). A position's first child is the policy's
   own choice and keeps the position's rollout, so only the other children are rolled out.
   The class here is the reference; the same searches run compiled
   (tools/solvers/sir_tommy_rollouts.c through tools/solvers/native.py), node for node, when
   the host has a C compiler, and tests/test_solvers.py checks that both agree.

Every reported win is a line of engine moves (`moves_of`); tools/solvers/solve.py and
tools/solvers/stats.py replay it on the engine. docs/statistics.md has the measured rates.
"""

import sys

from tools.solvers import native
from tools.solvers.solve_run import Limit, run

from engine_core.games.sir_tommy import CURRENT, DRAW_MOVE, FOUND1, RES1, STOCK
from engine_core.game import move_code

RANK = [c % 13 for c in range(52)]
PROOF_NODES = 200  # the search over every choice, first: proves endings lost, finds easy wins


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
    """Depth-first search over every choice (`Deal.place`): True (a win, self.line) or False,
    a proof that no win exists (Limit past the deal's node limit)."""

    def __init__(self, deal):
        self.deal = deal
        self.lost = set()
        self.line = None
        self.place = deal.place

    def search(self, heights, piles, step, line):
        deal = self.deal
        deal.count()
        if step == deal.steps:
            if sum(heights) == 52:
                self.line = flatten(line)
                return True
            return False
        # The table of positions shown lost: the step and the holding piles fix the position
        # (every card neither drawn later nor on a pile is on a foundation, and foundations
        # are interchangeable, so the heights as a multiset follow); piles are sorted, as any
        # line from one order of the piles is a line from another with the piles renamed.
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
# A holding pile's place in the placing order of a card (lowest first): a top at or above the
# card by its distance (0..12), then an empty pile, then the tops below the card.
_EMPTY_PILE = 20
_INVERSION = 40


class Rollouts:
    """Searches for a win guided by rollouts (nested Monte Carlo search and a beam).

    A rollout plays the deal to its end by a fixed policy: every foundation move at once
    (from the holding piles first, the pile whose next card is lowest first, then the current
    card), else the current card onto the lowest top at or above it, else onto an empty pile,
    else onto the pile it hurts least: policy 0 the nearest top below it, policy 1 the pile
    with the fewest cards below it, the other count breaking ties. Its result is the cards
    on the foundations at the end, less a little for each card left on a lower one.
    Each rollout step is a node of the deal's count."""

    def __init__(self, deal, policy):
        self.cards = ([deal.current] if deal.current >= 0 else []) + deal.draws
        self.n = len(self.cards)
        self.deal = deal
        self.policy = policy

    def start(self):
        """(piles, counts of each rank on the foundations, line) of the deal's position."""
        deal = self.deal
        cnt = [0] * 13
        for h in deal.heights:
            for r in range(h):
                cnt[r] += 1
        return [list(p) for p in deal.piles], cnt, [_OP_DRAW] if deal.current < 0 and self.n else []

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

    def pile_key(self, pile, q):
        """The place of a holding pile in the policy's order for card q (lowest first)."""
        if not pile:
            return _EMPTY_PILE
        if pile[-1] >= q:
            return pile[-1] - q
        lower = 0
        for r in pile:
            if r < q:
                lower += 1
        if lower > 15:
            lower = 15
        if self.policy:
            return _INVERSION + lower * 16 + q - pile[-1]
        return _INVERSION + (q - pile[-1]) * 16 + lower

    def children(self, piles, cnt, line, k):
        """The positions after card k, each distinct placing once, the policy's own choice
        first: [(piles, cnt, line)]."""
        q = self.cards[k]
        base = list(line)
        self.play(piles, cnt, base)
        draw = [_OP_DRAW] if k + 1 < self.n else []
        out = []
        if (cnt[q - 1] if q else 4) > cnt[q]:
            c2 = list(cnt)
            c2[q] += 1
            out.append(([list(x) for x in piles], c2, base + [_OP_CURRENT] + draw))
        tried = []
        for _, p in sorted((self.pile_key(piles[p], q), p) for p in range(4)):
            if piles[p] not in tried:
                tried.append(piles[p])
                p2 = [list(x) for x in piles]
                p2[p].append(q)
                out.append((p2, list(cnt), base + [_OP_HOLD + p] + draw))
        return out

    def score(self, k, piles, cnt):
        """A rollout from card k (piles and cnt are left as they were): 52 * 64 for a win,
        else 64 per card on the foundations less one per card on a lower one in a holding
        pile. The same moves as finish(), written for speed: each pile gets a bottom card
        of rank 13, which no foundation takes and which sorts an empty pile after every top
        at or above the card and before every top below it (measured: 2 us a step)."""
        deal = self.deal
        if deal.nodes >= deal.node_limit:
            raise Limit()
        cards = self.cards
        n = self.n
        policy = self.policy
        cnt = list(cnt)
        stacks = [[13] + x for x in piles]
        s0, s1, s2, s3 = stacks
        want = [(cnt[r - 1] if r else 4) > cnt[r] for r in range(13)] + [False]
        steps = 0
        while True:
            steps += 1
            while want[s0[-1]] or want[s1[-1]] or want[s2[-1]] or want[s3[-1]]:
                best = None
                below = 99
                for pile in stacks:
                    if want[pile[-1]]:
                        b = pile[-2] if len(pile) > 2 else -1
                        if b < below:
                            below = b
                            best = pile
                r = best.pop()
                cnt[r] += 1
                want[r] = (cnt[r - 1] if r else 4) > cnt[r]
                if r < 12:
                    want[r + 1] = cnt[r] > cnt[r + 1]
            if k == n:
                break
            q = cards[k]
            k += 1
            if want[q]:
                cnt[q] += 1
                want[q] = (cnt[q - 1] if q else 4) > cnt[q]
                if q < 12:
                    want[q + 1] = cnt[q] > cnt[q + 1]
                continue
            # the holding pile for q, in pile_key()'s order
            best = None
            best_key = 99
            for pile in stacks:
                t = pile[-1]
                if q <= t < q + best_key:
                    best_key = t - q
                    best = pile
            if best is None:
                best_key = 1000
                for pile in stacks:
                    lower = 0
                    for r in pile:
                        if r < q:
                            lower += 1
                    if lower > 15:
                        lower = 15
                    if policy:
                        key = lower * 16 + q - pile[-1]
                    else:
                        key = (q - pile[-1]) * 16 + lower
                    if key < best_key:
                        best_key = key
                        best = pile
            best.append(q)
        deal.nodes += steps
        played = sum(cnt)
        if played == 52:
            return 52 * 64
        blocked = 0
        for pile in stacks:
            for i in range(2, len(pile)):
                if pile[i] > pile[i - 1]:
                    blocked += 1
        return played * 64 - blocked

    def finish(self, k, piles, cnt, line):
        """The line of a rollout from card k (score() with its moves kept)."""
        n = self.n
        while True:
            self.play(piles, cnt, line)
            if k == n:
                return line
            q = self.cards[k]
            if (cnt[q - 1] if q else 4) > cnt[q]:
                cnt[q] += 1
                line.append(_OP_CURRENT)
            else:
                p = min(range(4), key=lambda p: (self.pile_key(piles[p], q), p))
                piles[p].append(q)
                line.append(_OP_HOLD + p)
            k += 1
            if k < n:
                line.append(_OP_DRAW)

    def search(self):
        """Nested Monte Carlo search, level 1: a winning line of operations, or None (Limit
        at the deal's node limit). After each card it follows the child whose rollout did
        best so far; ties go to the policy's own choice, whose rollout is the best line's
        own continuation (the policy is deterministic), so this is the usual search that
        keeps the best line found."""
        piles, cnt, line = self.start()
        best = self.score(0, piles, cnt)
        if best == 52 * 64:
            return self.finish(0, piles, cnt, line)
        for k in range(self.n):
            kids = self.children(piles, cnt, line, k)
            follow = kids[0]  # the policy's choice: its rollout is the best line's
            for p2, c2, l2 in kids[1:]:
                s = self.score(k + 1, p2, c2)
                if s == 52 * 64:
                    return self.finish(k + 1, p2, c2, l2)
                if s > best:
                    best = s
                    follow = (p2, c2, l2)
            piles, cnt, line = follow
        return None

    def beam(self, width):
        """A winning line of operations, or None: after each card, the `width` positions
        whose rollouts did best are kept. A position's first child (the policy's choice)
        has the position's own rollout, which is not played again."""
        piles, cnt, line = self.start()
        s = self.score(0, piles, cnt)
        if s == 52 * 64:
            return self.finish(0, piles, cnt, line)
        layer = [(-s, 0, piles, cnt, line)]
        for k in range(self.n):
            scored = []
            seen = set()
            for parent, _, piles, cnt, line in layer:
                first = True
                for p2, c2, l2 in self.children(piles, cnt, line, k):
                    key = tuple(sorted(tuple(x) for x in p2))
                    if key in seen:
                        first = False
                        continue
                    seen.add(key)
                    if first:
                        s = -parent
                        first = False
                    else:
                        s = self.score(k + 1, p2, c2)
                        if s == 52 * 64:
                            return self.finish(k + 1, p2, c2, l2)
                    scored.append((-s, len(scored), p2, c2, l2))
            scored.sort()
            layer = scored[:width]
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


# The rollout searches tried in turn after the proof search: (policy, beam width; 0 for the
# nested search).
SEARCHES = ((0, 0), (1, 0), (0, 4), (1, 4), (0, 16), (1, 16), (0, 64), (1, 64), (0, 256), (1, 256),
            (0, 1024), (1, 1024), (0, 4096), (1, 4096))


def rollout_search(deal, policy, width, compiled):
    """One search of SEARCHES: a winning line of operations or None (Limit at the deal's node
    limit); in C when `compiled` is the library of tools/solvers/native.py, the same search."""
    rollouts = Rollouts(deal, policy)
    if compiled is None:
        return rollouts.beam(width) if width else rollouts.search()
    piles, cnt, line = rollouts.start()
    ops, deal.nodes, limited = native.search(compiled, rollouts.cards, piles, cnt, policy, width,
                                             deal.nodes, deal.node_limit)
    if limited:
        raise Limit()
    return None if ops is None else line + ops


def compiled_searches():
    """The C library of the rollout searches, or None (then they run in Python, said once)."""
    lib = native.library()
    if lib is None and not _warned:
        _warned.append(True)
        sys.stderr.write("the Sir Tommy rollout searches run in Python: about twenty times slower\n")
    return lib


_warned = []


def solve(game, node_limit, proof_nodes=PROOF_NODES, searches=SEARCHES, compiled=True):
    """(True, moves) for a win, (False, None) when none exists, (None, None) past the limit;
    and the nodes searched. compiled=False runs every search in Python."""
    deal = Deal(game, min(node_limit, proof_nodes))
    prover = Prover(deal)
    won = run(prover.prove, 20000)
    if won is not None:
        return won, prover.line, deal.nodes
    deal.node_limit = node_limit
    lib = compiled_searches() if compiled else None
    try:
        for policy, width in searches:
            ops = rollout_search(deal, policy, width, lib)
            if ops is not None:
                return True, moves_of(deal, ops), deal.nodes
    except Limit:
        pass
    return None, None, deal.nodes
