"""The simulator's command line: headless screenshots, boards, frames, the window."""

import json
import os
import subprocess
import sys

import pytest

from simulator.boards import resolve_board
from tools.mpy import ROOT


def simulate(*args, env=None):
    return subprocess.run([sys.executable, "-m", "simulator", *args], cwd=ROOT,
                          capture_output=True, text=True, env=env)


@pytest.mark.parametrize("size", ["240x135", "240x240", "320x240", "160x128", "128x64"])
def test_headless_run_writes_a_screenshot_of_the_screen_after_the_keys(tmp_path, size):
    from PIL import Image
    out = tmp_path / "shot.png"
    run = simulate("--headless", "--board", size, "--game", "aces_up", "--seed", "7",
                   "--keys", "X LONG_A", "--screenshot", str(out), "--scale", "2")
    assert run.returncode == 0, run.stderr
    w, h = (int(v) for v in size.split("x"))
    img = Image.open(out)
    assert img.size == (2 * w, 2 * h)
    if (w, h) == (128, 64):  # every 128x64 panel is a one-bit OLED: the bare size is shown so
        assert len(img.getcolors(10000)) == 2
    else:
        assert len(img.getcolors(10000)) >= 6  # felt, card white, red, black, highlight, ...


def test_headless_screenshot_equals_the_frame_tool_bytes(tmp_path):
    from PIL import Image

    from simulator.image import to_rgb_bytes
    from simulator.keys import make_app, run
    out = tmp_path / "shot.png"
    simulate("--headless", "--board", "240x240", "--game", "aces_up", "--seed", "3",
             "--keys", "RIGHT A", "--screenshot", str(out))
    app = make_app(240, 240, "aces_up", 3)
    run(app, "RIGHT A")
    expected = to_rgb_bytes(app.screen.buf, 240, 240, app.screen.palette)
    assert Image.open(out).convert("RGB").tobytes() == expected


def test_the_skin_screenshot_shows_the_window(tmp_path):
    from PIL import Image
    out = tmp_path / "skin.png"
    env = dict(os.environ, SDL_VIDEODRIVER="dummy")
    run = simulate("--headless", "--board", "320x240", "--skin", "--screenshot", str(out), env=env)
    assert run.returncode == 0, run.stderr
    assert Image.open(out).size[0] > 320 * 3


def test_board_takes_bare_sizes_and_refuses_unknown_names():
    board = resolve_board("320x240")
    assert (board.width, board.height) == (320, 240)
    with pytest.raises(ValueError, match="no board named"):
        resolve_board("no_such_board_here")
    with pytest.raises(ValueError):
        resolve_board("241x240")


@pytest.mark.parametrize("size", ["160x128", "128x64"])
def test_the_hobby_display_sizes_are_boards_of_their_own(size):
    board = resolve_board(size)
    assert "%dx%d" % (board.width, board.height) == size


@pytest.mark.parametrize("size", ["200x100", "128x32", "240x136", "480x320"])
def test_a_size_with_no_layout_is_refused_with_the_sizes_not_cropped(size, tmp_path):
    # A 128x64 screen used to show the top-left corner of a bigger layout; any size the games
    # have no layout for is refused, and the message lists the sizes that have one.
    with pytest.raises(ValueError, match="no layout") as refused:
        resolve_board(size)
    for known in ("240x135", "240x240", "320x240", "160x128", "128x64"):
        assert known in str(refused.value)
    run = simulate("--headless", "--board", size, "--screenshot", str(tmp_path / "x.png"))
    assert run.returncode != 0 and "no layout for a " + size in run.stderr
    assert "160x128, 128x64" in run.stderr and not (tmp_path / "x.png").exists()


def test_a_board_module_whose_screen_has_no_layout_is_refused(tmp_path, monkeypatch):
    pkg = tmp_path / "boards"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "odd_test_board.py").write_text("WIDTH = 200\nHEIGHT = 100\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    for name in [m for m in sys.modules if m == "boards" or m.startswith("boards.")]:
        monkeypatch.delitem(sys.modules, name)
    with pytest.raises(ValueError, match="200x100 screen, which has no layout"):
        resolve_board("odd_test_board")


def test_board_names_come_from_board_modules_with_width_and_height(tmp_path, monkeypatch):
    pkg = tmp_path / "boards"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "tiny_test_board.py").write_text("WIDTH = 240\nHEIGHT = 135\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    for name in [m for m in sys.modules if m == "boards" or m.startswith("boards.")]:
        monkeypatch.delitem(sys.modules, name)
    board = resolve_board("tiny_test_board")
    assert (board.width, board.height) == (240, 135)
    assert not board.two_buttons


def test_a_board_with_only_a_and_b_plays_the_two_button_scheme(tmp_path, monkeypatch):
    pkg = tmp_path / "boards"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "two_button_test_board.py").write_text("WIDTH = 240\nHEIGHT = 135\nBUTTONS = ((4, 35), (5, 0))\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    for name in [m for m in sys.modules if m == "boards" or m.startswith("boards.")]:
        monkeypatch.delitem(sys.modules, name)
    board = resolve_board("two_button_test_board")
    assert board.buttons == (4, 5) and board.two_buttons


def test_bad_keys_and_games_are_reported_not_crashed(tmp_path):
    run = simulate("--headless", "--board", "240x240", "--keys", "A JUMP", "--screenshot", str(tmp_path / "x.png"))
    assert run.returncode != 0 and "unknown key 'JUMP'" in run.stderr
    run = simulate("--headless", "--board", "240x240", "--game", "chess", "--screenshot", str(tmp_path / "x.png"))
    assert run.returncode != 0 and "no game with a layout named chess" in run.stderr


def test_frame_tool_writes_the_raw_framebuffer(tmp_path):
    out = tmp_path / "f.bin"
    run = subprocess.run([sys.executable, "-m", "tools.frame", "--runtime", "cpython", "--board", "240x135",
                          "--game", "aces_up", "--seed", "5", "--keys", "RIGHT", "--out", str(out)],
                         cwd=ROOT, capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    assert len(out.read_bytes()) == 240 * 135 // 2


def test_window_update_copies_the_framebuffer_and_clears_the_dirty_list(monkeypatch):
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    from simulator.keys import make_app
    from simulator.window import Window
    app = make_app(240, 240, "aces_up", 69)
    window = Window(app.screen, scale=2, visible=False)
    app.press(3)
    assert app.screen.dirty_count > 0
    window.update()
    assert app.screen.dirty_count == 0
    x, y = 10, 30  # a pixel of the stock's back, through the scale
    assert window.surface.get_at((window.side + 2 * x, window.pad + 2 * y))[:3] != (0, 0, 0)
    window.close()


def window_keys(app, window):
    """The window's keys (simulator/__main__.py Keys) over a console around `app`, each event
    they latch handed over at once, as the engine's loop hands it (engine_core/loop.py)."""
    from engine_core.console import Console
    from engine_core.loop import Loop
    from engine_core.storage import MemoryStorage
    from simulator.__main__ import Keys
    console = Console(app, MemoryStorage())
    console.start()

    class Port:
        beeper = latch = None

        class clock:
            def ticks_ms():
                return 0

    class Handed(Keys):
        def event(self, event, now):
            Keys.event(self, event, now)
            self.hand(now)

        def repeat(self, now):
            Keys.repeat(self, now)
            self.hand(now)

        def hand(self, now):
            loop.last_tick = now
            code = self.next_event()
            while code >= 0:
                loop.take(code, now)
                code = self.next_event()
            self.defer = console.defers()  # as the loop leaves it after a frame

    port = Port()
    port.keys = keys = Handed(console, window)
    keys.defer = console.defers()
    loop = Loop(console, port)
    return keys


def test_keyboard_events_become_presses_long_presses_and_repeats(monkeypatch):
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    import pygame

    from engine_core.ui import buttons as bt
    from simulator.keys import make_app
    from simulator.window import Window
    app = make_app(240, 240, "aces_up", 69)
    window = Window(app.screen, scale=1, visible=False)
    pressed = []
    app.press = lambda button, long_press=False: pressed.append((button, long_press))
    keys = window_keys(app, window)
    keys.event(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_RIGHT), 0)
    assert pressed == [(bt.RIGHT, False)]  # the D-pad reports at once
    keys.repeat(400)  # and repeats while held
    assert pressed[-1] == (bt.RIGHT, False) and len(pressed) == 2
    keys.event(pygame.event.Event(pygame.KEYUP, key=pygame.K_RIGHT), 410)
    keys.event(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_a), 1000)
    assert pressed[-1] == (bt.A, False)  # in play A acts as it goes down
    keys.event(pygame.event.Event(pygame.KEYUP, key=pygame.K_a), 1100)
    assert len(pressed) == 3, "and not again on release"
    keys.event(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_a), 2000)
    keys.repeat(2000 + bt.LONG_PRESS_MS)
    keys.event(pygame.event.Event(pygame.KEYUP, key=pygame.K_a), 2600)
    assert pressed[-2:] == [(bt.A, False), (bt.A, bt.HELD_ON)], "held on, once"
    # X waits in play (a long X is redo): a tap on release, a hold as a long press.
    keys.event(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_x), 2700)
    assert pressed[-1] == (bt.A, bt.HELD_ON)
    keys.event(pygame.event.Event(pygame.KEYUP, key=pygame.K_x), 2750)
    assert pressed[-1] == (bt.X, False)
    keys.event(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_x), 2800)
    keys.repeat(2800 + bt.LONG_PRESS_MS)
    keys.event(pygame.event.Event(pygame.KEYUP, key=pygame.K_x), 3300)
    assert pressed[-1] == (bt.X, True) and pressed.count((bt.X, True)) == 1
    keys.event(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_h), 3000)
    assert window.help
    keys.event(pygame.event.Event(pygame.QUIT), 3100)
    assert keys.quit  # the window's close button
    window.close()


def test_the_letter_keys_press_the_buttons_of_the_same_name_enter_is_a_s_start_backspace_select():
    from engine_core.ui import buttons as bt
    import pygame
    from simulator.window import KEYMAP
    assert KEYMAP[pygame.K_a] == bt.A and KEYMAP[pygame.K_b] == bt.B
    assert KEYMAP[pygame.K_x] == bt.X and KEYMAP[pygame.K_y] == bt.Y
    assert KEYMAP[pygame.K_RETURN] == bt.A and KEYMAP[pygame.K_s] == bt.START
    assert KEYMAP[pygame.K_BACKSPACE] == bt.SELECT


@pytest.mark.parametrize("size", [(240, 135), (240, 240), (320, 240), (160, 128), (128, 64)])
def test_the_window_fits_a_1366x768_screen_and_keeps_scale_3_on_a_large_one(size):
    from simulator.window import HELP
    from simulator.window import fit_scale, window_size
    scale = fit_scale(size[0], size[1], 1366, 768)
    w, h = window_size(size[0], size[1], scale)
    assert w <= 1366 and h <= 768 - 80 and scale >= 2
    assert fit_scale(size[0], size[1], 2560, 1440) == 3
    assert h >= 30 + 22 * len(HELP) + 20  # the keyboard map (H) fits in the window


@pytest.mark.parametrize("seed", ["-5", "12345678901234567890", "7x"])
def test_the_simulator_refuses_a_seed_outside_the_protocols_range_with_a_clear_error(seed, tmp_path):
    result = subprocess.run([sys.executable, "-m", "simulator", "--headless", "--game", "aces_up",
                             "--seed", seed, "--screenshot", str(tmp_path / "x.png")],
                            cwd=ROOT, capture_output=True, text=True)
    assert result.returncode == 2 and "--seed" in result.stderr and "Traceback" not in result.stderr
    assert not (tmp_path / "x.png").exists()


def test_without_a_display_the_simulator_says_so_and_exits_at_once():
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY", "SDL_VIDEODRIVER")}
    result = subprocess.run([sys.executable, "-m", "simulator"], cwd=ROOT, env=env,
                            capture_output=True, text=True, timeout=20)
    assert result.returncode == 1 and "no display" in result.stderr and "--headless" in result.stderr


def board_names():
    import re
    with open(os.path.join(ROOT, "boards", "__init__.py")) as f:
        return re.findall(r'"([a-z0-9_]+)"', re.search(r"NAMES = \((.*?)\)", f.read(), re.S).group(1))


def test_make_build_without_a_board_prints_the_usage_and_the_board_names():
    result = subprocess.run(["make", "build"], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert result.returncode != 0 and "usage: make build BOARD=" in result.stdout
    assert all(name in result.stdout for name in board_names()) and len(board_names()) >= 5


def test_an_unknown_board_is_refused_with_the_board_names():
    result = subprocess.run([sys.executable, "-m", "simulator", "--board", "foo", "--headless"], cwd=ROOT,
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 1 and all(name in result.stderr for name in board_names())


def test_the_mouse_picks_up_places_sends_home_and_presses_the_drawn_buttons():
    import pygame
    from engine_core.ui import buttons as bt
    from simulator.keys import make_app
    from simulator.window import Window
    app = make_app(240, 240, "aces_up", 1)
    window = Window(app.screen, scale=2, visible=False)
    keys = window_keys(app, window)
    table = app.table
    game = table.game
    st = table.slots.style

    def click(slot, now):
        x = window.side + (table.slots.x[slot] + st.w // 2) * 2
        y = window.pad + (table.slots.y[slot] + st.h // 2) * 2
        keys.event(pygame.event.Event(pygame.MOUSEBUTTONDOWN, button=1, pos=(x, y)), now)

    n = table.legal_moves()
    move = [m for m in table.hand.moves[:n] if m >> 16 != 255][0]
    src, dst = table.slots.slot_of[move >> 16], table.slots.slot_of[(move >> 8) & 0xFF]
    click(src, 1000)
    assert table.held == src
    click(dst, 2000)
    assert table.move_count == 1 and table.held == 255
    before = game.piles.size[game.pile_id("discard")]
    n = table.legal_moves()
    home = [m for m in table.hand.moves[:n] if (m >> 8) & 0xFF == game.pile_id("discard")]
    assert home  # seed 1 offers a discard after its first move
    s = table.slots.slot_of[home[0] >> 16]
    click(s, 5000)
    click(s, 5200)  # a double-click: to the discard
    assert game.piles.size[game.pile_id("discard")] == before + 1
    x, y, r = window.button_spots()[bt.START]
    keys.event(pygame.event.Event(pygame.MOUSEBUTTONDOWN, button=1, pos=(x, y)), 9000)
    assert app.mode == 4  # the drawn START button: the pause menu
    window.close()


def test_the_mouse_drags_a_card_that_follows_it_and_drops_where_released(monkeypatch):
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    import pygame
    from engine_core.gfx.palette import HELD
    from simulator.__main__ import Desktop
    from simulator.image import rgb888
    from simulator.keys import make_app
    from simulator.window import Window
    app = make_app(240, 240, "aces_up", 69)  # 2S QS TD 3H: the 2S may go to the discard
    window = Window(app.screen, scale=2, visible=False)
    keys = window_keys(app, window)
    console = keys.app
    table = app.table
    game = table.game
    st = table.slots.style
    slot_of = table.slots.slot_of

    def at(x, y):
        return window.side + 2 * x, window.pad + 2 * y

    def mouse(kind, x, y, now):
        keys.event(pygame.event.Event(kind, button=1, pos=at(x, y), buttons=(1, 0, 0), rel=(0, 0)), now)

    col1, discard = slot_of[game.pile_id("col1")], slot_of[game.pile_id("discard")]
    x, y = table.slots.x[col1] + st.w // 2, table.slots.y[col1] + st.h // 2
    mouse(pygame.MOUSEBUTTONDOWN, x, y, 1000)
    assert table.held == col1
    mouse(pygame.MOUSEMOTION, 150, 120, 1050)
    mouse(pygame.MOUSEMOTION, 160, 150, 1100)  # the card follows the pointer
    table_pixels = bytes(app.screen.buf)
    Desktop(window, keys, None).flush(app.screen)  # what the window shows: the card at the pointer
    left, top = 160 - st.w // 2, 150 - st.h // 2
    shown = window.frame.get_at((left, top + st.h // 2))[:3]
    assert shown == rgb888(app.screen.palette[HELD]), shown
    assert bytes(app.screen.buf) == table_pixels  # the framebuffer between frames: the table's alone
    tx, ty = table.slots.x[discard] + st.w // 2, table.slots.y[discard] + st.h // 2
    mouse(pygame.MOUSEMOTION, tx, ty, 1150)
    mouse(pygame.MOUSEBUTTONUP, tx, ty, 1200)
    assert game.piles.size[game.pile_id("discard")] == 1 and table.held == 255
    assert not console.pointer.drag
    window.close()


def test_esc_backs_out_as_b_does_and_asks_before_closing_on_the_title(tmp_path):
    import pygame
    from engine_core.ui import buttons as bt
    from simulator.keys import make_app
    from simulator.window import Window
    app = make_app(240, 240, "aces_up", 7)
    window = Window(app.screen, scale=1, visible=False)
    keys = window_keys(app, window)

    def key(name, now=0):
        keys.event(pygame.event.Event(pygame.KEYDOWN, key=getattr(pygame, "K_" + name)), now)
        keys.event(pygame.event.Event(pygame.KEYUP, key=getattr(pygame, "K_" + name)), now + 50)

    key("x")
    key("a")
    assert app.table.held != 255  # a card picked up
    key("ESCAPE")
    assert app.table.held == 255 and app.mode == 3 and not keys.quit  # put back, still in play
    key("ESCAPE")
    assert app.mode == 4 and not keys.quit  # from play: the pause menu
    key("ESCAPE")
    assert app.mode == 3  # and back to play
    key("h")
    key("ESCAPE")
    assert not window.help and app.mode == 3  # the key map closes first

    app = make_app(240, 240)  # the title
    keys = window_keys(app, window)
    key("DOWN")
    key("a")
    assert app.mode == 1  # the game list
    key("ESCAPE")
    assert app.mode == 0 and not window.asking and not keys.quit  # back on the title
    key("ESCAPE")
    assert window.asking and not keys.quit  # nothing to back out of: it asks
    window.save(str(tmp_path / "ask.png"))  # the question is drawn over the window
    key("b")
    assert not window.asking and not keys.quit and app.mode == 0  # any other key: stay
    key("ESCAPE")
    key("ESCAPE")
    assert keys.quit  # Esc twice: closed

    # A and B only: Esc is their long presses. Seed 20 deals a card with a move under the
    # cursor's home, so A alone picks it up.
    app = make_app(240, 240, "aces_up", 20)
    app.settings[7] = 1  # S_TWO_BUTTONS
    keys = window_keys(app, window)
    app.press(bt.A)
    assert app.table.held != 255
    key("ESCAPE")
    assert app.table.held == 255 and app.mode == 3  # put back (long A)
    key("ESCAPE")
    assert app.mode == 4  # the pause menu (long B)
    key("ESCAPE")
    assert app.mode == 3 and not keys.quit
    window.close()


def test_closing_the_window_right_after_a_move_loses_nothing(monkeypatch, tmp_path):
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    import pygame
    from engine_core.console import Console
    from engine_core.protocol import state_json
    from engine_core.storage import FileStorage
    from simulator import __main__ as sim
    from simulator.keys import make_app, run
    down, up = pygame.KEYDOWN, pygame.KEYUP
    batches = [[(down, pygame.K_x), (up, pygame.K_x)], [(down, pygame.K_a), (up, pygame.K_a)],
               [(down, pygame.K_a), (up, pygame.K_a)], [(pygame.QUIT, 0)]]
    monkeypatch.setattr(pygame.event, "get", lambda: [
        pygame.event.Event(kind, key=k) for kind, k in (batches.pop(0) if batches else [])])
    sim.main(["--data-dir", str(tmp_path), "--game", "aces_up", "--seed", "7", "--scale", "1"])
    played = make_app(240, 240, "aces_up", 7)
    run(played, "X A A")
    assert played.table.move_count == 1
    resumed = Console(make_app(240, 240), FileStorage(str(tmp_path)))
    resumed.start()
    assert resumed.game is not None
    piles = json.loads(state_json(resumed.game))["piles"]
    assert piles == json.loads(state_json(played.table.game))["piles"]  # the move is there


def test_digits_typed_on_the_deal_screen_make_the_deals_number():
    import pygame
    from simulator.keys import make_app
    from simulator.window import Window
    app = make_app(240, 240)
    window = Window(app.screen, scale=1, visible=False)
    keys = window_keys(app, window)
    for key in ("DOWN", "a", "x"):  # Choose a game, Aces Up, a deal by its number
        keys.event(pygame.event.Event(pygame.KEYDOWN, key=getattr(pygame, "K_" + key)), 0)
        keys.event(pygame.event.Event(pygame.KEYUP, key=getattr(pygame, "K_" + key)), 50)
    assert app.mode == 2  # the deal screen, showing 0000001
    for key in (pygame.K_4, pygame.K_0, pygame.K_KP_9):  # the first digit replaces the number
        keys.event(pygame.event.Event(pygame.KEYDOWN, key=key), 100)
    assert app.seed() == 409
    keys.event(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_RETURN), 200)  # Enter is A
    keys.event(pygame.event.Event(pygame.KEYUP, key=pygame.K_RETURN), 250)
    assert app.mode == 3 and app.table.game.seed == 409  # dealt
    window.close()


def cpu_seconds(pid):
    """The process's user and system time so far (Linux /proc)."""
    with open("/proc/%d/stat" % pid) as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_the_window_on_a_still_title_uses_no_cpu(tmp_path):
    """Nothing moves on the title: the window waits for an event rather than drawing 60
    frames a second (with SDL's dummy video driver that cost 5-11% of a core, on a desktop
    about a third). Some 3-second stretch of the first 20 seconds must cost under 2.5% of a
    core (start-up, on a busy machine, may take a while)."""
    import time
    env = dict(os.environ, SDL_VIDEODRIVER="dummy")
    proc = subprocess.Popen([sys.executable, "-m", "simulator", "--board", "240x240", "--scale", "2",
                             "--data-dir", str(tmp_path)], cwd=ROOT, env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        samples = []
        best = None
        for _ in range(20):
            time.sleep(1)
            assert proc.poll() is None, proc.stderr.read()
            samples.append((time.monotonic(), cpu_seconds(proc.pid)))
            if len(samples) > 3:
                (t0, c0), (t1, c1) = samples[-4], samples[-1]
                share = (c1 - c0) / (t1 - t0)
                best = share if best is None else min(best, share)
                if share < 0.025:
                    break
        assert best is not None and best < 0.025, "the still title kept %.0f%% of a core busy" % (100 * best)
    finally:
        proc.kill()
        proc.wait()


def test_the_windows_sounds_are_the_devices_tones_and_the_kiosk_is_silent(monkeypatch):
    from array import array

    from engine_core.ui.tones import tone_hz, tone_ms
    from simulator.keys import make_app
    from simulator.sound import RATE, Sounds, square_wave
    for sound in range(1, 6):
        wave = array("h")
        wave.frombytes(square_wave(tone_hz(sound), tone_ms(sound)))
        assert len(wave) == RATE * tone_ms(sound) // 1000
        flips = sum(1 for a, b in zip(wave, wave[1:]) if (a > 0) != (b > 0))
        assert abs(flips - 2 * tone_hz(sound) * tone_ms(sound) / 1000) <= 3, sound
    monkeypatch.setenv("SDL_AUDIODRIVER", "dummy")
    from engine_core.console import Console
    from engine_core.storage import MemoryStorage
    sounds = Sounds()
    sounds.beep(tone_hz(3), tone_ms(3), 0)
    assert sounds.played == [(880, 250)]
    # The console gives the sound event once, and none in the kiosk (the loop sounds it).
    app = make_app(240, 240, "aces_up", 7)
    console = Console(app, MemoryStorage())
    app.sound_event = 3
    assert console.take_sound() == 3 and app.sound_event == 0 and console.take_sound() == 0
    console.kiosk_on = True
    app.sound_event = 1
    assert console.take_sound() == 0 and app.sound_event == 0


def test_a_screenshot_without_pillow_has_the_same_pixels(tmp_path, monkeypatch):
    # `make sim` installs pygame-ce alone: --screenshot then writes the PNG with pygame-ce.
    from PIL import Image

    from simulator.image import save_png
    from simulator.keys import make_app, run
    app = make_app(240, 135, "sir_tommy", 3)
    run(app, "A A X")
    args = (app.screen.buf, 240, 135, app.screen.palette, 2)
    save_png(str(tmp_path / "pil.png"), *args)
    monkeypatch.setitem(sys.modules, "PIL", None)  # import PIL now raises ImportError
    save_png(str(tmp_path / "pygame.png"), *args)
    monkeypatch.undo()
    with Image.open(tmp_path / "pil.png") as a, Image.open(tmp_path / "pygame.png") as b:
        assert a.size == b.size == (480, 270)
        assert a.convert("RGB").tobytes() == b.convert("RGB").tobytes()


def test_the_window_dims_and_goes_dark_as_the_device_and_a_key_wakes_it_doing_nothing_else(monkeypatch):
    # The device's power in the window (engine_core/power.py), on a scripted clock: dimmed at
    # Dim after (the picture shown darker), dark at Screen off after, and the key that wakes
    # it does nothing else; the next key plays.
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    import pygame
    from engine_core.console import Console
    from engine_core.power import AWAKE, DIM, OFF
    from engine_core.storage import MemoryStorage
    from engine_core.ui import settings as st
    from simulator import __main__ as sim
    from simulator.boards import resolve_board
    from simulator.keys import make_app
    from tests.helpers import ScriptClock
    console = Console(make_app(240, 240), MemoryStorage())
    console.start()
    console.app.settings[st.S_DIM] = 1                   # 15 s
    console.app.settings[st.S_OFF] = 1                   # 1 min
    clock = ScriptClock()
    host = sim.WindowHost(console, resolve_board("240x240"), 1, clock)
    window, power = host.window, host.port.power

    def until(ms):
        while clock.ms < ms:
            host.loop.frame()
            clock.ms += 100

    def brightest():
        return max(sum(window.surface.get_at((window.side + x, window.pad + y))[:3])
                   for x in range(0, 240, 3) for y in range(0, 240, 3))

    def key(k):
        for kind in (pygame.KEYDOWN, pygame.KEYUP):
            pygame.event.post(pygame.event.Event(kind, key=k))
        host.loop.frame()
        clock.ms += 100

    until(1000)
    lit = brightest()
    assert power.state == AWAKE and lit > 500
    until(14500)
    assert power.state == AWAKE and brightest() == lit
    until(15500)
    assert power.state == DIM and window.light == 10
    assert 0.25 * lit < brightest() < 0.45 * lit, "shown darker, as a backlight at 10 %"
    until(60500)
    assert power.state == OFF and brightest() == 0
    key(pygame.K_DOWN)
    assert power.state == AWAKE and brightest() == lit
    assert console.app.selected == 0, "the waking key did nothing else"
    key(pygame.K_DOWN)
    assert console.app.selected == 1, "the next key plays"
    host.window.close()


def test_the_window_resting_on_a_still_title_looks_at_its_events_every_8_ms(monkeypatch):
    """Each look at SDL's event queue wakes the process and pumps the queue: looking every
    2 ms, as the device looks at its pin flag, kept about 2% of a core on a still title. A
    rest of the window looks every 8 ms (so a press after a rest waits at most half a frame),
    and a key posted while it rests still ends the rest and is played."""
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    import pygame
    from engine_core.console import Console
    from engine_core.storage import MemoryStorage
    from simulator import __main__ as sim
    from simulator.boards import resolve_board
    from simulator.keys import make_app
    from tests.helpers import ScriptClock

    class Counted(ScriptClock):
        def __init__(self):
            super().__init__()
            self.sleeps = []

        def sleep_ms(self, ms):
            self.sleeps.append(ms)
            super().sleep_ms(ms)

    console = Console(make_app(240, 240), MemoryStorage())
    console.start()
    clock = Counted()
    host = sim.WindowHost(console, resolve_board("240x240"), 1, clock)
    while not host.loop.rests:  # the title's first frames
        host.frame()
    clock.sleeps.clear()
    start = clock.ms
    host.frame()
    assert host.loop.rests == 2 and clock.ms - start >= 900  # it rested, about a second
    assert len(clock.sleeps) <= (clock.ms - start) // 8 + 2, len(clock.sleeps)

    class Keyed(Counted):  # a key comes at key_at
        key_at = None

        def sleep_ms(self, ms):
            super().sleep_ms(ms)
            if self.key_at is not None and self.ms >= self.key_at:
                self.key_at = None
                for kind in (pygame.KEYDOWN, pygame.KEYUP):
                    pygame.event.post(pygame.event.Event(kind, key=pygame.K_DOWN))

    clock = Keyed()
    host.window.close()
    host = sim.WindowHost(console, resolve_board("240x240"), 1, clock)
    while not host.loop.rests:
        host.frame()
    selected, start = console.app.selected, clock.ms
    clock.key_at = start + 40  # 40 ms into the next rest
    host.frame()
    assert clock.key_at is None and 40 <= clock.ms - start <= 48  # the rest ended within a look
    host.frame()
    assert console.app.selected == selected + 1, "the key that ended the rest is played"
    host.window.close()


@pytest.mark.parametrize("size", [(200, 100), (128, 32), (72, 40)])
def test_the_console_itself_refuses_a_screen_with_no_layout(size, tmp_path):
    # Every host makes its console through App (the device, the web page, the tools), so the
    # refusal is the App's own: no host can show a bigger layout cut off at the edges.
    from engine_core.gfx.screen import Screen
    from engine_core.ui.app import App
    from simulator import framebuf
    with pytest.raises(ValueError, match="no layout for a %dx%d screen: the sizes are 240x135" % size):
        App(Screen(size[0], size[1], framebuf))
    run = subprocess.run([sys.executable, "-m", "tools.frame", "--board", "%dx%d" % size,
                          "--out", str(tmp_path / "f.bin")], capture_output=True, text=True)
    assert run.returncode == 2 and "error: no layout for a %dx%d screen" % size in run.stderr
    assert "Traceback" not in run.stderr and not (tmp_path / "f.bin").exists()


def test_the_simulators_help_lists_the_keys_that_press_each_button():
    # A player who asks `--help` learns how to play from it: which key is which button.
    result = subprocess.run([sys.executable, "-m", "simulator", "--help"], cwd=ROOT,
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    keys = result.stdout[result.stdout.index("keys in the window"):]
    for key, words in (("Arrows", "move the cursor"), ("A/Space/Enter", "A: pick"), ("B", "B: cancel"),
                       ("X", "X: hint"), ("Y", "Y: undo"), ("S", "START: pause menu"),
                       ("Backspace", "SELECT"), ("Esc", "back")):
        line = [ln for ln in keys.splitlines() if ln.split() and ln.split()[0] == key]
        assert line and words in line[0], (key, keys)


@pytest.mark.parametrize("two", [False, True])
def test_the_skin_of_a_two_button_console_shows_a_and_b_alone(tmp_path, two):
    # With --two-buttons the console takes A and B alone (docs/screen.md): a skin that still
    # drew X, Y, START, SELECT and the D-pad offered buttons that do nothing. Measured on the
    # picture: the spot where each button is drawn holds the button's colour, or the body's.
    from PIL import Image

    from engine_core.ui import buttons as bt
    from simulator.keys import make_app
    from simulator.window import BUTTON, Window
    out = tmp_path / "skin.png"
    env = dict(os.environ, SDL_VIDEODRIVER="dummy")
    run = simulate("--headless", "--board", "240x240", "--skin", "--scale", "2", "--screenshot", str(out),
                   *(["--two-buttons"] if two else []), env=env)
    assert run.returncode == 0, run.stderr
    img = Image.open(out).convert("RGB")
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    spots = Window(make_app(240, 240, "aces_up", 1).screen, 2, None, visible=False).button_spots()
    drawn = set()
    for button, (x, y, r) in spots.items():
        if img.getpixel((x, y - r + 3)) in (BUTTON, (90, 96, 110)):
            drawn.add(button)
    assert drawn == ({bt.A, bt.B} if two else set(spots))
