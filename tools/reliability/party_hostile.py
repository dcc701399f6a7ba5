"""One hostile guest among honest ones at a Nerts party table (docs/link.md, "The party table",
"Threat model"): guest 1 plays its own seat and, between, writes well-formed messages with a
hostile meaning to the host (the only console it can reach): moves of other seats (another
guest's, the host's, the computer's), moves of its own seat dated before its own horizon or
seconds ahead, bursts, illegal moves, CLOCKs backwards or ahead, HASHes and RESYNCs that
disagree, an UNDO, a STATE, answers out of place, and friendly MOVE messages with a byte
changed.

What must hold, checked after every frame: no exception; on the host and every honest guest
every card once and every move applied from the link legal where it is applied; an honest
guest refuses and rejects nothing (the host relays nothing a friendly host would not); the
host refuses every move of a seat not the hostile guest's and every backdated one; the honest
consoles hold the same state once the links settle. What a hostile guest can do to the others
is have the host re-send its state to all (a disagreement it claims), at most three times a
minute (RESYNCS_PER_MINUTE).

    python -m tools.reliability.party_hostile FRAMES [SEED]
"""

import random
import sys

from engine_core import PLAYING
from engine_core import records as r
from engine_core.link import messages as m
from engine_core.link import session as ls
from engine_core.link.realtime import CLOCK_TOLERANCE_MS
from engine_core.link.statehash import state_hash
from tools.reliability.link_play import every_card_once
from tools.reliability.party_play import Party


class Hostile:
    def __init__(self, consoles, seed):
        self.rand = random.Random(seed)
        self.t = Party(consoles=consoles, seed=seed, delay=20)
        self.counts = {}
        self.failures = 0
        self.first = ""
        self.in_poll = False
        self.seen = bytearray(256)
        self.refused_others = 0  # moves of seats not the hostile guest's, and backdated ones, sent
        assert self.t.start(), "the table did not start"
        for i in range(consoles):
            if i != 1:
                self.watch(self.t.games[i])

    def fail(self, why):
        self.failures += 1
        if not self.first:
            self.first = why

    def watch(self, game):
        apply = type(game).apply
        me = self

        def checked(move):
            if me.in_poll and not game.is_legal(move):
                me.fail("an illegal move applied from the link: %06x" % move)
            return apply(game, move)
        game.apply = checked

    def send(self, kind, data):
        self.t.channels[1].send(kind, bytes(data), len(data))

    def record(self, seat, move, time, ctr):
        d = bytearray(11)
        d[0] = self.t.sessions[0].gen  # (heard in the host's own messages)
        d[1] = seat
        d[2], d[3], d[4] = move >> 16 & 0xFF, move >> 8 & 0xFF, move & 0xFF
        r.put_i32(d, 5, time & 0x3FFFFFFF)
        r.put_u16(d, 9, ctr & 0xFFFF)
        return d

    def a_move_of(self, seat):
        g = self.t.games[0]
        n = g.moves_of(seat, g.scratch)
        return g.scratch[self.rand.randrange(n)] if n else -1

    def attack(self):
        t = self.t
        g1 = t.games[1]
        rt = t.sessions[1].realtime
        how = self.rand.randrange(9)
        name = ("another seat's move", "a backdated move", "a move from the future", "a burst",
                "an illegal move", "a CLOCK backwards or ahead", "a HASH or RESYNC that disagrees",
                "out of place", "a friendly move mutated")[how]
        clock = g1.clock_ms
        if how == 0:
            seat = self.rand.choice([p for p in range(t.players) if p != 1])
            move = self.a_move_of(seat)
            if move < 0:
                return
            self.send(m.MOVE, self.record(seat, move, clock, 1))
        elif how in (1, 2, 3, 4):
            move = self.a_move_of(1)
            if how == 4:
                move = 0x7F7F7F  # no such move
            elif move < 0:
                return
            at = rt.sent_h - 1 - self.rand.randrange(3000) if how == 1 else \
                clock + 2 * CLOCK_TOLERANCE_MS + 1 + self.rand.randrange(9000) if how == 2 else clock
            for k in range(40 if how == 3 else 1):
                if at >= 0:
                    self.send(m.MOVE, self.record(1, move, at + k, 3000 + k))
        elif how == 5:
            d = bytearray(5)
            d[0] = t.sessions[0].gen
            r.put_i32(d, 1, max(0, rt.sent_h - 1 - self.rand.randrange(2000)) if self.rand.randrange(2)
                      else clock + CLOCK_TOLERANCE_MS + 1 + self.rand.randrange(5000))
            self.send(m.CLOCK, d)
        elif how == 6:
            d = bytearray(9)
            d[0] = t.sessions[0].gen
            r.put_i32(d, 1, clock // 1000)
            r.put_i32(d, 5, self.rand.randrange(1 << 30))
            self.send(m.HASH if self.rand.randrange(2) else m.RESYNC, d[:9] if d else d)
        elif how == 7:
            kind = self.rand.choice((m.OFFER, m.ACCEPT, m.REFUSE, m.UNDO, m.STATE, m.FULL))
            self.send(kind, bytes(self.rand.randrange(256) for _ in range(self.rand.randrange(16))))
        else:
            move = self.a_move_of(1)
            if move < 0:
                return
            d = self.record(1, move, clock, 1)
            d[self.rand.randrange(11)] = self.rand.randrange(256)
            self.send(m.MOVE, d)
        self.counts[name] = self.counts.get(name, 0) + 1

    def frame(self):
        t = self.t
        if t.sessions[1].state == ls.S_PLAYING and self.rand.randrange(4) == 0:
            self.attack()
        honest = [i for i in range(t.n) if i != 1]
        before = [(t.sessions[i].refused, t.sessions[i].rejected) for i in honest[1:]]
        self.in_poll = True
        try:
            t.frame()
        except Exception as e:
            self.fail("raised %s: %s" % (type(e).__name__, e))
            raise
        finally:
            self.in_poll = False
        for i in honest:
            if not every_card_once(t.games[i], self.seen):
                self.fail("a card missing or twice at console %d" % i)
        for i, b in zip(honest[1:], before):
            s = t.sessions[i]
            if (s.refused, s.rejected) != b:
                self.fail("an honest guest refused what the host relayed (console %d)" % i)

    def run(self, frames):
        t = self.t
        t.deal_rounds = 1000
        for _ in range(frames):
            self.frame()
        t.acting = bytearray(t.n)  # all stop: the links settle
        for _ in range(600):
            self.frame_quiet()
        honest = [i for i in range(t.n) if i != 1]
        if len({state_hash(t.games[i]) for i in honest}) != 1:
            self.fail("the honest consoles' states differ after the links settled")
        minutes = t.games[0].clock_ms // 60000 + 1
        if t.sessions[0].repairs > 3 * minutes + 1:
            self.fail("the host re-sent its state %d times in %d minutes" % (t.sessions[0].repairs, minutes))
        return {"failures": self.failures, "first": self.first, "attacks": self.counts,
                "host_refused": t.sessions[0].refused, "host_rejected": t.sessions[0].rejected,
                "repairs": t.sessions[0].repairs, "game_ms": t.games[0].clock_ms,
                "over": t.games[0].vars[0] != PLAYING}

    def frame_quiet(self):
        self.in_poll = True
        try:
            self.t.frame()
        finally:
            self.in_poll = False


def hostile_guest(consoles, frames, seed):
    return Hostile(consoles, seed).run(frames)


if __name__ == "__main__":
    from tools.cli import help_or_go
    help_or_go(__doc__, "tools/reliability/party_hostile.py [FRAMES] [SEED]")
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 20000
    seed = int(sys.argv[2]) if len(sys.argv) > 2 else 1
    for c in (3, 4):
        got = hostile_guest(c, n, seed)
        print(c, got)
        if got["failures"]:
            sys.exit(1)
