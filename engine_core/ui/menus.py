"""The title and the menus: the game list, the pause menu and the settings (screens.py
says how screens work). A keypress redraws only the rows that changed."""

from engine_core import games
from engine_core import reasons as why
from engine_core.gfx import palette as pal
from engine_core.gfx.paint import CHAR_H, CHAR_W, LINE_H, SMALL
from engine_core.ui import buttons as bt
from engine_core.ui import settings as st
from engine_core.ui import texts
from engine_core.ui.overlay import draw_lines
from engine_core.ui.screens import (A_GIVE_UP, A_LEAVE, A_NEW, A_RESTART, CHOOSE, DEAL, LONG_A, P_HINT, P_NEW,
                                    P_REDO, P_RESTART, P_RESUME, P_RULES, P_SETTINGS, P_TITLE, P_UNDO, PAUSE, RULES,
                                    SETTINGS, STATS, T_CHOOSE, T_CONTINUE, T_LINK, T_NEW, T_SETTINGS, T_STATS,
                                    PANEL_RECT, REACH, TITLE, Scene, felt, panel, panel_width, reach, table_under)
from micropython import const


LONGEST_ABOUT = 34  # characters in the longest of the settings' lines (tests/test_screens.py holds it)
LOCKED = b"Settings: locked"  # the kiosk's title (the service chord opens them)


def inset(app):
    """Where a menu's words start inside its panel: less on a 128-pixel screen."""
    return 8 if app.width >= 160 else 4


class Title(Scene):
    """The logo, a hand of cards where there is room, and the title's menu."""

    MODE = TITLE

    def __init__(self):
        self.rested_on = -1  # the row the cursor stands on, and for how long (App.make_ahead)
        self.rested_ms = 0

    def length(self, app):
        n = 5 if app.resumable else 4
        return n + 1 if app.link is not None else n

    def tick(self, app, ms):
        if app.selected != self.rested_on:
            self.rested_on = app.selected
            self.rested_ms = 0
        self.rested_ms = app.make_ahead(self.rested_ms, ms)  # "New game: ..." deals the last game played

    def press(self, app, button):
        n = self.length(app)
        if button == bt.UP:
            app.selected = (app.selected + n - 1) % n
        elif button == bt.DOWN:
            app.selected = (app.selected + 1) % n
        elif button == bt.A:
            item = app.title_item()
            if item == T_CONTINUE:
                app.resume()
            elif item == T_NEW:
                app.pending_game = app.game_index
                app.ask(A_NEW, TITLE)
            elif item == T_CHOOSE:
                app.go(CHOOSE)
                app.selected = app.game_index
            elif item == T_STATS:
                app.back_mode = TITLE
                app.go(STATS)
            elif item == T_SETTINGS and not app.settings_locked:
                app.back_mode = TITLE
                app.go(SETTINGS)
            elif item == T_LINK:
                app.set_aside()  # a game under way waits for the link play's end
                app.open_link()

    def draw(self, app):
        p = app.painter
        w = app.width
        h = app.height
        n = self.length(app)
        row = LINE_H + 1
        y0 = h - n * row - LINE_H - 2  # the menu, then the key line at the foot
        if h < 100:  # a 64-pixel screen: the name in a line, the menu under it, no key line
            y0 = LINE_H + 2
            row = (h - y0) // n if (h - y0) // n < LINE_H else LINE_H
        if app.full and h < 100:
            felt(app)
            p.text_centred(b"Pocket Cards", w // 2, 1, pal.GOLD)
            app.drawn_selected = -1
        elif app.full:
            felt(app)
            scale = 2 if app.size == SMALL else 3
            top = 4 if app.size == SMALL else h // 12
            p.big_text(b"Pocket", (w - 35 * scale) // 2, top, scale, pal.GOLD)
            p.big_text(b"Cards", (w - 29 * scale) // 2, top + 9 * scale, scale, pal.WHITE)
            style = p.styles[app.size]
            y = top + 20 * scale
            if y + style.h + 2 < y0:  # the hand of cards where there is room for it
                x = w // 2 - (4 * style.w + 12) // 2
                hand = (0, 25, 37, 49)  # ace of spades, king of hearts, queen of diamonds, jack of clubs
                for i in range(4):
                    p.card(style, x + i * (style.w + 4), y, hand[i], True, pal.GREY, pal.FELT, False)
            keys = b"B: next  A: start" if app.settings[st.S_TWO_BUTTONS] else b"Up/down: choose  A: start"
            p.text_centred(keys, w // 2, h - LINE_H, pal.SLOT)
            app.drawn_selected = -1
        elif app.drawn_selected == app.selected:
            return
        for i in range(n):
            if app.drawn_selected < 0 or i == app.selected or i == app.drawn_selected:
                self.draw_row(app, i, y0 + i * row, row)
        app.drawn_selected = app.selected

    def draw_row(self, app, i, y, row):
        p = app.painter
        item = i if app.resumable else i + 1
        chosen = i == app.selected
        rw = 150 if app.width >= 160 else app.width - 8
        rx = (app.width - rw) // 2
        app.fb.fill_rect(rx, y, rw, row, pal.CURSOR if chosen else pal.FELT)
        app.screen.mark(rx, y, rw, row)
        colour = pal.BLACK if chosen else pal.WHITE
        ty = y + (row - CHAR_H) // 2
        x = rx + 6
        narrow = rw < 150  # a 128-pixel screen: shorter words, the game's name cut at the row's end
        if item == T_CONTINUE:
            x = p.text(b"Resume: " if narrow else b"Continue: ", x, ty, colour)
        elif item == T_NEW:
            x = p.text(b"New: " if narrow else b"New game: ", x, ty, colour)
        if item <= T_NEW:
            p.text_upto(games.title(app.names[app.game_index]), (rx + rw - x) // CHAR_W, x, ty, colour)
        elif item == T_SETTINGS and app.settings_locked:  # the kiosk's: A on it does nothing
            p.text(LOCKED, x, ty, colour if chosen else pal.DIM)
        else:
            p.text(texts.TITLE_ITEMS[item], x, ty, colour)


class Menu(Scene):
    """A titled panel of rows, UP and DOWN choosing one; each menu says what its rows are,
    what is drawn around the panel, and what the other buttons do."""

    NAME = b""

    def press(self, app, button):
        n = self.length(app)
        if button == bt.UP:
            app.selected = (app.selected + n - 1) % n
        elif button == bt.DOWN:
            app.selected = (app.selected + 1) % n
        else:
            self.choose(app, button)

    def choose(self, app, button):
        pass

    def foot(self, app):
        """Lines under the rows inside the panel."""
        return 0

    def row_height(self, app, n):
        """Rows LINE_H + 2 apart, closer on a short screen while a line of text stays whole
        (rows_shown: all of them), else LINE_H apart with the menu scrolled to keep the
        selected row in view (rows_shown: fewer)."""
        lines = n + 1 + self.foot(app)
        room = app.height - 14
        if lines * (LINE_H + 2) <= room:
            return LINE_H + 2
        row = room // lines
        if row <= CHAR_H or app.height < 100:  # (and rows apart on a 64-pixel screen)
            return LINE_H
        return row

    def rows_shown(self, app, n, row):
        shown = (app.height - 14) // row - 1 - self.foot(app)
        return n if shown > n else shown

    def panel_rect(self, app):
        """Where its panel lies, and the height of a row: x, y, w, h, row in screens.PANEL_RECT."""
        n = self.length(app)
        pw = panel_width(app.width)
        row = self.row_height(app, n)
        ph = (self.rows_shown(app, n, row) + 1 + self.foot(app)) * row + 10
        PANEL_RECT[0] = (app.width - pw) // 2
        PANEL_RECT[1] = (app.height - ph) // 2
        PANEL_RECT[2] = pw
        PANEL_RECT[3] = ph
        PANEL_RECT[4] = row

    def draw(self, app):
        n = self.length(app)
        self.panel_rect(app)
        px = PANEL_RECT[0]
        py = PANEL_RECT[1]
        pw = PANEL_RECT[2]
        ph = PANEL_RECT[3]
        row = PANEL_RECT[4]
        shown = self.rows_shown(app, n, row)
        top = app.scroll  # the first row shown
        if app.selected < top:
            top = app.selected
        elif app.selected >= top + shown:
            top = app.selected - shown + 1
        if top > n - shown:
            top = n - shown if n > shown else 0
        if top != app.scroll:
            app.scroll = top
            app.full = True
        if app.full:
            self.draw_under(app, px, py, pw, ph)
            panel(app, px, py, pw, ph, self.MODE == PAUSE)  # the pause menu: over the table (draw_under)
            app.painter.text(self.title(app), px + inset(app) - 2, py + 5, pal.GOLD)
            self.draw_around(app, px, py, pw, ph)
            app.drawn_selected = -1
            for i in range(top, top + shown):
                self.draw_row(app, i, px, py + 4 + (i - top + 1) * row, pw, row)
        elif app.drawn_selected != app.selected or self.MODE == SETTINGS:
            if top <= app.drawn_selected < top + shown:
                self.draw_row(app, app.drawn_selected, px, py + 4 + (app.drawn_selected - top + 1) * row, pw, row)
            self.draw_row(app, app.selected, px, py + 4 + (app.selected - top + 1) * row, pw, row)
        else:
            return
        if shown < n:  # marks that there are rows above or below, between the rows and the edge
            self.draw_more(app, px + pw - 3, py + 4 + row, top > 0)
            self.draw_more(app, px + pw - 3, py + 4 + shown * row + row - 3, top + shown < n)
        if self.foot(app):
            self.draw_foot(app, px, py + 4 + (shown + 1) * row, pw, row)
        app.drawn_selected = app.selected

    def title(self, app):
        """The words at the panel's top left."""
        return self.NAME

    def draw_more(self, app, x, y, more):
        """A small mark at the panel's edge: rows lie beyond (more) or not."""
        app.fb.fill_rect(x, y, 2, 3, pal.GOLD if more else pal.PANEL)

    def draw_under(self, app, px, py, pw, ph):
        felt(app)

    def draw_around(self, app, px, py, pw, ph):
        pass

    def draw_foot(self, app, px, y, pw, row):
        pass

    def draw_row(self, app, i, px, y, pw, row):
        chosen = i == app.selected
        app.fb.fill_rect(px + 3, y, pw - 6, row, pal.CURSOR if chosen else pal.PANEL)
        app.screen.mark(px + 3, y, pw - 6, row)
        self.draw_words(app, i, px, y + (row - CHAR_H) // 2, pw, chosen)

    def draw_words(self, app, i, px, ty, pw, chosen):
        pass


class GameList(Menu):
    """The games: A deals one, X (long A without X) opens the deal number's screen."""

    MODE = CHOOSE
    NAME = b"Choose a game"

    def __init__(self):
        self.rested_on = -1  # the row the cursor stands on, and for how long (App.make_ahead)
        self.rested_ms = 0

    def length(self, app):
        return len(app.names)

    def tick(self, app, ms):
        if app.selected != self.rested_on:
            self.rested_on = app.selected
            self.rested_ms = 0
        self.rested_ms = app.make_ahead(self.rested_ms, ms)

    def choose(self, app, button):
        if button == bt.B:
            app.go(TITLE)
            app.selected = app.title_index(T_CHOOSE)
        elif button == bt.X or button == LONG_A:  # a deal by its number
            app.pending_game = app.selected
            app.go(DEAL)
        elif button == bt.A:
            app.pending_game = app.selected
            app.ask(A_NEW, CHOOSE)

    def title(self, app):
        """"Choose a game", or on a screen with no room under the panel (64 pixels high) the
        shorter "Games", the key to a deal by its number beside it (draw_around)."""
        return self.NAME if self.foot_fits(app) else b"Games"

    def foot_fits(self, app):
        self.panel_rect(app)
        return PANEL_RECT[1] + PANEL_RECT[3] + LINE_H <= app.height

    def draw_around(self, app, px, py, pw, ph):
        p = app.painter
        no_x = app.no_x or app.settings[st.S_TWO_BUTTONS]  # a long A stands for X (App.defers)
        if py + ph + LINE_H <= app.height:
            foot = b"A: new deal  hold A: by number" if no_x else b"A: new deal  X: by number"
            if p.text_width(foot) > app.width - 4:
                foot = b"A: deal  hold A: number" if no_x else b"A: deal  X: number"
            p.text_centred(foot, app.width // 2, py + ph + 1, pal.SLOT)
            return
        # In the title row, right, two blank characters clear of the title at least.
        keys = b"hold A: number" if no_x else b"X: by number"
        if p.text_width(self.title(app)) + 2 * CHAR_W + p.text_width(keys) > pw - 2 * inset(app):
            keys = b"hold A: 0-9" if no_x else b"X: number"
        p.text(keys, px + pw - inset(app) - p.text_width(keys), py + 5, pal.SLOT)

    def draw_words(self, app, i, px, ty, pw, chosen):
        app.painter.text(games.title(app.names[i]), px + inset(app), ty, pal.BLACK if chosen else pal.WHITE)


_PAUSE_LONGEST = const(12)  # the longest of texts.PAUSE's rows ("To the title"; tests/test_player_words.py)
_PAUSE_LEAST = const(136)  # the pause menu's panel: this wide at least, however short its words


class Pause(Menu):
    """The pause menu over the table, the deal's number in its corner."""

    MODE = PAUSE
    NAME = b"Paused"

    def length(self, app):
        return len(texts.PAUSE)

    def panel_rect(self, app):
        """Menu.panel_rect, as narrow as its words are wide: its name and the deal's number on
        the top line, the longest row under it. The less of the table it covers, the less is
        drawn and sent again when it closes (on a 240-pixel screen 136 pixels wide, not 220:
        6.5 ms sooner on a Pico, docs/performance.md)."""
        Menu.panel_rect(self, app)
        if PANEL_RECT[1] < LINE_H or app.link_in_use():
            return  # a panel that reaches the screen's edges (screens.reach); or in link play,
            # whose game goes on under the menu, the table beside it not drawn meanwhile
        ins = inset(app)
        top_line = ins - 2 + (len(self.NAME) + 6) * CHAR_W + app.painter.number_width(app.table.game.seed) + 8
        rows = 2 * ins + _PAUSE_LONGEST * CHAR_W
        pw = top_line if top_line > rows else rows
        if pw < _PAUSE_LEAST:
            pw = _PAUSE_LEAST
        if pw < PANEL_RECT[2]:
            PANEL_RECT[0] = (app.width - pw) // 2
            PANEL_RECT[2] = pw

    def choose(self, app, button):
        if button == bt.B or button == bt.START:
            app.resume()
        elif button == bt.A:
            self.choose_item(app, app.selected)

    def choose_item(self, app, item):
        table = app.table
        if item == P_RESUME:
            app.resume()
        elif item == P_HINT:
            app.resume()
            table.hint_after = True  # sought in the frame after the one the menu goes in
        elif item == P_UNDO:
            app.resume()
            table.press(bt.Y)
        elif item == P_REDO:
            app.resume()
            table.let_go()
            table.press_redo()
        elif app.linked() and (item == P_RESTART or item == P_NEW):
            app.resume()
            table.say(why.LINK_NOT_HERE)  # both consoles play the one deal
        elif item == P_RESTART:
            app.ask(A_RESTART, PAUSE)
            app.selected = 0
        elif item == P_NEW:
            app.pending_game = app.game_index
            app.ask(A_NEW, PAUSE)
            app.selected = 0
        elif item == P_RULES:
            app.back_mode = PAUSE
            app.go(RULES)
        elif item == P_SETTINGS:
            app.back_mode = PAUSE
            app.go(SETTINGS)
        elif item == P_TITLE and app.link_game() and not app.linked():
            app.ask(A_LEAVE, PAUSE)  # played on alone after a linked start: not kept, asked once
        elif item == P_TITLE or app.linked():
            app.keep()  # in link play both leave the table
        else:
            app.ask(A_GIVE_UP, PAUSE)

    def draw_under(self, app, px, py, pw, ph):
        if app.table_drawn:  # from play the table is there already: only the panel is new
            app.table_drawn = False  # (once: a later whole redraw draws the table again)
            app.screen.keep()  # (a small screen: back to play puts it back, screens.table_under)
        elif app.table_later:
            felt(app)  # back from the rules or the settings: the table comes in the next frame
            app.table.valid = False
            reach(app, px, py, pw, ph)
            if REACH[2] == app.width and REACH[3] == app.height:
                app.table_later = False  # none of it would show beside a panel over the whole screen
        else:
            table_under(app, px, py, pw, ph)

    def tick(self, app, ms):
        """The table under the panel, in the frame after the one that answered B on the rules
        page or the settings (App.show): the panel and the whole table in one frame took 36-44 ms
        on the chip (docs/performance.md)."""
        if app.table_later and not app.answering:
            app.table_later = False
            app.full = True
            app.redraw()

    def draw_around(self, app, px, py, pw, ph):
        p = app.painter
        seed = app.table.game.seed  # the deal's number, to come back to it from the seed screen
        x = px + pw - 8 - p.number_width(seed)
        p.number(seed, x, py + 5, pal.WHITE)
        # "Deal 1234", or where that would run into the menu's name "#1234", as the status line
        # writes it (a 128-pixel screen and a long number)
        title_end = px + inset(app) - 2 + p.text_width(self.NAME) + CHAR_W
        word = b"Deal " if x - 5 * CHAR_W >= title_end else b"#"
        p.text(word, x - len(word) * CHAR_W, py + 5, pal.DIM)

    def draw_words(self, app, i, px, ty, pw, chosen):
        app.painter.text(texts.PAUSE[i], px + inset(app), ty, pal.BLACK if chosen else pal.WHITE)


class SettingsMenu(Menu):
    """The settings (settings.py), each with its choice; LEFT, RIGHT and A change the
    selected one, and a line under the rows says what it does."""

    MODE = SETTINGS
    NAME = b"Settings"

    def length(self, app):
        return st.COUNT - 1 if app.screen.mono else st.COUNT

    def setting(self, app, row):
        """The setting a row shows: a one-bit screen leaves the card back out (one back there,
        docs/screen.md), its rows one up from there."""
        return row + 1 if app.screen.mono and row >= st.S_BACK else row

    def choose(self, app, button):
        if button == bt.B:
            back = app.back_mode
            app.go(back)
            if back == PAUSE:
                app.selected = P_SETTINGS
            elif back == TITLE:
                app.selected = app.title_index(T_SETTINGS)
        elif button == bt.LEFT or button == bt.RIGHT or button == bt.A:
            app.change_setting(-1 if button == bt.LEFT else 1, self.setting(app, app.selected))

    def draw_around(self, app, px, py, pw, ph):
        """The keys that change a setting and go back: under the panel where there is room,
        else the first of them in the title row, right, where they fit beside the name."""
        p = app.painter
        two = app.settings[st.S_TWO_BUTTONS]
        if py + ph + LINE_H <= app.height:
            foot = b"A: change  B: next  hold B: back" if two else b"A, LEFT, RIGHT: change  B: back"
            if p.text_width(foot) > app.width - 4:
                foot = b"A: change  hold B: back" if two else b"A: change  B: back"
            p.text_centred(foot, app.width // 2, py + ph + 1, pal.SLOT)
            return
        keys = b"A: change"
        if p.text_width(self.NAME) + 2 * CHAR_W + p.text_width(keys) <= pw - 2 * inset(app):
            p.text(keys, px + pw - inset(app) - p.text_width(keys), py + 5, pal.SLOT)

    def foot(self, app):
        """The line saying what the selected setting does: two where the panel is narrower
        than the longest (words broken at a space)."""
        return 1 if (panel_width(app.width) - 2 * inset(app) + 1) // CHAR_W >= LONGEST_ABOUT else 2

    def draw_words(self, app, row, px, ty, pw, chosen):
        p = app.painter
        ins = inset(app)
        i = self.setting(app, row)
        # (On a 128-pixel screen 3 pixels more to the right edge: 4 dark ones in all before the
        # scroll mark beside the first and last rows, which would read as a letter of the value.)
        right = px + pw - ins - (3 if ins < 8 else 0)
        room = (right - px - ins + 1) // CHAR_W
        row_words = st.SETTINGS[i]
        choices = row_words[st.CHOICES]
        name = row_words[st.NAME]
        longest = 0
        for words in choices:
            longest = len(words) if len(words) > longest else longest
        # Short forms where they do not fit side by side: the name the same whatever the
        # choice (short where its longest would not fit), then the choice's words.
        # Two blank characters between them at least, so that they never read as one phrase.
        if len(name) + 2 + longest > room and len(row_words) > st.SHORT_NAME:
            name = row_words[st.SHORT_NAME]
        value = choices[app.settings[i]]
        if len(name) + 2 + len(value) > room and len(row_words) > st.SHORT_CHOICES:
            value = row_words[st.SHORT_CHOICES][app.settings[i]]
        vx = right - p.text_width(value)
        # The name, cut short where even its short form would run into its value.
        p.text_upto(name, (vx - 2 * CHAR_W - px - ins + 1) // CHAR_W, px + ins, ty, pal.BLACK if chosen else pal.WHITE)
        p.text(value, vx, ty, pal.BLACK if chosen else pal.DIM)

    def draw_foot(self, app, px, y, pw, row):
        lines = self.foot(app)
        app.fb.fill_rect(px + 3, y, pw - 6, lines * row, pal.PANEL)
        app.screen.mark(px + 3, y, pw - 6, lines * row)
        ins = inset(app)
        about = st.SETTINGS[self.setting(app, app.selected)][st.ABOUT]
        draw_lines(app.painter, about, 0, len(about), (pw - 2 * ins + 1) // CHAR_W, y + (row - CHAR_H) // 2,
                   y + lines * row, 0, app.width, pal.GOLD, px + ins, True)
