"""Aces Up, rule profile 1: one test per rule sentence, through the protocol."""

import pytest

from engine_core import cards
from tests.helpers import RUNTIMES, Driver, protocol

ALL = [r + s for s in "SHDC" for r in "A23456789TJQK"]


def position(cols, stock=(), status="playing"):
    """A legal Aces Up state: the given columns and stock; every other card discarded.

    Aces not placed go to the bottom of the stock, which is padded to a multiple of four.
    """
    placed = [c for col in cols for c in col] + list(stock)
    rest = [c for c in ALL if c not in placed]
    aces = [c for c in rest if c[0] == "A"]
    others = [c for c in rest if c[0] != "A"]
    stock = aces + list(stock)
    while len(stock) % 4:
        stock.insert(0, others.pop())
    piles = {"stock": ["#" + c for c in stock]}
    for i in range(4):
        piles["col%d" % (i + 1)] = list(cols[i])
    piles["discard"] = others
    return {"game": "aces_up", "rules": 1, "seed": 1, "status": status, "turn": None,
            "clock_ms": 0, "piles": piles, "score": {}, "rng": 12345}


def driver(cols, stock=()):
    d = Driver("new aces_up")
    assert d.load(position(cols, stock)) == "ok"
    return d


# Cards and layout

def test_deal_one_card_face_up_onto_each_column_48_stay_in_the_stock():
    for seed in (1, 2, 99):
        piles = Driver("new aces_up seed=%d" % seed).piles()
        assert len(piles["stock"]) == 48 and all(c.startswith("#") for c in piles["stock"])
        for i in range(1, 5):
            assert len(piles["col%d" % i]) == 1 and not piles["col%d" % i][0].startswith("#")
        assert piles["discard"] == []
        assert sorted(c.lstrip("#") for p in piles.values() for c in p) == sorted(ALL)


def test_one_standard_deck_no_jokers():
    d = Driver("new aces_up seed=5")
    names = [c.lstrip("#") for p in d.piles().values() for c in p]
    assert len(names) == 52 and len(set(names)) == 52 and "JK" not in names


def test_the_piles_are_named_as_the_rule_profile_says():
    assert list(Driver("new aces_up").piles()) == ["stock", "col1", "col2", "col3", "col4", "discard"]


# Move 1: discard

def test_discard_exposed_card_when_another_exposed_card_has_same_suit_and_higher_rank():
    d = driver([["5H"], ["9H"], ["2C"], ["3S"]])
    assert d.moves() == ["col1>discard"]
    assert d.ok("move col1>discard") == "ok"
    assert d.piles()["discard"][-1] == "5H" and d.piles()["col1"] == []


def test_the_discard_holds_the_removed_cards_face_up_in_order_of_removal():
    d = driver([["5H"], ["9H"], ["2H"], ["3S"]])
    assert d.ok("move col3>discard") == "ok" and d.ok("move col1>discard") == "ok"
    assert d.piles()["discard"][-2:] == ["2H", "5H"]
    d = driver([["5H"], ["9H"], ["2H"], ["3S"]])
    assert d.ok("move col1>discard") == "ok" and d.ok("move col3>discard") == "ok"
    assert d.piles()["discard"][-2:] == ["5H", "2H"]


def test_colour_alone_is_not_enough_to_discard():
    d = driver([["5H"], ["9D"], ["2C"], ["3S"]])
    assert "col1>discard" not in d.moves()
    assert d.expect_error("move col1>discard").startswith("error: illegal move")


def test_aces_rank_high_above_kings():
    d = driver([["KS"], ["AS"], ["2C"], ["3H"]])
    assert d.moves() == ["col1>discard"]


def test_an_ace_is_never_discarded():
    d = driver([["AS"], ["AH"], ["AD"], ["AC"]], stock=["2H", "3C", "4D", "5S"])
    assert d.moves() == ["deal"]
    d.expect_error("move col1>discard")


def test_only_the_top_card_of_a_column_is_exposed():
    # 2H is buried under 9C: the KH cannot be used to discard it, nor it discarded.
    d = driver([["2H", "9C"], ["KH"], ["3D"], ["4S"]])
    assert "col1>discard" not in d.moves()
    d2 = driver([["KH", "9C"], ["2H"], ["3D"], ["4S"]])  # a buried king outranks nothing
    assert "col2>discard" not in d2.moves()


def test_equal_ranks_of_a_suit_do_not_discard_each_other():
    d = driver([["5H"], ["5D"], ["5C"], ["5S"]])
    assert d.moves() == ["deal"]


# Move 2: move to an empty column

def test_top_card_may_move_into_an_empty_column_from_a_column_of_two_or_more():
    d = driver([["2H", "9C"], [], ["3D"], ["4S"]])
    assert d.moves() == ["col1>col2"]
    assert d.ok("move col1>col2") == "ok"
    p = d.piles()
    assert p["col1"] == ["2H"] and p["col2"] == ["9C"]


def test_a_move_to_an_empty_column_discards_nothing_but_can_expose_the_card_below():
    d = driver([["2H", "9C"], [], ["KH"], ["4S"]])
    discard = d.piles()["discard"]
    assert "col1>discard" not in d.moves()  # 2H is buried under 9C
    assert d.ok("move col1>col2") == "ok"
    assert d.piles()["discard"] == discard
    assert d.moves() == ["col1>discard"]  # the 2H, exposed now, is outranked by the KH


def test_moving_a_lone_card_to_an_empty_column_is_not_productive_and_not_legal():
    d = driver([["9C"], [], ["3D"], ["4S"]])
    assert "col1>col2" not in d.moves()
    assert "no" not in d.expect_error("move col1>col2")[:10]


def test_every_empty_column_is_a_destination():
    d = driver([["2H", "9C"], [], [], ["4S"]])
    assert d.moves() == ["col1>col2", "col1>col3"]


def test_cards_move_only_into_an_empty_column():
    d = driver([["2H", "9C"], ["TD"], ["3D"], ["4S"]])
    d.expect_error("move col1>col2")


# Move 3: deal

def test_deal_puts_one_stock_card_on_each_column_empty_columns_included():
    d = driver([["5C"], [], ["3D"], ["4S"]], stock=["QH", "JH", "TH", "9H"])
    # 5C is not outranked; col2 is empty but no column has two cards: deal is the only move.
    assert d.moves() == ["deal"]
    stock_before = d.piles()["stock"]
    assert d.ok("move deal") == "ok"
    p = d.piles()
    assert [p["col%d" % i][-1] for i in range(1, 5)] == [c.lstrip("#") for c in stock_before[-1:-5:-1]]
    assert p["col2"] == [stock_before[-2].lstrip("#")]
    assert len(p["stock"]) == len(stock_before) - 4


def test_deal_is_legal_only_when_no_discard_is_available():
    d = driver([["5H"], ["9H"], ["2C"], ["3S"]], stock=["QD", "JD", "TD", "9D"])
    assert "deal" not in d.moves()
    assert "still available" in d.expect_error("move deal")


def test_deal_is_legal_only_when_no_productive_move_to_an_empty_column_is_available():
    d = driver([["2H", "9C"], [], ["3D"], ["4S"]], stock=["QD", "JD", "TD", "9D"])
    assert d.moves() == ["col1>col2"]
    d.expect_error("move deal")


def test_deal_is_not_legal_from_an_empty_stock():
    d = driver([["AS", "2S"], ["AH"], ["AD"], ["AC", "3C"]])  # 2S, 3C: nothing outranks them
    d2 = driver([["AS"], ["AH"], ["AD"], ["AC"]], stock=["2H", "3C", "4D", "5S"])
    assert d2.moves() == ["deal"]
    assert d.state()["status"] == "lost"
    d.expect_error("move deal")


# End

def test_won_when_48_cards_are_discarded_and_the_four_aces_remain():
    d = driver([["AS"], ["AH"], ["AD", "KH"], ["AC"]])
    assert d.moves() == ["col3>discard"]
    d.ok("move col3>discard")
    s = d.state()
    assert s["status"] == "won" and len(s["piles"]["discard"]) == 48
    assert d.moves() == []
    assert d.ok("hint") == "none"


def test_lost_when_stock_is_empty_and_no_discard_or_productive_move_remains():
    d = driver([["AS", "2S"], ["AH", "3H"], ["AD", "4D"], ["AC", "5C"]])
    assert d.state()["status"] == "lost"
    assert d.moves() == []
    assert d.expect_error("move col1>discard") == "error: illegal move col1>discard: the game is over"


def test_not_lost_while_a_productive_move_remains_with_an_empty_stock():
    d = driver([["AS", "2S", "AH"], [], ["AD", "4D"], ["AC", "5C"]])
    assert d.state()["status"] == "playing"
    assert d.moves() == ["col1>col2", "col3>col2", "col4>col2"]


def test_undo_after_a_losing_move_returns_to_play():
    d = driver([["AS", "2S", "AH"], [], ["AD"], ["AC"]], stock=["2C", "3C", "4C", "5C"])
    before = d.ok("state")
    assert d.ok("move col1>col2") == "ok"
    assert d.ok("undo") == "ok"
    assert d.ok("state") == before


# The same scenarios on both runtimes

SCENARIO = [
    "new aces_up seed=3", "state", "moves", "hint", "move deal", "move col1>col9", "undo",
    "move col1>discard", "state", "tick 250", "state", "bots off", "bots on", "frobnicate", "quit",
]


@pytest.mark.parametrize("runtime", RUNTIMES)
def test_protocol_scenario_on_both_runtimes(runtime):
    out = protocol(SCENARIO, runtime)
    assert len(out) == len(SCENARIO) - 1
    assert out == protocol(SCENARIO, "cpython")


def test_play_whole_games_identically_on_both_runtimes():
    # Follow the hint to the end of three deals; every reply must match line for line.
    lines = []
    for seed in (1, 7, 11):
        lines.append("new aces_up seed=%d" % seed)
        d = Driver("new aces_up seed=%d" % seed)
        for _ in range(200):
            h = d.ok("hint")
            if h == "none":
                break
            lines += ["moves", "move " + h]
            d.ok("move " + h)
        lines += ["state", "undo", "state"]
    assert protocol(lines, "micropython") == protocol(lines, "cpython")


def test_card_ids_cover_one_deck():
    assert sorted(cards.name(c) for c in range(52)) == sorted(ALL)


# The move generator against a slow reference written from the rule profile

def reference_moves(piles):
    """Legal Aces Up tokens computed from the state's piles, the plain way."""
    order = "23456789TJQKA"
    tops = {i: piles["col%d" % i][-1] for i in range(1, 5) if piles["col%d" % i]}
    moves = set()
    for i, card in tops.items():
        for j, other in tops.items():
            if i != j and other[1] == card[1] and order.index(other[0]) > order.index(card[0]):
                moves.add("col%d>discard" % i)
    for i in range(1, 5):
        for j in range(1, 5):
            if len(piles["col%d" % i]) >= 2 and not piles["col%d" % j]:
                moves.add("col%d>col%d" % (i, j))
    if not moves and piles["stock"]:
        moves.add("deal")
    return sorted(moves)


def test_move_generator_agrees_with_the_reference_over_random_play():
    import random
    rnd = random.Random(2)
    positions = 0
    for seed in range(150):
        d = Driver("new aces_up seed=%d" % seed)
        while True:
            state = d.state()
            expected = reference_moves(state["piles"]) if state["status"] == "playing" else []
            assert d.moves() == expected, (seed, state)
            positions += 1
            if not expected:
                assert state["status"] in ("won", "lost")
                assert state["status"] == ("won" if len(state["piles"]["discard"]) == 48 else "lost")
                break
            d.ok("move " + rnd.choice(expected))
    assert positions > 3000


# Advice shown to the player

def test_the_rules_page_shows_the_profiles_advice():
    from engine_core import games
    page = games.rules_text("aces_up").decode().lower()
    assert ("watch suits with no high card exposed: several lower cards of that suit can pile up "
            "until their queen, king or ace appears") in page


def test_finish_refuses_a_loaded_position_with_an_ace_discarded_that_cannot_be_won():
    # load takes an ace on the discard; then four cards left are not the four aces, so
    # discarding down to four cards is no win and 'finish' must not call it clearly won.
    d = Driver("new aces_up")
    state = d.state()
    names = [r + s for s in "SHDC" for r in "A23456789TJQK"]
    cols = {"col1": ["AS"], "col2": ["AH"], "col3": ["AD"], "col4": ["KC", "2S"]}
    held = set(sum(cols.values(), []))
    state["piles"] = dict(stock=[], discard=[c for c in names if c not in held], **cols)
    assert d.load(state) == "ok"
    assert d.ok("finish").startswith("error:")
    assert d.state()["status"] == "playing"


def test_hint_answers_on_a_loaded_position_whose_deals_grow_a_column_past_sixteen_cards():
    # col4 holds 13 cards; four deals of four suits discard nothing and make it 17. The
    # hint's model holds 16 cards a column (engine_core/ai/aces_up.py _HEIGHT).
    d = Driver("new aces_up")
    state = d.state()
    names = [r + s for s in "SHDC" for r in "A23456789TJQK"]
    col4 = ["AC", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "TS", "2H", "3H", "4H", "5C"]
    cols = {"col1": ["JS"], "col2": ["JH"], "col3": ["JD"], "col4": col4}
    dealt = ["QS", "QH", "QD", "6C", "KS", "KH", "KD", "7C", "AS", "AH", "AD", "8C",
             "5H", "6H", "2D", "9C"]
    held = set(sum(cols.values(), [])) | set(dealt)
    state["piles"] = dict(stock=["#" + c for c in reversed(dealt)],
                          discard=[c for c in names if c not in held], **cols)
    assert d.load(state) == "ok"
    for _ in range(4):
        assert d.ok("move deal") == "ok"
    assert len(d.piles()["col4"]) == 17
    assert d.ok("hint") in d.moves()
