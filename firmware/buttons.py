"""Buttons: raw readers (GPIO, ADC D-pad) and the debounce, long-press, repeat and latching
that turn raw levels into the presses the interface wants (docs/screen.md).

    buttons = Buttons(reader, long_mask=mask(A))
    buttons.poll(now_ms)            # as often as possible: every loop pass and while waiting
    code = buttons.next_event()     # -1 when none: else button, button | LONG, button | HELD
    buttons.defer = app.defers()    # the loop does: which buttons wait on this screen

Presses are latched in a small ring between frames, so a tap shorter than a frame is never
lost (it only has to outlast the debounce). Where the pins latch a press's edge (taps()), a
button down at a poll after its edge is pressed then, on the leading edge; the bounce that
follows, and the bounce of a release, are debounced. Every button reports as it goes down, except a
button of `long_mask` that the screen defers (`defer`, set by the loop from App.defers()):
that one reports on release (short) or once when held past `long_ms` (long), never both. A
`long_mask` button that reported as it went down and is held past `long_ms` reports once
more, with HELD: the press it gave is held on (in play, A picks a card up, then sends it
home). The D-pad repeats while held. Boards short of buttons give some long presses another
button's meaning: `long_as` pairs (held button, reported button), e.g. a long B as START
where there is no START button; those always wait. When the loop could not poll for longer than the debounce
(a frame that ran long, a write to the flash), a reading seen before the gap counts, and a
tap made and let go inside it is still reported: the GPIO pins latch the edge of a press in
an interrupt (taps()), which also stamps its time (a long press is timed from the edge,
not from the poll that saw it). Times are ticks_ms values: differences are taken modulo 2**30
as time.ticks_diff does, so the clock may wrap. Nothing here allocates after __init__.
"""

from array import array

from engine_core.ui.buttons import (A, B, COUNT, DOWN, LEFT, LONG_PRESS_MS, NAMES, RIGHT,  # noqa: F401
                                    REPEAT_FIRST_MS, REPEAT_MS, SELECT, START, UP, X, Y, mask)

LONG = 0x80                     # event flag: a long press
HELD = 0x40                     # event flag: a press already reported is held past long_ms
REPEATING = 0x0F                # UP DOWN LEFT RIGHT
TICKS_MASK = 0x3FFFFFFF         # ticks_ms wraps at 2**30 on MicroPython
EVENTS = 16                     # latched events kept between two frames


def elapsed(now, then):
    """ticks_diff(now, then) for a clock that wraps at 2**30 (now not before then)."""
    return (now - then) & TICKS_MASK


class GpioButtons:
    """Active-low push buttons on GPIO pins: read() -> mask of those held; taps() -> mask of
    those that went down since the last call (a falling-edge interrupt per pin). Given the
    clock (ticks_ms), the interrupt also stamps each button's latest falling edge in `edge_at`
    (by button), so a long press is timed from its edge, not from the poll that saw it (which
    may come a frame later). The latest, not the first since the last poll: a tap made and
    let go in a gap without polls must not date a press that follows it (a bounce's edge
    dates it a few ms late, which only makes a long press that much slower)."""

    def __init__(self, pins, buttons, ticks_ms=None):
        self.pins = pins                            # machine.Pin inputs
        self.bits = array("H", [mask(b) for b in buttons])
        self.fell = 0
        self.edge_at = None if ticks_ms is None else array("i", [0] * COUNT)
        self.ticks_ms = ticks_ms
        for i in range(len(pins)):
            self._watch(pins[i], buttons[i])

    def _watch(self, pin, button):
        # In the interrupt nothing may allocate: a closure over more than four names makes
        # its arguments' array on the heap at each call (py/objclosure.c), so this one
        # closes over two and reads the rest from self.
        def went_down(_pin):
            if self.edge_at is not None:
                self.edge_at[button] = self.ticks_ms()   # a small int
            self.fell |= 1 << button
        try:
            pin.irq(went_down, pin.IRQ_FALLING, hard=True)
        except (TypeError, ValueError):             # a port without hard interrupts
            pin.irq(went_down, pin.IRQ_FALLING)

    def read(self):
        held = 0
        pins = self.pins
        for i in range(len(pins)):
            if not pins[i].value():
                held |= self.bits[i]
        return held

    def taps(self):
        # An edge between these two lines is lost; polling sees that press unless the loop
        # stalls right then as well.
        fell = self.fell
        self.fell = 0
        return fell


class AdcDpad:
    """A D-pad on resistor ladders (ODROID-GO): per axis, near full scale is one direction,
    about half scale the other, near zero none."""

    HIGH = 0xB000               # above ~69 % of full scale
    MIDDLE = 0x4000             # above 25 %

    def __init__(self, adcs, high_buttons, middle_buttons):
        self.adcs = adcs                            # machine.ADC, one per axis
        self.high = array("H", [mask(b) for b in high_buttons])
        self.middle = array("H", [mask(b) for b in middle_buttons])

    def read(self):
        held = 0
        adcs = self.adcs
        for i in range(len(adcs)):
            level = adcs[i].read_u16()
            if level > self.HIGH:
                held |= self.high[i]
            elif level > self.MIDDLE:
                held |= self.middle[i]
        return held

    def taps(self):
        return 0                                    # levels only: no edge is latched


class Readers:
    """Several readers seen as one (with the edges' times the GPIO buttons among them stamp)."""

    def __init__(self, readers):
        self.readers = readers
        self.edge_at = None
        for reader in readers:
            if getattr(reader, "edge_at", None) is not None:
                self.edge_at = reader.edge_at

    def read(self):
        held = 0
        readers = self.readers
        for i in range(len(readers)):
            held |= readers[i].read()
        return held

    def taps(self):
        fell = 0
        readers = self.readers
        for i in range(len(readers)):
            fell |= readers[i].taps()
        return fell


class Buttons:
    def __init__(self, reader, long_mask=0, long_as=(), debounce_ms=20, long_ms=LONG_PRESS_MS,
                 repeat_delay_ms=REPEAT_FIRST_MS, repeat_ms=REPEAT_MS):
        self.reader = reader
        self.edge_at = getattr(reader, "edge_at", None)  # each button's last edge, stamped by its pin (or None)
        self.long_target = bytearray(b"\xff" * COUNT)  # 255: a long press stays itself
        always = 0
        for held, reported in long_as:
            self.long_target[held] = reported
            always |= mask(held)
        self.long_mask = long_mask | always
        self.always = always        # long_as buttons: their press always waits
        self.defer = long_mask      # long_mask buttons whose press waits, on the current screen
        self.waiting = 0            # held buttons whose press waited (deferred when they went down)
        self.debounce_ms = debounce_ms
        self.long_ms = long_ms
        self.repeat_delay_ms = repeat_delay_ms
        self.repeat_ms = repeat_ms
        self.held = 0               # debounced state, a mask
        self.raw = 0                # last raw reading
        self.raw_since = 0          # when the raw reading last changed
        self.long_done = 0          # held long-press buttons already reported as long
        self.polled = 0             # when poll() last ran
        self.missed = 0             # taps made inside a gap, waiting to stay released
        self.missed_since = 0
        self.down_at = array("i", [0] * COUNT)
        self.up_at = array("i", [0] * COUNT)  # when each in `released` was let go
        self.released = 0           # buttons let go lately: an edge within the debounce is bounce
        self.next_repeat = array("i", [0] * COUNT)
        self.events = bytearray(EVENTS)
        self.first = 0
        self.count = 0
        self.dropped = 0            # events lost to a full ring (the hardware screen shows it)

    def held_at_start(self):
        """Whether any button is down right now (safe mode at power-on)."""
        return self.reader.read() != 0

    def _emit(self, code):
        if self.count == EVENTS:
            self.dropped += 1
            return
        self.events[(self.first + self.count) % EVENTS] = code
        self.count += 1

    def busy(self):
        """A button is down, or a press is on its way (its debounce; a tap missed in a gap)."""
        return self.held or self.raw or self.missed

    def next_event(self):
        """The oldest latched event (button, | LONG for a long press), or -1."""
        if not self.count:
            return -1
        code = self.events[self.first]
        self.first = (self.first + 1) % EVENTS
        self.count -= 1
        return code

    def poll(self, now):
        reader = self.reader
        raw = reader.read()
        fell = reader.taps()
        if elapsed(now, self.polled) > self.debounce_ms:
            self._after_gap(raw, fell, now)
        else:
            down = fell & raw & ~self.held
            if down:
                self._leading_edges(down, raw, now)
        self.polled = now
        if raw != self.raw:
            self.raw = raw
            self.raw_since = now
        elif raw != self.held and elapsed(now, self.raw_since) >= self.debounce_ms:
            self._change(raw, now)
        if self.missed:
            self._missed_taps(raw, now)
        self._held(now)

    def _leading_edges(self, down, raw, now):
        """Edges the pins latched whose buttons are down now: pressed at once, without waiting
        out the debounce (the bounce after the edge is debounced as ever). A button let go less
        than the debounce ago is bouncing, not pressed again. A waiting button that reads up
        (its release still in its debounce) is let go first: its press came before this one
        (X, then A 15 ms after X's release, is the hint and then its A, not A and then X)."""
        for b in range(COUNT):
            bit = 1 << b
            if down & self.released & bit:
                if elapsed(now, self.up_at[b]) < self.debounce_ms:
                    down &= ~bit
                else:
                    self.released &= ~bit
        if down:
            gone = self.waiting & self.held & ~raw
            if gone:
                self._change(self.held & ~gone, now)
            self._change(self.held | down, now)
            self._down_at_edges(down, now)

    def _after_gap(self, raw, fell, now):
        """No poll for longer than the debounce: a reading seen before the gap and changed
        since was steady long enough to count; a button that went down inside the gap (its
        edge was latched) and is down now is pressed, however soon it is let go; one that is
        up again is a tap once it has stayed up for the debounce (a press that is still
        bouncing reads as up at times: the debounce then reports it, not this)."""
        if raw != self.raw and self.raw != self.held and elapsed(now, self.raw_since) >= self.debounce_ms:
            self._change(self.raw, now)
        down = fell & raw & ~self.held
        if down:
            self._change(self.held | down, now)
            self._down_at_edges(down, now)
        missed = fell & ~raw & ~self.held
        if missed:
            self.missed |= missed
            self.missed_since = now

    def _down_at_edges(self, down, now):
        """Buttons pressed on an edge their pins latched: down since that edge (their long
        press is timed from it), when it came since the last poll."""
        edge_at = self.edge_at
        if edge_at is None:
            return
        since_poll = elapsed(now, self.polled)
        for b in range(COUNT):
            if down & (1 << b) and elapsed(now, edge_at[b]) <= since_poll:
                self.down_at[b] = edge_at[b]

    def _missed_taps(self, raw, now):
        self.missed &= ~raw                         # down again: the debounce reports it
        if not self.missed or elapsed(now, self.missed_since) < self.debounce_ms:
            return
        for b in range(COUNT):
            bit = 1 << b
            if self.missed & bit:
                self._change(self.held | bit, now)  # down and up: one press, never long
                self._change(self.held & ~bit, now)
        self.missed = 0

    def _change(self, new, now):
        """The debounced state becomes `new`: the buttons let go first (a waiting one reports
        its short press then: it went down before any button going down now), then those
        pressed."""
        old = self.held
        self.held = new
        for b in range(COUNT):
            bit = 1 << b
            if old & bit and not new & bit:
                self.up_at[b] = now
                self.released |= bit
                if self.waiting & bit and not self.long_done & bit:
                    self._emit(b)
                self.long_done &= ~bit
                self.waiting &= ~bit
        for b in range(COUNT):
            bit = 1 << b
            if new & bit and not old & bit:
                self.down_at[b] = now
                if self.long_mask & bit & (self.defer | self.always):
                    self.waiting |= bit
                else:
                    self.waiting &= ~bit
                    self._emit(b)
                    self.next_repeat[b] = (now + self.repeat_delay_ms) & TICKS_MASK

    def _held(self, now):
        held = self.held
        if not held:
            return
        for b in range(COUNT):
            bit = 1 << b
            if not held & bit:
                continue
            if self.long_mask & bit:
                if not self.long_done & bit and elapsed(now, self.down_at[b]) >= self.long_ms:
                    self.long_done |= bit
                    target = self.long_target[b]
                    if not self.waiting & bit:
                        self._emit(b | HELD)   # its press went at the edge: now it is held on
                    else:
                        self._emit(b | LONG if target == 255 else target)
            elif REPEATING & bit and elapsed(now, self.next_repeat[b]) < 0x20000000:
                self._emit(b)
                self.next_repeat[b] = (self.next_repeat[b] + self.repeat_ms) & TICKS_MASK
