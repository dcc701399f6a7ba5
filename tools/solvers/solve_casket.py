"""Casket solver: a depth-first search for a reachable win, with every card known.

It plays the deal's rule profile (game.rules): under profile 2 each reserve is a stack of any
size, under profile 1 it holds one card. A win it finds is real (replayed on the engine), a deal
whose reachable positions it exhausts is proven lost, and the rest are undecided.

How it keeps the search small (each shortcut keeps the search exact):
- cards are kinds (the two copies of a card are interchangeable), foundations are two heights
  per suit, and equal piles (reserves, body piles, lids: each pile of a group takes and gives
  the same cards) are one position whatever their order;
- safe foundation moves are made at once: a card may go up when both cards one rank lower of
  its suit are already up (nothing could ever need it as a body target), and Aces and twos
  always (engine_core/ai/casket.py); under profile 2 a reserve's cards below the top keep
  their place whether or not a card above them goes up, so the argument holds there too;
- a lone body card never moves to an empty body (nothing changes), and a card never moves
  into a reserve that holds the same pile it has (a second empty reserve, say);
- positions already visited are never searched again (a win is a reachable position, so a
  visited set keeps the search exact: a deal whose reachable positions are all visited is lost).
Moves are tried best first: foundations, lid cards onto bodies (each refill opens the casket),
the waste and reserves onto bodies, body cards that uncover something, draw, then the waste
into an empty body or the reserve it blocks least (a card above one needed later), lid cards
into reserves, and last the moves that only shuffle cards.
"""

from tools.solvers.solve_run import Limit, run

from engine_core.games.casket import BODY1, DRAW_MOVE, FOUND1, JEWELS, LID1, RES1, STOCK, WASTE
from engine_core.game import move_code

WASTE_SRC = 0  # source kinds
LID_SRC = 1
BODY_SRC = 2
RES_SRC = 3
TO_FOUND = 0  # destination kinds
TO_BODY = 1
TO_RES = 2
FAR = 99  # how soon an empty reserve's "top" is needed: never


def suit(k):
    return k // 13


def rank(k):
    return k % 13


class Solver:
    def __init__(self, game, node_limit):
        piles = game.piles
        kinds = [[piles.card(p, i) % 52 for i in range(piles.size[p])] for p in range(piles.count)]
        self.stacked = game.rules != 1
        self.draws = kinds[STOCK][::-1]  # draw order: the stock's top first
        self.drawn = 0
        self.waste = kinds[WASTE][-1] if kinds[WASTE] else -1
        self.jewels = kinds[JEWELS]  # refills come from the top (the end)
        self.lids = [kinds[LID1 + i][-1] if kinds[LID1 + i] else -1 for i in range(5)]
        self.bodies = [list(kinds[BODY1 + i]) for i in range(8)]
        self.res = [list(kinds[RES1 + i]) for i in range(3)]
        self.found = [[0, 0] for _ in range(4)]
        for f in range(8):
            pile = kinds[FOUND1 + f]
            if pile:
                heights = self.found[suit(pile[0])]
                heights[0 if heights[0] == 0 else 1] = len(pile)
        self.node_limit = node_limit
        self.nodes = 0
        self.seen = set()
        self.line = []  # (source pile id, destination kind, destination pile id) or DRAW

    # --- state ---

    def key(self):
        return (self.drawn, self.waste, len(self.jewels), tuple(sorted(self.lids)),
                tuple(sorted(map(tuple, self.bodies))), tuple(sorted(map(tuple, self.res))),
                tuple(tuple(sorted(h)) for h in self.found))

    def up_slot(self, k):
        """Which of the suit's two foundations takes kind k (0 or 1), or -1."""
        heights = self.found[suit(k)]
        r = rank(k)
        if heights[0] == r:
            return 0
        if heights[1] == r:
            return 1
        return -1

    def safe(self, k):
        r = rank(k)
        heights = self.found[suit(k)]
        return r <= 1 or (heights[0] >= r and heights[1] >= r)

    def need(self, k):
        """How far kind k is from going up: its rank above its suit's lower foundation."""
        heights = self.found[suit(k)]
        return rank(k) - min(heights[0], heights[1])

    # --- sources: (kind, index) -> card, take, put back ---

    def card_at(self, kind, i):
        if kind == WASTE_SRC:
            return self.waste
        if kind == LID_SRC:
            return self.lids[i]
        pile = self.res[i] if kind == RES_SRC else self.bodies[i]
        return pile[-1] if pile else -1

    def take(self, kind, i):
        """Remove the card; returns whether a jewel refilled the lid."""
        if kind == WASTE_SRC:
            self.waste = -1
        elif kind == LID_SRC:
            if self.jewels:
                self.lids[i] = self.jewels.pop()
                return True
            self.lids[i] = -1
        elif kind == RES_SRC:
            self.res[i].pop()
        else:
            self.bodies[i].pop()
        return False

    def put_back(self, kind, i, card, refilled):
        if kind == WASTE_SRC:
            self.waste = card
        elif kind == LID_SRC:
            if refilled:
                self.jewels.append(self.lids[i])
            self.lids[i] = card
        elif kind == RES_SRC:
            self.res[i].append(card)
        else:
            self.bodies[i].append(card)

    def pile_of(self, kind, i):
        return (WASTE, LID1 + i, BODY1 + i, RES1 + i)[kind] if kind else WASTE

    # --- moves ---

    def do(self, src, i, dst, j):
        card = self.card_at(src, i)
        refilled = self.take(src, i)
        if dst == TO_FOUND:
            self.found[suit(card)][j] += 1
        elif dst == TO_BODY:
            self.bodies[j].append(card)
        else:
            self.res[j].append(card)
        self.line.append((self.pile_of(src, i), dst, j))
        return (src, i, dst, j, card, refilled)

    def undo(self, record):
        src, i, dst, j, card, refilled = record
        if dst == TO_FOUND:
            self.found[suit(card)][j] -= 1
        elif dst == TO_BODY:
            self.bodies[j].pop()
        else:
            self.res[j].pop()
        self.put_back(src, i, card, refilled)
        self.line.pop()

    def sources(self):
        yield WASTE_SRC, 0
        for i in range(5):
            yield LID_SRC, i
        for i in range(3):
            yield RES_SRC, i
        for i in range(8):
            yield BODY_SRC, i

    def auto(self):
        done = []
        moved = True
        while moved:
            moved = False
            for src, i in self.sources():
                card = self.card_at(src, i)
                if card >= 0 and self.safe(card):
                    slot = self.up_slot(card)
                    if slot >= 0:
                        done.append(self.do(src, i, TO_FOUND, slot))
                        moved = True
        return done

    def _productive(self, card):
        """True when card could go up or onto a body top at once."""
        if self.up_slot(card) >= 0:
            return True
        for body in self.bodies:
            if body and suit(body[-1]) == suit(card) and rank(body[-1]) == rank(card) + 1:
                return True
        return False

    def reserves_for(self, card):
        """The reserves that take card, one per distinct pile, least blocking first: onto a
        top needed later than card (the nearest such), then an empty one, then the rest (the
        top needed latest first)."""
        if not self.stacked:
            for j in range(3):
                if not self.res[j]:
                    return [j]
            return []
        mine = self.need(card)
        ranked = []
        seen = set()
        for j in range(3):
            pile = self.res[j]
            t = tuple(pile)
            if t in seen:
                continue
            seen.add(t)
            if not pile:
                ranked.append((FAR, j))
                continue
            below = self.need(pile[-1])
            if below >= mine:
                ranked.append((below - mine, j))
            else:
                ranked.append((FAR + 1 + mine - below, j))
        ranked.sort()
        return [j for _, j in ranked]

    def moves(self):
        """(moves before a draw, moves after it), best first."""
        found_moves = []
        lid_moves = []
        body_moves = []
        spill = []
        idle = []  # moves that neither free the waste, open the casket nor uncover a play
        empty_body = -1
        for j in range(8):
            if not self.bodies[j]:
                empty_body = j
                break
        seen_lids = set()
        for src, i in self.sources():
            card = self.card_at(src, i)
            if card < 0:
                continue
            if src == LID_SRC:
                if card in seen_lids:
                    continue
                seen_lids.add(card)
            slot = self.up_slot(card)
            if slot >= 0:
                found_moves.append((src, i, TO_FOUND, slot))
            deep = (src == BODY_SRC and len(self.bodies[i]) > 1) or \
                   (src == RES_SRC and len(self.res[i]) > 1)
            for j in range(8):
                body = self.bodies[j]
                if body and (src != BODY_SRC or j != i) and suit(body[-1]) == suit(card) \
                        and rank(body[-1]) == rank(card) + 1:
                    move = (src, i, TO_BODY, j)
                    if src == LID_SRC:
                        lid_moves.append(move)
                    elif src != BODY_SRC or deep:
                        body_moves.append(move)
                    else:
                        spill.append(move)  # a lone body card: frees a body for later
                    break  # the other copy's pile is the same target
            # Into a reserve or an empty body: the waste (to let the next draw come), a lid
            # card (the casket opens), or a card that uncovers something playable.
            pile = self.bodies[i] if src == BODY_SRC else (self.res[i] if src == RES_SRC else None)
            useful = src == WASTE_SRC or src == LID_SRC or (deep and self._productive(pile[-2]))
            target = []
            if empty_body >= 0 and src != LID_SRC and (src == WASTE_SRC or deep or src == RES_SRC):
                target.append((src, i, TO_BODY, empty_body))
            if src != RES_SRC:
                for j in self.reserves_for(card):
                    target.append((src, i, TO_RES, j))
            if useful:
                spill += target
            else:
                idle += target
        return found_moves + lid_moves + body_moves, spill + idle

    def search(self):
        self.nodes += 1
        if self.nodes > self.node_limit:
            raise Limit()
        done = self.auto()
        if self.won():
            return True
        key = self.key()
        if key not in self.seen:
            self.seen.add(key)
            first, later = self.moves()
            for move in first:
                record = self.do(*move)
                if self.search():
                    return True
                self.undo(record)
            if self.waste < 0 and self.drawn < len(self.draws):
                self.waste = self.draws[self.drawn]
                self.drawn += 1
                self.line.append(DRAW_MOVE)
                if self.search():
                    return True
                self.line.pop()
                self.drawn -= 1
                self.waste = -1
            for move in later:
                record = self.do(*move)
                if self.search():
                    return True
                self.undo(record)
        for record in reversed(done):
            self.undo(record)
        return False

    def won(self):
        for heights in self.found:
            if heights[0] != 13 or heights[1] != 13:
                return False
        return True


def engine_moves(game, line):
    """The solver's line as engine move codes (a foundation move takes the first foundation
    of the engine that accepts the card), found by playing it on the game and undoing it."""
    from engine_core import cards
    codes = []
    piles = game.piles
    for step in line:
        if step == DRAW_MOVE:
            code = DRAW_MOVE
        else:
            src, dst, j = step
            if dst == TO_FOUND:
                c = piles.top(src)
                code = -1
                for f in range(FOUND1, FOUND1 + 8):
                    t = piles.top(f)
                    if (t < 0 and cards.rank(c) == 0) or (t >= 0 and cards.suit(t) == cards.suit(c)
                                                          and cards.rank(t) + 1 == cards.rank(c)):
                        code = move_code(src, f)
                        break
            elif dst == TO_BODY:
                code = move_code(src, BODY1 + j)
            else:
                code = move_code(src, RES1 + j)
        codes.append(code)
        game.apply(code)
    for _ in codes:
        game.undo()
    return codes


def solve(game, node_limit):
    """(True, moves) for a win, (False, None) when every reachable position was searched,
    (None, None) past the limit; and the nodes searched."""
    solver = Solver(game, node_limit)
    won = run(solver.search, node_limit + 1000)  # one frame per node at most
    if won is None:
        return None, None, solver.nodes
    if not won:
        return False, None, solver.nodes
    return True, engine_moves(game, solver.line), solver.nodes
