"""Never lose a game: each defect of the restart-equivalence work, as it was found.

Every test here failed on the code before its fix (docs/reliability.md lists them).
"""

from engine_core import games
from engine_core import save
from engine_core.console import Console
from engine_core.gfx.screen import Screen
from engine_core.protocol import state_json
from engine_core.save import Keeper
from engine_core.storage import FileStorage, MemoryStorage
from engine_core.ui import app as ui
from engine_core.ui.app import App
from simulator import framebuf
from simulator.keys import parse


def console_on(storage):
    console = Console(App(Screen(240, 240, framebuf)), storage)
    console.start()
    return console


def keys(console, text):
    for button, long_press in parse(text):
        if button < 0:
            console.tick(-button)
        else:
            console.press(button, long_press)


def notices(keeper):
    out = []
    while True:
        text = keeper.take_notice()
        if not text:
            return out
        out.append(text)


# --- Nerts after an undo ---

def test_nerts_undone_past_the_players_own_moves_is_continued_after_a_restart(tmp_path):
    """The computer's moves are undone too: the move count went to -5, the loader set the
    saved game aside and there was no Continue."""
    console = console_on(FileStorage(str(tmp_path)))
    console.open_game("nerts", 7)
    for _ in range(6):
        keys(console, "X A A " + "TICK " * 30)  # the player's moves, the computer's between
    table = console.app.table
    assert table.game.history.moves > table.move_count  # the computer moved too
    keys(console, "Y " * 20)
    assert table.move_count >= 0
    keys(console, "WAIT")  # play pauses: saved
    again = console_on(FileStorage(str(tmp_path)))
    assert again.app.resumable and again.app.mode == ui.TITLE
    assert state_json(again.app.table.game) == state_json(table.game)
    assert again.app.table.move_count == table.move_count


def test_a_saved_game_whose_move_count_is_negative_is_resumed_not_set_aside():
    game = games.load("nerts")(2)
    game.deal(3)
    disk = MemoryStorage()
    buf = bytearray(save.BUFFER_SIZE)
    n = save.encode_game(game, -5, buf)  # as the build before the fix wrote it
    disk.write("game.dat", buf, n)
    keeper = Keeper(disk)
    keeper.start()
    resumed = keeper.resume()
    assert notices(keeper) == []
    assert resumed is not None and state_json(resumed) == state_json(game)
    assert keeper.moves == 0
    assert not disk.exists("game.bad")
