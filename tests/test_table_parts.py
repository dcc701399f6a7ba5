"""The table split by job (docs/engine.md, "The table"): the renderer decides what to draw
again from its record of what each slot last drew (drawn.py), so the record must tell the
truth after every key, and a renderer given a fresh record draws the frame a full redraw
draws."""

import random

import pytest

from engine_core.ui import layouts
from engine_core.ui.drawn import Drawn
from engine_core.ui.overlay import SLIDE_LEFT
from engine_core.ui.view import TableRenderer
from simulator.keys import make_app, run
from support.ui_scripts import games_with_layouts

SIZES = (min(layouts.SIZES), max(layouts.SIZES))
KEYS = ("UP", "DOWN", "LEFT", "RIGHT", "A", "B", "X", "Y", "LONG_A", "TICK", "X A A", "X A A",
        "X A A")
STEPS = 40


def still(app):
    """Time passes until nothing moves on the table (a slide lands, a shake settles)."""
    view = app.table.view
    for _ in range(60):
        if not (view.slide & SLIDE_LEFT or view.shake_ms > 0 or view.pending):
            return
        app.tick(33)


def record(view):
    """What the renderer's record says each slot shows, and the status line's count."""
    d = view.drawn
    piles = view.game.piles
    slots = []
    for s in range(view.slots.count):
        n = d.count[s]
        base = piles.start[view.slots.pile[s]]
        stack = view.how[s] & layouts.FAN_MASK == layouts.STACK
        shown = bytes(d.cards[base + n - 1:base + n] if stack and n else d.cards[base:base + n])
        slots.append((s, n, d.step[s], d.highlight_from[s], d.highlight_colour[s], d.extent[s],
                      d.shake[s], shown))
    return slots, d.moves, d.scores


def fresh_renderer(table):
    """A renderer made afresh over the table's slots, input model and play control, the motion
    (a shake) as the table's."""
    view = table.view
    fresh = TableRenderer(view.painter, table.game, table.slots, table.hand, table.said, view.title)
    fresh.shown(table.hint_slot, table.last_slot, table.message, table.message_ms, table.move_count)
    fresh.slide = view.slide
    fresh.shake_slot = view.shake_slot
    fresh.shake_ms = view.shake_ms
    fresh.shake_dx = view.shake_dx
    return fresh


def full_redraw(app):
    """The frame and the record of a renderer made afresh that draws the whole table; the
    screen is left as it was."""
    saved = bytes(app.screen.buf)
    fresh = fresh_renderer(app.table)
    fresh.refresh()  # nothing drawn yet: all of it
    frame = bytes(app.screen.buf)
    app.screen.buf[:] = saved
    return frame, record(fresh)


def sessions():
    for game in games_with_layouts():
        for size in SIZES:
            yield game, size


@pytest.mark.parametrize("game,size", list(sessions()))
def test_the_record_of_each_slot_is_what_a_full_redraw_records_after_every_key(game, size):
    rnd = random.Random("%s %dx%d" % (game, size[0], size[1]))
    app = make_app(size[0], size[1], game, rnd.randrange(1000))
    for step in range(STEPS):
        key = rnd.choice(KEYS)
        run(app, key)
        if app.mode != 3:
            app.open_game(game, rnd.randrange(1000))  # an ended game: the next deal
            run(app, "")
        still(app)
        frame, full = full_redraw(app)
        assert bytes(app.screen.buf) == frame, (game, size, step, key)
        live = record(app.table.view)
        differ = [(a, b) for a, b in zip(live[0], full[0]) if a != b]
        assert live == full, (game, size, step, key, differ, live[1:], full[1:])


@pytest.mark.parametrize("game,size", list(sessions()))
def test_a_refresh_with_every_slot_touched_draws_nothing_while_the_record_is_true(game, size):
    app = make_app(size[0], size[1], game, 11)
    run(app, "X A A RIGHT A DOWN")
    still(app)
    view = app.table.view
    before = bytes(app.screen.buf)
    app.screen.clear_dirty()
    for s in range(view.slots.count):
        view.touch(s)
    for _ in range(view.slots.count):
        view.refresh()
    assert not view.pending
    assert app.screen.dirty_count == 0 and bytes(app.screen.buf) == before


@pytest.mark.parametrize("game,size", list(sessions()))
def test_a_renderer_given_a_fresh_record_draws_what_a_full_redraw_draws(game, size):
    # A fresh record marked as drawn: every slot is judged changed from it and redrawn
    # piece by piece (not by the full redraw a record never drawn gives).
    app = make_app(size[0], size[1], game, 5)
    run(app, "X A A X A A LEFT A")
    still(app)
    view = app.table.view
    frame, full = full_redraw(app)
    view.drawn = Drawn(view.slots.count, len(view.game.piles.cards))
    view.drawn.valid = True
    view.remember_highlights()
    for s in range(view.slots.count):
        view.touch(s)
    for _ in range(view.slots.count):
        view.refresh()
    assert bytes(app.screen.buf) == frame
    assert record(view) == full
