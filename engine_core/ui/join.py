"""Join a table: the tables this console hears, each its host's short id and its game, and the
player picks one (docs/link.md, "Pairing"; docs/screen.md, "Link play").

A part of the console's link (linkplay.Link), made once with it: press(app, button),
tick(app), draw(app). It asks the link (its session, cannot_join, take_offer) and keeps no
reference to the App: the link outlives a stopped app on
the device (firmware.main.link_state), and a held App would keep its whole heap. The rows are
the session's `tables` (engine_core/link/pairing.py), which gains a table when its first offer
is heard and drops one not heard for a few seconds; the screen redraws when the list changes.
Nothing allocates after construction.
"""

from engine_core import games
from engine_core.gfx import palette as pal
from engine_core.gfx.paint import CHAR_H, LINE_H
from engine_core.ui import buttons as bt

from micropython import const

ROWS = const(5)  # tables shown at once
_HEX = b"0123456789ABCDEF"
_TITLE = b"Join a table"
_NONE = b"Listening for tables..."
_KEYS = b"A: join  B: back"


class JoinList:
    """The join list of a link (its session's tables), drawn for the App it is given (its
    painter and frame buffer)."""

    def __init__(self, link):
        self.link = link
        self.selected = 0
        self.first = 0  # the row at the top of the list
        self.seen = -1  # the list's `changes` when last drawn
        self.drawn = -1  # the selected row when last drawn
        self.short_id = bytearray(4)  # a host's console id in hexadecimal
        self.host = 0  # the table the cursor is on (its host's id and its id): rows come and
        self.table = 0  # go as offers are heard and dropped, the cursor stays on the table
        self.told = None  # why the table the player picked cannot be joined (words), or None

    def press(self, app, button):
        """UP and DOWN move, A joins the table chosen; True when the key was this screen's
        (B is the link screen's: it stops joining). A joins the table the cursor
        was put on, wherever its row is now, and never a table the player did not pick; a
        table this console cannot play is listed with the reason and A on it does nothing."""
        tables = self.link.session.tables
        n = tables.count
        if self.told is not None:
            self.told = None  # the reason said goes with the next key
            app.full = True
        if button == bt.UP or button == bt.DOWN:
            if n:
                i = tables.find(self.host, self.table)
                i = self.selected if i < 0 else i
                self.point(tables, (i + (n - 1 if button == bt.UP else 1)) % n)
            return True
        if button == bt.A:
            i = tables.find(self.host, self.table)
            if i >= 0 and self.why_not(tables, i) is None:
                self.link.session.choose(i)
                self.link.take_offer(app)
                app.full = True
            elif i >= 0:  # picked and not joinable: say why, under the list
                self.told = b"Full: two consoles play there" if tables.full[i] else b"This console cannot play that"
                app.full = True
            return True
        return False

    def point(self, tables, i):
        """The cursor on row i's table."""
        self.selected = i
        self.host = tables.host[i]
        self.table = tables.table[i]

    def why_not(self, tables, i):
        """Why row i's table cannot be joined here (words), or None: full, or not playable here."""
        if tables.full[i]:
            return b"FULL"  # two consoles play there (its host's beacon says FULL)
        at = tables.offer_at(i)
        return self.link.cannot_join(tables.offers[at + 1], tables.offers[at + 3])

    def tick(self, app):
        """The list changed (a table heard first, or heard no more): the cursor finds its table
        again (or, that table gone, the row where it was), and the list is drawn again."""
        tables = self.link.session.tables
        i = tables.find(self.host, self.table)
        if i < 0 and tables.count:
            i = self.selected if self.selected < tables.count else tables.count - 1
        if i < 0:
            self.selected = 0
            self.host = 0
            self.table = 0
        elif i != self.selected or tables.host[i] != self.host or tables.table[i] != self.table:
            self.point(tables, i)
            app.full = True
        if tables.changes != self.seen:
            app.full = True

    def draw(self, app):
        tables = self.link.session.tables
        p = app.painter
        fb = app.fb
        short = app.height < 100  # a 64-pixel screen: three rows a line apart, no key line
        row = LINE_H if short else LINE_H + 2
        rows = 3 if short else ROWS
        pw = app.width - 16 if app.width - 16 < 220 else 220
        if app.width < 160:
            pw = app.width - 4
        ins = 8 if app.width >= 160 else 4
        ph = (rows + 2) * row + 4 if short else (rows + 4) * row + 10
        px = (app.width - pw) // 2
        py = (app.height - ph) // 2
        top = py + 2 if short else py + 6  # the first line's y
        if self.selected < self.first:
            self.first = self.selected
        elif self.selected >= self.first + rows:
            self.first = self.selected - rows + 1
        if app.full or tables.changes != self.seen:
            self.seen = tables.changes
            fb.fill(pal.FELT)
            fb.fill_rect(px, py, pw, ph, pal.PANEL)
            fb.rect(px, py, pw, ph, pal.SLOT)
            app.screen.mark_all()
            p.text(_TITLE, px + ins - 2, top - 1, pal.GOLD)
            if tables.count == 0:
                said = _NONE if p.text_width(_NONE) <= pw - 2 * ins else b"Listening..."
                p.text(said, px + ins, top + row, pal.WHITE)
            if self.told is not None:
                p.text_upto(self.told, (pw - 2 * ins + 1) // 6, px + ins, top + (rows + 1 if short else rows + 2) * row,
                            pal.GOLD)
            if not short:
                p.text(_KEYS, px + ins, top + (rows + 3) * row, pal.SLOT)
            self.drawn = -1
        if self.drawn == self.selected:
            return
        right = px + pw - 4  # the rows' words end here: a reason that would not fit is left out
        for k in range(rows):
            i = self.first + k
            if i >= tables.count:
                break
            y = top - 2 + (k + 1) * row
            chosen = i == self.selected
            fb.fill_rect(px + 3, y, pw - 6, row, pal.CURSOR if chosen else pal.PANEL)
            app.screen.mark(px + 3, y, pw - 6, row)
            colour = pal.BLACK if chosen else pal.WHITE
            self.hex_id(tables.host[i])
            x = p.text(self.short_id, px + ins, y + (row - CHAR_H) // 2, colour)
            name = games.name_of(tables.game_id(i))
            why_not = self.why_not(tables, i)
            if why_not is not None:
                colour = pal.DIM if not chosen else pal.BLACK
            if name is not None:
                x = p.text_upto(games.title(name), (right - x - 12 + 1) // 6, x + 12, y + (row - CHAR_H) // 2, colour)
            if why_not is not None and x + 12 + p.text_width(why_not) <= right:
                p.text(why_not, x + 12, y + (row - CHAR_H) // 2, colour)
            elif why_not is None and tables.offers[tables.offer_at(i) + 3] > 2 and x + 48 <= right:
                gap = 12 if x + 54 <= right else 6  # (a 128-pixel row: closer)
                x = p.number(tables.offers[tables.offer_at(i) + 3], x + gap, y + (row - CHAR_H) // 2, colour)
                p.text(b" seats", x, y + (row - CHAR_H) // 2, colour)  # a party table
        self.drawn = self.selected

    def hex_id(self, host):
        """A console id (1..65535) as four hexadecimal digits, in short_id."""
        b = self.short_id
        for k in range(4):
            b[k] = _HEX[(host >> (12 - 4 * k)) & 0xF]
