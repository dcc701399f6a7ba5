"""A framebuf module that draws nothing: a console run for its records and rules, not its
pixels (tools/reliability/restarts.py on CPython, where the pure-Python framebuf would spend
most of the run drawing). On MicroPython the built-in framebuf is used."""

from simulator.framebuf import (GS2_HMSB, GS4_HMSB, GS8, MONO_HLSB, MONO_HMSB, MONO_VLSB,  # noqa: F401
                               MVLSB, RGB565)


class FrameBuffer:
    def __init__(self, buffer, width, height, format, stride=None):
        self.buffer = buffer
        self.width = width
        self.height = height

    def pixel(self, x, y, col=None):
        return 0 if col is None else None

    def fill(self, col):
        pass

    def fill_rect(self, x, y, w, h, col):
        pass

    def hline(self, x, y, w, col):
        pass

    def vline(self, x, y, h, col):
        pass

    def rect(self, x, y, w, h, col, fill=False):
        pass

    def blit(self, source, x, y, key=-1, palette=None):
        pass

    def text(self, s, x, y, col=1):
        pass

    def line(self, x1, y1, x2, y2, col):
        pass

    def scroll(self, dx, dy):
        pass
