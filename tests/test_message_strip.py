"""The message strip at the foot of the table (docs/screen.md, "The message strip"): on a
128x64 screen one line, never a third of the table; on every screen it goes with the next key
in play, so what it said about one key never hides the cards the player acts on next."""

import pytest

from engine_core import reasons as why
from engine_core.gfx.paint import CHAR_H, CHAR_W, LINE_H
from engine_core.ui import layouts, overlay
from engine_core.ui.settings import S_TWO_BUTTONS
from engine_core.ui.view import MSG_NONE
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


@pytest.mark.parametrize("mono", (False, True))
def test_on_128x64_words_of_one_line_show_for_all_their_time(mono):
    app = make_app(128, 64, "nerts", 1, mono=mono)
    run(app, "TICK")
    app.table.say(why.EMPTY)  # "That pile is empty": one line
    for _ in range(10):  # most of its two seconds, in frames of about 180 ms
        run(app, "TICK " * 5)
        if app.table.message != why.EMPTY:
            break
        assert find(app, b"That pile is empty") is not None, app.table.message_ms


@pytest.mark.parametrize("size", layouts.SIZES)
def test_with_two_buttons_a_short_b_lets_the_strip_go_as_any_key(size):
    app = refused(size)
    table = app.table
    app.settings[S_TWO_BUTTONS] = 1
    run(app, "B")  # the next pile (or card): a key in play
    run(app, "TICK")
    assert table.message != why.OUTRANK and find(app, b"Needs a higher") is None


def test_a_key_that_is_refused_says_its_own_reason_after_the_last_one_goes():
    app = refused((128, 64))
    table = app.table
    run(app, "LONG_A")  # refused again: said anew (in the frame after the press), for its whole time
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


# --- panels, settings and Nerts's rows on the small screens ---

def lit_or_colour(app, x, y):
    s = app.screen
    if s.mono:
        return (s.buf[(y >> 3) * s.width + x] >> (y & 7)) & 1
    return (s.buf[(y * s.width + x) >> 1] >> (4 if x % 2 == 0 else 0)) & 15


@pytest.mark.parametrize("mono", (False, True))
@pytest.mark.parametrize("keys", ("START", "X A A START UP A", "X A A START DOWN DOWN DOWN DOWN A"))
def test_on_128x64_the_pause_menu_and_its_questions_leave_no_row_of_the_table_above_or_below(mono, keys):
    from engine_core.ui import screens as ui
    app = make_app(128, 64, "aces_up", 3, mono)
    run(app, keys)
    assert app.mode in (ui.PAUSE, ui.CONFIRM)
    x, y, w, h = app.over[0], app.over[1], app.over[2], app.over[3]
    assert y == 0 and h == 64
    for row in (0, 63):  # the panel's frame, whole, where the status line's letters were
        frame = {lit_or_colour(app, px, row) for px in range(x, x + w)}
        assert len(frame) == 1, (row, frame)
    run(app, "B B" if app.mode == ui.CONFIRM else "B")
    assert app.mode == ui.PLAY
    before = bytes(app.screen.buf)
    app.full = True
    app.redraw()
    assert bytes(app.screen.buf) == before  # the table mended where the panel lay


def settings_rows(app):
    from tests.drawn_text import find as find_words
    return [name for name in (b"Card back", b"Sound", b"Computer speed") if find_words(app, name)]


def test_a_one_bit_screen_leaves_the_card_back_out_of_the_settings():
    from engine_core.ui import settings as st
    for size in ((128, 64), (160, 128), (240, 240)):
        mono = make_app(size[0], size[1], None, 1, True)
        run(mono, "DOWN DOWN DOWN A")
        colour = make_app(size[0], size[1], None, 1, False)
        run(colour, "DOWN DOWN DOWN A")
        assert find(mono, b"Card back") is None and find(mono, b"Blue") is None
        assert find(colour, b"Card back") is not None
        assert mono.screens[mono.mode].length(mono) == st.COUNT - 1
        # the second row is the computer's speed, and RIGHT changes it (not the card back)
        back = mono.settings[st.S_BACK]
        speed = mono.settings[st.S_SPEED]
        run(mono, "DOWN RIGHT")
        assert mono.settings[st.S_BACK] == back and mono.settings[st.S_SPEED] != speed


def test_on_128x64_a_settings_value_stands_apart_from_the_scroll_mark():
    from engine_core.ui.menus import inset
    from engine_core.ui.screens import PANEL_RECT
    app = make_app(128, 64, None, 1, True)
    run(app, "DOWN DOWN DOWN A DOWN DOWN DOWN DOWN")  # Target score: "Game's", beside the mark
    at = find(app, b"Game's")
    assert at is not None
    app.screens[app.mode].panel_rect(app)
    mark_x = PANEL_RECT[0] + PANEL_RECT[2] - 3
    assert at[0] + 6 * len(b"Game's") - 2 <= mark_x - 5  # its last column, then four dark ones
    assert inset(app) == 4


@pytest.mark.parametrize("mono", (False, True))
def test_nerts_on_128x64_marks_your_row_of_work_piles_and_the_rules_say_whose_the_other_is(mono):
    from engine_core.games import nerts
    app = make_app(128, 64, "nerts", 3, mono)
    table = app.table
    slots = table.slots
    game = table.game
    s = slots.slot_of[game.pile_id("p1.work1")]
    hits = [(x, y) for x in range(0, slots.x[s]) for y in range(slots.y[s], slots.y[s] + 9)
            if find_at(app, b"Y", x, y)]
    assert hits
    x, y = hits[0]
    assert x + 5 + 2 <= slots.x[s]  # before your first work pile, clear of it when it shakes
    for other in range(slots.count):  # over no card
        ox, oy = slots.x[other], slots.y[other]
        n = game.piles.size[slots.pile[other]]
        ext = slots.extent(other, n, slots.step(other, n))
        assert not (ox < x + 5 and x < ox + 13 and oy < y + 7 and y < oy + max(ext, 9)), other
    assert b"row marked You (Y on the smallest screen)" in nerts.RULES_PAGE
    assert b"with two players the computer's row is above yours" in nerts.RULES_PAGE


def find_at(app, letter, x, y):
    from tests.drawn_text import shows_at
    return shows_at(app, letter, x, y)


@pytest.mark.parametrize("size", layouts.SIZES)
def test_the_strip_going_sends_its_band_again_not_the_whole_screen(size):
    app = refused(size)
    app.redraw()
    screen = app.screen
    assert find(app, b"Needs a higher") is not None
    screen.clear_dirty()
    run(app, "RIGHT")  # the cursor moves on, and the strip goes
    app.redraw()
    assert app.table.message == 0 and find(app, b"Needs a higher") is None
    assert not screen.all_dirty
    top = overlay.strip_top(screen.width, screen.height)
    strip = screen.width * (screen.height - top)
    style = app.table.slots.style
    cursor = 2 * style.w * style.h  # the cursor's old and new cards
    assert screen.dirty_pixels() <= strip + 2 * cursor, (screen.dirty_pixels(), strip)


@pytest.mark.parametrize("game,seed", [("nerts", 1), ("aces_up", 5), ("casket", 3)])
def test_the_pause_menus_hint_lets_the_strips_words_about_the_key_before_go_as_x_does(game, seed):
    # A refusal in the strip, then Hint from the pause menu: what the strip said was about
    # the key before, so it goes, as it does when X is pressed in play.
    for keys in ("START DOWN A", "X"):
        app = make_app(128, 64, game, seed, mono=True)
        run(app, "A RIGHT A A DOWN A")
        assert app.table.message != MSG_NONE, (game, "a refusal shows")
        run(app, keys)
        for _ in range(2):  # the press's frame, then the next (the menu's Hint is sought there)
            app.tick(33)
            app.redraw()
        # (the words a hint that is a pile's action brings are the hint's own)
        assert app.table.message in (MSG_NONE, why.HINT_HERE), (game, keys, app.table.message)
