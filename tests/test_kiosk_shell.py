"""Kiosk mode on the device: the firmware's Shell (firmware/main.py) over the console, with the
fake machine (support/fakes) under the board's real hardware and button drivers. SELECT never
leaves the demo or the table, the hardware screen opens only from the service menu, the kiosk
keeps time on every screen, sound stays off, and the service menu locks again when left."""

import gc
import sys

import pytest

import boards
from engine_core import kiosk as k
from engine_core.gfx.screen import Screen
from engine_core.save import Keeper
from engine_core.storage import MemoryStorage
from engine_core.ui import app as ui
from firmware import panel  # noqa: F401  (imported before the fixture lends it a framebuf, as test_device.py does)
from firmware.buttons import A, B, DOWN, SELECT
from simulator import framebuf
from support.fakes import machine as fake_machine

FRAME = 33


@pytest.fixture
def shell(monkeypatch):
    monkeypatch.setitem(sys.modules, "machine", fake_machine)
    monkeypatch.setitem(sys.modules, "framebuf", framebuf)
    monkeypatch.delitem(sys.modules, "firmware.hardware", raising=False)
    monkeypatch.setattr(gc, "mem_free", lambda: 12345, raising=False)  # MicroPython's
    import firmware.hardware
    from firmware.main import FrameStats, make_app
    disk = MemoryStorage()
    keeper = Keeper(disk)
    keeper.start()
    keeper.settings.set("kiosk", 1)
    keeper.save_settings()
    board = boards.load("pico_lcd_13")
    return make_app(Screen(board.WIDTH, board.HEIGHT, framebuf), firmware.hardware.Hardware(board),
                    FrameStats(), False, disk)


def run(shell, ms):
    for _ in range(ms // FRAME + 1):
        shell.tick(FRAME)


def hold_chord(shell):
    """A and B held together for the chord's time, as the loop reports them every frame."""
    shell.held(k.CHORD)
    run(shell, k.CHORD_MS)
    shell.held(0)
    shell.tick(FRAME)


def test_in_kiosk_mode_select_does_not_open_the_hardware_screen_during_the_demo(shell):
    run(shell, k.IDLE_DEMO_MS)
    assert shell.app.kiosk.mode == k.DEMO
    shell.press(SELECT, False)
    assert not shell.showing_hardware
    run(shell, 30_000)  # the demo goes on, nothing covers it
    assert not shell.showing_hardware and shell.app.kiosk.mode == k.DEMO


def test_in_kiosk_mode_select_does_not_leave_the_table(shell):
    shell.press(A, False)  # the title's first item: a new deal
    assert shell.app.mode == ui.PLAY
    shell.press(SELECT, False)
    assert not shell.showing_hardware and shell.app.mode == ui.PLAY


def test_in_kiosk_mode_the_hardware_screen_opens_from_the_service_menu_only_and_the_kiosk_keeps_time(shell):
    hold_chord(shell)
    assert shell.app.mode == ui.SETTINGS and not shell.app.kiosk.settings_locked()
    shell.press(SELECT, False)
    assert shell.showing_hardware
    assert not shell.sound_on(), "sound stays off in kiosk mode, on the hardware screen too"
    run(shell, k.SERVICE_IDLE_MS + 1000)  # left alone: the service menu locks itself
    assert not shell.showing_hardware
    assert shell.app.mode == ui.TITLE and shell.app.kiosk.settings_locked()


def test_presses_on_the_hardware_screen_keep_the_service_menu_open(shell):
    hold_chord(shell)
    shell.press(SELECT, False)
    for _ in range(3):
        run(shell, k.SERVICE_IDLE_MS // 2)
        shell.press(DOWN, False)
    assert shell.showing_hardware and not shell.app.kiosk.settings_locked()


def test_the_service_menu_locks_again_the_moment_it_is_left_whatever_comes_after(shell):
    hold_chord(shell)
    assert shell.app.mode == ui.SETTINGS
    shell.press(B, False)  # back to the title
    assert shell.app.mode == ui.TITLE
    assert shell.app.kiosk.settings_locked()
    for _ in range(ui.T_SETTINGS - 1):  # presses keep coming: down to Settings, and A
        shell.press(DOWN, False)
    shell.press(A, False)
    assert shell.app.mode != ui.SETTINGS
    shell.press(SELECT, False)
    assert not shell.showing_hardware
