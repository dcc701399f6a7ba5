"""Win rates of the hint player and of the solver: python -m tools.solvers.stats GAME --deals N.

For each seed from --start on, the hint player follows game.hint() to the end of the deal and
the solver (tools/solvers/solve.py) decides whether the deal can be won at all. Prints a progress bar
with the time per deal (CPU time of this process: one core, whatever else the machine does),
then the win rates with 95% Wilson intervals, the solver's speed and
its hardest deals; writes OUT/GAME.csv (one row per deal) and OUT/GAME.png (a plot).
With --write-table, the seeds the solver proved winnable become the table the device deals
from (engine_core/ai/winnable_GAME.py).
"""

import argparse
import csv
import math
import os
import sys
import time

from engine_core import PLAYING, WON, games
from tools.solvers import solve
from tools.solvers import winnable_table

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

MAX_HINT_MOVES = 5000  # a hint player that goes round in circles loses


def play_hints(game, seed):
    """True when following the hints wins the deal of `seed`."""
    game.deal(seed)
    for _ in range(MAX_HINT_MOVES):
        if game.status() != PLAYING:
            break
        m = game.hint()
        if m < 0:
            break
        game.apply(m)
    return game.status() == WON


def wilson(wins, n, z=1.96):
    """The 95% Wilson score interval (low, high) for wins out of n."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def rate_text(wins, n):
    low, high = wilson(wins, n)
    return "%d / %d = %.2f%% (95%% CI %.2f–%.2f%%)" % (wins, n, 100.0 * wins / max(n, 1), 100 * low, 100 * high)


def progress(done, total, hint_wins, solver_wins, seconds):
    width = 30
    filled = width * done // total
    per = 1000.0 * seconds / max(done, 1)
    left = per * (total - done) / 1000.0
    sys.stderr.write("\r[%s%s] %d/%d  hint %.1f%%  solver %.1f%%  %.1f ms/deal  %ds left " % (
        "#" * filled, "." * (width - filled), done, total, 100.0 * hint_wins / max(done, 1),
        100.0 * solver_wins / max(done, 1), per, left))
    sys.stderr.flush()


def deal_row(name, seed, node_limit):
    """The row of one deal: seed, hint_won, solver (won/lost/unknown), nodes, solve_ms, hint_ms
    (CPU time of the process that played it). A win is replayed on the engine first (not
    timed): one that does not replay stops the run (RuntimeError)."""
    cls = games.load(name)
    t0 = time.process_time()
    hint_won = play_hints(cls(), seed)
    t1 = time.process_time()
    deal = cls()
    deal.deal(seed)
    won, moves, nodes = solve.solver_module(name).solve(deal, node_limit)
    t2 = time.process_time()
    if won and not solve.replay_wins(name, seed, moves):
        raise RuntimeError("%s seed %d: the solver's win does not replay on the engine" % (name, seed))
    verdict = {True: "won", False: "lost", None: "unknown"}[won]
    return {"seed": seed, "hint_won": int(hint_won), "solver": verdict, "nodes": nodes,
            "solve_ms": round((t2 - t1) * 1000, 3), "hint_ms": round((t1 - t0) * 1000, 3)}


def _deal_row(task):
    return deal_row(*task)


def run(name, start, deals, node_limit, show_progress=True, jobs=1):
    """One row per deal (deal_row), in seed order; jobs > 1 plays deals in that many processes
    (the times stay CPU time per deal, so the speed figures mean one core either way)."""
    tasks = [(name, start + i, node_limit) for i in range(deals)]
    pool = None
    if jobs > 1:
        import multiprocessing
        pool = multiprocessing.Pool(jobs)
        results = pool.imap(_deal_row, tasks, chunksize=4)
    else:
        results = map(_deal_row, tasks)
    rows = []
    hint_wins = solver_wins = 0
    cpu = 0.0
    for i, row in enumerate(results):
        rows.append(row)
        hint_wins += row["hint_won"]
        solver_wins += row["solver"] == "won"
        cpu += (row["solve_ms"] + row["hint_ms"]) / 1000.0
        if show_progress and (i % 20 == 0 or i == deals - 1):
            progress(i + 1, deals, hint_wins, solver_wins, cpu)
    if pool is not None:
        pool.close()
        pool.join()
    if show_progress:
        sys.stderr.write("\n")
    return rows


def summary(name, rows, node_limit):
    n = len(rows)
    hint = sum(r["hint_won"] for r in rows)
    won = sum(r["solver"] == "won" for r in rows)
    unknown = sum(r["solver"] == "unknown" for r in rows)
    lost = sum(r["solver"] == "lost" for r in rows)
    solve_s = sum(r["solve_ms"] for r in rows) / 1000.0
    hint_s = sum(r["hint_ms"] for r in rows) / 1000.0
    decided = n - unknown
    lines = [
        "%s, seeds %d..%d, solver node limit %d" % (name, rows[0]["seed"], rows[-1]["seed"], node_limit),
        "hint player:  " + rate_text(hint, n) + ", %.2f ms per deal" % (1000 * hint_s / n),
        "solver:       " + rate_text(won, n) + " proven winnable; %d undecided at the limit" % unknown,
        "              " + rate_text(lost, n) + " proven lost; " + rate_text(unknown, n) + " undecided",
        "decided:      " + rate_text(decided, n),
    ]
    if unknown:
        lines.append("  (if every undecided deal were winnable: %.2f%%)" % (100.0 * (won + unknown) / n))
    if won:
        both = sum(1 for r in rows if r["solver"] == "won" and r["hint_won"])
        lines.append("hints win %s of the deals the solver proved winnable" % rate_text(both, won))
    lines.append("solver speed: %.1f deals/s on one core (%.2f ms per deal, %d decided)" % (
        n / solve_s if solve_s else 0, 1000 * solve_s / n, decided))
    hardest = sorted(rows, key=lambda r: -r["nodes"])[:5]
    lines.append("hardest deals: " + ", ".join("seed %d (%s, %d nodes, %.0f ms)" % (
        r["seed"], r["solver"], r["nodes"], r["solve_ms"]) for r in hardest))
    return "\n".join(lines)


def write_csv(path, rows):
    with open(path, "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)


def plot(path, name, rows):
    """Left: win rates with their 95% intervals. Right: how many deals needed how many nodes."""
    from PIL import Image, ImageDraw

    w, h = 900, 420
    img = Image.new("RGB", (w, h), "white")
    d = ImageDraw.Draw(img)
    n = len(rows)
    d.text((20, 10), "%s: %d deals (seeds %d..%d)" % (name, n, rows[0]["seed"], rows[-1]["seed"]), fill="black")
    # Win rates.
    x0, y0, y1 = 60, 50, 370
    rates = [("hint player", sum(r["hint_won"] for r in rows), (70, 120, 200)),
             ("solver", sum(r["solver"] == "won" for r in rows), (200, 90, 60))]
    top = max(0.05, max(wilson(k, n)[1] for _, k, _ in rates))
    top = math.ceil(top * 20) / 20.0
    d.line((x0, y0, x0, y1), fill="black")
    d.line((x0, y1, x0 + 300, y1), fill="black")
    steps = 5
    for i in range(steps + 1):
        y = y1 - (y1 - y0) * i / steps
        d.line((x0 - 4, y, x0, y), fill="black")
        d.text((10, y - 6), "%.0f%%" % (100 * top * i / steps), fill="black")
    for i, (label, k, colour) in enumerate(rates):
        bx = x0 + 40 + i * 130
        p = k / n
        low, high = wilson(k, n)
        yb = y1 - (y1 - y0) * p / top
        d.rectangle((bx, yb, bx + 80, y1), fill=colour)
        for a, b in ((low, high),):
            ya = y1 - (y1 - y0) * a / top
            yb2 = y1 - (y1 - y0) * b / top
            d.line((bx + 40, ya, bx + 40, yb2), fill="black", width=2)
            d.line((bx + 30, ya, bx + 50, ya), fill="black")
            d.line((bx + 30, yb2, bx + 50, yb2), fill="black")
        d.text((bx, y1 + 8), label, fill="black")
        inside = yb - 28 <= y0  # no room above a tall bar: the label goes inside it, in white
        d.text((bx + 4, yb + 14) if inside else (bx, yb - 28), "%.2f%%" % (100 * p),
               fill="white" if inside else "black")
    # Solver nodes, log2 buckets.
    x0 = 450
    buckets = [0] * 32
    for r in rows:
        buckets[max(0, min(31, int(r["nodes"]).bit_length()))] += 1
    last = max(i for i in range(32) if buckets[i] or i == 0) + 1
    most = max(buckets)
    bw = 420 / max(last, 1)
    d.line((x0, y1, x0 + 420, y1), fill="black")
    d.text((x0, y0 - 20), "deals by solver nodes (2^k buckets, log count)", fill="black")
    for i in range(last):
        if buckets[i]:
            height = (y1 - y0) * math.log(1 + buckets[i]) / math.log(1 + most)
            d.rectangle((x0 + i * bw, y1 - height, x0 + (i + 1) * bw - 2, y1), fill=(120, 160, 90))
        if i % 2 == 0:
            d.text((x0 + i * bw, y1 + 8), str(i), fill="black")
    img.save(path)


def main(argv):
    parser = argparse.ArgumentParser(description="Win rates of the hint player and the solver.")
    parser.add_argument("game", choices=solve.SOLVED)
    parser.add_argument("--deals", type=int, default=1000)
    parser.add_argument("--start", type=int, default=0, help="first seed")
    parser.add_argument("--node-limit", type=int, default=None)
    parser.add_argument("--out", default=os.path.join(ROOT, "build", "stats"))
    parser.add_argument("--write-table", action="store_true",
                        help="write the proven-winnable seeds to engine_core/ai/winnable_GAME.py")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    parser.add_argument("--jobs", type=int, default=1, help="processes playing deals at once")
    args = parser.parse_args(argv)
    node_limit = args.node_limit or solve.DEFAULT_NODE_LIMIT[args.game]
    rows = run(args.game, args.start, args.deals, node_limit, not args.quiet, args.jobs)
    os.makedirs(args.out, exist_ok=True)
    base = os.path.join(args.out, args.game)
    write_csv(base + ".csv", rows)
    plot(base + ".png", args.game, rows)
    print(summary(args.game, rows, node_limit))
    print("wrote %s.csv and %s.png" % (os.path.relpath(base, ROOT), os.path.relpath(base, ROOT)))
    if args.write_table:
        seeds = [r["seed"] for r in rows if r["solver"] == "won"]
        if seeds:
            path = winnable_table.write(args.game, args.start, seeds, len(rows))
            print("wrote " + os.path.relpath(path, ROOT))
        else:
            print("no table written: the solver proved no deal winnable")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
