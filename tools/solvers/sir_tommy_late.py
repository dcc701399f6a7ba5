"""The late-Ace search: an exact Sir Tommy search from the deal's first Ace (sir_tommy_late.c).

No card can reach a foundation before the first Ace is turned, so every card before it lies on
the holding piles then; the C search (tools/solvers/sir_tommy_late.c, whose header argues each
rule) assigns those cards to piles only as they leave, so the 4^T ways of piling the first T
cards are never listed. It finds wins the beams miss (each replayed on the engine by
tools/solvers/sir_tommy_hard.py); it has proven no deal lost: the orders in which the early
cards can leave are still too many (a random deal whose Aces are its last five cards is not
searched to the end in 2,000,000 nodes), so a deal without a win stops at the node limit.

    python -m tools.solvers.sir_tommy_late 6246 1298     verdict, nodes and time of each seed
"""

import ctypes
import os
import sys
import time

from engine_core import games, rng
from engine_core.game import move_code
from engine_core.games.sir_tommy import CURRENT, DRAW_MOVE, FOUND1, RES1, STOCK
from tools.solvers import native

SOURCE = os.path.join(native.HERE, "sir_tommy_late.c")
NODE_LIMIT = 20000000
TABLE_BITS = 26  # 2**26 slots of 24 bytes (1.5 GB), half of them usable: the node limit's positions
LATE = 30  # the search is tried when at least this many cards come before the first Ace
LINE = 256
POP_LATE, POP_EARLY, TO_FOUND, TO_PILE = range(4)

_loaded = []


def library():
    """The compiled search (built with native.build), or None."""
    if not _loaded:
        path = native.build(SOURCE)
        lib = None
        if path is not None:
            lib = ctypes.CDLL(path)
            lib.st_late.restype = ctypes.c_int
            lib.st_late.argtypes = [ctypes.c_char_p, ctypes.c_int64, ctypes.c_int,
                                    ctypes.POINTER(ctypes.c_int64), ctypes.POINTER(ctypes.c_int64),
                                    ctypes.c_char_p, ctypes.POINTER(ctypes.c_int)]
        _loaded.append(lib)
    return _loaded[0]


def ranks_of(seed, generator=rng.COMBINED):
    """The 52 ranks of the deal of `seed` in the order they are turned (0 Ace .. 12 King)."""
    game = games.load("sir_tommy")()
    game.deal(seed, generator)
    piles = game.piles
    stock = [piles.card(STOCK, i) % 13 for i in range(piles.size[STOCK] - 1, -1, -1)]
    return [piles.top(CURRENT) % 13] + stock


def first_ace(cards):
    return cards.index(0)


def search(cards, node_limit=NODE_LIMIT, table_bits=TABLE_BITS):
    """(verdict, line, nodes, positions): verdict True (won: line of (kind, pile, index)),
    False (proven lost) or None (node limit, or the table full)."""
    lib = library()
    if lib is None:
        raise SystemExit("the late-Ace search needs a C compiler (cc)")
    nodes = ctypes.c_int64(0)
    stored = ctypes.c_int64(0)
    nline = ctypes.c_int(0)
    line = ctypes.create_string_buffer(2 * LINE)
    r = lib.st_late(bytes(cards), node_limit, table_bits, ctypes.byref(nodes), ctypes.byref(stored),
                    line, ctypes.byref(nline))
    raw = line.raw[:2 * nline.value]
    moves = [(raw[2 * i] >> 4, raw[2 * i] & 15, raw[2 * i + 1]) for i in range(nline.value)]
    verdict = {1: True, 0: False, -1: None, -2: None}[r]
    return verdict, moves if r == 1 else None, nodes.value, stored.value


def moves_of(cards, line):
    """The engine moves of a win of search(): the first T cards onto the piles they leave
    through, then the line."""
    T = first_ace(cards)
    pile_of = {}
    for kind, p, i in line:
        if kind == POP_EARLY:
            pile_of[i] = p
    moves = []
    for i in range(T):
        moves.append(move_code(CURRENT, RES1 + pile_of[i]))
        moves.append(DRAW_MOVE)
    heights = [0] * 4
    piles = [[cards[i] for i in range(T) if pile_of[i] == p] for p in range(4)]
    t = T

    def to_found(src, rank):
        f = heights.index(rank)
        heights[f] += 1
        moves.append(move_code(src, FOUND1 + f))

    for kind, p, _ in line:
        if kind in (POP_LATE, POP_EARLY):
            to_found(RES1 + p, piles[p].pop())
        else:
            if kind == TO_FOUND:
                to_found(CURRENT, cards[t])
            else:
                piles[p].append(cards[t])
                moves.append(move_code(CURRENT, RES1 + p))
            t += 1
            if t < 52:
                moves.append(DRAW_MOVE)
    return moves


def solve_seed(seed, node_limit=None, generator=rng.COMBINED, table_bits=TABLE_BITS):
    """(won, moves, nodes) for the deal of `seed`: won True (moves: engine moves), False
    (proven lost) or None (node limit). A search of a few thousand nodes needs no more than
    a table of 2**20 slots (24 MB)."""
    cards = ranks_of(seed, generator)
    verdict, line, nodes, _ = search(cards, node_limit or NODE_LIMIT, table_bits)
    return verdict, moves_of(cards, line) if verdict else None, nodes


def main(argv):
    import argparse
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("seeds", nargs="+", type=int, help="deal numbers (the combined generator's deals)")
    for seed in parser.parse_args(argv).seeds:
        cards = ranks_of(seed)
        t0 = time.process_time()
        verdict, _, nodes, stored = search(cards)
        print("seed %d (first Ace card %d): %s, %d nodes, %d positions, %.1f s" % (
            seed, first_ace(cards) + 1, {True: "won", False: "lost", None: "undecided"}[verdict],
            nodes, stored, time.process_time() - t0))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
