"""Persistence: records, settings, statistics, the saved game, storage failures."""

import errno
import json
import os
import random
import zlib
from array import array

import pytest

from engine_core import LOST, OVER, PLAYING, WON, games
from engine_core import records as r
from engine_core import save
from engine_core.game import V_RNG
from engine_core.protocol import state_json
from engine_core.save import Keeper
from engine_core.storage import FileStorage, MemoryStorage
from tests.helpers import run_mpy_ok
from tools.reliability.faults import FaultyStorage
from tools.reliability.soak import card_span, played_game, player_counts, reference_keeper, restart

GAMES = games.available()


def notices(keeper):
    out = []
    while True:
        text = keeper.take_notice()
        if not text:
            return out
        out.append(text)


# --- the record format ---

def test_the_checksum_is_crc32_as_zlib_computes_it():
    parts = array("H", [0, 0])
    rand = random.Random(5)
    for data in (b"", b"123456789", bytes(rand.randrange(256) for _ in range(700))):
        r.crc32_parts(data, 0, len(data), parts)
        assert parts[0] << 16 | parts[1] == zlib.crc32(data)


@pytest.mark.parametrize("value", [0, 1, -1, 906155735, -(2 ** 30), 2 ** 30 - 1, -123456])
def test_four_byte_fields_hold_every_small_int(value):
    buf = bytearray(4)
    r.put_i32(buf, 0, value)
    assert r.get_i32(buf, 0) == value


def test_a_record_is_header_payload_and_checksum():
    settings = r.Settings()
    buf = bytearray(256)
    n = settings.encode(buf)
    assert bytes(buf[:4]) == b"PCS\x01"
    assert r.get_u16(buf, 4) == n - r.OVERHEAD
    assert r.check(buf, n, r.KIND_SETTINGS) == r.OK
    assert r.check(buf, n - 1, r.KIND_SETTINGS) == r.SHORT
    assert r.check(buf, n, r.KIND_STATS) == r.CORRUPT
    buf[7] ^= 1
    assert r.check(buf, n, r.KIND_SETTINGS) == r.CORRUPT


# --- settings ---

def test_settings_start_at_their_defaults_and_survive_a_restart():
    disk = MemoryStorage()
    keeper = Keeper(disk)
    keeper.start()
    assert keeper.settings.get("sound") == 1 and keeper.settings.get("kiosk") == 0
    keeper.settings.set("sound", 0)
    keeper.settings.set("target", 300)
    assert keeper.save_settings() == r.SAVED
    again = Keeper(disk)
    again.start()
    assert again.settings.get("sound") == 0 and again.settings.get("target") == 300
    assert notices(again) == []


def test_a_setting_outside_its_range_is_refused():
    settings = r.Settings()
    with pytest.raises(ValueError):
        settings.set("sound", 2)
    assert settings.get("sound") == 1


def test_settings_from_an_older_build_with_fewer_fields_keep_the_new_defaults():
    settings = r.Settings()
    settings.set("sound", 0)
    buf = bytearray(256)
    settings.encode(buf)
    buf[r.HEADER] = 3  # an older build knew three fields
    n = r.finish(buf, r.HEADER + 1 + 2 * 3)
    fresh = r.Settings()
    fresh.set("kiosk", 1)
    assert fresh.decode(buf, n) == r.OK
    assert fresh.get("sound") == 0 and fresh.get("kiosk") == 0


# --- statistics ---

def test_statistics_count_played_won_and_streaks():
    stats = r.Statistics()
    for won in (True, True, False, True, True, True):
        stats.record_game(2, won, 0, 0)
    assert stats.get(2, r.PLAYED) == 6 and stats.get(2, r.WON) == 5
    assert stats.get(2, r.STREAK) == 3 and stats.get(2, r.BEST_STREAK) == 3
    assert stats.get(1, r.PLAYED) == 0


def test_statistics_keep_the_best_time_and_fewest_moves_of_a_win_only():
    stats = r.Statistics()
    stats.record_game(0, True, 90000, 70)
    stats.record_game(0, False, 10000, 5)
    stats.record_game(0, True, 120000, 60)
    assert stats.get(0, r.BEST_TIME_MS) == 90000 and stats.get(0, r.FEWEST_MOVES) == 60


def test_match_results_count_matches_wins_and_the_best_score():
    stats = r.Statistics()
    stats.record_match(4, False, -12)
    assert stats.get(4, r.BEST_SCORE) == -12
    stats.record_match(4, True, 100)
    stats.record_match(4, False, 30)
    assert (stats.get(4, r.MATCHES), stats.get(4, r.MATCHES_WON), stats.get(4, r.BEST_SCORE)) == (3, 1, 100)


def test_a_finished_game_is_recorded_once_with_its_time_and_moves():
    disk = MemoryStorage()
    keeper = Keeper(disk)
    keeper.start()
    game = games.load("aces_up")()
    game.deal(8)
    keeper.started(game)
    while game.status() == PLAYING:
        game.apply(game.hint())
        game.tick(1000)
        keeper.moved(game)
    keeper.moved(game)  # an extra call after the end changes nothing
    won = game.status() == WON
    assert keeper.stats.get(0, r.PLAYED) == 1 and keeper.stats.get(0, r.WON) == (1 if won else 0)
    keeper.catch_up()  # the frame that ended the game: its statistics are written after it
    assert not disk.exists("stats")
    keeper.catch_up()
    again = Keeper(disk)
    again.start()
    assert again.stats.get(0, r.PLAYED) == 1


def test_a_game_left_after_a_move_counts_as_played_and_not_won():
    keeper = Keeper(MemoryStorage())
    keeper.start()
    game = played_game("aces_up", 2, 3)
    keeper.started(game)
    keeper.moved(game)
    keeper.abandoned(game)
    assert keeper.stats.get(0, r.PLAYED) == 1 and keeper.stats.get(0, r.WON) == 0
    assert keeper.resume() is None


def test_a_competitive_game_is_won_when_player_one_has_the_highest_score():
    class Match:
        NAME = "nerts"
        COMPETITIVE = True
        players = 3

        def __init__(self, scores):
            self.scores = scores

        def status(self):
            return OVER

        def score(self, i):
            return self.scores[i]

    assert save.human_won(Match([10, 3, 9]))
    assert not save.human_won(Match([10, 10, 9]))
    assert not save.human_won(Match([1, 3, 9]))


# --- the saved game ---

def continue_both(a, b, steps, seed):
    """Play the same random moves and ticks on two games; their states must stay equal."""
    rand = random.Random(seed)
    out_a = array("i", [0] * a.MAX_MOVES)
    out_b = array("i", [0] * b.MAX_MOVES)
    for _ in range(steps):
        assert state_json(a) == state_json(b)
        ms = rand.randrange(700)
        a.tick(ms)  # computer players of real-time games act here
        b.tick(ms)
        assert state_json(a) == state_json(b)
        na = a.legal_moves(out_a)
        nb = b.legal_moves(out_b)
        assert list(out_a[:na]) == list(out_b[:nb])
        if na and a.status() == PLAYING:
            move = out_a[rand.randrange(na)]
            a.apply(move)
            b.apply(move)
            a.respond()
            b.respond()
    assert state_json(a) == state_json(b)


@pytest.mark.parametrize("name", GAMES)
def test_every_game_resumes_exactly_and_plays_on_identically(name):
    for players in player_counts(games.load(name)):
        for moves in (0, 7, 60):
            game = played_game(name, 20 + moves, moves, players)
            disk = MemoryStorage()
            keeper = Keeper(disk)
            keeper.start()
            keeper.moves = moves
            assert keeper.save_game(game) == r.SAVED
            again = Keeper(disk)
            again.start()
            resumed = again.resume()
            assert resumed is not None and type(resumed) is type(game)
            assert resumed.players == players and resumed.options == game.options
            assert again.moves == moves
            continue_both(game, resumed, 40, moves)


@pytest.mark.parametrize("name", games.names())
def test_a_resumed_game_undoes_its_last_moves_exactly_as_before_the_restart(name):
    game = played_game(name, 4, 30)
    disk = MemoryStorage()
    keeper = Keeper(disk)
    keeper.save_game(game)
    again = Keeper(disk)
    again.start()
    resumed = again.resume()
    assert state_json(resumed) == state_json(game)
    undone = 0
    # The saved journal holds the newest whole moves that fit its record
    # (engine_core/undo_record.py): the resumed game undoes those exactly as the game did.
    while undone < 80 and resumed.undo():
        assert game.undo()
        assert state_json(resumed) == state_json(game)
        undone += 1
    assert undone >= 3 or not game.can_undo()


def test_an_undo_journal_of_another_save_is_dropped_and_the_game_resumes_with_nothing_to_undo():
    game = played_game("aces_up", 4, 10)
    disk = MemoryStorage()
    keeper = Keeper(disk)
    keeper.save_game(game)
    buf = bytearray(2048)
    old = buf[:disk.read("undo.dat", buf)]
    game.apply(game.hint())
    keeper.save_game(game)
    disk.write("undo.dat", old, len(old))  # a power cut between the two writes
    again = Keeper(disk)
    again.start()
    resumed = again.resume()
    assert state_json(resumed) == state_json(game) and not resumed.can_undo()


def test_a_game_with_options_resumes_with_them():
    cls = games.load("aces_up")
    game = cls(1, games.options(target=300))
    game.deal(9)
    game.vars[V_RNG] = 1000000000  # the generator's states run up to 2**30
    disk = MemoryStorage()
    Keeper(disk).save_game(game)
    again = Keeper(disk)
    again.start()
    resumed = again.resume()
    assert resumed.options == game.options and resumed.vars[V_RNG] == 1000000000


@pytest.mark.parametrize("rules", [1, 2])
def test_a_casket_game_resumes_under_the_rule_profile_it_was_saved_under(rules):
    cls = games.load("casket")
    game = cls()
    game.set_rules(rules)
    game.deal(12)
    out = array("i", [0] * cls.MAX_MOVES)
    rand = random.Random(rules)
    for _ in range(40):
        if game.status() == PLAYING:
            game.apply(out[rand.randrange(game.legal_moves(out))])
    disk = MemoryStorage()
    Keeper(disk).save_game(game)
    buf = bytearray(2048)
    disk.read("game.dat", buf)
    assert buf[r.HEADER + 1] == rules  # the record's rules byte
    again = Keeper(disk)
    again.start()
    resumed = again.resume()
    assert resumed.rules == rules and state_json(resumed) == state_json(game)
    assert '"rules": %d' % rules in state_json(resumed)
    continue_both(game, resumed, 60, rules)


def test_a_casket_record_written_before_profile_2_resumes_under_profile_1():
    # Records of builds that knew only profile 1 say rules 1 with options 0: byte for byte
    # what this build writes for a profile-1 game.
    cls = games.load("casket")
    game = cls()
    game.set_rules(1)
    game.deal(3)
    game.apply(game.hint())
    disk = FaultyStorage()
    Keeper(disk).save_game(game)
    buf = bytearray(2048)
    n = disk.read("game.dat", buf)
    assert buf[r.HEADER + 1] == 1 and r.get_i32(buf, r.HEADER + 4) == 0
    disk.write("game.dat", buf, n)
    _, resumed, messages = restart(disk)
    assert messages == [] and resumed.rules == 1 and state_json(resumed) == state_json(game)


def test_a_casket_record_of_an_unknown_rule_profile_is_set_aside():
    game = games.load("casket")()
    game.deal(3)
    disk = FaultyStorage()
    Keeper(disk).save_game(game)
    buf = bytearray(2048)
    n = disk.read("game.dat", buf)
    buf[r.HEADER + 1] = 3
    r.finish(buf, n - 4)
    disk.write("game.dat", buf, n)
    _, resumed, messages = restart(disk)
    assert resumed is None and messages == ["Saved game: unknown version, set aside"]


def hinted_moves(disk, moves, tick_ms, in_halves=False):
    """A Keeper on disk and an Aces Up deal (seed 5) played on by `moves` hinted moves, each
    told to the Keeper, with tick_ms of time after each (0: none). Returns (keeper, game)."""
    keeper = Keeper(disk)
    keeper.in_halves = in_halves
    keeper.start()
    game = played_game("aces_up", 5, 0)
    keeper.started(game)
    for _ in range(moves):
        game.apply(game.hint())
        keeper.moved(game)
        if tick_ms:
            keeper.tick(game, tick_ms)
    return keeper, game


def test_the_game_is_saved_once_play_pauses_not_on_every_press():
    disk = FaultyStorage()
    keeper, game = hinted_moves(disk, 10, 100)
    assert not disk.exists("game.dat")
    keeper.tick(game, save.SAVE_DELAY_MS)
    assert disk.exists("game.dat")
    writes = disk.bytes_written
    keeper.tick(game, 5000)
    assert disk.bytes_written == writes


def test_a_finished_game_resumed_is_not_counted_again():
    disk = MemoryStorage()
    keeper = Keeper(disk)
    keeper.start()
    game = played_game("aces_up", 8, 0)
    keeper.started(game)
    while game.status() == PLAYING:
        game.apply(game.hint())
        keeper.moved(game)
    keeper.save_game(game)
    again = Keeper(disk)
    again.start()
    resumed = again.resume()
    again.moved(resumed)
    assert again.stats.get(0, r.PLAYED) == 1


# --- the folder on disk ---

def test_records_live_in_the_data_folder_and_no_temp_file_is_left(tmp_path):
    folder = tmp_path / "nested" / "data"
    keeper, game = reference_keeper(FileStorage(str(folder)))
    assert sorted(os.listdir(folder)) == ["game.dat", "settings.dat", "stats.dat", "undo.dat"]
    again = Keeper(FileStorage(str(folder)))
    again.start()
    assert state_json(again.resume()) == state_json(game)
    assert list(again.settings.values) == list(keeper.settings.values)


def test_rename_over_an_existing_file_works_where_the_filesystem_refuses_it(tmp_path, monkeypatch):
    storage = FileStorage(str(tmp_path))
    real_rename = os.rename

    def fat_rename(src, dst):
        if os.path.exists(dst):
            raise OSError(errno.EEXIST, "exists")
        real_rename(src, dst)

    monkeypatch.setattr(os, "rename", fat_rename)
    keeper, game = reference_keeper(storage)
    keeper.settings.set("card_back", 9)
    assert keeper.save_settings() == r.SAVED
    again = Keeper(storage)
    again.start()
    assert again.settings.get("card_back") == 9


def test_a_full_disk_on_the_host_is_reported_and_the_old_record_kept(tmp_path, monkeypatch):
    storage = FileStorage(str(tmp_path))
    keeper, game = reference_keeper(storage)
    before = (tmp_path / "game.dat").read_bytes()

    def full(self, name, buf, n):
        with open(self.path(name), "wb") as f:
            f.write(bytes(buf[:n // 2]))
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(FileStorage, "write", full)
    game.apply(game.hint())
    assert keeper.save_game(game) == r.FULL
    assert notices(keeper) == [save.NOTICE_FULL]
    assert (tmp_path / "game.dat").read_bytes() == before
    assert not (tmp_path / "game.new").exists()


# --- what goes wrong ---

def test_a_first_start_has_defaults_and_no_message():
    keeper = Keeper(MemoryStorage())
    keeper.start()
    assert notices(keeper) == [] and keeper.resume() is None
    assert list(keeper.settings.values) == list(r.Settings().values)


def test_a_full_filesystem_is_reported_and_the_game_goes_on():
    disk = FaultyStorage()
    keeper, game = reference_keeper(disk)
    disk.capacity = disk.used()  # nothing more fits
    game.apply(game.hint())
    assert keeper.save_game(game) == r.FULL
    assert notices(keeper) == [save.NOTICE_FULL]
    assert game.status() in (PLAYING, WON, LOST)
    assert not disk.exists("game.new")
    disk.capacity = 10 ** 6
    assert keeper.save_game(game) == r.SAVED and notices(keeper) == []


def test_other_storage_errors_are_reported_too():
    class Broken(MemoryStorage):
        def rename(self, src, dst):
            raise OSError(errno.EIO)

    keeper = Keeper(Broken())
    keeper.start()
    assert keeper.save_settings() == r.FAILED
    assert notices(keeper) == [save.NOTICE_FAILED]


@pytest.mark.parametrize("record,title", [("settings", "Settings"), ("stats", "Statistics"),
                                          ("game", "Saved game")])
def test_a_corrupt_record_is_reported_set_aside_and_only_it_is_reset(record, title):
    disk = FaultyStorage()
    keeper, game = reference_keeper(disk)
    buf = bytearray(2048)
    n = disk.read(record + ".dat", buf)
    buf[n // 2] ^= 0x10
    disk.write(record + ".dat", buf, n)
    again, resumed, messages = restart(disk)
    assert messages == [title + ": corrupt, set aside"]
    assert disk.exists(record + ".bad") and not disk.exists(record + ".dat")
    assert (resumed is None) == (record == "game")
    if record != "settings":
        assert list(again.settings.values) == list(keeper.settings.values)
    if record != "stats":
        assert list(again.stats.values) == list(keeper.stats.values)


def test_a_record_from_an_unknown_version_is_set_aside():
    disk = FaultyStorage()
    reference_keeper(disk)
    buf = bytearray(2048)
    n = disk.read("stats.dat", buf)
    buf[3] = 2
    r.finish(buf, n - 4)
    disk.write("stats.dat", buf, n)
    again, _, messages = restart(disk)
    assert messages == ["Statistics: unknown version, set aside"]
    assert again.stats.get(0, r.PLAYED) == 0 and disk.exists("stats.bad")


def test_a_cut_off_record_is_reported_as_cut_short():
    disk = FaultyStorage()
    reference_keeper(disk)
    buf = bytearray(2048)
    n = disk.read("game.dat", buf)
    disk.write("game.dat", buf, n - 3)
    _, resumed, messages = restart(disk)
    assert resumed is None and messages == ["Saved game: cut short, set aside"]


def test_a_saved_game_with_a_card_twice_is_refused_despite_its_checksum():
    disk = FaultyStorage()
    reference_keeper(disk)
    buf = bytearray(2048)
    n = disk.read("game.dat", buf)
    start, count = card_span(buf)
    buf[start + count - 1] = buf[start + count - 2]
    r.finish(buf, n - 4)
    disk.write("game.dat", buf, n)
    _, resumed, messages = restart(disk)
    assert resumed is None and messages == ["Saved game: invalid, set aside"]


def test_a_saved_game_of_other_rules_is_set_aside():
    disk = FaultyStorage()
    reference_keeper(disk)
    buf = bytearray(2048)
    n = disk.read("game.dat", buf)
    buf[r.HEADER + 1] = 2  # rules version 2 of Aces Up
    r.finish(buf, n - 4)
    disk.write("game.dat", buf, n)
    _, resumed, messages = restart(disk)
    assert resumed is None and messages == ["Saved game: unknown version, set aside"]


def test_a_complete_new_file_without_the_old_one_is_taken():
    # A filesystem that removes before it renames, cut between the two steps.
    disk = FaultyStorage()
    keeper, game = reference_keeper(disk)
    buf = bytearray(2048)
    n = disk.read("settings.dat", buf)
    disk.remove("settings.dat")
    disk.write("settings.new", buf, n)
    again, _, messages = restart(disk)
    assert messages == [] and list(again.settings.values) == list(keeper.settings.values)
    assert disk.exists("settings.dat") and not disk.exists("settings.new")


# --- on the device ---

MPY_SAVE = """
from engine_core import games
from engine_core.save import Keeper, encode_game, restore_game
from engine_core.storage import MemoryStorage, FileStorage
from engine_core.protocol import state_json
import gc, micropython
cls = games.load("aces_up")
game = cls()
game.deal(77)
for i in range(12):
    game.apply(game.hint())
keeper = Keeper(MemoryStorage())
keeper.start()
keeper.started(game)
result = "no allocation"
n = 0
gc.collect()
micropython.heap_lock()
try:
    keeper.moved(game)
    keeper.tick(game, 1000)
    keeper.stats.record_game(0, True, 5000, 12)
    keeper.save_stats()
    keeper.settings.values[1] = 4
    keeper.save_settings()
    n = encode_game(game, 12, keeper.buf)
    restore_game(game, keeper.buf, n, keeper.used)
except MemoryError:
    result = "allocated"
micropython.heap_unlock()
print(result)
again = Keeper(MemoryStorage())
print(state_json(game))
disk = FileStorage("/build/DIR")
keeper = Keeper(disk)
keeper.start()
keeper.save_game(game)
keeper = Keeper(FileStorage("/build/DIR"))
keeper.start()
print(state_json(keeper.resume()))
print(keeper.settings.values[1], keeper.take_notice() or "-")
"""


def test_saving_allocates_nothing_on_micropython_and_a_folder_on_flash_works(tmp_path):
    folder = "mpy-save-%d" % os.getpid()
    try:
        lines = run_mpy_ok(MPY_SAVE.replace("DIR", folder)).split("\n")
    finally:
        import shutil
        shutil.rmtree(os.path.join(os.path.dirname(__file__), "..", "build", folder), ignore_errors=True)
    assert lines[0] == "no allocation"
    game = games.load("aces_up")()
    game.deal(77)
    for _ in range(12):
        game.apply(game.hint())
    assert json.loads(lines[1]) == json.loads(state_json(game))
    assert lines[2] == lines[1]
    assert lines[3] == "0 -"


def test_the_simulator_keeps_its_records_in_the_platform_data_folder(monkeypatch, tmp_path):
    from simulator import datadir
    monkeypatch.setattr("sys.platform", "linux")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    assert datadir.default_data_dir() == str(tmp_path / "xdg" / "pocket-cards")
    storage = datadir.host_storage(str(tmp_path / "given"))
    Keeper(storage).save_settings()
    assert (tmp_path / "given" / "settings.dat").exists()


@pytest.mark.parametrize("name", GAMES)
def test_every_game_with_the_most_players_fits_the_record_buffer(name):
    cls = games.load(name)
    game = cls(cls.MAX_PLAYERS, games.options(jokers=True))
    game.deal(1)
    n = save.encode_game(game, 0, bytearray(save.BUFFER_SIZE))
    assert n == save.game_record_size(game) <= save.BUFFER_SIZE


def test_a_journal_left_for_the_next_frame_is_written_before_its_buffer_is_used_again():
    """Saving in halves (the device) leaves the journal encoded in the Keeper's one buffer for
    the next frame; settings saved in between write it first, so undo.dat still matches the
    game record and a restart can undo."""
    disk = MemoryStorage()
    keeper, game = hinted_moves(disk, 3, 0, in_halves=True)
    keeper.tick(game, 16)
    keeper.tick(game, save.SAVE_DELAY_MS)  # the game record; its journal waits in the buffer
    assert keeper.journal_due
    keeper.settings.set("card_back", 5)
    keeper.save_settings()  # encodes into the same buffer
    again = Keeper(disk)
    again.start()
    resumed = again.resume()
    assert notices(again) == [] and resumed.history.moves == 3 and resumed.undo()
