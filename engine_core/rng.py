"""A seeded random generator that gives the same numbers on CPython and MicroPython.

Lehmer's multiplicative generator x' = A * x mod M with M = 2**30 - 35 (prime) and A a
primitive root of M, so the period is M - 1. Schrage's method keeps every intermediate value
below 2**30: on 32-bit MicroPython ports larger integers would be heap objects.
The state is a plain int in 1 .. M - 1 that games keep in their journaled variables, so undo
and `load` restore it exactly.
"""

from micropython import const

M = const(1073741789)
A = const(32763)
_Q = const(32772)  # M // A
_R = const(32753)  # M % A


def step(x):
    """The state after x."""
    x = A * (x % _Q) - _R * (x // _Q)
    if x < 0:
        x += M
    return x


def seed_state(seed):
    """The first state for a seed (any int 0 <= seed < 2**30)."""
    x = seed % (M - 1) + 1
    for _ in range(4):  # spread nearby seeds apart
        x = step(x)
    return x


def shuffle(buf, start, count, x):
    """Fisher-Yates shuffle of buf[start:start+count] in place; returns the new state.

    The index bias of `x % n` is below n / 2**30, far under anything a deal can show.
    """
    i = count - 1
    while i > 0:
        x = step(x)
        j = x % (i + 1)
        a = start + i
        b = start + j
        t = buf[a]
        buf[a] = buf[b]
        buf[b] = t
        i -= 1
    return x
