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


def stood_and_dealt_ahead(app, game):
    """The screen left to stand until the game's table is made and dealt ahead; the table, and
    the list of the seeds its game is dealt from then on."""
    for _ in range(MAKE_AHEAD_MS // FRAME + 3):
        app.tick(FRAME)
    assert idle.app_idle(app), "made and dealt ahead: nothing left to do until a key"
    table = app.tables.get(game)
    dealt = []
    deal = table.game.deal
    table.game.deal = lambda seed: (dealt.append(seed), deal(seed))[1]
    return table, dealt


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
    assert not idle.app_idle(app), "the next frame deals A's deal on it"
    app.tick(FRAME)
    assert idle.app_idle(app)
    run(app, "A")
    assert app.mode == ui.PLAY and app.table is table, "A deals on the table made ahead"
    assert cards_present(table.game)


def test_the_game_lists_fresh_deal_is_dealt_ahead_from_the_time_its_row_was_chosen():
    # A on the game list deals a fresh number (random_seed: from the time of the press, a deal
    # in A's frame, 3-4 ms of a Pico's 50). The number is drawn once the row has stood
    # MAKE_AHEAD_MS, from that time, and dealt then: A only shows it, the same deal as one made
    # in A's frame; rows chosen at other times deal other numbers.
    from engine_core.protocol import state_json
    from engine_core.ui import buttons as bt
    from engine_core.ui.settings import S_WINNABLE
    seeds = set()
    for game, wait, winnable in (("casket", 0, 0), ("casket", 7, 0), ("nerts", 0, 0),
                                 ("spite_malice", 3, 0), ("sir_tommy", 0, 1)):
        app = make_app(240, 240)
        app.settings[S_WINNABLE] = winnable
        open_game_list(app)
        for _ in range(app.names.index(game)):
            app.press(bt.DOWN)
            app.tick(FRAME + wait)
        table, dealt = stood_and_dealt_ahead(app, game)
        app.press(bt.A)
        app.tick(FRAME)
        assert app.mode == ui.PLAY and app.table is table
        assert dealt == [], (game, dealt)
        seed = table.game.seed
        seeds.add(seed)
        if winnable:
            from engine_core.ai import winnable as w
            t = app.win_table(game)
            assert t is not None and w.is_winnable(t.BITS, t.FIRST, seed), seed
        fresh = make_app(240, 240, game, seed)
        fresh.tick(FRAME)  # (the game's clock as A's frame left it)
        assert state_json(table.game) == state_json(fresh.table.game), game
    assert len(seeds) == 5, seeds


def test_a_deal_made_ahead_is_not_kept_once_the_game_is_played():
    # The table dealt ahead is played; leaving it and asking for a new deal of the same game
    # from the pause menu deals again (a number equal to the one dealt ahead must not show the
    # position played on).
    from engine_core.protocol import state_json
    app = make_app(240, 240)
    open_game_list(app)
    for _ in range(MAKE_AHEAD_MS // FRAME + 3):
        app.tick(FRAME)
    run(app, "A")
    table = app.table
    seed = table.game.seed
    before = state_json(table.game)
    for _ in range(3):
        assert table.hand.legal_moves() > 0
        table.play(table.hand.moves[0])
    assert table.move_count > 0 and state_json(table.game) != before
    assert app.ahead_table is None
    app.do(ui.A_RESTART)
    assert app.table is table and table.game.seed == seed
    fresh = make_app(240, 240, app.names[app.game_index], seed)
    assert state_json(table.game) == state_json(fresh.table.game)


def test_the_deal_screens_number_is_dealt_ahead_and_a_only_shows_it():
    # The deal itself was 3-4 ms of a deal's 50 on the chip: the table made ahead is dealt the
    # number the deal screen shows once it has stood MAKE_AHEAD_MS, and A shows that deal,
    # the same as a deal made in A's frame. A number changed since is dealt in A's frame.
    from engine_core.protocol import state_json
    from engine_core.ui import buttons as bt
    for game, change in (("casket", False), ("nerts", False), ("spite_malice", False), ("casket", True)):
        app = make_app(240, 240)
        open_game_list(app)
        run(app, "DOWN " * app.names.index(game) + "X")
        assert app.mode == ui.DEAL
        table, dealt = stood_and_dealt_ahead(app, game)
        if change:
            app.press(bt.UP)  # the digit under the cursor up: another number
        app.press(bt.A)
        app.tick(FRAME)
        assert app.mode == ui.PLAY and app.table is table
        assert dealt == ([app.seed()] if change else []), (game, dealt)
        fresh = make_app(240, 240, game, table.game.seed)
        fresh.tick(FRAME)  # (the game's clock as A's frame left it)
        assert state_json(table.game) == state_json(fresh.table.game), game


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


def test_closing_the_pause_menu_on_a_small_screen_puts_the_table_back_as_the_menu_found_it():
    # On 128x64 and 160x128 the pause menu's panel covers the whole screen: closing it drew
    # the whole table again (pico_ssd1306: 53.5 ms from START to the frame's last byte, 26 of
    # them on the wire; pico_st7735 up to 51.8 ms). The frame under the menu is kept (1 KB,
    # 10 KB) and put back; what changed since is drawn as in play. Checked against a full
    # redraw, and after the rules page or the settings (which draw over the kept frame: the
    # table is drawn again then).
    from engine_core.gfx import mono, paint
    from engine_core.ui import buttons as bt
    for size, game, seed, via in (((128, 64), "casket", 5, ""), ((128, 64), "nerts", 7, ""),
                                  ((128, 64), "spite_malice", 5, ""), ((128, 64), "aces_up", 3, "RULES"),
                                  ((128, 64), "sir_tommy", 9, "SETTINGS"), ((160, 128), "casket", 5, ""),
                                  ((160, 128), "nerts", 7, ""), ((160, 128), "aces_up", 3, "RULES")):
        app = make_app(size[0], size[1], game, seed, mono=size[1] == 64)
        run(app, "RIGHT A")
        run(app, "START")
        assert app.mode == ui.PAUSE and app.screen.kept_ok, game
        if via:
            app.selected = ui.P_RULES if via == "RULES" else ui.P_SETTINGS
            run(app, "A")
            assert app.mode == (ui.RULES if via == "RULES" else ui.SETTINGS)
            run(app, "B")
            assert app.mode == ui.PAUSE and not app.screen.kept_ok
        cards = []
        card = mono.MonoPainter.card if app.screen.mono else paint.Painter.card
        app.painter.card = lambda *a: (cards.append(a), card(app.painter, *a))[1]
        app.press(bt.START)
        app.tick(FRAME)
        assert app.mode == ui.PLAY
        del app.painter.card
        if via:
            assert cards, "the table drawn again"
        else:
            assert cards == [], (size, game, len(cards))
            assert app.screen.all_dirty
        assert bytes(app.screen.buf) == from_scratch(app, pal.CURSOR), (size, game)
    assert make_app(240, 135).screen.kept is None, "16 KB: not kept"


def test_a_pause_menu_scrolled_over_the_whole_screen_draws_no_table_beneath_it():
    # On 128x64 the pause menu scrolls (its rows do not all fit), and its panel covers the
    # whole screen: each scroll drew the whole table under it again (47 ms to DOWN's frame on
    # pico_ssd1306, 23 of them drawing). The frames are a full redraw's all the same.
    from engine_core.gfx import mono
    from engine_core.ui import buttons as bt
    for game, seed in (("casket", 5), ("nerts", 7)):
        app = make_app(128, 64, game, seed, mono=True)
        run(app, "START")
        cards = []
        card = mono.MonoPainter.card
        app.painter.card = lambda *a: (cards.append(a), card(app.painter, *a))[1]
        scrolled = 0
        for _ in range(8):
            top = app.scroll
            app.press(bt.DOWN)
            app.tick(FRAME)
            scrolled += app.scroll != top
            assert bytes(app.screen.buf) == from_scratch(app, pal.CURSOR), game
        assert scrolled >= 2 and cards == [], (game, scrolled, len(cards))
        del app.painter.card
        app.press(bt.B)
        app.tick(FRAME)
        assert app.mode == ui.PLAY
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


def test_a_key_before_the_hints_frame_gets_the_hint_first_then_acts():
    # X, A, A plays the hint however fast the keys come: a key pressed before the frame that
    # seeks the hint (X's, or the pause menu's Hint's) has it sought first, then does its own
    # work, exactly as after the hint's frame.
    from engine_core.ui import buttons as bt
    for game, seed in (("spite_malice", 5), ("casket", 3), ("aces_up", 5), ("sir_tommy", 5)):
        slow = make_app(240, 240, game, seed)
        for key in "X A A".split():
            run(slow, key)  # a frame and more after each key
        fast = make_app(240, 240, game, seed)
        fast.tick(FRAME)
        for key in "X A A".split():
            fast.press(bt.NAMES.index(key))  # no frame between the keys
        assert fast.table.game.history.last_move() == slow.table.game.history.last_move() >= 0, game
        assert fast.table.move_count == slow.table.move_count == 1, game
        hinted = make_app(240, 240, game, seed)
        run(hinted, "X")
        menu = make_app(240, 240, game, seed)
        run(menu, "START DOWN")
        menu.press(bt.A)  # Hint
        menu.press(bt.START)  # the menu again before the hint's frame
        assert menu.mode == ui.PAUSE and not menu.table.hint_after, game
        assert menu.table.hint_slot == hinted.table.hint_slot != 255, game
        assert menu.table.hand.cursor == hinted.table.hand.cursor, game


def test_the_pause_menus_panel_stays_the_screens_width_where_it_reaches_the_edges():
    # On 240x135 the panel covers the screen: its rows and questions are laid out for it whole
    # (a question's two lines side by side, not a paragraph of three).
    from engine_core.ui.screens import PANEL_RECT
    app = make_app(240, 135, "casket", 3)
    run(app, "X A A START")
    app.screens[ui.PAUSE].panel_rect(app)
    assert PANEL_RECT[2] == 220, list(PANEL_RECT)


def test_x_whose_hint_needs_a_search_says_so_in_its_frame_and_shows_the_hint_in_the_next():
    # A search may outlast a frame (Spite & Malice's up to about 100 ms on the chip): X's own
    # frame draws the strip's "Looking for a hint" and seeks nothing; the next frame seeks it,
    # shows what the game's hint() gives and takes the strip away. A hint found at little cost
    # (a safe move; Sir Tommy's and Nerts's hints) shows in X's frame, with no strip.
    from engine_core import reasons as why
    from engine_core.game import SEEK
    from engine_core.ui import buttons as bt
    for game, seed, searches in (("spite_malice", 5, True), ("casket", 9, True), ("aces_up", 17, True),
                                 ("sir_tommy", 5, False), ("nerts", 4, False)):
        app = make_app(240, 240, game, seed)
        for _ in range(3):
            app.tick(FRAME)
            app.redraw()
        table = app.table
        g = table.game
        assert (g.quick_hint() == SEEK) == searches, game
        by_key = make_app(240, 240, game, seed)
        run(by_key, "X")  # the hint, its frames all run
        sought = []
        hint = g.hint
        g.hint = lambda *a: (sought.append(1), hint(*a))[1]
        app.press(bt.X)
        app.tick(FRAME)
        app.redraw()
        if not searches:
            said = why.HINT_HERE if table.hint_slot == 255 else 0  # a pile's action says so
            assert table.hint_slot == by_key.table.hint_slot and table.message == said, game
            assert table.hand.cursor == by_key.table.hand.cursor, game
            continue
        assert sought == [] and table.hint_slot == 255, game
        assert table.message == why.SEEKING and table.view.drawn.msg == why.SEEKING, game
        assert not idle.app_idle(app), "the console stays awake for the hint it will seek"
        app.tick(FRAME)
        app.redraw()
        said = why.HINT_HERE if table.hint_slot == 255 else 0  # a pile's action says so
        assert sought == [1] and table.message == said, game
        assert table.hint_slot == by_key.table.hint_slot and table.hand.cursor == by_key.table.hand.cursor, game
        for _ in range(3):
            app.tick(FRAME)
            app.redraw()
        assert bytes(app.screen.buf) == from_scratch(app, pal.CURSOR), game  # the strip gone whole


def test_x_during_the_computers_turn_says_so_in_its_frame_and_plays_the_turn_out_in_the_next():
    # The rest of a turn shown move by move, played and drawn at once, took 29-35 ms of the
    # chip's frame: X's own frame draws "Looking for a hint" and moves nothing; the next frame
    # plays the turn out, as any other key would, and shows the hint for the position after it.
    from engine_core import reasons as why
    from engine_core.ui import buttons as bt
    from engine_core.ui.table import COMPUTER_STEP_MS
    app, other = make_app(240, 240, "spite_malice", 1), make_app(240, 240, "spite_malice", 1)
    for one in (app, other):
        for button in (bt.X, bt.A, bt.A):  # the hint played: the player's turn ends
            one.press(button)
            one.tick(FRAME)
            one.tick(FRAME)
        one.tick(COMPUTER_STEP_MS)  # the computer's first move shown, the rest to come
        one.redraw()
    table = app.table
    assert table.computer_ms > 0, "the computer's turn is being shown"
    moves = table.game.history.moves
    app.press(bt.X)
    app.tick(FRAME)
    app.redraw()
    assert table.game.history.moves == moves, "nothing moved in X's frame"
    assert table.message == why.SEEKING and table.view.drawn.msg == why.SEEKING
    app.tick(FRAME)
    app.redraw()
    run(other, "LEFT X")  # the turn played out by another key, then the hint
    assert other.table.computer_ms == 0 and table.computer_ms == 0
    assert not table.game.computer_to_move()
    assert table.game.piles.cards == other.table.game.piles.cards
    assert table.hint_slot == other.table.hint_slot != 255 and table.message == 0


def test_back_from_the_rules_or_the_settings_draws_the_pause_menu_then_the_table_beside_it():
    # The panel and the whole table in one frame took 36-44 ms on the chip: B's frame draws the
    # panel on the felt, and the next frame the table around it, as the menu opened from play
    # shows it. Where the panel covers the whole screen no table would show: none is drawn.
    from engine_core.ui import buttons as bt
    from engine_core.ui.screens import LINE_H, PANEL_RECT
    for size, game, seed in (((240, 240), "spite_malice", 5), ((240, 240), "casket", 3), ((320, 240), "nerts", 2),
                             ((160, 128), "casket", 3)):
        for item in (ui.P_RULES, ui.P_SETTINGS):
            downs = " DOWN" * item
            shown = make_app(size[0], size[1], game, seed)
            run(shown, "START" + downs)  # the menu opened from play, on the same row
            app = make_app(size[0], size[1], game, seed)
            run(app, "START" + downs + " A")
            assert app.mode in (ui.RULES, ui.SETTINGS)
            app.press(bt.B)
            covers = size[1] < 200  # (the pause menu's panel reaches the edges of 160x128)
            py = PANEL_RECT[1]
            ph = PANEL_RECT[3]
            buf = app.screen.buf
            row = app.width // 2
            felt = bytes([pal.FELT << 4 | pal.FELT]) * row
            assert app.mode == ui.PAUSE
            if not covers:  # B's frame: the table is not drawn beside the panel
                assert all(buf[y * row:(y + 1) * row] == felt for y in range(app.height) if y < py or y >= py + ph)
                assert not idle.app_idle(app), "the console stays awake for the table's frame"
            app.tick(FRAME)  # (B's own frame: its tick)
            app.redraw()
            app.tick(FRAME)
            app.redraw()
            assert bytes(buf) == bytes(shown.screen.buf), (size, game, item)
            assert not covers or PANEL_RECT[1] < LINE_H  # (reaching the edges, as said above)


def test_a_hint_that_is_a_piles_action_says_so_in_the_frame_of_the_first_x():
    # Nerts, seed 1: the hint is to draw from the stock. The cursor starts elsewhere; the first
    # X puts it on the stock and, there being no destination to frame, the strip of that same
    # frame says what to do there (a player who saw only the cursor move was left guessing).
    # X again says it again.
    from engine_core import reasons as why
    from engine_core.game import ACTION
    from engine_core.ui import buttons as bt
    for game, seed in (("nerts", 1), ("sir_tommy", 1)):
        app = make_app(240, 240, game, seed)
        run(app, "" if game == "nerts" else "X A A")
        table = app.table
        m = table.game.quick_hint()
        assert m >> 16 == ACTION, game
        stock = [s for s in range(table.slots.count) if table.slots.action_pile[s] == (m >> 8) & 0xFF]
        if table.hand.cursor in stock:
            run(app, "RIGHT")
        assert table.hand.cursor not in stock, game
        for _ in range(2):
            app.press(bt.X)
            app.tick(FRAME)
            app.redraw()
            assert table.hand.cursor in stock and table.hint_slot == 255, game
            assert table.message == why.HINT_HERE and table.view.drawn.msg == why.HINT_HERE, game
