"""A kiosk with a link (docs/reliability.md, "Kiosk mode"): the demo never starts over a table
that is open and never plays a linked game; a visitor's keys neither close the simulator's
window nor reach the settings."""

from types import SimpleNamespace

from engine_core.console import Console
from engine_core.link.statehash import state_hash
from engine_core.storage import MemoryStorage
from engine_core.ui import buttons as bt
from engine_core.ui import screens as ui
from engine_core.ui.linkplay import L_HOSTING
from simulator.keys import make_app
from tests.test_link_ui import STEP, linked_pair, to_link_screen


def kiosk(app):
    console = Console(app, MemoryStorage())
    console.keeper.start()
    console.keeper.settings.set("kiosk", 1)
    console.keeper.save_settings()
    console.start()
    assert console.kiosk_on
    return console


def test_the_demo_never_starts_over_an_open_table_nor_plays_a_linked_one():
    wire, host, guest = linked_pair(seed=4, faults=False)
    console = kiosk(host)
    to_link_screen(host)
    host.press(bt.A)  # Host Spite & Malice, and the visitor walks away
    assert host.link.status == L_HOSTING
    for _ in range(25000 // STEP):  # past the kiosk's 20 s before its demo
        console.tick(STEP)
        guest.tick(STEP)
    assert not console.demo and host.mode == ui.LINK
    to_link_screen(guest)
    guest.selected = 2
    guest.press(bt.A)  # another visitor joins it
    for _ in range(3000 // STEP):
        console.tick(STEP)
        guest.tick(STEP)
        if guest.mode == ui.LINK and guest.link.session.tables.count:
            guest.press(bt.A)
    assert host.linked() and guest.linked()
    for _ in range(30000 // STEP):
        console.tick(STEP)
        guest.tick(STEP)
    assert not console.demo
    assert state_hash(host.table.game) == state_hash(guest.table.game)  # nobody played for the host


def test_escape_on_a_kiosks_title_does_not_ask_to_close_the_window():
    from simulator.__main__ import Keys
    console = kiosk(make_app(240, 240))
    window = SimpleNamespace(help=False, asking=False, pressed=set(), board=None)  # a bare size
    keys = Keys(console, window)
    keys.escape()
    assert not window.asking and not keys.quit
    plain = Console(make_app(240, 240), MemoryStorage())
    plain.start()
    keys = Keys(plain, window)
    keys.escape()
    assert window.asking  # a console that is not a kiosk asks, as before


def test_a_kiosks_title_says_its_settings_are_locked():
    console = kiosk(make_app(240, 240))
    plain = Console(make_app(240, 240), MemoryStorage())
    plain.start()
    for c in (console, plain):
        c.app.go(ui.TITLE)
        c.app.selected = 0
        c.app.redraw()
    assert bytes(console.screen.buf) != bytes(plain.screen.buf)  # the Settings row reads differently
    app = console.app
    app.selected = app.title_index(ui.T_SETTINGS)
    console.press(bt.A)
    assert app.mode == ui.TITLE


def test_a_kiosks_pause_menu_says_its_settings_are_locked():
    # A visitor's A on the pause menu's Settings: the menu stays, and the strip at the foot says
    # why (it did nothing, without a word)
    shown = []
    for press_a in (False, True):
        console = kiosk(make_app(240, 240))
        app = console.app
        app.open_game(app.names[0], 7)
        console.press(bt.START)
        assert app.mode == ui.PAUSE
        app.selected = ui.P_SETTINGS
        app.redraw()
        if press_a:
            console.press(bt.A)
            assert app.mode == ui.PAUSE
            assert b"locked" in console.notice and console.notice_ms > 0
        shown.append(bytes(console.screen.buf[-240 * 2 * 14:]))
    assert shown[0] != shown[1]  # the strip is on the pixels
