"""The battery's charge in the top right corner of the title and the pause menu, on boards
that can read it (engine_core/power.py reads it). Drawn over the app's screen after the app has
drawn a frame: again whenever the app drew over the corner or the reading changed, and not
at all on other screens. Nothing is allocated after __init__.

    gauge = Gauge(screen, painter, power)
    gauge.frame(showing)        # each frame, after the app: showing is True on the title and
                                # the pause menu
"""

from engine_core.gfx import palette as pal
from engine_core.gfx.paint import CHAR_H, CHAR_W
from engine_core.power import B_LOW, B_UNKNOWN

TEXT = 5                        # "100%" and a space's width of margin
MARGIN = 2


class Gauge:
    def __init__(self, screen, painter, power):
        self.screen = screen
        self.painter = painter
        self.power = power
        self.text = bytearray(b"100%")
        self.w = TEXT * CHAR_W
        self.h = CHAR_H + 2 * MARGIN
        self.x = screen.width - self.w
        self.y = 0
        self.shown = -1             # the percent on screen; -1: none

    def covered(self):
        """The app drew over the corner in this frame."""
        s = self.screen
        d = s.dirty
        for i in range(s.dirty_count):
            k = 4 * i
            x = d[k]
            y = d[k + 1]
            if x < self.x + self.w and self.x < x + d[k + 2] and y < self.y + self.h and self.y < y + d[k + 3]:
                return True
        return False

    def frame(self, showing):
        power = self.power
        if not showing or power.battery == B_UNKNOWN:
            self.shown = -1
            return
        percent = power.percent()
        if percent == self.shown and not self.covered():
            return
        self.shown = percent
        self.draw(percent, pal.RED if power.battery == B_LOW else pal.WHITE)

    def draw(self, percent, colour):
        t = self.text
        if percent >= 100:
            t[0] = 49
            t[1] = 48
            t[2] = 48
            n = 3
        elif percent >= 10:
            t[0] = 48 + percent // 10
            t[1] = 48 + percent % 10
            n = 2
        else:
            t[0] = 48 + percent
            n = 1
        t[n] = 37                   # '%'
        for i in range(n + 1, len(t)):
            t[i] = 32
        fb = self.painter.fb
        fb.fill_rect(self.x, self.y, self.w, self.h, pal.PANEL)
        self.painter.text(t, self.x + MARGIN, self.y + MARGIN, colour)
        self.screen.mark(self.x, self.y, self.w, self.h)
