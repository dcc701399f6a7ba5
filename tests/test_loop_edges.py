"""The loop's order within a frame (engine_core/loop.py): after a rest the time passes before
the presses that ended it, and the rest of a press that only woke the host (its hold, its
repeats) does nothing either."""

import pytest

from engine_core.loop import HELD, Loop
from engine_core.ui import buttons as bt
from tests.helpers import ScriptClock
from tests.test_loop import ScriptButtons


class Beeper:
    playing = False

    def beep(self, hz, ms, now):
        pass

    def update(self, now):
        pass


class Port:
    latch = None

    def __init__(self):
        self.keys, self.clock, self.beeper = ScriptButtons(), ScriptClock(), Beeper()
        self.asleep = False

    def woke(self, now):
        was = self.asleep
        self.asleep = False
        return was

    def flush(self, screen):
        screen.dirty_count = 0

    def rest_ms(self, now):
        return 1000

    def after_frame(self, now):
        pass


class Screen:
    dirty_count = 0


class App:
    def __init__(self):
        self.screen = Screen()
        self.log = []
        self.done = False

    def held(self, mask):
        pass

    def defers(self):
        return 0

    def press(self, button, long_press=False):
        self.log.append(("press", button, long_press))

    def tick(self, ms):
        self.log.append(("tick", ms))

    def take_sound(self):
        return 0


def make():
    port = Port()
    app = App()
    loop = Loop(app, port)
    return loop, app, port


def test_after_a_rest_its_time_passes_before_the_press_that_ended_it():
    loop, app, port = make()
    loop.frame()
    port.clock.ms = 900  # a rest of 900 ms, then a press
    port.keys.queue = [bt.A]
    app.log.clear()
    loop.frame()
    assert app.log == [("tick", 900), ("press", bt.A, False), ("tick", 0)]
    port.clock.ms += 33  # in play, frame after frame: the press first, then the frame's time
    port.keys.queue = [bt.A]
    app.log.clear()
    loop.frame()
    assert app.log == [("press", bt.A, False), ("tick", 33)]


def test_a_press_that_only_woke_the_host_is_not_taken_held_on_or_repeating():
    loop, app, port = make()
    port.asleep = True
    port.keys.queue = [bt.A]
    port.keys.held = bt.mask(bt.A)
    loop.frame()
    port.clock.ms += 400
    port.keys.queue = [bt.A | HELD, bt.RIGHT]  # A's hold, and another button pressed
    loop.frame()
    assert [e for e in app.log if e[0] == "press"] == [("press", bt.RIGHT, False)]
    port.keys.held = 0  # let go: the next press of A plays
    port.clock.ms += 33
    loop.frame()
    port.keys.queue = [bt.A]
    port.keys.held = bt.mask(bt.A)
    port.clock.ms += 33
    loop.frame()
    assert app.log[-2] == ("press", bt.A, False)


class Flushes(Port):
    def __init__(self):
        super().__init__()
        self.flushed = []

    def flush(self, screen):
        self.flushed.append(list(screen.log))
        screen.log.clear()
        screen.dirty_count = 0


def test_a_press_decided_while_the_frame_works_is_answered_in_that_frame():
    """A press whose edge falls during the frame's work (the computer players' moves, a save)
    goes out in that frame's flush, at the frame's time, not a frame later."""
    port = Flushes()
    app = App()
    app.screen.log = app.log
    loop = Loop(app, port)
    loop.frame()
    port.flushed.clear()
    app.log.clear()

    def working_tick(ms):
        app.log.append(("tick", ms))
        app.screen.dirty_count = 1
        if ms and not port.flushed:
            port.clock.ms += 12  # the frame's work takes 12 ms; A goes down meanwhile
            port.keys.queue.append(bt.A)

    app.tick = working_tick
    port.clock.ms += 33
    loop.frame()
    assert port.flushed == [[("tick", 33), ("press", bt.A, False), ("tick", 0)]]
    assert loop.last_tick == 33  # the press at the frame's time, as the next frame took it
    port.clock.ms += 33 - 12
    loop.frame()
    assert port.flushed[1] == [("tick", 33)]  # the time since the last frame, nothing twice


def test_a_key_that_only_woke_the_host_during_the_frame_brings_no_tick_of_its_own():
    loop, app, port = make()
    loop.frame()
    app.log.clear()

    def waking_tick(ms):
        app.log.append(("tick", ms))
        if ms:
            port.asleep = True  # the screen went dark; A wakes it while the frame works
            port.keys.queue.append(bt.A)

    app.tick = waking_tick
    port.clock.ms += 33
    loop.frame()
    assert app.log == [("tick", 33)]




def consoles_in_the_computers_turn(two_buttons=False, frames=2, kiosk=False):
    """Three consoles on the same Spite & Malice deal, `frames` frames into the computer's turn
    after the player's hinted moves (kiosk: a visitor's game in kiosk mode)."""
    from engine_core.console import Console
    from engine_core.gfx.screen import Screen
    from engine_core.storage import MemoryStorage
    from engine_core.ui.app import App
    from engine_core.ui.settings import S_TWO_BUTTONS
    from simulator import framebuf

    consoles = []
    for _ in range(3):
        storage = MemoryStorage()
        if kiosk:
            console = Console(App(Screen(240, 240, framebuf)), storage)
            console.keeper.settings.set("kiosk", 1)
            console.keeper.save_settings()
        console = Console(App(Screen(240, 240, framebuf)), storage)
        console.start()
        consoles.append(console)
    for console in consoles:
        console.app.settings[S_TWO_BUTTONS] = two_buttons
        console.open_game("spite_malice", 4)
        if kiosk:
            console.kiosk.playing()
        table = console.app.table
        for _ in range(40):  # the player's hinted moves until the turn passes
            if table.computer_ms:
                break
            table.play(table.game.hint())
        for _ in range(frames):
            console.tick(33)
    assert consoles[0].app.table.game.computer_to_move()
    return consoles


def looped_and_alone(keys, two_buttons=False, frames=2, before=(), kiosk=False):
    """The presses `before` (each in a frame of its own), then `keys` [(button, long)] in one
    frame: through the loop on one console, straight to Console.press on the other. Returns
    the flushes of the keys' frame [(game, pixels)], the game and pixels before it, and the
    two consoles."""
    from engine_core.protocol import state_json
    from engine_core.loop import LONG
    looped, alone, landed = consoles_in_the_computers_turn(two_buttons, frames, kiosk)
    seen = []

    class Glass(Port):
        def flush(self, screen):
            seen.append((state_json(looped.app.table.game), bytes(screen.buf), screen.dirty_pixels()))
            screen.clear_dirty()

    port = Glass()
    loop = Loop(looped, port)
    for button, long_press in before:
        for console in (alone, landed):
            console.press(button, long_press)
            console.tick(33)
        port.keys.queue = [button | (LONG if long_press else 0)]
        port.clock.ms += 33
        loop.frame()
    was = (state_json(looped.app.table.game), bytes(looped.screen.buf))
    alone.screen.clear_dirty()
    for _ in range(12):  # the glass once a card still sliding has landed (a slide: some 200 ms)
        if not landed.app.table.view.slide & 0xFF:
            break
        landed.tick(33)
    seen.clear()
    port.keys.queue = [button | (LONG if long_press else 0) for button, long_press in keys]
    port.clock.ms += 33
    loop.frame()
    for button, long_press in keys:
        alone.press(button, long_press)
    alone.tick(33)
    seen.append(alone.screen.dirty_pixels())  # what the straight console's frame drew
    return seen, was, bytes(landed.screen.buf), looped, alone


FINISHING = [
    ("RIGHT", [(bt.RIGHT, False)], False, ()),
    ("A", [(bt.A, False)], False, ()),
    ("B", [(bt.B, False)], False, ()),
    ("Y", [(bt.Y, False)], False, ()),
    ("long A", [(bt.A, True)], False, ()),
    ("long X", [(bt.X, True)], False, ()),
    ("X, X", [(bt.X, False), (bt.X, False)], False, ()),
    ("X, SELECT", [(bt.X, False), (bt.SELECT, False)], False, ()),
    ("two buttons, A", [(bt.A, False)], True, ()),
    ("two buttons, long A", [(bt.A, True)], True, ()),
    ("pause menu, Undo", [(bt.A, False)], False, ((bt.START, False), (bt.DOWN, False), (bt.DOWN, False))),
    # the pause menu's Hint, then A, A: the turn played out, the hinted card picked up and
    # played, sliding as the strip goes (no whole screen for it)
    ("pause menu's Hint, A, A", [(bt.A, False), (bt.A, False)], False,
     ((bt.START, False), (bt.DOWN, False), (bt.A, False))),
]
SPREAD = ("pause menu's Hint, A, A",)  # the table under the menu still being drawn again
FOOT = 220  # at 240x240 the strip's rows start below this (4 bits a pixel: 120 bytes a row)


@pytest.mark.parametrize("name, keys, two, before", FINISHING, ids=[f[0] for f in FINISHING])
@pytest.mark.parametrize("frames", (0, 2, 9))
def test_a_key_that_plays_the_computers_turn_out_first_sends_the_strip_that_says_so(name, keys, two, before, frames):
    """A key during the computer's turn shown move by move plays the rest of it at once, which
    may take a Pico some 60 ms: the first flush after its edge, before that work, shows the
    strip that says the turn is being finished over the screen as it stood (its foot alone
    changed, the game as it was); the same frame then sends the turn played out and the key's
    own answer, exactly what Console.press alone gives."""
    from engine_core.protocol import state_json
    seen, was, landed, looped, alone = looped_and_alone(keys, two, frames, before)
    game = looped.app.table.game
    assert len(seen) == 3, len(seen)
    first, answer, straight = seen
    assert first[0] == was[0] and answer[0] != was[0]  # the turn played out after the strip
    # above the strip: the glass as it stood, a card still sliding landed (as the key lands it);
    # where the table is still being drawn again, more of it as it stands
    if name not in SPREAD:
        assert first[1][:FOOT * 120] == landed[:FOOT * 120]
    assert first[1][FOOT * 120:] != was[1][FOOT * 120:]
    assert answer[0] == state_json(game) == state_json(alone.app.table.game)
    assert looped.app.mode == alone.app.mode
    # The answer is drawn as the straight console draws it (not a whole screen for a strip
    # that went), spread over the frames as there (the piles a frame draws may differ); once
    # both are drawn, the same glass.
    strip = 240 * 13
    assert answer[2] <= straight + 2 * strip and (answer[2] < 240 * 240 or straight == 240 * 240), (
        answer[2], straight, first[2])
    assert answer[1] != first[1]
    for _ in range(4):
        looped.tick(33)
        alone.tick(33)
    assert bytes(looped.screen.buf) == bytes(alone.screen.buf)


NOT_FINISHING = [
    ("X", [(bt.X, False)], False, (), False),
    ("START", [(bt.START, False)], False, (), False),
    ("SELECT", [(bt.SELECT, False)], False, (), False),
    ("two buttons, B", [(bt.B, False)], True, (), False),
    ("two buttons, long B", [(bt.B, True)], True, (), False),
    ("two buttons, UP", [(bt.UP, False)], True, (), False),
    ("two buttons, Y", [(bt.Y, False)], True, (), False),
    ("pause menu, DOWN", [(bt.DOWN, False)], False, ((bt.START, False),), False),
    ("pause menu, Resume", [(bt.A, False)], False, ((bt.START, False),), False),
    ("kiosk, X, SELECT", [(bt.SELECT, False)], False, ((bt.X, False),), True),
]


@pytest.mark.parametrize("name, keys, two, before, kiosk", NOT_FINISHING, ids=[f[0] for f in NOT_FINISHING])
def test_no_strip_goes_out_ahead_of_a_key_that_plays_no_turn_out(name, keys, two, before, kiosk):
    """X (its hint is sought in the next frame), START (the pause menu opens over the turn),
    SELECT (in the kiosk it does nothing, even with X's hint waiting), on two buttons B (it
    steps) and the buttons that are no keys there, the pause menu's other rows: the frame is
    sent once, and the computer's turn goes on."""
    seen, was, landed, looped, alone = looped_and_alone(keys, two, 2, before, kiosk)
    assert len(seen) <= 2  # (the last: the straight console's)
    assert looped.app.table.computer_ms > 0
    assert bytes(looped.screen.buf) == bytes(alone.screen.buf)


def test_a_pause_menu_that_opens_over_the_glass_never_has_the_strip_under_it():
    """On two buttons a long B is START: with the pause menu's Hint waiting it plays the turn
    out and opens the menu over the table as the glass shows it, so no strip goes out first
    (it would lie under the menu for as long as the menu is open)."""
    from engine_core.ui import app as ui
    before = ((bt.B, True), (bt.B, False), (bt.A, False))  # the pause menu, down to Hint, Hint
    seen, was, landed, looped, alone = looped_and_alone([(bt.B, True)], True, 2, before)
    assert looped.app.mode == alone.app.mode == ui.PAUSE
    assert len(seen) == 2  # one flush, and the straight console's figure
    for _ in range(3):
        looped.tick(33)
        alone.tick(33)
    assert bytes(looped.screen.buf) == bytes(alone.screen.buf)


def test_no_strip_goes_out_ahead_of_a_key_outside_the_computers_turn():
    from engine_core.console import Console
    from engine_core.gfx.screen import Screen
    from engine_core.storage import MemoryStorage
    from engine_core.ui.app import App
    from simulator import framebuf

    for name in ("spite_malice", "nerts", "aces_up"):
        console = Console(App(Screen(240, 240, framebuf)), MemoryStorage())
        console.open_game(name, 4)
        flushes = []

        class Count(Port):
            def flush(self, screen):
                flushes.append(1)
                screen.clear_dirty()

        port = Count()
        loop = Loop(console, port)
        for key in (bt.RIGHT, bt.A, bt.A, bt.X, bt.Y, bt.START, bt.START, bt.B):
            loop.frame()
            flushes.clear()
            port.keys.queue = [key]
            port.clock.ms += 33
            loop.frame()
            assert len(flushes) <= 1, (name, key)


MPY_TURN_KEYS = r"""
import micropython, framebuf
from engine_core.storage import MemoryStorage
from engine_core.gfx.screen import Screen
from engine_core.ui.app import App
from engine_core.console import Console
from engine_core.loop import Loop, LONG
from engine_core.ui import buttons as bt

class Clock:
    def __init__(self):
        self.t = 1000
    def ticks_ms(self):
        return self.t
    def ticks_us(self):
        return (self.t * 1000) & 0x3FFFFFFF
    def sleep_ms(self, ms):
        self.t += ms

class Keys:
    def __init__(self):
        self.codes = [0] * 8
        self.n = 0
        self.i = 0
        self.held = 0
        self.defer = 0
        self.count = 0
    def push(self, code):
        self.codes[self.n] = code
        self.n += 1
        self.count += 1
    def poll(self, now):
        pass
    def next_event(self):
        if self.i == self.n:
            self.i = self.n = 0
            return -1
        self.i += 1
        self.count -= 1
        return self.codes[self.i - 1]
    def busy(self):
        return self.count > 0

class Beeper:
    playing = False
    def beep(self, hz, ms, now):
        pass
    def update(self, now):
        pass

class Port:
    latch = None
    def __init__(self):
        self.keys = Keys()
        self.clock = Clock()
        self.beeper = Beeper()
        self.flushes = 0
    def flush(self, screen):
        self.flushes += 1
        screen.clear_dirty()
    def woke(self, now):
        return False
    def rest_ms(self, now):
        return 1000
    def after_frame(self, now):
        pass

console = Console(App(Screen(240, 240, framebuf)), MemoryStorage(files=12, size=4096))
console.start()
console.open_game("spite_malice", 7)
table = console.app.table
port = Port()
loop = Loop(console, port)

def frame(code):
    if code >= 0:
        port.keys.push(code)
    loop.frame()
    port.clock.t += 33

KEYS = (bt.A, bt.B, bt.UP, bt.Y, bt.A | LONG, bt.X | LONG, bt.RIGHT)
out = ["not reached"] * len(KEYS)
flushes = [0] * len(KEYS)
for k in range(len(KEYS)):
    key = KEYS[k]
    for _ in range(30):  # X A A: the hinted moves, until the computer's turn
        if table.computer_ms > 0:
            break
        for code in (bt.X, -1, bt.A, -1, bt.A):
            frame(code)
    if table.computer_ms <= 0:
        break
    frame(-1)
    port.keys.push(key)
    port.flushes = 0
    result = "allocated"
    micropython.heap_lock()
    try:
        loop.frame()
        result = "clean"
    except MemoryError:
        pass
    micropython.heap_unlock()
    if result == "clean" and (port.flushes != 2 or table.computer_ms != 0):
        result = "flushes %d" % port.flushes
    out[k] = result
    port.clock.t += 33
    for _ in range(20):
        frame(-1)
print(" ".join(out))
"""


def test_a_key_that_plays_the_computers_turn_out_allocates_nothing_on_micropython():
    """The real Console through the loop on MicroPython: the key's frame (the strip sent first,
    the turn played out, the key's answer) under heap_lock, for A, B, UP, Y, long A, long X
    and RIGHT, each in a computer's turn of its own."""
    from tests.helpers import run_mpy_ok
    out = run_mpy_ok(MPY_TURN_KEYS).split()
    assert out == ["clean"] * 7, out
