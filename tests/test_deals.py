"""Deals: the generator (its multipliers by the spectral test), the quality of the deals it
gives, and versioned deals (a game keeps the generator that dealt it, so games of older builds
resume exactly).

The deal-quality figures are tools/reliability/deal_quality.py's (docs/statistics.md);
`make soak` runs the same checks over 100,000 other deal numbers.
"""

import json
import math
import os
import random
from array import array

import pytest

from engine_core import PLAYING, games, rng
from engine_core import records as r
from engine_core.ai import winnable
from engine_core.game import V_DEALER, V_RNG, V_RNG2
from engine_core.protocol import ProtocolSession, state_json
from engine_core.save import Keeper
from engine_core.storage import MemoryStorage
from tests.helpers import run_mpy_ok
from tools.reliability import spectral
from tools.reliability import deal_quality

GAMES = games.available()
GOLDEN = os.path.join(os.path.dirname(__file__), "golden")
SMALL_INT = 2 ** 30  # 32-bit MicroPython's small ints are below this


prime_factors = spectral.prime_factors  # the distinct prime factors, as the search finds primitive roots


def is_prime(n):
    return n > 1 and prime_factors(n) == [n]


# --- the generator ---

@pytest.mark.parametrize("m, a", [(rng.M1, rng.A), (rng.M2, rng.A2), (rng.M1, rng.B1), (rng.M2, rng.B2)])
def test_each_stream_is_a_full_period_lehmer_generator_schrage_can_step(m, a):
    assert m < SMALL_INT and is_prime(m)
    for p in prime_factors(m - 1):
        assert pow(a, (m - 1) // p, m) != 1  # a primitive root: period m - 1
    assert a * a < m  # Schrage's condition (m % a < m // a) follows


def test_the_streams_periods_share_only_the_factor_two():
    assert math.gcd(rng.M1 - 1, rng.M2 - 1) == 2
    assert rng._Q2 == rng.M2 // rng.A2 and rng._R2 == rng.M2 % rng.A2
    assert (rng._QB1, rng._RB1) == divmod(rng.M1, rng.B1) and (rng._QB2, rng._RB2) == divmod(rng.M2, rng.B2)


# The spectral test (tools/reliability/spectral.py), first against figures computed elsewhere: Park and
# Miller's 16807 modulo 2**31 - 1 (S2..S6 as published with it), and S3 and S5 of L'Ecuyer's
# combined pair (CACM 31(6), 1988) as an independent computation gave them.
def test_the_spectral_test_gives_the_figures_known_for_other_generators():
    assert [round(s, 3) for s in spectral.figures(16807, 2 ** 31 - 1)] == [0.338, 0.441, 0.575, 0.736, 0.645]
    s = spectral.figures(*spectral.combined(40014, 2147483563, 40692, 2147483399))
    assert abs(s[1] - 0.764) < 0.002 and abs(s[3] - 0.749) < 0.002


def test_the_spectral_test_finds_the_planes_of_the_old_first_stream():
    # x[n+2] = 10 x[n] - 10 x[n+1] (mod M1) for 32763: the dual vector (-10, 10, 1) is shortest.
    assert (rng.A * rng.A + 10 * rng.A - 10) % rng.M1 == 0
    assert spectral.shortest_norm(spectral.dual_basis(rng.A, rng.M1, 3)) == 201
    assert spectral.figure(rng.A, rng.M1, 3) < 0.02


def test_new_deals_multipliers_pass_the_spectral_test_alone_and_combined():
    for label, a, m in spectral.generator_rows(rng.B1, rng.M1, rng.B2, rng.M2, "spectral"):
        figures = spectral.figures(a, m)
        assert min(figures) >= 0.6, (label, figures)
    old = [min(spectral.figures(a, m)) for _, a, m in spectral.generator_rows(rng.A, rng.M1, rng.A2, rng.M2, "")]
    assert min(old) < 0.02  # what the test is for


def test_steps_equal_the_plain_formulas_and_every_intermediate_is_a_small_int():
    rand = random.Random(3)
    states = [1, 2, rng.M2 - 1, rng._Q2 - 1, rng._Q2] + [rand.randrange(1, rng.M2) for _ in range(5000)]
    for x in states:
        assert rng.step2(x) == rng.A2 * x % rng.M2
        assert rng.A2 * (x % rng._Q2) < SMALL_INT and rng._R2 * (x // rng._Q2) < SMALL_INT
        for a, q, rest, m in ((rng.B1, rng._QB1, rng._RB1, rng.M1), (rng.B2, rng._QB2, rng._RB2, rng.M2)):
            z = x % (m - 1) + 1
            assert rng.schrage(z, a, q, rest, m) == a * z % m
            assert a * (z % q) < SMALL_INT and rest * (z // q) < SMALL_INT
        y = rand.randrange(1, rng.M1)
        assert 1 <= rng.combine(y, x) <= rng.M1 - 1
        assert rng.combine(y, x) == (y - x - 1) % (rng.M1 - 1) + 1


def test_the_seed_mix_is_a_bijection_on_30_bits_with_small_products():
    assert max(rng._MIX_KEYS) < 2 ** 15 and rng._MIX_MUL < 2 ** 15  # (15 bits) * (15 bits) < 2**30
    seeds = list(range(70000)) + [SMALL_INT - 1 - i for i in range(70000)]
    for stream in (0, 1):
        mixed = [rng.mix(s, stream) for s in seeds]
        assert len(set(mixed)) == len(seeds) and 0 <= min(mixed) and max(mixed) < SMALL_INT
    # Nearby seeds land far apart: consecutive seeds mix within 2**20 of each other as rarely as chance has it.
    close = sum(1 for s in range(10000) if abs(rng.mix(s, 0) - rng.mix(s + 1, 0)) < 2 ** 20)
    assert close < 60  # 2 * 2**20 / 2**30 of 10,000 pairs is about 20 by chance


def test_seeding_and_shuffling_stay_in_range_and_permute():
    state = array("i", [0, 0])
    for seed in (0, 1, 2, 12345, SMALL_INT - 1):
        rng.seed_states(seed, state, 0, 1)
        assert 1 <= state[0] < rng.M1 and 1 <= state[1] < rng.M2
        buf = bytearray(range(104))
        rng.shuffle2(buf, 0, 104, state, 0, 1)
        assert sorted(buf) == list(range(104))


# --- the quality of the deals ---

def test_deals_of_10000_consecutive_numbers_look_like_independent_shuffles():
    result = deal_quality.suite(10000)
    assert result["failures"] == 0, deal_quality.report(result)


def test_the_combined_generator_of_builds_before_deals_as_well_as_it_did():
    result = deal_quality.suite(2000, generator=rng.COMBINED)
    assert result["failures"] == 0, deal_quality.report(result)


def test_the_quality_check_fails_on_the_lehmer_generator_of_builds_before():
    # What the check is for: the old generator, seeded linearly and stepped four times, gave
    # deal numbers n and n + 1 the same first card 60% of the time.
    result = deal_quality.suite(10000, generator=rng.LEHMER)
    assert not result["chi_ok"] and not result["match_ok"] and not result["same_place_ok"]
    assert result["first_card_matches"] > 5000


def test_deal_order_is_the_order_a_game_deals():
    game = games.load("aces_up")()
    for seed in (0, 5, 999):
        game.deal(seed)
        piles = game.piles
        dealt = []
        for p in range(piles.count):
            dealt += [piles.card(p, i) for i in range(piles.size[p])]
        assert sorted(dealt) == list(range(52))
        order = deal_quality.deal_order(seed)
        stock = game.pile_id("stock")
        # Aces Up deals the top four cards to the columns: the stock is the rest, unchanged.
        assert bytes(piles.card(stock, i) for i in range(piles.size[stock])) == order[:48]


def test_micropython_deals_the_same_orders_for_a_sample_of_numbers():
    seeds = list(range(0, 100)) + [SMALL_INT - 1 - i for i in range(10)]
    code = (
        "from engine_core import rng\n"
        "from array import array\n"
        "state = array('i', [0, 0])\n"
        "for seed in " + repr(seeds) + ":\n"
        "    buf = bytearray(range(52))\n"
        "    rng.seed_states(seed, state, 0, 1)\n"
        "    rng.shuffle2(buf, 0, 52, state, 0, 1)\n"
        "    print(bytes(buf).hex(), state[0], state[1])\n"
    )
    lines = run_mpy_ok(code).split("\n")
    for seed, line in zip(seeds, lines):
        buf = bytearray(range(52))
        state = [0, 0]
        rng.seed_states(seed, state, 0, 1)
        rng.shuffle2(buf, 0, 52, state, 0, 1)
        assert line.split() == [bytes(buf).hex(), str(state[0]), str(state[1])]
    assert len([x for x in lines if x]) == len(seeds)


def test_dealing_on_micropython_allocates_nothing_under_heap_lock():
    code = (
        "import gc, micropython\n"
        "from engine_core import games\n"
        "game = games.load('spite_malice')(2)\n"
        "game.deal(1)\n"
        "result = 'not run'\n"
        "gc.collect()\n"
        "micropython.heap_lock()\n"
        "try:\n"
        "    for seed in range(40):\n"
        "        game.deal(seed * 7919)\n"
        "        game.random_below(52)\n"
        "    result = 'no allocation'\n"
        "except MemoryError:\n"
        "    result = 'allocated'\n"
        "micropython.heap_unlock()\n"
        "print(result)\n"
    )
    assert run_mpy_ok(code).strip() == "no allocation"


# --- versioned deals ---

@pytest.mark.parametrize("name", GAMES)
def test_the_lehmer_generator_still_deals_what_builds_before_dealt(name):
    # tests/golden/lehmer/ holds the golden deals as the builds before this generator wrote them.
    with open(os.path.join(GOLDEN, "lehmer", name + ".json")) as f:
        golden = json.load(f)
    cls = games.load(name)
    for expected in golden:
        game = cls(cls.MIN_PLAYERS)
        game.deal(expected["seed"], rng.LEHMER)
        assert json.loads(state_json(game)) == expected


@pytest.mark.parametrize("name", GAMES)
def test_the_combined_generator_still_deals_what_builds_before_dealt(name):
    # tests/golden/combined/ holds the golden deals as the builds of the combined generator wrote them.
    with open(os.path.join(GOLDEN, "combined", name + ".json")) as f:
        golden = json.load(f)
    cls = games.load(name)
    for expected in golden:
        game = cls(cls.MIN_PLAYERS)
        game.deal(expected["seed"], rng.COMBINED)
        assert json.loads(state_json(game)) == expected


@pytest.mark.parametrize("name", GAMES)
def test_new_deals_name_the_spectral_generator_and_differ_from_the_old(name):
    cls = games.load(name)
    old, older, new = cls(cls.MIN_PLAYERS), cls(cls.MIN_PLAYERS), cls(cls.MIN_PLAYERS)
    older.deal(42, rng.LEHMER)
    old.deal(42, rng.COMBINED)
    new.deal(42)
    state = json.loads(state_json(new))
    assert state["generator"] == "spectral" and state["rng2"] == new.vars[V_RNG2]
    assert json.loads(state_json(old))["generator"] == "combined"
    assert "generator" not in json.loads(state_json(older))
    assert json.loads(state_json(older))["piles"] != state["piles"]
    assert json.loads(state_json(old))["piles"] != state["piles"]


def play_on(game, steps, seed):
    """Random legal moves, ticks and computer replies; the states every 300 steps and how
    many of the steps drew from the generator. This is the procedure that wrote
    tests/golden/records/NAME.continued.json on the build before the combined generator."""
    rand = random.Random(seed)
    out = array("i", [0] * max(game.MAX_MOVES, 256))
    states = [state_json(game)]
    draws = 0
    for step in range(1, steps + 1):
        before = game.vars[V_RNG]
        game.tick(rand.randrange(700))
        n = game.legal_moves(out)
        if n and game.status() == PLAYING:
            game.apply(out[rand.randrange(n)])
            game.respond()
        elif n:
            game.apply(out[rand.randrange(n)])
        if game.vars[V_RNG] != before:
            draws += 1
        if step % 300 == 0:
            states.append(state_json(game))
    return states, draws


def resumed(data):
    disk = MemoryStorage()
    disk.write("game.dat", data, len(data))
    keeper = Keeper(disk)
    keeper.start()
    return keeper, keeper.resume()


@pytest.mark.parametrize("name, continued", [("spite_malice", "spite_malice.continued-alone.json"),
                                             ("nerts", "nerts.continued.json")])
def test_a_game_saved_by_an_older_build_plays_on_exactly_as_that_build_played_it(name, continued):
    # Spite & Malice shuffles set-aside stacks into the stock and Nerts turns its stock over
    # shuffled: both draw from the Lehmer generator that dealt the game, as the old build did.
    # Spite & Malice's computer now plays other moves than the build that wrote
    # NAME.continued.json (its hard level samples the opponent's cards): the old record
    # resumes as that build left it, and plays on with both seats moved by the procedure
    # (NAME.continued-alone.json, written when the computer changed).
    with open(os.path.join(GOLDEN, "records", name + ".game.dat"), "rb") as f:
        _, game = resumed(f.read())
    assert game.vars[V_DEALER] == rng.LEHMER
    with open(os.path.join(GOLDEN, "records", name + ".continued.json")) as f:
        assert state_json(game) == json.load(f)["states"][0]
    if continued != name + ".continued.json":
        game.bots = False
    with open(os.path.join(GOLDEN, "records", continued)) as f:
        expected = json.load(f)
    states, draws = play_on(game, 1200, 7)
    assert draws == expected["draws"] and draws > 0
    assert states == expected["states"]


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("generator", [rng.LEHMER, rng.COMBINED, rng.SPECTRAL])
def test_a_saved_game_resumes_with_the_generator_that_dealt_it(name, generator):
    cls = games.load(name)
    game = cls(cls.MIN_PLAYERS)
    game.deal(20, generator)
    play_on(game, 30, 1)
    disk = MemoryStorage()
    keeper = Keeper(disk)
    keeper.start()
    assert keeper.save_game(game) == r.SAVED
    again = Keeper(disk)
    again.start()
    back = again.resume()
    assert back.vars[V_DEALER] == generator and state_json(back) == state_json(game)
    assert play_on(back, 200, 2) == play_on(game, 200, 2)


@pytest.mark.parametrize("dealer, state2", [(3, 5), (-1, 5), (rng.LEHMER, 5), (rng.COMBINED, 0),
                                            (rng.COMBINED, rng.M2), (rng.SPECTRAL, 0), (rng.SPECTRAL, rng.M2)])
def test_a_record_naming_an_unknown_generator_or_an_impossible_state_is_set_aside(dealer, state2):
    game = games.load("spite_malice")(2)
    game.deal(3)
    game.vars[V_DEALER] = dealer
    game.vars[V_RNG2] = state2
    disk = MemoryStorage()
    keeper = Keeper(disk)
    keeper.start()
    keeper.save_game(game)
    again = Keeper(disk)
    again.start()
    assert again.resume() is None
    assert again.take_notice() != ""


def test_load_takes_the_generator_and_both_states_and_refuses_bad_ones():
    s = ProtocolSession()
    assert s.command("new spite_malice seed=5") == "ok"
    state = json.loads(s.command("state"))
    assert s.command("load " + json.dumps(state)) == "ok"
    assert json.loads(s.command("state")) == state
    moves = s.command("moves").split()
    t = ProtocolSession()
    assert t.command("new spite_malice seed=5") == "ok"
    for move in moves[:3]:
        assert s.command(move) == t.command(move)
        assert s.command("state") == t.command("state")
    for key, value, error in (("generator", "mersenne", "generator must be one of lehmer, combined, spectral"),
                              ("rng2", 0, "rng2 must be in 1.."),
                              ("rng2", rng.M2, "rng2 must be in 1..")):
        bad = dict(state)
        bad[key] = value
        assert s.command("load " + json.dumps(bad)).startswith("error: load: " + error)
    lehmer = dict(state)
    del lehmer["generator"]
    assert s.command("load " + json.dumps(lehmer)) == "error: load: rng2 belongs to the combined generator"
    del lehmer["rng2"]
    assert s.command("load " + json.dumps(lehmer)) == "ok"
    assert "generator" not in json.loads(s.command("state"))


@pytest.mark.parametrize("generator", [rng.COMBINED, rng.SPECTRAL])
def test_undo_restores_both_states_of_a_two_stream_generator(generator):
    game = games.load("aces_up")()
    game.deal(1, generator)
    for x1, x2 in ((rng.M1 - 1, rng.M2 - 1), (1 << 29, 1), ((1 << 29) - 1, 12345)):
        game.vars[V_RNG] = x1
        game.vars[V_RNG2] = x2
        game.history.begin(0)
        game.random_below(52)
        assert game.vars[V_RNG] != x1 and game.vars[V_RNG2] != x2
        assert game.undo()
        assert (game.vars[V_RNG], game.vars[V_RNG2]) == (x1, x2)


@pytest.mark.parametrize("name", ["aces_up", "sir_tommy", "casket"])
def test_winnable_tables_name_the_generator_new_games_are_dealt_with(name):
    table = winnable.table(name)
    assert table is not None and table.GENERATOR == rng.NAMES[rng.SPECTRAL]


def test_a_winnable_table_of_another_generator_counts_as_none(monkeypatch):
    from engine_core.ai import winnable_aces_up as t
    monkeypatch.setattr(t, "GENERATOR", "combined")
    assert winnable.table("aces_up") is None and winnable.seed_for("aces_up", 3) == -1


def test_a_link_offer_from_a_console_that_deals_with_the_lehmer_generator_is_refused():
    # Message version 1 consoles deal a seed with the Lehmer generator: the two tables would differ.
    from engine_core.link import session as ls
    from support.fakes.link import FakeWire
    assert ls.VERSION == 3
    wire = FakeWire()
    guest = ls.Session(wire.end(1))
    guest.join(0)
    d = bytes([1, games.game_id("spite_malice"), 1, 2, 0, 0, 0, 0, 0, 0, 0, 9, 1, 2])
    wire.end(0).open_table(0x77, ls.K_OFFER, d, len(d))
    assert not guest.poll(10) & ls.OFFER
    assert guest.tables.count == 0 and guest.rejected == 1  # not listed: it cannot be joined


def offer_of_version(version, seed):
    d = bytearray([version, games.game_id("spite_malice"), 1, 2, 0, 0, 0, 0, 0, 0, 0, 0, 1, 2])
    r.put_i32(d, 8, seed)
    return bytes(d)


@pytest.mark.parametrize("version, generator", [(2, rng.COMBINED), (3, rng.SPECTRAL)])
def test_a_table_of_the_build_before_is_joined_and_dealt_as_its_host_deals(version, generator):
    # A version-2 host deals with the combined generator: this console joins it and deals the
    # same game, answering in the host's version; a table of this build deals with the spectral one.
    from engine_core.link import session as ls
    from support.fakes.link import FakeWire
    wire = FakeWire()
    guest = ls.Session(wire.end(1))
    guest.join(0)
    d = offer_of_version(version, 12345)
    host = wire.end(0)
    host.open_table(0x77, ls.K_OFFER, d, len(d))
    assert guest.poll(10) & ls.OFFER and guest.tables.count == 1
    game = games.load("spite_malice")(2)
    assert guest.accept(game, 20)
    expected = games.load("spite_malice")(2)
    expected.deal(12345, generator)
    assert game.vars[V_DEALER] == generator and state_json(game) == state_json(expected)
    accepts = [item for item in wire.queues[0] if item[0] == ls.K_ACCEPT]
    assert len(accepts) == 1 and accepts[0][1][0] == version
