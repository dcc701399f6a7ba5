"""The interface on real MicroPython: identical frames, and no allocation from keypress to redraw."""

import pytest

from engine_core.ui import layouts
from support.ui_scripts import games_with_layouts, script
from tests.helpers import run_mpy_ok
from tools.frame import frame

SIZES = ["%dx%d" % s for s in layouts.SIZES]


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("game", games_with_layouts())
def test_frames_are_identical_on_cpython_and_micropython(game, size):
    w, h = (int(v) for v in size.split("x"))
    keys = script(game)
    for cut in (len(keys) // 3, len(keys)):  # mid-game and at the end of the script
        part = keys[:cut].rsplit(" ", 1)[0] if cut < len(keys) else keys
        cpython = frame("cpython", w, h, game, 7, part)
        assert frame("micropython", w, h, game, 7, part) == cpython
        assert len(set(cpython)) > 8


def test_the_title_and_menus_are_identical_on_both_runtimes():
    keys = "A DOWN UP A UP LEFT UP"
    assert frame("micropython", 320, 240, None, 1, keys) == frame("cpython", 320, 240, None, 1, keys)


HEAP_LOCK = """
import gc, micropython
from simulator.keys import make_app, parse

def play(app, events):
    for e in events:
        if e[0] < 0:
            app.tick(-e[0])
        else:
            app.press(e[0], e[1])

app = make_app(WIDTH, HEIGHT, GAME, 7)
events = parse(KEYS)
play(app, events)            # the first pass opens every screen once
app.open_game(GAME, 7)
result = "not run"
gc.collect()
micropython.heap_lock()
try:
    play(app, events)
    play(app, events)
    result = "no allocation"
except MemoryError:
    result = "allocated"
micropython.heap_unlock()
print(result, app.table.move_count)
"""


def heap_lock_script(game, size, keys, setup=""):
    w, h = size
    return (HEAP_LOCK.replace("WIDTH", str(w)).replace("HEIGHT", str(h))
            .replace("GAME", repr(game)).replace("KEYS", repr(keys))
            .replace("events = parse", setup + "events = parse"))


@pytest.mark.parametrize("size", layouts.SIZES)
@pytest.mark.parametrize("game", games_with_layouts())
def test_keypress_to_redraw_allocates_nothing_under_heap_lock(game, size):
    out = run_mpy_ok(heap_lock_script(game, size, script(game)))
    assert out.startswith("no allocation "), out


def test_the_heap_lock_check_catches_an_allocating_redraw():
    # The same check, with a status line that builds a list on every redraw.
    leaky = (
        "from engine_core.ui import overlay as o\n"
        "plain = o.draw_status\n"
        "def leaky(view, full=False):\n"
        "    junk = [view.move_count]\n"
        "    return plain(view, full)\n"
        "o.draw_status = leaky\n"
    )
    out = run_mpy_ok(heap_lock_script("aces_up", (240, 240), "RIGHT LEFT", leaky))
    assert out.startswith("allocated "), out


def test_games_are_made_and_remade_on_micropython_after_a_collection():
    # A collection between screens, then a game made, then made again for new settings.
    code = (
        "import gc\n"
        "from simulator.keys import make_app, run\n"
        "app = make_app(240, 135)\n"
        "gc.collect()\n"
        "app.open_game('aces_up', 1)\n"
        "first = app.table.game\n"
        "app.settings[5] = 2\n"
        "app.start_game(2)\n"
        "gc.collect()\n"
        "run(app, 'X A A RIGHT A')\n"
        "print(app.table.game is not first, app.table.game.options >> 1, app.mode)\n"
    )
    assert run_mpy_ok(code).split() == ["True", "100", "3"]


@pytest.mark.parametrize("game", games_with_layouts())
def test_the_app_with_a_game_holds_under_64_kb_of_heap_on_the_largest_screen(game):
    # PERFORMANCE.md's budget for the running app: an ESP32 without PSRAM has about 110 KB.
    from tools.bench.bench_screens import heap_figures
    width, height = max(layouts.SIZES, key=lambda s: s[0] * s[1])
    app, table = heap_figures(game, width, height)
    assert 0 < table and app + table < 64 * 1024, (app, table)
