"""The words of a game's layout declaration: where its piles sit on each screen class.

A game declares LAYOUT beside its rules, in its own module (engine_core/games/); this module
sits below the games so that a game never imports the interface. The interface reads the
declarations (engine_core/ui/layouts.py, games.layout(name)).

A declaration is a dict. Per screen class (SMALL 240x135, MEDIUM 240x240, LARGE 320x240,
TINY 160x128, MICRO 128x64), a tuple of slots (pile name, x, y, how, room, label):
  how   STACK (only the top card shows), DOWN or RIGHT (a fan), plus flags:
        COUNT (the pile's size is written under it), PICK (the cursor can take any card of
        the fan, not just the top: runs, hands), HIDDEN (face down: an opponent's hand),
        THEIRS (an opponent's pile: shown, never picked up), WIDE (cards spread whole
        when there is room: a hand), WILD (a stack from the ace where a king is wild)
  room  the pixels a fan may take along its direction, the card included; a fan whose cards
        would run past it overlaps them more tightly instead (compression, never cut off)
  label shown in an empty pile (b"A" for a foundation that starts at the ace), or b""
Besides the slots: "foundations" (where a long press of A sends a card), "actions" (piles
where A plays an action word, like the stock's 'deal'), "arg" (what a move code's arg means:
ARG_ANY, ARG_COUNT cards, ARG_KIND of the card), "status" (where the status line goes: x, y,
width per screen class), optionally "players", "cards" (the card size per screen class, MINI
or STRIP for many piles on a small screen), "labels" (words on the table: (text, x, y) per screen
class), "more" (declarations of the same game for other player counts, each with its
"players": Nerts for three and four) and "finish" (piles that must be empty, piles whose
cards must fall in rank: when the game is clearly won, so that auto-play can finish it).
"""

from micropython import const

# Screen classes, which are also card sizes (engine_core/gfx/paint.py draws them).
SMALL = const(0)  # 240x135
MEDIUM = const(1)  # 240x240
LARGE = const(2)  # 320x240
MINI = const(3)  # for games with many piles on a small screen (Casket on 240x135)
TINY = const(4)  # 160x128 (its cards: 20x28)
MICRO = const(5)  # 128x64 (its cards: 13x9, a tiny rank beside a tiny suit)
STRIP = const(6)  # a card size only: 18x14, the corner index alone (many piles on 160x128)

STACK = const(0)
DOWN = const(1)
RIGHT = const(2)
FAN_MASK = const(3)
COUNT = const(4)
PICK = const(8)
HIDDEN = const(16)  # drawn face down whatever the rules show (an opponent's hand)
THEIRS = const(32)  # an opponent's pile: shown, never picked up
WIDE = const(64)  # a fan that spreads its cards apart when it has room (a hand)
WILD = const(128)  # a stack built from the ace where a king is wild: it shows the rank it stands for
THEM = const(36)  # STACK | COUNT | THEIRS: an opponent's pile with its size

ARG_ANY = const(0)
ARG_COUNT = const(1)
ARG_KIND = const(2)


def row(prefix, count, x, y, dx, dy, how, room=0, label=b"", first=1):
    """Slots prefix<first> .. prefix<first + count - 1>, each dx, dy from the one before."""
    slots = []
    for i in range(count):
        slots.append((prefix + str(first + i), x + i * dx, y + i * dy, how, room, label))
    return tuple(slots)
