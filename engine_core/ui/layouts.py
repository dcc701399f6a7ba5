"""Where each game's piles sit on each screen class: one small declaration per game.

A slot is (pile name, x, y, how, room, label):
  how   STACK (only the top card shows), DOWN or RIGHT (a fan), plus flags:
        COUNT (the pile's size is written under it), PICK (the cursor can take any card of
        the fan, not just the top: runs, hands), HIDDEN (face down: an opponent's hand),
        THEIRS (an opponent's pile: shown, never picked up), WIDE (cards spread whole
        when there is room: a hand)
  room  the pixels a fan may take along its direction, the card included; a fan whose cards
        would run past it overlaps them more tightly instead (compression, never cut off)
  label shown in an empty pile (b"A" for a foundation that starts at the ace), or b""
Besides the slots a game declares its foundations (where a long press of A sends a card),
its action piles (A on them plays an action word, like the stock's 'deal'), what a move
code's arg means to it (ARG_ANY, ARG_COUNT cards, ARG_KIND of the card) and where the status
line goes (x, y, width), optionally words written on the table ("labels": (text, x, y)
per screen class, such as whose piles a row holds), and optionally when the game is clearly won ("finish": piles that
must be empty, piles whose cards must fall in rank), so that auto-play can finish it.
"""

from engine_core import games
from engine_core.gfx.paint import LARGE, MEDIUM, MINI, SMALL

from micropython import const

STACK = const(0)
DOWN = const(1)
RIGHT = const(2)
FAN_MASK = const(3)
COUNT = const(4)
PICK = const(8)
HIDDEN = const(16)  # drawn face down whatever the rules show (an opponent's hand)
THEIRS = const(32)  # an opponent's pile: shown, never picked up
WIDE = const(64)  # a fan that spreads its cards apart when it has room (a hand)
WILD = const(128)  # a stack built from the ace where a king is wild: it shows the rank it stands for

ARG_ANY = const(0)
ARG_COUNT = const(1)
ARG_KIND = const(2)

SIZES = ((240, 135), (240, 240), (320, 240))


def screen_class(width, height):
    """SMALL, MEDIUM or LARGE (the card size) for a screen."""
    if height < 200:
        return SMALL
    if width >= 300:
        return LARGE
    return MEDIUM


def row(prefix, count, x, y, dx, dy, how, room=0, label=b"", first=1):
    """Slots prefix<first> .. prefix<first + count - 1>, each dx, dy from the one before."""
    slots = []
    for i in range(count):
        slots.append((prefix + str(first + i), x + i * dx, y + i * dy, how, room, label))
    return tuple(slots)


ACES_UP = {
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
    "status": {SMALL: (2, 112, 30), MEDIUM: (2, 3, 236), LARGE: (2, 3, 316)},
}

SIR_TOMMY = {
    "foundations": ("found1", "found2", "found3", "found4"),
    "actions": (("stock", "draw"),),
    "arg": ARG_ANY,
    # Stock and current card on the left, the holding piles in the middle (fanned: every
    # card of a holding pile matters), the foundations on the right.
    SMALL: (
        ("stock", 3, 3, STACK | COUNT, 0, b""),
        ("current", 3, 50, STACK, 0, b""),
    ) + row("res", 4, 34, 3, 0, 33, RIGHT, 174) + row("found", 4, 213, 3, 0, 33, STACK, 0, b"A"),
    MEDIUM: (
        ("stock", 4, 14, STACK | COUNT, 0, b""),
        ("current", 4, 76, STACK, 0, b""),
    ) + row("res", 4, 44, 14, 40, 0, DOWN, 224) + row("found", 4, 206, 14, 0, 48, STACK, 0, b"A"),
    LARGE: (
        ("stock", 6, 14, STACK | COUNT, 0, b""),
        ("current", 6, 84, STACK, 0, b""),
    ) + row("res", 4, 56, 14, 54, 0, DOWN, 224) + row("found", 4, 278, 14, 0, 56, STACK, 0, b"A"),
    "status": {SMALL: (2, 112, 30), MEDIUM: (2, 3, 236), LARGE: (2, 3, 316)},
    # Clearly won: nothing left to turn, and every holding pile falls in rank to its top.
    "finish": (("stock", "current"), ("res1", "res2", "res3", "res4")),
}

CASKET = {
    "foundations": ("found1", "found2", "found3", "found4", "found5", "found6", "found7", "found8"),
    "actions": (("stock", "draw"),),
    "arg": ARG_ANY,
    # Thirty piles: smaller cards. Foundations on top, then stock, waste, reserves and the
    # jewels, the five lids, and the eight body columns fanned down at the bottom.
    "cards": {SMALL: MINI, MEDIUM: SMALL, LARGE: SMALL},
    SMALL: (
        ("stock", 2, 2, STACK | COUNT, 0, b""),
        ("waste", 22, 2, STACK, 0, b""),
    ) + row("res", 3, 50, 2, 20, 0, STACK, 0, b"R") + (
        ("jewels", 160, 2, STACK | COUNT, 0, b""),
    ) + row("lid", 5, 40, 28, 22, 0, STACK, 0, b"L") + row("found", 4, 198, 2, 0, 26, STACK, 0, b"A")
    + row("found", 4, 219, 2, 0, 26, STACK, 0, b"A", first=5) + row("body", 8, 2, 54, 23, 0, DOWN, 81),
    MEDIUM: row("found", 8, 3, 11, 29, 0, STACK, 0, b"A") + (
        ("stock", 3, 45, STACK | COUNT, 0, b""),
        ("waste", 32, 45, STACK, 0, b""),
    ) + row("res", 3, 90, 45, 29, 0, STACK, 0, b"R") + (
        ("jewels", 206, 45, STACK | COUNT, 0, b""),
    ) + row("lid", 5, 61, 79, 29, 0, STACK, 0, b"L") + row("body", 8, 3, 113, 29, 0, DOWN, 125),
    LARGE: row("found", 8, 6, 11, 39, 0, STACK, 0, b"A") + (
        ("stock", 6, 45, STACK | COUNT, 0, b""),
        ("waste", 45, 45, STACK, 0, b""),
    ) + row("res", 3, 123, 45, 39, 0, STACK, 0, b"R") + (
        ("jewels", 279, 45, STACK | COUNT, 0, b""),
    ) + row("lid", 5, 84, 79, 39, 0, STACK, 0, b"L") + row("body", 8, 6, 113, 39, 0, DOWN, 125),
    "status": {SMALL: (198, 108, 40), MEDIUM: (2, 2, 236), LARGE: (2, 2, 316)},
    # The rules' names on the table (empty reserves and lids show R and L).
    "labels": {
        SMALL: ((b"Lids", 4, 38), (b"Jewels", 160, 38)),
        MEDIUM: ((b"Lids", 8, 90), (b"Jewels", 204, 90)),
        LARGE: ((b"Lids", 20, 90), (b"Jewels", 279, 90)),
    },
    # Clearly won: stock, waste and jewels used up (body piles always fall in suit).
    "finish": (("stock", "waste", "jewels"), ()),
}

# Spite & Malice: the computer (p2) across the top, the centre stacks in the middle, your
# payoff pile and side stacks below, your hand spread along the bottom. Side stacks show
# their top card and how many lie under it.
THEM = STACK | COUNT | THEIRS
SPITE_MALICE = {
    "players": 2,
    "foundations": ("center1", "center2", "center3"),
    "actions": (),
    "arg": ARG_KIND,  # a card from the hand is named by its kind
    "cards": {SMALL: MINI, LARGE: MEDIUM},
    SMALL: (
        ("p2.hand", 2, 2, THEM | HIDDEN, 0, b""),
        ("p2.payoff", 24, 2, THEM, 0, b""),
    ) + row("p2.side", 4, 110, 2, 22, 0, THEM) + (
        ("stock", 2, 37, STACK | COUNT, 0, b""),
    ) + row("center", 3, 60, 37, 22, 0, STACK | WILD, 0, b"A") + (
        ("p1.payoff", 24, 72, STACK | COUNT, 0, b""),
    ) + row("p1.side", 4, 110, 72, 22, 0, STACK | COUNT) + (
        ("p1.hand", 2, 108, RIGHT | PICK | WIDE, 110, b""),
    ),
    MEDIUM: (
        ("p2.hand", 4, 12, THEM | HIDDEN, 0, b""),
        ("p2.payoff", 40, 12, THEM, 0, b""),
    ) + row("p2.side", 4, 96, 12, 36, 0, THEM) + (
        ("stock", 4, 68, STACK | COUNT, 0, b""),
    ) + row("center", 3, 78, 68, 36, 0, STACK | WILD, 0, b"A") + (
        ("p1.payoff", 40, 124, STACK | COUNT, 0, b""),
    ) + row("p1.side", 4, 96, 124, 36, 0, STACK | COUNT) + (
        ("p1.hand", 4, 184, RIGHT | PICK | WIDE, 232, b""),
    ),
    LARGE: (
        ("p2.hand", 6, 12, THEM | HIDDEN, 0, b""),
        ("p2.payoff", 48, 12, THEM, 0, b""),
    ) + row("p2.side", 4, 140, 12, 44, 0, THEM) + (
        ("stock", 6, 68, STACK | COUNT, 0, b""),
    ) + row("center", 3, 118, 68, 44, 0, STACK | WILD, 0, b"A") + (
        ("p1.payoff", 48, 124, STACK | COUNT, 0, b""),
    ) + row("p1.side", 4, 140, 124, 44, 0, STACK | COUNT) + (
        ("p1.hand", 48, 184, RIGHT | PICK | WIDE, 220, b""),
    ),
    "status": {SMALL: (206, 98, 32), MEDIUM: (2, 2, 236), LARGE: (2, 2, 316)},
    "labels": {
        SMALL: ((b"CPU", 50, 4), (b"You", 50, 74)),
        MEDIUM: ((b"CPU", 76, 14), (b"You", 76, 126)),
        LARGE: ((b"CPU", 96, 14), (b"You", 96, 126)),
    },
}

# Nerts, two players: the shared foundations on top (a 2x4 block on 240x135), the other
# player's Nerts pile, work-pile tops and waste, then yours: the Nerts pile, the four work
# piles fanned down (the cursor picks how many cards of a run), the stock and the waste.
NERTS = {
    "players": 2,
    "foundations": ("found1", "found2", "found3", "found4", "found5", "found6", "found7", "found8"),
    "actions": (("p1.stock", ":flip"), ("p1.stock", ":cycle"), ("p1.nerts", ":nerts")),
    "arg": ARG_COUNT,  # a run between work piles is named by its length
    "cards": {SMALL: MINI, MEDIUM: SMALL, LARGE: SMALL},
    SMALL: row("found", 4, 198, 2, 0, 26, STACK, 0, b"A") + row("found", 4, 219, 2, 0, 26, STACK, 0, b"A", 5) + (
        ("p2.nerts", 2, 2, THEM, 0, b""),
    ) + row("p2.work", 4, 48, 2, 22, 0, STACK | THEIRS) + (
        ("p2.waste", 150, 2, STACK | THEIRS, 0, b""),
        ("p1.nerts", 2, 40, STACK | COUNT, 0, b""),
    ) + row("p1.work", 4, 48, 40, 22, 0, DOWN | PICK, 94) + (
        ("p1.stock", 150, 40, STACK | COUNT, 0, b""),
        ("p1.waste", 172, 40, STACK, 0, b""),
    ),
    MEDIUM: row("found", 8, 3, 11, 29, 0, STACK, 0, b"A") + (
        ("p2.nerts", 3, 47, THEM, 0, b""),
    ) + row("p2.work", 4, 61, 47, 29, 0, STACK | THEIRS) + (
        ("p2.waste", 206, 47, STACK | THEIRS, 0, b""),
        ("p1.nerts", 3, 93, STACK | COUNT, 0, b""),
    ) + row("p1.work", 4, 61, 93, 29, 0, DOWN | PICK, 145) + (
        ("p1.stock", 206, 93, STACK | COUNT, 0, b""),
        ("p1.waste", 206, 140, STACK, 0, b""),
    ),
    LARGE: row("found", 8, 6, 11, 39, 0, STACK, 0, b"A") + (
        ("p2.nerts", 6, 47, THEM, 0, b""),
    ) + row("p2.work", 4, 84, 47, 39, 0, STACK | THEIRS) + (
        ("p2.waste", 279, 47, STACK | THEIRS, 0, b""),
        ("p1.nerts", 6, 93, STACK | COUNT, 0, b""),
    ) + row("p1.work", 4, 84, 93, 39, 0, DOWN | PICK, 145) + (
        ("p1.stock", 279, 93, STACK | COUNT, 0, b""),
        ("p1.waste", 279, 140, STACK, 0, b""),
    ),
    "status": {SMALL: (150, 98, 44), MEDIUM: (2, 2, 236), LARGE: (2, 2, 316)},
    "labels": {
        SMALL: ((b"CPU", 26, 4), (b"You", 26, 42)),
        MEDIUM: ((b"CPU", 33, 49), (b"You", 33, 95)),
        LARGE: ((b"CPU", 40, 49), (b"You", 40, 95)),
    },
}

def declaration(name):
    """The layout declaration of a game (its registry line names it), or None when it has none."""
    return games.layout(name)
