"""A Nerts party table in one process: a host and two or three guests, each guest joined to the
host by a simulated faulty wire of its own (a star: engine_core/link/hub.py), played with the
computer players' move choice (tests/test_link_party.py, the link figures, and the same on
MicroPython under heap_lock).

    t = Party(consoles=3, seed=7, faults=(20, 20, 20, 0), delay=40)
    t.start()                    # guests join, the host starts the game
    t.play_round()               # one round of Nerts, then the links settle
    t.problem()                  # '' when every console agrees, else what went wrong

Console 0 hosts (its session uses a Hub over one end of each wire); console k (1..) is the
guest at the host's leg k - 1. Seats: the host at 0, the guests at 1..consoles - 1, the
computer (played at the host) at the rest. Everything is allocated in the constructor, so
playing allocates nothing.
"""

from array import array

from engine_core import PLAYING
from engine_core import games
from engine_core import rng
from engine_core.link import session as ls
from engine_core.link.channel import Channel
from engine_core.link.hub import Hub
from engine_core.link.loopback import Wire
from engine_core.link.statehash import state_hash
from tools.reliability.link_play import DEAL_MOVE, STEP_MS, CountingEnd, act_nerts, every_card_once  # noqa: F401


class Party:
    def __init__(self, consoles=3, seed=1, faults=(0, 0, 0, 0), delay=0, players=4, policy=0):
        cls = games.load("nerts")
        self.n = consoles
        self.players = players
        self.seats = bytearray(players)
        for p in range(players):
            self.seats[p] = ls.HERE if p == 0 else ls.THERE if p < consoles else ls.COMPUTER
        self.games = [cls(players, 0) for _ in range(consoles)]
        self.wires = [Wire(seed * 7 + k, faults[0], faults[1], faults[2], faults[3], delay)
                      for k in range(consoles - 1)]
        self.host_ends = [CountingEnd(w.end(0)) for w in self.wires]
        self.guest_ends = [CountingEnd(w.end(1)) for w in self.wires]
        own = Channel(self.host_ends[0], me=1 + seed % 100)
        self.channels = [own] + [Channel(self.guest_ends[k], me=101 + 10 * k + seed % 10)
                                 for k in range(consoles - 1)]
        self.sessions = [ls.Session(c) for c in self.channels]
        self.hub = Hub(own, self.host_ends[1:])
        self.hub.policy = policy
        self.sessions[0].use(self.hub)
        self.seed = seed
        self.x = rng.seed_state(seed + 77)
        self.now = 0
        self.next_act = array("i", [0] * consoles)
        self.flags = array("i", [0] * consoles)
        self.acting = bytearray([1] * consoles)  # the driver plays console i's person
        self.ticking = bytearray([1] * consoles)  # console i runs (0: switched off)
        self.deal_rounds = 0
        self.first_problem = ""
        self.seen = bytearray(256)

    def rand(self, n):
        self.x = rng.step(self.x)
        return self.x % n

    def start(self):
        host = self.sessions[0]
        g0 = self.games[0]
        g0.set_computer(3, 4)  # the computer seats at the fastest pace: short rounds
        for k in range(1, self.n):
            self.sessions[k].join(0)
        host.host(g0, self.seed, 0, self.seats, 0)
        accepted = bytearray(self.n)
        for _ in range(1000):
            self.frame(False)
            for k in range(1, self.n):
                s = self.sessions[k]
                if not accepted[k] and s.tables.count:
                    s.choose(0)
                    s.accept(self.games[k], self.now)
                    accepted[k] = 1
            if host.state == ls.S_WAITING and bin(self.hub.live).count("1") == self.n - 1:
                host.start(self.now)
            if all(s.state == ls.S_PLAYING for s in self.sessions):
                for k in range(self.n):
                    self.next_act[k] = 300 + 50 * k
                return True
        self.fail("the hello did not finish")
        return False

    def frame(self, play=True):
        self.now += STEP_MS
        for w in self.wires:
            w.deliver(self.now)
        for i in range(self.n):
            if not self.ticking[i]:
                continue
            s = self.sessions[i]
            if play and s.state == ls.S_PLAYING and self.acting[i]:
                self.act(i)
            if play and s.state != ls.S_PAUSED and s.state != ls.S_LEFT:
                self.games[i].tick(STEP_MS)
            self.flags[i] |= s.poll(self.now)

    def act(self, i):
        act_nerts(self, i)

    def quiet(self):
        """Every move final on every console that plays."""
        for i in range(self.n):
            s = self.sessions[i]
            if self.ticking[i] and s.state != ls.S_LEFT and (s.timeline.count or s.asked or s.state != ls.S_PLAYING):
                return False
        return True

    def agree(self):
        h = state_hash(self.games[0])
        for i in range(1, self.n):
            if self.ticking[i] and self.sessions[i].state != ls.S_LEFT and state_hash(self.games[i]) != h:
                return False
        return True

    def play_round(self, max_frames=60000):
        for _ in range(max_frames):
            self.frame()
            if self.over() and self.quiet():
                break
        self.settle(3000)
        self.check()

    def over(self):
        for i in range(self.n):
            if self.ticking[i] and self.sessions[i].state != ls.S_LEFT and self.games[i].vars[0] == PLAYING:
                return False
        return True

    def settle(self, limit):
        for _ in range(limit):
            self.frame()
            if self.quiet() and self.agree():
                return

    def check(self):
        if not self.agree():
            self.fail("the consoles' states differ at the end")
        for i in range(self.n):
            if self.ticking[i] and not every_card_once(self.games[i], self.seen):
                self.fail("a card is missing or twice")

    def fail(self, text):
        if not self.first_problem:
            self.first_problem = text

    def problem(self):
        return self.first_problem

    def bytes_on_wire(self):
        n = 0
        for k in range(self.n - 1):
            n += self.host_ends[k].written + self.guest_ends[k].written
        return n
