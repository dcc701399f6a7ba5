"""Boards with fewer buttons than the ten logical ones (docs/boards.md, docs/screen.md): the
six-button OLED boards (pico_ssd1306, pico_sh1106: a D-pad, A and B; a long B is START,
their LONG_AS) and the others that lack some. The simulator behaves as the board does (its
long presses, its keys alone in the keyboard map), the rules pages name only the presses the
board has, and the 128x64 key lines keep their parts apart."""

import re

import pytest

import boards
from engine_core.gfx.paint import CHAR_W
from engine_core.ui import buttons as bt
from engine_core.ui import screens as ui
from engine_core.ui import texts
from engine_core.ui.settings import S_TWO_BUTTONS
from simulator.boards import resolve_board
from simulator.keys import make_app, run
from tests.test_small_screens import Drawn

SIX = ("pico_ssd1306", "pico_sh1106")
TWO_SPACES = 2 * CHAR_W + 1  # ink to ink across two blank characters of the 5x7 font


# --- the simulator's window and key scripts ---

def six_button_window(name, monkeypatch):
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    from simulator.__main__ import board_app
    from simulator.window import Window
    from tests.test_simulator import window_keys
    board = resolve_board(name)
    app = board_app(board)
    app.open_game("aces_up", 7)
    window = Window(app.screen, scale=1, board=board, visible=False)
    return app, window, window_keys(app, window)


@pytest.mark.parametrize("name", SIX)
def test_holding_b_in_the_window_is_start_on_a_six_button_board(name, monkeypatch):
    import pygame
    app, window, keys = six_button_window(name, monkeypatch)
    pressed = []
    app.press = lambda button, long_press=False: pressed.append((button, long_press))
    keys.event(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_b), 0)
    assert pressed == [], "a long B stands for START: B waits"
    keys.repeat(bt.LONG_PRESS_MS)
    assert pressed == [(bt.START, False)]  # held long: START, once
    keys.repeat(bt.LONG_PRESS_MS + 500)
    keys.event(pygame.event.Event(pygame.KEYUP, key=pygame.K_b), 1000)
    assert pressed == [(bt.START, False)]
    keys.event(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_b), 2000)
    keys.event(pygame.event.Event(pygame.KEYUP, key=pygame.K_b), 2100)
    assert pressed[-1] == (bt.B, False) and len(pressed) == 2  # a tap: B, on release
    for key in (pygame.K_x, pygame.K_y, pygame.K_s, pygame.K_BACKSPACE, pygame.K_r):
        keys.event(pygame.event.Event(pygame.KEYDOWN, key=key), 3000)
        keys.event(pygame.event.Event(pygame.KEYUP, key=key), 3050)
    assert len(pressed) == 2, "keys for buttons the board lacks do nothing"
    window.close()


@pytest.mark.parametrize("name", SIX)
def test_holding_b_in_the_window_opens_the_pause_menu(name, monkeypatch):
    import pygame
    app, window, keys = six_button_window(name, monkeypatch)
    keys.event(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_b), 0)
    keys.repeat(bt.LONG_PRESS_MS)
    keys.event(pygame.event.Event(pygame.KEYUP, key=pygame.K_b), 600)
    assert app.mode == ui.PAUSE
    window.close()


@pytest.mark.parametrize("name", SIX)
def test_long_b_in_a_key_script_is_start_on_a_six_button_board(name, tmp_path):
    from simulator.__main__ import main
    shots = {}
    for keys in ("LONG_B", "START", "B"):
        path = tmp_path / (keys + ".png")
        main(["--headless", "--board", name, "--game", "aces_up", "--seed", "3", "--keys", keys,
              "--screenshot", str(path)])
        shots[keys] = path.read_bytes()
    assert shots["LONG_B"] == shots["START"] != shots["B"]
    board = resolve_board(name)
    app = make_app(board.width, board.height, "aces_up", 3, board.mono)
    run(app, "LONG_B", long_as=board.long_as)
    assert app.mode == ui.PAUSE


def test_a_long_press_stands_for_its_button_only_on_a_board_that_says_so():
    app = make_app(240, 240, "aces_up", 3)
    run(app, "LONG_B", long_as=resolve_board("240x240").long_as)
    assert app.mode == ui.PLAY  # every button its own: a long B is a long B
    app = make_app(240, 240, "aces_up", 3)
    run(app, "LONG_Y", long_as=resolve_board("pico_lcd_13").long_as)
    assert app.mode == ui.RULES  # a long Y is SELECT there


@pytest.mark.parametrize("name", boards.NAMES)
def test_the_keyboard_map_lists_the_boards_keys_alone_and_what_holding_one_gives(name):
    from simulator.window import help_lines
    board = resolve_board(name)
    lines = dict(help_lines(board))
    for key, button in (("X", bt.X), ("Y", bt.Y), ("R", bt.X), ("S", bt.START), ("Backspace", bt.SELECT),
                        ("Arrows", bt.UP)):
        assert (key in lines) == (button in board.buttons), (name, key)
    for held, reported in board.long_as:
        key = {bt.A: "A/Space/Enter", bt.START: "S", bt.SELECT: "Backspace"}.get(held, bt.NAMES[held])
        assert "(hold: " + bt.NAMES[reported] in lines[key], (name, held)
    if name in SIX:
        assert lines["B"] == "B: cancel, back (hold: START, the pause menu)"


# --- the rules pages' keys ---

def board_keys(name):
    board = resolve_board(name)
    app = make_app(board.width, board.height, mono=board.mono)
    app.set_buttons(board.mask, board.long_as)
    return app, board


@pytest.mark.parametrize("name", boards.NAMES)
def test_the_rules_pages_keys_name_only_presses_the_board_has(name):
    app, board = board_keys(name)
    first = app.keys_text().split(b"\n")[0]
    reached = {reported for _, reported in board.long_as}
    for button in (bt.X, bt.Y, bt.START, bt.SELECT):
        named = re.search(rb"\b%s\b" % bt.NAMES[button].encode(), first) is not None
        if named:
            assert button in board.buttons or button in reached, (name, bt.NAMES[button], first)
    for held, reported in board.long_as:
        if not board.two_buttons:
            assert b"Long %s %s" % (bt.NAMES[held].encode(), (b"menu" if reported == bt.START else b"this page")) \
                in first, (name, first)
    if board.two_buttons:
        assert b"D-pad" not in app.keys_text() and app.keys_text().startswith(b"Two buttons:")


def test_a_six_button_boards_rules_say_long_b_for_the_menu_and_where_hint_undo_redo_are():
    app, _ = board_keys("pico_ssd1306")
    assert b"B cancels. Long B menu (hint, undo and redo are in it). This page: UP and DOWN" in app.keys_text()
    assert b"X hint" not in app.keys_text() and b"SELECT" not in app.keys_text()
    assert board_keys("odroid_go")[0].keys_text() == texts.RULES_KEYS  # every button: the text as ever


@pytest.mark.parametrize("name", SIX + ("pico_lcd_114", "picosystem", "tdisplay"))
def test_the_device_and_the_simulator_tell_the_app_the_same_buttons(name):
    from simulator.__main__ import board_app
    from tools.device.pico_scenario import Reference
    device = Reference(boards.load(name)).console.app
    sim = board_app(resolve_board(name))
    assert device.keys_text() == sim.keys_text() and device.no_x == sim.no_x
    assert bytes(device.settings) == bytes(sim.settings)


# --- the 128x64 key lines ---

def rows(app):
    """The letters drawn on a full redraw, by row (y) top first, each row sorted by x."""
    drawn = Drawn(app)
    app.full = True
    app.redraw()
    by_y = {}
    for op in drawn.ops:
        if op[0] == "letter":
            by_y.setdefault(op[2], []).append(op[1:])
    return [sorted(by_y[y]) for y in sorted(by_y)]


def widest_gap(row):
    return max(b[0] - (a[0] + a[2]) for a, b in zip(row, row[1:]))


@pytest.mark.parametrize("name", SIX + ("128x64",))
def test_the_game_lists_title_and_its_keys_lie_two_characters_apart(name):
    app, board = board_keys(name)
    run(app, "DOWN A")
    assert app.mode == ui.CHOOSE
    assert widest_gap(rows(app)[0]) >= TWO_SPACES, name


@pytest.mark.parametrize("name", SIX + ("128x64",))
def test_the_deal_number_keys_keep_their_parts_apart_and_off_the_edges(name):
    app, board = board_keys(name)
    run(app, "DOWN A " + ("LONG_A" if app.no_x else "X"))
    assert app.mode == ui.DEAL
    row = rows(app)[-2]  # the keys line, over "A: deal  B: back"
    assert widest_gap(row) >= TWO_SPACES, name
    assert row[0][0] >= 4 and row[-1][0] + row[-1][2] <= app.width - 4, name


# --- two buttons: the key lines name A and B alone ---

def words_drawn(app):
    """Every text the painter draws in a full redraw of the screen shown."""
    seen = []
    painter = app.painter
    for name in ("text", "text_centred", "text_span"):
        method = getattr(painter, name)

        def noted(words, *args, _method=method, **kw):
            seen.append(bytes(words))
            return _method(words, *args, **kw)
        setattr(painter, name, noted)
    app.full = True
    app.redraw()
    for name in ("text", "text_centred", "text_span"):
        delattr(painter, name)
    return b" | ".join(seen)


@pytest.mark.parametrize("size", [(240, 240), (240, 135), (320, 240), (160, 128), (128, 64)])
@pytest.mark.parametrize("two", [False, True])
def test_with_two_buttons_the_screens_key_lines_name_only_a_and_b(size, two):
    # A console in the two-button scheme (docs/screen.md: B steps, a long B backs out, a long
    # A stands for X on the game list and the deal screen) takes no other button, so a key line
    # naming the D-pad or X offers a press that does nothing.
    lines = []
    for keys in ("", "DOWN A", "DOWN A " + ("LONG_A" if two else "X")):
        app = make_app(*size)
        app.settings[S_TWO_BUTTONS] = 1 if two else 0
        run(app, keys.replace("DOWN", "B") if two else keys)
        lines.append(words_drawn(app))
    app = make_app(*size, "casket", 1)
    app.settings[S_TWO_BUTTONS] = 1 if two else 0
    app.go(ui.RULES)
    lines.append(words_drawn(app))
    app.go(ui.STATS)  # with two buttons B scrolls the page: A goes back
    stats = words_drawn(app)
    assert (b"A: back" in stats) == two and (b"B: back" in stats) != two
    other = re.compile(rb"(Up/down|U/D|L/R|Left/right|LEFT|RIGHT|\bX: )")
    named = [line for line in lines if other.search(line)]
    if two:
        assert named == [], named
    else:
        assert len(named) >= 3, lines  # they are there when the board has the buttons (128x64: no title line)


def test_the_deal_screens_own_copy_of_the_two_button_settings_slot_is_the_settings_one():
    from engine_core.ui import pages
    assert pages._S_TWO_BUTTONS == S_TWO_BUTTONS  # a private const: no name in the Pico's heap


@pytest.mark.parametrize("size", [(240, 240), (128, 64)])
def test_with_two_buttons_every_digit_of_a_deal_number_can_be_set(size):
    # The deal number screen with A and B alone: B counts the digit up, a long A moves to the
    # next digit (it could set only the last digit: deals 0-9 or a random one).
    from engine_core.ui.screens import SEED_DIGITS
    app = make_app(*size)
    app.settings[S_TWO_BUTTONS] = 1
    run(app, "B A LONG_A")
    assert app.mode == ui.DEAL
    want = "1073741823"
    at = app.deal_screen.pos
    for k in range(SEED_DIGITS):  # from the digit the cursor is on, round to each digit in turn
        i = (at + k) % SEED_DIGITS
        while app.deal_screen.digits[i] != int(want[i]):
            run(app, "B")
        run(app, "LONG_A")
    assert app.seed() == int(want)
    run(app, "A")
    assert app.mode in (ui.PLAY, ui.CONFIRM)


def test_with_two_buttons_the_rules_keys_are_the_two_button_paragraph_alone():
    app = make_app(240, 240, "casket", 1)
    app.settings[S_TWO_BUTTONS] = 1
    assert app.keys_text() == texts.KEYS_TWO


def test_with_two_buttons_the_keyboard_map_lists_a_b_and_the_windows_own_keys():
    from simulator.keymap import help_lines
    keys = [key for key, _ in help_lines(resolve_board("240x240"), True)]
    assert keys[:2] == ["A/Space/Enter", "B"] and "X" not in keys and "Arrows" not in keys


def centred_during(app, act):
    """The words the painter centres while act() runs."""
    seen = []
    original = app.painter.text_centred

    def noted(words, *args):
        seen.append(bytes(words))
        return original(words, *args)
    app.painter.text_centred = noted
    try:
        act()
    finally:
        del app.painter.text_centred
    return seen


@pytest.mark.parametrize("size", [(240, 240), (240, 135), (160, 128), (128, 64)])
def test_with_two_buttons_the_deal_number_key_lines_fit_the_screen(size):
    from engine_core.gfx.paint import CHAR_W
    app = make_app(*size)
    app.settings[S_TWO_BUTTONS] = 1
    run(app, "B A LONG_A")
    assert app.mode == ui.DEAL
    app.full = True
    seen = centred_during(app, app.redraw)
    keys = [w for w in seen if b"digit" in w or b"deal" in w]
    assert len(keys) == 2
    for words in keys:
        assert len(words) * CHAR_W - 1 <= app.width - 4, words


def test_a_console_started_with_two_buttons_names_a_and_b_on_its_first_title():
    # The App draws its title before the console's settings come (from the records, or a
    # board with A and B alone): the first title said "Up/down: choose".
    from engine_core.console import Console
    from engine_core.storage import MemoryStorage
    app = make_app(160, 128)
    app.settings[S_TWO_BUTTONS] = 1
    console = Console(app, MemoryStorage())
    assert b"B: next  A: start" in centred_during(app, console.start)


def test_the_statistics_pages_own_copy_of_the_two_button_settings_slot_is_the_settings_one():
    from engine_core.ui import stats
    assert stats._S_TWO_BUTTONS == S_TWO_BUTTONS
