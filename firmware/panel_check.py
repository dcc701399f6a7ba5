"""A known picture on a board's panel: a first look at a newly wired display, and what the
emulated Pico's decoders are checked against (tests/test_pico.py). At the REPL:

    >>> from firmware.panel_check import pattern
    >>> pattern("pico_ssd1306", 0)     # the whole screen
    >>> pattern("pico_ssd1306", 1)     # then one rectangle of it changed, sent alone

The picture is a function of the pixel's position (pixel_on, pixel_index), so a host computes
the same frame (frame()) without the board: one bit a pixel, MONO_VLSB, on the one-bit boards;
16 colours, GS4_HMSB, through PALETTE on the others. Step 1 inverts CHANGED and marks only it.
"""

from array import array

CHANGED = (20, 10, 40, 20)   # x, y, w, h: the rectangle step 1 changes
# RGB565 values for the 16 indices: the corners of the colour cube and greys between.
PALETTE = (0x0000, 0xF800, 0x07E0, 0x001F, 0xFFE0, 0xF81F, 0x07FF, 0xFFFF,
           0x8410, 0x4208, 0xC618, 0x8000, 0x0400, 0x0010, 0xFD20, 0x2945)


def pixel_on(x, y):
    """The one-bit picture: a checkerboard of 8-pixel squares with a diagonal through each."""
    return (((x >> 3) ^ (y >> 3)) & 1) != ((x - y) % 8 == 0)


def pixel_index(x, y):
    """The 16-colour picture: bands of every index, a diagonal in index 7 (white)."""
    if (x - y) % 16 == 0:
        return 7
    return ((x >> 4) + (y >> 3)) & 15


class PatternScreen:
    """The screen contract a driver reads (docs/screen.md), with the pattern drawn in."""

    def __init__(self, width, height, mono):
        self.width = width
        self.height = height
        self.mono = mono
        self.buf = bytearray(width * height // 8 if mono else width * height // 2)
        self.palette = array("H", PALETTE)
        self.dirty = array("h", [0] * 4)
        self.dirty_count = 0

    def draw(self, invert_rect=None):
        for y in range(self.height):
            for x in range(self.width):
                inside = invert_rect is not None and in_rect(x, y, invert_rect)
                if self.mono:
                    self.set_bit(x, y, pixel_on(x, y) != inside)
                else:
                    self.set_index(x, y, (pixel_index(x, y) ^ 15) if inside else pixel_index(x, y))

    def set_bit(self, x, y, on):
        i = (y >> 3) * self.width + x
        if on:
            self.buf[i] |= 1 << (y & 7)
        else:
            self.buf[i] &= 255 ^ (1 << (y & 7))

    def set_index(self, x, y, v):
        i = (y * self.width + x) >> 1
        if x & 1:
            self.buf[i] = (self.buf[i] & 0xF0) | v
        else:
            self.buf[i] = (self.buf[i] & 0x0F) | (v << 4)

    def mark(self, x, y, w, h):
        self.dirty[0] = x
        self.dirty[1] = y
        self.dirty[2] = w
        self.dirty[3] = h
        self.dirty_count = 1

    def clear_dirty(self):
        self.dirty_count = 0


def in_rect(x, y, rect):
    return rect[0] <= x < rect[0] + rect[2] and rect[1] <= y < rect[1] + rect[3]


def frame(width, height, mono, step):
    """The screen as it stands after `step` (0: the pattern; 1: CHANGED inverted)."""
    screen = PatternScreen(width, height, mono)
    screen.draw(CHANGED if step else None)
    return screen


_hw = [None]  # type: list  # the board's machine objects, made once (a DMA channel is claimed once)


def pattern(board_name, step=0):
    """Draw step `step` on the board's panel, lit, and say so on the REPL with the time the
    driver's show() took (the flush alone: the pattern is drawn before)."""
    import time

    import boards
    from firmware.hardware import Hardware
    board = boards.load(board_name)
    if _hw[0] is None:
        _hw[0] = Hardware(board)
    hw = _hw[0]
    if step == 0:
        hw.panel.init()
    screen = frame(board.WIDTH, board.HEIGHT, getattr(board, "MONO", False), step)
    if step:
        screen.mark(CHANGED[0], CHANGED[1], CHANGED[2], CHANGED[3])
    else:
        screen.mark(0, 0, board.WIDTH, board.HEIGHT)
    t0 = time.ticks_us()
    hw.panel.show(screen)
    us = time.ticks_diff(time.ticks_us(), t0)
    hw.brightness(100)
    print("pattern %d done: show %d us" % (step, us))
