"""The Spite & Malice planner: a compact model of one player's turn and a search over it.

The model holds the three centre sizes (a centre stack's value is its card count, so a king
simply fits anywhere), the hand as distinct ranks with counts, and the side stacks as pointers
into the game's own card arena, so that playing a side card uncovers the next one. plan()
searches depth first for the best sequence of plays from the side stacks and the hand: one that
ends by playing the payoff card is worth most; otherwise sequences are scored as plan() says (the
weights below). The search stops at a payoff play or a played-out hand, since the next card is
unknown. Moves on different centre stacks commute, so each order is tried once, and centre
stacks of equal size are tried once.

The search is a loop over preallocated frames, not recursion: deep Python recursion uses the C
stack, which is small on the device (and unchecked in the WebAssembly build the tests use).
Nothing here allocates after __init__.
"""

from array import array

from engine_core import rng

from micropython import const

# Pile ids of engine_core.games.spite_malice (not imported: that module imports the bot);
# the bot's driver (spite_malice.py) takes them from here.
CENTER1 = const(1)
HAND = const(4)
STOCK = const(0)
PAYOFF = const(5)
SIDE1 = const(6)
STRIDE = const(6)
STACK_FULL = const(12)  # a centre stack this big goes back into the stock

KING = const(12)
MAX_DEPTH = const(30)
SRC_PAYOFF = const(0)  # model move sources: 0 payoff, 1..4 side j + 1, 5.. hand rank slot + 5
SRC_SIDE = const(1)
SRC_HAND = const(5)
_PAIRS = const(30)  # room for a node's plays: 10 sources x 3 centres
NONE = const(255)  # no card: an empty side stack's top
_WORST = const(-(1 << 29))  # below every score

# Evaluation weights.
W_PAYOFF = const(100000)
W_SIDE = const(6)  # a side card played: side stacks are what clogs a player
W_HAND = const(10)  # a hand card played: cards move on, five new ones come sooner
W_EMPTY = const(30)  # the hand played out: five new cards now
W_KING = const(40)  # the last wild king in hand spent
W_SPARE_KING = const(5)  # another king spent (from the hand or a side stack)
W_NEAR = const(3)  # per step the nearest centre stack is closer to our payoff card
# A completed stack: twelve cards back into the stock, which keeps the deal alive (a stock that
# cannot supply a draw ends it drawn). 80 rather than 10: 67.1% / 62.1% of deals won against a
# random player instead of 64.9% / 61.1% (1,500 deals from two seeds each).
W_COMPLETE = const(80)
W_COMPLETE_HARD = const(20)  # the hard level's: see docs/ai.md
W_DRY = const(5000)  # the hand played out when the stock cannot refill it: the deal ends drawn
# A stock too short for the opponent's usual one card and then our own refill after the
# discard: keeping cards in hand buys turns. 68.2 / 64.5 / 65.3% of deals won against a random
# player instead of 67.1 / 62.1 / 63.1% (1,500 deals from three seeds each).
W_SHORT = const(50)
# A centre stack the opponent's payoff card could reach while lacking 0, 1, 2 or 3 cards (after
# its visible side cards), at full eagerness. Three times the earlier (800, 240, 60, 16): against
# the greedy reference player (tools/players/arena_spite_malice.py, 1000 deals) 720 wins, 108 losses
# instead of 701 and 140.
THREAT_BY_MISSING = (2400, 720, 180, 48)
# A sampled opponent reaching its payoff card (threat_table with samples), at full eagerness.
W_REACH = const(800)
# What a sampled hand that lets the opponent play its payoff card counts: this much when it needs
# no wild king, half as much for each king it must spend (players hold kings back: so does this
# one, W_KING). Against the payoff-aiming and blocking yardsticks (docs/ai.md, 4,000 decided games
# each, seeds 300000 on): 87.0% and 87.1% of the decided games, against 84.7% and 84.8% when every
# hand counts the same.
KING_SHARE = const(8)
# A stack above the opponent's payoff card is open to it too, the long way round: completed and
# built up again from an ace. Such a hand counts half (KING_SHARE >> 1, halved again for each
# king): against the chaining yardstick 76.8% of 3,000 decided games from seed 200000 (76.0% at
# full count) where it won 73.6% without it (docs/ai.md).
WRAP_SHIFT = const(1)
# rng.step's constants (M, A and Schrage's M // A, M % A), for the sampler's loop, which
# steps its generator written out: a call costs more than the step (tests/test_spite_malice.py)
_LEHMER_M = const(1073741789)
_LEHMER_A = const(32763)
_LEHMER_Q = const(32772)
_LEHMER_R = const(32753)
MAX_SAMPLES = const(30)  # the most opponent hands a level samples (reach[s] sums them in a byte)
_ALL = const(1 << 28)  # plan(): no stop before the limit (a small int on the device)
# A search stopped part way (plan) keeps its local values in `held`, at these places (and
# its best score and positions searched in best_value and nodes).
_H_LEFT = const(0)
_H_PLAYED = const(1)
_H_NKING = const(2)
_H_COMPLETED = const(3)
_H_DONE = const(4)
_H_DEPTH = const(5)
_H_K = const(6)
_H_LAST_SIDE = const(7)
_H_LIMIT = const(8)
_HELD = const(9)


class TurnModel:
    def __init__(self):
        self.arena = bytearray(0)  # the game's cards (its piles' arena), from load
        self.cen = bytearray(3)
        self.sp = bytearray(4)  # side stack sizes in the model
        self.side_start = array("H", [0] * 4)
        self.top = bytearray(4)  # the rank of each side stack's top in the model, NONE if empty
        self.hr = bytearray(5)  # distinct hand ranks
        self.hn = bytearray(5)  # how many of each
        self.nh = 0
        self.hand_left = 0
        self.payoff_rank = -1
        self.hand_kings = 0
        self.stock = 0  # the stock's size when the stage started
        self.threat = array("i", [0] * 12)
        # reach[s]: how many of the sampled hands let the opponent bring a centre stack of s
        # cards up to its payoff card and play it, each counted KING_SHARE, halved for each
        # wild king it spends (threat_table with samples)
        self.reach = bytearray(12)
        self.samples = 0  # hands sampled this turn (0: the threat table alone)
        self.unseen = bytearray(13)  # cards of each rank not in sight of the player
        self.pool = bytearray(104)  # the ranks of those cards, one a card, drawn from by swaps
        self.w_complete = W_COMPLETE  # what a completed stack is worth: the level's
        self.near = array("i", [0] * 12)  # near[s]: a centre of s cards against our payoff card
        self.cur_src = bytearray(MAX_DEPTH)
        self.cur_cen = bytearray(MAX_DEPTH)
        self.cand = bytearray(MAX_DEPTH * _PAIRS)  # search frames, one per depth
        self.count = bytearray(MAX_DEPTH)
        self.tried = bytearray(MAX_DEPTH)
        self.old_size = bytearray(MAX_DEPTH)
        self.cur_king = bytearray(MAX_DEPTH)  # 1: the play at this depth was a king
        self.plan_src = bytearray(MAX_DEPTH)
        self.plan_cen = bytearray(MAX_DEPTH)
        self.plan_len = 0
        self.best_value = 0
        self.nodes = 0
        self.held = array("h", [0] * _HELD)  # a search stopped part way (plan)

    # --- the model ---

    def load(self, game, me):
        """The model of player me's position (its own cards; the opponent's are not looked at)."""
        piles = game.piles
        self.arena = piles.cards
        for k in range(3):
            self.cen[k] = piles.size[CENTER1 + k]
        payoff = PAYOFF + STRIDE * me
        top = piles.top(payoff)
        self.payoff_rank = top % 13 if top >= 0 else -1
        for j in range(4):
            side = SIDE1 + STRIDE * me + j
            n = piles.size[side]
            self.sp[j] = n
            self.side_start[j] = piles.start[side]
            self.top[j] = piles.cards[piles.start[side] + n - 1] % 13 if n > 0 else NONE
        hand = HAND + STRIDE * me
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
        self.hand_kings = 0
        for t in range(nh):
            if self.hr[t] == KING:
                self.hand_kings = self.hn[t]
        self.stock = piles.size[STOCK]
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

    def side_rank(self, j):
        """The rank of the top card of side stack j in the model, or -1."""
        n = self.sp[j]
        if n == 0:
            return -1
        return self.arena[self.side_start[j] + n - 1] % 13

    def threat_table(self, game, me, eager, reach, samples=0):
        """threat[s]: how bad a centre stack of s cards is, given the opponent's payoff card
        and the cards its side stacks offer (each top, and a descending run under it).

        eager (0..100) scales it: how keen this opponent is to take such an opening; reach
        (0..3) is the most cards an opening may lack and still count. With samples (up to
        MAX_SAMPLES), the hand the opponent will hold is sampled that many times from the cards
        the player has not seen (the cards it kept from the ranks that fit no centre stack as it
        left them), and reach[s] sums the hands with which the opponent could play its payoff
        card on a stack of s cards (KING_SHARE each, halved for each wild king the hand must
        spend). A hand bridges every higher stack up to the payoff card with no more kings than
        a lower one (the cards a stack lacks include those a higher one lacks), so what any of
        the three stacks offers (an opponent's best reply, against each sample) is what the
        highest of them at or below the payoff card offers: the search counts the largest
        threat[s] of the three, and half the threat[s] of the other sizes (the payoff cards
        after that one go where they fit, as often onto another stack).
        """
        self.samples = 0
        for s in range(12):
            self.threat[s] = 0
            self.reach[s] = 0
        if eager <= 0:
            return
        piles = game.piles
        other = 1 - me
        top = piles.top(PAYOFF + STRIDE * other)
        if top < 0 or top % 13 == KING:
            return  # a king plays anywhere: nothing to block
        target = top % 13
        mask = 0
        kings = 0
        for j in range(4):
            side = SIDE1 + STRIDE * other + j
            i = piles.size[side] - 1
            if i >= 0 and piles.top(side) % 13 == KING:
                kings += 1
                continue
            # The top card, and the cards under it that rise one rank each (a descending run
            # as it was built): the centre takes them one after the other.
            start = piles.start[side]
            prev = -1
            while i >= 0:
                r = piles.cards[start + i] % 13
                if r == KING or (prev >= 0 and r != prev + 1):
                    break
                mask |= 1 << r
                prev = r
                i -= 1
        if samples > 0:
            self._sample_reach(game, me, target, mask, kings, samples)
            w = W_REACH * eager // 100  # all the samples reaching, at this eagerness
            for s in range(12):
                self.threat[s] = w * self.reach[s] // (samples * KING_SHARE)
            self.samples = samples
            return
        for s in range(target + 1):
            missing = 0
            for v in range(s, target):
                if not (mask >> v) & 1:
                    missing += 1
            missing -= kings
            if missing < 0:
                missing = 0
            if missing <= reach:
                self.threat[s] = THREAT_BY_MISSING[missing] * eager // 100

    def _sample_reach(self, game, me, target, mask, kings, samples):
        """Fill reach[0..target] from `samples` hands of five dealt from the unseen cards."""
        piles = game.piles
        cards_ = piles.cards
        unseen = self.unseen
        for r in range(13):
            unseen[r] = 8
        total = 104
        other = 1 - me
        # in sight: the centre, the player's hand, every side stack, both payoff cards
        for p in range(CENTER1, SIDE1 + STRIDE + 4):
            if p == HAND + STRIDE * other:
                continue
            n = piles.size[p]
            if n == 0:
                continue
            start = piles.start[p]
            if p == PAYOFF or p == PAYOFF + STRIDE:
                start += n - 1
                n = 1
            for i in range(start, start + n):
                unseen[cards_[i] % 13] -= 1
            total -= n
        pool = self.pool
        # The cards the opponent kept (its hand when its turn ended) are taken to fit no centre
        # stack as it left them, kings aside: a card that fits is one a player would rather
        # play (the greedy yardsticks always do). They are dealt from the ranks that fit none
        # (pool[0:loose]), the cards it will draw from all. Before its first turn (no side card
        # yet) its hand is a deal like any other.
        kept = 0
        fitting = 0  # the ranks the centre stacks take, a bit each
        for j in range(4):
            kept += piles.size[SIDE1 + STRIDE * other + j]
        if kept > 0:
            kept = piles.size[HAND + STRIDE * other]
            for k in range(3):
                fitting |= 1 << piles.size[CENTER1 + k]
        n = 0
        for r in range(13):
            if not (fitting >> r) & 1:
                for _ in range(unseen[r]):
                    pool[n] = r
                    n += 1
        loose = n
        for r in range(13):
            if (fitting >> r) & 1:
                for _ in range(unseen[r]):
                    pool[n] = r
                    n += 1
        # the sampler's generator starts from the position, so that a loaded game plays on
        # exactly as the game it was saved from
        x = 1 + total * 7919 + piles.size[STOCK] * 104729 + target * 13 + mask
        step = rng.step
        x = step(step(x))
        reach = self.reach
        if kept > loose:
            kept = loose
        draws = 5 if total > 0 else 0
        reach[target] = samples * KING_SHARE  # every hand reaches the payoff card's own stack
        low = (1 << target) - 1  # the ranks under the payoff card
        for _ in range(samples):
            hand = 0
            k = kings
            # five cards, each drawn from the whole pool (as from a deck this size, near
            # enough: no swaps to make and take back), the kept ones from pool[0:loose]
            for d in range(draws):
                x = _LEHMER_A * (x % _LEHMER_Q) - _LEHMER_R * (x // _LEHMER_Q)
                if x < 0:
                    x += _LEHMER_M
                r = pool[x % loose] if d < kept else pool[x % total]
                if r == KING:
                    k += 1
                else:
                    hand |= 1 << r
            avail = mask | hand
            missing = 0
            s = target - 1
            while s >= 0:
                if not (avail >> s) & 1:
                    missing += 1
                    if missing > k:
                        break  # lower stacks lack more still
                reach[s] += KING_SHARE >> missing
                s -= 1
            # A stack above the payoff card: completed (its ranks up to the queen), then built
            # up again from an ace; counted WRAP_SHIFT times halved, as the longer way round
            m = ~avail & low
            missing = 0
            while m and missing <= k:
                m &= m - 1  # a rank under the payoff card the hand lacks
                missing += 1
            s = 11
            while s > target and missing <= k:
                if not (avail >> s) & 1:
                    missing += 1
                    if missing > k:
                        break
                reach[s] += KING_SHARE >> (missing + WRAP_SHIFT)
                s -= 1

    def payoff_center(self):
        """The centre stack for the payoff card when it fits now, else -1.

        A wild king goes where it leaves the opponent the least; then onto a stack whose size
        another stack shares (stacks of different sizes give the next payoff card more places
        to fit); then onto the stack nearest completion (twelve cards back to the stock sooner:
        64% of deals won against a random player instead of 62%, 1000 deals each).
        """
        r = self.payoff_rank
        if r < 0:
            return -1
        cen = self.cen
        best = -1
        best_value = 0
        for k in range(3):
            s = cen[k]
            if r == s or r == KING:
                after = s + 1
                if after == 12:
                    after = 0
                v = 100 * (self.threat[s] - self.threat[after]) + s
                for t in range(3):
                    if t != k and cen[t] == s:
                        v += 50
                if best < 0 or v > best_value:
                    best = k
                    best_value = v
        return best

    # --- the search ---

    def plan(self, limit, stop=_ALL):
        """Depth-first search of at most `limit` positions from the model's position; the best
        sequence goes to plan_src/plan_cen/plan_len. Returns the positions searched, or -1
        when it stopped at `stop` positions searched in all: plan(0, stop) goes on with it (a
        search spread over frames; the model stays as the search left it until then).

        Iterative, with one frame per depth in preallocated arrays: deep Python recursion
        would use the C stack, which is small on the device (and unchecked in some builds).
        A frame holds its candidate plays, each src * 3 + centre (src 0 the payoff card,
        1..4 the side stacks, 5..9 the distinct hand ranks), and how many it has tried.
        Listing, making and taking back plays are written out here, on local names: a
        position is what the searches are counted in, and a method call or an attribute
        costs on the device what several local operations do.
        """
        if limit > 0:  # a new search
            held = self.held
            held[_H_LEFT] = self.hand_left
            held[_H_PLAYED] = 0  # what the cards played are worth (value)
            held[_H_NKING] = 0
            held[_H_COMPLETED] = 0
            held[_H_DONE] = 0
            held[_H_DEPTH] = 0
            held[_H_K] = 0  # the last play's centre stack
            held[_H_LAST_SIDE] = NONE  # the last play's side stack, if it came from one
            held[_H_LIMIT] = limit
            self.best_value = _WORST
            self.nodes = 1
            self.plan_len = 0
        held = self.held
        left = held[_H_LEFT]
        played = held[_H_PLAYED]
        nking = held[_H_NKING]
        completed = held[_H_COMPLETED]
        done = held[_H_DONE]
        depth = held[_H_DEPTH]
        k = held[_H_K]
        last_side = held[_H_LAST_SIDE]
        limit = held[_H_LIMIT]
        best = self.best_value
        nodes = self.nodes
        enter = True  # a new position at depth: score it, list its plays (where a search stops)
        tried = self.tried
        count = self.count
        cand = self.cand
        cen = self.cen
        sp = self.sp
        top = self.top
        start = self.side_start
        arena = self.arena
        hr = self.hr
        hn = self.hn
        old_size = self.old_size
        cur_src = self.cur_src
        cur_cen = self.cur_cen
        cur_king = self.cur_king
        payoff = self.payoff_rank
        nh = self.nh
        hand_kings = self.hand_kings
        stock0 = self.stock
        w_complete = self.w_complete
        near = self.near
        sampled = self.samples > 0
        threat = self.threat
        plan_src = self.plan_src
        plan_cen = self.plan_cen
        while True:
            if enter:
                if nodes >= stop:  # to be gone on with: plan(0, stop)
                    held[_H_LEFT] = left
                    held[_H_PLAYED] = played
                    held[_H_NKING] = nking
                    held[_H_COMPLETED] = completed
                    held[_H_DONE] = done
                    held[_H_DEPTH] = depth
                    held[_H_K] = k
                    held[_H_LAST_SIDE] = last_side
                    self.best_value = best
                    self.nodes = nodes
                    return -1
                enter = False
                # The position's score: what the cards played are worth (W_SIDE and W_HAND
                # each, less W_SPARE_KING a side king), then the terms below.
                v = played
                if nking > 0:  # the last king in hand is precious; spare ones clog the hand
                    if nking >= hand_kings:
                        v -= W_KING + W_SPARE_KING * (nking - 1)
                    else:
                        v -= W_SPARE_KING * nking
                if done:
                    v += W_PAYOFF
                stock = stock0
                if completed:
                    v += w_complete * completed
                    stock += STACK_FULL * completed
                if left == 0:
                    v += W_EMPTY
                    if stock < 5:
                        v -= W_DRY
                elif stock < 7 - left:
                    v -= W_SHORT
                c0 = cen[0]
                c1 = cen[1]
                c2 = cen[2]
                t = near[c0]  # the stack nearest our payoff card
                if near[c1] > t:
                    t = near[c1]
                if near[c2] > t:
                    t = near[c2]
                v += t
                if sampled:
                    # the sampled hands with which the opponent plays its payoff card on some
                    # stack: those of the highest stack up to the card (threat_table)
                    # and half what the other stacks offer (each size once): the payoff
                    # cards after that one go where they fit, as often onto another stack
                    t0 = threat[c0]
                    t1 = threat[c1] if c1 != c0 else 0
                    t2 = threat[c2] if c2 != c0 and c2 != c1 else 0
                    t = t0
                    if t1 > t:
                        t = t1
                    if t2 > t:
                        t = t2
                    v -= t + ((t0 + t1 + t2 - t) >> 1)
                else:
                    v -= threat[c0] + threat[c1] + threat[c2]
                if v > best:
                    best = v
                    for t in range(depth):
                        plan_src[t] = cur_src[t]
                        plan_cen[t] = cur_cen[t]
                    self.plan_len = depth
                tried[depth] = 0
                if done or left == 0 or depth >= MAX_DEPTH - 1:
                    count[depth] = 0  # a leaf: the next card is unknown
                    continue
                # The plays worth trying from the new position, into its frame. Plays on
                # different centre stacks commute, so they are tried in one order only: centre
                # index not below the last play's (k), except for the card a side play has just
                # uncovered. Of centre stacks with the same size only the first is tried.
                base = depth * _PAIRS
                if payoff >= 0 and (payoff == KING or payoff == c0 or payoff == c1 or payoff == c2):
                    # it fits: nothing else is worth trying first
                    if payoff == KING:
                        n = self._king_plays(base, SRC_PAYOFF, 0)
                    else:
                        cand[base] = SRC_PAYOFF * 3 + (0 if payoff == c0 else (1 if payoff == c1 else 2))
                        n = base + 1
                    count[depth] = n - base
                    continue
                # most cards fit nowhere (and NONE, an empty side stack, shifts it all out)
                fits = 1 << c0 | 1 << c1 | 1 << c2 | 1 << KING
                n = base
                for j in range(4):
                    r = top[j]
                    if (fits >> r) & 1:
                        src = j + SRC_SIDE
                        low = 0 if src == last_side else k
                        if r == KING:
                            n = self._king_plays(n, src, low)
                        elif low == 0 and r == c0:
                            cand[n] = src * 3
                            n += 1
                        elif low <= 1 and r == c1:
                            cand[n] = src * 3 + 1
                            n += 1
                        elif r == c2:
                            cand[n] = src * 3 + 2
                            n += 1
                for j in range(nh):
                    r = hr[j]
                    if (fits >> r) & 1 and hn[j] > 0:
                        src = j + SRC_HAND
                        if r == KING:
                            n = self._king_plays(n, src, k)
                        elif k == 0 and r == c0:
                            cand[n] = src * 3
                            n += 1
                        elif k <= 1 and r == c1:
                            cand[n] = src * 3 + 1
                            n += 1
                        elif r == c2:
                            cand[n] = src * 3 + 2
                            n += 1
                count[depth] = n - base
            i = tried[depth]
            if i >= count[depth] or nodes >= limit:
                if depth == 0:
                    break
                depth -= 1
                # take back the play made at this depth
                src = cur_src[depth]
                old = old_size[depth]
                if old == 11:
                    completed -= 1
                cen[cur_cen[depth]] = old
                if src == SRC_PAYOFF:
                    done = 0
                elif src < SRC_HAND:
                    j = src - SRC_SIDE
                    n = sp[j]
                    sp[j] = n + 1
                    top[j] = arena[start[j] + n] % 13
                    played -= W_SIDE
                    if cur_king[depth]:
                        played += W_SPARE_KING
                else:
                    hn[src - SRC_HAND] += 1
                    left += 1
                    played -= W_HAND
                    if cur_king[depth]:
                        nking -= 1
                continue
            tried[depth] = i + 1
            m = cand[depth * _PAIRS + i]
            src = m // 3
            k = m - 3 * src
            # make the play: src onto centre k
            old = cen[k]
            old_size[depth] = old
            if old == 11:
                cen[k] = 0  # the stack completes and goes into the stock
                completed += 1
            else:
                cen[k] = old + 1
            king = 0
            last_side = NONE
            if src == SRC_PAYOFF:
                done = 1
            elif src < SRC_HAND:
                j = src - SRC_SIDE
                played += W_SIDE
                if top[j] == KING:
                    king = 1
                    played -= W_SPARE_KING
                n = sp[j] - 1
                sp[j] = n
                top[j] = arena[start[j] + n - 1] % 13 if n > 0 else NONE
                last_side = src
            else:
                j = src - SRC_HAND
                played += W_HAND
                if hr[j] == KING:
                    king = 1
                    nking += 1
                hn[j] -= 1
                left -= 1
            cur_king[depth] = king
            cur_src[depth] = src
            cur_cen[depth] = k
            depth += 1
            nodes += 1
            enter = True
        self.best_value = best
        self.nodes = nodes
        return nodes

    def _king_plays(self, n, src, low):
        """Add at cand[n] the plays of a wild king from src onto centre stacks low..2, one
        per size; returns the next free index."""
        cen = self.cen
        for k in range(low, 3):
            s = cen[k]
            fresh = True
            for t in range(low, k):
                if cen[t] == s:
                    fresh = False
            if fresh:
                self.cand[n] = src * 3 + k
                n += 1
        return n

    def distance(self, r):
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
