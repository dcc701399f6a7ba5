"""A model of a MIPI-DCS panel controller (ST7789, ILI9341, ILI9342C, ST7735), written from the
datasheets, not from the driver: it decodes the command/data bytes a driver sends over SPI
into the controller's RAM and shows what the glass displays.

Address mapping (datasheets' "memory data access control"): a pixel written at column
address x, page address y of the current window lands in RAM at (col, row) = (x, y), or
(y, x) when MV is set; MX then mirrors the column across the whole RAM width, MY the row
across the whole RAM height. The counter runs along x first and wraps to the next y.
"""

RAM_SIZE = {"st7789": (240, 320), "ili9341": (240, 320), "ili9342c": (320, 240),
            "st7735": (132, 162)}   # ST7735R/S with GM = "00"; 128x160 with GM = "11" (ram=)
PARAMS = {0x2A: 4, 0x2B: 4, 0x36: 1, 0x3A: 1}


class PanelModel:
    def __init__(self, controller, ram=None):
        self.ram_w, self.ram_h = ram or RAM_SIZE[controller]
        self.ram = [-1] * (self.ram_w * self.ram_h)
        self.errors = []
        self.reset()

    def reset(self):
        self.madctl = 0
        self.colmod = 0x66          # 18 bits a pixel after reset
        self.inverted = False
        self.awake = False
        self.on = False
        self.cols = (0, self.ram_w - 1)
        self.rows = (0, self.ram_h - 1)
        self.cmd = None
        self.params = bytearray()
        self.half = None            # first byte of a pixel split across writes
        self.commands = []

    def feed(self, log):
        """Process [(dc level, bytes), ...] as the SPI bus saw them."""
        for dc, data in log:
            if dc == 0:
                for c in data:
                    self.command(c)
            else:
                self.data(data)

    def command(self, c):
        self.commands.append(c)
        self.cmd = c
        self.params = bytearray()
        self.half = None
        if c == 0x01:
            self.reset()
            self.commands.append(c)
        elif c == 0x11:
            self.awake = True
        elif c == 0x10:
            self.awake = False
        elif c == 0x29:
            self.on = True
        elif c == 0x28:
            self.on = False
        elif c == 0x21:
            self.inverted = True
        elif c == 0x20:
            self.inverted = False
        elif c == 0x2C:
            self.x, self.y = self.cols[0], self.rows[0]

    def data(self, data):
        if self.cmd == 0x2C:
            self.pixels(data)
            return
        need = PARAMS.get(self.cmd)
        if need is None:
            return                  # parameters of commands the picture does not depend on
        self.params += data
        if len(self.params) < need:
            return
        p = self.params
        if self.cmd == 0x2A:
            self.cols = (p[0] << 8 | p[1], p[2] << 8 | p[3])
        elif self.cmd == 0x2B:
            self.rows = (p[0] << 8 | p[1], p[2] << 8 | p[3])
        elif self.cmd == 0x36:
            self.madctl = p[0]
        elif self.cmd == 0x3A:
            self.colmod = p[0]

    def pixels(self, data):
        if self.colmod & 0x0F != 0x05:
            self.errors.append("pixel data while not in 16-bit mode (COLMOD %#x)" % self.colmod)
            return
        i = 0
        if self.half is not None:
            self.store(self.half << 8 | data[0])
            i = 1
            self.half = None
        while i + 1 < len(data):
            self.store(data[i] << 8 | data[i + 1])
            i += 2
        if i < len(data):
            self.half = data[i]

    def store(self, value):
        x, y = self.x, self.y
        if y > self.rows[1]:
            self.errors.append("pixel past the end of the window")
            return
        mv = self.madctl & 0x20
        col, row = (y, x) if mv else (x, y)
        if self.madctl & 0x40:
            col = self.ram_w - 1 - col
        if self.madctl & 0x80:
            row = self.ram_h - 1 - row
        if not (0 <= col < self.ram_w and 0 <= row < self.ram_h):
            self.errors.append("address outside the RAM: col %d row %d" % (col, row))
        else:
            self.ram[row * self.ram_w + col] = value
        self.x += 1
        if self.x > self.cols[1]:
            self.x = self.cols[0]
            self.y += 1

    def glass_image(self, glass, glass_bgr, glass_inverted):
        """The colours the glass (x, y, w, h in RAM) shows, row by row, as RGB565 ints
        (-1 where nothing was ever written)."""
        gx, gy, gw, gh = glass
        swap = bool(self.madctl & 0x08) != glass_bgr
        invert = self.inverted != glass_inverted
        rows = []
        for r in range(gh):
            row = []
            for c in range(gw):
                v = self.ram[(gy + r) * self.ram_w + gx + c]
                if v >= 0:
                    if swap:
                        v = (v & 0x07E0) | (v >> 11) | ((v & 0x1F) << 11)
                    if invert:
                        v ^= 0xFFFF
                row.append(v)
            rows.append(row)
        return rows

    def writes_outside(self, glass):
        """How many RAM cells outside the glass were ever written."""
        gx, gy, gw, gh = glass
        n = 0
        for row in range(self.ram_h):
            for col in range(self.ram_w):
                if self.ram[row * self.ram_w + col] >= 0 and not (gx <= col < gx + gw and gy <= row < gy + gh):
                    n += 1
        return n


def glass_position(x, y, glass, madctl):
    """(column, row) on the glass where the screen's pixel (x, y) must appear, from the
    orientation bits alone: the controller's mapping, but within the glass, so that no
    offsets enter."""
    gx, gy, gw, gh = glass
    c, r = (y, x) if madctl & 0x20 else (x, y)
    if madctl & 0x40:
        c = gw - 1 - c
    if madctl & 0x80:
        r = gh - 1 - r
    return c, r


def expected_glass(buf, width, height, palette, glass, madctl):
    """What the glass must show for a GS4_HMSB framebuffer."""
    gx, gy, gw, gh = glass
    rows = [[-1] * gw for _ in range(gh)]
    for y in range(height):
        for x in range(width):
            b = buf[(y * width + x) >> 1]
            c, r = glass_position(x, y, glass, madctl)
            rows[r][c] = palette[(b >> 4) if x % 2 == 0 else (b & 15)]
    return rows


def model_for(board):
    """The model of a board module's MIPI-DCS controller, with the RAM its module sets."""
    return PanelModel(board.CONTROLLER, getattr(board, "RAM", None))
