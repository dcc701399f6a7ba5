"""The screen: one framebuffer, its palette and the dirty rectangles.

A colour screen is GS4_HMSB, a pixel a palette index; a one-bit screen (mono) is MONO_VLSB,
the page layout of SSD1306/SH1106 panels, its drawing calls mapping each palette role to dark
or lit (engine_core/gfx/mono.py). This is everything a panel driver reads (docs/screen.md).
Nothing here allocates after __init__: mark() merges into a fixed list of rectangles.
"""

from array import array

from engine_core.gfx import palette

from micropython import const

MAX_DIRTY = 12
KEEP_MOST = const(10240)  # the largest frame keep() copies: 160x128's (1 KB at 128x64)


class Screen:
    kept: "bytearray | None" = None  # a small screen's copy of its frame (keep()); a larger
    kept_ok = False  # one keeps none (KEEP_MOST)

    def __init__(self, width, height, framebuf=None, mono=False):
        """framebuf: the module that makes frame buffers, MicroPython's own when None. A host
        passes its own (simulator.framebuf, byte-identical): the engine imports nothing
        from the edges it runs under. mono: a one-bit frame, width * ceil(height / 8) bytes."""
        if framebuf is None:
            try:
                import framebuf
            except ImportError:
                raise ImportError("no framebuf module here: pass one to Screen (simulator.framebuf on a host)")
        self.framebuf = framebuf
        self.width = width
        self.height = height
        self.mono = mono
        if mono:
            from engine_core.gfx.mono import MonoCanvas  # colour boards never load it

            self.buf = bytearray(width * ((height + 7) >> 3))
            fb = framebuf.FrameBuffer(self.buf, width, height, framebuf.MONO_VLSB)
            self.fb = MonoCanvas(framebuf, fb, self.buf, width, height)
        else:
            self.buf = bytearray(width * height // 2)
            self.fb = framebuf.FrameBuffer(self.buf, width, height, framebuf.GS4_HMSB)
        if len(self.buf) <= KEEP_MOST:
            self.kept = bytearray(len(self.buf))
            self.kept_ok = False
        self.palette = array("H", [0] * 16)
        for i in range(16):
            c = palette.RGB[i]
            self.palette[i] = palette.rgb565(c[0], c[1], c[2])
        self.dirty = array("h", [0] * (4 * MAX_DIRTY))
        self.dirty_count = 0
        self.all_dirty = False  # the whole screen is pending: further marks are free
        self.pixels_marked = 0  # pixels in rectangles marked since the last clear (for benches)

    def set_colour(self, index, r, g, b):
        """Change one palette entry; the whole screen is resent (on a one-bit screen,
        where the palette shows nothing, the same pixels again)."""
        self.palette[index] = palette.rgb565(r, g, b)
        self.mark_all()

    def clear_dirty(self):
        """The driver has sent every pending rectangle."""
        self.dirty_count = 0
        self.all_dirty = False
        self.pixels_marked = 0

    def keep(self):
        """Keep a copy of the frame, for restore() to put back, where the screen is small
        (KEEP_MOST): the pause menu's way back to play, where its panel covers the whole
        glass and drawing the table again under it took as long as the frame's own 26 ms
        on the wire (128x64 on I2C, 160x128 on SPI)."""
        if self.kept is not None:
            self.kept[:] = self.buf
            self.kept_ok = True

    def restore(self):
        """The frame keep() kept, back whole and marked; once. False when none is kept."""
        if not self.kept_ok:
            return False
        self.kept_ok = False
        self.buf[:] = self.kept  # type: ignore[assignment]  # (kept_ok: keep() had a copy)
        self.mark_all()
        return True

    def mark_all(self):
        self.dirty_count = 0
        self.all_dirty = False
        self.mark(0, 0, self.width, self.height)
        self.all_dirty = True

    def mark(self, x, y, w, h):
        """Add a changed rectangle (clipped). Rectangles are appended as they come (a
        search for the best merge costs more fuel than the pixels it saves); only when the
        list is full is one merged into the rectangle whose bounding box grows least."""
        if self.all_dirty:
            return
        if x < 0:
            w += x
            x = 0
        if y < 0:
            h += y
            y = 0
        if x + w > self.width:
            w = self.width - x
        if y + h > self.height:
            h = self.height - y
        if w <= 0 or h <= 0:
            return
        self.pixels_marked += w * h
        d = self.dirty
        if self.dirty_count < MAX_DIRTY:
            k = 4 * self.dirty_count
            self.dirty_count += 1
            d[k] = x
            d[k + 1] = y
            d[k + 2] = w
            d[k + 3] = h
            return
        x2 = x + w
        y2 = y + h
        best = 0
        best_growth = -1
        for i in range(MAX_DIRTY):
            k = 4 * i
            ax = d[k]
            ay = d[k + 1]
            ax2 = ax + d[k + 2]
            ay2 = ay + d[k + 3]
            ux = ax if ax < x else x
            uy = ay if ay < y else y
            ux2 = ax2 if ax2 > x2 else x2
            uy2 = ay2 if ay2 > y2 else y2
            growth = (ux2 - ux) * (uy2 - uy) - d[k + 2] * d[k + 3]
            if best_growth < 0 or growth < best_growth:
                best = i
                best_growth = growth
        k = 4 * best
        ax = d[k]
        ay = d[k + 1]
        ax2 = ax + d[k + 2]
        ay2 = ay + d[k + 3]
        x = ax if ax < x else x
        y = ay if ay < y else y
        x2 = ax2 if ax2 > x2 else x2
        y2 = ay2 if ay2 > y2 else y2
        d[k] = x
        d[k + 1] = y
        d[k + 2] = x2 - x
        d[k + 3] = y2 - y

    def dirty_pixels(self):
        """Pixels covered by the pending rectangles (overlaps counted twice)."""
        total = 0
        for i in range(self.dirty_count):
            total += self.dirty[4 * i + 2] * self.dirty[4 * i + 3]
        return total
