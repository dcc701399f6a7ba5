"""A deal made and drawn ahead of its A (App.make_ahead) on the screens that keep a copy of
their frame (160x128, 128x64: Screen.kept), checked against the same deal made at A: the
frames are the same byte for byte, the glass does not change while the deal is drawn ahead,
and play goes on from it alike."""

import pytest

from engine_core.ui import screens as ui
from simulator.keys import make_app


def frame(app, ms=33):
    """A frame of the loop: time, then the screen's redraw, then what was marked is sent."""
    app.tick(ms)
    app.redraw()
    sent = app.screen.dirty_count
    app.screen.clear_dirty()
    return sent


def press(app, key):
    from engine_core.ui import buttons as bt
    app.press(bt.NAMES.index(key))
    app.redraw()
    sent = bytes(app.screen.buf), app.screen.all_dirty
    app.screen.clear_dirty()
    return sent


def on_game_list(size, game):
    """A console on the game list, `game`'s row chosen, its frame on the glass."""
    app = make_app(*size, mono=size[1] == 64)
    app.go(ui.CHOOSE)
    app.selected = app.names.index(game)
    app.full = True
    app.redraw()
    app.screen.clear_dirty()
    return app


def to_deal_screen(size, number):
    app = on_game_list(size, "casket")
    press(app, "X")
    assert app.mode == ui.DEAL
    app.deal_screen.set_value(number)
    app.full = True
    app.redraw()
    app.screen.clear_dirty()
    return app


@pytest.mark.parametrize("size", [(160, 128), (128, 64)])
def test_a_deal_drawn_ahead_is_the_deal_drawn_at_a(size):
    waited = to_deal_screen(size, 4242)
    glass = bytes(waited.screen.buf)
    for _ in range(20):  # 660 ms standing: dealt, then drawn, ahead
        frame(waited)
        # What any frame sends comes from here: the screen's own frame, drawn again over the deal.
        assert bytes(waited.screen.buf) == glass
    assert waited.ahead_drawn is waited.ahead_table is not None
    at_once = to_deal_screen(size, 4242)
    ahead, whole = press(waited, "A")
    fresh, _ = press(at_once, "A")
    assert waited.mode == at_once.mode == ui.PLAY and whole
    assert ahead == fresh
    for key in ("RIGHT", "A", "DOWN", "A", "Y", "X"):  # and play goes on alike
        frame(waited)
        frame(at_once)
        assert press(waited, key)[0] == press(at_once, key)[0], key


def test_a_screen_that_keeps_no_frame_draws_nothing_ahead():
    app = to_deal_screen((240, 240), 4242)
    for _ in range(20):
        frame(app)
    assert app.ahead_table is not None and app.ahead_drawn is None


@pytest.mark.parametrize("size", [(160, 128), (128, 64)])
def test_the_game_lists_fresh_deal_drawn_ahead_is_that_deal_drawn_at_a(size):
    waited = on_game_list(size, "nerts")
    glass = bytes(waited.screen.buf)
    for _ in range(20):
        frame(waited)
        assert bytes(waited.screen.buf) == glass
    assert waited.ahead_drawn is not None
    ahead, whole = press(waited, "A")
    assert waited.mode == ui.PLAY and whole
    at_once = to_deal_screen(size, waited.table.game.seed)
    at_once.pending_game = at_once.names.index("nerts")
    fresh, _ = press(at_once, "A")
    assert ahead == fresh
