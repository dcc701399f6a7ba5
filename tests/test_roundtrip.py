"""What `load` accepts and what play reaches agree: a position reached by play loads again,
from dealt games and from positions built by mutating valid states (tools/reliability/roundtrip.py), on
both runtimes."""

import json

import pytest

from engine_core import games
from tests.helpers import Driver, run_mpy_ok
from tools.reliability import roundtrip


def test_a_column_grown_past_13_by_the_deals_of_a_loaded_stock_loads_again():
    # col1 holds 13 cards topped by 2C and the stock 36: `deal` is legal and makes col1 14.
    names = [r + s for s in "SHDC" for r in "A23456789TJQK"]
    col1 = ["KS", "QS", "JS", "TS", "9S", "8S", "7S", "6S", "5S", "4S", "3S", "AS", "2C"]
    cols = {"col1": col1, "col2": ["2S"], "col3": ["2H"], "col4": ["2D"]}
    held = set(sum(cols.values(), []))
    rest = [c for c in names if c not in held]
    state = {"game": "aces_up", "rules": 1, "seed": 1, "status": "playing", "turn": None,
             "clock_ms": 0, "piles": dict(stock=["#" + c for c in rest[:36]], discard=rest[36:], **cols),
             "score": {}, "rng": 12345}
    d = Driver("new aces_up")
    assert d.load(state) == "ok"
    assert d.moves() == ["deal"]
    assert d.ok("move deal") == "ok"
    after = d.ok("state")
    assert len(json.loads(after)["piles"]["col1"]) == 14
    e = Driver()
    assert e.ok("load " + after) == "ok" and e.ok("state") == after


@pytest.mark.parametrize("name", games.names())
def test_every_state_play_reaches_from_dealt_or_mutated_positions_loads_again(name):
    cls = games.load(name)
    for players in range(cls.MIN_PLAYERS, cls.MAX_PLAYERS + 1):
        checked, loaded, moved, failures = roundtrip.run(name, players, 40, 7)
        assert failures == [] and checked == 40 and moved > 0


def test_the_same_check_on_micropython_for_every_game():
    # A collection at the top between games, where it is safe (tools/mpy.py: one deep inside
    # a call can free live objects on this build), so none falls due in the middle of one.
    # Steps per game: fewer for the games whose positions take longer to check.
    steps = {"aces_up": 6, "spite_malice": 3, "nerts": 2}
    plan = tuple((name, games.load(name).MIN_PLAYERS, steps.get(name, 4)) for name in games.names())
    out = run_mpy_ok("import gc\nfrom tools.reliability import roundtrip\n"
                     "for name, players, steps in %r:\n"
                     "    gc.collect()\n"
                     "    r = roundtrip.run(name, players, steps, 2)\n"
                     "    print(name, r[0], r[2], len(r[3]))\n" % (plan,))
    lines = [line.split() for line in out.strip().split("\n")]
    assert [line[0] for line in lines] == games.names()
    assert [int(line[1]) for line in lines] == [p[2] for p in plan]
    for line in lines:
        assert int(line[2]) > 0 and line[3] == "0"
