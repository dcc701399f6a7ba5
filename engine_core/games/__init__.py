"""The games, by the names the protocol uses."""

NAMES = ("aces_up", "sir_tommy", "casket", "spite_malice", "nerts")

# Bits of the `options` int a game's __init__ takes.
OPT_JOKERS = 1
OPT_TARGET_SHIFT = 1  # options >> OPT_TARGET_SHIFT: target score (0: the game's default)


def options(jokers=False, target=0):
    """The options int for a game: options(jokers=True, target=150)."""
    return (1 if jokers else 0) | target << OPT_TARGET_SHIFT


def load(name):
    """The game class for a name in NAMES; raises KeyError for any other name.

    >>> load("aces_up")().NAME
    'aces_up'
    """
    if name == "aces_up":
        from engine_core.games.aces_up import AcesUp
        return AcesUp
    if name == "sir_tommy":
        from engine_core.games.sir_tommy import SirTommy
        return SirTommy
    if name == "casket":
        from engine_core.games.casket import Casket
        return Casket
    if name == "spite_malice":
        from engine_core.games.spite_malice import SpiteMalice
        return SpiteMalice
    if name == "nerts":
        from engine_core.games.nerts import Nerts
        return Nerts
    raise KeyError(name)


def available():
    """The names of the games this build contains, in menu order."""
    found = []
    for name in NAMES:
        try:
            load(name)
        except ImportError:
            continue
        found.append(name)
    return found
