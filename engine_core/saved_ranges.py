"""What the values of a saved position may be: its generator's states and the shared variables
(status, the player to move, the scores). The checked decoders of a game record and of an undo
journal (game_record.py, undo_record.py) ask here before they commit anything.
"""

from engine_core import OVER, PLAYING
from engine_core import rng
from engine_core.game import V_SCORE, V_STATUS, V_TURN

from micropython import const

MAX_SCORE = const(100000)  # the widest score a position holds (as `load` takes scores)


def generator_in_range(dealer, state, state2):
    """A generator (rng.LEHMER or rng.COMBINED) and states it can be in. No allocation."""
    if dealer == rng.LEHMER:
        return 1 <= state < rng.M and state2 == 0
    return dealer == rng.COMBINED and 1 <= state < rng.M1 and 1 <= state2 < rng.M2


def var_in_range(game, i, value):
    """Shared variable i (below V_SCORE + 4) holds a value play could give it: a status, the
    player to move, a score (0 for a seat nobody has). No allocation."""
    if i == V_STATUS:
        return PLAYING <= value <= OVER
    if i == V_TURN:
        return 0 <= value < game.players
    if i >= V_SCORE:
        return -MAX_SCORE <= value <= MAX_SCORE and (i - V_SCORE < game.players or value == 0)
    return True
