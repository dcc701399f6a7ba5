"""The device code on real MicroPython (WASI, no viper: the plain expansion): flushing dirty
rectangles and whole frames of the loop allocate nothing, under micropython.heap_lock()."""

import pytest

import boards
from tests.helpers import run_mpy_ok

SETUP = """
import sys
sys.path.insert(0, '/support/fakes')
import gc, micropython
from array import array
import boards
from machine import SPI, Pin
from firmware.panel import Panel
board = boards.load(BOARD)
spi = SPI(1)
panel = Panel(spi, Pin(1), Pin(2), None, board)
buf = bytearray(board.WIDTH * board.HEIGHT // 2)
for i in range(len(buf)):
    buf[i] = i & 255
palette = array('H', range(0, 65536, 4096))
result = 'not run'
"""

FLUSH = SETUP + """
class Screen:
    def __init__(self):
        self.buf = buf
        self.width = board.WIDTH
        self.height = board.HEIGHT
        self.palette = palette
        self.dirty = array('h', [3, 5, 41, 57, 0, 0, board.WIDTH, board.HEIGHT])
        self.dirty_count = 2
    def clear_dirty(self):
        self.dirty_count = 0

screen = Screen()
panel.send(buf, board.WIDTH, palette, 0, 0, 8, 1)   # the first send of a buffer wraps it once
spi.bytes = 0
gc.collect()
micropython.heap_lock()
try:
    panel.send(buf, board.WIDTH, palette, 0, 0, board.WIDTH, board.HEIGHT)
    panel.send(buf, board.WIDTH, palette, 13, 7, 25, 31)
    panel.show(screen)
    result = 'clean'
except MemoryError:
    result = 'allocated'
micropython.heap_unlock()
print(result, spi.bytes)
"""


@pytest.mark.parametrize("name", ["picosystem", "odroid_go", "tdisplay"])
def test_flushing_dirty_rectangles_allocates_nothing_on_micropython(name):
    # (with the framebuf expansion, MicroPython's choice where viper is missing)
    board = boards.load(name)
    out = run_mpy_ok(FLUSH.replace("BOARD", repr(name))).split()
    assert out[0] == "clean", out
    full = 2 * board.WIDTH * board.HEIGHT
    # Two full screens, a 25x31 rectangle widened to 8..39 (32 columns), and 0..47 x 41 rows
    # for the 41x57 one at x=3 (columns 0..47: 48), each with its window commands.
    pixels = 2 * full + 2 * 32 * 31 + 2 * 48 * 57
    assert pixels < int(out[1]) < pixels + 4 * 15


def test_the_allocation_check_catches_an_allocating_flush():
    leaky = FLUSH.replace("    panel.show(screen)\n", "    panel.show(screen)\n    panel.extra = [1]\n")
    assert run_mpy_ok(leaky.replace("BOARD", repr("picosystem"))).split()[0] == "allocated"


# The start of the loop scripts: the fake machine, and a clock the script moves.
LOOP_PRELUDE = """
import sys
sys.path.insert(0, '/support/fakes')
import gc, micropython
import boards
from engine_core.gfx.screen import Screen
from firmware.hardware import Hardware
from firmware.main import FrameStats, device_loop

class Clock:
    def __init__(self):
        self.ms = 0
    def ticks_ms(self):
        return self.ms
    def ticks_us(self):
        return self.ms * 1000
    def sleep_ms(self, ms):
        self.ms += ms
"""

LOOP = LOOP_PRELUDE + """
from engine_core.gfx.paint import Painter
from firmware.hwtest import HardwareScreen

class Script:
    # UP held 100..900 ms (repeats), START tapped, A held long.
    def __init__(self, clock):
        self.clock = clock
    def read(self):
        t = self.clock.ms
        if 100 <= t < 900:
            return 1
        if 1000 <= t < 1030:
            return 256
        if 1200 <= t < 1800:
            return 16
        return 0
    def taps(self):
        return 0

board = boards.load(BOARD)
clock = Clock()
hw = Hardware(board)                    # every machine object the board module asks for
hw.buttons.reader = Script(clock)
buttons = hw.buttons
panel = hw.panel
spi = hw.spi
screen = Screen(board.WIDTH, board.HEIGHT)
stats = FrameStats()
app = HardwareScreen(screen, Painter(screen), buttons, stats, hw)
app.open()
beeper = hw.beeper
beeper.enabled = True
loop = device_loop(app, panel, buttons, beeper, clock, stats)
loop.run(2)
result = 'not run'
gc.collect()
micropython.heap_lock()
try:
    loop.run(70)
    result = 'clean'
except MemoryError:
    result = 'allocated'
micropython.heap_unlock()
print(result, clock.ms, spi.bytes, buttons.dropped, app.palette_mode, stats.battery_mv)
"""


@pytest.mark.parametrize("name", ["pico_lcd_13", "odroid_go", "pico_lcd_114"])
def test_frames_of_the_loop_with_the_hardware_screen_allocate_nothing_on_micropython(name):
    out = run_mpy_ok(LOOP.replace("BOARD", repr(name))).split()
    assert out[0] == "clean", out
    # 72 frames at 33 ms, less the waits a latched press cut short (the UP repeats, START, A)
    assert 60 * 33 <= int(out[1]) <= 72 * 33 + 10
    assert int(out[2]) > 0, "button boxes and numbers were sent"
    assert out[3] == "0"
    # A held long: the hardware screen gives A no long meaning, so its press acts on its edge
    # (one step of the palette) and holding it on does nothing more.
    assert out[4] == "1"
    assert (int(out[5]) >= 0) == (boards.load(name).BATTERY is not None)


SAME_BYTES = """
import sys
sys.path.insert(0, '/support/fakes')
from array import array
import boards
from machine import SPI, Pin
from firmware import panel as panel_module
from firmware.panel import Panel
board = boards.load(BOARD)
buf = bytearray(board.WIDTH * board.HEIGHT // 2)
x = 12345
for i in range(len(buf)):
    x = (x * 75 + 74) % 65537
    buf[i] = x & 255
palette = array('H', [(i * 40503) & 0xFFFF for i in range(16)])

class HashSPI(SPI):
    def __init__(self):
        SPI.__init__(self, 1)
        self.h = 0
    def write(self, data):
        h = self.h
        for b in data:
            h = (h * 31 + b) % 1000003
        self.h = h

def digest(expander):
    spi = HashSPI()
    p = Panel(spi, Pin(1), Pin(2), None, board, expander)
    p.send(buf, board.WIDTH, palette, 0, 0, board.WIDTH, board.HEIGHT)
    p.send(buf, board.WIDTH, palette, 19, 3, 37, 50)
    return spi.h

print(panel_module.EXPANDER, digest("framebuf"), digest("plain"))
"""


@pytest.mark.parametrize("name", ["picosystem", "tdisplay"])
def test_the_framebuf_expansion_sends_the_same_bytes_as_the_plain_one_and_as_cpython(name):
    board = boards.load(name)
    out = run_mpy_ok(SAME_BYTES.replace("BOARD", repr(name))).split()
    assert out[0] == "framebuf", "MicroPython without viper picks framebuf"
    # The same bytes on CPython (plain expansion), from the same buffer.
    from array import array
    from firmware.panel import Panel
    from support.fakes.machine import SPI, Pin
    buf = bytearray(board.WIDTH * board.HEIGHT // 2)
    x = 12345
    for i in range(len(buf)):
        x = (x * 75 + 74) % 65537
        buf[i] = x & 255
    palette = array("H", [(i * 40503) & 0xFFFF for i in range(16)])
    spi = SPI(1)
    spi.log = []
    p = Panel(spi, Pin(1), Pin(2), None, board)
    assert p.expander == "plain"
    p.send(buf, board.WIDTH, palette, 0, 0, board.WIDTH, board.HEIGHT)
    p.send(buf, board.WIDTH, palette, 19, 3, 37, 50)
    h = 0
    for dc, data in spi.log:
        for b in data:
            h = (h * 31 + b) % 1000003
    assert out[1] == out[2] == str(h)


BUTTONS = """
import sys
sys.path.insert(0, '/support/fakes')
import gc, micropython
import boards
from firmware.hardware import Hardware
hw = Hardware(boards.load('odroid_go'))
gpio = hw.buttons.reader.readers[0]
dpad = hw.buttons.reader.readers[1]
result = 'not run'
count = 0
t = 0
level = 1
code = 0        # every global exists before the lock: a new one would allocate

def edge_clock():   # the pins' interrupt comes a millisecond before the poll that sees it
    return t - 1

gpio.ticks_ms = edge_clock
gc.collect()
micropython.heap_lock()
try:
    for t in range(0, 3000, 3):
        dpad.adcs[0].level = 60000 if 100 <= t < 200 else 0       # UP
        dpad.adcs[1].level = 30000 if 400 <= t < 500 else 0       # RIGHT
        level = 0 if 700 <= t < 1300 else 1                       # A, long
        if level != gpio.pins[0].level:
            gpio.pins[0].value(level)                             # its interrupt, in the lock
        hw.buttons.poll(t)
        code = hw.buttons.next_event()
        while code >= 0:
            count += 1
            code = hw.buttons.next_event()
    result = 'clean'
except MemoryError:
    result = 'allocated'
micropython.heap_unlock()
print(result, count, hw.buttons.down_at[4])  # A
"""


def test_reading_gpio_buttons_and_the_adc_d_pad_allocates_nothing_on_micropython():
    """The pins' interrupt handler too: it stamps the edge's time, and allocates nothing (a
    closure over more than four names would, at each call: a hard interrupt's MemoryError)."""
    out = run_mpy_ok(BUTTONS).split()
    assert out == ["clean", "3", "701"], "UP, RIGHT and a long A, down from its edge"


HARDWARE_SCREEN = """
import sys
sys.path.insert(0, '/support/fakes')
from firmware.buttons import A, B, UP, LONG, mask
from engine_core.gfx.screen import Screen
from engine_core.gfx.paint import Painter
from firmware.hwtest import HardwareScreen
from firmware.main import FrameStats

class Held:
    held = 0
    dropped = 0

def pixel(s, x, y):
    b = s.buf[(y * s.width + x) >> 1]
    return b >> 4 if x % 2 == 0 else b & 15

s = Screen(240, 240)
first = s.palette[:]
buttons = Held()
stats = FrameStats()
stats.frame_us = 1234
hw = HardwareScreen(s, Painter(s), buttons, stats)
hw.open()
w = hw.box_w
print(pixel(s, UP * w + w - 4, 14), pixel(s, A * w + w - 4, 14))
buttons.held = mask(UP)
s.clear_dirty()
hw.tick(10)
print(pixel(s, UP * w + w - 4, 14), pixel(s, A * w + w - 4, 14), s.dirty_count)
print(' '.join([str(pixel(s, i * 15 + 7, 35)) for i in range(16)]))
hw.press(A, False)
print(hex(s.palette[15]), hex(s.palette[8]), hex(s.palette[0]))
for _ in range(4):
    hw.press(A, False)
print(s.palette == first, hw.done)
hw.press(B, True)
print(hw.done)
"""


def test_the_hardware_screen_lights_held_buttons_shows_the_palette_and_cycles_ramps():
    lines = run_mpy_ok(HARDWARE_SCREEN).splitlines()
    assert lines[0] == "0 0", "nothing held: both boxes dark inside"
    assert lines[1] == "1 0 1", "UP lit, A dark, only UP's box sent"
    assert lines[2] == " ".join(str(i) for i in range(16)), "a bar per palette entry"
    grey8 = (8 * 31 // 15) << 11 | (8 * 63 // 15) << 5 | (8 * 31 // 15)
    assert lines[3] == "0xffff %s 0x0" % hex(grey8), "A: the grey ramp, black to white"
    assert lines[4] == "True False", "four more: back to the screen's own palette"
    assert lines[5] == "True", "long B leaves"


# The WASI build's collector misses objects that only a running function's locals hold (a
# gc.collect() inside start() frees its own `board`; a device scans its stack properly), so
# this run keeps the collector off and start()'s collections empty.
BOOT = """
import sys
sys.path.insert(0, '/support/fakes')
import gc
import firmware.main as main

class NoCollection:
    def collect(self):
        pass

gc.disable()
main.gc = NoCollection()
loop = main.start(BOARD, frames=3)
print(loop.port.panel.spi.bytes, loop.stats.frame_us >= 0)
"""


@pytest.mark.parametrize("name", ["picosystem", "m5stack_core"])
def test_the_board_boots_to_a_splash_and_runs_the_loop_on_micropython(name):
    board = boards.load(name)
    out = run_mpy_ok(BOOT.replace("BOARD", repr(name))).split()
    # The title (the splash) is a whole screen.
    assert int(out[0]) >= 2 * board.WIDTH * board.HEIGHT
    assert out[1] == "True"


GAMES_LOOP = LOOP_PRELUDE + """
from firmware.main import make_app

class Script:
    # Every 400 ms a 60 ms tap, going round the buttons: A (into a game) first, then the
    # D-pad, A, B, X, Y; SELECT (the hardware screen) and back on its second and third laps.
    ORDER = (4, 4, 4, 0, 1, 2, 3, 4, 5, 6, 7, 3, 4, 9, 0, 9, 4, 6)
    def __init__(self, clock):
        self.clock = clock
    def read(self):
        t = self.clock.ms
        if t % 400 < 60:
            return 1 << self.ORDER[(t // 400) % len(self.ORDER)]
        return 0
    def taps(self):
        return 0

board = boards.load(BOARD)
clock = Clock()
hw = Hardware(board)
hw.buttons.reader = Script(clock)
screen = Screen(board.WIDTH, board.HEIGHT)
stats = FrameStats()
shell = make_app(screen, hw, stats, False)
loop = device_loop(shell, hw.panel, hw.buttons, hw.beeper, clock, stats)
loop.run(30)
# The hardware screen is made when SELECT first opens it (as link play's session is when
# Link play first opens): the first lap opens and leaves it before the heap is locked.
while shell.hardware is None or shell.showing_hardware:
    loop.run(1)
result = 'not run'
gc.collect()
micropython.heap_lock()
shown = 0
try:
    for _ in range(400):
        loop.run(1)
        shown += shell.showing_hardware
    result = 'clean'
except MemoryError:
    result = 'allocated'
micropython.heap_unlock()
print(result, shell.app.mode, hw.spi.bytes, hw.buttons.dropped, shown)
"""


@pytest.mark.parametrize("name", ["picosystem", "odroid_go"])
def test_frames_of_the_games_under_the_shell_allocate_nothing_on_micropython(name):
    from engine_core.ui.app import PLAY
    out = run_mpy_ok(GAMES_LOOP.replace("BOARD", repr(name))).split()
    assert out[0] == "clean", out
    assert out[1] == str(PLAY), "the taps took the console into a game"
    assert int(out[2]) > 0 and out[3] == "0"
    assert int(out[4]) > 0, "the hardware screen was shown again while the heap was locked"


def test_the_on_board_flush_bench_times_every_expansion_the_port_has():
    code = (
        "import sys\n"
        "sys.path.insert(0, '/support/fakes')\n"
        "import firmware.bench as bench\n"
        "bench.REPEATS = 1\n"
        "for name, full, card in bench.run('pico_lcd_114'):\n"
        "    print(name, full >= 0, card >= 0)\n"
    )
    lines = run_mpy_ok(code).splitlines()
    assert lines[0].split()[0] == "expander"
    assert lines[-2:] == ["framebuf True True", "plain True True"], "no viper under WASI"


POWER_LOOP = LOOP_PRELUDE + """
from firmware.main import make_app, make_gauge, make_power
from firmware.buttons import GpioButtons

class Keys(GpioButtons):
    # No key for four minutes (the screen dims at 30 s and goes off at 180 s), then a tap that
    # only wakes it, then two taps of DOWN that move the title's cursor; the edge latch as the
    # pins' interrupt sets it (GPIO pins: the loop rests on their latch).
    TAPS = ((240000, 2), (240400, 2), (240800, 2))
    def __init__(self, clock):
        self.clock = clock
        self.fell = 0
        self.seen = 0
    def read(self):
        t = self.clock.ms
        held = 0
        for at, m in self.TAPS:
            if at <= t < at + 60:
                held = m
        self.fell |= held & ~self.seen
        self.seen = held
        return held
    def taps(self):
        fell = self.fell
        self.fell = 0
        return fell

class EdgeClock(Clock):
    def sleep_ms(self, ms):
        for i in range(ms):
            self.ms += 1
            keys.read()

board = boards.load(BOARD)
clock = EdgeClock()
hw = Hardware(board)
keys = Keys(clock)
hw.buttons.reader = keys
hw.battery.level = 4000 * 65535 // 3300 // 3
screen = Screen(board.WIDTH, board.HEIGHT)
stats = FrameStats()
shell = make_app(screen, hw, stats, False)
shell.app.app.sound_event = 5
power = make_power(shell, hw, clock)
gauge = make_gauge(shell, screen, power)
loop = device_loop(shell, hw.panel, hw.buttons, hw.beeper, clock, stats, power=power, gauge=gauge)
while clock.ms < 1000:  # start-up: the title's New game has its table made ahead
    loop.run(1)
result = 'not run'
gc.collect()
micropython.heap_lock()
try:
    while clock.ms < 242000:
        if clock.ms > 120000:
            hw.battery.level = 3900 * 65535 // 3300 // 3    # the gauge's figure changes
        if clock.ms > 241500:
            shell.app.app.sound_event = 1          # a move's tone, started and ended by the loop
        loop.run(1)
    result = 'clean'
except MemoryError:
    result = 'allocated'
micropython.heap_unlock()
print(result, power.dims, power.offs, power.wakes, loop.rests, shell.app.app.selected, power.battery,
      hw.beeper.pwm.freq(), gauge.shown)
"""


def test_resting_dimming_sleeping_waking_and_sounds_allocate_nothing_on_micropython():
    """Four minutes of the games' loop with its power: rests on the still title, the screen
    dims and goes off, a key wakes it and the next ones play, under heap_lock."""
    from engine_core.power import B_OK
    out = run_mpy_ok(POWER_LOOP.replace("BOARD", repr("picosystem"))).split()
    assert out[0] == "clean", out
    assert out[1:4] == ["1", "1", "1"], "dimmed, off, woken once"
    assert int(out[4]) > 200, "rested a second at a time"
    assert out[5] == "2", "the keys after the waking one moved the cursor, that one did not"
    assert out[6] == str(B_OK), "the battery read under the lock too"
    assert out[7] == "1800", "the move's tone"
    assert out[8] == "74", "the gauge on the title, redrawn with the new reading"


OLED_FLUSH = """
import sys
sys.path.insert(0, '/support/fakes')
import gc, micropython
from array import array
import boards
from machine import I2C, SPI, Pin
from firmware.oled import I2cBus, Oled, SpiBus
board = boards.load('pico_ssd1306')

class Screen:
    mono = True
    def __init__(self):
        self.buf = bytearray(board.WIDTH * board.HEIGHT // 8)
        for i in range(len(self.buf)):
            self.buf[i] = (i * 7) & 255
        self.width = board.WIDTH
        self.height = board.HEIGHT
        self.dirty = array('h', [0] * 12)
        self.dirty_count = 0
    def mark(self, x, y, w, h):
        k = 4 * self.dirty_count
        self.dirty[k] = x
        self.dirty[k + 1] = y
        self.dirty[k + 2] = w
        self.dirty[k + 3] = h
        self.dirty_count += 1
    def clear_dirty(self):
        self.dirty_count = 0

i2c = I2C(0)
spi = SPI(1)
oleds = [Oled(I2cBus(i2c, 0x3C), None, board), Oled(SpiBus(spi, Pin(8), Pin(9)), None, board)]
screen = Screen()
def no_wait(ms):
    pass
gc.collect()
micropython.heap_lock()
try:
    for oled in oleds:
        screen.mark(0, 0, board.WIDTH, board.HEIGHT)
        oled.show(screen)
        screen.mark(3, 5, 41, 17)
        screen.mark(100, 60, 9, 4)
        oled.show(screen)
        oled.brightness(40)
        oled.sleep()
        oled.wake(0, no_wait)
    result = 'clean'
except MemoryError:
    result = 'allocated'
micropython.heap_unlock()
print(result, i2c.bytes, spi.bytes)
"""


def test_the_oled_driver_allocates_nothing_on_micropython():
    """firmware/oled.py: whole frames, dirty pages, contrast, sleep and wake over I2C and SPI,
    under micropython.heap_lock()."""
    result, i2c_bytes, spi_bytes = run_mpy_ok(OLED_FLUSH).split()
    assert result == "clean"
    assert int(i2c_bytes) > 1024 and int(spi_bytes) > 1024, "a whole frame went out on each bus"
