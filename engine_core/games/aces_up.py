"""Aces Up, rule profile 1 (docs/rules/aces_up.md).

Four columns; discard a column's top card when another top card of the same suit outranks
it (aces high); move a top card into an empty column only from a column of two or more;
deal four new cards only when nothing else can be done. Won with 48 cards discarded.
"""

from engine_core import LOST, PLAYING, WON
from engine_core import cards
from engine_core import reasons as why
from engine_core.game import FACE_DOWN, V_STATUS, Game, move_code

from micropython import const

# engine_core/layout.py's words, as this module's own constants: LAYOUT's tuples are then
# constants, which stay in flash when frozen (built from imported names, every slot
# would be a tuple made in RAM at import). Their values must stay equal to layout.py's.
ARG_ANY = const(0)
COUNT = const(4)
DOWN = const(1)
LARGE = const(2)
MEDIUM = const(1)
MICRO = const(5)
RIGHT = const(2)
SMALL = const(0)
STACK = const(0)
TINY = const(4)

STOCK = const(0)
COL1 = const(1)
COL4 = const(4)
DISCARD = const(5)
DEAL = const(0)  # action index
DEAL_MOVE = const(0xFF0000)  # action_code(DEAL)

# engine_core/reasons.py's codes that Aces Up words its own way, as this module's constants
# (so that WORDS is a constant the frozen firmware keeps in flash; tests/test_reasons.py holds
# them equal to reasons.py's).
WHY_STOCK_EMPTY = const(3)
WHY_NOT_THERE = const(8)
WHY_NO_HOME = const(41)

# The reasons in Aces Up's words: (code, screen words, protocol words); None: the shared ones.
WORDS = (
    (WHY_STOCK_EMPTY, None, "the stock is empty"),
    (WHY_NOT_THERE, None, "cards move from a column to the discard or to an empty column"),
    (WHY_NO_HOME, b"Nothing of its suit outranks it yet", "nothing of its suit outranks it yet"),
)


def value(card):
    """Rank for comparisons, aces high: 2 -> 1 .. king -> 12, ace -> 13."""
    r = cards.rank(card)
    if r == 0:
        return 13
    return r


# Lookup tables built once at import: indexing a bytes object is far cheaper on MicroPython
# than two function calls per card (legal_moves went from ~184,000 to ~73,000 fuel).
SUIT_OF = bytes([cards.suit(c) for c in range(52)])
VALUE_OF = bytes([value(c) for c in range(52)])


class AcesUp(Game):
    NAME = "aces_up"
    RULES_VERSION = 1
    MAX_MOVES = 16  # 4 discards + 12 moves to empty columns + deal, never all at once
    ACTIONS = ("deal",)
    WORDS = WORDS

    def __init__(self, players=1, options=0):
        Game.__init__(self, players, options)
        self.add_pile("stock", 52, FACE_DOWN)
        for i in range(4):
            self.add_pile("col" + str(i + 1), 52)
        self.add_pile("discard", 52)
        self.end_piles()
        self.best = bytearray(4)  # per suit: the highest exposed value
        self.attach_ai()  # hints and auto-play (engine_core/ai/aces_up.py)

    def _deal(self):
        self.fill_and_shuffle(STOCK)
        for col in range(COL1, COL4 + 1):
            self.piles.move(STOCK, col, 1)

    def _scan_tops(self):
        """Fill self.best with the highest exposed value of each suit (0: none exposed)."""
        piles = self.piles
        best = self.best
        for s in range(4):
            best[s] = 0
        for col in range(COL1, COL4 + 1):
            n = piles.size[col]
            if n:
                c = piles.cards[piles.start[col] + n - 1]
                s = SUIT_OF[c]
                if VALUE_OF[c] > best[s]:
                    best[s] = VALUE_OF[c]

    def _discardable(self, col):
        """True when the top of col may be discarded (after _scan_tops)."""
        piles = self.piles
        n = piles.size[col]
        if n == 0:
            return False
        c = piles.cards[piles.start[col] + n - 1]
        return VALUE_OF[c] < self.best[SUIT_OF[c]]

    def discardable(self, col):
        """True when the top card of col may be discarded."""
        self._scan_tops()
        return self._discardable(col)

    def _empty_column(self):
        for col in range(COL1, COL4 + 1):
            if self.piles.size[col] == 0:
                return col
        return -1

    def legal_moves(self, out):
        if self.vars[V_STATUS] != PLAYING:
            return 0
        piles = self.piles
        n = 0
        self._scan_tops()
        for col in range(COL1, COL4 + 1):
            if self._discardable(col):
                out[n] = move_code(col, DISCARD)
                n += 1
        if self._empty_column() >= 0:
            for src in range(COL1, COL4 + 1):
                if piles.size[src] >= 2:
                    for dst in range(COL1, COL4 + 1):
                        if piles.size[dst] == 0:
                            out[n] = move_code(src, dst)
                            n += 1
        if n == 0 and piles.size[STOCK] > 0:
            out[n] = DEAL_MOVE
            n += 1
        return n

    def _apply(self, move):
        if move == DEAL_MOVE:
            for col in range(COL1, COL4 + 1):
                if self.piles.size[STOCK] > 0:  # a loaded stock need not hold a multiple of 4
                    self.move_top(STOCK, col)
        else:
            self.move_top(move >> 16, (move >> 8) & 0xFF)

    def _compute_status(self):
        if self.piles.size[DISCARD] == 48 and self._only_aces_left():
            return WON
        if self.piles.size[STOCK] > 0:
            return PLAYING
        self._scan_tops()
        for col in range(COL1, COL4 + 1):
            if self._discardable(col):
                return PLAYING
        if self._empty_column() >= 0:
            for col in range(COL1, COL4 + 1):
                if self.piles.size[col] >= 2:
                    return PLAYING
        return LOST

    def refusal(self, move):
        """Why a move is illegal: a code of engine_core/reasons.py (words: WORDS, or shared)."""
        if self.vars[V_STATUS] != PLAYING:
            return why.OVER
        piles = self.piles
        if move == DEAL_MOVE:
            return why.STOCK_EMPTY if piles.size[STOCK] == 0 else why.DEAL_WAIT
        src = move >> 16
        dst = (move >> 8) & 0xFF
        if src < COL1 or src > COL4 or dst == STOCK:
            return why.NOT_THERE
        if piles.size[src] == 0:
            return why.EMPTY
        if dst == DISCARD:
            return why.OUTRANK
        if piles.size[dst] > 0:
            return why.NOT_EMPTY
        return why.ONLY_CARD

    def _only_aces_left(self):
        """The four cards not discarded are the aces (always so in play; a loaded position
        may have put an ace on the discard)."""
        piles = self.piles
        for col in range(COL1, COL4 + 1):
            for i in range(piles.size[col]):
                if cards.rank(piles.card(col, i)) != cards.ACE:
                    return False
        return True

    def check_position(self):
        # A loaded position need not be one play could reach (a hand-made stock of any size,
        # an ace on the discard): the rules still apply to it, and its deals may grow a column
        # past the 13 cards of a dealt game. Whatever play reaches from it must load again, so
        # a column may hold what its pile holds (load checks that), no fewer.
        return ""


# Where the piles sit on each screen class (engine_core/layout.py says how to read it).
LAYOUT = {
    "foundations": ("discard",),
    "actions": (("stock", "deal"),),
    "arg": ARG_ANY,
    # 240x135: each column is a row fanned to the right; stock and discard on the left.
    SMALL: (
        ("stock", 3, 3, STACK | COUNT, 0, b""),
        ("discard", 3, 56, STACK | COUNT, 0, b""),
        ("col1", 34, 2, RIGHT, 204, b""),
        ("col2", 34, 35, RIGHT, 204, b""),
        ("col3", 34, 68, RIGHT, 204, b""),
        ("col4", 34, 101, RIGHT, 204, b""),
    ),
    # 240x240 and 320x240: columns fanned down between the stock and the discard.
    MEDIUM: (
        ("stock", 4, 14, STACK | COUNT, 0, b""),
        ("col1", 45, 14, DOWN, 224, b""),
        ("col2", 86, 14, DOWN, 224, b""),
        ("col3", 127, 14, DOWN, 224, b""),
        ("col4", 168, 14, DOWN, 224, b""),
        ("discard", 206, 14, STACK | COUNT, 0, b""),
    ),
    LARGE: (
        ("stock", 6, 14, STACK | COUNT, 0, b""),
        ("col1", 68, 14, DOWN, 224, b""),
        ("col2", 120, 14, DOWN, 224, b""),
        ("col3", 172, 14, DOWN, 224, b""),
        ("col4", 224, 14, DOWN, 224, b""),
        ("discard", 278, 14, STACK | COUNT, 0, b""),
    ),
    # 160x128 (20x28 cards) and 128x64 (13x9 cards): columns down, as on the bigger screens.
    TINY: (
        ("stock", 2, 12, STACK | COUNT, 0, b""),
        ("col1", 28, 12, DOWN, 116, b""),
        ("col2", 54, 12, DOWN, 116, b""),
        ("col3", 80, 12, DOWN, 116, b""),
        ("col4", 106, 12, DOWN, 116, b""),
        ("discard", 136, 12, STACK | COUNT, 0, b""),
    ),
    MICRO: (
        ("stock", 3, 12, STACK | COUNT, 0, b""),
        ("col1", 26, 12, DOWN, 52, b""),
        ("col2", 46, 12, DOWN, 52, b""),
        ("col3", 66, 12, DOWN, 52, b""),
        ("col4", 86, 12, DOWN, 52, b""),
        ("discard", 111, 12, STACK | COUNT, 0, b""),
    ),
    "status": {SMALL: (2, 112, 30), MEDIUM: (2, 3, 236), LARGE: (2, 3, 316), TINY: (2, 2, 156),
               MICRO: (2, 1, 124)},
}

# The rules page (the pause menu's Rules), after the rule profile docs/rules/aces_up.md.
RULES_PAGE = (
    b"Goal: remove 48 cards, leaving only the four aces.\n"
    b"Four columns; only the top card of a column is exposed. Aces rank high.\n"
    b"Discard a column's top card when another exposed card of the same suit outranks "
    b"it (long A, or pick it up and place it on the discard). Colour is not enough.\n"
    b"Move a top card into an empty column, but only from a column of two or more.\n"
    b"Deal (A on the stock) puts one card on each column. It is allowed only when no "
    b"discard and no move to an empty column is left.\n"
    b"Won with 48 cards discarded; lost when the stock is empty and nothing can move.\n"
    b"Advice: watch suits with no high card exposed: several lower cards of that suit can "
    b"pile up until their queen, king or ace appears."
)
