"""The pile arena: every card of a game in one bytearray.

Pile p owns the slots start[p] .. start[p] + cap[p] - 1 of `cards`, bottom first; size[p]
says how many are in use. Nothing here allocates after __init__. These are the raw
operations; games change piles through Game's journaled methods so that undo works.
"""

from array import array


class Piles:
    def __init__(self, capacities):
        """capacities: one int per pile (each at most 255)."""
        count = len(capacities)
        self.count = count
        self.cap = bytearray(capacities)
        self.size = bytearray(count)
        self.start = array("H", [0] * count)
        total = 0
        for p in range(count):
            self.start[p] = total
            total += capacities[p]
        self.cards = bytearray(total)

    def clear(self):
        for p in range(self.count):
            self.size[p] = 0

    def length(self, p):
        return self.size[p]

    def free(self, p):
        """How many more cards pile p can take."""
        return self.cap[p] - self.size[p]

    def top(self, p):
        """The top card of pile p, or -1 when it is empty."""
        n = self.size[p]
        if n == 0:
            return -1
        return self.cards[self.start[p] + n - 1]

    def card(self, p, i):
        """Card i of pile p, counted from the bottom (0); a negative i counts from the top."""
        if i < 0:
            i += self.size[p]
        return self.cards[self.start[p] + i]

    def push(self, p, card):
        n = self.size[p]
        self.cards[self.start[p] + n] = card
        self.size[p] = n + 1

    def pop(self, p):
        n = self.size[p] - 1
        self.size[p] = n
        return self.cards[self.start[p] + n]

    def move(self, src, dst, count):
        """Move the top `count` cards of src onto dst, keeping their order."""
        ns = self.size[src] - count
        nd = self.size[dst]
        a = self.start[src] + ns
        b = self.start[dst] + nd
        for i in range(count):
            self.cards[b + i] = self.cards[a + i]
        self.size[src] = ns
        self.size[dst] = nd + count

    def find(self, p, card):
        """Index of `card` in pile p (from the bottom), or -1."""
        s = self.start[p]
        for i in range(self.size[p]):
            if self.cards[s + i] == card:
                return i
        return -1

    def remove_at(self, p, i):
        """Take card i out of pile p, closing the gap; returns it."""
        s = self.start[p]
        n = self.size[p] - 1
        c = self.cards[s + i]
        while i < n:
            self.cards[s + i] = self.cards[s + i + 1]
            i += 1
        self.size[p] = n
        return c

    def insert_at(self, p, i, card):
        """Put `card` into pile p at index i, shifting the cards above it up."""
        s = self.start[p]
        j = self.size[p]
        while j > i:
            self.cards[s + j] = self.cards[s + j - 1]
            j -= 1
        self.cards[s + i] = card
        self.size[p] += 1

    def reverse(self, p, count):
        """Turn the top `count` cards of pile p over as one packet (their order reverses)."""
        i = self.start[p] + self.size[p] - count
        j = i + count - 1
        cards = self.cards
        while i < j:
            t = cards[i]
            cards[i] = cards[j]
            cards[j] = t
            i += 1
            j -= 1
