"""Hints, auto-play and 'finish' of the patience games (engine_core/ai)."""

import random
from array import array

import pytest

from engine_core import PLAYING, games
from tests.helpers import RUNTIMES, Driver, protocol, run_mpy_ok
from tests.test_aces_up import position

# The patience games: every one-player game of the registry (a game that fails to load fails here).
PATIENCE = [name for name in games.names() if games.load(name).MAX_PLAYERS == 1]
# Deals per check: a Casket hint scores up to 40 moves on the game itself, so fewer of those.
DEALS = {"aces_up": 40, "sir_tommy": 20, "casket": 8}


def random_positions(name, deals, seed=1, follow_hints=0.6):
    """Positions of play that mixes hints and random legal moves; yields each game position."""
    cls = games.load(name)
    game = cls()
    out = array("i", [0] * cls.MAX_MOVES)
    rnd = random.Random(seed)
    for deal in range(deals):
        game.deal(deal)
        for _ in range(300):
            if game.status() != PLAYING:
                break
            yield game
            if rnd.random() < follow_hints and game.hint() >= 0:
                game.apply(game.hint())
            else:
                n = game.legal_moves(out)
                if n == 0:
                    break
                game.apply(out[rnd.randrange(n)])


@pytest.mark.parametrize("name", PATIENCE)
def test_the_hint_never_suggests_an_illegal_move(name):
    checked = 0
    for game in random_positions(name, DEALS[name]):
        m = game.hint()
        n = game.legal_moves(game.scratch)
        if n == 0:
            assert m == -1
        elif m >= 0:
            assert game.is_legal(m), game.move_token(m)
        else:
            # Only Casket may advise none while moves remain: when none of them gains anything
            # (they could go round in circles); the others always name a move.
            assert name == "casket"
        checked += 1
    assert checked > 100


@pytest.mark.parametrize("name", PATIENCE)
def test_safe_and_finish_moves_are_legal(name):
    for game in random_positions(name, DEALS[name], seed=2):
        for m in (game.safe_move(), game.finish_move()):
            if m >= 0:
                assert game.is_legal(m), game.move_token(m)


@pytest.mark.parametrize("name", PATIENCE)
def test_asking_for_a_hint_changes_nothing(name):
    from engine_core.protocol import state_json
    for game in random_positions(name, DEALS[name] // 4, seed=3):
        before = state_json(game)
        moves = game.history.moves
        game.hint()
        game.safe_move()
        game.finish_move()
        assert state_json(game) == before and game.history.moves == moves


@pytest.mark.parametrize("name", PATIENCE)
def test_auto_play_makes_ordinary_moves_that_undo_one_at_a_time(name):
    from engine_core.protocol import state_json
    for game in random_positions(name, 4 * DEALS[name], seed=4):
        if game.safe_move() < 0:
            continue
        states = [state_json(game)]
        moves = game.history.moves
        made = game.auto_play()
        assert made >= 1 and game.history.moves == moves + made
        assert game.safe_move() < 0 or game.status() != PLAYING
        for _ in range(made):
            assert game.undo()
        assert state_json(game) == states[0]
        return
    pytest.fail("no position with a safe move")


def test_a_game_without_safe_moves_auto_plays_nothing():
    class Bare(games.load("aces_up")):
        def safe_move(self):
            return -1
    game = Bare()
    game.deal(15)
    assert game.auto_play() == 0 and game.finish() == 0


# Aces Up: discards are the safe moves; finish plays a won ending.

def aces_driver(cols, stock=()):
    d = Driver("new aces_up")
    assert d.load(position(cols, stock)) == "ok"
    return d


def test_aces_up_auto_play_discards_at_once_and_undo_takes_one_back():
    d = aces_driver([["2H", "9H"], [], ["KH"], ["3D"]], stock=["2S", "3S", "4S", "6S"])
    assert d.ok("auto on") == "ok"
    p = d.piles()
    assert p["col1"] == [] and p["discard"][-2:] == ["9H", "2H"]
    assert d.ok("undo") == "ok"
    assert d.piles()["col1"] == ["2H"]
    assert d.ok("undo") == "ok"
    assert d.piles()["col1"] == ["2H", "9H"]


def test_aces_up_auto_play_discards_after_each_move():
    d = aces_driver([["5D", "9C"], [], ["KD"], ["3S"]], stock=["2S", "4S", "6S", "7S"])
    assert d.ok("auto on") == "ok"
    assert d.piles()["col1"] == ["5D", "9C"]  # nothing to discard yet
    assert d.ok("move col1>col2") == "ok"
    p = d.piles()
    assert p["col1"] == [] and p["col2"] == ["9C"] and p["discard"][-1] == "5D"
    assert d.ok("undo") == "ok"
    assert d.piles()["col1"] == ["5D"]
    assert d.ok("undo") == "ok"
    assert d.piles()["col1"] == ["5D", "9C"]


def test_auto_play_is_off_until_asked_and_can_be_turned_off():
    d = aces_driver([["2H", "9H"], [], ["KH"], ["3D"]], stock=["2S", "3S", "4S", "6S"])
    assert d.piles()["col1"] == ["2H", "9H"]
    assert d.ok("auto on") == "ok" and d.ok("auto off") == "ok"
    d.expect_error("auto maybe")
    d.ok("undo")
    d.ok("undo")
    assert d.ok("move col1>col2") == "ok"
    assert d.piles()["col2"] == ["9H"]


def test_finish_is_refused_while_the_game_is_not_clearly_won():
    d = Driver("new aces_up seed=15")
    assert d.expect_error("finish") == "error: the game is not clearly won yet"


def test_finish_plays_a_won_ending_and_undo_takes_it_back_step_by_step():
    # Stock empty: AC goes to the empty column, AD shows, 5D is discarded: won.
    d = aces_driver([["AH"], ["AS", "5D"], [], ["AD", "AC"]])
    before = d.state()
    assert d.ok("finish") == "ok"
    after = d.state()
    assert after["status"] == "won"
    assert d.ok("undo") == "ok" and d.state()["piles"]["col2"] == ["AS", "5D"]
    assert d.ok("undo") == "ok" and d.state() == before


def test_finish_is_refused_when_the_ending_is_lost():
    # Stock empty; either card that can fill col3 leaves 5D or KS stuck for good.
    d = aces_driver([["AH"], ["AS", "5D"], [], ["AD", "KS", "AC"]])
    assert d.state()["status"] == "playing" and d.moves() == ["col2>col3", "col4>col3"]
    d.expect_error("finish")


def test_the_hint_discards_first():
    d = aces_driver([["5H"], ["9H"], ["2C"], ["3S"]])
    assert d.ok("hint") == "col1>discard"


def test_the_hint_opens_the_column_that_frees_a_discard():
    # 3H to col3 is discarded at once (AH shows), col3 opens again, AC goes there, AD shows and
    # takes 5D: two discards. Filling col3 from the deepest column (col2) frees nothing.
    d = aces_driver([["AH", "3H"], ["7C", "AS", "5D"], [], ["AD", "AC"]], stock=["2S", "3S", "4S", "6S"])
    assert d.moves() == ["col1>col3", "col2>col3", "col4>col3"]
    assert d.ok("hint") == "col1>col3"


WINNABLE_LINES = ["new aces_up winnable=1 seed=3", "state", "auto on", "moves", "hint",
                  "new aces_up seed=15", "auto on", "state", "move col3>discard", "undo", "undo",
                  "state", "finish", "auto off", "hint", "moves"]


@pytest.mark.parametrize("runtime", RUNTIMES)
def test_auto_finish_and_winnable_deals_behave_the_same_on_both_runtimes(runtime):
    cpython = protocol(WINNABLE_LINES, "cpython")
    assert protocol(WINNABLE_LINES, runtime) == cpython
    assert cpython[0] == "ok" and '"status": "playing"' in cpython[1]


LOCKED = """
import gc, micropython
from array import array
from engine_core import PLAYING, games, rng

cls = games.load(NAME)
game = cls()
out = array("i", [0] * cls.MAX_MOVES)
x = 99
made = 0
result = "not run"
gc.collect()
micropython.heap_lock()
try:
    for step in range(STEPS):
        x = rng.step(x)
        if game.status() != PLAYING:
            game.deal(x % 5000)
            continue
        made += game.auto_play()
        if game.finish_move() >= 0:
            made += game.finish()
            continue
        n = game.legal_moves(out)
        if n == 0:
            game.deal(x % 5000)
        elif x % 5 == 0 and game.can_undo():
            game.undo()
        elif x % 3 == 0:
            m = game.hint()
            if m >= 0:
                game.apply(m)
        else:
            game.apply(out[(x >> 4) % n])
    result = "no allocation"
except MemoryError:
    result = "allocated"
micropython.heap_unlock()
print(result, made > 0)
"""


@pytest.mark.parametrize("name", PATIENCE)
def test_hints_auto_play_and_finish_allocate_nothing_under_heap_lock(name):
    steps = {"aces_up": 1500, "sir_tommy": 1500, "casket": 300}[name]
    code = LOCKED.replace("NAME", repr(name)).replace("STEPS", str(steps))
    assert run_mpy_ok(code).strip() == "no allocation True"


@pytest.mark.parametrize("name", PATIENCE + ["casket:1"])
def test_a_hint_stops_at_its_work_limit_with_a_legal_move(name):
    import sys
    from engine_core.protocol import load_state
    from tools.bench.bench_hints import STRESS
    game = load_state(STRESS[name], None)
    limit = sys.modules[type(game.advisor).__module__].NODE_LIMIT
    m = game.hint()
    assert game.is_legal(m)
    assert 0 < game.advisor.work <= limit + 52  # the last move may carry a run of discards
    if name != "sir_tommy":  # Sir Tommy's work is fixed by the position, not cut short
        assert game.advisor.work >= limit


@pytest.mark.parametrize("name, seeds", [("sir_tommy", (14, 18, 31)), ("casket", (10, 63, 71))])
def test_finish_accepted_wins_the_game(name, seeds):
    # docs/protocol.md: `finish` answers ok "after playing a win that is certain to its end".
    # It played foundation moves in a greedy order that had called the position won and then
    # stuck half way (two cards wanting one foundation, the wrong one first), answering ok with
    # the game still in play: these deals, played by the hint until finish is taken, did so.
    from engine_core.protocol import ProtocolSession
    for seed in seeds:
        s = ProtocolSession()
        assert s.command("new %s winnable=1 seed=%d" % (name, seed)) == "ok"
        for _ in range(400):
            before = s.command("state")
            reply = s.command("finish")
            if reply == "ok":
                break
            assert reply == "error: the game is not clearly won yet" and s.command("state") == before
            hint = s.command("hint")
            assert hint != "none", (name, seed)
            assert s.command("move " + hint) == "ok"
        assert reply == "ok", (name, seed)
        assert '"status": "won"' in s.command("state"), (name, seed)


@pytest.mark.parametrize("name", ["sir_tommy", "casket"])
def test_every_finish_taken_along_the_hints_play_ends_won(name):
    # Winnable deals played by the hint, finish tried after every move: whenever it is taken
    # the game is won; whenever it is refused the position is as it was.
    from engine_core.protocol import ProtocolSession
    s = ProtocolSession()
    taken = 0
    for seed in range(60):
        assert s.command("new %s winnable=1 seed=%d" % (name, seed)) == "ok"
        for _ in range(400):
            hint = s.command("hint")
            if hint == "none" or s.command("move " + hint) != "ok":
                break
            before = s.command("state")
            if s.command("finish") == "ok":
                assert '"status": "won"' in s.command("state"), (name, seed)
                taken += 1
                break
            assert s.command("state") == before, (name, seed)
    assert taken >= 8, taken  # (the hint wins some of these deals: 11 of Sir Tommy's, more of Casket's)


@pytest.mark.parametrize("name", ["sir_tommy", "casket"])
def test_the_finish_search_keeps_within_a_hints_fuel_on_micropython(name):
    # finish_move searches the orders of the last plays (engine_core/ai/takedown.py); bounded in
    # plays, its worst over the bench's deals stays within the 17 M fuel of a hint (unbounded,
    # 1,340 M in a Casket position of those deals).
    from tools.bench import bench_hints
    worst = bench_hints.figures(name)["worst"]["finish_move"]
    assert 0 < worst <= bench_hints.BUDGET, worst
