"""Deals the solver proved winnable, for the 'winnable deals only' option.

The device does not solve at deal time: tools/solvers/stats.py --write-table ships, per patience game,
a module engine_core/ai/winnable_GAME.py (which the game's registry line names) with a bitmap
over a range of seeds (bit i set: seed FIRST + i can be won), 1,250 bytes per 10,000 seeds. A player's
game number n picks the n-th winnable seed (counting round), so the same number always deals
the same winnable game.

    seed = winnable.seed_for("aces_up", 7)     # -1 when the game has no table
"""

from engine_core import games, rng

_NIBBLE_BITS = b"\x00\x01\x01\x02\x01\x02\x02\x03\x01\x02\x02\x03\x02\x03\x03\x04"


def table(name):
    """The table module of a game, or None (imports it: call when the game is chosen).

    The game's registry line names the module (engine_core/games/__init__.py): Aces Up, Sir
    Tommy and Casket have tables (Casket's proven under rule profile 2, the default: its
    RULES); Spite & Malice and Nerts have none. A build that leaves a table module out
    (ImportError), a table in which the solver won no deal (COUNT 0) or one proven for deals
    of another generator than the one that deals new games (GENERATOR) counts as none.
    """
    path = games.winnable_module(name)
    if path is None:
        return None
    try:
        t = games.module(path)
    except ImportError:
        return None
    if t.COUNT == 0:
        return None  # the solver proved no deal of the range winnable
    if getattr(t, "GENERATOR", rng.NAMES[rng.LEHMER]) != rng.NAMES[rng.SPECTRAL]:
        return None  # its seeds were proven for other deals
    return t


def nth_seed(bits, first, count, n):
    """The seed of winnable deal number n % count of a bitmap (no allocation)."""
    n = n % count
    for i in range(len(bits)):
        b = bits[i]
        k = _NIBBLE_BITS[b & 15] + _NIBBLE_BITS[b >> 4]
        if n < k:
            for j in range(8):
                if b >> j & 1:
                    if n == 0:
                        return first + i * 8 + j
                    n -= 1
        n -= k
    return -1


def is_winnable(bits, first, seed):
    """True when the table marks `seed` winnable (False outside its range)."""
    i = seed - first
    if i < 0 or i >= len(bits) * 8:
        return False
    return bits[i >> 3] >> (i & 7) & 1 == 1


def seed_for(name, n):
    """The seed of winnable deal number n of game `name`, or -1 when it has no table."""
    t = table(name)
    if t is None:
        return -1
    return nth_seed(t.BITS, t.FIRST, t.COUNT, n)
