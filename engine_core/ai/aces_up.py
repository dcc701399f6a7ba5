"""Aces Up hints and auto-play: a search over the moves up to the next deal.

Two facts make the search small:
- Discarding is never wrong, and discards commute: a discardable card stays discardable until
  the next deal (what outranks it stays exposed or is discarded by something higher still), so
  it will be discarded before that deal anyway, and taking it at once only adds options. The
  model therefore makes every discard as soon as it appears, and auto-play may too.
- The only real choice is which card goes into an empty column. The search tries every order
  of those moves up to the next deal (the hidden stock is never looked at: a hint knows what
  the player knows) and scores the position the deal will be made from.
With the stock empty nothing is hidden, so the same search decides a won ending exactly: that
is the 'finish' line.
"""

from array import array

from engine_core import PLAYING
from engine_core.ai.advisor import PatienceAdvisor
from engine_core.ai.search import Search
from engine_core.game import move_code

from micropython import const

_STOCK = const(0)
_COL1 = const(1)
_DISCARD = const(5)
_DEAL_MOVE = const(0xFF0000)
_HEIGHT = const(52)  # 13 cards at most in play; a loaded position may deal a column more
_DEPTH = const(40)  # moves into empty columns before one deal: at most the cards in play
NODE_LIMIT = const(120)  # fits the hint budget (tools/bench/bench_hints.py)
WIN = const(1000000)

# Per card id 0..51: suit, and value with aces high (2 -> 1 .. king -> 12, ace -> 13).
# Indexing a bytes table costs far less on MicroPython than a function call per card.
SUIT = bytes([c // 13 for c in range(52)])
VALUE = bytes([13 if c % 13 == 0 else c % 13 for c in range(52)])


class Model:
    """The four columns and what the search needs to make and unmake moves on them."""

    def __init__(self):
        self.cols = bytearray(4 * _HEIGHT)
        self.size = bytearray(4)
        self.best = bytearray(4)  # scratch: highest exposed value per suit
        self.left = 0  # cards in the columns
        self.stock = 0  # cards in the stock
        # The trail: every card that moved, as from << 12 | to << 8 | card (to 4: discarded).
        # A line holds at most the work units the search may spend (each moved card is one)
        # plus the last move's discards, after up to 48 discards made before the search.
        self.trail = array("i", [0] * (NODE_LIMIT + 2 * 52))
        self.used = 0
        self.frames = array("i", [0] * (_DEPTH + 1))  # trail height before each search move
        self.depth = 0

    def load(self, game):
        piles = game.piles
        self.left = 0
        for c in range(4):
            n = piles.size[_COL1 + c]
            s = piles.start[_COL1 + c]
            for i in range(n):
                self.cols[c * _HEIGHT + i] = piles.cards[s + i]
            self.size[c] = n
            self.left += n
        self.stock = piles.size[_STOCK]
        self.used = 0
        self.depth = 0

    def won(self):
        """The stock is out and the four cards left are the aces (a loaded position may
        have put an ace on the discard: then four cards left are not a win)."""
        if self.stock != 0 or self.left != 4:
            return False
        for c in range(4):
            for i in range(self.size[c]):
                if VALUE[self.cols[c * _HEIGHT + i]] != 13:
                    return False
        return True

    def discardable(self):
        """A column whose top may be discarded, or -1."""
        cols = self.cols
        size = self.size
        best = self.best
        for s in range(4):
            best[s] = 0
        for c in range(4):  # the highest exposed value of each suit
            n = size[c]
            if n:
                card = cols[c * _HEIGHT + n - 1]
                if VALUE[card] > best[SUIT[card]]:
                    best[SUIT[card]] = VALUE[card]
        for c in range(4):
            n = size[c]
            if n:
                card = cols[c * _HEIGHT + n - 1]
                if VALUE[card] < best[SUIT[card]]:
                    return c
        return -1

    def _move(self, src, dst):
        n = self.size[src] - 1
        card = self.cols[src * _HEIGHT + n]
        self.size[src] = n
        if dst < 4:
            m = self.size[dst]
            self.cols[dst * _HEIGHT + m] = card
            self.size[dst] = m + 1
        else:
            self.left -= 1
        self.trail[self.used] = src << 12 | dst << 8 | card
        self.used += 1

    def discard_all(self):
        c = self.discardable()
        while c >= 0:
            self._move(c, 4)
            c = self.discardable()

    def empty_column(self):
        for c in range(4):
            if self.size[c] == 0:
                return c
        return -1

    # --- the search's model interface ---

    def gen(self, out, base):
        """Moves into the first empty column (src << 2 | dst); 0 when the next deal is due."""
        e = self.empty_column()
        if e < 0 or (self.left == 4 and self.stock == 0):
            return 0
        n = 0
        for c in range(4):
            if self.size[c] >= 2:
                out[base + n] = c << 2 | e
                n += 1
        return n

    def do(self, move):
        """Make a move and the discards it allows; returns its cost: one plus the cards moved."""
        start = self.used
        self.frames[self.depth] = start
        self.depth += 1
        self._move(move >> 2, move & 3)
        self.discard_all()
        return 1 + self.used - start

    def undo(self):
        self.depth -= 1
        stop = self.frames[self.depth]
        while self.used > stop:
            self.used -= 1
            e = self.trail[self.used]
            src = e >> 12
            dst = (e >> 8) & 15
            if dst < 4:
                self.size[dst] -= 1
            else:
                self.left += 1
            n = self.size[src]
            self.cols[src * _HEIGHT + n] = e & 0xFF
            self.size[src] = n + 1

    def score(self):
        """How promising the position the next deal is made from is (WIN when won).

        Fewer cards first; then a top card lying on a lower one costs (the lower card waits
        for it to leave), and an ace at the bottom of a column is where it belongs. The choice
        rarely matters, the deal does: over seeds 0..9999 this wins 280 deals, the card count
        alone 274 (docs/statistics.md). It looks at two cards per column at most.
        """
        if self.won():
            return WIN
        cols = self.cols
        total = -100 * self.left
        for c in range(4):
            n = self.size[c]
            if n:
                base = c * _HEIGHT
                if VALUE[cols[base]] == 13:
                    total += 40
                if n >= 2 and VALUE[cols[base + n - 1]] > VALUE[cols[base + n - 2]]:
                    total -= 15
        return total


class Advisor(PatienceAdvisor):
    """hint(), safe_move() and finish_move() for one Aces Up game object."""

    SEARCHES = True  # its search: up to 29 ms on an RP2040 (docs/performance.md)

    def __init__(self, game):
        PatienceAdvisor.__init__(self, game)  # self.game, self.work
        self.model = Model()
        self.search = Search(_DEPTH, 4)

    def safe_move(self):
        """A discard (never wrong, see above), or -1."""
        game = self.game
        if game.status() != PLAYING:
            return -1
        self.model.load(game)
        c = self.model.discardable()
        if c < 0:
            return -1
        return move_code(_COL1 + c, _DISCARD)

    def _best(self):
        """The best move into an empty column from the loaded model (-1: none)."""
        m = self.search.run(self.model, NODE_LIMIT)
        self.work = self.search.nodes
        if m < 0:
            return -1
        return move_code(_COL1 + (m >> 2), _COL1 + (m & 3))

    def choose(self):
        """The hint when no safe move is left (hint() in PatienceAdvisor tries those first)."""
        game = self.game
        m = self._best()
        if m >= 0:
            return m
        if game.piles.size[_STOCK] > 0:
            return _DEAL_MOVE
        return -1

    def finish_move(self):
        """The next move of a certain win once the stock is empty, or -1."""
        game = self.game
        if game.status() != PLAYING or game.piles.size[_STOCK] > 0:
            return -1
        self.model.load(game)
        self.model.discard_all()
        if self.model.won():  # the discards alone win
            return self.safe_move()
        m = self._best()
        if m < 0 or self.search.best_score != WIN:
            return -1
        d = self.safe_move()
        if d >= 0:
            return d
        return m


def attach(game):
    """The game's advisor (Game.attach_ai, at start-up)."""
    game.advisor = Advisor(game)
