"""The loop's order within a frame (engine_core/loop.py): after a rest the time passes before
the presses that ended it, and the rest of a press that only woke the host (its hold, its
repeats) does nothing either."""

from engine_core.loop import HELD, Loop
from engine_core.reasons import PLAYING_OUT
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


def test_a_key_that_plays_the_computers_turn_out_first_sends_the_strip_that_says_so():
    """A key during the computer's turn shown move by move plays the rest of it at once, which
    may take a Pico some 60 ms: the first flush after its edge, before that work, shows the
    strip that says the turn is being finished, on the table as it stood; the same frame
    then sends the turn played out and the key's own answer, as Console.press alone gives."""
    from engine_core.console import Console
    from engine_core.gfx.screen import Screen
    from engine_core.protocol import state_json
    from engine_core.storage import MemoryStorage
    from engine_core.ui import app as ui
    from engine_core.ui.app import App
    from simulator import framebuf

    consoles = [Console(App(Screen(240, 240, framebuf)), MemoryStorage()) for _ in range(2)]
    for console in consoles:
        console.open_game("spite_malice", 4)
        table = console.app.table
        for _ in range(40):  # the player's hinted moves until the turn passes
            if table.computer_ms:
                break
            table.play(table.game.hint())
        console.tick(33)
        console.tick(33)
    looped, alone = consoles
    game = looped.app.table.game
    assert game.computer_to_move()
    before = state_json(game)
    seen = []

    class Glass(Port):
        def flush(self, screen):
            table = looped.app.table
            seen.append((state_json(table.game), table.message, screen.dirty_count, bytes(screen.buf)))
            screen.clear_dirty()

    port = Glass()
    loop = Loop(looped, port)
    loop.frame()
    shown = bytes(looped.screen.buf)
    seen.clear()
    port.keys.queue = [bt.RIGHT]
    port.clock.ms += 33
    loop.frame()
    assert len(seen) == 2
    assert seen[0][:2] == (before, PLAYING_OUT) and seen[0][2] > 0
    assert seen[0][3] != seen[1][3] != shown  # the strip on the glass, then the answer
    assert not game.computer_to_move() and looped.app.table.message != PLAYING_OUT
    alone.press(bt.RIGHT)
    alone.tick(33)
    assert state_json(game) == state_json(alone.app.table.game)
    assert looped.app.mode == alone.app.mode == ui.PLAY
    assert bytes(looped.screen.buf) == bytes(alone.screen.buf)


def test_no_strip_goes_out_ahead_of_a_key_that_finishes_no_computers_turn():
    """Outside the computer's turn (and for X, whose hint is sought in the next frame, and
    START, which opens the pause menu over the turn) a press's frame is sent once."""
    from engine_core.console import Console
    from engine_core.gfx.screen import Screen
    from engine_core.storage import MemoryStorage
    from engine_core.ui.app import App
    from tools.reliability import nullfb

    console = Console(App(Screen(240, 240, nullfb)), MemoryStorage())
    console.open_game("spite_malice", 4)
    counts = []

    class Count(Port):
        def flush(self, screen):
            counts.append(console.app.table.message)
            screen.clear_dirty()

    port = Count()
    loop = Loop(console, port)
    for key in (bt.RIGHT, bt.X, bt.START, bt.START):
        loop.frame()
        counts.clear()
        port.keys.queue = [key]
        port.clock.ms += 33
        loop.frame()
        assert len(counts) == 1 and PLAYING_OUT not in counts, (key, counts)
    table = console.app.table
    for _ in range(40):
        if table.computer_ms:
            break
        table.play(table.game.hint())
    for key in (bt.X, bt.START):
        counts.clear()
        port.keys.queue = [key]
        port.clock.ms += 33
        loop.frame()
        assert len(counts) == 1 and PLAYING_OUT not in counts, (key, counts)
