"""One bit at 128x64 (docs/screen.md, "One-bit panels"): every card readable, its rank and suit
legible under the cursor, held and as the last move; a long pile shown with its top card whole;
the empty foundation's A the glyph the art draws; description lines told from a menu's rows."""

import pytest

from engine_core.gfx import art_data
from engine_core.gfx import palette as pal
from engine_core.gfx import paint
from engine_core.gfx.screen import Screen
from simulator import framebuf
from simulator.keys import make_app, run
from support.ui_scripts import games_with_layouts, script
from tests.helpers import run_mpy_ok
from tests.test_mono import lit
from tests.test_redraw import from_scratch
from tests.test_ui_micropython import heap_lock_script
from tools.frame import frame

MARKS = {pal.CURSOR: "cursor", pal.HELD: "held", pal.LAST: "last move", pal.HINT: "hint"}


def glyph(painter, image):
    """An image of the art (tools/art/cards.txt) as rows of 0 and 1."""
    art = painter.images[image]
    return [[art.pixel(i, j) for i in range(painter.widths[image])] for j in range(painter.heights[image])]


def index_reads(screen, painter, st, x, y, card, below=False):
    """Whether the index of the card drawn at x, y shows its rank and suit as the art draws
    them (where Painter.card puts them: the suit beside the rank, or under it on a card
    fanned right), each pixel ink or paper, with a ring of paper round the two glyphs: dark
    ink on the lit card or lit ink on a negative one, never a pixel of a mark."""
    o = 2 if st.big == paint.ART_TINY else 3
    rank = glyph(painter, st.rank_first + card % 13)
    suit = glyph(painter, st.suit_first + (card // 13) % 4)
    want = {}  # (x, y) -> 1 where ink
    for j, row in enumerate(rank):
        for i, v in enumerate(row):
            want[(x + o + i, y + o + j)] = v
    if below and st.big < paint.ART_INDEX:
        sx, sy = x + 2 + (len(rank[0]) + 2 - len(suit[0])) // 2, y + 5 + len(rank)
    else:
        sx, sy = x + o + 1 + len(rank[0]), y + o
    for j, row in enumerate(suit):
        for i, v in enumerate(row):
            want[(sx + i, sy + j)] = v
    left = min(x + o, sx) - 1
    right = max(sx + len(suit[0]), x + o + len(rank[0]))
    if right > x + st.w - 2:
        right = x + st.w - 2  # a wide 10 and its suit reach the card's edge: no paper beyond
    foot = max(sy + len(suit), y + o + len(rank))
    for j in range(y + o - 1, foot + 1):  # the paper round them, and between
        for i in range(left, right + 1):
            want.setdefault((i, j), 0)
    paper = 1 - lit(screen, x + o - 1, y + o - 1)
    return all(lit(screen, i, j) == (v ^ paper ^ 1) for (i, j), v in want.items())


def test_the_index_check_catches_a_mark_on_the_index_margin():
    screen = Screen(128, 64, framebuf, mono=True)
    screen.fb.fill(pal.FELT)
    p = paint.painter_for(screen)
    st = p.styles[paint.MICRO]
    p.card(st, 10, 10, 22, True, pal.GREY, pal.FELT, False)
    assert index_reads(screen, p, st, 10, 10, 22)
    screen.fb.pixel(11, 12, pal.GREY)  # a dark pixel on the paper beside the rank
    assert not index_reads(screen, p, st, 10, 10, 22)


@pytest.mark.parametrize("size", range(len(paint.CARD_SIZES)))
@pytest.mark.parametrize("mark", list(MARKS))
def test_a_highlighted_cards_rank_and_suit_read_as_the_art_draws_them(size, mark):
    # The marks of the cursor, the card held, the last move and the hint lie outside the
    # paper round the index (the 13x9 card's one ring of it): every card of every suit
    # shows its rank and suit glyphs whole, with their margin, whatever marks it.
    screen = Screen(196, 64, framebuf, mono=True)
    p = paint.painter_for(screen)
    st = p.styles[size]
    for card in range(52):
        for ring in (pal.GREY, mark):
            for below in (False, True):
                screen.fb.fill(pal.FELT)
                p.card(st, 10, 10, card, True, ring, pal.FELT, below, False)
                assert index_reads(screen, p, st, 10, 10, card, below), (size, MARKS[mark], card, ring, below)


def top_card(app, s):
    """The top card of slot s, its place, and the highlight it is drawn with."""
    table = app.table
    slots = table.slots
    piles = table.game.piles
    p = slots.pile[s]
    n = piles.size[p]
    view = table.view
    view.highlight(s)
    return (piles.cards[piles.start[p] + n - 1], slots.card_pos(s, n - 1, True),
            slots.card_pos(s, n - 1, False), view.highlight_colour)


def slot_named(app, name):
    return app.table.slots.slot_of[app.table.game.pile_id(name)]


@pytest.mark.parametrize("keys, slot, mark", [
    ("WAIT", "current", pal.CURSOR),  # the cursor starts on the card turned up
    ("A", "current", pal.HELD),
    ("A RIGHT A LEFT", "res1", pal.LAST),
])
def test_in_play_at_128x64_the_marked_card_reads(keys, slot, mark):
    app = make_app(128, 64, "sir_tommy", 3, mono=True)
    run(app, keys)
    card, x, y, shown = top_card(app, slot_named(app, slot))
    assert shown == mark, (MARKS[mark], shown)
    assert index_reads(app.screen, app.painter, app.table.slots.style, x, y, card)


def fill_a_reserve(app, count):
    """Sir Tommy: turn up cards and put each on the first reserve until it holds `count`;
    after each move the frame must be the one a redraw from scratch gives."""
    table = app.table
    piles = table.game.piles
    res = slot_named(app, "res1")
    size = piles.size[table.slots.pile[res]]
    while size < count:
        if piles.size[table.slots.pile[1]] == 0:
            table.hand.cursor = 0
            run(app, "A")
        table.hand.cursor = 1
        run(app, "A")
        table.hand.cursor = res
        run(app, "A")
        size = piles.size[table.slots.pile[res]]
        assert bytes(app.screen.buf) == from_scratch(app, pal.WHITE), size
    return res


def test_a_long_reserve_shows_its_top_card_whole_and_its_cards_under_it():
    app = make_app(128, 64, "sir_tommy", 3, mono=True)
    slots = app.table.slots
    for count in (8, 14, 26, 44, 45, 51):
        res = fill_a_reserve(app, count)
        card, x, y, _ = top_card(app, res)
        st = slots.style
        assert y + st.h <= app.screen.height, count
        assert index_reads(app.screen, app.painter, st, x, y, card), count
        # The cards under it show: lit rows, no run of three dark ones down the pile.
        column = [max(lit(app.screen, i, j) for i in range(x + 2, x + st.w - 2)) for j in range(slots.y[res], y)]
        assert b"\x00\x00\x00" not in bytes(column), (count, column)


def test_a_long_reserve_is_reached_where_its_cards_show():
    app = make_app(128, 64, "sir_tommy", 3, mono=True)
    res = fill_a_reserve(app, 51)
    _, x, y, _ = top_card(app, res)
    assert app.table.slot_at(x + 5, y + 4) == res | 50 << 8  # the top card, whole
    assert app.table.slot_at(x + 5, y - 1) & 0xFF == res


def test_the_empty_foundations_letter_is_the_art_s_A_inside_its_outline():
    app = make_app(128, 64, "sir_tommy", 3, mono=True)
    slots = app.table.slots
    st = slots.style
    a = glyph(app.painter, art_data.RANK_TINY)  # tools/art/cards.txt: rank_tiny_A
    founds = [s for s in range(slots.count) if slots.labels[s] == b"A"]
    assert len(founds) == 4
    for s in founds:
        x = slots.x[s] + (st.w - 3) // 2
        y = slots.y[s] + (st.h - 5) // 2
        for j in range(-1, 6):
            for i in range(-1, 4):
                want = a[j][i] if 0 <= j < 5 and 0 <= i < 3 else 0  # lit on the dark, clear of the outline
                assert lit(app.screen, x + i, y + j) == want, (s, i, j)


def dotted_under(screen, x, y, w):
    """Whether the row a pixel under the letters at x, y (w pixels) is a dotted rule."""
    row = [lit(screen, i, y + 8) for i in range(x, x + w)]
    return row[0::2] == [1] * len(row[0::2]) and row[1::2] == [0] * len(row[1::2])


def dotted_rows(screen):
    """The rows of the screen that hold a dotted rule 40 pixels long or more."""
    return [y for y in range(screen.height)
            if any(dotted_under(screen, x, y - 8, 40) for x in range(0, screen.width - 40))]


def test_the_settings_lines_about_a_setting_are_told_from_its_rows():
    # On a colour screen the line about the selected setting is gold; one bit draws it with
    # a dotted rule under each of its lines, and the rows to choose from have none.
    from engine_core.ui import settings
    for w, h in ((128, 64), (160, 128)):
        app = make_app(w, h, "sir_tommy", 3, mono=True)
        run(app, "START UP UP UP A")
        s = app.screen
        dotted = dotted_rows(s)
        assert len(dotted) == 2, (w, h, dotted)  # Sound's: "Beeps for moves, / wins and losses"
        assert dotted[1] - dotted[0] == 10
        words = settings.SETTINGS[0][settings.ABOUT]
        assert words.lower().startswith(b"beeps for moves")
        chosen = [y for y in range(s.height)  # the lit row chosen, dark words on it (not a border)
                  if 0.6 * (s.width - 16) < sum(lit(s, x, y) for x in range(8, s.width - 8)) < s.width - 16]
        assert chosen and max(chosen) < dotted[0] - 8
        for y in dotted:  # letters over each rule, none on the rule's own row between dots
            assert any(lit(s, x, y - 2) for x in range(s.width))
        run(app, "DOWN")  # another setting: its own lines, noted the same way
        assert len(dotted_rows(s)) >= 1


def test_the_rules_keys_are_told_from_the_rules():
    app = make_app(128, 64, "sir_tommy", 3, mono=True)
    run(app, "SELECT")
    s = app.screen
    keys = b"Up/down  L/R page"
    x = s.width - 4 - (len(keys) * 6 - 1)
    assert dotted_under(s, x, 13, len(keys) * 6 - 1)
    assert not dotted_under(s, 4, 25, 30)  # the rules' first line


LONG_PILE_LOCKED = """
import gc, micropython
from simulator.keys import make_app, parse

app = make_app(128, 64, 'sir_tommy', 3, True)
table = app.table
piles = table.game.piles
res = table.slots.slot_of[table.game.pile_id('res1')]

def size(s):
    return piles.size[table.slots.pile[s]]

def press(s):
    table.hand.cursor = s
    app.press(parse('A')[0][0], False)

def play(events):
    for e in events:
        if e[0] < 0:
            app.tick(-e[0])
        else:
            app.press(e[0], e[1])

while size(res) < 43:  # a reserve of 43 cards: three more run it past its room
    if size(1) == 0:
        press(0)
    press(1)
    press(res)
app.tick(600)
events = parse('LEFT A DOWN A RIGHT A RIGHT LEFT A B LEFT A DOWN A RIGHT A LEFT A DOWN A RIGHT A X Y Y WAIT')
play(events)  # the first pass draws every case once
result = 'not run'
gc.collect()
micropython.heap_lock()
try:
    play(events)
    result = 'no allocation'
except MemoryError:
    result = 'allocated'
micropython.heap_unlock()
print(result, size(res), table.slots.beneath(res, size(res)), len(app.screen.buf))
"""


def test_a_long_pile_and_the_marks_allocate_nothing_on_micropython():
    # Cards a pixel apart (stripes), cards hidden under the first shown, the cursor's
    # negative, the card held and the last move's rails, with the heap locked.
    out = run_mpy_ok(LONG_PILE_LOCKED).split()
    assert out[:2] == ["no", "allocation"], out
    assert int(out[2]) >= 45 and int(out[3]) >= 2 and out[4] == "1024", out


@pytest.mark.parametrize("game", games_with_layouts())
def test_keypress_to_redraw_allocates_nothing_at_128x64_one_bit(game):
    code = heap_lock_script(game, (128, 64), script(game))
    code = code.replace("make_app(128, 64, %r, 7)" % game, "make_app(128, 64, %r, 7, True)" % game)
    assert "7, True)" in code
    out = run_mpy_ok(code + "print(len(app.screen.buf), app.screen.mono)\n")
    assert out.startswith("no allocation "), out
    assert out.split()[-2:] == ["1024", "True"]


@pytest.mark.parametrize("game", games_with_layouts())
def test_one_bit_frames_at_128x64_are_identical_on_cpython_and_micropython(game):
    keys = script(game)
    cpython = frame("cpython", 128, 64, game, 7, keys, mono=True)
    assert len(cpython) == 1024
    assert frame("micropython", 128, 64, game, 7, keys, mono=True) == cpython


@pytest.mark.parametrize("mono", [True, False])
def test_a_wild_kings_tag_on_the_smallest_card_leaves_its_k_whole(mono):
    # A wild king on a centre stack shows the rank it stands for in a tag over its suit; on the
    # 13x9 card (128x64) the tag cut the K's last column and the king read as a B or an E.
    from engine_core.games import spite_malice as sm
    from engine_core.ui import overlay
    from simulator.keys import make_app
    app = make_app(128, 64, "spite_malice", 3, mono=mono)
    view = app.table.view
    p = app.painter
    st = next(s for s in p.styles if s is not None and (s.w, s.h) == (13, 9))
    king = sm.KING  # the king of the first suit
    fb = app.fb
    fb.fill(0)
    p.card(st, 0, 0, king, True, 0, False, False)
    plain = [[fb.pixel(x, y) for x in range(st.w)] for y in range(st.h)]
    p.card(st, 20, 0, king, True, 0, False, False)
    overlay.draw_wild(view, st, 20, 0, 4)  # standing for a 5
    tagged = [[fb.pixel(20 + x, y) for x in range(st.w)] for y in range(st.h)]
    k_columns = range(0, 6)  # the card's left edge and the K
    assert [[row[x] for x in k_columns] for row in tagged] == [[row[x] for x in k_columns] for row in plain]
    assert tagged != plain  # the tag is there
