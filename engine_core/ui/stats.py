"""The statistics page: per game, played, won, the current and the best winning streak; on a
narrow screen three lines a game (four on a 128-pixel one), scrolled (screens.py says how
screens work)."""

from engine_core import games
from engine_core.gfx import palette as pal
from engine_core.gfx.paint import CHAR_H, CHAR_W, LINE_H
from engine_core.ui import buttons as bt
from engine_core.ui import texts
from engine_core.ui.pages import Page
from engine_core.ui.screens import STATS

from micropython import const

_S_TWO_BUTTONS = const(8)  # settings.S_TWO_BUTTONS (a private const: no name in the module's RAM)
TOP = const(15)  # the narrow page's first line, under its head (LINE_H + 5)
WIDEST = const(24)  # characters in the longest line of three a game ("  Streak 9999  Best 9999")


class Stats(Page):
    """Per game: played, won, the current and the best winning streak."""

    MODE = STATS

    def press(self, app, button):
        if app.width < 240 and (button == bt.UP or button == bt.DOWN):  # the narrow page scrolls
            # a game at a time: each page starts with a game's name, the last game's lines whole
            per = self.per_game(app)
            scroll = app.scroll + (per if button == bt.DOWN else -per)
            last = per * len(app.names) - self.page_lines(app)
            last = (last + per - 1) // per * per
            if scroll > last:
                scroll = last
            if scroll < 0:
                scroll = 0
            if scroll != app.scroll:
                app.scroll = scroll
                app.full = True
            return
        Page.press(self, app, button)

    def page_lines(self, app):
        """The narrow page's lines under its head: every line whose letters fit above the
        screen's foot, a pixel to spare (five on a 64-pixel screen)."""
        return (app.height - 1 - TOP - CHAR_H) // LINE_H + 1

    def per_game(self, app):
        """Lines a game takes on the narrow page: three (its name, played and won, the streak
        and the best) where the longest of them fits, else four (its name, won of played, the
        streak, the best streak: a 128-pixel screen)."""
        return 3 if (app.width - 8) // CHAR_W >= WIDEST else 4

    def draw_page(self, app):
        if app.width < 240:
            self.draw_narrow(app)
            return
        p = app.painter
        w = app.width
        app.fb.fill(pal.PANEL)
        app.screen.mark_all()
        p.text(b"Statistics", 4, 3, pal.GOLD)
        col = (w - 96) // 4  # four number columns after the names
        y = 3 + LINE_H + 4
        for k in range(4):
            label = texts.STATS_COLUMNS[k]
            p.text(label, 88 + (k + 1) * col - p.text_width(label), y, pal.DIM)
        for i in range(len(app.names)):
            y += LINE_H + 2
            p.text(games.title(app.names[i]), 4, y, pal.WHITE)
            for k in range(4):
                if k == 0:
                    v = app.played[i]
                elif k == 1:
                    v = app.won[i]
                elif k == 2:
                    v = app.streak[i]
                else:
                    v = app.best[i]
                right = 88 + (k + 1) * col
                if p.number_width(v) <= col - CHAR_W:
                    p.number(v, right - p.number_width(v), y, pal.WHITE)
                else:  # too wide for its column with a space before it: 123k, 1.2M, 45M, 2.1G
                    p.text(short_number(v), right - p.text_width(_SHORT), y, pal.WHITE)
        p.text(b"Now, Best: winning streaks", 4, y + LINE_H + 4, pal.DIM)
        p.text(b"A: back" if app.settings[_S_TWO_BUTTONS] else b"B: back", 4, app.height - LINE_H - 1, pal.SLOT)

    def draw_narrow(self, app):
        """A narrow screen: a game's name, then its counts a line or two under it (per_game),
        UP and DOWN scrolling them a game at a time."""
        p = app.painter
        app.fb.fill(pal.PANEL)
        app.screen.mark_all()
        p.text(b"Statistics", 4, 3, pal.GOLD)
        back = b"A: back" if app.settings[_S_TWO_BUTTONS] else b"B: back"  # (with two: B scrolls)
        p.text(back, app.width - 4 - p.text_width(back), 3, pal.SLOT)
        lines = self.page_lines(app)
        per = self.per_game(app)
        total = per * len(app.names)
        for k in range(lines):
            line = app.scroll + k
            if line >= total:
                break
            self.draw_line(app, line // per, line % per, per, TOP + k * LINE_H)
        x = app.width - 4  # marks at the edge: lines above, lines below
        y = LINE_H + 2 + lines * LINE_H
        if y + 3 > app.height:
            y = app.height - 3
        app.fb.fill_rect(x, TOP, 2, 3, pal.GOLD if app.scroll > 0 else pal.PANEL)
        app.fb.fill_rect(x, y, 2, 3, pal.GOLD if app.scroll + lines < total else pal.PANEL)

    def draw_line(self, app, i, part, per, y):
        """Line `part` of game i's lines on the narrow page."""
        p = app.painter
        if part == 0:
            p.text(games.title(app.names[i]), 4, y, pal.WHITE)
        elif per == 4:  # "Won 3 of 12", "Streak 2", "Best streak 5"
            if part == 1:
                x = count(p, app.won[i], p.text(b"  Won ", 4, y, pal.DIM), y)
                count(p, app.played[i], p.text(b" of ", x, y, pal.DIM), y)
            else:
                count(p, app.streak[i] if part == 2 else app.best[i],
                      p.text(b"  Streak " if part == 2 else b"  Best streak ", 4, y, pal.DIM), y)
        elif part == 1:
            x = count(p, app.played[i], p.text(b"  Played ", 4, y, pal.DIM), y)
            count(p, app.won[i], p.text(b"  Won ", x, y, pal.DIM), y)
        else:
            x = count(p, app.streak[i], p.text(b"  Streak ", 4, y, pal.DIM), y)
            count(p, app.best[i], p.text(b"  Best ", x, y, pal.DIM), y)


def count(p, v, x, y):
    """A count on the narrow page, in four characters at most (short_number's 12k, 1.2M from
    10,000 on); returns the x after it."""
    if v < 10000:
        return p.number(v, x, y, pal.WHITE)
    b = short_number(v)
    for k in range(4):
        if b[k] != 32:
            p.char(b[k], x, y, pal.WHITE)
            x += CHAR_W
    return x


_SHORT = bytearray(4)  # a count too wide for its statistics column, shortened (short_number)


def short_number(v):
    """v (100,000 or more) in four characters, right-aligned: 123k, 1.2M, 45M, 678M, 2.1G;
    rounded down (a count is never shown above what it is). No allocation."""
    b = _SHORT
    if v < 1000000:
        n = v // 1000
        unit = 107  # k
    elif v < 1000000000:
        n = v // 1000000
        unit = 77  # M
        if n < 10:
            return _tenths(v // 100000, unit)
    else:
        return _tenths(v // 100000000, 71)  # G
    b[3] = unit
    for i in range(3):
        b[2 - i] = 48 + n % 10 if (n or i == 0) else 32
        n //= 10
    return b


def _tenths(t, unit):
    """t tenths (10..99) as N.N and the unit."""
    b = _SHORT
    b[0] = 48 + t // 10 % 10
    b[1] = 46
    b[2] = 48 + t % 10
    b[3] = unit
    return b
