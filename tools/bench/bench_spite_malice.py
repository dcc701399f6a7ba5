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


def spread_costs(level):
    # The turn as the table shows it: the next move sought a part at a time in the frames
    # between the moves (Bot.prepare, SLICE positions a frame), then the move taken and made.
    parts = []
    steps = []
    most = 0
    for deal in range(DEALS):
        game.deal(5000 + 1000 * level + deal)
        turns = 0
        while game.status() == PLAYING and turns < 400:
            turns += 1
            player = game.turn()
            fresh = True
            while game.status() == PLAYING and game.turn() == player:
                gc.disable()
                try:
                    n = 0
                    done = False
                    while not done:
                        a = fuel()
                        done = bot.prepare(game, level, fresh, SLICE)
                        b = fuel()
                        parts.append(b - a - overhead)
                        n += 1
                    most = max(most, n)
                    a = fuel()
                    game.apply(bot.step_move(game, level, fresh))
                    b = fuel()
                    steps.append(b - a - overhead)
                except MemoryError:
                    dropped[0] += 1
                    game.apply(bot.step_move(game, level, fresh))
                gc.enable()
                fresh = False
    parts.sort()
    steps.sort()
    return [parts[len(parts) // 2], parts[-1], steps[len(steps) // 2], steps[-1], most, len(steps)]


def finish_costs(level):
    # A key in the turn shown move by move plays the rest of it at once (Table.finish_computer):
    # what that costs in the key's frame when the key comes after `ahead` frames of the work
    # toward the first move (0: in the first frame; the most: once that move is found).
    worst = [0] * 11
    for deal in range(DEALS):
        game.deal(9000 + 1000 * level + deal)
        turns = 0
        while game.status() == PLAYING and turns < 400:
            turns += 1
            ahead = turns % 11
            gc.disable()
            try:
                found = False
                for _ in range(ahead if ahead < 10 else 99):
                    if bot.prepare(game, level, True, SLICE):
                        found = True
                        break
                a = fuel()
                bot.play_turn(game, level)
                b = fuel()
                i = 10 if found else ahead
                worst[i] = max(worst[i], b - a - overhead)
            except MemoryError:
                dropped[0] += 1
                bot.play_turn(game, level)
            gc.enable()
    return worst


dropped = [0]
result = {"bot_heap": bot_heap}
for level in (1, 2, 3):
    result[str(level)] = turn_costs(level)
result["spread"] = spread_costs(3)
result["finish"] = finish_costs(3)
result["dropped"] = dropped[0]
print(json.dumps(result))
"""


def figures(deals=DEALS):
    """{level: [median, 99th percentile, worst, turns]}, the bot's heap and the hard level's
    turn shown move by move ("spread": a frame's part of the search, median and worst; a move
    taken and made, median and worst; the most frames a move was sought in; moves), from
    MicroPython."""
    from engine_core.ui.table import _PREPARE_NODES
    result = run_micropython(GUEST.replace("DEALS", str(deals)).replace("SLICE", str(_PREPARE_NODES)))
    if result.exit_code != 0:
        raise SystemExit("bench of spite_malice failed on MicroPython:\n" + result.stderr)
    return json.loads(result.stdout.strip().splitlines()[-1])


def measure():
    f = figures()
    from engine_core.ui.table import _PREPARE_NODES as PREPARE_NODES
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
    part, worst_part, step, worst_step, most, moves = f["spread"]
    lines.append("")
    lines.append("The hard level's turn as the table shows it, move by move (%d moves): the next move is "
                 "sought in the frames between them, a part a frame (the turn's sampling, or %d positions "
                 "of search: Bot.prepare), %s fuel a frame at the median and %s at worst (%.1f ms on an "
                 "RP2040 at 125 MHz), in %d frames at most; the move then taken and made %s / %s "
                 "fuel." % (moves, PREPARE_NODES, format(part, ","), format(worst_part, ","),
                            worst_part / FUEL_PER_US_RP2040 / 1000, most, format(step, ","),
                            format(worst_step, ",")))
    finish = f["finish"]
    lines.append("")
    lines.append("A key during that turn plays the rest of it at once, in its frame, after the strip "
                 "that says so has been sent (App.before_press; how soon, on the emulated chip: below). "
                 "Its worst cost when "
                 "the key comes in the turn's first frame: %s fuel (%.0f ms on an RP2040 at 125 MHz); "
                 "after 1, 2, 4 and 8 frames of the work toward the first move: %s; once that move is "
                 "found: %s (%.0f ms)." % (
                     format(finish[0], ","), finish[0] / FUEL_PER_US_RP2040 / 1000,
                     ", ".join(format(finish[i], ",") for i in (1, 2, 4, 8)),
                     format(finish[10], ","), finish[10] / FUEL_PER_US_RP2040 / 1000))
    return "\n".join(lines)


if __name__ == "__main__":
    from tools.cli import help_or_go
    help_or_go(__doc__, '-m tools.bench.bench_spite_malice')
    print(measure())
