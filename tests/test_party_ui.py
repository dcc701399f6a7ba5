"""The party table on the console's screens (docs/screen.md, "Link play"; docs/link.md, "The
party table"): four Apps in one process, the host's over a hub of simulated faulty wires, the
guests' each over its own wire. The host opens a table for 2, 3 or 4 seats from its lobby,
guests pick it from the join list, the host starts it, every console plays its own seat with the
others' piles named by seat, an away seat is told to the others, and over real TCP sockets
(the simulator's link) the same table fills and plays."""

import random
import socket

import pytest

from engine_core import PLAYING
from engine_core.link import hub as lh
from engine_core.link import session as ls
from engine_core.link.channel import Channel
from engine_core.link.loopback import Wire
from engine_core.link.session import Session
from engine_core.link.statehash import state_hash
from engine_core.ui import buttons as bt
from engine_core.ui import screens as ui
from engine_core.ui.linkplay import CANNOT_SEATS, L_CHOOSE, L_JOINING, L_LEFT, L_PARTY, L_SEATED
from engine_core.ui.party import Party
from simulator import link_socket
from simulator.keys import make_app

STEP = 20


class Wiring:
    """A hub's further legs over simulated wires (the simulator's is its PartyListener)."""

    def __init__(self, ends):
        self.further = ends
        self.took = 0

    def take(self, guests):
        self.took = guests

    def bind(self, hub):
        pass


def consoles(n, size=(240, 135), faults=20, private=False, delay=0):
    """n consoles: the host's wire to each guest; private: each further leg's wire heard by its
    guest alone, as a TCP seat (every free seat offered at once), else as on one radio."""
    wires = [Wire(k + 5, faults, faults, faults, faults, delay) for k in range(n - 1)]
    WIRES[:] = wires
    further = [w.end(0) for w in wires[1:]]
    for end in further:
        end.private = private
    host = make_app(*size)
    host.attach_link(lambda: Session(Channel(wires[0].end(0))), b"wire", Party(Wiring(further)))
    apps = [host]
    for k in range(n - 1):
        app = make_app(*size)
        app.attach_link(lambda e=wires[k].end(1): Session(Channel(e)), b"wire")
        apps.append(app)
    for app in apps:
        app.go(ui.TITLE)
        app.selected = app.title_index(ui.T_LINK)
        app.press(bt.A)
        assert app.mode == ui.LINK
    return wires, apps


CLOCK = [0]  # the wires' clock (Wire.deliver), for wires with a delay
WIRES = []


def tick(apps, frames=1):
    for _ in range(frames):
        CLOCK[0] += STEP
        for w in WIRES:
            w.deliver(CLOCK[0])
        for app in apps:
            app.tick(STEP)
            app.redraw()


def host_nerts(host):
    host.selected = 1  # Host Nerts
    host.press(bt.A)
    assert host.link.status == L_PARTY and host.link.session.state == ls.S_WAITING


def join(apps, guests):
    """Each guest opens Join a table and picks the first table listed; until all are seated."""
    for app in guests:
        app.selected = 2
        app.press(bt.A)
    for _ in range(500):
        tick(apps)
        for app in guests:
            if app.link.status == L_JOINING and app.link.session.tables.count:
                app.press(bt.A)
        if all(app.link.status == L_SEATED for app in guests):
            return
    raise AssertionError([app.link.status for app in guests])


def start(host, apps):
    host.selected = 2  # Start
    host.press(bt.A)
    for _ in range(300):
        tick(apps)
        if all(app.mode == ui.PLAY for app in apps):
            return
    raise AssertionError([app.mode for app in apps])


def play_a_while(apps, frames, rnd, every=8):
    """Each console's player plays one of its seat's legal moves every `every` frames."""
    for f in range(frames):
        tick(apps)
        if f % every == 0:
            move_each(apps, rnd)


def move_each(apps, rnd):
    for app in apps:
        t = app.table
        if app.mode == ui.PLAY and t.game.status() == PLAYING:
            n = t.legal_moves()
            if n:
                t.play(t.hand.moves[rnd.randrange(n)])


def settle(apps, frames=600):
    for _ in range(frames):
        tick(apps)
        sessions = [app.link.session for app in apps]
        if all(s.ch.pending() == 0 and not s.timeline.count for s in sessions) and \
                len({state_hash(app.table.game) for app in apps}) == 1:
            return
    raise AssertionError("the consoles did not settle")


@pytest.mark.parametrize("size", [(240, 135), (160, 128), (128, 64)])
def test_four_consoles_sit_at_the_hosts_table_each_plays_its_own_seat_and_they_agree(size):
    wires, apps = consoles(4, size)
    host = apps[0]
    host_nerts(host)
    join(apps, apps[1:])
    assert host.link.party.hub.live == 7
    start(host, apps)
    games = [app.table.game for app in apps]
    assert [g.players for g in games] == [4] * 4
    assert [app.table.seat for app in apps] == [0, 1, 2, 3]
    for k, app in enumerate(apps):  # your own piles at the foot: the p1 slots show your seat's
        slots = app.table.slots
        names = games[k].pile_names
        shown = {names[slots.pile[s]] for s in range(slots.count)}
        assert "p%d.nerts" % (k + 1) in shown and "p%d.stock" % (k + 1) in shown
        stocks = [n for n in shown if n.endswith(".stock")]
        assert stocks == ["p%d.stock" % (k + 1)]  # the one stock shown is this console's own
        others = [t[0] for t in slots.labels_on_table if t[0] not in (b"You", b"Y")]
        if size != (128, 64):
            assert others == [b"P%d" % ((k + j) % 4 + 1) for j in (1, 2, 3)]  # round the table
        else:
            assert others == [b"%d" % ((k + j) % 4 + 1) for j in (1, 2, 3)]
        assert app.table.player_tags()[k] == b"You "
        assert b"CPU" not in b"".join(app.table.player_tags())
    play_a_while(apps, 1500, random.Random(size[0]))
    settle(apps)
    assert len({state_hash(g) for g in games}) == 1
    assert [(app.link.session.desyncs, app.link.session.refused) for app in apps] == [(0, 0)] * 4
    for k in (1, 2, 3):  # every seat's moves reached every console
        assert apps[k].link.session.realtime.recent_n[0] > 0
    assert sum(w.dropped + w.corrupted for w in wires) > 0  # the faults were on


def test_the_lobby_changes_seats_starts_with_who_came_and_gives_free_seats_to_the_computer():
    wires, apps = consoles(4, faults=0)
    host, guest = apps[0], apps[1]
    host_nerts(host)
    party = host.link.party
    host.selected = 0
    host.press(bt.RIGHT)  # 4 -> 2: a table of two
    assert party.seats == 2 and host.link.session.hub is None and host.link.session.players == 2
    host.press(bt.A)  # 2 -> 3
    assert party.seats == 3 and host.link.session.players == 3 and host.link.session.hub is party.hub
    host.selected = 2
    host.press(bt.A)  # Start with no one seated: said, nothing starts
    assert party.told == b"No guest seated yet" and host.link.session.state == ls.S_WAITING
    join([host, guest], [guest])
    host.selected = 0
    host.press(bt.A)  # a guest sits: the seats stay
    assert party.seats == 3 and party.told == b"B to change seats"
    host.selected = 1
    host.press(bt.A)  # the away seat goes to the computer
    assert party.policy == lh.BOT and party.hub.policy == lh.BOT
    start(host, [host, guest])
    s = host.link.session
    assert s.seat_kind(1) == ls.THERE and s.seat_kind(2) == ls.COMPUTER
    assert host.table.game.bot.is_computer(2) and not host.table.game.bot.is_computer(1)
    assert guest.table.seat == 1 and guest.table.game.players == 3
    rnd = random.Random(2)
    play_a_while([host, guest], 600, rnd)
    settle([host, guest])
    assert guest.link.session.realtime.recent_n[2] > 0  # the computer's moves reached the guest
    assert host.link.session.desyncs == guest.link.session.desyncs == 0


def test_a_seated_guest_that_cancels_frees_its_seat_and_the_lobby_shows_it():
    wires, apps = consoles(3, faults=0)
    host = apps[0]
    host_nerts(host)
    join(apps, apps[1:])
    hub = host.link.party.hub
    assert hub.live == 3
    apps[2].press(bt.B)  # the second guest gets up
    assert apps[2].link.status == L_CHOOSE and apps[2].link.session.state == ls.S_IDLE
    for _ in range(50):
        tick(apps)
    assert hub.live == 1  # its seat is offered again
    assert host.link.party.guests(host.link.session) == 1
    host.press(bt.B)  # the host withdraws: the seated guest is told
    for _ in range(100):
        tick(apps)
    assert apps[1].link.status != L_SEATED and apps[1].link.session.state != ls.S_WAITING


def test_an_away_guest_is_told_to_the_others_and_its_seat_goes_as_the_host_chose():
    wires, apps = consoles(4, faults=0)
    host = apps[0]
    host_nerts(host)
    host.selected = 1
    host.press(bt.A)  # away: the computer
    join(apps, apps[1:])
    start(host, apps)
    play_a_while(apps, 100, random.Random(3))
    wires[2].cut(True)  # the guest at seat 3 goes quiet
    words = {}
    rnd = random.Random(4)
    for f in range(400):
        tick(apps[:3])
        if f % 8 == 0:  # (a move each 160 ms: a person's pace)
            move_each(apps[:3], rnd)
        for k in (0, 1):
            t = apps[k].table
            if t.message == 45 and t.said[0]:  # reasons.SAID: the table's own line
                words.setdefault(k, bytes(t.said[1:1 + t.said[0]]))
    assert words.get(0) == b"P4 is away: the computer plays it"
    assert words.get(1) == b"P4 is away: the others play on"
    assert host.link.session.seat_kind(3) == ls.COMPUTER


def test_a_party_offer_is_listed_joinable_and_a_larger_one_says_why_not():
    wires, apps = consoles(2)
    link = apps[1].link
    assert link.cannot_join(9, 4) is not None  # not a game id of this console
    nerts = __import__("engine_core.games", fromlist=["game_id"]).game_id("nerts")
    spite = __import__("engine_core.games", fromlist=["game_id"]).game_id("spite_malice")
    assert link.cannot_join(nerts, 3) is None and link.cannot_join(nerts, 4) is None
    assert link.cannot_join(nerts, 5) == CANNOT_SEATS and link.cannot_join(spite, 3) == CANNOT_SEATS


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def test_four_consoles_over_tcp_as_the_simulator_links_them():
    """The simulator's --link PORT: the first console listens and may host a party, the others
    connect to it (simulator/__main__.py, attach_link)."""
    import time
    port = free_port()
    ends = [link_socket.party_or_connect(port) for _ in range(4)]
    assert ends[0][1] is not None and all(e[1] is None for e in ends[1:])
    apps = []
    for k, (transport, listener) in enumerate(ends):
        app = make_app(160, 128)
        app.attach_link(lambda t=transport: Session(Channel(t)), b"tcp", Party(listener) if listener else None)
        apps.append(app)
        app.go(ui.TITLE)
        app.selected = app.title_index(ui.T_LINK)
        app.press(bt.A)
    try:
        host = apps[0]
        host_nerts(host)
        assert ends[0][1].open == 3
        for app in apps[1:]:
            app.selected = 2
            app.press(bt.A)
        for _ in range(2000):
            tick(apps)
            time.sleep(0.002)
            for app in apps[1:]:
                if app.link.status == L_JOINING and app.link.session.tables.count:
                    app.press(bt.A)
            if all(app.link.status == L_SEATED for app in apps[1:]):
                break
        assert [app.link.status for app in apps[1:]] == [L_SEATED] * 3
        host.selected = 2
        host.press(bt.A)
        for _ in range(1000):
            tick(apps)
            time.sleep(0.002)
            if all(app.mode == ui.PLAY for app in apps):
                break
        assert [app.table.seat for app in apps] == [0, 1, 2, 3]
        rnd = random.Random(9)
        for f in range(600):
            tick(apps)
            if f % 8 == 0:
                move_each(apps, rnd)
            time.sleep(0.001)
        for _ in range(1500):
            tick(apps)
            time.sleep(0.002)
            if len({state_hash(app.table.game) for app in apps}) == 1 and \
                    all(not app.link.session.timeline.count for app in apps):
                break
        assert len({state_hash(app.table.game) for app in apps}) == 1
    finally:
        for transport, listener in ends:
            (listener or transport).close()


class Radio:
    """An ESP32's radio as firmware.main.LinkOnDemand gives it: an end of the shared air."""

    def __init__(self, end, console):
        self.end = end
        self.console_id = console
        self.bytes_read = 0

    def write(self, buf, n):
        return self.end.write(buf, n)

    def readinto(self, buf):
        n = self.end.readinto(buf)
        self.bytes_read += n
        return n


def test_on_one_radio_the_esp32_host_seats_three_guests_from_its_lobby():
    """ESP-NOW (firmware/link_espnow.py, PartyRadio): the host's own transport goes through the
    first leg of its Shared radio while a party table is hosted, and back to the radio alone after."""
    from firmware.link_espnow import PartyRadio
    from support.fakes.air import Air

    air = Air()
    wiring = PartyRadio(Radio(air.end(), 0x1001))
    host = make_app(240, 135)
    host.attach_link(lambda: Session(Channel(wiring)), b"ESP-NOW", Party(wiring))
    apps = [host]
    for k in range(3):
        app = make_app(240, 135)
        app.attach_link(lambda r=Radio(air.end(), 0x2001 + k): Session(Channel(r)), b"ESP-NOW")
        apps.append(app)
    for app in apps:
        app.go(ui.TITLE)
        app.selected = app.title_index(ui.T_LINK)
        app.press(bt.A)
    assert wiring.leg is None  # a console that only links two uses its radio alone
    host_nerts(host)
    assert wiring.leg is wiring.shared.legs[0]
    guests = apps[1:]
    for app in guests:
        app.selected = 2
        app.press(bt.A)
    for step in range(1500):
        tick(apps)
        for k, app in enumerate(guests):  # the players pick a free seat one after the other
            listed = app.link.session.tables
            if app.link.status == L_JOINING and listed.count and step > 30 * (k + 1):
                i = listed.find(app.link.join.host, app.link.join.table)
                app.press(bt.DOWN if i < 0 or listed.full[i] else bt.A)  # (a taken seat says FULL)
        if all(app.link.status == L_SEATED for app in guests):
            break
    assert [app.link.status for app in guests] == [L_SEATED] * 3
    start(host, apps)
    assert sorted(app.table.seat for app in apps) == [0, 1, 2, 3]
    play_a_while(apps, 900, random.Random(5))
    settle(apps)
    assert [app.link.session.desyncs for app in apps] == [0] * 4
    host.link.leave(host.clock)
    host.go(ui.TITLE)
    host.open_link()
    assert wiring.leg is None  # back to the radio alone


@pytest.mark.parametrize("private", [True, False])
def test_a_guest_that_gets_up_can_sit_down_again_at_the_seat_offered_anew(private):
    wires, apps = consoles(4, faults=0, private=private, delay=20)
    host, guest = apps[0], apps[2]
    host_nerts(host)
    join(apps, apps[1:])
    tick(apps, 60)
    hub = host.link.party.hub
    assert hub.live == 7
    guest.press(bt.B)  # gets up: the host offers that seat again, as a new table
    tick(apps, 200)  # (four seconds: the channel that got up still speaks meanwhile)
    assert hub.live == 5
    join(apps, [guest])  # and sits down again
    tick(apps, 10)
    assert hub.live == 7 and guest.link.session.waiting_start


def test_a_guest_that_sat_at_a_table_the_host_withdrew_is_told_and_joins_the_new_one():
    """The host changes the seats as a guest picks the table still on its list: that guest
    is not left waiting for a start that never comes."""
    wires, apps = consoles(2, faults=0)
    host, guest = apps
    host_nerts(host)
    guest.selected = 2
    guest.press(bt.A)
    for _ in range(30):
        tick(apps)
    assert guest.link.session.tables.count
    host.selected = 0
    host.press(bt.LEFT)  # 4 -> 3: the table of four is withdrawn, one of three offered
    guest.press(bt.A)  # in the same frame, the row of the table of four, still listed
    for _ in range(6000 // STEP):
        tick(apps)
        if not guest.link.session.waiting_start:
            break
    assert not guest.link.session.waiting_start and guest.link.status != L_SEATED
    assert host.link.party.hub.live == 0
    assert guest.mode == ui.LINK and guest.link.status == L_LEFT  # "The other console left"
    guest.selected = 2
    guest.press(bt.A)
    join(apps, [guest])  # the table of three
    tick(apps, 10)
    assert host.link.party.hub.live == 1 and guest.link.session.players == 3


def test_a_guest_back_from_away_makes_no_other_console_say_out_of_step():
    wires, apps = consoles(4, faults=0)
    host = apps[0]
    host_nerts(host)
    join(apps, apps[1:])
    start(host, apps)
    rnd = random.Random(6)
    play_a_while(apps, 100, rnd)
    wires[1].cut(True)  # the guest at seat 2, away for 8 s, then back
    said = set()
    for f in range(8000 // STEP + 1500 // STEP * 4):
        if f == 8000 // STEP:
            wires[1].cut(False)
        tick([a for k, a in enumerate(apps) if k != 2 or f >= 8000 // STEP])
        if f % 8 == 0:
            move_each(apps, rnd)
        for k in (1, 3):
            t = apps[k].table
            if t.message == 45 and t.said[0]:
                said.add(bytes(t.said[1:1 + t.said[0]]))
    assert b"P3 is away: the others play on" in said and b"P3 is back" in said
    assert not [w for w in said if w.startswith(b"Out of step")], said


def test_after_the_lobby_the_host_hosts_spite_and_malice_over_its_own_channel():
    wires, apps = consoles(2, faults=0)
    host, guest = apps
    host_nerts(host)
    tick(apps, 10)
    host.press(bt.B)  # the lobby's table withdrawn
    assert host.link.status == L_CHOOSE
    host.selected = 0
    host.press(bt.A)  # Host Spite & Malice
    s = host.link.session
    assert s.hub is None and s.state == ls.S_WAITING and s.game.NAME == "spite_malice"
    guest.selected = 2
    guest.press(bt.A)
    for _ in range(200):
        tick(apps)
        if guest.link.status == L_JOINING and guest.link.session.tables.count:
            guest.press(bt.A)
        if host.mode == ui.PLAY and guest.mode == ui.PLAY:
            break
    assert host.mode == ui.PLAY and guest.mode == ui.PLAY
    assert state_hash(host.table.game) == state_hash(guest.table.game)


@pytest.mark.parametrize("private", [True, False])
def test_a_table_the_host_withdrew_leaves_the_join_list_once_its_next_is_heard(private):
    wires, apps = consoles(2, faults=0, private=private)
    host, guest = apps
    host_nerts(host)
    guest.selected = 2
    guest.press(bt.A)
    tick(apps, 30)
    tables = guest.link.session.tables
    assert tables.count == 1 and tables.offers[tables.offer_at(0) + 3] == 4
    host.selected = 0
    host.press(bt.LEFT)  # 4 -> 3 seats: a new table
    tick(apps, 30)  # (its offer heard: well within the 3 s a row not heard lasts)
    assert [tables.offers[tables.offer_at(i) + 3] for i in range(tables.count)] == [3]


def test_a_table_withdrawn_after_a_guest_sat_leaves_every_list():
    wires, apps = consoles(3, faults=0, private=True)
    host, guest, other = apps
    host_nerts(host)
    join(apps, [guest])
    other.selected = 2
    other.press(bt.A)
    tick(apps, 30)
    assert other.link.session.tables.count == 1
    host.press(bt.B)  # withdrawn: the seated guest is told, the free seat offered no more
    tick(apps, 200)
    assert guest.link.status == L_LEFT and not guest.link.session.waiting_start
    assert other.link.session.tables.count == 0  # (heard no more: gone from the list)
    host_nerts(host)  # a table again: the guest that was told sits at it
    join(apps, [guest])
    tick(apps, 10)
    assert host.link.party.hub.live & 1


def test_the_lobbys_cursor_is_drawn_where_up_and_down_put_it():
    wires, apps = consoles(2, faults=0)
    host = apps[0]
    host_nerts(host)
    host.redraw()
    screen = host.screen
    rows = []
    for button in (bt.DOWN, bt.DOWN, bt.UP):
        host.press(button)
        host.redraw()
        rows.append(bytes(screen.buf))
    assert host.selected == 1
    assert rows[0] != rows[1] and rows[1] != rows[2]  # each step redrawn with its row lit
    host.press(bt.UP)
    host.redraw()
    first = bytes(screen.buf)
    host.press(bt.DOWN)
    host.redraw()
    assert bytes(screen.buf) == rows[0] != first
