"""The frame loop, written once for every host: keys to presses, the console's time, its sound,
the frame sent, and the wait (or the rest) until the next frame.

    loop = Loop(console, port)      # console: engine_core/console.py (or a host's cover of it)
    loop.run()                      # a host that owns its time: frame(), wait(), ...
    loop.frame()                    # a host whose platform calls it back (the web page)

Each frame: poll the keys, tell the console which buttons are held, hand it every event they
latched in order (a press, a digit typed, a click on the screen; after a rest its time is
ticked first, as it came before them; a press that only woke the host is dropped with its
hold and repeats), tick it with the time since the last frame, poll again and hand it the
events latched while it ticked, then tick it with no time, take its sound event and
sound it, end a tone that is due, send the dirty rectangles, and let the host do its own
per-frame work. Between frames wait() polls the
keys until the next frame is due or a press is latched (the next frame then starts at once), or,
when nothing moves, rests until a key's edge is latched or the host's next timer is due.
Nothing in a frame, a wait or a rest allocates.

The app the loop drives (a Console, or a host's cover of one such as the device's hardware
screen) has: screen (engine_core/gfx/screen.py), press(button, long), type_digit(digit),
click(x, y, now, phase) (the pointer at a screen pixel, at the app's time: a press, a move with
it held, the release: engine_core/pointer.py),
held(mask), defers() (the buttons whose press waits on the current screen), tick(ms),
sound_on() (whether a press clicks: asked only on a host that clicks,
the device, whose Shell has it; the Console has not), take_sound()
(the sound event, taken: 0 for none, engine_core/ui/tones.py), idle() (nothing moves until a
key: engine_core/ui/idle.py) and done (the loop's run() ends); it may have
before_press(button, long): True when the press's work is long (it plays the computer's turn
out) and its first answer is drawn already, which the loop sends before the press. An app
where a digit or a click means nothing (the device's, which has no keyboard and no pointer)
still has the method.

The port: what a host gives the loop (docs/engine.md, "The loop and its port").
- keys: poll(now) reads the buttons (and, on a desktop or a page, the other input);
  next_event() gives the next latched event, or -1: button for a press, button | LONG for a
  long press in its place, button | HELD for a press already given that is held on (a
  button that acts on its edge; App.defers() and docs/screen.md, "When a press acts"),
  DIGIT | digit for a digit typed, CLICK | phase << 19 | y << 9 | x for the pointer at a screen
  pixel (phase: 0 pressed, 1 moved while pressed, 2 released);
  count: events latched and not taken; held: the mask of buttons down (bit i: button i);
  defer: the mask of buttons whose press waits for its release or its long hold, which the
  loop sets after each tick from the app's defers() (the others act on their edge);
  busy(): a key is down, or a press is on its way (debounce, a tap missed in a gap).
- latch: an object whose `fell` is nonzero once a key's edge has been latched while nobody
  polled (the device's pin interrupts; a desktop's event queue), or None: the keys must be
  polled, and the loop never rests.
- beeper: beep(hz, ms, now) starts a tone (replacing one sounding), update(now) ends it when
  due, playing: a tone sounds.
- clock: ticks_ms(), ticks_us() (both wrap at 2**30, as MicroPython's do), sleep_ms(ms).
- flush(screen): send the screen's dirty rectangles to the glass and clear them (the loop
  calls it only when there are some).
- woke(now): a key just came; True when it only woke the host (a screen dimmed or off), so the
  console does not take it.
- rest_ms(now): how long the loop may rest before a timer of the host's falls due (at most
  REST_MAX_MS).
- after_frame(now): the host's own work once the frame is sent (the device's power: dimming,
  the screen off, the battery; a window's skin).
Storage is the host's too: it gives the console its records' storage when it makes it (a file
system, the browser's localStorage, or memory where there is neither).
"""

from array import array

from engine_core.ui.buttons import HELD_ON
from engine_core.ui.tones import tone_hz, tone_ms

from micropython import const

LONG = const(0x80)  # an event's flag: a long press (firmware/buttons.py gives the same)
HELD = const(0x40)  # an event's flag: a press given on its edge is held on past the long press time
DIGIT = const(0x100)  # an event: a digit typed, DIGIT | digit
CLICK = const(0x40000)  # an event: the pointer at a screen pixel, CLICK | phase << 19 | y << 9 | x
FRAME_MS = const(33)  # 30 frames a second; a frame that runs long is not caught up
_POLL_MS = const(2)  # key polling while waiting for the next frame
REST_MAX_MS = const(1000)  # the longest rest: a tick a second, however still the table
REST_STEP_MS = const(2)  # a rest looks at the keys' edge latch this often (a press waits up to this)
_CLICK_HZ = const(2000)  # the click of a button press, on a host that clicks
_CLICK_MS = const(8)
TICKS_MASK = const(0x3FFFFFFF)  # ticks_ms wraps at 2**30 on MicroPython
PRESS_LOG = const(64)  # presses kept with their times (press_log())
_press_ms = array("i", [0] * PRESS_LOG)  # a ring: the app's time of each press...
_press_codes = bytearray(PRESS_LOG)  # ...and its button | LONG | HELD
_pressed = array("i", [0])  # presses handed to the console since start-up


class Loop:
    def __init__(self, app, port, frame_ms=FRAME_MS, clicks=False, stats=None, rest_step_ms=REST_STEP_MS):
        """clicks: a press clicks (CLICK_HZ) when the app's sound is on (the device's buzzer).
        stats: where the loop writes its frame_us and flush_us (None: on itself).
        rest_step_ms: how often a rest looks at the latch (a host whose every look costs
        more than a pin's flag, a desktop's event queue, looks less often)."""
        self.app = app
        self.port = port
        self.screen = app.screen
        self.keys = port.keys
        self.beeper = port.beeper
        self.clock = port.clock
        self.latch = port.latch
        self.frame_ms = frame_ms
        self.rest_step_ms = rest_step_ms
        self.clicks = clicks
        self.frame_us = 0  # what the loop measures (microseconds), unless stats says where
        self.flush_us = 0
        self.stats = stats if stats is not None else self
        self.last_tick = self.clock.ticks_ms()
        self.frame_start = self.last_tick
        self.woke_keys = 0  # buttons whose press only woke the host, while they stay down
        self.rests = 0  # rests begun, and their milliseconds
        self.rested_ms = 0
        # before_press(button, long): a press's long work is coming, its first answer drawn
        # (the Console's; an app without it has none)
        self.before_press = getattr(app, "before_press", None)

    def frame(self):
        """One frame: input, the console's time and sound, the frame sent."""
        clock = self.clock
        start_us = clock.ticks_us()
        now = clock.ticks_ms()
        self.frame_start = now
        app = self.app
        keys = self.keys
        port = self.port
        keys.poll(now)
        app.held(keys.held)  # before the events: a press sees the buttons as they are now
        self.woke_keys &= keys.held
        if keys.count and ((now - self.last_tick) & TICKS_MASK) > 2 * self.frame_ms:
            # After a rest (two frames' time or more) the presses came at its end: its time
            # passes first, as it did before them (a pause before a move does not count after it).
            app.tick((now - self.last_tick) & TICKS_MASK)
            self.last_tick = now
        self.take_all(now)
        app.tick((now - self.last_tick) & TICKS_MASK)
        self.last_tick = now
        keys.defer = app.defers()  # for the presses to come, on the screen as it is now
        # A press decided while the frame's work ran (the computer players' moves, a save) is
        # answered in this frame's flush, not a frame later: at the frame's time, as the next
        # frame would have taken it, and a tick of no time does its frame's work.
        keys.poll(clock.ticks_ms())
        if keys.count:
            app.held(keys.held)
            self.woke_keys &= keys.held
            if self.take_all(now):  # (a key that only woke the host: no tick)
                app.tick(0)
                keys.defer = app.defers()
        sound = app.take_sound()
        if sound:
            self.beeper.beep(tone_hz(sound), tone_ms(sound), now)
        self.beeper.update(now)
        if self.screen.dirty_count:
            flush_us = clock.ticks_us()
            port.flush(self.screen)
            self.stats.flush_us = (clock.ticks_us() - flush_us) & TICKS_MASK
        port.after_frame(now)
        self.stats.frame_us = (clock.ticks_us() - start_us) & TICKS_MASK

    def take_all(self, now):
        """Every event latched, in order, handed to the app; how many it took."""
        keys = self.keys
        taken = 0
        code = keys.next_event()
        while code >= 0:
            if self.port.woke(now):  # the key that woke the host does nothing else...
                if code < DIGIT:
                    self.woke_keys |= 1 << (code & 0x3F)
            elif code >= DIGIT or not (self.woke_keys >> (code & 0x3F)) & 1:
                self.take(code, now)  # (...nor do its repeats or its hold)
                taken += 1
            code = keys.next_event()
        return taken

    def take(self, code, now):
        """One event of the keys, handed to the app."""
        app = self.app
        if code >= CLICK:
            # At the app's time (the frame's reaches it afterwards, in tick()).
            app.click(code & 0x1FF, (code >> 9) & 0x1FF, self.last_tick, code >> 19)
            return
        if code >= DIGIT:
            app.type_digit(code & 0xFF)
            return
        self.keep_press(code)
        long_press = HELD_ON if code & HELD else (code & LONG) != 0
        if long_press != HELD_ON and self.before_press is not None and self.before_press(code & 0x3F, long_press):
            # A press whose work is long (it plays the computer's turn out) shows first that
            # it was taken: the strip the app drew for it goes out before that work.
            if self.screen.dirty_count:
                self.port.flush(self.screen)
        app.press(code & 0x3F, long_press)
        if self.clicks and app.sound_on():
            self.beeper.beep(_CLICK_HZ, _CLICK_MS, now)

    def keep_press(self, code):
        # The app's clock stands at last_tick when it takes the press: the frame's time
        # reaches it afterwards, in tick().
        i = _pressed[0] % PRESS_LOG
        _press_ms[i] = self.last_tick
        _press_codes[i] = code
        _pressed[0] += 1

    def wait(self):
        """Poll the keys until the next frame is due, or until a press is latched: the next
        frame then starts at once, so a press is answered up to a frame sooner. When nothing
        moves, rest instead (rest())."""
        if self.latch is not None and self.idle():
            self.rest()
            return
        clock = self.clock
        keys = self.keys
        frame_ms = self.frame_ms
        now = clock.ticks_ms()
        while ((now - self.frame_start) & TICKS_MASK) < frame_ms:
            keys.poll(now)
            if keys.count:
                return
            clock.sleep_ms(_POLL_MS)
            now = clock.ticks_ms()

    def idle(self):
        """Nothing to do until a key: no key down or waiting, no tone to end, and the app
        idle (engine_core/ui/idle.py)."""
        if self.keys.count or self.keys.busy() or self.beeper.playing:
            return False
        return self.app.idle()

    def rest(self):
        """Sleep until a key's edge is latched or the host's next timer is due (at most
        REST_MAX_MS), looking at the latch every rest_step_ms; nothing is drawn. On the RP2040
        time.sleep_ms waits for the timer's interrupt (WFE); machine.idle() would not: the
        alarm it sets raises an event at once, so each call returns without sleeping."""
        clock = self.clock
        latch = self.latch
        step = self.rest_step_ms
        start = clock.ticks_ms()
        ms = self.port.rest_ms(start)
        now = start
        while not latch.fell and ((now - start) & TICKS_MASK) < ms:
            clock.sleep_ms(min(step, ms - ((now - start) & TICKS_MASK)))
            now = clock.ticks_ms()
        self.rests += 1
        self.rested_ms += (now - start) & TICKS_MASK

    def run(self, frames=-1):
        """Frames until the app says it is done (or `frames` of them, for tests)."""
        while frames != 0 and not self.app.done:
            self.frame()
            self.wait()
            frames -= 1


def press_log():
    """[(ticks_ms, button name, long)] of the last PRESS_LOG presses the console took (long:
    True, False, or "held" for a press held on after it acted), the
    oldest first (at the REPL: firmware.main.press_log)."""
    from engine_core.ui.buttons import NAMES as names
    pressed = _pressed[0]
    out = []
    for k in range(pressed - min(pressed, PRESS_LOG), pressed):
        i = k % PRESS_LOG
        code = _press_codes[i]
        out.append((_press_ms[i], names[code & 0x3F], "held" if code & HELD else (code & LONG) != 0))
    return out
