"""Two consoles, one table: the Session over the Channel over a faulty Wire (docs/link.md,
"Sessions"). Two game objects, two Sessions and two Channels live in one process; the driver
(tools/reliability/link_play.py) plays both sides with the computer players' move choice.
The full counts (1,000 games and rounds, with and without cuts) are the soak's:
tools/reliability/soak.py --link."""

import pytest

from engine_core import OVER, PLAYING, games
from engine_core.game import V_TURN, move_code
from engine_core.link import session as ls
from engine_core.link.channel import Channel
from engine_core.link.loopback import Wire
from engine_core.link.statehash import state_hash
from support.fakes.link import FakeWire
from tools.mpy import run_micropython
from tools.reliability.link_play import Table, every_card_once

FAULTS = (30, 30, 30, 30)  # per mille of chunks dropped, doubled, reordered, corrupted


def started(name="spite_malice", seed=5, faults=FAULTS, delay=20, **kw):
    table = Table(name, seed=seed, faults=faults, delay=delay, **kw)
    assert table.start()
    return table


def run(table, steps):
    for _ in range(steps):
        table.step()


def swap_two_stock_cards(game, stock):
    """A deliberate desync: two cards of a stock change places (every card still once)."""
    p = game.piles
    a = p.start[stock]
    p.cards[a], p.cards[a + 1] = p.cards[a + 1], p.cards[a]


# --- the hello ---

def test_the_hello_agrees_on_game_rules_seed_options_and_seats():
    wire = FakeWire()
    host, guest = ls.Session(wire.end(0)), ls.Session(wire.end(1))
    cls = games.load("nerts")
    options = games.options(target=150)
    g0, g1 = cls(3, options), cls(3, options)
    guest.join(0)
    host.host(g0, 123456789, options, bytes([ls.HERE, ls.THERE, ls.COMPUTER]), 0)
    assert host.state == ls.S_WAITING and guest.state == ls.S_WAITING
    flags = guest.poll(10)
    assert flags & ls.OFFER
    assert (guest.offer_game_id, guest.offer_rules, guest.hello.offer_seed, guest.offer_options,
            guest.offer_players) == (games.game_id("nerts"), cls.RULES_VERSION, 123456789, options, 3)
    assert bytes(guest.hello.offer_seats[:3]) == bytes([ls.HERE, ls.THERE, ls.COMPUTER])
    guest.accept(g1, 10)
    assert host.poll(20) & ls.STARTED
    assert guest.poll(20) & ls.STARTED or guest.state == ls.S_PLAYING
    assert (host.my_seat, guest.my_seat) == (0, 1)
    assert [guest.seat_kind(p) for p in range(3)] == [ls.THERE, ls.HERE, ls.COMPUTER]
    assert [host.seat_kind(p) for p in range(3)] == [ls.HERE, ls.THERE, ls.COMPUTER]
    assert state_hash(g0) == state_hash(g1) and g0.seed == g1.seed == 123456789


def test_a_refused_offer_is_reported_to_the_host_with_its_reason():
    wire = FakeWire()
    host, guest = ls.Session(wire.end(0)), ls.Session(wire.end(1))
    host.host(games.load("spite_malice")(2), 9, 0, bytes([ls.HERE, ls.THERE]), 0)
    guest.join(0)
    assert guest.poll(10) & ls.OFFER
    guest.refuse(ls.R_DECLINED)
    assert host.poll(20) & ls.REFUSED
    assert host.refusal == ls.R_DECLINED and host.state == ls.S_IDLE


def offered(end, payload):
    """An open table at `end` (of a FakeWire) offering `payload` to anyone."""
    end.open_table(0x77, ls.K_OFFER, payload, len(payload))


def test_an_offer_in_another_message_version_is_not_listed_and_not_answered():
    wire = FakeWire()
    guest = ls.Session(wire.end(1))
    guest.join(0)
    offered(wire.end(0), bytes([ls.VERSION + 1, 3, 1, 2, 0, 0, 0, 0, 0, 0, 0, 9, 1, 2]))
    assert not guest.poll(10) & ls.OFFER
    assert guest.tables.count == 0 and guest.rejected == 1
    assert not wire.queues[0]  # a listening console answers no table


@pytest.mark.parametrize("game_id,rules", [(3, 9), (7, 1)])
def test_an_offer_of_rules_or_a_game_this_console_lacks_is_not_listed(game_id, rules):
    wire = FakeWire()
    guest = ls.Session(wire.end(1))
    guest.join(0)
    offered(wire.end(0), bytes([ls.VERSION, game_id, rules, 2, 0, 0, 0, 0, 0, 0, 0, 9, 1, 2]))
    assert not guest.poll(10) & ls.OFFER
    assert guest.tables.count == 0 and guest.rejected == 1
    assert not wire.queues[0]


def test_the_host_may_cancel_its_offer():
    wire = FakeWire()
    host, guest = ls.Session(wire.end(0)), ls.Session(wire.end(1))
    host.host(games.load("spite_malice")(2), 9, 0, bytes([ls.HERE, ls.THERE]), 0)
    guest.poll(10)
    assert guest.state == ls.S_WAITING and guest.tables.count == 1  # the question
    host.cancel(20)
    assert host.state == ls.S_IDLE
    flags = 0
    for now in range(30, 4000, 100):  # the offer is heard no more: the question goes
        host.poll(now)
        flags |= guest.poll(now)
    assert flags & ls.LEFT and guest.state == ls.S_IDLE and guest.tables.count == 0


# --- Spite & Malice in lockstep ---

def test_spite_malice_over_a_faulty_link_both_consoles_hold_the_same_hash_after_every_turn():
    for seed in (3, 8):
        table = started(seed=seed, undo_rate=60)
        table.play_game()
        assert table.problem() == ""
        assert table.games[0].status() == OVER
        for s in table.sessions:
            assert s.hashes_compared == table.turns > 20  # every turn's hash compared, on both
            assert s.desyncs == 0
        assert table.undos > 0
        assert table.wire.dropped and table.wire.duplicated and table.wire.reordered and table.wire.corrupted


def test_a_spite_malice_match_goes_to_the_target_with_the_same_scores_on_both_consoles():
    table = started(seed=11, options=games.options(target=40))
    table.play_match()
    assert table.problem() == ""
    g0, g1 = table.games
    assert g0.match_over() and g1.match_over()
    assert [g0.score(p) for p in (0, 1)] == [g1.score(p) for p in (0, 1)]
    assert max(g0.score(0), g0.score(1)) >= 40
    assert table.games_played >= 2  # the next game was dealt the same way on both


def test_the_guest_plays_p2_and_computer_players_are_off_on_both_consoles():
    table = started(faults=(0, 0, 0, 0))
    assert [s.my_seat for s in table.sessions] == [0, 1]
    assert not table.games[0].bots and not table.games[1].bots


def test_a_move_of_another_seat_from_the_link_is_refused_and_changes_nothing():
    table = started(faults=(0, 0, 0, 0))
    table.acting = False
    host, guest = table.sessions
    g0, g1 = table.games
    assert g0.vars[V_TURN] == 0
    before = state_hash(g1)
    host.outbox.send_move(1, move_code(10, 1, 0))  # p2's hand, sent by the host as p2's move
    host.outbox.flush()
    run(table, 60)
    assert guest.refused == 1 and guest.repairs == 0 and state_hash(g1) == before


def test_a_move_from_the_link_that_is_not_legal_is_refused_and_both_play_on():
    table = started(faults=(0, 0, 0, 0))
    table.acting = False
    table.allow_desync = True
    host, guest = table.sessions
    g0, g1 = table.games
    assert g0.vars[V_TURN] == 0
    bad = move_code(10, 1, 0)  # p2's hand played by the host, in its own turn: not legal
    host.outbox.send_move(0, bad)
    host.outbox.flush()
    run(table, 60)
    assert guest.refused == 1 and guest.asked
    # The host never applied the move it sent: its state is the guest's, and it does not
    # believe the guest's RESYNC; the guest stops waiting for a state and both play on.
    assert host.rejected == 1 and host.repairs == 0
    run(table, 400)
    assert not guest.asked and guest.state == ls.S_PLAYING
    assert state_hash(g0) == state_hash(g1)
    table.acting = True
    table.play_game()
    assert state_hash(g0) == state_hash(g1) and every_card_once(g0, bytearray(256))


def test_undo_takes_back_only_ones_own_moves_in_ones_own_turn_and_travels_to_the_peer():
    table = started(faults=(0, 0, 0, 0))
    table.acting = False
    host, guest = table.sessions
    g0, g1 = table.games
    assert not host.may_undo() and not guest.may_undo()  # nothing played yet
    # The host plays a move that does not end its turn, if it has one; else it discards.
    n = g0.legal_moves(g0.scratch)
    moves = [g0.scratch[i] for i in range(n)]
    centre = [m for m in moves if (m >> 8) & 0xFF < 4]
    move = centre[0] if centre else moves[0]
    g0.apply(move)
    host.local_move(move, table.now)
    run(table, 10)
    assert state_hash(g0) == state_hash(g1)
    assert not guest.may_undo()  # not the guest's move, nor its turn
    if centre:
        assert host.may_undo()
        g0.undo()
        host.local_undo(table.now)
        run(table, 10)
        assert state_hash(g0) == state_hash(g1) and g1.vars[V_TURN] == 0
        assert not host.may_undo()  # nothing of its own left in this turn
    # A turn that passed cannot be taken back: after the discard, the host may not undo.
    while g0.vars[V_TURN] == 0 and g0.status() == PLAYING:
        m = g0.bot.step_move(g0, 1, True)
        g0.apply(m)
        host.local_move(m, table.now)
    run(table, 10)
    assert not host.may_undo()
    # An undo the peer may not make (nothing of its own this turn) is refused and repaired.
    assert g1.vars[V_TURN] == 1 and guest.lockstep.own_moves == 0
    host.outbox.tx[0] = host.gen
    host.outbox.tx[1] = 0
    host.outbox.queue(ls.K_UNDO, host.outbox.tx, 2)
    host.outbox.flush()
    run(table, 60)
    assert guest.refused == 1 and state_hash(g0) == state_hash(g1)


def test_a_deliberate_desync_is_found_reported_with_both_hashes_and_repaired_by_the_host():
    table = started(faults=(0, 0, 0, 0))
    g0, g1 = table.games
    swap_two_stock_cards(g1, 0)  # the guest's stock, out of order
    host_hash, guest_hash = state_hash(g0), state_hash(g1)
    for _ in range(2000):
        table.step()
        if table.flags[0] & ls.DESYNC:
            break
    host, guest = table.sessions
    assert host.desyncs >= 1 and host.repairs == 1
    assert host.hash_here != host.hash_there
    table.acting = False  # what is on its way arrives; then both hold the host's state
    run(table, 50)
    assert table.flags[1] & ls.DESYNC and table.flags[1] & ls.CHANGED
    assert guest.hash_here == host.hash_there and guest.hash_there == host.hash_here
    assert state_hash(g0) == state_hash(g1)
    assert host_hash != guest_hash
    table.allow_desync = True
    table.acting = True
    table.play_game()
    assert table.problem() == ""
    assert state_hash(g0) == state_hash(g1)


# --- Nerts in time order ---

def test_nerts_rounds_over_a_faulty_link_agree_every_second_of_game_time():
    skipped = rollbacks = 0
    for seed in (1, 2, 3):
        table = started("nerts", seed=seed, delay=60)
        table.play_game()
        assert table.problem() == ""
        g0, g1 = table.games
        assert g0.status() == OVER
        for s in table.sessions:
            assert s.hashes_compared >= g0.clock_ms // 1000 - 2 and s.desyncs == 0
            skipped += s.timeline.skipped
            rollbacks += s.timeline.rollbacks
    assert rollbacks > 0  # moves went behind older ones from the other console


def test_computer_seats_are_played_by_the_host_only():
    table = started("nerts", faults=(0, 0, 0, 0))
    g0, g1 = table.games
    assert [g0.bot.is_computer(p) for p in range(4)] == [False, False, True, True]
    assert not g1.bot.any_computer()


def nerts_two_aces(seed):
    """Two fresh Nerts tables (2 players) where p1 and p2 each can play an ace onto found1."""
    cls = games.load("nerts")
    g = cls(2)
    g.deal(seed)
    found = []
    for p in (0, 1):
        n = g.moves_of(p, g.scratch)
        found.append([g.scratch[i] for i in range(n) if (g.scratch[i] >> 8) & 0xFF == g.found0])
    return found


def clean_pair(name, players, seats, seed):
    wire = Wire(seed)
    cls = games.load(name)
    g0, g1 = cls(players), cls(players)
    s0, s1 = ls.Session(Channel(wire.end(0), 1)), ls.Session(Channel(wire.end(1), 2))
    s1.join(0)
    s0.host(g0, seed, 0, seats, 0)
    for now in range(10, 200, 10):
        if s1.poll(now) & ls.OFFER:
            s1.accept(g1, now)
        s0.poll(now)
    return (g0, g1), (s0, s1), 200


@pytest.mark.parametrize("guest_earlier,winner", [(False, 0), (True, 1)])
def test_conflicting_foundation_plays_are_settled_alike_on_both_consoles_by_time_then_seat(guest_earlier, winner):
    seed = next(s for s in range(1, 400) if all(nerts_two_aces(s)))
    (g0, g1), (s0, s1), now = clean_pair("nerts", 2, bytes([ls.HERE, ls.THERE]), seed)
    g0.tick(1000)
    g1.tick(990 if guest_earlier else 1000)
    m0, m1 = nerts_two_aces(seed)[0][0], nerts_two_aces(seed)[1][0]
    g0.apply(m0)
    s0.local_move(m0, now)
    g1.apply(m1)  # before either hears of the other's
    s1.local_move(m1, now)
    for _ in range(100):
        now += 20
        g0.tick(20)
        g1.tick(20)
        s0.poll(now)
        s1.poll(now)
    assert state_hash(g0) == state_hash(g1)
    ace = g0.piles.top(g0.found0)
    assert ace // 52 == winner  # the earlier play (time, then seat) keeps the place
    assert g0.piles.size[g0.found0] == 1
    assert s0.timeline.skipped == s1.timeline.skipped == 1  # the later play, skipped on both


def test_the_host_deals_the_next_nerts_round_once_the_last_ones_end_is_final():
    table = started("nerts", seed=4)
    table.deal_rounds = 1
    table.play_game()
    assert table.problem() == ""
    g0, g1 = table.games
    assert not table.sessions[1].may_deal()  # only the host deals
    for _ in range(60000):
        table.step()
        if g0.status() == PLAYING and g1.status() == PLAYING:
            break
    assert table.sessions[0].gen == table.sessions[1].gen == 1
    table.play_game()
    assert table.problem() == ""
    assert [g0.score(p) for p in range(4)] == [g1.score(p) for p in range(4)]


def test_a_move_from_the_link_for_a_seat_played_here_is_refused_and_changes_nothing():
    table = started("nerts", faults=(0, 0, 0, 0))
    run(table, 50)
    host, guest = table.sessions
    table.acting = False
    host.realtime.send(1, 0xFF0101, table.games[0].clock_ms, 1)  # p2's flip, sent by the host
    host.outbox.flush()
    run(table, 80)
    assert guest.refused == 1 and host.repairs == 0 and guest.repairs == 0
    table.acting = True
    table.play_game()
    assert state_hash(table.games[0]) == state_hash(table.games[1])


def test_a_deliberate_nerts_desync_is_found_within_seconds_and_repaired():
    table = started("nerts", faults=(0, 0, 0, 0))
    run(table, 50)
    g0, g1 = table.games
    table.allow_desync = True
    swap_two_stock_cards(g1, 5)  # p1's stock on the guest
    for _ in range(200):
        table.step()
        if table.flags[1] & ls.CHANGED and table.sessions[1].repairs:
            break
    host, guest = table.sessions
    assert host.repairs == 1 and guest.repairs == 1 and host.hash_here != host.hash_there
    table.play_game()  # to the round's end: then both hold the same state
    assert table.problem() == ""
    assert state_hash(g0) == state_hash(g1)


# --- silence, cuts, leaving ---

@pytest.mark.parametrize("name", ["spite_malice", "nerts"])
def test_a_link_silent_for_5_s_pauses_the_game_and_resumes_when_it_comes_back(name):
    table = started(name, faults=(0, 0, 0, 0))
    run(table, 50)
    table.wire.cut(True)
    for _ in range(4400 // 20):  # the last frame heard may be up to a keep-alive (0.5 s) old
        table.step()
    assert all(s.state != ls.S_PAUSED for s in table.sessions)
    for _ in range(40):
        table.step()
    assert all(s.state == ls.S_PAUSED for s in table.sessions)
    assert all(f & ls.PAUSED for f in table.flags)
    clocks = [g.clock_ms for g in table.games]
    run(table, 100)
    assert [g.clock_ms for g in table.games] == clocks  # the game clock holds
    table.wire.cut(False)
    run(table, 50)
    assert all(f & ls.RESUMED for f in table.flags)
    assert all(s.state == ls.S_PLAYING for s in table.sessions)
    table.play_game()
    assert table.problem() == ""


def test_the_sessions_tick_holds_the_game_clock_while_the_link_is_silent():
    table = started("nerts", faults=(0, 0, 0, 0))
    host = table.sessions[0]
    g0 = table.games[0]
    clock = g0.clock_ms
    host.tick(100)
    assert g0.clock_ms == clock + 100
    host.state = ls.S_PAUSED
    host.tick(100)
    assert g0.clock_ms == clock + 100


@pytest.mark.parametrize("name,seed", [("spite_malice", 22), ("nerts", 22), ("nerts", 23)])
def test_cut_and_restored_at_random_times_the_consoles_still_agree(name, seed):
    table = started(name, seed=seed, cuts=8)
    table.play_game()
    assert table.problem() == ""
    assert table.cut_count > 0 and table.pauses > 0 and table.pauses == table.resumes
    for s in table.sessions:
        assert s.desyncs == 0


@pytest.mark.parametrize("name", ["spite_malice", "nerts"])
def test_leaving_says_goodbye_and_which_seats_go_to_the_computer(name):
    table = started(name, faults=(0, 0, 0, 0))
    run(table, 30)
    host, guest = table.sessions
    host.leave(table.now)
    assert host.state == ls.S_LEFT
    run(table, 30)
    assert table.flags[1] & ls.LEFT and guest.state == ls.S_LEFT
    seats = 4 if name == "nerts" else 2
    assert guest.orphans == (1 << seats) - 1 - (1 << 1)  # every seat but the guest's own
    assert host.orphans == (1 << seats) - 1 - 1


def test_a_guest_switched_off_and_on_is_silence_and_may_take_the_hosts_new_table():
    table = started("spite_malice", faults=(0, 0, 0, 0))
    run(table, 30)
    host = table.sessions[0]
    # The guest's console restarts: a new channel (another epoch, another console id) and
    # session on its end, listening for tables. The host's table hears nothing from its guest.
    channel = Channel(table.ends[1], 77)
    guest = ls.Session(channel)
    guest.join(table.now)
    table.channels[1] = channel
    table.sessions[1] = guest
    table.acting = False
    run(table, 6000 // 20)
    assert host.state == ls.S_PAUSED
    host.leave(table.now)  # its player leaves the silent table, and hosts a new one
    assert host.state == ls.S_LEFT
    host.host(table.games[0], 99, 0, bytes([ls.HERE, ls.THERE]), table.now)
    for _ in range(30):
        table.step()
        if guest.state == ls.S_WAITING and guest.hello.offer_seed == 99:
            break
    assert guest.hello.offer_seed == 99
    guest.accept(table.games[1], table.now)
    run(table, 30)
    assert host.state == guest.state == ls.S_PLAYING
    assert state_hash(table.games[0]) == state_hash(table.games[1])
    table.fresh[0] = table.fresh[1] = 1  # the players plan their turns afresh: a new deal
    table.acting = True
    table.play_game()
    assert table.problem() == ""


def test_the_link_modules_take_their_codes_from_messages_alone():
    """No module keeps a copy of a message kind, flag or state (engine_core/link/messages.py)."""
    import re
    from pathlib import Path
    from engine_core.link import transfer
    for name in ("lockstep", "realtime", "transfer", "session", "timeline", "statehash"):
        text = Path("engine_core/link/%s.py" % name).read_text()
        assert not re.search(r"^_?(K_|S_|F_)?[A-Z_]+ = const\(\d+\)\s+# session\.", text, re.M), name
    assert transfer.HEAD + transfer.DATA == 120


# --- hashes and figures ---

def test_the_state_hash_is_30_bits_and_the_same_on_micropython():
    out = []
    for name, players in (("spite_malice", 2), ("nerts", 4)):
        g = games.load(name)(players)
        g.deal(77)
        out.append(state_hash(g))
    assert all(0 < h < 2 ** 30 for h in out)
    script = ("from engine_core import games\nfrom engine_core.link.statehash import state_hash\n"
              "for name, players in (('spite_malice', 2), ('nerts', 4)):\n"
              "    g = games.load(name)(players)\n    g.deal(77)\n    print(state_hash(g))\n")
    result = run_micropython(script)
    assert result.exit_code == 0, result
    assert [int(v) for v in result.stdout.split()] == out


MPY_GAME = """
import gc, micropython
from tools.reliability.link_play import Table
t = Table(NAME, seed=SEED, faults=(20, 20, 20, 20), delay=40, cuts=CUTS, undo_rate=50)
t.start()
t.deal_rounds = DEALS
t.allow_desync = True
p = t.games[1].piles  # a deliberate desync: the guest's first stock, two cards swapped
a = p.start[STOCK]
c = p.cards[a]
p.cards[a] = p.cards[a + 1]
p.cards[a + 1] = c
result = "not run"
gc.collect()
micropython.heap_lock()
try:
    t.play_game()
    result = "no allocation"
except MemoryError:
    result = "allocated"
micropython.heap_unlock()
print(result)
print(t.problem() or "agree", t.turns, t.games[0].clock_ms, t.sessions[0].hashes_compared,
      t.sessions[1].hashes_compared, t.games[0].status(), t.sessions[0].repairs,
      t.sessions[1].repairs, t.undos, t.sessions[0].gen)
"""


@pytest.mark.parametrize("name,seed,cuts,stock,deals", [("spite_malice", 3, 0, 0, 0), ("nerts", 4, 2, 5, 1)])
def test_both_consoles_play_a_whole_game_on_micropython_under_heap_lock(name, seed, cuts, stock, deals):
    """A whole game (Nerts: two rounds, the second dealt by the host, with cuts), a desync
    repaired by the host's state and, in Spite & Malice, undos: nothing allocates."""
    script = (MPY_GAME.replace("NAME", repr(name)).replace("SEED", str(seed)).replace("CUTS", str(cuts))
              .replace("STOCK", str(stock)).replace("DEALS", str(deals)))
    result = run_micropython(script, fuel=10 ** 13)
    assert result.exit_code == 0, result
    lines = result.stdout.split("\n")
    assert lines[0] == "no allocation", result
    words = lines[1].split()
    assert words[0] == "agree" and int(words[3]) > 5 and int(words[5]) == OVER, result.stdout
    assert int(words[6]) >= 1 and int(words[7]) >= 1  # the host's state sent and loaded
    if name == "spite_malice":
        assert int(words[8]) > 0
    else:
        assert int(words[9]) >= 2  # a repair and a deal: two new generations
