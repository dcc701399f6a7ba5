"""Seeded random generators that give the same numbers on CPython and MicroPython.

Three generators, and a game's variables name the one that dealt it (Game.V_DEALER):

- SPECTRAL, every new deal: COMBINED below with other multipliers, B1 and B2, chosen by the
  spectral test (tools/reliability/spectral.py, docs/statistics.md): the figures S2..S6 of each stream and
  of the combination are each at least 0.6, where COMBINED's stream 1 has S3 = 0.012 (its
  triples lie on 21 planes). Same moduli, same seeding, same period.
- COMBINED, the generator of the builds before SPECTRAL: L'Ecuyer's combined multiplicative
  generator (CACM 31(6), 1988): two Lehmer streams x1' = A1 * x1 mod M1 and x2' = A2 * x2 mod M2, each output
  (x1 - x2) mod (M1 - 1), in 1 .. M1 - 1. The moduli are primes below 2**30 (the published
  32-bit pair, 2**31 - 85 and 2**31 - 249, would need 31-bit intermediates), the multipliers
  primitive roots below sqrt(M), and (M1 - 1, M2 - 1) share only the factor 2, so the period
  is (M1 - 1)(M2 - 1) / 2, about 5.8e17. A deal number is first mixed (mix: a six-round
  Feistel network on its 30 bits) into each stream's start, so deal numbers n and n + 1 give
  unrelated deals.
- LEHMER, the generator of builds before: x' = A * x mod M, M = 2**30 - 35, started from
  the seed plus one stepped four times. Kept so that a game saved under it resumes exactly;
  `step` also makes the interface's noise.

Schrage's method keeps every intermediate value below 2**30: on 32-bit MicroPython ports
larger integers are heap objects. The state is plain ints (one for LEHMER, two for COMBINED)
that games keep in their journaled variables, so undo and `load` restore it exactly.
"""

from micropython import const

LEHMER = const(0)  # what the variables of a game from an older build say (its V_DEALER is 0)
COMBINED = const(1)
SPECTRAL = const(2)
NAMES = ("lehmer", "combined", "spectral")  # by generator, as the state JSON and records name them

M = const(1073741789)
A = const(32763)
_Q = const(32772)  # M // A
_R = const(32753)  # M % A

M1 = M  # the first stream of COMBINED is the Lehmer stream above
M2 = const(1073741783)  # 2**30 - 41
A2 = const(32757)
_Q2 = const(32779)  # M2 // A2
_R2 = const(80)  # M2 % A2

B1 = const(32184)  # SPECTRAL's multipliers (tools/reliability/spectral.py --search 0.6)
_QB1 = const(33362)  # M1 // B1
_RB1 = const(19181)  # M1 % B1
B2 = const(27007)
_QB2 = const(39757)  # M2 // B2
_RB2 = const(24484)  # M2 % B2

_MIX_MUL = const(27947)  # odd, below 2**15: a product of two 15-bit values stays below 2**30
_MIX_KEYS = (0x1D2B, 0x6A09, 0x3C6E, 0x7B67, 0x510E, 0x1F83, 0x5BE0, 0x2B41, 0x4F1B, 0x0E6C,
             0x6C34, 0x33D9)  # six rounds for each stream


def step(x):
    """The Lehmer state after x (also COMBINED's first stream)."""
    x = A * (x % _Q) - _R * (x // _Q)
    if x < 0:
        x += M
    return x


def step2(x):
    """COMBINED's second stream: the state after x."""
    x = A2 * (x % _Q2) - _R2 * (x // _Q2)
    if x < 0:
        x += M2
    return x


def schrage(x, a, q, r, m):
    """a * x mod m without an intermediate above m (q = m // a, r = m % a, r < q)."""
    x = a * (x % q) - r * (x // q)
    if x < 0:
        x += m
    return x


def advance(state, i1, i2, generator):
    """COMBINED or SPECTRAL: both streams' states (state[i1], state[i2]) one step on; returns
    the output, 1 .. M1 - 1."""
    if generator == SPECTRAL:
        x1 = schrage(state[i1], B1, _QB1, _RB1, M1)
        x2 = schrage(state[i2], B2, _QB2, _RB2, M2)
    else:
        x1 = step(state[i1])
        x2 = step2(state[i2])
    state[i1] = x1
    state[i2] = x2
    return combine(x1, x2)


def combine(x1, x2):
    """COMBINED's output, 1 .. M1 - 1, from the two streams' states."""
    z = x1 - x2
    if z < 1:
        z += M1 - 1
    return z


def seed_state(seed):
    """LEHMER's first state for a seed (any int 0 <= seed < 2**30)."""
    x = seed % (M - 1) + 1
    for _ in range(4):
        x = step(x)
    return x


def mix(seed, stream):
    """A 30-bit value of a 30-bit seed, for stream 0 or 1: a six-round Feistel network on
    its two 15-bit halves (a bijection, so distinct seeds never mix alike), each round
    function a multiply and fold that stays below 2**30."""
    hi = seed >> 15 & 0x7FFF
    lo = seed & 0x7FFF
    k = stream * 6
    for i in range(6):
        p = (lo ^ _MIX_KEYS[k + i]) * _MIX_MUL
        t = hi ^ ((p >> 15 ^ p) & 0x7FFF)
        hi = lo
        lo = t
    return hi << 15 | lo


def seed_states(seed, state, i1, i2):
    """COMBINED's and SPECTRAL's first states for a seed (0 <= seed < 2**30) into state[i1] and state[i2]."""
    state[i1] = mix(seed, 0) % (M1 - 1) + 1
    state[i2] = mix(seed, 1) % (M2 - 1) + 1


def shuffle(buf, start, count, x):
    """Fisher-Yates shuffle of buf[start:start+count] in place with LEHMER from state x;
    returns the new state.

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


def shuffle2(buf, start, count, state, i1, i2, generator=SPECTRAL):
    """Fisher-Yates shuffle of buf[start:start+count] in place with COMBINED or SPECTRAL, its
    states in state[i1] and state[i2] (updated). The steps are written out here, as schrage()
    and combine() do them: a deal is some fifty of them, and as calls they cost it half as much again."""
    if generator == SPECTRAL:
        a1 = B1
        q1 = _QB1
        r1 = _RB1
        a2 = B2
        q2 = _QB2
        r2 = _RB2
    else:
        a1 = A
        q1 = _Q
        r1 = _R
        a2 = A2
        q2 = _Q2
        r2 = _R2
    x1 = state[i1]
    x2 = state[i2]
    i = count - 1
    while i > 0:
        x1 = a1 * (x1 % q1) - r1 * (x1 // q1)
        if x1 < 0:
            x1 += M1
        x2 = a2 * (x2 % q2) - r2 * (x2 // q2)
        if x2 < 0:
            x2 += M2
        z = x1 - x2
        if z < 1:
            z += M1 - 1
        j = z % (i + 1)
        a = start + i
        b = start + j
        t = buf[a]
        buf[a] = buf[b]
        buf[b] = t
        i -= 1
    state[i1] = x1
    state[i2] = x2
