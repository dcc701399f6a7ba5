"""Nerts times from a stranger (docs/link.md, "Threat model"): a peer's move times go forward
only, never before what the peer said was final (its horizon), no further than 5 s
(CLOCK_TOLERANCE_MS) ahead of this console's clock, at most 32 moves of a seat in any second.
A move that breaks one is refused (counted) and changes nothing."""

from engine_core import games
from engine_core import records as r
from engine_core.link import session as ls
from engine_core.link.realtime import CLOCK_TOLERANCE_MS, MOVES_PER_S
from engine_core.link.statehash import state_hash
from support.fakes.link import FakeWire

FLIP_P2 = 0xFF0101  # p2's stock flip (ACTION, flip, player 1): legal at any time of the round


def nerts_table(seed=99):
    """A host (this console, seat 0) and a guest whose end the test writes by hand."""
    wire = FakeWire()
    cls = games.load("nerts")
    g0, g1 = cls(2), cls(2)
    host, guest = ls.Session(wire.end(0)), ls.Session(wire.end(1))
    guest.join(0)
    host.host(g0, seed, 0, bytes([ls.HERE, ls.THERE]), 0)
    guest.poll(10)
    guest.accept(g1, 10)
    host.poll(20)
    assert host.state == ls.S_PLAYING
    return wire, g0, host, guest


def send_move(wire, guest, move, t, ctr, seat=1):
    d = bytearray(11)
    d[0] = guest.gen
    d[1] = seat
    d[2], d[3], d[4] = move >> 16, (move >> 8) & 0xFF, move & 0xFF
    r.put_i32(d, 5, t)
    r.put_u16(d, 9, ctr)
    assert wire.end(1).send(ls.K_MOVE, d, 11)


def send_clock(wire, guest, t):
    d = bytearray(5)
    d[0] = guest.gen
    r.put_i32(d, 1, t)
    assert wire.end(1).send(ls.K_CLOCK, d, 5)


def two_aces():
    """A seed where p1 and p2 can each play an ace onto the first foundation place."""
    cls = games.load("nerts")
    for seed in range(1, 400):
        g = cls(2)
        g.deal(seed)
        found = []
        for p in (0, 1):
            n = g.moves_of(p, g.scratch)
            found.append([g.scratch[i] for i in range(n) if (g.scratch[i] >> 8) & 0xFF == g.found0])
        if found[0] and found[1]:
            return seed, found[0][0], found[1][0]
    raise AssertionError("no seed")


def test_a_move_dated_before_the_peers_own_horizon_cannot_take_a_place_played_here():
    seed, mine, theirs = two_aces()
    wire, g0, host, guest = nerts_table(seed)
    g0.tick(1000)
    send_clock(wire, guest, 1000)  # the peer: "none of my later moves is older than 1000"
    host.poll(30)
    g0.tick(200)
    g0.apply(mine)  # at 1200, onto the first foundation place
    host.local_move(mine, 40)
    host.poll(50)
    send_move(wire, guest, theirs, 999, 1)  # one millisecond before its own word, and before ours
    host.poll(60)
    assert g0.piles.size[g0.found0] == 1 and g0.piles.top(g0.found0) // 52 == 0  # still ours
    assert host.refused == 1 and host.timeline.skipped == 0


def test_four_hundred_flips_a_millisecond_apart_are_refused_past_the_fastest_rate():
    wire, g0, host, guest = nerts_table()
    g0.tick(1000)
    host.poll(30)
    for i in range(400):
        send_move(wire, guest, FLIP_P2, 1001 + i, i + 1)
    host.poll(40)
    assert host.refused == 400 - MOVES_PER_S
    assert host.timeline.count <= MOVES_PER_S
    # A second later the seat may move again.
    send_move(wire, guest, FLIP_P2, 1001 + 1000, 401)
    g0.tick(1000)
    host.poll(50)
    assert host.refused == 400 - MOVES_PER_S


def test_a_move_or_horizon_27_hours_ahead_is_refused_and_changes_nothing():
    wire, g0, host, guest = nerts_table()
    g0.tick(1000)
    host.poll(30)
    before = state_hash(g0)
    ahead = 27 * 3600 * 1000
    send_clock(wire, guest, ahead)
    host.poll(40)
    assert host.rejected == 1 and host.realtime.peer_h < ahead
    send_move(wire, guest, FLIP_P2, ahead, 1)
    send_move(wire, guest, FLIP_P2, 1000 + CLOCK_TOLERANCE_MS + 1, 2)
    host.poll(50)
    assert host.refused == 2 and state_hash(g0) == before and host.timeline.count == 0
    send_move(wire, guest, FLIP_P2, 1000 + CLOCK_TOLERANCE_MS, 3)  # the tolerance itself: believed
    host.poll(60)
    assert host.refused == 2 and state_hash(g0) != before


def test_times_going_backwards_are_refused():
    wire, g0, host, guest = nerts_table()
    g0.tick(2000)
    host.poll(30)
    send_move(wire, guest, FLIP_P2, 1500, 1)
    host.poll(40)
    after_first = state_hash(g0)
    send_move(wire, guest, FLIP_P2, 1200, 2)
    host.poll(50)
    assert host.refused == 1 and state_hash(g0) == after_first
    send_clock(wire, guest, 1400)
    host.poll(60)
    assert host.rejected == 1 and host.realtime.peer_h == 1500


def test_each_clock_follows_the_other_so_pauses_do_not_add_up():
    wire, g0, host, guest = nerts_table()
    g1 = guest.game
    g0.tick(3000)
    g1.tick(2000)  # the guest paused half a second longer, twice
    for now in range(30, 400, 10):
        host.poll(now)
        guest.poll(now)
    assert g1.clock_ms >= g0.clock_ms - 250
    g1.tick(800)  # now the host paused longer
    for now in range(400, 800, 10):
        host.poll(now)
        guest.poll(now)
    assert g0.clock_ms >= g1.clock_ms - 250
    # A peer cannot make this clock run: it follows at most once a second of its own time.
    clock = g0.clock_ms
    for i in range(20):
        send_clock(wire, guest, g0.clock_ms + CLOCK_TOLERANCE_MS)
        host.poll(800 + i)
    assert g0.clock_ms <= clock + 2 * CLOCK_TOLERANCE_MS


def test_moves_made_while_the_guest_asks_for_the_state_are_kept_and_sent_when_it_stops_asking():
    """The hostile peer's "an illegal move applied from the link": a move the guest's player
    made while it waited for the host's state was read from the journal and left out of the
    window; when the host did not answer and the guest played on, the next hash undid the
    window from the journal's top, taking back that move instead of the window's own, and
    applied the window's move a second time."""
    wire, g0, host, guest = nerts_table(seed=7)
    g1 = guest.game
    q = p = 0xFF0101  # p2's stock flips
    now = 20

    def both(ms, hosts=True):
        nonlocal now
        now += ms
        if hosts:
            g0.tick(ms)
        g1.tick(ms)
        guest.poll(now)
        host.poll(now)

    for _ in range(95):
        both(20)  # 1,900 ms on both clocks
    for _ in range(10):
        both(20, hosts=False)  # the guest 200 ms ahead: its next move is past the host's horizon
    g1.apply(q)
    guest.local_move(q, now)
    both(0)
    assert guest.timeline.count == 1 and guest.timeline.time[0] >= 2000
    guest.repair.lost()  # the guest asks for the host's state; the host, in step, does not answer
    assert guest.asked
    g1.apply(p)  # the player plays on meanwhile
    guest.local_move(p, now)
    for _ in range(300):
        both(20)
        if not guest.asked:
            break
    assert not guest.asked
    for _ in range(100):
        both(20)
    ref = games.load("nerts")(2)
    ref.deal(7)
    ref.apply(q)
    ref.apply(p)
    assert state_hash(g1) == state_hash(ref)  # both flips, each once
    assert state_hash(g0) == state_hash(g1) and host.repairs == 0
