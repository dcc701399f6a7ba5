"""The interface with its records kept and, in kiosk mode, the attract demo around it.

Every host holds a Console (with its records in memory where there is no disk) and the
engine's loop drives it (engine_core/loop.py): press(), type_digit(), click(), held(), tick(),
take_sound(), idle() (sound_on(), whether a press clicks, is the device's Shell's). Around the App it
- at start(): loads settings, statistics and the game in progress (engine_core/save.py) and
  puts them into the App: a game switched off mid-play comes back where it was;
- after every press and tick: takes what the App says happened (App.events: a new deal, a
  game left unfinished, a changed setting) and what the game's journal shows (a move or an
  undo, the end of a game), and tells the Keeper (which saves once play pauses);
- shows the Keeper's notices (a damaged record, a full filesystem) in a strip at the foot of
  the screen for three seconds;
- in kiosk mode (the 'kiosk' setting): runs the Kiosk state machine (engine_core/kiosk.py):
  the demo when idle, back to the title after the idle time, the settings locked until the
  chord is held (hold it again in the service menu to reset settings and statistics).
The chord needs to know which buttons are held: the loop tells it every frame, held(mask)
(bit i for button i).
"""

from engine_core import PLAYING, games
from engine_core import kiosk as k
from engine_core import records as r
from engine_core.gfx import palette as pal
from engine_core.gfx.paint import CHAR_H, CHAR_W, LINE_H
from engine_core.save import Keeper
from engine_core.undo_record import ANY_MOVE
from engine_core.ui import app as ui
from engine_core.link.messages import S_IDLE
from engine_core.loop import LONG
from engine_core.ui.buttons import A, B, SELECT, START
from engine_core.ui.idle import console_idle
from engine_core.ui import settings as st
from engine_core.ui.overlay import count_lines, draw_lines
from engine_core.ui.slots import NONE

from micropython import const

NOTICE_RESET = "Settings and statistics reset"
NOTICE_MS = const(3000)  # how long a notice stays on screen
DUE_SETTINGS = const(1)  # Console.due: the settings to write on the next frame
DUE_KEPT = const(2)  # the game kept (at the title, or set aside for link play) to write
_DUE_WAIT = const(4)  # (the frame that put them off is not over yet)
_HELD_MS = const(1000)  # the longest presses in frame after frame hold the writes put off
SETTINGS_LOCKED = b"Settings are locked"  # the kiosk's pause menu: a visitor's A on Settings


class Console:
    def __init__(self, app, storage, kiosk_seed=1):
        self.app = app
        self.screen = app.screen  # what the board sends to the panel
        self.names = app.names
        self.settings = app.settings  # the same bytearray: the board reads the sound setting
        self.painter = app.painter
        self.keeper = Keeper(storage)
        self.kiosk = k.Kiosk(len(app.names), 90000, kiosk_seed)
        self.kiosk_on = False
        self.game = None  # the game the Keeper follows (None in the demo)
        self.demo = False
        self.held_mask = 0
        self.notice = b""  # the message on screen, as the painter takes it
        self.notice_ms = 0  # how much longer it stays
        self.due = 0  # writes put off to the next frame (DUE_*), and whether this frame put them
        self.held_ms = 0  # how long presses frame after frame have held writes put off
        self.done = False
        self.pointer = None  # engine_core/pointer.py, made at the first click

    # --- power-on ---

    def start(self):
        keeper = self.keeper
        keeper.start()
        self.kiosk_on = keeper.settings.get("kiosk") == 1
        self.app.settings_locked = self.kiosk_on
        self.kiosk.idle_ms = keeper.settings.get("kiosk_idle_s") * 1000
        k.kiosk_settings(keeper.settings)
        self.settings_to_app()
        game = keeper.resume()
        if game is not None:
            self.show_resumed(game)
        self.app.take_events()  # the resumed game is no new deal
        self.stats_to_app()
        if self.kiosk_on or self.app.settings[st.S_TWO_BUTTONS]:
            self.app.full = True  # the title's Settings row says it is locked; its key line
            self.app.redraw()  # names A and B alone (the App drew it before the settings came)
        self.show_notice()

    def settings_to_app(self):
        app = self.app
        values = self.keeper.settings
        for i in range(len(app.settings)):
            v = st.choice_of(i, values.get(st.SETTINGS[i][st.KEY]))
            if i == st.S_TWO_BUTTONS and app.settings[i]:
                v = 1  # a board with only A and B keeps the scheme whatever was saved
            app.settings[i] = v
        app.apply_settings()

    def show_resumed(self, game):
        """Put a restored game object on the App's table, as if just dealt, and offer it on
        the title (Continue): App.resume_game, with what the Keeper kept of its moves."""
        keeper = self.keeper
        if self.app.resume_game(game, keeper.moves, keeper.redo, keeper.redo_n, keeper.undoable,
                                keeper.cursor):
            self.follow(game)

    def undoable(self, table):
        """How many of the newest moves the table's undo may take back (undo_record.ANY_MOVE:
        all)."""
        h = table.game.history
        floor = table.undo_floor
        if not table.step_computer:
            return ANY_MOVE
        if h.clears & 0xFFFF != floor >> 12:
            return h.moves  # the floor is of a journal since cleared: every move held
        return h.moves - (floor & 0xFFF) if h.moves > floor & 0xFFF else 0

    def stats_to_app(self):
        """The App's end panel shows the Keeper's statistics."""
        app = self.app
        stats = self.keeper.stats
        for i in range(len(app.names)):
            g = games.game_id(app.names[i])
            app.played[i] = stats.get(g, r.PLAYED)
            app.won[i] = stats.get(g, r.WON)
            app.streak[i] = stats.get(g, r.STREAK)
            app.best[i] = stats.get(g, r.BEST_STREAK)

    def close(self):
        """The console is switched off or its window closed: what play has not saved yet
        (the moves of the last two frames, the time since) is saved now."""
        self.save_now(True)

    def save_now(self, always):
        """The game in progress written now, if it is this console's own (not the kiosk's demo,
        not a linked game's); `always` False skips a game with nothing new since its last save,
        the cursor's place included (the screen going dark: a write spared)."""
        keeper = self.keeper
        if self.due & DUE_SETTINGS:
            self.due &= ~DUE_SETTINGS
            self.save_settings()
        self.due &= ~DUE_KEPT  # (this is that save)
        keeper.catch_up(True)
        if self.game is not None and not self.demo and not self.app.link_game():
            if always or keeper.unsaved or keeper.cursor != keeper.cursor_kept:
                keeper.save_game(self.game)

    # --- input and time, as the App takes them ---

    @property
    def mode(self):
        return self.app.mode

    @property
    def table(self):
        return self.app.table

    @property
    def full(self):
        return self.app.full

    @full.setter
    def full(self, value):
        self.app.full = value

    def redraw(self):
        self.app.redraw()
        if self.notice_ms:
            self.draw_notice()

    def open_game(self, name, seed):
        """Straight into a new deal of a game (the simulator's --game)."""
        self.app.open_game(name, seed)
        self.after_input()

    def held(self, mask):
        """The buttons held down now (bit i: button i): the loop says so every frame."""
        self.held_mask = mask
        self.app.keys_held = mask  # a question that comes without a key ignores these

    def defers(self):
        """The buttons whose press waits for its release or long hold (App.defers); in the
        kiosk's demo none: any press ends it."""
        return 0 if self.demo else self.app.defers()

    def press(self, button, long_press=False):
        # Whatever the press does (in the kiosk SELECT does nothing), its frame is one that
        # answers input: the work put off to the frame after an answer is not done in it
        # (the loop may take a press after the frame's tick, then tick with no time).
        self.app.answering = True
        if self.woken():
            return
        kiosk = self.kiosk
        if self.kiosk_on and button == SELECT and kiosk.mode != k.SERVICE:
            return  # the rules and keys (or the device's hardware screen) stay closed
        app = self.app
        before = app.mode
        app.press(button, long_press)
        if self.kiosk_on and app.mode == ui.SETTINGS and kiosk.settings_locked():
            app.go(before)  # locked: the settings stay closed, and the strip says so
            app.redraw()
            self.notice = SETTINGS_LOCKED
            self.notice_ms = NOTICE_MS
        if self.kiosk_on:
            self.lock_when_left()
        self.after_input()
        if self.notice_ms:
            self.draw_notice()

    def before_press(self, button, long_press):
        """App.before_press (the loop asks before it hands over a press); not in the kiosk's
        demo, where a press only ends the demo, nor for the SELECT the kiosk ignores (press()),
        nor under a notice, which the strip would hide."""
        if self.notice_ms:
            return False
        if self.kiosk_on and (self.kiosk.mode == k.DEMO or button == SELECT and self.kiosk.mode != k.SERVICE):
            return False
        return self.app.before_press(button, long_press)

    def type_digit(self, digit):
        """A digit typed on a keyboard (the simulator, the web page): App.type_digit."""
        self.app.answering = True  # (as a press: its frame answers input)
        if self.woken():
            return
        self.app.type_digit(digit)
        self.after_input()
        if self.notice_ms:
            self.draw_notice()

    def take_sound(self):
        """The App's sound event, taken (App.take_sound; 0: none; silent in the kiosk)."""
        sound = self.app.take_sound()
        return 0 if self.kiosk_on else sound

    def click(self, x, y, now, phase):
        """The pointer at screen pixel (x, y), at `now` ms on the App's clock: pressed (phase 0,
        a click), moved while pressed (1), released (2) (engine_core/pointer.py, made at the
        first click); in the kiosk's demo a press is a button press, which ends the demo."""
        self.app.answering = True  # (as a press: its frame answers input)
        if self.demo:
            if not phase:
                self.press(A, False)
            return
        if self.pointer is None:
            from engine_core.pointer import Pointer
            self.pointer = Pointer()
        self.pointer.click(self, x, y, now, phase)

    def back_key(self):
        """The event a host's back key (the simulator's Esc) means: it backs out as B does. It
        drops a held card, opens the pause menu from play, leaves a menu; on two buttons a long
        A drops a held card, a long B is START in play, else B. -1 on the title, where there is
        nothing to back out of (the host may offer to close, when may_close() says so)."""
        app = self.app
        mode = app.mode
        if mode == ui.TITLE:
            return -1
        held = mode == ui.PLAY and app.table.held != NONE
        if app.settings[st.S_TWO_BUTTONS]:
            return (A if held else B) | LONG
        if mode == ui.PLAY:
            return B if held else START
        return B

    def may_close(self):
        """Whether the host may offer to close: not in kiosk mode (a visitor cannot close it)."""
        return not self.kiosk_on

    def goodbye(self):
        """Say BYE on the link when a table is linked or open (the window closes, as the pause
        menu's To the title says it): the other console then offers to play on at once, instead of
        waiting out a silence."""
        app = self.app
        link = app.link
        if link is None or link.session is None:
            return
        if app.linked():
            app.leave_link()
        elif link.session.state != S_IDLE:  # a table open, an offer taken
            link.session.leave(app.clock)

    def redrawing(self):
        """A redraw is still spread over frames (the table's pending work)."""
        app = self.app
        return app.mode == ui.PLAY and app.table is not None and app.table.pending

    def idle(self):
        """Nothing moves until a key (engine_core/ui/idle.py)."""
        return console_idle(self)

    def woken(self):
        """Note the player's input for the kiosk; True when it only ends the demo."""
        if self.kiosk_on:
            self.kiosk.pressed = True
            return self.kiosk.mode == k.DEMO  # the press that ends the demo does nothing else
        return False

    def tick(self, ms):
        answering = self.app.answering  # (its frame writes no save: Keeper.tick)
        self.app.keys_held = self.held_mask
        self.app.settings_locked = self.kiosk_on and self.kiosk.settings_locked()
        self.notice_time(ms)
        self.app.tick(ms)
        self.after_input(False)
        if self.game is not None and not self.app.link_game():
            self.keeper.tick(self.game, ms, answering, self.held_mask != 0)
        if self.kiosk_on:
            self.run_kiosk(ms)
            self.lock_when_left()
        self.show_notice()
        if answering and (self.due or self.keeper.later) and self.held_ms < _HELD_MS:
            # flash work put off waits for a frame that answers no press, a second at most
            self.held_ms += ms
            self.due &= ~_DUE_WAIT
            self.keeper.later_wait = False
        elif answering or self.game is None or not self.keeper.holds(ms):  # (Keeper.holds)
            # flash work a press put off, on the frame after its answer; after a second of
            # presses (each may put off more) all of it at once
            self.catch_up(self.held_ms >= _HELD_MS)
            self.held_ms = 0

    # --- what changed ---

    def follow(self, game):
        self.game = game
        game.history.take_changed()  # what came before is saved, or is the deal itself

    def after_input(self, own=True):
        """What the last press (own) or frame did: a deal, a game left, moves to save (a
        frame's are the computer players' or auto-play's: Keeper.moved), settings to write."""
        app = self.app
        keeper = self.keeper
        table = app.table
        events = app.take_events()
        if events & ui.E_LEFT:  # the player left an unfinished game: a loss
            if self.game is not None and not self.demo:
                keeper.abandoned(self.game)
                self.game = None
                self.stats_to_app()
        if events & ui.E_DEALT:  # a new deal (or the demo's)
            if self.game is not None and self.game is not table.game:
                keeper.abandoned(self.game)
            elif self.game is not None and not keeper.recorded:
                keeper.abandoned(self.game)
            if self.demo:
                self.game = None
            else:
                keeper.started(table.game)
                self.follow(table.game)
                if self.kiosk_on:
                    self.kiosk.playing()
        game = self.game
        if game is not None and not app.link_game():  # a linked game is not kept (docs/link.md)
            if game.history.take_changed():  # a move made or taken back: the journal says so
                keeper.moved(game, own)
                if table is not None:  # none while link play is set up
                    keeper.moves = table.move_count
                if keeper.recorded:
                    self.stats_to_app()
            if table is not None and table.game is game:  # none while link play is set up
                hand = table.hand
                keeper.keep_redo(table.redo_moves, table.redo_n, self.undoable(table),
                                 hand.cursor << 8 | hand.cursor_index)
        # A setting changed, a game kept at the title or set aside for link play: written on
        # the next frame, once the screen that answers the press is out (catch_up()).
        if events & ui.E_SETTING and not self.demo:
            self.due |= DUE_SETTINGS | _DUE_WAIT
        if events & ui.E_KEPT:
            self.due |= DUE_KEPT | _DUE_WAIT

    def catch_up(self, now=False):
        """The writes presses put off (the keeper's, the settings, a game kept), on the frame
        after the one that took them (`now`: at once, before a save or switching off)."""
        due = self.due
        if due & _DUE_WAIT and not now:
            self.due = due & ~_DUE_WAIT  # the frame that put them off is over
        elif due:
            self.due = 0
            if due & DUE_SETTINGS:
                self.save_settings()
            if due & DUE_KEPT:
                self.save_now(False)
        self.keeper.catch_up(now)

    def save_settings(self):
        """The App's settings into the record and saved (a setting changed: App's E_SETTING)."""
        settings = self.app.settings
        values = self.keeper.settings
        for i in range(len(settings)):
            values.set(st.SETTINGS[i][st.KEY], st.record_value(i, settings[i]))
        self.keeper.save_settings()

    def show_notice(self):
        """The Keeper's next message, in a strip at the foot of the screen for NOTICE_MS.
        A strip on screen is drawn again only in a frame that drew something else (which
        may have covered it): an unchanged strip is not sent to the panel every frame."""
        if self.notice_ms == 0:
            text = self.keeper.take_notice()
            if not text:
                return
            self.notice = text.encode()  # subset: ok (a rare event: allocating here is fine)
            self.notice_ms = NOTICE_MS
            self.draw_notice()
        elif self.app.screen.dirty_count:
            self.draw_notice()

    def draw_notice(self):
        """The notice in a strip at the foot: a line, or more broken at spaces where the
        screen is too narrow for it."""
        app = self.app
        text = self.notice
        per_line = (app.width - 7) // CHAR_W
        h = count_lines(text, len(text), per_line) * LINE_H + 4
        y = app.height - h
        app.fb.fill_rect(0, y, app.width, h, pal.PANEL)
        draw_lines(app.painter, text, 0, len(text), per_line, y + 2 + (LINE_H - CHAR_H) // 2, app.height, 0,
                   app.width, pal.GOLD)
        app.screen.mark(0, y, app.width, h)

    def draw_demo_caption(self):
        """The kiosk's demo says what it is, in a strip at the foot of the screen."""
        app = self.app
        if app.mode != ui.PLAY:
            return
        y = app.height - LINE_H - 4
        app.fb.fill_rect(0, y, app.width, LINE_H + 4, pal.GOLD)
        x = app.painter.text(b"DEMO", 4, y + 2 + (LINE_H - CHAR_H) // 2, pal.BLACK)
        words = b"  press a button to play" if app.width >= 240 else b": press a button"
        app.painter.text(words, x, y + 2 + (LINE_H - CHAR_H) // 2, pal.BLACK)
        app.screen.mark(0, y, app.width, LINE_H + 4)

    def notice_time(self, ms):
        if self.notice_ms == 0:
            return
        self.notice_ms -= ms
        if self.notice_ms <= 0:
            self.notice_ms = 0
            self.app.full = True  # the strip goes: the screen is drawn again whole
            self.app.redraw()

    # --- the device's hardware screen over the console (firmware/main.py's Shell) ---

    def hardware_allowed(self):
        """Whether SELECT may open the device's hardware screen: always, except in kiosk
        mode, where only the service menu reaches it."""
        return not self.kiosk_on or self.kiosk.mode == k.SERVICE

    def covered_press(self):
        """A press on the hardware screen, which covers the console's: the kiosk sees that
        someone is there."""
        self.woken()

    def covered_tick(self, ms):
        """Time passes while the hardware screen covers the console's: the kiosk's clocks run
        all the same. True when the kiosk takes the screen back (the service menu left alone
        locked itself): the hardware screen is to close, and the title shows."""
        if not self.kiosk_on:
            return False
        self.run_kiosk(ms)
        return self.kiosk.mode != k.SERVICE

    # --- kiosk mode ---

    def lock_when_left(self):
        """The service menu locks again the moment it is left (once the chord's buttons are
        let go: a chord held again in it resets settings and statistics, and its presses may
        have gone to the menu)."""
        if (self.kiosk.mode == k.SERVICE and self.app.mode != ui.SETTINGS
                and self.held_mask & k.CHORD == 0):
            self.kiosk.leave_service()

    def run_kiosk(self, ms):
        kiosk = self.kiosk
        app = self.app
        if app.link_in_use() and kiosk.mode != k.SERVICE:
            # A table open or linked is a person's game: the demo never plays it (nor starts
            # over its screen), and a demo under way gives way to it.
            if self.demo:
                self.demo = False
                self.stats_to_app()
            kiosk.buttons(self.held_mask)
            kiosk.busy()
            return
        kiosk.buttons(self.held_mask)
        action = kiosk.tick(ms)
        if action == k.START_DEMO:
            self.demo = True
            app.game_index = kiosk.demo_game % len(app.names)
            app.start_game(kiosk.demo_seed % 10000000)
            self.after_input()
            app.redraw()
            self.draw_demo_caption()
        elif action == k.DEMO_STEP:
            game = app.table.game
            playing = game.status() == PLAYING
            ended = not k.demo_step(game, game.scratch, kiosk.next_random())
            if not ended and playing:
                app.table.move_count += 1  # the demo's moves count as the player's would
            kiosk.demo_finished(ended or game.status() != PLAYING)
            app.table.valid = False
            app.redraw()
            self.draw_demo_caption()
        elif action == k.TO_TITLE:
            if self.demo:
                self.demo = False
                self.stats_to_app()  # the App counted the demo's games: show the real ones
            elif self.game is not None:
                self.keeper.abandoned(self.game)
                self.game = None
                app.counted = True  # given up: the title offers no Continue
                app.resumable = False
            app.go(ui.TITLE)
            app.redraw()
        elif action == k.RESET:
            self.keeper.reset_all()
            self.settings_to_app()
            self.stats_to_app()
            self.keeper.notify(NOTICE_RESET)
        elif action == k.UNLOCK:
            app.back_mode = ui.TITLE
            app.go(ui.SETTINGS)
            app.redraw()

