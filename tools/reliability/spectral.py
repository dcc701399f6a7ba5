"""The spectral test of the deal generator's multipliers (Knuth, TAOCP vol. 2, 3.3.4).

The points (x[n], x[n+1], ..., x[n+t-1]) of a multiplicative generator x' = a x mod m lie on
families of parallel hyperplanes; nu_t, the length of the shortest nonzero vector s of the dual
lattice { s : s[0] + s[1] a + ... + s[t-1] a**(t-1) = 0 (mod m) }, is the reciprocal of the
distance between the planes of the widest-spaced family. S_t = nu_t / (gamma_t**(1/2) m**(1/t))
compares it with the best any lattice of that density can reach (gamma_t: Hermite's constants),
so S_t is in (0, 1] and larger is better.

A combination of two multiplicative generators, output (x1 - x2) mod (m1 - 1), behaves as the
single generator with modulus m1 m2 and the multiplier a = a1 (mod m1), a = a2 (mod m2)
(L'Ecuyer and Tezuka, Math. Comp. 57, 1991); its figures are those of that lattice.

Exact: the dual basis is reduced by integer LLL and the shortest vector found by enumeration,
with integer norms throughout.

    python -m tools.reliability.spectral                   # the figures of the deal generator in use
    python -m tools.reliability.spectral 32763 1073741789  # one multiplier and modulus
"""

import argparse
import math
import sys
from fractions import Fraction

# gamma_t ** t, t = 2 .. 8 (exact: Blichfeldt, Korkine-Zolotarev, Cohn-Kumar for 8).
GAMMA_POWER = {2: Fraction(4, 3), 3: Fraction(2), 4: Fraction(4), 5: Fraction(8), 6: Fraction(64, 3),
               7: Fraction(64), 8: Fraction(256)}
DIMENSIONS = (2, 3, 4, 5, 6)


def dual_basis(a, m, t):
    """A basis of the dual lattice in dimension t: m e0, and (-a**i mod m) e0 + e_i."""
    rows = [[m] + [0] * (t - 1)]
    power = 1
    for i in range(1, t):
        power = power * a % m
        row = [0] * t
        row[0] = -power % m
        row[i] = 1
        rows.append(row)
    return rows


def dot(u, v):
    return sum(x * y for x, y in zip(u, v))


def lll(basis, delta=Fraction(99, 100)):
    """The basis LLL-reduced (exact, with rational Gram-Schmidt)."""
    b = [list(r) for r in basis]
    n = len(b)

    def gram_schmidt():
        star = []
        mu = [[Fraction(0)] * n for _ in range(n)]
        norms = []
        for i in range(n):
            v = [Fraction(x) for x in b[i]]
            for j in range(i):
                mu[i][j] = Fraction(dot(b[i], star[j])) / norms[j] if norms[j] else Fraction(0)
                v = [x - mu[i][j] * y for x, y in zip(v, star[j])]
            star.append(v)
            norms.append(dot(v, v))
        return mu, norms

    mu, norms = gram_schmidt()
    k = 1
    while k < n:
        for j in range(k - 1, -1, -1):
            q = round(mu[k][j])
            if q:
                b[k] = [x - q * y for x, y in zip(b[k], b[j])]
                mu, norms = gram_schmidt()
        if norms[k] >= (delta - mu[k][k - 1] ** 2) * norms[k - 1]:
            k += 1
        else:
            b[k], b[k - 1] = b[k - 1], b[k]
            mu, norms = gram_schmidt()
            k = max(k - 1, 1)
    return b


def shortest_norm(basis):
    """The squared length of the shortest nonzero vector of the lattice (Fincke-Pohst
    enumeration over an LLL-reduced basis; the bound starts at its shortest row)."""
    b = lll(basis)
    n = len(b)
    best = min(dot(r, r) for r in b)
    # Gram-Schmidt of the reduced basis, in floats for the search's bounds only: every
    # candidate's length is computed again in integers.
    star = []
    mu = [[0.0] * n for _ in range(n)]
    norms = []
    for i in range(n):
        v = [float(x) for x in b[i]]
        for j in range(i):
            mu[i][j] = sum(float(x) * y for x, y in zip(b[i], star[j])) / norms[j]
            v = [x - mu[i][j] * y for x, y in zip(v, star[j])]
        star.append(v)
        norms.append(sum(x * x for x in v))
    coeffs = [0] * n

    def search(level, partial):
        nonlocal best
        centre = -sum(coeffs[j] * mu[j][level] for j in range(level + 1, n))
        room = (best * (1 + 1e-9) - partial) / norms[level]
        if room < 0:
            return
        reach = math.sqrt(room)
        for c in range(math.ceil(centre - reach), math.floor(centre + reach) + 1):
            coeffs[level] = c
            d = c - centre
            here = partial + d * d * norms[level]
            if level == 0:
                if any(coeffs):
                    v = [sum(coeffs[i] * b[i][j] for i in range(n)) for j in range(n)]
                    length = dot(v, v)
                    if 0 < length < best:
                        best = length
            else:
                search(level - 1, here)
        coeffs[level] = 0

    search(n - 1, 0.0)
    return best


def figure(a, m, t):
    """S_t of the multiplier a modulo m."""
    nu2 = shortest_norm(dual_basis(a, m, t))
    # S_t**2 = nu**2 / (gamma_t * m**(2/t)); gamma_t = GAMMA_POWER[t] ** (1/t).
    return math.sqrt(nu2 / (float(GAMMA_POWER[t]) ** (1 / t) * m ** (2 / t)))


def figures(a, m, dims=DIMENSIONS):
    return [figure(a, m, t) for t in dims]


def passes(a, m, floor):
    """The least of a's figures when every one is at least floor, else 0 (stops at the
    first that fails, the lower dimensions first: they fail most)."""
    worst = 1.0
    for t in (3, 4, 2, 5, 6):
        s = figure(a, m, t)
        if s < floor:
            return 0
        worst = min(worst, s)
    return worst


def combined(a1, m1, a2, m2):
    """The multiplier and modulus of the single generator a combination of two behaves as."""
    m = m1 * m2
    a = (a1 * m2 * pow(m2, -1, m1) + a2 * m1 * pow(m1, -1, m2)) % m
    return a, m


def prime_factors(n):
    out = []
    d = 2
    while d * d <= n:
        if n % d == 0:
            out.append(d)
            while n % d == 0:
                n //= d
        d += 1
    if n > 1:
        out.append(n)
    return out


def primitive_root(a, m, factors):
    """a generates the whole group modulo the prime m (a full period of m - 1)."""
    return all(pow(a, (m - 1) // p, m) != 1 for p in factors)


def schrage_ok(a, m):
    """Schrage's method computes a x mod m with every intermediate below m: m mod a < m // a."""
    return 1 < a < m and m % a < m // a


def candidates(m, low):
    """Multipliers for the prime modulus m below its square root (so Schrage's method can
    use them) that are primitive roots, from `low` up, in order."""
    factors = prime_factors(m - 1)
    a = low
    while a * a < m:
        if schrage_ok(a, m) and primitive_root(a, m, factors):
            yield a
        a += 1


def search(m1, m2, floor, out, limit=0):
    """Multipliers for both streams whose figures S2..S6 are each at least `floor`, alone
    and combined; prints progress to stderr and the pairs found to out."""
    good = []
    for m in (m1, m2):
        found = []
        # S2 <= a / (gamma_2**(1/2) sqrt(m)) below sqrt(m): smaller multipliers cannot pass.
        low = int(floor * math.sqrt(m) * float(GAMMA_POWER[2]) ** 0.25)
        tried = 0
        for a in candidates(m, low):
            tried += 1
            if tried % 500 == 0:
                sys.stderr.write("m %d: %d tried, %d pass, at a = %d\n" % (m, tried, len(found), a))
            worst = passes(a, m, floor)
            if worst:
                found.append((worst, a))
        found.sort(reverse=True)
        good.append(found)
        sys.stderr.write("m %d: %d of %d pass\n" % (m, len(found), tried))
    pairs = []
    for s1, a1 in good[0][:limit or None]:
        for s2, a2 in good[1][:limit or None]:
            worst = passes(*combined(a1, m1, a2, m2), floor)
            if worst:
                pairs.append((min(worst, s1, s2), a1, a2))
    pairs.sort(reverse=True)
    for worst, a1, a2 in pairs[:20]:
        out.write("a1 %d a2 %d: worst figure %.3f\n" % (a1, a2, worst))
    return pairs


def report(rows, out):
    dims = DIMENSIONS
    out.write("| generator | a | m | " + " | ".join("S%d" % t for t in dims) + " |\n")
    out.write("| --- | ---: | ---: | " + " | ".join("---:" for _ in dims) + " |\n")
    for label, a, m in rows:
        out.write("| %s | %d | %d | %s |\n" % (label, a, m, " | ".join("%.3f" % s for s in figures(a, m))))


def generator_rows(a1, m1, a2, m2, name):
    a, m = combined(a1, m1, a2, m2)
    return [(name + " stream 1", a1, m1), (name + " stream 2", a2, m2), (name + " combined", a, m)]


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("a", nargs="?", type=int, help="a multiplier (with m): its figures alone")
    parser.add_argument("m", nargs="?", type=int)
    parser.add_argument("--search", type=float, metavar="FLOOR",
                        help="find multipliers for the generator's moduli with every figure at least FLOOR")
    parser.add_argument("--best", type=int, default=40, help="with --search: pair the best N of each stream")
    args = parser.parse_args(argv)
    if args.search is not None:
        from engine_core import rng
        return 0 if search(rng.M1, rng.M2, args.search, sys.stdout, args.best) else 1
    if args.a is not None:
        if args.m is None:
            parser.error("give the modulus with the multiplier")
        report([("given", args.a, args.m)], sys.stdout)
        return 0
    from engine_core import rng
    rows = generator_rows(rng.B1, rng.M1, rng.B2, rng.M2, "spectral (new deals)")
    rows += generator_rows(rng.A, rng.M1, rng.A2, rng.M2, "combined (builds before)")
    report(rows, sys.stdout)
    return 0


if __name__ == "__main__":
    sys.exit(main())
