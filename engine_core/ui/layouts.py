"""Where each game's piles sit on each screen: the interface's side of the layout declarations.

Each game declares its LAYOUT beside its rules, in its own module (engine_core/games/), in the
words of engine_core/layout.py (imported here too for the interface's modules); its registry
line makes it the game's (games.layout). Here: the screen sizes, their classes, and the look-up.
"""

from engine_core import games
from engine_core.layout import (ARG_ANY, ARG_COUNT, ARG_KIND, COUNT, DOWN, FAN_MASK, HIDDEN,  # noqa: F401
                                LARGE, MEDIUM, MICRO, MINI, PICK, RIGHT, SMALL, STACK, STRIP, THEIRS, TINY,
                                WIDE, WILD, row)

# The screens with a layout: each game declares its piles for every one of these.
SIZES = ((240, 135), (240, 240), (320, 240), (160, 128), (128, 64))


def screen_class(width, height):
    """SMALL, MEDIUM, LARGE, TINY or MICRO (the card size) for a screen."""
    if height < 100:
        return MICRO
    if width < 200:
        return TINY
    if height < 200:
        return SMALL
    if width >= 300:
        return LARGE
    return MEDIUM


def has_layout(width, height):
    """Whether the screen is one of SIZES: a screen of another size would show a layout made
    for a bigger one cut off at its edges, so hosts refuse it (simulator/boards.py)."""
    for w, h in SIZES:
        if w == width and h == height:
            return True
    return False


def size_names():
    """The sizes with a layout, as hosts name them: '240x135, 240x240, ...'."""
    return ", ".join(["%dx%d" % size for size in SIZES])


def declaration(name, players=0, size=None):
    """The layout declaration of a game (its registry line names it), or None when it has none;
    with `players`, the one for that many players where the game declares more than one
    (its "more": Nerts for three and four, made when first asked for, with the slots of
    screen class `size`, or of every class when None), else its own."""
    decl = games.layout(name)
    if decl is not None and players and players != decl.get("players", players):
        make = decl.get("more")
        if make is not None:
            other = make(players, size)
            if other is not None:
                return other
    return decl


def declarations(name):
    """Every layout declaration of a game, every screen class made: its own, then one for each
    other player count it has (the hosts' tests: a device asks only for its own class)."""
    decl = games.layout(name)
    out = [decl]
    for players in decl.get("more_players", ()):
        out.append(declaration(name, players))
    return tuple(out)
