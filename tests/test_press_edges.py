"""When a press acts (docs/screen.md, "When a press acts"): on the edge that presses it, unless
the screen gives that button a long meaning of its own (App.defers()); in play A picks a card up
as it goes down, and held on it sends that card home."""

import pytest

from engine_core.ui import app as app_mod
from engine_core.ui import buttons as bt
from engine_core.ui.app import App
from engine_core.gfx.screen import Screen
from simulator import framebuf
from simulator.keys import make_app, run
from tests.test_ui import cursor_to, pile

NONE = 255


def test_in_play_a_picks_up_on_its_edge_and_held_on_sends_that_card_home_as_one_undoable_move():
    app = make_app(240, 240, "aces_up", 69)
    cursor_to(app, "col1")  # its 2S can go to the discard
    run(app, "A")
    assert app.table.held != NONE and pile(app, "discard") == 0, "picked up at once"
    run(app, "HELD_A")
    assert pile(app, "discard") == 1 and app.table.held == NONE
    assert app.table.move_count == 1
    run(app, "Y")
    assert pile(app, "discard") == 0 and app.table.move_count == 0


def test_held_on_after_a_hint_sends_the_card_picked_up_not_the_one_the_cursor_moved_to():
    app = make_app(240, 240, "aces_up", 69)
    game = app.table.game
    hint = game.hint()
    src, dst = hint >> 16, (hint >> 8) & 0xFF
    run(app, "X A")
    assert app.table.hand.cursor == app.table.slots.slot_of[dst], "the pick-up moved the cursor on"
    before = game.piles.size[src]
    run(app, "HELD_A")
    assert game.piles.size[src] == before - 1 and pile(app, "discard") == 1
    assert app.table.hand.cursor == app.table.slots.slot_of[src]


def test_held_on_does_nothing_after_a_press_that_picked_nothing_up():
    app = make_app(240, 240, "aces_up", 69)
    cursor_to(app, "col1")
    run(app, "A A")  # picked up, then put back (A on its own pile)
    assert app.table.held == NONE
    run(app, "HELD_A")
    assert pile(app, "discard") == 0 and app.table.move_count == 0
    run(app, "A RIGHT HELD_A")  # a D-pad press since: the hold is no longer A's
    assert pile(app, "discard") == 0


def test_a_card_that_has_no_home_goes_back_with_the_reason_when_held_on():
    app = make_app(240, 240, "aces_up", 69)
    cursor_to(app, "col2")  # QS: no higher spade is exposed
    before = app.table.game.piles.cards[:]
    run(app, "A")
    held = app.table.held
    run(app, "HELD_A")
    if held != NONE:  # (a card with nowhere to go is refused at once, and never held)
        assert app.table.view.shake_slot != NONE
    assert app.table.held == NONE and app.table.game.piles.cards == before


@pytest.mark.parametrize("two_buttons", [False, True])
def test_only_a_button_with_a_long_meaning_on_the_screen_waits(two_buttons):
    app = App(Screen(240, 240, framebuf), two_buttons=two_buttons)
    A, B, X = bt.mask(bt.A), bt.mask(bt.B), bt.mask(bt.X)
    if two_buttons:
        assert app.mode == app_mod.TITLE and app.defers() == B, "long B is back, short B down"
        app.go(app_mod.CHOOSE)
        assert app.defers() == A | B, "long A: the deal number screen"
        app.open_game("aces_up", 69)
        assert app.defers() == B, "A picks up on its edge; long B is the pause menu"
        cursor_to(app, "col1")
        app.press(bt.A)
        assert app.table.held != NONE and app.defers() == A | B, "holding, long A cancels"
        return
    assert app.defers() == 0, "the title: every button acts on its edge"
    app.go(app_mod.CHOOSE)
    assert app.defers() == 0, "the game list deals on A's edge"
    app.no_x = True  # a board without X: a long A stands for it
    assert app.defers() == A, "the game list: long A opens the deal number screen"
    app.go(app_mod.DEAL)
    assert app.defers() == A, "the deal number screen: long A a random number"
    app.no_x = False
    assert app.defers() == 0
    app.open_game("aces_up", 69)
    assert app.defers() == X, "in play: X is the hint and long X redo; A acts on its edge"
    app.go(app_mod.PAUSE)
    assert app.defers() == 0


def test_only_a_board_without_x_gives_a_its_long_meaning_on_the_game_list():
    from firmware.main import has_x
    import boards
    assert not has_x(boards.load("pico_lcd_114")) and not has_x(boards.load("tdisplay"))
    assert has_x(boards.load("pico_lcd_13")) and has_x(boards.load("picosystem"))


@pytest.mark.parametrize("game", ["aces_up", "casket", "spite_malice", "nerts"])
def test_the_pause_menu_opens_over_the_table_as_drawn_sending_only_its_panel(game):
    app = make_app(320, 240, game, 3)
    run(app, "RIGHT A")
    app.screen.clear_dirty()
    refreshed = []
    refresh = app.table.refresh
    app.table.refresh = lambda: (refreshed.append(1), refresh())
    app.press(bt.START)
    assert refreshed == [], "the table is not drawn again under the panel"
    assert app.mode == app_mod.PAUSE
    s = app.screen
    area = sum(s.dirty[4 * i + 2] * s.dirty[4 * i + 3] for i in range(s.dirty_count))
    assert area < s.width * s.height * 3 // 4, "the panel only, not the whole table again"
    shown = bytes(s.buf)
    app.full = True  # drawn from scratch, the same pixels
    app.redraw()
    assert bytes(s.buf) == shown
