"""The scripted sessions of the interface: the keys tests/test_ui_micropython.py, the web page's
tests and the screen benchmarks (tools/bench/bench_screens.py, bench_panel.py) play on every
game (simulator/keys.py reads them)."""

from engine_core.ui import layouts

# A scripted session of each game: moves, picks, long presses, hint, undo, shakes, the stock,
# redo (a long X), the pause menu, settings, the rules pages, a restart and a new deal.
SCRIPTS = {
    "aces_up": ("X A RIGHT A LONG_A X LONG_A LEFT LEFT A RIGHT A B TICK TICK Y X A UP A "
                "LEFT LEFT LEFT A WAIT RIGHT A LONG_A DOWN DOWN A RIGHT RIGHT A Y Y X LONG_A "
                "START DOWN A START DOWN DOWN A START DOWN DOWN DOWN DOWN DOWN DOWN A DOWN DOWN UP B "
                "START UP UP A DOWN RIGHT RIGHT UP A B B START DOWN DOWN DOWN DOWN A "
                "X LONG_A X LONG_A X A RIGHT A WAIT"),
}


# Any other game: follow the hints (X shows one, A picks up and the cursor jumps to its
# destination, A places), then the keys every game has.
GENERIC = ("X A A " * 12 + "WAIT Y LONG_X Y LONG_X LONG_A Y X LONG_A LEFT A RIGHT RIGHT A B DOWN UP A WAIT "
           "START DOWN A Y Y START DOWN DOWN DOWN A START DOWN DOWN DOWN DOWN DOWN DOWN A DOWN B B X A A X A A")


def script(name):
    """The keys of the game's scripted session: its own, or the generic one."""
    return SCRIPTS.get(name, GENERIC)


def games_with_layouts():
    from engine_core import games
    return [g for g in games.available() if layouts.declaration(g) is not None]
