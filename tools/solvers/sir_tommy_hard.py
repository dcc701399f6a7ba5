"""A second pass over the Sir Tommy deals the solver left undecided: python -m tools.solvers.sir_tommy_hard.

    nice python -m tools.solvers.sir_tommy_hard                  the undecided rows of docs/stats/sir_tommy.csv
    python -m tools.solvers.sir_tommy_hard --seeds 64,1226 --out -

The solver (tools/solvers/solve_sir_tommy.py) runs its searches in turn under one node limit,
so a deal its 4,096-wide beams do not win soon stops undecided. Here each deal of --table whose
verdict is not "won" (or each of --seeds; the combined generator's deals, as that table's) gets the
wider beams of HARD_SEARCHES, each alone from
the deal's start, until one wins; every win is replayed on the engine (a win that does not replay
stops the run). A deal they all miss whose first Ace comes late (sir_tommy_late.LATE) is handed
to the late-Ace search (tools/solvers/sir_tommy_late.py), an exact search that finds some wins
the beams miss; a deal it searches to the end without a win stays undecided, as no separate
program checks that answer (none has come so far: it stops at its node limit). Prints a
progress line per deal; writes one row per deal to --out (seed, verdict, search, nodes,
seconds: CPU time of this process): docs/stats/sir_tommy_hard.csv. The late-Ace search's table
asks for 1.5 GB of address space (sir_tommy_late.TABLE_BITS); the memory used is the pages it
touches, which grow with the positions it stores.
"""

import argparse
import csv
import os
import sys
import time

from engine_core import WON, games, rng
from tools.solvers import native, sir_tommy_late, solve_sir_tommy
from tools.solvers.solve_run import Limit

GENERATOR = rng.COMBINED  # the generator of the deals docs/stats/sir_tommy.csv was measured over
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TABLE = os.path.join(ROOT, "docs", "stats", "sir_tommy.csv")
OUT = os.path.join(ROOT, "docs", "stats", "sir_tommy_hard.csv")

# (policy, beam width) of solve_sir_tommy's rollouts, each run alone (docs/statistics.md).
HARD_SEARCHES = ((0, 16384), (1, 16384))
NODE_LIMIT = 1000000000  # per search: a 16,384-wide beam ends by itself near 45,000,000


def replays(seed, moves):
    """True when `moves` are legal one after another from the deal of `seed` and win it."""
    game = games.load("sir_tommy")()
    game.deal(seed, GENERATOR)
    for m in moves:
        if not game.is_legal(m):
            return False
        game.apply(m)
    return game.status() == WON


def undecided(path):
    """The seeds of the per-deal table at `path` whose solver verdict is not 'won'."""
    with open(path) as f:
        return [int(row["seed"]) for row in csv.DictReader(f) if row["solver"] != "won"]


def beams(seed, searches=HARD_SEARCHES, node_limit=NODE_LIMIT):
    """(moves, search name, nodes) of the first search of `searches` that wins the deal of
    `seed` (nodes of every search run), or (None, None, nodes)."""
    lib = native.library()
    if lib is None:
        raise SystemExit("the wide beams need the compiled searches (a C compiler: cc)")
    game = games.load("sir_tommy")()
    game.deal(seed, GENERATOR)
    nodes = 0
    for policy, width in searches:
        deal = solve_sir_tommy.Deal(game, node_limit)
        try:
            ops = solve_sir_tommy.rollout_search(deal, policy, width, lib)
        except Limit:
            ops = None
        nodes += deal.nodes
        if ops is not None:
            return solve_sir_tommy.moves_of(deal, ops), "beam %d policy %d" % (width, policy), nodes
    return None, None, nodes


def decide(seed, searches=HARD_SEARCHES, late_nodes=None):
    """The row of one deal: {seed, verdict (won, lost, undecided), search, nodes, seconds}."""
    t0 = time.process_time()
    moves, how, nodes = beams(seed, searches)
    verdict = "won" if moves is not None else "undecided"
    late_ace = sir_tommy_late.first_ace(sir_tommy_late.ranks_of(seed, GENERATOR)) >= sir_tommy_late.LATE
    if moves is None and late_nodes != 0 and late_ace:
        won, moves, late = sir_tommy_late.solve_seed(seed, late_nodes)
        nodes += late
        if won:
            verdict = "won"
            how = "late-Ace search"
        elif won is False:
            how = "late-Ace search: no win (no separate check)"
    seconds = time.process_time() - t0
    if verdict == "won" and not replays(seed, moves):
        raise RuntimeError("sir_tommy seed %d: the win (%s) does not replay on the engine" % (seed, how))
    return {"seed": seed, "verdict": verdict, "search": how or "-", "nodes": nodes,
            "seconds": "%.2f" % seconds}


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--table", default=TABLE, help="per-deal table of tools/solvers/stats.py")
    parser.add_argument("--seeds", help="comma-separated seeds instead of the table's undecided ones")
    parser.add_argument("--out", default=OUT, help="the CSV to write ('-': none)")
    parser.add_argument("--late-nodes", type=int, default=None,
                        help="node limit of the late-Ace proof (0: not run; default its own)")
    args = parser.parse_args(argv)
    seeds = [int(s) for s in args.seeds.split(",")] if args.seeds else undecided(args.table)
    rows = []
    t0 = time.process_time()
    for i, seed in enumerate(seeds):
        row = decide(seed, late_nodes=args.late_nodes)
        rows.append(row)
        done = {v: sum(r["verdict"] == v for r in rows) for v in ("won", "lost", "undecided")}
        sys.stderr.write("\r%d/%d  seed %d %s (%s, %d nodes, %s s)  won %d lost %d undecided %d  %.0f s " % (
            i + 1, len(seeds), seed, row["verdict"], row["search"], row["nodes"], row["seconds"],
            done["won"], done["lost"], done["undecided"], time.process_time() - t0))
        sys.stderr.flush()
    sys.stderr.write("\n")
    done = {v: sum(r["verdict"] == v for r in rows) for v in ("won", "lost", "undecided")}
    print("%d deals: %d won, %d proven lost, %d undecided; %.1f s of CPU time" % (
        len(rows), done["won"], done["lost"], done["undecided"], time.process_time() - t0))
    for r in rows:
        if r["verdict"] != "won":
            print("seed %d: %s (%d nodes)" % (r["seed"], r["verdict"], r["nodes"]))
    if args.out != "-" and rows:
        with open(args.out, "w", newline="") as f:
            writer = csv.DictWriter(f, fieldnames=list(rows[0]))
            writer.writeheader()
            writer.writerows(rows)
        print("wrote %s" % os.path.relpath(args.out, ROOT))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
