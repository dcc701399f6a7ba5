"""Perft for patience: how many distinct positions a deal reaches within N moves.

The engine's count comes from a depth-first walk with apply/undo (ENGINE_PERFT, plain code
that runs on CPython and on MicroPython alike); the reference count from a breadth-first walk
over state JSON with moves and their effects written in the test from the rule profile.
Positions are compared by what the state shows: pile contents by card name (the two copies
of a two-deck card are the same position).
"""

from tests.helpers import run_mpy_ok

ENGINE_PERFT = """
from array import array
from engine_core import PLAYING, games

def position_key(game):
    piles = game.piles
    key = bytearray()
    for p in range(piles.count):
        key.append(piles.size[p])
        s = piles.start[p]
        for i in range(piles.size[p]):
            key.append(piles.cards[s + i] % 52)
    return bytes(key)

def engine_perft(name, seed, depth, rules=0):
    cls = games.load(name)
    game = cls(cls.MIN_PLAYERS)
    if rules:
        game.set_rules(rules)  # a rule profile other than the game's default
    game.deal(seed)
    outs = [array("i", [0] * cls.MAX_MOVES) for _ in range(depth)]
    best = {}  # position -> the most moves still allowed when it was reached

    def walk(left):
        key = position_key(game)
        if best.get(key, -1) >= left:
            return
        best[key] = left
        if left == 0 or game.status() != PLAYING:
            return
        out = outs[left - 1]
        n = game.legal_moves(out)
        for i in range(n):
            game.apply(out[i])
            walk(left - 1)
            assert game.undo()
        assert position_key(game) == key

    walk(depth)
    return len(best)
"""

_namespace = {}
exec(ENGINE_PERFT, _namespace)
engine_perft = _namespace["engine_perft"]


def engine_perft_micropython(name, seed, depth, rules=0):
    code = ENGINE_PERFT + "\nprint(engine_perft(%r, %d, %d, %d))\n" % (name, seed, depth, rules)
    return int(run_mpy_ok(code).strip())


def reference_perft(state, depth, moves, apply):
    """Distinct positions within `depth` moves, breadth first over state piles.

    moves(piles) -> legal tokens (empty once the game is over); apply(piles, token) -> new piles.
    """
    def key(piles):
        return tuple((name, tuple(c.lstrip("#") for c in cards)) for name, cards in piles.items())

    start = state["piles"]
    seen = {key(start)}
    frontier = [start]
    for _ in range(depth):
        following = []
        for piles in frontier:
            for token in moves(piles):
                after = apply(piles, token)
                k = key(after)
                if k not in seen:
                    seen.add(k)
                    following.append(after)
        frontier = following
    return len(seen)
