"""The hardware screen: each button lit while it is held, colour bars of the palette and
ramps through it, and the measured frame and flush times, free heap and battery.

It meets the same interface as the games' app (docs/firmware.md): press(button, long) and
tick(ms), drawing into a screen that meets the panel's contract; open() draws it whole and
close() gives the palette back. A cycles the palette (default, then grey, red, green and blue
ramps); long B leaves (`done` becomes True).
Numbers are drawn with a 3x5 digit font of its own, so refreshing them allocates nothing.
"""

import gc

import framebuf

from firmware.buttons import A, B, COUNT

WHITE = 1
BLACK = 0
GREY = 2

# 3x5 digits, one bit per pixel, row-major from the top-left (bit 14 first).
DIGITS = (0x7B6F, 0x2C97, 0x73E7, 0x73CF, 0x5BC9, 0x79CF, 0x79EF, 0x7249, 0x7BEF, 0x7BCF)
SCALE = 2
DIGIT_W = 4 * SCALE

RAMPS = ((1, 1, 1), (1, 0, 0), (0, 1, 0), (0, 0, 1))
SHORT_NAMES = ("U", "D", "L", "R", "A", "B", "X", "Y", "ST", "SE")
LABELS = ("frame us", "flush us", "heap free", "battery mV", "lost keys")


def ramp_palette(palette, r, g, b):
    """Sixteen steps from black to the colour (r, g, b each 0 or 1) into `palette`."""
    for i in range(16):
        palette[i] = ((i * 31 // 15) << 11) * r | ((i * 63 // 15) << 5) * g | (i * 31 // 15) * b


class HardwareScreen:
    """`stats`: the loop's measurements (firmware.main.Stats)."""

    def __init__(self, screen, buttons, stats, default_palette, battery=None):
        self.screen = screen
        self.battery = battery              # an object with battery_mv() (firmware.hardware)
        self.buttons = buttons
        self.stats = stats
        self.default_palette = default_palette
        self.fb = framebuf.FrameBuffer(screen.buf, screen.width, screen.height, framebuf.GS4_HMSB)
        self.palette_mode = 0
        self.shown_held = -1
        self.since_numbers = 0
        self.done = False
        self.box_w = screen.width // COUNT
        self.values_x = screen.width - 7 * DIGIT_W - 4

    def open(self):
        self.done = False
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
                palette[i] = self.default_palette[i]
        else:
            r, g, b = RAMPS[self.palette_mode - 1]
            ramp_palette(palette, r, g, b)
        self.screen.mark_all()

    def draw_all(self):
        fb = self.fb
        s = self.screen
        fb.fill(BLACK)
        fb.text("HARDWARE", 0, 0, WHITE)
        for i in range(16):
            w = s.width // 16
            fb.fill_rect(i * w, 28, w, 18, i)
        for i in range(len(LABELS)):
            fb.text(LABELS[i], 0, 52 + 14 * i, GREY)
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
            fb.fill_rect(x + 1, 12, w - 2, 12, WHITE if on else BLACK)
            fb.rect(x + 1, 12, w - 2, 12, WHITE)
            fb.text(SHORT_NAMES[b], x + 3, 14, BLACK if on else WHITE)
            self.screen.mark(x, 12, w, 12)
        self.shown_held = held

    def draw_numbers(self):
        st = self.stats
        if self.battery is not None:
            st.battery_mv = self.battery.battery_mv()
        x = self.values_x
        self.draw_number(x, 52, st.frame_us)
        self.draw_number(x, 66, st.flush_us)
        self.draw_number(x, 80, gc.mem_free())
        self.draw_number(x, 94, st.battery_mv)
        self.draw_number(x, 108, self.buttons.dropped)
        self.screen.mark(x, 52, 7 * DIGIT_W, 68)

    def draw_number(self, x, y, value):
        """Seven right-aligned digits at (x, y); dashes for a negative value."""
        fb = self.fb
        fb.fill_rect(x, y, 7 * DIGIT_W, 5 * SCALE, BLACK)
        if value < 0:
            fb.fill_rect(x + 6 * DIGIT_W, y + 2 * SCALE, 3 * SCALE, SCALE, WHITE)
            return
        for i in range(7):
            digit = value % 10
            value //= 10
            bits = DIGITS[digit]
            dx = x + (6 - i) * DIGIT_W
            for k in range(15):
                if bits & (0x4000 >> k):
                    fb.fill_rect(dx + (k % 3) * SCALE, y + (k // 3) * SCALE, SCALE, SCALE, WHITE)
            if value == 0:
                return
