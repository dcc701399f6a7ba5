"""The undo journal: a ring of small-int entries, preallocated, and the one place that knows
how an entry is laid out.

Each entry is KIND << 24 | fields (below 2**30, so a small int on every port). A move starts
with a MARK holding its move code; after it come the atomic changes the move made, each
carrying what undo needs. Undo reads entries back to the MARK. When the ring is full, the
oldest whole moves are forgotten, so a very long game keeps its most recent undo steps.

Entries are made by History's note_* methods (Game's journaled changes call them), read
back by revert_move (undo), mark_piles (a view's redraw), find_var_change and the readers
below (tests, the saved journal's checks). A new kind is added here: its maker, its reader
and its case in revert_move and mark_piles; nothing outside this module changes.

>>> log = History(16); log.begin(5); log.note_push(3, 40)
>>> kind(log.log[1]) == PUSH and entry_pile(log.log[1]) == 3 and entry_card(log.log[1]) == 40
True
"""

from array import array

from micropython import const

# The kinds of entry, and their fields (bits 16-23 | bits 8-15 | bits 0-7).
MARK = const(1)  # a move begins: the move code (24 bits)
PUSH = const(2)  # a card pushed: pile << 8 | card
POP = const(3)  # a card popped: pile << 8 | card
MOVE = const(4)  # a run moved: src << 16 | dst << 8 | count
VAR_LO = const(5)  # a variable's old value: index << 16 | its low 15 bits
VAR_HI = const(6)  # then: index << 16 | sign << 15 | its high 15 bits
REMOVE = const(7)  # a card taken from the middle: pile << 16 | index << 8 | card
REVERSE = const(8)  # the top count cards turned over: pile << 8 | count (undo: again)
FIRST_KIND = MARK
LAST_KIND = REVERSE
ENTRY_MIN = const(0x1000000)  # FIRST_KIND << 24: the lowest entry (a saved journal's range)
ENTRY_MAX = const(0x8FFFFFF)  # LAST_KIND << 24 | 0xFFFFFF: the highest
_PAYLOAD = const(0xFFFFFF)
_SIGN = const(0x8000)


PILE_IDS = bytes(range(256))  # mark_piles' index when the marks are by pile id

# --- making entries (History's note_* methods write them; these are for reading code) ---

def mark_entry(move):
    return MARK << 24 | move


def push_entry(p, card):
    return PUSH << 24 | p << 8 | card


def pop_entry(p, card):
    return POP << 24 | p << 8 | card


def move_entry(src, dst, count):
    return MOVE << 24 | src << 16 | dst << 8 | count


def var_entry_lo(i, old):
    """The VAR_LO entry of variable i's old value (VAR_HI follows it: var_entry_hi)."""
    if old < 0:
        old &= 0x3FFFFFFF
    return VAR_LO << 24 | i << 16 | (old & 0x7FFF)


def var_entry_hi(i, old):
    sign = 0
    if old < 0:
        sign = _SIGN
        old &= 0x3FFFFFFF
    return VAR_HI << 24 | i << 16 | sign | (old >> 15)


def remove_entry(p, i, card):
    return REMOVE << 24 | p << 16 | i << 8 | card


def reverse_entry(p, count):
    return REVERSE << 24 | p << 8 | count


# --- reading entries ---

def kind(e):
    """The kind of entry e (MARK .. REVERSE)."""
    return e >> 24


def is_entry(e):
    """True when e could be an entry (a saved journal is checked with it)."""
    return e >= 0 and FIRST_KIND <= e >> 24 <= LAST_KIND


def mark_move(e):
    """A MARK's move code."""
    return e & _PAYLOAD


def entry_pile(e):
    """The pile a PUSH, POP, REMOVE or REVERSE changed; a MOVE's source."""
    if e >> 24 == MOVE or e >> 24 == REMOVE:
        return (e >> 16) & 0xFF
    return (e >> 8) & 0xFF


def entry_dst(e):
    """A MOVE's destination."""
    return (e >> 8) & 0xFF


def entry_card(e):
    """The card a PUSH, POP or REMOVE names."""
    return e & 0xFF


def entry_count(e):
    """How many cards a MOVE moved or a REVERSE turned over."""
    return e & 0xFF


def entry_index(e):
    """Where in its pile a REMOVE took its card from."""
    return (e >> 8) & 0xFF


def var_index(e):
    """The variable a VAR_LO or VAR_HI entry holds the old value of."""
    return (e >> 16) & 0xFF


def var_value(hi, lo):
    """A variable's old value from its VAR_HI and VAR_LO entries."""
    value = (hi & 0x7FFF) << 15 | (lo & 0x7FFF)
    if hi & _SIGN:
        value -= 0x20000000  # minus 2**30 in two steps: 2**30 is no small int
        value -= 0x20000000
    return value


def zeroed(size):
    """An array("i") of `size` zeros, cleared 64 entries a slice: made from a range, not from
    [0] * size (a list as long as the journal, made only to be copied, would need a second hole
    of its size in the device's heap), and not cleared entry by entry (a loop of 2,000 steps
    was half the cost of making a game)."""
    log = array("i", range(size))
    zeros = array("i", range(64))
    for i in range(64):
        zeros[i] = 0
    whole = size - size % 64
    for k in range(0, whole, 64):
        log[k:k + 64] = zeros
    for i in range(whole, size):
        log[i] = 0
    return log


class History:
    def __init__(self, size):
        self.log = zeroed(size)
        self.capacity = size
        self.head = 0  # where the next entry goes
        self.used = 0  # entries held
        self.moves = 0  # whole moves held
        self.clears = 0  # how many times cleared (mod 2**16): tells a reader its positions are stale
        self.changed = False  # a move made or taken back, or the journal cleared, since take_changed

    def take_changed(self):
        """Whether a move was made or taken back, or the journal cleared, since the last call
        (the Console saves the game then)."""
        changed = self.changed
        self.changed = False
        return changed

    def clear(self):
        self.changed = True
        self.head = 0
        self.used = 0
        self.moves = 0
        self.clears = (self.clears + 1) & 0xFFFF

    def add(self, e):
        """Append entry e (made by one of the *_entry functions)."""
        if self.used == self.capacity:
            self._forget_oldest()  # frees at least one entry
        self.log[self.head] = e
        self.head = (self.head + 1) % self.capacity
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

    # --- what a move does, as Game's journaled changes note it ---
    # Each writes its entry as add() does, without calling it: the call would cost about
    # 1,800 fuel on MicroPython, a third of the entry's 6,500, and a move notes several.

    def begin(self, move):
        if self.used == self.capacity:
            self._forget_oldest()
        self.log[self.head] = MARK << 24 | move
        self.head = (self.head + 1) % self.capacity
        self.used += 1
        self.moves += 1
        self.changed = True

    def note_push(self, p, card):
        if self.used == self.capacity:
            self._forget_oldest()
        self.log[self.head] = PUSH << 24 | p << 8 | card
        self.head = (self.head + 1) % self.capacity
        self.used += 1

    def note_pop(self, p, card):
        if self.used == self.capacity:
            self._forget_oldest()
        self.log[self.head] = POP << 24 | p << 8 | card
        self.head = (self.head + 1) % self.capacity
        self.used += 1

    def note_move(self, src, dst, count):
        if self.used == self.capacity:
            self._forget_oldest()
        self.log[self.head] = MOVE << 24 | src << 16 | dst << 8 | count
        self.head = (self.head + 1) % self.capacity
        self.used += 1

    def note_remove(self, p, i, card):
        if self.used == self.capacity:
            self._forget_oldest()
        self.log[self.head] = REMOVE << 24 | p << 16 | i << 8 | card
        self.head = (self.head + 1) % self.capacity
        self.used += 1

    def note_reverse(self, p, count):
        if self.used == self.capacity:
            self._forget_oldest()
        self.log[self.head] = REVERSE << 24 | p << 8 | count
        self.head = (self.head + 1) % self.capacity
        self.used += 1

    def note_var(self, i, old):
        """Variable i is about to change from old: the old value in two 15-bit halves, and a
        sign bit, so that values from 2**29 up (a random state) and negative ones (a score)
        both come back exactly."""
        sign = 0
        if old < 0:
            sign = _SIGN
            old &= 0x3FFFFFFF
        if self.used == self.capacity:
            self._forget_oldest()
        self.log[self.head] = VAR_LO << 24 | i << 16 | (old & 0x7FFF)
        self.head = (self.head + 1) % self.capacity
        self.used += 1
        if self.used == self.capacity:
            self._forget_oldest()
        self.log[self.head] = VAR_HI << 24 | i << 16 | sign | (old >> 15)
        self.head = (self.head + 1) % self.capacity
        self.used += 1

    # --- reading it back ---

    def pop_entry(self):
        """The newest entry, removed (0 when empty)."""
        if self.used == 0:
            return 0
        self.changed = True
        self.head = (self.head - 1) % self.capacity
        self.used -= 1
        return self.log[self.head]

    def revert_move(self, piles, variables):
        """Undo the newest move: take its entries back to its MARK, putting piles and vars
        (the game's variables) back as they were. False when no whole move is held. No
        allocation."""
        if self.moves == 0:
            return False
        while self.used > 0:
            e = self.pop_entry()
            tag = e >> 24
            if tag == MARK:
                break
            if tag == PUSH:
                piles.pop((e >> 8) & 0xFF)
            elif tag == POP:
                piles.push((e >> 8) & 0xFF, e & 0xFF)
            elif tag == MOVE:
                piles.move((e >> 8) & 0xFF, (e >> 16) & 0xFF, e & 0xFF)
            elif tag == VAR_HI:
                variables[(e >> 16) & 0xFF] = var_value(e, self.pop_entry())
            elif tag == REMOVE:
                piles.insert_at((e >> 16) & 0xFF, (e >> 8) & 0xFF, e & 0xFF)
            elif tag == REVERSE:
                piles.reverse((e >> 8) & 0xFF, e & 0xFF)
        self.moves -= 1
        return True

    def mark_piles(self, start, end, marks, index):
        """For every pile p that the entries at ring positions start .. end changed, set
        marks[index[p]] = 1 (index maps piles to the caller's numbering: a view's slots;
        both need 256 entries so that any pile byte is safe). No allocation."""
        log = self.log
        cap = self.capacity
        i = start
        while i != end:
            e = log[i]
            tag = e >> 24
            if tag == MOVE:
                marks[index[(e >> 16) & 0xFF]] = 1
                marks[index[(e >> 8) & 0xFF]] = 1
            elif tag == REMOVE:
                marks[index[(e >> 16) & 0xFF]] = 1
            elif tag == PUSH or tag == POP or tag == REVERSE:
                marks[index[(e >> 8) & 0xFF]] = 1
            i = (i + 1) % cap

    def find_var_change(self, i, old, last_move_only):
        """How many entries back the newest change of variable i from the value old
        (0 <= old < 2**15) is, or -1; within the newest move only, or the whole journal."""
        log = self.log
        want = VAR_LO << 24 | i << 16 | old
        at = self.head
        for k in range(self.used):
            at -= 1
            if at < 0:
                at = self.capacity - 1
            e = log[at]
            if e == want:
                return k
            if last_move_only and e >> 24 == MARK:
                return -1
        return -1

    def moves_since(self, start, out):
        """The move codes begun from ring position start up to the head, oldest first, into
        out (as many as fit); how many there are. No allocation."""
        n = 0
        i = start
        while i != self.head:
            e = self.log[i]
            if e >> 24 == MARK:
                if n < len(out):
                    out[n] = e & _PAYLOAD
                n += 1
            i = (i + 1) % self.capacity
        return n

    def mark_before(self, i):
        """The newest MARK before held entry i (entries counted from the oldest held, 0, up
        to self.used, past the newest), counted the same way; -1 when none is held. No
        allocation."""
        cap = self.capacity
        tail = self.head - self.used
        while i > 0:
            i -= 1
            if self.log[(tail + i) % cap] >> 24 == MARK:
                return i
        return -1

    def ring_at(self, i):
        """The ring position of held entry i (counted as mark_before counts)."""
        return (self.head - self.used + i) % self.capacity

    def move_at(self, i):
        """The move code of the MARK that is held entry i."""
        return self.log[(self.head - self.used + i) % self.capacity] & _PAYLOAD

    def last_move(self):
        """The move code of the newest move, or -1."""
        i = self.head
        for _ in range(self.used):
            i = (i - 1) % self.capacity
            e = self.log[i]
            if e >> 24 == MARK:
                return e & _PAYLOAD
        return -1
