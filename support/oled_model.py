"""A model of the SSD1306 and SH1106 OLED controllers, written from their datasheets, not from
the driver: it decodes what a driver sends (SPI with its D/C# level, or I2C transfers with
their control bytes) into the display RAM and shows what the glass displays.

Display RAM: 8 pages of 8 rows; a data byte lands in the current page at the current
column, bit 0 on the page's top row, and the column then advances. SSD1306 (128 columns):
in page addressing mode (0x20 0x02, its reset mode) the column wraps to the start of the
window at its end and the page stays; in horizontal mode (0x20 0x00) it wraps to the next
page of the 0x21/0x22 window; in vertical mode (0x20 0x01) the page advances first. SH1106
(132 columns): page addressing only; writing past column 131 is an error here (the datasheet
leaves it undefined).

Orientation: with segment re-map (0xA1) and COM scan from COM[N-1] (0xC8), which the
modules' makers and MicroPython's driver set, a module shows RAM column c, row r at
(c - offset, r) from its top-left corner; without them the picture is mirrored (the model
mirrors it back, so a test sees what a viewer of the module would).
"""

PARAMS_SSD1306 = {0x20: 1, 0x21: 2, 0x22: 2, 0x81: 1, 0x8D: 1, 0xA8: 1, 0xD3: 1, 0xD5: 1,
                  0xD9: 1, 0xDA: 1, 0xDB: 1, 0x26: 6, 0x27: 6, 0x29: 5, 0x2A: 5, 0xA3: 2}
PARAMS_SH1106 = {0x81: 1, 0xA8: 1, 0xAD: 1, 0xD3: 1, 0xD5: 1, 0xD9: 1, 0xDA: 1, 0xDB: 1}
COLUMNS = {"ssd1306": 128, "sh1106": 132}
SINGLE = {0x2E, 0x2F, 0xA0, 0xA1, 0xA4, 0xA5, 0xA6, 0xA7, 0xAE, 0xAF, 0xC0, 0xC8, 0xE3}


class OledModel:
    def __init__(self, controller, pages=8):
        self.controller = controller
        self.columns = COLUMNS[controller]
        self.pages = pages
        self.ram = [[-1] * self.columns for _ in range(pages)]   # byte per page and column
        self.params_of = PARAMS_SSD1306 if controller == "ssd1306" else PARAMS_SH1106
        self.errors = []
        self.commands = []
        self.on = False
        self.contrast = 0x7F if controller == "ssd1306" else 0x80
        self.mode = 2               # page addressing
        self.seg_remap = False
        self.com_reverse = False
        self.inverted = False
        self.all_on = False
        self.charge_pump = False
        self.dcdc = controller == "sh1106"   # SH1106: DC-DC on after reset
        self.page = 0
        self.col = 0
        self.col_window = (0, self.columns - 1)
        self.page_window = (0, pages - 1)
        self.pending = None         # [command, parameter bytes still wanted, parameters]
        self.data_bytes = 0
        self.i2c_mode = None        # where an I2C transfer stopped: None (a control byte is
        # next), "data"/"command" (a stream), or "one data"/"one command" (Co = 1's byte)

    # -- the buses ------------------------------------------------------------------------

    def feed(self, log):
        """[(dc level, bytes), ...] as an SPI bus saw them, or (2, bytes) for an I2C write
        transfer to the controller (control bytes included), (3, bytes) for the rest of a
        transfer whose first part came before (the emulated chip's trace cuts one at a marker)."""
        for dc, data in log:
            if dc == 2:
                self.i2c_mode = None
                self.i2c(data)
            elif dc == 3:
                self.i2c(data)
            elif dc == 0:
                for c in data:
                    self.command(c)
            else:
                for b in data:
                    self.write(b)

    def i2c(self, data):
        """The bytes of an I2C write transfer after the address (from where i2c_mode says the
        transfer stood): control byte(s) (Co, D/C#) and the bytes they announce."""
        i = 0
        mode = self.i2c_mode
        while i < len(data):
            if mode in ("data", "command"):    # Co = 0: the rest of the transfer
                self.byte(mode == "data", data[i:])
                return
            if mode is not None:               # Co = 1: its one byte
                self.byte(mode == "one data", data[i:i + 1])
                i += 1
                mode = self.i2c_mode = None
                continue
            control = data[i]
            i += 1
            if control & 0x3F:
                self.errors.append("control byte %#x has bits other than Co and D/C#" % control)
            kind = "data" if control & 0x40 else "command"
            mode = self.i2c_mode = ("one " + kind) if control & 0x80 else kind

    def byte(self, is_data, data):
        for b in data:
            if is_data:
                self.write(b)
            else:
                self.command(b)

    # -- commands ------------------------------------------------------------------------

    def command(self, c):
        if self.pending is not None:
            self.pending[2].append(c)
            self.pending[1] -= 1
            if self.pending[1] == 0:
                cmd, _, params = self.pending
                self.pending = None
                self.parameters(cmd, params)
            return
        self.commands.append(c)
        need = self.params_of.get(c)
        if need:
            self.pending = [c, need, []]
        elif c <= 0x0F:
            self.col = (self.col & 0xF0) | c
        elif c <= 0x1F:
            self.col = (self.col & 0x0F) | (c & 0x0F) << 4
        elif 0x40 <= c <= 0x7F:
            pass                        # display start line (0x40 | line)
        elif 0xB0 <= c <= 0xB7:
            self.page = c & 7
        elif self.controller == "sh1106" and 0x30 <= c <= 0x33:
            pass                        # pump voltage
        elif c in SINGLE:
            self.single(c)
        else:
            self.errors.append("unknown command %#x" % c)

    def single(self, c):
        if c == 0xAE:
            self.on = False
        elif c == 0xAF:
            self.on = True
        elif c in (0xA0, 0xA1):
            self.seg_remap = c == 0xA1
        elif c in (0xC0, 0xC8):
            self.com_reverse = c == 0xC8
        elif c in (0xA6, 0xA7):
            self.inverted = c == 0xA7
        elif c in (0xA4, 0xA5):
            self.all_on = c == 0xA5

    def parameters(self, cmd, p):
        if cmd == 0x81:
            self.contrast = p[0]
        elif cmd == 0x20:
            self.mode = p[0] & 3
        elif cmd == 0x21:
            self.col_window = (p[0] & 0x7F, p[1] & 0x7F)
            self.col = self.col_window[0]
        elif cmd == 0x22:
            self.page_window = (p[0] & 7, p[1] & 7)
            self.page = self.page_window[0]
        elif cmd == 0x8D:
            self.charge_pump = bool(p[0] & 0x04)
        elif cmd == 0xAD:
            self.dcdc = bool(p[0] & 0x01)

    # -- display data ----------------------------------------------------------------------

    def write(self, b):
        self.data_bytes += 1
        if self.pending is not None:
            self.errors.append("data before command %#x had its parameters" % self.pending[0])
            self.pending = None
        if not (0 <= self.col < self.columns) or self.page >= self.pages:
            self.errors.append("data at column %d page %d, outside the RAM" % (self.col, self.page))
            return
        self.ram[self.page][self.col] = b
        self.advance()

    def advance(self):
        if self.controller == "sh1106" or self.mode == 2:
            self.col += 1
            if self.controller == "ssd1306" and self.col > self.col_window[1]:
                self.col = self.col_window[0]
            return
        c0, c1 = self.col_window
        p0, p1 = self.page_window
        if self.mode == 0:
            self.col += 1
            if self.col > c1:
                self.col = c0
                self.page = p0 if self.page >= p1 else self.page + 1
        else:
            self.page += 1
            if self.page > p1:
                self.page = p0
                self.col = c0 if self.col >= c1 else self.col + 1

    # -- what the glass shows -------------------------------------------------------------

    def glass_image(self, offset, width, height):
        """The glass (`width` columns from RAM column `offset`, `height` rows) as rows of 1
        (lit), 0 (dark) or -1 (never written), as a viewer of the module sees it."""
        rows = []
        for y in range(height):
            r = y if self.com_reverse else height - 1 - y
            row = []
            for x in range(width):
                c = offset + x if self.seg_remap else offset + width - 1 - x
                v = self.ram[r >> 3][c]
                if v >= 0:
                    v = (v >> (r & 7)) & 1
                    if self.inverted:
                        v ^= 1
                row.append(v)
            rows.append(row)
        return rows

    def writes_outside(self, offset, width):
        """Columns outside the glass that were written with something lit."""
        n = 0
        for page in self.ram:
            for c, v in enumerate(page):
                if not (offset <= c < offset + width) and v > 0:
                    n += 1
        return n


def expected_mono(buf, width, height):
    """What the glass must show for a MONO_VLSB frame: rows of 0/1."""
    return [[(buf[(y >> 3) * width + x] >> (y & 7)) & 1 for x in range(width)] for y in range(height)]
