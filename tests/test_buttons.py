"""Buttons: debounce, long press, repeat and latching, over the GPIO and ADC readers."""

import pytest

from firmware.buttons import (A, B, DOWN, HELD, LEFT, LONG, RIGHT, SELECT, START, UP, X, Y, AdcDpad,
                              Buttons, GpioButtons, Readers, mask)
from support.fakes.machine import ADC, Pin


class Raw:
    """A reader whose state the test sets."""

    def __init__(self):
        self.held = 0
        self.fell = 0             # edges a pin interrupt would have latched

    def read(self):
        return self.held

    def taps(self):
        fell = self.fell
        self.fell = 0
        return fell


def events(buttons):
    out = []
    code = buttons.next_event()
    while code >= 0:
        out.append(code)
        code = buttons.next_event()
    return out


def run(buttons, raw, timeline, until, step=2, start=0):
    """Poll every `step` ms from `start` to `until`; `timeline` maps a time to the raw mask."""
    for t in range(start, until, step):
        if t in timeline:
            raw.held = timeline[t]
        buttons.poll(t)


def test_a_press_is_reported_once_it_has_been_steady_for_the_debounce_time():
    raw = Raw()
    b = Buttons(raw, debounce_ms=20)
    run(b, raw, {0: mask(X)}, 18)
    assert events(b) == []
    run(b, raw, {}, 30, start=18)
    assert events(b) == [X]


def test_contact_bounce_shorter_than_the_debounce_time_gives_one_press():
    raw = Raw()
    b = Buttons(raw, debounce_ms=20)
    bounce = {0: mask(START), 4: 0, 6: mask(START), 10: 0, 12: mask(START)}
    run(b, raw, bounce, 100)
    assert events(b) == [START]


def test_a_glitch_shorter_than_the_debounce_time_is_ignored():
    raw = Raw()
    b = Buttons(raw, debounce_ms=20)
    run(b, raw, {10: mask(START), 16: 0}, 100)
    assert events(b) == []


def test_a_short_tap_between_two_frames_is_latched_until_the_frame_takes_it():
    raw = Raw()
    b = Buttons(raw, debounce_ms=20)
    run(b, raw, {0: mask(START), 30: 0}, 60)     # pressed and released while no frame ran
    assert b.held == 0
    assert events(b) == [START]
    assert events(b) == []


def poll_at(buttons, raw, times):
    for t in times:
        buttons.poll(t)


def test_a_tap_made_and_let_go_while_the_loop_was_busy_is_still_reported_once():
    """A flash write or a long frame: no poll from 10 to 100 ms, the tap (30..90 ms) only
    left its edge in the pin's interrupt. It counts once it has stayed up for the debounce."""
    raw = Raw()
    b = Buttons(raw, long_mask=mask(A), long_as=((Y, SELECT),), debounce_ms=20)
    run(b, raw, {}, 12)
    raw.fell = mask(A) | mask(Y) | mask(X)           # A and Y tapped in the gap; X too
    poll_at(b, raw, range(100, 118, 2))
    assert events(b) == []
    poll_at(b, raw, range(120, 200, 2))
    assert events(b) == [A, X, Y], "each once, short (a long Y would be SELECT)"
    assert b.held == 0


def test_a_press_seen_before_the_gap_and_let_go_inside_it_counts():
    raw = Raw()
    b = Buttons(raw, debounce_ms=20)
    run(b, raw, {6: mask(X)}, 12)                    # seen at 6, 8, 10: not yet steady
    raw.held = 0                                     # let go during the gap (no poll)
    poll_at(b, raw, range(100, 160, 2))
    assert events(b) == [X]


def test_a_tap_that_outlasts_the_gap_by_less_than_the_debounce_counts():
    """Down inside the gap (the edge latched), seen down at its end, let go 10 ms later."""
    raw = Raw()
    b = Buttons(raw, long_mask=mask(A), debounce_ms=20)
    run(b, raw, {}, 12)
    raw.fell = mask(A) | mask(X)
    run(b, raw, {100: mask(A) | mask(X), 110: 0}, 200, start=100)
    assert events(b) == [X, A]


def test_a_press_still_bouncing_when_the_gap_ends_is_one_press():
    raw = Raw()
    b = Buttons(raw, debounce_ms=20)
    run(b, raw, {}, 12)
    raw.fell = mask(X)                               # went down just before the poll at 100...
    run(b, raw, {100: 0, 102: mask(X)}, 200, start=100)   # ...read up once, then held
    assert events(b) == [X]


def test_edges_while_polling_steadily_add_nothing():
    raw = Raw()
    b = Buttons(raw, debounce_ms=20)
    for t in range(0, 200, 2):
        raw.held = mask(X) if 10 <= t < 60 else 0
        if t in (10, 14, 18):                        # bounces on the way down
            raw.fell |= mask(X)
        b.poll(t)
    assert events(b) == [X]


def test_gpio_buttons_latch_the_falling_edge_in_the_pins_interrupt():
    pins = [Pin(2), Pin(3)]
    reader = GpioButtons(pins, [UP, A])
    pins[1].value(0)
    pins[1].value(1)                                 # down and up again between two reads
    assert reader.read() == 0
    assert reader.taps() == mask(A)
    assert reader.taps() == 0, "taken once"
    pins[0].value(0)
    assert Readers([reader, AdcDpad([], [], [])]).taps() == mask(UP)


def test_a_long_press_button_reports_short_on_release_before_the_threshold():
    raw = Raw()
    b = Buttons(raw, long_mask=mask(A), long_ms=400)
    run(b, raw, {0: mask(A)}, 200)
    assert events(b) == [], "nothing while it may still become a long press"
    run(b, raw, {200: 0}, 260, start=200)
    assert events(b) == [A]


def test_a_long_press_is_reported_once_when_held_past_the_threshold_and_not_again_on_release():
    raw = Raw()
    b = Buttons(raw, long_mask=mask(A), long_ms=400)
    run(b, raw, {0: mask(A)}, 1000)
    assert events(b) == [A | LONG]
    raw.held = 0
    for t in range(1000, 1100, 2):
        b.poll(t)
    assert events(b) == []


def test_the_d_pad_repeats_while_held():
    raw = Raw()
    b = Buttons(raw, repeat_delay_ms=350, repeat_ms=110)
    run(b, raw, {0: mask(DOWN)}, 600)
    # pressed at 20 (after debounce), repeats at 370 and 480, 590
    assert events(b) == [DOWN, DOWN, DOWN, DOWN]


def test_the_window_and_the_page_repeat_as_the_device_does():
    """One repeat for every host (the issue of keyboard and device drifting apart): the page's
    settings come from the simulator's keymap (tools/build_web.py)."""
    from simulator import keymap
    from tools.build_web import config as page_config
    b = Buttons(Raw())
    config = page_config()
    assert (keymap.REPEAT_FIRST_MS, keymap.REPEAT_MS) == (b.repeat_delay_ms, b.repeat_ms)
    assert (config["repeatFirstMs"], config["repeatMs"]) == (b.repeat_delay_ms, b.repeat_ms)


def test_action_buttons_do_not_repeat():
    raw = Raw()
    b = Buttons(raw)
    run(b, raw, {0: mask(START)}, 2000)
    assert events(b) == [START]


def test_two_buttons_pressed_together_are_both_reported():
    raw = Raw()
    b = Buttons(raw)
    run(b, raw, {0: mask(LEFT) | mask(B)}, 60)
    assert sorted(events(b)) == [LEFT, B]


def test_the_latch_keeps_the_first_presses_when_full_and_counts_the_rest():
    raw = Raw()
    b = Buttons(raw, debounce_ms=2)
    t = 0
    for _ in range(20):
        raw.held = mask(START)
        for _ in range(3):
            b.poll(t)
            t += 2
        raw.held = 0
        for _ in range(3):
            b.poll(t)
            t += 2
    assert events(b) == [START] * 16
    assert b.dropped == 4


def test_times_are_taken_across_the_wrap_of_the_millisecond_clock():
    raw = Raw()
    b = Buttons(raw, long_mask=mask(A), long_ms=400)
    start = 2 ** 30 - 100
    for i in range(0, 600, 2):
        raw.held = mask(A)
        b.poll((start + i) & (2 ** 30 - 1))
    assert events(b) == [A | LONG]


def test_a_long_press_is_timed_from_the_edge_its_pin_latched_not_from_the_poll_that_saw_it():
    """A long B (START on a board without one) pressed while a frame runs for 30 ms: the
    poll after the frame sees it, and the long press still comes long_ms after the edge."""
    clock = [0]
    pins = [Pin(2), Pin(3)]
    b = Buttons(GpioButtons(pins, [A, B], lambda: clock[0]), long_as=((B, START),), long_ms=500)
    for t in range(0, 100, 2):
        clock[0] = t
        b.poll(t)
    clock[0] = 101
    pins[1].value(0)                                 # the edge, stamped in the interrupt
    for t in range(131, 700, 2):                     # the frame ends at 131: polled again
        clock[0] = t
        b.poll(t)
        if events(b) == [START]:
            break
    assert t == 601, "the long press at the edge + 500 ms, within the poll's 2 ms"
    # Without a clock the poll's time stands for the edge.
    pins = [Pin(2), Pin(3)]
    b = Buttons(GpioButtons(pins, [A, B]), long_as=((B, START),), long_ms=500)
    b.poll(98)
    pins[1].value(0)
    for t in range(131, 700, 2):
        b.poll(t)
        if events(b) == [START]:
            break
    assert t == 631


def test_a_stamped_edge_from_before_the_last_poll_is_not_taken_for_a_new_press():
    clock = [1000]
    pins = [Pin(2), Pin(3)]
    reader = GpioButtons(pins, [A, B], lambda: clock[0])
    b = Buttons(reader, long_as=((B, START),), long_ms=500)
    reader.edge_at[B] = 5                            # stale: long before the last poll
    b.poll(990)
    pins[1].value(0)
    reader.edge_at[B] = 5                            # as if the stamp had been missed
    for t in range(1000, 1600, 2):
        b.poll(t)
        if events(b) == [START]:
            break
    assert t == 1500, "timed from the poll that saw it"


def test_a_tap_in_a_gap_does_not_date_the_press_that_follows_it():
    """A save holds the polls off from 0 to 300 ms: B tapped at 10-60, then pressed at 250
    and let go at 450 (held 200 ms). The press is timed from its own edge, 250, not the
    tap's: a short B at its release (START, a long B, would come at 410 from the tap's)."""
    clock = [0]
    pins = [Pin(2), Pin(3)]
    b = Buttons(GpioButtons(pins, [A, B], lambda: clock[0]), long_as=((B, START),), long_ms=400)
    b.poll(0)
    for t, level in ((10, 0), (12, 1), (13, 0), (60, 1), (250, 0)):   # a bounce at 12
        clock[0] = t
        pins[1].value(level)
    got = []
    for t in range(300, 700, 2):
        clock[0] = t
        if t == 450:
            pins[1].value(1)
        b.poll(t)
        got += [(t, code) for code in events(b)]
    # (The tap and the press are one press to the driver: the pin's latch holds one edge.)
    assert got == [(470, B)], "a short B at the release and its debounce, not START"


def test_gpio_buttons_are_active_low():
    pins = [Pin(2), Pin(3)]
    reader = GpioButtons(pins, [UP, A])
    assert reader.read() == 0
    pins[1].value(0)
    assert reader.read() == mask(A)


@pytest.mark.parametrize("level, expected", [
    (0, 0), (3000, 0), (28000, mask(DOWN)), (40000, mask(DOWN)), (60000, mask(UP)), (65535, mask(UP)),
])
def test_the_adc_d_pad_tells_the_two_directions_of_an_axis_by_level(level, expected):
    y, x = ADC(Pin(35)), ADC(Pin(34))
    reader = AdcDpad([y, x], [UP, LEFT], [DOWN, RIGHT])
    y.level = level
    assert reader.read() == expected
    x.level = 30000
    assert reader.read() == expected | mask(RIGHT)


def test_readers_combine():
    a, b = Raw(), Raw()
    a.held, b.held = mask(UP), mask(A)
    assert Readers([a, b]).read() == mask(UP) | mask(A)


def test_a_button_held_at_power_on_is_seen_at_once():
    raw = Raw()
    b = Buttons(raw)
    assert not b.held_at_start()
    raw.held = mask(B)
    assert b.held_at_start()


def test_a_long_press_can_stand_for_a_button_the_board_lacks():
    raw = Raw()
    b = Buttons(raw, long_as=((B, START),), long_ms=400)
    run(b, raw, {0: mask(B)}, 600)
    run(b, raw, {600: 0}, 700, start=600)
    assert events(b) == [START], "long B is START, once, and no B on release"
    run(b, raw, {700: mask(B), 800: 0}, 900, start=700)
    assert events(b) == [B], "a short B is still B"


def test_a_long_press_button_the_screen_does_not_defer_reports_on_its_edge_and_then_held_on():
    raw = Raw()
    b = Buttons(raw, long_mask=mask(A), long_ms=400)
    b.defer = 0                                   # the screen gives A no long meaning
    run(b, raw, {0: mask(A)}, 30)
    assert events(b) == [A], "at the debounced edge, not on release"
    run(b, raw, {}, 600, start=30)
    assert events(b) == [A | HELD], "held past the threshold: once, as held on"
    run(b, raw, {600: 0}, 700, start=600)
    assert events(b) == [], "nothing on release"
    run(b, raw, {700: mask(A), 760: 0}, 800, start=700)
    assert events(b) == [A], "a tap: its press only"


def test_whether_a_press_waits_is_decided_when_it_goes_down():
    raw = Raw()
    b = Buttons(raw, long_mask=mask(A), long_ms=400)
    b.defer = mask(A)
    run(b, raw, {0: mask(A)}, 100)
    b.defer = 0                                   # the screen changed while A was down
    run(b, raw, {100: 0}, 160, start=100)
    assert events(b) == [A], "the press that waited reports on its release, once"
    run(b, raw, {160: mask(A)}, 200, start=160)
    assert events(b) == [A], "the next press acts on its edge"


def test_a_long_press_standing_for_another_button_always_waits():
    raw = Raw()
    b = Buttons(raw, long_as=((B, START),), long_ms=400)
    b.defer = 0
    run(b, raw, {0: mask(B)}, 100)
    assert events(b) == [], "B's long press means START: its short press waits"
    run(b, raw, {100: 0}, 160, start=100)
    assert events(b) == [B]


def test_a_latched_edge_of_a_button_still_down_is_a_press_at_once_while_polling_steadily():
    raw = Raw()
    b = Buttons(raw, debounce_ms=20)
    run(b, raw, {}, 10)
    raw.held, raw.fell = mask(RIGHT), mask(RIGHT)   # the pin's interrupt latched the edge
    b.poll(10)
    assert events(b) == [RIGHT], "on the leading edge, not 20 ms later"
    bounce = {12: 0, 13: mask(RIGHT), 15: 0, 16: mask(RIGHT)}
    for t in range(12, 60, 1):
        if t in bounce:
            raw.held = bounce[t]
            raw.fell |= bounce[t]
        b.poll(t)
    assert events(b) == [], "its bounce is not another press"


def test_the_bounce_of_a_release_is_not_a_new_press():
    raw = Raw()
    b = Buttons(raw, debounce_ms=20)
    raw.held, raw.fell = mask(A), mask(A)
    b.poll(0)
    run(b, raw, {100: 0}, 130, step=1, start=1)       # let go at 100: released at 120
    assert events(b) == [A] and b.held == 0
    raw.held, raw.fell = mask(A), mask(A)              # a bounce just after the release
    b.poll(130)
    raw.held = 0
    run(b, raw, {}, 200, step=1, start=131)
    assert events(b) == []
    raw.held, raw.fell = mask(A), mask(A)              # a real press later
    b.poll(200)
    assert events(b) == [A]


def test_a_key_pressed_while_a_waiting_buttons_release_is_debounced_comes_after_it():
    # X waits for its release (a long X is redo); its short press is reported once the
    # release has been steady for the debounce. A pressed in those 20 ms acted first, so X A
    # gave A and then the hint. Whatever way the next press is seen, X's comes first.
    for latched in (True, False):
        raw = Raw()
        b = Buttons(raw, long_mask=mask(X), debounce_ms=20)
        raw.held, raw.fell = mask(X), mask(X)
        b.poll(0)
        run(b, raw, {100: 0}, 110, step=1, start=1)    # X let go at 100, its release debouncing
        assert events(b) == []
        raw.held = mask(A)
        raw.fell = mask(A) if latched else 0           # A 10 ms after X's release
        run(b, raw, {}, 200, step=1, start=110)
        assert events(b) == [X, A], latched


def test_a_button_held_through_a_waiting_buttons_press_keeps_its_place():
    # A chord: A goes down while X is still held: A is reported at once, X when it is let go.
    raw = Raw()
    b = Buttons(raw, long_mask=mask(X), debounce_ms=20, long_ms=400)
    raw.held, raw.fell = mask(X), mask(X)
    b.poll(0)
    run(b, raw, {50: mask(X) | mask(A)}, 100, step=1, start=1)
    raw.fell = mask(A)
    run(b, raw, {100: mask(A)}, 200, step=1, start=100)
    assert events(b) == [A, X]
