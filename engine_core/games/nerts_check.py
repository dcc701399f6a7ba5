"""Nerts for the protocol: move tokens, why a move is illegal, what a loaded position must
satisfy.

These run only when the protocol answers a command, so they may allocate.
"""

from engine_core import OVER, PLAYING
from engine_core import cards
from engine_core.text import is_digits
from engine_core.game import ACTION, V_STATUS, Game, move_code, parse_player
from engine_core.games.nerts_moves import (JOKER_DECLARED, PASS_CAP, SLIDE, STRIDE, V_JOKER, V_PASS, V_ROUND,
                                          V_ROUND_OVER, WORK1, WORK4, shift)
from micropython import const

_ROUNDS_MOST = const(0x1000000)  # a table's rounds dealt at most (realtime.py counts no further)


def move_token(game, code):
    """'p1.work2*3>p1.work4', 'p2.nerts>found5=7H', 'p1:flip'."""
    src = code >> 16
    if src == ACTION:
        return Game.move_token(game, code)
    dst = (code >> 8) & 0xFF
    arg = code & 0xFF
    text = game.pile_names[src]
    if dst >= game.found0:
        text += ">" + game.pile_names[dst]
        if arg:
            text += "=" + cards.kind_name(arg - 1)
        return text
    if not arg & SLIDE and arg > 1:
        text += "*" + str(arg)
    return text + ">" + game.pile_names[dst]


def split_token(token):
    """(source name, count text or None, destination name, declared text or None)."""
    left, right = token.split(">", 1)
    count = None
    if "*" in left:
        left, count = left.split("*", 1)
    declared = None
    if "=" in right:
        right, declared = right.split("=", 1)
    return left, count, right, declared


def run_count_ok(text):
    """Is text the K of *K: 2 to 13, written as the moves list writes it (no leading zero)?"""
    return 0 < len(text) <= 2 and is_digits(text) and text[0] != "0" and 1 < int(text) <= 13


def parse_move(game, token):
    """The move code a token names, or -1. A plain SRC>pN.workB names sliding under when
    that is legal and moving onto the pile is not."""
    if ">" not in token:
        return Game.parse_move(game, token)
    left, count_text, right, declared_text = split_token(token)
    count = 1
    if count_text is not None:
        if not run_count_ok(count_text):
            return -1
        count = int(count_text)
    declared = -1
    if declared_text is not None:
        declared = cards.parse_kind(declared_text)
        if declared < 0 or declared == cards.KIND_JOKER:
            return -1
    src = game.pile_id(left)
    dst = game.pile_id(right)
    if src < 0 or dst < 0:
        return -1
    if dst >= game.found0:
        if count != 1:
            return -1
        return move_code(src, dst, 0 if declared < 0 else 1 + declared)
    if declared >= 0:
        return -1
    if src < game.found0 and WORK1 <= src % STRIDE <= WORK4:
        plain = move_code(src, dst, count)
    elif count == 1:
        plain = move_code(src, dst)
    else:
        return -1
    if count == 1 and game.vars[V_STATUS] == PLAYING and not game.is_legal(plain):
        slide = move_code(src, dst, SLIDE)
        if game.is_legal(slide):
            return slide
    return plain


def explain_token(game, token):
    """Why a token names no move of this game."""
    if ">" in token:
        left, count_text, right, declared_text = split_token(token)
        for name in (left, right):
            if game.pile_id(name) < 0:
                return "no pile named '" + name + "'"
        if count_text is not None:
            if game.pile_id(left) >= game.found0 or not WORK1 <= game.pile_id(left) % STRIDE <= WORK4:
                return "only work piles move runs (pN.workA*K>pN.workB)"
            if not run_count_ok(count_text):
                return "the count in *K is 2 to 13 (one card: SRC>DST)"
            return "a run moves to another work pile"
        if declared_text is not None:
            if game.pile_id(right) < game.found0:
                return "only a joker played to a foundation is declared (SRC>foundK=CARD)"
            return "'" + declared_text + "' is not a card like 7H"
        return "expected SRC>DST"
    if ":" in token:
        who, word = token.split(":", 1)
        if parse_player(who, 9) >= 0 and parse_player(who, game.players) < 0:
            return "no player " + who + " in this game of " + str(game.players) + " players"
        if parse_player(who, game.players) >= 0:
            return ("unknown action '" + word + "': expected "
                    + who + ":flip, " + who + ":cycle or " + who + ":nerts")
    return "expected SRC>DST, pN.workA*K>pN.workB, SRC>foundK=CARD, deal, pN:flip, pN:cycle or pN:nerts"


def explain(game, move):
    """Game.explain, with Nerts's fields: the player, the target score, what a foundation
    takes next, the value a fixed joker stands for, a work pile's count."""
    text = Game.explain(game, move)
    if "{" not in text:
        return text
    src = move >> 16
    dst = (move >> 8) & 0xFF
    piles = game.piles
    if "{player}" in text:
        p = move & 0xFF if src == ACTION else src // STRIDE
        text = text.replace("{player}", "p" + str(p + 1))
    if "{target}" in text:
        text = text.replace("{target}", str(game.target))
    if "{takes}" in text:
        text = text.replace("{takes}", cards.kind_name(game.moves.found_suit(dst) * 13 + piles.size[dst]))
    if "{fixed}" in text:
        v = game.vars[V_JOKER + piles.top(src) - cards.JOKER_BASE] - 1
        text = text.replace("{fixed}", ("red " if v & 1 else "black ") + cards.RANKS[v >> 1])
    if "{count}" in text:
        n = piles.size[src]
        text = text.replace("{count}", str(n) + (" card" if n == 1 else " cards"))
    return text


def pile_error(game, p):
    """Why pile p could not arise in play, or ''."""
    piles = game.piles
    name = game.pile_names[p]
    n = piles.size[p]
    if p >= game.found0:
        suit = -1
        for i in range(n):
            c = piles.card(p, i)
            if c >= cards.JOKER_BASE:
                continue
            if c % 13 != i or (suit >= 0 and (c // 13) % 4 != suit):
                return name + " must be built up in suit from the ace"
            suit = (c // 13) % 4
        return ""
    owner = p // STRIDE
    for i in range(n):
        if cards.deck(piles.card(p, i)) != owner:
            return name + " holds " + cards.name(piles.card(p, i), True) + ", a card of another player"
    if WORK1 <= p % STRIDE <= WORK4 and n > 0:
        base = game.moves.run_base(p, 0)
        if base < 0:
            return ""
        if (base >> 1) > 12 or (base >> 1) - (n - 1) < 0:
            return name + " must build down in alternating colours from a king at most"
        for i in range(n):
            v = game.moves.card_value(piles.card(p, i))
            if v >= 0 and v != shift(base, i):
                return name + " must build down in alternating colours"
    return ""


def check_position(game):
    if game.vars[V_STATUS] != PLAYING and game.vars[V_STATUS] != OVER:
        return "a round of nerts is 'playing' or 'over', never won or lost"
    reason = vars_error(game)
    if reason:
        return reason
    for p in range(game.piles.count):
        reason = pile_error(game, p)
        if reason:
            return reason
    return ""


def vars_error(game):
    """Why Nerts's own variables hold what no play gives ("" when they do not): a saved game
    restores them as they were written, and the moves read them as indexes (a joker declared
    as suit 1000 on a foundation stopped the console at every start)."""
    v = game.vars
    over = v[V_ROUND_OVER]
    if over < 0 or over > 1 + game.players:
        return "the round's end says no way a round ends"
    for p in range(4):
        if v[V_PASS + p] < 0 or v[V_PASS + p] > PASS_CAP:
            return "a count of cards turned is out of range"
    for j in range(8):
        jv = v[V_JOKER + j]
        if not (0 <= jv <= 26 or JOKER_DECLARED <= jv < JOKER_DECLARED + 52):
            return "a joker stands for no card"  # (free 0, on a work pile 1 + value, on a foundation 64 + kind)
    if v[V_ROUND] < 0 or v[V_ROUND] > _ROUNDS_MOST:
        return "the rounds dealt are out of range"
    return ""


def settle_jokers(game):
    """Give loaded jokers their values: a joker with a card on it in a work pile is fixed; a
    joker on a foundation stands for the card of its place (spades if the suit is unknown)."""
    piles = game.piles
    for p in range(game.players):
        for w in range(p * STRIDE + WORK1, p * STRIDE + WORK4 + 1):
            base = game.moves.run_base(w, 0)
            for i in range(piles.size[w] - 1):
                c = piles.card(w, i)
                if c >= cards.JOKER_BASE and base >= 0:
                    game.vars[V_JOKER + c - cards.JOKER_BASE] = 1 + shift(base, i)
    for f in range(game.found0, game.found0 + game.founds):
        if piles.size[f] == 0:
            continue
        suit = game.moves.found_suit(f)
        for i in range(piles.size[f]):
            c = piles.card(f, i)
            if c >= cards.JOKER_BASE:
                game.vars[V_JOKER + c - cards.JOKER_BASE] = JOKER_DECLARED + suit * 13 + i
