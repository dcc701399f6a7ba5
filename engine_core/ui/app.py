"""The console: its screens (title, game list, deal number, play, pause menu, rules,
statistics, settings, end, confirmation, link play), what they share (the settings, the
statistics, the games' tables) and the games' course (a deal, its end, leaving it). `press`
and `tick` are all the firmware and the simulator call.

Each screen is an object made once here (screens.py: menus.py, pages.py, linkplay.py), the
App holding the one shown; link play is an object too (linkplay.Link, the App's `link`),
made by attach_link on a console that has a link. A game's objects (the game and its table) are made the first
time it is chosen and kept; from then on every keypress and redraw works in preallocated
memory. table.py and view.py are play.
"""

from array import array

from engine_core import PLAYING, WON, games, rng
from engine_core.ai import winnable
from engine_core.game import ACTION
from engine_core.gfx import palette as pal
from engine_core.gfx.paint import painter_for
from engine_core.ui import buttons as bt
from engine_core.ui import layouts
from engine_core.ui import settings as st
from engine_core.ui import texts
from engine_core.link.messages import CLOCK_MASK
from engine_core.reasons import PLAYING_OUT
from engine_core.ui.linkplay import Link, LinkAsk, LinkLeft, LinkScreen, draw_notice
from engine_core.ui.menus import GameList, Pause, SettingsMenu, Title
from engine_core.ui.pages import Confirm, Deal, End, Play, Rules
from engine_core.ui.stats import Stats
from engine_core.ui.screens import (A_GIVE_UP, A_LEAVE, A_NEW, A_RESTART, A_SEED, CHOOSE, CONFIRM,  # noqa: F401
                                    DEAL, END, LINK, LINK_ASK, LINK_LEFT, LONG_A, LONG_X, NEXT, P_GIVE_UP, P_HINT,
                                    P_NEW, P_REDO, P_RESTART, P_RESUME, P_RULES, P_SETTINGS, P_TITLE, P_UNDO, PAUSE,
                                    PLAY, RULES, SEED_DIGITS, SETTINGS, STATS, T_CHOOSE, T_CONTINUE, T_LINK, T_NEW,
                                    OVER_ON, OVER_READY, T_SETTINGS, T_STATS, TITLE, two_buttons)
from engine_core.ui.settings import (S_AUTOPLAY, S_BACK, S_CASKET_RULES, S_JOKERS, S_LEVEL,  # noqa: F401
                                     S_PLAYERS, S_SLIDE, S_SOUND, S_SPEED, S_TARGET, S_TWO_BUTTONS, S_WINNABLE)
from engine_core.ui.table import NONE, SOUND_DEAL, SOUND_LOST, SOUND_WON, Table
from engine_core.undo_record import ANY_MOVE

from micropython import const

E_DEALT = const(1)  # App.events: a new deal, a game given up, a setting changed, a game kept
E_LEFT = const(2)
E_SETTING = const(4)
E_KEPT = const(8)  # the game kept at the title or set aside for link play: saved now
DEFER_A = const(1 << 4)  # App.defers(): bt.mask(bt.A), bt.mask(bt.B), bt.mask(bt.X)
DEFER_B = const(1 << 5)
DEFER_X = const(1 << 6)
DPAD = const(0x0F)  # bt.mask(bt.UP) | .. | bt.mask(bt.RIGHT)
GUARD_MS = const(800)  # a question that came without a key takes no answer this long
MAKE_AHEAD_MS = const(200)  # a game chosen this long in the game list has its table made (make_ahead)
WIN_TABLES: dict = {}  # game name -> its winnable-deal table module (or None), once asked for


class App:
    def __init__(self, screen, names=None, two_buttons=False, laid_out=False):
        """screen: a gfx Screen. names: the games to offer (default: every game built in
        that has a layout). two_buttons: the board has only A and B (docs/screen.md).
        laid_out: every one of `names` is built in and has a layout: their modules are not
        imported to list them (a game's module is imported when first asked for)."""
        self.screen = screen
        self.fb = screen.fb
        self.painter = painter_for(screen)
        self.width = screen.width
        self.height = screen.height
        if not layouts.has_layout(screen.width, screen.height):
            raise ValueError("no layout for a %dx%d screen: the sizes are %s"
                             % (screen.width, screen.height, layouts.size_names()))
        self.size = layouts.screen_class(screen.width, screen.height)
        if names is None:
            names = games.available()
        self.names = []
        for name in names:
            if laid_out or layouts.declaration(name) is not None:
                self.names.append(name)
        self.tables = {}
        self.table = None
        self.game_index = 0
        # One object per screen, by number (screens.py), and the one shown.
        self.deal_screen = Deal()  # the deal number being entered
        self.confirm_screen = Confirm()  # what it asks about, and where B returns to
        self.screens = (Title(), GameList(), self.deal_screen, Play(), Pause(), Rules(), SettingsMenu(), End(),
                        Stats(), self.confirm_screen, LinkScreen(), LinkLeft(), LinkAsk())
        self.current = self.screens[TITLE]
        self.back_mode = TITLE  # where rules, settings and statistics return to
        self.pending_game = 0  # the game a new deal (A_NEW, A_SEED) is of
        self.resumable = False  # a game waits (kept, or saved at power-off): the title offers Continue
        self.aside = None  # the table of the game link play set aside (set_aside)
        self.selected = 0
        self.drawn_selected = -1
        self.scroll = 0
        self.full = True
        self.settings = bytearray(st.COUNT)  # each setting's choice (settings.py)
        for i in range(st.COUNT):
            self.settings[i] = st.SETTINGS[i][st.DEFAULT]
        self.settings[S_TWO_BUTTONS] = 1 if two_buttons else 0
        self.played = array("i", [0] * len(self.names))
        self.won = array("i", [0] * len(self.names))
        self.streak = array("i", [0] * len(self.names))
        self.best = array("i", [0] * len(self.names))  # the best winning streak
        self.left = 0  # unfinished games the player gave up (each counts as a loss)
        self.start_scores = array("i", [0] * 4)  # each player's score when this game began
        self.counted = False  # the current game's end is already in the statistics
        self.deals = 0  # games dealt so far (the web page's link to the deal follows it)
        self.events = 0  # what happened since the console last took them (E_*)
        self.clock = 0
        self.sound_event = 0  # a sound to play (table.SOUND_*), until the loop takes it (take_sound)
        self.noise = 12345
        self.link = None  # link play, on a console that has a link (attach_link)
        self.keys_held = 0  # the buttons held down now (bit i: button i), when the host says
        self.guard_ms = 0  # a question that came without a key: how long its answers wait yet
        self.guard_keys = 0  # and the buttons that were held when it came (their press is not an answer)
        self.picked = False  # the last press was A in play and picked a card up (held_on)
        self.no_x = False  # a board without X: a long A stands for it (set_buttons)
        # The rules pages' keys, in the board's buttons: the words, or set_buttons's (mask,
        # stand-ins) until they are first shown (keys_text).
        self.rules_keys: object = texts.RULES_KEYS
        self.table_drawn = False  # show(): the framebuffer holds the table as it stands
        self.table_later = False  # show(): the pause menu's table waits for the frame after its panel
        self.settings_locked = False  # the kiosk's title: Settings is shown locked (console.py)
        self.answering = False  # a press came since the last tick: its frame is not an idle one
        # The panel over the table (over_at): x, y, w, h, then OVER_ON (it is there) and
        # OVER_READY (show(): the new screen's first drawing may use it, once).
        self.over = array("h", [0, 0, 0, 0, 0, 0])
        self.ahead = -1  # the game (its index in names) whose table make_ahead made, not yet dealt
        self.ahead_table: "Table | None" = None  # the table deal_ahead dealt A's next deal on,
        self.ahead_seed = -1  # its number,
        self.ahead_rules = -1  # the rule profile it was dealt under,
        self.ahead_fresh = -1  # and for a fresh number the 'winnable only' setting it was drawn
        # under (-1: the deal screen's number)
        self.ahead_drawn: "Table | None" = None  # that table drawn ahead, its frame in screen.kept
        self.redraw()

    # --- input ---

    def press(self, button, long_press=False):
        """One debounced button event from the board: a press (long_press False), a long press
        instead of it (True: a button defers() named), or bt.HELD_ON: a press already taken on
        its edge is still held (in play, A: the card it picked up goes home)."""
        self.noise = rng.step((self.noise & 0xFFFFFF) + self.clock + button + 1)
        self.answering = True
        if long_press == bt.HELD_ON:
            self.held_on(button)
            return
        self.picked = False
        if self.guarded(button):
            return
        if self.settings[S_TWO_BUTTONS]:
            table = self.table
            button = two_buttons(button, long_press, self.current.MODE == PLAY,
                                 table is not None and table.held != NONE)
        elif long_press and button == bt.A:
            button = LONG_A
        elif long_press and button == bt.X and self.current.MODE == PLAY:
            button = LONG_X  # elsewhere a long X is X
        if button < 0:
            return
        table = self.table
        if table is not None and table.hint_after:
            table.seek_hint()  # a key before the frame that seeks the hint X asked for: first the hint
        if button == bt.A and table is not None and self.current.MODE == PLAY and table.hand.held == NONE:
            self.current.press(self, button)
            self.picked = table.hand.held != NONE
        else:
            self.current.press(self, button)
        self.redraw()
        self.collect_sound()

    def before_press(self, button, long_press):
        """True when this press plays out the computer's turn shown move by move
        (Table.finish_computer: in play any key but START, SELECT and a short X, or but START
        once X's hint waits to be sought; on two buttons A, or a short B with the hint waiting;
        in the pause menu A on Undo or Redo), with the strip that says so drawn over the screen
        as it stands: the loop sends it before the press's work, which may take a Pico some 60 ms
        (docs/performance.md). No allocation."""
        table = self.table
        if table is None or table.computer_ms <= 0:
            return False
        mode = self.current.MODE
        if mode == PAUSE:
            if button != bt.A or long_press or (self.selected != P_UNDO and self.selected != P_REDO):
                return False
            draw_notice(self, PLAYING_OUT)
            return True
        if mode != PLAY:
            return False
        if self.settings[S_TWO_BUTTONS]:
            if button != bt.A and not (button == bt.B and not long_press and table.hint_after):
                return False  # (B steps, a long B is START; the other buttons are no keys there)
        elif button == bt.START or not table.hint_after and (button == bt.SELECT or button == bt.X and not long_press):
            return False  # (START's pause menu lies over the table as it is on the glass)
        table.say_now(PLAYING_OUT)
        if table.view.slide & 0xFF:
            # The card on its way lands, as the press lands it, and is taken off now, as the
            # next frame would (the strip's going then redraws no more than the strip)
            table.view.stop_slide()
            table.frame(0)
        self.redraw()
        return True

    def held_on(self, button):
        """A, held on in play after its press picked a card up: that card goes home where it
        fits (Table.press_long_a, from the pile it was picked from), or back with the reason."""
        table = self.table
        if not self.picked or button != bt.A or self.current.MODE != PLAY or table is None:
            return
        self.picked = False
        hand = table.hand
        if hand.held == NONE:
            return
        hand.cursor = hand.held  # (after a hint the pick-up moved the cursor on)
        hand.cursor_index = hand.held_index
        table.press_long_a()
        self.redraw()
        self.collect_sound()

    def set_buttons(self, has, long_as=()):  # subset: ok (start-up: the board, told once)
        """The board's buttons, told by the host at start-up: `has`, the mask of those it has
        (bt.mask), and `long_as`, its long presses standing for buttons it lacks ((held,
        reported) pairs, a board module's LONG_AS). Without a D-pad A and B do everything (the
        two-button scheme); without X (not even a long press for it) a long A stands for X where
        it must (no_x); the rules pages name only the presses the board has (texts.rules_keys)."""
        stand_in = bytearray(b"\xff" * bt.COUNT)  # button -> the held button standing for it
        for held, reported in long_as:
            stand_in[reported] = held
        if has & DPAD != DPAD:
            self.settings[S_TWO_BUTTONS] = 1
        self.no_x = not has & bt.mask(bt.X) and stand_in[bt.X] == 255
        self.rules_keys = (has, stand_in)  # the words made when the rules are first shown

    def keys_text(self):
        """The rules pages' keys paragraph for the board's buttons: made when first shown, not
        at start-up, where its 330 bytes would be the heap's for good whether or not the rules
        are ever read (a board with every button shows texts.RULES_KEYS, in flash). Played
        with two buttons (the setting), the two-button paragraph alone, as on a board without
        a D-pad."""
        if self.settings[S_TWO_BUTTONS]:
            return texts.KEYS_TWO
        told = self.rules_keys
        if isinstance(told, tuple):
            made = texts.rules_keys(told[0], told[1])
            self.rules_keys = texts.RULES_KEYS if made == texts.RULES_KEYS else made
        return self.rules_keys

    def defers(self):
        """The buttons whose press waits for its release, or for its long hold, on this
        screen: those to which it gives a long meaning of their own (docs/screen.md, "When a
        press acts"). Every other button acts on the edge that presses it."""
        mode = self.current.MODE
        if self.settings[S_TWO_BUTTONS]:
            # Long B is START in play and B elsewhere; long A cancels a held card.
            if mode == PLAY:
                table = self.table
                return DEFER_B | DEFER_A if table is not None and table.hand.held != NONE else DEFER_B
            return DEFER_B | DEFER_A if mode == CHOOSE or mode == DEAL else DEFER_B
        if mode == PLAY:
            return DEFER_X  # X is the hint, long X redo
        if self.no_x and (mode == CHOOSE or mode == DEAL):
            return DEFER_A  # long A: X's meaning there
        return 0

    def collect_sound(self):
        """Keep the table's latest sound as the sound event (when sound is on), for take_sound."""
        table = self.table
        if table is not None and table.sound:
            if self.settings[S_SOUND]:
                self.sound_event = table.sound
            table.sound = 0

    def take_sound(self):
        """The sound event, taken: it is returned and cleared (0: none)."""
        sound = self.sound_event
        self.sound_event = 0
        return sound

    def take_events(self):
        """What happened since the last call (E_DEALT, E_LEFT, E_SETTING), taken: the Console
        asks after every press and tick."""
        events = self.events
        self.events = 0
        return events

    def tick(self, ms):
        """Time passes: shakes settle, computer players act."""
        self.clock = (self.clock + ms) & CLOCK_MASK  # the link compares times modulo this
        self.guard_keys &= self.keys_held  # a key let go: its next press may answer
        if self.guard_ms > 0:
            self.guard_ms -= ms
            if self.guard_ms <= 0:
                self.guard_ms = 0
                if self.current.MODE != END:  # (the end panel looks the same either way)
                    self.full = True  # the answers are live: drawn so
                    self.redraw()
        link = self.link
        if link is not None and link.in_use(self.current.MODE):
            link.tick(self)
            if self.full:
                self.redraw()  # the link changed the screen: a status, the table, a panel
            if link.paused():
                self.redraw()  # the table's line says the link is silent; its clock stands
                if self.current.MODE != PLAY:
                    draw_notice(self)  # and so does every other screen
                self.answering = False
                return
            if link.playing() and self.current.MODE != PLAY and self.table is not None:
                self.table.game.tick(ms)  # the shared clock runs under a menu or the end panel
        self.current.tick(self, ms)
        self.answering = False

    @property
    def mode(self):
        """The number of the screen shown (screens.py: TITLE, PLAY ...)."""
        return self.current.MODE

    @mode.setter
    def mode(self, mode):
        self.current = self.screens[mode]

    def question(self, mode):
        """Show a screen that asks (an offer, "the other console left") though no key was
        pressed: its answers wait GUARD_MS, and a button held as it came answers nothing (the
        A meant for the cards is not a yes)."""
        self.go(mode)
        self.guard_ms = GUARD_MS
        self.guard_keys = self.keys_held

    def guarded(self, button):
        """A press a question that came without a key does not take: during its guard time, or
        of a button already held when it came (that button's press is used up by it)."""
        if self.guard_ms == 0 and self.guard_keys == 0:
            return False
        mode = self.current.MODE
        if mode != LINK_ASK and mode != LINK_LEFT and mode != END:
            self.guard_ms = 0
            self.guard_keys = 0
            return False
        bit = 1 << button if 0 <= button < bt.COUNT else 0
        if self.guard_keys & bit:
            self.guard_keys &= ~bit
            return True
        return self.guard_ms > 0

    def over_at(self, x, y, w, h):
        """A panel was drawn over the table at x, y, w, h (the pause menu, its questions): the
        rest of the glass shows the table as its view drew it, and the next screen over the
        table, or play, draws the table again only there (screens.table_under), in its first
        drawing (show: any later whole redraw draws everything, as over a glass of junk)."""
        o = self.over
        o[0] = x
        o[1] = y
        o[2] = w
        o[3] = h
        o[OVER_ON] = 1

    def answers_live(self):
        """The question shown takes answers now (its guard time is over)."""
        return self.guard_ms == 0

    def show(self, mode):
        """Show a screen as it was left (its selection kept), drawn whole. Back on the title
        from link play, the game it set aside comes back (Continue)."""
        if mode != DEAL and mode != CHOOSE and mode != CONFIRM:
            self.ahead_table = None  # a deal made ahead is A's on those screens alone
        if self.screen.kept_ok and not (mode == PLAY and self.current.MODE == PAUSE):
            self.screen.kept_ok = False  # the table the pause menu kept is for play alone
        # The table is on the glass as it stands (play drawn whole, nothing changed since): the
        # pause menu's panel then goes over it without drawing the table again.
        self.table_drawn = (self.current.MODE == PLAY and mode == PAUSE and not self.full
                            and self.table is not None and self.table.on_glass())
        # Back to the pause menu from a page over the whole screen: the menu's panel comes in
        # the press's frame, on the felt, and the table around it in the next (Pause.tick).
        # (Not in link play, whose pause menu draws the table under it as ever: table_under.)
        self.table_later = (mode == PAUSE and (self.current.MODE == RULES or self.current.MODE == SETTINGS)
                            and not self.link_in_use())
        # A panel over the table: the next screen over it, or play, draws the table only there.
        o = self.over
        o[OVER_READY] = 1 if o[OVER_ON] and (mode == PLAY or mode == PAUSE or mode == CONFIRM) else 0
        o[OVER_ON] = 0
        self.current = self.screens[mode]
        self.full = True
        table = self.aside
        if mode == TITLE and table is not None:
            self.aside = None
            name = table.game.NAME
            self.tables[name] = table  # a linked table of the same game is garbage now
            self.table = table
            self.game_index = self.names.index(name)
            if self.link is not None:
                self.link.unlink()
            self.counted = False
            self.note_scores()  # (the linked game noted its own)
            self.resumable = True

    def go(self, mode):
        """Open a screen afresh: its first row selected, scrolled to the top."""
        self.show(mode)
        self.selected = 0
        self.scroll = 0

    def redraw(self):
        self.current.draw(self)
        self.full = False

    def menu_length(self):
        """Rows of the menu on the screen shown."""
        return self.current.length(self)

    # --- a game's course ---

    def finish(self):
        """The game has ended: count it and show the end panel."""
        table = self.table
        i = self.game_index
        if table is not None:
            table.land()
        if table is not None and not self.counted:
            self.counted = True
            self.played[i] += 1
            if self.player_won():
                self.won[i] += 1
                self.streak[i] += 1
                if self.streak[i] > self.best[i]:
                    self.best[i] = self.streak[i]
                table.sound = SOUND_WON
            else:
                self.streak[i] = 0
                table.sound = SOUND_LOST
        self.show(END)

    def player_won(self):
        """Did the player (p1, or the console's seat in link play) win the game just ended?
        In a match, the one whose score grew most during this game won it."""
        table = self.table
        if table is None:
            return False
        game = table.game
        if game.status() == WON:
            return True
        if not game.COMPETITIVE:
            return False
        seat = table.seat
        mine = game.score(seat) - self.start_scores[seat]
        for k in range(game.players):
            if k != seat and game.score(k) - self.start_scores[k] >= mine:
                return False
        return mine > 0

    def note_scores(self):
        """Each player's score as the game in play began (player_won): at a deal, and for a
        game resumed or taken back from aside, now, as its scores change only when it ends."""
        if self.table is None:
            return
        game = self.table.game
        for k in range(game.players):
            self.start_scores[k] = game.score(k)

    def start_game(self, seed):
        """Deal the chosen game, played here against the computer (open_table)."""
        table = self.open_table(self.names[self.game_index])
        self.table = table
        if self.ahead == self.game_index:
            self.ahead = -1  # dealt now: kept, as every table played
        if table.seat != 0 or table.linked():
            table.set_seat(0, None)  # the last game on this table was a linked one
        if self.link is not None:
            self.link.unlink()
        self.configure_computer(table.game)
        self.configure_rules(table.game)
        table.slide_on(self.settings[S_SLIDE])
        table.game.bots = True
        dealt = self.ahead_table
        drawn = False
        if dealt is None or dealt is not table or seed != self.ahead_seed or dealt.game.rules != self.ahead_rules:
            table.game.deal(seed)  # (else deal_ahead dealt it: 3-4 ms of a Pico's frame spared)
        else:
            drawn = self.ahead_drawn is table
        if drawn:  # make_ahead drew it too: its frame back whole, to be sent as it is
            screen = self.screen
            screen.buf[:] = screen.kept  # (ahead_drawn: a screen that keeps a copy)
            screen.mark_all()
        else:
            table.new_game()
        table.sound = SOUND_DEAL
        self.note_scores()
        self.deals += 1
        self.events |= E_DEALT
        self.counted = False
        self.resumable = False
        self.show(PLAY)
        if drawn:
            self.full = False  # (the frame is whole: play draws only what changes from here)

    def open_table(self, name, opts=-1, players=0):
        """The game's table, made on its first deal, and again only when the jokers, target or
        Nerts players settings (or a linked table's options, opts, and its players) changed
        since: the game takes them when made. The players are the setting's where the game has
        a layout for that many (layouts.declaration), else the layout's own."""
        table = self.tables.get(name)
        if opts < 0:
            opts = games.options(self.settings[S_JOKERS] == 1, st.target_score(self.settings[S_TARGET]))
        decl = layouts.declaration(name, players or st.nerts_players(self.settings[S_PLAYERS]), self.size)
        players = decl.get("players", 0)
        if table is None or table.game.options != opts or (players and table.game.players != players):
            self.tables[name] = None  # the old game is garbage now (no gc.collect() here: on
            self.table = None  # the WebAssembly build a collection inside nested calls
            table = None  # misses pointers held in wasm locals and frees live objects)
            self.ahead_table = None
            cls = games.load(name)
            game = cls(players or cls.MIN_PLAYERS, opts)
            table = Table(self.painter, game, decl, self.size, games.title(name))
            self.tables[name] = table
        return table

    def make_ahead(self, rested_ms, ms):
        """A screen whose A deals a game (chosen_game) calls this each frame with how long its
        choice has stood (rested_ms, counted by the screen): once that reaches MAKE_AHEAD_MS in
        a frame that answers no press, the game's table is made, if it has none, so that A only
        deals (idle.py counts the console busy until it is). Making one costs a Pico as much as
        the deal and its drawing together; the cursor passing over a game on its way makes
        nothing. Returns the time the choice has stood."""
        chosen = self.chosen_game()
        if self.answering or chosen < 0:
            return 0
        if rested_ms < MAKE_AHEAD_MS:
            rested_ms += ms
        name = self.names[chosen]
        undealt = self.undealt_ahead() if rested_ms >= MAKE_AHEAD_MS else None
        if undealt is not None:
            self.deal_ahead(undealt)
        elif rested_ms >= MAKE_AHEAD_MS and self.undrawn_ahead():
            # A screen that keeps a copy of its frame (160x128, 128x64, whose whole frame takes
            # 24-26 ms on the wire) has the deal drawn there too, in the next idle frame, and
            # its own frame drawn again over it, unsent (the glass shows it): A sends the table.
            table = self.ahead_table
            screen = self.screen
            kept = screen.kept
            if table is not None and kept is not None:  # (as undrawn_ahead says)
                table.slide_on(self.settings[S_SLIDE])
                table.new_game()  # as start_game does after the deal
                table.refresh()
                kept[:] = screen.buf
                self.full = True
                self.redraw()
                screen.clear_dirty()
                self.ahead_drawn = table
        elif rested_ms >= MAKE_AHEAD_MS and self.tables.get(name) is None:
            shown = self.table  # the table of another game (set aside, or the last played)
            ahead = self.ahead
            if ahead >= 0 and self.tables.get(self.names[ahead]) is not shown:
                self.tables[self.names[ahead]] = None  # made for a game passed over: let go
                self.ahead_table = None
            self.open_table(name).game.deal(0)  # dealt, as every table's game is (A deals afresh)
            self.table = shown
            self.ahead = chosen
        return rested_ms

    def undealt_ahead(self):
        """The table of the game A deals on the screen shown, made ahead, when it does not hold
        that deal yet: on the deal screen the number shown, on the game list a fresh number
        (do() deals it for A_NEW); else None. Never the table on show (a game kept or in
        progress stays as it is until A)."""
        mode = self.current.MODE
        if mode == DEAL:
            chosen = self.pending_game
        elif mode == CHOOSE:
            chosen = self.selected
        else:
            return None
        table = self.tables.get(self.names[chosen])
        if table is None or table is self.table or table.seat != 0:
            return None
        if table is self.ahead_table:
            if mode == CHOOSE and self.ahead_fresh == self.settings[S_WINNABLE]:
                return None
            if mode == DEAL and self.ahead_fresh < 0 and self.seed() == self.ahead_seed:
                return None
        return table

    def deal_ahead(self, table):
        """Deal on `table` (undealt_ahead's) what A would deal there, as start_game would, so that
        A only shows it (start_game deals again if the number or the rule profile changed since):
        the deal screen's number, or a fresh one drawn now, on the game list."""
        game = table.game
        self.configure_computer(game)
        self.configure_rules(game)
        game.bots = True
        if self.current.MODE == DEAL:
            seed = self.seed()
            self.ahead_fresh = -1
        else:
            seed = self.random_seed(self.selected)
            self.ahead_fresh = self.settings[S_WINNABLE]
        game.deal(seed)
        self.ahead_table = table
        self.ahead_drawn = None
        self.ahead_seed = seed
        self.ahead_rules = game.rules

    def chosen_game(self):
        """The game (an index into names) that A deals on the screen shown: the title's New
        game, the game list's row, the deal screen's game; -1 on any other screen or row."""
        mode = self.current.MODE
        if mode == TITLE:
            return self.game_index if self.title_item() == T_NEW else -1
        if mode == CHOOSE:
            return self.selected
        if mode == DEAL:
            return self.pending_game
        return -1

    def title_item(self):
        """The title's row under the cursor, as T_CONTINUE .. T_LINK (Continue shows only when
        a game can be resumed)."""
        return self.selected if self.resumable else self.selected + 1

    def table_wanted(self):
        """The screen shown has a game chosen (chosen_game) whose table make_ahead makes, deals
        or draws."""
        chosen = self.chosen_game()
        return chosen >= 0 and (self.tables.get(self.names[chosen]) is None or self.undealt_ahead() is not None
                                or self.undrawn_ahead())

    def undrawn_ahead(self):
        """The deal made ahead for the screen shown is not drawn ahead yet, on a screen that
        keeps a copy of its frame (Screen.kept) with nothing waiting to be sent."""
        table = self.ahead_table
        chosen = self.chosen_game()
        return (table is not None and chosen >= 0 and table is self.tables.get(self.names[chosen])
                and self.ahead_drawn is not table and self.screen.kept is not None
                and self.screen.dirty_count == 0 and self.undealt_ahead() is None)

    def configure_rules(self, game):
        """The rule profile a new deal plays, where the game has more than one (Casket's setting,
        for a game with RULES_SETTING). A resumed game keeps the profile it was saved under."""
        if games.has_flag(game.NAME, games.RULES_SETTING):
            game.set_rules(st.casket_profile(self.settings[S_CASKET_RULES]))

    def win_table(self, name):
        """The game's table of proven-winnable deals (engine_core/ai/winnable.py), or None;
        imported once, when first asked for (the process's cache of them: WIN_TABLES)."""
        t = WIN_TABLES.get(name, 0)
        if t == 0:
            t = winnable.table(name)
            WIN_TABLES[name] = t
        return t

    def fresh_number(self):
        """A number 0..9999999 from the buttons' timing (a fresh deal's seed)."""
        self.noise = rng.step((self.noise & 0xFFFFFF) + self.clock + 7)
        return self.noise % 10000000

    def noise_number(self):
        return self.noise % 10000000  # the last fresh_number (the deal screen's X: a random one)

    def random_seed(self, index=-1):
        """A fresh deal for the chosen game (or the game `index` of names): any seed, or with
        'winnable only' on (for a game with a table) one the solver proved can be won."""
        n = self.fresh_number()
        if self.settings[S_WINNABLE]:
            t = self.win_table(self.names[self.game_index if index < 0 else index])
            if t is not None:
                return winnable.nth_seed(t.BITS, t.FIRST, t.COUNT, n)
        return n

    def in_progress(self):
        """A game the player has started (a move made) and not finished or left."""
        table = self.table
        return (table is not None and not self.counted and table.move_count > 0
                and table.game.status() == PLAYING)

    def leave(self):
        """The player gives up the current game: unfinished, it counts as a loss."""
        if self.in_progress():
            i = self.game_index
            self.played[i] += 1
            self.streak[i] = 0
            self.left += 1
            self.events |= E_LEFT
        self.counted = True
        self.resumable = False

    def keep(self):
        """To the title with the game kept: Continue brings it back, nothing is counted (a
        linked game is left: link play gives back the game it set aside)."""
        if self.linked():
            self.leave_link()
        else:
            table = self.table
            self.resumable = (table is not None and not self.counted and table.game.status() == PLAYING
                              and not self.link_game())
            self.events |= E_KEPT
        self.go(TITLE)

    def set_aside(self):
        """Link play opens over this console's own unfinished game: it is not lost. Its record
        stays in storage (E_KEPT: the Console saves it now) and its table out of the linked
        game's way (open_table makes that afresh when it is the same game); back on the title
        (show) it is offered again. Nothing is counted."""
        table = self.table
        if table is not None and not self.counted and not self.link_game() and table.game.status() == PLAYING:
            self.aside = table
            self.tables[table.game.NAME] = None
            self.events |= E_KEPT
        self.resumable = False

    def ask(self, action, back):
        """Do an action that gives up the game (A_*) at once when no game is in progress, else
        confirm first (leaving a linked game played on alone, A_LEAVE: always)."""
        if self.in_progress() or action == A_LEAVE:
            self.confirm_screen.ask(action, back)
            self.go(CONFIRM)
            return
        self.do(action)

    def do(self, action):
        if action == A_LEAVE:
            self.keep()  # not kept (a linked game is never saved) and counted nothing
            return
        self.leave()
        if action == A_RESTART and self.table is not None:
            self.start_game(self.table.game.seed)
        elif action == A_NEW:
            self.game_index = self.pending_game
            # The fresh number the game list dealt ahead (deal_ahead), drawn from the time its
            # row was chosen as random_seed draws one from the time of the press.
            table = self.ahead_table
            if (table is not None and self.ahead_fresh == self.settings[S_WINNABLE]
                    and table is self.tables.get(self.names[self.game_index])):
                self.start_game(self.ahead_seed)
            else:
                self.start_game(self.random_seed())
        elif action == A_SEED:
            self.game_index = self.pending_game
            self.start_game(self.seed())
        else:
            self.go(TITLE)
            self.selected = self.title_index(T_CHOOSE)

    def title_index(self, item):
        """The row of a title item (T_*): Continue is shown only when a game waits."""
        return item if self.resumable else item - 1

    def configure_computer(self, game):
        """The computer players' level and speed from the settings, where the game has them."""
        game.set_computer(self.settings[S_LEVEL] + 1, self.settings[S_SPEED])

    def seed(self):
        return self.deal_screen.value()  # the deal number on the deal screen

    def set_seed(self, value):
        self.deal_screen.set_value(value)

    def resume_game(self, game, moves, redo_moves, redo_n, undoable, cursor):
        """A game restored at power-on goes on its table as if just dealt, offered on the
        title (Continue): `moves` the moves counted, the `redo_n` moves of `redo_moves` the
        player had undone come back for redo, undo takes back the newest `undoable`
        (undo_record.ANY_MOVE: all; Spite & Malice: the turn under way) and the cursor goes
        back to `cursor` (slot << 8 | the card in a fan) when it names a slot of the player's
        on this table (else it stays at home, as after a deal). False when the game is not
        one of this console's."""
        name = game.NAME
        if name not in self.names:
            return False
        self.game_index = self.names.index(name)
        decl = layouts.declaration(name, game.players, self.size)  # a saved game keeps its own players
        table = Table(self.painter, game, decl, self.size, games.title(name))
        self.tables[name] = table
        self.table = table
        self.configure_computer(game)
        table.slide_on(self.settings[S_SLIDE])
        table.new_game()
        table.move_count = moves
        s = cursor >> 8
        if s < table.slots.count and not table.slots.how[s] & layouts.THEIRS:
            table.hand.point(s, cursor & 0xFF)  # a card past the fan's end: its top
        for i in range(redo_n):
            table.redo_moves[i] = redo_moves[i]
        table.redo_n = redo_n
        h = game.history
        if table.step_computer and undoable != ANY_MOVE:  # (older records: none)
            floor = h.moves - undoable if undoable < h.moves else 0
            table.undo_floor = floor | (h.clears & 0xFFFF) << 12
        self.set_seed(game.seed)
        self.counted = game.status() != PLAYING
        self.note_scores()  # (a match's scores change only as a game of it ends: these are its start)
        self.resumable = True
        self.go(TITLE)
        self.deals += 1
        self.redraw()
        return True

    # --- the settings ---

    def resume(self):
        """Back to the table (the end panel, when the game is over)."""
        table = self.table
        self.show(PLAY if table is not None and table.game.status() == PLAYING else END)

    def change_setting(self, delta, i):
        """Setting i steps delta choices on (the settings screen's row: SettingsMenu.setting)."""
        n = st.choices(i)
        self.settings[i] = (self.settings[i] + n + delta) % n
        self.events |= E_SETTING
        if i == S_BACK or i == S_SLIDE:
            self.apply_settings()
        if (i == S_LEVEL or i == S_SPEED) and self.table is not None and not self.link_game():
            # The game in play takes them now, as a resumed game does from the settings: a
            # restart then plays on as the game would have (a linked game keeps its own).
            self.configure_computer(self.table.game)
        self.drawn_selected = -1  # the value changed: redraw the row

    def setting_label(self, i):
        """The words of setting i's choice now."""
        return st.label(i, self.settings[i])

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

    def type_digit(self, digit):
        """A digit 0..9 typed on a keyboard (the simulator's, the web page's): the deal screen
        takes it (pages.Deal.type_digit); other screens have no number to enter."""
        if self.current.MODE != DEAL:
            return
        self.deal_screen.type_digit(self, digit)
        self.redraw()

    def deal_next(self):
        """The match goes on: play its next game's deal, when it is this console's to make now.
        True when dealt."""
        table = self.table
        if table is None:
            return False
        if self.linked():
            table.hand.cached_n = -1  # whose deal it is changes with the link, not the journal
        n = table.legal_moves()
        moves = table.hand.moves
        for i in range(n):
            if moves[i] >> 16 == ACTION:
                self.note_scores()
                table.play(moves[i])
                self.counted = self.link_game()
                self.show(PLAY)
                return True
        return False

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

    # --- link play (linkplay.Link says what it does) ---

    def attach_link(self, make_session, label, party=None):
        """Give the console a link: make_session() makes its Session over a transport (called
        once, when the player first opens Link play: a console that never links spends no memory
        on it, and a radio stays off until then); label says what the link is; party, a link
        that carries more than two consoles, its lobby (party.Party). Start-up only."""
        self.link = Link(make_session, label, self.names, party)
        self.full = True  # the title gains its Link play row
        self.redraw()

    def link_in_use(self):
        """The link is polled only while its screen is open or a game or a goodbye is under way."""
        return self.link is not None and self.link.in_use(self.current.MODE)

    def linked(self):
        """A game with the other console is on the table."""
        return self.link is not None and self.link.linked

    def link_game(self):
        """The game on the table began linked (it is not saved and not counted)."""
        return self.link is not None and self.link.began_linked

    def link_paused(self):
        return self.link is not None and self.link.paused()

    def open_link(self):
        if self.link is not None:
            self.link.open(self)

    def leave_link(self):
        if self.link is not None:
            self.link.leave(self.clock)

    def seat_linked(self, session):
        """The game both consoles agreed on goes on the table here, seen from this console's
        seat (linkplay.Link.start); not in the statistics, not saved."""
        name = session.game.NAME
        self.game_index = self.names.index(name)
        table = self.tables[name]
        self.table = table
        table.slide_on(self.settings[S_SLIDE])
        table.set_seat(session.my_seat, session)
        table.new_game()
        self.note_scores()
        self.counted = True
        self.resumable = False
