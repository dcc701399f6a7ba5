"""Long fans at every screen size: each card of a fanned pile shows its rank whole, or shows
nothing of its index at all (a pile's deepest cards, closed up, show their edges). A rank cut
to a few of its rows (6, 8, 9 and Q alike) is neither.

What is checked is the frame: in the band of a card that the next card leaves uncovered, any
ink (black or red) must be the card's rank glyph shown whole (the glyphs of tools/art/)."""

import pytest

from engine_core.gfx import palette as pal
from engine_core.ui import layouts
from simulator.keys import make_app, run
from engine_core.games.sir_tommy import DRAW_MOVE
from tests.seats import params
from tests.test_small_screens import corner_glyphs, find_glyph, image_bits

LENGTHS = (5, 8, 12, 16, 24)


def fanned_slots(slots):
    for s in range(slots.count):
        fan = slots.how[s] & layouts.FAN_MASK
        if fan != layouts.STACK and not slots.how[s] & layouts.HIDDEN:
            yield s, fan == layouts.RIGHT


def ink_in(fb, x0, y0, w, h):
    return any(fb.pixel(x, y) in (pal.BLACK, pal.RED) for y in range(y0, y0 + h) for x in range(x0, x0 + w))


@pytest.mark.parametrize("size", layouts.SIZES)
@pytest.mark.parametrize("game, players", params())
def test_every_card_of_a_long_fan_shows_its_rank_whole_or_none_of_it(game, players, size):
    app = make_app(size[0], size[1], game, 5, players=players)
    run(app, "TICK")
    table = app.table
    slots = table.slots
    st = slots.style
    piles = table.game.piles
    examined = 0
    for s, row in fanned_slots(slots):
        p = slots.pile[s]
        keep = bytes(piles.cards[piles.start[p]:piles.start[p] + piles.cap[p]])
        kept = piles.size[p]
        for n in LENGTHS:
            if n > piles.cap[p]:
                break
            for i in range(n):  # every rank in turn, suits alternating
                piles.cards[piles.start[p] + i] = (i % 13) + 13 * (i % 4)
            piles.size[p] = n
            table.drop_message()  # the strip's band shows the table
            app.full = True
            app.redraw()
            fb = app.screen.fb
            for i in range(n - 1):
                if not slots.card_face_up(p, i, n):
                    continue
                a = slots.card_pos(s, i, row)
                b = slots.card_pos(s, i + 1, row)
                x = a if row else slots.x[s]
                y = slots.y[s] if row else a
                w = b - a if row else st.w
                h = st.h if row else b - a
                assert x + w <= app.width and y + h <= app.height
                examined += 1
                if not ink_in(fb, x + 1, y + 1, w - 1, h - 1):
                    continue  # closed up: its edge alone
                rank, _ = corner_glyphs(app, piles.cards[piles.start[p] + i])
                where = (game, size, table.game.pile_names[p], n, i, b - a)
                assert find_glyph(fb, image_bits(rank), x, y, w, h), where
        piles.cards[piles.start[p]:piles.start[p] + len(keep)] = keep
        piles.size[p] = kept
    assert examined > 0 or not any(True for _ in fanned_slots(slots))


@pytest.mark.parametrize("mono", [False, True])
@pytest.mark.parametrize("size", layouts.SIZES)
def test_a_fan_growing_past_its_room_and_back_draws_as_a_redraw_from_scratch(size, mono):
    # Sir Tommy's turned card placed on one reserve again and again, then taken back by undo:
    # the fan compresses, closes up its deepest cards, opens them again, frame by frame.
    from tests.test_redraw import changed_outside_dirty, from_scratch
    app = make_app(size[0], size[1], "sir_tommy", 5, mono=mono)
    run(app, "TICK")
    table = app.table
    game = table.game
    res1 = game.pile_id("res1")
    current = game.pile_id("current")
    closed_seen = 0
    for step in range(64):
        before = bytes(app.screen.buf)
        app.screen.clear_dirty()
        if step < 48:  # the turned card to the first reserve, or the next card turned
            table.play(current << 16 | res1 << 8 if game.piles.size[current] else DRAW_MOVE)
        else:
            table.press_undo()
        run(app, "TICK TICK TICK TICK TICK TICK")
        after = bytes(app.screen.buf)
        s = table.slots.slot_of[res1]
        closed_seen = max(closed_seen, table.slots.beneath(s, game.piles.size[res1]))
        assert after == from_scratch(app, 5 if step % 2 else 2), (size, mono, step)
        assert not changed_outside_dirty(app.screen, before, after), (size, mono, step)
    assert closed_seen > 0


@pytest.mark.parametrize("mono", [False, True])
@pytest.mark.parametrize("size", [(160, 128), (128, 64), (240, 135)])
def test_the_cursor_going_down_a_closed_up_fan_shows_each_card_it_frames_whole(size, mono):
    # Nerts's work piles are picked from inside: the cursor walks down a long pile card by
    # card (UP), and wherever it is the card it frames shows its rank whole, the fan opening
    # at it; each frame as a redraw from scratch draws it.
    from tests.test_redraw import changed_outside_dirty, from_scratch
    app = make_app(size[0], size[1], "nerts", 13, mono=mono)
    run(app, "TICK")
    table = app.table
    slots = table.slots
    piles = table.game.piles
    p = table.game.pile_id("p1.work1")
    s = slots.slot_of[p]
    n = 12
    for i in range(n):  # a run down from the king, colours alternating
        piles.cards[piles.start[p] + i] = (12 - i) + 13 * (i % 2)
    piles.size[p] = n
    table.hand.point(s, n - 1)
    app.full = True
    app.redraw()
    assert slots.beneath(s, n) > 0 and slots.step(s, n) > 1  # closed up
    st = slots.style
    for i in range(n - 2, -1, -1):
        before = bytes(app.screen.buf)
        app.screen.clear_dirty()
        run(app, "UP")
        assert table.hand.cursor == s and table.hand.cursor_index == i
        after = bytes(app.screen.buf)
        assert after == from_scratch(app, 5 if i % 2 else 2), (size, i)
        assert not changed_outside_dirty(app.screen, before, after), (size, i)
        if mono:
            continue  # (the cursor's card is drawn negative there: its glyph's pixels differ)
        opens = table.view.drawn.highlight_from[s]  # the card the fan opens at, as drawn
        a = slots.card_pos(s, i, False, opens)
        b = slots.card_pos(s, i + 1, False, opens)
        rank, _ = corner_glyphs(app, piles.cards[piles.start[p] + i])
        assert find_glyph(app.screen.fb, image_bits(rank), slots.x[s], a, st.w, b - a), (size, i, b - a)
