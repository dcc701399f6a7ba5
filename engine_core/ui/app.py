"""The console's screens: title, game choice, new deal, play, pause menu, rules, settings
and the end of a game. `press` and `tick` are all the firmware and the simulator call.

A game's objects (the game and its table) are made the first time it is chosen and kept;
from then on every keypress and redraw works in preallocated memory.
"""

from array import array

from engine_core import LOST, PLAYING, WON, games, rng
from engine_core.game import ACTION
from engine_core.gfx import palette as pal
from engine_core.gfx.paint import CHAR_H, LINE_H, Painter, SMALL
from engine_core.ui import buttons as bt
from engine_core.ui import layouts, texts
from engine_core.ui.table import NONE, SOUND_LOST, SOUND_WON, Table

try:
    from micropython import const
except ImportError:
    def const(x):
        return x

# Screens.
TITLE = const(0)
CHOOSE = const(1)
DEAL = const(2)
PLAY = const(3)
PAUSE = const(4)
RULES = const(5)
SETTINGS = const(6)
END = const(7)

# Buttons beyond the logical ones (from long presses and the two-button scheme).
NEXT = const(10)
LONG_A = const(11)

# Settings, by index into App.settings.
S_SOUND = const(0)
S_BACK = const(1)
S_SPEED = const(2)
S_LEVEL = const(3)
S_JOKERS = const(4)
S_TARGET = const(5)
S_AUTOPLAY = const(6)
S_TWO_BUTTONS = const(7)
SETTING_CHOICES = (2, 4, 3, 3, 2, 4, 2, 2)

SEED_DIGITS = const(7)
FINISH_STEP_MS = const(150)  # a clearly won game plays one card home this often (auto-play)


class App:
    def __init__(self, screen, names=None, two_buttons=False):
        """screen: a gfx Screen. names: the games to offer (default: every game built in
        that has a layout). two_buttons: the board has only A and B (docs/screen.md)."""
        self.screen = screen
        self.fb = screen.fb
        self.painter = Painter(screen)
        self.width = screen.width
        self.height = screen.height
        self.size = layouts.screen_class(screen.width, screen.height)
        if names is None:
            names = games.available()
        self.names = []
        for name in names:
            if layouts.declaration(name) is not None:
                self.names.append(name)
        self.tables = {}
        self.table = None
        self.game_index = 0
        self.mode = TITLE
        self.back_mode = TITLE  # where rules and settings return to
        self.selected = 0
        self.drawn_selected = -1
        self.scroll = 0
        self.full = True
        self.settings = bytearray(len(texts.SETTINGS))
        self.settings[S_SOUND] = 1
        self.settings[S_SPEED] = 1
        self.settings[S_LEVEL] = 1
        self.settings[S_AUTOPLAY] = 1
        self.settings[S_TWO_BUTTONS] = 1 if two_buttons else 0
        self.seed_digits = bytearray(SEED_DIGITS)
        self.seed_digits[SEED_DIGITS - 1] = 1
        self.seed_pos = SEED_DIGITS - 1
        self.played = array("i", [0] * len(games.NAMES))
        self.won = array("i", [0] * len(games.NAMES))
        self.streak = array("i", [0] * len(games.NAMES))
        self.counted = False  # the current game's end is already in the statistics
        self.clock = 0
        self.sound_event = 0  # a sound to play (table.SOUND_*); the board clears it
        self.finish_ms = 0
        self.noise = 12345
        self.redraw()

    # --- input ---

    def press(self, button, long_press=False):
        """One debounced button event from the board (a long press is reported once)."""
        self.noise = rng.step((self.noise & 0xFFFFFF) + self.clock + button + 1)
        if self.settings[S_TWO_BUTTONS]:
            button = self.two_buttons(button, long_press)
        elif long_press and button == bt.A:
            button = LONG_A
        if button < 0:
            return
        mode = self.mode
        if mode == PLAY:
            self.press_play(button)
        elif mode == TITLE:
            if button == bt.A or button == bt.START:
                self.go(CHOOSE)
        elif mode == DEAL:
            self.press_deal(button)
        elif mode == RULES:
            self.press_rules(button)
        elif mode == END:
            self.press_end(button)
        else:
            self.press_menu(button)
        self.redraw()
        self.take_sound()

    def take_sound(self):
        """Pass the table's latest sound on to the board, when sound is on."""
        table = self.table
        if table is not None and table.sound:
            if self.settings[S_SOUND]:
                self.sound_event = table.sound
            table.sound = 0

    def two_buttons(self, button, long_press):
        """A and B only: B steps, long B is START; long A sends home, or cancels when holding."""
        in_play = self.mode == PLAY
        if button == bt.B:
            if long_press:
                return bt.START if in_play else bt.B
            return NEXT if in_play else bt.DOWN
        if button == bt.A:
            if not long_press:
                return bt.A
            if in_play and self.table.held != NONE:
                return bt.B
            return LONG_A
        return -1

    def tick(self, ms):
        """Time passes: shakes settle, computer players act."""
        self.clock = (self.clock + ms) % 0x3FFFFFF
        if self.mode == PLAY and self.table is not None:
            table = self.table
            game = table.game
            table.mark_journal()
            game.tick(ms)  # computer players of real-time games move here
            table.touch_since()
            self.finish_ms += ms
            if self.finish_ms >= FINISH_STEP_MS:
                self.finish_ms = 0
                if self.settings[S_AUTOPLAY] and table.held == NONE and table.clearly_won():
                    table.play_home()
            if not table.tick(ms):
                table.refresh()
            if game.status() != PLAYING:
                self.finish()
                self.redraw()
            self.take_sound()

    def go(self, mode):
        self.mode = mode
        self.selected = 0
        self.scroll = 0
        self.full = True

    # --- play ---

    def press_play(self, button):
        table = self.table
        if button == bt.START:
            self.go(PAUSE)
            return
        if button == LONG_A:
            table.press_long_a()
        elif button == NEXT:
            table.next_slot()
        else:
            table.press(button)
        if table.game.status() != PLAYING:
            self.finish()

    def finish(self):
        """The game has ended: count it and show the end panel."""
        game = self.table.game
        i = self.game_index
        if not self.counted:
            self.counted = True
            self.played[i] += 1
            if game.status() == WON:
                self.won[i] += 1
                self.streak[i] += 1
                self.table.sound = SOUND_WON
            else:
                self.streak[i] = 0
                self.table.sound = SOUND_LOST
        self.mode = END
        self.full = True

    def start_game(self, seed):
        """Deal the chosen game; its objects are made on the first deal only."""
        name = self.names[self.game_index]
        table = self.tables.get(name)
        if table is None:
            cls = games.load(name)
            opts = games.options(self.settings[S_JOKERS] == 1, (0, 50, 100, 150)[self.settings[S_TARGET]])
            decl = layouts.declaration(name)
            players = decl.get("players", cls.MIN_PLAYERS)
            game = cls(players, opts)
            table = Table(self.painter, game, decl, self.size, texts.TITLES[name])
            self.tables[name] = table
        self.table = table
        self.configure_computer(table.game)
        table.game.deal(seed)
        table.new_game()
        self.counted = False
        self.mode = PLAY
        self.full = True

    def configure_computer(self, game):
        """The computer players' level and speed from the settings, where the game has them."""
        level = self.settings[S_LEVEL] + 1  # 1 easy .. 3 hard
        if hasattr(game, "bot_level"):
            game.bot_level = level
        if hasattr(game, "set_bot"):
            for p in range(1, game.players):
                game.set_bot(p, self.settings[S_SPEED], level - 1)

    def seed(self):
        value = 0
        for i in range(SEED_DIGITS):
            value = value * 10 + self.seed_digits[i]
        return value

    def set_seed(self, value):
        for i in range(SEED_DIGITS):
            self.seed_digits[SEED_DIGITS - 1 - i] = value % 10
            value //= 10

    # --- menus ---

    def menu_length(self):
        if self.mode == CHOOSE:
            return len(self.names)
        if self.mode == PAUSE:
            return len(texts.PAUSE)
        return len(texts.SETTINGS)

    def press_menu(self, button):
        n = self.menu_length()
        if button == bt.UP:
            self.selected = (self.selected + n - 1) % n
        elif button == bt.DOWN:
            self.selected = (self.selected + 1) % n
        elif button == bt.B or (button == bt.START and self.mode == PAUSE):
            if self.mode == CHOOSE:
                self.go(TITLE)
            elif self.mode == PAUSE:
                self.resume()
            else:
                self.go(self.back_mode)
                if self.back_mode == PAUSE:
                    self.selected = 6
        elif self.mode == SETTINGS and (button == bt.LEFT or button == bt.RIGHT or button == bt.A):
            self.change_setting(-1 if button == bt.LEFT else 1)
        elif button == bt.A:
            if self.mode == CHOOSE:
                self.game_index = self.selected
                self.go(DEAL)
            elif self.mode == PAUSE:
                self.choose_pause(self.selected)

    def choose_pause(self, item):
        table = self.table
        if item == 0:
            self.resume()
        elif item == 1:
            self.resume()
            table.press_hint()
        elif item == 2:
            self.resume()
            table.press_undo()
        elif item == 3:
            self.start_game(table.game.seed)
        elif item == 4:
            self.set_seed(table.game.seed + 1)
            self.go(DEAL)
        elif item == 5:
            self.back_mode = PAUSE
            self.go(RULES)
        elif item == 6:
            self.back_mode = PAUSE
            self.go(SETTINGS)
        else:
            self.go(CHOOSE)
            self.selected = self.game_index

    def resume(self):
        self.mode = PLAY
        self.full = True
        if self.table.game.status() != PLAYING:
            self.mode = END

    def change_setting(self, delta):
        i = self.selected
        n = SETTING_CHOICES[i]
        self.settings[i] = (self.settings[i] + n + delta) % n
        if i == S_BACK:
            colours = pal.BACKS[self.settings[i]]
            c = colours[0]
            self.screen.set_colour(pal.BACK, c[0], c[1], c[2])
            c = colours[1]
            self.screen.set_colour(pal.BACK_LIGHT, c[0], c[1], c[2])
        self.drawn_selected = -1  # the value changed: redraw the row

    def press_deal(self, button):
        d = self.seed_digits
        p = self.seed_pos
        if button == bt.UP:
            d[p] = (d[p] + 1) % 10
        elif button == bt.DOWN:
            d[p] = (d[p] + 9) % 10
        elif button == bt.LEFT:
            self.seed_pos = (p + SEED_DIGITS - 1) % SEED_DIGITS
        elif button == bt.RIGHT or button == NEXT:
            self.seed_pos = (p + 1) % SEED_DIGITS
        elif button == bt.X or button == LONG_A:
            self.set_seed(self.noise % 10000000)
        elif button == bt.A or button == bt.START:
            self.start_game(self.seed())
            return
        elif button == bt.B:
            self.go(CHOOSE)
            self.selected = self.game_index
            return
        self.drawn_selected = -1

    def press_rules(self, button):
        if button == bt.DOWN or button == NEXT:
            self.scroll += 1
        elif button == bt.UP and self.scroll > 0:
            self.scroll -= 1
        elif button == bt.B or button == bt.A or button == bt.START:
            self.go(self.back_mode)
            if self.back_mode == PAUSE:
                self.selected = 5
            return
        self.full = True

    def press_end(self, button):
        if button == bt.A:
            table = self.table
            game = table.game
            n = game.legal_moves(table.moves)  # a match goes on: the next game's 'deal'
            for i in range(n):
                if table.moves[i] >> 16 == ACTION:
                    table.play(table.moves[i])
                    self.counted = False
                    self.mode = PLAY
                    self.full = True
                    return
            self.set_seed(game.seed + 1)
            self.start_game(self.seed())
        elif button == bt.Y:
            self.table.press_undo()  # take back the last move and play on
            self.mode = PLAY
            self.full = True
        elif button == bt.B or button == bt.START:
            self.go(CHOOSE)
            self.selected = self.game_index

    # --- drawing ---

    def redraw(self):
        mode = self.mode
        if mode == PLAY:
            if self.full:
                self.table.valid = False
                self.full = False
            self.table.refresh()
            return
        if mode == TITLE:
            if self.full:
                self.draw_title()
        elif mode == DEAL:
            self.draw_deal()
        elif mode == RULES:
            if self.full:
                self.draw_rules()
        elif mode == END:
            if self.full:
                self.draw_end()
        else:
            self.draw_menu()
        self.full = False

    def panel(self, x, y, w, h):
        fb = self.fb
        fb.fill_rect(x, y, w, h, pal.PANEL)
        fb.rect(x, y, w, h, pal.SLOT)
        self.screen.mark(x, y, w, h)

    def draw_title(self):
        p = self.painter
        fb = self.fb
        w = self.width
        h = self.height
        fb.fill(pal.FELT)
        self.screen.mark_all()
        scale = 2 if self.size == SMALL else 3
        p.big_text(b"Pocket", (w - 35 * scale) // 2, h // 10, scale, pal.GOLD)
        p.big_text(b"Cards", (w - 29 * scale) // 2, h // 10 + 9 * scale, scale, pal.WHITE)
        st = p.styles[self.size]
        y = h // 10 + 20 * scale
        x = w // 2 - (4 * st.w + 12) // 2
        hand = (0, 25, 37, 49)  # ace of spades, king of hearts, queen of diamonds, jack of clubs
        for i in range(4):
            p.card(st, x + i * (st.w + 4), y, hand[i], True, pal.GREY, pal.FELT, False)
        p.text_centred(b"Press A", w // 2, h - 2 * LINE_H, pal.CURSOR)

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
            if mode != PAUSE:
                self.fb.fill(pal.FELT)
                self.screen.mark_all()
            self.panel(px, py, pw, ph)
            p.text(title, px + 6, py + 5, pal.GOLD)
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
            p.text(texts.TITLES[self.names[i]], px + 8, ty, colour)
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
            p.text_centred(texts.TITLES[self.names[self.game_index]], w // 2, 6, pal.GOLD)
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
        p.text(texts.TITLES[name], 4, 3, pal.GOLD)
        p.text(b"Up/down", self.width - 46, 3, pal.DIM)
        lines = (self.height - LINE_H - 6) // LINE_H
        line = self.wrap(texts.RULES[name], -self.scroll, lines, pal.WHITE)
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
        if status == WON:
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
        x2 = p.number(self.played[i], p.text(b"Played ", x, y, pal.DIM), y, pal.WHITE)
        p.number(self.won[i], p.text(b"  Won ", x2, y, pal.DIM), y, pal.WHITE)
        y += LINE_H
        p.number(self.streak[i], p.text(b"Streak ", x, y, pal.DIM), y, pal.WHITE)
        y += LINE_H + 3
        p.text(b"A: next deal", x, y, pal.CURSOR)
        p.text(b"Y: undo  B: games", x, y + LINE_H, pal.SLOT)

    def open_game(self, name, seed):
        """Straight into play (the simulator's and tools' --game): no menus on the way."""
        for i in range(len(self.names)):
            if self.names[i] == name:
                self.game_index = i
                self.set_seed(seed)
                self.start_game(seed)
                self.redraw()
                return
        raise ValueError("no game with a layout named " + name)
