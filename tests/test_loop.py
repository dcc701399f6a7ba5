"""The engine's one frame loop (engine_core/loop.py) on the three hosts' ports: the device's
(firmware/main.py Device, on the fake machine), the simulator's window (simulator/__main__.py
Desktop, on SDL's dummy drivers) and the web page's (web/main.py PagePort, on MicroPython).
The same key script, frame by frame with the same time, gives the same frames (a hash of the
framebuffer and its palette after each frame) and the same tones; and a frame on the page's
port allocates nothing under MicroPython's heap lock."""

import os
import zlib

import pytest

import boards
from engine_core.gfx.screen import Screen
from engine_core.ui import buttons as bt
from simulator import framebuf
from firmware.panel import Panel  # noqa: F401  (imported before the fixture puts framebuf in place, as tests/test_power.py)
from tests.helpers import ScriptClock, fake_hardware
from tools.mpy import run_micropython

CLICK_HZ, CLICK_MS = 2000, 8  # engine_core/loop.py: the device's click
os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

FRAME_MS = 33
# One token a frame; '.' is a frame without a key. New game (a deal drawn from the console's
# clock and presses), moves and refusals (their sounds), undo, the pause menu and back.
SCRIPT = ("DOWN . A . A . . RIGHT A . RIGHT A . X . A A . Y . . LEFT A . RIGHT RIGHT A . "
          "START . DOWN . B . X A . A . . . .").split()


def events():
    """Per frame: the buttons pressed in it (one at most)."""
    return [[] if token == "." else [bt.NAMES.index(token)] for token in SCRIPT]


def frame_hash(screen):
    return zlib.crc32(bytes(screen.buf)), zlib.crc32(bytes(screen.palette))


class ScriptButtons:
    """The device's buttons as the loop reads them, fed by the script (the debounce behind them
    is tests/test_buttons.py's): the frame's presses, nothing held, no edge latch."""

    def __init__(self):
        self.queue = []
        self.held = 0
        self.reader = self

    @property
    def count(self):
        return len(self.queue)

    def poll(self, now):
        pass

    def next_event(self):
        return self.queue.pop(0) if self.queue else -1

    def busy(self):
        return False


class Recording:
    """A beeper that notes each tone started, then starts it."""

    def __init__(self, beeper):
        self.beeper = beeper
        self.tones = []

    @property
    def playing(self):
        return self.beeper.playing

    def beep(self, hz, ms, now):
        self.tones.append((hz, ms))
        self.beeper.beep(hz, ms, now)

    def update(self, now):
        self.beeper.update(now)


@pytest.fixture
def hardware(monkeypatch):
    return fake_hardware(monkeypatch)


def device_run(hardware, monkeypatch):
    from firmware import main
    monkeypatch.setattr(main, "attach_link", lambda app, board: None)  # the others have none
    board = boards.load("pico_lcd_13")
    hw = hardware.Hardware(board)
    keys = ScriptButtons()
    hw.buttons = keys
    screen = Screen(board.WIDTH, board.HEIGHT, framebuf)
    stats = main.FrameStats()
    shell = main.make_app(screen, hw, stats, False)
    hw.panel.init(sleep_ms=lambda ms: None)
    clock = ScriptClock()
    beeper = Recording(hw.beeper)
    loop = main.device_loop(shell, hw.panel, keys, beeper, clock, stats)
    frames = []
    for presses in events():
        clock.ms += FRAME_MS
        keys.queue.extend(presses)
        loop.frame()
        frames.append(frame_hash(screen))
    return frames, beeper.tones


def window_run():
    pygame = pytest.importorskip("pygame")
    from engine_core.console import Console
    from engine_core.loop import Loop
    from engine_core.storage import MemoryStorage
    from simulator.__main__ import Desktop, Keys
    from simulator.keys import make_app
    from simulator.sound import Sounds
    from simulator.window import KEYMAP, Window
    key_of = {}
    for key, button in KEYMAP.items():
        key_of.setdefault(button, key)
    console = Console(make_app(240, 240), MemoryStorage())
    console.start()
    window = Window(console.screen, 1, None, visible=False)
    sounds = Sounds()
    port = Desktop(window, Keys(console, window), sounds)
    port.clock = clock = ScriptClock()
    loop = Loop(console, port, FRAME_MS)
    pygame.event.clear()
    frames = []
    try:
        for presses in events():
            clock.ms += FRAME_MS
            for button in presses:  # a tap: down and up before the frame
                pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=key_of[button], mod=0, unicode="",
                                                     scancode=0))
                pygame.event.post(pygame.event.Event(pygame.KEYUP, key=key_of[button], mod=0, unicode="",
                                                     scancode=0))
            loop.frame()
            frames.append(frame_hash(console.screen))
    finally:
        window.close()
    return frames, sounds.played


def on_micropython(code):
    """The page's Python on MicroPython's unix port. (The WASI build's collector does not see
    pointers held in WebAssembly locals, and the PageConsole collects as it is made: the browser's
    build, web/page.js, is another.)"""
    result = run_micropython(code, runtime="unix")
    assert result.exit_code == 0, result
    return result.stdout


PAGE = """
import binascii
import web.main


def main(script):
    page = web.main.PageConsole(240, 240)
    page.start()
    page.frame(0, 0)
    page.painted()
    s = page.screen
    for presses in script:
        if presses:
            page.press(presses[0], 0)
        page.frame(FRAME_MS, 0)
        tone = page.sound()
        print(binascii.crc32(s.buf), binascii.crc32(s.palette), tone >> 16, tone & 0xFFFF)
        page.painted()


main(EVENTS)
"""


def page_run():
    code = PAGE.replace("EVENTS", repr(events())).replace("FRAME_MS", str(FRAME_MS))
    frames, tones = [], []
    for line in on_micropython(code).split("\n"):
        if line:
            crc, palette, hz, ms = (int(v) for v in line.split())
            frames.append((crc, palette))
            if hz:
                tones.append((hz, ms))
    return frames, tones


def test_the_same_key_script_gives_the_same_frames_and_sounds_on_all_three_ports(hardware, monkeypatch):
    device, device_tones = device_run(hardware, monkeypatch)
    window, window_tones = window_run()
    page, page_tones = page_run()
    assert len(device) == len(SCRIPT) and len(set(device)) > 8, "the script changes the screen"
    assert window == device
    assert page == device
    sounds = [t for t in device_tones if t != (CLICK_HZ, CLICK_MS)]
    assert len(sounds) >= 3, "a deal, moves, a refusal"
    assert window_tones == sounds and page_tones == sounds
    clicks = len(device_tones) - len(sounds)
    assert clicks == sum(len(p) for p in events()), "the device clicks every press (sound on)"


PAGE_LOCKED = """
import gc, micropython
import web.main
page = web.main.PageConsole(240, 240)
page.start()
page.frame(0, 0)
ORDER = (4, 4, 3, 4, 3, 4, 6, 4, 7, 0, 1, 2, 3, 4, 5, 4)
def play(n):
    for i in range(n):
        if i % 3 == 0:
            page.press(ORDER[(i // 3) % len(ORDER)], 0)
        if i % 29 == 0:
            page.type_digit(i % 10)
        page.frame(33, 0)
        page.sound()
        page.painted()
play(120)
page.click(10, 10)
page.frame(33, 0)
page.painted()
gc.collect()
result = 'not run'
micropython.heap_lock()
try:
    play(300)
    page.click(120, 60)
    page.frame(33, 0)
    page.painted()
    result = 'clean'
except MemoryError:
    result = 'allocated'
micropython.heap_unlock()
print(result, page.app.mode, page.loop.keys.dropped)
"""


def test_frames_on_the_pages_port_allocate_nothing_on_micropython():
    out = on_micropython(PAGE_LOCKED).split()
    assert out[0] == "clean", out
    assert out[2] == "0"
