"""The Nerts window at its limits, against a peer whose messages are each allowed: a horizon
that stands still while this console plays on, and a guest that fills the window again and
again and says "we disagree" each time. The window is the journal's top or nothing: a move
undone to hash a second is always the move the window says; and the host's whole state goes
out at most RESYNCS_PER_MINUTE times a minute, whoever asks."""

from engine_core import records as r
from engine_core.link import messages as m
from engine_core.link import session as ls
from engine_core.link.repair import RESYNCS_PER_MINUTE
from engine_core.link.statehash import state_hash
from tools.reliability.link_adversary import STEP_MS, Adversary
from tools.reliability.link_play import every_card_once


def clock(a, t):
    d = bytearray(5)
    d[0] = a.victim.gen
    r.put_i32(d, 1, t)
    a.write(m.CLOCK, d)


def holds(a):
    assert a.failures == 0, a.first
    assert every_card_once(a.vg, a.seen)
    assert a.vg.check_position() == ""


def test_a_peer_whose_horizon_stands_still_while_the_host_plays_on_changes_nothing_it_should_not():
    # The guest keeps the link alive with CLOCKs at its first horizon (never older: each one is
    # allowed) and moves nothing, while the host's player moves every 300 ms for a minute: the
    # window fills. Then one ordinary CLOCK at the host's time. Before: the host's own moves
    # that did not fit were left out of the window while staying in the game, and that CLOCK's
    # hashes undid the wrong entries: ValueError in piles.move, the console stopped.
    a = Adversary("nerts", True, 2)
    v, g = a.victim, a.vg
    frozen = v.realtime.peer_h
    moves = 0
    for step in range(60000 // STEP_MS):
        a.now += STEP_MS
        if v.state != ls.S_PAUSED:
            v.tick(STEP_MS)
        if (step * STEP_MS) % 300 == 0 and v.state == ls.S_PLAYING:
            n = g.moves_of(v.my_seat, g.scratch)
            if n:
                move = g.scratch[a.rand.randrange(n)]
                g.apply(move)
                v.local_move(move, a.now)
                moves += 1
        if step % 25 == 0:
            clock(a, frozen)
        a.wire.queues[0].clear()
        a.poll_victim()
    assert moves > 150 and v.repair.overflows > 0  # the window did fill
    holds(a)
    clock(a, g.clock_ms)
    for _ in range(5):
        a.now += STEP_MS
        v.tick(STEP_MS)
        a.poll_victim()
    holds(a)
    assert v.realtime.timeline.count < v.realtime.timeline.size


def test_a_guest_that_fills_the_window_again_and_again_gets_the_state_at_most_three_times_a_minute():
    # The guest flips its own cards 32 times a second dated up to 5 s ahead (within every time
    # rule), so the host's window overflows again and again, and answers each "we disagree"
    # with a RESYNC of a wrong hash. Before: the host sent its whole state 24 times in 60 s.
    a = Adversary("nerts", True, 1)
    v = a.victim
    sent = []
    send = v.ch.send

    def spy(kind, data, n):
        ok = send(kind, data, n)
        if ok and kind == m.STATE and bytes(data[1:3]) == b"\0\0":  # a state's first chunk
            sent.append(a.now)
        return ok
    v.ch.send = spy
    seat = v.peer_seat
    flip = 0xFF0100 | seat
    ctr = 1
    base = next_t = a.vg.clock_ms
    for _ in range(60000 // STEP_MS):
        a.now += STEP_MS
        if v.state != ls.S_PAUSED:
            v.tick(STEP_MS)
        a.play(v, a.vg)
        records = []
        while next_t <= a.vg.clock_ms + 4999 and len(records) < 11:
            records.append((next_t, ctr))
            ctr += 1
            next_t = base + (ctr - 1) * 1000 // 32
        if records and not v.asked:
            d = bytearray(1 + 10 * len(records))
            d[0] = v.gen
            for i, (t, c) in enumerate(records):
                d[1 + 10 * i:11 + 10 * i] = a.record(seat, flip, t, c)[1:]
            a.write(m.MOVE, d)
        if v.repair.owed:
            d = bytearray(5)
            d[0] = v.gen
            r.put_i32(d, 1, state_hash(a.vg) ^ 1)
            a.write(m.RESYNC, d)
        a.wire.queues[0].clear()
        a.poll_victim()
    assert v.repair.overflows > 3  # the window did overflow, again and again
    assert 1 <= len(sent) <= RESYNCS_PER_MINUTE, sent
    holds(a)
