"""What each Sir Tommy rollout search wins alone, and the whole sequence at several node limits.

    python -m tools.solvers.sir_tommy_searches --deals 2000 --jobs 2

Runs every search of solve_sir_tommy.SEARCHES by itself on seeds START..START+DEALS-1 (up to
--node-limit nodes each, from the deal's start), then replays the runs as the solver makes them
(each search in turn, all sharing one limit; the first 200-node proof search left out) for
each limit of --limits: the share of deals won,
which is how SEARCHES and the default limit were chosen (docs/statistics.md).
"""

import argparse
import multiprocessing
import sys

from engine_core import games
from tools.solvers import solve_sir_tommy
from tools.solvers.solve_run import Limit


def runs(seed, node_limit):
    """[(won, nodes)] of each search of SEARCHES alone on the deal of `seed`."""
    game = games.load("sir_tommy")()
    game.deal(seed)
    lib = solve_sir_tommy.compiled_searches()
    out = []
    for policy, width in solve_sir_tommy.SEARCHES:
        deal = solve_sir_tommy.Deal(game, node_limit)
        try:
            won = solve_sir_tommy.rollout_search(deal, policy, width, lib) is not None
        except Limit:
            won = False
        out.append((won, deal.nodes))
    return out


def sequence(rows, limit):
    """Deals won by the searches in turn sharing `limit` nodes, as solve() runs them."""
    won = 0
    for row in rows:
        left = limit
        for ok, nodes in row:
            if ok and nodes <= left:
                won += 1
                break
            left -= min(nodes, left)
            if left == 0:
                break
    return won


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument("--start", type=int, default=0, help="first seed")
    parser.add_argument("--node-limit", type=int, default=60000000, help="for each search alone")
    parser.add_argument("--limits", default="2000000,5000000,10000000,20000000,40000000",
                        help="the shared limits to replay the sequence at")
    parser.add_argument("--jobs", type=int, default=1, help="processes at once")
    args = parser.parse_args(argv)
    seeds = range(args.start, args.start + args.deals)
    if args.jobs > 1:
        with multiprocessing.Pool(args.jobs) as pool:
            rows = pool.starmap(runs, [(s, args.node_limit) for s in seeds])
    else:
        rows = []
        for i, s in enumerate(seeds):
            rows.append(runs(s, args.node_limit))
            sys.stderr.write("\r%d/%d deals" % (i + 1, args.deals))
        sys.stderr.write("\n")
    n = len(rows)
    print("sir_tommy, seeds %d..%d, each search alone (up to %d nodes):" % (seeds[0], seeds[-1],
                                                                          args.node_limit))
    for i, (policy, width) in enumerate(solve_sir_tommy.SEARCHES):
        won = sum(1 for row in rows if row[i][0])
        nodes = sum(row[i][1] for row in rows)
        kind = "nested search" if width == 0 else "beam %5d wide" % width
        print("  policy %d, %-16s won %5d = %6.2f%%  %6.0f nodes per deal" % (
            policy, kind, won, 100.0 * won / n, nodes / n))
    print("  any of them: %.2f%%" % (100.0 * sum(1 for row in rows if any(ok for ok, _ in row)) / n))
    print("the searches in turn, sharing one limit:")
    for limit in (int(x) for x in args.limits.split(",")):
        if limit > args.node_limit:
            print("  %11d nodes: above --node-limit, where each search alone was stopped" % limit)
            continue
        print("  %11d nodes: %.2f%% won" % (limit, 100.0 * sequence(rows, limit) / n))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
