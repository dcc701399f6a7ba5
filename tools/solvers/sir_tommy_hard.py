"""A second pass over the Sir Tommy deals the solver left undecided: python -m tools.solvers.sir_tommy_hard.

    nice python -m tools.solvers.sir_tommy_hard                  the undecided rows of docs/stats/sir_tommy.csv
    python -m tools.solvers.sir_tommy_hard --seeds 64,1226 --out -
    nice python -m tools.solvers.sir_tommy_hard --again --widths 65536,262144 --late-nodes 0 --jobs 2

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
seconds: CPU time): docs/stats/sir_tommy_hard.csv. With --again the deals still undecided in --out
are searched again with --widths and their rows replaced in place (nodes and seconds add to the
row's earlier ones); the table is written after each deal, so a run cut short keeps what it found.
The late-Ace search's table asks for 1.5 GB of address space (sir_tommy_late.TABLE_BITS); the
memory used is the pages it touches, which grow with the positions it stores.
"""

import argparse
import csv
import multiprocessing
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

def searches_of(widths, policies=(0, 1)):
    """(policy, width) of each beam for the widths given, narrowest first, policies in order."""
    return tuple((policy, width) for width in widths for policy in policies)


# The beam widths of solve_sir_tommy's rollouts run by default, each alone (docs/statistics.md).
HARD_WIDTHS = (16384,)
HARD_SEARCHES = searches_of(HARD_WIDTHS)
NODE_LIMIT = 4000000000  # per search: beams end by themselves, 16,384 wide near 45,000,000 nodes,
# 65,536 wide near 150,000,000 and 262,144 wide near 600,000,000


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


def again(path):
    """The rows of the table at `path`, and the seeds of those not won."""
    with open(path) as f:
        rows = list(csv.DictReader(f))
    return rows, [int(r["seed"]) for r in rows if r["verdict"] != "won"]


def merged(old, row):
    """`row`, a new search of the deal of `old`, with the earlier searches' nodes and time added."""
    row = dict(row)
    row["nodes"] = int(old["nodes"]) + int(row["nodes"])
    row["seconds"] = "%.2f" % (float(old["seconds"]) + float(row["seconds"]))
    if row["verdict"] != "won" and row["search"] == "-":
        row["search"] = old["search"]
    return row


def write(path, rows):
    """Writes the table whole, through a temporary file, so it is never left half written."""
    tmp = path + ".tmp"
    with open(tmp, "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=["seed", "verdict", "search", "nodes", "seconds"])
        writer.writeheader()
        writer.writerows(sorted(rows, key=lambda r: int(r["seed"])))
    os.replace(tmp, path)


def _decide(job):
    seed, searches, late_nodes = job
    return decide(seed, searches, late_nodes)


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--table", default=TABLE, help="per-deal table of tools/solvers/stats.py")
    parser.add_argument("--seeds", help="comma-separated seeds instead of the table's undecided ones"
                        " (with --again: those of them still undecided)")
    parser.add_argument("--out", default=OUT, help="the CSV to write ('-': none)")
    parser.add_argument("--again", action="store_true",
                        help="search again the deals --out leaves undecided, replacing their rows")
    parser.add_argument("--widths", default=",".join(str(w) for w in HARD_WIDTHS),
                        help="beam widths, each run with each of --policies (default %(default)s)")
    parser.add_argument("--policies", default="0,1", help="rollout policies of the beams (default %(default)s)")
    parser.add_argument("--late-nodes", type=int, default=None,
                        help="node limit of the late-Ace proof (0: not run; default its own)")
    parser.add_argument("--jobs", type=int, default=1, help="deals searched at once")
    args = parser.parse_args(argv)
    policies = [int(p) for p in args.policies.split(",")]
    if not set(policies) <= {0, 1}:
        parser.error("the rollout policies are 0 and 1")
    searches = searches_of([int(w) for w in args.widths.split(",")], policies)
    table = []
    if args.again:
        if args.out == "-":
            parser.error("--again replaces rows of --out")
        table, seeds = again(args.out)
        if args.seeds:
            wanted = {int(s) for s in args.seeds.split(",")}
            seeds = [s for s in seeds if s in wanted]
    elif args.seeds:
        seeds = [int(s) for s in args.seeds.split(",")]
    else:
        seeds = undecided(args.table)
    by_seed = {int(r["seed"]): i for i, r in enumerate(table)}
    rows = []
    t0 = time.time()
    jobs = [(seed, searches, args.late_nodes) for seed in seeds]
    pool = multiprocessing.Pool(args.jobs) if args.jobs > 1 else None
    results = pool.imap_unordered(_decide, jobs) if pool else map(_decide, jobs)
    for row in results:
        seed = row["seed"]
        if seed in by_seed:
            row = merged(table[by_seed[seed]], row)
            table[by_seed[seed]] = row
        else:
            table.append(row)
        rows.append(row)
        if args.out != "-":
            write(args.out, table)
        done = {v: sum(r["verdict"] == v for r in rows) for v in ("won", "lost", "undecided")}
        sys.stderr.write("\r%d/%d  seed %d %s (%s, %d nodes, %s s)  won %d lost %d undecided %d  %.0f s " % (
            len(rows), len(seeds), seed, row["verdict"], row["search"], row["nodes"], row["seconds"],
            done["won"], done["lost"], done["undecided"], time.time() - t0))
        sys.stderr.flush()
    if pool:
        pool.close()
    sys.stderr.write("\n")
    done = {v: sum(r["verdict"] == v for r in rows) for v in ("won", "lost", "undecided")}
    print("%d deals: %d won, %d proven lost, %d undecided; %.1f s of wall time" % (
        len(rows), done["won"], done["lost"], done["undecided"], time.time() - t0))
    for r in sorted(rows, key=lambda r: r["seed"]):
        if r["verdict"] != "won":
            print("seed %d: %s (%d nodes)" % (r["seed"], r["verdict"], int(r["nodes"])))
    if args.out != "-" and rows:
        print("wrote %s" % os.path.relpath(args.out, ROOT))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
