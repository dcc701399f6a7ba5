"""The host solvers (tools/solvers/solve.py), the statistics tool and the winnable-deal tables."""

import csv
import importlib
import json
import os
import shutil

import pytest

from engine_core import PLAYING, WON, games, rng
from engine_core.ai import winnable
from tests.helpers import Driver
from tools.solvers import native, solve, stats

# Every game the solvers know, whether or not it loads: one that does not is a failure below,
# never a game quietly left out of the samples.
SOLVABLE = list(solve.SOLVED)
# Small samples: (seeds, node limit) per game; the big runs are tools/solvers/stats.py's.
SAMPLE = {"aces_up": (60, 200000), "sir_tommy": (25, 2000), "casket": (6, 8000)}
WITH_TABLE = [name for name in SOLVABLE if winnable.table(name) is not None]


def shipped_table(name):
    t = winnable.table(name)
    assert t is not None, "no table of winnable deals shipped for " + name
    return t


def test_every_game_the_solvers_know_is_in_the_registry_and_loads():
    missing = [name for name in SOLVABLE if name not in games.available()]
    assert not missing, "the solvers know games this build cannot load: " + ", ".join(missing)


@pytest.mark.parametrize("name", SOLVABLE)
def test_every_win_the_solver_reports_replays_to_a_win_on_the_engine(name):
    seeds, limit = SAMPLE[name]
    wins = 0
    for seed in range(seeds):
        won, moves, nodes = solve.solve_seed(name, seed, limit)
        assert nodes > 0
        if won:
            wins += 1
            assert solve.replay_wins(name, seed, moves), seed
    assert wins > 0


def test_the_casket_solver_plays_the_deal_s_rule_profile():
    # Profile 2 (stacking reserves): deal 0 is won and the win replays; under profile 1 no
    # deal has been won (docs/statistics.md), and the solver finds none either.
    module = solve.solver_module("casket")
    cls = games.load("casket")
    game = cls()
    game.deal(0)
    won, moves, nodes = module.solve(game, 8000)
    assert won is True and solve.replay_wins("casket", 0, moves)
    assert any(game.move_token(m).startswith("waste>res") for m in moves)
    one = cls()
    one.set_rules(1)
    one.deal(0)
    assert module.solve(one, 3000)[0] is not True


def test_casket_hints_win_more_than_half_of_what_the_solver_proves_winnable():
    # Seeds 0..19 under profile 2 (docs/statistics.md has the 10,000-deal figures).
    game = games.load("casket")()
    solver_wins = both = 0
    for seed in range(20):
        won = solve.solve_seed("casket", seed)[0]
        solver_wins += won is True
        both += won is True and stats.play_hints(game, seed)
    assert solver_wins >= 18 and both / solver_wins >= 0.5, (both, solver_wins)


def test_winnable_casket_deals_are_proven_under_profile_2_only():
    t = shipped_table("casket")
    assert t.RULES == 2
    d = Driver("new casket winnable=1 seed=3")
    assert d.state()["seed"] == winnable.nth_seed(t.BITS, t.FIRST, t.COUNT, 3) and d.state()["rules"] == 2
    reply = d.expect_error("new casket winnable=1 rules=1")
    assert reply == "error: the winnable deals of casket are proven under rules 2"


def test_the_casket_solver_wins_an_ending_and_leaves_the_game_as_it_was():
    from engine_core.protocol import load_state, state_json
    game = load_state(json.dumps(casket_ending()), None)
    before = state_json(game)
    won, moves, nodes = solve.solver_module("casket").solve(game, 1000)
    assert won is True and state_json(game) == before
    for m in moves:
        assert game.is_legal(m)
        game.apply(m)
    assert game.status() == WON


def casket_ending():
    """Five cards left: KS still in the stock, QH on KH in body1, KD in a reserve, KC on a lid."""
    rest = {"S": 12, "H": 11, "D": 12, "C": 12}
    piles = {"stock": ["#KS"], "waste": [], "jewels": []}
    for i in range(5):
        piles["lid%d" % (i + 1)] = []
    piles["lid1"] = ["KC"]
    for i in range(8):
        piles["body%d" % (i + 1)] = []
    piles["body1"] = ["KH", "QH"]
    piles["res1"] = ["KD"]
    piles["res2"] = []
    piles["res3"] = []
    f = 1
    for suit in "SHDC":
        for top in (13, rest[suit]):
            piles["found%d" % f] = ["A23456789TJQK"[r] + suit for r in range(top)]
            f += 1
    piles["found2"], piles["found3"] = piles["found3"], piles["found2"]
    return {"game": "casket", "rules": 1, "seed": 1, "status": "playing", "turn": None,
            "clock_ms": 0, "piles": piles, "score": {}, "rng": 12345}


@pytest.mark.parametrize("name", SOLVABLE)
def test_the_solver_gives_up_at_its_node_limit(name):
    won, moves, nodes = solve.solve_seed(name, 7, 3)
    assert won is None and moves is None and nodes <= 4


def test_aces_up_discarding_at_once_loses_no_win():
    # The solver makes discards as soon as they appear; searching them as ordinary choices
    # must reach the same verdict on every deal.
    module = solve.solver_module("aces_up")
    cls = games.load("aces_up")
    seen = {True: 0, False: 0}
    for seed in list(range(30)) + [15, 30, 34, 44, 64, 76]:
        a = cls()
        a.deal(seed)
        fast = module.solve(a, 10 ** 7)[0]
        full = module.solve(a, 10 ** 7, greedy_discards=False)[0]
        assert fast == full, seed
        seen[fast] += 1
    assert seen[True] and seen[False]


def test_aces_up_hints_win_only_winnable_deals_and_most_often_enough():
    # Following the hints wins a subset of what the solver proves winnable; over seeds
    # 0..399 that is 14 of 40 deals (35%; docs/statistics.md has the 10,000-deal figure).
    game = games.load("aces_up")()
    solver_wins = hint_wins = 0
    for seed in range(400):
        won = solve.solve_seed("aces_up", seed)[0]
        by_hints = stats.play_hints(game, seed)
        assert won is not None
        if by_hints:
            assert won, seed
            hint_wins += 1
        solver_wins += won
    assert solver_wins > 0
    assert hint_wins / solver_wins >= 0.15


def test_aces_up_sir_tommy_and_casket_ship_tables_of_winnable_deals():
    for name in ("aces_up", "sir_tommy", "casket"):
        t = shipped_table(name)
        assert t.DEALS >= 10000 and t.COUNT > 0


@pytest.mark.parametrize("name", WITH_TABLE)
def test_a_sample_of_the_shipped_winnable_seeds_is_solved_again(name):
    t = shipped_table(name)
    assert t.COUNT > 0 and len(t.BITS) * 8 >= t.DEALS
    count = 0
    for n in range(0, t.COUNT, max(1, t.COUNT // 12)):
        seed = winnable.nth_seed(t.BITS, t.FIRST, t.COUNT, n)
        assert winnable.is_winnable(t.BITS, t.FIRST, seed)
        won, moves, _ = solve.solve_seed(name, seed)
        assert won is True, seed
        assert solve.replay_wins(name, seed, moves)
        count += 1
    assert count >= 10


def test_the_aces_up_table_marks_exactly_the_solver_wins_of_its_first_seeds():
    t = shipped_table("aces_up")
    for seed in range(t.FIRST, t.FIRST + 150):
        won = solve.solve_seed("aces_up", seed)[0]
        assert winnable.is_winnable(t.BITS, t.FIRST, seed) == (won is True), seed


def test_winnable_deal_numbers_count_round_the_table():
    bits = bytes([0b00100100, 0, 0b10000000])  # seeds 102, 105, 123 of a table from 100
    assert [winnable.nth_seed(bits, 100, 3, n) for n in range(4)] == [102, 105, 123, 102]
    assert winnable.is_winnable(bits, 100, 123) and not winnable.is_winnable(bits, 100, 124)
    assert not winnable.is_winnable(bits, 100, 99) and not winnable.is_winnable(bits, 100, 130)


def test_new_game_with_winnable_deals_a_seed_of_the_table():
    t = shipped_table("aces_up")
    d = Driver("new aces_up winnable=1 seed=5")
    seed = d.state()["seed"]
    assert seed == winnable.nth_seed(t.BITS, t.FIRST, t.COUNT, 5)
    assert winnable.is_winnable(t.BITS, t.FIRST, seed)
    assert Driver("new aces_up winnable=1").state()["seed"] == winnable.nth_seed(t.BITS, t.FIRST, t.COUNT, 1)
    d.expect_error("new aces_up winnable=2")


def test_winnable_is_refused_for_a_game_without_a_table(monkeypatch):
    monkeypatch.setattr(winnable, "table", lambda name: None)
    d = Driver("new aces_up seed=4")
    assert d.expect_error("new aces_up winnable=1") == "error: no table of winnable deals for aces_up"
    assert winnable.seed_for("aces_up", 0) == -1


def test_stats_writes_a_table_a_plot_and_a_summary(tmp_path, capsys):
    assert stats.main(["aces_up", "--deals", "25", "--start", "10", "--out", str(tmp_path), "--quiet"]) == 0
    out = capsys.readouterr().out
    assert "hint player:" in out and "solver:" in out and "95% CI" in out and "deals/s" in out
    with open(tmp_path / "aces_up.csv") as f:
        rows = list(csv.DictReader(f))
    assert [int(r["seed"]) for r in rows] == list(range(10, 35))
    assert {r["solver"] for r in rows} <= {"won", "lost", "unknown"}
    from PIL import Image
    with Image.open(tmp_path / "aces_up.png") as img:
        assert img.size == (900, 420)


def test_wilson_interval_brackets_the_rate():
    low, high = stats.wilson(109, 1000)
    assert 0.09 < low < 0.109 < high < 0.13
    assert stats.wilson(0, 50)[0] == 0.0


def test_the_table_writer_round_trips_through_python(tmp_path):
    from tools.solvers import winnable_table
    seeds = [3, 8, 9, 92, 99]
    literal = winnable_table.wrap(repr(winnable_table.bitmap(0, seeds, 100)), width=7)
    bits = eval(literal)
    assert [s for s in range(100) if winnable.is_winnable(bits, 0, s)] == seeds
    importlib.invalidate_caches()


def _exhaustive_wins(game, lost):
    """A plain search over the engine's own moves (legal_moves, apply, undo), every card told
    apart, with a table of positions found lost: True when some line wins."""
    status = game.status()
    if status == WON:
        return True
    if status != PLAYING:
        return False
    piles = game.piles
    k = tuple(tuple(piles.card(p, i) for i in range(piles.size[p])) for p in range(len(piles.size)))
    if k in lost:
        return False
    out = [0] * game.MAX_MOVES
    for m in out[:game.legal_moves(out)]:
        game.apply(m)
        won = _exhaustive_wins(game, lost)
        game.undo()
        if won:
            return True
    lost.add(k)
    return False


# Sir Tommy endings (the hint player's deal of each seed, four stock cards left), by (generator,
# seed): the Lehmer generator's deals these were first chosen on (seed 27's ending is won only
# by leaving a playable card on its holding pile: a solver that makes every foundation move at
# once calls it lost), and today's deals.
L, C = rng.LEHMER, rng.COMBINED
SIR_TOMMY_ENDINGS = {(L, 2): False, (L, 5): False, (L, 7): False, (L, 12): False, (L, 13): True,
                     (L, 14): False, (L, 18): False, (L, 19): True, (L, 24): True, (L, 27): True,
                     (C, 0): False, (C, 1): True, (C, 2): False, (C, 6): True, (C, 7): True,
                     (C, 8): False, (C, 14): True, (C, 21): True, (C, 23): True, (C, 25): True}


def sir_tommy_ending(key, stock_left=4):
    """The hint player's deal of key = (generator, seed), played until `stock_left` cards are
    in the stock."""
    game = games.load("sir_tommy")()
    game.deal(key[1], key[0])
    while game.status() == PLAYING and game.piles.size[0] > stock_left:
        game.apply(game.hint())
    return game


def test_sir_tommy_verdicts_agree_with_a_plain_search_over_the_engine_moves():
    module = solve.solver_module("sir_tommy")
    for seed, expected in SIR_TOMMY_ENDINGS.items():
        game = sir_tommy_ending(seed)
        won, moves, _ = module.solve(game, 10 ** 6, proof_nodes=10 ** 6)
        assert _exhaustive_wins(game, set()) == expected, seed
        assert won == expected, seed
        if won:
            for m in moves:
                assert game.is_legal(m), seed
                game.apply(m)
            assert game.status() == WON, seed


# Lost endings (as above) in which a holding-pile card can never pass: the dead-end rule
# calls them lost at once; the plain search takes under half a second on each.
SIR_TOMMY_DEAD_ENDINGS = tuple((L, seed) for seed in (1, 2, 5, 7, 11, 12, 14, 18, 20, 23)) + tuple(
    (C, seed) for seed in (2, 4, 9, 10, 12, 18))


def test_sir_tommy_dead_end_rule_calls_only_lost_endings_lost():
    module = solve.solver_module("sir_tommy")
    for seed in SIR_TOMMY_DEAD_ENDINGS:
        game = sir_tommy_ending(seed)
        deal = module.Deal(game, 1)
        assert module.dead_end(deal.heights, deal.piles, deal.pools[0]), seed
        assert not _exhaustive_wins(game, set()), seed
    for seed, won in SIR_TOMMY_ENDINGS.items():
        if won:
            deal = module.Deal(sir_tommy_ending(seed), 1)
            assert not module.dead_end(deal.heights, deal.piles, deal.pools[0]), seed


def test_an_unsound_sir_tommy_dead_end_rule_is_caught_by_the_plain_search(monkeypatch):
    # The cross-check above can fail: a rule that forgets the other cards of a rank (any card
    # above a lower one is stuck) calls won endings lost.
    module = solve.solver_module("sir_tommy")
    sound = module.dead_end

    def eager(heights, piles, pool):
        if sound(heights, piles, pool):
            return True
        return any(pile[i] > pile[i - 1] for pile in piles for i in range(1, len(pile)))

    monkeypatch.setattr(module, "dead_end", eager)
    wrong = []
    for seed, expected in SIR_TOMMY_ENDINGS.items():
        game = sir_tommy_ending(seed)
        if module.solve(game, 10 ** 6, proof_nodes=10 ** 6)[0] != _exhaustive_wins(game, set()):
            wrong.append(seed)
    assert wrong


def test_sir_tommy_wins_replay_through_the_protocol_tokens():
    # Each win is sent move by move as the protocol's own words and ends the game won.
    wins = 0
    for seed in range(12):
        won, moves, _ = solve.solve_seed("sir_tommy", seed, 60000)
        if not won:
            continue
        wins += 1
        game = games.load("sir_tommy")()
        game.deal(seed)
        d = Driver("new sir_tommy seed=%d" % seed)
        for m in moves:
            token = game.move_token(m)
            assert token == "draw" or token.startswith(("current>found", "current>res", "res")), token
            assert d.ok("move " + token) == "ok", (seed, token)
            game.apply(m)
        assert d.state()["status"] == "won", seed
    assert wins >= 6


def test_sir_tommy_rollouts_win_from_part_way_through_a_deal():
    # From a position the hint player reached, with or without a current card (then the
    # line starts with a draw), the rollout searches alone (no proof search) find wins that
    # play out on the engine.
    module = solve.solver_module("sir_tommy")
    starts = {True: 0, False: 0}
    wins = 0
    for seed in range(10):
        game = games.load("sir_tommy")()
        game.deal(seed)
        for _ in range(12 + seed % 2):
            game.apply(game.hint())
        with_current = game.piles.size[1] > 0
        starts[with_current] += 1
        won, moves, _ = module.solve(game, 60000, proof_nodes=0)
        if won:
            wins += 1
            for m in moves:
                assert game.is_legal(m), seed
                game.apply(m)
            assert game.status() == WON, seed
    assert starts[True] and starts[False] and wins >= 4, (starts, wins)


def test_the_compiled_sir_tommy_searches_are_the_python_searches():
    # tools/solvers/sir_tommy_rollouts.c is the Python Rollouts class compiled: each search,
    # from the deal's start and from part way through (with and without a current card),
    # gives the same line and stops after the same number of nodes, at the limit or not.
    if shutil.which("cc") is None and shutil.which("gcc") is None:
        # CI (the CI variable set, as .ci/run does) has a compiler: there a skip is a failure.
        if os.environ.get("CI"):
            pytest.fail("no C compiler (cc or gcc): the compiled Sir Tommy searches were not checked")
        pytest.skip("COMPILED SOLVER NOT TESTED: no C compiler (cc or gcc) on PATH")
    module = solve.solver_module("sir_tommy")
    lib = native.library()
    assert lib is not None  # a compiler is here, so the build must work
    outcomes = set()
    for seed in range(8):
        for played in (0, 9, 10):
            game = games.load("sir_tommy")()
            game.deal(seed)
            for _ in range(played):
                game.apply(game.hint())
            for policy, width in ((0, 0), (1, 0), (0, 5), (1, 16)):
                for limit in (700, 40000):
                    answers = []
                    for compiled in (None, lib):
                        deal = module.Deal(game, limit)
                        try:
                            line = module.rollout_search(deal, policy, width, compiled)
                        except module.Limit:
                            line = "limit"
                        answers.append((line, deal.nodes))
                    assert answers[0] == answers[1], (seed, played, policy, width, limit)
                    line = answers[0][0]
                    outcomes.add("limit" if line == "limit" else line is not None)
    assert outcomes == {True, False, "limit"}, outcomes


def test_the_sir_tommy_searches_tool_replays_the_solver_s_own_sequence(capsys):
    # tools/solvers/sir_tommy_searches.py chose SEARCHES and the limit by replaying each
    # search's lone run as the solver chains them: that replay must give the solver's verdict.
    from tools.solvers import sir_tommy_searches
    module = solve.solver_module("sir_tommy")
    limit = 30000
    verdicts = []
    for seed in range(12):
        game = games.load("sir_tommy")()
        game.deal(seed)
        won = module.solve(game, limit, proof_nodes=0)[0] is True
        assert sir_tommy_searches.sequence([sir_tommy_searches.runs(seed, limit)], limit) == won, seed
        verdicts.append(won)
    assert True in verdicts and False in verdicts
    assert sir_tommy_searches.main(["--deals", "3", "--node-limit", "5000", "--limits", "5000,9000"]) == 0
    out = capsys.readouterr().out
    assert "policy 1, beam  4096 wide" in out and "5000 nodes:" in out and "above --node-limit" in out


def _need_compiler():
    if shutil.which("cc") is None and shutil.which("gcc") is None:
        if os.environ.get("CI"):
            pytest.fail("no C compiler (cc or gcc): the compiled Sir Tommy searches were not checked")
        pytest.skip("COMPILED SOLVER NOT TESTED: no C compiler (cc or gcc) on PATH")


def test_the_sir_tommy_second_pass_table_covers_the_undecided_deals_and_its_wins_replay():
    # docs/stats/sir_tommy_hard.csv has a row for each deal sir_tommy.csv left undecided; the
    # cheapest wins of its wide beams are found again and replayed on the engine (the
    # combined generator's deals, as the table).
    from tools.solvers import sir_tommy_hard
    _need_compiler()
    with open(sir_tommy_hard.OUT) as f:
        rows = list(csv.DictReader(f))
    assert sorted(int(r["seed"]) for r in rows) == sorted(sir_tommy_hard.undecided(sir_tommy_hard.TABLE))
    assert {r["verdict"] for r in rows} <= {"won", "lost", "undecided"}
    beam_wins = sorted((int(r["nodes"]), int(r["seed"]), r["search"]) for r in rows if r["search"].startswith("beam"))
    for _, seed, how in beam_wins[:2]:
        width, policy = int(how.split()[1]), int(how.split()[3])
        moves, found, _ = sir_tommy_hard.beams(seed, ((policy, width),))
        assert found == how and sir_tommy_hard.replays(seed, moves), seed


def test_a_second_pass_again_replaces_only_the_rows_still_undecided_and_keeps_their_earlier_effort(tmp_path):
    # --again searches the deals its table leaves undecided (here only those of --seeds) with
    # the widths given, and writes the table back in seed order with the earlier nodes and time
    # added to each row it searched; the other rows are left as they were.
    from tools.solvers import sir_tommy_hard
    _need_compiler()
    out = str(tmp_path / "hard.csv")
    header = "seed,verdict,search,nodes,seconds\n"
    rows = ["5,undecided,-,1000,1.00\n", "2,undecided,-,500,0.50\n", "3,won,beam 9 policy 1,7,0.01\n"]
    with open(out, "w") as f:
        f.write(header + "".join(rows))
    assert sir_tommy_hard.main(["--again", "--seeds", "5,3", "--widths", "64", "--late-nodes", "0",
                                "--out", out]) == 0
    with open(out) as f:
        table = list(csv.DictReader(f))
    assert [r["seed"] for r in table] == ["2", "3", "5"]
    assert table[0] == {"seed": "2", "verdict": "undecided", "search": "-", "nodes": "500", "seconds": "0.50"}
    assert table[1]["search"] == "beam 9 policy 1" and table[1]["nodes"] == "7"
    moves, found, nodes = sir_tommy_hard.beams(5, ((0, 64),))
    assert table[2]["verdict"] == "won" and table[2]["search"] == found == "beam 64 policy 0"
    assert int(table[2]["nodes"]) == 1000 + nodes and float(table[2]["seconds"]) >= 1.0
    assert sir_tommy_hard.replays(5, moves)


def test_the_late_ace_search_wins_a_formerly_undecided_deal_on_the_engine():
    # Seed 9317 of the combined generator turns its first Ace as card 45; the 10,000-deal run
    # left it undecided and the late-Ace search wins it in about 24,000 nodes.
    from tools.solvers import sir_tommy_hard, sir_tommy_late
    _need_compiler()
    won, moves, nodes = sir_tommy_late.solve_seed(9317, table_bits=20)
    assert won is True and nodes < 100000
    assert sir_tommy_hard.replays(9317, moves)

