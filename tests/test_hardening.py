"""Records that refuse the impossible, one console per data folder, and command lines that
answer a bad argument with one line (docs/reliability.md)."""

import os
import subprocess
import sys
import time

import pytest

from engine_core import records as r
from engine_core import game_record
from engine_core.game import V_RNG, V_SCORE, V_STATUS, V_TURN
from engine_core.save import Keeper
from engine_core.storage import FileStorage, MemoryStorage
from simulator.datadir import LOCK, DataDirError, host_storage
from tools.mpy import ROOT
from tools.reliability.soak import _reseal, played_game, reference_keeper


def notices(keeper):
    out = []
    while True:
        text = keeper.take_notice()
        if not text:
            return out
        out.append(text)


def restart(storage):
    keeper = Keeper(storage)
    keeper.start()
    game = keeper.resume()
    return keeper, game, notices(keeper)


# --- something that is not a readable file at a record's name ---

@pytest.mark.parametrize("record,title", [("settings", "Settings"), ("stats", "Statistics"),
                                          ("game", "Saved game")])
def test_a_folder_where_a_record_should_be_is_set_aside_with_a_notice_and_saving_works(
        tmp_path, record, title):
    storage = FileStorage(str(tmp_path))
    reference_keeper(storage)
    os.remove(tmp_path / (record + ".dat"))
    os.mkdir(tmp_path / (record + ".dat"))
    (tmp_path / (record + ".dat") / "inside").write_text("x")
    keeper, game, messages = restart(storage)
    assert messages == [title + ": unreadable, set aside"]
    assert (tmp_path / (record + ".bad")).is_dir() and not (tmp_path / (record + ".dat")).exists()
    keeper.settings.set("card_back", 5)
    assert keeper.save_settings() == r.SAVED and keeper.save_stats() == r.SAVED
    assert keeper.save_game(played_game("aces_up", 4, 5)) == r.SAVED
    again, game, messages = restart(FileStorage(str(tmp_path)))
    assert messages == [] and again.settings.get("card_back") == 5
    assert game is not None


def test_a_folder_replaces_an_older_bad_file_when_set_aside(tmp_path):
    storage = FileStorage(str(tmp_path))
    reference_keeper(storage)
    (tmp_path / "settings.bad").write_bytes(b"old")
    os.remove(tmp_path / "settings.dat")
    os.mkdir(tmp_path / "settings.dat")
    keeper, _, messages = restart(storage)
    assert messages == ["Settings: unreadable, set aside"]
    assert (tmp_path / "settings.bad").is_dir()
    assert keeper.save_settings() == r.SAVED


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="a host without named pipes")
def test_a_pipe_where_a_record_should_be_is_never_opened(tmp_path):
    storage = FileStorage(str(tmp_path))
    reference_keeper(storage)
    os.remove(tmp_path / "stats.dat")
    os.mkfifo(tmp_path / "stats.dat")  # opening it for reading would wait for a writer
    _, _, messages = restart(storage)
    assert messages == ["Statistics: unreadable, set aside"]


# --- a record with a good checksum and impossible contents ---

def var_at(data, i):
    return r.HEADER + game_record._FIXED + 1 + 4 * i


IMPOSSIBLE = [
    ("status 99", lambda d: r.put_i32(d, var_at(d, V_STATUS), 99)),
    ("generator state 0", lambda d: r.put_i32(d, var_at(d, V_RNG), 0)),
    ("turn 77", lambda d: r.put_i32(d, var_at(d, V_TURN), 77)),
    ("score of a player the game has not", lambda d: r.put_i32(d, var_at(d, V_SCORE + 3), 5)),
    ("score 2**29", lambda d: r.put_i32(d, var_at(d, V_SCORE), 1 << 29)),
    ("clock -1", lambda d: r.put_i32(d, r.HEADER + 12, -1)),
]


@pytest.mark.parametrize("what,change", IMPOSSIBLE, ids=[w for w, _ in IMPOSSIBLE])
@pytest.mark.parametrize("name", ["aces_up", "spite_malice"])
def test_a_saved_game_with_a_field_out_of_range_is_set_aside_with_a_notice(name, what, change):
    disk = MemoryStorage()
    reference_keeper(disk, name)
    buf = bytearray(2048)
    n = disk.read("game.dat", buf)
    data = bytearray(buf[:n])
    change(data)
    bad = _reseal(data)
    disk.write("game.dat", bad, len(bad))
    keeper, game, messages = restart(disk)
    assert game is None and messages == ["Saved game: invalid, set aside"]
    assert disk.exists("game.bad") and not disk.exists("game.dat")


def test_a_saved_position_load_would_refuse_is_set_aside():
    # Sir Tommy with a foundation out of sequence: every card there once, the checksum good.
    disk = MemoryStorage()
    keeper = Keeper(disk)
    keeper.start()
    game = played_game("sir_tommy", 5, 0)
    found = game.pile_id("found1")
    stock = game.pile_id("stock")
    aces = []
    while game.piles.card(stock, game.piles.size[stock] - 1) % 13 == 0:  # not an ace to start it
        aces.append(game.piles.pop(stock))
    game.piles.push(found, game.piles.pop(stock))
    for card in aces:
        game.piles.push(stock, card)
    assert game.check_position()
    keeper.save_game(game)
    _, resumed, messages = restart(disk)
    assert resumed is None and messages == ["Saved game: invalid, set aside"]


def test_statistics_whose_counts_disagree_are_set_aside():
    disk = MemoryStorage()
    keeper, _ = reference_keeper(disk)
    buf = bytearray(2048)
    n = disk.read("stats.dat", buf)
    data = bytearray(buf[:n])
    r.put_i32(data, r.HEADER + 2 + 4 * r.WON, 9)  # nine wins in two games
    bad = _reseal(data)
    disk.write("stats.dat", bad, len(bad))
    _, _, messages = restart(disk)
    assert messages == ["Statistics: invalid, set aside"]


# --- one console per data folder; temporary names of its own ---

def test_a_second_console_on_one_folder_gets_a_clear_error(tmp_path):
    host_storage(str(tmp_path))
    child = subprocess.run([sys.executable, "-c", "from simulator.datadir import host_storage\n"
                            "host_storage(%r)" % str(tmp_path)], cwd=ROOT, capture_output=True, text=True)
    assert child.returncode != 0
    assert "is in use by another console (process %d)" % os.getpid() in child.stderr


def test_a_stale_lock_is_taken_over(tmp_path):
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                          capture_output=True, text=True).stdout.strip()
    (tmp_path / LOCK).write_text(dead + "\n")
    os.utime(tmp_path / LOCK, (time.time() - 60, time.time() - 60))
    host_storage(str(tmp_path))
    assert (tmp_path / LOCK).read_text().split()[0] == str(os.getpid())


@pytest.mark.skipif(not os.path.exists("/proc/self/stat"), reason="the system does not say when a process started")
@pytest.mark.parametrize("text", ["{pid}\n", "{pid} 1\n"])
def test_a_lock_naming_a_live_process_that_is_not_the_console_is_taken_over(tmp_path, text):
    # After a kill and a reboot the id in console.lock may name another, living process: the
    # folder stayed locked ("in use by another console") for good.
    other = subprocess.Popen(["sleep", "30"])
    try:
        (tmp_path / LOCK).write_text(text.format(pid=other.pid))
        host_storage(str(tmp_path))
        assert (tmp_path / LOCK).read_text().split()[0] == str(os.getpid())
    finally:
        other.kill()
        other.wait()


def test_a_data_folder_that_is_a_file_is_a_data_dir_error(tmp_path):
    (tmp_path / "file").write_text("x")
    with pytest.raises(DataDirError, match="cannot keep records in"):
        host_storage(str(tmp_path / "file"))


def test_two_backends_on_one_folder_write_under_temporary_names_of_their_own(tmp_path):
    a = Keeper(FileStorage(str(tmp_path)))
    b = Keeper(FileStorage(str(tmp_path)))
    assert a.settings_file.temp != b.settings_file.temp
    assert a.settings_file.temp.startswith("settings.") and a.settings_file.temp.endswith(".new")
    # Interleaved saves: each writes its own temporary file, then renames it: both land.
    buf_a, buf_b = bytearray(1024), bytearray(1024)
    na = a.settings.encode(buf_a)
    a.settings.set("card_back", 4)
    nb = a.settings.encode(buf_b)
    a.settings_file.storage.write(a.settings_file.temp, buf_a, na)
    b.settings_file.storage.write(b.settings_file.temp, buf_b, nb)
    a.settings_file.storage.rename(a.settings_file.temp, "settings.dat")
    b.settings_file.storage.rename(b.settings_file.temp, "settings.dat")
    assert sorted(os.listdir(tmp_path)) == ["settings.dat"]


def test_a_complete_temporary_file_another_process_left_is_taken_and_the_rest_cleared(tmp_path):
    storage = FileStorage(str(tmp_path))
    keeper, _ = reference_keeper(storage)
    keeper.settings.set("card_back", 11)
    buf = bytearray(1024)
    n = keeper.settings.encode(buf)
    os.remove(tmp_path / "settings.dat")
    (tmp_path / "settings.4242-1.new").write_bytes(bytes(buf[:n]))  # cut between remove and rename
    (tmp_path / "settings.4243-1.new").write_bytes(bytes(buf[:n // 2]))  # cut mid-write
    again, _, messages = restart(FileStorage(str(tmp_path)))
    assert messages == [] and again.settings.get("card_back") == 11
    assert not [f for f in os.listdir(tmp_path) if f.endswith(".new")]


# --- the simulator's command line ---

def simulate(*args):
    return subprocess.run([sys.executable, "-m", "simulator", "--headless", *args], cwd=ROOT,
                          capture_output=True, text=True,
                          env=dict(os.environ, SDL_VIDEODRIVER="dummy"))


def bad_arguments(tmp_path):
    (tmp_path / "afile").write_text("x")
    shot = str(tmp_path / "shot.png")
    return [
        (["--data-dir", str(tmp_path / "afile"), "--screenshot", shot], "cannot keep records in"),
        (["--data-dir", "/proc/pocket-cards", "--screenshot", shot], "cannot keep records in"),
        (["--data-dir", "/proc/self", "--screenshot", shot], "cannot keep records in"),
        (["--screenshot", str(tmp_path / "missing" / "shot.png")], "no folder"),
        (["--screenshot", str(tmp_path)], "it is a folder"),
        (["--scale", "-3", "--screenshot", shot], "scale -3 is out of range 1..16"),
        (["--scale", "0", "--screenshot", shot], "scale 0 is out of range 1..16"),
        (["--scale", "\u00b2", "--screenshot", shot], "bad scale"),
        (["--scale", "9" * 5000, "--screenshot", shot], "is out of range 1..16"),
        (["--bogus"], "unrecognized arguments"),
    ]


def test_every_bad_simulator_argument_is_one_line_without_a_traceback(tmp_path):
    for args, reason in bad_arguments(tmp_path):
        run = simulate(*args)
        assert run.returncode != 0, args
        lines = run.stderr.strip().split("\n")
        assert len(lines) == 1 and lines[0].startswith("error: ") and reason in lines[0], (args[:2], run.stderr[-400:])
        assert "Traceback" not in run.stderr
