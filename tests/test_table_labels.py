"""Words on a game's table (LAYOUT "labels") read clearly at every screen class: each sits
beside the row of piles it names, overlapping no card and no card count."""

import pytest

from engine_core import games
from engine_core import layout as L
from engine_core.gfx.paint import CARD_SIZES, CHAR_H

# Which piles a label names, by its word.
NAMES = {b"reserves": "res", b"lids": "lid", b"jewels": "jewels"}


def boxes(decl, size):
    """(pile name, x0, y0, x1, y1) of every stack's card and, under a counted one, its count."""
    card = decl.get("cards", {}).get(size, size)
    w, h = CARD_SIZES[card][0], CARD_SIZES[card][1]
    out = []
    for name, x, y, how, room, label in decl[size]:
        if how & L.FAN_MASK == L.STACK:
            out.append((name, x, y, x + w, y + h))
            if how & L.COUNT:
                out.append((name, x, y + h + 2, x + w, y + h + 2 + CHAR_H))
        else:
            out.append((name, x, y, x + w, y + room))
    return out


@pytest.mark.parametrize("size", (L.SMALL, L.MEDIUM, L.LARGE))
def test_casket_names_its_reserves_lids_and_jewels_beside_them(size):
    decl = games.layout("casket")
    labels = decl["labels"][size]
    assert {text.lower() for text, x, y in labels} == set(NAMES)
    width = 320 if size == L.LARGE else 240
    for text, x, y in labels:
        x0, y0, x1, y1 = x, y, x + 6 * len(text) - 1, y + CHAR_H
        assert 0 <= x0 and x1 <= width, text
        for box in boxes(decl, size):
            assert x1 <= box[1] or box[3] <= x0 or y1 <= box[2] or box[4] <= y0, (text, box)
        assert names_its_piles(boxes(decl, size), (x0, y0, x1, y1), NAMES[text.lower()]), text


def names_its_piles(piles, label, prefix):
    """A label sits right under a named pile's count, or beside a named pile in its row
    (the nearest pile level with it, left or right, is one it names)."""
    x0, y0, x1, y1 = label
    for name, bx0, by0, bx1, by1 in piles:
        if bx0 < x1 and x0 < bx1 and 0 <= y0 - by1 <= 4:  # just under this box
            return name.startswith(prefix)
    level = [box for box in piles if box[2] < y1 and y0 < box[4]]
    nearest = min(level, key=lambda box: max(box[1] - x1, x0 - box[3]))
    return nearest[0].startswith(prefix)


@pytest.mark.parametrize("size", (L.SMALL, L.MEDIUM, L.LARGE))
def test_an_empty_pile_shows_no_bare_letter_but_the_aces_a(size):
    # An empty reserve or lid is named by the words beside its row, not by "R" or "L".
    for name in games.names():
        decl = games.layout(name)
        if decl is None:
            continue
        for pile, x, y, how, room, label in decl[size]:
            assert label in (b"", b"A"), (name, pile, label)
