"""Every board set up against fake machine classes, and the app loop: presses reach the app,
dirty rectangles reach the panel, waiting latches taps, safe mode leaves the app alone."""

import sys

import pytest

import boards
from firmware.buttons import A, B, LONG_PRESS_MS, START, mask
from engine_core.ui.buttons import HELD_ON
from engine_core.gfx.screen import Screen
from simulator import framebuf
from firmware.panel import Panel
from support.fakes import machine as fake_machine
from support.fakes.machine import SPI, Pin
from support.panel_model import PanelModel, expected_glass
from tests.helpers import ScriptClock


@pytest.fixture
def hardware(monkeypatch):
    monkeypatch.setitem(sys.modules, "machine", fake_machine)
    monkeypatch.setitem(sys.modules, "framebuf", framebuf)   # as the device has it
    monkeypatch.delitem(sys.modules, "firmware.hardware", raising=False)
    import firmware.hardware
    # MicroPython's time.sleep_us (a busy wait), which CPython lacks: kept with the clocking.
    monkeypatch.setattr(firmware.hardware.time, "sleep_us",
                        lambda us: fake_machine.clocking.append(("sleep_us", us)), raising=False)
    return firmware.hardware


@pytest.mark.parametrize("name", boards.NAMES)
def test_every_board_sets_up_its_panel_buttons_and_sound_from_its_module(hardware, name):
    board = boards.load(name)
    hw = hardware.Hardware(board)
    if board.SPI is not None:
        assert hw.spi.baudrate == board.SPI[1]
    else:
        assert hw.i2c.freq == board.I2C[1] and (hw.i2c.scl.id, hw.i2c.sda.id) == board.I2C[2:]
    assert hw.panel.width == board.WIDTH and hw.panel.height == board.HEIGHT
    assert hw.buttons.reader.read() == 0, "nothing held: pull-ups read high, the D-pad rests at 0"
    assert (hw.beeper.pwm is None) == (board.BUZZER is None)
    assert (hw.battery_mv() < 0) == (board.BATTERY is None)


@pytest.mark.parametrize("name", [n for n in boards.NAMES if boards.load(n).PORT == "rp2"])
def test_an_rp2040_board_raises_the_core_to_1_15_v_before_its_clock_goes_past_133_mhz(hardware, name):
    """The RP2040 is rated to 133 MHz at its reset voltage (1.10 V, VSEL 11) and to 200 MHz
    at 1.15 V (VSEL 12; pico-sdk 2.1.1), and machine.freq leaves the voltage alone: the
    VREG write comes first, keeps the register's other bits, and no board asks for more.
    Between the two, a wait of 1 ms on the microsecond timer (a millisecond sleep counts the
    millisecond ticks, and may end a few microseconds after it began)."""
    board = boards.load(name)
    fake_machine.mem32.words[0x40064000] = 0xB1
    del fake_machine.clocking[:]
    hardware.Hardware(board)
    assert 0 < board.CPU_FREQ <= 200_000_000
    clocks = [c for c in fake_machine.clocking if c[0] == "freq"]
    assert clocks == [("freq", board.CPU_FREQ, board.CPU_FREQ)]
    vreg = [c for c in fake_machine.clocking if c[0] == "mem32"]
    if board.CPU_FREQ > 133_000_000:
        assert vreg == [("mem32", 0x40064000, 0xC1)]
        raised = fake_machine.clocking.index(vreg[0])
        assert fake_machine.clocking[raised:fake_machine.clocking.index(clocks[0])] == [
            vreg[0], ("sleep_us", 1000)]
    else:
        assert vreg == []


@pytest.mark.parametrize("name", boards.NAMES)
def test_a_board_module_describes_a_consistent_screen(name):
    board = boards.load(name)
    gx, gy, gw, gh = board.GLASS
    size = (gh, gw) if board.MADCTL & 0x20 else (gw, gh)
    assert (board.WIDTH, board.HEIGHT) == size
    assert board.WIDTH % 8 == 0
    assert board.MADCTL & ~0xE0 == 0, "orientation bits only: the driver adds BGR"
    assert (board.SPI is None) == (board.DC is None), "a panel on SPI has its D/C pin; on I2C none"
    if board.SPI is None:
        assert board.I2C is not None and getattr(board, "MONO", False), "only the OLEDs are on I2C"
    pins = boards.pins(board)
    assert len(pins) == len(set(pins)), "no pin serves two purposes"
    assert board.PORT in ("rp2", "esp32")
    present = [b for b, _ in board.BUTTONS] + [b for _, hi, mid in board.ADC_BUTTONS for b in (hi, mid)]
    for held, reported in board.LONG_AS:
        assert held in present and reported not in present, "a long press stands in for a missing button"


def test_every_board_is_listed_and_loads_by_name():
    import os
    files = sorted(f[:-3] for f in os.listdir(os.path.dirname(boards.__file__))
                   if f.endswith(".py") and f != "__init__.py")
    assert sorted(boards.NAMES) == files
    with pytest.raises(ValueError):
        boards.load("nonesuch")


def test_the_odroid_go_d_pad_is_read_through_the_adc(hardware):
    hw = hardware.Hardware(boards.load("odroid_go"))
    dpad = hw.buttons.reader.readers[1]
    dpad.adcs[0].level = 65000                      # the Y axis near full scale
    assert hw.buttons.reader.read() == mask(0)      # UP


class FakeClock(ScriptClock):
    """The script's clock, counting the milliseconds slept."""

    def __init__(self):
        ScriptClock.__init__(self)
        self.slept = 0

    def sleep_ms(self, ms):
        ScriptClock.sleep_ms(self, ms)
        self.slept += ms


class RecordingApp:
    """The interface the loop drives: press and tick; it draws a square per press."""

    def __init__(self, screen):
        self.screen = screen
        self.presses = []
        self.ticks = []
        self.done = False
        self.deferred = 0  # what defers() says: the buttons whose press waits

    def press(self, button, long):
        self.presses.append((button, long))
        s = self.screen
        x = 8 * len(self.presses)
        for y in range(8):
            for i in range(4):
                s.buf[(y * s.width + x) // 2 + i] = 0x55
        s.mark(x, 0, 8, 8)

    def tick(self, ms):
        self.ticks.append(ms)

    def held(self, mask):
        pass

    def defers(self):
        return self.deferred

    def sound_on(self):
        return self.sound

    def take_sound(self):
        return 0

    def idle(self):
        return False

    sound = False
    kiosk_on = False  # the console's kiosk, as firmware.main.Shell asks it

    def hardware_allowed(self):
        return True

    def covered_press(self):
        pass

    def covered_tick(self, ms):
        return False


class ScriptedReader:
    def __init__(self, clock, script):
        self.clock = clock
        self.script = script            # [(from ms, to ms, mask)]

    def read(self):
        for start, end, held in self.script:
            if start <= self.clock.ms < end:
                return held
        return 0

    def taps(self):
        return 0                        # levels only


def make_loop(script, pwm=None):
    from firmware.buttons import Buttons
    from firmware.main import FrameStats, device_loop
    from firmware.sound import Beeper
    board = boards.load("picosystem")
    clock = FakeClock()
    screen = Screen(board.WIDTH, board.HEIGHT, framebuf)
    spi = SPI(0)
    dc = Pin(9)
    spi.dc, spi.log = dc, []
    panel = Panel(spi, dc, Pin(5), None, board)
    panel.init(sleep_ms=lambda ms: None)
    buttons = Buttons(ScriptedReader(clock, script), long_mask=board.LONG_PRESS)
    app = RecordingApp(screen)
    loop = device_loop(app, panel, buttons, Beeper(pwm, enabled=True), clock, FrameStats())
    return loop, app, clock, spi, screen, board


def test_a_press_clicks_when_the_apps_sound_is_on_and_not_otherwise():
    from support.fakes.machine import PWM
    for sound in (False, True):
        pwm = PWM(Pin(11))
        pwm.history = []
        loop, app, clock, spi, screen, board = make_loop([(40, 65, mask(START))], pwm)
        app.sound = sound
        loop.run(frames=6)
        assert app.presses == [(START, False)]
        clicks = [f for f, duty in pwm.history if duty > 0]
        assert clicks == ([2000] if sound else [])
        assert pwm.duty_u16() == 0, "the click has ended"


def test_the_loop_hands_latched_presses_to_the_app_and_sends_what_it_redrew():
    # START tapped for 25 ms in the middle of a frame's wait; A held long, where the screen
    # defers it (a long press in place of the short one).
    loop, app, clock, spi, screen, board = make_loop([(40, 65, mask(START)), (100, 700, mask(A))])
    app.deferred = mask(A)
    loop.run(frames=25)
    assert app.presses == [(START, False), (A, True)]
    model = PanelModel(board.CONTROLLER)
    model.feed(spi.log)
    glass = model.glass_image(board.GLASS, board.BGR, board.INVERT)
    want = expected_glass(screen.buf, board.WIDTH, board.HEIGHT, screen.palette, board.GLASS, board.MADCTL)
    for y in range(8):
        assert glass[y][8:24] == want[y][8:24]
    assert screen.dirty_count == 0


def test_a_button_the_screen_does_not_defer_acts_on_its_edge_and_then_reports_it_is_held_on():
    # A goes down at 100 ms (debounced at 120) and is held to 700 ms; the app defers nothing.
    loop, app, clock, spi, screen, board = make_loop([(100, 700, mask(A))])
    taken = []
    press = app.press
    app.press = lambda button, long: (taken.append(clock.ms), press(button, long))
    loop.run(frames=25)
    assert app.presses == [(A, False), (A, HELD_ON)]
    assert 120 <= taken[0] <= 120 + 5, "taken at the debounced edge, not at the release"
    assert 120 + LONG_PRESS_MS <= taken[1] <= 120 + LONG_PRESS_MS + loop.frame_ms + 5


def test_a_button_the_screen_defers_waits_for_its_release():
    # The app defers A; START then A: START at its edge, A on its release.
    loop, app, clock, spi, screen, board = make_loop([(40, 65, mask(START)), (100, 160, mask(A))])
    taken = []
    press = app.press
    app.press = lambda button, long: (taken.append(clock.ms), press(button, long))
    app.deferred = mask(A)
    loop.run(frames=12)
    assert app.presses == [(START, False), (A, False)]
    assert taken[1] >= 160 + 20, "A waited for its release (and the release's debounce)"


def test_the_loop_ticks_the_app_with_the_time_since_the_last_frame_and_keeps_the_frame_rate():
    loop, app, clock, spi, screen, board = make_loop([])
    loop.run(frames=10)
    assert app.ticks[0] == 0 and set(app.ticks[1:]) == {loop.frame_ms + 1}
    assert clock.ms >= 10 * loop.frame_ms


def test_a_press_latched_while_waiting_starts_the_next_frame_at_once():
    # START goes down at 40 ms: debounced at 60, in the middle of the second frame's wait.
    loop, app, clock, spi, screen, board = make_loop([(40, 65, mask(START))])
    loop.frame()
    loop.wait()
    loop.frame()
    assert app.presses == []
    loop.wait()
    assert 60 <= clock.ms < 2 * loop.frame_ms + 2, "the wait ends when the press is latched"
    loop.frame()
    assert app.presses == [(START, False)]


def test_the_press_log_keeps_each_press_with_the_apps_time_when_it_took_it():
    from firmware import main
    before = len(main.press_log())
    loop, app, clock, spi, screen, board = make_loop([(40, 65, mask(START)), (100, 700, mask(A)),
                                                      (800, 1300, mask(A))])
    app.deferred = mask(A)
    loop.run(frames=20)
    app.deferred = 0  # from here A acts on its edge: pressed, then held on
    loop.run(frames=25)
    log = main.press_log()[before:] if before < main.PRESS_LOG else main.press_log()[-4:]
    assert [(name, long) for _, name, long in log] == [("START", False), ("A", True), ("A", False),
                                                      ("A", "held")]
    frames = [sum(app.ticks[:i + 1]) for i in range(len(app.ticks))]   # the clock began at 0
    assert all(t in frames for t, _, _ in log), "each at a frame's time: the app's clock then"
    # Debounced at 60 ms, taken in the frame that followed at once, at the app's time then
    # (the last frame's: this frame's time reaches the app after its presses).
    assert 60 - loop.frame_ms - 2 <= log[0][0] < 60


def test_the_press_log_keeps_the_last_presses_oldest_first():
    from firmware import main
    loop, app, clock, spi, screen, board = make_loop(
        [(i * 100, i * 100 + 40, mask(START if i % 2 else B)) for i in range(main.PRESS_LOG + 6)])
    loop.run(frames=(main.PRESS_LOG + 8) * 100 // loop.frame_ms)
    log = main.press_log()
    assert len(log) == main.PRESS_LOG
    assert [name for _, name, _ in log[-4:]] == ["B", "START", "B", "START"]
    assert [t for t, _, _ in log] == sorted(t for t, _, _ in log)


def test_the_loop_measures_frame_and_flush_times():
    loop, app, clock, spi, screen, board = make_loop([(0, 30, mask(START))])
    loop.run(frames=3)
    assert loop.stats.frame_us >= 0 and loop.stats.flush_us >= 0


def test_holding_a_button_at_power_on_is_safe_mode_and_the_app_never_runs(hardware, monkeypatch, capsys):
    import firmware.main as main
    started = []
    monkeypatch.setattr(main, "make_app", lambda *a: started.append(a))
    monkeypatch.setattr(main, "splash", lambda screen, panel, painter, title, line:
                        started.append(title) if title != b"SAFE MODE" else None)
    monkeypatch.setattr(fake_machine.Pin, "value", lambda self, v=None: 0 if v is None and self.mode == 0 else None)
    monkeypatch.setattr(main.time, "sleep_ms", lambda ms: None, raising=False)
    monkeypatch.setattr(main.time, "ticks_ms", lambda: 0, raising=False)
    monkeypatch.setattr(main.time, "ticks_diff", lambda a, b: a - b, raising=False)
    assert main.start("pico_lcd_13") is None
    assert started == []
    assert "safe mode" in capsys.readouterr().out


class FakeHardware:
    def __init__(self):
        self.opened = 0
        self.closed = 0
        self.done = False
        self.presses = []
        self.ticks = 0

    def open(self):
        self.opened += 1
        self.done = False

    def close(self):
        self.closed += 1

    def press(self, button, long):
        self.presses.append((button, long))
        if button == 5 and long:
            self.done = True

    def tick(self, ms):
        self.ticks += 1


def test_select_opens_the_hardware_screen_over_the_app_and_leaving_redraws_the_app():
    from firmware.buttons import B, SELECT
    from firmware.main import Shell

    class App(RecordingApp):
        full = False
        redraws = 0
        settings = bytearray(8)
        painter = None  # the Shell offers it to what it draws over the app

        def redraw(self):
            self.redraws += 1

    app = App(Screen(240, 240, framebuf))
    hardware = FakeHardware()
    shell = Shell(app, lambda: hardware)
    shell.press(A, False)
    assert app.presses == [(A, False)] and hardware.opened == 0
    shell.press(SELECT, False)
    shell.press(A, False)
    shell.tick(33)
    assert hardware.opened == 1 and hardware.presses == [(A, False)] and hardware.ticks == 1
    assert app.presses == [(A, False)] and app.ticks == [], "the app waits meanwhile"
    shell.press(B, True)
    assert hardware.closed == 1 and app.full and app.redraws == 1
    shell.press(A, False)
    assert app.presses == [(A, False), (A, False)]
    shell.press(SELECT, False)
    assert shell.sound_on(), "the hardware screen clicks, to test the buzzer"
    shell.press(SELECT, False)
    assert hardware.opened == 2 and hardware.closed == 2, "SELECT leaves it too"
    from engine_core.ui.app import S_SOUND
    assert not shell.sound_on()
    app.settings[S_SOUND] = 1
    assert shell.sound_on(), "the games click as their sound setting says"


@pytest.mark.parametrize("name", boards.NAMES)
def test_boards_without_a_d_pad_play_with_the_two_button_scheme(hardware, name):
    from engine_core.ui.app import S_TWO_BUTTONS
    from firmware.main import Shell, FrameStats, make_app
    board = boards.load(name)
    shell = make_app(Screen(board.WIDTH, board.HEIGHT, framebuf), hardware.Hardware(board), FrameStats(), False)
    assert isinstance(shell, Shell)
    two_buttons = name in ("m5stack_core", "tdisplay")
    assert shell.app.settings[S_TWO_BUTTONS] == two_buttons


def test_the_hardware_screen_alone_when_asked(hardware, monkeypatch):
    import gc
    monkeypatch.setattr(gc, "mem_free", lambda: 12345, raising=False)   # MicroPython's
    from firmware.main import Shell, FrameStats, make_app
    board = boards.load("tdisplay")
    app = make_app(Screen(board.WIDTH, board.HEIGHT, framebuf), hardware.Hardware(board), FrameStats(), True)
    assert isinstance(app, Shell) and app.alone and app.showing_hardware  # over a console
    app.press(B, True)  # long B leaves it: the loop ends, the hardware screen left on the glass
    assert app.done and app.showing_hardware


def test_link_state_shows_two_linked_consoles_in_step(hardware, monkeypatch):
    """Two consoles as the firmware makes them (make_app), their UARTs joined: link_state() is
    None until Link play opens, then shows each seat, the same state hash, and the polls in
    which bytes arrived (firmware/link_timed.py)."""
    import time
    from firmware import link_uart, main
    from firmware.buttons import DOWN, UP, X
    us = [0]

    def ticks_us():   # MicroPython's; each reading 100 us after the last
        us[0] += 100
        return us[0]
    monkeypatch.setattr(time, "ticks_us", ticks_us, raising=False)
    monkeypatch.setattr(time, "ticks_diff", lambda a, b: a - b, raising=False)
    board = boards.load("pico_lcd_13")
    u1 = fake_machine.UART(0, rxbuf=1024)
    u2 = fake_machine.UART(0, rxbuf=1024)
    fake_machine.UART.join(u1, u2)
    links = iter([link_uart.UartLink(u1), link_uart.UartLink(u2)])
    monkeypatch.setattr(link_uart, "open_link", lambda board: next(links))
    monkeypatch.setattr(main, "_link", [None])
    shells = [main.make_app(Screen(board.WIDTH, board.HEIGHT, framebuf), hardware.Hardware(board), main.FrameStats(),
                            False) for _ in range(2)]
    host, guest = shells


    def state(shell):
        main._link[0] = shell.app.app.link   # the shell's Console's App's: as attach_link keeps it
        return main.link_state()

    def play(shell, buttons):
        for button in buttons:
            shell.press(button, False)
            for _ in range(6):
                for s in shells:
                    s.tick(33)
    assert state(host) is None
    play(guest, (UP, A, DOWN, DOWN, A))   # Link play, "Join a table"
    play(host, (UP, A, A))                # Link play, "Host Spite & Malice"
    play(guest, (A,))                     # the host's table on the guest's list: join it
    for shell in shells:
        play(shell, (X, A, A))            # the hinted move of the console to move
    here, there = state(host), state(guest)
    assert (here["seat"], there["seat"]) == (0, 1) and here["host"] and not there["host"]
    assert here["state"] == there["state"] == 2 and here["game"] == "spite_malice"
    assert here["hash"] == there["hash"] and here["moves_sent"] + there["moves_sent"] >= 1
    for s in (here, there):
        assert s["busy_polls"] > 0 and s["bytes_read"] > 0 and s["desyncs"] == 0
        assert s["busy_us"] == 100 * s["busy_polls"] and s["busy_us_max"] == 100   # one reading apart


def test_the_device_saves_a_paused_game_in_two_frames(hardware):
    """The firmware's console (make_app) writes the game record in the frame after a move's,
    and its undo journal in the next (Keeper.in_halves), so that a press
    landing in a save waits for half of it; a restart then finds both."""
    from engine_core.save import Keeper
    from engine_core.storage import MemoryStorage
    from firmware.main import FrameStats, make_app
    board = boards.load("pico_lcd_13")
    disk = MemoryStorage()
    shell = make_app(Screen(board.WIDTH, board.HEIGHT, framebuf), hardware.Hardware(board),
                     FrameStats(), False, disk)
    console = shell.app
    console.open_game("aces_up", 5)
    game = console.app.table.game
    for _ in range(3):
        game.apply(game.hint())
        console.after_input()
        console.tick(16)
    console.tick(50)  # a frame (a tick of over two frames' time holds the save: Keeper.holds)
    assert disk.exists("game.dat") and not disk.exists("undo.dat")
    console.tick(16)
    assert disk.exists("undo.dat")
    again = Keeper(disk)
    again.start()
    resumed = again.resume()
    assert resumed.history.moves == 3 and resumed.undo()
