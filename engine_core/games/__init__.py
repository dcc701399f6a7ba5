"""The registry of games: one line per game, read by everything that loads, lists, saves,
draws or explains a game (the protocol, the menus, saved games, statistics, tools).

A line is made by `line(...)` from keyword fields:
  name      the protocol's name for the game (PROTOCOL.md); never changes
  id        the game's number in saved games and statistics (engine_core/save.py, records.py):
            fixed for good once a build has written it, never reused, 0 <= id < ID_LIMIT. It is
            not the line's position, so the menu order can change and records stay the same
            game's. Ids 0-4 are the positions the five games had in the list that records were
            keyed by before the registry, so those records read the same.
  module    the module that holds the game's class, its layout and its rules page, and
  cls       the class's name there: imported only when `load` asks for it (the device has
            little RAM; importing the registry imports no game)
  title     the game's name on the screens (bytes)
  winnable  the module of its table of proven-winnable deals (engine_core/ai/winnable.py), or None
  flags     RULES_SETTING: the Settings screen's rules choice picks the profile a new deal plays;
            TEST_ONLY: a game for the tests alone, which counts only after show_test_games(True)
  ai        the module of its advisor and computer players (engine_core/ai), or None: `load`
            gives it to the class (Game.AI), so that a game never imports the layer above it
Beside its class, the game's module declares LAYOUT (where its piles sit on each screen class,
in the words of engine_core/layout.py; a game without one is played by the protocol and not
offered by the screens) and RULES_PAGE (bytes: the pause menu's rules page). The rule profile
a game plays and the ones it can play stay class constants (RULES_VERSION, RULES_PROFILES).

Adding a game is writing its module, its rule profile in docs/rules/ and one line here
(docs/engine.md). The menus list the games in the order of the lines.
"""

import sys

from engine_core.records import STAT_GAMES

from micropython import const

# Bits of the `options` int a game's __init__ takes.
OPT_JOKERS = 1
OPT_TARGET_SHIFT = 1  # options >> OPT_TARGET_SHIFT: target score (0: the game's default)
MAX_TARGET = const(10000)  # the highest target score a game is played to

RULES_SETTING = const(1)
TEST_ONLY = const(2)

ID_LIMIT = STAT_GAMES  # ids are below this: the statistics record's room (engine_core/records.py)
NO_ID = const(255)  # what game_id gives for a name the registry does not hold

_NAME = const(0)
_ID = const(1)
_MODULE = const(2)
_CLASS = const(3)
_TITLE = const(4)
_WINNABLE = const(5)
_FLAGS = const(6)
_AI = const(7)
_FIELDS = const(8)


def line(name, id, module, cls, title, winnable=None, flags=0, ai=None):  # subset: ok (start-up: the lines)
    """A registry line from its fields (above)."""
    return (name, id, module, cls, title, winnable, flags, ai)


# Literals only: on the device the registry is frozen and its strings stay in flash.
GAMES = [
    line(name="aces_up", id=0, module="engine_core.games.aces_up", cls="AcesUp", title=b"Aces Up",
         winnable="engine_core.ai.winnable_aces_up", ai="engine_core.ai.aces_up"),
    line(name="sir_tommy", id=1, module="engine_core.games.sir_tommy", cls="SirTommy", title=b"Sir Tommy",
         winnable="engine_core.ai.winnable_sir_tommy", ai="engine_core.ai.sir_tommy"),
    line(name="casket", id=2, module="engine_core.games.casket", cls="Casket", title=b"Casket",
         winnable="engine_core.ai.winnable_casket", flags=RULES_SETTING, ai="engine_core.ai.casket"),
    line(name="spite_malice", id=3, module="engine_core.games.spite_malice", cls="SpiteMalice",
         title=b"Spite & Malice", ai="engine_core.ai.spite_malice"),
    line(name="nerts", id=4, module="engine_core.games.nerts", cls="Nerts", title=b"Nerts",
         ai="engine_core.ai.nerts_bot"),
    line(name="one_pile", id=7, module="engine_core.games.one_pile", cls="OnePile", title=b"One Pile",
         flags=TEST_ONLY),
]

_TEST_GAMES = bytearray(1)  # [0]: 1 while the TEST_ONLY lines count (show_test_games)


def show_test_games(on):
    """Count the TEST_ONLY lines (on) or hide them, as a build for players does (the default)."""
    _TEST_GAMES[0] = 1 if on else 0


def counts(line):
    """Whether a line is a game of this run: every line but a hidden TEST_ONLY one."""
    return line[_FLAGS] & TEST_ONLY == 0 or _TEST_GAMES[0] == 1


def register(line):  # subset: ok (start-up: a game added, and its error message)
    """Add a game's line (made by `line`) after the others; ValueError when its name or id is
    taken or its id is out of range. For a game that lives outside this package; the
    product's games are the lines of GAMES.
    """
    if len(line) != _FIELDS:
        raise ValueError("a registry line has %d fields: make it with games.line()" % _FIELDS)
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
    """The registry line of a game of this run (see counts), or None. No allocation."""
    for i in range(len(GAMES)):
        if GAMES[i][_NAME] == name and counts(GAMES[i]):
            return GAMES[i]
    return None


def names():  # subset: ok (start-up and tools: a new list)
    """Every game's name, in menu order (a new list): the lines that count (see counts)."""
    return [line[_NAME] for line in GAMES if counts(line)]


def options(jokers=False, target=0):
    """The options int for a game: options(jokers=True, target=150)."""
    return (1 if jokers else 0) | target << OPT_TARGET_SHIFT


def options_ok(value):
    """An options int a game may be made with (from a record or an offer): jokers or not and a
    target score within MAX_TARGET, as the settings and the protocol's `new` give them."""
    return value >= 0 and value >> OPT_TARGET_SHIFT <= MAX_TARGET


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
    for name in names():
        try:
            load(name)
        except ImportError:
            continue
        found.append(name)
    return found


def game_id(name):
    """The game's id in saved records (NO_ID for an unknown name). No allocation."""
    line = entry(name)
    return NO_ID if line is None else line[_ID]


def name_of(game_id):
    """The name of the game with that id, or None. No allocation."""
    for i in range(len(GAMES)):
        if GAMES[i][_ID] == game_id and counts(GAMES[i]):
            return GAMES[i][_NAME]
    return None


def title(name):
    """The game's name on the screens (bytes). No allocation."""
    return entry(name)[_TITLE]


def layout(name):
    """The game's layout declaration (its module's LAYOUT), or None when it has none (or is
    not registered)."""
    line = entry(name)
    if line is None:
        return None
    return getattr(module(line[_MODULE]), "LAYOUT", None)


def rules_text(name):
    """The game's rules page (its module's RULES_PAGE, bytes). No allocation once the game's
    module is imported."""
    return module(entry(name)[_MODULE]).RULES_PAGE


def winnable_module(name):
    """The module path of the game's winnable-deal table, or None. No allocation."""
    line = entry(name)
    return None if line is None else line[_WINNABLE]


def has_flag(name, flag):
    """Whether the game's line carries a flag (RULES_SETTING). No allocation."""
    line = entry(name)
    return line is not None and line[_FLAGS] & flag != 0
