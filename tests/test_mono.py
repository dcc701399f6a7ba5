"""The one-bit screen (docs/screen.md): a MONO_VLSB frame of an eighth of a byte a pixel, each
palette role dark or lit, what colour told apart told apart otherwise, the same frames on both
runtimes, no allocation in play, and the decoder the window and the panels' tests share."""

import itertools

import pytest

from engine_core.gfx import art_data
from engine_core.gfx import palette as pal
from engine_core.gfx import paint
from engine_core.gfx.paint import Painter
from engine_core.gfx.screen import Screen
from simulator import framebuf
from simulator.image import mono_pixels, mono_rgb_bytes
from simulator.keys import make_app, run
from support.ui_scripts import games_with_layouts, script
from tests.helpers import run_mpy_ok
from tests.test_ui_micropython import heap_lock_script
from tools.frame import frame

HIGHLIGHTS = (pal.CURSOR, pal.HELD, pal.HINT, pal.LAST)


def lit(screen, x, y):
    """Pixel (x, y) of a one-bit screen as a panel shows it: SSD1306 datasheet, "Graphic
    Display Data RAM": page y // 8, column x, bit y % 8 (D0 the top row)."""
    return (screen.buf[(y >> 3) * screen.width + x] >> (y & 7)) & 1


def box(screen, x, y, w, h):
    return tuple(lit(screen, i, j) for j in range(y, y + h) for i in range(x, x + w))


def painter(width=196, height=64):
    """A one-bit screen under 200 pixels wide (it holds every card size) and its painter, as
    the console makes it (paint.painter_for: MonoPainter)."""
    screen = Screen(width, height, framebuf, mono=True)
    screen.fb.fill(pal.FELT)
    return screen, paint.painter_for(screen)


def inset(st):
    """The inset of a card's face (Painter.card): its index starts there, and the ring just
    outside it is the index's margin, which no highlight's mark touches."""
    return 2 if st.big == paint.ART_TINY else 3


@pytest.mark.parametrize("size", [(128, 64), (240, 136), (160, 128)])
def test_the_one_bit_frame_is_an_eighth_of_a_byte_a_pixel(size):
    w, h = size
    screen = Screen(w, h, framebuf, mono=True)
    assert screen.mono and len(screen.buf) == w * h // 8
    assert len(Screen(w, h, framebuf).buf) == w * h // 2  # the colour frame: four times as big
    assert not Screen(w, h, framebuf).mono


def test_a_height_not_a_whole_number_of_pages_rounds_up_to_one():
    assert len(Screen(240, 135, framebuf, mono=True).buf) == 240 * 17


def test_each_role_draws_its_tone_from_the_table_beside_the_palette():
    assert len(pal.MONO) == len(pal.RGB) == 16
    screen = Screen(128, 64, framebuf, mono=True)
    for role in range(16):
        screen.fb.fill_rect(8 * role, 3, 8, 10, role)
    for role in range(16):
        assert box(screen, 8 * role, 3, 8, 10) == (pal.MONO[role],) * 80, role
    # the table, a dark table and light cards: felt, panels and ink dark; cards and text lit
    assert [pal.MONO[r] for r in (pal.FELT, pal.PANEL, pal.BLACK, pal.RED, pal.GREY)] == [0] * 5
    assert [pal.MONO[r] for r in (pal.WHITE, pal.GOLD, pal.DIM, pal.SLOT, pal.CURSOR)] == [1] * 5


def card_picture(size, card, face_up, frame, empty=False):
    screen, p = painter()
    st = p.styles[size]
    if empty:
        p.empty_pile(st, 10, 4, b"K", frame)
    else:
        p.card(st, 10, 4, card, face_up, frame, pal.FELT, False)
    return box(screen, 10, 4, st.w, st.h), st


@pytest.mark.parametrize("size", range(len(paint.CARD_SIZES)))
@pytest.mark.parametrize("kind", ["face up", "face down", "empty pile"])
def test_the_cursor_held_hint_and_last_move_frames_are_told_apart_without_colour(size, kind):
    # On a colour screen they are yellow, cyan, magenta and orange (docs/screen.md); one bit
    # draws each as its own marks on the rings outside the index's margin (the cursor's with
    # the face negative), none of them the plain frame, at every card size.
    pictures = [card_picture(size, 11, kind == "face up", f, kind == "empty pile")[0]
                for f in (pal.GREY,) + HIGHLIGHTS]
    for a, b in itertools.combinations(range(len(pictures)), 2):
        assert pictures[a] != pictures[b], (kind, a, b)


@pytest.mark.parametrize("size", range(len(paint.CARD_SIZES)))
@pytest.mark.parametrize("face_up", [True, False])
def test_a_highlight_leaves_the_card_inside_its_index_margin_as_it_is_or_negative(size, face_up):
    # The marks lie outside the ring of paper round the index: from that ring in, the held,
    # hinted and last-moved cards are the plain card, and the cursor's is its negative (every
    # pixel the other tone), so the rank and the suit read the same with a frame or without.
    for card in (37, 10, 51, 208):
        plain, st = card_picture(size, card, face_up, pal.GREY)
        m = inset(st) - 1
        for f in HIGHLIGHTS:
            framed = card_picture(size, card, face_up, f)[0]
            for y in range(m, st.h - m):
                row = slice(y * st.w + m, y * st.w + st.w - m)
                want = tuple(1 - v for v in plain[row]) if f == pal.CURSOR else plain[row]
                assert framed[row] == want, (card, f, y)
            if f == pal.CURSOR:  # the cursor's is negative from the ring inside its lit frame
                for y in range(1, st.h - 1):
                    row = slice(y * st.w + 1, y * st.w + st.w - 1)
                    want = tuple(1 - v for v in plain[row])
                    assert framed[row] == want, (card, f, y)


@pytest.mark.parametrize("size", range(len(paint.CARD_SIZES)))
def test_every_card_is_told_from_every_other_without_colour(size):
    # Hearts and diamonds are red on a colour screen: one bit draws all ink dark, so the
    # suits' own glyphs must tell them from spades and clubs.
    seen = {}
    for card in range(52):
        picture = card_picture(size, card, True, pal.GREY)[0]
        assert picture not in seen, (card, seen.get(picture))
        seen[picture] = card


@pytest.mark.parametrize("size", range(len(paint.CARD_SIZES)))
@pytest.mark.parametrize("card", [0, 14, 28, 51])  # a black ace, a red two, a red three, a black king
def test_a_cards_rank_is_its_glyph_in_dark_ink_on_the_lit_card(size, card):
    screen, p = painter()
    st = p.styles[size]
    p.card(st, 10, 4, card, True, pal.GREY, pal.FELT, False)
    o = inset(st)
    image = st.rank_first + card % 13
    w, h = art_data.INDEX[4 * image + 2], art_data.INDEX[4 * image + 3]
    art = p.images[image]
    for j in range(h):
        for i in range(w):
            assert lit(screen, 10 + o + i, 4 + o + j) == 1 - art.pixel(i, j), (i, j)


def test_a_card_back_is_a_pattern_of_both_tones():
    picture, st = card_picture(1, 0, False, pal.GREY)
    inner = [picture[y * st.w + x] for y in range(4, st.h - 4) for x in range(4, st.w - 4)]
    assert 0.2 < sum(inner) / len(inner) < 0.8


def test_a_chosen_menu_row_is_lit_under_dark_words():
    app = make_app(240, 135, "aces_up", 7, mono=True)
    run(app, "START")  # the pause menu, Resume chosen
    s = app.screen
    rows = [y for y in range(s.height) if lit(s, s.width // 2, y)]
    bars = [y for y in rows if all(y + k in rows for k in range(1, 6))]  # (not the panel's edge)
    assert bars, "no lit bar down the middle"
    y = bars[0]
    words = [lit(s, x, y + 3) for x in range(8, s.width // 2)]
    assert 0 in words and 1 in words


@pytest.mark.parametrize("game", games_with_layouts())
def test_one_bit_frames_are_identical_on_cpython_and_micropython(game):
    keys = script(game)
    cpython = frame("cpython", 240, 135, game, 7, keys, mono=True)
    assert len(cpython) == 240 * 17
    assert frame("micropython", 240, 135, game, 7, keys, mono=True) == cpython
    assert len(set(cpython)) > 8


@pytest.mark.parametrize("game", games_with_layouts())
def test_keypress_to_redraw_allocates_nothing_on_a_one_bit_screen(game):
    code = heap_lock_script(game, (240, 135), script(game))
    code = code.replace("make_app(240, 135, %r, 7)" % game, "make_app(240, 135, %r, 7, True)" % game)
    assert "7, True)" in code
    out = run_mpy_ok(code + "print(len(app.screen.buf), app.screen.mono)\n")
    assert out.startswith("no allocation "), out
    assert out.split()[-2:] == ["4080", "True"]


def test_the_decoder_gives_each_pixel_as_the_frame_holds_it():
    app = make_app(240, 135, "spite_malice", 3, mono=True)
    run(app, "RIGHT A X")
    s = app.screen
    pixels = mono_pixels(s.buf, s.width, s.height)
    assert len(pixels) == s.width * s.height
    fb = framebuf.FrameBuffer(bytearray(s.buf), s.width, s.height, framebuf.MONO_VLSB)
    assert all(pixels[y * s.width + x] == fb.pixel(x, y) for y in range(s.height) for x in range(s.width))
    assert 0.05 < sum(pixels) / len(pixels) < 0.95
    rgb = mono_rgb_bytes(s.buf, s.width, s.height)
    assert rgb[:3] == bytes((255, 255, 255) if pixels[0] else (0, 0, 0))
    assert set(rgb) == {0, 255}
    with pytest.raises(ValueError):
        mono_pixels(s.buf[:-1], s.width, s.height)


def test_the_window_shows_a_one_bit_screen_lit_on_dark():
    pytest.importorskip("pygame")
    from simulator.window import Window
    app = make_app(240, 135, "aces_up", 7, mono=True)
    run(app, "RIGHT A")
    s = app.screen
    want = mono_rgb_bytes(s.buf, s.width, s.height)
    window = Window(s, 1, None, visible=False)
    try:
        window.update()
        got = bytearray()
        for y in range(s.height):
            for x in range(s.width):
                c = window.surface.get_at((window.side + x, window.pad + y))
                got += bytes((c.r, c.g, c.b))
    finally:
        window.close()
    assert bytes(got) == want


def test_the_simulator_shows_a_board_one_bit_on_request_or_when_its_module_says_so(tmp_path):
    import types

    from PIL import Image

    from simulator.boards import Board
    from tests.test_simulator import simulate
    out = tmp_path / "mono.png"
    result = simulate("--headless", "--board", "240x135", "--game", "aces_up", "--seed", "7",
                      "--keys", "RIGHT A", "--mono", "--screenshot", str(out))
    assert result.returncode == 0, result.stderr
    app = make_app(240, 135, "aces_up", 7, mono=True)
    run(app, "RIGHT A")
    s = app.screen
    img = Image.open(out).convert("RGB")
    assert img.tobytes() == mono_rgb_bytes(s.buf, s.width, s.height)
    assert len(img.getcolors()) == 2
    assert Board("oled", 128, 64, types.SimpleNamespace(MONO=True)).mono
    assert not Board("tft", 240, 240, types.SimpleNamespace()).mono


@pytest.mark.parametrize("to", [(150, 60), (200, 130)])  # on the felt; half off the foot
def test_a_card_carried_by_the_pointer_is_laid_and_lifted_whole_pages_back(to):
    from engine_core.console import Console
    from engine_core.storage import MemoryStorage
    from tests.test_picking import MOVE, PRESS, centre, slot
    app = make_app(240, 135, "aces_up", 69, mono=True)
    console = Console(app, MemoryStorage())
    console.start()
    table = app.table
    x, y = centre(table, slot(table, "col1"))
    console.click(x, y, 1000, PRESS)
    console.click(to[0], to[1], 1050, MOVE)
    pointer = console.pointer
    assert pointer.drag
    s = app.screen
    before = bytes(s.buf)
    pointer.lay(console)
    assert bytes(s.buf) != before
    edge = [lit(s, pointer.x, pointer.y + j) for j in range(2, 9)]
    assert edge == [1, 0, 1, 0, 1, 0, 1]  # the held mark on a card fanned right: lit dots round it
    pointer.lift(console)
    assert bytes(s.buf) == before


def test_a_fill_through_whole_pages_sets_the_bits_a_row_by_row_fill_sets():
    import random
    rnd = random.Random(5)
    screen = Screen(97, 61, framebuf, mono=True)
    plain = framebuf.FrameBuffer(bytearray(len(screen.buf)), 97, 61, framebuf.MONO_VLSB)
    for _ in range(300):
        x, y = rnd.randrange(-20, 110), rnd.randrange(-30, 70)
        w, h = rnd.randrange(-2, 60), rnd.randrange(-2, 70)
        role = rnd.randrange(16)
        screen.fb.fill_rect(x, y, w, h, role)
        plain.fill_rect(x, y, w, h, pal.MONO[role])
        assert bytes(screen.buf) == bytes(plain.buf), (x, y, w, h, role)
    screen.fb.fill(pal.WHITE)
    assert mono_pixels(screen.buf, 97, 61) == b"\x01" * (97 * 61)


def rank_shown(app, s):
    """Whether the top card of slot s shows its rank's glyph whole: dark ink on the lit card,
    pixel for pixel the art's (None: no face-up card there)."""
    slots = app.table.slots
    p = slots.pile[s]
    piles = app.table.game.piles
    n = piles.size[p]
    if n == 0 or not slots.card_face_up(p, n - 1, n):
        return None
    card = piles.cards[piles.start[p] + n - 1]
    if card >= 208:  # a joker: its J is the font's
        return None
    st = slots.style
    image = st.rank_first + card % 13
    art = app.painter.images[image]
    w, h = app.painter.widths[image], app.painter.heights[image]
    o = inset(st)
    x, y = slots.card_pos(s, n - 1, True) + o, slots.card_pos(s, n - 1, False) + o
    ink = [lit(app.screen, x + i, y + j) ^ art.pixel(i, j) for j in range(h) for i in range(w)]
    return len(set(ink)) == 1  # dark ink on the lit card, or lit on the cursor's negative


@pytest.mark.parametrize("game", games_with_layouts())
def test_every_face_up_top_card_on_the_table_shows_its_rank_whole_one_bit(game):
    from engine_core.ui import layouts
    from engine_core.ui.screens import PLAY
    keys = script(game).split()
    played = " ".join(keys[:len(keys) // 3])
    for w, h in layouts.SIZES:
        app = make_app(w, h, game, 7, mono=True)
        for keys in ("WAIT", played + " B" + " WAIT" * 5):  # the deal; moves made, the foot clear
            run(app, keys)
            assert app.mode == PLAY, (w, h, app.mode)
            shown = [rank_shown(app, s) for s in range(app.table.slots.count)]
            assert False not in shown, (w, h, keys[:20], shown)
            assert True in shown, (w, h, keys[:20], shown)


def under_the_cursor(screen, x, y, w, h, top_corner):
    """The frame of `screen`, its plain card at x, y, w, h as the cursor shows it: inside
    the outer ring every pixel the other tone, the outer ring lit but at the round corners."""
    out = bytearray(screen.buf)
    for j in range(y, y + h):
        for i in range(x, x + w):
            bit = 1 << (j & 7)
            k = (j >> 3) * screen.width + i
            if x < i < x + w - 1 and y < j < y + h - 1:
                out[k] ^= bit
            elif (i == x or i == x + w - 1) and (j == y or j == y + h - 1):
                corner = pal.MONO[top_corner] if j == y else 0
                out[k] = out[k] | bit if corner else out[k] & ~bit
            else:
                out[k] |= bit
    return bytes(out)


def test_the_one_bit_painters_cards_are_the_colour_painters_cards_in_tones():
    # MonoPainter.card repeats Painter.card with tones for roles (a call through the canvas
    # costs a Python call a drawing call): drawn both ways, every card comes out the same,
    # and under the cursor MonoPainter's is the plain card in a lit ring, negative inside it.
    from engine_core.gfx.mono import MonoPainter
    through_canvas, _ = painter(60, 64)
    direct = Screen(60, 64, framebuf, mono=True)
    plain, mono = Painter(through_canvas), MonoPainter(direct)
    assert type(plain.fb).__name__ == "MonoCanvas" and type(plain) is Painter
    cases = 0
    for size in range(len(paint.CARD_SIZES)):  # every card size, the small screens' too
        for card in (0, 9, 10, 11, 12, 14, 25, 27, 38, 50, 208, 209):
            for face_up, ring, corner, below, centre in itertools.product(
                    (True, False), (pal.GREY,) + HIGHLIGHTS, (pal.FELT, pal.GREY), (False, True), (True, False)):
                for screen in (through_canvas, direct):
                    screen.fb.fill(pal.FELT if cases % 2 else pal.WHITE)
                st = plain.styles[size]
                plain.card(st, 3, 5, card, face_up, pal.GREY if ring == pal.CURSOR else ring, corner, below, centre)
                mono.card(mono.styles[size], 3, 5, card, face_up, ring, corner, below, centre)
                want = bytes(through_canvas.buf)
                if ring == pal.CURSOR:
                    want = under_the_cursor(through_canvas, 3, 5, st.w, st.h, corner)
                assert bytes(direct.buf) == want, (size, card, face_up, ring, corner, below)
                cases += 1
    assert cases == len(paint.CARD_SIZES) * 12 * 80
