"""Hint and auto-play cost of the patience games on real MicroPython (make bench).

The guest plays deals on MicroPython, following the hint most of the time and a random legal
move otherwise (so that hints are asked in many kinds of positions), and reads the fuel of
every hint(), safe_move() and finish_move(). The budget for a hint is 17,000,000 fuel
(~0.1 s on an RP2040 at 168 fuel per microsecond, docs/performance.md). The search is
bounded by a limit in work units (Aces Up: a move plus one per card it moves; Sir Tommy: table
rows, a fixed amount; Casket: moves scored). A stress position per game measures a hint near
its limit; the bound adds the worst hint without search to the limit times the most fuel per
unit seen (in hints of eight units or more, fixed costs included, so it errs high).
The collector runs every 32 steps: reading the fuel allocates a small string in the guest,
and a collection triggered there would be counted as the engine's; after a collection the
heap has room for far more than 32 steps of those strings.
"""

import json
import sys


from engine_core import games
from tools.mpy import FUEL_PRELUDE, run_micropython

TITLE = "Hints and auto-play (patience games)"
BUDGET = 17000000
FUEL_PER_US_RP2040 = 168
PATIENCE = ("aces_up", "sir_tommy", "casket")
DEALS = {"aces_up": 120, "sir_tommy": 12, "casket": 3}
# Per game, a position whose full search needs far more than the node limit (found by random
# play on the host: 372 work units for this Aces Up one), so the hint stops at the limit; for
# Sir Tommy, whose hint does a fixed amount of work, 44 cards on the holding piles; for Casket
# under rule profile 2 the position whose hint scored the limit with the most reserve cards (63)
# over 150 deals played by the hint, and under profile 1 ("casket:1") the one whose hint scored
# the most moves (29, more than the limit) over 300 deals of play.
STRESS = {
    "casket": '{"game": "casket", "rules": 2, "seed": 102, "status": "playing", "turn": null, "clock_ms": 0, "piles": {"stock": [], "waste": [], "jewels": [], "lid1": [], "lid2": [], "lid3": [], "lid4": [], "lid5": [], "body1": ["QS"], "body2": ["TH", "9H"], "body3": ["KH", "QH", "JH"], "body4": ["9H", "8H", "7H"], "body5": ["TD", "9D", "8D", "7D"], "body6": ["JS", "TS"], "body7": ["JH"], "body8": ["6S", "5S", "4S"], "res1": ["QS", "8H", "3S", "2D", "2D", "4H", "2C", "2S", "TC", "7H", "QD", "5C", "KH", "8S", "9D", "6S"], "res2": ["KD", "5H", "3D", "3S", "3D", "4S"], "res3": ["TC", "QC", "7C", "4C", "QD", "TS", "9S", "5D", "7S", "9C", "7S", "TH", "9S", "4D", "6D", "8S", "KC", "JD", "KD", "JS", "6D", "8C", "7D", "KS", "6C", "9C", "QC", "TD", "JC", "6H", "KS", "JD", "8D", "QH", "6H", "KC", "5S", "JC", "4D", "5D", "3C"], "found1": ["AH", "2H", "3H", "4H", "5H"], "found2": ["AH", "2H", "3H"], "found3": ["AD"], "found4": ["AC", "2C", "3C", "4C", "5C", "6C", "7C", "8C"], "found5": ["AS", "2S"], "found6": ["AC"], "found7": ["AS"], "found8": ["AD"]}, "score": {}, "rng": 816383769}',
    "casket:1": '{"game": "casket", "rules": 1, "seed": 284, "status": "playing", "turn": null, "clock_ms": 0, "piles": {"stock": ["#4D", "#2H", "#9S", "#KH", "#QD", "#TD", "#QC", "#4C", "#4D", "#7S", "#5S", "#KS", "#8C", "#2C", "#4H", "#8S", "#2D", "#9C", "#JC", "#7C", "#3D", "#6C", "#3D", "#2S", "#9H", "#4S", "#TH", "#3S", "#5C", "#QH", "#2H", "#6S", "#6S", "#KC", "#5D", "#JS", "#5D", "#6D", "#AC", "#3C", "#2D", "#7S", "#KS", "#5H", "#8H", "#7H", "#KD", "#4S", "#5H", "#2C", "#8C", "#7H", "#AH", "#2S", "#JH", "#QC", "#AC", "#AS", "#9H", "#TD", "#KD", "#JC", "#TC", "#6H", "#TH", "#TC", "#4C", "#9D", "#JD", "#AD", "#3H", "#QH", "#5S", "#8S", "#QS", "#9D", "#TS"], "waste": ["3H"], "jewels": ["#JD", "#6H", "#QD", "#8H", "#AH", "#5C", "#6C", "#AS", "#3C", "#6D", "#9S", "JH"], "lid1": ["9C"], "lid2": ["7D"], "lid3": ["TS"], "lid4": ["KC"], "lid5": ["KH"], "body1": ["8D"], "body2": ["8D"], "body3": ["QS"], "body4": ["4H"], "body5": [], "body6": ["JS"], "body7": ["7D"], "body8": ["7C"], "res1": [], "res2": ["3S"], "res3": [], "found1": ["AD"], "found2": [], "found3": [], "found4": [], "found5": [], "found6": [], "found7": [], "found8": []}, "score": {}, "rng": 893293202}',
    "sir_tommy": '{"game": "sir_tommy", "rules": 1, "seed": 1, "status": "playing", "turn": null, "clock_ms": 0, "piles": {"stock": ["#AS", "#AH", "#AD", "#AC", "#JC", "#QC", "#KC"], "current": ["TC"], "found1": [], "found2": [], "found3": [], "found4": [], "res1": ["2S", "6S", "TS", "2H", "6H", "TH", "2D", "6D", "TD", "2C", "6C"], "res2": ["3S", "7S", "JS", "3H", "7H", "JH", "3D", "7D", "JD", "3C", "7C"], "res3": ["4S", "8S", "QS", "4H", "8H", "QH", "4D", "8D", "QD", "4C", "8C"], "res4": ["5S", "9S", "KS", "5H", "9H", "KH", "5D", "9D", "KD", "5C", "9C"]}, "score": {}, "rng": 12345}',
    "aces_up": '{"game": "aces_up", "rules": 1, "seed": 5162, "status": "playing", "turn": null, "clock_ms": 0, "piles": {"stock": ["#JH", "#6C", "#QH", "#KD", "#8C", "#2C", "#QC", "#TS", "#3S", "#3C", "#7C", "#TH"], "col1": ["KH", "AD", "JC", "2S", "AH", "AC"], "col2": ["6D", "3D", "QD", "9C", "JD", "TD"], "col3": ["JS", "AS", "KS", "QS"], "col4": [], "discard": ["7S", "5H", "5S", "2H", "9S", "4H", "6H", "TC", "3H", "7H", "9D", "4S", "4D", "5C", "7D", "6S", "5D", "8D", "9H", "4C", "8H", "2D", "8S", "KC"]}, "score": {}, "rng": 747342048}',
}

GUEST = FUEL_PRELUDE + """
import gc, host, json
from array import array
from engine_core import PLAYING, games, rng


cls = games.load(NAME)
game = cls()
game.set_rules(RULES)
out = array("i", [0] * cls.MAX_MOVES)
worst = {"hint": 0, "safe_move": 0, "finish_move": 0}
hints = []
per_node = 0
fixed = 0
worst_nodes = 0
x = rng.seed_state(77)
for seed in range(DEALS):
    game.deal(seed)
    steps = 0
    while game.status() == PLAYING and steps < 400:
        steps += 1
        if steps % 32 == 1:
            gc.collect()  # reading the fuel allocates a string: keep the collector out of the figures
        a = fuel(); m = game.hint(); b = fuel()
        f = b - a - overhead
        hints.append(f)
        worst["hint"] = max(worst["hint"], f)
        work = game.advisor.work
        if work >= 8 and f // work > per_node:
            per_node = f // work
        if work == 0 and f > fixed:
            fixed = f
        worst_nodes = max(worst_nodes, work)
        a = fuel(); game.safe_move(); b = fuel()
        worst["safe_move"] = max(worst["safe_move"], b - a - overhead)
        a = fuel(); game.finish_move(); b = fuel()
        worst["finish_move"] = max(worst["finish_move"], b - a - overhead)
        x = rng.step(x)
        if x % 4 == 0 or m < 0:
            n = game.legal_moves(out)
            if n == 0:
                break
            m = out[x % n]
        game.apply(m)
hints.sort()
stress = 0
stress_nodes = 0
if STRESS:
    from engine_core.protocol import load_state
    game = load_state(STRESS, None)
    gc.collect()
    a = fuel(); game.hint(); b = fuel()
    stress = b - a - overhead
    stress_nodes = game.advisor.work
print(json.dumps({"fixed": fixed, "stress": stress, "stress_nodes": stress_nodes, "worst": worst, "median": hints[len(hints) // 2], "count": len(hints),
                  "per_node": per_node, "worst_nodes": worst_nodes,
                  "node_limit": NODE_LIMIT}))
"""


def figures(name, rules=0):
    """The guest's figures for a game under rule profile `rules` (0: the game's default)."""
    cls = games.load(name)
    rules = rules or cls.RULES_VERSION
    key = name if rules == cls.RULES_VERSION else "%s:%d" % (name, rules)
    advisor = sys.modules[type(cls().advisor).__module__]
    code = (GUEST.replace("NAME", repr(name)).replace("DEALS", str(DEALS[name]))
            .replace("RULES", str(rules))
            .replace("NODE_LIMIT", str(advisor.NODE_LIMIT)).replace("STRESS", repr(STRESS.get(key, ""))))
    result = run_micropython(code)
    if result.exit_code != 0:
        raise SystemExit("hint bench of %s failed on MicroPython:\n%s" % (name, result.stderr))
    return json.loads(result.stdout.strip().splitlines()[-1])


def rows():
    """(game, rule profile) for every patience game with an advisor, each profile it plays."""
    found = []
    for name in PATIENCE:
        if name not in games.available() or not hasattr(games.load(name)(), "advisor"):
            continue
        profiles = games.load(name).RULES_PROFILES
        for rules in sorted(profiles, reverse=True):
            found.append((name, rules))
    return found


def ms(fuel):
    return "%.1f ms" % (fuel / FUEL_PER_US_RP2040 / 1000.0)


def measure():
    lines = [
        "| game | hints measured | hint median | hint worst (RP2040) | work units worst / limit | stress position: hint (units) | bound: fixed + limit x unit | safe_move worst | finish_move worst |",
        "| --- | --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    for name, rules in rows():
        f = figures(name, rules)
        w = f["worst"]
        # What one unit costs at most: the most fuel per unit of any hint that spent eight or
        # more (its fixed costs included, so this errs high), or of the stress hint; what a
        # hint costs without search: its worst at zero units.
        unit = max(f["per_node"], f["stress"] // max(1, f["stress_nodes"]))
        bound = f["fixed"] + f["node_limit"] * unit
        label = name if rules == games.load(name).RULES_VERSION else "%s (rules %d)" % (name, rules)
        lines.append("| %s | %d | %s | %s (%s) | %d / %d | %s (%d) | %s%s | %s | %s |" % (
            label, f["count"], format(f["median"], ","), format(w["hint"], ","), ms(w["hint"]),
            f["worst_nodes"], f["node_limit"], format(f["stress"], ","), f["stress_nodes"],
            format(bound, ","), "" if bound <= BUDGET else " (over budget)",
            format(w["safe_move"], ","), format(w["finish_move"], ",")))
    lines.append("")
    lines.append("Budget: %s fuel per hint. Fuel: WebAssembly instructions on MicroPython 1.27."
                 % format(BUDGET, ","))
    return "\n".join(lines)


if __name__ == "__main__":
    from tools.cli import help_or_go
    help_or_go(__doc__, '-m tools.bench.bench_hints')
    print(measure())
