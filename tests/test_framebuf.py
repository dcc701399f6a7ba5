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
