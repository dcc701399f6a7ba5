"""The Spite & Malice yardsticks (tools/players/arena_spite_malice.py): players with fixed rules
that the levels are measured against. They play only legal moves, and the payoff-aiming,
blocking and chaining greedy players and the planning one follow their rules in built positions."""

import json
from array import array

import pytest

from engine_core import PLAYING, games
from engine_core.state_text import load_state
from tests.test_spite_malice import position
from tools.players.arena_spite_malice import (REFERENCE, aiming_move, blocking_move, chaining_move, planning_move,
                                              play_game, run)

CLS = games.load("spite_malice")
RANKS = "A23456789TJQ"


def centre(n, suit):
    """A centre stack of n cards, ace upward, of one suit."""
    return [RANKS[i] + suit for i in range(n)]


def game_at(piles):
    game = load_state(json.dumps(position(piles)), None)
    game.bots = False
    return game


def choose(player, piles):
    game = game_at(piles)
    out = array("i", [0] * CLS.MAX_MOVES)
    m = player(game, out)
    assert game.is_legal(m)
    return game.move_token(m)


@pytest.mark.parametrize("name", sorted(REFERENCE))
def test_each_yardstick_plays_only_legal_moves_through_whole_deals(name):
    choose_move = REFERENCE[name]
    out = array("i", [0] * CLS.MAX_MOVES)
    moves = 0
    for seed in range(4):
        game = CLS(2)
        game.bots = False
        game.deal(seed)
        while game.status() == PLAYING and moves < 20000:
            n = game.legal_moves(out)
            legal = set(out[i] for i in range(n))
            m = choose_move(game, out)
            assert m in legal, (name, seed, m)
            game.apply(m)
            moves += 1
        assert game.status() != PLAYING
    assert moves > 200


def test_the_random_yardstick_finishes_deals_against_every_greedy_one():
    for name in ("greedy", "aiming", "blocking"):
        for seed in (0, 1):
            winner, turns = play_game("random", name, seed)[:2]
            assert winner != "a" and turns > 10  # the random player never wins these


# The payoff-aiming greedy, rule by rule (tools/players/arena_spite_malice.py, `aiming`)

def test_aiming_plays_its_payoff_card_first():
    piles = {"center1": centre(4, "S"), "p1.payoff": ["9C", "5H"], "p1.hand": ["AD", "2D", "9D", "9H", "TD"],
             "p1.side1": ["AC"]}
    assert choose(aiming_move, piles) == "p1.payoff>center1"


def test_aiming_opens_its_payoff_card_with_a_side_card_before_a_hand_card():
    # payoff 7: a stack of 5 cards needs a 6; the lowest stack (empty) would take the ace
    piles = {"center1": centre(5, "S"), "center2": centre(2, "H"), "p1.payoff": ["9C", "7C"],
             "p1.hand": ["6D", "AD", "9D", "9H", "TD"], "p1.side2": ["6H"]}
    assert choose(aiming_move, piles) == "p1.side2>center1"
    del piles["p1.side2"]
    assert choose(aiming_move, piles) == "p1.hand:6D>center1"


def test_aiming_plays_a_king_only_to_open_its_payoff_card():
    piles = {"center1": centre(5, "S"), "center2": centre(2, "H"), "p1.payoff": ["9C", "7C"],
             "p1.hand": ["KD", "3D", "9D", "9H", "TD"]}
    assert choose(aiming_move, piles) == "p1.hand:KD>center1"  # the king stands for the 6
    piles["center1"] = centre(4, "S")  # now a king would not open it: the 3 goes on
    assert choose(aiming_move, piles) == "p1.hand:3D>center2"
    piles["p1.hand"] = ["KD", "9D", "9H", "TD", "JD"]  # nothing but the king fits: discard
    token = choose(aiming_move, piles)
    assert ">p1.side" in token and "KD" not in token


def test_aiming_otherwise_plays_onto_the_lowest_centre_stack_side_card_first():
    piles = {"center1": centre(3, "S"), "center2": centre(1, "H"), "center3": centre(7, "D"),
             "p1.payoff": ["9C", "JC"], "p1.hand": ["4D", "2D", "8C", "9H", "TD"]}
    assert choose(aiming_move, piles) == "p1.hand:2D>center2"
    piles["p1.side3"] = ["4C"]
    piles["p1.hand"] = ["4D", "8C", "9H", "TD", "QD"]
    assert choose(aiming_move, piles) == "p1.side3>center1"
    # the lowest stack before a side card; the arena's greedy player takes the side card first
    piles["p1.hand"] = ["2D", "8C", "9H", "TD", "QD"]
    assert choose(aiming_move, piles) == "p1.hand:2D>center2"
    assert choose(REFERENCE["greedy"], piles) == "p1.side3>center1"


# The blocking greedy: aiming's plays, but not onto the stack the opponent's payoff card wants

def test_blocking_avoids_leaving_the_opponent_a_play_on_its_payoff_card_when_it_has_a_choice():
    # p2's payoff card is a 4: a stack of three cards would take it
    piles = {"center1": centre(2, "S"), "center2": centre(5, "H"), "p1.payoff": ["9C", "JC"],
             "p2.payoff": ["9D", "4D"], "p1.hand": ["3D", "6D", "9H", "TD", "QD"]}
    assert choose(aiming_move, piles) == "p1.hand:3D>center1"  # the lowest stack, to three cards
    assert choose(blocking_move, piles) == "p1.hand:6D>center2"
    piles["p1.hand"] = ["3D", "8D", "9H", "TD", "QD"]  # no other play: it still plays the 3
    assert choose(blocking_move, piles) == "p1.hand:3D>center1"


def test_blocking_puts_a_wild_payoff_king_where_it_closes_an_opening():
    piles = {"center1": centre(2, "S"), "center2": centre(3, "H"), "p1.payoff": ["9C", "KC"],
             "p2.payoff": ["9D", "4D"], "p1.hand": ["9H", "TD", "TH", "JD", "JH"]}
    assert choose(aiming_move, piles) == "p1.payoff>center1"
    assert choose(blocking_move, piles) == "p1.payoff>center2"


# The chaining greedy: aiming, but it starts a run that opens its payoff card this turn

def test_chaining_starts_a_run_to_its_payoff_card_side_card_first():
    # payoff 7 on a stack of four cards: the 5 and then the 6 (a king) open it
    piles = {"center1": centre(4, "S"), "center2": centre(2, "H"), "p1.payoff": ["9C", "7C"],
             "p1.hand": ["5D", "KD", "3D", "9H", "TD"]}
    assert choose(aiming_move, piles) == "p1.hand:3D>center2"  # the lowest stack
    assert choose(chaining_move, piles) == "p1.hand:5D>center1"
    piles["p1.side1"] = ["5H"]
    assert choose(chaining_move, piles) == "p1.side1>center1"


def test_chaining_spends_a_king_where_the_run_lacks_a_rank_and_else_plays_as_aiming():
    # payoff 7 on a stack of three cards: the 4 is lacking, the king stands for it
    piles = {"center1": centre(3, "S"), "center2": centre(2, "H"), "p1.payoff": ["9C", "7C"],
             "p1.hand": ["KD", "5D", "6D", "3D", "9H"]}
    assert choose(aiming_move, piles) == "p1.hand:3D>center2"
    assert choose(chaining_move, piles) == "p1.hand:KD>center1"
    piles["p1.hand"] = ["KD", "6D", "3D", "9H", "TD"]  # two ranks lacking, one king: no run
    assert choose(chaining_move, piles) == choose(aiming_move, piles) == "p1.hand:3D>center2"
    piles["p1.payoff"] = ["9C", "5C"]  # payoff 5 fits the stack of four after the 3
    piles["center1"] = centre(4, "S")
    assert choose(chaining_move, piles) == "p1.payoff>center1"


def test_the_yardsticks_differ_in_strength_as_measured():
    # quick guards of docs/ai.md's table: the aiming greedy is the stronger greedy player
    f = run("aiming", "greedy", 200, seed=40000, jobs=1, show_progress=False)
    assert f["wins"] > 1.2 * f["losses"], f


def test_the_arena_plays_on_to_the_decided_games_asked_for_from_the_first_seed(capsys):
    from tools.players.arena import main
    assert main(["spite_malice", "--decided", "8", "--first", "100", "--jobs", "1", "2", "random"]) == 0
    out = capsys.readouterr().out
    head = out.splitlines()[0]
    assert head.startswith("2 vs random: ") and "seeds 100-" in head, out
    wins, losses = [int(w) for w in out.split("A wins ")[1].split(", draws")[0].replace("B wins ", "").split(", ")]
    assert wins + losses == 8
    games_played = int(head.split(": ")[1].split(" ")[0])
    assert head.endswith("seeds 100-%d (A plays p1 on even seeds)" % (99 + games_played))


# The planning yardstick (tools/players/planner_spite_malice.py): the best line of its own turn

def test_planning_takes_the_line_to_its_payoff_card_side_card_first():
    # payoff 7 on a stack of four cards: 5, a wild king for the 6, then the payoff card
    piles = {"center1": centre(4, "S"), "center2": centre(2, "H"), "p1.payoff": ["9C", "7C"],
             "p1.hand": ["5D", "KD", "3D", "9H", "TD"]}
    assert choose(planning_move, piles) == "p1.hand:5D>center1"
    piles["p1.side1"] = ["5H"]
    assert choose(planning_move, piles) == "p1.side1>center1"


def test_planning_does_not_open_the_opponents_payoff_card_for_one_card():
    # the 3 would bring centre 1 to three cards, where the opponent's 4 goes
    piles = {"center1": centre(2, "S"), "p1.payoff": ["9C", "8C"], "p2.payoff": ["9D", "4D"],
             "p1.hand": ["3D", "9H", "TD", "JD", "KD"]}
    assert choose(planning_move, piles) == "p1.hand:JD>p1.side1"  # a discard: its highest but the king
    piles["p2.payoff"] = ["9D", "TD"]
    assert choose(planning_move, piles) == "p1.hand:3D>center1"


def test_planning_is_stronger_than_the_greedy_yardsticks_as_measured():
    # a quick guard of docs/ai.md's table: planning wins 79% against aiming
    f = run("planning", "aiming", 200, seed=40000, jobs=1, show_progress=False)
    assert f["wins"] > 2 * f["losses"], f
