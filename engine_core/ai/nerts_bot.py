"""Computer players for Nerts: when each acts (speed) and what it sees and prefers (skill).

Each computer player acts on a schedule of the game clock: in every period of its speed level
it acts once (slot k starts at k * period, shifted by p / players of a period so that players
spread over it), at a point in the slot's first quarter, so actions come one period apart
+-25 %. NertsBots.tick(ms) runs the clock on (at most MAX_TICK_SLOTS scheduled times a tick); at each
scheduled time that player looks at the position as it is at that moment and acts. The
soonest acts first, so simultaneous plays resolve in time order: a foundation place taken by
an earlier action is no longer there for a later one, and the later player chooses again
among what is left.

The table takes one action at a time, at least GAP_MS (33 ms, one display frame) apart: a
player whose time falls less than a frame after another's (or on it, with a higher player
number) lets that slot pass, so a 33 ms tick runs at most one computer action (the frame
budget in docs/performance.md). The schedule and every random choice are worked out from
what the state shows (the game's generator state, the clock, the player and the slot), never
kept aside: a game loaded from its state plays on as the game it came from did, on CPython
and on MicroPython alike. Two limits: the state has no field for the cards a player has
turned since its last play, so a player who had gone through its stock without a play
looks at everything again after a load (and may choose otherwise: 2 of 87 sampled rounds);
and in the last period before the clock wraps at 2**30 ms (12 days on one clock) slot times
pass 2**30, boxed ints on MicroPython.

    speed level      0     1     2     3     4
    ms per action  3000  1800  1000   750   300      (SPEEDS)

    skill 0  sees the Nerts top and the waste top only (to foundations and work piles);
             overlooks a play it sees 1 time in 3;
    skill 1  also plays work-pile tops to the foundations; overlooks 1 in 5;
    skill 2  also moves runs between work piles to free a space for the Nerts pile or to
             uncover a card for a foundation or for the Nerts top; overlooks 1 in 10;
    skill 3  also slides cards under, builds from the waste toward the Nerts top and keeps
             empty spaces for the Nerts pile; never overlooks.

Preferences (all levels): call Nerts as soon as the Nerts pile is empty; then the Nerts pile
first (to a foundation, onto a work pile, into a space); then foundations; then building.
A player that has gone through its whole stock without a play looks harder: it then sees
every play, as skill 3 does, so a round always ends. A stuck player cycles its stock now and
then and otherwise flips.

Who is a computer player: by default every player but p1, at speed 2 and skill 2, acting
only while game.bots is on (the protocol's `bots on`). Game.set_bot(player, speed, skill)
changes one (speed -1: the player waits for commands).

Nothing here allocates once init() has run: one action costs at most one move generation
for the player plus a rating per move; a player known to have no play (game.moves.known)
flips or cycles without looking again (tools/bench/bench_nerts.py has the fuel: about 0.7 M a
move, 1.4 M at worst).
"""

from array import array

from micropython import const

from engine_core import PLAYING
from engine_core import rng
from engine_core.game import ACTION, V_RNG, V_STATUS
from engine_core.games.nerts_moves import (CALL, CYCLE, FLIP, NERTS, SLIDE, STOCK, STRIDE,
                                           V_PASS, WASTE, shift)

_TYPING = const(0)  # true for the type checker alone (tools/device/mypy-device.ini, always_true)
if _TYPING:
    from engine_core.games.nerts import Nerts

SPEEDS = (3000, 1800, 1000, 750, 300)
SKILLS = 4
BEST_SKILL = 3
DEFAULT_SPEED = 2
DEFAULT_SKILL = 2
_MISS_ONE_IN = (3, 5, 10, 0)
GAP_MS = 33  # actions at the table are at least one display frame apart
# The most scheduled times one tick works through (each an action or a slot let pass): the rest
# of a longer tick passes with the computer players waiting, so that a tick costs in proportion
# to its actions, not to its milliseconds (tests/test_nerts.py holds the largest tick under
# 1 G fuel on MicroPython). A display frame holds one; 512 is 51 s of a table of four at the
# fastest speed.
MAX_TICK_SLOTS = 512

_CALL_SCORE = 1000
_FLIP_SCORE = 10
_CYCLE_SCORE = 20  # when the player's generator says so (1 time in 3)
_QUIET_CYCLE_SCORE = 5  # otherwise: below a flip
# NertsBots.sched: the players' next scheduled times, the times they were worked out after, and
# the generator state they hold for (Nerts has at most four players).
_AT = const(0)
_FROM = const(4)
_RNG = const(8)
_SCHED = const(9)


def attach(game):
    """The game's computer players, a NertsBots the game keeps as its bot (Game.attach_ai, at
    start-up)."""
    return NertsBots(game)


class NertsBots:
    """The computer players of one Nerts game: who is one, at which speed and skill, and the
    schedule worked out from the game's state. The game holds it as game.bot; the contract:

      configure(player, speed, skill)  make `player` a computer player (speed -1: one who waits
                                       for commands); Nerts.set_bot
      is_computer(player)              whether `player` is a computer player
      any_computer()                   whether any player is (the console may not rest)
      speed_of(player), skill_of(player)  its levels (SPEEDS index, 0 .. SKILLS - 1)
      tick(ms)                         run the game clock on by ms, the computer players acting
                                       in time order; returns how many moves they made
      acted()                          how many they made in the last tick
      act(player)                      `player` makes its move now if it sees one; 1 or 0
      choose(player, skill, chance)    the move `player` would make at a skill level, or -1
                                       (the hint: BEST_SKILL, chance off)
      next_time(player, after)         `player`'s first scheduled time after `after`

    The saved game keeps computer, speed and skill (bytearrays, one entry per player): Nerts
    names them in SAVED, held here (SAVED_IN), and game_record.py writes and reads them in
    place. It asks of the game: its piles, vars, moves (NertsMoves), players, found0,
    clock_ms, bots, apply and advance_clock. Nothing here allocates after __init__.
    """

    def __init__(self, game: "Nerts"):
        n = game.players
        self.game = game
        self.vars = game.vars
        self.computer = bytearray(n)
        self.speed = bytearray(n)
        self.skill = bytearray(n)
        self.moved = 0  # moves the computer players made in the last tick (0: nothing to redraw)
        self.draw_x = 1  # the generator of the action under way (see act)
        # next_time's last answer per player, a cache of what the state determines, not state:
        # sched[p] (_AT + p), the first slot after sched[_FROM + p], for the generator state
        # sched[_RNG]. One array, not three attributes: 64 bytes less heap a game.
        self.sched = array("i", [0] * _SCHED)
        for p in range(4):
            self.sched[_FROM + p] = -1
        self.moves = array("i", [0] * game.PLAYER_MAX_MOVES)
        for p in range(n):
            self.computer[p] = 1 if p > 0 else 0
            self.speed[p] = DEFAULT_SPEED
            self.skill[p] = DEFAULT_SKILL

    def configure(self, player, speed, skill):
        if speed < 0:
            self.computer[player] = 0
            return
        self.computer[player] = 1
        self.speed[player] = speed if speed < len(SPEEDS) else len(SPEEDS) - 1
        self.skill[player] = skill if skill < SKILLS else SKILLS - 1
        self.sched[_FROM + player] = -1  # a new period: work its schedule out again

    def is_computer(self, player):
        return self.computer[player] != 0

    def any_computer(self):
        for p in range(self.game.players):
            if self.computer[p]:
                return True
        return False

    def speed_of(self, player):
        return self.speed[player]

    def skill_of(self, player):
        return self.skill[player]

    def acted(self):
        """The moves the computer players made in the last tick (0: nothing to redraw)."""
        return self.moved

    def _random(self):
        """The next random number of the action under way (act seeds it)."""
        self.draw_x = rng.step(self.draw_x)
        return self.draw_x

    def next_time(self, p, after):
        """Player p's first scheduled time later than `after` (ms on the game clock), from the
        last answer while it still holds (a tick asks for every player: 0.1 M fuel saved)."""
        sched = self.sched
        x = self.vars[V_RNG]
        if sched[_RNG] != x:
            sched[_RNG] = x
            for q in range(_FROM, _FROM + 4):
                sched[q] = -1
        if sched[_FROM + p] >= 0 and sched[_FROM + p] <= after < sched[_AT + p]:
            return sched[_AT + p]
        # Slot k starts at k periods, shifted by p / players of a period (the players spread
        # evenly over it); player p acts in it up to a quarter period later (_slot_time).
        period = SPEEDS[self.speed[p]]
        phase = p * period // self.game.players
        k = (after - phase) // period
        if k < 0:
            k = 0
        t = _slot_time(x, p, k, period, phase)
        while t <= after:
            k += 1
            t = _slot_time(x, p, k, period, phase)
        sched[_FROM + p] = after
        sched[_AT + p] = t
        return t

    def _crowded(self, p, t):
        """Does another computer player act less than a frame before t (or at t, first)? Then
        p lets this slot pass: the table takes one action a frame."""
        computer = self.computer
        for q in range(self.game.players):
            if q != p and computer[q]:
                s = self.next_time(q, t - GAP_MS)
                if s < t or (s == t and q < p):
                    return True
        return False

    # --- the clock ---

    def tick(self, ms):
        """Advance the game clock by ms, letting computer players act in time order (at most
        MAX_TICK_SLOTS of their scheduled times: the rest of a longer tick passes quietly);
        returns the moves they made."""
        game = self.game
        room = 0x3FFFFFFF - game.clock_ms
        if ms > room:  # the clock wraps (after 12 days): the rest of the tick passes quietly
            acted = self.tick(room)
            game.advance_clock(ms - room)
            self.moved = acted
            return acted
        acted = 0
        computer = self.computer
        end = game.clock_ms + ms
        slots = 0
        while game.bots and game.vars[V_STATUS] == PLAYING and slots < MAX_TICK_SLOTS:
            slots += 1
            who = -1
            at = 0
            for p in range(game.players):
                if computer[p]:
                    t = self.next_time(p, game.clock_ms)
                    if who < 0 or t < at:
                        who = p
                        at = t
            if who < 0 or at > end:
                break
            game.advance_clock(at - game.clock_ms)
            if not self._crowded(who, at):
                acted += self.act(who)
        game.advance_clock(end - game.clock_ms)
        self.moved = acted
        return acted

    def act(self, p):
        """Player p makes its move now, if it sees one (1: it did, 0: not). Its random choices
        come from a generator seeded by the player and the clock: the same whenever this state
        is played from."""
        game = self.game
        self.draw_x = _noise(game.vars[V_RNG], p, 0x100000 | (game.clock_ms & 0xFFFFF))
        skill = self.skill[p]
        if game.moves.through(p):
            skill = BEST_SKILL  # through the stock without a play: it looks hard at everything
        code = self.choose(p, skill, True)
        if code >= 0:
            game.apply(code)
            return 1
        return 0

    # --- choosing a move ---

    def choose(self, p, skill, chance):
        """The move player p makes at a skill level, or -1 (nothing it sees). With chance off
        (hints) it overlooks nothing and draws no random number."""
        game = self.game
        base = p * STRIDE
        piles = game.piles
        mv = game.moves
        if mv.known(p) == 2 and mv.through(p):
            # Known to have no play: flip, or now and then cycle, without looking again.
            if chance and piles.size[base + STOCK] >= 2 and self._random() % 3 == 0:
                return ACTION << 16 | CYCLE << 8 | p
            if piles.size[base + STOCK] + piles.size[base + WASTE] > 0:
                return ACTION << 16 | FLIP << 8 | p
            return -1
        mv.fill_need()
        moves = self.moves
        n = mv.player_moves(p, moves, 0, False)
        best = -1
        best_score = 0
        miss = _MISS_ONE_IN[skill]
        for i in range(n):
            code = moves[i]
            score = rate(game, p, code, skill)
            if score == _CYCLE_SCORE and chance and self._random() % 3 != 0:
                score = _QUIET_CYCLE_SCORE
            elif score == _CYCLE_SCORE and not chance:
                score = _QUIET_CYCLE_SCORE
            if score > best_score:
                if chance and miss and score > _CYCLE_SCORE and self._random() % miss == 0:
                    continue  # overlooked
                best = code
                best_score = score
        if best_score <= _CYCLE_SCORE and mv.known(p) == 0:
            if skill == BEST_SKILL:
                mv.note(p, 2)  # it saw every move and none is a play
            elif _flip_gets_through(game, p):
                # Worth knowing now: the check for everyone being stuck after this flip then
                # looks at the new waste top only, not at every move again.
                mv.note(p, 1 if mv.any_play(moves, 0, n) else 2)
        return best


def _noise(x, p, k):
    """A random number for player p and k, worked out from the game's generator state x and
    nothing else: the same for the same state on every runtime, nothing kept between calls."""
    return _mix(x ^ ((k & 0x1FFFFF) << 8) ^ p)


def _slot_time(x, p, k, period, phase):
    """When player p acts in slot k (for the generator state x): the slot's start plus up to a
    quarter period."""
    return k * period + phase + _noise(x, p, k) % ((period >> 2) + 1)


def _mix(x):
    """A scrambled 30-bit number (xorshift steps, every value below 2**30: small ints on
    MicroPython), a generator state in 1 .. rng.M - 1."""
    for _ in range(2):
        x ^= (x & 0x1FFFF) << 13
        x ^= x >> 17
        x ^= (x & 0x1FFFFFF) << 5
    if x == 0 or x >= rng.M:
        x = 1
    return x


def _flip_gets_through(game, p):
    base = p * STRIDE
    stock = game.piles.size[base + STOCK]
    turned = stock if stock < 3 else 3
    return game.vars[V_PASS + p] + turned >= stock + game.piles.size[base + WASTE]


def rate(game, p, code, skill):
    """How much player p at a skill level wants a move (0: it does not see it)."""
    src = code >> 16
    if src == ACTION:
        action = (code >> 8) & 0xFF
        if action == CALL:
            return _CALL_SCORE
        if action == FLIP:
            return _FLIP_SCORE
        if action == CYCLE:
            return _CYCLE_SCORE
        return 0
    dst = (code >> 8) & 0xFF
    arg = code & 0xFF
    where = src % STRIDE
    piles = game.piles
    if dst >= game.found0:
        if where == NERTS:
            return 900
        if where == WASTE:
            return 700
        return 650 if skill >= 1 else 0
    nerts = p * STRIDE + NERTS
    if arg & SLIDE:
        if skill < 3:
            return 0
        if where == NERTS:
            return 840
        return 420 if where == WASTE else 0
    if piles.size[dst] == 0:
        if where == NERTS:
            return 800
        if where == WASTE:
            if skill >= 3 and piles.size[nerts] > 0:
                return 0  # the space is worth more to the Nerts pile
            return 300
        return 0
    if where == NERTS:
        return 850
    if where == WASTE:
        if skill >= 3 and piles.size[nerts] > 0:
            mv = game.moves
            under = mv.top_value(dst)
            if under >= 0 and mv.card_fits_value(piles.top(nerts), shift(under, 1)):
                return 780  # the Nerts top can follow it
        return 400
    # Work to work, onto a card.
    if skill < 2:
        return 0
    na = piles.size[src]
    if arg == na:
        return 750 if piles.size[nerts] > 0 else 0
    x = piles.card(src, na - arg - 1)
    mv = game.moves
    if mv.goes_to_foundation(x):
        return 600
    if piles.size[nerts] > 0:
        base = mv.run_base(src, 0)
        if base >= 0 and mv.card_fits_value(piles.top(nerts), shift(base, na - arg - 1)):
            return 760
    return 0

