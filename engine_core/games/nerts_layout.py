"""Where Nerts's piles sit on each screen class, for two, three and four players
(engine_core/layout.py says how to read a LAYOUT; nerts.py, the game, exposes it).

LAYOUT is the two-player table; LAYOUT["more"] makes the tables for three and four players,
each a declaration of its own with its "players" (engine_core/ui/layouts.py's declaration(name,
players, size) asks for the one a deal needs). They are made by seated() from one line of
numbers a screen class, so that they cost little flash, and only when first asked for, and
then only at the screen class asked for: made at import, every class of both, they cost every
boot of a Pico about 100 ms and its heap some 8 KB.
"""

from engine_core import layout as L

# Nerts, two players: the shared foundations on top (a 2x4 block on 240x135), the other
# player's Nerts pile, work-pile tops and waste, then yours: the Nerts pile, the four work
# piles fanned down (the cursor picks how many cards of a run), the stock and the waste.
LAYOUT = {
    "players": 2,
    "foundations": ("found1", "found2", "found3", "found4", "found5", "found6", "found7", "found8"),
    "actions": (("p1.stock", ":flip"), ("p1.stock", ":cycle"), ("p1.nerts", ":nerts")),
    "arg": L.ARG_COUNT,  # a run between work piles is named by its length
    "cards": {L.SMALL: L.MINI, L.MEDIUM: L.SMALL, L.LARGE: L.SMALL, L.TINY: L.STRIP},
    L.SMALL: L.row("found", 4, 198, 2, 0, 26, L.STACK, 0, b"A")
    + L.row("found", 4, 219, 2, 0, 26, L.STACK, 0, b"A", 5) + (
        ("p2.nerts", 2, 2, L.THEM, 0, b""),
    ) + L.row("p2.work", 4, 48, 2, 22, 0, L.STACK | L.THEIRS) + (
        ("p2.waste", 150, 2, L.STACK | L.THEIRS, 0, b""),
        ("p1.nerts", 2, 40, L.STACK | L.COUNT, 0, b""),
    ) + L.row("p1.work", 4, 48, 40, 22, 0, L.DOWN | L.PICK, 94) + (
        ("p1.stock", 150, 40, L.STACK | L.COUNT, 0, b""),
        ("p1.waste", 172, 40, L.STACK, 0, b""),
    ),
    L.MEDIUM: L.row("found", 8, 3, 11, 29, 0, L.STACK, 0, b"A") + (
        ("p2.nerts", 3, 47, L.THEM, 0, b""),
    ) + L.row("p2.work", 4, 61, 47, 29, 0, L.STACK | L.THEIRS) + (
        ("p2.waste", 206, 47, L.STACK | L.THEIRS, 0, b""),
        ("p1.nerts", 3, 93, L.STACK | L.COUNT, 0, b""),
    ) + L.row("p1.work", 4, 61, 93, 29, 0, L.DOWN | L.PICK, 145) + (
        ("p1.stock", 206, 93, L.STACK | L.COUNT, 0, b""),
        ("p1.waste", 206, 140, L.STACK, 0, b""),
    ),
    L.LARGE: L.row("found", 8, 6, 11, 39, 0, L.STACK, 0, b"A") + (
        ("p2.nerts", 6, 47, L.THEM, 0, b""),
    ) + L.row("p2.work", 4, 84, 47, 39, 0, L.STACK | L.THEIRS) + (
        ("p2.waste", 279, 47, L.STACK | L.THEIRS, 0, b""),
        ("p1.nerts", 6, 93, L.STACK | L.COUNT, 0, b""),
    ) + L.row("p1.work", 4, 84, 93, 39, 0, L.DOWN | L.PICK, 145) + (
        ("p1.stock", 279, 93, L.STACK | L.COUNT, 0, b""),
        ("p1.waste", 279, 140, L.STACK, 0, b""),
    ),
    # 160x128 (18x14 cards): the foundations in a 2x4 block on the right, your stock and
    # waste under it. 128x64 (13x9 cards): the foundations in a row along the top; no room for
    # CPU and You: your row of work piles has a Y before it, the row above is the other's.
    L.TINY: L.row("found", 4, 120, 2, 0, 16, L.STACK, 0, b"A")
    + L.row("found", 4, 140, 2, 0, 16, L.STACK, 0, b"A", 5) + (
        ("p2.nerts", 0, 2, L.THEM, 0, b""),
        ("p2.waste", 20, 2, L.STACK | L.THEIRS, 0, b""),
    ) + L.row("p2.work", 4, 40, 2, 20, 0, L.STACK | L.THEIRS) + (
        ("p1.nerts", 0, 28, L.STACK | L.COUNT, 0, b""),
    ) + L.row("p1.work", 4, 40, 28, 20, 0, L.DOWN | L.PICK, 100) + (
        ("p1.stock", 120, 68, L.STACK | L.COUNT, 0, b""),
        ("p1.waste", 140, 68, L.STACK, 0, b""),
    ),
    L.MICRO: L.row("found", 8, 0, 0, 16, 0, L.STACK, 0, b"A") + (
        ("p2.nerts", 0, 12, L.THEM, 0, b""),
        ("p2.waste", 16, 12, L.STACK | L.THEIRS, 0, b""),
    ) + L.row("p2.work", 4, 34, 12, 16, 0, L.STACK | L.THEIRS) + (
        ("p1.nerts", 0, 32, L.STACK | L.COUNT, 0, b""),
    ) + L.row("p1.work", 4, 34, 24, 16, 0, L.DOWN | L.PICK, 40) + (
        ("p1.stock", 98, 12, L.STACK | L.COUNT, 0, b""),
        ("p1.waste", 114, 12, L.STACK, 0, b""),
    ),
    "status": {L.SMALL: (150, 102, 44), L.MEDIUM: (2, 2, 236), L.LARGE: (2, 2, 316), L.TINY: (120, 95, 38),
               L.MICRO: (98, 32, 30)},
    "labels": {
        L.SMALL: ((b"CPU", 26, 4), (b"You", 26, 42)),
        L.MEDIUM: ((b"CPU", 33, 49), (b"You", 33, 95)),
        L.LARGE: ((b"CPU", 40, 49), (b"You", 40, 95)),
        L.TINY: ((b"CPU", 20, 18), (b"You", 20, 32)),
        L.MICRO: ((b"Y", 27, 25),),  # your row by its initial (no room for the other's: the rules say so)
    },
}

# Three and four players, per screen class, in one line of numbers:
#   the foundations: x, y, dx, dy and how many to a row (found1 .. found{4N}, row by row);
#   the others' Nerts piles (p2, p3, p4: x, y each, with their counts), where their names go
#   (dx, dy from the pile: the seats' names, CPU, CPU2, CPU3; on 128x64 with a third field, their
#   initials, C, 2 and 3, left of the piles, as the score corner names them) and, where there is room, their
#   work-pile tops (dx of the first from the Nerts pile, and the step) and waste (dx);
#   yours: the Nerts pile, the work piles (x, y, step, room of the fan), stock and waste
#   (x, y each), and where "You" goes (or None);
#   the score corner (x, y, width): a row a player under "Score", or without it where the
#   rows would run off the screen (128x64 with four: overlay.score_head).
SEATED = (  # by screen class (layout.py's numbers: MINI, 3, is no screen's), a constant in flash
    ((2, 2, 21, 26, 8), ((158, 66), (186, 66), (214, 66)), (0, -10), None,  # SMALL
     ((2, 56), (24, 56, 22, 79), (112, 56), (134, 56), (2, 92)), (176, 2, 62)),
    ((3, 2, 29, 34, 8), ((3, 72), (61, 72), (119, 72)), (28, 2), None,  # MEDIUM
     ((3, 124), (32, 124, 29, 116), (177, 124), (206, 124), (3, 168)), (177, 72, 60)),
    ((204, 2, 29, 34, 4), ((2, 2), (2, 44), (2, 86)), (28, 2), (58, 29, 174),  # LARGE
     ((2, 130), (60, 130, 29, 110), (204, 140), (233, 140), (30, 132)), (262, 140, 56)),
    None,
    ((0, 1, 20, 16, 8), ((0, 34), (46, 34), (92, 34)), (20, 16), None,  # TINY
     ((0, 60), (20, 60, 20, 68), (100, 60), (100, 85), (1, 88)), (120, 65, 40)),
    ((0, 0, 16, 10, 8), ((27, 43), (55, 43), (83, 43)), (-7, 1, (b"C", b"2", b"3")), None,  # MICRO
     ((0, 21), (15, 21, 15, 18), (75, 21), (90, 21), None), (105, 22, 23)),
)
NAMES = (b"CPU", b"CPU2", b"CPU3")  # the others' seats (overlay.PLAYER_TAGS)


def slot(made, name, x, y, how, room=0, label=b""):
    """A slot, the one made before when `made` holds it (its name too)."""
    name = made.setdefault(name, name)
    one = (name, x, y, how, room, label)
    return made.setdefault(one, one)


def seated(players, size, made):
    """The declaration for three or four players (plain data), with its slots at screen class
    `size` (every class: None) made if it has none yet. `made`: the names and slots made so
    far, each by itself, so that the tables share one string of each name and one tuple of
    each slot they have alike (four players' slots hold three's): each made again would cost
    the heap 32 bytes."""
    decl = TABLES.get(players)
    if decl is None:
        decl = {
            "players": players,
            "foundations": tuple([slot(made, "found" + str(k + 1), 0, 0, 0)[0] for k in range(4 * players)]),
            "actions": LAYOUT["actions"], "arg": L.ARG_COUNT, "cards": LAYOUT["cards"],
            "status": {}, "labels": {},
        }
        TABLES[players] = decl
    for at in range(len(SEATED)):
        if SEATED[at] is not None and (size is None or at == size) and at not in decl:
            seat_class(decl, players, at, made)
    return decl


def seat_class(decl, players, size, made):
    """The slots, status corner and labels of `decl` (players) at screen class `size`."""
    found, others, name_at, tops, own, status = SEATED[size]  # type: ignore[misc]  # (a screen's class)
    x, y, dx, dy, across = found
    slots = [slot(made, "found" + str(k + 1), x + k % across * dx, y + k // across * dy, L.STACK, 0, b"A")
             for k in range(4 * players)]
    labels = []
    for p in range(1, players):
        x, y = others[p - 1]
        seat = "p" + str(p + 1) + "."
        slots.append(slot(made, seat + "nerts", x, y, L.THEM))
        if tops is not None:  # the work-pile tops and the waste
            for i in range(4):
                at = x + tops[0] + i * tops[1]
                slots.append(slot(made, seat + "work" + str(i + 1), at, y, L.STACK | L.THEIRS))
            slots.append(slot(made, seat + "waste", x + tops[2], y, L.STACK | L.THEIRS))
        if name_at is not None:  # (a third field: the names in short)
            names = name_at[2] if len(name_at) > 2 else NAMES  # type: ignore[misc]  # (MICRO's has it)
            labels.append((names[p - 1], x + name_at[0], y + name_at[1]))
    nerts, work, stock, waste, you = own
    slots.append(slot(made, "p1.nerts", nerts[0], nerts[1], L.STACK | L.COUNT))
    for i in range(4):
        slots.append(slot(made, "p1.work" + str(i + 1), work[0] + i * work[2], work[1], L.DOWN | L.PICK, work[3]))
    slots.append(slot(made, "p1.stock", stock[0], stock[1], L.STACK | L.COUNT))
    slots.append(slot(made, "p1.waste", waste[0], waste[1], L.STACK))
    if you is not None:
        labels.append((b"You", you[0], you[1]))
    decl[size] = tuple(slots)
    decl["status"][size] = status
    decl["labels"][size] = tuple(labels)


TABLES: dict = {}  # players -> its declaration, as far as it has been made
MADE: dict = {}  # the names and slots made so far (seated)


def more(players, size=None):
    """The declaration for `players` (3 or 4) with its slots at screen class `size` (every
    class: None), or None for another count: LAYOUT["more"], asked by layouts.declaration."""
    if players not in LAYOUT["more_players"]:
        return None
    return seated(players, size, MADE)


LAYOUT["more"] = more
LAYOUT["more_players"] = (3, 4)
