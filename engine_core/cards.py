"""Card ids and names.

A card is a small int: deck * 52 + suit * 13 + rank, with rank 0 = ace .. 12 = king and suit
0..3 = spades, hearts, diamonds, clubs. Jokers follow every regular card:
JOKER_BASE + deck * 2 + (0 or 1). Up to four decks fit, so every id fits in one byte.
The card's *kind* (suit * 13 + rank, or KIND_JOKER) ignores which deck it came from.
"""

from micropython import const

ACE = const(0)
KING = const(12)
SPADES = const(0)
HEARTS = const(1)
DIAMONDS = const(2)
CLUBS = const(3)
MAX_DECKS = const(4)
JOKER_BASE = const(208)  # MAX_DECKS * 52
KIND_JOKER = const(52)
NO_CARD = const(255)

RANKS = "A23456789TJQK"
SUITS = "SHDC"


def make(deck, suit, rank):
    """The id of a regular card: make(0, HEARTS, 6) is the seven of hearts of deck 0."""
    return deck * 52 + suit * 13 + rank


def joker(deck, index):
    """The id of joker `index` (0 or 1) of `deck`."""
    return JOKER_BASE + deck * 2 + index


def is_joker(card):
    return card >= JOKER_BASE


def rank(card):
    """0 = ace .. 12 = king (meaningless for a joker)."""
    return card % 13


def suit(card):
    return (card // 13) % 4


def deck(card):
    """Which deck the card came from (its owner in Nerts)."""
    if card >= JOKER_BASE:
        return (card - JOKER_BASE) >> 1
    return card // 52


def kind(card):
    """suit * 13 + rank, or KIND_JOKER: what the card is, whatever its deck."""
    if card >= JOKER_BASE:
        return KIND_JOKER
    return card % 52


def is_red(card):
    s = (card // 13) % 4
    return s == HEARTS or s == DIAMONDS


# Text (used by the protocol and tools; these allocate).

def kind_name(k):
    """'7H' for a kind; 'JK' for the joker kind."""
    if k == KIND_JOKER:
        return "JK"
    return RANKS[k % 13] + SUITS[k // 13]


def name(card, owner_suffix=False):
    """'7H', or '7H2' with the owner's number (deck + 1) when owner_suffix is set."""
    text = kind_name(kind(card))
    if owner_suffix:
        text += str(deck(card) + 1)
    return text


def parse_kind(text):
    """The kind named by two characters ('7H', 'JK'), or -1 when they name no card."""
    if len(text) != 2:
        return -1
    if text == "JK":
        return KIND_JOKER
    r = RANKS.find(text[0])
    s = SUITS.find(text[1])
    if r < 0 or s < 0:
        return -1
    return s * 13 + r
