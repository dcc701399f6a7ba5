"""Computer players, hints and solvers, sized for the device (no allocation in their steps).

For the patience games: search.py is a bounded depth-first search over any *model* (a compact
copy of a position with cheap move generation and make/unmake); each game has an advisor
module here (aces_up.py, sir_tommy.py, casket.py) that the game's hint(), safe_move() and
finish_move() use, and winnable.py reads the tables of proven-winnable deals. The exact
solvers are host tools (tools/solvers/solve.py).
"""
