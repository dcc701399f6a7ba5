"""The registry of games: one line per game, read by everything that loads, lists, saves,
draws or explains a game (the protocol, the menus, saved games, statistics, tools).

A line is a tuple of plain values:
  name      the protocol's name for the game (PROTOCOL.md); never changes
  id        the game's number in saved games and statistics (engine_core/save.py, records.py):
            fixed for good once a build has written it, never reused, 0 <= id < ID_LIMIT. It is
            not the line's position, so the menu order can change and records stay the same
            game's. Ids 0-4 are the positions the five games had in the list that records were
            keyed by before the registry, so those records read the same.
  module    the module that holds the game's class, and
  cls       the class's name there: imported only when `load` asks for it (the device has
            little RAM; importing the registry imports no game)
  title     the game's name on the screens (bytes)
  layout    the module and the name there of the game's layout declaration (two fields:
            engine_core/ui/layouts.py), or None, None for a game the protocol plays and the
            screens do not offer
  rules     the module and the name of its rules page (two fields: bytes in
            engine_core/ui/texts.py)
  winnable  the module of its table of proven-winnable deals (engine_core/ai/winnable.py), or None
  flags     RULES_SETTING: the Settings screen's rules choice picks the profile a new deal plays
  ai        the module of its advisor and computer players (engine_core/ai), or None: `load`
            gives it to the class (Game.AI), so that a game never imports the layer above it
The rule profile a game plays and the ones it can play stay class constants (RULES_VERSION,
RULES_PROFILES): the class is where the rules are.

Adding a game is writing its module(s) and one line here (docs/engine.md). The menus list the
games in the order of the lines.
"""

import sys

from micropython import const

# Bits of the `options` int a game's __init__ takes.
OPT_JOKERS = 1
OPT_TARGET_SHIFT = 1  # options >> OPT_TARGET_SHIFT: target score (0: the game's default)

RULES_SETTING = const(1)

ID_LIMIT = const(8)  # ids are below this: the statistics record has room for 8 games
NO_ID = const(255)  # what game_id gives for a name the registry does not hold

_NAME = const(0)
_ID = const(1)
_MODULE = const(2)
_CLASS = const(3)
_TITLE = const(4)
_LAYOUT = const(5)
_LAYOUT_NAME = const(6)
_RULES = const(7)
_RULES_NAME = const(8)
_WINNABLE = const(9)
_FLAGS = const(10)
_AI = const(11)

# Literals only: on the device the registry is frozen and its strings stay in flash.
GAMES = [
    ("aces_up", 0, "engine_core.games.aces_up", "AcesUp", b"Aces Up",
     "engine_core.ui.layouts", "ACES_UP", "engine_core.ui.texts", "RULES_ACES_UP",
     "engine_core.ai.winnable_aces_up", 0, "engine_core.ai.aces_up"),
    ("sir_tommy", 1, "engine_core.games.sir_tommy", "SirTommy", b"Sir Tommy",
     "engine_core.ui.layouts", "SIR_TOMMY", "engine_core.ui.texts", "RULES_SIR_TOMMY",
     "engine_core.ai.winnable_sir_tommy", 0, "engine_core.ai.sir_tommy"),
    ("casket", 2, "engine_core.games.casket", "Casket", b"Casket",
     "engine_core.ui.layouts", "CASKET", "engine_core.ui.texts", "RULES_CASKET",
     "engine_core.ai.winnable_casket", RULES_SETTING, "engine_core.ai.casket"),
    ("spite_malice", 3, "engine_core.games.spite_malice", "SpiteMalice", b"Spite & Malice",
     "engine_core.ui.layouts", "SPITE_MALICE", "engine_core.ui.texts", "RULES_SPITE_MALICE",
     None, 0, "engine_core.ai.spite_malice"),
    ("nerts", 4, "engine_core.games.nerts", "Nerts", b"Nerts",
     "engine_core.ui.layouts", "NERTS", "engine_core.ui.texts", "RULES_NERTS",
     None, 0, "engine_core.ai.nerts_bot"),
]


def register(line):  # subset: ok (start-up: a game added, and its error message)
    """Add a game's line (as above) after the others; ValueError when its name or id is
    taken or its id is out of range. For a game that lives outside this package (a test's);
    the product's games are the lines of GAMES.
    """
    if len(line) != _AI + 1:
        raise ValueError("a registry line has 12 fields")
    if not 0 <= line[_ID] < ID_LIMIT:
        raise ValueError("game id out of range: " + str(line[_ID]))
    for other in GAMES:
        if other[_NAME] == line[_NAME] or other[_ID] == line[_ID]:
            raise ValueError("name or id already registered: " + line[_NAME])
    GAMES.append(line)


def unregister(name):
    """Remove a game's line (tests that register a game of their own take it out again)."""
    for i in range(len(GAMES)):
        if GAMES[i][_NAME] == name:
            GAMES.pop(i)
            return
    raise KeyError(name)


def entry(name):
    """The registry line of a game, or None. No allocation."""
    for i in range(len(GAMES)):
        if GAMES[i][_NAME] == name:
            return GAMES[i]
    return None


def names():  # subset: ok (start-up and tools: a new list)
    """Every registered game's name, in menu order (a new list)."""
    return [line[_NAME] for line in GAMES]


def options(jokers=False, target=0):
    """The options int for a game: options(jokers=True, target=150)."""
    return (1 if jokers else 0) | target << OPT_TARGET_SHIFT


def module(path):
    """The module at a dotted path, imported the first time (no allocation after that)."""
    found = sys.modules.get(path)
    if found is None:
        __import__(path)
        found = sys.modules[path]
    return found


def load(name):
    """The game class for a registered name; raises KeyError for any other name, ImportError
    when this build leaves the game's module out.

    >>> load("aces_up")().NAME
    'aces_up'
    """
    line = entry(name)
    if line is None:
        raise KeyError(name)
    cls = getattr(module(line[_MODULE]), line[_CLASS])
    if cls.AI is None and line[_AI] is not None:
        cls.AI = module(line[_AI])
    return cls


def available():
    """The names of the games this build contains, in menu order."""
    found = []
    for line in GAMES:
        try:
            load(line[_NAME])
        except ImportError:
            continue
        found.append(line[_NAME])
    return found


def game_id(name):
    """The game's id in saved records (NO_ID for an unknown name). No allocation."""
    line = entry(name)
    return NO_ID if line is None else line[_ID]


def name_of(game_id):
    """The name of the game with that id, or None. No allocation."""
    for i in range(len(GAMES)):
        if GAMES[i][_ID] == game_id:
            return GAMES[i][_NAME]
    return None


def title(name):
    """The game's name on the screens (bytes). No allocation."""
    return entry(name)[_TITLE]


def layout(name):
    """The game's layout declaration, or None when it has none (or is not registered)."""
    line = entry(name)
    if line is None or line[_LAYOUT] is None:
        return None
    return getattr(module(line[_LAYOUT]), line[_LAYOUT_NAME])


def rules_text(name):
    """The game's rules page (bytes). No allocation once its module is imported."""
    line = entry(name)
    return getattr(module(line[_RULES]), line[_RULES_NAME])


def winnable_module(name):
    """The module path of the game's winnable-deal table, or None. No allocation."""
    line = entry(name)
    return None if line is None else line[_WINNABLE]


def has_flag(name, flag):
    """Whether the game's line carries a flag (RULES_SETTING). No allocation."""
    line = entry(name)
    return line is not None and line[_FLAGS] & flag != 0
