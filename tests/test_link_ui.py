"""Link play on the console's screens: two Apps, each with its own session, over a seeded
faulty wire in one process. Host and join from the title, each console sees the table from its
own seat, the moves a player makes with the buttons reach the other console, a silent link
pauses both, and a console whose partner left plays on against the computer."""

import pytest

from engine_core import PLAYING
from engine_core import reasons as why
from engine_core.link.channel import Channel
from engine_core.link.loopback import Wire
from engine_core.link.session import Session
from engine_core.link.statehash import state_hash
from engine_core.ui import buttons as bt
from engine_core.ui import screens as ui
from engine_core.ui import texts
from engine_core.link import session as ls
from engine_core.ui.linkplay import L_HOSTING, L_JOINING, L_OFFERED, LINK_GAMES, swap_sides
from simulator.keys import make_app

STEP = 20  # ms per tick of both consoles


def linked_pair(seed=1, faults=True, size=(240, 240)):
    rate = 30 if faults else 0
    wire = Wire(seed, drop=rate, dup=rate, reorder=rate, corrupt=rate)
    apps = []
    for side in range(2):
        app = make_app(size[0], size[1])
        app.attach_link(lambda end=wire.end(side): Session(Channel(end)), b"wire %d" % side)
        apps.append(app)
    return wire, apps[0], apps[1]


def tick(wire, apps, ms):
    for _ in range(max(1, ms // STEP)):
        for app in apps:
            app.tick(STEP)


def to_link_screen(app):
    app.go(ui.TITLE)
    app.selected = app.title_index(ui.T_LINK)
    app.press(bt.A)
    assert app.mode == ui.LINK


def start(game_name, seed=1, faults=True, size=(240, 240)):
    wire, host, guest = linked_pair(seed, faults, size)
    for app in (host, guest):
        to_link_screen(app)
    host.selected = LINK_GAMES.index(game_name)
    host.noise = seed * 1000 + 1  # the host draws the deal from its buttons' timing: vary it
    host.press(bt.A)
    guest.selected = 2  # Join a table
    guest.press(bt.A)
    for _ in range(300):
        tick(wire, (host, guest), STEP)
        pick_the_table(guest)
        if host.mode == ui.PLAY and guest.mode == ui.PLAY:
            break
    assert host.mode == ui.PLAY and guest.mode == ui.PLAY, (host.mode, guest.mode)
    return wire, host, guest


def pick_the_table(app):
    """On Join a table's list, once a table is listed: A joins it."""
    if app.mode == ui.LINK and app.link.status == L_JOINING and app.link.session.tables.count:
        app.press(bt.A)


def settle(wire, apps, ms=2000):
    """Both consoles hear everything the other said: until the channels are idle."""
    for _ in range(ms // STEP):
        tick(wire, apps, STEP)
        if all(app.link.session.ch.pending() == 0 for app in apps):
            tick(wire, apps, 200)
            if all(app.link.session.ch.pending() == 0 for app in apps):
                return
    raise AssertionError("the link did not settle")


def test_the_title_offers_link_play_only_on_a_console_with_a_link():
    plain = make_app(240, 240)
    assert plain.menu_length() == 4
    wire, host, guest = linked_pair()
    assert host.menu_length() == 5
    to_link_screen(host)
    host.redraw()  # the link screen draws (its rows and the wire's label)
    host.press(bt.B)
    assert host.mode == ui.TITLE


def test_spite_and_malice_each_console_sees_its_own_hand_and_the_moves_cross():
    wire, host, guest = start("spite_malice", seed=3)
    hg = host.table.game
    gg = guest.table.game
    assert host.table.seat == 0 and guest.table.seat == 1
    assert state_hash(hg) == state_hash(gg)
    # The slot at the foot of the guest's screen shows p2's hand; p1's sits face down on top.
    t = guest.table.slots
    bottom = [s for s in range(t.count) if t.game.pile_names[t.pile[s]].endswith(".hand")]
    names = sorted((t.y[s], t.game.pile_names[t.pile[s]]) for s in bottom)
    assert names[0][1] == "p1.hand" and names[-1][1] == "p2.hand"
    turns = 0
    while hg.status() == PLAYING and turns < 60:
        mover = host if hg.turn() == 0 else guest
        other = guest if mover is host else host
        m = mover.table.game.hint()
        assert m >= 0
        n = mover.table.legal_moves()
        assert m in list(mover.table.hand.moves[:n])
        assert other.table.legal_moves() == 0  # not its turn: its buttons move nothing
        mover.table.play(m)
        mover.redraw()
        settle(wire, (host, guest))
        assert state_hash(hg) == state_hash(gg)
        turns += 1
    assert turns > 5


def test_undo_reaches_the_other_console_and_only_in_ones_own_turn():
    for seed in range(5, 40):  # a deal whose first player can play to the centre
        wire, host, guest = start("spite_malice", seed=seed)
        hg, gg = host.table.game, guest.table.game
        mover = host if hg.turn() == 0 else guest
        other = guest if mover is host else host
        before = state_hash(hg)
        moves = mover.table.legal_moves()
        plays = [mover.table.hand.moves[i] for i in range(moves) if (mover.table.hand.moves[i] >> 8) & 0xFF <= 3]
        if plays:
            break
    assert plays
    mover.table.play(plays[0])
    settle(wire, (host, guest))
    assert state_hash(hg) == state_hash(gg) != before
    other.table.press_undo()  # not the other console's move to take back
    settle(wire, (host, guest))
    assert state_hash(hg) == state_hash(gg) != before
    mover.table.press_undo()
    settle(wire, (host, guest))
    assert state_hash(hg) == state_hash(gg) == before


def test_a_silent_link_pauses_both_consoles_and_they_resume():
    wire, host, guest = start("nerts", seed=2, faults=False)
    clock = host.table.game.clock_ms
    wire.cut(True)
    tick(wire, (host, guest), 7000)
    assert host.link_paused() and guest.link_paused()
    assert host.table.message != 0
    frozen = host.table.game.clock_ms
    tick(wire, (host, guest), 1000)
    assert host.table.game.clock_ms == frozen > clock  # the game waits while the link is silent
    wire.cut(False)
    tick(wire, (host, guest), 3000)
    assert not host.link_paused() and not guest.link_paused()
    assert host.table.game.clock_ms > frozen


def test_nerts_both_players_play_at_once_and_end_in_step():
    wire, host, guest = start("nerts", seed=4)
    hg, gg = host.table.game, guest.table.game
    ai = hg.AI
    for step in range(400):
        for app in (host, guest):
            t = app.table
            game = t.game
            if game.status() != PLAYING:
                continue
            if step % 5 == app.table.seat:
                m = game.bot.choose(t.seat, ai.BEST_SKILL, False)
                if m >= 0 and t.allows(m):
                    t.play(m)
        tick(wire, (host, guest), 60)
    settle(wire, (host, guest))
    tick(wire, (host, guest), 1500)  # a hash exchange after the last move
    settle(wire, (host, guest))
    assert state_hash(hg) == state_hash(gg)
    assert host.link.session.desyncs == 0 and guest.link.session.desyncs == 0


def test_the_other_console_leaves_and_the_game_goes_on_against_the_computer():
    wire, host, guest = start("spite_malice", seed=7)
    host.press(bt.START)
    host.selected = len(texts.PAUSE) - 1  # Give up: leaves the table
    host.press(bt.A)
    assert host.mode == ui.TITLE
    settle(wire, (host, guest))
    assert guest.mode == ui.LINK_LEFT
    tick(wire, (guest,), 1000)  # the question's guard time
    guest.redraw()
    gg = guest.table.game
    cards = sorted(gg.piles.cards[gg.piles.start[p] + i] for p in range(gg.piles.count)
                   for i in range(gg.piles.size[p]))
    guest.press(bt.A)
    assert guest.mode in (ui.PLAY, ui.END)
    assert guest.table.seat == 0 and not guest.table.linked() and gg.bots
    after = sorted(gg.piles.cards[gg.piles.start[p] + i] for p in range(gg.piles.count)
                   for i in range(gg.piles.size[p]))
    assert after == cards  # every card still there, once
    tick(wire, (guest,), 3000)  # the computer plays its turns; the guest plays on
    assert gg.turn() == 0 or gg.status() != PLAYING


def test_swap_sides_exchanges_the_players_and_back():
    from engine_core import games
    game = games.load("spite_malice")(2, 0)
    game.deal(11)
    game.apply(game.hint())
    h = state_hash(game)
    hand1 = game.piles.size[game.pile_id("p1.hand")]
    swap_sides(game)
    assert game.piles.size[game.pile_id("p2.hand")] == hand1
    assert state_hash(game) != h
    swap_sides(game)
    assert state_hash(game) == h


LINKED_HEAP_LOCK = """
import gc, micropython
from simulator.keys import make_app
from engine_core.link.channel import Channel
from engine_core.link.loopback import Wire
from engine_core.link.session import Session
from engine_core.ui import buttons as bt

wire = Wire(5, drop=20, dup=20, reorder=20, corrupt=20)
apps = []
for side in range(2):
    app = make_app(240, 240)
    end = wire.end(side)
    app.attach_link(lambda end=end: Session(Channel(end)), b"wire")
    apps.append(app)
host = apps[0]
guest = apps[1]
host.open_link()
guest.open_link()
host.selected = ROW
host.press(bt.A)
guest.selected = 2
guest.press(bt.A)

def ticks(n):
    for i in range(n):
        host.tick(20)
        guest.tick(20)

ticks(50)
guest.press(bt.A)             # the table listed: join it
ticks(150)

def play(steps):
    for step in range(steps):
        for app in apps:
            t = app.table
            game = t.game
            if game.TURN_BASED and game.turn() != t.seat:
                continue
            if not game.TURN_BASED and step % 3 != t.seat:
                continue
            app.press(bt.X)
            app.press(bt.A)
            app.press(bt.A)
        ticks(8)

play(30)                      # every path once before the lock
result = "not run"
gc.collect()
micropython.heap_lock()
try:
    play(STEPS)
    result = "no allocation"
except MemoryError:
    result = "allocated"
micropython.heap_unlock()
print(result, host.mode, guest.mode, host.table.seat, guest.table.seat,
      host.link.session.desyncs + guest.link.session.desyncs, host.table.move_count + guest.table.move_count,
      host.link.session.moves_sent + guest.link.session.moves_sent)
"""


@pytest.mark.parametrize("game", LINK_GAMES)
def test_two_linked_consoles_play_on_micropython_without_allocating(game):
    from tests.helpers import run_mpy_ok
    code = LINKED_HEAP_LOCK.replace("ROW", str(LINK_GAMES.index(game))).replace("STEPS", "60")
    out = run_mpy_ok(code).split()
    assert out[0:3] == ["no", "allocation", "3"], out
    assert out[4:7] == ["0", "1", "0"], out  # both in play, each from its own seat, in step
    assert int(out[7]) >= 20 and int(out[8]) >= 20, out  # the buttons made moves, and they crossed


def test_a_whole_game_ends_on_both_and_the_loser_deals_the_next():
    wire, host, guest = start("spite_malice", seed=3, faults=True)
    hg, gg = host.table.game, guest.table.game
    turns = 0
    while hg.status() == PLAYING and turns < 3000:
        mover = host if hg.turn() == 0 else guest
        for key in (bt.X, bt.A, bt.A):
            mover.press(key)
        tick(wire, (host, guest), 60)
        turns += 1
    settle(wire, (host, guest))
    assert hg.status() != PLAYING and state_hash(hg) == state_hash(gg)
    assert host.mode == ui.END and guest.mode == ui.END
    dealer = host if hg.turn() == 0 else guest  # the loser of the game
    other = guest if dealer is host else host
    other.press(bt.A)  # not the other's deal: nothing happens
    settle(wire, (host, guest))
    assert hg.status() != PLAYING and other.mode == ui.END
    dealer.press(bt.A)
    settle(wire, (host, guest))
    tick(wire, (host, guest), 200)
    assert host.mode == ui.PLAY and guest.mode == ui.PLAY
    assert hg.status() == PLAYING and state_hash(hg) == state_hash(gg)
    assert (hg.score(0), hg.score(1)) == (gg.score(0), gg.score(1)) != (0, 0)


def test_keys_wait_while_the_link_is_silent():
    wire, host, guest = start("spite_malice", seed=9, faults=False)
    mover = host if host.table.game.turn() == 0 else guest
    wire.cut(True)
    tick(wire, (host, guest), 6000)
    assert mover.link_paused()
    before = state_hash(mover.table.game)
    for key in (bt.X, bt.A, bt.A, bt.LEFT, bt.A, bt.A):
        mover.press(key)
    assert state_hash(mover.table.game) == before
    assert mover.table.message == why.LINK_SILENT


def test_nerts_the_host_deals_the_next_round_when_both_have_the_last_ones_end():
    wire, host, guest = start("nerts", seed=4)
    hg, gg = host.table.game, guest.table.game
    ai = hg.AI
    for step in range(5000):
        if hg.status() != PLAYING:
            break
        for app in (host, guest):
            t = app.table
            if t.game.status() == PLAYING and step % 3 == t.seat:
                m = t.game.bot.choose(t.seat, ai.BEST_SKILL, False)
                if m >= 0 and t.allows(m):
                    t.play(m)
        tick(wire, (host, guest), 60)
    assert hg.status() != PLAYING
    guest.press(bt.A)  # the host deals: the guest's A does nothing
    host.press(bt.A)  # at once: dealt once both consoles have the round's end
    assert hg.status() != PLAYING
    settle(wire, (host, guest))
    tick(wire, (host, guest), 2000)
    settle(wire, (host, guest))
    assert host.mode == ui.PLAY and guest.mode == ui.PLAY
    assert hg.status() == PLAYING and state_hash(hg) == state_hash(gg)


def test_nerts_the_one_who_stays_plays_on_against_the_computer():
    wire, host, guest = start("nerts", seed=6)
    guest.press(bt.START)
    guest.selected = len(texts.PAUSE) - 1  # Give up: leaves the table
    guest.press(bt.A)
    settle(wire, (host, guest))
    assert host.mode == ui.LINK_LEFT
    tick(wire, (host,), 1000)  # the question's guard time
    host.press(bt.A)
    hg = host.table.game
    assert host.mode == ui.PLAY and not host.table.linked() and host.table.seat == 0
    waste = hg.pile_id("p2.waste")
    stock = hg.pile_id("p2.stock")
    before = (hg.piles.size[waste], hg.piles.size[stock])
    tick(wire, (host,), 5000)  # the computer now plays p2
    assert (hg.piles.size[waste], hg.piles.size[stock]) != before


def test_consoles_out_of_step_say_both_hashes_and_take_the_hosts_table():
    wire, host, guest = start("spite_malice", seed=8, faults=False)
    hg, gg = host.table.game, guest.table.game
    stock = gg.pile_id("stock")
    gg.piles.cards[gg.piles.start[stock]] ^= 1  # one card changed on the guest alone
    wrong = state_hash(gg)
    mover = host if hg.turn() == 0 else guest
    for _ in range(3):  # a turn ends: the hashes are compared
        for key in (bt.X, bt.A, bt.A):
            mover.press(key)
        settle(wire, (host, guest))
        if hg.turn() != mover.table.seat:
            break
    while hg.turn() == mover.table.seat:
        mover.table.play(mover.table.game.hint())
        settle(wire, (host, guest))
    tick(wire, (host, guest), 1000)
    settle(wire, (host, guest))
    assert state_hash(gg) == state_hash(hg) != wrong
    said = [bytes(app.table.said[1:app.table.said[0] + 1]) for app in (host, guest) if app.table.message == why.SAID]
    assert said and said[0].startswith(b"Out of step: ") and b" vs " in said[0], said


def test_an_offer_waits_until_the_player_chooses_to_join():
    wire, host, guest = linked_pair(seed=2)
    guest.open_link()  # on the link screen, not joining
    to_link_screen(host)
    host.press(bt.A)  # Host Spite & Malice
    tick(wire, (host, guest), 1000)
    assert guest.mode == ui.LINK and host.mode == ui.LINK  # nobody plays yet
    assert guest.link.status == L_OFFERED  # the screen says a table waits
    guest.redraw()
    guest.selected = 2
    guest.press(bt.A)  # Join a table: the table is on its list
    tick(wire, (host, guest), 100)
    assert guest.link.status == L_JOINING and guest.link.session.tables.count == 1
    guest.press(bt.A)  # ...and the player picks it
    tick(wire, (host, guest), 1000)
    assert host.mode == ui.PLAY and guest.mode == ui.PLAY
    assert state_hash(host.table.game) == state_hash(guest.table.game)


def test_an_offer_left_unanswered_is_set_aside_here_and_the_table_stays_open():
    wire, host, guest = linked_pair(seed=3)
    guest.open_link()
    to_link_screen(host)
    host.press(bt.A)
    tick(wire, (host, guest), 1000)
    assert guest.link.status == L_OFFERED  # "A table waits"
    guest.press(bt.B)  # back to the title: this console's no (another may take the table)
    tick(wire, (host, guest), 1000)
    assert guest.mode == ui.TITLE and host.mode == ui.LINK
    assert host.link.status == L_HOSTING and host.link.session.state == ls.S_WAITING
    guest.open_link()  # the same table is not offered here again
    tick(wire, (host, guest), 1000)
    assert guest.link.status != L_OFFERED


# --- link screens you can follow: the table's id, whose turn ---

@pytest.mark.parametrize("size", ((240, 135), (240, 240), (320, 240)))
def test_the_host_shows_its_table_id_and_game_while_waiting_and_in_play(size):
    """The id a joining console lists the table by (its host's short id) and its game, on the
    host's own screen while its table waits, and on both status lines in play."""
    from tests.drawn_text import find
    wire, host, guest = linked_pair(5, False, size)
    for app in (host, guest):
        to_link_screen(app)
    host.selected = LINK_GAMES.index("spite_malice")
    host.press(bt.A)
    tick(wire, (host, guest), 200)
    host.redraw()
    table_id = b"%04X" % host.link.session.ch.me
    assert host.link.status == L_HOSTING
    assert find(host, table_id) is not None, "the host's link screen does not show its table's id"
    assert find(host, b"Spite & Malice") is not None
    guest.selected = 2  # Join a table: the guest lists the table by that id
    guest.press(bt.A)
    tick(wire, (host, guest), 600)
    guest.redraw()
    assert find(guest, table_id) is not None
    guest.press(bt.A)
    for _ in range(100):
        tick(wire, (host, guest), STEP)
        if host.mode == ui.PLAY and guest.mode == ui.PLAY:
            break
    assert host.mode == ui.PLAY and guest.mode == ui.PLAY
    tick(wire, (host, guest), 100)
    for app in (host, guest):
        assert find(app, table_id) is not None, "the table's id is not on the status line in play"


@pytest.mark.parametrize("size", ((240, 135), (320, 240)))
def test_linked_spite_and_malice_says_whose_turn_on_every_frame_on_both_consoles(size):
    from engine_core.gfx.paint import LINE_H
    from tests.drawn_text import find, glyphs, shows_at
    wire, host, guest = start("spite_malice", seed=4, faults=False, size=size)
    spots = {}
    for app in (host, guest):
        tick(wire, (host, guest), STEP)
        at = find(app, b"turn")
        assert at is not None, "no turn mark"
        spots[id(app)] = at
    words = {w: glyphs(host, w) for w in (b"Your", b"Their", b"turn")}
    keys = (bt.X, bt.A, bt.A)  # the hinted move, by whoever's turn it is
    turns = set()
    game = host.table.game
    for frame in range(900):
        if game.status() != PLAYING:
            break
        mover = host if game.turn() == 0 else guest
        mover.press(keys[frame % 3])
        tick(wire, (host, guest), STEP)
        turns.add(game.turn())
        for app in (host, guest):
            x, y = spots[id(app)]
            own = app.table.game.turn() == app.table.seat
            said = b"Your" if own else b"Their"
            assert shows_at(app, said, x, y - LINE_H, words[said]), (frame, said)
            assert shows_at(app, b"turn", x, y, words[b"turn"]), frame
        if len(turns) == 2 and frame > 300:
            break
    assert turns == {0, 1}


def test_link_play_sets_the_game_under_way_aside_and_gives_it_back_after_the_linked_game():
    # The host was playing Spite & Malice itself: the linked game of the same game needs a table
    # of its own, and the local game comes back on the title, as it was, counted nowhere.
    import json
    from engine_core.console import Console
    from engine_core.protocol import state_json
    from engine_core import games
    from engine_core.records import PLAYED
    from engine_core.storage import MemoryStorage
    wire, host, guest = linked_pair(seed=4)
    disk = MemoryStorage()
    console = Console(host, disk)
    console.start()
    console.open_game("spite_malice", 9)
    for _ in range(3):
        for key in (bt.X, bt.A, bt.A):
            console.press(key)
        console.tick(STEP)
    console.press(bt.RIGHT)
    local = host.table
    assert host.in_progress() and local.move_count > 0
    state, cursor, moves = state_json(local.game), local.hand.cursor, local.move_count
    console.press(bt.START)
    host.selected = len(texts.PAUSE) - 2  # To the title
    console.press(bt.A)
    host.selected = host.title_index(ui.T_LINK)
    console.press(bt.A)  # Link play: nothing asked, nothing counted
    assert host.mode == ui.LINK and host.played[host.game_index] == 0
    to_link_screen(guest)
    host.selected = LINK_GAMES.index("spite_malice")
    console.press(bt.A)
    guest.selected = 2  # Join a table
    guest.press(bt.A)
    for _ in range(300):
        console.tick(STEP)
        guest.tick(STEP)
        pick_the_table(guest)
        if host.mode == ui.PLAY and guest.mode == ui.PLAY:
            break
    assert host.mode == ui.PLAY and host.linked() and host.table is not local
    assert state_json(local.game) == state  # the game set aside is untouched
    console.press(bt.START)
    host.selected = len(texts.PAUSE) - 2  # To the title: leaves the linked table
    console.press(bt.A)
    assert host.mode == ui.TITLE and host.resumable and not host.linked()
    assert host.table is local and host.tables["spite_malice"] is local
    assert console.keeper.stats.get(games.game_id("spite_malice"), PLAYED) == 0 and host.played[host.game_index] == 0
    console.press(bt.A)  # Continue: the cursor where it was
    assert host.mode == ui.PLAY and local.hand.cursor == cursor and local.move_count == moves
    assert state_json(local.game) == state
    console.close()
    again = Console(make_app(240, 240), disk)
    again.start()
    assert again.app.resumable
    assert json.loads(state_json(again.app.table.game))["piles"] == json.loads(state)["piles"]


def test_to_the_title_from_a_linked_game_played_on_alone_asks_first_and_b_returns_to_it():
    wire, host, guest = start("spite_malice", seed=7)
    host.press(bt.START)
    host.selected = len(texts.PAUSE) - 1  # Give up: leaves the table
    host.press(bt.A)
    settle(wire, (host, guest))
    tick(wire, (guest,), 1000)  # the question's guard time
    guest.press(bt.A)  # play on against the computer
    assert guest.mode == ui.PLAY and guest.link_game() and not guest.linked()
    table, played = guest.table, list(guest.played)
    guest.press(bt.START)
    guest.selected = ui.P_TITLE
    guest.press(bt.A)
    assert guest.mode == ui.CONFIRM and guest.confirm_screen.action == ui.A_LEAVE  # asked once
    assert texts.CONFIRMS[ui.A_LEAVE] == b"Leave this game?"
    guest.redraw()
    guest.press(bt.B)  # no: back to the pause menu, To the title highlighted, the game there
    assert guest.mode == ui.PAUSE and guest.selected == ui.P_TITLE and guest.table is table
    guest.press(bt.A)
    assert guest.mode == ui.CONFIRM
    guest.press(bt.A)  # yes: to the title, the game not kept (nothing to continue) nor counted
    assert guest.mode == ui.TITLE and not guest.resumable and list(guest.played) == played


def test_in_link_play_the_pause_menus_panel_keeps_the_menus_width():
    # The linked game goes on under the menu and the table beside its panel is not drawn
    # meanwhile: the panel keeps the width that leaves only a sliver of it showing.
    from engine_core.ui.screens import PANEL_RECT, panel_width
    wire, host, guest = start("nerts", faults=False)
    host.press(bt.START)
    assert host.mode == ui.PAUSE
    host.screens[ui.PAUSE].panel_rect(host)
    assert PANEL_RECT[2] == panel_width(host.width) == 220, list(PANEL_RECT)
