"""The simulator's own window loop (simulator/__main__.py: WindowHost), run as a player runs it, on
SDL's dummy video driver: what the link does shows on the window's pixels, not only in the
App, and closing the window tells the other console."""

import os
import time

import pytest

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
pygame = pytest.importorskip("pygame")

from engine_core import reasons as why  # noqa: E402
from engine_core.console import Console  # noqa: E402
from engine_core.gfx import palette as pal  # noqa: E402
from engine_core.gfx.paint import LINE_H, Painter  # noqa: E402
from engine_core.gfx.screen import Screen  # noqa: E402
from engine_core.storage import MemoryStorage  # noqa: E402
from engine_core.ui import buttons as bt  # noqa: E402
from engine_core.ui import screens as ui  # noqa: E402
from simulator import framebuf  # noqa: E402
from simulator.__main__ import WindowHost  # noqa: E402
from simulator.boards import resolve_board  # noqa: E402
from simulator.image import to_rgb_bytes  # noqa: E402
from tests.test_link_ui import start, tick  # noqa: E402

WALL_S = 20  # a generous bound on the wall clock: the loop's time is real time


def strip_pixels(loop, words, colour):
    """The foot strip of the device's screen as the window shows it (scale 1), and as it is
    when it says `words` (RGB bytes of both)."""
    app = loop.app
    w, h = app.screen.width, app.screen.height
    y = h - LINE_H - 3
    scratch = Screen(w, h, framebuf)
    scratch.palette = app.screen.palette
    scratch.fb.fill_rect(0, y, w, LINE_H + 3, pal.PANEL)
    Painter(scratch).text(words, 4, y + 2, colour)
    want = to_rgb_bytes(scratch.buf, w, h, app.screen.palette)
    want = bytes(want[3 * w * y:3 * w * (y + LINE_H + 3)])
    surface = loop.window.surface
    got = bytearray()
    for yy in range(y, y + LINE_H + 3):
        for x in range(w):
            c = surface.get_at((loop.window.side + x, loop.window.pad + yy))
            got += bytes((c.r, c.g, c.b))
    return bytes(got), want


def run_until(loop, done, also=None):
    end = time.monotonic() + WALL_S
    while time.monotonic() < end:
        before = loop.app.app.clock
        assert loop.frame()
        if also is not None:
            after = loop.app.app.clock
            also((after - before) & 0x3FFFFFFF)
        if done():
            return True
    return False


@pytest.mark.parametrize("game", ("spite_malice", "nerts"))
def test_a_partner_gone_silent_is_said_on_the_hosts_window_within_five_seconds(game):
    wire, host, guest = start(game, seed=4, faults=False)
    console = Console(host, MemoryStorage())
    console.start()
    loop = WindowHost(console, resolve_board("240x240"), 1)
    try:
        host.press(bt.B)
        run_until(loop, lambda: host.clock > 1500, lambda ms: guest.tick(ms))  # both play along
        assert host.mode == ui.PLAY and not host.link_paused()
        cut = host.clock  # the guest's window is gone, no word said
        assert run_until(loop, lambda: (host.clock - cut) & 0x3FFFFFFF >= 5600)
        assert host.link_paused()
        got, want = strip_pixels(loop, why.TEXTS[why.LINK_SILENT], pal.WHITE)
        assert got == want  # "No word from the other console", on the window's own pixels
        cursor = host.table.hand.cursor
        pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_RIGHT, mod=0, unicode="", scancode=0))
        pygame.event.post(pygame.event.Event(pygame.KEYUP, key=pygame.K_RIGHT, mod=0, unicode="", scancode=0))
        loop.frame()
        loop.frame()
        assert host.table.hand.cursor != cursor  # the cursor moves: the console is alive, the game waits
        got, want = strip_pixels(loop, why.TEXTS[why.LINK_SILENT], pal.WHITE)
        assert got == want
    finally:
        loop.close()


def test_closing_the_guests_window_says_bye_and_the_host_asks_at_once():
    wire, host, guest = start("spite_malice", seed=5, faults=False)
    console = Console(guest, MemoryStorage())
    console.start()
    loop = WindowHost(console, resolve_board("240x240"), 1)
    loop.frame()
    pygame.event.post(pygame.event.Event(pygame.QUIT))
    assert not loop.frame()
    loop.close()
    tick(wire, (host,), 1000)  # well inside the silence's five seconds
    assert host.mode == ui.LINK_LEFT and not host.linked()


@pytest.mark.parametrize("size", ((128, 64), (160, 128)))
def test_the_silence_is_said_whole_on_the_small_screens_window(size):
    # A 128x64 strip is one line of 21 characters: the long words showed as "No word from
    # the" for as long as the link was silent. Read from the window's pixels: every character
    # of what the strip says, on screen.
    wire, host, guest = start("spite_malice", seed=4, faults=False, size=size)
    console = Console(host, MemoryStorage())
    console.start()
    loop = WindowHost(console, resolve_board("%dx%d" % size), 1)
    try:
        host.press(bt.B)
        run_until(loop, lambda: host.clock > 1500, lambda ms: guest.tick(ms))
        cut = host.clock
        assert run_until(loop, lambda: (host.clock - cut) & 0x3FFFFFFF >= 5600)
        assert host.link_paused()
        w, h = size
        from engine_core.ui.overlay import draw_lines, strip_top
        top = strip_top(w, h)
        scratch = Screen(w, h, framebuf)
        scratch.palette = host.screen.palette
        words = why.LINK_SILENT_SHORT if h < 100 else why.TEXTS[why.LINK_SILENT]
        assert len(words) * 6 <= w - 1 or h >= 100
        scratch.fb.fill_rect(0, top, w, h - top, pal.PANEL)
        draw_lines(Painter(scratch), words, 0, len(words), (w - 1) // 6 if h < 100 else (w - 6) // 6, top + 2, h,
                   0, w, pal.WHITE, 1 if h < 100 else 4)
        want = to_rgb_bytes(scratch.buf, w, h, host.screen.palette)[3 * w * top:]
        got = bytearray()
        surface = loop.window.surface
        for yy in range(top, h):
            for x in range(w):
                c = surface.get_at((loop.window.side + x, loop.window.pad + yy))
                got += bytes((c.r, c.g, c.b))
        assert bytes(got) == bytes(want)
    finally:
        loop.close()
