"""Play and the pages around it: the deal number's screen, the rules, the statistics, the
confirmation before leaving a game, and the end of a game (screens.py says how screens
work). Play is the Table's (table.py): this screen passes it the buttons and the time."""

from engine_core import LOST, PLAYING, games
from engine_core import reasons as why
from engine_core.gfx import palette as pal
from engine_core.gfx.paint import CHAR_H, CHAR_W, LINE_H
from engine_core.ui import buttons as bt
from engine_core.ui import texts
from engine_core.ui.overlay import line_break, score_chars
from engine_core.ui.screens import (A_GIVE_UP, A_LEAVE, A_NEW, A_RESTART, A_SEED, CHOOSE, CONFIRM, DEAL, END,
                                    LONG_A, LONG_X, NEXT, P_GIVE_UP, P_NEW, P_RESTART, P_RULES, P_TITLE, PAUSE, PLAY,
                                    RULES, SEED_DIGITS, T_NEW, T_STATS, TITLE, Scene,
                                    PANEL_RECT, centred_panel, felt, panel, panel_width, table_under, wrap)
from engine_core.ui.settings import S_AUTOPLAY
from engine_core.ui.table import NONE

from micropython import const

_S_TWO_BUTTONS = const(8)  # settings.S_TWO_BUTTONS (a private const: no name in the module's RAM)
_END_GUARD_MS = const(800)  # as app.GUARD_MS: an end that came without a key takes no key this long
CONFIRM_LINE = const(5)  # texts.CONFIRMS: the words under the question (Confirm.draw)
FINISH_STEP_MS = const(150)  # a clearly won game plays one card home this often (auto-play)
COUNT_FROM = const(-30000)  # a line number far above the page: wrap() only counts from it


class Play(Scene):
    """The table in play."""

    MODE = PLAY

    def __init__(self):
        self.finish_ms = 0  # time since auto-play last played a card home

    def press(self, app, button):
        table = app.table
        if button == bt.START:
            app.go(PAUSE)
            return
        if button == bt.SELECT:  # the rules and keys, straight from play
            app.back_mode = PLAY
            app.go(RULES)
            return
        if app.link_paused():
            if button <= bt.RIGHT:
                table.press(button)  # the cursor moves; nothing is played
            else:
                table.say(why.LINK_SILENT)  # the game waits for the other console
            return
        if button == LONG_A:
            table.press_long_a()
        elif button == LONG_X:
            table.let_go()
            table.press_redo()
        elif button == NEXT:
            table.next_slot()
        else:
            table.press(button)
        if table.game.status() != PLAYING:
            app.finish()

    def tick(self, app, ms):
        table = app.table
        if table is None:
            return
        game = table.game
        table.mark_journal()
        game.tick(ms)  # computer players of real-time games move here
        table.touch_since()
        self.finish_ms += ms
        if self.finish_ms >= FINISH_STEP_MS:
            self.finish_ms = 0
            if app.settings[S_AUTOPLAY] and table.held == NONE and table.clearly_won():
                table.play_home()
        if table.hint_after and not app.answering:  # (X said so, or the pause menu went, in the last frame)
            table.seek_hint()
        if not table.tick(ms):
            table.refresh()
            if not table.pending and table.moves_wanted() and not app.answering:
                table.legal_moves()  # an idle frame (not one that answers a press, whose
                # frame would wait for it): ready for the next keypress
        if game.status() != PLAYING:
            app.finish()
            if game.COMPETITIVE and not game.TURN_BASED and not app.link_game():
                # A round of Nerts ended in a frame, not on a key: the end panel takes no key
                # for a while, nor one held as it came (an A meant for the cards).
                app.guard_ms = _END_GUARD_MS
                app.guard_keys = app.keys_held
            app.redraw()
        app.collect_sound()

    def draw(self, app):
        if app.full:
            table_under(app)  # where a panel lay over it, or whole
        else:
            app.table.refresh()


class Deal(Scene):
    """A deal by its number: UP and DOWN change the digit under the cursor, typed digits
    (App.type_digit) enter the number from the right. It holds the number (its digits) and
    the cursor's digit; App.seed and App.set_seed read and set the number."""

    MODE = DEAL

    def __init__(self):
        self.digits = bytearray(SEED_DIGITS)
        self.digits[SEED_DIGITS - 1] = 1
        self.pos = SEED_DIGITS - 1  # the digit under the cursor
        self.rested_ms = 0  # how long the screen has stood since a key (App.make_ahead)

    def tick(self, app, ms):
        self.rested_ms = app.make_ahead(self.rested_ms, ms)

    def value(self):
        value = 0
        for i in range(SEED_DIGITS):
            value = value * 10 + self.digits[i]
        return value

    def set_value(self, value):
        for i in range(SEED_DIGITS):
            self.digits[SEED_DIGITS - 1 - i] = value % 10
            value //= 10

    def keep_in_range(self):
        """Digits past the largest deal number (1073741823, 2**30 - 1) become it: the number is
        then always one a deal has, and never an int larger than a small one."""
        d = self.digits
        v = 0
        for i in range(SEED_DIGITS - 1):
            v = v * 10 + d[i]  # the first nine digits: below 10**9
        if v > 107374182 or v == 107374182 and d[SEED_DIGITS - 1] > 3:
            self.set_value(1073741823)

    def type_digit(self, app, digit):
        """Typed digits make the number from the right, the first one since the screen opened
        replacing the number shown. (The deal screen has no menu: its `selected`, 0 when it
        opens, is 1 once a digit is typed.)"""
        d = self.digits
        for i in range(SEED_DIGITS - 1):
            d[i] = d[i + 1] if app.selected else 0
        d[SEED_DIGITS - 1] = digit
        self.keep_in_range()
        app.selected = 1
        self.pos = SEED_DIGITS - 1
        app.drawn_selected = -1

    def press(self, app, button):
        d = self.digits
        p = self.pos
        if app.settings[_S_TWO_BUTTONS]:
            # Two buttons: B counts the digit up, a long A moves to the next digit (a random
            # number is the game list's A).
            if button == bt.DOWN:
                button = bt.UP
            elif button == LONG_A:
                button = NEXT
        if button == bt.UP:
            d[p] = (d[p] + 1) % 10
            self.keep_in_range()
        elif button == bt.DOWN:
            d[p] = (d[p] + 9) % 10
            self.keep_in_range()
        elif button == bt.LEFT:
            self.pos = (p + SEED_DIGITS - 1) % SEED_DIGITS
        elif button == bt.RIGHT or button == NEXT:
            self.pos = (p + 1) % SEED_DIGITS
        elif button == bt.X or button == LONG_A:
            self.set_value(app.noise_number())
        elif button == bt.A:
            app.ask(A_SEED, DEAL)
            return
        elif button == bt.B:
            app.go(CHOOSE)  # the seed screen is opened from the game list
            app.selected = app.pending_game
            return
        app.drawn_selected = -1

    def draw(self, app):
        p = app.painter
        w = app.width
        h = app.height
        scale = 2
        digits_w = SEED_DIGITS * 6 * scale
        dx = (w - digits_w) // 2
        dy = h // 2 - 8 if h >= 100 else 2 * LINE_H + 4  # a 64-pixel screen: a line apart
        if app.full:
            felt(app)
            short = h < 100
            p.text_centred(games.title(app.names[app.pending_game]), w // 2, 1 if short else 6, pal.GOLD)
            p.text_centred(b"Deal number", w // 2, LINE_H + 1 if short else dy - 3 * LINE_H, pal.WHITE)
            two = app.settings[_S_TWO_BUTTONS]
            if two:
                keys = b"B: digit  hold A: next digit"
                if p.text_width(keys) > w - 2 * CHAR_W:  # 160 and 128 pixels
                    keys = b"B: digit  hold A: next" if w >= 160 else b"B digit  hold A next"
            elif w >= 200:
                keys = b"Up/down: digit  hold A: random" if app.no_x else b"Up/down: digit  X: random"
            else:
                keys = b"U/D: digit  hold A: rand" if app.no_x else b"U/D: digit  X: random"
                if p.text_width(keys) > w - 2 * CHAR_W:  # 128 pixels: a character clear of each edge
                    keys = b"U/D 0-9  hold A rand" if app.no_x else b"U/D 0-9  X: random"
            p.text_centred(keys, w // 2, h - 2 * LINE_H + 2 if short else h - 3 * LINE_H, pal.SLOT)
            if two:
                keys = b"A: deal  hold B: back" if w >= 160 else b"A deal  hold B back"
            else:
                keys = b"A: deal  B: back"
            p.text_centred(keys, w // 2, h - LINE_H + 2 if short else h - 2 * LINE_H, pal.SLOT)
        app.fb.fill_rect(dx - 4, dy - 4, digits_w + 8, 7 * scale + 10, pal.PANEL)
        app.screen.mark(dx - 4, dy - 4, digits_w + 8, 7 * scale + 10)
        for i in range(SEED_DIGITS):
            x = dx + i * 6 * scale
            colour = pal.CURSOR if i == self.pos else pal.WHITE
            p.big_char(48 + self.digits[i], x, dy, scale, colour)
            if i == self.pos:
                app.fb.fill_rect(x, dy + 7 * scale + 2, 5 * scale, 2, pal.CURSOR)


class Page(Scene):
    """A page drawn whole: A, B or SELECT go back to the screen it came from."""

    def press(self, app, button):
        if button == bt.B or button == bt.A or button == bt.SELECT:
            back = app.back_mode
            app.go(back)
            if back == PAUSE:
                app.selected = P_RULES
            elif back == PLAY:
                app.resume()
            elif back == TITLE:
                app.selected = app.title_index(T_STATS)

    def draw(self, app):
        if app.full:
            self.draw_page(app)

    def draw_page(self, app):
        pass


class Rules(Page):
    """The game's rules, the winnable-deals note and the keys, a page at a time: UP and DOWN
    scroll it a line, RIGHT and LEFT a page (less a line, kept for the eye), down to where its
    last line is at the foot of the page."""

    MODE = RULES

    def press(self, app, button):
        if button == bt.DOWN or button == NEXT:
            step = 1
        elif button == bt.UP:
            step = -1
        elif button == bt.RIGHT or button == bt.LEFT:
            step = self.page_lines(app) - 1
            if button == bt.LEFT:
                step = -step
        else:
            Page.press(self, app, button)
            return
        scroll = app.scroll + step
        last = self.last_scroll(app)
        if scroll > last:
            scroll = last
        if scroll < 0:
            scroll = 0
        if scroll != app.scroll:
            app.scroll = scroll
            app.full = True

    def page_lines(self, app):
        """The lines of text a page holds: every line whose letters fit above the screen's
        foot, a pixel to spare (four on a 64-pixel screen, twelve on 240x135)."""
        return (app.height - 1 - self.top(app) - CHAR_H) // LINE_H + 1

    def top(self, app):
        """Where the page's first line of text is: under its head."""
        return self.head(app) * LINE_H + 5

    def keys(self, app):
        if app.settings[_S_TWO_BUTTONS]:
            return b"B: line  A: back"
        if app.width >= 320:
            return b"Up/down: line  Left/right: page"
        return b"Up/down line  L/R page" if app.width >= 160 else b"Up/down  L/R page"

    def head(self, app):
        """Lines above the text: the game's name and the keys, on one line where they fit
        with two spaces between them, else one under the other (a narrow screen)."""
        p = app.painter
        room = p.text_width(games.title(app.names[app.game_index])) + 2 * CHAR_W + p.text_width(self.keys(app))
        return 1 if room <= app.width - 6 else 2

    def last_scroll(self, app):
        """The furthest the page scrolls: its last line at the foot (0 when it fits)."""
        end = self.draw_text(app, COUNT_FROM, -COUNT_FROM) - COUNT_FROM  # the text's lines
        lines = self.page_lines(app)
        return end - lines if end > lines else 0

    def draw_page(self, app):
        p = app.painter
        app.fb.fill(pal.PANEL)
        app.screen.mark_all()
        p.text(games.title(app.names[app.game_index]), 4, 3, pal.GOLD)
        keys = self.keys(app)
        kx = app.width - 4 - p.text_width(keys)
        p.text(keys, kx, 3 + (self.head(app) - 1) * LINE_H, pal.DIM)
        p.note(kx, 3 + (self.head(app) - 1) * LINE_H, p.text_width(keys))
        self.draw_text(app, -app.scroll, self.page_lines(app))

    def draw_text(self, app, line, lines):
        """The page's text from line number `line` (wrap() says how); the line after it."""
        name = app.names[app.game_index]
        y0 = self.top(app)
        line = wrap(app, games.rules_text(name), line, lines, pal.WHITE, y0)
        if games.winnable_module(name) is not None:
            line = wrap(app, texts.WINNABLE_NOTE, line + 1, lines, pal.WHITE, y0)
        return wrap(app, app.keys_text(), line + 1, lines, pal.DIM, y0)


class Confirm(Scene):
    """Give up the game in progress? It counts as a loss (A: yes, B: no). The screen it asks
    from (its `back`) stays visible around the panel, drawn as it was; asked from the
    pause menu, the question takes the menu's panel whole, over the table (no menu row shows
    cut through, and nothing of the table is drawn again). App.ask says what it asks about
    (`action`, A_*)."""

    MODE = CONFIRM

    def __init__(self):
        self.action = A_GIVE_UP  # what it asks about (A_*)
        self.back = PAUSE  # and where B returns to

    def ask(self, action, back):
        self.action = action
        self.back = back

    def row(self, app):
        """The row chosen on the screen the confirmation asks from (drawn beneath its panel)."""
        back = self.back
        action = self.action
        if back == TITLE:
            return app.title_index(T_NEW)
        if back == CHOOSE:
            return app.pending_game
        if action == A_RESTART:
            return P_RESTART
        if action == A_LEAVE:
            return P_TITLE
        return P_NEW if action == A_NEW else P_GIVE_UP

    def press(self, app, button):
        if button == bt.A:
            app.do(self.action)
        elif button == bt.B:
            app.go(self.back)
            app.selected = self.row(app)  # the row that asked (New game, Give up ...)

    def draw(self, app):
        if not app.full:
            return
        p = app.painter
        x = app.width // 2
        pw = panel_width(app.width)
        if self.back == PAUSE:  # in the pause menu's panel, over the table (a narrower one)
            app.screens[PAUSE].panel_rect(app)
            r = PANEL_RECT
            px = r[0]
            py = r[1]
            pw = r[2]
            ph = r[3]
            table_under(app, px, py, pw, ph)
            panel(app, px, py, pw, ph, True)
            y = py + (ph - 5 * LINE_H + 1) // 2  # the question's lines, centred in it
            if y < py + 3:
                y = py + 3
        else:
            selected = app.selected
            app.selected = self.row(app)
            app.screens[self.back].draw(app)
            app.selected = selected
            if self.back == CHOOSE:  # over the list's whole panel: no row of it cut in two
                px = PANEL_RECT[0]
                py = PANEL_RECT[1]
                ph = PANEL_RECT[3]
                panel(app, px, py, PANEL_RECT[2], ph)
                y = py + (ph - 5 * LINE_H + 1) // 2
            else:
                y = centred_panel(app, 5)
        p.text_centred(texts.CONFIRMS[self.action], x, y, pal.GOLD)
        # What yes means: the game given up named (a player choosing another game may not
        # recall which one waits), or that a linked game ends uncounted.
        n = 0
        for k in range(1 if self.action == A_LEAVE else 3):
            if self.action == A_LEAVE:
                text = texts.CONFIRMS[CONFIRM_LINE + 1]
            else:
                text = games.title(app.table.game.NAME) if k == 1 else texts.CONFIRMS[CONFIRM_LINE + k]
            for i in range(len(text)):
                _BODY[n + i] = text[i]
            n += len(text)
        per_line = (pw - 7) // CHAR_W
        if self.lines(p, n, per_line, x, 0, 3, False) <= 2:
            self.lines(p, n, per_line, x, y + LINE_H + 3, 2, True)
            p.text_centred(b"A: yes  B: no", x, y + 3 * LINE_H + 6, pal.CURSOR)
            return
        self.lines(p, n, per_line, x, y + LINE_H + 1, 3, True)  # a narrow panel: three lines
        p.text_centred(b"A: yes  B: no", x, y + 4 * LINE_H + 2, pal.CURSOR)

    def lines(self, p, n, per_line, cx, y, most, draw):
        """_BODY[:n] broken at spaces into lines of per_line characters at most, each centred
        on cx, LINE_H apart from y (when `draw`); how many lines it takes, `most` at most. (It
        counts as overlay.count_lines does: that name imported here took 112 B of the Pico's
        heap, which has 256 B to spare in Nerts.)"""
        start = 0
        k = 0
        while start < n and k < most:
            end = line_break(_BODY, n, per_line, start)
            if draw:
                p.text_span(_BODY, start, end, cx - ((end - start) * CHAR_W - 1) // 2, y + k * LINE_H, pal.WHITE)
            start = end + 1 if end < n and _BODY[end] == 32 else end
            k += 1
        return k if start >= n else most + 1


class End(Scene):
    """The end of a game over its final position: A deals the next, Y takes back the last
    move, B goes to the game list (in link play: A the match's next deal, B leaves)."""

    MODE = END

    def press(self, app, button):
        if button == bt.A:
            if app.deal_next():
                return
            link = app.link
            if app.linked() and link.next_deal_waits(app.table):
                if link.deals_next(app.table):
                    link.deal_asked = True  # dealt as soon as both consoles have the round's end
                return
            if app.link_game():
                app.leave_link()
                app.go(TITLE)
                return
            app.start_game(app.random_seed())
        elif button == bt.Y and not app.linked():
            app.table.press_undo()  # take back the last move and play on
            app.show(PLAY)
        elif button == bt.B and app.link_game():
            app.leave_link()
            app.go(TITLE)
        elif button == bt.B:
            app.go(CHOOSE)
            app.selected = app.game_index

    def draw(self, app):
        if not app.full:
            return
        p = app.painter
        table = app.table
        game = table.game
        i = app.game_index
        w = app.width
        pw = w - 20 if w - 20 < 200 else 200
        short = app.height < 100  # a 64-pixel screen: the lines closer, the panel wider
        gap = 0 if short else 3
        if w < 160:
            pw = panel_width(w)
        ph = 7 * LINE_H + 8 if not short else 6 * LINE_H + 4
        px = (w - pw) // 2
        py = (app.height - ph) // 2
        table_under(app)  # the final position stays visible around the panel
        panel(app, px, py, pw, ph)
        if app.player_won():
            title = b"You won!"
        elif game.status() == LOST:
            title = b"No more moves"
        else:
            title = b"Game over"
        p.text_centred(title, w // 2, py + 5 - 3 + gap, pal.GOLD)
        y = py + 5 - 3 + gap + LINE_H + gap
        x = px + 8
        # The match's scores: on one line where it fits the panel, else (three or four players)
        # two players a line in the move count's place, each name its initial where even that
        # would not fit (as the score corner: overlay.tag_room).
        names = table.player_tags()
        room = (px + pw - 4 - x) // CHAR_W
        pairs = False
        initials = False
        if game.COMPETITIVE:
            line = 0
            pair = 0
            for k in range(game.players):  # (two characters between players)
                chars = len(names[k]) + score_chars(game.score(k))
                line += chars + (2 if k else 0)
                pair = chars if k % 2 == 0 else pair + 2 + chars
                initials = initials or pair > room
            pairs = line > room
            initials = pairs and initials
        # (Three lines: the move count, the statistics and the scores or the streak; or the
        # scores on two lines and then the statistics.)
        stats = y + 2 * LINE_H if pairs else y + LINE_H
        if pairs:
            self.draw_scores(app, names, 0, 2, x, y, initials)
            self.draw_scores(app, names, 2, game.players, x, y + LINE_H, initials)
        else:
            p.number(table.move_count, p.text(b"Moves ", x, y, pal.DIM), y, pal.WHITE)
            if game.COMPETITIVE:  # the match so far instead of the streak
                self.draw_scores(app, names, 0, game.players, x, y + 2 * LINE_H, initials)
            else:
                p.number(app.streak[i], p.text(b"Streak ", x, y + 2 * LINE_H, pal.DIM), y + 2 * LINE_H, pal.WHITE)
        if app.link_game():  # not in the statistics: the match's own score says it
            p.text(b"Link play", x, stats, pal.DIM)
        else:
            x2 = p.number(app.played[i], p.text(b"Played ", x, stats, pal.DIM), stats, pal.WHITE)
            p.number(app.won[i], p.text(b"  Won ", x2, stats, pal.DIM), stats, pal.WHITE)
        y += 3 * LINE_H + gap
        if app.linked():
            said = b"The host deals" if game.players > 2 else b"The other player deals"  # (a party: the host)
            if app.link.deals_next(table):
                said = b"A: next deal"
            p.text(said if x + p.text_width(said) < app.width else b"The other deals", x, y, pal.CURSOR)
            p.text(b"B: leave the table", x, y + LINE_H, pal.SLOT)
            return
        p.text(b"A: next deal", x, y, pal.CURSOR)
        p.text(b"Y: undo  B: games", x, y + LINE_H, pal.SLOT)


    def draw_scores(self, app, names, first, last, x, y, initials):
        """Seats first .. last - 1's scores on one line, with their names or their initials
        ("2 5" for CPU2: the initials of CPU2 and CPU3 would be alike)."""
        p = app.painter
        game = app.table.game
        for k in range(first, last):
            tag = names[k]
            if initials:
                p.char(tag[len(tag) - 2 if len(tag) > 4 else 0], x, y, pal.DIM)
                x += 2 * CHAR_W
            else:
                x = p.text(tag, x, y, pal.DIM)
            score = game.score(k)
            if score < 0:
                x = p.text(b"-", x, y, pal.WHITE)
                score = -score
            x = p.number(score, x, y, pal.WHITE) + 12


_BODY = bytearray(64)  # the words under a question (Confirm.draw): the longest are 51 characters
