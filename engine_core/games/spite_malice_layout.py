"""Where Spite & Malice's piles sit on each screen class, and the words on its table
(engine_core/layout.py says how to read a LAYOUT; spite_malice.py, the game, exposes it).
"""

from micropython import const

# engine_core/layout.py's words, as this module's own constants: LAYOUT's tuples are then
# constants, which stay in flash when frozen (built from imported names, every slot
# would be a tuple made in RAM at import). Their values must stay equal to layout.py's.
ARG_KIND = const(2)
COUNT = const(4)
HIDDEN = const(16)
LARGE = const(2)
MEDIUM = const(1)
MICRO = const(5)
MINI = const(3)
PICK = const(8)
RIGHT = const(2)
SMALL = const(0)
STACK = const(0)
STRIP = const(6)
THEM = const(36)
TINY = const(4)
WIDE = const(64)
THEIRS = const(32)
WILD = const(128)


# Where the piles sit on each screen class (engine_core/layout.py says how to read it).
# Spite & Malice: the computer (p2) across the top, the centre stacks in the middle, your
# payoff pile and side stacks below, your hand spread along the bottom. Side stacks show
# their top card and how many lie under it.
LAYOUT = {
    "players": 2,
    "foundations": ("center1", "center2", "center3"),
    "actions": (),
    "arg": ARG_KIND,  # a card from the hand is named by its kind
    "cards": {SMALL: MINI, LARGE: MEDIUM, TINY: STRIP},
    SMALL: (
        ('p2.hand', 2, 2, STACK | THEIRS | COUNT | HIDDEN, 0, b''),
        ('p2.payoff', 24, 2, STACK | THEIRS | COUNT, 0, b''),
        ('p2.side1', 110, 2, STACK | THEIRS | COUNT, 0, b''),
        ('p2.side2', 132, 2, STACK | THEIRS | COUNT, 0, b''),
        ('p2.side3', 154, 2, STACK | THEIRS | COUNT, 0, b''),
        ('p2.side4', 176, 2, STACK | THEIRS | COUNT, 0, b''),
        ('stock', 2, 37, STACK | COUNT, 0, b''),
        ('center1', 60, 37, STACK | WILD, 0, b'A'),
        ('center2', 82, 37, STACK | WILD, 0, b'A'),
        ('center3', 104, 37, STACK | WILD, 0, b'A'),
        ('p1.payoff', 24, 72, STACK | COUNT, 0, b''),
        ('p1.side1', 110, 72, STACK | COUNT, 0, b''),
        ('p1.side2', 132, 72, STACK | COUNT, 0, b''),
        ('p1.side3', 154, 72, STACK | COUNT, 0, b''),
        ('p1.side4', 176, 72, STACK | COUNT, 0, b''),
        ('p1.hand', 2, 108, RIGHT | PICK | WIDE, 110, b''),
    ),
    MEDIUM: (
        ('p2.hand', 4, 12, STACK | THEIRS | COUNT | HIDDEN, 0, b''),
        ('p2.payoff', 40, 12, STACK | THEIRS | COUNT, 0, b''),
        ('p2.side1', 96, 12, STACK | THEIRS | COUNT, 0, b''),
        ('p2.side2', 132, 12, STACK | THEIRS | COUNT, 0, b''),
        ('p2.side3', 168, 12, STACK | THEIRS | COUNT, 0, b''),
        ('p2.side4', 204, 12, STACK | THEIRS | COUNT, 0, b''),
        ('stock', 4, 68, STACK | COUNT, 0, b''),
        ('center1', 78, 68, STACK | WILD, 0, b'A'),
        ('center2', 114, 68, STACK | WILD, 0, b'A'),
        ('center3', 150, 68, STACK | WILD, 0, b'A'),
        ('p1.payoff', 40, 124, STACK | COUNT, 0, b''),
        ('p1.side1', 96, 124, STACK | COUNT, 0, b''),
        ('p1.side2', 132, 124, STACK | COUNT, 0, b''),
        ('p1.side3', 168, 124, STACK | COUNT, 0, b''),
        ('p1.side4', 204, 124, STACK | COUNT, 0, b''),
        ('p1.hand', 4, 184, RIGHT | PICK | WIDE, 232, b''),
    ),
    LARGE: (
        ('p2.hand', 6, 12, STACK | THEIRS | COUNT | HIDDEN, 0, b''),
        ('p2.payoff', 48, 12, STACK | THEIRS | COUNT, 0, b''),
        ('p2.side1', 140, 12, STACK | THEIRS | COUNT, 0, b''),
        ('p2.side2', 184, 12, STACK | THEIRS | COUNT, 0, b''),
        ('p2.side3', 228, 12, STACK | THEIRS | COUNT, 0, b''),
        ('p2.side4', 272, 12, STACK | THEIRS | COUNT, 0, b''),
        ('stock', 6, 68, STACK | COUNT, 0, b''),
        ('center1', 118, 68, STACK | WILD, 0, b'A'),
        ('center2', 162, 68, STACK | WILD, 0, b'A'),
        ('center3', 206, 68, STACK | WILD, 0, b'A'),
        ('p1.payoff', 48, 124, STACK | COUNT, 0, b''),
        ('p1.side1', 140, 124, STACK | COUNT, 0, b''),
        ('p1.side2', 184, 124, STACK | COUNT, 0, b''),
        ('p1.side3', 228, 124, STACK | COUNT, 0, b''),
        ('p1.side4', 272, 124, STACK | COUNT, 0, b''),
        ('p1.hand', 48, 184, RIGHT | PICK | WIDE, 220, b''),
    ),
    # 160x128: 18x14 cards (the corner index alone), four rows and the scores in a corner.
    TINY: (
        ('p2.hand', 2, 2, STACK | THEIRS | COUNT | HIDDEN, 0, b''),
        ('p2.payoff', 22, 2, STACK | THEIRS | COUNT, 0, b''),
        ('p2.side1', 70, 2, STACK | THEIRS | COUNT, 0, b''),
        ('p2.side2', 92, 2, STACK | THEIRS | COUNT, 0, b''),
        ('p2.side3', 114, 2, STACK | THEIRS | COUNT, 0, b''),
        ('p2.side4', 136, 2, STACK | THEIRS | COUNT, 0, b''),
        ('stock', 2, 28, STACK | COUNT, 0, b''),
        ('center1', 46, 28, STACK | WILD, 0, b'A'),
        ('center2', 68, 28, STACK | WILD, 0, b'A'),
        ('center3', 90, 28, STACK | WILD, 0, b'A'),
        ('p1.payoff', 22, 54, STACK | COUNT, 0, b''),
        ('p1.side1', 70, 54, STACK | COUNT, 0, b''),
        ('p1.side2', 92, 54, STACK | COUNT, 0, b''),
        ('p1.side3', 114, 54, STACK | COUNT, 0, b''),
        ('p1.side4', 136, 54, STACK | COUNT, 0, b''),
        ('p1.hand', 2, 84, RIGHT | PICK | WIDE, 110, b''),
    ),
    # 128x64: 13x9 cards; the other player's side stacks without their sizes, yours with them.
    MICRO: (
        ('p2.hand', 0, 0, STACK | THEIRS | COUNT | HIDDEN, 0, b''),
        ('p2.payoff', 16, 0, STACK | THEIRS | COUNT, 0, b''),
        ('p2.side1', 34, 0, STACK | THEIRS, 0, b''),
        ('p2.side2', 50, 0, STACK | THEIRS, 0, b''),
        ('p2.side3', 66, 0, STACK | THEIRS, 0, b''),
        ('p2.side4', 82, 0, STACK | THEIRS, 0, b''),
        ('stock', 0, 21, STACK | COUNT, 0, b''),
        ('center1', 34, 15, STACK | WILD, 0, b'A'),
        ('center2', 50, 15, STACK | WILD, 0, b'A'),
        ('center3', 66, 15, STACK | WILD, 0, b'A'),
        ('p1.payoff', 16, 31, STACK | COUNT, 0, b''),
        ('p1.side1', 34, 31, STACK | COUNT, 0, b''),
        ('p1.side2', 50, 31, STACK | COUNT, 0, b''),
        ('p1.side3', 66, 31, STACK | COUNT, 0, b''),
        ('p1.side4', 82, 31, STACK | COUNT, 0, b''),
        ('p1.hand', 0, 54, RIGHT | PICK | WIDE, 94, b''),
    ),
    "status": {SMALL: (206, 102, 32), MEDIUM: (2, 2, 236), LARGE: (2, 2, 316), TINY: (120, 98, 38),
               MICRO: (98, 33, 30)},
    "labels": {
        SMALL: ((b"CPU", 50, 4), (b"You", 50, 74)),
        MEDIUM: ((b"CPU", 76, 14), (b"You", 76, 126)),
        LARGE: ((b"CPU", 96, 14), (b"You", 96, 126)),
        TINY: ((b"CPU", 44, 4), (b"You", 44, 56)),
        MICRO: ((b"CPU", 100, 0),),  # (your rows are the lower ones; the message strip's band has no room for words)
    },
}
