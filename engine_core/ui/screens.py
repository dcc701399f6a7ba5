"""The console's screens, one object each: what the buttons do on it (`press`), what time
does to it (`tick`) and how it looks (`draw`). App (app.py) makes one of each at start-up,
in a tuple by screen number, and holds the one shown; `App.mode` is its number.

A screen object holds only what it alone uses (the deal screen its digits, the confirmation
what it asks): what screens share (the selected row, the rules page's scroll) is the App's,
passed to every method, so a screen costs the heap one small object and nothing is
allocated after start-up. menus.py has the title and the menus, pages.py play and the
other full-screen pages, linkplay.py the link screens; this module their numbers, the
base class (Scene: named apart from the framebuffer's gfx Screen) and the drawing they share.
"""

from array import array

from engine_core.gfx import palette as pal
from engine_core.gfx.paint import LINE_H
from engine_core.ui import buttons as bt

from micropython import const

# Screens, by number (App.mode): the index of each one's object in App.screens.
TITLE = const(0)
CHOOSE = const(1)
DEAL = const(2)
PLAY = const(3)
PAUSE = const(4)
RULES = const(5)
SETTINGS = const(6)
END = const(7)
STATS = const(8)
CONFIRM = const(9)
LINK = const(10)  # link play: host or join (engine_core/ui/linkplay.py)
LINK_LEFT = const(11)  # the other console left the linked game
LINK_ASK = const(12)  # another console offers a table: join it, or not (linkplay.py)

# Buttons beyond the logical ones (from long presses and the two-button scheme).
NEXT = const(10)
LONG_A = const(11)
LONG_X = const(12)  # redo, in play

# The title's menu (Continue only when a saved game waits).
T_CONTINUE = const(0)
T_NEW = const(1)
T_CHOOSE = const(2)
T_STATS = const(3)
T_SETTINGS = const(4)
T_LINK = const(5)  # only on a console with a link

# The pause menu's items (texts.PAUSE), by row.
P_RESUME = const(0)
P_HINT = const(1)
P_UNDO = const(2)
P_REDO = const(3)
P_RESTART = const(4)
P_NEW = const(5)
P_RULES = const(6)
P_SETTINGS = const(7)
P_TITLE = const(8)  # to the title, the game kept (Continue)
P_GIVE_UP = const(9)  # the game counts as lost

# What the confirmation screen asks about: each gives up the game in progress (App.do).
A_RESTART = const(0)
A_NEW = const(1)
A_SEED = const(2)
A_GIVE_UP = const(3)
A_LEAVE = const(4)  # To the title from a linked game played on alone: not kept, nothing counted

SEED_DIGITS = const(10)  # a deal number 0 .. 1073741823 (2**30 - 1), the protocol's range


def two_buttons(button, long_press, in_play, holding):
    """A and B only (App.press): B steps, long B is START; long A sends home, or cancels when
    `holding` a card in play. The button the screens take, or -1 for none."""
    if button == bt.B:
        if long_press:
            return bt.START if in_play else bt.B
        return NEXT if in_play else bt.DOWN
    if button == bt.A:
        if not long_press:
            return bt.A
        if in_play and holding:
            return bt.B
        return LONG_A
    return -1


class Scene:
    """A screen of the console (not the framebuffer: engine_core/gfx/screen.py) that ignores
    every button and never changes by itself; each screen overrides what it does."""

    MODE = TITLE  # its number

    def press(self, app, button):
        pass

    def tick(self, app, ms):
        pass

    def draw(self, app):
        pass

    def length(self, app):
        """Rows of its menu (0: none)."""
        return 0


def panel(app, x, y, w, h, over=False):
    """A panel at x, y, w, h; over: it lies over the table (App.over_at). A panel that would
    leave less than a line of the table above it (the pause menu and its questions on 128x64
    and 160x128) reaches the screen's top and sides, and its foot too when less than a line is
    left there: the rows left would show as a broken line (the tops of the status line's
    letters), and the sides the status line's letters cut."""
    reach(app, x, y, w, h)
    x = REACH[0]
    y = REACH[1]
    w = REACH[2]
    h = REACH[3]
    fb = app.fb
    fb.fill_rect(x, y, w, h, pal.PANEL)
    fb.rect(x, y, w, h, pal.SLOT)
    app.screen.mark(x, y, w, h)
    if over:
        app.over_at(x, y, w, h)


def reach(app, x, y, w, h):
    """Where panel() draws a panel asked for at x, y, w, h: into REACH."""
    if 0 < y < LINE_H:
        h += y
        y = 0
    if y == 0:
        x = 0
        w = app.width
        if h > app.height - LINE_H:
            h = app.height
    REACH[0] = x
    REACH[1] = y
    REACH[2] = w
    REACH[3] = h


OVER_ON = const(4)  # App.over: a panel lies over the table
OVER_READY = const(5)  # App.over: the screen shown next may draw the table only where it lay
PANEL_RECT = array("h", [0, 0, 0, 0, 0])  # menus.Menu.panel_rect's answer (no tuple allocated)
REACH = array("h", [0, 0, 0, 0])  # reach's answer


def panel_width(w):
    """A panel's width on a screen w pixels wide: 8 pixels of table each side (at most 220
    wide), 2 on a 128-pixel screen."""
    if w < 160:
        return w - 4
    return w - 16 if w - 16 < 220 else 220


def centred_panel(app, lines):
    """A panel for `lines` lines of text in the middle of the screen; the y of its first."""
    w = app.width
    pw = panel_width(w)
    ph = lines * LINE_H + 8
    py = (app.height - ph) // 2
    panel(app, (w - pw) // 2, py, pw, ph)
    return py + 5


def table_under(app, x=0, y=0, w=0, h=0):
    """The table drawn whole, for a panel over it at x, y, w, h (the pause menu, the end, a
    question; none: play), or again only where the last panel lay when the rest of the glass
    shows it as its view drew it (App.over_at, OVER_READY), or put back whole as the pause
    menu found it (Screen.keep, small screens), and not at all where the new panel covers
    the old one: the table's changes since are drawn as in play. Not in link play,
    whose game goes on under a menu."""
    table = app.table
    o = app.over
    if w > 0:  # where panel() draws it (on a small screen it reaches the top and sides)
        reach(app, x, y, w, h)
        x = REACH[0]
        y = REACH[1]
        w = REACH[2]
        h = REACH[3]
    ready = o[OVER_READY]
    o[OVER_READY] = 0
    if w >= app.width and h >= app.height and not ready and not app.link_in_use():
        return  # a panel over the whole screen (a menu scrolled on 128x64): no table shows
    if ready and table.valid and not app.link_in_use():
        covered = x <= o[0] and y <= o[1] and o[0] + o[2] <= x + w and o[1] + o[3] <= y + h
        if app.screen.restore() or covered or table.view.draw_region(o[0], o[1], o[2], o[3]):
            table.refresh()  # what changed under the panel, and the strip at the foot
            return
    table.valid = False
    table.refresh()


def felt(app):
    """The whole screen cleared to the felt, for a screen of its own."""
    app.fb.fill(pal.FELT)
    app.screen.mark_all()


def wrap(app, text, line, lines, colour, y0=LINE_H + 5):
    """Draw text word-wrapped from line number `line` (negative lines are scrolled off and
    not drawn; drawing stops at `lines`) at y0 and down; returns the line after the text.
    From a line far below zero it draws nothing and only counts (pages.py: the rules page's
    length)."""
    p = app.painter
    per_line = (app.width - 7) // 6
    i = 0
    n = len(text)
    while i < n and line < lines:
        # The longest run of whole words from i that fits on one line (found by the bytes'
        # own searches: a loop of bytecode a letter cost the rules page 8 ms on a Pico).
        end = text.find(b"\n", i)  # the paragraph's end
        if end < 0:
            end = n
        if end - i > per_line:
            end = text.rfind(b" ", i, i + per_line + 1)  # the space after the last word that fits
            if end <= i:
                end = i + per_line  # a word longer than a line is cut
        while end > i and text[end - 1] == 32:
            end -= 1  # the words end before their spaces
        if line >= 0:
            x = p.text_span(text, i, end, 4, y0 + line * LINE_H, colour)
            if colour == pal.DIM and end > i:  # a description (the keys under the rules)
                p.note(4, y0 + line * LINE_H, x - 5)
        line += 1
        i = end
        while i < n and text[i] == 32:
            i += 1
        if i < n and text[i] == 10:
            i += 1
    return line
