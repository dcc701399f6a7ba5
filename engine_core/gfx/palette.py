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


def rgb565(r, g, b):
    return (r >> 3) << 11 | (g >> 2) << 5 | b >> 3

# The one-bit screen (Screen(..., mono=True)): each role as dark (0) or lit (1), a light card
# on a dark table as an OLED shows it. What colour alone told apart is told otherwise: the suits
# by their glyphs (red and black ink are both dark), the back by its tile (BACK dark,
# BACK_LIGHT lit), a chosen menu row by being lit under dark text, and the highlight frames of
# a card or an empty pile by the pattern of their two rings (MONO_RINGS).
MONO = b"\x00\x01\x00\x01\x00\x00\x01\x01\x00\x01\x01\x01\x01\x00\x01\x01"

# How a ring of a one-bit frame is drawn: dark, lit, or dashes that start lit at every
# multiple of twice their length along the screen's x (a row) or y (a column).
RING_DARK = const(0)
RING_LIT = const(1)
RING_DOTS = const(2)  # dashes of 1 pixel
RING_DASH2 = const(3)  # dashes of 2
RING_DASH4 = const(5)  # dashes of 4 (the length is the code minus 1)

# The outer and the inner ring of each highlight's frame, at 2 * role and 2 * role + 1 (other
# roles: a plain frame). The cursor: bold dashes; the card held: a lit ring around a dark one
# (a double outline on the table); the hint: dots; the last move: long dashes inside a plain
# border, the quietest.
MONO_RINGS = bytearray(32)
MONO_RINGS[2 * CURSOR] = RING_DASH2
MONO_RINGS[2 * CURSOR + 1] = RING_DASH2
MONO_RINGS[2 * HELD] = RING_LIT
MONO_RINGS[2 * HELD + 1] = RING_DARK
MONO_RINGS[2 * HINT] = RING_DOTS
MONO_RINGS[2 * HINT + 1] = RING_DOTS
MONO_RINGS[2 * LAST] = RING_DARK
MONO_RINGS[2 * LAST + 1] = RING_DASH4
