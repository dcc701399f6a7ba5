"""The undo journal: a ring of small-int entries, preallocated.

Each entry is TAG << 24 | payload (below 2**30, so a small int on every port). A move starts
with a MARK holding its move code; after it come the atomic changes the move made, each
carrying what undo needs. Undo reads entries back to the MARK. When the ring is full, the
oldest whole moves are forgotten, so a very long game keeps its most recent undo steps.
"""

from array import array

try:
    from micropython import const
except ImportError:
    def const(x):
        return x

MARK = const(1)  # payload: move code
PUSH = const(2)  # payload: pile << 8 | card
POP = const(3)  # payload: pile << 8 | card
MOVE = const(4)  # payload: src << 16 | dst << 8 | count
VAR_LO = const(5)  # payload: index << 16 | low 15 bits of the old value
VAR_HI = const(6)  # payload: index << 16 | sign << 15 | high 15 bits of the old value
REMOVE = const(7)  # payload: pile << 16 | index << 8 | card (card taken from the middle)
REVERSE = const(8)  # payload: pile << 8 | count (the top count cards turned over; undo: again)
_PAYLOAD = const(0xFFFFFF)


class History:
    def __init__(self, size):
        self.log = array("i", [0] * size)
        self.capacity = size
        self.head = 0  # where the next entry goes
        self.used = 0  # entries held
        self.moves = 0  # whole moves held
        self.clears = 0  # how many times cleared (mod 2**16): tells a reader its positions are stale

    def clear(self):
        self.head = 0
        self.used = 0
        self.moves = 0
        self.clears = (self.clears + 1) & 0xFFFF

    def add(self, tag, payload):
        if self.used == self.capacity:
            self._forget_oldest()
        self.log[self.head] = tag << 24 | payload
        self.head = (self.head + 1) % self.capacity
        if self.used < self.capacity:
            self.used += 1

    def _forget_oldest(self):
        # Drop entries from the tail up to (not including) the next MARK: one whole move.
        tail = (self.head - self.used) % self.capacity
        self.used -= 1
        tail = (tail + 1) % self.capacity
        while self.used > 0 and self.log[tail] >> 24 != MARK:
            self.used -= 1
            tail = (tail + 1) % self.capacity
        if self.moves > 0:
            self.moves -= 1

    def begin(self, move):
        self.add(MARK, move)
        self.moves += 1

    def pop_entry(self):
        """The newest entry, removed (0 when empty)."""
        if self.used == 0:
            return 0
        self.head = (self.head - 1) % self.capacity
        self.used -= 1
        return self.log[self.head]

    def last_move(self):
        """The move code of the newest move, or -1."""
        i = self.head
        for _ in range(self.used):
            i = (i - 1) % self.capacity
            e = self.log[i]
            if e >> 24 == MARK:
                return e & _PAYLOAD
        return -1
