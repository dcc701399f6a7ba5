"""A press's frame holds its answer and nothing it did not ask for (docs/screen.md, "How a
keypress becomes pixels"): work for the next key waits for a frame that answers none, the game
list makes the chosen game's table while the player reads it, and a panel over the table is
taken away by drawing the table again only where it lay."""

from engine_core.gfx import palette as pal
from engine_core.ui import idle
from engine_core.ui import screens as ui
from engine_core.ui.app import MAKE_AHEAD_MS
from simulator.keys import make_app, run
from tests.test_redraw import changed_outside_dirty, from_scratch

FRAME = 33


def cards_present(game):
    """Every card of the game's deck lies in some pile, once."""
    piles = game.piles
    seen = [piles.cards[piles.start[p] + i] for p in range(piles.count) for i in range(piles.size[p])]
    return sorted(seen) == sorted(c for c in range(256) if game.is_card(c))[:game.deck_size()]


def open_game_list(app):
    run(app, "DOWN A")  # the title's second row: Choose a game
    assert app.mode == ui.CHOOSE


def test_the_chosen_games_table_is_made_while_the_choice_stands_and_dealt():
    app = make_app(240, 240)
    open_game_list(app)
    name = app.names[app.selected]
    assert app.tables.get(name) is None
    assert not idle.app_idle(app), "the console stays awake for the table it will make"
    app.tick(FRAME)  # the frame that answers the press: the choice stands from here
    app.tick(MAKE_AHEAD_MS - FRAME)
    assert app.tables.get(name) is None, "not before the choice has stood MAKE_AHEAD_MS"
    app.tick(FRAME)
    table = app.tables.get(name)
    assert table is not None and cards_present(table.game), "made, and dealt like every table"
    assert app.table is None and app.mode == ui.CHOOSE, "nothing else changes on the screen"
    assert idle.app_idle(app)
    run(app, "A")
    assert app.mode == ui.PLAY and app.table is table, "A deals on the table made ahead"
    assert cards_present(table.game)


def test_a_game_the_cursor_passes_over_gets_no_table():
    app = make_app(240, 240)
    open_game_list(app)
    for _ in range(len(app.names) + 2):
        app.press(1)  # DOWN, a key every 100 ms
        app.tick(FRAME)
        app.tick(FRAME)
        app.tick(FRAME)
    made = [name for name in app.names if app.tables.get(name) is not None]
    assert made == [], made


def test_the_moves_for_the_next_key_are_listed_in_a_frame_that_answers_no_press():
    app = make_app(240, 240, "aces_up", 69)
    table = app.table
    app.tick(FRAME)
    assert not table.moves_wanted()
    app.press(3)  # RIGHT: the cursor moves, the position stands
    app.press(0)  # UP
    app.press(5)  # B: nothing held, nothing changes
    table.hand.cached_n = -1  # as after a move: the moves are to be listed again
    app.tick(FRAME)  # the frame that answers the presses
    assert table.moves_wanted(), "listed in the frame that answered a press"
    app.tick(FRAME)
    assert not table.moves_wanted(), "not listed in the idle frame after it"


def test_closing_the_pause_menu_sends_the_panels_part_of_the_screen_and_draws_what_a_full_redraw_would():
    for game in ("aces_up", "nerts", "spite_malice"):
        app = make_app(240, 240, game, 5)
        run(app, "START")
        assert app.mode == ui.PAUSE
        px, py, pw, ph = app.over[0], app.over[1], app.over[2], app.over[3]
        before = bytes(app.screen.buf)
        app.screen.clear_dirty()
        run(app, "START")
        assert app.mode == ui.PLAY
        assert not app.screen.all_dirty, game
        assert app.screen.dirty_pixels() < 240 * 240, game
        assert not changed_outside_dirty(app.screen, before, bytes(app.screen.buf)), game
        d = app.screen.dirty
        outside = 0  # piles that reach out of the panel, as drawn, are sent only inside it
        for r in range(app.screen.dirty_count):  # (but for slivers not worth a look)
            x, y, w, h = d[4 * r], d[4 * r + 1], d[4 * r + 2], d[4 * r + 3]
            ox = min(x + w, px + pw) - max(x, px)
            oy = min(y + h, py + ph) - max(y, py)
            outside += w * h - (ox * oy if ox > 0 and oy > 0 else 0)
        assert outside <= pw * ph // 10, (game, outside)
        assert bytes(app.screen.buf) == from_scratch(app, pal.CURSOR), game


def test_the_pause_menus_panel_is_as_wide_as_its_words_and_closing_it_sends_that_part_alone():
    # On 240x240 a menu's panel is 220 wide; the pause menu's words ("To the title", "Paused"
    # and the deal's number) need 136: the table shows on both sides, and less of it is drawn
    # and sent again when the menu closes.
    from tests import drawn_text
    for game, seed in (("spite_malice", 5), ("casket", 5), ("nerts", 12345678)):
        app = make_app(240, 240, game, seed)
        run(app, "START")
        px, py, pw, ph = app.over[0], app.over[1], app.over[2], app.over[3]
        assert (px, pw) == (52, 136), (game, px, pw)
        for words in (b"Paused", b"Deal", b"%d" % seed, b"To the title", b"Give up"):
            drawn = drawn_text.glyphs(app, words)
            at = [(x, y) for y in range(py, py + ph - 7) for x in range(px, px + pw - 6 * len(words) + 2)
                  if drawn_text.shows_at(app, words, x, y, drawn)]
            assert at and px + 4 <= at[0][0] and at[0][0] + 6 * len(words) <= px + pw - 4, (game, words)
        app.screen.clear_dirty()
        run(app, "START")
        assert app.mode == ui.PLAY
        assert app.screen.dirty_pixels() <= pw * ph * 5 // 4, (game, app.screen.dirty_pixels())  # (piles reach out)
        assert bytes(app.screen.buf) == from_scratch(app, pal.CURSOR), game


def test_closing_the_pause_menu_over_a_card_on_its_way_sends_the_panels_part_and_the_slide_goes_on():
    # The card's slide stands still under the menu; closing it once drew the whole table again.
    from engine_core.ui import buttons as bt
    from engine_core.ui.overlay import SLIDE_DRAWN, SLIDE_LEFT
    for game, seed in (("aces_up", 5), ("spite_malice", 1), ("casket", 3), ("sir_tommy", 2)):
        app = make_app(240, 240, game, seed)
        app.tick(FRAME)
        for key in "X A A START".split():
            app.press(bt.NAMES.index(key))
            app.tick(FRAME)
        slide = app.table.view.slide
        assert app.mode == ui.PAUSE and slide & SLIDE_DRAWN and slide & SLIDE_LEFT, game
        app.screen.clear_dirty()
        run(app, "START")
        assert app.mode == ui.PLAY
        d = app.screen.dirty
        rects = [d[4 * i + 2] * d[4 * i + 3] for i in range(app.screen.dirty_count)]
        assert not app.screen.all_dirty and max(rects) < 240 * 200, (game, rects)
        for _ in range(6):  # the card's last frames, then its pile
            assert bytes(app.screen.buf) == from_scratch(app, pal.CURSOR), game
            app.tick(FRAME)
        assert not app.table.view.slide & SLIDE_LEFT, game


def test_the_pause_menu_opened_before_the_next_frame_stands_over_the_table_as_it_stands():
    # A hint (its destination framed) or a refusal (the strip at the foot) waits for the next
    # frame; START before it must not open the menu over the table as it was drawn before.
    from engine_core.ui import buttons as bt
    for game, size, seed, keys in (("aces_up", (320, 240), 3, "X START"),
                                   ("spite_malice", (240, 135), 1, "X START"),
                                   ("aces_up", (240, 240), 2, "A RIGHT DOWN T500 A START")):
        app = make_app(size[0], size[1], game, seed)
        for key in keys.split():
            if key == "T500":
                app.tick(500)
            else:
                app.press(bt.NAMES.index(key))
        assert app.mode == ui.PAUSE
        for _ in range(3):
            assert bytes(app.screen.buf) == from_scratch(app, pal.CURSOR), (game, size, keys)
            app.tick(50)


def test_only_the_last_game_passed_over_keeps_a_table_made_ahead():
    app = make_app(240, 240)
    open_game_list(app)
    app.tick(FRAME)
    for k in range(len(app.names)):
        app.tick(MAKE_AHEAD_MS + FRAME)  # the choice stands: its table is made
        app.press(1)  # DOWN
        app.tick(FRAME)
    made = [name for name in app.names if app.tables.get(name) is not None]
    assert len(made) == 1, made
    run(app, "UP A")  # the last one made ahead is dealt, and kept
    played = app.table.game.NAME
    assert played == made[0] and app.mode == ui.PLAY
    app.tick(FRAME)
    others = [name for name in app.names if name != played]
    playing = app.current
    app.current = app.screens[ui.CHOOSE]  # the game list over the game played, as from its title
    for name in others:  # tables made ahead for other games never let the one played go
        app.selected = app.names.index(name)
        app.make_ahead(MAKE_AHEAD_MS, FRAME)
    app.current = playing
    assert app.tables.get(played) is app.table
    assert [name for name in others if app.tables.get(name) is not None] == others[-1:]


def test_a_question_from_the_pause_menu_draws_no_table_under_a_panel_over_the_whole_screen():
    # On 240x135, 160x128 and 128x64 the pause menu's panel reaches the screen's edges; the
    # question asked from it, and B back to the menu, take that panel whole: no pile of the
    # table beneath is drawn again (it once was, every pile, only to be covered).
    for size in ((240, 135), (160, 128), (128, 64), (240, 240)):
        app = make_app(*size, "casket", 3)
        run(app, "X A A START UP")  # the menu's last row: Give up
        view = app.table.view
        drawn = []
        draw_slot = view.draw_slot
        view.draw_slot = lambda s, *rest: (drawn.append(s), draw_slot(s, *rest))[1]
        run(app, "A")
        assert app.mode == ui.CONFIRM and drawn == [], (size, drawn)
        run(app, "B")
        assert app.mode == ui.PAUSE and drawn == [], (size, drawn)
        run(app, "B")
        assert app.mode == ui.PLAY and drawn, size  # the table again where the panel lay
        assert bytes(app.screen.buf) == from_scratch(app, pal.CURSOR), size


def test_hint_from_the_pause_menu_closes_the_menu_in_its_frame_and_seeks_the_hint_in_the_next():
    # The panel's part of the table and a long search in one frame made the press late (60 ms
    # on the chip in Spite & Malice): the menu goes first, the hint comes in the frame after,
    # and shows what X shows.
    from engine_core.ui import buttons as bt
    for game, seed in (("spite_malice", 5), ("casket", 3), ("aces_up", 5)):
        by_key = make_app(240, 240, game, seed)
        run(by_key, "X")
        app = make_app(240, 240, game, seed)
        for _ in range(3):  # the moves for the next key listed: the table rests
            app.tick(FRAME)
            app.redraw()
        run(app, "START DOWN")
        sought = []
        hint = app.table.game.hint
        app.table.game.hint = lambda *a: (sought.append(1), hint(*a))[1]
        app.press(bt.A)
        app.tick(FRAME)
        app.redraw()
        assert app.mode == ui.PLAY and sought == [], game
        assert not idle.app_idle(app), "the console stays awake for the hint it will seek"
        app.tick(FRAME)
        app.redraw()
        assert sought == [1], game
        assert app.table.hand.cursor == by_key.table.hand.cursor, game
        assert app.table.hint_slot == by_key.table.hint_slot, game


def test_a_key_before_the_pause_menus_hint_is_sought_drops_it_whatever_the_key():
    # START (the menu again), SELECT (the rules page), a long A, a long X: each is a key after
    # the Hint, so the hint is not sought later, when the player has moved on.
    from engine_core.ui import buttons as bt
    for second, long_press in ((bt.SELECT, False), (bt.START, False), (bt.A, True), (bt.X, True)):
        app = make_app(240, 240, "sir_tommy", 5)
        run(app, "START DOWN")
        app.press(bt.A)  # Hint
        app.press(second, long_press)
        for _ in range(3):
            app.tick(FRAME)
            app.redraw()
        if app.mode != ui.PLAY:
            run(app, "B")
            for _ in range(3):
                app.tick(FRAME)
                app.redraw()
        assert app.table.hint_slot == 255 and not app.table.hint_after, (second, long_press)


def test_the_pause_menus_panel_stays_the_screens_width_where_it_reaches_the_edges():
    # On 240x135 the panel covers the screen: its rows and questions are laid out for it whole
    # (a question's two lines side by side, not a paragraph of three).
    from engine_core.ui.screens import PANEL_RECT
    app = make_app(240, 135, "casket", 3)
    run(app, "X A A START")
    app.screens[ui.PAUSE].panel_rect(app)
    assert PANEL_RECT[2] == 220, list(PANEL_RECT)
