"""Nerts over the link: every move at the table in one order, the same on both consoles.

Each move carries the game time it was made at, its player (seat) and that seat's own counter;
the canonical order is (time, seat, counter). The table's state is the final part (every move
older than what both consoles have heard of: no move can come before it any more) followed by
this window of recent moves, each applied or, when it was no longer legal at its place,
skipped. A move that arrives later than moves after it in that order (the other console's,
sent before it knew of ours) is put in its place: the window is undone back to there with the
game's undo, and replayed from there in order. That settles a conflict the same way on both
consoles: of two plays onto the same foundation, the earlier (then the lower seat) stays, the
other is skipped. Preallocated; nothing here allocates.
"""

from array import array

from micropython import const

WINDOW = const(160)  # moves not yet final; a second of four players at the fastest is about 14


class Timeline:
    def __init__(self, size=WINDOW):
        self.size = size
        self.move = array("i", [0] * size)
        self.time = array("i", [0] * size)
        self.ctr = array("i", [0] * size)
        self.seat = bytearray(size)
        self.done = bytearray(size)  # 1 applied, 0 skipped (not legal at its place)
        self.count = 0
        self.skipped = 0  # moves skipped, for the tests and the figures
        self.rollbacks = 0  # moves undone to put an earlier one in its place

    def clear(self):
        self.count = 0

    def position(self, t, seat, ctr):
        """Where a move of key (t, seat, ctr) goes: after every entry that comes before it."""
        i = self.count
        while i > 0:
            j = i - 1
            tj = self.time[j]
            if tj < t or (tj == t and (self.seat[j] < seat or (self.seat[j] == seat and self.ctr[j] < ctr))):
                break
            i = j
        return i

    def undo_to(self, game, start):
        """Undo the applied entries from the newest down to index start; False when the game's
        journal no longer holds one of them."""
        i = self.count - 1
        while i >= start:
            if self.done[i]:
                if not game.undo():
                    return False
                self.rollbacks += 1
            i -= 1
        return True

    def redo_from(self, game, start):
        """Apply again the entries from index start that were applied (after undo_to, in the
        same position: they are legal there as they were)."""
        for i in range(start, self.count):
            if self.done[i]:
                game.apply(self.move[i])

    def replay(self, game, start):
        """Apply the entries from index start in order, each only when it is legal there."""
        for i in range(start, self.count):
            if game.is_legal(self.move[i]):
                game.apply(self.move[i])
                self.done[i] = 1
            else:
                self.done[i] = 0
                self.skipped += 1

    def put(self, i, move, t, seat, ctr):
        """Open a place at index i (entries from i move one up) and write the move there."""
        k = self.count
        while k > i:
            self.move[k] = self.move[k - 1]
            self.time[k] = self.time[k - 1]
            self.ctr[k] = self.ctr[k - 1]
            self.seat[k] = self.seat[k - 1]
            self.done[k] = self.done[k - 1]
            k -= 1
        self.move[i] = move
        self.time[i] = t
        self.ctr[i] = ctr
        self.seat[i] = seat
        self.done[i] = 0
        self.count += 1

    def insert(self, game, move, t, seat, ctr):
        """Put a move in its place and bring the game there: undo what comes after it, apply
        it if legal, replay the rest. False when the window is full or the journal cannot undo
        that far (the session then has the host's state sent)."""
        if self.count == self.size:
            return False
        i = self.position(t, seat, ctr)
        if not self.undo_to(game, i):
            return False
        self.put(i, move, t, seat, ctr)
        self.replay(game, i)
        return True

    def applied_from(self, start):
        """How many entries from index start on are applied: what putting a move there undoes."""
        k = 0
        for i in range(start, self.count):
            k += self.done[i]
        return k

    def first_from(self, t):
        """The index of the first entry at time t or later (entries are in time order)."""
        i = 0
        while i < self.count and self.time[i] < t:
            i += 1
        return i

    def drop_before(self, t):
        """Forget the entries older than t: they are final (no move can come before them)."""
        d = self.first_from(t)
        if d == 0:
            return
        for k in range(d, self.count):
            self.move[k - d] = self.move[k]
            self.time[k - d] = self.time[k]
            self.ctr[k - d] = self.ctr[k]
            self.seat[k - d] = self.seat[k]
            self.done[k - d] = self.done[k]
        self.count -= d
