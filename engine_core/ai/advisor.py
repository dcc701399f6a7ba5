"""What the patience games' advisors share: a hint plays a safe move first."""

from engine_core import PLAYING


class PatienceAdvisor:
    """Base of each patience game's Advisor: hint() = a safe move if any, else choose().

    Subclasses set self.game and self.work in __init__ and define safe_move(), choose() and
    finish_move(). No allocation.
    """

    def hint(self):
        self.work = 0  # work units this hint spends (for the bench)
        if self.game.status() != PLAYING:
            return -1
        m = self.safe_move()
        if m >= 0:
            return m
        return self.choose()
