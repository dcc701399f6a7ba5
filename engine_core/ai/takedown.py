"""Whether the cards in sight can all be taken down to the foundations, and in which order: the
finish of Sir Tommy and Casket (their advisors' finish_move), once no card is hidden.

Each source (a pile whose top may go up) is a cursor: the cards left on it. The foundations
are counted as slots: how many wait for each kind of card (Sir Tommy: a rank; Casket: a suit
and rank, and any ace for an empty one). A play takes one slot of its card's kind and opens
one for the next card of its foundation, so cards of different kinds never get in each other's
way; two cards that want one slot do, and which of them goes first can decide whether the rest
comes off (a greedy order called such positions won, then lost them half way). So the search
is depth first over which source gives its top card next, sources tried in turn, and the answer
is the first source of the first order that takes every card down. Played on, that order's
next play is again the first play of the first order from the new position, so a finish never
stops half way. A search that passes its limit of plays answers none: the position is not
called won. Nothing here allocates after __init__.
"""

from micropython import const

ANY_ACE = const(52)  # the slot of an empty foundation, by suit: any ace
_KINDS = const(53)  # slots by suit and rank, and ANY_ACE (by rank alone: 13)
_MOST_SOURCES = const(17)  # Casket's: the waste, 5 lids, 8 bodies, 3 reserves (Sir Tommy: 4)
_MOST_CARDS = const(104)


class TakeDown:
    one: "TakeDown | None" = None  # the one both games share (shared())

    def __init__(self):
        """Room for either game's search (one game's finish runs at a time: shared())."""
        self.cursor = bytearray(_MOST_SOURCES)  # cards left on each source
        self.slots = bytearray(_KINDS)  # foundations waiting for each kind of card
        self.played = bytearray(_MOST_CARDS)  # per depth: the source of the play made there

    def clear(self):
        """No slot open: the caller counts the foundations' in."""
        for k in range(len(self.slots)):
            self.slots[k] = 0

    def first(self, piles, pile_of, by_suit, limit):
        """The source whose top card is the first play of the first order that takes every
        card down, or -1 (no such order, or none found within `limit` plays). The caller has
        set cursor and slots (move() says what a slot is); pile_of[i] is source i's pile, for
        as many sources as it names. The arrays are left as they were set."""
        cursor = self.cursor
        slots = self.slots
        played = self.played
        cards = piles.cards
        start = piles.start
        sources = len(pile_of)
        total = 0
        for i in range(sources):
            total += cursor[i]
        depth = 0
        plays = 0
        answer = -1
        i = 0  # the next source to try at this depth
        while True:
            if depth == total:
                answer = played[0] if total else -1
                break
            c = 0
            while i < sources:
                n = cursor[i]
                if n:
                    c = cards[start[pile_of[i]] + n - 1]
                    k = c % 13  # its slot: as move() reads it
                    if slots[(ANY_ACE if k == 0 else c % 52) if by_suit else k]:
                        break
                i += 1
            if i < sources and plays < limit:  # source i's top card goes up
                plays += 1
                played[depth] = i
                self.move(c, by_suit, 1)
                cursor[i] -= 1
                depth += 1
                i = 0
                continue
            if depth == 0 or plays >= limit:
                break
            depth -= 1  # the play made at this depth back, and the next source after it tried
            i = played[depth]
            self.take_back(i, piles, pile_of, by_suit)
            i += 1
        while depth > 0:  # the arrays as they were set
            depth -= 1
            self.take_back(played[depth], piles, pile_of, by_suit)
        return answer

    def move(self, c, by_suit, up):
        """Card c goes up (up 1: its slot taken, the next one opened) or back down (up -1).
        A slot is a rank; by suit, a suit and rank (suit * 13 + rank), and for an ace ANY_ACE
        (an empty foundation takes any)."""
        slots = self.slots
        k = c % 13
        slots[(ANY_ACE if k == 0 else c % 52) if by_suit else k] -= up
        if k < 12:  # (a king opens nothing)
            slots[(c % 52 if by_suit else k) + 1] += up

    def take_back(self, i, piles, pile_of, by_suit):
        """The play from source i undone: its card back on it, the slots as before."""
        self.cursor[i] += 1
        self.move(piles.cards[piles.start[pile_of[i]] + self.cursor[i] - 1], by_suit, -1)


def shared():
    """The search Sir Tommy's and Casket's advisors share (made once, at start-up)."""
    if TakeDown.one is None:
        TakeDown.one = TakeDown()
    return TakeDown.one
