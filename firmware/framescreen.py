"""The smallest screen that meets the panel's contract (docs/screen.md): a GS4_HMSB buffer,
a palette and a list of dirty rectangles. The boot splash and the hardware screen draw into
it; the games draw through engine_core/gfx's own Screen, which meets the same contract.
"""

from array import array

MAX_DIRTY = 8

# A default 16-colour palette, RGB565: black, white, greys, and the primaries.
DEFAULT_PALETTE = (
    0x0000, 0xFFFF, 0x8410, 0xC618, 0x4208, 0xF800, 0x07E0, 0x001F,
    0xFFE0, 0x07FF, 0xF81F, 0xFC00, 0x0320, 0x8000, 0x0010, 0x7BEF,
)


class FrameScreen:
    def __init__(self, width, height):
        self.width = width
        self.height = height
        self.buf = bytearray(width * height // 2)
        self.palette = array("H", DEFAULT_PALETTE)
        self.dirty = array("h", [0] * (4 * MAX_DIRTY))
        self.dirty_count = 0

    def mark(self, x, y, w, h):
        """Queue a rectangle to send; when the list is full, the whole screen instead."""
        if w <= 0 or h <= 0:
            return
        if self.dirty_count == MAX_DIRTY:
            self.dirty_count = 0
            x = 0
            y = 0
            w = self.width
            h = self.height
        k = 4 * self.dirty_count
        d = self.dirty
        d[k] = x
        d[k + 1] = y
        d[k + 2] = w
        d[k + 3] = h
        self.dirty_count += 1

    def mark_all(self):
        self.dirty_count = 0
        self.mark(0, 0, self.width, self.height)

    def clear_dirty(self):
        self.dirty_count = 0
