"""Two consoles in one process, joined by a simulated faulty link, playing against each other
with the computer players' move choice (tests/test_link_session.py, the soak's link runs,
and the same on MicroPython under heap_lock).

    table = Table("spite_malice", seed=7, faults=(20, 20, 20, 20))   # per-mille drop, dup, reorder, corrupt
    table.start()
    table.play_game()            # one game (a deal) of Spite & Malice, or a round of Nerts
    table.problem()              # '' when both consoles agree, else what went wrong

Each console is a game object, a Session and a Channel over one end of the Wire
(engine_core/link/loopback.py). The driver plays every person's seat with the game's own
computer player (Spite & Malice: the bot's moves one at a time, with now and then an undo of
one's own move; Nerts: nerts_bot.act at a person's pace), advances both game clocks (held while
a session is paused) and may cut the wire at random times for a random while. Everything is
allocated in the constructor: playing allocates nothing, so the same driver runs under
micropython.heap_lock().
"""

from array import array

from engine_core import OVER, PLAYING
from engine_core import games
from engine_core import rng
from engine_core.game import V_TURN
from engine_core.link import session as ls
from engine_core.link.channel import Channel
from engine_core.link.loopback import Wire
from engine_core.link.statehash import state_hash

DEAL_MOVE = 0xFF0000
STEP_MS = 20  # the driver's frame: both consoles poll and tick this often
SM_LEVEL = 1  # the Spite & Malice computer player's level the people play at
NERTS_PACE = 450  # ms between a Nerts person's actions, on average


class CountingEnd:
    """A transport that counts the bytes written through it (what goes on the wire)."""

    def __init__(self, end):
        self.end = end
        self.written = 0
        self.reads = 0  # reads that gave bytes (on the simulated wire: a frame each)

    def write(self, buf, n):
        k = self.end.write(buf, n)
        self.written += k
        return k

    def readinto(self, buf):
        n = self.end.readinto(buf)
        if n:
            self.reads += 1
        return n


def act_nerts(t, i):
    """Console i of a table `t` (a Table here, a Party in party_play.py) plays its person's
    Nerts: deals when the round is over and a deal is left, else moves at the person's pace."""
    game = t.games[i]
    s = t.sessions[i]
    if game.vars[0] != PLAYING:
        if s.may_deal() and t.deal_rounds:
            t.deal_rounds -= 1
            game.apply(DEAL_MOVE)
            s.local_move(DEAL_MOVE, t.now)
        return
    if game.clock_ms < t.next_act[i]:
        return
    t.next_act[i] = game.clock_ms + NERTS_PACE // 2 + t.rand(NERTS_PACE)
    if game.bot.act(s.my_seat):
        s.local_move(game.history.last_move(), t.now)


class Table:
    def __init__(self, name, seed=1, faults=(0, 0, 0, 0), delay=0, cuts=0, players=0, options=0,
                 undo_rate=0):
        """name: spite_malice or nerts; faults: per-mille drop, dup, reorder, corrupt per chunk;
        delay: ms on the wire; cuts: per-mille chance per frame that the wire is cut (for 1 to
        12 s); players: Nerts table size (2 people, the rest computer players); undo_rate:
        per-mille chance that a Spite & Malice person takes back a move they may undo."""
        cls = games.load(name)
        self.name = name
        self.nerts = name == "nerts"
        if players == 0:
            players = 4 if self.nerts else 2
        self.players = players
        self.seats = bytearray(players)
        for p in range(players):
            self.seats[p] = ls.HERE if p == 0 else ls.THERE if p == 1 else ls.COMPUTER
        self.games = [cls(players, options), cls(players, options)]
        self.wire = Wire(seed, faults[0], faults[1], faults[2], faults[3], delay)
        self.ends = [CountingEnd(self.wire.end(0)), CountingEnd(self.wire.end(1))]
        self.channels = [Channel(self.ends[0], 1 + seed % 100), Channel(self.ends[1], 101 + seed % 100)]
        self.sessions = [ls.Session(self.channels[0]), ls.Session(self.channels[1])]
        self.seed = seed
        self.x = rng.seed_state(seed + 77)
        self.cuts = cuts
        self.cut_until = 0
        self.undo_rate = undo_rate
        self.now = 0
        self.fresh = bytearray(2)  # S&M: the bot starts a new plan at this console
        self.next_act = array("i", [0, 0])  # Nerts: when the person at each console acts next
        self.flags = array("i", [0, 0])  # every flag each session raised
        self.pauses = 0
        self.resumes = 0
        self.cut_count = 0
        self.turns = 0  # S&M turns (hash points) passed
        self.undos = 0
        self.games_played = 0  # S&M games (deals) finished
        self.steps = 0
        self.moves = 0  # moves made at the consoles (people's; Nerts computer players' too)
        self.mismatch = 0  # turns or seconds where the two hashes differed (checked here too)
        self.first_problem = ""
        self.dealing = False  # S&M: the loser deals the next game (play_match)
        self.acting = True  # the driver plays the people's seats (off: a test moves by hand)
        self.allow_desync = False  # a test that makes a desync on purpose
        self.deal_rounds = 0  # Nerts: rounds the host deals after the first
        self.seen = bytearray(256)  # every_card_once's scratch

    def rand(self, n):
        self.x = rng.step(self.x)
        return self.x % n

    # --- start ---

    def start(self):
        s0 = self.sessions[0]
        s1 = self.sessions[1]
        g0 = self.games[0]
        if self.nerts:
            g0.set_computer(3, 4)  # the computer seats at the fastest pace: short rounds
        s1.join(0)
        s0.host(g0, self.seed, g0.options, self.seats, 0)
        for _ in range(500):
            self.now += STEP_MS
            self.wire.deliver(self.now)
            if s1.poll(self.now) & ls.OFFER:
                s1.accept(self.games[1], self.now)
            s0.poll(self.now)
            if s0.state == ls.S_PLAYING and s1.state == ls.S_PLAYING:
                self.fresh[0] = 1
                self.fresh[1] = 1
                self.next_act[0] = 300
                self.next_act[1] = 450
                return True
        self.fail("the hello did not finish")
        return False

    # --- one frame ---

    def step(self):
        self.steps += 1
        self.now += STEP_MS
        self.wire.deliver(self.now)
        if self.cuts:
            if self.cut_until:
                if self.now >= self.cut_until:
                    self.cut_until = 0
                    self.wire.cut(False)
            elif self.rand(1000) < self.cuts:
                self.cut_until = self.now + 1000 + self.rand(11000)
                self.cut_count += 1
                self.wire.cut(True)
        for i in range(2):
            s = self.sessions[i]
            if s.state == ls.S_PLAYING and self.acting:
                if self.nerts:
                    self.act_nerts(i)
                else:
                    self.act_spite_malice(i)
            if s.state != ls.S_PAUSED and s.state != ls.S_LEFT:
                self.games[i].tick(STEP_MS)
            f = s.poll(self.now)
            self.flags[i] |= f
            if f & ls.PAUSED:
                self.pauses += 1
            if f & ls.RESUMED:
                self.resumes += 1

    def act_spite_malice(self, i):
        game = self.games[i]
        s = self.sessions[i]
        if game.vars[0] != PLAYING:
            if s.may_deal() and self.dealing:
                game.apply(DEAL_MOVE)
                s.local_move(DEAL_MOVE, self.now)
                self.fresh[0] = 1
                self.fresh[1] = 1
            return
        if game.vars[V_TURN] != s.my_seat:
            return
        if self.undo_rate and s.may_undo() and self.rand(1000) < self.undo_rate:
            game.undo()
            s.local_undo(self.now)
            self.undos += 1
            self.fresh[i] = 1
            return
        move = game.bot.step_move(game, SM_LEVEL, self.fresh[i] == 1)
        self.fresh[i] = 0
        game.apply(move)
        s.local_move(move, self.now)
        self.moves += 1
        if game.vars[V_TURN] != s.my_seat or game.vars[0] != PLAYING:
            self.fresh[i] = 1

    def act_nerts(self, i):
        act_nerts(self, i)

    # --- whole games ---

    def quiet(self):
        """Nothing on its way that could change a game: Spite & Malice, both sessions' queues
        and both channels empty; Nerts, every move final on both consoles (the clocks and
        hashes that keep flowing change nothing)."""
        for i in range(2):
            s = self.sessions[i]
            if s.timeline.count or s.asked or s.state != ls.S_PLAYING:
                return False
            if not self.nerts and (s.outbox.waiting() or self.channels[i].pending()):
                return False
        return True

    def settle(self, limit):
        """Run frames (no cut) until both consoles are quiet and agree, at most `limit`."""
        if self.cut_until:
            self.cut_until = 0
            self.wire.cut(False)
        cuts = self.cuts
        self.cuts = 0
        for _ in range(limit):
            self.step()
            if self.quiet() and state_hash(self.games[0]) == state_hash(self.games[1]):
                break
        self.cuts = cuts

    def play_game(self, max_steps=60000):
        """Play one Spite & Malice game (to its end, and the next one dealt: both consoles
        agree on the deal) or one Nerts round, then let the link settle."""
        g0 = self.games[0]
        g1 = self.games[1]
        if self.nerts:
            for _ in range(max_steps):
                self.step()
                if g0.vars[0] != PLAYING and g1.vars[0] != PLAYING and self.quiet():
                    break
        else:
            turns = self.sessions[0].turn_no
            for _ in range(max_steps):
                self.step()
                if g0.vars[0] == OVER and g1.vars[0] == OVER and self.quiet():
                    break
            self.turns += self.sessions[0].turn_no - turns
            self.games_played += 1
        self.settle(3000)
        self.check()

    def play_match(self, max_games=60):
        """Spite & Malice games until the match is over (deals made by the loser)."""
        for _ in range(max_games):
            self.play_game()
            if self.first_problem or self.games[0].match_over():
                return
            self.dealing = True
            for _ in range(200):  # the loser deals the next game
                self.step()
                if self.games[0].vars[0] == PLAYING and self.games[1].vars[0] == PLAYING:
                    break
            self.dealing = False

    def check(self):
        """Both consoles hold the same state, every card once, and compared every hash."""
        g0 = self.games[0]
        g1 = self.games[1]
        if state_hash(g0) != state_hash(g1):
            self.fail("the consoles' states differ at the end")
        for i in range(2):
            if not every_card_once(self.games[i], self.seen):
                self.fail("a card is missing or twice")
        for i in range(2):
            s = self.sessions[i]
            if (s.desyncs or s.refused) and not self.allow_desync:
                self.fail("a desync was found during play")

    def fail(self, text):
        if not self.first_problem:
            self.first_problem = text

    def problem(self):
        return self.first_problem

    def bytes_on_wire(self):
        return self.ends[0].written + self.ends[1].written

    def session_bytes(self):
        return self.sessions[0].bytes_sent + self.sessions[1].bytes_sent


def every_card_once(game, seen):
    """Every card of the game is in exactly one place (seen: a scratch bytearray(256))."""
    for c in range(256):
        seen[c] = 0
    piles = game.piles
    for p in range(piles.count):
        s = piles.start[p]
        for i in range(s, s + piles.size[p]):
            c = piles.cards[i]
            if seen[c]:
                return False
            seen[c] = 1
    for c in range(256):
        if game.is_card(c) and not seen[c]:
            return False
    return True
