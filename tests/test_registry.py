"""The registry of games (engine_core/games/__init__.py): one line per game."""

import importlib
import subprocess
import sys

from engine_core import games
from engine_core import records as r
from simulator.keys import make_app
from tests.helpers import run_mpy_ok
from tools.solvers import solve

ROOT = __file__.rsplit("/tests/", 1)[0]


def test_the_menu_order_is_the_order_of_the_lines():
    # names() reads the lines in their order; the game list offers exactly those, in that order.
    lines = [line[0] for line in games.GAMES if not line[6] & games.TEST_ONLY]
    assert games.names() == lines and len(set(lines)) == len(lines)
    assert make_app(240, 240).names == games.available() == lines


def test_record_ids_are_pinned_and_are_not_positions_in_the_list():
    # The ids are written in saved games and statistics: they never change. Those of the five
    # games equal the positions records used before the registry (tests/test_record_migration.py).
    ids = {name: games.game_id(name) for name in games.names()}
    assert ids == {"aces_up": 0, "sir_tommy": 1, "casket": 2, "spite_malice": 3, "nerts": 4}
    assert games.ID_LIMIT == r.STAT_GAMES
    assert games.game_id("klondike") == games.NO_ID and games.name_of(6) is None


def test_every_line_names_a_class_a_layout_a_rules_page_and_a_title_that_exist():
    for name in games.names():
        cls = games.load(name)
        assert cls.NAME == name and cls.RULES_VERSION in cls.RULES_PROFILES
        assert games.layout(name) is sys.modules[cls.__module__].LAYOUT and games.layout(name)["status"]
        assert games.title(name) == games.entry(name)[4]
        assert games.title(name) and len(games.rules_text(name)) > 200


def test_the_games_the_solver_proves_name_a_table_of_winnable_deals_and_only_they():
    # tools/solvers proves deals of the patience games (docs/statistics.md); their lines name a
    # table module that exists and holds winnable seeds, the other games' lines name none.
    for name in games.names():
        path = games.winnable_module(name)
        if name in solve.SOLVED:
            assert path == "engine_core.ai.winnable_" + name
            table = importlib.import_module(path)
            assert 0 < table.COUNT <= table.DEALS == len(table.BITS) * 8
        else:
            assert path is None, name
    assert games.winnable_module("klondike") is None


def test_the_lines_name_only_games_and_their_computer_players_never_the_interface():
    # What load() imports by name, which the layer check cannot read from an import line:
    # the game's module (its class, LAYOUT and RULES_PAGE) and the tables and players of the
    # layer above the games that load() hands the class. No line names engine_core.ui.
    for line in games.GAMES:
        paths = [p for p in line if isinstance(p, str) and p.startswith("engine_core.")]
        assert paths[0].startswith("engine_core.games.") and len(line) == 8, line
        assert all(p.startswith(("engine_core.games.", "engine_core.ai.")) for p in paths), line


def test_importing_the_registry_imports_no_game():
    code = ("import sys; import engine_core.games as g; "
            "print([m for m in sys.modules if m.startswith(('engine_core.games.', 'engine_core.ai',"
            " 'engine_core.ui'))])")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_registry_lookups_allocate_nothing_on_micropython():
    # The screens look titles and rules pages up while they draw; saves look ids up.
    out = run_mpy_ok(
        "import gc, micropython\n"
        "from engine_core import games\n"
        "NAMES = tuple(games.names())\n"
        "for name in NAMES:\n"  # the screens show a rules page of a game whose module is loaded
        "    games.load(name)\n"
        "def look_up():\n"
        "    n = 0\n"
        "    for i in range(len(NAMES)):\n"
        "        name = NAMES[i]\n"
        "        n += len(games.title(name)) + len(games.rules_text(name)) + games.game_id(name)\n"
        "        n += 1 if games.winnable_module(name) is None else 0\n"
        "        n += 1 if games.has_flag(name, games.RULES_SETTING) else 0\n"
        "        n += len(games.name_of(games.game_id(name)))\n"
        "    return n\n"
        "result = 'not run'\n"  # every global exists before the lock: a new one would allocate
        "gc.collect()\n"
        "micropython.heap_lock()\n"
        "try:\n"
        "    look_up()\n"
        "    result = 'no allocation'\n"
        "except MemoryError:\n"
        "    result = 'allocated'\n"
        "micropython.heap_unlock()\n"
        "print(result, look_up() > 0)\n")
    assert out.split() == ["no", "allocation", "True"]


def test_a_game_gets_its_advisor_from_the_registry_and_refuses_to_start_without_one():
    from engine_core.game import Game
    cls = games.load("aces_up")
    assert cls.AI is sys.modules["engine_core.ai.aces_up"]
    game = cls()
    game.deal(1)
    assert game.advisor is not None and game.is_legal(game.hint())
    assert games.load("nerts").AI is sys.modules["engine_core.ai.nerts_bot"]

    class Bare(Game):
        NAME = "bare"

    try:
        Bare().attach_ai()
    except TypeError as e:
        assert "bare" in str(e) and "games.load" in str(e)
    else:
        raise AssertionError("a game without its AI module started")
