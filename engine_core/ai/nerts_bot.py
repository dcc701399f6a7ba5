"""Computer players for Nerts: when each acts (speed) and what it sees and prefers (skill).

Each computer player has a countdown, the milliseconds until its next action. tick(game, ms)
runs the countdowns down; when one reaches zero that player looks at the position as it is
at that moment and acts. The soonest acts first (ties go to the lower player number), so
simultaneous plays resolve in time order: a foundation place taken by an earlier action is no
longer there for a later one, and the later player chooses again among what is left.

The table takes one action at a time, at least GAP_MS (33 ms, one display frame) apart: a
player due sooner waits for the gap and still goes first, so a 33 ms tick runs at most one
computer action (the frame budget in docs/performance.md). Every action, a flip included,
costs one delay of the player's speed level, with +-25 % jitter drawn from the player's own
generator (seeded from the game's generator at each deal, so a game replays identically on
CPython and MicroPython).

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
for the player plus a rating per move; a player known to have no play (game.play_known)
flips or cycles without looking again (tools/bench_nerts.py has the fuel: about 0.7 M a
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

_CALL_SCORE = 1000
_FLIP_SCORE = 10
_CYCLE_SCORE = 20  # when the player's generator says so (1 time in 3)
_QUIET_CYCLE_SCORE = 5  # otherwise: below a flip


def init(game):
    """Allocate the computer players' state (start-up only)."""
    n = game.players
    game.computer = bytearray(n)
    game.speed = bytearray(n)
    game.skill = bytearray(n)
    game.wait = array("i", [0] * n)  # ms until each player's next action (< 0: overdue)
    game.hold = 0  # ms until the table takes the next action (GAP_MS after the last)
    game.acted = 0  # moves the computer players made in the last tick (0: nothing to redraw)
    game.bot_rng = array("i", [1] * n)
    game.bot_moves = array("i", [0] * game.PLAYER_MAX_MOVES)
    for p in range(n):
        game.computer[p] = 1 if p > 0 else 0
        game.speed[p] = DEFAULT_SPEED
        game.skill[p] = DEFAULT_SKILL


def reset(game):
    """New generators and countdowns for a new deal or round."""
    x = game.vars[V_RNG]
    for p in range(game.players):
        for _ in range(3):
            x = rng.step(x)
        game.bot_rng[p] = x
        game.wait[p] = delay(game, p)
    game.hold = 0


def configure(game, player, speed, skill):
    if speed < 0:
        game.computer[player] = 0
        return
    game.computer[player] = 1
    game.speed[player] = speed if speed < len(SPEEDS) else len(SPEEDS) - 1
    game.skill[player] = skill if skill < SKILLS else SKILLS - 1
    game.wait[player] = delay(game, player)


def _random(game, p):
    x = rng.step(game.bot_rng[p])
    game.bot_rng[p] = x
    return x


def delay(game, p):
    """The next countdown of player p: its speed's delay, +-25 %."""
    base = SPEEDS[game.speed[p]]
    return base - (base >> 2) + _random(game, p) % ((base >> 1) + 1)


# --- the clock ---

def tick(game, ms):
    """Advance the game clock by ms, letting computer players act in time order."""
    game.acted = 0
    while game.bots and game.vars[V_STATUS] == PLAYING:
        who = -1
        for p in range(game.players):
            if game.computer[p] and (who < 0 or game.wait[p] < game.wait[who]):
                who = p
        if who < 0:
            break
        at = game.wait[who]
        if at < game.hold:
            at = game.hold
        if at > ms:
            break
        _run_down(game, at)
        _advance(game, at)
        ms -= at
        act(game, who)
        game.hold = GAP_MS
    if game.bots and game.vars[V_STATUS] == PLAYING:
        _run_down(game, ms)
    _advance(game, ms)


def _run_down(game, ms):
    for p in range(game.players):
        if game.computer[p]:
            game.wait[p] -= ms
    game.hold -= ms
    if game.hold < 0:
        game.hold = 0


def _advance(game, ms):
    game.advance_clock(ms)  # wraps at 2**30 (a small int on every port)


def act(game, p):
    """Player p makes its move now (if it sees one) and starts its next countdown."""
    skill = game.skill[p]
    if game.through(p):
        skill = BEST_SKILL  # through the stock without a play: it looks hard at everything
    code = choose(game, p, skill, True)
    if code >= 0:
        game.apply(code)
        game.acted += 1
    game.wait[p] = delay(game, p)


# --- choosing a move ---

def choose(game, p, skill, chance):
    """The move player p makes at a skill level, or -1 (nothing it sees). With chance off
    (hints) it overlooks nothing and draws no random number."""
    base = p * STRIDE
    piles = game.piles
    if game.play_known[p] == 2 and game.through(p):
        # Known to have no play: flip, or now and then cycle, without looking again.
        if chance and piles.size[base + STOCK] >= 2 and _random(game, p) % 3 == 0:
            return ACTION << 16 | CYCLE << 8 | p
        if piles.size[base + STOCK] + piles.size[base + WASTE] > 0:
            return ACTION << 16 | FLIP << 8 | p
        return -1
    game.fill_need()
    moves = game.bot_moves
    n = game.player_moves(p, moves, 0, False)
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
    if best_score <= _CYCLE_SCORE and game.play_known[p] == 0:
        if skill == BEST_SKILL:
            game.play_known[p] = 2  # it saw every move and none is a play
        elif _flip_gets_through(game, p):
            # Worth knowing now: the check for everyone being stuck after this flip then
            # looks at the new waste top only, not at every move again.
            game.play_known[p] = 1 if game.any_play(moves, 0, n) else 2
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
            under = game.top_value(dst)
            if under >= 0 and game.card_fits_value(piles.top(nerts), shift(under, 1)):
                return 780  # the Nerts top can follow it
        return 400
    # Work to work, onto a card.
    if skill < 2:
        return 0
    na = piles.size[src]
    if arg == na:
        return 750 if piles.size[nerts] > 0 else 0
    x = piles.card(src, na - arg - 1)
    if game.goes_to_foundation(x):
        return 600
    if piles.size[nerts] > 0:
        base = game.run_base(src, 0)
        if base >= 0 and game.card_fits_value(piles.top(nerts), shift(base, na - arg - 1)):
            return 760
    return 0

