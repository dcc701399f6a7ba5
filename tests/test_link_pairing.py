"""Pairing (docs/link.md, "Pairing"): consoles that all hear each other (ESP-NOW's broadcast, or
here one shared medium in one process: support/fakes/air.py). A host's table goes out under a
random table id; Join lists the tables heard and the player picks one; from then on frames of
another table or from another console change nothing and are counted; a table that ended is
never taken again from a replay of its offer."""

from engine_core import games
from engine_core import records as r
from engine_core.link import messages as m
from engine_core.link import pairing
from engine_core.link import session as ls
from engine_core.link.channel import SYNC, Channel
from engine_core.link.crc import address_crc, frame_crc
from engine_core.link.statehash import state_hash
from engine_core.ui import buttons as bt
from engine_core.ui import screens as ui
from engine_core.ui.linkplay import L_JOINING
from simulator.keys import make_app
from support.fakes.air import Air

STEP = 20
SEATS = bytes([ls.HERE, ls.THERE])


class Room:
    """Consoles on one Air, each a Session over a Channel, all polled together."""

    def __init__(self, count):
        self.air = Air()
        self.sessions = [ls.Session(Channel(self.air.end(), epoch=1 + i, me=0x1000 + i)) for i in range(count)]
        self.now = 0

    def run(self, ms):
        for _ in range(ms // STEP):
            self.now += STEP
            for s in self.sessions:
                s.poll(self.now)


def hosted_room():
    """Two hosts (0, 1) of Spite & Malice, two guests (2, 3) listening."""
    room = Room(4)
    h0, h1, g0, g1 = room.sessions
    games_ = [games.load("spite_malice")(2) for _ in range(4)]
    g0.join(0)
    g1.join(0)
    h0.host(games_[0], 111, 0, SEATS, 0)
    h1.host(games_[1], 222, 0, SEATS, 0)
    room.run(600)
    return room, games_


def row_of(session, host):
    t = session.tables
    return next(i for i in range(t.count) if t.host[i] == host.ch.me)


def play_turns(room, pairs, turns):
    """Each pair (host, guest, host's game, guest's game) plays `turns` turns by the hint."""
    for _ in range(turns):
        for host, guest, gh, gg in pairs:
            for s, g in ((host, gh), (guest, gg)):
                if g.turn() == s.my_seat and g.status() == 0:
                    move = g.hint()
                    if move >= 0:
                        g.apply(move)
                        s.local_move(move, room.now)
        room.run(200)


def test_two_hosts_and_two_guests_on_one_medium_never_cross():
    room, gs = hosted_room()
    h0, h1, g0, g1 = room.sessions
    for g in (g0, g1):
        assert g.tables.count == 2  # each guest hears both tables
    g0.choose(row_of(g0, h1))  # the first guest takes the second host's table, and
    g0.accept(gs[2], room.now)
    g1.choose(row_of(g1, h0))  # the second the first host's
    g1.accept(gs[3], room.now)
    room.run(600)
    assert all(s.state == ls.S_PLAYING for s in room.sessions)
    assert h0.hello.table_id != h1.hello.table_id
    assert (h1.ch.partner, g0.ch.partner, h0.ch.partner, g1.ch.partner) == (g0.ch.me, h1.ch.me, g1.ch.me, h0.ch.me)
    pairs = ((h1, g0, gs[1], gs[2]), (h0, g1, gs[0], gs[3]))
    play_turns(room, pairs, 40)
    moved = sum(s.moves_sent for s in room.sessions)
    assert moved > 20
    for host, guest, gh, gg in pairs:
        assert state_hash(gh) == state_hash(gg) and gh.seed == gg.seed
        assert host.refused == guest.refused == 0 and host.desyncs == guest.desyncs == 0
    assert state_hash(gs[1]) != state_hash(gs[0])
    # Everyone heard the other pair's frames, and took none of them.
    assert all(s.ch.refused > 20 for s in room.sessions)


def frame_on(ch, kind, data, table, writer, to, seq=None):
    """A valid frame (its CRC right) as `writer` would write it to `to` at `table`."""
    n = len(data)
    f = bytearray(15 + n)
    f[0] = SYNC
    f[1] = n
    f[2] = kind
    f[3] = ch._expect if seq is None else seq
    f[4] = ch.sending.base
    f[5] = ch._peer
    f[6] = ch.epoch
    f[7:9] = table.to_bytes(2, "big")
    f[9:11] = writer.to_bytes(2, "big")
    f[11:13] = to.to_bytes(2, "big")
    f[13:13 + n] = data
    c = frame_crc(f, 0, len(f), address_crc(f, 0))
    f[13 + n:] = c.to_bytes(2, "big")
    return f


def test_a_frame_of_another_table_or_another_console_changes_nothing_and_is_counted():
    room, gs = hosted_room()
    h0, h1, g0, g1 = room.sessions
    g0.choose(row_of(g0, h0))
    g0.accept(gs[2], room.now)
    room.run(400)
    assert h0.state == g0.state == ls.S_PLAYING
    mover, game = (h0, gs[0]) if gs[0].turn() == 0 else (g0, gs[2])
    other = g0 if mover is h0 else h0
    move = game.hint()
    d = bytearray(5)
    d[0] = mover.gen
    d[1] = mover.my_seat
    d[2], d[3], d[4] = move >> 16, (move >> 8) & 0xFF, move & 0xFF
    ch = other.ch
    table = h0.hello.table_id
    for t, w, to in ((table ^ 0x5A5A, mover.ch.me, ch.me),  # another table, from the partner
                     (table, 0x7777, ch.me),  # this table, from another console
                     (table, g1.ch.me, ch.me),  # another console of the room
                     (table, mover.ch.me, 0x6666)):  # to another console
        before = (state_hash(gs[0]), state_hash(gs[2]), ch.received, ch.refused, other.rejected, ch._expect)
        room.air.replay(frame_on(ch, m.MOVE, d, t, w, to), to=room.sessions.index(other))
        other.poll(room.now)
        after = (state_hash(gs[0]), state_hash(gs[2]), ch.received, ch.refused, other.rejected, ch._expect)
        assert after[:3] == before[:3] and after[4:] == before[4:], (t, w, to)
        assert after[3] == before[3] + 1  # counted as refused (link_state()'s frames_refused)
    # The same frame, of this table and from the partner, is taken: the test's frame is right.
    room.air.replay(frame_on(ch, m.MOVE, d, table, mover.ch.me, ch.me), to=room.sessions.index(other))
    other.poll(room.now)
    assert ch.received == before[2] + 1


def test_a_guest_sees_both_tables_and_joins_the_one_it_picks():
    air = Air()
    consoles = []
    for i in range(3):
        app = make_app(240, 240)
        app.attach_link(lambda end=air.end(), i=i: ls.Session(Channel(end, me=0x2000 + i)), b"air")
        app.open_link()
        consoles.append(app)
    host0, host1, guest = consoles
    host0.selected = 0  # Host Spite & Malice
    host0.press(bt.A)
    host1.selected = 1  # Host Nerts
    host1.press(bt.A)
    guest.selected = 2  # Join a table
    guest.press(bt.A)
    for _ in range(30):
        for app in consoles:
            app.tick(STEP)
    tables = guest.link.session.tables
    assert guest.mode == ui.LINK and guest.link.status == L_JOINING and tables.count == 2
    assert sorted(tables.host[i] for i in range(2)) == [0x2000, 0x2001]
    guest.redraw()  # the list: each host's short id and its game
    join = guest.link.join
    join.hex_id(0x2001)
    assert bytes(join.short_id) == b"2001"
    nerts = next(i for i in range(2) if tables.game_id(i) == games.game_id("nerts"))
    while join.selected != nerts:
        guest.press(bt.DOWN)
    guest.press(bt.A)  # the player picks the Nerts table
    for _ in range(60):
        for app in consoles:
            app.tick(STEP)
    assert guest.mode == ui.PLAY and guest.table.game.NAME == "nerts"
    assert host1.mode == ui.PLAY and host1.link.session.ch.partner == 0x2002
    assert host0.mode == ui.LINK and host0.link.session.state == ls.S_WAITING  # still waiting for a guest
    assert state_hash(host1.table.game) == state_hash(guest.table.game)


def test_a_bystander_who_says_no_does_not_close_a_table_another_console_takes():
    air = Air()
    consoles = []
    for i in range(3):
        app = make_app(240, 240)
        app.attach_link(lambda end=air.end(), i=i: ls.Session(Channel(end, me=0x3000 + i)), b"air")
        app.open_link()
        consoles.append(app)
    host, bystander, guest = consoles

    def run(ticks):
        for _ in range(ticks):
            for app in consoles:
                app.tick(STEP)

    host.selected = 0  # Host Spite & Malice
    host.press(bt.A)
    run(30)
    assert bystander.link.session.offer_table  # it heard the table: "A table waits"
    bystander.press(bt.B)  # not for me: back to the title
    run(30)
    assert bystander.mode == ui.TITLE
    assert host.mode == ui.LINK and host.link.session.state == ls.S_WAITING, "the table stays open"
    guest.selected = 2  # Join a table
    guest.press(bt.A)
    run(30)
    assert guest.link.session.tables.count == 1
    guest.press(bt.A)
    run(60)
    assert guest.mode == ui.PLAY and host.mode == ui.PLAY
    assert host.link.session.ch.partner == 0x3002
    assert state_hash(host.table.game) == state_hash(guest.table.game)


def test_a_replayed_offer_of_a_table_that_ended_is_not_taken():
    room = Room(2)
    host, guest = room.sessions
    g_host, g_guest = games.load("spite_malice")(2), games.load("spite_malice")(2)
    guest.join(0)
    host.host(g_host, 5, 0, SEATS, 0)
    room.run(200)
    offers = [data for writer, data in room.air.log if writer == 0 and data[2] == m.OFFER]
    assert offers
    guest.accept(g_guest, room.now)
    room.run(400)
    assert host.state == guest.state == ls.S_PLAYING
    host.leave(room.now)  # the table ends
    room.run(400)
    assert guest.state == ls.S_LEFT
    guest.join(room.now)  # Join a table again: a recording of the old offer plays
    rejected = guest.rejected
    for _ in range(5):
        room.air.replay(offers[0], to=1)
        flags = guest.poll(room.now)
        assert not flags & ls.OFFER
    assert guest.tables.count == 0 and guest.state == ls.S_WAITING and guest.rejected >= rejected + 5
    # The same host's new table is listed.
    host.host(games.load("spite_malice")(2), 6, 0, SEATS, room.now)
    room.run(200)
    assert guest.tables.count == 1 and guest.tables.table[0] != r.get_u16(offers[0], 7)


def test_two_guests_take_one_table_the_first_plays_and_the_second_is_not_heard():
    room = Room(3)
    host, first, second = room.sessions
    gs = [games.load("spite_malice")(2) for _ in range(3)]
    first.join(0)
    second.join(0)
    host.host(gs[0], 9, 0, SEATS, 0)
    room.run(200)
    first.accept(gs[1], room.now)
    room.run(100)
    second.accept(gs[2], room.now)
    room.run(400)
    assert host.ch.partner == first.ch.me and host.state == first.state == ls.S_PLAYING
    assert host.ch.refused > 0  # the second guest's frames
    play_turns(room, ((host, first, gs[0], gs[1]),), 10)
    assert state_hash(gs[0]) == state_hash(gs[1])
    assert second.ch.received == 0  # nothing of that table reached the second guest


JOIN_LIST_HEAP_LOCK = """
import gc, micropython
from simulator.keys import make_app
from engine_core.link.channel import Channel
from engine_core.link.loopback import Wire
from engine_core.link.session import Session
from engine_core.ui import buttons as bt

wire = Wire(1)
apps = []
for side in range(2):
    app = make_app(240, 240)
    end = wire.end(side)
    app.attach_link(lambda end=end: Session(Channel(end)), b"wire")
    app.open_link()
    apps.append(app)
host, guest = apps
host.press(bt.A)              # Host Spite & Malice
guest.selected = 2
guest.press(bt.A)             # Join a table: the list

def frames(n):
    for i in range(n):
        host.tick(20)
        guest.tick(20)
        guest.press(bt.DOWN if i % 2 else bt.UP)
        guest.full = i % 3 == 0   # the whole list drawn now and then
        guest.redraw()

frames(60)                    # every path once before the lock
result = "not run"
gc.collect()
micropython.heap_lock()
try:
    frames(200)               # offers heard again and again, the list drawn, the cursor moved
    result = "no allocation"
except MemoryError:
    result = "allocated"
micropython.heap_unlock()
print(result, guest.link.session.tables.count, guest.link.status)
"""


def test_the_join_list_allocates_nothing_on_micropython():
    from tests.helpers import run_mpy_ok
    out = run_mpy_ok(JOIN_LIST_HEAP_LOCK).split()
    assert out == ["no", "allocation", "1", str(L_JOINING)], out


def test_the_link_kept_after_the_app_stops_does_not_keep_the_app():
    # The device keeps the link for link_state() after its app has stopped at the REPL, where
    # a second app is made (firmware.bench.heap): a link that held the first App (its frame
    # buffer, its tables) kept some 50 KB of the Pico's heap from it.
    import gc
    import weakref
    air = Air()
    app = make_app(240, 240)
    app.attach_link(lambda: ls.Session(Channel(air.end(), me=0x4000)), b"air")
    app.open_link()
    app.selected = 2  # Join a table: the join list is drawn
    app.press(bt.A)
    for _ in range(5):
        app.tick(STEP)
    link = app.link
    gone = weakref.ref(app)
    del app
    gc.collect()
    assert gone() is None, [type(r).__name__ for r in gc.get_referrers(gone())]
    assert link.session is not None


def test_a_third_console_sees_a_table_two_others_play_at_as_full_and_cannot_join_it():
    """Once its guest accepted, a host's offer goes on as FULL (every second, to anyone): a
    third console's join list shows the table greyed, FULL, and A on it says why and joins
    nothing; the players' channels take nothing of it; the table ended, the row goes."""
    from tests.drawn_text import find
    air = Air()
    consoles = []
    for i in range(3):
        app = make_app(240, 135)
        app.attach_link(lambda end=air.end(), i=i: ls.Session(Channel(end, me=0x446A + i)), b"air")
        app.open_link()
        consoles.append(app)
    host, guest, third = consoles

    def run(ticks):
        for _ in range(ticks):
            for app in consoles:
                app.tick(STEP)

    host.selected = 0  # Host Spite & Malice
    host.press(bt.A)
    guest.selected = 2  # Join a table
    guest.press(bt.A)
    run(30)
    guest.press(bt.A)
    run(60)
    assert host.mode == ui.PLAY and guest.mode == ui.PLAY
    third.selected = 2  # Join a table, after the two sat down
    third.press(bt.A)
    run(200)  # 4 s: longer than a row lasts unheard (GONE_MS)
    tables = third.link.session.tables
    assert tables.count == 1 and tables.host[0] == 0x446A and tables.full[0] == 1
    third.redraw()
    assert find(third, b"FULL") is not None and find(third, b"446A") is not None
    assert find(third, b"Listening for tables...") is None
    third.press(bt.A)  # picked: it says why, and joins nothing
    run(30)
    third.redraw()
    assert find(third, b"Full: two consoles play there") is not None
    assert third.mode == ui.LINK and third.link.session.state == ls.S_WAITING
    assert third.link.session.ch.partner == 0 and host.link.session.ch.partner == 0x446B
    # The two at the table take nothing of it: no frame refused, no message rejected.
    for app in (host, guest):
        s = app.link.session
        assert s.ch.refused == 0 and s.rejected == 0 and s.state == ls.S_PLAYING
    host.link.leave(host.clock)  # the table ends: the host says no more that it is taken
    run(200)
    assert tables.count == 0


def test_a_full_tables_beacon_is_its_offer_as_kind_full_once_a_second():
    room = Room(3)
    host, guest, third = room.sessions
    g_host, g_guest = games.load("spite_malice")(2), games.load("spite_malice")(2)
    guest.join(0)
    host.host(g_host, 5, 0, SEATS, 0)
    room.run(600)
    guest.choose(0)
    guest.accept(g_guest, room.now)
    room.run(400)
    third.join(room.now)
    start = len(room.air.log)
    room.run(3000)
    beacons = [data for writer, data in room.air.log[start:] if writer == 0 and data[11] == data[12] == 0]
    assert beacons and all(b[2] & 0x3F == m.FULL for b in beacons)
    assert 2 <= len(beacons) <= 4  # every FULL_MS
    offer = [data for writer, data in room.air.log[:start] if writer == 0 and data[2] & 0x3F == m.OFFER][0]
    assert beacons[0][13:13 + beacons[0][1]] == offer[13:13 + offer[1]]  # the offer's own bytes
    assert third.tables.count == 1 and third.tables.full[0] == 1
    assert not third.poll(room.now) & ls.OFFER  # never news: nobody is asked about it


def test_consoles_from_before_full_play_on_and_list_nothing(monkeypatch):
    """A console without the FULL kind: listening, it counts the beacon in `rejected` and lists
    nothing (as it heard nothing before); as the guest, its channel refuses its host's FULL
    beacons (counted in `refused`) and the two play on in step."""
    old_admits = pairing.admits

    def admits_before_full(listening, table, partner, me, f_table, f_from, f_to):
        verdict = old_admits(listening, table, partner, me, f_table, f_from, f_to)
        return pairing.REFUSED if verdict == pairing.OWN else verdict
    monkeypatch.setattr(pairing, "admits", admits_before_full)
    old = tuple(mask & ~(1 << m.FULL) for mask in ls.ACCEPTS_GUEST)
    room = Room(3)
    host, guest, third = room.sessions
    g_host, g_guest = games.load("spite_malice")(2), games.load("spite_malice")(2)
    guest.join(0)
    host.host(g_host, 5, 0, SEATS, 0)
    room.run(600)
    guest.choose(0)
    guest.accept(g_guest, room.now)
    room.run(400)
    monkeypatch.setattr(ls, "ACCEPTS_GUEST", old)  # the guest and the third, as they were
    third.join(room.now)
    room.run(3000)
    assert third.tables.count == 0 and third.rejected >= 2 and third.state == ls.S_WAITING
    assert guest.ch.refused >= 2  # its host's FULL beacons
    play_turns(room, ((host, guest, g_host, g_guest),), 10)
    assert host.state == guest.state == ls.S_PLAYING and state_hash(g_host) == state_hash(g_guest)
    assert host.desyncs == guest.desyncs == 0 and guest.rejected == 0
