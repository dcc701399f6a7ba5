"""Records whose checksum is right and whose values are not: each is refused whole (nothing
changes, the file is set aside, the next start is clean), never raised, never stored modulo
256, the same on CPython and MicroPython."""

from array import array
from types import SimpleNamespace

import pytest

from engine_core import games
from engine_core import history as hist
from engine_core import records as r
from engine_core.game import V_TURN
from engine_core.game_record import encode_game, extra_count, restore_game
from engine_core.link import transfer
from engine_core.save import NOTICE_JOURNAL, Keeper
from engine_core.storage import MemoryStorage
from tests.helpers import run_mpy_ok
from tools.reliability import record_fuzz
from tools.reliability.record_fuzz import notices
from tools.reliability.restarts import new_console
from tools.reliability.soak import played_game


def nerts_record(value, seed=5, moves=40):
    """A Nerts table of two as a game record, p2's computer speed set to `value` (CRC fixed):
    (record bytes, size, the game it was made from)."""
    game = played_game("nerts", seed, moves, 2)
    buf = bytearray(1024)
    n = encode_game(game, moves, buf)
    extras = n - 4 - 4 * extra_count(game)  # computer[2], speed[2], skill[2]
    r.put_i32(buf, extras + 4 * (2 + 1), value)
    r.finish(buf, n - 4)
    return buf, n, game


def fresh_nerts(seed):
    game = games.load("nerts")(2)
    game.deal(seed)
    return game


def snapshot(game):
    buf = bytearray(1024)
    n = encode_game(game, 0, buf)
    return bytes(buf[:n]), [game.bot.speed_of(p) for p in range(game.players)]


@pytest.mark.parametrize("value", [300, 256, 5, -1])
def test_a_saved_setting_out_of_its_range_is_refused_before_anything_changes(value):
    buf, n, _ = nerts_record(value)
    guest = fresh_nerts(5)
    before = snapshot(guest)
    assert restore_game(guest, buf, n, bytearray(256)) == r.INVALID
    assert snapshot(guest) == before


def test_a_state_with_a_setting_over_255_leaves_the_guest_as_it_was():
    buf, n, _ = nerts_record(300)
    guest = fresh_nerts(5)
    guest.apply(guest.hint())
    before = snapshot(guest)
    undoable = guest.history.moves
    received = transfer.Transfer(SimpleNamespace(game=guest, my_seat=1, is_host=False))  # the guest's (link/session.py)
    received.sbuf = buf
    received.r_total = n
    assert received.acceptable(guest) is False
    assert snapshot(guest) == before and guest.history.moves == undoable


def test_a_saved_game_with_a_setting_over_255_is_set_aside_and_the_next_start_is_clean():
    buf, n, _ = nerts_record(300)
    disk = MemoryStorage()
    disk.write("game.dat", buf, n)
    console = new_console(disk)  # the console's start, as the simulator and the device make it
    assert console.notice == b"Saved game: invalid, set aside" and not console.app.resumable
    assert disk.exists("game.bad") and not disk.exists("game.dat")
    again = new_console(disk)
    assert not again.notice and not again.app.resumable


MPY_OVER_255 = """
from engine_core import games
from engine_core import records as r
from engine_core.game import V_TURN
from engine_core.game_record import encode_game, extra_count, restore_game
game = games.load("nerts")(2)
game.deal(5)
buf = bytearray(1024)
n = encode_game(game, 0, buf)
r.put_i32(buf, n - 4 - 4 * extra_count(game) + 4 * 3, 300)
r.finish(buf, n - 4)
guest = games.load("nerts")(2)
guest.deal(5)
print(restore_game(guest, buf, n, bytearray(256)), guest.bot.speed_of(1))
"""


def test_micropython_refuses_a_setting_over_255_as_cpython_does_and_stores_nothing():
    assert run_mpy_ok(MPY_OVER_255).split() == [str(r.INVALID), "2"]


def nerts_journal_with_a_forged_mark():
    """A Nerts game saved with its journal ending in p1's move and two of p2's flips, the
    last flip's MARK naming player 6 (CRC fixed): (disk, the game)."""
    game = played_game("nerts", 2, 60, 2)
    out = array("i", [0] * game.MAX_MOVES)

    def pick(who):
        n = game.legal_moves(out)
        for i in range(n):
            move = out[i]
            if game.mover(move) == who and move >> 16 != 0xFF and (move >> 8) & 0xFF < game.found0:
                return move
        for i in range(n):
            if game.mover(out[i]) == who:
                return out[i]

    for who in (0, 1, 1):
        game.apply(pick(who))
    disk = MemoryStorage()
    keeper = Keeper(disk)
    keeper.start()
    keeper.moves = 63
    assert keeper.save_game(game) == r.SAVED
    buf = bytearray(2048)
    n = disk.read("undo.dat", buf)
    first = r.HEADER + 6
    last = -1
    for k in range(r.get_u16(buf, r.HEADER + 4)):
        if hist.kind(r.get_i32(buf, first + 4 * k)) == hist.MARK:
            last = k
    move = hist.mark_move(r.get_i32(buf, first + 4 * last))
    assert move >> 16 == 0xFF and move & 0xFF == 1  # p2's flip
    r.put_i32(buf, first + 4 * last, hist.mark_entry(move & 0xFFFF00 | 5))
    r.finish(buf, n - 4)
    disk.write("undo.dat", buf, n)
    return disk, game


def test_a_journal_naming_a_move_the_game_cannot_make_is_set_aside_and_y_is_safe():
    disk, game = nerts_journal_with_a_forged_mark()
    keeper = Keeper(disk)
    keeper.start()
    resumed = keeper.resume()
    assert resumed is not None and snapshot(resumed)[0][:-4] == snapshot(game)[0][:-4]
    assert notices(keeper) == [NOTICE_JOURNAL]
    assert disk.exists("undo.bad") and not resumed.can_undo()
    assert resumed.take_back(0) != 0  # nothing to take back: refused with a reason


# A few thousand mutations on the runtimes (2,800 on CPython, 420 on WebAssembly and 1,400 in
# one guest of the unix port: some 10 s, 30 s and 11 s); the soak runs 100,000 of each kind
# (python -m tools.reliability.record_fuzz --count 100000, and the same with --micropython).

def test_the_record_fuzzer_finds_nothing_on_cpython():
    counts = record_fuzz.run(200, seed=11)
    assert counts["failures"] == 0, counts["first"]
    assert set(counts["kinds"]) == set(record_fuzz.KINDS)
    for kind in record_fuzz.KINDS:
        refused, accepted, _ = counts["kinds"][kind]
        assert refused > 20 and accepted > 5, (kind, refused, accepted)


def test_the_record_fuzzer_finds_nothing_on_micropython_and_each_record_gets_the_same_answer():
    counts = record_fuzz.run_micropython_chunks(30, seed=12)
    assert counts["failures"] == 0, counts["first"]
    assert counts["refused"] > 200 and counts["accepted"] > 40, counts
    # The same seeds make the same mutations on CPython: each is refused or taken alike.
    chunk = record_fuzz.MPY_CHUNK
    here = [record_fuzz.run(chunk, 12), record_fuzz.run(chunk, 13)]
    for kind in record_fuzz.KINDS:
        same = [here[0]["kinds"][kind][i] + here[1]["kinds"][kind][i] for i in range(3)]
        assert counts["kinds"][kind] == same, kind


def test_the_record_fuzzer_finds_nothing_in_one_long_guest_of_the_unix_port():
    counts = record_fuzz.run_micropython_chunks(100, seed=14, runtime="unix")
    assert counts["failures"] == 0, counts["first"]
    assert counts["refused"] > 700 and counts["accepted"] > 150, counts
    assert counts["kinds"] == record_fuzz.run(100, 14)["kinds"]  # each answered as on CPython


def test_the_checked_reader_refuses_a_field_out_of_range_or_past_the_end_and_goes_on():
    buf = bytearray(16)
    r.put_u16(buf, 0, 300)
    r.put_i32(buf, 2, -5)
    buf[6] = 7
    rd = r.READER.start(buf, 0, 7)
    assert rd.u16(0, 300) == 300 and rd.i32(-5, 5) == -5 and rd.u8(0, 7) == 7 and rd.done()
    rd.start(buf, 0, 7)
    assert rd.u16(0, 255) == 0 and not rd.ok  # out of range: its lowest value, marked bad
    assert rd.i32(-5, 5) == -5 and rd.u8(0, 7) == 7 and not rd.done()  # and stays bad
    rd.start(buf, 0, 6)
    rd.u16(0, 300)
    rd.i32(-5, 5)
    assert rd.done() and rd.u8(0, 255) == 0 and not rd.done()  # a field past the end
    buf[2] |= 0x40  # a bit put_i32 never sets
    rd.start(buf, 2, 6)
    assert rd.i32(r.I32_MIN, r.I32_MAX) == r.I32_MIN and not rd.done()


def test_a_journal_whose_oldest_position_has_a_ninth_player_to_move_is_set_aside():
    game = played_game("spite_malice", 1, 30)
    disk = MemoryStorage()
    keeper = Keeper(disk)
    keeper.start()
    keeper.moves = 30
    assert keeper.save_game(game) == r.SAVED
    buf = bytearray(2048)
    n = disk.read("undo.dat", buf)
    first = r.HEADER + 6
    for k in range(r.get_u16(buf, r.HEADER + 4)):
        e = r.get_i32(buf, first + 4 * k)
        if hist.kind(e) == hist.VAR_LO and hist.var_index(e) == V_TURN:
            break
    r.put_i32(buf, first + 4 * k, hist.var_entry_lo(V_TURN, 9))  # the turn before: player 9
    r.put_i32(buf, first + 4 * k + 4, hist.var_entry_hi(V_TURN, 9))
    r.finish(buf, n - 4)
    disk.write("undo.dat", buf, n)
    again = Keeper(disk)
    again.start()
    resumed = again.resume()  # the moves are not generated in a position play cannot give
    assert resumed is not None and notices(again) == [NOTICE_JOURNAL]
    assert disk.exists("undo.bad") and not resumed.can_undo()


def stats_record(fields, rows):
    """A statistics record of an older layout: `fields` counters a game, rows[g] its values."""
    buf = bytearray(512)
    pos = r.begin(buf, r.KIND_STATS, r.STATS_VERSION)
    buf[pos] = len(rows)
    buf[pos + 1] = fields
    pos += 2
    for row in rows:
        for value in row[:fields]:
            pos = r.put_i32(buf, pos, value)
    return buf, r.finish(buf, pos)


@pytest.mark.parametrize("fields", [2, 3, 4, 6, 8, 9])
def test_statistics_of_fewer_fields_whose_counts_disagree_are_refused(fields):
    # played, won, streak, best streak, best time, fewest moves, matches, matches won, best score
    honest = [5, 3, 1, 2, 0, 0, 4, 2, 0]
    lies = ([0, 1000, 999, 999, 0, 0, 0, 0, 0],  # more won than played
            [9, 7, 9, 3, 0, 0, 0, 0, 0],  # a streak longer than the best, longer than the wins
            [9, 7, 1, 2, 0, 0, 1, 5, 0])  # more matches won than played
    stats = r.Statistics()
    buf, n = stats_record(fields, [honest] * 8)
    assert stats.decode(buf, n) == r.OK and stats.get(0, r.WON) == 3
    for lie in lies:
        kept = list(stats.values)
        buf, n = stats_record(fields, [honest] * 7 + [lie])
        present = [i for i in range(9) if i < fields]
        shown = any(lie[a] > lie[b] for a, b in ((1, 0), (3, 1), (2, 3), (7, 6))
                    if a in present and b in present)
        assert stats.decode(buf, n) == (r.INVALID if shown else r.OK), (fields, lie)
        if shown:
            assert list(stats.values) == kept  # nothing changed


@pytest.mark.parametrize("options", [0x3FFFFFFF, (10001 << 1) | 1, 20002])
def test_a_saved_game_whose_options_no_setting_gives_is_set_aside(options):
    # A Spite & Malice game of target 10,000 is the widest the settings and `new` make; a record
    # of another target (CRC fixed) was resumed with it, a match no one could finish.
    game = played_game("spite_malice", 3, 12, 2)
    buf = bytearray(2048)
    n = encode_game(game, 12, buf)
    r.put_i32(buf, r.HEADER + 4, options)
    r.finish(buf, n - 4)
    disk = MemoryStorage()
    disk.write("game.dat", buf, n)
    keeper = Keeper(disk)
    keeper.start()
    assert keeper.resume() is None
    assert notices(keeper) == ["Saved game: invalid, set aside"]
    assert disk.exists("game.bad") and not disk.exists("game.dat")
    assert games.options_ok(games.options(True, 10000)) and not games.options_ok(options)


def test_a_taken_record_whose_first_move_ends_the_game_is_sound():
    """Found by the soak's 500,000 mutations: a Spite & Malice game whose pay-off pile and a
    side stack swapped sizes (1 card to pay off, 19 on the stack) is a position play can
    reach; its first legal move wins, and undo stops at a game's end by the rule, so the
    check may not ask that move to be taken back. The bases are played sessions (the deals,
    the computer's moves, when the game is saved), so which one gives that position moves with
    them: today the second base record of Bases(19) does (20 on p1's pay-off, 1 on p2's first side stack, swapped)."""
    from engine_core import PLAYING
    bases = record_fuzz.Bases(19)
    disk = record_fuzz.copy_disk(bases.disks["spite_malice"][1])
    buf, n = record_fuzz.read(disk, "game.dat")
    assert (buf[129], buf[136]) == (20, 1)  # the two sizes, as the base record holds them
    buf[129], buf[136] = buf[136], buf[129]
    r.finish(buf, n - 4)
    disk.write("game.dat", buf, n)
    keeper = Keeper(disk)
    keeper.start()
    game = keeper.resume()
    assert game is not None and not record_fuzz.notices(keeper)
    assert record_fuzz.game_holds(game) == ""
    assert game.status() != PLAYING and not game.can_undo()  # the move it made won the game


def test_the_cursor_of_an_undo_record_is_read_with_the_record_and_reached_by_the_fuzzer():
    """Version 3 ends with the cursor's two bytes: a record one byte short of them, or one
    that says version 2 and still holds them, is refused whole; the fuzzer's layout lists
    both, so its mutations reach them."""
    from engine_core import undo_record as undo
    game = played_game("aces_up", 4, 12)
    disk = MemoryStorage()
    keeper = Keeper(disk)
    keeper.start()
    keeper.cursor = 3 << 8 | 255
    assert keeper.save_game(game) == r.SAVED
    buf = bytearray(2048)
    n = disk.read("undo.dat", buf)
    assert buf[3] == undo.UNDO_VERSION == 3 and (buf[n - 6], buf[n - 5]) == (3, 255)
    fields = record_fuzz.fields_of("undo", buf, n)
    assert fields[-2:] == [(n - 6, record_fuzz.U8, fields[-1][2]), (n - 5, record_fuzz.U8, fields[-1][2])]
    for version, end in ((3, n - 5), (2, n - 4)):  # the last cursor byte gone; version 2 with both
        bad = bytearray(buf)
        bad[3] = version
        size = r.finish(bad, end)
        fresh = games.load("aces_up")()
        assert undo.restore_journal(fresh.history, bad, size, keeper.game_crc) == r.INVALID
        assert fresh.history.used == 0
    assert undo.restore_journal(games.load("aces_up")().history, buf, n, keeper.game_crc) == r.OK
