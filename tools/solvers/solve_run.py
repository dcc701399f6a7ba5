"""What the patience solvers (tools/solve_GAME.py) share: the node limit and a deep search."""

import sys


class Limit(Exception):
    """A solver searched as many positions as it was allowed."""


def run(search, depth):
    """search() with Python's recursion limit raised to at least `depth`: its answer (True
    for a win, False when there is none), or None when it stopped at the node limit."""
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, depth))
    try:
        return search()
    except Limit:
        return None
    finally:
        sys.setrecursionlimit(limit)
