"""The card engine shared by the handheld and the simulator.

Everything under engine_core runs on MicroPython and CPython alike and allocates nothing
once a game object exists (see docs/engine.md).
"""

# Game status, as returned by every game's status().
PLAYING = 0
WON = 1
LOST = 2
OVER = 3  # a competitive game or match that has ended

STATUS_NAMES = ("playing", "won", "lost", "over")
