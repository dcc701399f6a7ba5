"""Sir Tommy and Casket on MicroPython: whole games played by the hint allocate nothing.

The generic random-play check (tests/test_micropython.py) asks for a hint every eleventh
step; here every move is the hint's, so each of its branches runs under heap_lock.
"""

import pytest

from tests.helpers import run_mpy_ok

HINT_PLAY = """
import gc, micropython
from array import array
from engine_core import PLAYING, games

def play(game, counts):
    # counts[0]: deals, counts[1]: moves played and undone
    for seed in range(DEALS):
        game.deal(seed)
        counts[0] += 1
        while game.status() == PLAYING:
            m = game.hint()
            if m < 0:
                break
            game.apply(m)
            counts[1] += 1
        while game.undo():
            counts[1] += 1

game = games.load(NAME)()
counts = array("i", [0, 0])
result = "not run"  # every global exists before the lock: a new one would allocate
gc.collect()
micropython.heap_lock()
try:
    play(game, counts)
    result = "no allocation"
except MemoryError:
    result = "allocated"
micropython.heap_unlock()
print(result, counts[0], counts[1])
"""


@pytest.mark.parametrize("name", ["sir_tommy", "casket"])
def test_whole_games_played_by_the_hint_and_undone_allocate_nothing(name):
    out = run_mpy_ok(HINT_PLAY.replace("NAME", repr(name)).replace("DEALS", "12")).strip().rsplit(" ", 2)
    assert out[0] == "no allocation" and out[1] == "12" and int(out[2]) > 200, out
