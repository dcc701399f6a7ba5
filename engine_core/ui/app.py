"""The console's screens: title, game choice, new deal, play, pause menu, rules, settings
and the end of a game. `press` and `tick` are all the firmware and the simulator call.

A game's objects (the game and its table) are made the first time it is chosen and kept;
from then on every keypress and redraw works in preallocated memory. screens.py draws the
screens other than play; table.py and view.py are play.
"""

from array import array

from engine_core import PLAYING, WON, games, rng
from engine_core.ai import winnable
from engine_core import reasons as why
from engine_core.game import ACTION
from engine_core.gfx import palette as pal
from engine_core.gfx.paint import Painter
from engine_core.ui import buttons as bt
from engine_core.ui import layouts, texts
from engine_core.link.messages import CLOCK_MASK
from engine_core.ui.linkplay import LinkPlay
from engine_core.ui.screens import (A_LINK, A_NEW, A_QUIT, A_RESTART, A_SEED, CASKET_PROFILES, CHOOSE,  # noqa: F401
                                    CONFIRM, DEAL, END, LINK, LINK_ASK, LINK_LEFT, PAUSE, PLAY, RULES, S_AUTOPLAY,
                                    S_BACK, S_CASKET_RULES, S_JOKERS, S_LEVEL,
                                    S_SLIDE, S_SOUND, S_SPEED, S_TARGET, S_TWO_BUTTONS, S_WINNABLE,
                                    SEED_DIGITS, SETTING_CHOICES, SETTINGS, STATS, T_CHOOSE,
                                    T_CONTINUE, T_LINK, T_NEW, T_SETTINGS, T_STATS, TARGETS, TITLE, Screens)
from engine_core.ui.table import NONE, SOUND_DEAL, SOUND_LOST, SOUND_WON, Table

from micropython import const

# Buttons beyond the logical ones (from long presses and the two-button scheme).
NEXT = const(10)
LONG_A = const(11)
LONG_X = const(12)  # redo, in play

# The pause menu's items (texts.PAUSE), by row.
_P_RESUME = const(0)
_P_HINT = const(1)
_P_UNDO = const(2)
_P_REDO = const(3)
_P_RESTART = const(4)
_P_NEW = const(5)
_P_RULES = const(6)
_P_SETTINGS = const(7)
_P_QUIT = const(8)

FINISH_STEP_MS = const(150)  # a clearly won game plays one card home this often (auto-play)


class App(LinkPlay, Screens):
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
        self.back_mode = TITLE  # where rules, settings and statistics return to
        self.confirm_action = A_QUIT  # what the confirmation screen asks about (A_*)
        self.confirm_back = PAUSE  # and where B returns to from it
        self.pending_game = 0  # the game a new deal (A_NEW, A_SEED) is of
        self.resumable = False  # a game saved at power-off waits: the title offers Continue
        self.win_tables = None  # game name -> its winnable-deal table module, once asked for
        self.selected = 0
        self.drawn_selected = -1
        self.scroll = 0
        self.full = True
        self.settings = bytearray(len(texts.SETTINGS))
        self.settings[S_SOUND] = 1
        self.settings[S_SPEED] = 1
        self.settings[S_LEVEL] = 1
        self.settings[S_AUTOPLAY] = 1
        self.settings[S_SLIDE] = 1
        self.settings[S_TWO_BUTTONS] = 1 if two_buttons else 0
        self.seed_digits = bytearray(SEED_DIGITS)
        self.seed_digits[SEED_DIGITS - 1] = 1
        self.seed_pos = SEED_DIGITS - 1
        self.played = array("i", [0] * len(self.names))
        self.won = array("i", [0] * len(self.names))
        self.streak = array("i", [0] * len(self.names))
        self.best = array("i", [0] * len(self.names))  # the best winning streak
        self.left = 0  # unfinished games the player has left (each counts as a loss)
        self.start_scores = array("i", [0] * 4)  # each player's score when this game began
        self.counted = False  # the current game's end is already in the statistics
        self.deals = 0  # games dealt so far (engine_core/console.py notices a new one by it)
        self.clock = 0
        self.sound_event = 0  # a sound to play (table.SOUND_*); the board clears it
        self.finish_ms = 0
        self.noise = 12345
        self.link = None  # link play, on a console that has a link (linkplay.py: attach_link)
        self.redraw()

    # --- input ---

    def press(self, button, long_press=False):
        """One debounced button event from the board (a long press is reported once)."""
        self.noise = rng.step((self.noise & 0xFFFFFF) + self.clock + button + 1)
        if self.settings[S_TWO_BUTTONS]:
            button = self.two_buttons(button, long_press)
        elif long_press and button == bt.A:
            button = LONG_A
        elif long_press and button == bt.X and self.mode == PLAY:
            button = LONG_X  # elsewhere a long X is X
        if button < 0:
            return
        mode = self.mode
        if mode == PLAY:
            self.press_play(button)
        elif mode == TITLE:
            self.press_title(button)
        elif mode == CONFIRM:
            self.press_confirm(button)
        elif mode == DEAL:
            self.press_deal(button)
        elif mode == RULES or mode == STATS:
            self.press_rules(button)
        elif mode == END:
            self.press_end(button)
        elif mode == LINK:
            self.press_link(button)
        elif mode == LINK_LEFT:
            self.press_link_left(button)
        elif mode == LINK_ASK:
            self.press_link_ask(button)
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
        self.clock = (self.clock + ms) & CLOCK_MASK  # the link compares times modulo this
        if self.link_in_use():
            self.link_tick()
            if self.full:
                self.redraw()  # the link changed the screen: a status, the table, a panel
            if self.link_paused():
                self.redraw()  # the table's line says the link is silent; its clock stands
                self.draw_link_notice()  # and so does every other screen
                return
            if self.linked() and self.mode != PLAY:
                self.table.game.tick(ms)  # the shared clock runs under a menu or the end panel
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
                if not table.pending and table.prefetch and table.cached_n < 0:
                    table.legal_moves()  # an idle frame: ready for the next keypress
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
        if button == bt.SELECT:  # the rules and keys, straight from play
            self.back_mode = PLAY
            self.go(RULES)
            return
        if self.link_paused():
            table.say(why.LINK_SILENT)  # the game waits for the other console
            return
        if button == LONG_A:
            table.press_long_a()
        elif button == LONG_X:
            table.press_redo()
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
            if self.player_won():
                self.won[i] += 1
                self.streak[i] += 1
                if self.streak[i] > self.best[i]:
                    self.best[i] = self.streak[i]
                self.table.sound = SOUND_WON
            else:
                self.streak[i] = 0
                self.table.sound = SOUND_LOST
        self.mode = END
        self.full = True

    def player_won(self):
        """Did the player (p1, or the console's seat in link play) win the game just ended?
        In a match, the one whose score grew most during this game won it."""
        game = self.table.game
        if game.status() == WON:
            return True
        if not game.COMPETITIVE:
            return False
        seat = self.table.seat
        mine = game.score(seat) - self.start_scores[seat]
        for k in range(game.players):
            if k != seat and game.score(k) - self.start_scores[k] >= mine:
                return False
        return mine > 0

    def note_scores(self):
        game = self.table.game
        for k in range(game.players):
            self.start_scores[k] = game.score(k)

    def start_game(self, seed):
        """Deal the chosen game, played here against the computer (open_table)."""
        table = self.open_table(self.names[self.game_index])
        self.table = table
        if table.seat != 0 or table.link is not None:
            table.set_seat(0, None)  # the last game on this table was a linked one
        if self.link is not None:
            self.link.linked = False
            self.link.began_linked = False
        self.configure_computer(table.game)
        self.configure_rules(table.game)
        table.slide_on(self.settings[S_SLIDE])
        table.game.bots = True
        table.game.deal(seed)
        table.new_game()
        table.sound = SOUND_DEAL
        self.note_scores()
        self.deals += 1
        self.counted = False
        self.resumable = False
        self.mode = PLAY
        self.full = True

    def open_table(self, name, opts=-1):
        """The game's table, made on its first deal, and again only when the jokers or target
        settings (or a linked table's options, opts) changed since: the game takes them when made."""
        table = self.tables.get(name)
        if opts < 0:
            opts = games.options(self.settings[S_JOKERS] == 1, TARGETS[self.settings[S_TARGET]])
        if table is None or table.game.options != opts:
            self.tables[name] = None  # the old game is garbage now (no gc.collect() here: on
            self.table = None  # the WebAssembly build a collection inside nested calls
            table = None  # misses pointers held in wasm locals and frees live objects)
            cls = games.load(name)
            decl = layouts.declaration(name)
            players = decl.get("players", cls.MIN_PLAYERS)
            game = cls(players, opts)
            table = Table(self.painter, game, decl, self.size, games.title(name))
            self.tables[name] = table
        return table

    def configure_rules(self, game):
        """The rule profile a new deal plays, where the game has more than one (Casket: the
        Casket rules setting, for a game whose registry line has RULES_SETTING). A resumed game
        keeps the profile it was saved under."""
        if games.has_flag(game.NAME, games.RULES_SETTING):
            game.set_rules(CASKET_PROFILES[self.settings[S_CASKET_RULES]])

    def win_table(self, name):
        """The game's table of proven-winnable deals (engine_core/ai/winnable.py), or None;
        imported the first time a winnable deal of the game is asked for."""
        if self.win_tables is None:
            self.win_tables = {}
        t = self.win_tables.get(name, 0)
        if t == 0:
            t = winnable.table(name)
            self.win_tables[name] = t
        return t

    def random_seed(self):
        """A fresh deal for the chosen game: any seed, or with 'winnable only' on (for a
        game with a table) one the solver proved can be won."""
        self.noise = rng.step((self.noise & 0xFFFFFF) + self.clock + 7)
        n = self.noise % 10000000
        if self.settings[S_WINNABLE]:
            t = self.win_table(self.names[self.game_index])
            if t is not None:
                return winnable.nth_seed(t.BITS, t.FIRST, t.COUNT, n)
        return n

    def in_progress(self):
        """A game the player has started (a move made) and not finished or left."""
        table = self.table
        return (table is not None and not self.counted and table.move_count > 0
                and table.game.status() == PLAYING)

    def leave(self):
        """The player leaves the current game: unfinished, it counts as a loss."""
        if self.in_progress():
            i = self.game_index
            self.played[i] += 1
            self.streak[i] = 0
            self.left += 1
        self.counted = True
        self.resumable = False

    def ask(self, action, back):
        """Do a leaving action (A_*) at once when no game is in progress, else confirm first."""
        if self.in_progress():
            self.confirm_action = action
            self.confirm_back = back
            self.go(CONFIRM)
            return
        self.do(action)

    def do(self, action):
        self.leave()
        if action == A_LINK:
            self.open_link()
        elif action == A_RESTART:
            self.start_game(self.table.game.seed)
        elif action == A_NEW:
            self.game_index = self.pending_game
            self.start_game(self.random_seed())
        elif action == A_SEED:
            self.game_index = self.pending_game
            self.start_game(self.seed())
        else:
            self.go(TITLE)
            self.selected = self.title_index(T_CHOOSE)

    def press_confirm(self, button):
        if button == bt.A:
            self.do(self.confirm_action)
        elif button == bt.B or button == bt.START:
            back = self.confirm_back
            self.go(back)
            if back == CHOOSE or back == TITLE:
                self.selected = self.confirm_row()  # the row that asked (New game, Link play)

    def confirm_row(self):
        """The row chosen on the screen the confirmation asks from (drawn beneath its panel)."""
        back = self.confirm_back
        action = self.confirm_action
        if back == TITLE:
            return self.title_index(T_LINK if action == A_LINK else T_NEW)
        if back == CHOOSE:
            return self.pending_game
        if action == A_RESTART:
            return _P_RESTART
        return _P_NEW if action == A_NEW else _P_QUIT

    def title_index(self, item):
        """The row of a title item (T_*): Continue is shown only when a game waits."""
        return item if self.resumable else item - 1

    def press_title(self, button):
        n = self.menu_length()
        if button == bt.UP:
            self.selected = (self.selected + n - 1) % n
        elif button == bt.DOWN:
            self.selected = (self.selected + 1) % n
        elif button == bt.A or button == bt.START:
            item = self.selected if self.resumable else self.selected + 1
            if item == T_CONTINUE:
                self.resume()
            elif item == T_NEW:
                self.pending_game = self.game_index
                self.ask(A_NEW, TITLE)
            elif item == T_CHOOSE:
                self.go(CHOOSE)
                self.selected = self.game_index
            elif item == T_STATS:
                self.back_mode = TITLE
                self.go(STATS)
            elif item == T_SETTINGS:
                self.back_mode = TITLE
                self.go(SETTINGS)
            elif item == T_LINK:
                self.ask(A_LINK, TITLE)
            return
    def configure_computer(self, game):
        """The computer players' level and speed from the settings, where the game has them."""
        game.set_computer(self.settings[S_LEVEL] + 1, self.settings[S_SPEED])

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
        if self.mode == TITLE:
            n = 5 if self.resumable else 4
            return n + 1 if self.link is not None else n
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
                self.selected = self.title_index(T_CHOOSE)
            elif self.mode == PAUSE:
                self.resume()
            else:
                self.go(self.back_mode)
                if self.back_mode == PAUSE:
                    self.selected = _P_SETTINGS
                elif self.back_mode == TITLE:
                    self.selected = self.title_index(T_SETTINGS)
        elif self.mode == SETTINGS and (button == bt.LEFT or button == bt.RIGHT or button == bt.A):
            self.change_setting(-1 if button == bt.LEFT else 1)
        elif (button == bt.X or button == LONG_A) and self.mode == CHOOSE:
            # a deal by its number (a long A on boards without X)
            self.pending_game = self.selected
            self.go(DEAL)
        elif button == bt.A:
            if self.mode == CHOOSE:
                self.pending_game = self.selected
                self.ask(A_NEW, CHOOSE)
            elif self.mode == PAUSE:
                self.choose_pause(self.selected)

    def choose_pause(self, item):
        table = self.table
        if item == _P_RESUME:
            self.resume()
        elif item == _P_HINT:
            self.resume()
            table.press_hint()
        elif item == _P_UNDO:
            self.resume()
            table.press_undo()
        elif item == _P_REDO:
            self.resume()
            table.press_redo()
        elif self.linked() and (item == _P_RESTART or item == _P_NEW):
            self.resume()
            table.say(why.LINK_NOT_HERE)  # both consoles play the one deal
        elif item == _P_RESTART:
            self.ask(A_RESTART, PAUSE)
            self.selected = 0
        elif item == _P_NEW:
            self.pending_game = self.game_index
            self.ask(A_NEW, PAUSE)
            self.selected = 0
        elif item == _P_RULES:
            self.back_mode = PAUSE
            self.go(RULES)
        elif item == _P_SETTINGS:
            self.back_mode = PAUSE
            self.go(SETTINGS)
        elif self.linked():
            self.leave_link()
            self.go(TITLE)
        else:
            self.ask(A_QUIT, PAUSE)

    def resume(self):
        self.mode = PLAY
        self.full = True
        if self.table.game.status() != PLAYING:
            self.mode = END

    def change_setting(self, delta):
        i = self.selected
        n = SETTING_CHOICES[i]
        self.settings[i] = (self.settings[i] + n + delta) % n
        if i == S_BACK or i == S_SLIDE:
            self.apply_settings()
        self.drawn_selected = -1  # the value changed: redraw the row

    def apply_settings(self):
        """Carry out what settings change beyond their own value: the card back's colours and
        the slide on the table in play. The Console calls it after setting them all from the
        records at power-on; the other settings are read where they act (a deal, a press, a
        frame, a sound)."""
        colours = pal.BACKS[self.settings[S_BACK]]
        c = colours[0]
        self.screen.set_colour(pal.BACK, c[0], c[1], c[2])
        c = colours[1]
        self.screen.set_colour(pal.BACK_LIGHT, c[0], c[1], c[2])
        if self.table is not None:
            self.table.slide_on(self.settings[S_SLIDE])

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
            self.ask(A_SEED, DEAL)
            return
        elif button == bt.B:
            self.go(CHOOSE)  # the seed screen is opened from the game list
            self.selected = self.pending_game
            return
        self.drawn_selected = -1

    def type_digit(self, digit):
        """A digit 0..9 typed on a keyboard (the simulator's, the web page's). The deal screen
        takes it: typed digits make the number from the right, the first one since the screen
        opened replacing the number shown. Other screens have no number to enter. (The deal
        screen has no menu: its `selected`, 0 when it opens, is 1 once a digit is typed.)"""
        if self.mode != DEAL:
            return
        value = self.seed() if self.selected else 0
        self.set_seed((value * 10 + digit) % 10000000)  # SEED_DIGITS digits
        self.selected = 1
        self.seed_pos = SEED_DIGITS - 1
        self.drawn_selected = -1
        self.redraw()

    def press_rules(self, button):
        if button == bt.DOWN or button == NEXT:
            self.scroll += 1
        elif button == bt.UP and self.scroll > 0:
            self.scroll -= 1
        elif button == bt.B or button == bt.A or button == bt.START or button == bt.SELECT:
            back = self.back_mode
            self.go(back)
            if back == PAUSE:
                self.selected = _P_RULES
            elif back == PLAY:
                self.resume()
            elif back == TITLE:
                self.selected = self.title_index(T_STATS)
            return
        self.full = True

    def deal_next(self):
        """The match goes on: play its next game's deal, when it is this console's to make now.
        True when dealt."""
        table = self.table
        if self.linked():
            table.cached_n = -1  # whose deal it is changes with the link, not the journal
        n = table.legal_moves()
        for i in range(n):
            if table.moves[i] >> 16 == ACTION:
                self.note_scores()
                table.play(table.moves[i])
                self.counted = self.link_game()
                self.mode = PLAY
                self.full = True
                return True
        return False

    def press_end(self, button):
        if button == bt.A:
            if self.deal_next():
                return
            if self.linked() and self.next_deal_waits():
                if self.deals_next():
                    self.link.deal_asked = True  # dealt as soon as both consoles have the round's end
                return
            if self.link_game():
                self.leave_link()
                self.go(TITLE)
                return
            self.start_game(self.random_seed())
        elif button == bt.Y and not self.linked():
            self.table.press_undo()  # take back the last move and play on
            self.mode = PLAY
            self.full = True
        elif (button == bt.B or button == bt.START) and self.link_game():
            self.leave_link()
            self.go(TITLE)
        elif button == bt.B or button == bt.START:
            self.go(CHOOSE)
            self.selected = self.game_index

    # --- drawing ---

    def open_game(self, name, seed):
        """Straight into play (the simulator's and tools' --game): no menus on the way."""
        for i in range(len(self.names)):
            if self.names[i] == name:
                self.game_index = i
                self.pending_game = i
                self.set_seed(seed)
                self.start_game(seed)
                self.redraw()
                return
        raise ValueError("no game with a layout named " + name)
