"""A hostile console at a party table (docs/link.md, "The party table" and "Threat model: the
peer is a stranger"): a guest that never acknowledges, one that spends the host's re-sends at
once, a host that rewrites a guest's own Nerts pile, deals its seat again in the middle of a
round or takes it back a round, or names seats that are not there, and a
TCP client that takes a seat and says nothing. Each of them costs the honest consoles at most
what docs/link.md says."""

from engine_core import OVER
from engine_core import records as r
from engine_core.game import V_SCORE, V_STATUS
from engine_core.link import messages as m
from engine_core.link import session as ls
from engine_core.link.statehash import state_hash
from tools.reliability.party_play import DEAL_MOVE, Party


def test_a_hosts_away_byte_names_only_the_other_guests_seats():
    t = Party(consoles=4, seed=47)
    assert t.start()
    for _ in range(100):
        t.frame()
    guest = t.sessions[2]
    host = t.sessions[0]
    c = bytearray(6)
    c[0] = host.gen
    r.put_i32(c, 1, guest.realtime.peer_h + 100)
    c[5] = 0xFF  # every seat, this guest's own and the host's among them, and four that do not exist
    assert t.hub.legs[1].send(m.CLOCK, c, 6)
    for _ in range(3):
        t.frame(False)
    assert guest.away == 1 << 1 | 1 << 3, hex(guest.away)  # the other guests' seats only
    assert guest.state == ls.S_PLAYING


def nerts_pile(game, seat):
    p = game.pile_id("p%d.nerts" % (seat + 1))
    at = game.piles.start[p]
    return bytes(game.piles.cards[at:at + game.piles.size[p]])


def test_a_host_cannot_rewrite_a_guests_own_nerts_pile_by_changing_a_score():
    t = Party(consoles=4, seed=31)
    assert t.start()
    for _ in range(150):
        t.frame()
    for _ in range(50):
        t.frame(False)
    g = t.games[0]
    guest = t.sessions[2]
    before = nerts_pile(t.games[2], 2)
    assert nerts_pile(g, 2) == before
    nerts, stock = g.pile_id("p3.nerts"), g.pile_id("p3.stock")
    a, b = g.piles.start[nerts], g.piles.start[stock]
    g.piles.cards[a], g.piles.cards[b] = g.piles.cards[b], g.piles.cards[a]  # every card still once
    g.vars[V_SCORE] += 1  # as if a round had ended
    t.sessions[0].repair.send_state()
    for _ in range(150):
        t.frame(False)
    assert nerts_pile(t.games[2], 2) == before
    assert guest.repairs == 0 and guest.rejected >= 1


V_ROUND = 20  # (engine_core.games.nerts_moves: a party table's rounds dealt)


def hosts_word_flowing(t):
    """The table after 150 frames of play, then with nobody moving (each console's clock
    running, so the host's word reaches every guest): a guest's own seat stands still."""
    assert t.start()
    for _ in range(150):
        t.frame()
    for i in range(t.n):
        t.acting[i] = 0
    for _ in range(50):
        t.frame()


def test_a_host_cannot_deal_a_guests_seat_again_in_the_middle_of_a_round():
    """A hostile host lays every seat out afresh in the middle of a round (a deal nobody's
    Nerts called for), its state saying a score moved on, or the round counter too: the guest,
    its round not over and the host's word reaching it, refuses both; its seat stays as its
    own moves left it."""
    for rounds in (0, 1):
        t = Party(consoles=4, seed=31)
        hosts_word_flowing(t)
        g = t.games[0]
        guest = t.sessions[2]
        before = nerts_pile(t.games[2], 2)
        assert nerts_pile(g, 2) == before and g.vars[V_STATUS] != OVER
        g._next_round()  # every card back to its owner's stock and laid out again
        g.vars[V_SCORE] += 1  # as if a round had ended
        g.vars[V_ROUND] += rounds
        t.sessions[0].repair.send_state()
        for _ in range(200):  # 4 s: the guest asks again, and is refused again
            t.frame()
        assert nerts_pile(t.games[2], 2) == before, rounds
        assert guest.repairs == 0 and guest.rejected >= 1, (rounds, guest.repairs)


def test_a_host_cannot_take_a_guest_back_to_an_earlier_round():
    """A state of a round before the guest's (a restart) is refused, even with the guest's
    own pile as it is."""
    t = Party(consoles=4, seed=33)
    for g in t.games:
        g.vars[V_ROUND] = 2  # (as after two deals: the same on every console)
    hosts_word_flowing(t)
    for g in t.games:
        g.vars[V_ROUND] = 2
    for _ in range(50):
        t.frame()
    g = t.games[0]
    guest = t.sessions[2]
    g.vars[V_ROUND] = 1
    t.sessions[0].repair.send_state()
    for _ in range(200):
        t.frame()
    assert guest.repairs == 0 and guest.rejected >= 1 and t.games[2].vars[V_ROUND] == 2


def dealt_while_away():
    """Seed 32's table of four: guest 2 goes away, the round ends at the host (a Nerts call
    the guest does not hear) and the host deals the next; then guest 2's wire is mended."""
    t = Party(consoles=4, seed=32)
    assert t.start()
    for _ in range(150):
        t.frame()
    t.wires[1].cut(True)
    for _ in range(350):
        t.frame()
    host = t.sessions[0]
    assert host.away == 1 << 2
    g = t.games[0]
    g._end_round(1)
    g.vars[V_STATUS] = OVER
    g.apply(DEAL_MOVE)
    host.local_move(DEAL_MOVE, t.now)
    t.wires[1].cut(False)
    return t


def test_a_guest_away_when_the_round_ended_takes_the_hosts_next_deal():
    """The honest case the pile check lets through: the host dealt the next round while the
    guest was away; its seat is as that deal left it."""
    t = dealt_while_away()
    host, g = t.sessions[0], t.games[0]
    for _ in range(600):
        t.frame(False)
    guest = t.sessions[2]
    assert host.away == 0 and guest.repairs >= 1
    assert nerts_pile(t.games[2], 2) == nerts_pile(g, 2) and len(nerts_pile(g, 2)) == 13
    assert state_hash(t.games[2]) == state_hash(g)


def test_a_guest_that_plays_its_new_nerts_pile_at_once_still_takes_the_hosts_state_after():
    """The honest case next to it: the guest takes the host's next deal and at once, before
    its next poll, plays its Nerts pile's top card; the host, which has not heard of that
    move, re-sends its state (a new generation: the move is dropped). The guest takes that
    state, its card back on its pile, as the pile's base is the pile as loaded (or dealt).
    Before, the base was found only after that move, a card short, and the guest refused the
    host's state for good: out of step for the rest of the round."""
    from array import array
    from engine_core.games.nerts_moves import NERTS, STRIDE
    t = dealt_while_away()
    host, guest, g, mine = t.sessions[0], t.sessions[2], t.games[0], t.games[2]
    for _ in range(600):
        t.frame(False)
        if guest.repairs:
            break
    assert guest.repairs == 1 and nerts_pile(mine, 2) == nerts_pile(g, 2)  # the deal, taken
    out = array("i", [0] * 512)
    moves = [out[i] for i in range(mine.moves_of(2, out)) if out[i] >> 16 == 2 * STRIDE + NERTS]
    assert moves  # (this table's deal has one)
    mine.apply(moves[0])
    guest.local_move(moves[0], t.now)
    assert len(nerts_pile(mine, 2)) == 12
    host.repair.send_state()  # before the move reaches the host
    for _ in range(600):
        t.frame(False)
    assert guest.repairs == 2 and nerts_pile(mine, 2) == nerts_pile(g, 2) and len(nerts_pile(g, 2)) == 13
    assert state_hash(mine) == state_hash(g)


def test_a_guest_that_plays_the_hosts_new_deal_at_once_still_takes_the_hosts_state_after():
    """As above, with the deal reaching the guest as the host's move: the guest plays its
    new Nerts pile's top card at once, before its next poll, and the host re-sends its state
    before it hears of that move. The pile as dealt is the base (the poll that applied the
    deal looks at it); before, the base was what the guest's first move left, and the host's
    state, a card more, was refused for good."""
    from array import array
    from engine_core.games.nerts_moves import NERTS, STRIDE
    t = Party(consoles=4, seed=32)
    hosts_word_flowing(t)
    for g in t.games:  # the round ends alike everywhere
        g._end_round(1)
        g.vars[V_STATUS] = OVER
    host, guest, g, mine = t.sessions[0], t.sessions[2], t.games[0], t.games[2]
    assert t.agree()
    g.apply(DEAL_MOVE)
    host.local_move(DEAL_MOVE, t.now)
    for _ in range(300):
        t.frame(False)
        if mine.vars[V_ROUND] == g.vars[V_ROUND]:
            break
    assert mine.vars[V_ROUND] == g.vars[V_ROUND] and guest.repairs == 0  # the deal, as a move
    out = array("i", [0] * 512)
    moves = [out[i] for i in range(mine.moves_of(2, out)) if out[i] >> 16 == 2 * STRIDE + NERTS]
    assert moves  # (this table's deal has one)
    mine.apply(moves[0])
    guest.local_move(moves[0], t.now)
    host.repair.send_state()  # before the move reaches the host
    for _ in range(600):
        t.frame(False)
    assert guest.repairs >= 1 and nerts_pile(mine, 2) == nerts_pile(g, 2) and len(nerts_pile(g, 2)) == 13
    assert state_hash(mine) == state_hash(g)


def test_a_guest_that_asks_for_the_state_again_and_again_costs_the_others_a_few_loads_only():
    """A hostile guest sends "we disagree" in every generation it hears, every frame for 20 s:
    the host re-sends its state at most RESYNCS_PER_MINUTE times, never starts a new generation
    while one is still going out, and the honest guests (never told a stale "take my state")
    are in step and playing within a second of each re-send."""
    t = Party(consoles=4, seed=23)
    assert t.start()
    for _ in range(150):
        t.frame()
    host = t.sessions[0]
    honest = (2, 3)
    out_of_step = 0
    for k in range(1000):  # 20 s
        b = bytearray(5)
        b[0] = host.gen
        r.put_i32(b, 1, 12345)
        t.channels[1].send(m.RESYNC, b, 5)
        t.frame()
        if any(t.sessions[i].state != ls.S_PLAYING or t.sessions[i].asked for i in honest):
            out_of_step += 1
    assert 1 <= host.repairs <= 3, host.repairs
    assert out_of_step * 20 <= host.repairs * 1000, out_of_step  # under a second a re-send
    assert all(t.sessions[i].repairs == host.repairs for i in honest)
    t.settle(3000)
    for i in honest:
        assert t.sessions[i].state == ls.S_PLAYING and t.sessions[i].gen == host.gen
        assert state_hash(t.games[i]) == state_hash(t.games[0])


def deafen(end):
    """A guest's transport that reads and throws away what the host writes (a guest that never
    acknowledges, or a cable broken one way); it still writes (keep-alives, its moves, CLOCKs).
    Returns the function that hears again."""
    read = end.readinto

    def deaf(buf):
        while read(buf):
            pass
        return 0
    end.readinto = deaf

    def hear():
        end.readinto = read
    return hear


def test_a_guest_that_never_acknowledges_is_away_and_holds_up_no_one_else():
    t = Party(consoles=4, seed=13)
    assert t.start()
    for _ in range(150):
        t.frame()
    host = t.sessions[0]
    hear = deafen(t.guest_ends[0])  # guest 1 (leg 0) hears nothing, and says so to no one
    for _ in range(250):  # 5 s: the others keep hearing the host, their horizons move on
        t.frame()
    for i in (2, 3):
        assert t.games[0].clock_ms - t.sessions[i].realtime.peer_h < 2000
        assert t.sessions[i].state == ls.S_PLAYING
    for _ in range(250):  # by 10 s: it is away, like a silent guest
        t.frame()
    assert t.hub.live == 6 and host.away == 1 << 1
    assert t.sessions[2].away == t.sessions[3].away == 1 << 1  # the others are told
    assert host.outbox.q_count < 8 and host.repairs == 0
    t.settle(3000)
    for i in (2, 3):
        assert state_hash(t.games[i]) == state_hash(t.games[0])
    hear()  # the cable mended: it takes what was sent, then comes back with the host's state
    for _ in range(300):
        t.frame()
    assert t.hub.live == 7 and host.away == 0 and t.sessions[1].repairs >= 1
    t.settle(3000)
    assert t.agree(), [hex(state_hash(g)) for g in t.games]


def test_over_tcp_a_client_that_connects_first_and_says_nothing_holds_no_seat():
    import socket
    import time

    from engine_core import games
    from engine_core.link.channel import Channel
    from engine_core.link.hub import Hub
    from simulator import link_socket
    from simulator.link_socket import connect, listen_party

    quiet_s = getattr(link_socket, "QUIET_S", 3.0)  # (a stranger's silence given way after)

    party = listen_party(0, 3)
    squatter = socket.create_connection(("127.0.0.1", party.port))  # first, and silent
    guests = []
    try:
        own = Channel(party.seats[0])
        hub = Hub(own, party.seats[1:])
        host = ls.Session(own)
        host.use(hub)
        for s in party.seats:
            s.connected  # the squatter takes the first seat's transport
        guests = [connect("127.0.0.1", party.port) for _ in range(3)]
        sessions = [ls.Session(Channel(g)) for g in guests]
        cls = games.load("nerts")
        tables = [cls(4, 0) for _ in range(4)]
        for s in sessions:
            s.join(0)
        host.host(tables[0], 98, 0, bytes((ls.HERE, ls.THERE, ls.THERE, ls.THERE)), 0)
        t0 = time.monotonic()
        now = 0
        while hub.live != 7 and time.monotonic() - t0 < quiet_s + 5:
            now += 20
            host.poll(now)
            for i, s in enumerate(sessions):
                s.poll(now)
                if s.state == ls.S_WAITING and s.tables.count and not s.waiting_start:
                    s.choose(0)
                    s.accept(tables[i + 1], now)
            time.sleep(0.005)
        assert hub.live == 7  # every honest guest seated
        assert party.evicted == 1 and time.monotonic() - t0 < quiet_s + 2
        squatter.settimeout(2)
        while squatter.recv(256):  # the squatter was closed
            pass
    finally:
        squatter.close()
        for g in guests:
            g.close()
        party.close()


def test_a_guest_that_dates_its_moves_back_costs_the_host_a_bounded_replay():
    """A guest that withholds its CLOCK and dates each of its moves back to the table's
    horizon (tools/reliability/party_backdate.py) has each one undo seconds of the others'
    play; the host undoes at most 160 moves for it at once and one more every 62 ms of game
    time (realtime.ROLLBACK_MAX, ROLLBACK_MS), refusing the moves that would cost more. Before
    that bound: 1,295 in these 10 s, against 3 for the honest table."""
    from tools.reliability.party_backdate import run
    got = run(10, 5, hostile=True)
    honest = run(10, 5, hostile=False)
    assert honest["refused"] == 0 and honest["placing"] < 20, honest
    assert got["sent"] > 200 and got["refused"] > 100, got
    assert got["placing"] <= 160 + got["game_ms"] // 62 + 20, got  # (+ the honest guests' own)


def test_a_host_that_says_we_disagree_again_and_again_buys_three_asks_and_three_loads_a_minute():
    """A hostile host tells guest 1 "we disagree" every 2 s for three minutes, in its own
    generation and in later ones, and answers each of its asks with a whole valid state:
    the guest sends at most three asks and loads at most three states in any minute
    (docs/link.md, "Threat model"). A guest's ask that went unanswered once gave its slot
    back, which let such a host have it ask eleven times a minute."""
    t = Party(consoles=3, seed=11, delay=20)
    assert t.start()
    t.deal_rounds = 1000
    host, guest = t.sessions[0], t.sessions[1]
    leg = t.hub.legs[0]
    asks, loads = [], []
    answer = [False]
    host_on = host.on

    def on(kind, d, n):
        if kind == m.RESYNC and host.src == 0:
            answer[0] = len(asks) % 2 == 0  # every other ask answered, the rest dropped
            return
        host_on(kind, d, n)
    host.on = on
    queue = guest.outbox.queue

    def counted(kind, b, n):
        if kind == m.RESYNC:
            asks.append(t.now)
        return queue(kind, b, n)
    guest.outbox.queue = counted
    repairs = guest.repairs
    told = 0
    next_tell = 0
    while t.now < 180000:
        if t.now >= next_tell:
            d = bytearray(5)
            d[0] = (host.gen + told % 2) & 0xFF  # its own generation, then a later one
            r.put_i32(d, 1, told)
            if leg.send(m.RESYNC, d, 5):  # (else the leg's queue is full: again next frame)
                next_tell = t.now + 2000
                told += 1
        if answer[0]:
            answer[0] = False
            tr = host.transfer
            tr.take(t.games[0], t.games[0].clock_ms)
            b = bytearray(m.PAYLOAD_MAX)
            while tr.more():
                n = tr.chunk(b)
                tr.sent(n)
                leg.send(m.STATE, bytes(b[:n]), n)
        t.frame()
        if guest.repairs != repairs:
            repairs = guest.repairs
            loads.append(t.now)
    assert told >= 85 and len(asks) >= 6 and len(loads) >= 3, (told, len(asks), len(loads))
    for times in (asks, loads):
        for i, at in enumerate(times):
            assert sum(1 for later in times[i:] if later - at < 60000) <= 3, times
