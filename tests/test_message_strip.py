"""The message strip at the foot of the table (docs/screen.md, "The message strip"): on a
128x64 screen one line, never a third of the table; on every screen it goes with the next key
in play, so what it said about one key never hides the cards the player acts on next."""

import pytest

from engine_core import reasons as why
from engine_core.gfx.paint import CHAR_H, CHAR_W, LINE_H
from engine_core.ui import layouts, overlay
from simulator.keys import make_app, run
from tests.drawn_text import find


def refused(size, mono=False):
    """Aces Up 69: LONG_A on col2's queen of spades is refused ("Needs a higher card of its
    suit shown"), and a frame shows the strip."""
    app = make_app(size[0], size[1], "aces_up", 69, mono)
    table = app.table
    table.hand.cursor = table.slots.slot_of[table.game.pile_id("col2")]
    run(app, "LONG_A TICK")
    assert table.message == why.OUTRANK
    return app


def test_the_strip_on_128x64_is_one_line_and_takes_at_most_12_of_the_64_rows():
    top = overlay.strip_top(128, 64)
    assert 64 - top <= 12 and 64 - top >= CHAR_H + 2
    assert overlay.strip_top(160, 128) == 128 - 2 * LINE_H - 3  # two lines where there is room
    assert overlay.strip_top(240, 135) == 135 - LINE_H - 3


@pytest.mark.parametrize("mono", (False, True))
def test_on_128x64_the_strip_says_a_long_reason_a_line_at_a_time_within_its_band(mono):
    app = refused((128, 64), mono)
    top = overlay.strip_top(128, 64)
    first = find(app, b"Needs a higher card")
    assert first is not None and first[1] >= top and first[1] + CHAR_H <= 64
    assert first[0] >= 0 and first[0] + len(b"Needs a higher card") * CHAR_W <= 128
    assert find(app, b"of its suit shown") is None
    run(app, "TICK " * 21)  # half its time gone
    second = find(app, b"of its suit shown")
    assert second is not None and second[1] == first[1]
    assert find(app, b"Needs a higher card") is None


@pytest.mark.parametrize("size", layouts.SIZES)
@pytest.mark.parametrize("key", ("RIGHT", "UP", "LEFT", "B", "Y"))
def test_the_next_key_in_play_lets_the_strip_go_in_the_next_frame(size, key):
    app = refused(size)
    table = app.table
    run(app, key)
    assert table.message_ms == 0 or table.message != why.OUTRANK, (key, table.message_ms)
    run(app, "TICK")
    assert table.message != why.OUTRANK
    if table.message == 0:  # (a key may say something of its own: Y, nothing to undo)
        assert find(app, b"Needs a higher") is None


def test_a_key_that_is_refused_says_its_own_reason_after_the_last_one_goes():
    app = refused((128, 64))
    table = app.table
    run(app, "LONG_A TICK")  # refused again: said anew, for its whole time
    assert table.message == why.OUTRANK and table.message_ms == 2000
    assert find(app, b"Needs a higher card") is not None


def test_the_strip_waits_its_time_without_a_key():
    app = refused((128, 64))
    run(app, "TICK " * 30)
    assert app.table.message == why.OUTRANK
    run(app, "WAIT WAIT TICK")
    assert app.table.message == 0


@pytest.mark.parametrize("mono", (False, True))
def test_spite_and_malice_on_128x64_says_the_computers_last_card_in_one_line_and_down_shows_the_hand(mono):
    app = make_app(128, 64, "spite_malice", 5, mono)
    table = app.table
    for _ in range(60):
        run(app, "X A A")
        if table.game.turn() == 0 and table.message == why.SAID:
            break
    assert table.message == why.SAID
    words = bytes(table.said[1:1 + table.said[0]])
    assert len(words) <= (128 - 1) // CHAR_W, words  # one line: whole
    assert b"your turn" not in words  # the score corner says whose turn it is
    at = find(app, words)
    assert at is not None and at[1] >= overlay.strip_top(128, 64)
    hand = table.slots.slot_of[table.game.pile_id("p1.hand")]
    run(app, "DOWN TICK")
    assert table.hand.cursor == hand and table.message == 0
    assert find(app, words) is None
    # the hand is drawn where the strip lay: the frame is the full redraw's
    before = bytes(app.screen.buf)
    app.full = True
    app.redraw()
    assert bytes(app.screen.buf) == before


def test_the_computers_card_is_said_in_full_words_where_the_strip_has_room():
    app = make_app(240, 135, "spite_malice", 5)
    table = app.table
    for _ in range(60):
        run(app, "X A A")
        if table.game.turn() == 0 and table.message == why.SAID:
            break
    words = bytes(table.said[1:1 + table.said[0]])
    assert b" of " in words and b" to " in words, words
    assert find(app, words) is not None
