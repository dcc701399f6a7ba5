"""Nerts on the clock: what a 33 ms tick costs with three computer opponents.

The guest (real MicroPython under WebAssembly) deals a 4-player game where p1 waits (a
person who plays nothing) and p2-p4 are computer players (in the last row p1 is one too, so
that rounds also end with everyone stuck, the costliest check), then calls tick(33) round after
round and reads the fuel of every call. Each reading is a string the guest allocates after
the reading is taken, so a garbage collection it triggers would be counted against the
measured call: the guest turns automatic collection off, collects between calls, and keeps
its figures in preallocated arrays. Budget (docs/performance.md, shared PERFORMANCE.md):
0.5 M fuel per tick on average and 1.5 M at worst.
"""

import json

from tools.mpy import FUEL_PRELUDE, run_micropython

TITLE = "Nerts: a 33 ms tick with three computer opponents"
FUEL_PER_US_RP2040 = 168
TICK_MS = 33
# Three rounds at the slowest level are some 106,000 ticks, each with two fuel() readings:
# about 50 G of fuel, past the default cap.
NERTS_FUEL = 150_000_000_000

GUEST = FUEL_PRELUDE + """
import gc, host, json
from array import array
from engine_core import PLAYING, games


cls = games.load("nerts")
game = cls(4, OPTIONS)
acting = array("i", [0] * 6000)
gc.disable()
total = 0  # in thousands of fuel, to stay a small int
worst = 0
ticks = 0
actions = 0
clock = 0
seed = 0
while seed < ROUNDS:
    game.deal(seed)
    for p in range(FIRST, 4):
        game.set_bot(p, SPEED, SKILL)
    round_ticks = 0
    while game.status() == PLAYING and actions < 6000 and round_ticks < 40000:
        round_ticks += 1  # a round the waiting p1 would have to end (all three stuck) stops here
        if ticks % 64 == 0:
            gc.collect()  # here, outside the measured calls (automatic collection is off)
        before = game.clock_ms
        a = fuel(); game.tick(TICK_MS); b = fuel()
        spent = b - a - overhead
        total += spent // 1000
        worst = max(worst, spent)
        ticks += 1
        if game.bot.acted():
            acting[actions] = b - a - overhead
            actions += 1
    clock += game.clock_ms
    seed += 1
moved = sorted(acting[:actions])
print(json.dumps({"ticks": ticks, "mean": total * 1000 // ticks, "worst": worst,
                  "acting_median": moved[actions // 2], "acting_worst": moved[-1],
                  "actions": actions, "game_s": clock // 1000}))
"""


def measure_level(speed, skill, rounds=3, jokers=False, computers=3):
    code = (GUEST.replace("OPTIONS", "1" if jokers else "0").replace("ROUNDS", str(rounds))
            .replace("FIRST", str(4 - computers))
            .replace("SPEED", str(speed)).replace("SKILL", str(skill)).replace("TICK_MS", str(TICK_MS)))
    result = run_micropython(code, fuel=NERTS_FUEL)
    if result.exit_code != 0:
        raise SystemExit("Nerts bench failed on MicroPython:\n" + result.stderr)
    return json.loads(result.stdout.strip().splitlines()[-1])


def ms(fuel):
    return "%.2f ms" % (fuel / FUEL_PER_US_RP2040 / 1000)


def measure():
    lines = ["| computer players (speed/skill) | ticks | fuel per tick: mean | worst | a tick in which one acts: median | worst |",
             "| --- | --- | --- | --- | --- | --- |"]
    for speed, skill, jokers, computers in ((4, 3, False, 3), (4, 3, True, 3), (2, 2, False, 3),
                                            (0, 0, False, 3), (0, 0, False, 4)):
        f = measure_level(speed, skill, jokers=jokers, computers=computers)
        label = "%d x %d/%d%s" % (computers, speed, skill, " jokers" if jokers else "")
        if computers == 4:
            label += " (p1 too: everyone gets stuck)"
        lines.append("| %s | %s | %s (%s) | %s (%s) | %s | %s (%s) |" % (
            label, format(f["ticks"], ","),
            format(f["mean"], ","), ms(f["mean"]), format(f["worst"], ","), ms(f["worst"]),
            format(f["acting_median"], ","), format(f["acting_worst"], ","), ms(f["acting_worst"])))
    lines.append("")
    lines.append("Three rounds each on MicroPython 1.27 (WebAssembly fuel); RP2040 time ~ fuel / %d us. "
                 "Budget: 500,000 mean, 1,500,000 worst." % FUEL_PER_US_RP2040)
    return "\n".join(lines)


if __name__ == "__main__":
    from tools.cli import help_or_go
    help_or_go(__doc__, '-m tools.bench.bench_nerts')
    print(measure())
