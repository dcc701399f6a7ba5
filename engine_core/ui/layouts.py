"""Where each game's piles sit on each screen: the interface's side of the layout declarations.

Each game declares its LAYOUT beside its rules, in its own module (engine_core/games/), in the
words of engine_core/layout.py (imported here too for the interface's modules); its registry
line makes it the game's (games.layout). Here: the screen sizes, their classes, and the look-up.
"""

from engine_core import games
from engine_core.layout import (ARG_ANY, ARG_COUNT, ARG_KIND, COUNT, DOWN, FAN_MASK, HIDDEN,  # noqa: F401
                                LARGE, MEDIUM, MINI, PICK, RIGHT, SMALL, STACK, THEIRS, WIDE, WILD, row)

SIZES = ((240, 135), (240, 240), (320, 240))


def screen_class(width, height):
    """SMALL, MEDIUM or LARGE (the card size) for a screen."""
    if height < 200:
        return SMALL
    if width >= 300:
        return LARGE
    return MEDIUM


def declaration(name):
    """The layout declaration of a game (its registry line names it), or None when it has none."""
    return games.layout(name)
