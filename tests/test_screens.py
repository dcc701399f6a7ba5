"""The screens as objects (engine_core/ui/screens.py), the settings table
(engine_core/ui/settings.py), the line under the settings saying what the selected one does,
and the rules page's end (docs/screen.md)."""

import textwrap

import pytest

from engine_core import games, records
from engine_core.gfx import palette as pal
from engine_core.gfx.paint import CHAR_H, CHAR_W, LINE_H
from engine_core.ui import layouts
from engine_core.ui import screens as ui
from engine_core.ui import settings as st
from engine_core.ui import texts
from engine_core.ui.screens import PANEL_RECT
from simulator.keys import make_app, run
from tests import drawn_text
from tests.seats import params

SIZES = layouts.SIZES
NARROWEST = min(SIZES)
OPEN_SETTINGS = "DOWN DOWN DOWN A"  # the title: New game, Choose a game, Statistics, Settings


def ink(app, x0, y0, w, h, background):
    """How many pixels of the rectangle are not the background colour."""
    fb = app.screen.fb
    return sum(1 for y in range(y0, y0 + h) for x in range(x0, x0 + w) if fb.pixel(x, y) != background)


def gold_rows(app, x0, x1):
    """The screen rows with gold ink between columns x0 and x1."""
    fb = app.screen.fb
    return [y for y in range(app.height) if any(fb.pixel(x, y) == pal.GOLD for x in range(x0, x1))]


# --- one object per screen ---

def test_each_screen_number_has_its_own_object_made_once_and_holding_only_its_own_state():
    app = make_app(240, 240)
    screens = app.screens
    assert [s.MODE for s in screens] == list(range(len(screens)))
    assert len({id(s) for s in screens}) == len(screens) == ui.LINK_ASK + 1
    own = {ui.DEAL: {"digits", "pos", "rested_ms"}, ui.CONFIRM: {"action", "back"}, ui.PLAY: {"finish_ms"},
           ui.CHOOSE: {"rested_on", "rested_ms"}, ui.TITLE: {"rested_on", "rested_ms"}}
    for s in screens:  # what screens share is the App's: the objects cost one small block each
        assert set(vars(s)) == own.get(s.MODE, set()), type(s).__name__
    assert screens[ui.DEAL] is app.deal_screen and screens[ui.CONFIRM] is app.confirm_screen
    # settings, the title, a new game, the pause menu, its rules page, back to the table
    run(app, OPEN_SETTINGS + " B DOWN A A START DOWN DOWN DOWN DOWN DOWN DOWN A B B")
    assert app.screens is screens and all(a is b for a, b in zip(app.screens, screens))
    assert app.mode == ui.PLAY and app.current is screens[ui.PLAY]


def test_the_mode_names_the_screen_shown_and_setting_it_shows_that_screen():
    app = make_app(240, 240, "aces_up", 7)
    assert app.mode == ui.PLAY and app.current is app.screens[ui.PLAY]
    run(app, "START")
    assert app.mode == ui.PAUSE and app.current is app.screens[ui.PAUSE]
    app.mode = ui.PLAY
    assert app.current is app.screens[ui.PLAY]
    app.go(ui.STATS)
    assert app.mode == ui.STATS and app.selected == 0 and app.full


# --- the settings table ---

def test_the_settings_table_is_in_the_order_of_its_names_and_its_records():
    keys = [row[st.KEY] for row in st.SETTINGS]
    assert len(st.SETTINGS) == st.COUNT == len(set(keys))
    named = {st.S_SOUND: "sound", st.S_BACK: "card_back", st.S_SPEED: "bot_speed", st.S_LEVEL: "bot_level",
             st.S_JOKERS: "jokers", st.S_TARGET: "target", st.S_PLAYERS: "nerts_players", st.S_AUTOPLAY: "auto_play",
             st.S_TWO_BUTTONS: "two_buttons", st.S_CASKET_RULES: "casket_rules", st.S_WINNABLE: "winnable",
             st.S_SLIDE: "slide", st.S_DIM: "dim_s", st.S_OFF: "screen_off_s"}
    assert named == dict(enumerate(keys))
    assert st.choices(st.S_BACK) == len(pal.BACKS)  # a name for each card back's colours
    defaults = {d[0]: d[1] for d in records.SETTINGS}
    for i, row in enumerate(st.SETTINGS):
        assert row[st.KEY] in defaults, row[st.KEY]
        assert st.record_value(i, row[st.DEFAULT]) == defaults[row[st.KEY]], row[st.KEY]
        assert row[st.VALUES] is None or len(row[st.VALUES]) == len(row[st.CHOICES])
        for choice in range(st.choices(i)):  # each choice is saved and read back as itself
            assert st.choice_of(i, st.record_value(i, choice)) == choice


def test_a_record_value_no_choice_holds_reads_as_the_settings_default():
    assert st.choice_of(st.S_BACK, 9) == 0  # the record allows 0..15, four backs are drawn
    assert st.choice_of(st.S_TARGET, 75) == 0
    assert st.choice_of(st.S_CASKET_RULES, 7) == 0
    assert st.choice_of(st.S_SOUND, 1) == 1


def test_dimming_and_the_screen_off_are_settings_rows_with_their_records_and_lines():
    rows = {row[st.KEY]: row for row in st.SETTINGS}
    dim, off = rows["dim_s"], rows["screen_off_s"]
    assert (dim[st.NAME], off[st.NAME]) == (b"Dim after", b"Screen off after")
    assert dim[st.VALUES] == (0, 15, 30, 60, 120, 300) and dim[st.CHOICES][0] == b"Never"
    assert off[st.VALUES] == (0, 60, 180, 600, 1800) and off[st.CHOICES][0] == b"Never"
    assert (dim[st.ABOUT], off[st.ABOUT]) == (b"Screen dims when no key comes", b"Screen goes dark, game saved")
    assert (st.record_value(st.S_DIM, dim[st.DEFAULT]), st.record_value(st.S_OFF, off[st.DEFAULT])) == (30, 180)


def test_a_time_no_choice_holds_reads_as_the_nearest_time_and_0_alone_as_never():
    # Any time in the record's range (an older record, one edited by hand) reads as a choice.
    for value, choice in ((0, 0), (1, 1), (22, 1), (23, 2), (45, 2), (46, 3), (200, 4), (3600, 5)):
        assert st.label(st.S_DIM, st.choice_of(st.S_DIM, value)) == st.SETTINGS[st.S_DIM][st.CHOICES][choice], value
    assert [st.record_value(st.S_OFF, st.choice_of(st.S_OFF, v)) for v in (1, 100, 1200, 1201, 36000)] == \
        [60, 60, 600, 1800, 1800]


def test_an_odd_time_in_the_records_loads_as_the_nearest_choice_and_the_menu_saves_it(tmp_path):
    from engine_core.console import Console
    from engine_core.gfx.screen import Screen
    from engine_core.storage import MemoryStorage
    from engine_core.ui.app import App
    from simulator import framebuf
    disk = MemoryStorage()
    first = Console(App(Screen(240, 240, framebuf)), disk)
    first.start()
    first.keeper.settings.set("dim_s", 45)
    first.keeper.settings.set("screen_off_s", 7200)
    first.keeper.save_settings()
    console = Console(App(Screen(240, 240, framebuf)), disk)
    console.start()
    app = console.app
    assert (app.setting_label(st.S_DIM), app.setting_label(st.S_OFF)) == (b"30 s", b"30 min")
    assert console.keeper.settings.get("dim_s") == 45, "kept as it was until a setting changes"
    run(app, OPEN_SETTINGS)
    app.selected = st.S_DIM
    run(app, "RIGHT")
    console.tick(0)
    console.tick(0)  # the settings are written on the frame after the press's
    assert app.setting_label(st.S_DIM) == b"1 min"
    assert (console.keeper.settings.get("dim_s"), console.keeper.settings.get("screen_off_s")) == (60, 1800)


def panel_inner(width):
    """The room for words in a menu's panel: 8 pixels of table and 8 inside each side (the
    panel at most 220 wide); on a 128-pixel screen 2 and 4."""
    if width < 160:
        return width - 4 - 8
    return min(width - 16, 220) - 16


def about_lines(text, width):
    """A setting's line as the settings screen shows it: broken at spaces to fit the panel."""
    return textwrap.wrap(text.decode(), (panel_inner(width) + 1) // CHAR_W, break_on_hyphens=False)


def test_every_settings_line_fits_a_240_pixel_panel_and_two_lines_of_the_narrowest():
    from engine_core.ui.menus import LONGEST_ABOUT
    assert LONGEST_ABOUT == max(len(row[st.ABOUT]) for row in st.SETTINGS)
    for row in st.SETTINGS:
        assert 0 < len(row[st.ABOUT]) * CHAR_W - 1 <= panel_inner(240), row[st.ABOUT]
        assert len(about_lines(row[st.ABOUT], NARROWEST[0])) <= 2, row[st.ABOUT]


# --- issue: what the selected setting does, in a line under the settings ---

@pytest.mark.parametrize("size", SIZES)
def test_the_settings_screen_says_what_the_selected_setting_does_under_its_rows(size):
    from tests.drawn_text import find
    app = make_app(*size)
    run(app, OPEN_SETTINGS)
    assert app.mode == ui.SETTINGS
    inner = panel_inner(app.width)
    left = (app.width - inner) // 2
    seen = set()
    for i in range(st.COUNT):
        fb = app.screen.fb
        cursor = [y for y in range(app.height) if any(fb.pixel(x, y) == pal.CURSOR for x in range(app.width))]
        lines = about_lines(st.SETTINGS[i][st.ABOUT], app.width)
        assert lines and len(lines) <= 2
        y_before = max(cursor)  # the selected row's bar: the words are under it
        for line in lines:
            at = find(app, line.encode())
            assert at is not None, (i, line)
            x, y = at
            assert fb.pixel(x, y + CHAR_H - 1) != pal.CURSOR
            assert left <= x and x + len(line) * CHAR_W - 1 <= left + inner, (i, line, x)
            assert y > y_before, (i, line, y, y_before)
            y_before = y + CHAR_H - 1
            assert any(fb.pixel(x + dx, y + dy) == pal.GOLD for dx in range(CHAR_W) for dy in range(CHAR_H))
        seen.add(bytes(app.screen.buf))
        run(app, "DOWN")
    assert len(seen) == st.COUNT
    run(app, "UP")  # back to the last one: the line is the last one's, drawn as before
    run(app, "UP DOWN")
    assert bytes(app.screen.buf) in seen


def in_band(app, words, y0, y1):
    """Where `words` show whole between rows y0 and y1 (tests/drawn_text), or None."""
    drawn = drawn_text.glyphs(app, words)
    for y in range(y0, y1 - CHAR_H + 1):
        for x in range(app.width - drawn[1] + 1):
            if drawn_text.shows_at(app, words, x, y, drawn):
                return x, y
    return None


@pytest.mark.parametrize("size", SIZES)
def test_every_settings_row_shows_its_name_and_each_choice_whole_or_in_their_short_forms(size):
    # Nothing cut ("COMPUTER SPEE"): where a row's name and choice do not fit side by side,
    # both stay whole in their short forms; at 240 pixels and wider, the whole words always.
    app = make_app(*size)
    run(app, OPEN_SETTINGS)
    for i in range(st.COUNT):
        row = st.SETTINGS[i]
        narrow = size[0] < 240
        names = [row[st.NAME]] + ([row[st.SHORT_NAME]] if len(row) > st.SHORT_NAME and narrow else [])
        for _ in range(len(row[st.CHOICES])):  # each choice in turn, back to the first shown
            c = app.settings[i]
            shorter = len(row) > st.SHORT_CHOICES and narrow
            values = [row[st.CHOICES][c]] + ([row[st.SHORT_CHOICES][c]] if shorter else [])
            fb = app.screen.fb
            bar = [y for y in range(app.height) if fb.pixel(app.width // 2, y) == pal.CURSOR]
            y0, y1 = min(bar), max(bar) + 1
            name_at = next((at for at in (in_band(app, n, y0, y1) for n in names) if at), None)
            value_at = next((at for at in (in_band(app, v, y0, y1) for v in values) if at), None)
            assert name_at and value_at, (size, i, c, names, values)
            assert name_at[0] < value_at[0] and name_at[1] == value_at[1]
            run(app, "A")  # the next choice (A, as with two buttons, which a choice here turns on)
        run(app, "DOWN")


def test_changing_a_setting_keeps_its_line():
    app = make_app(*NARROWEST)
    run(app, OPEN_SETTINGS + " DOWN")  # Card back
    before = bytes(app.screen.buf)
    run(app, "RIGHT LEFT")
    assert bytes(app.screen.buf) == before


# --- issue: the rules page ends at its last line ---

def page_lines(app):
    """Every line whose letters fit above the screen's foot, a pixel to spare, under a head of
    one line (the first at LINE_H + 5)."""
    return (app.height - 1 - (LINE_H + 5) - CHAR_H) // LINE_H + 1


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("game", games.available())
def test_the_rules_page_scrolls_no_further_than_its_last_line_at_the_foot(game, size):
    app = make_app(size[0], size[1], game, 7)
    run(app, "SELECT")
    assert app.mode == ui.RULES
    first = bytes(app.screen.buf)
    run(app, " ".join(["DOWN"] * 400))
    end = bytes(app.screen.buf)
    assert end != first  # the text is longer than a page: it scrolled
    y_last = LINE_H + 5 + (page_lines(app) - 1) * LINE_H
    assert ink(app, 4, y_last, app.width - 8, CHAR_H, pal.PANEL) > 0  # the page's foot holds text
    run(app, "DOWN")
    assert bytes(app.screen.buf) == end  # and DOWN goes no further
    run(app, "UP DOWN")
    assert bytes(app.screen.buf) == end
    run(app, " ".join(["UP"] * 400))
    assert bytes(app.screen.buf) == first


def test_the_rules_page_to_its_end_and_every_settings_line_allocate_nothing_on_micropython():
    from tests.helpers import run_mpy_ok
    from tests.test_ui_micropython import heap_lock_script
    keys = ("SELECT " + "DOWN " * 60 + "UP B "  # the rules from play, to their end and back
            + "START " + "DOWN " * 7 + "A " + "DOWN " * 11 + "RIGHT LEFT B "  # every settings line
            + "DOWN DOWN A B B")  # Give up asks (a game in progress), B: no; B: back to the table
    out = run_mpy_ok(heap_lock_script("sir_tommy", NARROWEST, "X A A X A A " + keys))
    assert out.startswith("no allocation "), out


def test_a_saved_card_back_the_console_has_no_colours_for_starts_as_the_default():
    # The record allows card backs 0..15 (engine_core/records.py); four are drawn. A value from
    # another version reads as the default instead of stopping the console at power-on.
    from engine_core.console import Console
    from engine_core.gfx.screen import Screen
    from engine_core.storage import MemoryStorage
    from engine_core.ui.app import App
    from simulator import framebuf
    disk = MemoryStorage()
    first = Console(App(Screen(240, 240, framebuf)), disk)
    first.start()
    first.keeper.settings.set("card_back", 9)
    first.keeper.settings.set("target", 75)
    first.keeper.save_settings()
    console = Console(App(Screen(240, 240, framebuf)), disk)
    console.start()
    assert console.app.settings[st.S_BACK] == 0 and console.app.settings[st.S_TARGET] == 0
    assert console.app.setting_label(st.S_BACK) == b"Blue"


# --- a question over the pause menu ---

@pytest.mark.parametrize("size", SIZES)
def test_quit_from_the_pause_menu_asks_over_the_table_with_no_menu_row_cut_through(size):
    app = make_app(*size)
    app.open_game("sir_tommy", 5)
    run(app, "X A A WAIT")
    assert app.in_progress()
    app.full = True
    app.redraw()  # the table, whole: what must show around the question
    fb = app.screen.fb
    table = [[fb.pixel(x, y) for x in range(app.width)] for y in range(app.height)]
    run(app, "START UP")
    assert app.mode == ui.PAUSE and app.selected == len(texts.PAUSE) - 1  # Give up
    app.screens[ui.PAUSE].panel_rect(app)
    px, py, pw, ph = list(PANEL_RECT[:4])
    run(app, "A")
    assert app.mode == ui.CONFIRM
    if 0 < py < LINE_H:  # less than a line of the table above: the panel reaches the top
        py, ph = 0, ph + py
    if py == 0:  # and the sides, and the foot when less than a line is left there
        px, pw = 0, app.width
        if ph > app.height - LINE_H:
            ph = app.height
    assert list(app.over[:4]) == [px, py, pw, ph]
    # The question takes the pause menu's panel whole; around it, the table.
    differ = [(x, y) for y in range(app.height) for x in range(app.width)
              if not (px <= x < px + pw and py <= y < py + ph) and fb.pixel(x, y) != table[y][x]]
    assert not differ, "pixels outside the question differ from the table: %s" % differ[:8]
    bars = [y for y in range(py, py + ph)
            if sum(1 for x in range(px, px + pw) if fb.pixel(x, y) == pal.CURSOR) >= pw - 8]
    assert not bars, "a menu row's bar shows through the question: rows %s" % bars[:4]
    at = drawn_text.find(app, bytes(texts.CONFIRMS[ui.A_GIVE_UP]))
    assert at is not None and px <= at[0] and py <= at[1] < py + ph, "the question is in the panel"


@pytest.mark.parametrize("key", ["B", "ESC"])
def test_no_to_a_question_from_the_pause_menu_returns_with_the_row_that_asked_highlighted(key):
    from simulator.keys import parse
    for row in (ui.P_GIVE_UP, ui.P_RESTART, ui.P_NEW):
        app = make_app(240, 135)
        app.open_game("sir_tommy", 5)
        run(app, "X A A WAIT START")
        app.selected = row
        run(app, "A")
        assert app.mode == ui.CONFIRM
        if key == "B":
            run(app, "B")
        else:  # the simulator's Esc: what Console.back_key says it means
            from engine_core.console import Console
            from engine_core.storage import MemoryStorage
            button = Console(app, MemoryStorage()).back_key()
            assert [button] == [b for b, _ in parse("B")]
            app.press(button, False)
        assert app.mode == ui.PAUSE and app.selected == row, row


# --- one word for one thing: a deal's number ---

def test_the_deal_number_screen_speaks_of_a_deal_number_as_the_game_list_and_pause_menu_do():
    app = make_app(240, 135)
    said = []
    text = app.painter.text

    def noted(s, x, y, colour):  # every text drawn passes here (text_centred draws through it)
        said.append(bytes(s).decode().lower())
        return text(s, x, y, colour)
    app.painter.text = noted
    run(app, "DOWN A X")  # Choose a game, Aces Up, X: by number
    assert app.mode == ui.DEAL
    assert any("deal number" in s for s in said), said
    assert not any("seed" in s for s in said), said


@pytest.mark.parametrize("size", SIZES)
def test_the_rules_pages_top_line_says_up_down_and_left_right_page_beside_the_longest_name(size):
    app = make_app(*size)
    p = app.painter
    longest = max(app.names, key=lambda n: p.text_width(games.title(n)))
    app.open_game(longest, 1)
    drawn = []
    text = p.text

    def noted(s, x, y, colour):
        drawn.append((bytes(s), x, y))
        return text(s, x, y, colour)
    p.text = noted
    run(app, "SELECT")
    assert app.mode == ui.RULES
    top = [(s, x) for s, x, y in drawn if y == 3]
    name = [x + p.text_width(s) for s, x in top if s == bytes(games.title(longest))]
    keys = [(s, x) for s, x in top if s.startswith(b"Up/down")]
    if not keys:  # a narrow screen: the keys go on the line under the name, the text after them
        keys = [(s, x) for s, x, y in drawn if y == 3 + LINE_H and s.startswith(b"Up/down")]
        name = [0]
        assert app.width < 240 and not any(y == 3 + LINE_H for s, x, y in drawn if not s.startswith(b"Up"))
    assert name and keys, top
    s, x = keys[0]
    assert b"L/R page" in s or b"Left/right: page" in s
    assert name[0] + 2 * CHAR_W <= x and x + p.text_width(s) <= app.width - 2  # apart, on screen


@pytest.mark.parametrize("size", layouts.SIZES)
def test_a_panel_over_the_table_leaves_the_status_line_whole_or_covers_it_whole(size):
    # On 160x128 the pause menu began four rows down: the tops of the status line's letters
    # showed above it as a broken line, and its first and last letters cut at its sides.
    app = make_app(*size)
    app.open_game("sir_tommy", 1)
    app.full = True
    app.redraw()
    fb = app.screen.fb
    band = [(x, y) for y in range(LINE_H) for x in range(app.width) if fb.pixel(x, y) != pal.FELT]
    before = {p: fb.pixel(*p) for p in band}  # the status line's letters
    assert band
    for keys in ("START", "UP A"):  # the pause menu, then its Give up question
        run(app, keys)
        shown = [p for p in band if fb.pixel(*p) == before[p]]
        assert len(shown) in (0, len(band)), (size, keys, len(shown), len(band))


def status_lines(app):
    """Each line of the table's status words (its box, as far down as they may reach), as the
    colour of each lit pixel."""
    from engine_core.ui import overlay
    x0, y0, w = app.table.slots.status
    fb = app.screen.fb
    lines = []
    for top in range(y0, min(y0 + overlay.status_reach(app.table.view), app.height), LINE_H):
        band = [(x, y) for y in range(top, min(top + CHAR_H, app.height)) for x in range(x0, min(x0 + w, app.width))
                if fb.pixel(x, y) in (pal.SLOT, pal.WHITE)]
        if band:
            lines.append({p: fb.pixel(*p) for p in band})
    assert lines
    return lines


def assert_not_cut_across(lines, cuts, x0, x1, where):
    """No line's letters (between columns x0 and x1) have a cut (a row where something drawn
    over them begins or ends) between their top and bottom rows."""
    for line in lines:
        if not any(x0 <= x < x1 for x, _ in line):
            continue
        top = min(y for _, y in line)
        bottom = max(y for _, y in line)
        for cut in cuts:
            assert not top < cut <= bottom, (where, top, bottom, cut)


@pytest.mark.parametrize("size", layouts.SIZES)
@pytest.mark.parametrize("game, players", params())
def test_the_pause_menu_and_the_message_strip_never_cut_a_line_of_the_status_words_across(game, players, size):
    # Each line of the status words, wherever the table has them (a corner at the foot on
    # 160x128, four rows on 128x64), is never cut across by the pause menu's top or foot nor
    # by the message strip's top: the tops of its letters would show as a broken line (a
    # panel's side may cover a line's first letters, as it covers cards).
    from engine_core import reasons as why
    app = make_app(size[0], size[1], game, 5, players=players)
    run(app, "TICK")
    lines = status_lines(app)
    app.table.say(why.EMPTY)
    run(app, "TICK")
    assert app.table.message == why.EMPTY
    assert_not_cut_across(lines, [app.table.view.strip_y], 0, app.width, (game, players, size, "the strip"))
    app.table.drop_message()
    run(app, "START")
    x, y, w, h = app.over[:4]
    assert_not_cut_across(lines, [y, y + h], x, x + w, (game, players, size, "the pause menu"))


@pytest.mark.parametrize("game", games.available())
def test_a_rules_page_names_no_button_a_board_may_lack(game):
    # A board may have A, B and the D-pad only (pico_ssd1306): the rules' body speaks of
    # undo and redo by name; the board's own keys paragraph names its buttons.
    import re
    words = games.rules_text(game).decode()
    buttons = r"\b[Ll]ong [XY]\b|\b[XY] (takes|puts|sends|turns|opens|undoes)\b|\bSTART\b|\bSELECT\b"
    assert not re.search(buttons, words), words


@pytest.mark.parametrize("size", [(240, 240), (128, 64)])
def test_the_rules_page_writes_a_line_of_text_in_one_painter_call_with_the_same_letters(size):
    # A whole page of text is about 800 letters: one painter call a letter (char, image) cost
    # the chip as much again as the letters' own blits. The letters are those one char() a
    # letter draws (the reference: each line's letters drawn again that way, over a blank page).
    app = make_app(size[0], size[1], "casket", 7)
    p = app.painter
    calls = {"span": 0, "char": 0}
    span, char = p.text_span, p.char
    p.text_span = lambda *a: (calls.__setitem__("span", calls["span"] + 1), span(*a))[1]
    p.char = lambda *a: (calls.__setitem__("char", calls["char"] + 1), char(*a))[1]
    run(app, "SELECT")
    assert app.mode == ui.RULES
    assert calls["char"] == 0 and 0 < calls["span"] <= 2 * page_lines(app) + 4, calls
    page = bytes(app.screen.buf)

    def letter_by_letter(s, start, end, x, y, colour):
        for i in range(start, end):
            char(s[i], x + 6 * (i - start), y, colour)
        return x + 6 * (end - start)

    p.text_span = letter_by_letter
    app.full = True
    app.redraw()
    assert bytes(app.screen.buf) == page


@pytest.mark.parametrize("width", [128, 160, 240, 320])
def test_the_rules_page_breaks_its_lines_where_pythons_textwrap_does(width):
    # The reference is the standard library's, not the console's: whole words, a line of
    # (width - 7) // 6 letters at most, a paragraph ending at a newline.
    from engine_core.ui.screens import wrap

    class Lines:
        def __init__(self):
            self.lines = []

        def text_span(self, s, start, end, x, y, colour):
            self.lines.append(bytes(s[start:end]).decode())
            return x + 6 * (end - start)

    class Page:
        pass

    for text in [games.rules_text(name) for name in games.available()] + [texts.WINNABLE_NOTE, texts.RULES_KEYS]:
        page = Page()
        page.width = width
        page.painter = Lines()
        wrap(page, text, 0, 10000, pal.WHITE)
        reference = []
        for paragraph in text.decode().split("\n"):
            reference.extend(textwrap.wrap(paragraph, (width - 7) // 6, break_on_hyphens=False))
        assert [line for line in page.painter.lines if line] == reference, (width, text[:30])


@pytest.mark.parametrize("size", [(240, 240), (160, 128), (128, 64)])
def test_the_question_before_a_new_game_names_the_game_it_gives_up(size):
    # A game of Casket under way, the player goes to the title and picks Nerts from the list:
    # the question says which game counts as lost, not just "this game".
    from simulator.keys import run
    from tests import drawn_text
    app = make_app(size[0], size[1], "casket", 5)
    run(app, "X A A START UP UP A DOWN DOWN A")
    assert app.mode == ui.CHOOSE and app.in_progress()
    run(app, "DOWN DOWN A")
    assert app.mode == ui.CONFIRM and games.names()[app.pending_game] == "nerts"
    assert drawn_text.find(app, b"Casket") is not None, "the game given up is named"
    assert drawn_text.find(app, b"A: yes") is not None


@pytest.mark.parametrize("size", layouts.SIZES)
def test_the_settings_page_says_which_keys_change_a_setting(size):
    # A new player on the settings page was not told how to change a value or leave.
    from simulator.keys import run
    from tests import drawn_text
    for two in (False, True):
        app = make_app(size[0], size[1])
        app.settings[st.S_TWO_BUTTONS] = 1 if two else 0
        run(app, "B B B A" if two else "DOWN DOWN DOWN A")  # (B steps down the rows with two buttons)
        assert app.mode == ui.SETTINGS
        assert drawn_text.find(app, b"A: change" if size[1] < 240 or two else b"A, LEFT, RIGHT: change"), (size, two)
        if size[1] >= 240:  # room under the panel: how to go back too
            assert drawn_text.find(app, b"hold B: back" if two else b"B: back") is not None, (size, two)


def test_every_deal_number_can_be_typed_on_the_deal_number_screen():
    # The screen held 7 digits while deal numbers run to 1073741823 (2**30 - 1), which the
    # pause menu shows: a deal seen there could not be typed back in.
    from engine_core.protocol import MAX_SEED
    from simulator.keys import run
    for typed, dealt in (("1073741823", MAX_SEED), ("1073741824", MAX_SEED), ("9999999999", MAX_SEED),
                         ("123456789", 123456789), ("5", 5)):
        app = make_app(240, 240)
        run(app, "DOWN A X")
        assert app.mode == ui.DEAL
        for d in typed:
            app.type_digit(int(d))
        assert app.seed() == dealt, typed
        run(app, "A")
        assert app.mode == ui.PLAY and app.table.game.seed == dealt, typed
    app = make_app(128, 64)
    run(app, "DOWN A X")
    for d in "1073741823":
        app.type_digit(int(d))
    run(app, "LEFT " * 9 + "UP")  # the first digit up: 2073741823 is past the largest
    assert app.seed() == MAX_SEED
    run(app, "DOWN")  # 0073741823
    assert app.seed() == 73741823


@pytest.mark.parametrize("size", [(160, 128), (240, 135), (240, 240), (320, 240), (128, 64)])
def test_the_question_over_the_game_list_leaves_no_row_of_it_cut_in_two(size):
    # The game list's A with a game in progress asks first ("Deal a new game?"): a panel of five
    # lines in the middle left the list's last row half shown below it on 160x128 (broken
    # letters). Every pixel of the list's panel now is the question's panel, its border or
    # its words, and the words lie in the question's five lines.
    from engine_core.gfx import palette as pal
    from engine_core.gfx.paint import LINE_H
    from engine_core.ui.screens import PANEL_RECT
    from simulator.keys import make_app, run
    app = make_app(*size, "sir_tommy", 5, mono=size[1] == 64)
    app.table.move_count = 1  # a game in progress
    app.go(ui.CHOOSE)
    app.selected = 4
    app.full = True
    app.redraw()
    app.screens[ui.CHOOSE].panel_rect(app)
    x0, y0, w, h = PANEL_RECT[0], PANEL_RECT[1], PANEL_RECT[2], PANEL_RECT[3]
    run(app, "A")
    app.redraw()
    assert app.mode == ui.CONFIRM
    inked = [y for y in range(y0 + 1, y0 + h - 1) for x in range(x0 + 1, x0 + w - 1)
             if app.fb.pixel(x, y) not in (pal.PANEL, pal.SLOT) and not (app.screen.mono and app.fb.pixel(x, y) == 0)]
    assert inked, "the question's words"
    assert max(inked) - min(inked) < 5 * LINE_H, (min(inked), max(inked))
