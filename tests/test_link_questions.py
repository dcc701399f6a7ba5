"""Questions that come without a key, and lists that change under the cursor: a press meant
for something else never answers them (docs/screen.md, "Link play"; docs/link.md)."""

from engine_core.gfx import palette as pal
from engine_core.gfx.screen import Screen
from engine_core.link import session as ls
from engine_core.ui import buttons as bt
from engine_core.ui import screens as ui
from engine_core.ui.app import App

from engine_core.console import Console
from engine_core.link.channel import Channel
from engine_core.link.loopback import Wire
from engine_core.link.statehash import state_hash
from engine_core.storage import MemoryStorage
from engine_core.ui.linkplay import CANNOT_GAME, L_JOINING
from simulator import framebuf
from tests.test_link_stranger import Peer, console_with_link, join, offer, records, run

A_HELD = 1 << bt.A
GUARD_MS = 800  # engine_core/ui/app.py: how long a question that came without a key waits


def playing_on_alone(console, peer):
    """After a linked game whose partner left, this console's player plays a game of its own
    and has made a move."""
    join(console, peer)
    peer.session.leave(peer.now)
    run(console, peer, 200 + GUARD_MS)
    console.press(bt.B)  # to the title
    app = console.app
    app.game_index = app.names.index("aces_up")
    app.start_game(1234)
    app.table.play(app.table.game.hint())
    assert app.in_progress()
    return app


def test_an_offer_that_comes_in_a_frame_does_not_take_the_next_a():
    wire, console, peer = console_with_link()
    app = playing_on_alone(console, peer)
    before = records(console)
    game = app.table.game
    peer.host("spite_malice", seed=31)
    for _ in range(40):  # the question comes in one of these frames
        run(console, peer, 20)
        if app.mode == ui.LINK_ASK:
            break
    assert app.mode == ui.LINK_ASK
    console.press(bt.A)  # meant for the cards, pressed as the question came
    assert app.mode == ui.LINK_ASK and app.table.game is game and records(console) == before
    run(console, peer, GUARD_MS + 100)
    console.press(bt.A)  # seen, and answered
    run(console, peer, 600)
    assert app.linked() and app.left == before[3]  # the game under way set aside, not lost
    assert app.aside is not None and app.aside.game is game


def test_a_key_held_as_the_question_came_does_not_answer_it():
    wire, console, peer = console_with_link()
    app = playing_on_alone(console, peer)
    before = records(console)
    console.held(A_HELD)  # A goes down for the cards (A is reported when let go)
    peer.host("spite_malice", seed=32)
    for _ in range(40):
        run(console, peer, 20)
        if app.mode == ui.LINK_ASK:
            break
    run(console, peer, GUARD_MS + 200)  # held past the guard time
    console.press(bt.A)  # ...then let go: the press was meant before the question came
    console.held(0)
    run(console, peer, 100)
    assert app.mode == ui.LINK_ASK and records(console) == before


def test_the_other_console_left_waits_for_a_fresh_key():
    wire, console, peer = console_with_link()
    join(console, peer)
    app = console.app
    peer.session.leave(peer.now)
    for _ in range(20):
        run(console, peer, 20)
        if app.mode == ui.LINK_LEFT:
            break
    assert app.mode == ui.LINK_LEFT
    console.press(bt.B)
    assert app.mode == ui.LINK_LEFT  # not sent to the title by a key pressed for the game
    run(console, peer, GUARD_MS)
    console.press(bt.B)
    assert app.mode == ui.TITLE


def test_the_join_list_keeps_the_cursor_on_the_table_picked():
    wire, console, peer = console_with_link()
    app = console.app
    tables = None
    app.open_link()
    app.selected = 2  # Join a table
    console.press(bt.A)
    tables = app.link.session.tables
    stranger = offer()
    tables.hear(0x5151, 0x0101, stranger, len(stranger), peer.now)  # a table heard first
    peer.host("spite_malice")
    run(console, peer, 200)
    assert tables.count == 2 and tables.host[1] == peer.session.ch.me
    console.press(bt.DOWN)  # the player picks the peer's table, row 2
    picked = tables.table[1]
    tables._drop(0)  # the first table drops off the list (a flood of offers, or silence)
    for k in range(6):  # and others come after
        tables.hear(0x6000 + k, 0x0200 + k, stranger, len(stranger), peer.now)
    run(console, peer, 40)
    console.press(bt.A)
    assert app.link.session.offer_table == picked
    run(console, peer, 600)
    assert app.linked()


def test_a_table_this_console_cannot_take_is_listed_saying_why_and_a_does_not_refuse_it():
    wire = Wire(5)
    console = Console(App(Screen(240, 240, framebuf), names=["aces_up", "spite_malice"]), MemoryStorage())
    console.start()
    console.app.attach_link(lambda: ls.Session(Channel(wire.end(1), 2)), b"wire")
    peer = Peer(wire)
    app = console.app
    app.open_link()
    app.selected = 2
    console.press(bt.A)
    peer.host("nerts", players=2)  # a game this console has no table for
    run(console, peer, 200)
    assert app.link.session.tables.count == 1
    assert app.link.join.why_not(app.link.session.tables, 0) == CANNOT_GAME
    console.press(bt.A)
    run(console, peer, 300)
    assert app.link.status == L_JOINING and app.mode == ui.LINK  # still choosing, nothing refused
    assert app.link.join.told == b"This console cannot play that"
    assert peer.session.state == ls.S_WAITING


def test_a_nerts_table_of_three_with_the_computer_in_a_seat_is_joined():
    """One console's seat and the computer's at a table of three: a two-console table that
    seats three (docs/link.md, "At the table")."""
    wire, console, peer = console_with_link()
    app = console.app
    app.open_link()
    app.selected = 2
    console.press(bt.A)
    game = peer.host("nerts", players=3)
    run(console, peer, 200)
    assert app.link.join.why_not(app.link.session.tables, 0) is None
    console.press(bt.A)
    run(console, peer, 300)
    assert app.mode == ui.PLAY and app.table.game.players == 3 and app.table.seat == 1
    assert peer.session.state == ls.S_PLAYING and state_hash(app.table.game) == state_hash(game)


def test_the_nerts_guest_is_hinted_its_own_move():
    from tests.test_link_ui import start
    wire, host, guest = start("nerts", seed=3, faults=False)
    game = guest.table.game
    real = game.bot
    asked = []

    class Spy:  # the game's computer players, noting whose move they are asked for
        @staticmethod
        def choose(seat, skill, chance):
            asked.append(seat)
            return real.choose(seat, skill, chance)

    game.bot = Spy
    try:
        guest.press(bt.X)
    finally:
        game.bot = real
    assert asked == [guest.table.seat] == [1]  # the guest's own move, never the host's


def test_statistics_of_a_million_and_more_keep_their_columns_apart():
    app = App(Screen(240, 240, framebuf))
    app.played[0] = 1234567
    app.won[0] = 1000000
    app.go(ui.STATS)
    app.redraw()
    # Between the columns' numbers, a blank character's width in the first game's row.
    col = (app.width - 96) // 4
    y = 3 + 10 + 4 + 12
    for k in range(1, 4):
        gap = {app.fb.pixel(88 + k * col + dx, y + dy) for dy in range(7) for dx in range(5)}
        assert gap == {pal.PANEL}, k
    from engine_core.ui.stats import short_number
    for v, words in ((999999, b"999k"), (1000000, b"1.0M"), (1234567, b"1.2M"), (45678901, b" 45M"),
                     (2147483647, b"2.1G")):
        assert bytes(short_number(v)) == words
