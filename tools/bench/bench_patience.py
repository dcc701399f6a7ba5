"""Sir Tommy and Casket: what a deal and the hint cost, and how far the hint gets.

Fuel on MicroPython while whole games are played by following the hint (the engine table
plays at random, where a Casket game rarely ends, so it has no deal figure for it); on
CPython, cards brought to the foundations per deal by the hint and by random legal moves.
"""

import json
import random
from array import array

from engine_core import PLAYING, WON, games
from tools.mpy import FUEL_PRELUDE, run_micropython

TITLE = "Sir Tommy and Casket: deal, hint, and play by the hint"
GAMES = ("sir_tommy", "casket")
DEALS = 200

GUEST = FUEL_PRELUDE + """
import host, json
from engine_core import PLAYING, games


game = games.load(NAME)()
deal = []
hint = []
for seed in range(SEEDS):
    a = fuel(); game.deal(seed); b = fuel()
    deal.append(b - a - overhead)
    for _ in range(400):
        if game.status() != PLAYING:
            break
        a = fuel(); m = game.hint(); b = fuel()
        hint.append(b - a - overhead)
        if m < 0:
            break
        game.apply(m)
hint.sort()
print(json.dumps({"deal": max(deal), "hint": [hint[len(hint) // 2], hint[-1], len(hint)]}))
"""


def fuel_figures(name, seeds=5):
    code = GUEST.replace("NAME", repr(name)).replace("SEEDS", str(seeds))
    result = run_micropython(code)
    if result.exit_code != 0:
        raise SystemExit("bench of %s failed on MicroPython:\n%s" % (name, result.stderr))
    return json.loads(result.stdout.strip().splitlines()[-1])


def play_figures(name, deals=DEALS):
    """(wins, average foundation cards) for the hint and for random play over `deals` deals."""
    cls = games.load(name)
    game = cls()
    out = array("i", [0] * cls.MAX_MOVES)
    found = [p for p in range(len(game.pile_names)) if game.pile_names[p].startswith("found")]
    rnd = random.Random(1)
    figures = {}
    for how in ("hint", "random"):
        wins = cards = 0
        for seed in range(deals):
            game.deal(seed)
            for _ in range(3000):
                if game.status() != PLAYING:
                    break
                if how == "hint":
                    move = game.hint()
                    if move < 0:
                        break
                else:
                    move = out[rnd.randrange(game.legal_moves(out))]
                game.apply(move)
            wins += game.status() == WON
            cards += sum(game.piles.size[p] for p in found)
        figures[how] = (wins, cards / deals)
    return figures


def measure():
    lines = [
        "| game | deal fuel (worst) | hint fuel (median / worst) | won by the hint"
        " | foundation cards per deal: hint / random |",
        "| --- | --- | --- | --- | --- |",
    ]
    for name in GAMES:
        f = fuel_figures(name)
        p = play_figures(name)
        lines.append("| %s | %s | %s / %s | %d of %d | %.1f / %.1f |" % (
            name, format(f["deal"], ","), format(f["hint"][0], ","), format(f["hint"][1], ","),
            p["hint"][0], DEALS, p["hint"][1], p["random"][1]))
    return "\n".join(lines)


if __name__ == "__main__":
    from tools.cli import help_or_go
    help_or_go(__doc__, '-m tools.bench.bench_patience')
    print(measure())
