"""A sixth game is its own module, its rule profile and one registry line: One Pile
(engine_core/games/one_pile.py, docs/rules/one_pile.md), a TEST_ONLY line that counts here,
goes through the menus, the protocol, saved games, statistics and every screen class like
the five games of the product; a build for players does not offer it."""

import json
import os
from array import array

import pytest

from engine_core import PLAYING, games
from engine_core import records as r
from engine_core.console import Console
from engine_core.gfx import palette as pal
from engine_core.gfx.screen import Screen
from simulator import framebuf
from engine_core.protocol import ProtocolSession, state_json
from engine_core.save import Keeper
from engine_core.storage import MemoryStorage
from engine_core.ui import app as ui
from engine_core.ui import layouts
from engine_core.ui.app import App
from simulator.keys import make_app, run
from engine_core.games import one_pile
from tools.screenshots import shoot


@pytest.fixture(autouse=True)
def shown():
    games.show_test_games(True)
    yield
    games.show_test_games(False)


def test_a_build_for_players_does_not_offer_the_test_game():
    games.show_test_games(False)
    assert "one_pile" not in games.names() and "one_pile" not in games.available()
    assert games.entry("one_pile") is None and games.name_of(7) is None
    assert games.game_id("one_pile") == games.NO_ID and games.layout("one_pile") is None
    assert ProtocolSession().command("new one_pile") == "error: unknown game 'one_pile': expected one of " + ", ".join(
        games.names())
    assert "one_pile" not in make_app(240, 240).names


def test_the_registry_lists_the_game_after_the_others():
    assert games.names()[-1] == "one_pile" and games.available()[-1] == "one_pile"
    assert games.load("one_pile") is one_pile.OnePile
    assert games.game_id("one_pile") == 7 and games.name_of(7) == "one_pile"
    assert games.title("one_pile") == b"One Pile" and games.layout("one_pile") is one_pile.LAYOUT


def test_a_taken_name_or_id_or_an_id_out_of_range_is_refused():
    line = list(games.entry("one_pile"))
    for name, game_id in (("one_pile", 6), ("other", 4), ("other", games.ID_LIMIT), ("other", -1)):
        line[0] = name
        line[1] = game_id
        with pytest.raises(ValueError):
            games.register(tuple(line))
    assert games.names()[-2:] == ["nerts", "one_pile"]


def test_it_appears_last_in_the_game_list_and_opens_from_it():
    app = make_app(240, 240)
    assert app.names[-1] == "one_pile"
    run(app, "DOWN A")  # Choose a game
    assert app.mode == ui.CHOOSE
    run(app, "UP A")  # the last game
    assert app.mode == ui.PLAY and app.table.game.NAME == "one_pile"
    run(app, "START DOWN DOWN DOWN DOWN DOWN DOWN A")  # Rules
    assert app.mode == ui.RULES
    run(app, "B B")
    assert app.mode == ui.PLAY


def test_the_protocol_deals_it_shows_it_moves_and_undoes():
    s = ProtocolSession()
    assert s.command("new one_pile seed=3") == "ok"
    before = json.loads(s.command("state"))
    assert before["game"] == "one_pile" and before["status"] == "playing"
    assert len(before["piles"]["stock"]) == 51 and len(before["piles"]["found"]) == 1
    assert "turn" in s.command("moves").split()
    assert s.command("move turn") == "ok"
    assert len(json.loads(s.command("state"))["piles"]["waste"]) == 1
    assert s.command("undo") == "ok"
    assert json.loads(s.command("state")) == before
    assert "one_pile" in ProtocolSession().command("new")


def test_a_saved_game_resumes_and_its_statistics_go_to_its_own_id():
    game = one_pile.OnePile()
    game.deal(5)
    out = array("i", [0] * one_pile.OnePile.MAX_MOVES)
    for _ in range(6):
        game.legal_moves(out)
        game.apply(out[0])
    disk = MemoryStorage()
    keeper = Keeper(disk)
    keeper.start()
    keeper.moves = 6
    assert keeper.save_game(game) == r.SAVED
    again = Keeper(disk)
    again.start()
    resumed = again.resume()
    assert type(resumed) is one_pile.OnePile and state_json(resumed) == state_json(game)
    assert resumed.undo() and game.undo() and state_json(resumed) == state_json(game)
    again.abandoned(resumed)
    assert again.stats.get(7, r.PLAYED) == 1
    assert sum(again.stats.get(g, r.PLAYED) for g in range(r.STAT_GAMES)) == 1


def test_the_console_resumes_it_and_shows_its_statistics():
    disk = MemoryStorage()
    console = Console(App(Screen(240, 240, framebuf)), disk)
    console.start()
    console.app.open_game("one_pile", 4)
    console.tick(10)
    run(console.app, "X A A")
    console.tick(1000)
    console.tick(33)  # (never saved in the frame that takes the move)
    assert console.app.table.move_count > 0
    again = Console(App(Screen(240, 240, framebuf)), disk)
    again.start()
    assert again.app.resumable and again.app.table.game.NAME == "one_pile"
    assert again.app.table.game.status() == PLAYING


@pytest.mark.parametrize("size", layouts.SIZES)
def test_its_table_draws_on_every_screen_class(size, tmp_path):
    app = make_app(size[0], size[1], "one_pile", 9)
    run(app, "X A A RIGHT LEFT")
    assert app.mode == ui.PLAY
    app.full = True
    app.redraw()
    screen = app.screen
    for name, x, y, how, room, label in one_pile.LAYOUT[layouts.screen_class(size[0], size[1])]:
        b = screen.buf[((y + 8) * screen.width + x + 8) >> 1]  # inside the slot: a card or its outline
        assert (b >> 4 if (x + 8) % 2 == 0 else b & 15) != pal.FELT, name
    path = os.path.join(tmp_path, "one_pile.png")
    shoot(path, size[0], size[1], "one_pile", 9, "X A A")
    assert os.path.getsize(path) > 0
