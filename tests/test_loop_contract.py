"""Every app the engine's loop drives (engine_core/loop.py) takes every event the loop hands
it: the Console, the device's Shell (the console shown, the hardware screen over it, the
hardware screen alone) and the bare hardware screen. A digit typed or a click means nothing on
the device (it has neither keyboard nor pointer), but an app that lacked the method would stop
the loop."""


import pytest

import boards
from engine_core.gfx.screen import Screen
from engine_core.loop import CLICK, DIGIT
from simulator import framebuf
from firmware.panel import Panel  # noqa: F401  (imported before the fixture puts framebuf in place)
from tests.helpers import fake_hardware
from tests.helpers import ScriptClock
from tests.test_loop import ScriptButtons

CONTRACT = ("screen", "press", "type_digit", "click", "held", "tick", "take_sound", "idle", "done")


@pytest.fixture
def hardware(monkeypatch):
    return fake_hardware(monkeypatch)


def apps(hardware, monkeypatch):
    import gc
    monkeypatch.setattr(gc, "mem_free", lambda: 12345, raising=False)   # MicroPython's
    from firmware import main
    from firmware.hwtest import HardwareScreen
    from engine_core.gfx.paint import Painter
    monkeypatch.setattr(main, "attach_link", lambda app, board: None)
    board = boards.load("pico_lcd_13")
    out = []
    for kind in ("console", "covered", "alone", "bare"):
        hw = hardware.Hardware(board)
        hw.panel.init(sleep_ms=lambda ms: None)
        screen = Screen(board.WIDTH, board.HEIGHT, framebuf)
        stats = main.FrameStats()
        if kind == "bare":
            app = HardwareScreen(screen, Painter(screen), hw.buttons, stats, hw)
            app.open()
        else:
            app = main.make_app(screen, hw, stats, kind == "alone")
            if kind == "covered":
                app.press(main.SELECT, False)
                assert app.showing_hardware
            elif kind == "console":
                app = app.app  # the Console itself, as the simulator and the page hold it
        out.append((kind, app, hw, stats))
    return out


def test_every_app_the_loop_drives_takes_a_digit_and_a_click(hardware, monkeypatch):
    from firmware import main
    for kind, app, hw, stats in apps(hardware, monkeypatch):
        missing = [name for name in CONTRACT if not hasattr(app, name)]
        assert not missing, (kind, missing)
        keys = ScriptButtons()
        loop = main.device_loop(app, hw.panel, keys, hw.beeper, ScriptClock(), stats)
        keys.queue.extend([DIGIT | 4, CLICK | 20 << 9 | 30, DIGIT | 0])
        loop.frame()  # the loop would raise on an app without type_digit or click
        assert keys.count == 0, kind
