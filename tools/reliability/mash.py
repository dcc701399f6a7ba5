"""Random input against the engine, checking after every event that no card is lost.

Runs unchanged on CPython and on MicroPython (where the soak runs it under
micropython.heap_lock(): nothing here allocates once the objects exist).

An event is what a button press can make the engine do: a legal move, an illegal move tried
(refused, nothing changes), an undo, a hint followed, time passing (computer players act), a
new deal, or a power cycle (save, then restore into the same object). After each one
cards_in_place() checks that every card of the game is in exactly one pile.
"""

from array import array

from engine_core import PLAYING
from engine_core import rng
from engine_core.save import encode_game, restore_game

# Event kinds, by weight out of 64.
_LEGAL = 28
_ILLEGAL = 40
_UNDO = 47
_HINT = 54
_TICK = 60
_DEAL = 62  # the rest: a power cycle


def cards_in_place(game, seen):
    """'' when every card of the game is in exactly one pile and no pile overflows, else what
    is wrong (a constant string). seen: a scratch bytearray(256). No allocation."""
    piles = game.piles
    for c in range(256):
        seen[c] = 0
    for p in range(piles.count):
        if piles.size[p] > piles.cap[p]:
            return "a pile holds more than its capacity"
        s = piles.start[p]
        for i in range(piles.size[p]):
            c = piles.cards[s + i]
            if seen[c]:
                return "a card is in two places"
            if not game.is_card(c):
                return "a card that is not the game's"
            seen[c] = 1
    for c in range(256):
        if game.is_card(c) and not seen[c]:
            return "a card is missing"
    return ""


class Masher:
    """Preallocated state for mashing one game object."""

    def __init__(self, game):
        self.game = game
        self.out = array("i", [0] * game.MAX_MOVES)
        self.seen = bytearray(256)
        self.buf = bytearray(1024)
        self.used = bytearray(256)
        self.events = 0
        self.failure = ""

    def event(self, x):
        """One random event from the number x; then the card check. Returns the check's
        message ('' when all is well)."""
        game = self.game
        kind = x & 63
        x >>= 6
        if kind < _LEGAL:
            n = game.legal_moves(self.out)
            if n > 0:
                game.apply(self.out[x % n])
                game.respond()
        elif kind < _ILLEGAL:
            count = game.piles.count
            move = (x % count) << 16 | ((x >> 8) % count) << 8 | ((x >> 16) & 3)
            if game.is_legal(move):
                game.apply(move)
                game.respond()
        elif kind < _UNDO:
            game.undo()
        elif kind < _HINT:
            move = game.hint()
            if move >= 0 and game.is_legal(move):
                game.apply(move)
                game.respond()
        elif kind < _TICK:
            game.tick(x % 2000)
        elif kind < _DEAL:
            game.deal(x % 100000)
        else:
            n = encode_game(game, 0, self.buf)
            if restore_game(game, self.buf, n, self.used) != 0:
                return "a saved game did not restore"
        self.events += 1
        return cards_in_place(game, self.seen)

    def run(self, events, x):
        """`events` random events from generator state x; stops at the first failure.
        Returns the generator state after them."""
        for _ in range(events):
            x = rng.step(x)
            problem = self.event(x)
            if problem:
                self.failure = problem
                return x
            if self.game.status() != PLAYING and x & 3 == 0:
                self.game.deal(x % 100000)
        return x
