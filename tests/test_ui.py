"""The interface on CPython: what a button does, and that a dirty redraw equals a full one."""

import random
import re

import pytest

from engine_core import PLAYING, WON
from engine_core.gfx import palette as pal
from engine_core.ui import app as app_mod
from engine_core.ui import buttons as bt
from engine_core.ui import layouts
from engine_core.ui import slots as slots_mod
from engine_core.ui import table as table_mod
from simulator.keys import make_app, parse, run
from tests.seats import params

SIZES = layouts.SIZES


def pixel(screen, x, y):
    b = screen.buf[(y * screen.width + x) >> 1]
    return b >> 4 if x % 2 == 0 else b & 15


def full_redraw_bytes(app):
    """The frame a from-scratch redraw of the same state gives."""
    saved = bytes(app.screen.buf)
    app.full = True
    app.redraw()
    full = bytes(app.screen.buf)
    app.screen.buf[:] = saved
    return full


def inside_dirty(screen, x, y):
    d = screen.dirty
    for i in range(screen.dirty_count):
        if d[4 * i] <= x < d[4 * i] + d[4 * i + 2] and d[4 * i + 1] <= y < d[4 * i + 1] + d[4 * i + 3]:
            return True
    return False


def pile(app, name):
    game = app.table.game
    return game.piles.size[game.pile_id(name)]


def cursor_to(app, name):
    table = app.table
    table.hand.cursor = table.slots.slot_of[table.game.pile_id(name)]
    table.hand.cursor_index = 255


def games_with_layouts():
    from engine_core import games
    return [g for g in games.available() if layouts.declaration(g) is not None]


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("game, players", params())
def test_a_dirty_redraw_after_any_key_equals_a_full_redraw_and_stays_inside_its_rectangles(game, players, size):
    app = make_app(size[0], size[1], game, 3, players=players)
    rnd = random.Random(size[0] * size[1])
    keys = ["UP", "DOWN", "LEFT", "RIGHT", "A", "A", "A", "B", "X", "Y", "LONG_A", "LONG_A", "X A A", "TICK"]
    for step in range(160):
        before = bytes(app.screen.buf)
        app.screen.clear_dirty()
        run(app, rnd.choice(keys))
        after = bytes(app.screen.buf)
        if app.mode == app_mod.PLAY:
            assert after == full_redraw_bytes(app), "step %d" % step
        for i in range(len(after)):
            if after[i] != before[i]:
                y, x = divmod(2 * i, size[0])
                assert inside_dirty(app.screen, x, y) or inside_dirty(app.screen, x + 1, y), (step, x, y)
        if app.mode != app_mod.PLAY:
            run(app, "B" if app.mode != app_mod.END else "A")


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("game, players", params())
def test_every_pile_of_the_layout_lies_on_the_screen_without_overlapping_another(game, players, size):
    app = make_app(size[0], size[1], game, 3, players=players)
    t = app.table.slots
    st = t.style
    boxes = []
    for s in range(t.count):
        x, y = t.x[s], t.y[s]
        fan = t.how[s] & layouts.FAN_MASK
        w = t.room[s] if fan == layouts.RIGHT else st.w
        h = t.room[s] if fan == layouts.DOWN else st.h
        if t.how[s] & layouts.COUNT:
            h += 9
        assert 0 <= x and x + w <= size[0] and 0 <= y and y + h <= size[1], (t.game.pile_names[t.pile[s]], x, y, w, h)
        boxes.append((x, y, w, h, t.game.pile_names[t.pile[s]]))
    assert t.count == len(set(t.pile)), "a pile is placed twice"
    status_x, status_y, status_w = t.status
    narrow = status_w < 100
    # A narrow corner: "Score" (unless the word or the rows would not fit: four players at
    # 128x64) and a row a player.
    head = 1 if status_w >= 29 and status_y + 10 * t.game.players + 7 <= size[1] else 0
    lines = (head + (t.game.players if t.game.COMPETITIVE else 1)) if narrow else 1
    boxes.append((status_x, status_y, status_w, lines * 10 - 1, "status line"))
    sx, sy, sw, sh, _ = boxes[-1]
    assert sx >= 0 and sy >= 0 and sx + sw <= size[0] and sy + sh <= size[1]
    for text, lx, ly in t.labels_on_table:
        boxes.append((lx, ly, 6 * len(text) - 1, 7, "label " + text.decode()))
        assert lx >= 0 and ly >= 0 and lx + 6 * len(text) <= size[0] and ly + 7 <= size[1]
    m = slots_mod.MARGIN  # a shaken pile moves this far sideways: it must not touch a neighbour
    for i, a in enumerate(boxes):
        for b in boxes[i + 1:]:
            apart = (a[0] + a[2] + m <= b[0] or b[0] + b[2] + m <= a[0]
                     or a[1] + a[3] <= b[1] or b[1] + b[3] <= a[1])
            assert apart, (a, b)


def test_a_picks_up_and_places_on_the_discard():
    app = make_app(240, 240, "aces_up", 69)  # 2S QS TD 3H: the 2S may be discarded
    cursor_to(app, "col1")
    run(app, "A")
    assert app.table.held == app.table.slots.slot_of[app.table.game.pile_id("col1")]
    cursor_to(app, "discard")
    run(app, "A")
    assert pile(app, "discard") == 1 and pile(app, "col1") == 0
    assert app.table.last_slot == app.table.slots.slot_of[app.table.game.pile_id("discard")]


def test_long_a_sends_the_card_under_the_cursor_to_the_discard():
    app = make_app(240, 240, "aces_up", 69)
    cursor_to(app, "col1")
    run(app, "LONG_A")
    assert pile(app, "discard") == 1
    assert app.table.move_count == 1


def test_an_illegal_placement_shakes_the_pile_and_changes_nothing():
    app = make_app(240, 240, "aces_up", 69)
    cursor_to(app, "col2")  # QS: no higher spade is exposed
    before = app.table.game.piles.cards[:]
    run(app, "LONG_A")
    assert app.table.view.shake_slot == app.table.slots.slot_of[app.table.game.pile_id("col2")]
    shaken = bytes(app.screen.buf)
    run(app, "WAIT")
    assert app.table.view.shake_slot == 255
    assert bytes(app.screen.buf) != shaken  # the pile moved back
    assert app.table.game.piles.cards == before and pile(app, "discard") == 0


def test_while_holding_the_cursor_visits_the_next_pile_even_one_that_cannot_take_the_card():
    app = make_app(240, 240, "aces_up", 69)
    cursor_to(app, "col1")
    run(app, "A RIGHT")  # only the discard can take the 2S; the next column is reached all the same
    table = app.table
    assert table.hand.cursor == table.slots.slot_of[table.game.pile_id("col2")]
    run(app, "B")
    assert table.held == 255


def test_without_a_card_held_the_cursor_visits_the_next_pile():
    app = make_app(240, 240, "aces_up", 69)
    cursor_to(app, "col1")
    run(app, "RIGHT")
    assert app.table.hand.cursor == app.table.slots.slot_of[app.table.game.pile_id("col2")]


def test_a_on_the_stock_deals_only_when_the_rules_allow():
    app = make_app(240, 240, "aces_up", 69)
    cursor_to(app, "stock")
    run(app, "A")  # a discard is available: no deal
    assert pile(app, "stock") == 48 and app.table.view.shake_slot != 255
    run(app, "WAIT")
    cursor_to(app, "col1")
    run(app, "LONG_A")
    cursor_to(app, "stock")
    run(app, "A")
    assert pile(app, "stock") == 44


def test_y_undoes_and_x_points_at_the_hinted_move():
    app = make_app(240, 240, "aces_up", 69)
    run(app, "X")
    table = app.table
    game = table.game
    assert table.hand.cursor == table.slots.slot_of[game.hint() >> 16]
    assert table.hint_slot == table.slots.slot_of[(game.hint() >> 8) & 0xFF]
    run(app, "LONG_A Y")
    assert pile(app, "discard") == 0 and table.move_count == 0
    assert not game.can_undo()


def test_start_opens_the_pause_menu_and_its_items_work():
    app = make_app(240, 240, "aces_up", 69)
    run(app, "START")
    assert app.mode == app_mod.PAUSE
    run(app, "DOWN A")  # Hint: the menu goes in the press's frame, the hint comes in the next
    app.tick(33)
    app.tick(33)
    assert app.mode == app_mod.PLAY and app.table.hint_slot != 255
    run(app, "LONG_A START DOWN DOWN A")  # Undo
    assert pile(app, "discard") == 0
    run(app, "START DOWN DOWN DOWN DOWN DOWN DOWN A")  # Rules
    assert app.mode == app_mod.RULES
    run(app, "DOWN DOWN B B")
    assert app.mode == app_mod.PLAY
    run(app, "START UP A")  # Give up (no move made: nothing to confirm)
    assert app.mode == app_mod.TITLE


def test_the_pause_menu_returns_from_rules_and_settings_to_the_item_that_opened_them():
    from engine_core.ui import texts
    app = make_app(240, 240, "aces_up", 69)
    run(app, "START DOWN DOWN DOWN DOWN DOWN DOWN A")  # Rules
    assert app.mode == app_mod.RULES
    run(app, "B")
    assert app.mode == app_mod.PAUSE and texts.PAUSE[app.selected] == b"Rules"
    run(app, "DOWN A")  # Settings
    assert app.mode == app_mod.SETTINGS
    run(app, "B")
    assert app.mode == app_mod.PAUSE and texts.PAUSE[app.selected] == b"Settings"


def test_card_back_setting_recolours_the_backs():
    app = make_app(240, 240, "aces_up", 69)
    blue = app.screen.palette[pal.BACK]
    run(app, "START UP UP UP A DOWN RIGHT")
    assert app.mode == app_mod.SETTINGS
    assert app.screen.palette[pal.BACK] != blue
    assert app.screen.dirty_count >= 1


def test_title_choice_and_seed_entry_lead_to_a_deal_of_that_seed():
    app = make_app(320, 240)
    assert app.mode == app_mod.TITLE
    run(app, "DOWN A")  # Choose a game
    assert app.mode == app_mod.CHOOSE
    run(app, "DOWN X")  # Sir Tommy, by number
    assert app.mode == app_mod.DEAL
    run(app, "B")  # B returns to the list, on the same game
    assert app.mode == app_mod.CHOOSE and app.selected == 1
    run(app, "X UP LEFT UP UP A")  # seed 0000001 -> 0000022
    assert app.mode == app_mod.PLAY
    assert app.table.game.seed == 22 and app.names[app.game_index] == "sir_tommy"


def test_a_long_a_on_the_game_list_opens_the_seed_entry_on_boards_without_x():
    app = make_app(240, 135)
    run(app, "DOWN A DOWN DOWN LONG_A")
    assert app.mode == app_mod.DEAL
    run(app, "A")
    assert app.mode == app_mod.PLAY and app.table.game.seed == 1 and app.names[app.game_index] == "casket"


def test_one_press_on_the_title_deals_a_fresh_random_game_and_the_next_deal_is_another():
    app = make_app(240, 240)
    run(app, "TICK A")
    assert app.mode == app_mod.PLAY
    first = app.table.game.seed
    run(app, "START DOWN DOWN DOWN DOWN DOWN A")  # New deal: no move yet, nothing to confirm
    assert app.mode == app_mod.PLAY and app.table.game.seed != first


def test_giving_up_a_started_game_asks_first_and_counts_as_a_loss():
    app = make_app(240, 240, "aces_up", 69)
    run(app, "X A A")  # a move: the game is in progress
    moves = app.table.move_count
    for item, back in (("DOWN DOWN DOWN DOWN", app_mod.PAUSE), ("DOWN DOWN DOWN DOWN DOWN", app_mod.PAUSE),
                       ("UP", app_mod.PAUSE)):
        run(app, "START " + item + " A")  # Restart, New deal, Give up
        assert app.mode == app_mod.CONFIRM
        run(app, "B")  # no: back where it came from, the game untouched
        assert app.mode == back and app.table.move_count == moves
        run(app, "B")
        assert app.mode == app_mod.PLAY
    assert app.played[app.game_index] == 0
    run(app, "START DOWN DOWN DOWN DOWN A A")  # Restart, yes
    assert app.mode == app_mod.PLAY and app.table.game.seed == 69 and app.table.move_count == 0
    assert app.played[app.game_index] == 1 and app.won[app.game_index] == 0
    run(app, "X A A START UP A A")  # a move, then Give up, yes
    assert app.mode == app_mod.TITLE and app.played[app.game_index] == 2 and not app.resumable
    run(app, "UP A X A A START UP UP A")  # New game, a move, then To the title: nothing asked
    assert app.mode == app_mod.TITLE and app.resumable and app.played[app.game_index] == 2
    run(app, "A")  # Continue
    assert app.mode == app_mod.PLAY and app.table.move_count == 1


def test_the_statistics_screen_lists_every_game_and_b_returns_to_the_title():
    app = make_app(240, 135)
    run(app, "DOWN DOWN A")
    assert app.mode == app_mod.STATS
    run(app, "B")
    assert app.mode == app_mod.TITLE and app.selected == 2


def test_select_in_play_opens_the_rules_and_b_goes_back_to_play():
    app = make_app(240, 240, "casket", 3)
    run(app, "SELECT")
    assert app.mode == app_mod.RULES
    run(app, "B")
    assert app.mode == app_mod.PLAY


def test_winnable_deals_only_deals_seeds_the_solver_proved_winnable():
    from engine_core.ai import winnable
    app = make_app(240, 240)
    app.settings[app_mod.S_WINNABLE] = 1
    for name in ("aces_up", "sir_tommy"):
        t = winnable.table(name)
        app.game_index = app.names.index(name)
        for _ in range(5):
            run(app, "TICK START UP A" if app.mode == app_mod.PLAY else "TICK")
            app.pending_game = app.game_index
            app.do(app_mod.A_NEW)
            assert winnable.is_winnable(t.BITS, t.FIRST, app.table.game.seed)


def test_two_button_scheme_steps_with_b_and_opens_the_menu_with_long_b():
    app = make_app(240, 135, "aces_up", 69)
    app.settings[app_mod.S_TWO_BUTTONS] = 1
    first = app.table.hand.cursor
    run(app, "B")
    assert app.table.hand.cursor != first
    cursor_to(app, "col1")
    run(app, "A")
    assert app.table.held != 255
    run(app, "LONG_A")  # cancels while holding
    assert app.table.held == 255
    run(app, "LONG_B")
    assert app.mode == app_mod.PAUSE


def test_a_won_game_shows_the_end_panel_and_counts_it():
    app = make_app(240, 240, "aces_up", 1)
    game = app.table.game
    for _ in range(40000):  # play the hints, dealing new seeds until one is won
        if game.status() == WON:
            break
        if game.status() != PLAYING:
            app.table.game.deal(game.seed + 1)
            app.table.new_game()
            app.mode = app_mod.PLAY
            continue
        app.table.play(game.hint())
    assert game.status() == WON
    app.press(bt.UP)  # any key: the app notices the end
    assert app.mode == app_mod.END
    assert app.won[app.game_index] == 1 and app.played[app.game_index] == 1


def test_unknown_keys_are_refused_with_the_list_of_keys():
    with pytest.raises(ValueError, match="unknown key"):
        parse("A JUMP")


def test_sound_events_follow_moves_and_illegal_placements_and_respect_the_setting():
    app = make_app(240, 240, "aces_up", 69)
    cursor_to(app, "col1")
    run(app, "LONG_A")
    assert app.sound_event == 1  # a move
    app.sound_event = 0
    cursor_to(app, "col2")
    run(app, "LONG_A")
    assert app.sound_event == 2  # an illegal placement
    app.sound_event = 0
    app.settings[app_mod.S_SOUND] = 0
    run(app, "LONG_A")
    assert app.sound_event == 0


def test_a_clearly_won_sir_tommy_finishes_itself_with_auto_play():
    from engine_core import cards
    app = make_app(240, 240, "sir_tommy", 5)
    game = app.table.game
    piles = game.piles
    piles.clear()
    for i in range(4):  # ace to queen on each foundation, the kings on two holding piles
        for r in range(12):
            piles.push(game.pile_id("found%d" % (i + 1)), cards.make(0, i, r))
        piles.push(game.pile_id("res%d" % (i % 2 + 1)), cards.make(0, i, 12))
    game.after_load()
    app.table.new_game()
    assert app.table.clearly_won()
    run(app, "WAIT WAIT")
    assert game.status() == WON
    assert app.mode == app_mod.END


def test_sir_tommy_with_a_low_card_under_a_high_one_is_not_clearly_won():
    from engine_core import cards
    app = make_app(240, 240, "sir_tommy", 5)
    game = app.table.game
    piles = game.piles
    piles.clear()
    for i in range(4):
        for r in range(11):
            piles.push(game.pile_id("found%d" % (i + 1)), cards.make(0, i, r))
    res = game.pile_id("res1")
    for i in range(4):
        piles.push(res, cards.make(0, i, 11))  # the queens under the kings: they block
    for i in range(4):
        piles.push(game.pile_id("res2"), cards.make(0, i, 12))
    piles.push(res, piles.pop(game.pile_id("res2")))  # a king on top of the queens
    game.after_load()
    assert not app.table.clearly_won()


def test_the_tables_kept_moves_are_never_stale():
    from array import array
    app = make_app(240, 240, "aces_up", 11)
    table = app.table
    game = table.game
    fresh = array("i", [0] * game.MAX_MOVES)
    rnd = random.Random(5)
    for _ in range(300):  # moves, undos and redos of other moves: journal sizes repeat
        n = table.legal_moves()
        k = game.legal_moves(fresh)
        assert sorted(table.hand.moves[:n]) == sorted(fresh[:k])
        if game.status() != PLAYING or k == 0:
            game.deal(rnd.randrange(1000))
            table.new_game()
        elif rnd.random() < 0.4 and game.can_undo():
            table.press_undo()
        else:
            table.play(fresh[rnd.randrange(k)])


def test_changing_the_jokers_or_target_setting_takes_effect_at_the_next_deal():
    app = make_app(240, 240, "aces_up", 69)
    first = app.table.game
    run(app, "START DOWN DOWN DOWN DOWN DOWN A")  # New deal: the same game object is dealt again
    run(app, "A")
    assert app.table.game is first
    app.settings[app_mod.S_TARGET] = 2  # 100
    app.start_game(8)
    assert app.table.game is not first
    assert app.table.game.options >> 1 == 100


def test_a_won_game_of_a_match_counts_and_a_on_the_end_panel_deals_the_next_game():
    app = make_app(240, 240, "spite_malice", 3)
    table = app.table
    game = table.game
    for _ in range(3000):  # follow the hints until the first game of the match ends
        if app.mode != app_mod.PLAY:
            break
        table.play(game.hint())
        app.press(bt.UP)
    assert app.mode == app_mod.END
    scores = (game.score(0), game.score(1))
    assert app.played[app.game_index] == 1
    assert app.won[app.game_index] == (1 if scores[0] > scores[1] else 0)
    run(app, "A")
    assert app.mode == app_mod.PLAY and game.status() == PLAYING
    assert (game.score(0), game.score(1)) == scores  # the same match goes on


def _nerts_p1_work_piles(app, layout):
    """Give p1 of the app's Nerts game these work piles (lists of kinds), bots off."""
    game = app.table.game
    game.bots = False
    piles = game.piles
    for w in range(4):
        p = game.pile_id("p1.work%d" % (w + 1))
        while piles.size[p]:
            piles.push(game.pile_id("p1.stock"), piles.pop(p))
    for w, kinds in enumerate(layout):
        for kind in kinds:
            for name in ("p1.stock", "p1.nerts", "p1.waste"):
                src = game.pile_id(name)
                i = next((i for i in range(piles.size[src]) if piles.card(src, i) % 52 == kind), -1)
                if i >= 0:
                    piles.push(game.pile_id("p1.work%d" % (w + 1)), game.piles.remove_at(src, i))
                    break
    game.after_load()
    app.table.hand.cached_n = -1


def test_a_pick_past_the_top_of_a_pile_an_undo_shrank_moves_no_run():
    # p1.work1*2>p1.work2 puts TD 9C on QH JS; the cursor is put on the 9C (index 3); undo
    # leaves QH JS and an index past the top. A there must not pick up the QH JS run (which
    # the cursor does not show) and move it onto the KC.
    from engine_core import cards
    app = make_app(320, 240, "nerts", 3)
    table = app.table
    game = table.game
    S, H, D, C = 0, 1, 2, 3
    _nerts_p1_work_piles(app, ([cards.make(0, D, 9), cards.make(0, C, 8)],
                               [cards.make(0, H, 11), cards.make(0, S, 10)],
                               [cards.make(0, C, 12)], [cards.make(0, D, 1)]))
    table.play(game.parse_move("p1.work1*2>p1.work2"))
    table.hand.cursor = table.slots.slot_of[game.pile_id("p1.work2")]
    table.hand.cursor_index = 3
    table.press(bt.Y)
    assert pile(app, "p1.work2") == 2
    table.press(bt.A)
    if table.held != table_mod.NONE:
        table.hand.cursor = table.slots.slot_of[game.pile_id("p1.work3")]
        table.press(bt.A)
    assert pile(app, "p1.work2") == 2 and pile(app, "p1.work3") == 1


def test_a_refused_move_shows_the_engines_own_reason_at_the_foot_and_it_goes_after_a_while():
    from engine_core import reasons as why
    for seed in range(1, 40):  # a deal whose first four cards offer a discard
        app = make_app(240, 135, "aces_up", seed)
        table = app.table
        n = table.legal_moves()
        if all(m >> 16 != 255 for m in table.hand.moves[:n]) and n > 0:
            break
    cursor_to(app, "stock")
    run(app, "A")  # deal while a discard remains
    assert table.message == why.DEAL_WAIT and table.game.piles.size[0] == 48
    y = app.height - 5
    assert any(pixel(app.screen, x, y) == pal.WHITE for x in range(4, 120))  # the words
    run(app, "WAIT " * 5)
    assert table.message == 0 and pixel(app.screen, 2, app.height - 2) != pal.PANEL


@pytest.mark.parametrize("game, pile, reason", [("sir_tommy", "found1", "EMPTY"), ("casket", "stock", "PLACE_FIRST")])
def test_a_on_an_empty_pile_or_a_refused_action_says_why(game, pile, reason):
    from engine_core import reasons as why
    app = make_app(240, 240, game, 3)
    cursor_to(app, pile)
    run(app, "A")
    assert app.table.message == getattr(why, reason)


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("game", ["spite_malice", "nerts"])
def test_the_cursor_starts_on_and_stays_among_your_piles_and_the_shared_ones(game, size):
    from engine_core.ui.layouts import THEIRS
    app = make_app(size[0], size[1], game, 5)
    table = app.table
    assert not table.slots.how[table.hand.cursor] & THEIRS
    rnd = random.Random(size[0])
    for _ in range(80):
        run(app, rnd.choice(["UP", "DOWN", "LEFT", "RIGHT"]))
        assert not table.slots.how[table.hand.cursor] & THEIRS


@pytest.mark.parametrize("size", SIZES)
def test_a_wild_king_on_a_centre_stack_shows_the_rank_it_stands_for(size):
    app = make_app(size[0], size[1], "spite_malice", 4)
    table = app.table
    game = table.game
    piles = game.piles
    centre = game.pile_id("center1")
    while piles.size[centre]:
        piles.pop(centre)
    for card in (0, 1, 12):  # ace, two, then a king standing for the three
        piles.push(centre, card)
    table.valid = False
    table.refresh()
    s = table.slots.slot_of[centre]
    st = table.slots.style
    x, y, w, h = table.slots.x[s] + st.w - 9, table.slots.y[s] + st.h - 10, 7, 9  # the tag at the card's foot
    colours = {pixel(app.screen, x + i, y + j) for i in range(w) for j in range(h)}
    assert pal.WHITE in colours and pal.BLACK in colours and pal.GOLD not in colours


def test_the_computers_turn_is_shown_move_by_move_with_a_line_saying_what_it_played():
    from engine_core import reasons as why
    from engine_core.ui.table import COMPUTER_STEP_MS
    app = make_app(240, 240, "spite_malice", 4)
    table = app.table
    game = table.game
    for _ in range(60):  # the player's hints until one ends the turn
        app.press(bt.X)
        app.press(bt.A)
        app.press(bt.A)
        if table.computer_ms:
            break
    assert game.computer_to_move() and table.computer_ms == COMPUTER_STEP_MS
    heads = []
    while table.computer_ms:
        heads.append(game.history.moves)
        app.tick(COMPUTER_STEP_MS)
        said = bytes(table.said[1:table.said[0] + 1])
        assert table.message == why.SAID and re.fullmatch(
            rb"(Ace|Two|Three|Four|Five|Six|Seven|Eight|Nine|Ten|Jack|Queen|King) of "
            rb"(spades|hearts|diamonds|clubs) to (centre [1-3]|side [1-4]: your turn)", said), said
    assert len(heads) >= 1 and not game.computer_to_move()
    before = game.piles.cards[:]
    run(app, "Y")  # undo would show the cards drawn since: refused
    assert table.message == why.TURN_PLAYED and game.piles.cards[:] == before


def test_undo_at_a_fresh_deal_says_there_is_nothing_to_undo_not_that_the_computer_played():
    from engine_core import reasons as why
    from engine_core.ui.view import MSG_NO_UNDO
    for seed in range(4, 12):
        app = make_app(240, 240, "spite_malice", seed)
        table = app.table
        if table.game.history.moves:  # the computer began: its cards are drawn, undo refused
            run(app, "Y")
            assert table.message == why.TURN_PLAYED
            continue
        run(app, "Y")
        assert table.message == MSG_NO_UNDO, seed
        return
    pytest.fail("no deal where the player begins")


def test_a_key_during_the_computers_turn_lets_it_finish_at_once():
    app = make_app(240, 240, "spite_malice", 4)
    table = app.table
    for _ in range(60):
        app.press(bt.X)
        app.press(bt.A)
        app.press(bt.A)
        if table.computer_ms:
            break
    app.press(bt.LEFT)
    assert table.computer_ms == 0 and not table.game.computer_to_move()


@pytest.mark.parametrize("game", ["aces_up", "sir_tommy", "casket"])
def test_redo_plays_again_what_undo_took_back_and_a_new_move_forgets_it(game):
    from engine_core import reasons as why
    from engine_core.protocol import state_json
    app = make_app(240, 240, game, 11)
    table = app.table
    states = [state_json(table.game)]
    for _ in range(3):
        run(app, "X A A")
        states.append(state_json(table.game))
    run(app, "Y Y")
    assert state_json(table.game) == states[1]
    run(app, "START DOWN DOWN DOWN A")  # Redo
    assert state_json(table.game) == states[2] and app.mode == app_mod.PLAY
    run(app, "START DOWN DOWN DOWN A")
    assert state_json(table.game) == states[3]
    run(app, "Y X A A START DOWN DOWN DOWN A")  # undo, a move of its own: nothing to redo
    assert table.message == why.NO_REDO


@pytest.mark.parametrize("on", [1, 0])
def test_a_moved_card_slides_to_its_pile_over_a_few_frames_unless_the_setting_is_off(on):
    from engine_core.ui.view import SLIDE_FRAMES
    app = make_app(240, 240, "sir_tommy", 5)
    if not on:
        run(app, "START UP UP UP A UP UP UP A B B")  # Settings: Card slide, third from last, turned off
        assert app.settings[app_mod.S_SLIDE] == 0 and app.mode == app_mod.PLAY
    table = app.table
    run(app, "X A")  # the hint's card picked up
    still = bytes(app.screen.buf)
    run(app, "A")  # placed
    sliding = bytes(app.screen.buf)
    assert (table.slide & 0xF == SLIDE_FRAMES) == bool(on)
    assert sliding == full_redraw_bytes(app)
    frames = []
    for _ in range(SLIDE_FRAMES):
        run(app, "TICK")
        frames.append(bytes(app.screen.buf))
        assert frames[-1] == full_redraw_bytes(app)
    assert table.slide & 0xFF == 0  # landed, nothing left drawn on the way
    table.valid = False
    table.refresh()
    assert bytes(app.screen.buf) == frames[-1]
    assert (len(set(frames[:-1] + [sliding])) > 1) == bool(on)  # the card was seen on its way
    assert still != sliding


def test_an_end_that_comes_without_a_key_takes_no_a_at_once():
    # Every Nerts player stuck ends the round in a frame; a player still pressing A for the
    # cards dealt the next round at once and never saw the round's end.
    from engine_core.game import V_STATUS
    from engine_core.ui.app import GUARD_MS
    app = make_app(240, 240, "nerts", 3)
    run(app, "TICK")
    table = app.table
    table.game._end_round(1)
    table.game.vars[V_STATUS] = table.game._compute_status()
    app.tick(33)
    app.redraw()
    assert app.mode == app_mod.END
    seed = table.game.history.clears
    app.press(bt.A)  # meant for the cards
    app.redraw()
    assert app.mode == app_mod.END and table.game.history.clears == seed
    for _ in range(GUARD_MS // 33 + 1):
        app.tick(33)
    app.press(bt.A)  # seen, and answered: the next round
    app.redraw()
    assert app.mode == app_mod.PLAY
