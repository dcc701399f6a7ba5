"""A stranger on the link (docs/link.md, "Threat model"): a peer that speaks the documented
messages but not as a friendly console would. Each defect found by playing the hostile peer
is a named test here; the fuzzer (tools/reliability/link_fuzz.py) throws thousands of random,
mutated, replayed and out-of-state messages at a real Console while its player presses keys."""

from engine_core import games
from engine_core import records as r
from engine_core import reasons as why
from engine_core.game import V_TURN
from engine_core.gfx.screen import Screen
from engine_core.link import messages as msg
from engine_core.link import session as ls
from engine_core.link.channel import Channel
from engine_core.link.loopback import Wire
from engine_core.link.statehash import state_hash
from engine_core.storage import MemoryStorage
from engine_core.ui import buttons as bt
from engine_core.ui import screens as ui
from engine_core.ui.app import App
from engine_core.console import Console
from simulator import framebuf
from support.fakes.link import FakeWire

STEP = 20


class Peer:
    """The other end: a Session (to speak the protocol as a console would) whose channel also
    sends whatever the test writes."""

    def __init__(self, wire):
        self.session = ls.Session(Channel(wire.end(0), 1))
        self.now = 0

    def host(self, name="spite_malice", seed=77, options=0, players=2):
        cls = games.load(name)
        game = cls(players, options)
        seats = bytes([ls.HERE, ls.THERE] + [ls.COMPUTER] * (players - 2))
        self.session.host(game, seed, options, seats, self.now)
        return game

    def raw(self, kind, payload):
        assert self.session.ch.send(kind, bytes(payload), len(payload))


def console_with_link():
    wire = Wire(5)
    console = Console(App(Screen(240, 240, framebuf)), MemoryStorage())
    console.start()
    console.app.attach_link(lambda: ls.Session(Channel(wire.end(1), 2)), b"wire")
    return wire, console, Peer(wire)


def run(console, peer, ms):
    for _ in range(ms // STEP):
        peer.now += STEP
        peer.session.poll(peer.now)
        console.tick(STEP)


def join(console, peer, name="spite_malice"):
    app = console.app
    app.open_link()
    app.selected = 2  # Join a table
    console.press(bt.A)
    game = peer.host(name)
    run(console, peer, 100)
    console.press(bt.A)  # the table listed: join it
    run(console, peer, 600)
    assert app.mode == ui.PLAY and app.linked()
    return game


def records(console):
    app = console.app
    return (list(app.played), list(app.won), list(app.streak), app.left, bytes(app.settings))


def offer(version=msg.VERSION, game_id=None, rules=1, players=2, options=0, seed=9, seats=(1, 2)):
    d = bytearray(12 + len(seats))
    d[0] = version
    d[1] = games.game_id("spite_malice") if game_id is None else game_id
    d[2] = rules
    d[3] = players
    r.put_i32(d, 4, options)
    r.put_i32(d, 8, seed)
    for i, s in enumerate(seats):
        d[12 + i] = s
    return d


# --- the crash and the hijacks ---

def test_a_bye_then_an_offer_with_other_options_after_a_linked_game_does_not_crash():
    wire, console, peer = console_with_link()
    join(console, peer)  # this console pressed Join a table before the offer came
    peer.session.leave(peer.now)
    run(console, peer, 200)
    assert console.app.mode == ui.LINK_LEFT
    run(console, peer, 1000)  # the question's guard time
    console.press(bt.A)  # play on alone
    peer.host("spite_malice", options=games.options(target=50))
    for _ in range(30):  # a key in every frame, and every frame drawn
        peer.now += STEP
        peer.session.poll(peer.now)
        console.tick(STEP)
        console.press(bt.RIGHT)
        console.app.full = True
        console.app.redraw()
    assert console.app.table is not None


def test_an_offer_while_playing_on_alone_is_a_question_and_no_keeps_the_game():
    wire, console, peer = console_with_link()
    join(console, peer)
    app = console.app
    peer.session.leave(peer.now)
    run(console, peer, 1200)  # the question, and its guard time
    console.press(bt.A)  # play on against the computer
    assert app.mode == ui.PLAY and not app.linked()
    game = app.table.game
    before = state_hash(game)
    peer.host("spite_malice", seed=4242)
    run(console, peer, 400)
    assert app.mode == ui.LINK_ASK  # "X offers Spite & Malice: A join, B no"
    assert app.table.game is game and state_hash(game) == before
    run(console, peer, 1000)  # the question's guard time
    console.press(bt.B)
    run(console, peer, 400)
    assert app.mode == ui.PLAY and app.table.game is game and state_hash(game) == before
    # The no is this console's: the host is not told (its table may be another's to take), and
    # the same table is not asked about again.
    assert peer.session.state == ls.S_WAITING and peer.session.refusal != ls.R_DECLINED
    run(console, peer, 2000)
    assert app.mode == ui.PLAY and app.table.game is game  # not asked again


def test_an_offer_during_a_new_local_game_is_a_question_and_yes_joins():
    wire, console, peer = console_with_link()
    join(console, peer)
    app = console.app
    peer.session.leave(peer.now)
    run(console, peer, 1200)  # the question, and its guard time
    console.press(bt.B)  # to the title
    app.game_index = app.names.index("aces_up")
    app.start_game(1234)
    app.table.play(app.table.game.hint())
    before = state_hash(app.table.game), records(console)
    peer.host("spite_malice", seed=31)
    run(console, peer, 400)
    assert app.mode == ui.LINK_ASK
    assert (state_hash(app.table.game), records(console)) == before  # nothing happened yet
    run(console, peer, 1000)  # the question's guard time
    console.press(bt.A)
    run(console, peer, 600)
    assert app.mode == ui.PLAY and app.linked() and app.table.game.NAME == "spite_malice"
    assert app.left == before[1][3]  # the local game set aside, as from the title: not lost
    assert app.aside is not None and state_hash(app.aside.game) == before[0]


def test_nerts_a_move_whose_mover_is_not_the_senders_seat_is_refused():
    wire = FakeWire()
    cls = games.load("nerts")
    g0, g1 = cls(2), cls(2)
    host, guest = ls.Session(wire.end(0)), ls.Session(wire.end(1))
    guest.join(0)
    host.host(g0, 99, 0, bytes([ls.HERE, ls.THERE]), 0)
    guest.poll(10)
    guest.accept(g1, 10)
    host.poll(20)
    before = state_hash(g0)
    flip = 0xFF0100  # p1's stock flip (ACTION, flip, player 0)
    assert g0.mover(flip) == 0 and g0.is_legal(flip)
    d = bytearray(11)
    d[0] = guest.gen
    d[1] = 1  # the guest's own seat byte...
    d[2], d[3], d[4] = flip >> 16, (flip >> 8) & 0xFF, flip & 0xFF  # ...for the host's move
    r.put_i32(d, 5, 50)
    r.put_u16(d, 9, 1)
    wire.end(1).send(ls.K_MOVE, d, 11)
    host.poll(60)
    assert state_hash(g0) == before
    assert host.refused == 1 and host.repairs == 0


def offered(end, payload):
    """An open table at `end` (of a FakeWire) offering `payload` to anyone in range."""
    end.open_table(0x77, ls.K_OFFER, payload, len(payload))


def test_spite_malice_offers_whose_seats_are_not_one_each_are_refused():
    for seats in ((ls.THERE, ls.HERE), (ls.COMPUTER, ls.THERE), (ls.THERE, ls.THERE), (ls.HERE, ls.HERE),
                  (ls.HERE,), (ls.HERE, 7)):
        wire = FakeWire()
        guest = ls.Session(wire.end(1))
        guest.join(0)
        offered(wire.end(0), offer(seats=seats))
        assert not guest.poll(10) & ls.OFFER, seats
        assert guest.rejected == 1 and guest.tables.count == 0
    # The offer cut short before its seats.
    guest = ls.Session(wire.end(1))
    guest.join(0)
    offered(wire.end(0), offer()[:13])
    assert not guest.poll(10) & ls.OFFER


def test_negative_offer_options_are_refused():
    wire = FakeWire()
    guest = ls.Session(wire.end(1))
    guest.join(0)
    offered(wire.end(0), offer(options=-1))
    assert not guest.poll(10) & ls.OFFER
    assert guest.rejected == 1 and guest.tables.count == 0
    assert not wire.queues[0]  # not listed, and not answered: a listening console says nothing


def linked_sessions(name, seed=11):
    wire = FakeWire()
    cls = games.load(name)
    g0, g1 = cls(2), cls(2)
    host, guest = ls.Session(wire.end(0)), ls.Session(wire.end(1))
    guest.join(0)
    host.host(g0, seed, 0, bytes([ls.HERE, ls.THERE]), 0)
    guest.poll(10)
    guest.accept(g1, 10)
    host.poll(20)
    guest.poll(20)
    return wire, (g0, g1), (host, guest)


def assert_state_refused(host, guest, g1):
    """The host sends its (broken) state: the guest refuses it and its game stays as it was."""
    before = state_hash(g1)
    guest.repair.repair(before)  # the guest found a disagreement and asked
    host.repair.send_state()
    host.poll(30)
    guest.poll(40)
    assert state_hash(g1) == before and guest.rejected >= 1


def test_a_spite_malice_state_with_a_complete_centre_stack_is_refused():
    wire, (g0, g1), (host, guest) = linked_sessions("spite_malice")
    p = g0.piles
    stock, centre = g0.pile_id("stock"), g0.pile_id("center1")
    while p.size[centre] < 12:
        p.push(centre, p.pop(stock))
    assert_state_refused(host, guest, g1)
    assert g1.hint() >= -1  # the hint still works on the guest's table


def test_a_nerts_state_that_breaks_the_position_check_is_refused():
    wire, (g0, g1), (host, guest) = linked_sessions("nerts")
    p = g0.piles
    a, b = g0.pile_id("p1.stock"), g0.pile_id("p2.stock")
    x, y = p.pop(a), p.pop(b)  # each stock gets a card of the other player's deck
    p.push(a, y)
    p.push(b, x)
    assert g0.check_position()
    assert_state_refused(host, guest, g1)


def test_a_state_of_another_seed_is_refused():
    wire, (g0, g1), (host, guest) = linked_sessions("spite_malice")
    g0.seed += 1
    assert_state_refused(host, guest, g1)


def test_resync_is_answered_only_when_the_hashes_differ_and_a_few_times_a_minute():
    wire, (g0, g1), (host, guest) = linked_sessions("spite_malice")
    mover, game = (host, g0) if g0.vars[V_TURN] == 0 else (guest, g1)
    d = bytearray(5)
    d[0] = host.gen
    r.put_i32(d, 1, state_hash(g0))  # "we disagree", with the host's very own hash
    wire.end(1).send(ls.K_RESYNC, d, 5)
    assert not host.poll(100) & ls.DESYNC
    assert host.repairs == 0 and host.rejected == 1
    now = 100
    for i in range(40):  # a flood of differing hashes, a second of them
        d[0] = host.gen
        r.put_i32(d, 1, (state_hash(g0) + 1 + i) & msg.CLOCK_MASK)
        wire.end(1).send(ls.K_RESYNC, d, 5)
        now += 25
        host.poll(now)
    assert 1 <= host.repairs <= ls.RESYNCS_PER_MINUTE


# --- the clock ---

def test_the_app_clock_wraps_where_the_channel_and_session_do():
    assert msg.CLOCK_MASK == 0x3FFFFFFF
    app = App(Screen(240, 240, framebuf))
    app.clock = msg.CLOCK_MASK - 5
    app.tick(10)
    assert app.clock == 4


def test_play_goes_on_across_the_clock_wrap():
    """Two consoles whose clocks pass the wrap mid-game: no pause, no resend storm, in step.
    (The app's clock once wrapped at 0x3FFFFFF, the channel's at 2**30: the first start.)"""
    from tests.test_link_ui import LINK_GAMES, linked_pair, settle, tick, to_link_screen
    for at in (0x3FFFFFF - 4000, msg.CLOCK_MASK - 4000):
        wire, host, guest = linked_pair(3, faults=False)
        host.clock = guest.clock = at
        for app in (host, guest):
            to_link_screen(app)
        host.selected = LINK_GAMES.index("spite_malice")
        host.press(bt.A)
        guest.selected = 2
        guest.press(bt.A)
        tick(wire, (host, guest), 100)
        guest.press(bt.A)  # the table listed: join it
        tick(wire, (host, guest), 600)
        assert host.mode == guest.mode == ui.PLAY
        resent = host.link.session.ch.resent + guest.link.session.ch.resent
        for _ in range(8000 // STEP):  # across the wrap, and then some
            tick(wire, (host, guest), STEP)
            assert not host.link_paused() and not guest.link_paused()
        assert host.link.session.ch.resent + guest.link.session.ch.resent == resent
        for _ in range(4):
            app = host if host.table.game.turn() == 0 else guest
            app.table.play(app.table.game.hint())
            settle(wire, (host, guest))
            assert state_hash(host.table.game) == state_hash(guest.table.game)
        assert host.link.session.state == guest.link.session.state == ls.S_PLAYING


# --- silence ---

def test_silence_is_shown_within_5_s_on_every_screen_and_a_key_is_answered():
    from tests.test_link_ui import start, tick
    wire, host, guest = start("spite_malice", seed=9, faults=False)
    wire.cut(True)
    tick(wire, (host, guest), 5100)  # 5 s after the last frame heard (one may arrive just after the cut)
    for app in (host, guest):
        assert app.link_paused()
        assert app.table.message == why.LINK_SILENT
    guest.press(bt.START)  # the pause menu: the notice stays on it
    assert guest.mode == ui.PAUSE
    tick(wire, (host, guest), 100)
    assert guest.link.notice() == why.LINK_SILENT
    guest.press(bt.DOWN)
    assert guest.link.notice() == why.LINK_SILENT
    wire.cut(False)
    tick(wire, (host, guest), 1500)
    assert guest.link.notice() == 0 and not guest.link_paused()


def test_news_of_an_accepted_table_is_forgotten_when_the_player_joins_again():
    """A table accepted and, before the next poll, Join a table pressed again: the old STARTED
    must not start a game the session no longer holds (the fuzzer found it)."""
    wire = FakeWire()
    host, guest = ls.Session(wire.end(0)), ls.Session(wire.end(1))
    guest.join(0)
    host.host(games.load("spite_malice")(2), 8, 0, bytes([ls.HERE, ls.THERE]), 0)
    assert guest.poll(10) & ls.OFFER
    guest.accept(games.load("spite_malice")(2), 10)
    guest.join(20)
    assert not guest.poll(30) & ls.STARTED


# --- the fuzzer ---

def test_a_hostile_peer_sends_10000_messages_and_every_invariant_holds():
    from tools.reliability.link_fuzz import fuzz_suite
    got = fuzz_suite(10000, seed=7)
    assert got["failures"] == 0, got
    assert got["messages"] == 10000
    # The stranger's table was played, not only refused (about 2,700 of 6,700 steps: a table is
    # picked from the join list, offers come every 500 ms, and a stranger's BYE leaves the
    # console alone until the stranger offers again).
    assert got["steps linked"] > 2000
    assert got["moves applied from the link"] > 300 and got["rejected"] > 5000
    # A quarter of the messages came as another table's or another console's: the pairing
    # turned them away (refused frames), and the watch saw nothing change.
    assert got["of other tables or consoles"] > 2000 and got["frames refused"] > 1500


def test_the_fuzzers_watch_takes_a_table_the_link_left_for_a_table_against_the_computer():
    """Seed 2, the console joining: the stranger leaves, the player plays on alone (sides
    swapped: the computer now plays p2, the seat the session still calls this console's),
    and the computer's moves, made in a tick since the table works toward them there, were
    counted as moves from the link "in this console's turn": 334 such failures in the soak's
    1,000,000 messages, none of them the link's."""
    from tools.reliability.link_fuzz import fuzz
    got = fuzz("spite_malice", False, 2000, 2)
    assert got["failures"] == 0, got


def test_the_fuzzers_watch_fails_when_an_invariant_breaks():
    from tools.reliability import link_fuzz as lf
    wire, console, peer = console_with_link()
    join(console, peer)
    watch = lf.Watch(console)
    watch.step(None, ())
    assert watch.failures == 0
    game = console.app.table.game
    p = game.piles
    stock = game.pile_id("stock")
    kept = p.cards[p.start[stock]]
    p.cards[p.start[stock]] = p.cards[p.start[stock] + 1]  # a card twice, another gone
    watch.step(None, ())
    assert watch.failures >= 1 and "card" in watch.first
    p.cards[p.start[stock]] = kept
    watch = lf.Watch(console)
    tick = console.tick

    def tick_and_count(ms):  # the records change in a step with no key pressed
        tick(ms)
        console.app.played[0] += 1
    console.tick = tick_and_count
    watch.step(None, ())
    assert "records" in watch.first


def test_a_stranger_over_tcp_against_the_simulators_link(tmp_path):
    """The stranger over a real TCP socket, against `python -m simulator --link` (headless,
    its player hosting and pressing keys): the simulator ends its key script, writes its
    screenshot and exits cleanly; the simulator's table was taken and the stranger's junk went through.
    The script's LINKED has the simulator's table wait for the stranger to take it, and HANGUP
    has it play on until the stranger closes the connection, which it does once 150 of its
    messages are acknowledged: neither process counts on a number of the other's steps, so
    their relative speed does not matter."""
    import os
    import random
    import subprocess
    import sys
    import time
    from simulator import link_socket
    from tools.reliability.link_fuzz import Stranger
    server = link_socket.listen(0)
    channel = Channel(server)
    taken = [0]

    def write(kind, data):
        if channel.send(kind if 1 <= kind <= 63 else 63, bytes(data), min(len(data), 120)):
            taken[0] += 1

    stranger = Stranger(channel, random.Random(3), "spite_malice", write)
    stranger.session.join(stranger.now)  # it takes the simulator's table
    keys = "UP A A LINKED " + "WAIT X A A B RIGHT WAIT Y A " * 10 + "HANGUP " + "X A B WAIT " * 5
    png = tmp_path / "after.png"
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    proc = subprocess.Popen([sys.executable, "-m", "simulator", "--headless", "--link", "127.0.0.1:%d" % server.port,
                             "--data-dir", str(tmp_path / "data"), "--keys", keys, "--screenshot", str(png)],
                            cwd=root, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    started = 0
    last = time.monotonic()
    deadline = last + 120
    while proc.poll() is None and time.monotonic() < deadline:
        now = time.monotonic()
        started |= stranger.step(int((now - last) * 1000) or 1) & ls.STARTED
        last = now
        if started and taken[0] < 150:  # the table first, then the junk
            stranger.play()
            stranger.mischief(stranger.session.gen)
        elif taken[0] >= 150 and channel.pending() == 0:
            server.close()  # all of it acknowledged: hang up, and the simulator's script goes on
        time.sleep(0.002)
    out, err = proc.communicate(timeout=10)
    server.close()
    assert proc.returncode == 0, err.decode()
    assert png.exists() and started and taken[0] >= 150, (started, taken[0])


# --- the docs and the code say the same ---

STATES = {"S_IDLE": ls.S_IDLE, "S_WAITING": ls.S_WAITING, "S_PLAYING": ls.S_PLAYING, "S_PAUSED": ls.S_PAUSED,
          "S_LEFT": ls.S_LEFT, "S_DESYNC": ls.S_DESYNC}


def doc_rows(first_header):
    from pathlib import Path
    lines = Path("docs/link.md").read_text().split("\n")
    at = lines.index(first_header)
    rows = []
    for line in lines[at + 2:]:
        if not line.startswith("|"):
            return rows
        rows.append([cell.strip() for cell in line.strip("|").split("|")])


def test_the_docs_table_of_accepted_kinds_is_the_sessions():
    kinds = {"OFFER": msg.OFFER, "ACCEPT": msg.ACCEPT, "REFUSE": msg.REFUSE, "MOVE": msg.MOVE, "UNDO": msg.UNDO,
             "HASH": msg.HASH, "CLOCK": msg.CLOCK, "RESYNC": msg.RESYNC, "STATE": msg.STATE, "BYE": msg.BYE,
             "FULL": msg.FULL}
    seen = set()
    for states, host, guest in doc_rows("| state | as host, takes | as guest, takes |"):
        for name in states.split(", "):
            state = STATES[name]
            seen.add(state)
            for table, text in ((ls.ACCEPTS_HOST, host), (ls.ACCEPTS_GUEST, guest)):
                assert table[state] == sum(1 << kinds[k] for k in text.split(", ")), (name, text)
    assert seen == set(STATES.values())


def test_the_docs_table_of_transitions_is_the_sessions():
    rows = doc_rows("| event | in | to |")
    assert len(rows) == len(ls.TRANSITIONS)
    for (event, where, to), (code, mask, target) in zip(rows, ls.TRANSITIONS):
        assert getattr(msg, event.split(":")[0]) == code
        assert mask == (0x3F if where == "any" else sum(1 << STATES[n] for n in where.split(", "))), event
        assert target == (-1 if to == "the state before the pause" else STATES[to]), event


# --- allocation: every refusal path under heap_lock on MicroPython ---

def hostile_heap_lock():
    """Two linked consoles as test_link_ui's heap-lock run makes them, then the stranger's part."""
    from tests.test_link_ui import LINKED_HEAP_LOCK
    return LINKED_HEAP_LOCK[:LINKED_HEAP_LOCK.index("def play(")] + HOSTILE_HEAP_LOCK


HOSTILE_HEAP_LOCK = """
from engine_core import records as r
from engine_core import save
from engine_core.link import messages as m
from engine_core.link.statehash import state_hash

hs = host.link.session
gs = guest.link.session
game = host.table.game
junk = []  # (from the host?, kind, bytes): every one refused
def add(from_host, kind, data):
    junk.append((from_host, kind, bytearray(data)))
add(True, m.MOVE, bytes([0, 1, 0xFF, 1, 0] + [0] * 6 * NERTS))  # the guest's own seat
add(True, m.MOVE, bytes([0, 9, 1, 2, 3]))  # no such seat
add(True, m.MOVE, bytes([0, 0, 1]))  # cut short
add(True, m.UNDO, bytes([0, 1]))
add(True, m.OFFER, bytes([1, 3, 1, 2, 0, 0, 0, 0, 0, 0, 0, 9, 1, 2]))  # an offer in play
add(True, m.ACCEPT, bytes(7))
add(True, m.HASH, bytes([0, 0x80, 0, 0, 1, 0, 0, 0, 1]))  # a negative key
add(True, m.BYE, bytes(1))  # a BYE with a byte
add(False, m.STATE, bytes(20))  # a host does not take it
add(False, m.OFFER, bytes([1, 3, 1, 2, 0x80, 0, 0, 0, 0, 0, 0, 9, 1, 2]))
add(False, m.CLOCK, bytes([0, 0, 0, 0]))
add(False, m.REFUSE, bytes([9]))
mine = bytearray(5)
r.put_i32(mine, 1, state_hash(game))
add(False, m.RESYNC, mine)  # the host's own hash
add(True, m.RESYNC, bytes(mine))  # "we disagree" from the host, with the guest's own hash
if not NERTS:  # a state the position check refuses: a complete centre stack
    p = game.piles
    stock = game.pile_id("stock")
    centre = game.pile_id("center1")
    while p.size[centre] < 12:
        p.push(centre, p.pop(stock))
    record = bytearray(save.BUFFER_SIZE)
    total = save.encode_game(game, 0, record)
    while p.size[centre] > 0:
        p.push(stock, p.pop(centre))
    at = 0
    while at < total:
        n = min(m.STATE_DATA, total - at)
        chunk = bytearray(m.STATE_HEAD + n)
        chunk[0] = gs.gen
        r.put_u16(chunk, 1, at)
        r.put_u16(chunk, 3, total)
        for i in range(n):
            chunk[m.STATE_HEAD + i] = record[at + i]
        junk.append((True, m.STATE, chunk))
        at += n

def stranger(rounds):
    for k in range(rounds):
        for from_host, kind, data in junk:
            ch = hs.ch if from_host else gs.ch
            if from_host and (kind == m.MOVE or kind == m.UNDO or kind == m.HASH or kind == m.STATE
                              or kind == m.RESYNC):
                data[0] = gs.gen
            ch.send(kind, data, len(data))
            ticks(2)

stranger(1)                   # every path once before the lock
before = (gs.rejected, hs.rejected, gs.refused)
g_hash = state_hash(guest.table.game)
result = "not run"
gc.collect()
micropython.heap_lock()
try:
    stranger(3)
    result = "no allocation"
except MemoryError:
    result = "allocated"
micropython.heap_unlock()
print(result, gs.rejected - before[0], hs.rejected - before[1], gs.refused - before[2],
      state_hash(guest.table.game) == g_hash, gs.repairs, hs.repairs)
"""


def test_every_refusal_allocates_nothing_on_micropython():
    from tests.helpers import run_mpy_ok
    for game, nerts in (("spite_malice", 0), ("nerts", 1)):
        row = 0 if game == "spite_malice" else 1
        out = run_mpy_ok(hostile_heap_lock().replace("ROW", str(row)).replace("NERTS", str(nerts))).split()
        assert out[0:2] == ["no", "allocation"], out
        assert int(out[2]) >= 3 * 7 and int(out[3]) >= 3 * 4, out  # refused, at the guest and at the host
        assert int(out[4]) >= 3, out  # the guest's own seat's move, from the host: refused
        if game == "spite_malice":
            assert out[5] == "True", out  # the refused state left the guest's game as it was
        assert out[6:8] == ["0", "0"], out  # and nothing was repaired


# --- meaning, not layout: well-formed messages that say what the sender may not ---

def test_a_second_accept_changes_nothing():
    """A second A on a table already answered (the join list still up for a frame) once made
    the session take a fresh, undealt game and a table with no cards on it."""
    wire, (g0, g1), (host, guest) = linked_sessions("spite_malice")
    assert guest.state == ls.S_PLAYING
    before = state_hash(g1)
    assert guest.accept(games.load("spite_malice")(2), 30) is False
    assert guest.game is g1 and state_hash(g1) == before
    assert sum(g1.piles.size[p] for p in range(g1.piles.count)) == 104


def test_a_second_accept_of_a_nerts_table_changes_nothing():
    """The hostile peer's "a card missing or twice in nerts" (the console hosting, then taking
    the stranger's next table): the same second accept, on a Nerts table."""
    wire, (g0, g1), (host, guest) = linked_sessions("nerts")
    assert guest.state == ls.S_PLAYING
    before = state_hash(g1)
    assert guest.accept(games.load("nerts")(2), 30) is False
    assert guest.game is g1 and state_hash(g1) == before
    assert sum(g1.piles.size[p] for p in range(g1.piles.count)) == 104


def test_a_key_pressed_twice_on_the_offer_question_leaves_the_dealt_table():
    wire, console, peer = console_with_link()
    app = console.app
    join(console, peer)
    peer.session.leave(peer.now)
    run(console, peer, 200)
    app.link.play_on_alone(app) if app.mode == ui.LINK_LEFT else None
    peer.host("spite_malice", seed=78)
    run(console, peer, 600)
    assert app.mode == ui.LINK_ASK
    console.press(bt.A)  # yes: the table is taken
    console.press(bt.A)  # and the key again, before the table is up
    run(console, peer, 200)
    game = app.table.game
    assert sum(game.piles.size[p] for p in range(game.piles.count)) == 104
    assert game is app.link.session.game


def send_state_unasked(host, guest, now=30):
    host.repair.send_state()
    host.poll(now)
    guest.poll(now + 10)


def test_a_state_nobody_asked_for_is_refused_and_changes_nothing():
    """No disagreement, no RESYNC: the host's STATE (here with the guest's own payoff pile
    swapped for the host's) was loaded, desyncs 0, nothing shown."""
    wire, (g0, g1), (host, guest) = linked_sessions("spite_malice")
    a, b = g0.pile_id("p1.payoff"), g0.pile_id("p2.payoff")
    p = g0.piles
    x, y = p.pop(a), p.pop(b)
    p.push(a, y)
    p.push(b, x)
    before = state_hash(g1)
    send_state_unasked(host, guest)
    assert state_hash(g1) == before and guest.rejected >= 1 and guest.repairs == 0


def test_a_state_asked_for_may_not_change_this_consoles_own_payoff():
    wire, (g0, g1), (host, guest) = linked_sessions("spite_malice")
    a, b = g0.pile_id("p1.payoff"), g0.pile_id("p2.payoff")
    p = g0.piles
    x, y = p.pop(a), p.pop(b)  # the guest's (p2) payoff top becomes the host's card
    p.push(a, y)
    p.push(b, x)
    assert not g0.check_position()
    assert_state_refused(host, guest, g1)
    assert guest.repairs == 0


def test_a_disagreement_the_host_finds_is_told_and_the_guest_asks():
    """A move of the guest's seat the host cannot take: the host says RESYNC with its hash,
    the guest compares, asks, and loads the state it asked for."""
    wire, (g0, g1), (host, guest) = linked_sessions("spite_malice")
    host.repair.refuse_move(True)
    now = 30
    for _ in range(6):
        now += 10
        host.poll(now)
        guest.poll(now)
    assert guest.repairs == 0  # in step: the guest's hash is the host's, nothing to ask
    p = g1.piles  # now they differ: the guest's centre gets a card the host's has not
    host.repair.told_at = -10 * msg.ASK_MS
    host.repair.refuse_move(True)
    c = g1.pile_id("center1")
    p.push(c, p.pop(g1.pile_id("stock")))
    before = state_hash(g1)
    for _ in range(10):
        now += 10
        host.poll(now)
        guest.poll(now)
    assert guest.repairs == 1 and state_hash(g1) == state_hash(g0) != before
