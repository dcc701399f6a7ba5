"""Spite & Malice for the protocol: move tokens that name a hand card ('p1.hand:7H>center2'),
the fields of its error lines, what a loaded position must satisfy.

These run only when the protocol answers a command (or a link checks a state), so they may
allocate.
"""

from engine_core import OVER, PLAYING
from engine_core import cards
from engine_core.game import V_SCORE, V_STATUS, V_TURN, Game, move_code
from engine_core.games.spite_malice import (CENTER1, HAND_SIZE, KING, N_CENTERS, STACK_FULL, STOCK,
                                            hand_pile, owner, payoff_pile)


def move_token(game, code):
    """'p1.hand:7H>center2' for a hand card, else the usual token."""
    src = code >> 16
    if src < game.piles.count and owner(src) >= 0 and src == hand_pile(owner(src)):
        return (game.pile_names[src] + ":" + cards.kind_name(code & 0xFF) + ">"
                + game.pile_names[(code >> 8) & 0xFF])
    return Game.move_token(game, code)


def parse_move(game, token):
    """The move code a token names, or -1: a hand card must be named by its kind."""
    parts = token.split(">")
    if len(parts) == 2 and ":" in parts[0]:
        name, card = parts[0].split(":", 1)
        src = game.pile_id(name)
        dst = game.pile_id(parts[1])
        kind = cards.parse_kind(card)
        if src < 0 or dst < 0 or kind < 0 or kind == cards.KIND_JOKER:
            return -1
        if owner(src) < 0 or src != hand_pile(owner(src)):
            return -1
        return move_code(src, dst, kind)
    code = Game.parse_move(game, token)
    src = code >> 16
    if 0 <= code and src < game.piles.count and owner(src) >= 0 and src == hand_pile(owner(src)):
        return -1  # a hand card must be named
    return code


def explain_token(game, token):
    """Why a token names no move of this game."""
    parts = token.split(">")
    if len(parts) == 2 and ":" in parts[0]:
        name, card = parts[0].split(":", 1)
        src = game.pile_id(name)
        if src < 0:
            return "no pile named '" + name + "'"
        if owner(src) < 0 or src != hand_pile(owner(src)):
            return "only a hand card is named: pN.hand:CARD>DST"
        kind = cards.parse_kind(card)
        if kind < 0 or kind == cards.KIND_JOKER:
            return "'" + card + "' is not a card (rank A23456789TJQK, suit SHDC, e.g. 7H)"
        return "no pile named '" + parts[1] + "'"
    if len(parts) == 2:
        src = game.pile_id(parts[0])
        if src >= 0 and owner(src) >= 0 and src == hand_pile(owner(src)):
            return "name the hand card: " + parts[0] + ":CARD>" + parts[1]
    return Game.explain_token(game, token)


def explain(game, move):
    """Game.explain, with this game's fields: whose turn, the card a hand move names,
    what a centre stack takes next."""
    text = Game.explain(game, move)
    if "{turn}" in text:
        text = text.replace("{turn}", "p" + str(game.vars[V_TURN] + 1))
    if "{kind}" in text:
        text = text.replace("{kind}", cards.kind_name(move & 0xFF))
    if "{takes}" in text:
        text = text.replace("{takes}", cards.RANKS[game.piles.size[(move >> 8) & 0xFF]])
    return text


def check_position(game):
    """'' when the position could arise in play, else why not (used by `load`)."""
    piles = game.piles
    names = game.pile_names
    status = game.vars[V_STATUS]
    if status != PLAYING and status != OVER:
        return "status must be 'playing' or 'over'"
    for center in range(CENTER1, CENTER1 + N_CENTERS):
        n = piles.size[center]
        if n >= STACK_FULL:
            return names[center] + " is complete: a complete stack goes into the stock"
        for i in range(n):
            r = piles.card(center, i) % 13
            if r != i and r != KING:
                return names[center] + " must run from the ace upward (kings wild)"
    for p in range(2):
        if game.vars[V_SCORE + p] < 0:
            return "a score cannot be negative"
    if status == PLAYING:
        if game.match_over():
            return "the match is over: its status must be 'over'"
        for p in range(2):
            if piles.size[payoff_pile(p)] == 0:
                return names[payoff_pile(p)] + " is empty: the game is over"
        if piles.size[hand_pile(game.vars[V_TURN])] == 0:
            return "the player to move holds no cards: a played-out hand is refilled at once"
    elif piles.size[payoff_pile(0)] and piles.size[payoff_pile(1)] and piles.size[STOCK] >= HAND_SIZE:
        # A game ends when a payoff pile is emptied, or drawn when the stock cannot fill a hand.
        return "the game is over with both payoff piles holding cards and the stock able to fill a hand"
    return ""
