"""Random button events against the whole console, headless: every screen, every game.

The console (engine_core/console.py: the App with its records and kiosk mode) on a screen of
each size class, fed random presses, long presses and time, with now and then a power cycle
(a new console on the same storage, which resumes the game). After every event every card of
every game the App holds must be in exactly one pile, and nothing may raise.

    python -m tools.reliability.mash_ui EVENTS [SEED]
"""

import random
import sys

from engine_core.console import Console
from engine_core.gfx.screen import Screen
from simulator import framebuf
from engine_core.storage import MemoryStorage
from engine_core.ui import buttons as bt
from engine_core.ui import layouts
from engine_core.ui.app import App
from tools.reliability.mash import cards_in_place

POWER_CYCLE_EVERY = 5000  # events, on average


def new_console(size, storage, kiosk, seed):
    console = Console(App(Screen(size[0], size[1], framebuf)), storage, seed)
    if kiosk:
        console.keeper.settings.set("kiosk", 1)
        console.keeper.save_settings()
    console.start()
    return console


def check(console, seen):
    for table in console.app.tables.values():
        if table is None:
            continue  # a table the app let go (a game passed over, or given up)
        problem = cards_in_place(table.game, seen)
        if problem:
            return table.game.NAME + ": " + problem
    return ""


def mash(events, seed=1, sizes=None, log=None):
    """Returns counts: events, power cycles, screen sizes, screens seen (of the App's eight),
    games played, failures (and 'first')."""
    rand = random.Random(seed)
    sizes = sizes or layouts.SIZES
    counts = {"events": 0, "power cycles": 0, "screen sizes": len(sizes), "failures": 0}
    seen = bytearray(256)
    modes = set()
    games_seen = set()
    for s, size in enumerate(sizes):
        storage = MemoryStorage()
        kiosk = s % 2 == 1  # every other screen size runs in kiosk mode
        console = new_console(size, storage, kiosk, seed + s)
        per = events // len(sizes) + (1 if s < events % len(sizes) else 0)
        for i in range(per):
            roll = rand.random()
            try:
                if roll < 1.0 / POWER_CYCLE_EVERY:
                    console = new_console(size, storage, kiosk, seed + i)
                    counts["power cycles"] += 1
                elif roll < 0.2:
                    console.tick(rand.choice((16, 33, 50, 500, 3000, 25000)))
                elif roll < 0.23:
                    console.held(rand.getrandbits(bt.COUNT))
                else:
                    console.press(rand.randrange(bt.COUNT), rand.random() < 0.12)
                problem = check(console, seen)
            except Exception as e:  # nothing may raise
                problem = "raised %s: %s" % (type(e).__name__, e)
            counts["events"] += 1
            modes.add(console.app.mode)
            if console.app.table is not None:
                games_seen.add(console.app.table.game.NAME)
            if problem:
                counts["failures"] += 1
                counts.setdefault("first", "%dx%d after %d events: %s" % (size[0], size[1], i, problem))
                break
        if log:
            log("mashed %dx%d: %d events" % (size[0], size[1], counts["events"]))
    counts["screens seen"] = len(modes)
    counts["games played"] = len(games_seen)
    return counts


if __name__ == "__main__":
    from tools.cli import help_or_go
    help_or_go(__doc__, '-m tools.reliability.mash_ui PRESSES [SEED]')
    print(mash(int(sys.argv[1]), int(sys.argv[2]) if len(sys.argv) > 2 else 1, log=print))
