"""Nerts: why a move is illegal (refusal) and the reasons in Nerts's own words (WORDS).

refusal() is the game's one decision tree for an illegal move: the interface asks it on a
refused keypress (nothing allocated), and the protocol's error line is its reason's words
(engine_core/reasons.py) with the fields filled in (nerts_check.explain).
"""

from engine_core import PLAYING
from engine_core import cards
from engine_core import reasons as why
from engine_core.game import ACTION, V_STATUS
from engine_core.games.nerts_moves import CALL, CYCLE, DEAL, FLIP, SLIDE, STOCK, STRIDE, WORK1, WORK4

from micropython import const

# engine_core/reasons.py's codes that Nerts words its own way, as this module's constants (so
# that WORDS is a constant the frozen firmware keeps in flash; tests/test_reasons.py holds
# them equal to reasons.py's).
WHY_OVER = const(1)
WHY_NOT_THERE = const(8)
WHY_FOUND_ACE = const(9)
WHY_FOUND_NEXT = const(10)
WHY_FOUND_STAYS = const(13)
WHY_STOCK_DRAW = const(14)
WHY_GAME_ON = const(26)
WHY_OWN_PILE = const(28)

# The reasons in Nerts's words: (code, screen words, protocol words); None: the shared ones.
WORDS = (
    (WHY_OVER, None, "a player reached the target score ({target}): the game is over"),
    (WHY_NOT_THERE, None, "cards go to a work pile or a foundation"),
    (WHY_FOUND_ACE, None, "only an ace starts a foundation"),
    (WHY_FOUND_NEXT, None, "{dst} takes {takes} next"),
    (WHY_FOUND_STAYS, None, "cards on a foundation stay there"),
    (WHY_STOCK_DRAW, None, "stock cards are turned onto the waste with {player}:flip"),
    (WHY_GAME_ON, None, "the round is still being played"),
    (WHY_OWN_PILE, None, "a pile does not move onto itself"),
)


def refusal(game, move):
    """Why a well-formed move is illegal now: a code of engine_core/reasons.py."""
    src = move >> 16
    if game.vars[V_STATUS] != PLAYING:
        return why.OVER if not game.can_deal() else why.ROUND_OVER
    piles = game.piles
    if src == ACTION:
        return action_refusal(game, (move >> 8) & 0xFF, move & 0xFF)
    dst = (move >> 8) & 0xFF
    arg = move & 0xFF
    if src >= game.found0:
        return why.FOUND_STAYS
    where = src % STRIDE
    if where == STOCK:
        return why.STOCK_DRAW
    if piles.size[src] == 0:
        return why.EMPTY
    if dst < game.found0:
        if dst // STRIDE != src // STRIDE:
            return why.OWN_WORK
        if not WORK1 <= dst % STRIDE <= WORK4:
            return why.NOT_THERE
        if dst == src:
            return why.OWN_PILE
    card = piles.top(src)
    if dst >= game.found0:
        return foundation_refusal(game, card, dst, arg)
    if arg & SLIDE == 0 and WORK1 <= where <= WORK4 and arg > piles.size[src]:
        return why.TOO_FEW
    return why.ALTERNATE


def action_refusal(game, action, p):
    """Why player p may not flip, cycle, call Nerts or deal now."""
    if action == DEAL:
        return why.GAME_ON
    if action == FLIP:
        return why.FLIP_EMPTY
    if action == CALL:
        return why.CALL_EARLY
    if action == CYCLE:
        if game.piles.size[p * STRIDE + STOCK] < 2:
            return why.CYCLE_SHORT
        return why.CYCLE_EARLY
    return why.NOT_THERE


def foundation_refusal(game, card, dst, arg):
    """Why `card` (arg: 1 + the kind a joker is declared as, else 0) may not go onto
    foundation dst."""
    if card >= cards.JOKER_BASE and arg == 0:
        return why.JOKER
    if card < cards.JOKER_BASE and arg:
        return why.ONLY_JOKER
    n = game.piles.size[dst]
    if n == 13:
        return why.FOUND_FULL
    if card >= cards.JOKER_BASE:
        takes = game.moves.found_suit(dst) * 13 + n
        if arg - 1 == takes or (n == 0 and (arg - 1) % 13 == 0):
            return why.JOKER_FIXED  # declared as the card it takes: its value is fixed
    if n == 0:
        return why.FOUND_ACE
    return why.FOUND_NEXT
