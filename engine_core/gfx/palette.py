"""The 16 colours of the screen, by role, and their RGB565 values.

Pixel values are indices into Screen.palette; drawing code names the role (CURSOR), never
an RGB value, so a card-back setting or a different panel only changes this table.
"""

from micropython import const

BLACK = const(0)
WHITE = const(1)
FELT = const(2)  # the table
FELT_DARK = const(3)  # empty pile outlines, shadows
RED = const(4)  # hearts and diamonds
GREY = const(5)  # card borders
SLOT = const(6)  # empty pile marks and dim text on the table
GOLD = const(7)  # face-card panels
BACK = const(8)  # card back (changes with the card-back setting)
BACK_LIGHT = const(9)  # card back pattern
CURSOR = const(10)
HELD = const(11)  # the card(s) picked up
LAST = const(12)  # the last move's card
PANEL = const(13)  # menus and dialogs
DIM = const(14)  # secondary text on panels
HINT = const(15)  # the hinted destination

# (r, g, b) for each index, 8 bits a channel.
RGB = (
    (0, 0, 0), (255, 255, 255), (16, 104, 48), (8, 64, 28),
    (214, 0, 0), (96, 96, 96), (120, 176, 136), (250, 206, 72),
    (32, 64, 176), (128, 168, 240), (255, 232, 0), (0, 216, 255),
    (255, 136, 0), (20, 30, 64), (168, 180, 208), (255, 64, 255),
)

# Card backs: (BACK, BACK_LIGHT) colours, chosen in settings (engine_core/ui/settings.py
# names them, in this order).
BACKS = (
    ((32, 64, 176), (128, 168, 240)),
    ((168, 24, 32), (240, 136, 128)),
    ((16, 120, 96), (120, 216, 176)),
    ((96, 40, 144), (192, 144, 232)),
)


# The one-bit screen (Screen(..., mono=True)): each role as dark (0) or lit (1), a light card
# on a dark table as an OLED shows it. What colour alone told apart is told otherwise: the suits
# by their glyphs (red and black ink are both dark), the back by its tile (BACK dark,
# BACK_LIGHT lit), a chosen menu row by being lit under dark text, and the highlight frames of
# a card or an empty pile by lit marks on a dark frame (MONO_MARKS).
MONO = b"\x00\x01\x00\x01\x00\x00\x01\x01\x00\x01\x01\x01\x01\x00\x01\x01"

# How a one-bit highlight is drawn: on the rings outside the card's margin (the ring of paper
# round its index, which a mark never touches: the 13x9 card has one such ring, the others
# two), first dark, then lit marks; the cursor's also turns the card's face negative. The
# marks are few rectangles each (a fill costs a call), the 13x9 card's dots a pixel each.
MARK_NEGATIVE = const(1)  # the outermost ring lit, the face inside it negative: lit ink on dark
MARK_RING = const(2)  # the outermost ring lit round a dark one; one ring: lit every other pixel
MARK_TICKS = const(3)  # a lit bar across the middle of each side
MARK_CORNERS = const(4)  # lit brackets at the four corners

# The mark of each role's frame (0: not a highlight). The cursor: the card negative in a lit
# frame, what it is on turned over as a chosen menu row is; the card held: a lit outline (dotted
# where one ring is free); the hint: ticks at the middle of the sides; the last move: brackets
# at its corners, the quietest.
MONO_MARKS = bytearray(16)
MONO_MARKS[CURSOR] = MARK_NEGATIVE
MONO_MARKS[HELD] = MARK_RING
MONO_MARKS[HINT] = MARK_TICKS
MONO_MARKS[LAST] = MARK_CORNERS


def rgb565(r, g, b):
    return (r >> 3) << 11 | (g >> 2) << 5 | b >> 3
