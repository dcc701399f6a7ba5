"""Device-sized players for the patience games: hint searches and auto-play.

search.py is a bounded depth-first search over any *model* (a compact copy of a position with
cheap move generation and make/unmake); each game has a model module here (aces_up.py, ...)
that the game's hint(), safe_move() and finish_move() use. Nothing here allocates once the
game object that owns a model exists. The exact solvers are host tools (tools/solve.py).
"""
