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

CLOSED = const(255)  # the kind a king opens: none


class TakeDown:
    def __init__(self, sources, kinds, cards):
        """Room for `sources` cursors, `kinds` kinds of slot and orders of up to `cards` plays."""
        self.cursor = bytearray(sources)  # cards left on each source
        self.slots = bytearray(kinds)  # foundations waiting for each kind of card
        self.next_source = bytearray(cards + 1)  # per depth: the next source to try there
        self.played = bytearray(cards)  # per depth: the source of the play made there

    def clear(self):
        for k in range(len(self.slots)):
            self.slots[k] = 0

    def first(self, piles, pile_of, kind, opens, limit):
        """The source whose top card is the first play of the first order that takes every
        card down, or -1 (no such order, or none found within `limit` plays). The caller has
        set cursor and slots; pile_of[i] is source i's pile, kind[c] the slot card c takes and
        opens[c] the one it opens (CLOSED for none). The arrays are left as they were set."""
        cursor = self.cursor
        slots = self.slots
        next_source = self.next_source
        played = self.played
        cards = piles.cards
        start = piles.start
        sources = len(cursor)
        total = 0
        for i in range(sources):
            total += cursor[i]
        depth = 0
        next_source[0] = 0
        plays = 0
        answer = -1
        while True:
            if depth == total:
                answer = played[0] if total else -1
                break
            i = next_source[depth]
            c = 0
            while i < sources:
                n = cursor[i]
                if n:
                    c = cards[start[pile_of[i]] + n - 1]
                    if slots[kind[c]]:
                        break
                i += 1
            if i < sources and plays < limit:  # source i's top card goes up
                plays += 1
                next_source[depth] = i + 1
                played[depth] = i
                slots[kind[c]] -= 1
                if opens[c] != CLOSED:
                    slots[opens[c]] += 1
                cursor[i] -= 1
                depth += 1
                next_source[depth] = 0
                continue
            if depth == 0 or plays >= limit:
                break
            depth -= 1
            self.take_back(played[depth], cards, start, pile_of, kind, opens)
        while depth > 0:  # the arrays as they were set
            depth -= 1
            self.take_back(played[depth], cards, start, pile_of, kind, opens)
        return answer

    def take_back(self, i, cards, start, pile_of, kind, opens):
        """The play from source i undone: its card back on it, the slots as before."""
        self.cursor[i] += 1
        c = cards[start[pile_of[i]] + self.cursor[i] - 1]
        self.slots[kind[c]] += 1
        if opens[c] != CLOSED:
            self.slots[opens[c]] -= 1
