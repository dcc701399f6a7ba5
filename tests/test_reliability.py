"""The reliability suite, short (make soak runs it long): each part passes and can fail."""

import pytest

from engine_core import games
from engine_core import records as r
from tools.reliability import soak
from tests.helpers import run_mpy_ok
from tools.reliability.mash import Masher, cards_in_place

AcesUp = games.load("aces_up")  # a game gets its advisor through the registry

QUICK = soak.QUICK


def test_a_power_cut_at_every_byte_of_a_save_leaves_the_old_or_the_new_state():
    counts = soak.power_cut_suite()
    assert counts["failures"] == 0, counts.get("first")
    assert counts["old"] > 0 and counts["new"] > 0
    # Every byte of each record's write and every step: at least a few hundred per game.
    assert counts["cuts"] >= 300 * len(games.available())


def test_the_power_cut_check_catches_a_save_written_in_place(monkeypatch):
    def in_place(self, buf, n):
        self.storage.write(self.name, buf, n)
        return r.SAVED

    monkeypatch.setattr(r.RecordFile, "save", in_place)
    counts = soak.power_cut_suite(["aces_up"])
    assert counts["failures"] > 0


def test_random_corruption_of_every_record_gives_a_message_and_spares_the_others():
    counts = soak.corruption_suite(QUICK["corruptions"], seed=7)
    assert counts["failures"] == 0, counts.get("first")
    assert counts["corruptions"] == QUICK["corruptions"]
    for how in soak.CORRUPTIONS:
        assert counts[how] >= QUICK["corruptions"] // len(soak.CORRUPTIONS)


def test_the_corruption_check_catches_a_reader_that_trusts_its_files(monkeypatch):
    real_check = r.check

    def trusting(buf, n, kind):
        found = real_check(buf, n, kind)
        return r.OK if found == r.CORRUPT and n >= r.OVERHEAD else found

    monkeypatch.setattr(r, "check", trusting)
    counts = soak.corruption_suite(60, seed=3)
    assert counts["failures"] > 0


def test_button_mashing_every_game_keeps_every_card_in_exactly_one_pile():
    counts = soak.mash_suite(QUICK["mash_events"], seed=5)
    assert counts["failures"] == 0, counts.get("first")
    assert counts["events"] == QUICK["mash_events"]


class CardEater(AcesUp):
    """Aces Up whose deal loses the last card of the stock now and then."""

    def _apply(self, move):
        AcesUp._apply(self, move)
        if self.piles.size[0] == 8:
            self.pop(0)


def test_the_interface_masher_passes_over_a_table_the_app_let_go_and_checks_the_rest():
    # The app keeps None for a game's table it let go (a game passed over in the list, one
    # given up): the checker read its cards and raised, deep in the full soak's run.
    from engine_core.storage import MemoryStorage
    from tools.reliability.mash_ui import check, new_console
    console = new_console((240, 240), MemoryStorage(), False, 1)
    console.app.open_game("aces_up", 3)
    console.app.tables["sir_tommy"] = None
    seen = bytearray(256)
    assert check(console, seen) == ""
    game = console.app.tables["aces_up"].game
    game.piles.cards[game.piles.start[0]] = game.piles.cards[game.piles.start[0] + 1]  # a card twice
    assert check(console, seen) != ""


def test_the_masher_catches_a_game_that_loses_a_card():
    masher = Masher(CardEater())
    masher.game.deal(1)
    masher.run(20000, 9)
    assert masher.failure == "a card is missing"


def test_the_card_check_finds_a_card_in_two_places():
    game = AcesUp()
    game.deal(2)
    game.piles.push(5, game.piles.top(1))
    assert cards_in_place(game, bytearray(256)) == "a card is in two places"


# Both runtimes (tools/mpy.py): the WebAssembly build is 32-bit, as the devices are (an int past
# 2**30 allocates there); the unix port is the soak's.
@pytest.mark.parametrize("runtime", ["wasm", "unix"])
def test_button_mashing_on_micropython_allocates_nothing_and_loses_no_card(runtime):
    counts = soak.mpy_mash_suite(QUICK["mpy_mash_events"], seed=2, runtime=runtime)
    assert counts["failures"] == 0, counts.get("first")
    assert counts["events"] >= QUICK["mpy_mash_events"]


@pytest.mark.parametrize("runtime", ["wasm", "unix"])
def test_the_micropython_masher_catches_an_allocation(runtime):
    leak = ("AcesUp = games.load('aces_up')\n"
            "class Leaky(AcesUp):\n"
            "    def undo(self):\n"
            "        self.note = [1]\n"
            "        return AcesUp.undo(self)\n"
            "mashers[0] = Masher(Leaky())\n"
            "mashers[0].game.deal(1)\n")
    counts = soak.mpy_mash_suite(600, seed=2, setup=leak, runtime=runtime)
    assert counts["failures"] > 0 and "allocated" in counts["first"]


@pytest.mark.parametrize("runtime", ["wasm", "unix"])
def test_games_played_in_a_row_on_micropython_leave_free_memory_unchanged(runtime):
    counts = soak.mpy_memory_suite(QUICK["memory_games"], runtime=runtime)
    assert counts["failures"] == 0, counts.get("first")
    assert counts["games"] == QUICK["memory_games"] and counts["recorded"] == QUICK["memory_games"]
    assert counts["moves"] > 10 * QUICK["memory_games"]


@pytest.mark.parametrize("runtime", ["wasm", "unix"])
def test_the_memory_soak_catches_a_leak(runtime):
    leak = ("kept = []\n"
            "class Leaky(Keeper):\n"
            "    def finished(self, game):\n"
            "        kept.append(bytearray(64))\n"
            "        Keeper.finished(self, game)\n"
            "keeper = Leaky(MemoryStorage())\n")
    counts = soak.mpy_memory_suite(12, setup=leak, runtime=runtime)
    assert counts["failures"] > 0


MPY_LOCKED_GAMES = """
import gc, micropython
from array import array
from engine_core import PLAYING, games, kiosk, rng
from engine_core.save import Keeper
from engine_core.storage import MemoryStorage
objects = []
for name in games.available():
    cls = games.load(name)
    objects.append(cls(cls.MIN_PLAYERS))
out = array("i", [0] * 256)
keeper = Keeper(MemoryStorage())
keeper.start()
x = rng.seed_state(5)
i = 0
steps = 0
game = None
result = "no allocation"
gc.collect()
micropython.heap_lock()
try:
    for i in range(GAMES):
        game = objects[i % len(objects)]
        game.deal(i)
        keeper.started(game)
        steps = 0
        while game.status() == PLAYING and steps < 400:
            x = rng.step(x)
            if kiosk.demo_step(game, out, x):
                keeper.moved(game)
            steps += 1
        if game.status() == PLAYING:
            keeper.abandoned(game)
        else:
            keeper.save_game(game)
except MemoryError:
    result = "allocated"
micropython.heap_unlock()
print(result, i + 1)
"""


def test_games_played_in_a_row_with_their_records_allocate_nothing_on_micropython():
    n = 2 * len(games.available())
    out = run_mpy_ok(MPY_LOCKED_GAMES.replace("GAMES", str(n))).split()
    assert out == ["no", "allocation", str(n)]


def test_link_play_over_a_faulty_link_keeps_both_consoles_in_step():
    for name, units in (("spite_malice", QUICK["link_games"]), ("nerts", QUICK["link_rounds"])):
        for cuts in (0, soak.LINK_CUTS):
            counts = soak.link_suite(name, units, cuts, seed=3)
            assert counts["failures"] == 0, counts.get("first")
            assert counts["games" if name == "spite_malice" else "rounds"] == units
            assert counts["hashes compared"] > 10 * units


def test_the_link_check_catches_consoles_that_drift_apart(monkeypatch):
    from engine_core.link.repair import Repair
    from tools.reliability.link_play import Table
    monkeypatch.setattr(Repair, "compare", lambda self, mine, theirs: None)  # hashes unheard
    start = Table.start

    def start_then_drift(self):
        ok = start(self)
        p = self.games[1].piles
        a = p.start[0]
        p.cards[a], p.cards[a + 1] = p.cards[a + 1], p.cards[a]  # the guest's stock, reordered
        return ok

    monkeypatch.setattr(Table, "start", start_then_drift)
    counts = soak.link_suite("spite_malice", 2, 0, seed=3)
    assert counts["failures"] == 2


def test_the_bytes_the_link_carries_are_measured():
    figures = soak.link_figures(units=2)
    assert len(figures) == 4
    for what, value in figures.items():
        assert int(value) > 0, what



def test_the_soak_deal_quality_suite_passes_and_fails_on_the_old_generator():
    from engine_core import rng
    counts = soak.deal_quality_suite(QUICK["quality_deals"], soak.QUALITY_START)
    assert counts["failures"] == 0 and counts["deals"] == QUICK["quality_deals"]
    counts = soak.deal_quality_suite(QUICK["quality_deals"], soak.QUALITY_START, rng.LEHMER)
    assert counts["failures"] >= 1 and counts["first"] == "chi_ok"
