"""One Pile (rule profile 1, docs/rules/one_pile.md): a tiny patience for the tests, which
shows that a game is its own module, its rules page and one registry line. Its line carries
TEST_ONLY: a build for players does not offer it (tests/test_sixth_game.py shows it).

One deck. The stock is dealt one card onto the foundation; 'turn' (A on the stock) turns the
next stock card onto the waste. The waste's top card goes onto the foundation when its rank is
one above or one below the foundation's top (king and ace are neighbours). Won with all 52
cards on the foundation; lost when the stock is empty and the waste's top card cannot go.
"""

from engine_core import LOST, PLAYING, WON
from engine_core import cards
from engine_core.game import FACE_DOWN, Game, action_code, move_code
from engine_core.layout import ARG_ANY, COUNT, LARGE, MEDIUM, MICRO, SMALL, STACK, TINY

STOCK = 0
WASTE = 1
FOUND = 2
TURN_MOVE = action_code(0)
PLAY_MOVE = move_code(WASTE, FOUND)


class OnePile(Game):
    NAME = "one_pile"
    RULES_VERSION = 1
    MAX_MOVES = 2
    ACTIONS = ("turn",)

    def __init__(self, players=1, options=0):
        Game.__init__(self, players, options)
        self.add_pile("stock", 52, FACE_DOWN)
        self.add_pile("waste", 52)
        self.add_pile("found", 52)
        self.end_piles()

    def _deal(self):
        self.fill_and_shuffle(STOCK)
        self.piles.move(STOCK, FOUND, 1)

    def _fits(self):
        piles = self.piles
        if piles.size[WASTE] == 0:
            return False
        d = (cards.rank(piles.top(WASTE)) - cards.rank(piles.top(FOUND))) % 13
        return d == 1 or d == 12

    def legal_moves(self, out):
        if self.status() != PLAYING:
            return 0
        n = 0
        if self._fits():
            out[n] = PLAY_MOVE
            n += 1
        if self.piles.size[STOCK] > 0:
            out[n] = TURN_MOVE
            n += 1
        return n

    def _apply(self, move):
        if move == TURN_MOVE:
            self.move_top(STOCK, WASTE)
        else:
            self.move_top(WASTE, FOUND)

    def _compute_status(self):
        if self.piles.size[FOUND] == 52:
            return WON
        if self.piles.size[STOCK] > 0 or self._fits():
            return PLAYING
        return LOST


# Where the piles sit on each screen class (engine_core/layout.py says how to read it).
LAYOUT = {
    "foundations": ("found",),
    "actions": (("stock", "turn"),),
    "arg": ARG_ANY,
    SMALL: (
        ("stock", 3, 3, STACK | COUNT, 0, b""),
        ("waste", 40, 3, STACK | COUNT, 0, b""),
        ("found", 100, 3, STACK | COUNT, 0, b""),
    ),
    MEDIUM: (
        ("stock", 4, 14, STACK | COUNT, 0, b""),
        ("waste", 60, 14, STACK | COUNT, 0, b""),
        ("found", 150, 14, STACK | COUNT, 0, b""),
    ),
    LARGE: (
        ("stock", 6, 14, STACK | COUNT, 0, b""),
        ("waste", 80, 14, STACK | COUNT, 0, b""),
        ("found", 200, 14, STACK | COUNT, 0, b""),
    ),
    TINY: (
        ("stock", 2, 12, STACK | COUNT, 0, b""),
        ("waste", 40, 12, STACK | COUNT, 0, b""),
        ("found", 100, 12, STACK | COUNT, 0, b""),
    ),
    MICRO: (
        ("stock", 4, 14, STACK | COUNT, 0, b""),
        ("waste", 40, 14, STACK | COUNT, 0, b""),
        ("found", 80, 14, STACK | COUNT, 0, b""),
    ),
    "status": {SMALL: (2, 112, 30), MEDIUM: (2, 3, 236), LARGE: (2, 3, 316), TINY: (2, 2, 156),
               MICRO: (2, 1, 124)},
}

# The rules page (the pause menu's Rules), after the rule profile docs/rules/one_pile.md.
RULES_PAGE = (
    b"Goal: move all 52 cards onto the foundation.\n"
    b"A on the stock turns its next card onto the waste. The waste card goes onto the "
    b"foundation when its rank is one above or one below the foundation's top card; king "
    b"and ace are neighbours."
)
