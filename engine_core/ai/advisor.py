"""What the patience games' advisors share: a hint plays a safe move first."""

from engine_core import PLAYING
from engine_core.game import SEEK


class PatienceAdvisor:
    """Base of each patience game's Advisor: hint() = a safe move if any, else choose().

    Each Advisor is made with its game (calling PatienceAdvisor.__init__) and overrides
    safe_move(), choose() and finish_move(), each a move code or -1. No allocation.
    """

    SEARCHES = False  # choose() may search for longer than a frame (Game.quick_hint)

    def __init__(self, game):
        self.game = game
        self.work = 0  # work units the last hint spent (for the bench)

    def hint(self):
        m = self.quick_hint()
        return self.choose() if m == SEEK else m

    def quick_hint(self):
        """A safe move, or -1 when the game is over; else choose()'s move, or SEEK where
        choose() searches (SEARCHES)."""
        self.work = 0  # work units this hint spends (for the bench)
        if self.game.status() != PLAYING:
            return -1
        m = self.safe_move()
        if m >= 0:
            return m
        return SEEK if self.SEARCHES else self.choose()

    def safe_move(self):
        """A move no remaining card could ever need undone, or -1."""
        return -1

    def choose(self):
        """The hint when no safe move is left, or -1."""
        return -1

    def finish_move(self):
        """The next move of a certain win, or -1."""
        return -1
