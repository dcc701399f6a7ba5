"""Where each game's piles sit on each screen class: one small declaration per game.

A slot is (pile name, x, y, how, room, label):
  how   STACK (only the top card shows), DOWN or RIGHT (a fan), plus flags:
        COUNT (the pile's size is written under it), PICK (the cursor can take any card of
        the fan, not just the top: runs, hands)
  room  the pixels a fan may take along its direction, the card included; a fan whose cards
        would run past it overlaps them more tightly instead (compression, never cut off)
  label shown in an empty pile (b"A" for a foundation that starts at the ace), or b""
Besides the slots a game declares its foundations (where a long press of A sends a card),
its action piles (A on them plays an action word, like the stock's 'deal'), what a move
code's arg means to it (ARG_ANY, ARG_COUNT cards, ARG_KIND of the card) and where the status
line goes (x, y, width).
"""

from engine_core.gfx.paint import LARGE, MEDIUM, MINI, SMALL

try:
    from micropython import const
except ImportError:
    def const(x):
        return x

STACK = const(0)
DOWN = const(1)
RIGHT = const(2)
FAN_MASK = const(3)
COUNT = const(4)
PICK = const(8)

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
    ) + row("res", 3, 50, 2, 20, 0, STACK) + (
        ("jewels", 160, 2, STACK | COUNT, 0, b""),
    ) + row("lid", 5, 40, 28, 22, 0, STACK) + row("found", 4, 198, 2, 0, 26, STACK, 0, b"A")
    + row("found", 4, 219, 2, 0, 26, STACK, 0, b"A", first=5) + row("body", 8, 2, 54, 23, 0, DOWN, 81),
    MEDIUM: row("found", 8, 3, 11, 29, 0, STACK, 0, b"A") + (
        ("stock", 3, 45, STACK | COUNT, 0, b""),
        ("waste", 32, 45, STACK, 0, b""),
    ) + row("res", 3, 90, 45, 29, 0, STACK) + (
        ("jewels", 206, 45, STACK | COUNT, 0, b""),
    ) + row("lid", 5, 61, 79, 29, 0, STACK) + row("body", 8, 3, 113, 29, 0, DOWN, 125),
    LARGE: row("found", 8, 6, 11, 39, 0, STACK, 0, b"A") + (
        ("stock", 6, 45, STACK | COUNT, 0, b""),
        ("waste", 45, 45, STACK, 0, b""),
    ) + row("res", 3, 123, 45, 39, 0, STACK) + (
        ("jewels", 279, 45, STACK | COUNT, 0, b""),
    ) + row("lid", 5, 84, 79, 39, 0, STACK) + row("body", 8, 6, 113, 39, 0, DOWN, 125),
    "status": {SMALL: (198, 108, 40), MEDIUM: (2, 2, 236), LARGE: (2, 2, 316)},
}

DECLARATIONS = {
    "aces_up": ACES_UP,
    "sir_tommy": SIR_TOMMY,
    "casket": CASKET,
}


def declaration(name):
    """The layout declaration of a game, or None when it has none yet."""
    return DECLARATIONS.get(name)
