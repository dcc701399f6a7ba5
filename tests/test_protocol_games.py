"""docs/protocol.md on every game: each command, the state JSON and bad input, for all five.

test_protocol.py goes through the protocol in depth on Aces Up; the games' own files test
their rule profiles. Here every sentence of the protocol that applies to all games is checked
on each of them.
"""

import io
import json
import random

import pytest

from engine_core import games
from engine_core.protocol import ProtocolSession, run
from tests.helpers import Driver, protocol, run_mpy_ok

GAMES = games.names()
KEYS = ["game", "rules", "seed", "status", "turn", "clock_ms", "piles", "score", "rng", "rng2", "generator"]
RANKS = "A23456789TJQK"
SUITS = "SHDC"

# What a fresh deal shows: the turn and the score of the state.
FRESH = {
    "aces_up": (None, {}),
    "sir_tommy": (None, {}),
    "casket": (None, {}),
    "spite_malice": ("p1", {"p1": 0, "p2": 0}),
    "nerts": (None, {"p1": 0, "p2": 0}),
}


def new(game, *more):
    """A session with a fresh game whose computer players wait (pure rules)."""
    return Driver("new " + game + " " + " ".join(more), "bots off")


def card_names(piles):
    return [c.lstrip("#") for pile in piles.values() for c in pile]


# new GAME [seed=N] [players=K] [jokers=1] [target=N]

@pytest.mark.parametrize("game", GAMES)
def test_new_answers_ok_and_the_seed_defaults_to_1(game):
    d = Driver()
    assert d.ok("new " + game) == "ok"
    assert d.state()["seed"] == 1
    assert d.ok("state") == Driver("new %s seed=1" % game).ok("state")
    assert d.ok("state") != Driver("new %s seed=2" % game).ok("state")


@pytest.mark.parametrize("game", GAMES)
def test_a_new_game_is_playing_with_the_clock_at_zero(game):
    s = Driver("new %s seed=7" % game).state()
    assert s["game"] == game and s["rules"] == (2 if game == "casket" else 1) and s["seed"] == 7
    assert s["status"] == "playing" and s["clock_ms"] == 0


@pytest.mark.parametrize("game", GAMES)
def test_a_bad_seed_or_option_gets_an_error_and_keeps_the_current_game(game):
    d = new(game, "seed=3")
    for line in ("new %s seed=x" % game, "new %s seed=-1" % game, "new %s seed=1073741824" % game,
                 "new %s players=9" % game, "new %s colour=red" % game, "new %s seed" % game,
                 "new chess", "new"):
        d.expect_error(line)


def test_players_default_to_the_fewest_the_game_is_played_by():
    assert [p for p in Driver("new spite_malice").piles() if p.startswith("p")][-1] == "p2.side4"
    assert [p for p in Driver("new nerts").piles() if p.startswith("p")][-1] == "p2.waste"
    piles = Driver("new nerts players=4").piles()
    assert "p4.waste" in piles and "found16" in piles and "found17" not in piles
    for game in ("aces_up", "sir_tommy", "casket"):
        assert Driver("new %s players=1" % game).ok("state") == Driver("new " + game).ok("state")


@pytest.mark.parametrize("game", GAMES)
def test_jokers_are_off_unless_asked_for(game):
    assert "JK" not in "".join(card_names(Driver("new " + game).piles()))


def test_jokers_1_adds_each_decks_two_jokers_in_nerts():
    names = card_names(Driver("new nerts players=3 jokers=1").piles())
    assert sorted(c for c in names if c.startswith("JK")) == ["JK1", "JK1", "JK2", "JK2", "JK3", "JK3"]
    assert Driver("new nerts jokers=0").ok("state") == Driver("new nerts").ok("state")


@pytest.mark.parametrize("game", ["aces_up", "sir_tommy", "casket", "spite_malice"])
def test_jokers_1_is_refused_by_a_game_played_without_jokers(game):
    reply = new(game).expect_error("new %s jokers=1" % game)
    assert reply == "error: %s is played without jokers" % game
    assert Driver("new %s jokers=0" % game).ok("state") == Driver("new " + game).ok("state")


@pytest.mark.parametrize("game", ["aces_up", "sir_tommy", "casket"])
def test_target_is_refused_by_a_game_without_a_score(game):
    assert new(game).expect_error("new %s target=50" % game) == "error: %s has no target score" % game


def test_target_is_an_option_of_the_competitive_games():
    for game in ("spite_malice", "nerts"):
        assert Driver("new %s target=30" % game).ok("state") == Driver("new " + game).ok("state")


# state

@pytest.mark.parametrize("game", GAMES)
def test_state_is_one_line_of_json_keys_in_order(game):
    text = Driver("new %s seed=5" % game).ok("state")
    assert "\n" not in text
    s = json.loads(text)
    assert list(s) == KEYS
    assert text == json.dumps(s)  # the form the protocol shows: ", " and ": " separators


@pytest.mark.parametrize("game", GAMES)
def test_turn_and_score_of_a_fresh_deal(game):
    s = Driver("new " + game).state()
    assert (s["turn"], s["score"]) == FRESH[game]


@pytest.mark.parametrize("game", GAMES)
def test_cards_are_written_rank_then_suit_face_down_with_a_hash(game):
    suffix = "12" if game == "nerts" else ""
    pattern = set(r + s + o for r in RANKS for s in SUITS for o in (suffix or [""]))
    d = Driver("new " + game)
    face_down = 0
    for pile in d.piles().values():
        for text in pile:
            face_down += text.startswith("#")
            assert text.lstrip("#") in pattern and text.count("#") <= 1 and text[1:2] != "#", text
    assert face_down > 0


@pytest.mark.parametrize("game", GAMES)
def test_piles_are_listed_bottom_to_top(game):
    # Moving a card puts it last in its destination's list.
    d = new(game, "seed=2")
    for _ in range(40):
        token = next((t for t in d.moves() if ">" in t and "*" not in t and "=" not in t), None)
        if token is None:
            d.ok("move " + d.moves()[0])
            continue
        src, dst = token.split(">")
        if ":" in src:  # pN.hand:CARD
            src, card = src.split(":")
        else:
            card = d.piles()[src][-1].lstrip("#")
        before = d.piles()[dst]
        assert d.ok("move " + token) == "ok"
        after = d.piles()[dst]
        if after[:len(before)] == before and len(after) == len(before) + 1:
            assert after[-1] == card
            return
    pytest.fail("no move onto a pile's top found")


# moves, move, hint, undo and load, over random play

def play_checks(game, seed, steps):
    """Random play, checking at each position: moves sorted and one space apart, the hint
    legal (or 'none'), load of the state giving back the same state and moves, an illegal move
    refused with nothing changed, and undo returning to the position before the move."""
    rnd = random.Random(seed)
    d = new(game, "seed=%d" % seed)
    for _ in range(steps):
        text = d.ok("state")
        listed = d.ok("moves")
        tokens = listed.split(" ") if listed else []
        assert tokens == sorted(tokens) and "" not in tokens, listed
        assert len(set(tokens)) == len(tokens), listed  # each move once
        hint = d.ok("hint")
        assert hint == "none" or hint in tokens, (hint, listed)
        assert (hint == "none") == (not tokens), (hint, listed)  # 'none' only without moves
        e = Driver()
        assert e.ok("load " + text) == "ok"
        assert e.ok("state") == text
        e.ok("bots off")
        assert e.ok("moves") == listed
        if not tokens:
            status = d.state()["status"]
            assert status in ("won", "lost", "over")
            if "deal" not in listed:
                return
        token = rnd.choice(tokens)
        assert d.ok("move " + token) == "ok"
        after = d.ok("state")
        if d.ok("undo") == "ok":
            assert d.ok("state") == text, token
            assert d.ok("move " + token) == "ok"
            assert d.ok("state") == after
        d.expect_error("move " + token + "#")


@pytest.mark.parametrize("game", GAMES)
def test_moves_hint_load_and_undo_agree_over_random_play(game):
    for seed in range(1, 7):
        play_checks(game, seed, 150)


@pytest.mark.parametrize("game", GAMES)
def test_undo_with_nothing_to_undo(game):
    d = new(game)
    assert d.expect_error("undo") == "error: nothing to undo"


@pytest.mark.parametrize("game", GAMES)
def test_an_illegal_or_unknown_move_gets_an_error_and_changes_nothing(game):
    d = new(game, "seed=4")
    for token in ("nonsense", "stock>stock", "found1>found1", ">", "p9:flip", "deal=AS", "move"):
        assert d.expect_error("move " + token).startswith("error: ")


# load

def mutations(state):
    """(change, words in the error) pairs that make a state invalid."""
    piles = state["piles"]
    full = [name for name in piles if piles[name]]
    first = full[0]
    other = full[-1]

    names = [c.lstrip("#") for pile in piles.values() for c in pile]
    most = max(names, key=names.count)  # a card all of whose copies are in play

    def duplicate(s):
        top = s["piles"][other]
        top[-1] = most if top[-1].lstrip("#") != most else s["piles"][first][-1]

    def missing(s):
        s["piles"][first].pop()

    def unknown(s):
        s["piles"][first][-1] = "ZZ1" if s["game"] == "nerts" else "ZZ"

    def bad_pile(s):
        s["piles"]["nowhere"] = []

    def no_pile(s):
        del s["piles"][first]

    def no_rng(s):
        del s["rng"]

    return [(duplicate, "duplicate card"), (missing, "missing"), (unknown, "is not a card"),
            (bad_pile, "unknown pile 'nowhere'"), (no_pile, "missing pile '%s'" % first),
            (no_rng, "missing key 'rng'")]


@pytest.mark.parametrize("game", GAMES)
def test_load_refuses_an_invalid_state_and_changes_nothing(game):
    d = new(game, "seed=6")
    d.ok("move " + d.moves()[0])
    state = d.state()
    for change, words in mutations(state):
        broken = json.loads(json.dumps(state))
        change(broken)
        reply = d.expect_error("load " + json.dumps(broken))
        assert words in reply, (change.__name__, reply)
    assert d.ok("undo") == "ok" or game == "spite_malice"  # the journal survives a refused load


@pytest.mark.parametrize("game", GAMES)
def test_load_of_another_games_state_replaces_the_whole_game(game):
    other = "sir_tommy" if game == "aces_up" else "aces_up"
    text = Driver("new %s seed=9" % other).ok("state")
    d = new(game)
    assert d.ok("load " + text) == "ok"
    assert d.ok("state") == text
    assert d.ok("undo") == "error: nothing to undo"


# tick, bots, quit, anything else

@pytest.mark.parametrize("game", GAMES)
def test_tick_advances_the_game_clock_by_ms(game):
    d = new(game)
    for ms, clock in ((0, 0), (1500, 1500), (500, 2000), (1073739823, 1073741823)):
        assert d.ok("tick %d" % ms) == "ok"
        assert d.state()["clock_ms"] == clock


@pytest.mark.parametrize("game", GAMES)
def test_bots_on_and_off_answer_ok(game):
    d = Driver("new " + game)
    assert d.ok("bots off") == "ok" and d.ok("bots on") == "ok"
    for line in ("bots", "bots yes", "bots on off"):
        assert d.expect_error(line) == "error: bots takes 'on' or 'off'"


@pytest.mark.parametrize("game", GAMES)
def test_anything_else_gets_an_error_and_changes_nothing(game):
    d = new(game)
    for line in ("frobnicate", "QUIT", "Moves", "state now", "moves all", "hint please", "undo 2",
                 "tick", "tick 1.5", "move", "load", "load {"):
        assert d.expect_error(line).startswith("error: "), line
    assert d.expect_error("quit now") == "error: quit takes no argument"


@pytest.mark.parametrize("game", GAMES)
def test_quit_ends_the_loop_without_a_response(game):
    out = io.StringIO()
    lines = iter(["new %s\n" % game, "bots off\n", "quit\n", "state\n"])
    run(lambda: next(lines, ""), out.write)
    assert out.getvalue() == "ok\nok\n"


def test_moves_is_an_empty_line_when_there_are_none():
    lost = {"game": "aces_up", "rules": 1, "seed": 1, "status": "lost", "turn": None, "clock_ms": 0,
            "piles": {"stock": [], "col1": ["AS", "2S"], "col2": ["AH", "3H"], "col3": ["AD", "4D"],
                      "col4": ["AC", "5C"], "discard": []}, "score": {}, "rng": 12345}
    lost["piles"]["discard"] = [r + s for s in SUITS for r in RANKS
                                if r + s not in ("AS", "2S", "AH", "3H", "AD", "4D", "AC", "5C")]
    out = io.StringIO()
    lines = iter(["load " + json.dumps(lost) + "\n", "moves\n", "hint\n", "quit\n"])
    run(lambda: next(lines, ""), out.write)
    assert out.getvalue() == "ok\n\nnone\n"


# The same on MicroPython

SCENARIO = []
for _game in GAMES:
    SCENARIO += ["new " + _game, "bots off", "state", "moves", "hint", "undo", "tick 1073741823",
                 "state", "new %s jokers=1" % _game, "new %s target=20" % _game, "quit now"]
SCENARIO += ["new nerts players=3 jokers=1 seed=4", "state", "quit"]


def test_every_game_answers_alike_on_cpython_and_micropython():
    out = protocol(SCENARIO, "micropython")
    assert len(out) == len(SCENARIO) - 1
    assert out == protocol(SCENARIO, "cpython")


def test_commands_before_any_game_and_a_session_without_one():
    s = ProtocolSession()
    assert s.command("undo") == "error: no game: start one with 'new GAME'"
    assert s.command("quit") is None


TICK_UNDER_LOCK = """
import gc, micropython
from engine_core import games
game = games.load("aces_up")()
game.deal(1)
result = 0
gc.collect()
micropython.heap_lock()
try:
    game.tick(1073741000)
    game.tick(823)
    result = game.clock_ms
    game.tick(1073741823)
    game.tick(5)
except MemoryError:
    result = -1
micropython.heap_unlock()
print(result, game.clock_ms)
"""


def test_the_clock_wraps_at_2_to_the_30_without_allocating_on_micropython():
    # 2**30 - 1 is the largest small int of a 32-bit port: the clock reaches it, then wraps.
    assert run_mpy_ok(TICK_UNDER_LOCK).split() == ["1073741823", "3"]  # (2 * (2**30 - 1) + 5) % 2**30


def test_blank_lines_get_no_response_and_tabs_separate_like_spaces():
    out = io.StringIO()
    lines = iter(["\n", "new\taces_up  seed=3\r\n", "   \n", "\t\n", "bots\toff\n", "moves\n", "quit\n"])
    run(lambda: next(lines, ""), out.write)
    assert out.getvalue() == "ok\nok\n" + Driver("new aces_up seed=3").ok("moves") + "\n"
    assert ProtocolSession().command("").startswith("error: ")


def end_turn(d):
    """p1 ends its turn (a hand card onto a side stack); the player to move afterwards."""
    token = next(t for t in d.moves() if ">p1.side" in t)
    assert d.ok("move " + token) == "ok"
    return d.state()["turn"]


def test_bots_on_or_off_holds_for_the_session_across_load_and_new_games():
    start = Driver("new spite_malice seed=3").ok("state")
    d = new("spite_malice", "seed=3")
    assert end_turn(d) == "p2"  # the computer waits for commands
    assert d.ok("load " + start) == "ok" and end_turn(d) == "p2"  # still waiting after a load
    assert d.ok("new spite_malice seed=3") == "ok" and end_turn(d) == "p2"  # and in a new game
    assert d.ok("bots on") == "ok" and d.state()["turn"] == "p1"  # it plays its turn at once
    assert d.ok("new spite_malice seed=3") == "ok" and end_turn(d) == "p1"  # on holds too


def test_bots_off_before_any_game_applies_to_the_games_that_follow():
    d = Driver("bots off", "new spite_malice seed=3")
    assert end_turn(d) == "p2"


def test_a_line_that_is_not_utf8_gets_an_error_and_the_loop_goes_on():
    import subprocess
    import sys
    from tools.mpy import run_micropython
    data = b"new aces_up seed=3\nmo\xc3ves\n\xff\xfe\nmoves\nquit\n"
    expected = "ok\nerror: the line is not UTF-8 text\nerror: the line is not UTF-8 text\n%s\n" % (
        Driver("new aces_up seed=3").ok("moves"))
    host = subprocess.run([sys.executable, "-m", "tools.play"], input=data,
                          capture_output=True)
    assert host.returncode == 0 and host.stdout.decode() == expected
    device = run_micropython("import sys\nfrom engine_core.protocol import run\n"
                             "run(sys.stdin.readline, sys.stdout.write)\n", data)
    assert device.exit_code == 0 and device.stdout == expected
