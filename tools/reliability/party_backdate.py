"""A guest that dates its moves back at a Nerts party table (docs/link.md, "What a hostile guest
still can"): four consoles on clean wires, guest 1 sends no CLOCK (its horizon stays where its
last move put it) and, 25 times a second, a move of its own seat dated as far back as the
host takes it (the table's horizon, up to LAG_MS behind the host's clock), so that each one
goes behind the others' newer moves. What it costs the host: the moves its window undid to
put one in its place (`timeline.rollbacks`), and its poll's time on CPython, against the same
table played honestly.

    python -m tools.reliability.party_backdate [SECONDS] [SEED]
"""

import sys
import time

from engine_core import records as r
from engine_core.link import messages as m
from tools.reliability.party_play import Party


def run(seconds=20, seed=5, hostile=True):
    t = Party(consoles=4, seed=seed)
    assert t.start(), "the table did not start"
    host = t.sessions[0]
    g0 = t.games[0]
    guest = t.sessions[1]
    sent = [0, 0]  # the hostile moves sent, the time of the last
    if hostile:
        t.acting[1] = 0  # its person plays no move of its own: the moves below are its play
        queue = guest.outbox.queue

        def no_clock(kind, data, n):
            if kind != m.CLOCK:
                queue(kind, data, n)
        guest.outbox.queue = no_clock
    d = bytearray(11)
    polls = []
    poll = host.poll

    def timed(now):
        t0 = time.perf_counter()
        f = poll(now)
        polls.append(time.perf_counter() - t0)
        return f
    host.poll = timed
    placed = [0]  # the moves undone to put a guest's move in its place (the rest: to hash a second)
    peer_move = host.realtime.peer_move

    def counted(data, at):
        before = host.timeline.rollbacks
        peer_move(data, at)
        placed[0] += host.timeline.rollbacks - before
    host.realtime.peer_move = counted
    start_rollbacks = host.timeline.rollbacks
    frames = seconds * 1000 // 20
    for k in range(frames):
        if hostile and k % 2 == 0:
            n = g0.moves_of(1, g0.scratch)
            if n:
                at = max(sent[1] + 32, host.realtime.peer_h)  # (32 a second at most: MOVES_PER_S)
                move = g0.scratch[k // 2 % n]
                d[0] = host.gen
                d[1] = 1
                d[2], d[3], d[4] = move >> 16 & 0xFF, move >> 8 & 0xFF, move & 0xFF
                r.put_i32(d, 5, at)
                r.put_u16(d, 9, 1000 + sent[0] & 0xFFFF)
                if t.channels[1].send(m.MOVE, d, 11):
                    sent[0] += 1
                    sent[1] = at
        t.frame()
    polls.sort()
    return {"rollbacks": host.timeline.rollbacks - start_rollbacks, "placing": placed[0], "sent": sent[0],
            "refused": host.refused, "repairs": host.repairs,
            "poll_mean_ms": 1000 * sum(polls) / len(polls), "poll_worst_ms": 1000 * polls[-1],
            "game_ms": g0.clock_ms}


if __name__ == "__main__":
    from tools.cli import help_or_go
    help_or_go(__doc__, "tools/reliability/party_backdate.py [SECONDS] [SEED]")
    secs = int(sys.argv[1]) if len(sys.argv) > 1 else 20
    seed = int(sys.argv[2]) if len(sys.argv) > 2 else 5
    for hostile in (False, True):
        print("hostile" if hostile else "honest ", run(secs, seed, hostile))
