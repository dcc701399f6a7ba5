"""The words of the two small screens, 128x64 and 160x128 (docs/screen.md, "Screen classes and
layouts"): the status line's scores, the statistics, the rules pages, the pause menu's deal
number and the game list's keys, each whole on the screen whatever the counts; and the
simulator's skin of a small board, its caption and keyboard map apart.

What is checked is what a player sees: the letters of the 5x7 font as they are drawn, found
from the drawing calls (tests/test_small_screens.py's Drawn) or on the frame
(tests/drawn_text.py)."""

import itertools

import pytest

from engine_core.game import V_SCORE
from engine_core.gfx import palette as pal
from engine_core.gfx.paint import CHAR_H, CHAR_W, LINE_H
from engine_core.ui import layouts, overlay
from engine_core.ui import screens as ui
from simulator.keys import make_app, run
from tests.drawn_text import find, glyphs, shows_at
from tests.test_small_screens import Drawn, check_letters, drawn_whole, games_with_layouts

SMALL = ((128, 64), (160, 128))
# Scores a match reaches: Spite & Malice's targets go to 150 and a game's points past them;
# Nerts counts a Nerts pile left against its player, so a score falls below zero.
SCORES = (0, 7, 12, 50, 100, 150, 199, -2, -26, -99)


def letters(ops):
    return [op[1:] for op in ops if op[0] == "letter"]


# --- the status line ---

@pytest.mark.parametrize("size", SMALL + ((240, 135),))
@pytest.mark.parametrize("game", games_with_layouts())
def test_every_word_of_the_status_line_lies_whole_inside_its_box_and_the_screen(game, size, monkeypatch):
    app = make_app(size[0], size[1], game, 3)
    view = app.table.view
    g = app.table.game
    x, y, w = view.slots.status
    assert 0 <= x and x + w <= app.width
    monkeypatch.setattr(overlay, "draw_turn", lambda view, drawn=-1: 0)  # beside the piles, not in the box
    for scores in itertools.product(SCORES, repeat=g.players) if g.COMPETITIVE else [()]:
        for i, score in enumerate(scores):
            g.vars[V_SCORE + i] = score
        drawn = Drawn(app)
        overlay.draw_status(view, True)
        for lx, ly, lw, lh, colour in letters(drawn.ops):
            assert x <= lx and lx + lw <= x + w and lx + lw <= app.width, (scores, lx, ly)
            assert 0 <= ly and ly + lh <= app.height, (scores, lx, ly)


@pytest.mark.parametrize("size", SMALL)
@pytest.mark.parametrize("game", [g for g in games_with_layouts() if g in ("spite_malice", "nerts")])
def test_the_scores_rows_name_their_players_alike_and_show_every_digit(game, size):
    app = make_app(size[0], size[1], game, 3)
    g = app.table.game
    for scores in ((3, 0), (150, 12), (-26, 104), (-99, 199)):
        for i, score in enumerate(scores):
            g.vars[V_SCORE + i] = score
        app.full = True
        app.redraw()
        x, y, w = app.table.view.slots.status
        box = (x, y, x + w, y + (g.players + 1) * LINE_H)
        for i, score in enumerate(scores):
            assert find_in(app, str(score).encode(), box) is not None, (scores, i)
        rows = [find_in(app, tag, box) for tag in (b"You", b"CPU")]
        initials = [find_in(app, tag, box) for tag in (b"Y", b"C")]
        # Either both players' whole names show, or both their initials: never one of each.
        assert all(rows) or (not any(rows) and all(initials)), (scores, rows, initials)


def find_in(app, words, box):
    """Where `words` show whole inside box (x0, y0, x1, y1), or None."""
    drawn = glyphs(app, words)
    x0, y0, x1, y1 = box
    for y in range(y0, y1 - CHAR_H + 1):
        for x in range(x0, x1 - drawn[1] + 1):
            if shows_at(app, words, x, y, drawn):
                return x, y
    return None


# --- the statistics ---

BIG = (2147483647, 1234567, 99999, 10000, 9999, 0)


@pytest.mark.parametrize("size", SMALL)
def test_every_line_of_the_statistics_fits_the_screen_scrolled_from_top_to_foot(size):
    app = make_app(*size)
    for i in range(len(app.names)):  # counts of every width, a different one for each game
        app.played[i] = BIG[i % len(BIG)]
        app.won[i] = BIG[(i + 1) % len(BIG)]
        app.streak[i] = BIG[(i + 2) % len(BIG)]
        app.best[i] = BIG[(i + 3) % len(BIG)]
    run(app, "DOWN DOWN A")
    assert app.mode == ui.STATS
    seen = set()
    for _ in range(40):
        shown, _cut = drawn_whole(app)
        for x, y, w, h, colour in [op[1:] for op in shown]:
            assert 0 <= x and x + w <= app.width, ("off the screen", app.scroll, x, y)
            if y > LINE_H:  # under the head: left of the scroll marks
                assert x + w <= app.width - 5, ("over the scroll marks", app.scroll, x, y)
            assert y + h <= app.height, ("below the foot", app.scroll, x, y)
            seen.add(y)
        check_letters(app, "statistics line %d" % app.scroll)
        run(app, "DOWN")
    lines = sorted(y for y in seen if y > LINE_H)
    # Every line the screen has under the head holds text: no line's room is left unused.
    assert lines[-1] + LINE_H + CHAR_H > app.height - 1, lines


def test_the_128x64_statistics_say_each_games_counts_in_full_up_to_four_digits():
    app = make_app(128, 64)
    app.won[0], app.played[0], app.streak[0], app.best[0] = 1234, 9876, 57, 321
    run(app, "DOWN DOWN A")
    for words in (b"Aces Up", b"Won", b"1234", b"of", b"9876", b"Streak", b"57", b"Best streak", b"321"):
        assert find(app, words) is not None, words


# --- the rules pages ---

@pytest.mark.parametrize("size", layouts.SIZES)
def test_a_rules_page_uses_every_line_of_the_screen_and_pages_less_one_line(size):
    app = make_app(size[0], size[1], "aces_up", 3)

    def text_rows(keys, colours):
        drawn = Drawn(app)
        run(app, keys)
        return sorted({op[2] for op in drawn.ops if op[0] == "letter" and op[5] in colours})
    top = text_rows("SELECT", (pal.WHITE,))[0]  # the rules' first line, under the head
    # Scrolled to the end, its last line (the keys, dimmer) at the foot.
    foot = max(text_rows("DOWN " * 400, (pal.WHITE, pal.DIM)))
    last = app.scroll
    # The foot's line leaves no room for another under it.
    assert foot + LINE_H + CHAR_H > size[1] - 1, (size, foot)
    lines = (foot - top) // LINE_H + 1
    run(app, "UP " * 400 + "RIGHT")
    # A page less one line (its last line now its first), or to the end where that is nearer.
    assert app.scroll == min(lines - 1, last), (app.scroll, lines, last)


def test_a_64_pixel_rules_page_shows_four_lines_of_text():
    app = make_app(128, 64, "aces_up", 3)
    drawn = Drawn(app)
    run(app, "SELECT")
    assert len({op[2] for op in drawn.ops if op[0] == "letter" and op[5] == pal.WHITE}) == 4


# --- the pause menu's title and the deal's number ---

@pytest.mark.parametrize("size", layouts.SIZES)
@pytest.mark.parametrize("seed", (7, 1234567, 99999999, 1073741823))
def test_the_pause_menus_title_and_the_deals_number_lie_apart(size, seed):
    app = make_app(size[0], size[1], "aces_up", seed)
    drawn = Drawn(app)
    run(app, "START")
    assert app.mode == ui.PAUSE
    title = [op for op in letters(drawn.ops) if op[4] == pal.GOLD]
    number = [op for op in letters(drawn.ops) if op[4] in (pal.WHITE, pal.DIM) and op[1] == title[0][1]]
    assert title and number
    title_right = max(x + w for x, y, w, h, c in title)
    assert title_right + CHAR_W <= min(x for x, y, w, h, c in number), (size, seed)
    assert max(x + w for x, y, w, h, c in number) <= app.width
    assert find(app, str(seed).encode()) is not None  # every digit of it, whole
    check_letters(app, "pause menu")


# --- the game list's keys ---

@pytest.mark.parametrize("size", layouts.SIZES)
@pytest.mark.parametrize("no_x", (False, True))
def test_the_game_list_says_how_to_deal_by_number_on_every_screen(size, no_x):
    app = make_app(*size)
    app.no_x = no_x
    run(app, "DOWN A")
    assert app.mode == ui.CHOOSE
    app.full = True
    app.redraw()
    keys = (b"hold A: ", b"hold A: by number") if no_x else (b"X: number", b"X: by number")
    assert find(app, keys[0]) is not None or find(app, keys[1]) is not None, size
    check_letters(app, "game list")


# --- the simulator's skin ---

def boxes_apart(a, b):
    return a[0] + a[2] <= b[0] or b[0] + b[2] <= a[0] or a[1] + a[3] <= b[1] or b[1] + b[3] <= a[1]


@pytest.mark.parametrize("scale", (2, 3))
def test_a_boards_caption_and_keyboard_map_lie_apart_and_inside_the_window(scale):
    from simulator.boards import board_names, resolve_board
    from simulator.window import HELP_WORDS_X, Window
    for name in board_names():
        board = resolve_board(name)
        app = make_app(board.width, board.height)
        window = Window(app.screen, scale=scale, board=board, visible=False)
        try:
            font = window.small
            boxes = [(x, y) + font.size(text) for text, colour, x, y in window.caption()]
            wide, high = window.size
            screen_foot = window.pad + board.height * scale + 10  # the bezel's foot
            for i, box in enumerate(boxes):
                assert box[0] >= window.side and box[0] + box[2] <= window.side + board.width * scale, (name, box)
                assert box[1] >= screen_foot and box[1] + box[3] <= high, (name, box)
                for other in boxes[i + 1:]:
                    assert boxes_apart(box, other), (name, box, other)
            rows = window.help_rows()
            panel_w = wide - 60
            for key, words in rows:
                assert HELP_WORDS_X + window.font.size(words)[0] <= panel_w - 8, (name, words)
            assert 20 + 30 + 22 * len(rows) <= high, name
        finally:
            window.close()
