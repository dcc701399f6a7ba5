"""Monochrome OLED controllers (SSD1306, SH1106) over I2C or SPI, in firmware/panel.py's contract.

    bus = I2cBus(i2c, address)               # or SpiBus(spi, dc, cs)
    oled = Oled(bus, rst, board)             # rst may be None
    oled.init()                              # reset, init sequence, display on
    oled.show(screen)                        # the dirty pages' dirty columns of a one-bit screen
    oled.sleep(); oled.wake(); oled.brightness(percent)   # contrast (0x81): no backlight

The screen is one-bit (docs/screen.md): `screen.buf` holds MONO_VLSB bytes, width * height / 8
of them, page-major exactly as the controllers' display RAM is laid out (byte x of page p
holds column x of rows 8p..8p+7, the top row in bit 0). The dirty rectangles are gathered
first into one column span per page, so each page goes out once per show(). The SH1106 is
driven in page addressing mode, the one mode it has: for each page with something dirty, the
page address (0xB0 | page), the column address (low nibble 0x00 | c, high nibble 0x10 | c >> 4,
with the glass's column offset: 2 on an SH1106 module, whose RAM is 132 columns wide), then
the bytes of that page's dirty columns. The SSD1306 is driven in horizontal addressing mode
through windows (0x21 first and last column, 0x22 first and last page): a page's span is a
window of one page, and pages dirty across the whole glass one after another are one window
and one transfer (a whole frame: 1,034 bytes on I2C, not 1,064 in sixteen transfers).

Over I2C every transfer starts with the control byte (SSD1306 datasheet 8.1.5.1, SH1106
datasheet "I2C-bus interface"): 0x00 (Co = 0, D/C# = 0) before a stream of commands, 0x40
(Co = 0, D/C# = 1) before a stream of display data. Over SPI the D/C# pin says which. A
command's parameters are commands too (D/C# low), on both controllers.

MicroPython's hardware I2C joins the buffers of writevto() into one it allocates, so the
driver copies each page's span behind the control byte in a staging buffer of its own (a whole
frame's on an SSD1306) and writes that buffer through a memoryview made at start-up for each
span length (widened to whole 8-column steps, as firmware/panel.py's windows are) and each
number of whole pages: show() allocates nothing.
"""

import time

from micropython import const

try:
    from firmware.expand_viper import copy_bytes
except (ImportError, SyntaxError, ValueError):  # no viper here: the bytes copied by bytecode
    copy_bytes = None  # type: ignore[assignment]

ALIGN = const(8)

# Commands (SSD1306 datasheet Rev 1.1, table 9-1; SH1106 datasheet V2.x, "Commands").
SET_CONTRAST = const(0x81)      # + 1 byte, 0..255 (reset 0x7F on SSD1306, 0x80 on SH1106)
DISPLAY_OFF = const(0xAE)       # the panel off, the controller in sleep mode; RAM kept
DISPLAY_ON = const(0xAF)
SET_PAGE = const(0xB0)          # | page 0..7 (page addressing mode)
SET_COLUMNS = const(0x21)       # + first, last column of the window (SSD1306, horizontal addressing)
SET_PAGES = const(0x22)         # + first, last page of the window
SET_COL_LOW = const(0x00)       # | the column address's low nibble
SET_COL_HIGH = const(0x10)      # | its high nibble
RESUME_RAM = const(0xA4)        # the picture from RAM (0xA5 would light every pixel)
NORMAL = const(0xA6)            # RAM bit 1 = pixel lit (0xA7 inverts)
SEG_REMAP = const(0xA1)         # column 0 on the far segment (the modules' upright picture)
COM_SCAN_DEC = const(0xC8)      # rows scanned from COM[N-1] (the modules' upright picture)
START_LINE = const(0x40)        # | 0..63: RAM row 0 on the first row

# Init sequences: command, then its parameter bytes (sent as commands, D/C# low).
# SSD1306: the datasheet's application example ("Software initialization flow chart") with
# the charge pump on (0x8D, 0x14: the modules have no external VCC) and page addressing
# (0x20, 0x02, which is also its reset value).
_SSD1306_INIT = (
    (DISPLAY_OFF, b""),
    (0xD5, b"\x80"),            # clock: divide ratio 1, oscillator frequency 8 (reset value)
    (0xA8, b"\x3f"),            # multiplex ratio 64
    (0xD3, b"\x00"),            # display offset 0
    (START_LINE, b""),
    (0x8D, b"\x14"),            # charge pump on
    (0x20, b"\x00"),            # horizontal addressing: writes go through a window (0x21, 0x22)
    (SEG_REMAP, b""),
    (COM_SCAN_DEC, b""),
    (0xDA, b"\x12"),            # COM pins: alternative configuration, no left/right remap (128x64)
    (SET_CONTRAST, b"\xcf"),
    (0xD9, b"\xf1"),            # pre-charge: phase 1 1 clock, phase 2 15 clocks (internal VCC)
    (0xDB, b"\x30"),            # VCOMH deselect level ~0.83 VCC
    (0x2E, b""),                # scrolling off
    (RESUME_RAM, b""),
    (NORMAL, b""),
)
# SH1106: its power-on defaults suit a 128x64 module (DC-DC on, 0xAD 0x8B; pump 8.0 V,
# 0x32); the sequence states them and sets the orientation the modules are upright in.
_SH1106_INIT = (
    (DISPLAY_OFF, b""),
    (0xD5, b"\x50"),            # clock: divide ratio 1, oscillator +0% (reset value)
    (0xA8, b"\x3f"),            # multiplex ratio 64
    (0xD3, b"\x00"),            # display offset 0
    (START_LINE, b""),
    (0xAD, b"\x8b"),            # DC-DC converter on
    (0x32, b""),                # pump voltage 8.0 V
    (SEG_REMAP, b""),
    (COM_SCAN_DEC, b""),
    (0xDA, b"\x12"),            # common pads: alternative
    (SET_CONTRAST, b"\x80"),
    (0xD9, b"\x22"),            # discharge/pre-charge: 2 and 2 clocks (reset value)
    (0xDB, b"\x35"),            # VCOM deselect level (reset value)
    (RESUME_RAM, b""),
    (NORMAL, b""),
)
INIT = {"ssd1306": _SSD1306_INIT, "sh1106": _SH1106_INIT}
RAM_COLUMNS = {"ssd1306": 128, "sh1106": 132}

# Reset: RES# low at least 3 us (SSD1306) / 10 us (SH1106), then commands may follow 2 us
# later; after DISPLAY_ON the SSD1306 needs 100 ms before the picture is steady (no wait
# is needed before drawing into RAM).
RESET_PULSE_MS = const(1)
AFTER_RESET_MS = const(1)
PAGE_COMMANDS = const(3)        # page address, column low, column high
WINDOW_COMMANDS = const(6)      # the window's columns and pages, with their parameters
STAGE_COLUMNS = const(128)      # a page's bytes the staging buffer holds (the widest glass)


def staged(lead, columns, pages):
    """A bus's staging buffer: a control byte, then room for `pages` whole rows of `columns`
    bytes; and its views from byte `lead` (0 over I2C, whose views carry the control byte; 1
    over SPI): for a span of k 8-column steps, and for p whole rows."""
    buf = bytearray(1 + columns * pages)
    s = memoryview(buf)
    return (buf, [s[lead:1 + ALIGN * k] for k in range(STAGE_COLUMNS // ALIGN + 1)],
            [s[lead:1 + columns * p] for p in range(pages + 1)])


class I2cBus:
    """The controller at `address` on an I2C bus: each transfer starts with its control byte."""

    def __init__(self, i2c, address):
        self.i2c = i2c
        self.address = address
        self.commands = bytearray(1 + 8)      # 0x00 then up to 8 command bytes
        c = memoryview(self.commands)
        self.command_views = [c[0:1 + n] for n in range(9)]
        self.widen(STAGE_COLUMNS, 1)  # 0x40 then a page's span

    def widen(self, columns, pages):
        """Room for `pages` whole rows of `columns` bytes in one transfer (a window of pages)."""
        self.stage, self.data_views, self.rows_views = staged(0, columns, pages)
        self.stage[0] = 0x40

    def send_commands(self, n):
        """commands[1..n] as one command stream."""
        self.i2c.writeto(self.address, self.command_views[n])

    def send_data(self, k):
        """stage[1..8k] as one display-data stream."""
        self.i2c.writeto(self.address, self.data_views[k])

    def send_rows(self, p):
        """stage[1..] for p whole rows (widen()) as one display-data stream."""
        self.i2c.writeto(self.address, self.rows_views[p])


class SpiBus:
    """The controller on an SPI bus (4-wire: D/C# low for commands, high for data)."""

    def __init__(self, spi, dc, cs):
        self.spi = spi
        self.dc = dc
        self.cs = cs
        self.commands = bytearray(1 + 8)      # the first byte unused: as I2cBus lays them out
        c = memoryview(self.commands)
        self.command_views = [c[1:1 + n] for n in range(9)]
        self.widen(STAGE_COLUMNS, 1)

    def _write(self, dc, view):
        if self.cs is not None:
            self.cs.value(0)
        self.dc.value(dc)
        self.spi.write(view)
        if self.cs is not None:
            self.cs.value(1)

    def widen(self, columns, pages):
        self.stage, self.data_views, self.rows_views = staged(1, columns, pages)

    def send_commands(self, n):
        self._write(0, self.command_views[n])

    def send_data(self, k):
        self._write(1, self.data_views[k])

    def send_rows(self, p):
        self._write(1, self.rows_views[p])


class Oled:
    """An SSD1306 or SH1106 with a one-bit screen, driven from a board module's facts."""

    def __init__(self, bus, rst, board):
        if board.WIDTH % ALIGN or board.HEIGHT % 8 or board.WIDTH > STAGE_COLUMNS:
            raise ValueError("an OLED screen needs whole 8-column steps and whole pages, at most 128 wide")
        self.bus = bus
        self.rst = rst
        self.controller = board.CONTROLLER
        self.width = board.WIDTH
        self.height = board.HEIGHT
        self.pages = board.HEIGHT // 8
        self.column_offset = board.GLASS[0]   # where the glass's first column sits in RAM
        if self.column_offset + self.width > RAM_COLUMNS[self.controller]:
            raise ValueError("the glass does not fit the controller's RAM")
        self.page_lo = bytearray(self.pages)  # per page, the dirty span [lo, hi) in 8-column steps
        self.page_hi = bytearray(self.pages)
        # An SSD1306 writes through a window (horizontal addressing): consecutive pages dirty
        # across the glass go out in one transfer (SH1106: page addressing alone, a page each).
        self.window = self.controller == "ssd1306"
        if self.window:
            bus.widen(self.width, self.pages)

    # -- commands -------------------------------------------------------------------------

    def command(self, cmd, data=b""):
        """One command and its parameter bytes (set-up and power only)."""
        c = self.bus.commands
        c[1] = cmd
        for i in range(len(data)):
            c[2 + i] = data[i]
        self.bus.send_commands(1 + len(data))

    def init(self, sleep_ms=None):
        if sleep_ms is None:
            sleep_ms = time.sleep_ms
        self.reset(sleep_ms)
        self.start(sleep_ms)

    def reset(self, sleep_ms):
        """The hardware reset where RES# is wired (the controllers have no software reset)."""
        if self.rst is not None:
            self.rst.value(0)
            sleep_ms(RESET_PULSE_MS)
            self.rst.value(1)
            sleep_ms(AFTER_RESET_MS)

    def start(self, sleep_ms):
        """The init sequence, the RAM cleared, the display on."""
        for cmd, data in INIT[self.controller]:
            self.command(cmd, data)
        self.clear_ram()
        self.command(DISPLAY_ON)

    def clear_ram(self):
        """Every page of the controller's RAM dark, the columns beside the glass included (an
        SH1106's RAM holds noise after power-on, and its edge columns are never drawn): the
        last 128 columns of each page, then the first 8, every write within the RAM."""
        stage = self.bus.stage
        for i in range(1, len(stage)):
            stage[i] = 0
        ram = RAM_COLUMNS[self.controller]
        if self.window:  # (the SSD1306's RAM is its glass: one window)
            self._window(0, self.pages - 1, 0, ram - 1)
            self.bus.send_rows(self.pages)
            return
        for page in range(self.pages):
            self._address(page, ram - STAGE_COLUMNS)
            self.bus.send_data(STAGE_COLUMNS // ALIGN)
            if ram > STAGE_COLUMNS:
                self._address(page, 0)
                self.bus.send_data(1)

    def sleep(self):
        """Display off: the controller's sleep mode (its RAM keeps the picture)."""
        self.command(DISPLAY_OFF)

    def wake(self, wait_ms=0, sleep_ms=None):
        if sleep_ms is None:
            sleep_ms = time.sleep_ms
        if wait_ms > 0:
            sleep_ms(wait_ms)
        self.command(DISPLAY_ON)

    def brightness(self, percent):
        """The contrast (0x81) for 0..100 %: an OLED has no backlight to dim."""
        if percent < 0:
            percent = 0
        if percent > 100:
            percent = 100
        c = self.bus.commands
        c[1] = SET_CONTRAST
        c[2] = percent * 255 // 100
        self.bus.send_commands(2)

    # -- pixels ---------------------------------------------------------------------------

    def _address(self, page, column):
        """Page and column address (a RAM column: the glass's offset already added)."""
        c = self.bus.commands
        c[1] = SET_PAGE | page
        c[2] = SET_COL_LOW | (column & 15)
        c[3] = SET_COL_HIGH | (column >> 4)
        self.bus.send_commands(PAGE_COMMANDS)

    def _window(self, first_page, last_page, first_column, last_column):
        """The SSD1306's window: the data that follows fills its columns row by row of pages."""
        c = self.bus.commands
        c[1] = SET_COLUMNS
        c[2] = first_column
        c[3] = last_column
        c[4] = SET_PAGES
        c[5] = first_page
        c[6] = last_page
        self.bus.send_commands(WINDOW_COMMANDS)

    def _gather(self, dirty, count):
        """Each page's dirty span: the union of the rectangles' columns on that page."""
        lo = self.page_lo
        hi = self.page_hi
        for p in range(self.pages):
            lo[p] = 255
            hi[p] = 0
        for i in range(count):
            k = 4 * i
            x = dirty[k]        # one by one: unpacking four values builds a tuple
            y = dirty[k + 1]
            w = dirty[k + 2]
            h = dirty[k + 3]
            if w <= 0 or h <= 0:
                continue
            a = x // ALIGN
            b = (x + w + ALIGN - 1) // ALIGN
            for p in range(y >> 3, ((y + h - 1) >> 3) + 1):
                if p >= self.pages:
                    break
                if a < lo[p]:
                    lo[p] = a
                if b > hi[p]:
                    hi[p] = b

    def show(self, screen):
        """Send the dirty columns of every dirty page of the one-bit `screen`, then clear its
        rectangles. No allocation."""
        count = screen.dirty_count
        if not count:
            return
        self._gather(screen.dirty, count)
        self.send_pages(screen.buf)
        screen.clear_dirty()

    def send_pages(self, buf):
        """The spans _gather() left, from the MONO_VLSB bytes `buf`: on an SSD1306, pages dirty
        across the whole glass one after another in one window (a whole frame: 1,034 bytes on
        the bus, not 1,064 in sixteen transfers)."""
        width = self.width
        stage = self.bus.stage
        steps = width // ALIGN
        lo = self.page_lo
        hi = self.page_hi
        offset = self.column_offset
        p = 0
        while p < self.pages:
            a = lo[p]
            b = hi[p]
            if b > steps:
                b = steps
            q = p + 1
            if a >= b:
                p = q
                continue
            whole = self.window and a == 0 and b == steps  # (and the pages after it like it)
            if whole:
                while q < self.pages and lo[q] == 0 and hi[q] >= steps:
                    q += 1
                start = p * width
                n = (q - p) * width
            else:
                start = p * width + a * ALIGN
                n = (b - a) * ALIGN
            if copy_bytes is not None:
                copy_bytes(stage, 1, buf, start, n)
            else:
                for i in range(n):
                    stage[1 + i] = buf[start + i]
            if whole:
                self._window(p, q - 1, offset, offset + width - 1)
                self.bus.send_rows(q - p)
            elif self.window:
                self._window(p, p, offset + a * ALIGN, offset + b * ALIGN - 1)
                self.bus.send_data(b - a)
            else:
                self._address(p, offset + a * ALIGN)
                self.bus.send_data(b - a)
            p = q
