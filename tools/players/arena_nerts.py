"""Nerts computer players against each other: python -m tools.players.arena nerts [options].

Every seat is a computer player with a speed and a skill level (engine_core/ai/nerts_bot.py);
each round is a fresh deal played on the game clock until someone calls Nerts or everyone is
stuck. Reports per seat the points per round, the share of rounds won (most points, ties
shared) and of Nerts calls, and the round length in game seconds.

    python -m tools.players.arena nerts --rounds 500 --seats 2/2,2/2,2/2,2/2
    python -m tools.players.arena nerts --rounds 200 --seats 0/2,2/2      # slowest bot vs a 1 s pace

--seats SPEED/SKILL,... one per player (2 to 4); --seed N the first deal; --jokers;
--cap MINUTES ends a round that lasts longer (counted as 'capped').
Against a stand-in person at a human pace: tools/players/duel_nerts.py.
"""

import argparse
import statistics
import sys
import time

from engine_core import PLAYING, games
from engine_core.ai import nerts_bot
from engine_core.games.nerts import V_ROUND_OVER

STEP_MS = 1000  # the arena's tick; the bots act at their own times inside it


def parse_seats(text):
    seats = []
    for part in text.split(","):
        speed, _, skill = part.partition("/")
        if not speed.isdigit() or not skill.isdigit():
            raise SystemExit("--seats wants SPEED/SKILL pairs like 2/2,0/3, got '%s'" % part)
        speed, skill = int(speed), int(skill)
        if speed >= len(nerts_bot.SPEEDS) or skill >= nerts_bot.SKILLS:
            raise SystemExit("speed is 0..%d and skill 0..%d" % (len(nerts_bot.SPEEDS) - 1, nerts_bot.SKILLS - 1))
        seats.append((speed, skill))
    if not 2 <= len(seats) <= 4:
        raise SystemExit("Nerts is played by 2 to 4 players: give 2 to 4 seats")
    return seats


def play_round(game, seats, seed, cap_ms):
    """One round from a fresh deal; (points per seat, who called or -1, game ms, capped)."""
    game.deal(seed)
    for p, (speed, skill) in enumerate(seats):
        game.set_bot(p, speed, skill)
    game.bots = True
    elapsed = 0
    while game.status() == PLAYING and elapsed < cap_ms:
        game.tick(STEP_MS)
        elapsed += STEP_MS
    capped = game.status() == PLAYING
    points = [game.round_points(p) for p in range(game.players)]
    how = game.vars[V_ROUND_OVER]
    return points, (how - 2 if how >= 2 else -1), game.clock_ms, capped


def progress(done, total, started):
    width = 30
    filled = width * done // total
    rate = done / max(time.time() - started, 1e-9)
    sys.stderr.write("\r[%s%s] %d/%d rounds  %.1f rounds/s" % ("#" * filled, "." * (width - filled), done, total, rate))
    if done == total:
        sys.stderr.write("\n")
    sys.stderr.flush()


def run(seats, rounds, seed=1, jokers=False, cap_minutes=60, show_progress=True):
    """Play `rounds` rounds; returns a dict of per-seat and per-round figures."""
    cls = games.load("nerts")
    game = cls(len(seats), games.options(jokers=jokers))
    totals = [0] * len(seats)
    wins = [0.0] * len(seats)
    calls = [0] * len(seats)
    lengths = []
    stuck = capped_rounds = 0
    started = time.time()
    for r in range(rounds):
        points, caller, ms, capped = play_round(game, seats, seed + r, cap_minutes * 60000)
        best = max(points)
        leaders = [p for p in range(len(seats)) if points[p] == best]
        for p in range(len(seats)):
            totals[p] += points[p]
            if p in leaders:
                wins[p] += 1.0 / len(leaders)
        if caller >= 0:
            calls[caller] += 1
        elif capped:
            capped_rounds += 1
        else:
            stuck += 1
        lengths.append(ms / 1000.0)
        if show_progress:
            progress(r + 1, rounds, started)
    return {"seats": seats, "rounds": rounds, "points": [t / rounds for t in totals],
            "wins": [w / rounds for w in wins], "calls": [c / rounds for c in calls],
            "mean_s": statistics.mean(lengths), "median_s": statistics.median(lengths),
            "max_s": max(lengths), "stuck": stuck / rounds, "capped": capped_rounds / rounds}


def report(result):
    lines = ["| seat | speed (ms/action) | skill | points per round | rounds won | calls Nerts |",
             "| --- | --- | --- | --- | --- | --- |"]
    for p, (speed, skill) in enumerate(result["seats"]):
        lines.append("| p%d | %d (%d) | %d | %+.1f | %.0f %% | %.0f %% |" % (
            p + 1, speed, nerts_bot.SPEEDS[speed], skill, result["points"][p],
            100 * result["wins"][p], 100 * result["calls"][p]))
    lines.append("")
    lines.append("%d rounds; round length in game seconds: mean %.0f, median %.0f, longest %.0f; "
                 "ended with everyone stuck: %.0f %%; capped: %.0f %%" % (
                     result["rounds"], result["mean_s"], result["median_s"], result["max_s"],
                     100 * result["stuck"], 100 * result["capped"]))
    return "\n".join(lines)


def main(argv):
    parser = argparse.ArgumentParser(prog="arena.py nerts", description="Nerts bots against each other")
    parser.add_argument("--rounds", type=int, default=100)
    parser.add_argument("--seats", default="2/2,2/2", help="SPEED/SKILL per player, e.g. 4/3,2/2,0/0")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jokers", action="store_true")
    parser.add_argument("--cap", type=int, default=60, help="minutes of game time before a round is cut off")
    args = parser.parse_args(argv)
    if args.rounds < 1:
        raise SystemExit("--rounds must be at least 1")
    result = run(parse_seats(args.seats), args.rounds, args.seed, args.jokers, args.cap)
    print(report(result))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
