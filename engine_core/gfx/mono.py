"""The one-bit screen's drawing: a FrameBuffer's calls, each colour a palette role.

Screen(..., mono=True) keeps a MONO_VLSB FrameBuffer (the SSD1306/SH1106 page layout) and
hands the drawing code this canvas as its `fb`: the code names roles (FELT, CURSOR) as on a
colour screen, and each call looks its role up in palette.MONO (a table of 16 bytes, copied
into the screen's `tone`). blit() takes its colours as they are: the painter, the only code
that blits, puts tones into its ink palette itself (tone is the identity on a colour screen).
A highlight frame, which colour alone marks on a colour screen, is drawn as two rings of a
pattern (rings(), palette.MONO_RINGS). Nothing here allocates.
"""

from engine_core.gfx.palette import MONO_RINGS, RING_DARK, RING_LIT


class MonoCanvas:
    def __init__(self, fb, tone):
        self.fb = fb  # the MONO_VLSB FrameBuffer over screen.buf
        self.tone = tone

    def fill(self, c):
        self.fb.fill(self.tone[c])

    def fill_rect(self, x, y, w, h, c):
        self.fb.fill_rect(x, y, w, h, self.tone[c])

    def rect(self, x, y, w, h, c, fill=False):
        if fill:
            self.fb.fill_rect(x, y, w, h, self.tone[c])
        else:
            self.fb.rect(x, y, w, h, self.tone[c])

    def hline(self, x, y, w, c):
        self.fb.hline(x, y, w, self.tone[c])

    def vline(self, x, y, h, c):
        self.fb.vline(x, y, h, self.tone[c])

    def pixel(self, x, y, c=-1):
        """Set a pixel to role c, or with no c read it (0 dark, 1 lit)."""
        if c < 0:
            return self.fb.pixel(x, y)
        self.fb.pixel(x, y, self.tone[c])
        return None

    def blit(self, source, x, y, key=-1, palette=None):
        self.fb.blit(source, x, y, key, palette)

    def rings(self, x, y, w, h, role):
        """The frame of highlight `role` over the two outer rings of the box x, y, w, h."""
        self.ring(x, y, w, h, MONO_RINGS[2 * role])
        self.ring(x + 1, y + 1, w - 2, h - 2, MONO_RINGS[2 * role + 1])

    def ring(self, x, y, w, h, code):
        fb = self.fb
        if code == RING_DARK or code == RING_LIT:
            fb.rect(x, y, w, h, code)
            return
        fb.rect(x, y, w, h, 0)
        n = code - 1  # the dash length
        self.dashes(x, y, w, 1, n, h - 1, 0)
        self.dashes(y, x, h, 0, n, 0, w - 1)

    def dashes(self, start, at, length, across, n, dy, dx):
        """The lit dashes of two parallel sides: along x at rows at and at + dy (across 1),
        or along y at columns at and at + dx (across 0), from `start` for `length` pixels."""
        fb = self.fb
        end = start + length
        p = start
        while p < end:
            run = (p // n + 1) * n
            if run > end:
                run = end
            if (p // n) & 1 == 0:
                if across:
                    fb.fill_rect(p, at, run - p, 1, 1)
                    fb.fill_rect(p, at + dy, run - p, 1, 1)
                else:
                    fb.fill_rect(at, p, 1, run - p, 1)
                    fb.fill_rect(at + dx, p, 1, run - p, 1)
            p = run
