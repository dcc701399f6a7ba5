"""make bench: what the engine costs, per game.

On real MicroPython (WebAssembly under wasmtime) it counts the fuel (instructions executed)
of each legal_moves, apply, undo, deal and hint over random play, and the heap one game
instance holds; on CPython it counts moves per second. Fuel converts to RP2040 time at about
168 fuel per microsecond (docs/performance.md).

    python -m tools.bench.bench              print the tables
    python -m tools.bench.bench --update-docs   also rewrite them in docs/performance.md

Game-specific figures (a computer turn, a tick with bots, a hint search, a redraw) live in
tools/bench/bench_*.py modules: each has TITLE and measure() -> a Markdown table, printed after the
engine table and kept in docs/performance.md between <!-- bench:NAME:begin/end --> markers.
"""

import glob
import importlib
import json
import os
import random
import sys
import time
from array import array

from engine_core import PLAYING, games
from tools.mpy import FUEL_PRELUDE, run_micropython

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

FUEL_PER_US_RP2040 = 168
DOCS = os.path.join(ROOT, "docs", "performance.md")
BEGIN = "<!-- bench:begin -->"
END = "<!-- bench:end -->"

GUEST = FUEL_PRELUDE + """
import gc, host, json
from array import array
from engine_core import PLAYING, games, rng


def median(xs):
    xs.sort()
    return xs[len(xs) // 2] if xs else 0

cls = games.load(NAME)
gc.collect()
before = gc.mem_alloc()
game = cls(PLAYERS)
gc.collect()
heap = gc.mem_alloc() - before
out = array("i", [0] * cls.MAX_MOVES)
cost = {"legal_moves": [], "apply": [], "undo": [], "deal": [], "hint": []}
x = rng.seed_state(2024)
for seed in range(1, 6):  # random play rarely ends a Casket or Nerts deal: time some directly
    a = fuel(); game.deal(seed); b = fuel()
    cost["deal"].append(b - a - overhead)
seed = 0
game.deal(seed)
for step in range(STEPS):
    if game.status() != PLAYING:
        seed += 1
        a = fuel(); game.deal(seed); b = fuel()
        cost["deal"].append(b - a - overhead)
        continue
    a = fuel(); n = game.legal_moves(out); b = fuel()
    cost["legal_moves"].append(b - a - overhead)
    if n == 0:
        seed += 1
        game.deal(seed)
        continue
    if step % 8 == 0:
        a = fuel(); game.hint(); b = fuel()
        cost["hint"].append(b - a - overhead)
    x = rng.step(x)
    a = fuel(); game.apply(out[x % n]); b = fuel()
    cost["apply"].append(b - a - overhead)
    if x % 4 == 0:
        a = fuel(); game.undo(); b = fuel()
        cost["undo"].append(b - a - overhead)
result = {"heap": heap}
for k in cost:
    xs = cost[k]
    result[k] = [median(xs), max(xs) if xs else 0, len(xs)]
print(json.dumps(result))
"""


def micropython_figures(name, steps=600):
    players = games.load(name).MIN_PLAYERS
    code = GUEST.replace("NAME", repr(name)).replace("PLAYERS", str(players)).replace("STEPS", str(steps))
    result = run_micropython(code)
    if result.exit_code != 0:
        raise SystemExit("bench of %s failed on MicroPython:\n%s" % (name, result.stderr))
    return json.loads(result.stdout.strip().splitlines()[-1])


def cpython_moves_per_second(name, seconds=1.0):
    cls = games.load(name)
    game = cls(cls.MIN_PLAYERS)
    out = array("i", [0] * cls.MAX_MOVES)
    rnd = random.Random(1)
    moves = 0
    seed = 0
    game.deal(seed)
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        for _ in range(200):
            n = game.legal_moves(out) if game.status() == PLAYING else 0
            if n == 0:
                seed += 1
                game.deal(seed)
                continue
            game.apply(out[rnd.randrange(n)])
            moves += 1
    return moves / (time.perf_counter() - start)


def table(rows):
    lines = [
        "| game | legal_moves fuel (median / worst) | apply | undo | deal | hint worst | heap per game | CPython moves/s |",
        "| --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    for name, f, mps in rows:
        def pair(k):
            return "%s / %s" % (format(f[k][0], ","), format(f[k][1], ","))
        lines.append("| %s | %s | %s | %s | %s | %s (%.2f ms RP2040) | %s B | %s |" % (
            name, pair("legal_moves"), pair("apply"), pair("undo"), pair("deal"),
            format(f["hint"][1], ","), f["hint"][1] / FUEL_PER_US_RP2040 / 1000,
            format(f["heap"], ","), format(int(mps), ",")))
    return "\n".join(lines)


def replace_section(doc, begin, end, text):
    """doc with the text between the markers replaced (markers appended when missing)."""
    if begin not in doc:
        doc = doc.rstrip("\n") + "\n\n" + begin + "\n" + end + "\n"
    head, rest = doc.split(begin, 1)
    tail = rest.split(end, 1)[1]
    return head + begin + "\n" + text + "\n" + end + tail


def extra_benches():
    """The tools/bench/bench_*.py modules, by name."""
    found = []
    for path in sorted(glob.glob(os.path.join(ROOT, "tools", "bench", "bench_*.py"))):
        name = os.path.basename(path)[len("bench_"):-3]
        found.append((name, importlib.import_module("tools.bench.bench_" + name)))
    return found


def main():
    update = "--update-docs" in sys.argv
    rows = []
    for name in games.available():
        print("measuring %s ..." % name, file=sys.stderr, flush=True)
        rows.append((name, micropython_figures(name), cpython_moves_per_second(name)))
    sections = [("", table(rows))]
    print(sections[0][1])
    print("\nfuel: WebAssembly instructions on MicroPython 1.27; RP2040 time ~ fuel / %d us."
          % FUEL_PER_US_RP2040)
    for name, module in extra_benches():
        print("measuring %s ..." % module.TITLE, file=sys.stderr, flush=True)
        text = module.measure()
        if text is None:  # it could not run here (it said why): its section stays as it was
            continue
        print("\n## " + module.TITLE + "\n" + text)
        sections.append((name, "### " + module.TITLE + "\n\n" + text))
    if update:
        with open(DOCS) as f:
            doc = f.read()
        for name, text in sections:
            if name:
                doc = replace_section(doc, "<!-- bench:%s:begin -->" % name, "<!-- bench:%s:end -->" % name, text)
            else:
                doc = replace_section(doc, BEGIN, END, text)
        with open(DOCS, "w") as f:
            f.write(doc)
        print("updated " + os.path.relpath(DOCS, ROOT), file=sys.stderr)


if __name__ == "__main__":
    from tools.cli import help_or_go
    help_or_go(__doc__, '-m tools.bench.bench [--update-docs]   (make bench: every benchmark, several minutes)')
    main()
