"""Write the golden deals tests/test_micropython.py checks both runtimes against:
tests/golden/GAME.json, the state of `new GAME seed=N` for each golden seed, as CPython's
protocol session gives it (today's generator). tests/golden/lehmer/ keeps the deals of the
Lehmer generator as the builds before it wrote them; nothing rewrites those.

    python -m tools.golden_deals            every game
    python -m tools.golden_deals aces_up    one
"""

import os
import sys

from engine_core import games
from engine_core.protocol import Session

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

SEEDS = (1, 2, 3, 42, 1000000)


def golden_states(name):
    """The state lines of the golden deals of `name`."""
    session = Session()
    states = []
    for seed in SEEDS:
        reply = session.command("new %s seed=%d" % (name, seed))
        if reply != "ok":
            raise SystemExit("new %s seed=%d: %s" % (name, seed, reply))
        states.append(session.command("state"))
    return states


def write(name):
    path = os.path.join(ROOT, "tests", "golden", name + ".json")
    with open(path, "w") as f:
        f.write("[\n" + ",\n".join(golden_states(name)) + "\n]\n")
    return path


def main(argv):
    for name in argv or games.available():
        print(write(name))
    return 0


if __name__ == "__main__":
    from tools.cli import help_or_go
    help_or_go(__doc__, "tools/golden_deals.py [GAME ...]")
    sys.exit(main(sys.argv[1:]))
