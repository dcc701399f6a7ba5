"""Never lose a game: each defect of the restart-equivalence work, as it was found.

Every test here failed on the code before its fix (docs/reliability.md lists them).
"""

import errno
import json
import os

import pytest

from engine_core import games
from engine_core import history as hist
from engine_core import records as r
from engine_core import save
from engine_core import undo_record as undo
from engine_core.protocol import state_json
from engine_core.save import Keeper
from engine_core.storage import FileStorage, MemoryStorage
from engine_core.ui import app as ui
from tests.test_console import console_on, keys
from tests.test_persistence import notices


def position(game):
    """The game's state without its clock (time passes while the console is off and on)."""
    state = json.loads(state_json(game))
    del state["clock_ms"]
    return state


# --- Nerts after an undo ---

def test_nerts_undone_past_the_players_own_moves_is_continued_after_a_restart(tmp_path):
    """The computer's moves are undone too: the move count went to -5, the loader set the
    saved game aside and there was no Continue."""
    console = console_on(FileStorage(str(tmp_path)))
    console.app.settings[ui.S_SPEED] = 1  # Steady, the pace this deal's moves were chosen at
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
    assert position(again.app.table.game) == position(table.game)  # (saved in the move's next frame)
    assert again.app.table.move_count == table.move_count


@pytest.mark.parametrize("tag", ["", "host"])
def test_a_folder_at_the_temporary_name_is_set_aside_and_the_game_is_saved(tmp_path, tag):
    """A folder at game.new (the device's temporary name; NAME.TAG.new on a host) made every
    save fail with "progress not saved", and the next start had no game: it is now moved to
    game.bad and the save goes through."""
    storage = FileStorage(str(tmp_path))
    if not tag:
        storage.tag = ""
    temp = "game." + storage.tag + ".new" if storage.tag else "game.new"
    os.makedirs(os.path.join(str(tmp_path), temp, "inside"))
    console = console_on(storage)
    console.open_game("aces_up", 12)
    keys(console, "X A A X A A WAIT")
    table = console.app.table
    assert table.move_count > 0 and console.notice == b""
    again = FileStorage(str(tmp_path))
    if not tag:
        again.tag = ""
    resumed = console_on(again)
    assert resumed.app.resumable
    assert position(resumed.app.table.game) == position(table.game)
    assert os.path.isdir(os.path.join(str(tmp_path), "game.bad"))


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


def test_a_saved_game_whose_move_count_is_the_largest_a_record_holds_is_saved_again_after_a_move():
    """The count the reader accepts went one past it with the next move, and the record written
    then was refused at the next start: the game was set aside."""
    from engine_core.ui import buttons as bt
    game = games.load("aces_up")(1)
    game.deal(3)
    disk = MemoryStorage()
    buf = bytearray(save.BUFFER_SIZE)
    disk.write("game.dat", buf, save.encode_game(game, r.I32_MAX, buf))
    console = console_on(disk)
    assert console.app.resumable and notices(console.keeper) == []
    console.press(bt.A)  # Continue
    console.tick(33)
    table = console.app.table
    assert table.hand.legal_moves() > 0
    table.play(table.hand.moves[0])
    console.after_input()
    keys(console, "WAIT")  # play pauses: saved
    played = position(table.game)
    again = console_on(disk)
    assert again.app.resumable and notices(again.keeper) == []
    assert not disk.exists("game.bad")
    assert position(again.app.table.game) == played
    assert again.keeper.moves == r.I32_MAX


@pytest.mark.parametrize("slot,value", [("joker", 64 + 13 * 1000), ("joker", 27), ("joker", -1),
                                        ("pass", 121), ("over", 9), ("round", -5)])
def test_a_saved_nerts_game_whose_own_variables_hold_what_no_play_gives_is_set_aside(slot, value):
    """A Nerts record with a valid CRC, a joker alone on a foundation declared as suit 1000:
    the loader took it, and the moves' first look at the foundations stopped the console, at
    every start. Each of Nerts's own variables out of range is now refused at the start, the
    record set aside with a notice, and the console plays on."""
    from engine_core import cards
    from engine_core.games import OPT_JOKERS
    from engine_core.games.nerts_moves import V_JOKER, V_PASS, V_ROUND, V_ROUND_OVER
    game = games.load("nerts")(3, OPT_JOKERS)
    game.deal(11)
    joker = cards.JOKER_BASE
    piles = game.piles
    for p in range(piles.count):  # the joker alone on the first foundation
        cards_here = [piles.card(p, i) for i in range(piles.size[p])]
        if joker in cards_here:
            while piles.size[p]:
                piles.pop(p)
            for c in cards_here:
                if c != joker:
                    piles.push(p, c)
    piles.push(game.found0, joker)
    game.vars[V_JOKER] = 64  # declared an ace of spades: a position a play gives
    assert game.check_position() == ""
    index = {"joker": V_JOKER, "pass": V_PASS + 2, "over": V_ROUND_OVER, "round": V_ROUND}[slot]
    game.vars[index] = value
    disk = MemoryStorage()
    buf = bytearray(save.BUFFER_SIZE)
    disk.write("game.dat", buf, save.encode_game(game, 0, buf))
    console = console_on(disk)
    assert not console.app.resumable and disk.exists("game.bad")
    assert b"set aside" in console.notice  # on screen
    keys(console, "A WAIT X WAIT")  # a new game plays
    assert console.app.table is not None


# --- a crafted undo journal ---

def saved_with_journal(name, moves, seed=4):
    """A game played `moves` hint moves from deal `seed`, saved with its journal; the disk."""
    cls = games.load(name)
    game = cls(cls.MIN_PLAYERS if cls.MIN_PLAYERS > 1 else 1)
    game.deal(seed)
    for _ in range(moves):
        m = game.hint()
        if m < 0:
            break
        game.apply(m)
        game.respond()
    disk = MemoryStorage()
    keeper = Keeper(disk)
    keeper.start()
    assert keeper.save_game(game) == r.SAVED
    return game, disk


def journal_with(disk, change):
    """Rewrite undo.dat with its entries changed by change(list of entries), CRC made good."""
    buf = bytearray(save.BUFFER_SIZE)
    n = disk.read("undo.dat", buf)
    count = r.get_u16(buf, r.HEADER + 4)
    first = r.HEADER + 6
    entries = [r.get_i32(buf, first + 4 * k) for k in range(count)]
    entries = change(entries)
    pos = r.put_u16(buf, r.HEADER + 4, len(entries))
    for e in entries:
        pos = r.put_i32(buf, pos, e)
    buf[pos] = 0  # nothing to redo
    n = r.finish(buf, r.put_u16(buf, r.put_u16(buf, pos + 1, undo.ANY_MOVE), undo.NO_CURSOR))
    disk.write("undo.dat", buf, n)


def undo_everything(game):
    undone = 0
    while game.undo():
        undone += 1
    return undone


CRAFTED = [
    ("a push onto pile 200", lambda es: es[:1] + [hist.push_entry(200, 5)] + es[1:]),
    ("a pop from an empty pile", lambda es: es + [hist.mark_entry(0)] + [hist.pop_entry(0, 3)] * 60),
    ("a card that is not the game's", lambda es: es + [hist.mark_entry(0), hist.push_entry(0, 250)]),
    ("a move of more cards than the pile holds", lambda es: es + [hist.mark_entry(0), hist.move_entry(0, 1, 90)]),
    ("a variable the game has not", lambda es: es + [hist.mark_entry(0), hist.var_entry_lo(200, 1),
                                                     hist.var_entry_hi(200, 1)]),
    ("a variable's high half alone", lambda es: es + [hist.mark_entry(0), hist.var_entry_hi(1, 1)]),
    ("a card pushed that is not on top", lambda es: es + [hist.mark_entry(0), hist.push_entry(0, 51)]),
]


@pytest.mark.parametrize("what, change", CRAFTED, ids=[c[0] for c in CRAFTED])
def test_a_crafted_undo_journal_is_set_aside_and_the_game_kept_without_undo(what, change):
    game, disk = saved_with_journal("aces_up", 12)
    journal_with(disk, change)
    keeper = Keeper(disk)
    keeper.start()
    resumed = keeper.resume()
    assert state_json(resumed) == state_json(game)
    assert notices(keeper) == [save.NOTICE_JOURNAL]
    assert not resumed.can_undo() and undo_everything(resumed) == 0
    assert disk.exists("undo.bad") and not disk.exists("undo.dat")


@pytest.mark.parametrize("name", games.available())
def test_a_sound_journal_passes_the_replay_and_undoes_as_before(name):
    game, disk = saved_with_journal(name, 25)
    keeper = Keeper(disk)
    keeper.start()
    resumed = keeper.resume()
    assert notices(keeper) == [] and state_json(resumed) == state_json(game)
    assert resumed.can_undo()
    while resumed.can_undo():  # the newest moves that fit the record
        assert resumed.undo() and game.undo()
        assert state_json(resumed) == state_json(game)



# --- redo after a restart ---

def test_moves_undone_before_a_restart_can_be_redone_after_it():
    disk = MemoryStorage()
    console = console_on(disk)
    console.open_game("aces_up", 12)
    keys(console, "X A A TICK " * 5)
    before = position(console.app.table.game)
    keys(console, "Y Y WAIT")  # two moves undone, then play pauses: saved
    assert console.app.table.redo_n == 2
    again = console_on(disk)
    keys(again, "A")  # Continue
    table = again.app.table
    assert table.redo_n == 2 and list(table.redo_moves[:2]) == list(console.app.table.redo_moves[:2])
    keys(again, "START DOWN DOWN DOWN A START DOWN DOWN DOWN A")  # the pause menu's Redo, twice
    assert position(table.game) == before


def test_an_undo_journal_written_before_redo_was_kept_is_still_read():
    game, disk = saved_with_journal("sir_tommy", 10)
    buf = bytearray(save.BUFFER_SIZE)
    n = disk.read("undo.dat", buf)
    assert buf[n - 9] == 0  # no redo moves: drop the count and the rest, call it version 1
    buf[3] = 1
    n = r.finish(buf, n - 9)
    disk.write("undo.dat", buf, n)
    keeper = Keeper(disk)
    keeper.start()
    resumed = keeper.resume()
    assert notices(keeper) == [] and resumed.can_undo()
    assert resumed.undo() and game.undo() and state_json(resumed) == state_json(game)


# --- a full or read-only disk at start (the simulator) ---

def refuse_writes(monkeypatch, error):
    """Every file opened for writing by the records or the lock fails as a full disk does."""
    import builtins
    from engine_core import storage
    from simulator import datadir

    def opener(path, mode="r", *args, **kw):
        if "w" in mode or "a" in mode:
            raise OSError(error, os.strerror(error), str(path))
        return builtins.open(path, mode, *args, **kw)

    real_os_open = os.open

    def os_opener(path, flags, *args, **kw):
        if flags & (os.O_WRONLY | os.O_RDWR):
            raise OSError(error, os.strerror(error), str(path))
        return real_os_open(path, flags, *args, **kw)

    monkeypatch.setattr(storage, "open", opener, raising=False)
    monkeypatch.setattr(datadir, "open", opener, raising=False)
    monkeypatch.setattr(os, "open", os_opener)


def simulator_console(folder):
    from simulator.__main__ import keep, make_app, parse_args
    args = parse_args(["--headless", "--data-dir", folder])
    return keep(make_app(240, 240), args)


@pytest.mark.parametrize("error", [errno.ENOSPC, errno.EROFS], ids=["full", "read-only"])
def test_on_a_full_or_read_only_disk_the_simulator_starts_plays_and_says_once(tmp_path, monkeypatch,
                                                                               error, capsys):
    folder = str(tmp_path)
    first = console_on(FileStorage(folder))
    first.open_game("aces_up", 31)
    keys(first, "X A A TICK " * 3 + "WAIT")
    saved = position(first.app.table.game)
    refuse_writes(monkeypatch, error)
    console = simulator_console(folder)  # a full disk: it starts all the same
    assert console.notice == save.NOTICE_CANNOT_KEEP.encode()  # on screen
    assert capsys.readouterr().err.count("cannot be kept") == 1
    assert console.app.resumable  # the records were read: the game is there to continue
    keys(console, "A")
    assert position(console.app.table.game) == saved
    keys(console, "X A A TICK " * 6 + "WAIT WAIT START DOWN DOWN DOWN DOWN A A WAIT")
    console.close()
    assert notices(console.keeper) == []  # said once, not at every save that fails
    assert not [f for f in os.listdir(folder) if f.startswith("console.lock")]


def test_a_lock_file_left_empty_by_a_crash_is_taken_over_at_once(tmp_path):
    from simulator.datadir import LOCK, host_storage
    (tmp_path / LOCK).write_text("")  # the build before wrote the id after creating the file
    host_storage(str(tmp_path))
    assert (tmp_path / LOCK).read_text().split()[0] == str(os.getpid())


# --- kiosk mode on the simulator's front end (the device's: tests/test_kiosk_shell.py) ---

def test_in_kiosk_mode_select_does_not_leave_the_table_for_the_rules():
    disk = MemoryStorage()
    keeper = Keeper(disk)
    keeper.start()
    keeper.settings.set("kiosk", 1)
    keeper.save_settings()
    console = console_on(disk)
    keys(console, "A")
    assert console.app.mode == ui.PLAY
    keys(console, "SELECT")
    assert console.app.mode == ui.PLAY


# --- what the restart-equivalence sessions found (tools/reliability/restarts.py) ---

def test_moves_of_the_last_half_second_are_saved_when_the_console_is_closed():
    disk = MemoryStorage()
    console = console_on(disk)
    console.open_game("sir_tommy", 8)
    keys(console, "X A A TICK " * 3)
    keys(console, "X A A")  # closed at once: play has not paused long enough to save
    console.close()
    again = console_on(disk)
    game = console.app.table.game
    assert state_json(again.app.table.game) == state_json(game)  # the clock too
    assert again.app.table.move_count == console.app.table.move_count


def test_a_resumed_spite_malice_turn_undoes_the_moves_made_before_the_restart():
    for seed in range(1, 60):  # a deal whose first hint leaves the turn with the player
        disk = MemoryStorage()
        console = console_on(disk)
        console.open_game("spite_malice", seed)
        before = position(console.app.table.game)
        keys(console, "X A A")
        game = console.app.table.game
        if game.history.moves == 1 and not game.computer_to_move():
            break
    keys(console, "WAIT")
    again = console_on(disk)
    keys(again, "A")  # Continue
    keys(again, "Y")
    assert position(again.app.table.game) == before


def test_a_resumed_match_counts_the_game_that_ends_by_its_own_scores_not_the_match_totals():
    """After a restart the scores at the game's start were taken as 0: a round of Nerts the
    player lost (-26 against -26) counted as won, the player's 40 points from earlier rounds
    taken for this round's."""
    from engine_core.game import V_SCORE, V_STATUS
    game = games.load("nerts")(2)
    game.deal(3)
    game.vars[V_SCORE] = 40
    disk = MemoryStorage()
    buf = bytearray(save.BUFFER_SIZE)
    disk.write("game.dat", buf, save.encode_game(game, 3, buf))
    console = console_on(disk)
    app = console.app
    assert app.resumable
    i = app.game_index
    played, won = app.played[i], app.won[i]
    from engine_core.ui import buttons as bt
    console.press(bt.A)  # Continue
    console.tick(33)
    table = app.table
    table.game._end_round(1)  # everyone stuck: each player's round is worth -26
    table.game.vars[V_STATUS] = table.game._compute_status()
    console.tick(33)
    assert app.mode == ui.END
    assert app.played[i] == played + 1 and app.won[i] == won, "a round lost counted as won"
