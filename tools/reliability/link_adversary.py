"""A link adversary: a peer that writes only well-formed frames (this table, its own console
id as the writer, addressed to the victim, a right CRC, every field in range) whose meaning is
hostile (docs/link.md, "Threat model"). Unlike the hostile peer of link_fuzz.py, which writes
noise, every frame here is one a friendly console could have written, and each has an oracle:
what the victim must do with it.

The victim is a Session (this console's referee) at a table of Spite & Malice or Nerts, hosting
or joining; the adversary is a Session that plays its own seat legally and, between, writes:

- a STATE nobody asked for (the peer's true state, or one that rewrites the victim's own
  payoff pile while the victim asks): refused, nothing changes;
- a MOVE of the victim's seat, and one whose mover is not the seat it names: refused, nothing
  changes;
- (Nerts) a legal move of its own seat dated before its own horizon (just before, or seconds
  before), more than 5 s ahead of the victim's clock, or one of a burst of 40 a millisecond apart:
  refused (all but the first 32 of the burst), nothing changes; a CLOCK going backwards or
  more than 5 s ahead: rejected, the horizon as it was;
- (Spite & Malice) an UNDO of the victim's seat: refused, nothing changes;
- a RESYNC "we disagree" carrying the victim's own hash: refused, nothing changes;
- offers of other tables, shifting (a new table id every time), as other consoles: the game
  and the session's state as they were.

After every poll of the victim: no exception, every card once, the position one `load` takes,
and every move the link applied legal where it was applied.

A second client on the socket (simulator/link_socket.py) is the `impostors()` part: a client
that knows the table and both console ids connects while the partner plays and after it left;
none of its frames may reach the listener's channel.

    python -m tools.reliability.link_adversary FRAMES [SEED]     (the soak: 1000000)
"""

import random
import sys

from engine_core import OVER, PLAYING, games
from engine_core import records as r
from engine_core import save
from engine_core.game import V_STATUS, V_TURN
from engine_core.games.nerts_moves import DEAL_MOVE
from engine_core.link import messages as m
from engine_core.link import session as ls
from engine_core.link.realtime import CLOCK_TOLERANCE_MS, MOVES_PER_S
from engine_core.link.statehash import state_hash
from engine_core.link.transfer import OWN_PILES
from support.fakes.link import FakeWire
from tools.reliability.link_play import every_card_once

STEP_MS = 20
BURST = 40


class Adversary:
    def __init__(self, name, victim_hosts, seed):
        self.rand = random.Random(seed)
        self.name = name
        self.nerts = name == "nerts"
        self.wire = FakeWire()
        cls = games.load(name)
        self.vg, self.pg = cls(2, 0), cls(2, 0)
        self.victim = ls.Session(self.wire.end(1))
        self.peer = ls.Session(self.wire.end(0))
        self.now = 0
        self.frames = 0
        self.failures = 0
        self.first = ""
        self.seen = bytearray(256)
        self.counts = {}
        self.in_poll = False
        self.sbuf = bytearray(save.BUFFER_SIZE)
        seats = bytes((ls.HERE, ls.THERE))
        seed30 = self.rand.randrange(1 << 30)
        host, guest, hg, gg = ((self.victim, self.peer, self.vg, self.pg) if victim_hosts
                               else (self.peer, self.victim, self.pg, self.vg))
        guest.join(self.now)
        host.host(hg, seed30, 0, seats, self.now)
        for _ in range(50):
            self.now += STEP_MS
            if guest.poll(self.now) & ls.OFFER:
                guest.accept(gg, self.now)
            host.poll(self.now)
            if host.state == ls.S_PLAYING and guest.state == ls.S_PLAYING:
                break
        assert self.victim.state == ls.S_PLAYING, "the table did not start"
        self._watch()

    # --- what is checked ---

    def fail(self, why):
        self.failures += 1
        if not self.first:
            self.first = why

    def _watch(self):
        game = self.vg
        apply = type(game).apply
        me = self

        def checked(move):
            if me.in_poll and not game.is_legal(move):
                me.fail("an illegal move applied from the link: %06x" % move)
            return apply(game, move)
        game.apply = checked

    def poll_victim(self):
        self.in_poll = True
        try:
            self.victim.poll(self.now)
        except Exception as e:  # a crash is a failure, with what it was
            self.fail("raised %s: %s" % (type(e).__name__, e))
            raise
        finally:
            self.in_poll = False
        game = self.vg
        if not every_card_once(game, self.seen):
            self.fail("a card missing or twice in %s" % self.name)
        why = game.check_position()
        if why:
            self.fail("a position load refuses: %s" % why)

    # --- the table going on ---

    def play(self, s, game):
        if s.state != ls.S_PLAYING or s.asked:
            return
        if game.vars[V_STATUS] != PLAYING:
            if s.may_deal() and self.rand.randrange(4) == 0:
                game.apply(DEAL_MOVE)
                s.local_move(DEAL_MOVE, self.now)
            return
        if game.TURN_BASED and game.vars[V_TURN] != s.my_seat:
            return
        n = game.moves_of(s.my_seat, game.scratch)
        if n:
            move = game.scratch[self.rand.randrange(n)]
            game.apply(move)
            s.local_move(move, self.now)

    def step(self):
        self.now += STEP_MS
        for s, game in ((self.peer, self.pg), (self.victim, self.vg)):
            if self.nerts and s.state != ls.S_PAUSED:
                s.tick(STEP_MS)
            if self.rand.randrange(3) == 0:
                self.play(s, game)
        self.peer.poll(self.now)
        self.poll_victim()

    # --- the hostile frames, each with its oracle ---

    def write(self, kind, data):
        assert self.wire.end(0).send(kind, bytes(data), len(data))
        self.frames += 1

    def expect(self, what, refused=0, rejected=0, unchanged=True, at_least=None):
        """Deliver what was written, then check the victim's answer."""
        v = self.victim
        if v.asked and what != "a STATE that moves the victim's own pile":
            refused = rejected = 0  # while it waits for the host's state, the rest is dropped unread
            at_least = None
        before = (state_hash(self.vg), v.refused, v.rejected, v.repairs, v.gen)
        self.poll_victim()
        self.counts[what] = self.counts.get(what, 0) + 1
        got_refused = v.refused - before[1]
        got_rejected = v.rejected - before[2]
        if at_least is not None:
            if got_refused < at_least:
                self.fail("%s: %d refused, expected at least %d" % (what, got_refused, at_least))
            return
        if got_refused < refused or got_rejected < rejected:
            self.fail("%s: refused %d, rejected %d" % (what, got_refused, got_rejected))
        if unchanged and (state_hash(self.vg) != before[0] or v.repairs != before[3] or v.gen != before[4]):
            self.fail("%s: the victim's game changed" % what)

    def record(self, seat, move, t=0, ctr=0):
        v = self.victim
        d = bytearray(1 + v.record)
        d[0] = v.gen
        d[1] = seat
        d[2], d[3], d[4] = move >> 16, (move >> 8) & 0xFF, move & 0xFF
        if self.nerts:
            r.put_i32(d, 5, t & 0x3FFFFFFF)
            r.put_u16(d, 9, ctr & 0xFFFF)
        return d

    def own_move(self):
        """A legal move of the adversary's seat on the victim's table (0: none)."""
        g = self.vg
        n = g.moves_of(self.victim.peer_seat, g.scratch)
        return g.scratch[self.rand.randrange(n)] if n else 0

    def attack(self):
        v = self.victim
        if (v.state != ls.S_PLAYING and v.state != ls.S_DESYNC) or self.vg.vars[V_STATUS] == OVER:
            return self.offers()
        rand = self.rand
        how = rand.randrange(7)
        mine, theirs = v.my_seat, v.peer_seat
        if how == 0:
            return self.state()
        if how == 1:  # the victim's seat, by the victim's own legal move
            g = self.vg
            n = g.moves_of(mine, g.scratch)
            if n:
                self.write(m.MOVE, self.record(mine, g.scratch[rand.randrange(n)], self.vg.clock_ms, 1))
                return self.expect("a move of the victim's seat", refused=1)
        if how == 2 and self.nerts:  # its own seat's number on the victim's move
            g = self.vg
            n = g.moves_of(mine, g.scratch)
            if n:
                self.write(m.MOVE, self.record(theirs, g.scratch[rand.randrange(n)], self.vg.clock_ms, 1))
                return self.expect("a move whose mover is not its seat", refused=1)
        if how == 3 and not self.nerts:
            self.write(m.UNDO, bytes((v.gen, mine)))
            return self.expect("an undo of the victim's seat", refused=1)
        if how == 4:
            d = bytearray(5)
            d[0] = v.gen
            r.put_i32(d, 1, state_hash(self.vg))
            self.write(m.RESYNC, d)
            return self.expect("a RESYNC with the victim's own hash", rejected=1)
        if how == 5:
            return self.offers()
        if self.nerts:
            return self.times()
        return self.offers()

    def times(self):
        v = self.victim
        rt = v.realtime
        clock = self.vg.clock_ms
        rand = self.rand
        move = self.own_move()
        which = rand.randrange(5)
        if which == 4:  # a CLOCK backwards or too far ahead
            t = rt.peer_h - 1 - rand.randrange(5000) if rand.randrange(2) and rt.peer_h > 0 \
                else clock + CLOCK_TOLERANCE_MS + 1 + rand.randrange(1 << 26)
            h = rt.peer_h
            d = bytearray(5)
            d[0] = v.gen
            r.put_i32(d, 1, t & 0x3FFFFFFF)
            self.write(m.CLOCK, d)
            self.expect("a CLOCK backwards or ahead", rejected=1)
            if rt.peer_h != h:
                self.fail("a CLOCK backwards or ahead moved the horizon")
            return
        if not move:
            return self.offers()
        if which == 0:
            if rt.peer_h <= 0:
                return self.offers()
            self.write(m.MOVE, self.record(v.peer_seat, move, rt.peer_h - 1 - rand.randrange(300), 1))
            return self.expect("a move before its own horizon", refused=1)
        if which == 1:
            ahead = clock + CLOCK_TOLERANCE_MS + 1 + rand.randrange(1 << 26)
            self.write(m.MOVE, self.record(v.peer_seat, move, ahead, 1))
            return self.expect("a move from the future", refused=1)
        if which == 2:  # before the horizon by a long way (a place taken seconds ago)
            if rt.peer_h < 2000:
                return self.offers()
            self.write(m.MOVE, self.record(v.peer_seat, move, rt.peer_h - 2000 - rand.randrange(10000), 1))
            return self.expect("a move seconds before its own horizon", refused=1)
        t = max(rt.peer_h, clock)
        flip = 0xFF0100 | v.peer_seat
        for i in range(BURST):
            self.write(m.MOVE, self.record(v.peer_seat, flip, t + i, i + 1))
        self.expect("a burst of flips a millisecond apart", at_least=BURST - MOVES_PER_S)

    def state(self):
        """A STATE: the peer's own (nobody asked), or, while the victim asks, one that moves
        the victim's own payoff pile."""
        v = self.victim
        g = self.pg
        pile = -1
        if not v.is_host and not v.asked and self.rand.randrange(40) == 0:
            # The host's "we disagree" with a hash not the victim's: believed, the victim asks.
            d = bytearray(5)
            d[0] = v.gen
            r.put_i32(d, 1, state_hash(self.vg) ^ 1)
            self.write(m.RESYNC, d)
            self.poll_victim()
        if v.asked and not v.is_host:
            names = g.pile_names
            own = OWN_PILES[v.my_seat]
            pile = names.index(own[1] if self.nerts else own[0])
            if g.piles.size[pile] < 2:
                return self.offers()
            a = g.piles.start[pile] + g.piles.size[pile] - 1
            g.piles.cards[a], g.piles.cards[a - 1] = g.piles.cards[a - 1], g.piles.cards[a]
        n = save.encode_game(g, 0, self.sbuf)
        if pile >= 0:
            g.piles.cards[a], g.piles.cards[a - 1] = g.piles.cards[a - 1], g.piles.cards[a]
        gen = (v.gen + 1) & 0xFF
        key = g.clock_ms if self.nerts else v.lockstep.turn_no
        h = state_hash(g)
        at = 0
        while at < n:
            k = min(m.STATE_DATA, n - at)
            d = bytearray(m.STATE_HEAD + k)
            d[0] = gen
            r.put_u16(d, 1, at)
            r.put_u16(d, 3, n)
            r.put_i32(d, 5, key)
            r.put_i32(d, 9, h)
            d[m.STATE_HEAD:] = self.sbuf[at:at + k]
            self.write(m.STATE, d)
            at += k
        self.expect("a STATE that moves the victim's own pile" if pile >= 0 else "a STATE nobody asked for",
                    rejected=1)

    def offers(self):
        """Offers of other tables, a new id every time, from other consoles: nothing changes."""
        v = self.victim
        before = (state_hash(self.vg), v.state, v.gen)
        for _ in range(1 + self.rand.randrange(4)):
            d = bytearray(14)
            d[0] = m.VERSION
            d[1] = games.game_id(self.rand.choice(("spite_malice", "nerts")))
            d[2] = 1
            d[3] = 2
            r.put_i32(d, 4, 0)
            r.put_i32(d, 8, self.rand.randrange(1 << 30))
            d[12], d[13] = ls.HERE, ls.THERE
            self.wire.queues[1].append((m.OFFER, bytes(d), 1 + self.rand.randrange(0xFFFF),
                                        0x300 + self.rand.randrange(256), 0))
            self.frames += 1
        self.poll_victim()
        self.counts["shifting offers"] = self.counts.get("shifting offers", 0) + 1
        if (state_hash(self.vg), v.state, v.gen) != before:
            self.fail("shifting offers changed the victim's table")


def adversary(name, victim_hosts, frames, seed=1):
    """`frames` hostile frames at a victim playing `name`: counts and the first failure."""
    a = Adversary(name, victim_hosts, seed)
    steps = 0
    while a.frames < frames:
        steps += 1
        a.step()
        if a.rand.randrange(2) == 0:
            try:
                a.attack()
            except Exception:
                break
        if a.victim.state != ls.S_PLAYING and a.victim.state != ls.S_DESYNC and a.victim.state != ls.S_PAUSED:
            break  # the table ended (cannot happen: nobody leaves); a new one below
    v = a.victim
    out = {"frames": a.frames, "steps": steps, "refused": v.refused, "rejected": v.rejected,
           "repairs": v.repairs, "failures": a.failures, "attacks": dict(sorted(a.counts.items()))}
    if a.first:
        out["first"] = a.first
    return out


def impostors(count, seed=1):
    """A second client on the simulator's socket, `count` times: it knows the table and both
    console ids (as if it had read them from the first frame) and writes well-formed frames,
    while the partner plays and after the partner left. Returns (frames of the impostor that
    reached the listener's channel, clients refused)."""
    import time
    from engine_core.link.channel import Channel
    from simulator import link_socket
    rand = random.Random(seed)
    reached = refused = 0
    for _ in range(count):
        server = link_socket.listen(0)
        host = Channel(server, epoch=1 + rand.randrange(254), me=0x101)
        host.open_table(0x4242, m.OFFER, b"offer", 5)
        partner_t = link_socket.connect(link_socket.HOST, server.port)
        partner = Channel(partner_t, epoch=1 + rand.randrange(254), me=0x202)
        partner.pair(0x4242, 0x101)
        clients = [partner_t]
        try:
            for _ in range(400):
                now = int(time.monotonic() * 1000) & 0x3FFFFFFF
                partner.poll(now)
                host.poll(now)
                if host.paired() and server.connects == 1:
                    break
                time.sleep(0.001)
            if rand.randrange(2):
                partner_t.close()  # the partner left first
            it_t = link_socket.connect(link_socket.HOST, server.port)
            clients.append(it_t)
            it = Channel(it_t, epoch=1 + rand.randrange(254), me=0x202)  # the partner's id
            it.pair(0x4242, 0x101)
            received = host.received
            for i in range(100):
                now = int(time.monotonic() * 1000) & 0x3FFFFFFF
                it.send(m.BYE, b"", 0)
                it.poll(now)
                host.poll(now)
                if server.refused and i > 20:
                    break
                time.sleep(0.001)
            reached += host.received - received if partner_t.sock is None else 0
            refused += server.refused
        finally:
            for c in clients:
                c.close()
            server.close()
    return reached, refused


def adversary_suite(frames, seed=1, progress=None):
    """`frames` in all, a quarter each: Spite & Malice and Nerts, the victim hosting and joining."""
    total = {"frames": 0, "refused": 0, "rejected": 0, "failures": 0}
    k = 0
    for name in ("spite_malice", "nerts"):
        for hosts in (True, False):
            got = adversary(name, hosts, frames // 4, seed + k)
            k += 1
            for key in total:
                total[key] += got[key]
            if got.get("first") and "first" not in total:
                total["first"] = "%s, victim %s: %s" % (name, "hosting" if hosts else "joining", got["first"])
            if progress:
                progress("  %s, victim %s: %s" % (name, "hosting" if hosts else "joining", got))
    return total


if __name__ == "__main__":
    from tools.cli import help_or_go
    help_or_go(__doc__, "-m tools.reliability.link_adversary FRAMES [SEED]")
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 10000
    result = adversary_suite(count, int(sys.argv[2]) if len(sys.argv) > 2 else 1, print)
    reached, refused = impostors(max(1, count // 100000))
    result["impostor frames that reached the channel"] = reached
    result["impostor clients refused"] = refused
    print(result)
    sys.exit(1 if result["failures"] or reached else 0)
