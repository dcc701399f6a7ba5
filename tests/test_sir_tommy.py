"""Sir Tommy, rule profile 1: one test per rule sentence, through the protocol."""

import json
import random

import pytest

from tests.helpers import RUNTIMES, Driver, protocol
from tests.perft import engine_perft, engine_perft_micropython, reference_perft

RANKS = "A23456789TJQK"
ALL = [r + s for s in "SHDC" for r in RANKS]
PILES = ["stock", "current", "found1", "found2", "found3", "found4", "res1", "res2", "res3", "res4"]


def position(current=(), res=((), (), (), ()), stock=(), found=None):
    """A Sir Tommy state: the given current card, holding piles and stock top.

    Foundations are given as four lists, or (found=None) built as high as the cards left
    allow, each from the Ace up, any suits; what still remains goes under the given stock.
    """
    placed = list(current) + [c for pile in res for c in pile] + list(stock)
    if found is not None:
        placed += [c for pile in found for c in pile]
    rest = [c for c in ALL if c not in placed]
    if found is None:
        found = []
        for _ in range(4):
            pile = []
            for rank in RANKS:
                card = next((c for c in rest if c[0] == rank), None)
                if card is None:
                    break
                rest.remove(card)
                pile.append(card)
            found.append(pile)
    piles = {"stock": ["#" + c for c in rest + list(stock)], "current": list(current)}
    for i in range(4):
        piles["found%d" % (i + 1)] = list(found[i])
    for i in range(4):
        piles["res%d" % (i + 1)] = list(res[i])
    return {"game": "sir_tommy", "rules": 1, "seed": 1, "status": "playing", "turn": None,
            "clock_ms": 0, "piles": piles, "score": {}, "rng": 12345}


def driver(**kw):
    d = Driver("new sir_tommy")
    assert d.load(position(**kw)) == "ok"
    return d


# Cards and layout

def test_one_standard_52_card_deck_no_jokers():
    for seed in (1, 5, 77):
        names = [c.lstrip("#") for p in Driver("new sir_tommy seed=%d" % seed).piles().values() for c in p]
        assert sorted(names) == sorted(ALL)


def test_the_piles_are_named_as_the_rule_profile_says():
    assert list(Driver("new sir_tommy").piles()) == PILES


def test_start_all_52_cards_in_the_stock_and_the_first_card_turned_into_current_at_once():
    for seed in (1, 2, 3):
        piles = Driver("new sir_tommy seed=%d" % seed).piles()
        assert len(piles["stock"]) == 51 and len(piles["current"]) == 1
        assert all(piles[p] == [] for p in PILES[2:])


def test_the_stock_is_face_down_and_every_other_card_face_up():
    d = Driver("new sir_tommy seed=4")
    d.ok("move current>res1")
    d.ok("move draw")
    piles = d.piles()
    assert all(c.startswith("#") for c in piles["stock"])
    assert not any(c.startswith("#") for p in PILES[1:] for c in piles[p])


def test_current_holds_at_most_one_card():
    state = position(current=["5H"])
    state["piles"]["current"].append(state["piles"]["stock"].pop().lstrip("#"))
    assert "error: load:" in Driver("new sir_tommy").expect_error("load " + json.dumps(state))


def test_each_foundation_starts_with_any_ace():
    for ace in ("AS", "AH", "AD", "AC"):
        d = driver(current=[ace], found=[[], [], [], []], stock=[c for c in ALL if c != ace])
        assert [m for m in d.moves() if ">found" in m] == ["current>found%d" % i for i in range(1, 5)]
    d = driver(current=["2S"], found=[[], [], [], []], stock=[c for c in ALL if c != "2S"])
    assert not [m for m in d.moves() if ">found" in m]
    assert "starts with an Ace" in d.expect_error("move current>found1")


def test_foundations_build_from_the_ace_up_to_the_king_suit_and_colour_never_matter():
    # found1 holds AS 2H 3D; the next card is any 4, whatever its suit or colour.
    for four in ("4S", "4H", "4D", "4C"):
        d = driver(current=[four], found=[["AS", "2H", "3D"], [], [], []],
                   stock=[c for c in ALL if c not in (four, "AS", "2H", "3D")])
        assert "current>found1" in d.moves()
        assert d.ok("move current>found1") == "ok"
        assert d.piles()["found1"] == ["AS", "2H", "3D", four]
    d = driver(current=["5C"], found=[["AS", "2H", "3D"], [], [], []],
               stock=[c for c in ALL if c not in ("5C", "AS", "2H", "3D")])
    assert "not next on found1" in d.expect_error("move current>found1")


def test_any_card_of_the_required_rank_may_go_on_any_foundation():
    d = driver(current=["5D"], found=[["AS", "2S", "3S", "4S"], ["AH", "2H", "3H", "4H"], [], []],
               stock=[c for c in ALL if c[0] not in "A234" and c != "5D"] + ["AD", "2D", "3D", "4D", "AC",
                                                                            "2C", "3C", "4C"])
    assert d.moves() == ["current>found1", "current>found2"] + ["current>res%d" % i for i in range(1, 5)]


def test_holding_piles_take_any_card_whatever_its_rank_or_suit():
    d = driver(current=["KC"], res=[["2H"], ["KS"], [], ["9D"]])
    assert ["current>res%d" % i for i in range(1, 5)] == [m for m in d.moves() if ">res" in m]
    assert d.ok("move current>res1") == "ok"
    assert d.piles()["res1"] == ["2H", "KC"]


def test_only_the_top_card_of_a_holding_pile_can_leave_it():
    # An ace buried under a king stays put; the king on top cannot go anywhere yet.
    d = driver(res=[["AH", "KS"], [], [], []], found=[[], [], [], []],
               stock=[c for c in ALL if c not in ("AH", "KS")])
    assert d.moves() == ["draw"]
    d.expect_error("move res1>found1")


# Moves

def test_the_current_card_goes_to_a_foundation_if_its_rank_is_next_there():
    d = driver(current=["AH"], found=[[], [], [], []], stock=[c for c in ALL if c != "AH"])
    assert d.ok("move current>found3") == "ok"
    piles = d.piles()
    assert piles["found3"] == ["AH"] and piles["current"] == []


def test_the_current_card_goes_onto_any_holding_pile():
    for i in range(1, 5):
        d = driver(current=["7S"], res=[["3C"], [], ["QH", "2D"], []])
        before = d.piles()["res%d" % i]
        assert d.ok("move current>res%d" % i) == "ok"
        assert d.piles()["res%d" % i] == before + ["7S"] and d.piles()["current"] == []


def test_the_top_card_of_a_holding_pile_goes_to_a_foundation_when_its_rank_is_next_there():
    d = driver(res=[["9C", "3D"], ["4H"], [], []], found=[["AS", "2C"], [], [], []],
               stock=[c for c in ALL if c not in ("9C", "3D", "4H", "AS", "2C")])
    assert "res1>found1" in d.moves() and "res2>found1" not in d.moves()
    assert d.ok("move res1>found1") == "ok"
    assert "res2>found1" in d.moves()
    assert d.ok("move res2>found1") == "ok"
    assert d.piles()["found1"] == ["AS", "2C", "3D", "4H"] and d.piles()["res1"] == ["9C"]


def test_cards_never_move_from_one_holding_pile_to_another():
    d = driver(res=[["9C"], [], ["8C"], []])
    assert not [m for m in d.moves() if m.startswith("res") and ">res" in m]
    assert "never move from one holding pile to another" in d.expect_error("move res1>res2")
    d.expect_error("move res3>res1")


def test_cards_never_leave_a_foundation():
    d = driver(current=["9C"], found=[["AS"], [], [], []], stock=[c for c in ALL if c not in ("9C", "AS")])
    assert not [m for m in d.moves() if m.startswith("found")]
    for dst in ("res1", "current", "found2"):
        assert "never leave a foundation" in d.expect_error("move found1>" + dst)


def test_draw_turns_the_next_stock_card_into_current():
    d = driver(stock=["4D", "JS"])
    assert d.moves() == ["draw"]
    assert d.ok("move draw") == "ok"
    piles = d.piles()
    assert piles["current"] == ["JS"] and piles["stock"][-1] == "#4D"


def test_draw_is_legal_only_when_current_is_empty():
    d = driver(current=["5S"], stock=["4D", "JS"])
    assert "draw" not in d.moves()
    assert "must be placed before the next draw" in d.expect_error("move draw")
    d.ok("move current>res1")
    assert "draw" in d.moves()


def test_there_is_no_redeal_when_the_stock_is_empty_it_stays_empty():
    d = driver(current=["KS"], res=[["KH"], [], [], []])  # found1..found2 full, found3/4 at Q
    piles = d.piles()
    assert piles["stock"] == [] and len(piles["found1"]) == 13
    assert "draw" not in d.moves()
    d.ok("move current>res2")
    assert d.piles()["stock"] == [] and "draw" not in d.moves()
    assert "no redeal" in d.expect_error("move draw")


# End

def test_won_when_all_52_cards_are_on_the_foundations():
    d = driver(current=["KD"])
    assert d.state()["status"] == "playing"
    free = [m for m in d.moves() if ">found" in m]
    assert d.ok("move " + free[0]) == "ok"
    assert d.state()["status"] == "won"
    assert d.moves() == [] and d.ok("hint") == "none"
    assert d.expect_error("move draw") == "error: illegal move draw: the game is over"


def test_lost_when_stock_and_current_are_empty_and_no_holding_top_can_go_to_a_foundation():
    # Two queens buried under kings: found3 and found4 wait at the jack for good.
    d = driver(res=[["QS", "KS"], ["QH", "KH"], [], []])
    assert d.piles()["stock"] == [] and d.piles()["current"] == []
    assert d.state()["status"] == "lost" and d.moves() == []


def test_not_lost_while_a_holding_top_can_still_go_to_a_foundation():
    d = driver(res=[["QS", "KS"], ["KH", "QH"], [], []])
    assert d.state()["status"] == "playing"
    assert d.moves() == ["res2>found%d" % i for i in (3, 4)]
    d.ok("move res2>found3")  # QH: now either king may follow it
    assert d.state()["status"] == "playing" and d.moves() == ["res1>found3", "res2>found3"]
    d.ok("move res2>found3")  # KH: QS stays buried under KS for good
    assert d.state()["status"] == "lost" and d.moves() == []
    d.ok("undo")
    for move in ("res1>found3", "res1>found4", "res2>found4"):  # KS frees QS: won
        assert d.state()["status"] == "playing"
        assert d.ok("move " + move) == "ok", move
    assert d.state()["status"] == "won"


# Hints

def test_hint_plays_to_a_foundation_first():
    d = driver(current=["9C"], res=[["3H"], [], [], []], found=[["AS", "2C"], [], [], []],
               stock=[c for c in ALL if c not in ("9C", "3H", "AS", "2C")])
    assert d.ok("hint") == "res1>found1"


def test_hint_places_the_current_card_where_it_buries_the_least():
    def hint(res):
        placed = ["6C"] + [c for pile in res for c in pile]
        d = driver(current=["6C"], res=res, found=[[], [], [], []], stock=[c for c in ALL if c not in placed])
        return d.ok("hint")
    # on the 7 (needed just after the 6), not on the 2 (needed long before it) nor the ten
    assert hint([["2H"], ["TS"], ["7D"], []]) == "current>res3"
    assert hint([["2H"], ["3S"], [], ["4D"]]) == "current>res3"  # else an empty pile
    assert hint([["2H"], ["3S"], ["5D"], ["4D"]]) == "current>res3"  # else on the card needed last


def test_hint_draws_when_the_current_card_is_placed():
    d = driver(res=[["9C"], [], [], []], stock=["4D", "JS"])
    assert d.ok("hint") == "draw"


def foundation_cards(state):
    return sum(len(state["piles"]["found%d" % i]) for i in range(1, 5))


def test_following_the_hint_builds_far_more_than_random_play():
    # Measured over deals 0..39: on average 36 cards reach the foundations by the hint, 14 at random.
    rnd = random.Random(4)
    cards_placed = {"hint": 0, "random": 0}
    for seed in range(40):
        for how in cards_placed:
            d = Driver("new sir_tommy seed=%d" % seed)
            while d.state()["status"] == "playing":
                move = d.ok("hint") if how == "hint" else rnd.choice(d.moves())
                assert d.ok("move " + move) == "ok"
            cards_placed[how] += foundation_cards(d.state())
    assert cards_placed["hint"] > 2 * cards_placed["random"], cards_placed


# Bad input

def bad(change):
    state = Driver("new sir_tommy seed=6").state()
    change(state["piles"])
    return "load " + json.dumps(state)


def take_non_ace(stock):
    card = next(c for c in stock if c[1] != "A")
    stock.remove(card)
    return card.lstrip("#")


BAD_LOADS = [
    (lambda p: p["current"].append(p["stock"].pop().lstrip("#")), "holds more cards than it can"),
    (lambda p: p["found1"].append(take_non_ace(p["stock"])), "found1 is not built up from the Ace"),
    (lambda p: p["res1"].append(p["current"][0]), "duplicate card"),
    (lambda p: p["stock"].pop(), "missing cards"),
    (lambda p: p.update(waste=[]), "unknown pile 'waste'"),
]


@pytest.mark.parametrize("change,reason", BAD_LOADS)
def test_load_refuses_an_impossible_position_and_changes_nothing(change, reason):
    d = Driver("new sir_tommy seed=9")
    assert reason in d.expect_error(bad(change))


def test_load_refuses_a_foundation_not_built_ace_to_king_in_order():
    state = position(found=[["AS", "3H"], [], [], []], stock=["2H"])
    assert "found1 is not built up" in Driver("new sir_tommy").expect_error("load " + json.dumps(state))


def test_illegal_moves_say_why():
    d = driver(current=["5S"], res=[["9H"], [], [], []], stock=["4D"])
    assert "res2 is empty" in d.expect_error("move res2>found1")
    assert "turned into current by 'draw'" in d.expect_error("move stock>res1")
    assert "foundation or a holding pile" in d.expect_error("move res1>current")
    assert "no pile named 'waste'" in d.expect_error("move current>waste")


# The same scenarios on both runtimes

SCENARIO = [
    "new sir_tommy seed=3", "state", "moves", "hint", "move draw", "move current>res1", "moves",
    "move draw", "state", "move res1>res2", "move found1>res1", "undo", "undo", "undo", "state",
    "load " + json.dumps(position(res=[["QS", "KS"], ["KH", "QH"], [], []])), "moves", "hint",
    "move res2>found3", "state", "undo", "load " + json.dumps(position(current=["AS"], stock=["AS"])),
    "state", "quit",
]


@pytest.mark.parametrize("runtime", RUNTIMES)
def test_protocol_scenario_on_both_runtimes(runtime):
    out = protocol(SCENARIO, runtime)
    assert len(out) == len(SCENARIO) - 1
    assert out[4] == "error: illegal move draw: the current card must be placed before the next draw"
    assert out[-1].startswith("{") and "duplicate card 'AS'" in out[-2]
    assert out == protocol(SCENARIO, "cpython")


def test_play_whole_games_by_the_hint_identically_on_both_runtimes():
    lines = []
    for seed in (1, 7, 11):
        lines.append("new sir_tommy seed=%d" % seed)
        d = Driver("new sir_tommy seed=%d" % seed)
        while True:
            h = d.ok("hint")
            if h == "none":
                break
            lines += ["moves", "move " + h]
            d.ok("move " + h)
        lines += ["state", "undo", "state"]
    assert protocol(lines, "micropython") == protocol(lines, "cpython")


# The move generator against a slow reference written from the rule profile

def rank(card):
    return RANKS.index(card[0])


def next_on(found, card):
    return rank(card) == len(found)  # foundations build A, 2, 3 ... K whatever the suit


def reference_moves(piles):
    """Legal Sir Tommy tokens from the state's piles, the plain way."""
    if sum(len(piles["found%d" % i]) for i in range(1, 5)) == 52:
        return []
    moves = []
    if piles["current"]:
        card = piles["current"][0]
        moves += ["current>found%d" % i for i in range(1, 5) if next_on(piles["found%d" % i], card)]
        moves += ["current>res%d" % i for i in range(1, 5)]
    for r in range(1, 5):
        pile = piles["res%d" % r]
        if pile:
            moves += ["res%d>found%d" % (r, i) for i in range(1, 5) if next_on(piles["found%d" % i], pile[-1])]
    if not piles["current"] and piles["stock"]:
        moves.append("draw")
    return sorted(moves)


def reference_apply(piles, token):
    after = {name: list(cards) for name, cards in piles.items()}
    if token == "draw":
        after["current"].append(after["stock"].pop().lstrip("#"))
    else:
        src, dst = token.split(">")
        after[dst].append(after[src].pop())
    return after


def test_move_generator_agrees_with_the_reference_over_random_play():
    rnd = random.Random(2)
    positions = 0
    for seed in range(60):
        d = Driver("new sir_tommy seed=%d" % seed)
        while True:
            state = d.state()
            expected = reference_moves(state["piles"])
            assert d.moves() == expected, (seed, state)
            positions += 1
            if not expected:
                won = sum(len(state["piles"]["found%d" % i]) for i in range(1, 5)) == 52
                assert state["status"] == ("won" if won else "lost")
                break
            assert state["status"] == "playing"
            d.ok("move " + rnd.choice(expected))
    assert positions > 3000


# seed, depth, distinct positions within that many moves (the deal included), of the deals
# of the spectral generator (engine_core/rng.py)
PERFT = [(0, 12, 40881), (4, 12, 10921), (8, 12, 28569), (10, 12, 10921)]


@pytest.mark.parametrize("seed,depth,count", PERFT)
def test_perft_engine_and_reference_reach_the_same_positions(seed, depth, count):
    state = Driver("new sir_tommy seed=%d" % seed).state()
    assert reference_perft(state, depth, reference_moves, reference_apply) == count
    assert engine_perft("sir_tommy", seed, depth) == count


def test_perft_on_micropython_equals_cpython():
    assert engine_perft_micropython("sir_tommy", 5, 5) == engine_perft("sir_tommy", 5, 5)


# Advice shown to the player

def test_the_rules_page_shows_the_profiles_advice():
    from engine_core import games
    page = games.rules_text("sir_tommy").decode().lower()
    assert "a soon-needed low card can be buried under a high blocker" in page
    assert ("spread ranks over the four holding piles and keep likely foundation successors near "
            "their tops, rather than building one deep pile of mixed cards") in page
    for rule in ("only once the current card is placed", "no redeal", "all 52 cards on the foundations",
                 "only the top card of a holding pile"):
        assert rule in page, rule
