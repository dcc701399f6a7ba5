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

from engine_core.gfx.paint import LARGE, MEDIUM, SMALL

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

DECLARATIONS = {
    "aces_up": ACES_UP,
}


def declaration(name):
    """The layout declaration of a game, or None when it has none yet."""
    return DECLARATIONS.get(name)
