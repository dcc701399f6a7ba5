"""Casket Solitaire, rule profiles 2 (the default) and 1: one test per rule sentence, through
the protocol. The profiles differ in one sentence (a reserve stacks any number of cards, or
holds one); the tests of the other sentences play profile 2, those of that one both."""

import json
import random
from collections import Counter

import pytest

from tests.helpers import RUNTIMES, Driver, protocol
from tests.perft import engine_perft, engine_perft_micropython, reference_perft

RANKS = "A23456789TJQK"
ONE_DECK = [r + s for s in "SHDC" for r in RANKS]
FOUND_SUITS = "SSHHDDCC"
LIDS = ["lid%d" % i for i in range(1, 6)]
BODIES = ["body%d" % i for i in range(1, 9)]
RESERVES = ["res%d" % i for i in range(1, 4)]
FOUNDS = ["found%d" % i for i in range(1, 9)]
PILES = ["stock", "waste", "jewels"] + LIDS + BODIES + RESERVES + FOUNDS


def position(stock=(), found=None, rules=2, **given):
    """A Casket state with the given piles (keyword per pile name; the rest empty), under rule
    profile `rules`.

    Foundations are given as eight lists; a None (or found=None for all eight) is built as
    high as the cards left allow, two per suit in the order S S H H D D C C. What still
    remains goes under `stock`.
    """
    found = list(found or [None] * 8)
    rest = Counter(ONE_DECK * 2)
    placed = list(stock) + [c for cards in given.values() for c in cards]
    placed += [c for pile in found if pile is not None for c in pile]
    for card in placed:
        assert rest[card] > 0, "more than two " + card
        rest[card] -= 1
    for i, suit in enumerate(FOUND_SUITS):
        if found[i] is None:
            found[i] = []
            for rank in RANKS:
                if not rest[rank + suit]:
                    break
                rest[rank + suit] -= 1
                found[i].append(rank + suit)
    piles = {name: list(given.get(name, ())) for name in PILES}
    piles["stock"] = ["#" + c for c in sorted(rest.elements()) + list(stock)]
    for i, name in enumerate(FOUNDS):
        piles[name] = list(found[i])
    return {"game": "casket", "rules": rules, "seed": 1, "status": "playing", "turn": None,
            "clock_ms": 0, "piles": piles, "score": {}, "rng": 12345}


def driver(**kw):
    """A session holding position(**kw) (profile 2 unless rules=1 is given)."""
    d = Driver("new casket")
    reply = d.load(position(**kw))
    assert reply == "ok", reply
    return d


def names(piles):
    return [c.lstrip("#") for p in piles.values() for c in p]


# Cards and layout

def test_two_standard_decks_104_cards_no_jokers():
    for seed in (1, 8):
        cards = names(Driver("new casket seed=%d" % seed).piles())
        assert sorted(cards) == sorted(ONE_DECK * 2)


def test_the_piles_are_named_as_the_rule_profile_says():
    assert list(Driver("new casket").piles()) == PILES


def test_the_state_records_rules_2_no_turn_and_no_score_and_seed_defaults_to_1():
    text = Driver("new casket").ok("state")
    state = json.loads(text)
    assert list(state) == ["game", "rules", "seed", "status", "turn", "clock_ms", "piles", "score", "rng", "rng2",
                           "generator"]
    assert text.startswith('{"game": "casket", "rules": 2, "seed": 1, "status": "playing", "turn": null, ')
    assert state["score"] == {}
    assert text == Driver("new casket seed=1").ok("state") == Driver("new casket rules=2").ok("state")


def test_profile_1_stays_playable_as_an_option_and_deals_the_same_layout():
    one = Driver("new casket rules=1 seed=5").state()
    two = Driver("new casket seed=5").state()
    assert one["rules"] == 1 and two["rules"] == 2
    assert one["piles"] == two["piles"] and one["rng"] == two["rng"]


@pytest.mark.parametrize("line,reason", [
    ("new casket rules=3", "rules version 3 is not supported: casket plays rules 1 or 2"),
    ("new casket rules=0", "rules version 0 is not supported: casket plays rules 1 or 2"),
    ("new casket rules=x", "bad rules 'x': expected a whole number"),
    ("new aces_up rules=2", "rules version 2 is not supported: aces_up plays rules 1"),
    ("new sir_tommy rules=2", "rules version 2 is not supported: sir_tommy plays rules 1"),
])
def test_new_refuses_a_rule_profile_the_game_does_not_have(line, reason):
    d = Driver("new casket rules=1 seed=4")
    assert d.expect_error(line) == "error: " + reason
    assert Driver("new aces_up rules=1").ok("state") == Driver("new aces_up").ok("state")


def test_load_plays_the_profile_the_state_names_and_refuses_any_other():
    # A body card into an occupied reserve: legal under profile 2 only.
    given = dict(body1=["9H", "8H"], waste=["4H"], res1=["JH"])
    assert "body1>res1" in driver(**given).moves()
    d = driver(rules=1, **given)
    assert "body1>res1" not in d.moves() and d.state()["rules"] == 1
    for bad_rules in (0, 3, 17):
        reply = d.expect_error("load " + json.dumps(position(rules=bad_rules, **given)))
        assert reply == "error: load: rules version %d is not supported: casket plays rules 1 or 2" % bad_rules


def test_jewels_13_cards_face_down_except_the_top_card():
    jewels = Driver("new casket seed=3").piles()["jewels"]
    assert len(jewels) == 13
    assert all(c.startswith("#") for c in jewels[:-1]) and not jewels[-1].startswith("#")


def test_the_top_jewel_is_shown_but_never_played_directly():
    d = driver(jewels=["9D", "AS"], lid1=["KH"], lid2=["KH"], lid3=["KD"], lid4=["KD"], lid5=["KC"])
    assert not [m for m in d.moves() if m.startswith("jewels")]
    assert "never played directly" in d.expect_error("move jewels>found1")
    assert "never played directly" in d.expect_error("move jewels>res1")


def test_five_lid_piles_one_face_up_card_each():
    piles = Driver("new casket seed=4").piles()
    for lid in LIDS:
        assert len(piles[lid]) == 1 and not piles[lid][0].startswith("#")


def test_eight_body_piles_one_face_up_card_each():
    piles = Driver("new casket seed=4").piles()
    for body in BODIES:
        assert len(piles[body]) == 1 and not piles[body][0].startswith("#")


def test_three_reserves_empty_and_eight_foundations_empty():
    piles = Driver("new casket seed=4").piles()
    assert all(piles[p] == [] for p in RESERVES + FOUNDS)


def test_waste_one_face_up_card_and_stock_the_remaining_77_face_down():
    piles = Driver("new casket seed=4").piles()
    assert len(piles["waste"]) == 1 and not piles["waste"][0].startswith("#")
    assert len(piles["stock"]) == 77 and all(c.startswith("#") for c in piles["stock"])


# Move 1: foundations

def test_foundations_build_up_in_suit_from_ace_to_king():
    d = driver(found=[["AS", "2S"], []] + [None] * 6, waste=["3S"], lid1=["3H"], lid2=["AH"], lid3=["4S"],
               lid4=["9C"], lid5=["9C"], jewels=["TC"])
    moves = d.moves()
    assert "waste>found1" in moves and "lid1>found1" not in moves and "lid3>found1" not in moves
    assert "not next on found1" in d.expect_error("move lid1>found1")
    assert "starts with an Ace" in d.expect_error("move waste>found2")
    d.ok("move waste>found1")
    assert "lid3>found1" in d.moves()
    # an ace may start any empty foundation
    assert [m for m in d.moves() if m.startswith("lid2>found")] == ["lid2>found2", "lid2>found4"]


def test_foundations_end_at_the_king():
    d = driver(found=[[r + "S" for r in RANKS]] + [None] * 7, waste=["AS"])
    assert "waste>found1" not in d.moves() and "waste>found2" in d.moves()


def test_any_exposed_card_waste_reserve_lid_top_body_top_may_go_to_a_foundation():
    d = driver(waste=["KS"], res1=["KH"], lid1=["KD"], body1=["KC", "QC"])
    assert d.state()["status"] == "playing"
    moves = d.moves()
    for src, found in (("waste", 2), ("res1", 4), ("lid1", 6), ("body1", 8)):
        assert "%s>found%d" % (src, found) in moves, (src, moves)


def test_cards_never_leave_a_foundation():
    d = driver(waste=["KS"], res1=["KH"], lid1=["KD"], body1=["KC", "QC"])
    assert not [m for m in d.moves() if m.startswith("found")]
    for dst in ("body2", "res2", "found3", "body1"):
        assert "never leave a foundation" in d.expect_error("move found1>" + dst)


# Move 2: body piles

def test_body_piles_build_down_in_suit():
    d = driver(body1=["TH"], waste=["9H"], res1=["9D"], res2=["8H"], lid1=["JH"])
    moves = d.moves()
    assert "waste>body1" in moves and "res1>body1" not in moves and "res2>body1" not in moves
    assert "lid1>body1" not in moves  # up is not down
    assert "down in suit: 9D does not go on TH" in d.expect_error("move res1>body1")
    d.ok("move waste>body1")
    assert d.piles()["body1"] == ["TH", "9H"]
    assert "res2>body1" in d.moves()


def test_body_piles_take_the_waste_reserves_lid_tops_and_other_body_tops():
    d = driver(jewels=["5C"], lid1=["8S"], lid2=["QD"], lid3=["QD"], lid4=["KC"], lid5=["KC"],
               body1=["9S"], body2=["7S"], body3=["6S"], body4=["5S"], waste=["4S"], res1=["8S"])
    moves = d.moves()
    for move in ("lid1>body1", "res1>body1", "body3>body2", "body4>body3", "waste>body4"):
        assert move in moves, move
    d.ok("move body3>body2")
    assert d.piles()["body2"] == ["7S", "6S"] and d.piles()["body3"] == []


# Move 3: empty body piles

def test_an_empty_body_pile_may_be_filled_from_the_waste_a_reserve_or_another_body_pile():
    d = driver(jewels=["5C"], lid1=["8S"], lid2=["QD"], lid3=["QD"], lid4=["KC"], lid5=["KC"],
               body1=["9S", "8S"], waste=["4H"], res1=["JH"])
    moves = d.moves()
    for src in ("waste", "res1", "body1"):
        assert [m for m in moves if m.startswith(src + ">body")] == [src + ">body%d" % i for i in range(2, 9)]
    d.ok("move res1>body5")
    assert d.piles()["body5"] == ["JH"] and d.piles()["res1"] == []


def test_a_lid_card_may_not_head_an_empty_body_pile():
    d = driver(jewels=["5C"], lid1=["8S"], lid2=["QD"], lid3=["QD"], lid4=["KC"], lid5=["KC"],
               body1=["9S"], waste=["4H"])
    moves = d.moves()
    assert [m for m in moves if m.startswith("lid") and ">body" in m] == ["lid1>body1"]
    assert "a lid card may not head an empty body pile" in d.expect_error("move lid2>body2")


def test_lids_never_head_an_empty_body_pile_over_random_play():
    rnd = random.Random(6)
    checked = 0
    for seed in range(25):
        d = Driver("new casket seed=%d" % seed)
        for _ in range(120):
            piles = d.piles()
            moves = d.moves()
            if not moves:
                break
            for m in moves:
                src, _, dst = m.partition(">")
                if src.startswith("lid") and dst.startswith("body"):
                    assert piles[dst], (seed, m)
                    checked += 1
            d.ok("move " + rnd.choice(moves))
    assert checked > 50


# Move 4: lids

def test_lids_accept_no_cards():
    d = driver(jewels=["5C"], lid1=["8S"], lid2=["QD"], lid3=["QD"], lid4=["KC"], lid5=["KC"],
               body1=["9S"], waste=["7S"], res1=["JD"])
    assert not [m for m in d.moves() if ">lid" in m]
    for src in ("waste", "res1", "body1", "lid2"):
        assert "lids accept no cards" in d.expect_error("move %s>lid1" % src)


def test_an_emptied_lid_is_refilled_at_once_from_the_top_of_the_jewel_pile():
    d = Driver("new casket seed=5")
    jewels = [c.lstrip("#") for c in d.piles()["jewels"]]
    assert d.ok("move lid1>res1") == "ok"
    piles = d.piles()
    assert piles["lid1"] == [jewels[-1]] and len(piles["jewels"]) == 12
    assert not piles["jewels"][-1].startswith("#")  # the next jewel is shown


def test_undo_puts_the_jewel_back():
    d = Driver("new casket seed=5")
    before = d.ok("state")
    d.ok("move lid1>res1")
    assert d.ok("undo") == "ok"
    assert d.ok("state") == before


def test_after_the_jewels_are_gone_an_emptied_lid_stays_empty():
    d = driver(jewels=["TC"], lid1=["KS"], lid2=["QD"], lid3=["QD"], lid4=["KC"], lid5=["KC"],
               waste=["JS"])
    d.ok("move lid2>res1")
    piles = d.piles()
    assert piles["lid2"] == ["TC"] and piles["jewels"] == []
    d.ok("move lid3>res2")
    assert d.piles()["lid3"] == []
    assert "lids accept no cards" in d.expect_error("move waste>lid3")
    d.ok("undo")
    assert d.piles()["lid3"] == ["QD"] and d.piles()["jewels"] == []


# Move 5: reserves

@pytest.mark.parametrize("rules,takers", [(2, ["res1", "res2", "res3"]), (1, ["res1", "res3"])])
def test_reserves_take_any_single_card_from_the_waste_a_lid_or_a_body_pile(rules, takers):
    d = driver(jewels=["5C"], lid1=["8S"], lid2=["QD"], lid3=["QD"], lid4=["KC"], lid5=["KC"],
               body1=["9H", "8H"], waste=["4H"], res2=["JH"], rules=rules)
    moves = d.moves()
    for src in ["waste", "body1"] + LIDS:
        assert [m for m in moves if m.startswith(src + ">res")] == [src + ">" + r for r in takers]
    d.ok("move body1>res3")
    assert d.piles()["res3"] == ["8H"] and d.piles()["body1"] == ["9H"]


def test_profile_2_a_reserve_holds_any_number_of_cards_stacked():
    d = driver(jewels=["5C"], lid1=["8S"], lid2=["QD"], lid3=["QD"], lid4=["KC"], lid5=["KC"],
               body1=["9H", "8H"], waste=["4H"], res1=["JH"], stock=["2C", "3D"])
    before = d.ok("state")
    d.ok("move waste>res1")
    d.ok("move body1>res1")
    d.ok("move lid1>res1")  # the jewel 5C refills lid1
    d.ok("move draw")
    d.ok("move waste>res1")
    piles = d.piles()
    assert piles["res1"] == ["JH", "4H", "8H", "8S", "3D"] and piles["lid1"] == ["5C"]
    assert piles["body1"] == ["9H"] and piles["waste"] == [] and piles["jewels"] == []
    for _ in range(5):
        d.ok("undo")
    assert d.ok("state") == before  # undo is exact, card by card


def test_profile_2_only_the_top_card_of_a_reserve_may_be_played_or_moved():
    # 8H lies under QS in res1: 9H wants it, found3 too (7H is up), yet only QS may move.
    d = driver(found=[None, None, ["AH", "2H", "3H", "4H", "5H", "6H", "7H"]] + [None] * 5,
               body1=["9H"], res1=["8H", "QS"], waste=["KC"])
    moves = d.moves()
    assert "res1>body1" not in moves and "res1>found3" not in moves
    assert [m for m in moves if m.startswith("res1>")] == ["res1>body2", "res1>body3", "res1>body4",
                                                           "res1>body5", "res1>body6", "res1>body7",
                                                           "res1>body8", "res1>found2"]
    assert "QS is not next" in d.expect_error("move res1>found3")
    assert "does not go on 9H" in d.expect_error("move res1>body1")
    d.ok("move res1>body2")
    assert "res1>body1" in d.moves() and "res1>found3" in d.moves()


def test_profile_1_a_reserve_holds_at_most_one_card():
    d = driver(jewels=["5C"], lid1=["8S"], lid2=["QD"], lid3=["QD"], lid4=["KC"], lid5=["KC"],
               waste=["4H"], res1=["JH"], rules=1)
    assert "waste>res1" not in d.moves()
    assert "res1 already holds a card (a reserve holds one under rules 1)" in d.expect_error("move waste>res1")


def test_profile_1_load_refuses_a_reserve_of_two_cards_that_profile_2_accepts():
    given = dict(res2=["JH", "4H"], waste=["KS"])
    assert driver(**given).piles()["res2"] == ["JH", "4H"]
    d = Driver("new casket")
    reply = d.expect_error("load " + json.dumps(position(rules=1, **given)))
    assert reply == "error: load: res2 holds 2 cards: a reserve holds one under rules 1"


def test_reserves_give_back_to_a_foundation_or_a_body_pile_not_to_another_reserve():
    d = driver(jewels=["5C"], lid1=["8S"], lid2=["QD"], lid3=["QD"], lid4=["KC"], lid5=["KC"],
               body1=["QH"], waste=["4H"], res1=["JH"], res2=["5C"])
    moves = d.moves()
    assert "res1>body1" in moves and "res2>found7" in moves
    assert not [m for m in moves if m.startswith("res") and ">res" in m]
    assert "never move from one reserve to another" in d.expect_error("move res1>res3")
    assert "never move from one reserve to another" in d.expect_error("move res1>res2")


# Move 6: draw

def test_draw_turns_the_next_stock_card_onto_the_waste():
    d = driver(jewels=["5C"], lid1=["8S"], lid2=["QD"], lid3=["QD"], lid4=["KC"], lid5=["KC"],
               stock=["2H", "9D"])
    assert "draw" in d.moves()
    d.ok("move draw")
    piles = d.piles()
    assert piles["waste"] == ["9D"] and piles["stock"][-1] == "#2H"


def test_draw_is_legal_only_when_the_waste_is_empty():
    d = Driver("new casket seed=2")
    assert "draw" not in d.moves()
    assert "waste card must be placed before the next draw" in d.expect_error("move draw")
    d.ok("move waste>res1")
    assert "draw" in d.moves()


def test_no_redeal():
    d = driver(jewels=["KC"], lid1=["KS"], lid2=["KS"], lid3=["KH"], lid4=["KH"], lid5=["KD"])
    assert d.piles()["stock"] == [] and "draw" not in d.moves()
    assert "no redeal" in d.expect_error("move draw")


# End

def test_won_when_all_104_cards_are_on_the_foundations():
    d = driver(lid1=["KH"])
    assert d.state()["status"] == "playing"
    d.ok("move lid1>found4")
    assert d.state()["status"] == "won" and d.moves() == [] and d.ok("hint") == "none"


# Every body top is a heart two ranks from the next, the foundations wait for 5H and JS
# (in the stock), the reserves are full and the waste king of spades fits nowhere.
STUCK = dict(body1=["KH"], body2=["KH"], body3=["JH"], body4=["JH"], body5=["9H"], body6=["9H"],
             body7=["7H"], body8=["7H"], res1=["KS"], res2=["QS"], res3=["QS"], waste=["KS"],
             stock=["5H", "5H", "JS", "JS"])


def test_lost_when_no_legal_move_remains_even_with_cards_in_the_stock():
    d = driver(rules=1, **STUCK)
    assert d.piles()["stock"] and d.piles()["found3"][-1] == "4H" and d.piles()["found1"][-1] == "TS"
    assert d.state()["status"] == "lost" and d.moves() == []
    assert d.expect_error("move draw") == "error: illegal move draw: the game is over"


def test_lost_when_the_stock_is_exhausted_and_nothing_else_can_move():
    # The cards the foundations need lie under the lids, whose cards fit nowhere; every body
    # pile wants a card that lies under another body pile's top or in the jewels.
    runs = [["KH", "QH"], ["KH", "QH"], ["JH", "TH"], ["JH", "TH"], ["9H", "8H"], ["9H", "8H"],
            ["7H", "6H"], ["7H", "6H"]]
    d = driver(jewels=["5H", "5H", "JD", "JD", "JS", "JS"], lid1=["KS"], lid2=["KS"], lid3=["QS"],
               lid4=["QS"], lid5=["KD"], res1=["QD"], res2=["QD"], res3=["KD"], rules=1,
               **{"body%d" % (i + 1): run for i, run in enumerate(runs)})
    piles = d.piles()
    assert piles["stock"] == [] and piles["waste"] == [] and len(piles["jewels"]) == 6
    assert d.state()["status"] == "lost" and d.moves() == []


def test_profile_2_a_stacking_reserve_always_takes_the_waste_card_so_the_stuck_position_plays_on():
    d = driver(**STUCK)
    assert d.state()["status"] == "playing"
    assert "waste>res1" in d.moves() and "body1>res3" in d.moves()
    d.ok("move waste>res1")
    d.ok("move draw")
    assert d.state()["status"] == "playing" and d.piles()["res1"] == ["KS", "KS"]


def test_profile_2_no_position_short_of_a_win_is_without_a_move():
    # A stacking reserve takes any waste, lid or body card; with those gone and the stock
    # drawn, every body pile is empty and takes a reserve card: "lost" never comes.
    d = driver(res1=["KH"], res2=["KH"], res3=["QH", "QH"])
    assert d.state()["status"] == "playing" and "res1>body1" in d.moves()
    rnd = random.Random(5)
    for seed in range(3):
        d = Driver("new casket seed=%d" % seed)
        for _ in range(300):
            moves = d.moves()
            assert moves and d.state()["status"] == "playing"
            d.ok("move " + rnd.choice(moves))


def test_not_lost_while_a_move_remains():
    position = dict(STUCK, res3=[], stock=["5H", "5H", "JS", "JS", "QS"], rules=1)
    d = driver(**position)
    assert d.state()["status"] == "playing"
    assert d.moves() == sorted(["body%d>res3" % i for i in range(1, 9)] + ["waste>res3"])
    d.ok("move waste>res3")
    assert d.moves() == ["draw"]
    d.ok("move draw")  # QS: nowhere to go
    assert d.state()["status"] == "lost"
    d.ok("undo")
    assert d.state()["status"] == "playing"


# Hints

def test_hint_prefers_a_foundation_then_a_lid_onto_a_body_pile():
    # The diamonds and clubs the foundations need next are in the stock: no lid plays there.
    closed = dict(jewels=["2D"], lid1=["8S"], lid2=["QD"], lid3=["QD"], lid4=["KC"], lid5=["KC"],
                  body1=["9S"], stock=["JD", "JD", "QC", "QC"])
    d = driver(found=[[r + "S" for r in "A23456"]] + [None] * 7, **closed)
    assert d.ok("hint") == "lid1>body1"
    d = driver(found=[[r + "S" for r in "A234567"]] + [None] * 7, **closed)
    assert d.ok("hint") == "lid1>found1"


def test_hint_puts_the_waste_into_an_empty_body_pile_before_a_reserve_and_then_draws():
    # Nothing fits anywhere: the cards the foundations need next are in the stock.
    closed = dict(jewels=["2D"], lid1=["KS"], lid2=["QD"], lid3=["QD"], lid4=["KC"], lid5=["KC"],
                  body1=["9H"], waste=["KH"], stock=["JD", "JD", "QC", "QC", "QS", "QS", "8H", "8H"])
    d = driver(**closed)
    assert d.ok("hint") == "waste>body2"
    full = dict(("body%d" % (i + 2), [c]) for i, c in enumerate(["9H", "TH", "TH", "JH", "JH", "QH", "QH"]))
    d = driver(**dict(closed, **full))
    # The one-move look-ahead frees body piles (a 9H onto a ten, ...) rather than spend a
    # reserve, puts the waste card into one of them, then draws.
    for _ in range(10):
        h = d.ok("hint")
        if h == "draw":
            break
        assert h.startswith("body") or h.startswith("waste>body"), h
        d.ok("move " + h)
    piles = d.piles()
    assert h == "draw" and piles["waste"] == [] and piles["res1"] == piles["res2"] == piles["res3"] == []


@pytest.mark.parametrize("rules", [1, 2])
def test_following_the_hint_plays_legal_moves_and_it_says_none_only_when_no_move_is_left(rules):
    ended = 0
    for seed in range(10):
        d = Driver("new casket rules=%d seed=%d" % (rules, seed))
        for _ in range(200):
            h = d.ok("hint")
            moves = d.moves()
            if h == "none":
                assert moves == [] and d.state()["status"] in ("won", "lost")
                ended += 1
                break
            assert h in moves
            d.ok("move " + h)
    # Profile 1: the rest shuttle a card between two equal targets, still playing. Profile 2
    # has no lost position (a stacking reserve always takes a card): "none" only once won.
    if rules == 1:
        assert ended >= 5


def test_profile_2_the_hint_wins_most_deals_playing_only_legal_moves():
    from engine_core import PLAYING, WON, games
    game = games.load("casket")()
    wins = 0
    for seed in range(40):
        game.deal(seed)
        while game.status() == PLAYING:
            m = game.hint()
            if m < 0:
                break
            assert game.is_legal(m), (seed, game.move_token(m))
            game.apply(m)
        wins += game.status() == WON
    assert wins >= 24  # 60%: 26 of deals 0..39 (docs/statistics.md)


def test_profile_2_the_hint_puts_the_waste_card_where_it_blocks_least():
    # No body pile is empty; the waste 5H is needed before the JC of res1 and after the 3D of
    # res2 (both foundations of each suit are at the Ace): onto res1, not over the 3D.
    bodies = dict(("body%d" % (i + 1), [c]) for i, c in enumerate(
        ["KS", "KS", "QH", "QH", "KD", "KD", "KC", "KC"]))
    d = driver(found=[["AS"], ["AS"], ["AH"], ["AH"], ["AD"], ["AD"], ["AC"], ["AC"]],
               res1=["JC"], res2=["3D"], waste=["5H"], stock=["9S"], **bodies)
    assert d.ok("hint") == "waste>res1"
    d = driver(found=[["AS"], ["AS"], ["AH"], ["AH"], ["AD"], ["AD"], ["AC"], ["AC"]],
               res1=["JC"], res2=["3D"], waste=["5H"], stock=["9S"], **dict(bodies, body8=[]))
    assert d.ok("hint") == "waste>body8"  # an empty body pile first: a run builds down on it


def test_profile_2_once_the_stock_is_out_the_hint_digs_a_reserve_to_a_playable_card():
    # 8D (found6 waits for it) lies under 9D in res1: 9D goes to an empty body pile, then
    # 8D, 9D, KH and the rest go up.
    d = driver(res1=["KD", "QD", "JD", "TD", "KH", "8D", "9D"])
    piles = d.piles()
    assert piles["stock"] == [] and piles["found6"][-1] == "7D" and piles["found4"][-1] == "QH"
    hints = []
    while d.state()["status"] == "playing":
        hints.append(d.ok("hint"))
        d.ok("move " + hints[-1])
    assert hints[:5] == ["res1>body1", "res1>found6", "body1>found6", "res1>found4", "res1>found6"]
    assert d.state()["status"] == "won"


def test_where_only_pointless_moves_remain_the_hint_still_names_one():
    # Seeds where the advisor finds nothing worth doing while moves remain.
    from engine_core import PLAYING, games
    from engine_core.protocol import state_json
    cls = games.load("casket")
    found = 0
    for seed in range(40):
        game = cls(1)
        game.deal(seed)
        for _ in range(300):
            m = game.hint()
            if m < 0:
                break
            game.apply(m)
        if game.status() == PLAYING and game.hint() < 0:
            d = Driver("new casket")
            d.ok("load " + state_json(game))
            assert d.moves() and d.ok("hint") in d.moves()
            found += 1
    assert found >= 2


# Bad input

def bad(change):
    state = Driver("new casket rules=1 seed=6").state()
    change(state["piles"])
    return "load " + json.dumps(state)


def move_card(piles, src, dst):
    piles[dst].append(piles[src].pop().lstrip("#"))


BAD_LOADS = [
    (lambda p: p["body1"].append(p["waste"][0]), "duplicate card"),  # a third copy
    (lambda p: move_card(p, "stock", "lid1"), "pile 'lid1' holds more cards than it can"),
    (lambda p: move_card(p, "lid2", "res1") or move_card(p, "stock", "res1") or move_card(p, "stock", "lid2"),
     "res1 holds 2 cards: a reserve holds one under rules 1"),
    (lambda p: move_card(p, "stock", "jewels"), "pile 'jewels' holds more cards than it can"),
    (lambda p: move_card(p, "stock", "waste"), "pile 'waste' holds more cards than it can"),
    (lambda p: move_card(p, "lid3", "res2"), "lid3 is empty while jewels remain"),
    (lambda p: p["stock"].pop(), "missing cards"),
    (lambda p: p.update(current=[]), "unknown pile 'current'"),
]


@pytest.mark.parametrize("change,reason", BAD_LOADS)
def test_load_refuses_an_impossible_position_and_changes_nothing(change, reason):
    d = Driver("new casket seed=9")
    assert reason in d.expect_error(bad(change))


def test_load_refuses_a_foundation_not_built_up_in_suit_from_the_ace():
    d = Driver("new casket")
    state = position(found=[["AS", "2H"]] + [None] * 7, body1=["KH"], waste=["KS"])
    assert "found1 is not built in suit" in d.expect_error("load " + json.dumps(state))
    state = position(found=[["2S"]] + [None] * 7, body1=["KH"], waste=["KS"])
    assert "found1 is not built up from the Ace" in d.expect_error("load " + json.dumps(state))


def test_load_refuses_a_body_pile_not_built_down_in_suit():
    d = Driver("new casket")
    for body in (["9H", "8D"], ["9H", "7H"], ["9H", "TH"]):
        state = position(body1=body, waste=["KS"])
        assert "body1 is not built down in suit" in d.expect_error("load " + json.dumps(state))


def test_load_accepts_a_position_reached_in_play_and_its_state_round_trips():
    d = Driver("new casket seed=13")
    for _ in range(30):
        h = d.ok("hint")
        if h == "none":
            break
        d.ok("move " + h)
    text = d.ok("state")
    e = Driver("new casket")
    assert e.ok("load " + text) == "ok" and e.ok("state") == text and e.ok("moves") == d.ok("moves")


def test_illegal_moves_say_why():
    d = Driver("new casket seed=2")
    assert "stock cards are turned onto the waste" in d.expect_error("move stock>res1")
    assert "onto its own pile" in d.expect_error("move body1>body1")
    assert "foundation, a body pile or a reserve" in d.expect_error("move body1>waste")
    assert "res1 is empty" in d.expect_error("move res1>body1")


# The same scenarios on both runtimes

NEARLY_LOST = position(**dict(STUCK, res3=[], stock=["5H", "5H", "JS", "JS", "QS"]))
THREE_KINGS = position(waste=["KS"], body1=["KS"])
THREE_KINGS["piles"]["res1"] = ["KS"]  # a card more than twice
SCENARIO = [
    "new casket seed=3", "state", "moves", "hint", "move draw", "move lid1>res1", "state", "undo",
    "state", "move waste>lid2", "move jewels>found1", "move res1>res2", "hint",
    "load " + json.dumps(NEARLY_LOST), "moves", "move waste>res3", "move draw", "state", "moves", "undo",
    "moves",
    "load " + json.dumps(THREE_KINGS), "state", "quit",
]


@pytest.mark.parametrize("runtime", RUNTIMES)
def test_protocol_scenario_on_both_runtimes(runtime):
    out = protocol(SCENARIO, runtime)
    assert len(out) == len(SCENARIO) - 1
    assert out[4] == "error: illegal move draw: the waste card must be placed before the next draw"
    assert out[-2] == "error: load: duplicate card 'KS'"
    assert out == protocol(SCENARIO, "cpython")


def test_play_whole_games_by_the_hint_identically_on_both_runtimes():
    lines = []
    for seed in (1, 7, 11):
        lines.append("new casket seed=%d" % seed)
        d = Driver("new casket seed=%d" % seed)
        for _ in range(150):
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


def foundation_takes(found, card):
    if not found:
        return card[0] == "A"
    return found[-1][1] == card[1] and rank(found[-1]) + 1 == rank(card)


def body_takes(body, card, from_lid):
    if not body:
        return not from_lid
    return body[-1][1] == card[1] and rank(body[-1]) == rank(card) + 1


def reference_moves(piles, rules=2):
    """Legal Casket tokens from the state's piles under rule profile `rules`, the plain way."""
    moves = []
    for src in ["waste"] + LIDS + BODIES + RESERVES:
        if not piles[src]:
            continue
        card = piles[src][-1]
        moves += [src + ">" + f for f in FOUNDS if foundation_takes(piles[f], card)]
        moves += [src + ">" + b for b in BODIES if b != src and body_takes(piles[b], card, src in LIDS)]
        if src not in RESERVES:
            moves += [src + ">" + r for r in RESERVES if rules == 2 or not piles[r]]
    if not piles["waste"] and piles["stock"]:
        moves.append("draw")
    return sorted(moves)


def reference_apply(piles, token):
    after = {name: [c.lstrip("#") for c in cards] for name, cards in piles.items()}
    if token == "draw":
        after["waste"].append(after["stock"].pop())
        return after
    src, dst = token.split(">")
    after[dst].append(after[src].pop())
    if src in LIDS and after["jewels"]:
        after[src].append(after["jewels"].pop())
    return after


@pytest.mark.parametrize("rules", [2, 1])
def test_move_generator_agrees_with_the_reference_over_random_play(rules):
    rnd = random.Random(2)
    positions = 0
    for seed in range(40):
        d = Driver("new casket rules=%d seed=%d" % (rules, seed))
        for _ in range(150):
            state = d.state()
            expected = reference_moves(state["piles"], rules)
            assert d.moves() == (expected if state["status"] == "playing" else []), (seed, state)
            positions += 1
            if not expected:
                won = sum(len(state["piles"][f]) for f in FOUNDS) == 104
                assert state["status"] == ("won" if won else "lost")
                break
            assert state["status"] == "playing"
            d.ok("move " + rnd.choice(expected))
    assert positions > 2000


# rules, seed, depth, distinct positions within that many moves (the deal included), of the
# deals of the spectral generator (engine_core/rng.py)
PERFT = [(2, 1, 2, 2374), (2, 2, 3, 68528), (2, 3, 2, 1921), (2, 42, 3, 40962),
         (1, 1, 2, 1816), (1, 2, 3, 30203), (1, 3, 2, 1360), (1, 42, 3, 10878)]


@pytest.mark.parametrize("rules,seed,depth,count", PERFT)
def test_perft_engine_and_reference_reach_the_same_positions(rules, seed, depth, count):
    state = Driver("new casket rules=%d seed=%d" % (rules, seed)).state()
    moves = lambda piles: reference_moves(piles, rules)  # noqa: E731
    assert reference_perft(state, depth, moves, reference_apply) == count
    assert engine_perft("casket", seed, depth, rules) == count


@pytest.mark.parametrize("rules", [2, 1])
def test_perft_on_micropython_equals_cpython(rules):
    assert engine_perft_micropython("casket", 5, 2, rules) == engine_perft("casket", 5, 2, rules)
