"""The console on a web page (docs/web.md): the App the firmware and the simulator drive,
with its records (engine_core/console.py) kept in the browser's localStorage (web/storage.py).

The page's script (web/page.js) owns the frame loop. At the device's frame rate it calls
    page.press(button, long)     for each button event since the last frame, in order with
    page.click(x, y)             a click or a tap on the canvas, at a screen pixel
    page.type_digit(digit)       a digit typed (the deal screen takes it)
    page.frame(elapsed_ms, held) the held-buttons mask and the time passed; returns how many
                                 dirty rectangles the screen has
then copies those rectangles from the framebuffer to the canvas through the palette and calls
page.painted(). It reads the framebuffer, the palette and the rectangles in place, at the
addresses page.addresses() gives (no copy crosses into JavaScript), as a panel driver reads
them (docs/screen.md).
"""

import gc

import uctypes

from engine_core.console import Console
from engine_core.gfx.screen import Screen
from engine_core.pointer import Pointer
from engine_core.storage import MemoryStorage
from engine_core.ui.idle import console_idle
from engine_core.ui.tones import NAMES, tone_hz, tone_ms
from engine_core.ui.app import PLAY, S_TWO_BUTTONS, App
from web.storage import LocalStorage

LOG_SIZE = 4096  # events kept for the browser tests (log on), drained by take_log()
LOG_TICK = 0xFF  # the log's codes beside a press's (button, 0x80 if long): take_log()
LOG_CLICK = 0xFE
LOG_DIGIT = 0xFD


class Page:
    def __init__(self, width, height, two_buttons=False, store=None, log=False):
        """A width x height console; two_buttons: the board has only A and B (docs/screen.md).
        store: the page's localStorage (None: records in RAM only, when the browser refuses
        storage). log: remember every press and tick, for the browser tests."""
        gc.collect()
        self.screen = Screen(width, height)  # the big buffer first, after collecting
        app = App(self.screen)
        if two_buttons:
            app.settings[S_TWO_BUTTONS] = 1
        self.app = app
        storage = LocalStorage(store) if store is not None else MemoryStorage()
        self.console = Console(app, storage)
        self.pointer = Pointer()
        self.log = bytearray(4 * LOG_SIZE) if log else None
        self.logged = 0

    def start(self, kiosk=-1):
        """Load the records and resume a saved game. kiosk 1 or 0 turns kiosk mode on or off
        (and keeps it so, as the simulator's --kiosk does); -1 leaves it as saved."""
        console = self.console
        if kiosk >= 0:
            keeper = console.keeper
            keeper.start()
            if keeper.settings.get("kiosk") != kiosk:
                keeper.settings.set("kiosk", kiosk)
                keeper.save_settings()
        console.start()

    def open_game(self, name, seed):
        """A deal straight away (the page's ?game=&seed=): '' or why not."""
        try:
            self.console.open_game(name, seed)
        except ValueError as e:
            return str(e)
        return ""

    def addresses(self):
        """Where the framebuffer, the palette (RGB565) and the dirty rectangles live."""
        s = self.screen
        return [uctypes.addressof(s.buf), uctypes.addressof(s.palette), uctypes.addressof(s.dirty)]

    # --- each frame ---

    def press(self, button, long_press):
        self.console.press(button, long_press != 0)
        self._log(button | (0x80 if long_press else 0), 0)

    def click(self, x, y):
        """A click or tap on the canvas at screen pixel (x, y) (engine_core/pointer.py); a
        double-click is timed on the console's clock."""
        self.pointer.click(self.console, x, y, self.app.clock)
        self._log(LOG_CLICK, x | y << 12)

    def type_digit(self, digit):
        self.console.type_digit(digit)
        self._log(LOG_DIGIT, digit)

    def frame(self, ms, held):
        console = self.console
        console.held(held)
        console.tick(ms)
        self._log(LOG_TICK, ms)
        return self.screen.dirty_count

    def painted(self):
        self.screen.clear_dirty()

    def busy(self):
        """A redraw is still spread over frames (the simulator's settle() waits for it)."""
        app = self.app
        return 1 if app.mode == PLAY and app.table is not None and app.table.pending else 0

    def sound(self):
        """The sound the app asks for (docs/screen.md: 1 move ... 4 lost), taken."""
        app = self.app
        sound = app.sound_event
        app.sound_event = 0
        return sound

    def tones(self):
        """The sounds' tones, 'hz ms' for sound 1, 2, ... (engine_core/ui/tones.py: the table the
        device's beeper plays), read once by the page."""
        return " ".join("%d %d" % (tone_hz(s), tone_ms(s)) for s in range(1, len(NAMES)))

    def idle(self):
        """Nothing moves until the next key (engine_core/ui/idle.py): the page stops its frames."""
        return 1 if console_idle(self.console) else 0

    def flush(self):
        """Save the game in progress now (the page is being hidden: the tab may close)."""
        console = self.console
        if console.game is not None and console.keeper.unsaved:
            console.keeper.save_game(console.game)

    def deals(self):
        """Deals so far (a resumed game and the kiosk's demo count too): the page looks at
        deal() only when this changes, as deal() builds a string."""
        return self.app.deals

    def deal(self):
        """'name seed' of the game in play (a link to the deal), or ''."""
        game = self.console.game
        if game is None:
            return ""
        return "%s %d" % (game.NAME, game.seed)

    # --- for the browser tests ---

    def _log(self, code, ms):
        log = self.log
        if log is None:
            return
        if self.logged == LOG_SIZE:
            raise RuntimeError("event log full: take_log() more often")
        k = 4 * self.logged
        log[k] = code
        log[k + 1] = ms & 0xFF
        log[k + 2] = (ms >> 8) & 0xFF
        log[k + 3] = (ms >> 16) & 0xFF
        self.logged += 1

    def take_log(self):
        """The events since the last call as hex: per event 4 bytes, a press (button, 0x80 if
        long) then 0s, or a code then 24 bits, little-endian: LOG_TICK the tick's milliseconds,
        LOG_CLICK x | y << 12, LOG_DIGIT the digit."""
        import binascii
        n = self.logged
        self.logged = 0
        return binascii.hexlify(bytes(memoryview(self.log)[:4 * n])).decode()
