"""MicroPython's `framebuf` on the host, for the formats and methods the project uses.

GS4_HMSB (the screen: two pixels a byte, the left one in the high nibble), MONO_HLSB (font
and card art: eight pixels a byte, the leftmost in bit 7, rows padded to whole bytes) and
MONO_VLSB (the one-bit screen, as SSD1306/SH1106 panels hold it: a byte is eight rows of one
column, the top one in bit 0; a page of eight rows is `width` bytes) and GS8 (a byte a pixel:
the one-bit screen's canvas fills whole pages through it), with
fill, fill_rect, rect, hline, vline, pixel and blit (colour key and palette). Clipping,
stride rounding and the order of writes follow MicroPython's extmod/modframebuf.c, so the
bytes come out identical (tests/test_framebuf.py draws the same scene on both and compares).
"""

MONO_VLSB = 0
MVLSB = 0
RGB565 = 1
GS4_HMSB = 2
MONO_HLSB = 3
MONO_HMSB = 4
GS2_HMSB = 5
GS8 = 6


class FrameBuffer:
    def __init__(self, buffer, width, height, format, stride=None):
        if format not in (GS4_HMSB, MONO_HLSB, MONO_VLSB, GS8):
            raise ValueError("host framebuf: only GS4_HMSB, MONO_HLSB, MONO_VLSB and GS8 are implemented")
        if stride is None:
            stride = width
        if width < 1 or height < 1 or stride < width:
            raise ValueError()
        if format == GS4_HMSB:
            stride = (stride + 1) & ~1
            need = stride * height // 2
        elif format == MONO_HLSB:
            stride = (stride + 7) & ~7
            need = stride * height // 8
        elif format == GS8:
            need = (height - 1) * stride + width
        else:  # modframebuf.c: whole pages, the last one only `width` bytes long
            pages = (height + 7) >> 3
            need = (pages - 1) * stride + width
        if len(buffer) < need:
            raise ValueError("buffer too small")
        self.buf = buffer
        self.width = width
        self.height = height
        self.format = format
        self.stride = stride

    # --- one pixel ---

    def _get(self, x, y):
        if self.format == GS4_HMSB:
            b = self.buf[(x + y * self.stride) >> 1]
            return b & 0x0F if x & 1 else b >> 4
        if self.format == MONO_VLSB:
            return (self.buf[(y >> 3) * self.stride + x] >> (y & 7)) & 1
        if self.format == GS8:
            return self.buf[x + y * self.stride]
        return (self.buf[(x + y * self.stride) >> 3] >> (7 - (x & 7))) & 1

    def _set(self, x, y, col):
        buf = self.buf
        if self.format == GS4_HMSB:
            i = (x + y * self.stride) >> 1
            if x & 1:
                buf[i] = (col & 0x0F) | (buf[i] & 0xF0)
            else:
                buf[i] = ((col << 4) & 0xF0) | (buf[i] & 0x0F)
        elif self.format == GS8:
            buf[x + y * self.stride] = col & 0xFF
        elif self.format == MONO_VLSB:  # any colour but 0 sets the bit, as in modframebuf.c
            i = (y >> 3) * self.stride + x
            bit = y & 7
            buf[i] = (buf[i] & ~(1 << bit) & 0xFF) | ((col != 0) << bit)
        else:
            i = (x + y * self.stride) >> 3
            bit = 7 - (x & 7)
            buf[i] = (buf[i] & ~(1 << bit) & 0xFF) | ((col != 0) << bit)

    # --- the drawing methods ---

    def pixel(self, x, y, col=None):
        if 0 <= x < self.width and 0 <= y < self.height:
            if col is None:
                return self._get(x, y)
            self._set(x, y, col)
        return None

    def fill(self, col):
        self._fill_rect(0, 0, self.width, self.height, col)

    def fill_rect(self, x, y, w, h, col):
        if h < 1 or w < 1 or x + w <= 0 or y + h <= 0 or y >= self.height or x >= self.width:
            return
        xend = min(self.width, x + w)
        yend = min(self.height, y + h)
        x = max(x, 0)
        y = max(y, 0)
        self._fill_rect(x, y, xend - x, yend - y, col)

    def _fill_rect(self, x, y, w, h, col):
        if self.format == MONO_VLSB:
            self._fill_pages(x, y, w, h, col)
            return
        if self.format == GS8:
            for yy in range(y, y + h):
                i = yy * self.stride + x
                self.buf[i:i + w] = bytes((col & 0xFF,)) * w
            return
        if self.format != GS4_HMSB:
            for yy in range(y, y + h):
                for xx in range(x, x + w):
                    self._set(xx, yy, col)
            return
        col &= 0x0F
        pair = col << 4 | col
        buf = self.buf
        half = self.stride >> 1
        for yy in range(y, y + h):
            row = yy * half
            xx = x
            end = x + w
            if xx & 1:
                i = row + (xx >> 1)
                buf[i] = (buf[i] & 0xF0) | col
                xx += 1
            n = (end - xx) >> 1
            if n > 0:
                i = row + (xx >> 1)
                buf[i:i + n] = bytes((pair,)) * n
                xx += 2 * n
            if xx < end:
                i = row + (xx >> 1)
                buf[i] = (col << 4) | (buf[i] & 0x0F)

    def _fill_pages(self, x, y, w, h, col):
        """MONO_VLSB: the rows of each page at once (the same bits modframebuf.c's row by
        row loop sets)."""
        buf = self.buf
        end = y + h
        while y < end:
            page = y >> 3
            last = min(end, (page + 1) << 3)
            mask = ((1 << (last - y)) - 1) << (y & 7)
            i = page * self.stride + x
            if mask == 0xFF:
                buf[i:i + w] = bytes((0xFF if col != 0 else 0,)) * w
            else:
                keep = ~mask & 0xFF
                ink = mask if col != 0 else 0
                for k in range(i, i + w):
                    buf[k] = (buf[k] & keep) | ink
            y = last

    def hline(self, x, y, w, col):
        self.fill_rect(x, y, w, 1, col)

    def vline(self, x, y, h, col):
        self.fill_rect(x, y, 1, h, col)

    def rect(self, x, y, w, h, col, fill=False):
        if fill:
            self.fill_rect(x, y, w, h, col)
        else:
            self.fill_rect(x, y, w, 1, col)
            self.fill_rect(x, y + h - 1, w, 1, col)
            self.fill_rect(x, y, 1, h, col)
            self.fill_rect(x + w - 1, y, 1, h, col)

    def blit(self, source: "FrameBuffer", x, y, key=-1, palette: "FrameBuffer" = None):
        if (x >= self.width or y >= self.height or -x >= source.width or -y >= source.height):
            return
        x0 = max(0, x)
        y0 = max(0, y)
        x1 = max(0, -x)
        y1 = max(0, -y)
        x0end = min(self.width, x + source.width)
        y0end = min(self.height, y + source.height)
        key &= 0xFFFFFFFF  # modframebuf compares as uint32_t: key -1 matches no colour
        get = source._get
        put = self._set
        while y0 < y0end:
            cx1 = x1
            for cx0 in range(x0, x0end):
                col = get(cx1, y1)
                if palette is not None:
                    col = palette._get(col, 0)
                if col != key:
                    put(cx0, y0, col)
                cx1 += 1
            y1 += 1
            y0 += 1
