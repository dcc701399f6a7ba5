"""Where Casket's thirty piles sit on each screen class, and the words on its table
(engine_core/layout.py says how to read a LAYOUT; casket.py, the game, exposes it).
"""

from micropython import const

# engine_core/layout.py's words, as this module's own constants: LAYOUT's tuples are then
# constants, which stay in flash when frozen (built from imported names, every slot
# would be a tuple made in RAM at import). Their values must stay equal to layout.py's.
ARG_ANY = const(0)
COUNT = const(4)
DOWN = const(1)
LARGE = const(2)
MEDIUM = const(1)
MICRO = const(5)
MINI = const(3)
SMALL = const(0)
STACK = const(0)
STRIP = const(6)
TINY = const(4)

# Where the piles sit on each screen class (engine_core/layout.py says how to read it).
LAYOUT = {
    "foundations": ("found1", "found2", "found3", "found4", "found5", "found6", "found7", "found8"),
    "actions": (("stock", "draw"),),
    "arg": ARG_ANY,
    # Thirty piles: smaller cards. Foundations on top, then stock, waste, reserves and the
    # jewels, the five lids, and the eight body columns fanned down at the bottom.
    "cards": {SMALL: MINI, MEDIUM: SMALL, LARGE: SMALL, TINY: STRIP},
    SMALL: (
        ('stock', 2, 2, STACK | COUNT, 0, b''),
        ('waste', 22, 2, STACK, 0, b''),
        ('res1', 98, 2, STACK, 0, b''),
        ('res2', 118, 2, STACK, 0, b''),
        ('res3', 138, 2, STACK, 0, b''),
        ('jewels', 160, 2, STACK | COUNT, 0, b''),
        ('lid1', 52, 28, STACK, 0, b''),
        ('lid2', 74, 28, STACK, 0, b''),
        ('lid3', 96, 28, STACK, 0, b''),
        ('lid4', 118, 28, STACK, 0, b''),
        ('lid5', 140, 28, STACK, 0, b''),
        ('found1', 198, 2, STACK, 0, b'A'),
        ('found2', 198, 28, STACK, 0, b'A'),
        ('found3', 198, 54, STACK, 0, b'A'),
        ('found4', 198, 80, STACK, 0, b'A'),
        ('found5', 219, 2, STACK, 0, b'A'),
        ('found6', 219, 28, STACK, 0, b'A'),
        ('found7', 219, 54, STACK, 0, b'A'),
        ('found8', 219, 80, STACK, 0, b'A'),
        ('body1', 2, 54, DOWN, 81, b''),
        ('body2', 25, 54, DOWN, 81, b''),
        ('body3', 48, 54, DOWN, 81, b''),
        ('body4', 71, 54, DOWN, 81, b''),
        ('body5', 94, 54, DOWN, 81, b''),
        ('body6', 117, 54, DOWN, 81, b''),
        ('body7', 140, 54, DOWN, 81, b''),
        ('body8', 163, 54, DOWN, 81, b''),
    ),
    MEDIUM: (
        ('found1', 3, 11, STACK, 0, b'A'),
        ('found2', 32, 11, STACK, 0, b'A'),
        ('found3', 61, 11, STACK, 0, b'A'),
        ('found4', 90, 11, STACK, 0, b'A'),
        ('found5', 119, 11, STACK, 0, b'A'),
        ('found6', 148, 11, STACK, 0, b'A'),
        ('found7', 177, 11, STACK, 0, b'A'),
        ('found8', 206, 11, STACK, 0, b'A'),
        ('stock', 3, 45, STACK | COUNT, 0, b''),
        ('waste', 32, 45, STACK, 0, b''),
        ('res1', 119, 45, STACK, 0, b''),
        ('res2', 148, 45, STACK, 0, b''),
        ('res3', 177, 45, STACK, 0, b''),
        ('jewels', 206, 45, STACK | COUNT, 0, b''),
        ('lid1', 61, 79, STACK, 0, b''),
        ('lid2', 90, 79, STACK, 0, b''),
        ('lid3', 119, 79, STACK, 0, b''),
        ('lid4', 148, 79, STACK, 0, b''),
        ('lid5', 177, 79, STACK, 0, b''),
        ('body1', 3, 113, DOWN, 125, b''),
        ('body2', 32, 113, DOWN, 125, b''),
        ('body3', 61, 113, DOWN, 125, b''),
        ('body4', 90, 113, DOWN, 125, b''),
        ('body5', 119, 113, DOWN, 125, b''),
        ('body6', 148, 113, DOWN, 125, b''),
        ('body7', 177, 113, DOWN, 125, b''),
        ('body8', 206, 113, DOWN, 125, b''),
    ),
    LARGE: (
        ('found1', 6, 11, STACK, 0, b'A'),
        ('found2', 45, 11, STACK, 0, b'A'),
        ('found3', 84, 11, STACK, 0, b'A'),
        ('found4', 123, 11, STACK, 0, b'A'),
        ('found5', 162, 11, STACK, 0, b'A'),
        ('found6', 201, 11, STACK, 0, b'A'),
        ('found7', 240, 11, STACK, 0, b'A'),
        ('found8', 279, 11, STACK, 0, b'A'),
        ('stock', 6, 45, STACK | COUNT, 0, b''),
        ('waste', 45, 45, STACK, 0, b''),
        ('res1', 162, 45, STACK, 0, b''),
        ('res2', 201, 45, STACK, 0, b''),
        ('res3', 240, 45, STACK, 0, b''),
        ('jewels', 279, 45, STACK | COUNT, 0, b''),
        ('lid1', 84, 79, STACK, 0, b''),
        ('lid2', 123, 79, STACK, 0, b''),
        ('lid3', 162, 79, STACK, 0, b''),
        ('lid4', 201, 79, STACK, 0, b''),
        ('lid5', 240, 79, STACK, 0, b''),
        ('body1', 6, 113, DOWN, 125, b''),
        ('body2', 45, 113, DOWN, 125, b''),
        ('body3', 84, 113, DOWN, 125, b''),
        ('body4', 123, 113, DOWN, 125, b''),
        ('body5', 162, 113, DOWN, 125, b''),
        ('body6', 201, 113, DOWN, 125, b''),
        ('body7', 240, 113, DOWN, 125, b''),
        ('body8', 279, 113, DOWN, 125, b''),
    ),
    # 160x128 (18x14 cards) and 128x64 (13x9): the foundations in a row on top, the body
    # along the foot, the full width each.
    TINY: (
        ('found1', 0, 2, STACK, 0, b'A'),
        ('found2', 20, 2, STACK, 0, b'A'),
        ('found3', 40, 2, STACK, 0, b'A'),
        ('found4', 60, 2, STACK, 0, b'A'),
        ('found5', 80, 2, STACK, 0, b'A'),
        ('found6', 100, 2, STACK, 0, b'A'),
        ('found7', 120, 2, STACK, 0, b'A'),
        ('found8', 140, 2, STACK, 0, b'A'),
        ('stock', 0, 18, STACK | COUNT, 0, b''),
        ('waste', 20, 18, STACK, 0, b''),
        ('res1', 44, 18, STACK, 0, b''),
        ('res2', 64, 18, STACK, 0, b''),
        ('res3', 84, 18, STACK, 0, b''),
        ('jewels', 142, 18, STACK | COUNT, 0, b''),
        ('lid1', 28, 44, STACK, 0, b''),
        ('lid2', 48, 44, STACK, 0, b''),
        ('lid3', 68, 44, STACK, 0, b''),
        ('lid4', 88, 44, STACK, 0, b''),
        ('lid5', 108, 44, STACK, 0, b''),
        ('body1', 0, 62, DOWN, 66, b''),
        ('body2', 20, 62, DOWN, 66, b''),
        ('body3', 40, 62, DOWN, 66, b''),
        ('body4', 60, 62, DOWN, 66, b''),
        ('body5', 80, 62, DOWN, 66, b''),
        ('body6', 100, 62, DOWN, 66, b''),
        ('body7', 120, 62, DOWN, 66, b''),
        ('body8', 140, 62, DOWN, 66, b''),
    ),
    # 128x64: no room for the words; the jewels show their top card alone.
    MICRO: (
        ('found1', 0, 0, STACK, 0, b'A'),
        ('found2', 16, 0, STACK, 0, b'A'),
        ('found3', 32, 0, STACK, 0, b'A'),
        ('found4', 48, 0, STACK, 0, b'A'),
        ('found5', 64, 0, STACK, 0, b'A'),
        ('found6', 80, 0, STACK, 0, b'A'),
        ('found7', 96, 0, STACK, 0, b'A'),
        ('found8', 112, 0, STACK, 0, b'A'),
        ('stock', 0, 11, STACK | COUNT, 0, b''),
        ('waste', 16, 11, STACK, 0, b''),
        ('res1', 32, 11, STACK, 0, b''),
        ('res2', 48, 11, STACK, 0, b''),
        ('res3', 64, 11, STACK, 0, b''),
        ('jewels', 80, 11, STACK, 0, b''),
        ('lid1', 16, 22, STACK, 0, b''),
        ('lid2', 32, 22, STACK, 0, b''),
        ('lid3', 48, 22, STACK, 0, b''),
        ('lid4', 64, 22, STACK, 0, b''),
        ('lid5', 80, 22, STACK, 0, b''),
        ('body1', 0, 33, DOWN, 31, b''),
        ('body2', 16, 33, DOWN, 31, b''),
        ('body3', 32, 33, DOWN, 31, b''),
        ('body4', 48, 33, DOWN, 31, b''),
        ('body5', 64, 33, DOWN, 31, b''),
        ('body6', 80, 33, DOWN, 31, b''),
        ('body7', 96, 33, DOWN, 31, b''),
        ('body8', 112, 33, DOWN, 31, b''),
    ),
    "status": {SMALL: (198, 112, 40), MEDIUM: (2, 2, 236), LARGE: (2, 2, 316), TINY: (130, 42, 30),
               MICRO: (98, 11, 30)},
    # The rules' names on the table, each beside the row of piles it names: left of the
    # reserves and of the lids, under the jewels' count.
    "labels": {
        SMALL: ((b"Reserves", 48, 10), (b"Lids", 26, 37), (b"Jewels", 160, 38)),
        MEDIUM: ((b"Reserves", 68, 58), (b"Lids", 34, 92), (b"Jewels", 204, 90)),
        LARGE: ((b"Reserves", 110, 58), (b"Lids", 56, 92), (b"Jewels", 279, 90)),
        TINY: ((b"Reserves", 44, 34), (b"Lids", 0, 48), (b"Jewels", 104, 22)),
    },
    # Clearly won: stock, waste and jewels used up (body piles always fall in suit).
    "finish": (("stock", "waste", "jewels"), ()),
}
