"""Spite & Malice: what a whole computer turn costs on MicroPython, per level.

For each level, whole deals are played on real MicroPython with the level on both sides
(and again against a random-legal-move player), and the fuel of every complete turn
(Bot.play_turn: planning and every move it applies, refills and reshuffles included) is
recorded. The budget is 17 M fuel per turn (about 0.1 s on an RP2040, docs/performance.md).
"""

import json

from tools.mpy import FUEL_PRELUDE, run_micropython

TITLE = "Spite & Malice: a computer turn"
BUDGET = 17_000_000
FUEL_PER_US_RP2040 = 168
DEALS = 12  # per level and opponent

GUEST = FUEL_PRELUDE + """
import gc, host, json
from array import array
from engine_core import PLAYING, games, rng
from engine_core.ai.spite_malice import Bot


gc.collect()
before = gc.mem_alloc()
bot = Bot()
gc.collect()
bot_heap = gc.mem_alloc() - before
cls = games.load("spite_malice")
game = cls(2)
game.bots = False
out = array("i", [0] * cls.MAX_MOVES)


def random_turn(x):
    player = game.turn()
    while game.status() == PLAYING and game.turn() == player:
        x = rng.step(x)
        game.apply(out[x % game.legal_moves(out)])
    return x


def turn_costs(level):
    costs = []
    x = rng.seed_state(level)
    for deal in range(DEALS * 2):
        game.deal(1000 * level + deal)
        against_random = deal % 2 == 1
        turns = 0
        while game.status() == PLAYING and turns < 400:
            turns += 1
            if against_random and game.turn() == 0:
                x = random_turn(x)
            else:
                # No collection inside the measured turn: the bot allocates nothing, but the
                # guest's reading of the fuel counter does, and a collection it set off there
                # would be counted as the turn's.
                gc.disable()
                try:
                    a = fuel()
                    bot.play_turn(game, level)
                    b = fuel()
                    costs.append(b - a - overhead)
                except MemoryError:  # the heap full just then: this turn is not measured
                    dropped[0] += 1
                gc.enable()
    costs.sort()
    return [costs[len(costs) // 2], costs[len(costs) * 99 // 100], costs[-1], len(costs)]


dropped = [0]
result = {"bot_heap": bot_heap}
for level in (1, 2, 3):
    result[str(level)] = turn_costs(level)
result["dropped"] = dropped[0]
print(json.dumps(result))
"""


def figures(deals=DEALS):
    """{level: [median, 99th percentile, worst, turns]} and the bot's heap, from MicroPython."""
    result = run_micropython(GUEST.replace("DEALS", str(deals)))
    if result.exit_code != 0:
        raise SystemExit("bench of spite_malice failed on MicroPython:\n" + result.stderr)
    return json.loads(result.stdout.strip().splitlines()[-1])


def measure():
    f = figures()
    lines = [
        "| level | turns measured | fuel per turn: median | 99th percentile | worst | worst on an RP2040 | within 17 M |",
        "| --- | --- | --- | --- | --- | --- | --- |",
    ]
    for level in ("1", "2", "3"):
        median, p99, worst, count = f[level]
        lines.append("| %s | %d | %s | %s | %s | %.0f ms | %s |" % (
            level, count, format(median, ","), format(p99, ","), format(worst, ","),
            worst / FUEL_PER_US_RP2040 / 1000, "yes" if worst <= BUDGET else "NO"))
    lines.append("")
    lines.append("Whole deals with the level on both sides and against a random player, %d each; "
                 "the bot's own heap (model, plan, tables): %s B. The bot allocates nothing; the "
                 "guest's reading of the fuel counter does, so collections are held off during a "
                 "measured turn (turns left out for a full heap: %d)." % (DEALS, format(f["bot_heap"], ","), f["dropped"]))
    return "\n".join(lines)


if __name__ == "__main__":
    from tools.cli import help_or_go
    help_or_go(__doc__, '-m tools.bench.bench_spite_malice')
    print(measure())
