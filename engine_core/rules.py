"""Pile behaviours the patience games share, declared once.

A game picks these the way a rule card reads ("foundations build up in suit from the Ace",
"a reserve holds one card", "the waste card must be placed before the next draw") and only
writes what is its own. Everything here reads the pile arena directly and allocates nothing,
except the *_error functions, which build a reason for `load` to refuse a position.

Lookup tables instead of cards.rank()/cards.suit() calls: indexing a bytes object costs far
less on MicroPython than a function call per card (Aces Up's move generation fell from about
184,000 to 73,000 fuel per call with the same change).
"""

from engine_core import LOST, PLAYING, WON
from engine_core import cards
from engine_core import reasons as why
from engine_core.game import V_STATUS

from micropython import const

IN_SUIT = const(1)  # foundations: the suit must follow
ANY_SUIT = const(0)  # foundations: only the rank counts (Sir Tommy)

WANT_ACE = const(253)  # an empty in-suit foundation: any Ace
WANT_ANY = const(254)  # an empty pile that any card may head
WANT_NONE = const(255)  # a pile that takes nothing more

# rank (0 = ace .. 12 = king), suit and kind of every regular card id of up to four decks
RANK_OF = bytes([cards.rank(c) for c in range(cards.JOKER_BASE)])
SUIT_OF = bytes([cards.suit(c) for c in range(cards.JOKER_BASE)])
KIND_OF = bytes([cards.kind(c) for c in range(cards.JOKER_BASE)])


def top(piles, p):
    """The top card of pile p, or -1 when it is empty (same as piles.top, inlined)."""
    n = piles.size[p]
    if n == 0:
        return -1
    return piles.cards[piles.start[p] + n - 1]


# --- what a pile takes next, as one byte ---
# Move generators fill a small table of wants once per call and compare each exposed card's
# key against it: a byte comparison instead of a function call per (card, pile) pair.
# A card's key is its rank (ANY_SUIT foundations) or its kind, suit * 13 + rank (the others).


def foundation_want(piles, found, suit_rule):
    """What foundation `found` takes next: ANY_SUIT: the rank (an empty one wants the Ace,
    rank 0); IN_SUIT: the kind after its top, or WANT_ACE when empty. WANT_NONE at the King."""
    n = piles.size[found]
    if n == 13:
        return WANT_NONE
    if suit_rule == ANY_SUIT:
        return n
    if n == 0:
        return WANT_ACE
    return KIND_OF[piles.cards[piles.start[found] + n - 1]] + 1


def down_in_suit_want(piles, p):
    """What pile p takes when built down in suit: the kind below its top (WANT_NONE on an
    Ace); WANT_ANY when empty (the game decides who may head an empty pile)."""
    n = piles.size[p]
    if n == 0:
        return WANT_ANY
    t = piles.cards[piles.start[p] + n - 1]
    if RANK_OF[t] == cards.ACE:
        return WANT_NONE
    return KIND_OF[t] - 1


def fill_foundation_wants(piles, first, count, suit_rule, wants):
    for i in range(count):
        wants[i] = foundation_want(piles, first + i, suit_rule)


def single_card_takes(piles, p):
    """A reserve that holds one card takes a card only when it is empty."""
    return piles.size[p] == 0


def may_draw(piles, stock, waste):
    """Draw turns the next stock card onto the waste, only once the waste card is placed.
    There is no redeal: an empty stock stays empty."""
    return piles.size[waste] == 0 and piles.size[stock] > 0


def move_refusal_code(game, move, draw_move, waste, found_first, found_last, stock):
    """Why a patience game refuses a move, where its games agree, as a code of
    engine_core/reasons.py (NONE where it has nothing to say): the game over, the draw, a card
    taken from a foundation or from the stock. For refusal() (no allocation)."""
    if game.vars[V_STATUS] != PLAYING:
        return why.OVER
    piles = game.piles
    if move == draw_move:
        return why.PLACE_FIRST if piles.size[waste] > 0 else why.STOCK_EMPTY
    src = move >> 16
    if found_first <= src <= found_last:
        return why.FOUND_STAYS
    if src == stock:
        return why.STOCK_DRAW
    return why.NONE


def add_wanted_moves(out, n, src, key, alt, wants, first, count):
    """Write src>p codes for every pile p = first + i whose wants[i] is key or alt (pass
    alt = key when there is no second choice); returns the new count."""
    for i in range(count):
        w = wants[i]
        if w == key or w == alt:
            out[n] = src << 16 | (first + i) << 8
            n += 1
    return n


def first_wanting(wants, count, key, alt):
    """The first i whose wants[i] is key or alt, or -1."""
    for i in range(count):
        w = wants[i]
        if w == key or w == alt:
            return i
    return -1


def first_empty(piles, first, last):
    """The first empty pile of first..last, or -1."""
    for p in range(first, last + 1):
        if piles.size[p] == 0:
            return p
    return -1


def cards_in(piles, first, last):
    """How many cards piles first..last hold together."""
    total = 0
    for p in range(first, last + 1):
        total += piles.size[p]
    return total


def patience_status(piles, found_first, found_last, deck_size, has_move):
    """WON with every card on the foundations, else PLAYING while a move remains, else LOST."""
    if cards_in(piles, found_first, found_last) == deck_size:
        return WON
    if has_move:
        return PLAYING
    return LOST


# --- reasons for load to refuse a position (these allocate) ---


def foundation_error(piles, found, name, suit_rule):
    """'' when foundation `found` is built from the Ace up (in suit if asked), else why not."""
    for i in range(piles.size[found]):
        c = piles.card(found, i)
        if RANK_OF[c] != i:
            return name + " is not built up from the Ace"
        if suit_rule == IN_SUIT and SUIT_OF[c] != SUIT_OF[piles.card(found, 0)]:
            return name + " is not built in suit"
    return ""


def descending_in_suit_error(piles, p, name):
    """'' when pile p is a run down in suit from its bottom card, else why not."""
    for i in range(1, piles.size[p]):
        if not down_in_suit_below(piles.card(p, i - 1), piles.card(p, i)):
            return name + " is not built down in suit"
    return ""


def down_in_suit_below(lower, upper):
    """True when `upper` may lie on `lower` in a run down in suit."""
    return SUIT_OF[lower] == SUIT_OF[upper] and RANK_OF[lower] == RANK_OF[upper] + 1
