"""Records written before games had registry ids still load into the right game.

tests/golden/records/ holds records as the build of commit 6d5d059 wrote them, when a record
named its game by the game's position in the list of games (Aces Up, Sir Tommy, Casket,
Spite & Malice, Nerts): one saved game per game (NAME.game.dat, with the position it holds in
NAME.state.json) and a statistics record (stats.dat) where game k of that list won k + 1
games and lost one.
"""

import os

import pytest

from engine_core import records as r
from engine_core.console import Console
from engine_core.gfx.screen import Screen
from simulator import framebuf
from engine_core.protocol import state_json
from engine_core.save import Keeper
from engine_core.storage import MemoryStorage
from engine_core.ui.app import App

GOLDEN = os.path.join(os.path.dirname(__file__), "golden", "records")
OLD_ORDER = ("aces_up", "sir_tommy", "casket", "spite_malice", "nerts")


def golden(name):
    with open(os.path.join(GOLDEN, name), "rb") as f:
        return f.read()


def storage_with(name, data):
    disk = MemoryStorage()
    disk.write(name, data, len(data))
    return disk


@pytest.mark.parametrize("name", OLD_ORDER)
def test_an_old_saved_game_resumes_as_the_game_that_saved_it(name):
    keeper = Keeper(storage_with("game.dat", golden(name + ".game.dat")))
    keeper.start()
    game = keeper.resume()
    assert game is not None and game.NAME == name
    assert keeper.take_notice() == ""
    assert state_json(game) + "\n" == golden(name + ".state.json").decode()


@pytest.mark.parametrize("name", OLD_ORDER)
def test_a_game_saved_again_is_the_same_record_byte_for_byte(name):
    # The record's layout did not change: the byte that was a position is now the game's id,
    # and the ids of these games are those positions.
    old = golden(name + ".game.dat")
    disk = storage_with("game.dat", old)
    keeper = Keeper(disk)
    keeper.start()
    game = keeper.resume()
    assert keeper.save_game(game) == r.SAVED
    buf = bytearray(2048)
    assert bytes(buf[:disk.read("game.dat", buf)]) == old


def test_old_statistics_count_for_the_game_that_played_them():
    console = Console(App(Screen(240, 240, framebuf)), storage_with("stats.dat", golden("stats.dat")))
    console.start()
    app = console.app
    for k, name in enumerate(OLD_ORDER):
        i = app.names.index(name)
        assert (app.played[i], app.won[i], app.streak[i], app.best[i]) == (k + 2, k + 1, 0, k + 1)
    stats = console.keeper.stats
    assert sorted(stats.get(g, r.BEST_TIME_MS) for g in range(r.STAT_GAMES)) == [0, 0, 0, 1000, 2000, 3000,
                                                                                 4000, 5000]
