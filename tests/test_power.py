"""A day in the pocket, on the host: the loop rests when nothing moves, the screen dims and goes
off without a key (the game saved first) and a key wakes it without acting, the battery's
every branch through a fake ADC, the app's sound events as tones, and when the console counts
as idle (engine_core/ui/idle.py)."""


import pytest

import boards
from engine_core.gfx.screen import Screen
from engine_core.ui import buttons as bt
from engine_core.ui.table import SOUND_DEAL, SOUND_ILLEGAL, SOUND_LOST, SOUND_MOVE, SOUND_WON
from simulator import framebuf
from firmware.buttons import GpioButtons
from firmware.panel import Panel  # noqa: F401  (imported before the fixture puts framebuf in place: plain expansion, as test_device.py)
from tests.helpers import fake_hardware
from tests.test_device import FakeClock

SLPIN, SLPOUT, DISPOFF, DISPON = 0x10, 0x11, 0x28, 0x29


@pytest.fixture
def hardware(monkeypatch):
    return fake_hardware(monkeypatch)


class Keys(GpioButtons):
    """GPIO buttons as the loop sees them: held masks over time, and the falling-edge latch
    (`fell`) the pins' interrupts set (GPIO pins: the loop rests on their latch)."""

    def __init__(self, clock):
        self.clock = clock
        self.script = []            # [(from ms, to ms, mask)]
        self.fell = 0
        self.seen = 0

    def hold(self, button, start, ms):
        self.script.append((start, start + ms, 1 << button))

    def read(self):
        held = 0
        for start, end, m in self.script:
            if start <= self.clock.ms < end:
                held |= m
        self.fell |= held & ~self.seen     # the edge interrupt
        self.seen = held
        return held

    def taps(self):
        fell = self.fell
        self.fell = 0
        return fell


class EdgeClock(FakeClock):
    """The loop's clock; each millisecond of sleep lets the keys' interrupt see a press come
    down."""

    def __init__(self):
        FakeClock.__init__(self)
        self.keys = None

    def sleep_ms(self, ms):
        for _ in range(ms):
            FakeClock.sleep_ms(self, 1)
            self.keys.read()


def console_on(hardware, board_name="picosystem", battery_mv=None):
    """The device's stack on fakes: Hardware, make_app's Shell over a Console in RAM, the Loop
    with its Power; a scripted keypad that latches edges."""
    from firmware.main import Clock as _  # noqa: F401  (the module imports cleanly)
    from firmware.main import FrameStats, device_loop, make_app, make_gauge, make_power
    board = boards.load(board_name)
    hw = hardware.Hardware(board)
    hw.spi.log = []
    hw.spi.dc = hw.dc
    if battery_mv is not None:
        hw.battery.level = battery_mv * 65535 // 3300 // board.BATTERY[1] + 1
    clock = EdgeClock()
    keys = Keys(clock)
    clock.keys = keys
    hw.buttons.reader = keys
    screen = Screen(board.WIDTH, board.HEIGHT, framebuf)
    stats = FrameStats()
    shell = make_app(screen, hw, stats, False)
    hw.panel.init(sleep_ms=lambda ms: None)
    hw.brightness(100)                           # as start() lights it once the title is sent
    power = make_power(shell, hw, clock)
    loop = device_loop(shell, hw.panel, hw.buttons, hw.beeper, clock, stats, power=power,
                       gauge=make_gauge(shell, screen, power))
    return loop, shell, hw, clock, keys


def run_until(loop, clock, ms):
    frames = 0
    while clock.ms < ms:
        loop.frame()
        loop.wait()
        frames += 1
    return frames


def commands(hw):
    return [data[0] for dc, data in hw.spi.log if dc == 0]


def test_on_a_still_title_the_loop_rests_and_draws_nothing(hardware):
    loop, shell, hw, clock, keys = console_on(hardware)
    run_until(loop, clock, 1500)  # (New game's table is made ahead in its first 200 ms)
    sent = hw.spi.bytes
    slept = clock.slept
    start = clock.ms
    frames = run_until(loop, clock, 11500)
    assert frames <= 12, "a frame a second at most, not thirty"
    assert clock.ms - start >= 9500 and clock.slept - slept >= clock.ms - start - 100, "the time went by asleep"
    assert loop.rests >= 10
    assert hw.spi.bytes == sent, "nothing drawn"


def test_a_key_ends_the_rest_at_once_and_is_answered_within_a_frame(hardware):
    loop, shell, hw, clock, keys = console_on(hardware)
    run_until(loop, clock, 2000)
    keys.hold(bt.DOWN, 2300, 60)                 # the title's cursor moves
    sent = hw.spi.bytes
    run_until(loop, clock, 2300 + 33)
    assert hw.spi.bytes > sent, "the press was drawn within a frame of its edge"
    assert shell.app.app.selected == 1


def test_the_screen_dims_then_goes_off_with_the_game_saved_and_a_key_wakes_it_without_acting(hardware):
    from engine_core.power import AWAKE, DIM, DIM_PERCENT, OFF
    loop, shell, hw, clock, keys = console_on(hardware)
    power = loop.port.power
    console = shell.app
    keys.hold(bt.A, 100, 60)                     # New game (a deal of the last game)
    run_until(loop, clock, 1000)
    assert console.app.mode == bt_play()
    keys.hold(bt.RIGHT, 1200, 60)
    keys.hold(bt.A, 1400, 60)                    # a card moves: the game is unsaved for 0.5 s
    run_until(loop, clock, 1500)
    assert power.state == AWAKE and hw.backlight.duty_u16() == 100 * 655
    run_until(loop, clock, 1460 + 30000 + 100)
    assert power.state == DIM and hw.backlight.duty_u16() == DIM_PERCENT * 655
    assert SLPIN not in commands(hw)
    console.keeper.unsaved = True                # a change the delayed save has not written yet
    run_until(loop, clock, 1460 + 180000 + 100)
    assert power.state == OFF and hw.backlight.duty_u16() == 0
    assert commands(hw)[-2:] == [DISPOFF, SLPIN]
    assert not console.keeper.unsaved, "saved as the panel went off"
    mode, cursor = console.app.mode, console.app.table.hand.cursor
    keys.hold(bt.RIGHT, clock.ms + 100, 60)
    run_until(loop, clock, clock.ms + 300)
    assert power.state == AWAKE and hw.backlight.duty_u16() == 100 * 655
    assert SLPOUT in commands(hw)[-3:] and commands(hw)[-1] == DISPON or DISPON in commands(hw)[-4:]
    assert (console.app.mode, console.app.table.hand.cursor) == (mode, cursor), "the waking key did nothing else"
    keys.hold(bt.RIGHT, clock.ms + 100, 60)
    run_until(loop, clock, clock.ms + 300)
    assert console.app.table.hand.cursor != cursor, "the next key plays"


def bt_play():
    from engine_core.ui.app import PLAY
    return PLAY


def test_the_times_are_settings_and_zero_keeps_the_screen_on(hardware):
    from firmware.main import make_power
    from engine_core.power import AWAKE
    loop, shell, hw, clock, keys = console_on(hardware)
    settings = shell.app.keeper.settings
    assert (settings.get("dim_s"), settings.get("screen_off_s")) == (30, 180)
    settings.set("dim_s", 0)
    settings.set("screen_off_s", 0)
    shell.app.settings_to_app()                  # the records read, as at power-on
    loop.port.power = make_power(shell, hw, clock)
    run_until(loop, clock, 400000)
    assert loop.port.power.state == AWAKE and hw.backlight.duty_u16() == 100 * 655


def test_the_settings_menus_times_are_powers_at_once_without_a_restart(hardware):
    from engine_core.power import AWAKE, DIM
    from engine_core.ui import settings as st
    from engine_core.ui.app import SETTINGS
    loop, shell, hw, clock, keys = console_on(hardware)
    power, app = loop.port.power, shell.app.app

    def press(button, selected=-1):
        run_until(loop, clock, clock.ms + 50)
        if selected >= 0:
            app.selected = selected
        keys.hold(button, clock.ms + 100, 60)
        run_until(loop, clock, clock.ms + 300)

    assert (power.dim_ms, power.off_ms) == (30000, 180000)
    for button in (bt.DOWN, bt.DOWN, bt.DOWN, bt.A):   # the title's Settings
        press(button)
    assert app.mode == SETTINGS
    press(bt.LEFT, st.S_DIM)                            # Dim after: 30 s -> 15 s
    press(bt.RIGHT, st.S_OFF)                           # Screen off after: 3 min -> 10 min
    assert (app.setting_label(st.S_DIM), app.setting_label(st.S_OFF)) == (b"15 s", b"10 min")
    assert (power.dim_ms, power.off_ms) == (15000, 600000)
    start = power.last_key                              # the last key
    run_until(loop, clock, start + 12000)
    assert power.state == AWAKE
    run_until(loop, clock, start + 16500)
    assert power.state == DIM
    run_until(loop, clock, start + 180000 + 2000)
    assert power.state == DIM and power.offs == 0, "not off at the old 3 min"
    press(bt.LEFT)                                      # wakes, and does nothing else
    assert power.state == AWAKE and app.setting_label(st.S_OFF) == b"10 min"
    for _ in range(3):
        press(bt.LEFT)                                  # Screen off after: Never
    assert app.setting_label(st.S_OFF) == b"Never" and power.off_ms == 0
    run_until(loop, clock, clock.ms + 2000000)
    assert power.state == DIM and power.offs == 0


def test_no_dimming_in_a_computers_turn_nor_in_the_kiosk(hardware):
    from engine_core.power import AWAKE
    loop, shell, hw, clock, keys = console_on(hardware)
    console = shell.app
    console.kiosk_on = True
    run_until(loop, clock, 200000)
    assert loop.port.power.state == AWAKE
    console.kiosk_on = False
    from engine_core.ui.idle import screen_may_sleep
    assert screen_may_sleep(console)
    app = console.app
    app.link_in_use = lambda: True
    assert not screen_may_sleep(console) and not shell.may_sleep()


def test_the_battery_gauge_warns_when_low_and_at_critical_charge_saves_and_turns_off(hardware):
    from engine_core import power as pw
    loop, shell, hw, clock, keys = console_on(hardware, "picosystem", battery_mv=4000)
    p = loop.port.power
    assert p.battery == pw.B_OK and 80 <= p.percent() <= 90
    keys.hold(bt.A, 100, 60)                                      # a deal
    hw.battery.level = 3450 * 65535 // 3300 // 3 + 1           # low
    run_until(loop, clock, pw.BATTERY_EVERY_MS + 100)
    assert p.battery == pw.B_LOW and p.state == pw.AWAKE
    assert shell.app.notice.startswith(b"Battery low")
    run_until(loop, clock, 3 * pw.BATTERY_EVERY_MS + 100)
    assert shell.app.keeper.take_notice() == "", "warned once"
    hw.battery.level = 3300 * 65535 // 3300 // 3                 # critical
    shell.app.keeper.unsaved = True
    run_until(loop, clock, 4 * pw.BATTERY_EVERY_MS + 100)
    assert p.battery == pw.B_CRITICAL and p.state == pw.OFF
    sent = commands(hw)
    assert sent[sent.index(SLPIN) - 1] == DISPOFF and DISPON not in sent[sent.index(SLPIN):]
    assert shell.app.game is not None and not shell.app.keeper.unsaved, "the game saved first"
    hw.battery.level = 0                                          # on USB power, no cell
    run_until(loop, clock, 5 * pw.BATTERY_EVERY_MS + 100)
    assert p.battery == pw.B_UNKNOWN and p.percent() == -1


def test_battery_readings_map_to_the_gauge():
    from engine_core.power import B_CRITICAL, B_LOW, B_OK, B_UNKNOWN, battery_percent, battery_state
    assert [battery_percent(mv) for mv in (0, 3200, 3300, 3700, 4100, 4300)] == [-1, 0, 0, 50, 100, 100]
    assert [battery_state(mv) for mv in (0, 3300, 3450, 3900)] == [B_UNKNOWN, B_CRITICAL, B_LOW, B_OK]


def test_a_board_without_a_battery_reads_nothing(hardware):
    loop, shell, hw, clock, keys = console_on(hardware, "pico_lcd_13")
    assert loop.port.power.battery_mv is None and loop.port.power.percent() == -1
    assert loop.port.power.rest_ms(0) == 1000


def test_sound_events_play_their_tones_and_are_silent_in_the_kiosk(hardware):
    from engine_core.ui.tones import TONES, tone_hz, tone_ms
    loop, shell, hw, clock, keys = console_on(hardware)
    pwm = hw.beeper.pwm
    pwm.history = []
    app = shell.app.app
    for sound in (SOUND_MOVE, SOUND_ILLEGAL, SOUND_WON, SOUND_LOST, SOUND_DEAL):
        app.sound_event = sound
        loop.frame()
        assert pwm.freq() == tone_hz(sound) and pwm.duty_u16() > 0
        start = clock.ms
        while hw.beeper.playing:
            clock.ms += 1
            loop.frame()
        assert clock.ms - start == tone_ms(sound), "ended by the loop, on time"
    assert len(set((TONES[2 * s], TONES[2 * s + 1]) for s in range(1, 6))) == 5, "five distinct tones"
    shell.app.kiosk_on = True
    pwm.history = []
    app.sound_event = SOUND_WON
    loop.frame()
    assert pwm.history == [] and app.sound_event == 0


def test_a_deal_asks_for_the_deal_sound():
    from engine_core.ui.app import App
    app = App(Screen(240, 240, framebuf))
    app.press(bt.A)          # New game: a deal
    assert app.sound_event == SOUND_DEAL


# --- when the console is idle ---

def frames(console, n, ms=33):
    for _ in range(n):
        console.tick(ms)
        console.screen.clear_dirty()


def test_idle_on_the_title_and_after_a_deal_has_settled_not_while_it_moves():
    from engine_core import reasons as why
    from engine_core.console import Console
    from engine_core.storage import MemoryStorage
    from engine_core.ui.app import App
    from engine_core.ui.idle import console_idle
    console = Console(App(Screen(240, 240, framebuf)), MemoryStorage())
    console.start()
    frames(console, 3)
    assert not console_idle(console), "New game's table is made ahead of its A"
    frames(console, 5)
    assert console_idle(console)
    console.press(bt.A)                          # a deal: the cards are drawn, the save waits
    assert not console_idle(console)
    frames(console, 30)
    assert console_idle(console)
    table = console.app.table
    table.shake(0, why.OUTRANK)                  # a refused move shakes a pile and says why
    assert not console_idle(console)
    frames(console, 30)
    assert not console_idle(console), "the reason stays on screen for its time"
    frames(console, 60)
    assert console_idle(console)


def test_nerts_with_a_computer_player_is_never_idle_and_a_computers_turn_is_not_either():
    from engine_core.console import Console
    from engine_core.storage import MemoryStorage
    from engine_core.ui.app import App
    from engine_core.ui.idle import console_idle
    app = App(Screen(240, 240, framebuf))
    console = Console(app, MemoryStorage())
    console.start()
    console.open_game("nerts", 1)
    frames(console, 60)
    # the device's Nerts: two players
    assert [app.table.game.bot.is_computer(p) for p in range(2)] == [False, True]
    assert not console_idle(console)
    console.open_game("spite_malice", 1)
    frames(console, 60)
    app.table.computer_ms = 450
    assert not console_idle(console)


def test_old_settings_records_load_with_the_new_times_at_their_defaults():
    from engine_core import records as r
    s = r.Settings()
    buf = bytearray(256)
    n = s.encode(buf)
    # The record as a build before the two power settings wrote it: two fields fewer.
    old = bytearray(buf[:r.HEADER])
    old.append(len(r.SETTINGS) - 2)
    old += buf[r.HEADER + 1:r.HEADER + 1 + 2 * (len(r.SETTINGS) - 2)]
    old += bytes(4)
    r.finish(old, len(old) - 4)
    t = r.Settings()
    t.set("dim_s", 5)
    assert t.decode(old, len(old)) == r.OK, n
    assert (t.get("dim_s"), t.get("screen_off_s"), t.get("slide")) == (30, 180, 1)


def corner_text(screen, painter_text, x):
    """Whether the gauge's corner shows `painter_text` (bytes) as the gauge draws it."""
    from engine_core.gfx.paint import Painter
    from firmware.gauge import MARGIN
    probe = Screen(screen.width, screen.height, framebuf)
    probe.buf[:] = screen.buf
    Painter(probe).text(painter_text, x + MARGIN, MARGIN, 1)
    return bytes(probe.buf) == bytes(screen.buf)


def test_the_battery_gauge_shows_on_the_title_and_the_pause_menu_only(hardware):
    from firmware.gauge import Gauge
    loop, shell, hw, clock, keys = console_on(hardware, "picosystem", battery_mv=3700)
    gauge = shell.gauge
    assert isinstance(gauge, Gauge)
    keys.hold(bt.A, 2000, 60)                    # a deal: play has no gauge
    keys.hold(bt.START, 4000, 60)                # the pause menu
    run_until(loop, clock, 1500)
    screen = shell.app.screen
    assert gauge.shown == loop.port.power.percent() == 49
    assert corner_text(screen, b"49%", gauge.x), "the title shows the charge"
    run_until(loop, clock, 3500)
    assert shell.app.mode == bt_play()
    assert gauge.shown == -1 and not corner_text(screen, b"49%", gauge.x)
    run_until(loop, clock, 5000)
    assert shell.app.mode == 4 and gauge.shown == 49 and corner_text(screen, b"49%", gauge.x)


def test_no_gauge_where_the_board_cannot_read_the_battery(hardware):
    loop, shell, hw, clock, keys = console_on(hardware, "pico_lcd_13")
    assert shell.gauge is None
