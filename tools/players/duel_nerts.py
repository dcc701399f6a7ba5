"""Nerts's computer levels against a stand-in person: python -m tools.players.duel_nerts [options].

Two seats: p1 is the stand-in person, p2 a computer player at a speed and skill level
(engine_core/ai/nerts_bot.py). The stand-in sees every legal move and chooses like a sensible
player: a Nerts call first, then every play to a foundation (the Nerts top, the waste top, a
work-pile top), then what frees its Nerts pile (the Nerts top onto a work pile or into a space,
a run moved to open a space or to let the Nerts top follow), then building from the waste;
else it flips its stock, and once it has gone through the stock without a play it moves the top
card to the bottom at the start of each pass. Its pace is set on the game clock: it looks at the
position, and its card move lands PACE seconds later (a flip or a cycle 0.3 s later), if the move
is still legal then (the computer may have taken the foundation place meanwhile: the time is
spent all the same); then it looks again. The computer acts on its own schedule in between
(game.tick), so a duel is the same for the same seed on every run.

For every (speed, skill, pace) it plays the same deals (seeds SEED .. SEED + ROUNDS - 1) and
reports the rounds played, the person's share of rounds won (most points; a tie counts half)
with a 95 % Wilson interval, and the median round length in game seconds.

    python -m tools.players.duel_nerts --rounds 200 --seed 5000
    python -m tools.players.duel_nerts --speeds 1 --skills 1 --paces 1.5 --rounds 50

--speeds, --skills: lists like 0,1,2 or ranges like 0-4; --paces: seconds per card move;
--cap MINUTES ends a round that lasts longer (counted as played; its points decide).
"""

import argparse
import math
import statistics
import sys
import time
from array import array

from engine_core import PLAYING, games
from engine_core.ai import nerts_bot
from engine_core.game import ACTION
from engine_core.games.nerts_moves import CALL, CYCLE, FLIP, STOCK, STRIDE, WASTE

FLIP_MS = 300  # a flip or a cycle of the stand-in's stock
HUMAN = 0  # the stand-in's seat (p1); the computer player is p2
PACES = (2.0, 1.5, 1.0)
_FOUNDATION_FIRST = 2000  # added to a play to a foundation: before anything else
_CALL_FIRST = 5000


class StandIn:
    """The stand-in person of one duel: what it does next and when its move lands."""

    def __init__(self, game, pace_ms):
        self.game = game
        self.pace_ms = pace_ms
        self.out = array("i", [0] * game.PLAYER_MAX_MOVES)
        self.log = []  # (game ms it chose, ms it landed, move code or -1 (waits), legal then)
        self.cycled = False  # its last action was a cycle

    def choose(self):
        """The move the stand-in makes in the position now, or -1 (none: it waits)."""
        game = self.game
        n = game.moves_of(HUMAN, self.out)
        best, best_score = -1, 0
        for i in range(n):
            code = self.out[i]
            score = self.rate(code)
            if score > best_score:
                best, best_score = code, score
        if best_score > 0:  # a play (flips and cycles rate 0 here)
            return best
        # No play: at the start of a pass through the stock (the waste just turned over) it
        # cycles, having been through without one; else it flips.
        size = game.piles.size
        base = HUMAN * STRIDE
        if (game.moves.through(HUMAN) and size[base + WASTE] == 0 and size[base + STOCK] >= 2
                and not self.cycled):
            return ACTION << 16 | CYCLE << 8 | HUMAN
        if size[base + STOCK] + size[base + WASTE] > 0:
            return ACTION << 16 | FLIP << 8 | HUMAN
        return -1

    def rate(self, code):
        game = self.game
        if code >> 16 == ACTION:
            action = (code >> 8) & 0xFF
            if action == CALL:
                return _CALL_FIRST
            return 0  # flips and cycles: chosen above when there is no play
        score = nerts_bot.rate(game, HUMAN, code, nerts_bot.BEST_SKILL)
        if score and (code >> 8) & 0xFF >= game.found0:
            score += _FOUNDATION_FIRST
        return score

    def cost_ms(self, code):
        """How long the move takes the stand-in: a flip or a cycle FLIP_MS, else the pace."""
        if code >> 16 == ACTION and (code >> 8) & 0xFF in (FLIP, CYCLE):
            return FLIP_MS
        return self.pace_ms

    def still_legal(self, code):
        n = self.game.moves_of(HUMAN, self.out)
        for i in range(n):
            if self.out[i] == code:
                return True
        return False


def play_round(game, speed, skill, pace_ms, seed, cap_ms, keep_log=False):
    """One round from a fresh deal: (the stand-in's points, the computer's, game ms, the
    stand-in's log or None)."""
    game.deal(seed)
    game.set_bot(HUMAN, -1, 0)
    game.set_bot(1, speed, skill)
    game.bots = True
    person = StandIn(game, pace_ms)
    while game.status() == PLAYING and game.clock_ms < cap_ms:
        code = person.choose()
        decided = game.clock_ms
        lands = decided + (person.cost_ms(code) if code >= 0 else FLIP_MS)  # -1: it waits
        game.tick(lands - decided)  # the computer acts in the meantime
        if game.status() != PLAYING:
            break
        legal = code >= 0 and person.still_legal(code)
        if keep_log:
            person.log.append((decided, game.clock_ms, code, legal))
        if legal:
            game.apply(code)
        person.cycled = code == ACTION << 16 | CYCLE << 8 | HUMAN
    return game.round_points(HUMAN), game.round_points(1), game.clock_ms, (person.log if keep_log else None)


def wilson(share, n, z=1.96):
    """The 95 % Wilson score interval of a share observed in n trials."""
    if n == 0:
        return 0.0, 1.0
    d = 1 + z * z / n
    mid = (share + z * z / (2 * n)) / d
    half = z * math.sqrt(share * (1 - share) / n + z * z / (4 * n * n)) / d
    return max(0.0, mid - half), min(1.0, mid + half)


def duel(speed, skill, pace_s, rounds, seed=1, cap_minutes=30, game=None):
    """Play `rounds` rounds of one cell; returns its figures as a dict."""
    if game is None:
        game = games.load("nerts")(2, games.options())
    won = 0.0
    lengths = []
    pace_ms = int(round(pace_s * 1000))
    for r in range(rounds):
        mine, theirs, ms, _ = play_round(game, speed, skill, pace_ms, seed + r, cap_minutes * 60000)
        won += 1.0 if mine > theirs else 0.5 if mine == theirs else 0.0
        lengths.append(ms / 1000.0)
    share = won / rounds
    low, high = wilson(share, rounds)
    return {"speed": speed, "skill": skill, "pace": pace_s, "rounds": rounds, "share": share,
            "low": low, "high": high, "median_s": statistics.median(lengths)}


def levels(text, top):
    """'0,2,3' or '0-4' as a list of levels, each 0 .. top."""
    out = []
    for part in text.split(","):
        a, _, b = part.partition("-")
        if not a.isdigit() or (b and not b.isdigit()):
            raise SystemExit("levels are like 0,1,2 or 0-4, got '%s'" % part)
        lo, hi = int(a), int(b) if b else int(a)
        if hi > top or lo > hi:
            raise SystemExit("levels run 0..%d, got '%s'" % (top, part))
        out.extend(range(lo, hi + 1))
    return out


def row(cell):
    return "| %d (%d ms) | %d | %.1f s | %d | %.0f %% (%.0f-%.0f) | %.0f s |" % (
        cell["speed"], nerts_bot.SPEEDS[cell["speed"]], cell["skill"], cell["pace"], cell["rounds"],
        100 * cell["share"], 100 * cell["low"], 100 * cell["high"], cell["median_s"])


HEADER = ("| computer speed (ms per action) | skill | person's pace per card move | rounds | person wins "
          "(95 % interval) | round length, median |\n| --- | --- | --- | --- | --- | --- |")


def main(argv):
    parser = argparse.ArgumentParser(prog="python -m tools.players.duel_nerts",
                                     description="Nerts computer levels against a stand-in person")
    parser.add_argument("--rounds", type=int, default=200)
    parser.add_argument("--seed", type=int, default=5000, help="the first deal of every cell")
    parser.add_argument("--speeds", default="0-%d" % (len(nerts_bot.SPEEDS) - 1))
    parser.add_argument("--skills", default="0-%d" % (nerts_bot.SKILLS - 1))
    parser.add_argument("--paces", default=",".join(str(p) for p in PACES), help="seconds per card move")
    parser.add_argument("--cap", type=int, default=30, help="minutes of game time before a round is cut off")
    args = parser.parse_args(argv)
    if args.rounds < 1:
        raise SystemExit("--rounds must be at least 1")
    speeds = levels(args.speeds, len(nerts_bot.SPEEDS) - 1)
    skills = levels(args.skills, nerts_bot.SKILLS - 1)
    paces = [float(p) for p in args.paces.split(",")]
    game = games.load("nerts")(2, games.options())
    print(HEADER)
    started = time.time()
    for speed in speeds:
        for skill in skills:
            for pace in paces:
                print(row(duel(speed, skill, pace, args.rounds, args.seed, args.cap, game)), flush=True)
    sys.stderr.write("%.0f s\n" % (time.time() - started))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
