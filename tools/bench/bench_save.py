"""What persistence costs on MicroPython: record sizes, fuel to encode, check and restore a saved
game, the whole save path into RAM, and the heap a Keeper holds (make bench)."""


from engine_core import games
from tools.mpy import run_micropython

TITLE = "Saving and resuming"
FUEL_PER_US_RP2040 = 168

# One script per game and operation, run REPEAT times and once with none: the difference of the
# two runs' fuel, divided by REPEAT, is the cost of one call.
GUEST = """
from engine_core import games, records
from engine_core.save import Keeper, encode_game, restore_game
from engine_core.storage import MemoryStorage
keeper = Keeper(MemoryStorage())
keeper.start()
cls = games.load(NAME)
game = cls(cls.MAX_PLAYERS)
game.deal(5)
for i in range(30):
    m = game.hint()
    if m >= 0:
        game.apply(m)
n = encode_game(game, 30, keeper.buf)
keeper.started(game)
for i in range(REPEAT):
    if OP == "encode":
        encode_game(game, 30, keeper.buf)
    elif OP == "check":
        records.check(keeper.buf, n, 0x47)
    elif OP == "restore":
        restore_game(game, keeper.buf, n, keeper.used)
        n = encode_game(game, 30, keeper.buf)
    elif OP == "save":
        keeper.save_game(game)
    elif OP == "stats":
        keeper.save_stats()
print(n)
"""

REPEAT = 20
OPS = ("encode", "check", "restore", "save")


def cost(name, op):
    def run(repeat):
        code = GUEST.replace("NAME", repr(name)).replace("REPEAT", str(repeat)).replace("OP", repr(op))
        result = run_micropython(code)
        if result.exit_code != 0:
            raise SystemExit("bench_save failed on MicroPython:\n" + result.stderr)
        return result.fuel, int(result.stdout.split()[-1])
    base, size = run(0)
    return (run(REPEAT)[0] - base) // REPEAT, size


KEEPER_HEAP = """
import gc
from engine_core.save import Keeper
from engine_core.storage import MemoryStorage
storage = MemoryStorage()
gc.collect()
before = gc.mem_alloc()
keeper = Keeper(storage)
gc.collect()
print(gc.mem_alloc() - before)
"""


def ms(fuel):
    return "%.2f ms" % (fuel / FUEL_PER_US_RP2040 / 1000)


def measure():
    lines = ["| game (players) | record bytes | encode fuel | check (CRC) fuel | restore fuel | save into RAM, all in |",
             "| --- | --- | --- | --- | --- | --- |"]
    for name in games.available():
        players = games.load(name).MAX_PLAYERS
        figures = {}
        size = 0
        for op in OPS:
            figures[op], size = cost(name, op)
        restore = figures["restore"] - figures["encode"]  # the script re-encodes after each
        lines.append("| %s (%d) | %d | %s | %s | %s | %s (%s RP2040) |" % (
            name, players, size, format(figures["encode"], ","), format(figures["check"], ","),
            format(restore, ","), format(figures["save"], ","), ms(figures["save"])))
    stats, _ = cost(games.available()[0], "stats")
    heap = int(run_micropython(KEEPER_HEAP).stdout.split()[-1])
    lines.append("")
    lines.append("Statistics record saved in %s fuel. Heap held by a Keeper (its 1 KB buffer, "
                 "settings, statistics, three record files): %s bytes." % (
                     format(stats, ","), format(heap, ",")))
    return "\n".join(lines)


if __name__ == "__main__":
    from tools.cli import help_or_go
    help_or_go(__doc__, '-m tools.bench.bench_save')
    print(measure())
