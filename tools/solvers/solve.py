"""Solve patience deals on the host: python -m tools.solvers.solve GAME SEED... [--node-limit N].

    python -m tools.solvers.solve aces_up 15 --moves     the winning moves of deal 15
    python -m tools.solvers.solve sir_tommy --speed 500  deals solved per CPU second, seeds 0..499

Each game has a solver module tools/solve_GAME.py with solve(game, node_limit) returning
(won, moves, nodes): won is True (moves: move codes that win), False (no win exists) or None
(the node limit was reached first). The deal is the one the engine makes from the seed, and a
win is checked by replaying its moves on the engine.
"""

import argparse
import importlib
import sys
import time

from engine_core import WON, games

SOLVED = ("aces_up", "sir_tommy", "casket")
DEFAULT_NODE_LIMIT = {"aces_up": 2000000, "sir_tommy": 20000000, "casket": 8000}


def solver_module(name):
    return importlib.import_module("tools.solvers.solve_" + name)


def solve_seed(name, seed, node_limit=None):
    """(won, moves, nodes) for the deal of `seed`; see the module docstring."""
    game = games.load(name)()
    game.deal(seed)
    if node_limit is None:
        node_limit = DEFAULT_NODE_LIMIT[name]
    return solver_module(name).solve(game, node_limit)


def replay_wins(name, seed, moves):
    """True when `moves` are legal one after another from the deal of `seed` and win it."""
    game = games.load(name)()
    game.deal(seed)
    for m in moves:
        if not game.is_legal(m):
            return False
        game.apply(m)
    return game.status() == WON


def speed(name, deals, node_limit=None):
    """Print deals solved per second of CPU time (one core, whatever else the machine does)."""
    counts = {True: 0, False: 0, None: 0}
    start = time.process_time()
    for seed in range(deals):
        counts[solve_seed(name, seed, node_limit)[0]] += 1
    cpu = time.process_time() - start
    print("%s: %d deals in %.2f s of CPU time: %.1f deals/s (node limit %d; %d won, %d lost, %d undecided)" % (
        name, deals, cpu, deals / cpu, node_limit or DEFAULT_NODE_LIMIT[name],
        counts[True], counts[False], counts[None]))
    return 0


def main(argv):
    parser = argparse.ArgumentParser(description="Solve patience deals exactly (given the seed).")
    parser.add_argument("game", choices=SOLVED)
    parser.add_argument("seeds", type=int, nargs="*")
    parser.add_argument("--speed", type=int, default=0, metavar="DEALS",
                        help="solve seeds 0..DEALS-1 and report deals per second of CPU time")
    parser.add_argument("--node-limit", type=int, default=None)
    parser.add_argument("--moves", action="store_true", help="print the winning moves")
    args = parser.parse_args(argv)
    if args.speed:
        return speed(args.game, args.speed, args.node_limit)
    for seed in args.seeds:
        start = time.perf_counter()
        won, moves, nodes = solve_seed(args.game, seed, args.node_limit)
        ms = (time.perf_counter() - start) * 1000
        verdict = {True: "winnable", False: "not winnable", None: "unknown (node limit)"}[won]
        print("%s seed=%d: %s, %d nodes, %.1f ms" % (args.game, seed, verdict, nodes, ms))
        if won and args.moves:
            game = games.load(args.game)()
            game.deal(seed)
            print(" ".join(game.move_token(m) for m in moves))
        if won and not replay_wins(args.game, seed, moves):
            print("  error: the solution does not replay to a win")
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
