"""The tables a console lays out: each game's own layout, and Nerts's for three and four
players too (its LAYOUT["more"]), as (game, players) for tests parametrized over them."""

import pytest

from engine_core import games
from engine_core.ui import layouts


def tables():
    """(game, players) for every layout declaration; players 0 for a game that says none."""
    out = []
    for name in games.available():
        if layouts.declaration(name) is not None:
            for decl in layouts.declarations(name):
                out.append((name, decl.get("players", 0)))
    return out


def params():
    """tables() for pytest.mark.parametrize("game, players", ...): ids 'nerts-3', or the game's
    name alone for its own table."""
    return [pytest.param(name, players, id=name + "-" + str(players) if players > 2 else name)
            for name, players in tables()]


SEATED = [t for t in tables() if t[1] > 2]  # Nerts for three and four
