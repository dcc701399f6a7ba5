"""How independent the deals are: the statistics a deal generator must pass before win rates
measured over deal numbers mean anything (docs/statistics.md).

    python -m tools.reliability.deal_quality                 seeds 0..9999, today's generator
    python -m tools.reliability.deal_quality --deals 100000 --start 500000 --generator lehmer

Over the 52-card deals of a run of consecutive deal numbers:
- the card-by-position chi-square: how often each card lies at each position, against the
  uniform N / 52, summed over the 52 x 52 cells; for independent uniform shuffles its mean
  is 52 * 51 = 2,652 and it must lie within the chi-square distribution's 99% band;
- the first-card match rate: how often deal numbers n and n + 1 deal the same first card
  (the top of the shuffled deck, the last in id order); independent decks match in 1 of 52
  (1.92%), and the count must lie within the binomial 99% band;
- the cards in the same place: over all 52 positions, how many cards deals n and n + 1 have
  at the same position; independent decks have one a pair on average (the fixed points of a
  random permutation: mean 1, variance 1), and the total must lie within its 99% band;
- distinct: no two deal numbers of the run give the same order.
Each statistic comes with its band and whether it holds (suite() returns them as a dict).
"""

import argparse
import math
import sys

from engine_core import rng

CARDS = 52
Z99 = 2.5758293035489  # the standard normal's 99.5% point: a two-sided 99% band


def deal_order(seed, generator=rng.SPECTRAL):
    """The 52 card ids of the deck a game of one deck shuffles from `seed`, bottom to top, as
    Game.deal shuffles it (engine_core/game.py: fill_and_shuffle): the last is dealt first."""
    buf = bytearray(range(CARDS))
    if generator == rng.LEHMER:
        rng.shuffle(buf, 0, CARDS, rng.seed_state(seed))
    else:
        state = [0, 0]
        rng.seed_states(seed, state, 0, 1)
        rng.shuffle2(buf, 0, CARDS, state, 0, 1, generator)
    return bytes(buf)


def chi_square_band(df, z=Z99):
    """The (low, high) band of a chi-square variable with df degrees of freedom holding
    99% of its values (Wilson-Hilferty: within 0.1% at these df)."""
    a = 2.0 / (9.0 * df)
    return df * (1 - a - z * math.sqrt(a)) ** 3, df * (1 - a + z * math.sqrt(a)) ** 3


def binomial_band(n, p, z=Z99):
    """The (low, high) band of a Binomial(n, p) count holding about 99% of its values."""
    mean = n * p
    half = z * math.sqrt(n * p * (1 - p))
    return max(0.0, mean - half), mean + half


def measure(orders):
    """The statistics of a list of deck orders from consecutive deal numbers."""
    n = len(orders)
    counts = [[0] * CARDS for _ in range(CARDS)]  # counts[position][card]
    for order in orders:
        for pos in range(CARDS):
            counts[pos][order[pos]] += 1
    expected = n / CARDS
    chi = 0.0
    for row in counts:
        for c in row:
            chi += (c - expected) ** 2 / expected
    top = CARDS - 1
    matches = sum(1 for i in range(n - 1) if orders[i][top] == orders[i + 1][top])
    alike = sum(1 for i in range(n - 1) for p in range(CARDS) if orders[i][p] == orders[i + 1][p])
    alike_half = Z99 * math.sqrt(n - 1)
    chi_low, chi_high = chi_square_band(CARDS * (CARDS - 1))
    match_low, match_high = binomial_band(n - 1, 1.0 / CARDS)
    worst = max(max(row) for row in counts) / expected
    rarest = min(min(row) for row in counts) / expected
    return {
        "deals": n,
        "chi_square": round(chi, 1), "chi_band": (round(chi_low, 1), round(chi_high, 1)),
        "chi_ok": chi_low <= chi <= chi_high,
        "first_card_matches": matches, "match_band": (round(match_low, 1), round(match_high, 1)),
        "match_ok": match_low <= matches <= match_high,
        "same_place": alike, "same_place_band": (round(n - 1 - alike_half, 1), round(n - 1 + alike_half, 1)),
        "same_place_ok": abs(alike - (n - 1)) <= alike_half,
        "distinct": len(set(orders)), "distinct_ok": len(set(orders)) == n,
        "cell_range": (round(rarest, 2), round(worst, 2)),
    }


def suite(deals=10000, start=0, generator=rng.SPECTRAL):
    """The statistics of deal numbers start .. start + deals - 1, with 'failures': how many
    of the four checks failed, and 'first': the first that did."""
    result = measure([deal_order(s, generator) for s in range(start, start + deals)])
    failed = [k for k in ("chi_ok", "match_ok", "same_place_ok", "distinct_ok") if not result[k]]
    result["failures"] = len(failed)
    if failed:
        result["first"] = failed[0]
    return result


MPY_DEALS = """
from engine_core import rng
from array import array
state = array('i', [0, 0])
for seed in range(START, START + COUNT):
    buf = bytearray(range(52))
    rng.seed_states(seed, state, 0, 1)
    rng.shuffle2(buf, 0, 52, state, 0, 1)
    print(bytes(buf).hex())
"""


def micropython_suite(deals, start=0, runtime="unix"):
    """The deals of `deals` numbers from `start` dealt on real MicroPython (tools/mpy.py's
    `runtime`: the unix port unless told), each compared with CPython's; then the same
    statistics over MicroPython's deals."""
    from tools.mpy import run_micropython
    script = MPY_DEALS.replace("START", str(start)).replace("COUNT", str(deals))
    result = run_micropython(script, fuel=10 ** 15, runtime=runtime)
    lines = [line for line in result.stdout.split("\n") if line]
    orders = [bytes.fromhex(line) for line in lines if len(line) == 2 * CARDS]
    counts = measure(orders) if len(orders) > 1 else {"deals": len(orders)}
    differ = [start + i for i in range(len(orders)) if orders[i] != deal_order(start + i)]
    counts["unlike_cpython"] = len(differ)
    failed = [k for k in ("chi_ok", "match_ok", "same_place_ok", "distinct_ok") if not counts.get(k, False)]
    if result.exit_code != 0 or len(orders) != deals:
        failed.insert(0, "MicroPython dealt %d of %d: %s" % (len(orders), deals, result.stderr[-200:]))
    if differ:
        failed.insert(0, "deal %d differs from CPython's" % differ[0])
    counts["failures"] = len(failed)
    if failed:
        counts["first"] = failed[0]
    return counts


def report(result):
    lines = [
        "deals %d: card-by-position chi-square %.1f (99%% band %.1f-%.1f) %s" % (
            result["deals"], result["chi_square"], result["chi_band"][0], result["chi_band"][1],
            "ok" if result["chi_ok"] else "OUTSIDE"),
        "first card of n and n + 1 alike: %d = %.2f%% (99%% band %.1f-%.1f) %s" % (
            result["first_card_matches"], 100.0 * result["first_card_matches"] / max(result["deals"] - 1, 1),
            result["match_band"][0], result["match_band"][1], "ok" if result["match_ok"] else "OUTSIDE"),
        "cards in the same place in n and n + 1: %d (99%% band %.1f-%.1f) %s" % (
            result["same_place"], result["same_place_band"][0], result["same_place_band"][1],
            "ok" if result["same_place_ok"] else "OUTSIDE"),
        "distinct deals: %d of %d %s" % (result["distinct"], result["deals"],
                                         "ok" if result["distinct_ok"] else "REPEATS"),
        "cells: the rarest %.2f and the most frequent %.2f times the uniform count" % result["cell_range"],
    ]
    return "\n".join(lines)


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=10000)
    parser.add_argument("--start", type=int, default=0)
    parser.add_argument("--generator", choices=rng.NAMES, default=rng.NAMES[rng.SPECTRAL])
    args = parser.parse_args(argv)
    result = suite(args.deals, args.start, rng.NAMES.index(args.generator))
    print("generator %s, deal numbers %d..%d" % (args.generator, args.start, args.start + args.deals - 1))
    print(report(result))
    return 1 if result["failures"] else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
