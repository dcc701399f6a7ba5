"""The console on a web page (docs/web.md): the App the firmware and the simulator drive,
with its records (engine_core/console.py) kept in the browser's localStorage (web/storage.py).

The frame loop is the engine's (engine_core/loop.py); the page gives it its port (PagePort).
The browser owns the time: the page's script (web/page.js) calls, at the device's frame rate,
    page.press(button, long)     for each button event since the last frame, in order with
    page.click(x, y, phase)      the pointer on the canvas at a screen pixel: pressed (0: a
                                 click, a tap), moved while pressed (1), released (2)
    page.type_digit(digit)       a digit typed (the deal screen takes it)
(each queued for the loop's next frame), then
    page.frame(elapsed_ms, held) the held-buttons mask and the time passed: the loop's frame;
                                 returns how many dirty rectangles the screen has
    page.sound()                 the tone the frame started (hz << 16 | ms), or 0
then copies those rectangles from the framebuffer to the canvas through the palette and calls
page.painted() (a card dragged is in the framebuffer from the frame's end until then:
engine_core/pointer.py); page.idle() says when the script may stop its frames until a key (or
for page.rest_ms()), and page.light() how bright the canvas is shown (the device's dimming and
screen off, engine_core/power.py: CSS brightness, 0 blank). It reads
the framebuffer, the palette and the rectangles in place, at the addresses page.addresses()
gives (no copy crosses into JavaScript), as a panel driver reads them (docs/screen.md).
"""

import gc

import uctypes

from array import array

from engine_core.console import Console
from engine_core.gfx.screen import Screen
from engine_core.loop import CLICK, DIGIT, HELD, LONG, TICKS_MASK, Loop
from engine_core.power import Power
from engine_core.storage import MemoryStorage
from engine_core.ui.app import S_TWO_BUTTONS, App
from engine_core.ui.idle import screen_may_sleep
from web.storage import LocalStorage

LOG_SIZE = 4096  # events kept for the browser tests (log on), drained by take_log()
LOG_TICK = 0xFF  # the log's codes beside a press's (button, 0x80 if long): take_log()
LOG_CLICK = 0xFE
LOG_DIGIT = 0xFD
LOG_MOVE = 0xFC  # the pointer moved while pressed, released (a press is LOG_CLICK)
LOG_RELEASE = 0xFB
QUEUE = 256  # events the script may hand over between two frames


class PageKeys:
    """The port's keys: what the script handed over since the last frame, in order, and the
    buttons it says are held. A ring: nothing allocates."""

    def __init__(self):
        self.events = array("i", [0] * QUEUE)
        self.first = 0
        self.count = 0
        self.held = 0
        self.defer = 0  # the buttons whose press waits on this screen (the loop sets it)
        self.dropped = 0

    def push(self, code):
        if self.count == QUEUE:
            self.dropped += 1
            return
        self.events[(self.first + self.count) % QUEUE] = code
        self.count += 1

    def poll(self, now):
        pass  # the script hands events over as they come

    def next_event(self):
        if not self.count:
            return -1
        code = self.events[self.first]
        self.first = (self.first + 1) % QUEUE
        self.count -= 1
        return code

    def busy(self):
        return False  # the script keeps its own buttons down (it rests only with none)


class PageBeeper:
    """The port's beeper: the tone a frame starts waits for the script (page.sound())."""

    def __init__(self):
        self.tone = 0
        self.playing = False  # the browser ends a tone by itself

    def beep(self, hz, ms, now):
        self.tone = hz << 16 | ms

    def update(self, now):
        pass


class PageClock:
    """The port's clock: the milliseconds the script let pass (page.frame())."""

    def __init__(self):
        self.ms = 0

    def ticks_ms(self):
        return self.ms

    def ticks_us(self):
        return self.ms * 1000 & TICKS_MASK

    def sleep_ms(self, ms):
        pass  # the loop waits and rests only on a host that owns its time


class PagePort:
    """The page's port of the loop (engine_core/loop.py). The script copies the dirty
    rectangles itself once the frame returns, and decides when to rest (page.idle(), for at
    most page.rest_ms()). The device's power (engine_core/power.py, its times the console's
    settings) dims the canvas and turns it dark (`light`, read by page.light()); a key or a
    tap wakes it and does nothing else. The port is also the power's panel and its app."""

    def __init__(self, console):
        self.console = console
        self.keys = PageKeys()
        self.beeper = PageBeeper()
        self.clock = PageClock()
        self.latch = None
        self.light = 100  # the screen's backlight, percent: 100 lit, 10 dimmed, 0 dark
        self.power = Power(self.set_light, self, self.clock.sleep_ms, 0, 0, None, 0, console.app.settings)

    def flush(self, screen):
        pass  # page.frame() returns their count; the script copies them and calls painted()

    def woke(self, now):
        return self.power.woke(now)

    def rest_ms(self, now):
        return self.power.rest_ms(now)

    def after_frame(self, now):
        self.power.update(now, self.keys.held, self)

    def set_light(self, percent):
        self.light = percent

    # --- the power's panel and app ---

    def sleep(self):
        pass  # dark: the script blanks the canvas (page.light() 0)

    def wake(self, wait_ms, sleep_ms):
        pass

    def may_sleep(self):
        return screen_may_sleep(self.console)

    def save_now(self):
        self.console.save_now(False)

    def notify(self, text):
        pass  # the page has no battery


class PageConsole:
    def __init__(self, width, height, two_buttons=False, store=None, log=False, mono=False, mask=-1, long_as=()):
        """A width x height console; two_buttons: the board has only A and B (docs/screen.md).
        store: the page's localStorage (None: records in RAM only, when the browser refuses
        storage). log: remember every press and tick, for the browser tests. mono: a
        one-bit screen (MONO_VLSB, docs/screen.md "One-bit panels"). mask, long_as: a board's
        buttons and the long presses standing for those it lacks, as the device's App is told
        them (App.set_buttons; -1: a bare size, every button)."""
        gc.collect()
        self.screen = Screen(width, height, None, mono)  # the big buffer first, after collecting
        app = App(self.screen)
        if mask >= 0:
            app.set_buttons(mask, long_as)
        if two_buttons:
            app.settings[S_TWO_BUTTONS] = 1
        self.app = app
        storage = LocalStorage(store) if store is not None else MemoryStorage()
        self.console = Console(app, storage)
        self.port = PagePort(self.console)
        self.loop = Loop(self.console, self.port)
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
        """Where the framebuffer, the palette (RGB565) and the dirty rectangles live, and 1
        when the framebuffer is one bit a pixel (MONO_VLSB), else 0."""
        s = self.screen
        return [uctypes.addressof(s.buf), uctypes.addressof(s.palette), uctypes.addressof(s.dirty),
                1 if s.mono else 0]

    # --- each frame ---

    def press(self, button, long_press):
        """A button: long_press 0 a press, 1 a long press in its place, 2 a press given on its
        edge and held on (engine_core/loop.py)."""
        code = button | (HELD if long_press == 2 else LONG if long_press else 0)
        self.port.keys.push(code)
        self._log(code, 0)

    def defers(self):
        """The buttons whose press waits for its release or long hold (App.defers), for the
        script's buttons (page.js): as the loop left them after the last frame."""
        return self.port.keys.defer

    def click(self, x, y, phase=0):
        """The pointer on the canvas at screen pixel (x, y) (engine_core/pointer.py): pressed (a
        click or a tap), moved while pressed, released (off the canvas: at 511, 511); a
        double-click is timed on the console's clock."""
        self.port.keys.push(CLICK | phase << 19 | y << 9 | x)
        self._log(LOG_CLICK if phase == 0 else LOG_MOVE if phase == 1 else LOG_RELEASE, x | y << 12)

    def back(self):
        """Esc: backs out as B does (Console.back_key: on two buttons their long presses, in
        play with nothing held the pause menu); nothing on the title."""
        code = self.console.back_key()
        if code >= 0:
            self.press(code & ~LONG, code & LONG != 0)

    def type_digit(self, digit):
        self.port.keys.push(DIGIT | digit)
        self._log(LOG_DIGIT, digit)

    def frame(self, ms, held):
        port = self.port
        port.clock.ms = (port.clock.ms + ms) & TICKS_MASK
        port.keys.held = held
        self.loop.frame()
        self._log(LOG_TICK, ms)
        pointer = self.console.pointer
        if pointer is not None and self.screen.dirty_count:
            pointer.lay(self.console)  # a card dragged, until painted()
        return self.screen.dirty_count

    def painted(self):
        pointer = self.console.pointer
        if pointer is not None:
            pointer.lift(self.console)
        self.screen.clear_dirty()

    def busy(self):
        """A redraw is still spread over frames (the simulator's settle() waits for it)."""
        return 1 if self.console.redrawing() else 0

    def sound(self):
        """The tone the last frame started (the loop sounds the console's sound event as
        engine_core/ui/tones.py's table says): hz << 16 | ms, or 0; taken."""
        beeper = self.port.beeper
        tone = beeper.tone
        beeper.tone = 0
        return tone

    def idle(self):
        """Nothing moves until the next key (engine_core/ui/idle.py): the page stops its frames."""
        return 1 if self.loop.idle() else 0

    def rest_ms(self):
        """How long the page may rest before the screen's power falls due (at most a second)."""
        port = self.port
        return port.rest_ms(port.clock.ms)

    def light(self):
        """The screen's backlight as the device's power sets it: 100 lit, 10 dimmed, 0 dark
        (the script dims the canvas with a CSS filter, and blanks it at 0)."""
        return self.port.light

    def save_now(self):
        """Save the game in progress now, if it has anything unsaved (the page is being hidden:
        the tab may close); not the kiosk's demo, not a linked game (Console.save_now)."""
        self.console.save_now(False)

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
        long, 0x40 if held on) then 0s, or a code then 24 bits, little-endian: LOG_TICK the tick's milliseconds,
        LOG_CLICK (a press), LOG_MOVE, LOG_RELEASE x | y << 12, LOG_DIGIT the digit."""
        import binascii
        n = self.logged
        self.logged = 0
        return binascii.hexlify(bytes(memoryview(self.log)[:4 * n])).decode()
