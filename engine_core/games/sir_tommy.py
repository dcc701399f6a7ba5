"""Sir Tommy (Numerica edition), rule profile 1 (docs/rules/sir_tommy.md).

One deck turned a card at a time into `current`; the current card goes to a foundation
(built Ace up to King, suit ignored) or onto any of four unrestricted holding piles, whose
top cards may go on to the foundations. Draw only once the current card is placed; no redeal.
"""

from engine_core import PLAYING
from engine_core import reasons as why
from engine_core import rules
from engine_core.game import FACE_DOWN, V_STATUS, Game
from engine_core.rules import ANY_SUIT, RANK_OF

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
CURRENT = const(1)
FOUND1 = const(2)
FOUND4 = const(5)
RES1 = const(6)
RES4 = const(9)
DRAW_MOVE = const(0xFF0000)  # action_code(0): 'draw'

# engine_core/reasons.py's codes that Sir Tommy words its own way, as this module's constants
# (so that WORDS is a constant the frozen firmware keeps in flash; tests/test_reasons.py holds
# them equal to reasons.py's).
WHY_NOT_THERE = const(8)
WHY_FOUND_NEXT = const(10)
WHY_PLACE_FIRST = const(12)
WHY_STOCK_DRAW = const(14)

# The reasons in Sir Tommy's words: (code, screen words, protocol words); None: the shared ones.
WORDS = (
    (WHY_NOT_THERE, None, "cards go to a foundation or a holding pile"),
    (WHY_FOUND_NEXT, None, "{card} is not next on {dst}: foundations build up by rank to the King"),
    (WHY_PLACE_FIRST, None, "the current card must be placed before the next draw"),
    (WHY_STOCK_DRAW, None, "stock cards are turned into current by 'draw'"),
)


class SirTommy(Game):
    NAME = "sir_tommy"
    RULES_VERSION = 1
    # current to 4 foundations + 4 holding piles, 4 holding tops to 4 foundations, draw
    MAX_MOVES = 25
    # Cards only go forward (stock, waste, foundation): a whole game fills under 400 entries
    # (the most in 2,300 random games: 389), so 1,024 always hold it. 4 KB of the device's heap.
    JOURNAL_SIZE = 1024
    ACTIONS = ("draw",)
    WORDS = WORDS

    def __init__(self, players=1, options=0):
        Game.__init__(self, players, options)
        self.add_pile("stock", 52, FACE_DOWN)
        self.add_pile("current", 1)
        for i in range(4):
            self.add_pile("found" + str(i + 1), 13)
        for i in range(4):
            self.add_pile("res" + str(i + 1), 52)  # unrestricted: never full
        self.end_piles()
        self.attach_ai()  # hints and auto-play (engine_core/ai/sir_tommy.py)
        self.wants = bytearray(4)  # the rank each foundation takes next (rules.foundation_want)

    def _deal(self):
        self.fill_and_shuffle(STOCK)
        self.piles.move(STOCK, CURRENT, 1)  # the first card is turned at once

    def legal_moves(self, out):
        if self.vars[V_STATUS] != PLAYING:
            return 0
        return self._generate(out)

    def _generate(self, out):
        piles = self.piles
        wants = self.wants
        rules.fill_foundation_wants(piles, FOUND1, 4, ANY_SUIT, wants)
        n = 0
        c = rules.top(piles, CURRENT)
        if c >= 0:
            n = rules.add_wanted_moves(out, n, CURRENT, RANK_OF[c], RANK_OF[c], wants, FOUND1, 4)
            for r in range(RES1, RES4 + 1):
                out[n] = CURRENT << 16 | r << 8
                n += 1
        for r in range(RES1, RES4 + 1):
            t = rules.top(piles, r)
            if t >= 0:
                n = rules.add_wanted_moves(out, n, r, RANK_OF[t], RANK_OF[t], wants, FOUND1, 4)
        if rules.may_draw(piles, STOCK, CURRENT):
            out[n] = DRAW_MOVE
            n += 1
        return n

    def _apply(self, move):
        if move == DRAW_MOVE:
            self.move_top(STOCK, CURRENT)
        else:
            self.move_top(move >> 16, (move >> 8) & 0xFF)

    def _has_move(self):
        piles = self.piles
        if piles.size[CURRENT] > 0 or piles.size[STOCK] > 0:
            return True  # place the current card (a holding pile always takes it), or draw
        return self._playable_holding_top() >= 0

    def _playable_holding_top(self):
        """A move of a holding pile's top to a foundation, or -1."""
        piles = self.piles
        wants = self.wants
        rules.fill_foundation_wants(piles, FOUND1, 4, ANY_SUIT, wants)
        for r in range(RES1, RES4 + 1):
            t = rules.top(piles, r)
            if t >= 0:
                i = rules.first_wanting(wants, 4, RANK_OF[t], RANK_OF[t])
                if i >= 0:
                    return r << 16 | (FOUND1 + i) << 8
        return -1

    def _compute_status(self):
        return rules.patience_status(self.piles, FOUND1, FOUND4, 52, self._has_move())

    def refusal(self, move):
        """Why a move is illegal: a code of engine_core/reasons.py (words: WORDS, or shared)."""
        piles = self.piles
        reason = rules.move_refusal_code(self, move, DRAW_MOVE, CURRENT, FOUND1, FOUND4, STOCK)
        if reason:
            return reason
        src = move >> 16
        dst = (move >> 8) & 0xFF
        if RES1 <= src <= RES4 and RES1 <= dst <= RES4:
            return why.HOLDING_SWAP
        if dst == STOCK or dst == CURRENT or dst == src:
            return why.NOT_THERE
        if piles.size[src] == 0:
            return why.EMPTY
        if FOUND1 <= dst <= FOUND4:
            return why.FOUND_ACE if piles.size[dst] == 0 else why.FOUND_NEXT
        return why.NOT_THERE

    def check_position(self):
        piles = self.piles
        for f in range(FOUND1, FOUND4 + 1):
            reason = rules.foundation_error(piles, f, self.pile_names[f], ANY_SUIT)
            if reason:
                return reason
        return ""


# Where the piles sit on each screen class (engine_core/layout.py says how to read it).
LAYOUT = {
    "foundations": ("found1", "found2", "found3", "found4"),
    "actions": (("stock", "draw"),),
    "arg": ARG_ANY,
    # Stock and current card on the left, the holding piles in the middle (fanned: every
    # card of a holding pile matters), the foundations on the right.
    SMALL: (
        ('stock', 3, 3, STACK | COUNT, 0, b''),
        ('current', 3, 50, STACK, 0, b''),
        ('res1', 34, 3, RIGHT, 174, b''),
        ('res2', 34, 36, RIGHT, 174, b''),
        ('res3', 34, 69, RIGHT, 174, b''),
        ('res4', 34, 102, RIGHT, 174, b''),
        ('found1', 213, 3, STACK, 0, b'A'),
        ('found2', 213, 36, STACK, 0, b'A'),
        ('found3', 213, 69, STACK, 0, b'A'),
        ('found4', 213, 102, STACK, 0, b'A'),
    ),
    MEDIUM: (
        ('stock', 4, 14, STACK | COUNT, 0, b''),
        ('current', 4, 76, STACK, 0, b''),
        ('res1', 44, 14, DOWN, 224, b''),
        ('res2', 84, 14, DOWN, 224, b''),
        ('res3', 124, 14, DOWN, 224, b''),
        ('res4', 164, 14, DOWN, 224, b''),
        ('found1', 206, 14, STACK, 0, b'A'),
        ('found2', 206, 62, STACK, 0, b'A'),
        ('found3', 206, 110, STACK, 0, b'A'),
        ('found4', 206, 158, STACK, 0, b'A'),
    ),
    LARGE: (
        ('stock', 6, 14, STACK | COUNT, 0, b''),
        ('current', 6, 84, STACK, 0, b''),
        ('res1', 56, 14, DOWN, 224, b''),
        ('res2', 110, 14, DOWN, 224, b''),
        ('res3', 164, 14, DOWN, 224, b''),
        ('res4', 218, 14, DOWN, 224, b''),
        ('found1', 278, 14, STACK, 0, b'A'),
        ('found2', 278, 70, STACK, 0, b'A'),
        ('found3', 278, 126, STACK, 0, b'A'),
        ('found4', 278, 182, STACK, 0, b'A'),
    ),
    # 160x128 and 128x64: the foundations two by two on the right.
    TINY: (
        ('stock', 2, 12, STACK | COUNT, 0, b''),
        ('current', 2, 54, STACK, 0, b''),
        ('res1', 26, 12, DOWN, 116, b''),
        ('res2', 48, 12, DOWN, 116, b''),
        ('res3', 70, 12, DOWN, 116, b''),
        ('res4', 92, 12, DOWN, 116, b''),
        ('found1', 116, 12, STACK, 0, b'A'),
        ('found2', 138, 12, STACK, 0, b'A'),
        ('found3', 116, 44, STACK, 0, b'A'),
        ('found4', 138, 44, STACK, 0, b'A'),
    ),
    MICRO: (
        ('stock', 2, 12, STACK | COUNT, 0, b''),
        ('current', 2, 31, STACK, 0, b''),  # above the two-line message strip
        ('res1', 22, 12, DOWN, 52, b''),
        ('res2', 40, 12, DOWN, 52, b''),
        ('res3', 58, 12, DOWN, 52, b''),
        ('res4', 76, 12, DOWN, 52, b''),
        ('found1', 96, 12, STACK, 0, b'A'),
        ('found2', 112, 12, STACK, 0, b'A'),
        ('found3', 96, 25, STACK, 0, b'A'),
        ('found4', 112, 25, STACK, 0, b'A'),
    ),
    "status": {SMALL: (2, 112, 30), MEDIUM: (2, 3, 236), LARGE: (2, 3, 316), TINY: (2, 2, 156),
               MICRO: (2, 1, 124)},
    # Clearly won: nothing left to turn, and every holding pile falls in rank to its top.
    "finish": (("stock", "current"), ("res1", "res2", "res3", "res4")),
}

# The rules page (the pause menu's Rules), after the rule profile docs/rules/sir_tommy.md.
RULES_PAGE = (
    b"Goal: build all four foundations from ace up to king, regardless of suit.\n"
    b"The stock is turned one card at a time; the first card is turned at once. The "
    b"current card goes to a foundation if its rank is next there, or onto any of the "
    b"four holding piles, whatever its rank or suit.\n"
    b"Draw (A on the stock) only once the current card is placed. There is no redeal. "
    b"Long A sends a card to a foundation.\n"
    b"Only the top card of a holding pile may leave it, to a foundation. Cards never "
    b"move between holding piles and never leave a foundation.\n"
    b"Won with all 52 cards on the foundations; lost when the stock and the current card "
    b"are gone and no holding card can move.\n"
    b"Advice: a soon-needed low card can be buried under a high blocker. Spread ranks "
    b"over the four holding piles and keep likely foundation successors near their tops, "
    b"rather than building one deep pile of mixed cards."
)
