"""The table renderer's record of what it drew (view.py): what partial redraws are decided
from (docs/engine.md, "The table")."""

from array import array

from engine_core.ui.slots import NONE

from micropython import const

SHAKE_BIAS = const(8)  # Drawn.shake holds a slot's shake plus this, to fit a bytearray
NEVER = const(255)  # Drawn.count of a slot never drawn (no pile holds as many cards)


class Drawn:
    """What the screen shows of a table, as last drawn: per slot its card count, fan step,
    first highlighted card and highlight colour, extent and shake; per card position in the
    arena the card drawn there; the status line's move count (or a hash of the scores) and
    the message shown; the highlights the slots were drawn with; the band of the message
    strip drawn over since it was drawn; where the sliding card was drawn. `valid` False:
    nothing is known to be drawn, and the next refresh draws everything. A slot's fan step
    and extent are its card count's alone (slots.py): drawn with as many cards as it holds
    now, its recorded ones are its present ones."""

    def __init__(self, slots, cards):
        self.count = bytearray([NEVER] * slots)
        self.step = bytearray(slots)
        self.highlight_from = bytearray(slots)
        self.highlight_colour = bytearray(slots)
        self.extent = array("h", [0] * slots)
        self.shake = bytearray([SHAKE_BIAS] * slots)
        self.cards = bytearray(cards)
        self.moves = -1
        self.scores = -1  # competitive games: a hash of every player's score
        self.msg = NONE  # what the strip on the glass says; NONE: no strip; 0: one to draw anew or take away
        self.cursor = NONE
        self.cursor_index = NONE
        self.held = NONE
        self.held_index = NONE
        self.hint = NONE
        self.last = NONE
        self.damage_from = 255  # the strip's band drawn over, in pixel pairs (255, 0: none)
        self.damage_to = 0
        self.ghost_x = 0
        self.ghost_y = 0
        self.valid = False
