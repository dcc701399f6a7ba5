"""The state hash two linked consoles compare: 30 bits over every pile and every variable.

Defined here and nowhere else, the same on CPython and MicroPython: each pile's size and cards,
bottom to top, then the game's variables (status, generator, turn, scores, the game's own),
mixed with the seeded generator's step (engine_core/rng.py), so every intermediate value stays
below 2**30 (a small int on every port). The clock, the seed and what a game derives from its
piles (caches) are left out: two consoles that agree on piles and variables play on alike.
No allocation.

>>> state_hash(game) == state_hash(copy_of_game)
True
"""

from engine_core.game import N_VARS
from engine_core.rng import M

from micropython import const

_Q = const(32772)  # Schrage's method, as engine_core/rng.py
_R = const(32753)
_A = const(32763)
_START = const(0x2545F49)
_SIZE_TAG = const(0x100)  # a pile's size is mixed as 256 + size: never a card
_MASK = const(0x3FFFFFFF)


def state_hash(game):
    """A 30-bit hash of the game's piles and variables (1 .. 2**30 - 36)."""
    h = _START
    piles = game.piles
    cards = piles.cards
    for p in range(piles.count):
        n = piles.size[p]
        x = (h ^ (_SIZE_TAG + n)) % (M - 1) + 1
        h = _A * (x % _Q) - _R * (x // _Q)
        if h < 0:
            h += M
        s = piles.start[p]
        for i in range(s, s + n):
            x = (h ^ cards[i]) % (M - 1) + 1
            h = _A * (x % _Q) - _R * (x // _Q)
            if h < 0:
                h += M
    variables = game.vars
    for i in range(N_VARS):
        x = (h ^ (variables[i] & _MASK)) % (M - 1) + 1
        h = _A * (x % _Q) - _R * (x // _Q)
        if h < 0:
            h += M
    return h
