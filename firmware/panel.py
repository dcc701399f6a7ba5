"""One driver for the MIPI-DCS panels of our boards (ST7789, ILI9341, ILI9342C, ST7735) over SPI.

    panel = Panel(spi, dc, cs, rst, board)   # machine objects (rst/cs may be None) and a board module
    panel.init()                             # reset, init sequence, orientation, display on
    panel.send(buf, width, palette, x, y, w, h)   # one rectangle of a GS4_HMSB framebuffer
    panel.show(screen)                       # every dirty rectangle of a screen (docs/screen.md)

A rectangle goes out as a window (CASET, RASET, RAMWR) and then as many of its rows at a time
as one screen line's buffer holds (one row of a full-width rectangle, eight rows of a card 40
pixels wide on a 320-wide screen): they are expanded from 4-bit palette indices to big-endian
RGB565 into the preallocated line buffer and written from a preallocated memoryview of the
right length. Windows are widened to whole 8-pixel columns so that one view per multiple of 8
covers every length: slicing a memoryview per write would allocate. send() and show() allocate
nothing (the first send of a new framebuffer wraps it once for framebuf).

The expansion is chosen once, at import, fastest first:
- "viper": firmware/expand_viper.py, compiled to machine code on the device;
- "framebuf": FrameBuffer.blit with a palette, in C, where viper is missing (it is on the
  WASI build): 8.5 M fuel to flush a whole 240x240 screen against 189 M in plain Python;
- "plain": firmware/expand_plain.py, pure Python (CPython, the host tests).

Orientation: the board gives MADCTL's MY/MX/MV bits and where its glass sits in the
controller's RAM; the driver works out the window offsets for that orientation (mirroring
counts from the far edge of the RAM, which is why a 240x240 glass in a 240x320 ST7789 needs
a row offset of 80 when MY is set). support/panel_model.py checks this against a model of the
controller.
"""

import time
from array import array

from micropython import const

from firmware import expand_plain

try:
    from firmware import expand_viper
    EXPANDER = "viper"
except (ImportError, SyntaxError, ValueError):  # no viper here (ValueError: an .mpy built
    # for another chip's machine code); or not MicroPython at all
    expand_viper = None  # type: ignore[assignment]
    EXPANDER = "plain"
try:
    import framebuf
    if EXPANDER == "plain":
        EXPANDER = "framebuf"
except ImportError:
    framebuf = None  # type: ignore[assignment]

FEED_ROWS = const(4)    # screen rows in a line buffer with the viper expansion
# With viper, two dirty rectangles go as one when their bounding box has at most this many
# pixels more than the two (expand_viper.merge_rects): about what one more rectangle's window
# commands and call cost, in pixels on the wire.
MERGE_SLACK = const(1024)

SWRESET = const(0x01)
SLPIN = const(0x10)
SLPOUT = const(0x11)
NORON = const(0x13)
INVOFF = const(0x20)
INVON = const(0x21)
DISPOFF = const(0x28)
DISPON = const(0x29)
CASET = const(0x2A)
RASET = const(0x2B)
RAMWR = const(0x2C)
MADCTL = const(0x36)
COLMOD = const(0x3A)

MY = const(0x80)
MX = const(0x40)
MV = const(0x20)
BGR = const(0x08)

ALIGN = const(8)

# Controller RAM (columns, rows) in native orientation. The ST7735's is 132x162 with its GM
# pins at "00" (the modules whose glass sits at an offset: Adafruit's "green tab"), 128x160
# at "11" (no offsets: "red" and "black tab"); a board module gives RAM where it differs.
RAM_SIZE = {"st7789": (240, 320), "ili9341": (240, 320), "ili9342c": (320, 240), "st7735": (132, 162)}

# Init sequences: command, then the number of parameter bytes, then the parameters.
# The waits the ST7789V and ILI9341 datasheets require (their RESX, SWRESET, SLPOUT and SLPIN
# timing): a reset pulse of at least 10 us; 5 ms after a reset before any command, and 120 ms
# before SLPOUT; 5 ms after SLPOUT before the next command; 120 ms between SLPOUT and SLPIN
# either way. DISPON needs none.
RESET_PULSE_MS = const(1)
AFTER_RESET_MS = const(5)
RESET_TO_SLPOUT_MS = const(120)
AFTER_SLPOUT_MS = const(5)
_ST7789_INIT = (
    (COLMOD, b"\x55"),            # 16 bits per pixel
    (0xB2, b"\x0c\x0c\x00\x33\x33"),  # porch control (the power-on value, made explicit)
    (0xB7, b"\x35"),              # gate control
    (0xBB, b"\x19"),              # VCOM
    (0xC0, b"\x2c"),
    (0xC2, b"\x01"),
    (0xC3, b"\x12"),              # VRH
    (0xC4, b"\x20"),
    (0xC6, b"\x0f"),              # 60 Hz frame rate
    (0xD0, b"\xa4\xa1"),          # power control
)
_ILI9341_INIT = (
    (0xCF, b"\x00\xc1\x30"),      # power control B
    (0xED, b"\x64\x03\x12\x81"),  # power-on sequence
    (0xE8, b"\x85\x00\x78"),      # driver timing A
    (0xCB, b"\x39\x2c\x00\x34\x02"),  # power control A
    (0xF7, b"\x20"),              # pump ratio
    (0xEA, b"\x00\x00"),          # driver timing B
    (0xC0, b"\x23"),              # power control 1
    (0xC1, b"\x10"),              # power control 2
    (0xC5, b"\x3e\x28"),          # VCOM 1
    (0xC7, b"\x86"),              # VCOM 2
    (COLMOD, b"\x55"),
    (0xB1, b"\x00\x18"),          # frame rate 79 Hz
    (0xB6, b"\x08\x82\x27"),      # display function control
    (0xF2, b"\x00"),              # 3-gamma off
    (0x26, b"\x01"),              # gamma curve 1
)
# ST7735R/S: frame rates, power and gamma as the common drivers send them (Linux's fbtft
# fb_st7735r and Waveshare's demo for its Pico-LCD-1.8 send these same values); the command
# numbers are the ST7735R datasheet's.
_ST7735_INIT = (
    (0xB1, b"\x01\x2c\x2d"),      # FRMCTR1: frame rate = fosc / ((1 * 2 + 40) * (LINE + 0x2c + 0x2d))
    (0xB2, b"\x01\x2c\x2d"),      # FRMCTR2 (idle mode)
    (0xB3, b"\x01\x2c\x2d\x01\x2c\x2d"),   # FRMCTR3 (partial mode)
    (0xB4, b"\x07"),              # INVCTR: column inversion in every mode
    (0xC0, b"\xa2\x02\x84"),      # PWCTR1: GVDD 4.6 V, auto mode
    (0xC1, b"\xc5"),              # PWCTR2: VGH/VGL
    (0xC2, b"\x0a\x00"),          # PWCTR3: op-amp current, normal mode
    (0xC3, b"\x8a\x2a"),          # PWCTR4: idle mode
    (0xC4, b"\x8a\xee"),          # PWCTR5: partial mode
    (0xC5, b"\x0e"),              # VMCTR1: VCOM -0.775 V
    (COLMOD, b"\x05"),            # 16 bits per pixel
    (0xE0, b"\x0f\x1a\x0f\x18\x2f\x28\x20\x22\x1f\x1b\x23\x37\x00\x07\x02\x10"),  # GMCTRP1
    (0xE1, b"\x0f\x1b\x0f\x17\x33\x2c\x29\x2e\x30\x30\x39\x3f\x00\x07\x03\x10"),  # GMCTRN1
)
INIT = {"st7789": _ST7789_INIT, "ili9341": _ILI9341_INIT, "ili9342c": _ILI9341_INIT, "st7735": _ST7735_INIT}


def window_offsets(controller, glass, madctl, ram=None):
    """(x offset, y offset) of the screen's origin in the controller's address space.

    glass = (x, y, w, h) of the visible glass in RAM (native orientation); madctl's MY/MX/MV
    as the board sets them; ram = (columns, rows) where the board's differs from RAM_SIZE.
    Mirroring a direction counts it from the far edge of the RAM.
    """
    ram_w, ram_h = ram or RAM_SIZE[controller]
    gx, gy, gw, gh = glass
    col = ram_w - gx - gw if madctl & MX else gx
    row = ram_h - gy - gh if madctl & MY else gy
    if madctl & MV:
        return row, col
    return col, row


class Panel:
    """A MIPI-DCS panel on an SPI bus, driven from a board module's facts."""

    def __init__(self, spi, dc, cs, rst, board, expander=EXPANDER, feeder=None):
        if board.WIDTH % ALIGN:
            raise ValueError("screen width must be a multiple of 8")
        self.spi = spi
        self.dc = dc
        self.cs = cs
        self.rst = rst
        self.controller = board.CONTROLLER
        self.width = board.WIDTH
        self.height = board.HEIGHT
        self.madctl = (board.MADCTL & (MY | MX | MV)) | (BGR if board.BGR else 0)
        self.invert = board.INVERT
        self.x_offset, self.y_offset = window_offsets(board.CONTROLLER, board.GLASS, board.MADCTL,
                                                      getattr(board, "RAM", None))
        self.command_byte = bytearray(1)
        self.window_bytes = bytearray(4)
        self.table = bytearray(32)           # the palette as big-endian RGB565 byte pairs
        if feeder is not None and expander != "viper":
            raise ValueError("a DMA feeder needs the viper expansion")
        # Pixels one write carries: a screen row, or with viper FEED_ROWS rows (in each of
        # a DMA feeder's two buffers: one is expanded into while the other is on the wire).
        self.line_pixels = self.width * (FEED_ROWS if expander == "viper" else 1)
        self.line = bytearray(2 * self.line_pixels)
        line = memoryview(self.line)
        self.line_views = [line[0:2 * ALIGN * k] for k in range(self.line_pixels // ALIGN + 1)]
        self.feeder = feeder
        self.expander = expander
        self.expand_row = expand_plain.expand_row
        self.loaded = array("H", range(16))  # the palette the tables were last built from
        self.loaded_once = False
        if expander == "viper":
            self.expand_rows = expand_viper.expand_rows
            self.make_pairs = expand_viper.make_pairs
            self.pairs = bytearray(1024)     # byte -> its two pixels (expand_viper.make_pairs)
            self.merge_rects = expand_viper.merge_rects
        if feeder is not None:
            feeder.attach([self.line, bytearray(2 * self.line_pixels)], self.pairs, self.width)
        if expander == "framebuf":
            # For each view width, a frame buffer over the line buffer as many rows high as
            # fit: one blit then expands several rows of a narrow rectangle. The palette
            # table read as native 16-bit values gives back big-endian bytes.
            self.palette_fb = framebuf.FrameBuffer(self.table, 16, 1, framebuf.RGB565)
            self.line_fbs = [framebuf.FrameBuffer(self.line, ALIGN * k, self.width // (ALIGN * k), framebuf.RGB565)
                             for k in range(1, self.width // ALIGN + 1)]
        self.source = None                   # the framebuffer last sent, and its wrapper
        self.source_fb = None

    # -- low level -------------------------------------------------------------------------

    def _select(self):
        if self.cs is not None:
            self.cs.value(0)

    def _deselect(self):
        if self.cs is not None:
            self.cs.value(1)

    def _command(self, cmd):
        self.dc.value(0)
        self.command_byte[0] = cmd
        self.spi.write(self.command_byte)
        self.dc.value(1)

    def command(self, cmd, data=None):
        """Send one command and its parameter bytes (set-up only)."""
        self._select()
        self._command(cmd)
        if data:
            self.spi.write(data)
        self._deselect()

    def _range(self, cmd, start, end):
        b = self.window_bytes
        b[0] = start >> 8
        b[1] = start & 255
        b[2] = end >> 8
        b[3] = end & 255
        self._command(cmd)
        self.spi.write(b)

    def _window(self, x, y, w, h):
        """CASET/RASET/RAMWR for the screen rectangle (x, y, w, h); chip already selected."""
        x += self.x_offset
        y += self.y_offset
        self._range(CASET, x, x + w - 1)
        self._range(RASET, y, y + h - 1)
        self._command(RAMWR)

    # -- set-up ----------------------------------------------------------------------------

    def init(self, sleep_ms=None):
        """Reset, then (RESET_TO_SLPOUT_MS later) out of sleep, set up and on. firmware/main.py
        calls the two halves itself, building the app in the wait between them."""
        if sleep_ms is None:
            sleep_ms = time.sleep_ms
        self.reset(sleep_ms)
        sleep_ms(RESET_TO_SLPOUT_MS)
        self.start(sleep_ms)

    def reset(self, sleep_ms):
        """The hardware reset where RST is wired, and SWRESET (in case the pin is not). The
        controller is then asleep: SLPOUT (start()) may follow RESET_TO_SLPOUT_MS later."""
        self._deselect()
        if self.rst is not None:
            self.rst.value(0)
            sleep_ms(RESET_PULSE_MS)
            self.rst.value(1)
            sleep_ms(AFTER_RESET_MS)
        self.command(SWRESET)
        sleep_ms(AFTER_RESET_MS)

    def start(self, sleep_ms):
        """Out of sleep, the init sequence, orientation, display on (at least
        RESET_TO_SLPOUT_MS after reset())."""
        self.command(SLPOUT)
        sleep_ms(AFTER_SLPOUT_MS)
        for cmd, data in INIT[self.controller]:
            self.command(cmd, data)
        self.command(MADCTL, bytes((self.madctl,)))
        self.command(INVON if self.invert else INVOFF)
        self.command(NORON)
        self.command(DISPON)

    def sleep(self):
        """The display off and the controller asleep (DISPOFF, SLPIN): its RAM keeps the
        picture, and flushes may go on writing it."""
        self.command(DISPOFF)
        self.command(SLPIN)

    def wake(self, wait_ms=0, sleep_ms=None):
        """Out of sleep and the display on again (wait_ms first: what is left of
        engine_core/power.py's SLEEP_TOGGLE_MS since sleep())."""
        if sleep_ms is None:
            sleep_ms = time.sleep_ms
        if wait_ms > 0:
            sleep_ms(wait_ms)
        self.command(SLPOUT)
        sleep_ms(AFTER_SLPOUT_MS)
        self.command(DISPON)

    def set_palette(self, palette):
        """Load 16 RGB565 values (array('H')) into the expansion tables, when they changed."""
        loaded = self.loaded
        if self.loaded_once and palette == loaded:
            return
        t = self.table
        for i in range(16):
            c = palette[i]
            loaded[i] = c
            t[2 * i] = c >> 8
            t[2 * i + 1] = c & 255
        self.loaded_once = True
        if self.expander == "viper":
            self.make_pairs(self.pairs, t)

    # -- pixels ----------------------------------------------------------------------------

    def send(self, buf, width, palette, x, y, w, h):
        """Send the rectangle (x, y, w, h) of the GS4_HMSB framebuffer `buf` (`width` pixels a
        row) through `palette`. The rectangle is widened to 8-pixel columns and clipped to the
        screen. No allocation."""
        self.set_palette(palette)
        self._send(buf, width, x, y, w, h)

    def _send(self, buf, width, x, y, w, h):
        """send() with the palette already loaded."""
        if w <= 0 or h <= 0:
            return
        x0 = x & ~(ALIGN - 1)
        x1 = (x + w + ALIGN - 1) & ~(ALIGN - 1)
        if x1 > self.width:
            x1 = self.width
        if x0 < 0:
            x0 = 0
        if y < 0:
            h += y
            y = 0
        if y + h > self.height:
            h = self.height - y
        if x1 <= x0 or h <= 0:
            return
        n = x1 - x0
        per_write = self.line_pixels // n    # rows of the rectangle one line buffer holds
        if self.feeder is not None:
            self.feeder.flush(buf, x0 + self.x_offset, y + self.y_offset, y * width + x0, n, h, per_write)
            return
        chunks = h // per_write
        rest = h - chunks * per_write
        spi = self.spi
        view = self.line_views[n * per_write // ALIGN]
        rest_view = self.line_views[n * rest // ALIGN]
        self._select()
        self._window(x0, y, n, h)
        if self.expander == "framebuf":
            if buf is not self.source:
                self.source = buf
                self.source_fb = framebuf.FrameBuffer(buf, width, self.height, framebuf.GS4_HMSB)
            rows_fb = self.line_fbs[n // ALIGN - 1]
            source_fb = self.source_fb
            palette_fb = self.palette_fb
            row = y
            for _ in range(chunks):
                rows_fb.blit(source_fb, -x0, -row, -1, palette_fb)
                spi.write(view)
                row += per_write
            if rest:
                rows_fb.blit(source_fb, -x0, -row, -1, palette_fb)
                spi.write(rest_view)
        elif self.expander == "viper":
            expand_rows = self.expand_rows
            line = self.line
            pairs = self.pairs
            start = y * width + x0
            for _ in range(chunks):
                expand_rows(line, buf, start, n, per_write, width, pairs)
                start += per_write * width
                spi.write(view)
            if rest:
                expand_rows(line, buf, start, n, rest, width, pairs)
                spi.write(rest_view)
        else:
            expand_row = self.expand_row
            line = self.line
            table = self.table
            start = y * width + x0
            step = 2 * n
            for _ in range(chunks):
                at = 0
                for _ in range(per_write):
                    expand_row(line, at, buf, start, n, table)
                    at += step
                    start += width
                spi.write(view)
            if rest:
                at = 0
                for _ in range(rest):
                    expand_row(line, at, buf, start, n, table)
                    at += step
                    start += width
                spi.write(rest_view)
        self._deselect()

    def show(self, screen):
        """Send every dirty rectangle of `screen` (docs/screen.md; with viper, those that
        overlap or nearly touch merged first), then clear them."""
        count = screen.dirty_count
        if not count:
            return
        dirty = screen.dirty
        buf = screen.buf
        width = screen.width
        self.set_palette(screen.palette)
        if self.expander == "viper":
            count = self.merge_rects(dirty, count, MERGE_SLACK)
        for i in range(count):
            k = 4 * i
            self._send(buf, width, dirty[k], dirty[k + 1], dirty[k + 2], dirty[k + 3])
        screen.clear_dirty()
