"""A refused move's reason on screen: every game's refusal() agrees with its explain()."""

import random
from array import array

import pytest

from engine_core import PLAYING, games
from engine_core import reasons as why
from engine_core.game import ACTION

# What explain() says for each reason refusal() gives (any one of the phrases).
SAYS = {
    why.OVER: ("over",), why.ROUND_OVER: ("round is over",), why.EMPTY: ("is empty", "holds no"),
    why.STOCK_EMPTY: ("stock is empty",), why.DEAL_WAIT: ("still available",),
    why.OUTRANK: ("outranked",), why.NOT_EMPTY: ("is not empty",), why.ONLY_CARD: ("only card",),
    why.NOT_THERE: ("", "cards move from", "cards go", "only a joker"),
    why.FOUND_ACE: ("starts with an Ace", "only an ace starts"),
    why.FOUND_NEXT: ("is not next", " next", "joker is fixed"),
    why.HOLDING_SWAP: ("holding pile to another",), why.PLACE_FIRST: ("must be placed",),
    why.FOUND_STAYS: ("never leave a foundation", "stay there"), why.STOCK_DRAW: ("stock cards are turned",),
    why.JEWEL: ("jewel",), why.LID: ("lids accept",), why.RESERVE_FULL: ("already holds",),
    why.RESERVE_SWAP: ("reserve to another",), why.LID_EMPTY_BODY: ("lid card may not head",),
    why.BODY_DOWN: ("body piles build down",), why.NOT_YOUR_TURN: ("'s turn",),
    why.YOUR_PILES: ("you play onto",), why.PAYOFF_CENTRE: ("payoff pile plays only",),
    why.SIDE_SWAP: ("side stack to side stack",), why.NO_FIT: ("does not fit",),
    why.GAME_ON: ("still being played",), why.MATCH_OVER: ("match is over",),
    why.OWN_PILE: ("onto its own pile", "onto itself"), why.ALTERNATE: ("alternating colours",),
    why.OWN_WORK: ("their own work piles",), why.CALL_EARLY: ("Nerts pile is not empty",),
    why.FLIP_EMPTY: ("stock and waste are empty",), why.CYCLE_EARLY: ("fewer than two", "has a play"),
    why.FOUND_FULL: ("is complete",), why.JOKER: ("joker needs",), why.FROM_HAND: ("cards are played from",),
    why.TOO_FEW: ("holds only",),
}


def test_every_reason_fits_a_240_pixel_line_and_says_what_explain_says():
    # The table's own: a card with no move, a pile not yours, no foundation, no hint, no undo.
    ui_only = {why.NO_MOVE, why.NOT_YOURS, why.NO_HOME, why.NO_HINT, why.NO_UNDO, why.TURN_PLAYED, why.SAID,
               why.NO_REDO, why.THEIR_TURN, why.LINK_SILENT, why.LINK_BACK,
               why.LINK_NOT_HERE, why.PLAYED_ON, why.PLAYED_SINCE, why.UNDO_TOO_OLD, why.PEER_PLAYED}
    assert set(SAYS) | ui_only == set(range(1, len(why.TEXTS)))
    for text in why.TEXTS:
        assert len(text) <= 38, text


@pytest.mark.parametrize("name", games.names())
def test_refusal_names_the_rule_explain_gives_for_every_illegal_move(name):
    cls = games.load(name)
    game = cls(cls.MIN_PLAYERS, 0)
    game.bots = False
    rnd = random.Random(name)
    out = array("i", [0] * game.MAX_MOVES)
    seen = set()
    for seed in range(3):
        game.deal(seed)
        for step in range(60):
            candidates = [ACTION << 16 | a << 8 | p for a in range(len(game.ACTIONS)) for p in range(game.players)]
            candidates += [s << 16 | d << 8 for s in range(game.piles.count) for d in range(game.piles.count)]
            for move in candidates:
                if game.is_legal(move):
                    continue
                code = game.refusal(move)
                text = game.explain(move)
                assert code != why.NONE, (move, text)
                assert any(phrase in text for phrase in SAYS[code]), (name, move, why.TEXTS[code], text)
                seen.add(code)
            n = game.legal_moves(out)
            if n == 0 or game.status() != PLAYING:
                break
            game.apply(out[rnd.randrange(n)])
    assert len(seen) >= 4
