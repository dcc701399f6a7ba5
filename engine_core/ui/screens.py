"""How the console's screens look: title, game choice, new deal, menus, rules pages and the
end of a game (App in app.py decides what the buttons do; the table draws play itself).

Everything is drawn from bytes and small ints into the preallocated screen: no allocation.
"""

from engine_core import LOST, games
from engine_core.gfx import palette as pal
from engine_core.gfx.paint import CHAR_H, LINE_H, SMALL
from engine_core.ui import texts

from micropython import const

# Screens.
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

# The title's menu (Continue only when a saved game waits).
T_CONTINUE = const(0)
T_NEW = const(1)
T_CHOOSE = const(2)
T_STATS = const(3)
T_SETTINGS = const(4)
T_LINK = const(5)  # only on a console with a link

# What the confirmation screen asks about: each leaves the game in progress.
A_RESTART = const(0)
A_NEW = const(1)
A_SEED = const(2)
A_QUIT = const(3)
A_LINK = const(4)

# Settings, by index into App.settings.
S_SOUND = const(0)
S_BACK = const(1)
S_SPEED = const(2)
S_LEVEL = const(3)
S_JOKERS = const(4)
S_TARGET = const(5)
S_AUTOPLAY = const(6)
S_TWO_BUTTONS = const(7)
S_CASKET_RULES = const(8)
S_WINNABLE = const(9)
S_SLIDE = const(10)
SETTING_CHOICES = (2, 4, 3, 3, 2, 4, 2, 2, 2, 2, 2)
CASKET_PROFILES = (2, 1)  # the Casket rules setting: the rule profile a new deal plays

SEED_DIGITS = const(7)
TARGETS = (0, 50, 100, 150)  # the target score setting: 0 is the game's own



class Screens:
    """Drawing for App; every attribute it reads is made in App.__init__."""

    def redraw(self):
        mode = self.mode
        if mode == PLAY:
            if self.full:
                self.table.valid = False
                self.full = False
            self.table.refresh()
            return
        if mode == TITLE:
            self.draw_title()
        elif mode == CONFIRM:
            if self.full:
                self.draw_confirm()
        elif mode == STATS:
            if self.full:
                self.draw_stats()
        elif mode == DEAL:
            self.draw_deal()
        elif mode == RULES:
            if self.full:
                self.draw_rules()
        elif mode == END:
            if self.full:
                self.draw_end()
        elif mode == LINK:
            self.draw_link()
        elif mode == LINK_LEFT:
            if self.full:
                self.draw_link_left()
        elif mode == LINK_ASK:
            if self.full:
                self.draw_link_ask()
        else:
            self.draw_menu()
        self.full = False

    def panel(self, x, y, w, h):
        fb = self.fb
        fb.fill_rect(x, y, w, h, pal.PANEL)
        fb.rect(x, y, w, h, pal.SLOT)
        self.screen.mark(x, y, w, h)

    def draw_title(self):
        """The logo and the title's menu; a keypress redraws only the rows that changed."""
        p = self.painter
        fb = self.fb
        w = self.width
        h = self.height
        n = self.menu_length()
        row = LINE_H + 1
        y0 = h - n * row - LINE_H - 2  # the menu, then the key line at the foot
        if self.full:
            fb.fill(pal.FELT)
            self.screen.mark_all()
            scale = 2 if self.size == SMALL else 3
            top = 4 if self.size == SMALL else h // 12
            p.big_text(b"Pocket", (w - 35 * scale) // 2, top, scale, pal.GOLD)
            p.big_text(b"Cards", (w - 29 * scale) // 2, top + 9 * scale, scale, pal.WHITE)
            st = p.styles[self.size]
            y = top + 20 * scale
            if y + st.h + 2 < y0:  # the hand of cards where there is room for it
                x = w // 2 - (4 * st.w + 12) // 2
                hand = (0, 25, 37, 49)  # ace of spades, king of hearts, queen of diamonds, jack of clubs
                for i in range(4):
                    p.card(st, x + i * (st.w + 4), y, hand[i], True, pal.GREY, pal.FELT, False)
            p.text_centred(b"Up/down: choose  A: start", w // 2, h - LINE_H, pal.SLOT)
            self.drawn_selected = -1
        elif self.drawn_selected == self.selected:
            return
        for i in range(n):
            if self.drawn_selected < 0 or i == self.selected or i == self.drawn_selected:
                self.draw_title_row(i, y0 + i * row, row)
        self.drawn_selected = self.selected

    def draw_title_row(self, i, y, row):
        p = self.painter
        w = self.width
        item = i if self.resumable else i + 1
        chosen = i == self.selected
        rw = 150
        rx = (w - rw) // 2
        self.fb.fill_rect(rx, y, rw, row, pal.CURSOR if chosen else pal.FELT)
        self.screen.mark(rx, y, rw, row)
        colour = pal.BLACK if chosen else pal.WHITE
        ty = y + (row - CHAR_H) // 2
        x = rx + 6
        if item == T_CONTINUE:
            x = p.text(b"Continue: ", x, ty, colour)
        elif item == T_NEW:
            x = p.text(b"New game: ", x, ty, colour)
        if item <= T_NEW:
            p.text(games.title(self.names[self.game_index]), x, ty, colour)
        else:
            p.text(texts.TITLE_ITEMS[item], x, ty, colour)

    def centred_panel(self, lines):
        """A panel for `lines` lines of text in the middle of the screen; the y of its first."""
        w = self.width
        pw = w - 16 if w - 16 < 220 else 220
        ph = lines * LINE_H + 8
        py = (self.height - ph) // 2
        self.panel((w - pw) // 2, py, pw, ph)
        return py + 5

    def draw_confirm(self):
        """Leave the game in progress? It counts as a loss (A: yes, B: no). The screen it asks
        from stays visible around the panel, drawn as it was."""
        mode = self.mode
        selected = self.selected
        self.mode = self.confirm_back
        self.selected = self.confirm_row()
        self.full = True
        self.redraw()
        self.mode = mode
        self.selected = selected
        p = self.painter
        x = self.width // 2
        y = self.centred_panel(5)
        p.text_centred(texts.CONFIRMS[self.confirm_action], x, y, pal.GOLD)
        p.text_centred(b"This game is not over:", x, y + LINE_H + 3, pal.WHITE)
        p.text_centred(b"it counts as a loss.", x, y + 2 * LINE_H + 3, pal.WHITE)
        p.text_centred(b"A: yes  B: no", x, y + 3 * LINE_H + 6, pal.CURSOR)

    def draw_link_left(self):
        """The other console left the game: play on against the computer, or stop."""
        p = self.painter
        x = self.width // 2
        self.table.valid = False
        self.table.refresh()  # the table stays visible around the panel
        y = self.centred_panel(4)
        p.text_centred(b"The other console left", x, y, pal.GOLD)
        p.text_centred(b"A: play on against the computer", x, y + LINE_H + 3, pal.WHITE)
        p.text_centred(b"B: to the title", x, y + 2 * LINE_H + 6, pal.CURSOR)

    def draw_stats(self):
        """Per game: played, won, the current and the best winning streak."""
        p = self.painter
        fb = self.fb
        w = self.width
        fb.fill(pal.PANEL)
        self.screen.mark_all()
        p.text(b"Statistics", 4, 3, pal.GOLD)
        col = (w - 96) // 4  # four number columns after the names
        y = 3 + LINE_H + 4
        for k in range(4):
            label = texts.STATS_COLUMNS[k]
            p.text(label, 88 + (k + 1) * col - p.text_width(label), y, pal.DIM)
        for i in range(len(self.names)):
            y += LINE_H + 2
            p.text(games.title(self.names[i]), 4, y, pal.WHITE)
            for k in range(4):
                if k == 0:
                    v = self.played[i]
                elif k == 1:
                    v = self.won[i]
                elif k == 2:
                    v = self.streak[i]
                else:
                    v = self.best[i]
                p.number(v, 88 + (k + 1) * col - p.number_width(v), y, pal.WHITE)
        p.text(b"Now, Best: winning streaks", 4, y + LINE_H + 4, pal.DIM)
        p.text(b"B: back", 4, self.height - LINE_H - 1, pal.SLOT)

    def draw_menu(self):
        mode = self.mode
        if mode == CHOOSE:
            title = b"Choose a game"
        elif mode == PAUSE:
            title = b"Paused"
        else:
            title = b"Settings"
        n = self.menu_length()
        row = LINE_H + 2
        pw = self.width - 16
        if pw > 220:
            pw = 220
        ph = (n + 1) * row + 10
        if ph > self.height - 4:
            row = (self.height - 14) // (n + 1)
            ph = (n + 1) * row + 10
        px = (self.width - pw) // 2
        py = (self.height - ph) // 2
        p = self.painter
        if self.full:
            if mode == PAUSE:
                self.table.valid = False
                self.table.refresh()  # the table stays visible around the menu
            else:
                self.fb.fill(pal.FELT)
                self.screen.mark_all()
            self.panel(px, py, pw, ph)
            p.text(title, px + 6, py + 5, pal.GOLD)
            if mode == PAUSE:  # the deal's number, to come back to it from the seed screen
                seed = self.table.game.seed
                x = px + pw - 8 - p.number_width(seed)
                p.number(seed, x, py + 5, pal.WHITE)
                p.text(b"Deal ", x - 30, py + 5, pal.DIM)
            elif mode == CHOOSE and py + ph + LINE_H <= self.height:
                p.text_centred(b"A: new deal  X: by number", self.width // 2, py + ph + 1, pal.SLOT)
            self.drawn_selected = -1
            for i in range(n):
                self.draw_menu_row(i, px, py + 4 + (i + 1) * row, pw, row)
        elif self.drawn_selected != self.selected or self.mode == SETTINGS:
            if 0 <= self.drawn_selected < n:
                self.draw_menu_row(self.drawn_selected, px, py + 4 + (self.drawn_selected + 1) * row, pw, row)
            self.draw_menu_row(self.selected, px, py + 4 + (self.selected + 1) * row, pw, row)
        self.drawn_selected = self.selected

    def draw_menu_row(self, i, px, y, pw, row):
        p = self.painter
        fb = self.fb
        chosen = i == self.selected
        fb.fill_rect(px + 3, y, pw - 6, row, pal.CURSOR if chosen else pal.PANEL)
        self.screen.mark(px + 3, y, pw - 6, row)
        colour = pal.BLACK if chosen else pal.WHITE
        ty = y + (row - CHAR_H) // 2
        if self.mode == CHOOSE:
            p.text(games.title(self.names[i]), px + 8, ty, colour)
        elif self.mode == PAUSE:
            p.text(texts.PAUSE[i], px + 8, ty, colour)
        else:
            p.text(texts.SETTINGS[i], px + 8, ty, colour)
            value = self.setting_label(i)
            p.text(value, px + pw - 8 - p.text_width(value), ty, pal.BLACK if chosen else pal.DIM)

    def setting_label(self, i):
        v = self.settings[i]
        if i == S_BACK:
            return pal.BACK_NAMES[v]
        if i == S_SPEED:
            return texts.SPEEDS[v]
        if i == S_LEVEL:
            return texts.LEVELS[v]
        if i == S_TARGET:
            return texts.TARGETS[v]
        if i == S_CASKET_RULES:
            return texts.CASKET_RULES[v]
        if i == S_WINNABLE:
            return texts.ALL_WINNABLE[v]
        return texts.OFF_ON[v]

    def draw_deal(self):
        p = self.painter
        fb = self.fb
        w = self.width
        h = self.height
        scale = 2
        digits_w = SEED_DIGITS * 6 * scale
        dx = (w - digits_w) // 2
        dy = h // 2 - 8
        if self.full:
            fb.fill(pal.FELT)
            self.screen.mark_all()
            p.text_centred(games.title(self.names[self.pending_game]), w // 2, 6, pal.GOLD)
            p.text_centred(b"New deal: seed", w // 2, dy - 3 * LINE_H, pal.WHITE)
            p.text_centred(b"Up/down: digit  X: random", w // 2, h - 3 * LINE_H, pal.SLOT)
            p.text_centred(b"A: deal  B: back", w // 2, h - 2 * LINE_H, pal.SLOT)
        fb.fill_rect(dx - 4, dy - 4, digits_w + 8, 7 * scale + 10, pal.PANEL)
        self.screen.mark(dx - 4, dy - 4, digits_w + 8, 7 * scale + 10)
        for i in range(SEED_DIGITS):
            x = dx + i * 6 * scale
            colour = pal.CURSOR if i == self.seed_pos else pal.WHITE
            p.big_char(48 + self.seed_digits[i], x, dy, scale, colour)
            if i == self.seed_pos:
                fb.fill_rect(x, dy + 7 * scale + 2, 5 * scale, 2, pal.CURSOR)

    def draw_rules(self):
        p = self.painter
        self.fb.fill(pal.PANEL)
        self.screen.mark_all()
        name = self.names[self.game_index]
        p.text(games.title(name), 4, 3, pal.GOLD)
        p.text(b"Up/down", self.width - 46, 3, pal.DIM)
        lines = (self.height - LINE_H - 6) // LINE_H
        line = self.wrap(games.rules_text(name), -self.scroll, lines, pal.WHITE)
        if games.winnable_module(name) is not None:
            line = self.wrap(texts.WINNABLE_NOTE, line + 1, lines, pal.WHITE)
        line = self.wrap(texts.RULES_KEYS, line + 1, lines, pal.DIM)
        if line <= 0 and self.scroll > 0:  # scrolled past the end: back to the last line
            self.scroll -= 1
            self.draw_rules()

    def wrap(self, text, line, lines, colour):
        """Draw text word-wrapped from line number `line` (negative lines are scrolled off
        and not drawn; drawing stops at `lines`); returns the line after the text."""
        p = self.painter
        per_line = (self.width - 7) // 6
        y0 = LINE_H + 5
        i = 0
        n = len(text)
        while i < n and line < lines:
            # The longest run of whole words from i that fits on one line.
            end = i
            k = i
            while k < n and text[k] != 10:
                j = k
                while j < n and text[j] != 32 and text[j] != 10:
                    j += 1
                if j - i > per_line:
                    if end == i:
                        end = i + per_line  # a word longer than a line is cut
                    break
                end = j
                k = j
                if k < n and text[k] == 32:
                    k += 1
            if line >= 0:
                x = 4
                for c in range(i, end):
                    p.char(text[c], x, y0 + line * LINE_H, colour)
                    x += 6
            line += 1
            i = end
            while i < n and text[i] == 32:
                i += 1
            if i < n and text[i] == 10:
                i += 1
        return line

    def draw_end(self):
        p = self.painter
        game = self.table.game
        i = self.game_index
        w = self.width
        pw = w - 20 if w - 20 < 200 else 200
        ph = 7 * LINE_H + 8
        px = (w - pw) // 2
        py = (self.height - ph) // 2
        self.table.valid = False
        self.table.refresh()  # the final position stays visible around the panel
        self.panel(px, py, pw, ph)
        status = game.status()
        if self.player_won():
            title = b"You won!"
        elif status == LOST:
            title = b"No more moves"
        else:
            title = b"Game over"
        p.text_centred(title, w // 2, py + 5, pal.GOLD)
        y = py + 5 + LINE_H + 3
        x = px + 8
        p.number(self.table.move_count, p.text(b"Moves ", x, y, pal.DIM), y, pal.WHITE)
        y += LINE_H
        if self.link_game():  # not in the statistics: the match's own score below says it
            p.text(b"Link play", x, y, pal.DIM)
        else:
            x2 = p.number(self.played[i], p.text(b"Played ", x, y, pal.DIM), y, pal.WHITE)
            p.number(self.won[i], p.text(b"  Won ", x2, y, pal.DIM), y, pal.WHITE)
        y += LINE_H
        if game.COMPETITIVE:  # the match so far instead of the streak
            tx = x
            names = self.table.player_tags()
            for k in range(game.players):
                tx = p.text(names[k], tx, y, pal.DIM)
                score = game.score(k)
                if score < 0:
                    tx = p.text(b"-", tx, y, pal.WHITE)
                    score = -score
                tx = p.number(score, tx, y, pal.WHITE) + 12
        else:
            p.number(self.streak[i], p.text(b"Streak ", x, y, pal.DIM), y, pal.WHITE)
        y += LINE_H + 3
        if self.linked():
            p.text(b"A: next deal" if self.deals_next() else b"The other player deals", x, y, pal.CURSOR)
            p.text(b"B: leave the table", x, y + LINE_H, pal.SLOT)
            return
        p.text(b"A: next deal", x, y, pal.CURSOR)
        p.text(b"Y: undo  B: games", x, y + LINE_H, pal.SLOT)
