"""The Spite & Malice computer player: three levels, whole turns without allocation.

Levels (SpiteMalice.bot_level, 1..3; the default is 3):
  1  easy    a short-sighted search: at most 12 positions per stage, 36 per turn; against a
             keen opponent it blocks an opening the opponent's side stacks could take at once.
  2  medium  up to 40 positions per stage, 70 per turn; it blocks such an opening against any
             opponent.
  3  hard    up to 150 positions per stage and per turn, searched against the cards it cannot
             see: the opponent's next hand is dealt 30 times from the unseen cards (the cards
             it kept from the ranks that fit no centre stack), and every position is scored
             against all 30 by the opponent's best reply (whether some centre stack lets it play
             its payoff card with that hand, its side stacks and its kings, a hand that needs
             kings counting half for each, the other stacks half again; see
             TurnModel.threat_table),
             weighted by how keen the opponent is on its payoff pile (payoff cards played
             against turns taken, read from the table); and it values a completed stack less
             (W_COMPLETE_HARD), which plays fewer cards into the opponent's reach (docs/ai.md).

A turn is played in stages. A stage starts from the real position: if the payoff card fits it
is played (a wild king goes where it helps the opponent least). Otherwise a depth-first search
over a compact model (three centre sizes, the hand as ranks, the side stacks as pointers into
the game's own card arena) looks for the best sequence of plays from the side stacks and the
hand: one that ends by playing the payoff card is worth most; otherwise sequences are scored by
hand cards played (cards must move on: a played-out hand brings five new ones), side cards
played, completed stacks, wild kings spent (the last one in hand dearly), how near a centre
stack comes to the payoff card, and the openings left to the opponent. The search
stops at a payoff play or a played-out hand, since the next card is unknown; the stage's plan is
carried out and the next stage starts from what was revealed. The node budgets bound the cost
(tools/bench/bench_spite_malice.py measures it). The turn ends with the discard that costs least: an
empty side stack first (a card on top of a side stack is as playable as one in the hand), then a
descending run or a duplicate, else the side card least likely to be needed soon; never a king.

The planner (the turn's model and the search) is engine_core/ai/spite_malice_search.py; this
module drives whole turns, reads how keen the opponent is and chooses the discard. Nothing
here allocates after __init__.
"""

from engine_core import PLAYING
from engine_core.ai.spite_malice_search import (CENTER1, HAND, KING, PAYOFF, SIDE1, SRC_HAND,
                                                SRC_PAYOFF, SRC_SIDE, STRIDE, W_COMPLETE,
                                                W_COMPLETE_HARD, TurnModel)
from engine_core.game import V_STATUS, V_TURN

from micropython import const

_PAYOFF_SIZE = const(20)

# Search budgets (positions per stage, per turn) by level. On MicroPython a position costs about
# 50-60 k fuel and a move applied (refills, reshuffles) 300-650 k: each move is charged
# _APPLY_NODES positions, so a turn's cost stays bounded however long it is (the hard level's,
# whose search is the largest, at about what a move costs: 9, as 500 k is about 9 positions of
# 57 k; at 6 a turn of 22 moves cost 17.7 M); its sampling costs up to about 2 M more (make
# bench, docs/ai.md: the worst turns).
_STAGE_NODES = (0, 12, 40, 150)
_TURN_NODES = (0, 36, 70, 150)
_APPLY_NODES = (0, 4, 4, 9)
# By level: the most cards an opening for the opponent's payoff card may lack for the level to
# block it (-1: it does not block; 0: only an opening the opponent can take at once); a level
# that samples the opponent's hand blocks by the samples instead.
_BLOCK_REACH = (-1, 0, 0, 3)
# By level: what a completed centre stack is worth (spite_malice_search.W_COMPLETE).
_COMPLETE = (W_COMPLETE, W_COMPLETE, W_COMPLETE, W_COMPLETE_HARD)
# By level: the opponent hands sampled from the unseen cards (0: the threat table alone).
_SAMPLES = (0, 0, 0, 30)
# By level: the keenness (%) below which an opponent is not worth blocking.
_EAGER_FLOOR = (50, 50, 0, 0)


# Bot.work: where the work toward the turn's next move stands (none, the turn's start and its
# sampling done, a stage's search stopped part way, the move found: Bot.prepare), whether it
# began the turn (_FRESH), and at what level (<< _LEVEL). 0: none, for a new position.
_STARTED = const(1)
_SEARCHING = const(2)
_READY = const(3)
_STAGE = const(3)
_FRESH = const(4)
_LEVEL = const(3)
_ALL = const(1 << 28)  # prepare(): no bound on the positions searched (a small int on the device)


def _move(src, dst, arg):
    return src << 16 | dst << 8 | arg


class Bot:
    def __init__(self):
        self.model = TurnModel()
        self.plan_pos = 0
        self.turn_nodes = 0
        self.player = 0
        self.work = 0  # the work toward the next move (prepare): none
        self.move = 0  # the next move, once that work is _READY

    # --- the interface the game uses ---

    def play_turn(self, game, level):
        """Play the whole turn of the player to move (until the turn passes or the game ends);
        a turn whose first move prepare() has begun goes on from that work."""
        player = game.vars[V_TURN]
        fresh = True
        while game.vars[V_STATUS] == PLAYING and game.vars[V_TURN] == player:
            game.apply(self.step_move(game, level, fresh))
            fresh = False

    def step_move(self, game, level, fresh):
        """The next move of the turn of the player to move (fresh: the turn's first), as
        play_turn makes them, for the caller to apply: an interface shows a computer's turn
        move by move. What prepare() did toward it is used, not done again."""
        if fresh and not self.work & _FRESH:
            self.work = 0  # work toward a later move of a turn: this one starts afresh
        prepared = self.work != 0
        while not self.prepare(game, level, fresh, _ALL):
            pass
        self.work = 0
        if prepared and not game.is_legal(self.move):
            # Work begun for another position: whoever changes the position sets work to 0,
            # so this should never come; if it does, the move is found afresh.
            return self.step_move(game, level, True)
        self.turn_nodes -= _APPLY_NODES[level]  # the turn's budget pays for its moves too
        return self.move

    def prepare(self, game, level, fresh, nodes):
        """Work toward the next move of the turn (fresh: the turn's first) that step_move
        takes: the turn's start (its sampling), or up to `nodes` positions of a stage's
        search; True once the move is found. An interface calls it in the frames between the
        moves it shows, so that no frame holds a whole search: step_move then finds what it
        would have found without it (the position does not change meanwhile)."""
        work = self.work
        if work & _FRESH and work >> _LEVEL != level:
            work = 0  # the level changed since the turn's start: its work starts again
        stage = work & _STAGE
        if stage == _READY:
            return True
        model = self.model
        move = -1
        if stage == 0:
            self.work = _STARTED | (_FRESH if fresh else 0) | level << _LEVEL
            if fresh:
                self.start_turn(game, level)
                return False
            stage = _STARTED
        if stage == _STARTED:
            if self.plan_pos < model.plan_len:
                i = self.plan_pos
                self.plan_pos = i + 1
                move = self._code(game, model.plan_src[i], model.plan_cen[i])
            else:
                model.plan_len = 0
                self.plan_pos = 0
                model.load(game, self.player)
                k = model.payoff_center()
                if k >= 0:
                    move = self._code(game, SRC_PAYOFF, k)
                elif self.turn_nodes <= 0:
                    move = self._discard(game)
                else:
                    limit = _STAGE_NODES[level]
                    if limit > self.turn_nodes:
                        limit = self.turn_nodes
                    self.work += _SEARCHING - _STARTED
                    searched = model.plan(limit, nodes + 1)
        else:  # _SEARCHING
            searched = model.plan(0, model.nodes + nodes)
        if move < 0:
            if searched < 0:
                return False
            self.turn_nodes -= searched
            if model.plan_len > 0:
                self.plan_pos = 1
                move = self._code(game, model.plan_src[0], model.plan_cen[0])
            else:
                move = self._discard(game)
        self.move = move
        self.work = (self.work & ~_STAGE) | _READY
        return True

    def choose(self, game, level):
        """The move the bot would make now (a hint): a fresh plan's first move."""
        self.work = 0
        return self.step_move(game, level, True)

    def start_turn(self, game, level):
        me = game.vars[V_TURN]
        self.player = me
        self.model.plan_len = 0
        self.plan_pos = 0
        self.turn_nodes = _TURN_NODES[level]
        eager = 0
        reach = _BLOCK_REACH[level]
        if reach >= 0:
            floor = _EAGER_FLOOR[level]
            eager = (self._keenness(game, 1 - me) - floor) * 100 // (100 - floor)
        self.model.w_complete = _COMPLETE[level]
        self.model.threat_table(game, me, eager, reach, _SAMPLES[level])

    def _keenness(self, game, other):
        """How keen the opponent is on its payoff pile, in %, read from the table: payoff
        cards played against turns taken (every turn sends a card to a side stack), by
        Laplace's rule. A careless player is not worth blocking at the price of our own
        progress. Read from the position alone, so a loaded game plays on exactly as it
        would have (an opponent model kept from turn to turn would not be in the state)."""
        piles = game.piles
        played = _PAYOFF_SIZE - piles.size[PAYOFF + STRIDE * other]
        sides = 0
        for j in range(4):
            sides += piles.size[SIDE1 + STRIDE * other + j]
        return 100 * (played + 1) // (played + (sides >> 1) + 2)

    # --- moves in the real game ---

    def _code(self, game, src, k):
        me = self.player
        center = CENTER1 + k
        if src == SRC_PAYOFF:
            return _move(PAYOFF + STRIDE * me, center, 0)
        if src < SRC_HAND:
            return _move(SIDE1 + STRIDE * me + src - SRC_SIDE, center, 0)
        return _move(HAND + STRIDE * me, center, self._hand_kind(game, self.model.hr[src - SRC_HAND]))

    def _hand_kind(self, game, rank):
        piles = game.piles
        hand = HAND + STRIDE * self.player
        s = piles.start[hand]
        for i in range(piles.size[hand]):
            c = piles.cards[s + i]
            if c % 13 == rank:
                return c % 52
        return 0

    def _discard(self, game):
        """The hand-to-side play that ends the turn (the model holds the position)."""
        me = self.player
        hr = self.model.hr
        hand = HAND + STRIDE * me
        best_i = 0
        best_j = 0
        best = -100000
        for i in range(self.model.nh):
            r = hr[i]
            for j in range(4):
                v = self._discard_value(r, j)
                if v > best:
                    best = v
                    best_i = i
                    best_j = j
        return _move(hand, SIDE1 + STRIDE * me + best_j, self._hand_kind(game, hr[best_i]))

    def _discard_value(self, r, j):
        """How good discarding a card of rank r onto side stack j is.

        A card on top of a side stack is as playable as one in the hand, so an empty side
        stack costs nothing; covering a card costs that card's usefulness, unless the new card
        leads to it (a descending run unwinds card after card) or duplicates it.
        """
        if r == KING:
            return -1000  # a king is worth more in the hand than anywhere else
        top = self.model.side_rank(j)
        if top < 0:
            return 100 + self.model.distance(r)
        if top == KING:
            return -500
        if top == r + 1:
            return 120
        if top == r:
            return 110
        v = 40 - 3 * (12 - self.model.distance(top))
        if top < r:
            v -= 10  # a lower card under a higher one waits for the higher one's copy
        return v


def attach(game):
    """The game's computer player, which the game keeps as its bot (Game.attach_ai, at
    start-up)."""
    return Bot()
