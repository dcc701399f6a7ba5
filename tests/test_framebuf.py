"""The host framebuf (simulator/framebuf.py) gives the same bytes as MicroPython's own."""

import binascii

import pytest

from simulator import framebuf as host_framebuf
from tests.helpers import run_mpy_ok

# Drawn with whichever `framebuf` the runtime has: edges, odd x, clipping, keys and palettes.
PRIMITIVES = """
buf = bytearray((W + 1) // 2 * H)
fb = framebuf.FrameBuffer(buf, W, H, framebuf.GS4_HMSB)
fb.fill(2)
fb.fill_rect(3, 1, 7, 5, 9)
fb.fill_rect(-4, -3, 9, 8, 4)
fb.fill_rect(W - 5, H - 2, 20, 20, 15)
fb.fill_rect(0, 0, 0, 5, 1)
fb.rect(5, 6, 11, 9, 12)
fb.rect(-2, 20, 6, 6, 13, True)
fb.hline(1, 30, W + 10, 7)
fb.vline(W - 1, -5, H + 10, 3)
fb.pixel(7, 7, 11)
fb.pixel(-1, 0, 11)
fb.pixel(W, H - 1, 11)
v = fb.pixel(7, 7)
fb.pixel(8, 8, v)
mono = bytearray(3 * 10)
m = framebuf.FrameBuffer(mono, 19, 10, framebuf.MONO_HLSB)
m.fill(0)
m.rect(0, 0, 19, 10, 1)
m.fill_rect(4, 3, 9, 3, 1)
m.pixel(17, 8, 1)
ink = bytearray(1)
pal = framebuf.FrameBuffer(ink, 2, 1, framebuf.GS4_HMSB)
pal.pixel(0, 0, 0)
pal.pixel(1, 0, 10)
fb.blit(m, 13, 12, 0, pal)
fb.blit(m, -7, 40, -1, pal)
fb.blit(m, W - 9, H - 4, 0, pal)
fb.blit(m, 40, -6, 0, pal)
fb.blit(m, 50, 20)
g = bytearray(5 * 3)
src = framebuf.FrameBuffer(g, 10, 3, framebuf.GS4_HMSB)
for i in range(10):
    src.pixel(i, i % 3, i)
fb.blit(src, 61, 41, 4)
fb.blit(src, 1, 50)
"""


def host_bytes(code, w, h):
    scope = {"framebuf": host_framebuf, "W": w, "H": h}
    exec(code, scope)
    return bytes(scope["buf"])


def micropython_bytes(code, w, h):
    script = ("import framebuf, binascii\nW = %d\nH = %d\n" % (w, h) + code
              + "print(binascii.hexlify(buf).decode())\n")
    return binascii.unhexlify(run_mpy_ok(script).strip().splitlines()[-1])


@pytest.mark.parametrize("size", [(96, 64), (97, 61)])
def test_host_framebuf_primitives_match_micropython_byte_for_byte(size):
    w, h = size
    expected = micropython_bytes(PRIMITIVES, w, h)
    got = host_bytes(PRIMITIVES, w, h)
    assert len(got) == len(expected)
    assert got == expected


CARDS = """
from engine_core.gfx.screen import Screen
from engine_core.gfx.paint import Painter
from engine_core.gfx import palette as P
s = Screen(W, H, framebuf)
p = Painter(s)
s.fb.fill(P.FELT)
x = 2
for size in range(3):
    st = p.styles[size]
    for c in (0, 9, 23, 37, 51, 12, 27, 208):
        p.card(st, x % (W - 20), 2 + 40 * size, c, True, P.GREY, P.FELT, size == 1)
        x += 17
    p.card(st, 5, 100, 0, False, P.CURSOR, P.GREY, False)
    p.empty_pile(st, W - 30, 100, b"K", P.HELD)
p.text(b"Hello, cards: 0123456789 ?!", 1, H - 8, P.WHITE)
p.number(1234567, 1, H - 18, P.RED)
p.big_text(b"Up", 150, 150, 3, P.GOLD)
buf = s.buf
"""


def test_cards_and_text_draw_the_same_bytes_on_both_runtimes():
    w, h = 240, 240
    expected = micropython_bytes(CARDS, w, h)
    got = host_bytes(CARDS, w, h)
    assert got == expected
    assert len(set(got)) > 10  # a real picture, not an empty buffer


# The one-bit screen's format, MONO_VLSB, drawn the same way: rows that start and end inside a
# page, colours other than 0 and 1 (any colour but 0 sets a bit in modframebuf.c), a height
# that is not a whole number of pages, MONO_HLSB art blitted through a palette, and whole
# pages filled through a GS8 view of the same bytes (as the one-bit canvas fills them).
MONO_PRIMITIVES = """
buf = bytearray(W * ((H + 7) // 8))
fb = framebuf.FrameBuffer(buf, W, H, framebuf.MONO_VLSB)
fb.fill(1)
fb.fill_rect(3, 1, 7, 5, 0)
fb.fill_rect(-4, -3, 9, 12, 0)
fb.fill_rect(W - 5, H - 2, 20, 20, 0)
fb.fill_rect(10, 9, 30, 17, 2)
fb.fill_rect(12, 11, 5, 3, 0)
fb.rect(5, 6, 11, 9, 0)
fb.rect(20, 30, 6, 6, 15, True)
fb.hline(1, 30, W + 10, 0)
fb.vline(W - 1, -5, H + 10, 0)
fb.pixel(7, 7, 1)
fb.pixel(8, 15, 9)
fb.pixel(-1, 0, 0)
fb.pixel(W, H - 1, 0)
v = fb.pixel(7, 7)
fb.pixel(8, 8, v)
mono = bytearray(3 * 10)
m = framebuf.FrameBuffer(mono, 19, 10, framebuf.MONO_HLSB)
m.fill(0)
m.rect(0, 0, 19, 10, 7)
m.fill_rect(4, 3, 9, 3, 1)
ink = bytearray(1)
pal = framebuf.FrameBuffer(ink, 2, 1, framebuf.GS4_HMSB)
pal.pixel(0, 0, 1)
pal.pixel(1, 0, 0)
fb.blit(m, 13, 12, 1, pal)
fb.blit(m, -7, 40, -1, pal)
fb.blit(m, W - 9, H - 4, 1, pal)
fb.blit(m, 40, -6)
pages = framebuf.FrameBuffer(buf, W, H // 8, framebuf.GS8)
pages.fill_rect(30, 1, 9, 2, 255)
pages.fill_rect(-3, 3, 6, 9, 0)
pages.pixel(W - 1, 0, 0x5A)
fb.pixel(2, 2 + pages.pixel(W - 1, 0) % 7, 0)
"""


@pytest.mark.parametrize("size", [(96, 64), (97, 61)])
def test_host_mono_vlsb_matches_micropython_byte_for_byte(size):
    w, h = size
    expected = micropython_bytes(MONO_PRIMITIVES, w, h)
    got = host_bytes(MONO_PRIMITIVES, w, h)
    assert len(got) == len(expected) == w * ((h + 7) // 8)
    assert got == expected
    assert len(set(got)) > 4


def test_mono_vlsb_is_the_ssd1306_page_layout():
    # SSD1306 datasheet, 8.7 "Graphic Display Data RAM": the RAM is 8 pages of 128 columns;
    # a byte written to a page and column is 8 rows of that column, D0 the top row.
    buf = bytearray(128 * 64 // 8)
    fb = host_framebuf.FrameBuffer(buf, 128, 64, host_framebuf.MONO_VLSB)
    fb.pixel(5, 0, 1)  # page 0, column 5, D0
    fb.pixel(127, 63, 1)  # page 7, column 127, D7
    fb.pixel(2, 17, 1)  # page 2, column 2, D1
    assert len(buf) == 1024
    assert buf[5] == 0x01 and buf[7 * 128 + 127] == 0x80 and buf[2 * 128 + 2] == 0x02
    assert sum(1 for b in buf if b) == 3
    with pytest.raises(ValueError):  # one byte short of a 64-row frame
        host_framebuf.FrameBuffer(bytearray(1023), 128, 64, host_framebuf.MONO_VLSB)


def test_a_difference_in_one_pixel_is_seen():
    a = host_bytes(PRIMITIVES, 96, 64)
    b = host_bytes(PRIMITIVES + "fb.pixel(90, 60, 1)\n", 96, 64)
    assert a != b


def test_the_built_art_module_matches_its_readable_source():
    import subprocess
    import sys

    from tools.mpy import ROOT
    run = subprocess.run([sys.executable, "-m", "tools.make_art", "--check"], cwd=ROOT)
    assert run.returncode == 0, "engine_core/gfx/art_data.py is stale: run python -m tools.make_art"
