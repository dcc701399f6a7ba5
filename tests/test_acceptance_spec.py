"""Acceptance tests: the text protocol (PROTOCOL.md) and every rule profile, sentence by sentence,
driven through the protocol alone."""
import json
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from engine_core import games
from engine_core.protocol import ProtocolSession

ROOT = Path(__file__).resolve().parent.parent
RANKS = "A23456789TJQK"
SUITS = "SHDC"
DECK = [r + s for s in SUITS for r in RANKS]
KEYS = ["game", "rules", "seed", "status", "turn", "clock_ms", "piles", "score", "rng", "rng2", "generator"]
CARD_RE = re.compile(r"^#?(?:[A2-9TJQK][SHDC]|JK)(?:[1-4])?$")


# ---------------------------------------------------------------- helpers
def new(game, *opts, bots_off=True):
    s = ProtocolSession()
    r = s.command(" ".join(["new", game, *opts]))
    assert r == "ok", r
    if bots_off:
        assert s.command("bots off") == "ok"
    return s


def st(s):
    return json.loads(s.command("state"))


def piles(s):
    return st(s)["piles"]


def moves(s):
    line = s.command("moves")
    return line.split(" ") if line else []


def bare(c):
    return c.lstrip("#")


def full_deck(game, players=2):
    if game in ("aces_up", "sir_tommy"):
        return list(DECK)
    if game in ("casket", "spite_malice"):
        return DECK + DECK
    return [c + str(p) for p in range(1, players + 1) for c in DECK]


def position(s, pile_map, dump, facedown_dump=True, status="playing", turn=None, score=None,
             dump_fn=None):
    """A hand-made position: start from the fresh state's form, set the given piles,
    empty the others, and put every card not yet placed in `dump` (bottom)."""
    base = st(s)
    game = base["game"]
    players = len([k for k in base["piles"] if k.endswith(".nerts")]) or 2
    jokers = any("JK" in c for v in base["piles"].values() for c in v)
    new_piles = {k: [] for k in base["piles"]}
    for k, v in pile_map.items():
        assert k in new_piles, k
        new_piles[k] = list(v)
    used = Counter(bare(c) for v in new_piles.values() for c in v)
    rest = []
    deck = full_deck(game, players)
    if jokers:
        deck += ["JK%d" % n for n in range(1, players + 1) for _ in range(2)]
    for c in deck:
        if used[c]:
            used[c] -= 1
        else:
            rest.append(c)
    assert not +used, used
    if dump_fn:
        for c in rest:
            new_piles[dump_fn(c)].insert(0, ("#" + c) if facedown_dump else c)
    elif rest:
        new_piles[dump] = [("#" + c) if facedown_dump else c for c in rest] + new_piles[dump]
    d = dict(base)
    d["piles"] = new_piles
    d["status"] = status
    if turn is not None:
        d["turn"] = turn
    if score is not None:
        d["score"] = score
    r = s.command("load " + json.dumps(d))
    assert r == "ok", r
    return d


def ok_move(s, tok):
    r = s.command("move " + tok)
    assert r == "ok", (tok, r)


def err_move(s, tok):
    before = s.command("state")
    r = s.command("move " + tok)
    assert r.startswith("error: "), (tok, r)
    assert s.command("state") == before
    return r


def run_play(text):
    p = subprocess.run([sys.executable, "-m", "tools.play"], input=text, capture_output=True,
                       text=True, cwd=ROOT, timeout=30)
    return p.stdout.splitlines()


GAMES = games.names()


# ======================================================= PROTOCOL: commands
def test_play_py_reads_commands_on_stdin_and_writes_one_response_line_per_command():
    out = run_play("new aces_up seed=3\nstate\nmoves\nhint\n")
    assert len(out) == 4
    assert out[0] == "ok"
    assert json.loads(out[1])["seed"] == 3


def test_quit_gives_no_response_and_stops_the_loop():
    out = run_play("new aces_up\nquit\nstate\n")
    assert out == ["ok"]


def test_end_of_input_stops_the_loop():
    out = run_play("new sir_tommy\n")
    assert out == ["ok"]


def test_a_malformed_line_never_stops_the_loop():
    out = run_play("new aces_up\nfrobnicate 1 2\n{{{\nstate\n")
    assert out[1].startswith("error: ")
    assert out[2].startswith("error: ")
    assert json.loads(out[3])["game"] == "aces_up"


@pytest.mark.parametrize("game", GAMES)
def test_new_GAME_answers_ok_for_every_game(game):
    assert ProtocolSession().command("new " + game) == "ok"


def test_new_seed_defaults_to_1():
    a, b = ProtocolSession(), ProtocolSession()
    a.command("new aces_up")
    b.command("new aces_up seed=1")
    assert a.command("state") == b.command("state")
    assert st(a)["seed"] == 1


@pytest.mark.parametrize("game", GAMES)
def test_the_same_seed_deals_the_same_game(game):
    a, b = ProtocolSession(), ProtocolSession()
    a.command(f"new {game} seed=42")
    b.command(f"new {game} seed=42")
    assert a.command("state") == b.command("state")


@pytest.mark.parametrize("game", GAMES)
def test_different_seeds_deal_different_games(game):
    a, b = ProtocolSession(), ProtocolSession()
    a.command(f"new {game} seed=7")
    b.command(f"new {game} seed=8")
    assert st(a)["piles"] != st(b)["piles"]


def test_new_an_unknown_game_is_a_clear_error():
    assert ProtocolSession().command("new chess").startswith("error: ")


@pytest.mark.parametrize("seed", ["x", "", "1.5", "abc"])
def test_new_a_bad_seed_is_a_clear_error(seed):
    assert ProtocolSession().command(f"new aces_up seed={seed}").startswith("error: ")


def test_new_error_leaves_the_state_unchanged():
    s = new("aces_up", "seed=5")
    before = s.command("state")
    assert s.command("new chess").startswith("error: ")
    assert s.command("new aces_up seed=zz").startswith("error: ")
    assert s.command("state") == before


def test_anything_else_is_an_error():
    s = new("aces_up")
    before = s.command("state")
    for line in ["hello", "mov col1>discard", "STATE", "undo now please", "tick", "bots maybe"]:
        assert s.command(line).startswith("error: "), line
    assert s.command("state") == before


# ======================================================= PROTOCOL: state JSON
@pytest.mark.parametrize("game", GAMES)
def test_state_is_one_line_of_json_with_keys_in_documented_order(game):
    s = new(game, bots_off=False)
    line = s.command("state")
    assert "\n" not in line
    d = json.loads(line)
    assert list(d.keys()) == KEYS


@pytest.mark.parametrize("game", GAMES)
def test_state_value_forms(game):
    d = st(new(game, "seed=9", bots_off=False))
    assert d["game"] == game
    assert d["rules"] == (2 if game == "casket" else 1)  # Casket: rule profile 2 by default
    assert d["seed"] == 9
    assert d["status"] == "playing"
    assert d["clock_ms"] == 0
    assert isinstance(d["rng"], int)
    assert isinstance(d["piles"], dict)
    for name, cards in d["piles"].items():
        assert isinstance(cards, list)
        for c in cards:
            assert CARD_RE.match(c), (name, c)


@pytest.mark.parametrize("game", ["aces_up", "sir_tommy", "casket", "nerts"])
def test_turn_is_null_in_games_without_turns(game):
    assert st(new(game))["turn"] is None


def test_turn_is_the_player_to_move_in_turn_based_games():
    assert st(new("spite_malice"))["turn"] == "p1"


@pytest.mark.parametrize("game", ["aces_up", "sir_tommy", "casket"])
def test_score_is_empty_object_in_non_competitive_games(game):
    assert st(new(game))["score"] == {}


@pytest.mark.parametrize("game", ["spite_malice", "nerts"])
def test_score_holds_per_player_totals_in_competitive_games(game):
    assert st(new(game))["score"] == {"p1": 0, "p2": 0}


def test_state_example_pile_order_aces_up():
    assert list(piles(new("aces_up")).keys()) == ["stock", "col1", "col2", "col3", "col4", "discard"]


# ======================================================= PROTOCOL: notation
def test_card_ranks_and_suits_cover_a_standard_deck():
    p = piles(new("sir_tommy"))
    cards = sorted(bare(c) for v in p.values() for c in v)
    assert cards == sorted(DECK)


def test_two_deck_games_repeat_names():
    for game in ("casket", "spite_malice"):
        p = piles(new(game))
        cnt = Counter(bare(c) for v in p.values() for c in v)
        assert all(cnt[c] == 2 for c in DECK) and sum(cnt.values()) == 104


def test_face_down_card_is_written_with_leading_hash():
    p = piles(new("aces_up"))
    assert all(c.startswith("#") for c in p["stock"])
    assert all(not c.startswith("#") for k in ("col1", "col2", "col3", "col4") for c in p[k])


def test_nerts_owner_number_follows_the_card():
    p = piles(new("nerts"))
    for name, cards in p.items():
        if name.startswith("p"):
            owner = name[1]
            for c in cards:
                assert re.match(r"^#?[A2-9TJQK][SHDC]\d$", c), c
                assert c[-1] == owner, (name, c)


def test_nerts_jokers_are_written_JK_with_owner():
    p = piles(new("nerts", "jokers=1"))
    allc = [bare(c) for v in p.values() for c in v]
    assert Counter(allc)["JK1"] == 2 and Counter(allc)["JK2"] == 2


# ======================================================= PROTOCOL: moves / move / undo / hint
@pytest.mark.parametrize("game", GAMES)
def test_moves_are_sorted_and_separated_by_one_space(game):
    s = new(game)
    line = s.command("moves")
    toks = line.split(" ")
    assert "" not in toks
    assert toks == sorted(toks)
    assert len(set(toks)) == len(toks)


def test_moves_is_an_empty_line_when_none():
    s = new("aces_up")
    position(s, {"col1": ["AS", "2H"], "col2": ["AH", "3D"], "col3": ["AD", "4C"],
                 "col4": ["AC", "5S"]}, "discard", facedown_dump=False)
    assert s.command("moves") == ""


def test_hint_is_none_when_no_move():
    s = new("aces_up")
    position(s, {"col1": ["AS", "2H"], "col2": ["AH", "3D"], "col3": ["AD", "4C"],
                 "col4": ["AC", "5S"]}, "discard", facedown_dump=False)
    assert s.command("hint") == "none"


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_hint_is_a_legal_move_token(game, seed):
    s = new(game, f"seed={seed}")
    h = s.command("hint")
    ms = moves(s)
    if ms:
        assert h in ms
    else:
        assert h == "none"


@pytest.mark.parametrize("game", GAMES)
def test_every_listed_move_is_accepted(game):
    s = new(game, "seed=4")
    before = s.command("state")
    for tok in moves(s):
        assert s.command("move " + tok) == "ok", tok
        assert s.command("undo") == "ok"
        assert s.command("state") == before


def test_move_answers_ok():
    s = new("aces_up")
    position(s, {"col1": ["5H"], "col2": ["9H"], "col3": ["2S"], "col4": ["3C"]}, "stock")
    assert s.command("move col1>discard") == "ok"


@pytest.mark.parametrize("tok", ["col1>col9", "nonsense", "col2>discard", "col1>stock", "", "deal>col1"])
def test_illegal_move_is_an_error_with_state_unchanged(tok):
    s = new("aces_up")
    position(s, {"col1": ["5H"], "col2": ["9H"], "col3": ["2S"], "col4": ["3C"]}, "stock")
    err_move(s, tok)


def test_undo_with_nothing_to_undo():
    assert new("aces_up").command("undo") == "error: nothing to undo"


def test_undo_restores_the_previous_state():
    s = new("sir_tommy")
    before = s.command("state")
    ok_move(s, "current>res1")
    assert s.command("undo") == "ok"
    assert s.command("state") == before
    assert s.command("undo") == "error: nothing to undo"


def test_undo_several_moves_in_order():
    s = new("sir_tommy")
    s0 = s.command("state")
    ok_move(s, "current>res1")
    s1 = s.command("state")
    ok_move(s, "draw")
    assert s.command("undo") == "ok"
    assert s.command("state") == s1
    assert s.command("undo") == "ok"
    assert s.command("state") == s0


def test_failed_move_is_not_undoable():
    s = new("aces_up")
    s.command("move col9>col1")
    assert s.command("undo") == "error: nothing to undo"


# ======================================================= PROTOCOL: load
@pytest.mark.parametrize("game", GAMES)
def test_load_of_own_state_round_trips(game):
    s = new(game, "seed=11")
    line = s.command("state")
    t = ProtocolSession()
    t.command("new aces_up")
    assert t.command("load " + line) == "ok"
    assert t.command("state") == line


def test_load_replaces_the_whole_state():
    s = new("aces_up", "seed=2")
    other = new("aces_up", "seed=3").command("state")
    assert s.command("load " + other) == "ok"
    assert s.command("state") == other


def test_load_accepts_compact_json():
    s = new("aces_up", "seed=2")
    d = st(new("aces_up", "seed=3"))
    assert s.command("load " + json.dumps(d, separators=(",", ":"))) == "ok"
    assert st(s) == d


def test_load_then_play_is_reproducible():
    a = new("spite_malice", "seed=6")
    for _ in range(3):
        h = a.command("hint")
        ok_move(a, h)
    saved = a.command("state")
    b = new("spite_malice", "seed=99")
    assert b.command("load " + saved) == "ok"
    for _ in range(6):
        h = a.command("hint")
        if h == "none":
            break
        assert b.command("hint") == h
        ok_move(a, h)
        ok_move(b, h)
        assert a.command("state") == b.command("state")


def _load_err(s, d, reason):
    """Loading `d` is refused with this reason, and the state stays as it was."""
    before = s.command("state")
    r = s.command("load " + (d if isinstance(d, str) else json.dumps(d)))
    assert r == "error: " + reason, r
    assert s.command("state") == before


def test_load_duplicate_card_is_an_error_state_unchanged():
    # Every other card is there once: only duplicate detection can refuse this state.
    s = new("aces_up")
    d = st(s)
    twice = bare(d["piles"]["col2"][0])
    d["piles"]["col1"] = d["piles"]["col1"] + d["piles"]["col2"]  # same card twice
    _load_err(s, d, "load: duplicate card '" + twice + "'")


def test_load_missing_card_is_an_error_state_unchanged():
    s = new("aces_up")
    d = st(s)
    gone = bare(d["piles"]["stock"][0])
    d["piles"]["stock"] = d["piles"]["stock"][1:]
    _load_err(s, d, "load: missing cards: " + gone)


@pytest.mark.parametrize("bad", ["1S", "AX", "ZZ", "10H", "JK"])
def test_load_a_card_that_does_not_exist_is_an_error(bad):
    s = new("aces_up")
    d = st(s)
    d["piles"]["stock"][0] = "#" + bad
    # A joker is a card, but not one of Aces Up's; the others are no card at all.
    _load_err(s, d, "load: '#" + bad + ("' is not a card of this game" if bad == "JK" else "' is not a card"))


def test_load_third_copy_in_two_deck_game_is_an_error():
    s = new("casket")
    d = st(s)
    third = bare(d["piles"]["waste"][0])
    d["piles"]["stock"][0] = "#" + third
    _load_err(s, d, "load: duplicate card '" + third + "'")


def test_load_malformed_json_is_an_error():
    s = new("aces_up")
    _load_err(s, "{not json", "load: not valid JSON: at byte 2: expected a key in double quotes")


def test_load_unknown_pile_is_an_error():
    s = new("aces_up")
    d = st(s)
    d["piles"]["col5"] = d["piles"].pop("col4")
    _load_err(s, d, "load: unknown pile 'col5'")


# ======================================================= PROTOCOL: tick / bots
def test_tick_advances_the_clock_by_MS():
    s = new("aces_up")
    assert s.command("tick 250") == "ok"
    assert st(s)["clock_ms"] == 250
    assert s.command("tick 1000") == "ok"
    assert st(s)["clock_ms"] == 1250


def test_bots_on_and_off_answer_ok():
    s = new("nerts", bots_off=False)
    assert s.command("bots on") == "ok"
    assert s.command("bots off") == "ok"


def test_bots_off_computer_players_wait():
    s = new("nerts", "seed=3")
    p0 = piles(s)
    assert s.command("tick 60000") == "ok"
    assert piles(s) == p0


def test_bots_on_computer_players_act_on_tick():
    s = new("nerts", "seed=3")
    p0 = piles(s)
    s.command("bots on")
    for _ in range(60):
        s.command("tick 1000")
    p = piles(s)
    changed = [k for k in p if k.startswith("p2") and p[k] != p0[k]]
    assert changed


def test_bots_on_is_deterministic_for_a_seed():
    outs = []
    for _ in range(2):
        s = new("nerts", "seed=5")
        s.command("bots on")
        for _ in range(20):
            s.command("tick 1000")
        outs.append(s.command("state"))
    assert outs[0] == outs[1]


def test_spite_malice_bot_plays_p2_turn_on_tick():
    s = new("spite_malice", "seed=2")
    s.command("bots on")
    tok = [m for m in moves(s) if ">p1.side" in m][0]
    ok_move(s, tok)
    for _ in range(60):
        if st(s)["turn"] == "p1":
            break
        s.command("tick 1000")
    d = st(s)
    assert d["turn"] == "p1"
    assert any(d["piles"][f"p2.side{i}"] for i in range(1, 5))


# ======================================================= ACES UP
def test_aces_up_deal_one_face_up_card_per_column_48_in_stock():
    p = piles(new("aces_up", "seed=8"))
    assert set(p) == {"stock", "col1", "col2", "col3", "col4", "discard"}
    assert len(p["stock"]) == 48 and all(c.startswith("#") for c in p["stock"])
    for k in ("col1", "col2", "col3", "col4"):
        assert len(p[k]) == 1 and not p[k][0].startswith("#")
    assert p["discard"] == []


def aces(pm, dump="stock"):
    s = new("aces_up")
    position(s, pm, dump, facedown_dump=(dump == "stock"))
    return s


def test_aces_up_discard_when_another_exposed_card_same_suit_higher_rank():
    s = aces({"col1": ["5H"], "col2": ["9H"], "col3": ["2S"], "col4": ["3C"]})
    assert "col1>discard" in moves(s)
    assert "col2>discard" not in moves(s)
    ok_move(s, "col1>discard")
    p = piles(s)
    assert p["col1"] == [] and p["discard"] == ["5H"]


def test_aces_up_colour_alone_is_not_enough():
    s = aces({"col1": ["5H"], "col2": ["9D"], "col3": ["2S"], "col4": ["3C"]})
    assert "col1>discard" not in moves(s)
    err_move(s, "col1>discard")


def test_aces_up_only_exposed_cards_count():
    s = aces({"col1": ["5H"], "col2": ["9H", "2D"], "col3": ["2S"], "col4": ["3C"]})
    assert "col1>discard" not in moves(s)


def test_aces_up_aces_rank_high_above_kings():
    s = aces({"col1": ["KH"], "col2": ["AH"], "col3": ["2S"], "col4": ["3C"]})
    assert "col1>discard" in moves(s)


def test_aces_up_an_ace_is_never_discarded():
    s = aces({"col1": ["KH"], "col2": ["AH"], "col3": ["2S"], "col4": ["3C"]})
    assert "col2>discard" not in moves(s)
    err_move(s, "col2>discard")


def test_aces_up_move_to_empty_column_exposes_card_below():
    s = aces({"col1": ["2S", "5H"], "col2": [], "col3": ["9D"], "col4": ["3C"]})
    assert "col1>col2" in moves(s)
    ok_move(s, "col1>col2")
    p = piles(s)
    assert p["col1"] == ["2S"] and p["col2"] == ["5H"] and p["discard"] == []


def test_aces_up_moving_a_lone_card_to_empty_column_is_not_legal():
    s = aces({"col1": ["2S", "5H"], "col2": [], "col3": ["9D"], "col4": ["3C"]})
    assert "col3>col2" not in moves(s)
    err_move(s, "col3>col2")


def test_aces_up_no_move_onto_a_non_empty_column():
    s = aces({"col1": ["2S", "5H"], "col2": [], "col3": ["9D"], "col4": ["3C"]})
    assert "col1>col3" not in moves(s)
    err_move(s, "col1>col3")


def test_aces_up_deal_one_stock_card_onto_each_column_empty_included():
    s = aces({"col1": ["2S"], "col2": [], "col3": ["9D"], "col4": ["3C"]})
    assert moves(s) == ["deal"]
    before = piles(s)
    top4 = {bare(c) for c in before["stock"][-4:]}
    ok_move(s, "deal")
    p = piles(s)
    assert len(p["stock"]) == len(before["stock"]) - 4
    for k in ("col1", "col2", "col3", "col4"):
        assert len(p[k]) == len(before[k]) + 1
        assert not p[k][-1].startswith("#")
    assert {p[k][-1] for k in ("col1", "col2", "col3", "col4")} == top4


def test_aces_up_deal_illegal_while_a_discard_is_available():
    s = aces({"col1": ["5H"], "col2": ["9H"], "col3": ["2S"], "col4": ["3C"]})
    assert "deal" not in moves(s)
    err_move(s, "deal")


def test_aces_up_deal_illegal_while_a_productive_move_to_empty_column_is_available():
    s = aces({"col1": ["2S", "5H"], "col2": [], "col3": ["9D"], "col4": ["3C"]})
    assert "deal" not in moves(s)
    err_move(s, "deal")


def test_aces_up_deal_legal_with_empty_column_when_only_lone_cards():
    s = aces({"col1": ["5H"], "col2": [], "col3": ["9D"], "col4": ["3C"]})
    assert "deal" in moves(s)


def test_aces_up_won_when_48_discarded_and_four_aces_remain():
    s = aces({"col1": ["AH"], "col2": ["AS"], "col3": ["AC"], "col4": ["AD", "2C"]}, dump="discard")
    assert st(s)["status"] == "playing"
    ok_move(s, "col4>discard")
    d = st(s)
    assert len(d["piles"]["discard"]) == 48
    assert d["status"] == "won"


def test_aces_up_lost_when_stock_empty_and_no_move_remains():
    s = aces({"col1": ["AS", "2H", "2D"], "col2": ["AH", "3D"], "col3": ["AD", "4C"],
              "col4": ["AC", "5S"]}, dump="discard")
    assert st(s)["status"] == "playing"
    ok_move(s, "col1>discard")
    assert st(s)["status"] == "lost"
    assert s.command("moves") == ""


def test_aces_up_not_lost_while_stock_remains():
    s = aces({"col1": ["AS", "2H", "2D"], "col2": ["AH", "3D"], "col3": ["AD", "4C"],
              "col4": ["AC", "5S"]}, dump="stock")
    ok_move(s, "col1>discard")
    assert st(s)["status"] == "playing"
    assert moves(s) == ["deal"]


def test_aces_up_no_moves_after_the_game_is_won():
    s = aces({"col1": ["AH"], "col2": ["AS"], "col3": ["AC"], "col4": ["AD", "2C"]}, dump="discard")
    ok_move(s, "col4>discard")
    assert s.command("moves") == ""
    assert s.command("hint") == "none"


# ======================================================= SIR TOMMY
def test_sir_tommy_start_first_card_turned_into_current():
    p = piles(new("sir_tommy"))
    assert set(p) == {"stock", "current"} | {f"found{i}" for i in range(1, 5)} | {f"res{i}" for i in range(1, 5)}
    assert len(p["stock"]) == 51 and all(c.startswith("#") for c in p["stock"])
    assert len(p["current"]) == 1 and not p["current"][0].startswith("#")
    for i in range(1, 5):
        assert p[f"found{i}"] == [] and p[f"res{i}"] == []


def tommy(pm, dump="stock"):
    s = new("sir_tommy")
    position(s, pm, dump)
    return s


def test_sir_tommy_any_ace_starts_a_foundation():
    s = tommy({"current": ["AD"]})
    ms = moves(s)
    for i in range(1, 5):
        assert f"current>found{i}" in ms


def test_sir_tommy_foundations_ignore_suit():
    s = tommy({"current": ["2H"], "found1": ["AS"], "found2": ["AD", "2D"]})
    assert "current>found1" in moves(s)
    ok_move(s, "current>found1")
    assert piles(s)["found1"] == ["AS", "2H"]


def test_sir_tommy_wrong_rank_cannot_go_to_foundation():
    s = tommy({"current": ["3H"], "found1": ["AS"]})
    assert "current>found1" not in moves(s)
    assert "current>found2" not in moves(s)
    err_move(s, "current>found1")
    err_move(s, "current>found2")


def test_sir_tommy_current_goes_onto_any_holding_pile_whatever_rank():
    s = tommy({"current": ["9C"], "res1": ["2H"], "res2": ["KS", "QS"]})
    ms = moves(s)
    for i in range(1, 5):
        assert f"current>res{i}" in ms
    ok_move(s, "current>res2")
    assert piles(s)["res2"] == ["KS", "QS", "9C"]
    assert piles(s)["current"] == []


def test_sir_tommy_holding_top_goes_to_foundation_when_next():
    s = tommy({"res1": ["7C", "3D"], "found2": ["AS", "2S"]})
    assert "res1>found2" in moves(s)
    ok_move(s, "res1>found2")
    assert piles(s)["res1"] == ["7C"]


def test_sir_tommy_only_top_of_holding_pile_can_leave():
    s = tommy({"res1": ["3D", "7C"], "found2": ["AS", "2S"]})
    assert "res1>found2" not in moves(s)
    err_move(s, "res1>found2")


def test_sir_tommy_never_holding_to_holding():
    s = tommy({"res1": ["3D"], "res2": ["7C"]})
    assert not any(m.startswith("res1>res") for m in moves(s))
    err_move(s, "res1>res2")


def test_sir_tommy_never_leave_a_foundation():
    s = tommy({"found1": ["AS", "2S"], "found2": ["AH"]})
    assert not any(m.startswith("found") for m in moves(s))
    err_move(s, "found1>res1")
    err_move(s, "found1>found2")


def test_sir_tommy_draw_illegal_while_current_occupied():
    s = new("sir_tommy")
    assert "draw" not in moves(s)
    err_move(s, "draw")


def test_sir_tommy_draw_turns_next_stock_card_into_current():
    s = tommy({"current": []})
    p0 = piles(s)
    assert "draw" in moves(s)
    ok_move(s, "draw")
    p = piles(s)
    assert p["current"] == [bare(p0["stock"][-1])]
    assert p["stock"] == p0["stock"][:-1]


def test_sir_tommy_no_redeal_when_stock_empty():
    s = tommy({"current": [], "res1": ["2C", "3C", "4C", "5C"]}, dump="res2")
    assert piles(s)["stock"] == []
    assert "draw" not in moves(s)
    err_move(s, "draw")


def _tommy_nearly_done():
    f1 = [r + "S" for r in RANKS]
    f2 = [r + "H" for r in RANKS]
    f3 = [r + "D" for r in RANKS]
    return f1, f2, f3


def test_sir_tommy_won_when_all_52_on_foundations():
    f1, f2, f3 = _tommy_nearly_done()
    s = tommy({"found1": f1, "found2": f2, "found3": f3,
               "found4": [r + "C" for r in RANKS[:-1]], "current": ["KC"]})
    ok_move(s, "current>found4")
    assert st(s)["status"] == "won"


def test_sir_tommy_lost_when_stock_and_current_empty_and_no_holding_top_plays():
    f1, f2, f3 = _tommy_nearly_done()
    s = tommy({"found1": f1, "found2": f2, "found3": f3, "found4": ["AC", "2C", "3C", "4C"],
               "res1": ["5C", "KC"], "res2": ["6C", "QC"], "res3": ["7C", "JC"],
               "res4": ["8C", "TC"], "current": ["9C"]})
    assert st(s)["status"] == "playing"
    ok_move(s, "current>res1")
    assert st(s)["status"] == "lost"
    assert s.command("moves") == ""


def test_sir_tommy_not_lost_when_a_holding_top_can_still_play():
    f1, f2, f3 = _tommy_nearly_done()
    s = tommy({"found1": f1, "found2": f2, "found3": f3, "found4": ["AC", "2C", "3C", "4C"],
               "res1": ["9C", "KC"], "res2": ["6C", "QC"], "res3": ["7C", "JC"],
               "res4": ["8C", "5C"], "current": ["TC"]})
    ok_move(s, "current>res1")
    assert st(s)["status"] == "playing"


# ======================================================= CASKET
def test_casket_layout_after_deal():
    p = piles(new("casket", "seed=3"))
    names = ({"stock", "waste", "jewels"} | {f"lid{i}" for i in range(1, 6)}
             | {f"body{i}" for i in range(1, 9)} | {f"res{i}" for i in range(1, 4)}
             | {f"found{i}" for i in range(1, 9)})
    assert set(p) == names
    assert len(p["jewels"]) == 13
    assert all(c.startswith("#") for c in p["jewels"][:-1]) and not p["jewels"][-1].startswith("#")
    for i in range(1, 6):
        assert len(p[f"lid{i}"]) == 1 and not p[f"lid{i}"][0].startswith("#")
    for i in range(1, 9):
        assert len(p[f"body{i}"]) == 1 and not p[f"body{i}"][0].startswith("#")
        assert p[f"found{i}"] == []
    for i in range(1, 4):
        assert p[f"res{i}"] == []
    assert len(p["waste"]) == 1 and not p["waste"][0].startswith("#")
    assert len(p["stock"]) == 77 and all(c.startswith("#") for c in p["stock"])


def casket(pm, dump="stock", rules=2):
    s = new("casket", "rules=%d" % rules)  # profile 2 is the default; 1 stays an option
    # hand-made: lids are full while jewels remain (an emptied lid is refilled at once)
    full = {"lid1": ["KD"], "lid2": ["KD"], "lid3": ["QD"], "lid4": ["QD"], "lid5": ["JD"]}
    full.update(pm)
    position(s, full, dump)
    return s


JEWELS = ["#2C", "#3C", "#4C", "#5C", "#6C", "#7C", "#8C", "#9C", "#TC", "#JC", "#QC", "#KC", "AC"]


def test_casket_jewels_top_is_never_played_directly():
    s = casket({"jewels": JEWELS, "found1": [], "waste": ["9D"]})
    assert not any(m.startswith("jewels>") for m in moves(s))
    err_move(s, "jewels>found1")


def test_casket_foundation_starts_with_ace_from_exposed_card():
    for src in ("waste", "res1", "lid1", "body1"):
        s = casket({src: ["AH"], "jewels": JEWELS})
        assert f"{src}>found1" in moves(s), src


def test_casket_foundation_builds_up_in_suit():
    s = casket({"found1": ["AH"], "waste": ["2H"], "body1": ["2D"], "lid1": ["3H"], "jewels": JEWELS})
    ms = moves(s)
    assert "waste>found1" in ms
    assert "body1>found1" not in ms
    assert "lid1>found1" not in ms
    err_move(s, "body1>found1")


def test_casket_cards_never_leave_a_foundation():
    s = casket({"found1": ["AH", "2H"], "body1": [], "jewels": JEWELS})
    assert not any(m.startswith("found") for m in moves(s))
    err_move(s, "found1>body1")


def test_casket_body_builds_down_in_suit():
    s = casket({"body1": ["TH"], "waste": ["9H"], "res1": ["9D"], "lid1": ["8H"], "body2": ["JH"],
                "jewels": JEWELS})
    ms = moves(s)
    assert "waste>body1" in ms
    assert "res1>body1" not in ms
    assert "lid1>body1" not in ms
    assert "body2>body1" not in ms  # up, not down
    assert "body1>body2" in ms
    ok_move(s, "waste>body1")
    assert piles(s)["body1"] == ["TH", "9H"]


def test_casket_body_sources_waste_reserve_lid_body():
    s = casket({"body1": ["TH"], "res1": ["9H"], "jewels": JEWELS})
    assert "res1>body1" in moves(s)
    s = casket({"body1": ["TH"], "lid1": ["9H"], "jewels": JEWELS})
    assert "lid1>body1" in moves(s)
    s = casket({"body1": ["TH"], "body2": ["9H"], "jewels": JEWELS})
    assert "body2>body1" in moves(s)


def test_casket_empty_body_may_be_filled_from_waste_reserve_or_body():
    s = casket({"body1": [], "waste": ["5S"], "res1": ["QS"], "body2": ["8H", "7H"], "jewels": JEWELS})
    ms = moves(s)
    assert "waste>body1" in ms and "res1>body1" in ms and "body2>body1" in ms


def test_casket_a_lid_card_may_not_head_an_empty_body_column():
    s = casket({"body1": [], "lid1": ["5S"], "jewels": JEWELS})
    assert "lid1>body1" not in moves(s)
    err_move(s, "lid1>body1")


def test_casket_lids_accept_no_cards():
    s = casket({"lid1": ["TH"], "waste": ["9H"], "body1": ["9H"], "res1": ["9H"][:0], "jewels": JEWELS})
    assert not any(m.endswith(">lid1") for m in moves(s))
    err_move(s, "waste>lid1")
    err_move(s, "body1>lid1")


def test_casket_emptied_lid_is_refilled_at_once_from_jewels():
    s = casket({"lid1": ["AH"], "jewels": JEWELS})
    ok_move(s, "lid1>found1")
    p = piles(s)
    assert p["lid1"] == ["AC"]
    assert len(p["jewels"]) == 12
    assert not p["jewels"][-1].startswith("#")  # new top shown
    assert p["jewels"][-1] == "KC"


def test_casket_after_jewels_are_out_an_emptied_lid_stays_empty():
    s = casket({"lid1": ["AH"], "jewels": []})
    ok_move(s, "lid1>found1")
    assert piles(s)["lid1"] == []


def test_casket_reserves_take_a_card_from_waste_lid_or_body():
    s = casket({"waste": ["5S"], "lid1": ["6S"], "body1": ["7S"], "jewels": JEWELS})
    ms = moves(s)
    for src in ("waste", "lid1", "body1"):
        assert f"{src}>res1" in ms


def test_casket_reserve_holds_at_most_one_card_under_profile_1():
    s = casket({"waste": ["5S"], "res1": ["9D"], "jewels": JEWELS}, rules=1)
    assert st(s)["rules"] == 1
    assert "waste>res1" not in moves(s)
    err_move(s, "waste>res1")


def test_casket_reserve_stacks_any_number_of_cards_only_the_top_plays_under_profile_2():
    s = casket({"waste": ["5S"], "res1": ["9D"], "body1": ["6S"], "found1": ["AS", "2S", "3S", "4S"],
                "jewels": JEWELS})
    assert st(s)["rules"] == 2
    assert "waste>res1" in moves(s)
    ok_move(s, "waste>res1")
    ok_move(s, "body1>res1")
    assert piles(s)["res1"] == ["9D", "5S", "6S"]
    assert "res1>found1" not in moves(s)  # 5S would go up, but 6S covers it


def test_casket_reserve_gives_to_foundation_or_body_only():
    s = casket({"res1": ["2H"], "found1": ["AH"], "body1": ["3H"], "jewels": JEWELS})
    ms = moves(s)
    assert "res1>found1" in ms and "res1>body1" in ms
    assert "res1>res2" not in ms
    err_move(s, "res1>res2")


def test_casket_draw_only_when_waste_empty():
    s = casket({"waste": ["5S"], "jewels": JEWELS})
    assert "draw" not in moves(s)
    err_move(s, "draw")
    s = casket({"waste": [], "jewels": JEWELS})
    p0 = piles(s)
    assert "draw" in moves(s)
    ok_move(s, "draw")
    p = piles(s)
    assert p["waste"] == [bare(p0["stock"][-1])]
    assert len(p["stock"]) == len(p0["stock"]) - 1


def _casket_found(suit, n):
    return [r + suit for r in RANKS[:n]]


def test_casket_won_when_all_104_cards_on_foundations():
    pm = {}
    for i, su in enumerate(SUITS):
        pm[f"found{2 * i + 1}"] = _casket_found(su, 13)
        pm[f"found{2 * i + 2}"] = _casket_found(su, 13)
    pm["found8"] = _casket_found("C", 12)
    pm["waste"] = ["KC"]
    pm["jewels"] = []
    for i in range(1, 6):
        pm[f"lid{i}"] = []
    s = casket(pm)
    ok_move(s, "waste>found8")
    assert st(s)["status"] == "won"


def test_casket_lost_when_no_legal_move_remains():
    pm = {"found1": _casket_found("H", 4), "found2": _casket_found("H", 4),
          "found3": _casket_found("S", 3), "found4": _casket_found("S", 13),
          "found5": _casket_found("D", 13), "found6": _casket_found("D", 13),
          "found7": _casket_found("C", 13), "found8": _casket_found("C", 13),
          "waste": ["4S"], "jewels": ["#5H", "#5H", "5S"],
          "lid1": ["7S"], "lid2": ["9S"], "lid3": ["JS"], "lid4": ["KS"], "lid5": ["QS"],
          "body1": ["KH", "QH"], "body2": ["KH", "QH"], "body3": ["7H", "6H"], "body4": ["7H", "6H"],
          "body5": ["9H", "8H"], "body6": ["9H", "8H"], "body7": ["JH", "TH"], "body8": ["JH", "TH"],
          "res1": ["6S"], "res2": ["8S"], "res3": ["TS"]}
    s = casket(pm, rules=1)  # under profile 2 a stacking reserve always takes a card
    assert piles(s)["stock"] == []
    assert moves(s) == ["waste>found3"]
    ok_move(s, "waste>found3")
    assert st(s)["status"] == "lost"
    assert s.command("moves") == ""


# ======================================================= SPITE & MALICE
def test_spite_malice_layout_after_deal():
    d = st(new("spite_malice", "seed=4"))
    p = d["piles"]
    names = {"stock"} | {f"center{i}" for i in range(1, 4)}
    for n in ("p1", "p2"):
        names |= {f"{n}.hand", f"{n}.payoff"} | {f"{n}.side{i}" for i in range(1, 5)}
    assert set(p) == names
    for n in ("p1", "p2"):
        assert len(p[f"{n}.hand"]) == 5
        assert all(not c.startswith("#") for c in p[f"{n}.hand"])
        pay = p[f"{n}.payoff"]
        assert len(pay) == 20
        assert all(c.startswith("#") for c in pay[:-1]) and not pay[-1].startswith("#")
        for i in range(1, 5):
            assert p[f"{n}.side{i}"] == []
    for i in range(1, 4):
        assert p[f"center{i}"] == []
    assert len(p["stock"]) == 104 - 50
    assert d["turn"] == "p1"


def sm(pm, turn="p1", score=None, dump="stock", facedown_dump=True):
    s = new("spite_malice")
    base = {"p1.hand": ["3S", "4S", "5S", "6S", "7S"], "p2.hand": ["3H", "4H", "5H", "6H", "7H"],
            "p1.payoff": ["#9D", "#9D", "TD"], "p2.payoff": ["#9C", "#9C", "TC"]}
    base.update(pm)
    position(s, base, dump, turn=turn, score=score, facedown_dump=facedown_dump)
    return s


def test_spite_malice_centre_stacks_start_with_an_ace_any_suit():
    s = sm({"p1.hand": ["AH", "2D", "5S", "6S", "7S"]})
    ms = moves(s)
    assert "p1.hand:AH>center1" in ms
    assert "p1.hand:2D>center1" not in ms
    err_move(s, "p1.hand:2D>center1")


def test_spite_malice_centre_builds_upward_regardless_of_suit():
    s = sm({"center1": ["AS", "2S"], "p1.hand": ["3H", "4D", "5S", "6S", "7S"]})
    ms = moves(s)
    assert "p1.hand:3H>center1" in ms
    assert "p1.hand:4D>center1" not in ms
    ok_move(s, "p1.hand:3H>center1")
    ok_move(s, "p1.hand:4D>center1")
    assert piles(s)["center1"] == ["AS", "2S", "3H", "4D"]


def test_spite_malice_king_on_empty_stack_counts_as_ace():
    s = sm({"p1.hand": ["KH", "2D", "5S", "6S", "7S"]})
    assert "p1.hand:KH>center1" in moves(s)
    ok_move(s, "p1.hand:KH>center1")
    assert "p1.hand:2D>center1" in moves(s)


def test_spite_malice_king_on_ten_counts_as_jack():
    s = sm({"center1": ["AS", "2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "TC"],
            "p1.hand": ["KH", "QD", "2D", "5H", "6H"]})
    assert "p1.hand:QD>center1" not in moves(s)
    ok_move(s, "p1.hand:KH>center1")
    assert "p1.hand:QD>center1" in moves(s)


def test_spite_malice_completed_stack_is_shuffled_into_the_stock():
    c = ["AS", "2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "TS", "JS"]
    s = sm({"center1": c, "p1.hand": ["QH", "2D", "5H", "6H", "8D"]})
    n0 = len(piles(s)["stock"])
    ok_move(s, "p1.hand:QH>center1")
    p = piles(s)
    assert p["center1"] == []
    assert len(p["stock"]) == n0 + 12
    assert Counter(bare(x) for x in p["stock"]) >= Counter(c + ["QH"])


def test_spite_malice_king_standing_for_queen_completes_the_stack():
    c = ["AS", "2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "TS", "JS"]
    s = sm({"center1": c, "p1.hand": ["KH", "2D", "5H", "6H", "8D"]})
    ok_move(s, "p1.hand:KH>center1")
    assert piles(s)["center1"] == []


def test_spite_malice_completion_shuffle_is_reproducible():
    c = ["AS", "2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "TS", "JS"]
    outs = []
    for _ in range(2):
        s = sm({"center1": c, "p1.hand": ["QH", "2D", "5H", "6H", "8D"]})
        ok_move(s, "p1.hand:QH>center1")
        outs.append(s.command("state"))
    assert outs[0] == outs[1]


def test_spite_malice_play_payoff_top_onto_centre_reveals_next():
    s = sm({"p1.payoff": ["#9D", "#5D", "AD"]})
    assert "p1.payoff>center2" in moves(s)
    ok_move(s, "p1.payoff>center2")
    p = piles(s)
    assert p["center2"] == ["AD"]
    assert p["p1.payoff"][-1] == "5D"


def test_spite_malice_play_side_top_onto_centre():
    s = sm({"p1.side1": ["9H", "AC"], "p1.side2": ["AH", "8C"]})
    ms = moves(s)
    assert "p1.side1>center1" in ms
    assert "p1.side2>center1" not in ms
    err_move(s, "p1.side2>center1")


def test_spite_malice_hand_to_side_any_card_whatever_is_there_and_ends_turn():
    s = sm({"p1.side1": ["2C"], "p2.hand": ["3H", "4H"]})
    assert "p1.hand:7S>p1.side1" in moves(s)
    ok_move(s, "p1.hand:7S>p1.side1")
    d = st(s)
    assert d["piles"]["p1.side1"] == ["2C", "7S"]
    assert d["turn"] == "p2"


def test_spite_malice_next_player_draws_until_hand_holds_5():
    s = sm({"p2.hand": ["3H", "4H"]})
    ok_move(s, "p1.hand:7S>p1.side1")
    assert len(piles(s)["p2.hand"]) == 5


def test_spite_malice_playing_whole_hand_onto_centre_draws_5_more():
    s = sm({"p1.hand": ["AS"], "center1": []})
    n0 = len(piles(s)["stock"])
    ok_move(s, "p1.hand:AS>center1")
    p = piles(s)
    assert len(p["p1.hand"]) == 5
    assert len(p["stock"]) == n0 - 5
    assert st(s)["turn"] == "p1"


def test_spite_malice_never_side_to_side_nor_payoff_to_side():
    s = sm({"p1.side1": ["9H"], "p1.side2": ["5C"]})
    ms = moves(s)
    assert not any(m.startswith("p1.side1>p1.side") for m in ms)
    assert not any(m.startswith("p1.payoff>p1.side") for m in ms)
    err_move(s, "p1.side1>p1.side2")
    err_move(s, "p1.payoff>p1.side1")


def test_spite_malice_other_player_cannot_move_out_of_turn():
    s = sm({"p2.hand": ["AH", "4H", "5H", "6H", "7H"]})
    assert not any(m.startswith("p2") for m in moves(s))
    err_move(s, "p2.hand:AH>center1")


def test_spite_malice_cannot_play_a_card_not_in_hand():
    s = sm({})
    err_move(s, "p1.hand:AH>center1")


def test_spite_malice_last_payoff_card_wins_and_scores_opponent_payoff_count():
    s = sm({"p1.payoff": ["AD"], "p2.payoff": ["#9C"] * 0 + ["#2C", "#3C", "#4C", "#5C", "#6C", "#7C", "8C"]})
    ok_move(s, "p1.payoff>center1")
    d = st(s)
    assert d["status"] == "over"
    assert d["score"] == {"p1": 7, "p2": 0}


def test_spite_malice_deal_starts_next_game_loser_starts_score_kept():
    s = sm({"p1.payoff": ["AD"], "p2.payoff": ["#2C", "#3C", "8C"]})
    ok_move(s, "p1.payoff>center1")
    assert "deal" in moves(s)
    ok_move(s, "deal")
    d = st(s)
    assert d["status"] == "playing"
    assert d["turn"] == "p2"
    assert d["score"] == {"p1": 3, "p2": 0}
    p = d["piles"]
    assert len(p["p1.payoff"]) == 20 and len(p["p2.payoff"]) == 20
    assert all(p[f"center{i}"] == [] for i in range(1, 4))
    assert all(p[f"p{n}.side{i}"] == [] for n in (1, 2) for i in range(1, 5))


def test_spite_malice_deal_refused_during_a_game():
    s = sm({})
    assert "deal" not in moves(s)
    err_move(s, "deal")


def test_spite_malice_first_to_50_wins_the_match_and_deal_is_refused():
    s = sm({"p1.payoff": ["AD"], "p2.payoff": ["#2C", "#3C", "#4C", "#5C", "8C"]},
           score={"p1": 45, "p2": 30})
    ok_move(s, "p1.payoff>center1")
    d = st(s)
    assert d["status"] == "over"
    assert d["score"] == {"p1": 50, "p2": 30}
    assert "deal" not in moves(s)
    err_move(s, "deal")


def test_spite_malice_stock_exhausted_is_a_draw_nobody_scores():
    s = sm({"p2.hand": ["3H", "4H"]}, dump="p2.side1", facedown_dump=False, score={"p1": 4, "p2": 9})
    # every other card is parked on p2's first side stack: the stock is empty
    assert piles(s)["stock"] == []
    ok_move(s, "p1.hand:7S>p1.side1")
    d = st(s)
    assert d["status"] == "over"
    assert d["score"] == {"p1": 4, "p2": 9}


# ======================================================= NERTS
def test_nerts_layout_per_player_and_shared_foundations():
    p = piles(new("nerts", "seed=6"))
    for n in ("p1", "p2"):
        ne = p[f"{n}.nerts"]
        assert len(ne) == 13 and all(c.startswith("#") for c in ne[:-1]) and not ne[-1].startswith("#")
        for i in range(1, 5):
            w = p[f"{n}.work{i}"]
            assert len(w) == 1 and not w[0].startswith("#")
        assert len(p[f"{n}.stock"]) == 35 and all(c.startswith("#") for c in p[f"{n}.stock"])
        assert p[f"{n}.waste"] == []
    assert [k for k in p if k.startswith("found")] == [f"found{i}" for i in range(1, 9)]
    assert all(p[f"found{i}"] == [] for i in range(1, 9))


@pytest.mark.parametrize("k", [3, 4])
def test_nerts_players_option_four_foundations_per_player(k):
    p = piles(new("nerts", f"players={k}"))
    assert [x for x in p if x.startswith("found")] == [f"found{i}" for i in range(1, 4 * k + 1)]
    for n in range(1, k + 1):
        assert len(p[f"p{n}.nerts"]) == 13
    assert st(new("nerts", f"players={k}"))["score"] == {f"p{n}": 0 for n in range(1, k + 1)}


def test_nerts_each_player_has_a_whole_deck_of_their_own():
    p = piles(new("nerts", "seed=2"))
    for n in ("1", "2"):
        own = [bare(c) for v in p.values() for c in v if c.endswith(n)]
        assert sorted(c[:-1] for c in own) == sorted(DECK)


def test_nerts_jokers_option_adds_two_jokers_per_deck():
    p = piles(new("nerts", "jokers=1"))
    for n in ("p1", "p2"):
        assert len(p[f"{n}.nerts"]) == 13
        assert len(p[f"{n}.stock"]) == 37


def test_nerts_jokers_off_by_default():
    p = piles(new("nerts"))
    assert not any("JK" in c for v in p.values() for c in v)


def nerts(pm, players=2, score=None, opts=()):
    s = new("nerts", f"players={players}", *opts)
    base = {}
    for n in range(1, players + 1):
        base[f"p{n}.nerts"] = ["#QC%d" % n, "KC%d" % n]
        for i in range(1, 5):
            base[f"p{n}.work{i}"] = []
    base.update(pm)
    position(s, base, None, score=score, dump_fn=lambda c: f"p{c[-1]}.stock")
    return s


def test_nerts_work_piles_build_down_in_alternating_colours():
    s = nerts({"p1.work1": ["8S1"], "p1.nerts": ["#QC1", "7H1"], "p1.work2": ["7S1"], "p1.work3": ["6H1"],
               "p1.work4": ["7D1"]})
    ms = moves(s)
    assert "p1.nerts>p1.work1" in ms
    assert "p1.work2>p1.work1" not in ms  # same colour
    assert "p1.work3>p1.work1" not in ms  # not one lower
    assert "p1.work4>p1.work1" in ms
    ok_move(s, "p1.nerts>p1.work1")
    assert piles(s)["p1.work1"] == ["8S1", "7H1"]


def test_nerts_move_top_K_cards_together():
    s = nerts({"p1.work1": ["TH1", "9C1", "8H1"], "p1.work2": ["TD1"], "p1.work3": ["2S1"], "p1.work4": ["2H1"]})
    assert "p1.work1*2>p1.work2" in moves(s)
    ok_move(s, "p1.work1*2>p1.work2")
    p = piles(s)
    assert p["p1.work2"] == ["TD1", "9C1", "8H1"]
    assert p["p1.work1"] == ["TH1"]


def test_nerts_move_K_cards_must_fit_as_a_sequence():
    s = nerts({"p1.work1": ["TH1", "9C1", "8H1"], "p1.work2": ["TD1"], "p1.work3": ["2S1"], "p1.work4": ["2H1"]})
    err_move(s, "p1.work1*3>p1.work2")
    err_move(s, "p1.work1*4>p1.work2")


def test_nerts_empty_work_pile_filled_from_nerts_work_or_waste():
    s = nerts({"p1.work1": [], "p1.work2": ["KD1", "QS1"], "p1.work3": ["2S1"], "p1.work4": ["2H1"],
               "p1.nerts": ["#QC1", "9D1"], "p1.waste": ["4C1"]})
    ms = moves(s)
    assert "p1.nerts>p1.work1" in ms
    assert "p1.work2>p1.work1" in ms
    assert "p1.waste>p1.work1" in ms


def test_nerts_nerts_top_played_next_card_turns_face_up():
    s = nerts({"p1.nerts": ["#5D1", "#QC1", "AS1"]})
    ok_move(s, "p1.nerts>found1")
    p = piles(s)
    assert p["p1.nerts"] == ["#5D1", "QC1"]
    assert p["found1"] == ["AS1"]


def test_nerts_foundation_started_by_any_ace_in_an_empty_slot():
    s = nerts({"p1.nerts": ["#QC1", "AH1"], "found1": ["AS2"]})
    ms = moves(s)
    assert "p1.nerts>found1" not in ms
    for i in range(2, 9):
        assert f"p1.nerts>found{i}" in ms


def test_nerts_non_ace_cannot_start_a_foundation():
    s = nerts({"p1.nerts": ["#QC1", "2H1"]})
    assert not any(">found" in m for m in moves(s))
    err_move(s, "p1.nerts>found1")


def test_nerts_foundations_build_up_in_suit_by_any_player():
    s = nerts({"found3": ["AS1"], "p2.nerts": ["#QC2", "2S2"], "p1.work1": ["2H1"], "p2.work1": ["3S2"]})
    ms = moves(s)
    assert "p2.nerts>found3" in ms
    assert "p1.work1>found3" not in ms
    assert "p2.work1>found3" not in ms
    ok_move(s, "p2.nerts>found3")
    assert piles(s)["found3"] == ["AS1", "2S2"]


def test_nerts_waste_top_plays_to_foundation_or_work():
    s = nerts({"p1.waste": ["3D1", "AD1"], "p1.work1": ["4S1"]})
    ms = moves(s)
    assert "p1.waste>found1" in ms
    ok_move(s, "p1.waste>found1")
    assert "p1.waste>p1.work1" in moves(s)


def test_nerts_only_waste_top_can_be_played():
    s = nerts({"p1.waste": ["AD1", "3D1"]})
    assert "p1.waste>found1" not in moves(s)


def test_nerts_work_top_goes_to_foundation():
    s = nerts({"p1.work2": ["2S1", "AD1"]})
    assert "p1.work2>found1" in moves(s)


def test_nerts_completed_foundation_takes_no_more_cards():
    s = nerts({"found1": [r + "S1" for r in RANKS], "p1.nerts": ["#QC1", "AS2"][:1] + ["2H1"]},
              opts=())
    assert "p1.nerts>found1" not in moves(s)


def test_nerts_flip_turns_three_third_from_top_becomes_waste_top():
    s = nerts({"p1.stock": ["#9D1", "#4C1", "#5C1", "#6C1"]})
    # the remaining p1 cards are dumped under the stock; top is 6C1
    p0 = piles(s)
    assert p0["p1.stock"][-3:] == ["#4C1", "#5C1", "#6C1"]
    ok_move(s, "p1:flip")
    p = piles(s)
    assert p["p1.waste"] == ["6C1", "5C1", "4C1"]
    assert p["p1.stock"] == p0["p1.stock"][:-3]


def test_nerts_flip_fewer_than_three_turns_them_all():
    s = nerts({"p1.stock": ["#4C1", "#5C1"]}, )
    # dump lands in the stock too: move dumped cards out by loading directly
    d = st(s)
    extra = d["piles"]["p1.stock"][:-2]
    d["piles"]["p1.stock"] = ["#4C1", "#5C1"]
    d["piles"]["p1.waste"] = [bare(c) for c in extra]
    assert s.command("load " + json.dumps(d)) == "ok"
    ok_move(s, "p1:flip")
    p = piles(s)
    assert p["p1.stock"] == []
    assert p["p1.waste"][-2:] == ["5C1", "4C1"]


def test_nerts_flip_with_empty_stock_turns_waste_over_bottom_card_on_top():
    s = nerts({})
    d = st(s)
    w = [bare(c) for c in d["piles"]["p1.stock"]]
    d["piles"]["p1.stock"] = []
    d["piles"]["p1.waste"] = w
    assert s.command("load " + json.dumps(d)) == "ok"
    ok_move(s, "p1:flip")
    p = piles(s)
    assert bare(p["p1.stock"][-1]) == w[0] or p["p1.waste"][-1] == w[0 + 2]
    # turned over: the new stock is the waste reversed, face down
    assert [bare(c) for c in p["p1.stock"]] == list(reversed(w)) or p["p1.waste"]
    assert all(c.startswith("#") for c in p["p1.stock"])


def test_nerts_turning_waste_over_makes_its_bottom_card_the_stock_top():
    s = nerts({})
    d = st(s)
    w = [bare(c) for c in d["piles"]["p1.stock"]]
    d["piles"]["p1.stock"] = []
    d["piles"]["p1.waste"] = w
    assert s.command("load " + json.dumps(d)) == "ok"
    ok_move(s, "p1:flip")
    p = piles(s)
    assert p["p1.waste"] == []
    assert p["p1.stock"] == ["#" + c for c in reversed(w)]


def test_nerts_cycle_moves_stock_top_to_bottom_when_stuck():
    s = nerts({"p1.nerts": ["#QC1", "KC1"], "p1.work1": ["5H1"], "p1.work2": ["5D1"],
               "p1.work3": ["9H1"], "p1.work4": ["9D1"]})
    p0 = piles(s)
    assert "p1:cycle" in moves(s)
    ok_move(s, "p1:cycle")
    p = piles(s)
    assert p["p1.stock"] == [p0["p1.stock"][-1]] + p0["p1.stock"][:-1]


def test_nerts_call_only_when_nerts_pile_empty():
    s = nerts({})
    assert "p1:nerts" not in moves(s)
    err_move(s, "p1:nerts")


def test_nerts_call_ends_round_at_once_and_scores():
    s = nerts({"p1.nerts": [], "found1": ["AS1", "2S1", "3S2"], "found2": ["AH2"],
               "p2.nerts": ["#QC2", "#JC2", "KC2"]})
    assert "p1:nerts" in moves(s)
    ok_move(s, "p1:nerts")
    d = st(s)
    assert d["status"] == "over"
    # p1: +2 on foundations, 0 in nerts; p2: +2 on foundations, -2*3
    assert d["score"] == {"p1": 2, "p2": 2 - 6}


def test_nerts_need_not_call_keep_playing():
    s = nerts({"p1.nerts": [], "p1.work1": ["AD1"]})
    assert "p1.work1>found1" in moves(s)
    ok_move(s, "p1.work1>found1")
    assert st(s)["status"] == "playing"


def test_nerts_scores_add_up_over_rounds_and_deal_starts_next_round():
    s = nerts({"p1.nerts": [], "found1": ["AS1"]}, score={"p1": 10, "p2": 5})
    ok_move(s, "p1:nerts")
    d = st(s)
    assert d["score"] == {"p1": 11, "p2": 5 - 4}
    assert "deal" in moves(s)
    ok_move(s, "deal")
    d = st(s)
    assert d["status"] == "playing"
    assert d["score"] == {"p1": 11, "p2": 1}
    assert len(d["piles"]["p1.nerts"]) == 13 and len(d["piles"]["p1.stock"]) == 35
    assert all(d["piles"][f"found{i}"] == [] for i in range(1, 9))


def test_nerts_deal_refused_during_a_round():
    s = nerts({})
    err_move(s, "deal")


def test_nerts_game_over_at_default_target_100_deal_refused():
    s = nerts({"p1.nerts": [], "found1": ["AS1", "2S1"]}, score={"p1": 98, "p2": 0})
    ok_move(s, "p1:nerts")
    d = st(s)
    assert d["status"] == "over" and d["score"]["p1"] == 100
    assert "deal" not in moves(s)
    err_move(s, "deal")


def test_nerts_below_target_deal_allowed():
    s = nerts({"p1.nerts": [], "found1": ["AS1"]}, score={"p1": 98, "p2": 0})
    ok_move(s, "p1:nerts")
    assert st(s)["score"]["p1"] == 99
    ok_move(s, "deal")


def test_nerts_target_option():
    s = new("nerts", "target=10")
    d = st(s)
    d["piles"] = {k: [] for k in d["piles"]}
    t = nerts({"p1.nerts": [], "found1": ["AS1", "2S1"]}, score={"p1": 8, "p2": 0}, opts=("target=10",))
    ok_move(t, "p1:nerts")
    assert st(t)["score"]["p1"] == 10
    err_move(t, "deal")


def test_nerts_joker_to_foundation_must_be_declared():
    s = nerts({"p1.nerts": ["#QC1", "JK1"]}, opts=("jokers=1",))
    err_move(s, "p1.nerts>found1")
    assert "p1.nerts>found1=AS" in moves(s) or any(m.startswith("p1.nerts>found1=") for m in moves(s))
    ok_move(s, "p1.nerts>found1=AH")
    assert piles(s)["found1"][-1] == "JK1"


def test_nerts_joker_declaration_must_fit_the_foundation():
    s = nerts({"p1.nerts": ["#QC1", "JK1"], "found1": ["AS1"]}, opts=("jokers=1",))
    err_move(s, "p1.nerts>found1=3S")
    err_move(s, "p1.nerts>found1=2H")
    ok_move(s, "p1.nerts>found1=2S")


def test_nerts_joker_on_work_pile_need_not_be_declared():
    s = nerts({"p1.nerts": ["#QC1", "JK1"], "p1.work1": ["8S1"]}, opts=("jokers=1",))
    assert "p1.nerts>p1.work1" in moves(s)
    ok_move(s, "p1.nerts>p1.work1")


def test_nerts_sliding_under_same_result_as_filling_space_and_moving_pile():
    s = nerts({"p1.work1": [], "p1.work2": ["8S1", "7H1"], "p1.nerts": ["#QC1", "9H1"],
               "p1.work3": ["2C1"], "p1.work4": ["2D1"]})
    before = s.command("state")
    found = False
    for tok in moves(s):
        s.command("move " + tok)
        p = piles(s)
        if any(p[f"p1.work{i}"] == ["9H1", "8S1", "7H1"] for i in range(1, 5)) and p["p1.nerts"] == ["QC1"]:
            found = True
        s.command("undo")
        assert s.command("state") == before
    assert found


def test_nerts_stock_and_other_players_cards_keep_owner_on_foundations():
    s = nerts({"found1": ["AS1"], "p2.work1": ["2S2"]})
    ok_move(s, "p2.work1>found1")
    assert piles(s)["found1"] == ["AS1", "2S2"]


# ======================================================= further checks
def test_spite_malice_undo_after_a_turn_ending_move():
    s = sm({})
    before = s.command("state")
    ok_move(s, "p1.hand:7S>p1.side1")
    assert s.command("undo") == "ok"
    assert s.command("state") == before


def test_spite_malice_moves_lists_each_token_once_with_duplicate_hand_cards():
    s = sm({"p1.hand": ["7S", "7S", "AH", "AH", "5D"]})
    toks = moves(s)
    assert len(toks) == len(set(toks))
    assert "p1.hand:7S>p1.side1" in toks and "p1.hand:AH>center1" in toks


def test_spite_malice_stock_exhausted_when_emptied_hand_cannot_be_refilled():
    s = sm({"p1.hand": ["AS"], "p2.hand": ["3H", "4H", "5H", "6H", "7H"],
            "stock": ["#2C", "#3C"]}, dump="p2.side1", facedown_dump=False)
    ok_move(s, "p1.hand:AS>center1")
    d = st(s)
    assert d["status"] == "over"
    assert d["score"] == {"p1": 0, "p2": 0}


def test_spite_malice_no_moves_after_game_over():
    s = sm({"p1.payoff": ["AD"], "p2.payoff": ["#2C", "8C"]})
    ok_move(s, "p1.payoff>center1")
    assert moves(s) == ["deal"]


def test_spite_malice_payoff_top_only():
    s = sm({"p1.payoff": ["#AD", "5D"]})
    assert not any(m.startswith("p1.payoff>") for m in moves(s))
    err_move(s, "p1.payoff>center1")


def test_casket_no_redeal_draw_refused_when_stock_empty():
    pm = {"waste": [], "jewels": [], "lid1": [], "lid2": [], "lid3": [], "lid4": [], "lid5": []}
    for i, su in enumerate(SUITS):
        pm[f"found{2 * i + 1}"] = _casket_found(su, 13)
        pm[f"found{2 * i + 2}"] = _casket_found(su, 12 if su == "C" else 13)
    pm["body1"] = ["KC"]
    s = casket(pm)
    assert piles(s)["stock"] == []
    assert "draw" not in moves(s)
    err_move(s, "draw")


def test_casket_lid_may_go_onto_a_non_empty_body_down_in_suit():
    s = casket({"lid1": ["9H"], "body1": ["TH"], "jewels": JEWELS})
    ok_move(s, "lid1>body1")
    p = piles(s)
    assert p["body1"] == ["TH", "9H"]
    assert p["lid1"] == ["AC"]


def test_casket_lid_to_reserve_refills_the_lid():
    s = casket({"lid2": ["9H"], "jewels": JEWELS})
    ok_move(s, "lid2>res1")
    p = piles(s)
    assert p["res1"] == ["9H"] and p["lid2"] == ["AC"]


def test_nerts_a_player_cannot_move_another_players_cards_to_own_pile():
    s = nerts({"p2.nerts": ["#QC2", "7H2"], "p1.work1": ["8S1"]})
    assert "p2.nerts>p1.work1" not in moves(s)
    err_move(s, "p2.nerts>p1.work1")


def test_nerts_K_cards_move_only_between_work_piles():
    s = nerts({"p1.nerts": ["#QC1", "#8H1", "9C1"], "p1.work1": ["TD1"]})
    err_move(s, "p1.nerts*2>p1.work1")


def test_nerts_load_then_ticks_with_bots_are_reproducible():
    a = new("nerts", "seed=12")
    a.command("bots on")
    for _ in range(5):
        a.command("tick 1000")
    saved = a.command("state")
    for _ in range(5):
        a.command("tick 1000")
    b = new("nerts", "seed=1")
    assert b.command("load " + saved) == "ok"
    b.command("bots on")
    for _ in range(5):
        b.command("tick 1000")
    assert b.command("state") == a.command("state")


def test_tick_with_a_bad_number_is_an_error():
    s = new("aces_up")
    before = s.command("state")
    assert s.command("tick abc").startswith("error: ")
    assert s.command("state") == before


def test_loaded_status_is_kept_for_a_playing_position():
    s = aces({"col1": ["5H"], "col2": ["9H"], "col3": ["2S"], "col4": ["3C"]})
    assert st(s)["status"] == "playing"


def test_spite_malice_hand_made_stack_with_a_king_inside_counts_the_king_as_the_card_it_stands_for():
    s = sm({"center1": ["AS", "KH"], "p1.hand": ["3D", "2D", "5H", "6H", "8D"]})
    ms = moves(s)
    assert "p1.hand:3D>center1" in ms
    assert "p1.hand:2D>center1" not in ms


def test_spite_malice_king_on_king_on_empty_stack_counts_as_two():
    s = sm({"center1": ["KH", "KD"], "p1.hand": ["3D", "2D", "5H", "6H", "8D"]})
    assert "p1.hand:3D>center1" in moves(s)


def test_spite_malice_hand_made_stack_of_eleven_with_kings_completes_with_queen():
    c = ["AS", "KS", "3S", "4S", "KD", "6S", "7S", "8S", "9S", "TS", "KC"]
    s = sm({"center1": c, "p1.hand": ["QH", "2D", "5H", "6H", "8D"]})
    ok_move(s, "p1.hand:QH>center1")
    assert piles(s)["center1"] == []


def test_spite_malice_king_on_jack_counts_as_queen_and_completes():
    c = ["AS", "2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "TS", "JS"]
    s = sm({"center2": c, "p1.side3": ["KH"]})
    ok_move(s, "p1.side3>center2")
    assert piles(s)["center2"] == []


def test_nerts_hand_made_work_pile_with_a_joker_inside():
    s = nerts({"p1.work1": ["8S1", "JK1", "6S1"], "p1.nerts": ["#QC1", "5H1"]}, opts=("jokers=1",))
    assert "p1.nerts>p1.work1" in moves(s)


def test_nerts_hand_made_foundation_with_cards_of_several_owners():
    s = nerts({"found1": ["AS2", "2S1", "3S2"], "p1.nerts": ["#QC1", "4S1"]})
    assert "p1.nerts>found1" in moves(s)


def test_casket_lone_body_card_may_fill_another_empty_body_pile():
    s = casket({"body1": [], "body2": ["7H"], "jewels": JEWELS})
    assert "body2>body1" in moves(s)


def test_spite_malice_hand_card_only_onto_own_side_stacks():
    s = sm({})
    assert not any(">p2.side" in m for m in moves(s))
    err_move(s, "p1.hand:7S>p2.side1")


def test_spite_malice_deal_after_a_drawn_game_starts_the_next_game():
    s = sm({"p2.hand": ["3H", "4H"]}, dump="p2.side1", facedown_dump=False, score={"p1": 4, "p2": 9})
    ok_move(s, "p1.hand:7S>p1.side1")
    assert st(s)["status"] == "over"
    ok_move(s, "deal")
    d = st(s)
    assert d["status"] == "playing" and d["score"] == {"p1": 4, "p2": 9}


def _nerts_all_stuck_position():
    pm = {"found1": ["AS1"], "p1.waste": ["2S1"],
          "found2": [r + "H1" for r in RANKS], "found3": [r + "D1" for r in RANKS],
          "found4": [r + "C1" for r in RANKS],
          "p1.work1": ["KS1"], "p1.work2": ["QS1"], "p1.work3": ["JS1"], "p1.work4": ["TS1"],
          "p1.nerts": ["#3S1", "#4S1", "#5S1", "#6S1", "#7S1", "#8S1", "9S1"],
          "found5": [r + "H2" for r in RANKS], "found6": [r + "D2" for r in RANKS],
          "found7": [r + "C2" for r in RANKS],
          "p2.work1": ["KS2"], "p2.work2": ["QS2"], "p2.work3": ["JS2"], "p2.work4": ["TS2"],
          "p2.nerts": ["#AS2", "#2S2", "#3S2", "#4S2", "#5S2", "#6S2", "#7S2", "#8S2", "9S2"]}
    return pm


def test_nerts_round_ends_when_every_player_is_stuck_and_is_scored_as_usual():
    s = nerts(_nerts_all_stuck_position())
    assert piles(s)["p1.stock"] == [] and piles(s)["p2.stock"] == []
    assert "p1.waste>found1" in moves(s)
    ok_move(s, "p1.waste>found1")
    d = st(s)
    assert d["status"] == "over"
    assert d["score"] == {"p1": 41 - 14, "p2": 39 - 18}


def _invariants(s, deck_counter):
    d = json.loads(s.command("state"))
    assert list(d.keys()) == KEYS
    cnt = Counter(bare(c) for v in d["piles"].values() for c in v)
    assert cnt == deck_counter
    line = s.command("moves")
    toks = line.split(" ") if line else []
    assert toks == sorted(toks) and len(set(toks)) == len(toks)
    h = s.command("hint")
    assert (h in toks) if toks else h == "none"
    if d["status"] != "playing":
        assert toks in ([], ["deal"])
    return d, toks


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_random_playout_keeps_every_card_and_protocol_invariants(game, seed):
    import random
    rnd = random.Random(seed)
    s = new(game, f"seed={seed}")
    d0 = st(s)
    deck = Counter(bare(c) for v in d0["piles"].values() for c in v)
    for _ in range(150):
        d, toks = _invariants(s, deck)
        if not toks:
            break
        tok = s.command("hint") if rnd.random() < 0.5 else rnd.choice(toks)
        assert s.command("move " + tok) == "ok", tok


def test_nerts_K_cards_may_fill_an_empty_work_pile():
    s = nerts({"p1.work1": ["TH1", "9C1", "8H1"], "p1.work2": ["2S1"], "p1.work3": [], "p1.work4": ["2H1"]})
    assert "p1.work1*2>p1.work3" in moves(s)
    ok_move(s, "p1.work1*2>p1.work3")
    assert piles(s)["p1.work3"] == ["9C1", "8H1"]


def test_nerts_whole_work_pile_moves_onto_a_fitting_pile():
    s = nerts({"p1.work1": ["9C1", "8H1"], "p1.work2": ["TD1"], "p1.work3": ["2S1"], "p1.work4": ["2H1"]})
    ok_move(s, "p1.work1*2>p1.work2")
    p = piles(s)
    assert p["p1.work1"] == [] and p["p1.work2"] == ["TD1", "9C1", "8H1"]


def test_nerts_single_work_card_moves_with_plain_token():
    s = nerts({"p1.work1": ["9C1", "8H1"], "p1.work2": ["9S1"], "p1.work3": ["2S1"], "p1.work4": ["2H1"]})
    assert "p1.work1>p1.work2" in moves(s)
    ok_move(s, "p1.work1>p1.work2")
    assert piles(s)["p1.work2"] == ["9S1", "8H1"]


def test_nerts_three_players_call_scores_every_player():
    s = nerts({"p1.nerts": [], "found1": ["AS1", "2S3"], "p3.nerts": ["#QC3", "KC3"]}, players=3)
    ok_move(s, "p1:nerts")
    d = st(s)
    assert d["status"] == "over"
    assert d["score"] == {"p1": 1, "p2": -4, "p3": 1 - 4}


def test_nerts_moves_list_both_players_simultaneously():
    s = nerts({"p1.nerts": ["#QC1", "AS1"], "p2.nerts": ["#QC2", "AH2"]})
    ms = moves(s)
    assert "p1.nerts>found1" in ms and "p2.nerts>found1" in ms
    assert st(s)["turn"] is None


def test_spite_malice_second_player_moves_on_their_turn():
    s = sm({})
    ok_move(s, "p1.hand:7S>p1.side1")
    ms = moves(s)
    assert ms and all(m.startswith("p2") for m in ms)


def test_spite_malice_second_player_win_scores_for_p2():
    s = sm({"p2.payoff": ["AD"], "p1.payoff": ["#2C", "#3C", "8C"]}, turn="p2", score={"p1": 10, "p2": 20})
    ok_move(s, "p2.payoff>center3")
    d = st(s)
    assert d["status"] == "over" and d["score"] == {"p1": 10, "p2": 23}
    ok_move(s, "deal")
    assert st(s)["turn"] == "p1"


def test_new_resets_clock_and_undo_history():
    s = new("sir_tommy")
    ok_move(s, "current>res1")
    s.command("tick 500")
    assert s.command("new sir_tommy") == "ok"
    assert st(s)["clock_ms"] == 0
    assert s.command("undo") == "error: nothing to undo"


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("seed", [4, 5])
def test_load_round_trips_every_state_reached_in_play(game, seed):
    import random
    rnd = random.Random(seed)
    s = new(game, f"seed={seed}")
    for _ in range(120):
        line = s.command("state")
        t = ProtocolSession()
        t.command("new " + game)
        t.command("bots off")
        assert t.command("load " + line) == "ok", line
        assert t.command("state") == line
        assert t.command("moves") == s.command("moves")
        toks = moves(s)
        if not toks:
            break
        ok_move(s, rnd.choice(toks))


def test_spite_malice_state_after_a_won_game_loads_and_deals():
    s = sm({"p1.payoff": ["AD"], "p2.payoff": ["#2C", "8C"]})
    ok_move(s, "p1.payoff>center1")
    line = s.command("state")
    t = new("spite_malice")
    assert t.command("load " + line) == "ok"
    assert t.command("state") == line
    ok_move(t, "deal")


def test_nerts_state_after_a_called_round_loads_and_deals():
    s = nerts({"p1.nerts": [], "found1": ["AS1"]})
    ok_move(s, "p1:nerts")
    line = s.command("state")
    t = new("nerts")
    assert t.command("load " + line) == "ok"
    assert t.command("state") == line
    ok_move(t, "deal")


def test_aces_up_won_whatever_columns_the_four_aces_stand_in():
    s = aces({"col1": ["AH", "AS"], "col2": ["AD"], "col3": ["AC"], "col4": ["2C"]}, dump="discard")
    ok_move(s, "col4>discard")
    d = st(s)
    assert len(d["piles"]["discard"]) == 48
    assert d["status"] == "won"


def test_nerts_second_player_may_call_when_their_nerts_pile_is_empty():
    s = nerts({"p2.nerts": [], "found1": ["AD2"]})
    assert "p2:nerts" in moves(s) and "p1:nerts" not in moves(s)
    ok_move(s, "p2:nerts")
    d = st(s)
    assert d["status"] == "over" and d["score"] == {"p1": -4, "p2": 1}


def test_nerts_no_play_after_round_over_except_deal():
    s = nerts({"p1.nerts": [], "p1.work1": ["AD1"]})
    ok_move(s, "p1:nerts")
    assert moves(s) == ["deal"]
    err_move(s, "p1.work1>found1")


def test_nerts_joker_on_work_pile_value_fixed_once_a_card_is_played_onto_it():
    s = nerts({"p1.work1": ["JK1"], "p1.nerts": ["#QC1", "#4H1", "5H1"], "p1.work2": ["4S1"],
               "p1.work3": ["KC1"], "p1.work4": ["KH1"]}, opts=("jokers=1",))
    assert "p1.nerts>p1.work1" in moves(s)
    ok_move(s, "p1.nerts>p1.work1")  # the joker now stands for a black six
    assert piles(s)["p1.work1"] == ["JK1", "5H1"]
    assert "p1.nerts>p1.work1" not in moves(s)  # 4H on 5H: same colour
    assert "p1.work2>p1.work1" in moves(s)  # 4S on 5H


def test_nerts_joker_moving_from_work_pile_to_foundation_is_declared():
    s = nerts({"p1.work1": ["JK1"], "found1": ["AD2"], "p1.work2": ["KD1"], "p1.work3": ["KH1"],
               "p1.work4": ["KS1"]}, opts=("jokers=1",))
    err_move(s, "p1.work1>found1")
    ok_move(s, "p1.work1>found1=2D")
    assert piles(s)["found1"] == ["AD2", "JK1"]


def test_nerts_card_after_declared_joker_follows_the_declared_value():
    s = nerts({"found1": ["AS1"], "p1.nerts": ["#3S1", "JK1"]}, opts=("jokers=1",))
    ok_move(s, "p1.nerts>found1=2S")
    assert "p1.nerts>found1" in moves(s)
    ok_move(s, "p1.nerts>found1")
    assert piles(s)["found1"] == ["AS1", "JK1", "3S1"]


def test_nerts_joker_on_foundation_counts_for_its_owner():
    s = nerts({"p1.nerts": [], "found1": ["AS2", "JK1"]}, opts=("jokers=1",))
    ok_move(s, "p1:nerts")
    assert st(s)["score"] == {"p1": 1, "p2": 1 - 4}


def test_spite_malice_undo_after_several_moves_ending_the_turn():
    s = sm({"p1.payoff": ["#9D", "#5D", "AD"]})
    ok_move(s, "p1.payoff>center1")
    mid = s.command("state")
    ok_move(s, "p1.hand:7S>p1.side1")
    assert s.command("undo") == "ok"
    assert s.command("state") == mid


def test_nerts_round_ends_when_every_player_is_stuck_after_going_through_their_stock():
    pm = _nerts_all_stuck_position()
    pm["found1"] = ["AS1", "2S1"]
    pm["p1.waste"] = []
    pm["p1.nerts"] = pm["p1.nerts"][:-2] + ["8S1"]
    pm["p1.stock"] = ["#9S1"]
    pm["p2.nerts"] = pm["p2.nerts"][:-2] + ["8S2"]
    pm["p2.stock"] = ["#9S2"]
    s = nerts(pm)
    for _ in range(20):
        if st(s)["status"] != "playing":
            break
        for n in ("p1", "p2"):
            toks = [m for m in moves(s) if m.startswith(n)]
            if toks:
                ok_move(s, toks[0])
    d = st(s)
    assert d["status"] == "over"
    assert d["score"] == {"p1": 41 - 12, "p2": 39 - 16}


@pytest.mark.parametrize("line", ["move", "load", "load ", "tick", "new", "move col1>", "bots", "xyzzy"])
def test_error_form_is_error_colon_space_and_a_reason_state_unchanged(line):
    s = new("aces_up", "seed=2")
    before = s.command("state")
    r = s.command(line)
    assert r.startswith("error: ") and len(r) > len("error: ")
    assert s.command("state") == before


def test_unknown_game_in_load_is_an_error():
    s = new("aces_up")
    d = st(s)
    d["game"] = "chess"
    _load_err(s, d, "unknown game 'chess': expected one of " + ", ".join(games.names()))
