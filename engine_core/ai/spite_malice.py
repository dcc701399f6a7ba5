"""The Spite & Malice computer player: three levels, whole turns without allocation.

Levels (SpiteMalice.bot_level, 1..3; the default is 3):
  1  easy    a short-sighted search: at most 12 positions per stage, 36 per turn.
  2  medium  a search of up to 40 positions per stage, 120 per turn.
  3  hard    up to 160 per stage, 420 per turn, and it blocks: it scores every centre stack
             by how near it leaves the opponent's payoff card (counting the opponent's visible
             side stacks), weighted by how often this opponent has taken such openings.

A turn is played in stages. A stage starts from the real position: if the payoff card fits it
is played (a wild king goes where it helps the opponent least). Otherwise a depth-first search
over a compact model (three centre sizes, the hand as ranks, the side stacks as pointers into
the game's own card arena) looks for the best sequence of plays from the side stacks and the
hand: one that ends by playing the payoff card is worth most; otherwise sequences are scored by
hand cards played (cards must move on: a played-out hand brings five new ones), side cards
played, completed stacks, wild kings spent (the last one in hand dearly), how near a centre
stack comes to the payoff card, and (level 3) the openings left to the opponent. The search
stops at a payoff play or a played-out hand, since the next card is unknown; the stage's plan is
carried out and the next stage starts from what was revealed. The node budgets bound the cost
(tools/bench_spite_malice.py measures it). The turn ends with the discard that costs least: an
empty side stack first (a card on top of a side stack is as playable as one in the hand), then a
descending run or a duplicate, else the side card least likely to be needed soon; never a king.

Nothing here allocates after __init__: the model and the search frames live in preallocated
bytearrays and arrays, and the search is a loop, not recursion (deep Python recursion uses the
C stack, which is small on the device).
"""

from array import array

from engine_core import PLAYING

try:
    from micropython import const
except ImportError:
    def const(x):
        return x

# Pile ids of engine_core.games.spite_malice (not imported: that module imports this one).
_CENTER1 = const(1)
_HAND = const(4)
_PAYOFF = const(5)
_SIDE1 = const(6)
_STRIDE = const(6)
_V_STATUS = const(0)
_V_TURN = const(2)

KING = const(12)
MAX_DEPTH = const(30)
SRC_PAYOFF = const(0)  # model move sources: 0 payoff, 1..4 side j + 1, 5.. hand rank slot + 5
SRC_SIDE = const(1)
SRC_HAND = const(5)
_PAIRS = const(30)  # room for a node's plays: 10 sources x 3 centres

# Node budgets (stage, turn) per level. On MicroPython a search node costs about 90 k fuel and
# a move applied (refills, reshuffles) up to a few hundred k: each move is charged APPLY_NODES.
_STAGE_NODES = (0, 12, 40, 120)
_TURN_NODES = (0, 36, 120, 300)
APPLY_NODES = const(4)

# Evaluation weights.
W_PAYOFF = const(100000)
W_SIDE = const(6)  # a side card played: side stacks are what clogs a player
W_HAND = const(10)  # a hand card played: cards move on, five new ones come sooner
W_EMPTY = const(30)  # the hand played out: five new cards now
W_KING = const(40)  # the last wild king in hand spent
W_SPARE_KING = const(5)  # another king spent (from the hand or a side stack)
W_NEAR = const(3)  # per step the nearest centre stack is closer to our payoff card
W_COMPLETE = const(10)  # a completed stack: twelve cards back into the stock
# A centre stack the opponent's payoff card could reach while lacking 0, 1, 2 or 3 cards (after
# its visible side cards), scaled by how eager this opponent is; 0, 1, 2, 3 missing cards:
THREAT_BY_MISSING = (800, 240, 60, 16)
EAGER_FLOOR = const(50)  # % of openings taken below which an opponent is not worth blocking


def _move(src, dst, arg):
    return src << 16 | dst << 8 | arg


class Bot:
    def __init__(self):
        self.game = None
        self.cen = bytearray(3)
        self.sp = bytearray(4)  # side stack sizes in the model
        self.side_start = array("H", [0] * 4)
        self.hr = bytearray(5)  # distinct hand ranks
        self.hn = bytearray(5)  # how many of each
        self.nh = 0
        self.hand_left = 0
        self.payoff_rank = -1
        self.payoff_done = 0
        self.nside = 0
        self.nhand = 0
        self.nking = 0
        self.nside_king = 0
        self.hand_kings = 0
        self.threat = array("i", [0] * 12)
        self.chances = array("i", [0, 0])  # per bot seat: openings left to the opponent ...
        self.taken = array("i", [0, 0])  # ... and how many it took
        self.watch_fit = bytearray(2)
        self.watch_size = bytearray(2)
        self.near = array("i", [0] * 12)  # near[s]: a centre of s cards against our payoff card
        self.completed = 0
        self.cur_src = bytearray(MAX_DEPTH)
        self.cur_cen = bytearray(MAX_DEPTH)
        self.cand = bytearray(MAX_DEPTH * _PAIRS)  # search frames, one per depth
        self.count = bytearray(MAX_DEPTH)
        self.tried = bytearray(MAX_DEPTH)
        self.old_size = bytearray(MAX_DEPTH)
        self.cur_king = bytearray(MAX_DEPTH)
        self.plan_src = bytearray(MAX_DEPTH)
        self.plan_cen = bytearray(MAX_DEPTH)
        self.plan_len = 0
        self.plan_pos = 0
        self.best_value = 0
        self.nodes = 0
        self.turn_nodes = 0
        self.player = 0

    # --- the interface the game uses ---

    def play_turn(self, game, level):
        """Play the whole turn of the player to move (until the turn passes or the game ends)."""
        player = game.vars[_V_TURN]
        self._observe(game, player)
        self.start_turn(game, level)
        while game.vars[_V_STATUS] == PLAYING and game.vars[_V_TURN] == player:
            game.apply(self.next_move(game, level))
            self.turn_nodes -= APPLY_NODES  # the turn's budget pays for its moves too
        self._watch(game, player)

    def forget(self):
        """A new opponent (a new match): forget how it answered to openings."""
        for p in range(2):
            self.chances[p] = 0
            self.taken[p] = 0
            self.watch_fit[p] = 0

    def _watch(self, game, me):
        """After our turn: note whether the opponent's payoff card can be played now."""
        piles = game.piles
        payoff = _PAYOFF + _STRIDE * (1 - me)
        top = piles.top(payoff)
        self.watch_fit[me] = 0
        if game.vars[_V_STATUS] != PLAYING or top < 0:
            return
        r = top % 13
        for k in range(3):
            if r == KING or r == piles.size[_CENTER1 + k]:
                self.watch_fit[me] = 1
        self.watch_size[me] = piles.size[payoff]

    def _observe(self, game, me):
        """Before our turn: did the opponent take the opening we left it?"""
        if self.watch_fit[me]:
            self.chances[me] += 1
            if game.piles.size[_PAYOFF + _STRIDE * (1 - me)] < self.watch_size[me]:
                self.taken[me] += 1
            if self.chances[me] > 1000:  # keep the counts small; the ratio is what matters
                self.chances[me] = self.chances[me] >> 1
                self.taken[me] = self.taken[me] >> 1
        self.watch_fit[me] = 0

    def choose(self, game, level):
        """The move the bot would make now (a hint): a fresh plan's first move."""
        self.start_turn(game, level)
        return self.next_move(game, level)

    def start_turn(self, game, level):
        self.game = game
        self.player = game.vars[_V_TURN]
        self.plan_len = 0
        self.plan_pos = 0
        self.turn_nodes = _TURN_NODES[level]
        self._threat_table(game, level)

    def next_move(self, game, level):
        """The next move of the turn; plans a new stage when the current plan is used up."""
        if self.plan_pos < self.plan_len:
            i = self.plan_pos
            self.plan_pos = i + 1
            return self._code(game, self.plan_src[i], self.plan_cen[i])
        self.plan_len = 0
        self.plan_pos = 0
        self._load(game)
        k = self._payoff_center(level)
        if k >= 0:
            return self._code(game, SRC_PAYOFF, k)
        if self.turn_nodes > 0:
            self._plan(level)
            if self.plan_len > 0:
                self.plan_pos = 1
                return self._code(game, self.plan_src[0], self.plan_cen[0])
        return self._discard(game, level)

    # --- the model ---

    def _load(self, game):
        piles = game.piles
        me = self.player
        for k in range(3):
            self.cen[k] = piles.size[_CENTER1 + k]
        payoff = _PAYOFF + _STRIDE * me
        top = piles.top(payoff)
        self.payoff_rank = top % 13 if top >= 0 else -1
        self.payoff_done = 0
        for j in range(4):
            side = _SIDE1 + _STRIDE * me + j
            self.sp[j] = piles.size[side]
            self.side_start[j] = piles.start[side]
        hand = _HAND + _STRIDE * me
        hs = piles.start[hand]
        nh = 0
        for i in range(piles.size[hand]):
            r = piles.cards[hs + i] % 13
            found = False
            for t in range(nh):
                if self.hr[t] == r:
                    self.hn[t] += 1
                    found = True
            if not found:
                self.hr[nh] = r
                self.hn[nh] = 1
                nh += 1
        self.nh = nh
        self.hand_left = piles.size[hand]
        self.nside = 0
        self.nhand = 0
        self.nking = 0
        self.nside_king = 0
        self.hand_kings = 0
        for t in range(nh):
            if self.hr[t] == KING:
                self.hand_kings = self.hn[t]
        self.completed = 0
        self._near_table()

    def _near_table(self):
        p = self.payoff_rank
        for s in range(12):
            if p < 0 or p == KING:
                d = 0
            elif s <= p:
                d = p - s
            else:
                d = 12 - s + p
            self.near[s] = W_NEAR * (12 - d)

    def _side_rank(self, j):
        n = self.sp[j]
        if n == 0:
            return -1
        return self.game.piles.cards[self.side_start[j] + n - 1] % 13

    def _threat_table(self, game, level):
        """threat[s]: how bad a centre stack of s cards is, given the opponent's payoff card."""
        for s in range(12):
            self.threat[s] = 0
        if level < 3:
            return
        piles = game.piles
        other = 1 - game.vars[_V_TURN]
        top = piles.top(_PAYOFF + _STRIDE * other)
        if top < 0 or top % 13 == KING:
            return  # a king plays anywhere: nothing to block
        target = top % 13
        me = game.vars[_V_TURN]
        # How often this opponent plays its payoff card when it can (Laplace's rule, in %):
        # a careless one is not worth blocking at the price of our own progress.
        eager = 100 * (self.taken[me] + 1) // (self.chances[me] + 2) - EAGER_FLOOR
        if eager <= 0:
            return
        mask = 0
        kings = 0
        for j in range(4):
            c = piles.top(_SIDE1 + _STRIDE * other + j)
            if c >= 0:
                if c % 13 == KING:
                    kings += 1
                else:
                    mask |= 1 << (c % 13)
        for s in range(target + 1):
            missing = 0
            for v in range(s, target):
                if not (mask >> v) & 1:
                    missing += 1
            missing -= kings
            if missing < 0:
                missing = 0
            if missing < 4:
                self.threat[s] = THREAT_BY_MISSING[missing] * eager // (100 - EAGER_FLOOR)

    def _value(self):
        v = W_SIDE * self.nside + W_HAND * self.nhand - W_SPARE_KING * self.nside_king
        n = self.nking
        if n > 0:  # the last king in hand is precious; spare ones clog the hand
            if n >= self.hand_kings:
                v -= W_KING + W_SPARE_KING * (n - 1)
            else:
                v -= W_SPARE_KING * n
        if self.payoff_done:
            v += W_PAYOFF
        if self.hand_left == 0:
            v += W_EMPTY
        v += W_COMPLETE * self.completed
        t = self.threat
        cen = self.cen
        near = self.near
        best = near[cen[0]]
        if near[cen[1]] > best:
            best = near[cen[1]]
        if near[cen[2]] > best:
            best = near[cen[2]]
        return v + best - t[cen[0]] - t[cen[1]] - t[cen[2]]

    def _payoff_center(self, level):
        """The centre stack for the payoff card when it fits now, else -1."""
        r = self.payoff_rank
        if r < 0:
            return -1
        best = -1
        best_threat = 0
        for k in range(3):
            s = self.cen[k]
            if r == s or r == KING:
                after = s + 1
                if after == 12:
                    after = 0
                t = self.threat[after] - self.threat[s]
                if best < 0 or t < best_threat:
                    best = k
                    best_threat = t
        return best

    # --- the search ---

    def _plan(self, level):
        """Depth-first search from the model's position; the best sequence goes to plan_*.

        Iterative, with one frame per depth in preallocated arrays: deep Python recursion
        would use the C stack, which is small on the device (and unchecked in some builds).
        A frame holds its candidate plays, each src * 3 + centre (src 0 the payoff card,
        1..4 the side stacks, 5..9 the distinct hand ranks), and how many it has tried.
        """
        limit = _STAGE_NODES[level]
        if limit > self.turn_nodes:
            limit = self.turn_nodes
        self.nodes = 1
        self.best_value = self._value()
        self.plan_len = 0
        tried = self.tried
        count = self.count
        cand = self.cand
        depth = 0
        self._enter(0, 0, 255)
        while True:
            i = tried[depth]
            if i >= count[depth] or self.nodes >= limit:
                if depth == 0:
                    break
                depth -= 1
                self._take_back(depth)
                continue
            tried[depth] = i + 1
            m = cand[depth * _PAIRS + i]
            src = m // 3
            k = m - 3 * src
            self._make(depth, src, k)
            depth += 1
            self.nodes += 1
            v = self._value()
            if v > self.best_value:
                self.best_value = v
                for t in range(depth):
                    self.plan_src[t] = self.cur_src[t]
                    self.plan_cen[t] = self.cur_cen[t]
                self.plan_len = depth
            if SRC_SIDE <= src < SRC_HAND:
                self._enter(depth, k, src)
            else:
                self._enter(depth, k, 255)
        self.turn_nodes -= self.nodes

    def _enter(self, depth, last, last_side):
        """List the plays worth trying from a new node into its frame.

        Plays on different centre stacks commute, so they are tried in one order only: centre
        index not below the last play's, except for the card a side play has just uncovered.
        Of centre stacks with the same size only the first is tried.
        """
        self.tried[depth] = 0
        self.count[depth] = 0
        if self.payoff_done or self.hand_left == 0 or depth >= MAX_DEPTH - 1:
            return  # a leaf: the next card is unknown
        cen = self.cen
        r = self.payoff_rank
        if r >= 0 and (r == KING or r == cen[0] or r == cen[1] or r == cen[2]):
            self._add_plays(depth, SRC_PAYOFF, r, 0)  # it fits: nothing else is worth trying first
            return
        c0 = cen[0]
        c1 = cen[1]
        c2 = cen[2]
        sp = self.sp
        arena = self.game.piles.cards
        for j in range(4):
            n = sp[j]
            if n > 0:
                r = arena[self.side_start[j] + n - 1] % 13
                # most cards fit nowhere: test that inline before the call
                if r == KING or r == c0 or r == c1 or r == c2:
                    if j + SRC_SIDE == last_side:
                        self._add_plays(depth, j + SRC_SIDE, r, 0)
                    else:
                        self._add_plays(depth, j + SRC_SIDE, r, last)
        hr = self.hr
        hn = self.hn
        for i in range(self.nh):
            r = hr[i]
            if hn[i] > 0 and (r == KING or r == c0 or r == c1 or r == c2):
                self._add_plays(depth, i + SRC_HAND, r, last)

    def _add_plays(self, depth, src, r, low):
        """Add the plays of a card of rank r from src onto centre stacks low..2."""
        cen = self.cen
        n = self.count[depth]
        base = depth * _PAIRS
        if r != KING:
            for k in range(low, 3):
                if cen[k] == r:
                    self.cand[base + n] = src * 3 + k
                    self.count[depth] = n + 1
                    return
            return
        for k in range(low, 3):
            s = cen[k]
            fresh = True
            for t in range(low, k):
                if cen[t] == s:
                    fresh = False
            if fresh:
                self.cand[base + n] = src * 3 + k
                n += 1
        self.count[depth] = n

    def _make(self, depth, src, k):
        """Play src onto centre k in the model (taken back by _take_back)."""
        cen = self.cen
        old = cen[k]
        self.old_size[depth] = old
        if old == 11:
            cen[k] = 0  # the stack completes and goes into the stock
            self.completed += 1
        else:
            cen[k] = old + 1
        king = 0
        if src == SRC_PAYOFF:
            self.payoff_done = 1
        elif src < SRC_HAND:
            j = src - SRC_SIDE
            if self._side_rank(j) == KING:
                king = 2
                self.nside_king += 1
            self.sp[j] -= 1
            self.nside += 1
        else:
            i = src - SRC_HAND
            if self.hr[i] == KING:
                king = 1
                self.nking += 1
            self.hn[i] -= 1
            self.hand_left -= 1
            self.nhand += 1
        self.cur_king[depth] = king
        self.cur_src[depth] = src
        self.cur_cen[depth] = k

    def _take_back(self, depth):
        src = self.cur_src[depth]
        old = self.old_size[depth]
        if old == 11:
            self.completed -= 1
        self.cen[self.cur_cen[depth]] = old
        king = self.cur_king[depth]
        if king == 1:
            self.nking -= 1
        elif king == 2:
            self.nside_king -= 1
        if src == SRC_PAYOFF:
            self.payoff_done = 0
        elif src < SRC_HAND:
            self.sp[src - SRC_SIDE] += 1
            self.nside -= 1
        else:
            self.hn[src - SRC_HAND] += 1
            self.hand_left += 1
            self.nhand -= 1

    # --- moves in the real game ---

    def _code(self, game, src, k):
        me = self.player
        center = _CENTER1 + k
        if src == SRC_PAYOFF:
            return _move(_PAYOFF + _STRIDE * me, center, 0)
        if src < SRC_HAND:
            return _move(_SIDE1 + _STRIDE * me + src - SRC_SIDE, center, 0)
        return _move(_HAND + _STRIDE * me, center, self._hand_kind(game, self.hr[src - SRC_HAND]))

    def _hand_kind(self, game, rank):
        piles = game.piles
        hand = _HAND + _STRIDE * self.player
        s = piles.start[hand]
        for i in range(piles.size[hand]):
            c = piles.cards[s + i]
            if c % 13 == rank:
                return c % 52
        return 0

    def _discard(self, game, level):
        """The hand-to-side play that ends the turn."""
        me = self.player
        hand = _HAND + _STRIDE * me
        best_i = 0
        best_j = 0
        best = -100000
        for i in range(self.nh):
            r = self.hr[i]
            for j in range(4):
                v = self._discard_value(r, j)
                if v > best:
                    best = v
                    best_i = i
                    best_j = j
        return _move(hand, _SIDE1 + _STRIDE * me + best_j, self._hand_kind(game, self.hr[best_i]))

    def _discard_value(self, r, j):
        """How good discarding a card of rank r onto side stack j is (level 2 and 3).

        A card on top of a side stack is as playable as one in the hand, so an empty side
        stack costs nothing; covering a card costs that card's usefulness, unless the new card
        leads to it (a descending run unwinds card after card) or duplicates it.
        """
        if r == KING:
            return -1000  # a king is worth more in the hand than anywhere else
        top = self._side_rank(j)
        if top < 0:
            return 100 + self._distance(r)
        if top == KING:
            return -500
        if top == r + 1:
            return 120
        if top == r:
            return 110
        v = 40 - 3 * (12 - self._distance(top))
        if top < r:
            v -= 10  # a lower card under a higher one waits for the higher one's copy
        return v

    def _distance(self, r):
        """How many cards the nearest centre stack lacks before a card of rank r fits."""
        best = 12
        for k in range(3):
            s = self.cen[k]
            if r >= s:
                d = r - s
            else:
                d = r + 12 - s
            if d < best:
                best = d
        return best
