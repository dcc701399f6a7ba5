"""The hardware screen: each button lit while it is held, colour bars of the palette and
ramps through it, the measured frame and flush times, free heap and battery, and which
palette expansion the panel driver runs on this port (viper, framebuf or plain).

It meets the same interface as the games' app (docs/firmware.md): press(button, long) and
tick(ms), drawing into a screen that meets the panel's contract with the games' own font
(engine_core/gfx's Painter, shared with the app); open() draws it whole and close() gives the
palette back. A cycles the palette (the screen's own, then grey, red, green and blue ramps);
long B leaves (`done` becomes True). Refreshing the numbers allocates nothing.
"""

import gc

from engine_core.gfx import palette as pal
from engine_core.gfx.paint import CHAR_W, LINE_H
from firmware.buttons import A, B, COUNT
from firmware.panel import EXPANDER

EXPANDER_NAME = EXPANDER.encode()       # which palette expansion this port runs

WHITE = pal.WHITE
BLACK = pal.BLACK
GREY = pal.DIM

RAMPS = ((1, 1, 1), (1, 0, 0), (0, 1, 0), (0, 0, 1))
SHORT_NAMES = (b"U", b"D", b"L", b"R", b"A", b"B", b"X", b"Y", b"ST", b"SE")
LABELS = (b"frame us", b"flush us", b"heap free", b"battery mV", b"lost keys")
BOX_Y = 12
BOX_H = 12
BARS_Y = 28
BARS_H = 18
LINES_Y = 52
DIGITS = 8                      # room for numbers up to 99,999,999


def ramp_palette(palette, r, g, b):
    """Sixteen steps from black to the colour (r, g, b each 0 or 1) into `palette`."""
    for i in range(16):
        palette[i] = ((i * 31 // 15) << 11) * r | ((i * 63 // 15) << 5) * g | (i * 31 // 15) * b


class HardwareScreen:
    """`stats`: the loop's measurements (firmware.main.FrameStats); `battery`: an object with
    battery_mv() (firmware.hardware.Hardware), or None."""

    def __init__(self, screen, painter, buttons, stats, battery=None):
        self.screen = screen
        self.painter = painter
        self.fb = screen.fb
        self.buttons = buttons
        self.stats = stats
        self.battery = battery
        self.own_palette = screen.palette[:]
        self.palette_mode = 0
        self.shown_held = -1
        self.since_numbers = 0
        self.done = False
        self.box_w = screen.width // COUNT
        self.values_x = screen.width - DIGITS * CHAR_W - 4

    def open(self):
        self.done = False
        palette = self.screen.palette
        for i in range(16):
            self.own_palette[i] = palette[i]
        self.draw_all()

    def close(self):
        """Leave the screen's palette as it was found."""
        if self.palette_mode:
            self.palette_mode = 0
            self.apply_palette()

    # -- interface ---------------------------------------------------------------------------

    def press(self, button, long):
        if button == B and long:
            self.done = True
        elif button == A and not long:
            self.palette_mode = (self.palette_mode + 1) % (1 + len(RAMPS))
            self.apply_palette()

    def sound_on(self):
        return True                          # every press clicks: the buzzer's test

    # --- alone, as the loop's app (engine_core/loop.py; start(hardware=True)) ---

    def held(self, mask):
        pass

    def defers(self):
        """Every button acts as it goes down; B held on leaves (press(B, long))."""
        return 0

    def type_digit(self, digit):
        """A digit typed means nothing here (the device has no keyboard: none comes)."""

    def click(self, x, y, now, phase):
        """A click means nothing here (the device has no pointer: none comes)."""

    def take_sound(self):
        return 0

    def idle(self):
        return False

    def tick(self, ms):
        held = self.buttons.held
        if held != self.shown_held:
            self.draw_buttons(held)
        self.since_numbers += ms
        if self.since_numbers >= 500:
            self.since_numbers = 0
            self.draw_numbers()

    # -- drawing -----------------------------------------------------------------------------

    def apply_palette(self):
        palette = self.screen.palette
        if self.palette_mode == 0:
            for i in range(16):
                palette[i] = self.own_palette[i]
        else:
            r, g, b = RAMPS[self.palette_mode - 1]
            ramp_palette(palette, r, g, b)
        self.screen.mark_all()

    def draw_all(self):
        fb = self.fb
        s = self.screen
        fb.fill(BLACK)
        self.painter.text(b"HARDWARE", 0, 2, WHITE)
        self.painter.text(EXPANDER_NAME, s.width - len(EXPANDER_NAME) * CHAR_W, 2, GREY)
        w = s.width // 16
        for i in range(16):
            fb.fill_rect(i * w, BARS_Y, w, BARS_H, i)
        for i in range(len(LABELS)):
            self.painter.text(LABELS[i], 0, LINES_Y + LINE_H * i, GREY)
        self.shown_held = -1
        self.draw_buttons(self.buttons.held)
        self.draw_numbers()
        s.mark_all()

    def draw_buttons(self, held):
        fb = self.fb
        w = self.box_w
        for b in range(COUNT):
            bit = 1 << b
            if self.shown_held >= 0 and (held ^ self.shown_held) & bit == 0:
                continue
            x = b * w
            on = held & bit
            fb.fill_rect(x + 1, BOX_Y, w - 2, BOX_H, WHITE if on else BLACK)
            fb.rect(x + 1, BOX_Y, w - 2, BOX_H, WHITE)
            self.painter.text(SHORT_NAMES[b], x + 3, BOX_Y + 3, BLACK if on else WHITE)
            self.screen.mark(x, BOX_Y, w, BOX_H)
        self.shown_held = held

    def draw_numbers(self):
        st = self.stats
        if self.battery is not None:
            st.battery_mv = self.battery.battery_mv()
        self.draw_number(0, st.frame_us)
        self.draw_number(1, st.flush_us)
        self.draw_number(2, gc.mem_free())
        self.draw_number(3, st.battery_mv)
        self.draw_number(4, self.buttons.dropped)
        self.screen.mark(self.values_x, LINES_Y, DIGITS * CHAR_W, LINE_H * len(LABELS))

    def draw_number(self, line, value):
        """A right-aligned number on a line; a dash for a negative value (unknown)."""
        x = self.values_x
        y = LINES_Y + LINE_H * line
        self.fb.fill_rect(x, y, DIGITS * CHAR_W, LINE_H, BLACK)
        right = x + DIGITS * CHAR_W
        if value < 0:
            self.painter.text(b"-", right - CHAR_W, y, WHITE)
        else:
            self.painter.number(value, right - self.painter.number_width(value) - 1, y, WHITE)
