"""Computer players for Nerts: when each acts (speed) and what it sees and prefers (skill).

Each computer player acts on a schedule of the game clock: in every period of its speed level
it acts once (slot k starts at k * period, shifted by p / players of a period so that players
spread over it), at a point in the slot's first quarter, so actions come one period apart
+-25 %. tick(game, ms) runs the clock on (at most MAX_TICK_SLOTS scheduled times a tick); at each
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
    ms per action  3000  1800  1000   550   300      (SPEEDS)

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

from engine_core import PLAYING
from engine_core import rng
from engine_core.game import ACTION, V_RNG, V_STATUS
from engine_core.games.nerts_moves import (CALL, CYCLE, FLIP, NERTS, SLIDE, STOCK, STRIDE,
                                           V_PASS, WASTE, shift)

SPEEDS = (3000, 1800, 1000, 550, 300)
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


def attach(game):
    """Allocate the computer players' settings (Game.attach_ai, at start-up)."""
    n = game.players
    game.computer = bytearray(n)
    game.speed = bytearray(n)
    game.skill = bytearray(n)
    game.acted = 0  # moves the computer players made in the last tick (0: nothing to redraw)
    game.draw_x = 1  # the generator of the action under way (see act)
    # next_time's last answer per player: next_at[p], the first slot after next_from[p], for
    # the generator state sched_rng. A cache of what the state determines, not state itself.
    game.next_at = array("i", [0] * n)
    game.next_from = array("i", [-1] * n)
    game.sched_rng = 0
    game.bot_moves = array("i", [0] * game.PLAYER_MAX_MOVES)
    for p in range(n):
        game.computer[p] = 1 if p > 0 else 0
        game.speed[p] = DEFAULT_SPEED
        game.skill[p] = DEFAULT_SKILL


def configure(game, player, speed, skill):
    if speed < 0:
        game.computer[player] = 0
        return
    game.computer[player] = 1
    game.speed[player] = speed if speed < len(SPEEDS) else len(SPEEDS) - 1
    game.skill[player] = skill if skill < SKILLS else SKILLS - 1
    game.next_from[player] = -1  # a new period: work its schedule out again


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


def _noise(game, p, k):
    """A random number for player p and k, worked out from the game's generator state and
    nothing else: the same for the same state on every runtime, nothing kept between calls."""
    return _mix(game.vars[V_RNG] ^ ((k & 0x1FFFFF) << 8) ^ p)


def _random(game, p):
    """The next random number of the action player p is making now (act seeds it)."""
    game.draw_x = rng.step(game.draw_x)
    return game.draw_x


def _phase(game, p):
    """Where player p's slots start within its period: the players spread evenly over it."""
    period = SPEEDS[game.speed[p]]
    return p * period // game.players


def slot_time(game, p, k):
    """When player p acts in slot k: the slot's start plus up to a quarter period."""
    period = SPEEDS[game.speed[p]]
    return k * period + _phase(game, p) + _noise(game, p, k) % ((period >> 2) + 1)


def next_time(game, p, after):
    """Player p's first scheduled time later than `after` (ms on the game clock), from the
    last answer while it still holds (a tick asks for every player: 0.1 M fuel saved)."""
    if game.sched_rng != game.vars[V_RNG]:
        game.sched_rng = game.vars[V_RNG]
        for q in range(game.players):
            game.next_from[q] = -1
    if game.next_from[p] >= 0 and game.next_from[p] <= after < game.next_at[p]:
        return game.next_at[p]
    t = _schedule_after(game, p, after)
    game.next_from[p] = after
    game.next_at[p] = t
    return t


def _schedule_after(game, p, after):
    period = SPEEDS[game.speed[p]]
    k = (after - _phase(game, p)) // period
    if k < 0:
        k = 0
    t = slot_time(game, p, k)
    while t <= after:
        k += 1
        t = slot_time(game, p, k)
    return t


def _crowded(game, p, t):
    """Does another computer player act less than a frame before t (or at t, first)? Then
    p lets this slot pass: the table takes one action a frame."""
    for q in range(game.players):
        if q != p and game.computer[q]:
            s = next_time(game, q, t - GAP_MS)
            if s < t or (s == t and q < p):
                return True
    return False


# --- the clock ---

def tick(game, ms):
    """Advance the game clock by ms, letting computer players act in time order (at most
    MAX_TICK_SLOTS of their scheduled times: the rest of a longer tick passes quietly)."""
    room = 0x3FFFFFFF - game.clock_ms
    if ms > room:  # the clock wraps (after 12 days): the rest of the tick passes quietly
        tick(game, room)
        game.advance_clock(ms - room)
        return
    game.acted = 0
    end = game.clock_ms + ms
    slots = 0
    while game.bots and game.vars[V_STATUS] == PLAYING and slots < MAX_TICK_SLOTS:
        slots += 1
        who = -1
        at = 0
        for p in range(game.players):
            if game.computer[p]:
                t = next_time(game, p, game.clock_ms)
                if who < 0 or t < at:
                    who = p
                    at = t
        if who < 0 or at > end:
            break
        game.advance_clock(at - game.clock_ms)
        if not _crowded(game, who, at):
            act(game, who)
    game.advance_clock(end - game.clock_ms)


def act(game, p):
    """Player p makes its move now, if it sees one. Its random choices come from a generator
    seeded by the player and the clock: the same whenever this state is played from."""
    game.draw_x = _noise(game, p, 0x100000 | (game.clock_ms & 0xFFFFF))
    skill = game.skill[p]
    if game.moves.through(p):
        skill = BEST_SKILL  # through the stock without a play: it looks hard at everything
    code = choose(game, p, skill, True)
    if code >= 0:
        game.apply(code)
        game.acted += 1


# --- choosing a move ---

def choose(game, p, skill, chance):
    """The move player p makes at a skill level, or -1 (nothing it sees). With chance off
    (hints) it overlooks nothing and draws no random number."""
    base = p * STRIDE
    piles = game.piles
    mv = game.moves
    if mv.known(p) == 2 and mv.through(p):
        # Known to have no play: flip, or now and then cycle, without looking again.
        if chance and piles.size[base + STOCK] >= 2 and _random(game, p) % 3 == 0:
            return ACTION << 16 | CYCLE << 8 | p
        if piles.size[base + STOCK] + piles.size[base + WASTE] > 0:
            return ACTION << 16 | FLIP << 8 | p
        return -1
    mv.fill_need()
    moves = game.bot_moves
    n = mv.player_moves(p, moves, 0, False)
    best = -1
    best_score = 0
    miss = _MISS_ONE_IN[skill]
    for i in range(n):
        code = moves[i]
        score = rate(game, p, code, skill)
        if score == _CYCLE_SCORE and chance and _random(game, p) % 3 != 0:
            score = _QUIET_CYCLE_SCORE
        elif score == _CYCLE_SCORE and not chance:
            score = _QUIET_CYCLE_SCORE
        if score > best_score:
            if chance and miss and score > _CYCLE_SCORE and _random(game, p) % miss == 0:
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

