"""Drawing only what changed gives the frame a redraw from scratch gives: on every screen of
every game at every screen size, after every key of random sessions (docs/screen.md)."""

from engine_core.gfx import palette as pal
from engine_core.link.channel import Channel
from engine_core.link.loopback import Wire
from engine_core.link.session import Session
from engine_core.ui import buttons as bt
from engine_core.ui import layouts
from engine_core.ui import screens as ui
from simulator.keys import make_app

SIZES = layouts.SIZES


def with_link(app):
    """The console given a link after its first frame, as the simulator and the firmware do."""
    wire = Wire(1)
    app.attach_link(lambda: Session(Channel(wire.end(0))), b"wire")
    return app


def from_scratch(app, junk):
    """The frame a full redraw of the app's state gives over a screen full of colour `junk`;
    the screen is left as it was."""
    saved = bytes(app.screen.buf)
    app.fb.fill(junk)
    app.full = True
    app.redraw()
    frame = bytes(app.screen.buf)
    app.screen.buf[:] = saved
    return frame


def bars(app):
    """The highlight bars down the middle column of the screen: runs of rows of the cursor's
    colour."""
    screen = app.screen
    x = screen.width // 2 - 70  # inside a title row's bar, left of its words
    runs = 0
    inside = False
    for y in range(screen.height):
        b = screen.buf[(y * screen.width + x) >> 1]
        on = (b >> 4 if x % 2 == 0 else b & 15) == pal.CURSOR
        if on and not inside:
            runs += 1
        inside = on
    return runs


def test_the_title_of_a_console_with_a_link_draws_its_five_items_after_each_key():
    for w, h in SIZES:
        app = with_link(make_app(w, h))
        assert app.menu_length() == 5  # New game, Choose a game, Statistics, Settings, Link play
        assert bytes(app.screen.buf) == from_scratch(app, pal.CURSOR), (w, h)  # before a key
        for key in (bt.DOWN, bt.DOWN, bt.UP, bt.UP, bt.UP):
            app.press(key)
            assert bars(app) == 1, (w, h, key)
            assert bytes(app.screen.buf) == from_scratch(app, pal.CURSOR), (w, h, key)
        assert app.selected == app.title_index(ui.T_LINK)
        app.press(bt.A)
        assert app.mode == ui.LINK
