"""What a layout declaration's flags do, shown on Aces Up's piles with test declarations."""

from engine_core import WON
from engine_core import cards
from engine_core.games import aces_up
from engine_core.gfx import palette as pal
from engine_core.ui import app as app_mod
from engine_core.ui import layouts as L
from engine_core.ui.table import NONE, Table
from simulator.keys import make_app, run


def app_with(decl, seed=7, size=(240, 240)):
    """An app in play on Aces Up, its table built from `decl` instead of the real layout."""
    app = make_app(size[0], size[1], "aces_up", seed)
    game = app.table.game
    table = Table(app.painter, game, decl, L.screen_class(*size), b"Test")
    app.tables["aces_up"] = table
    app.table = table
    app.full = True
    app.redraw()
    return app


def declaration(flags=None, **extra):
    """Aces Up's 240x240 layout with extra flags on some columns."""
    flags = flags or {}
    slots = tuple((name, x, y, how | flags.get(name, 0), room, label)
                  for name, x, y, how, room, label in aces_up.LAYOUT[L.MEDIUM])
    decl = dict(aces_up.LAYOUT)
    decl[L.MEDIUM] = slots
    decl.update(extra)
    return decl


def slot(app, name):
    return app.table.slots.slot_of[app.table.game.pile_id(name)]


def load_column(app, name, names):
    """Put the named cards ('KS', '5H' ...) in a column, bottom first."""
    game = app.table.game
    p = game.pile_id(name)
    piles = game.piles
    while piles.size[p]:
        piles.pop(p)
    for n in names:
        piles.push(p, cards.parse_kind(n))
    game.after_load()
    app.table.valid = False
    app.redraw()


def test_pick_lets_the_cursor_walk_up_a_fan_and_take_a_run():
    app = app_with(declaration({"col1": L.PICK}, arg=L.ARG_COUNT))
    load_column(app, "col1", ["KS", "QS", "JS"])
    t = app.table
    t.hand.cursor = slot(app, "col1")
    run(app, "UP UP")
    assert t.hand.cursor == slot(app, "col1") and t.hand.cursor_index == 0
    run(app, "UP")  # the bottom card, and no pile above: the cursor stays
    assert t.hand.cursor == slot(app, "col1") and t.hand.cursor_index == 0
    run(app, "LEFT")  # sideways leaves the fan
    assert t.hand.cursor == slot(app, "stock")
    t.hand.cursor = slot(app, "col1")
    t.hand.cursor_index = NONE
    run(app, "UP DOWN")
    assert t.hand.cursor_index == 2


def test_a_run_is_framed_from_the_picked_card_to_the_top():
    app = app_with(declaration({"col1": L.PICK}, arg=L.ARG_COUNT))
    load_column(app, "col1", ["KS", "QS", "JS"])
    t = app.table
    t.hand.cursor = slot(app, "col1")
    run(app, "UP")
    drawn = t.view.drawn
    assert drawn.highlight_from[slot(app, "col1")] == 1 and drawn.highlight_colour[slot(app, "col1")] == pal.CURSOR


def test_theirs_piles_cannot_be_picked_up():
    app = app_with(declaration({"col1": L.THEIRS}))
    app.table.hand.cursor = slot(app, "col1")  # the 5H could be discarded, but it is not ours
    run(app, "A")
    assert app.table.held == NONE and app.table.view.shake_slot == slot(app, "col1")
    run(app, "LONG_A")
    assert app.table.game.piles.size[app.table.game.pile_id("discard")] == 0


def test_hidden_piles_are_drawn_face_down():
    app = app_with(declaration({"col1": L.HIDDEN}))
    t = app.table
    x, y = t.slots.x[slot(app, "col1")] + 12, t.slots.y[slot(app, "col1")] + 20
    b = app.screen.buf[(y * 240 + x) >> 1]
    assert {b >> 4, b & 15} <= {pal.BACK, pal.BACK_LIGHT}


def test_a_clearly_won_game_plays_itself_home_with_auto_play():
    # Test rule: clearly won once the stock is empty; the discard is the foundation.
    app = app_with(declaration(finish=(("stock",), ())))
    game = app.table.game
    load_column(app, "col1", ["2H", "3H", "4H"])
    load_column(app, "col2", ["AH"])
    load_column(app, "col3", ["AS"])
    load_column(app, "col4", ["AD", "AC"])
    piles = game.piles
    stock = game.pile_id("stock")
    discard = game.pile_id("discard")
    while piles.size[stock]:
        piles.pop(stock)
    for k in range(1, 13):  # the rest, already discarded: 45 cards
        for s in (cards.SPADES, cards.DIAMONDS, cards.CLUBS):
            piles.push(discard, cards.make(0, s, k))
    for k in range(4, 13):
        piles.push(discard, cards.make(0, cards.HEARTS, k))
    game.after_load()
    assert app.table.clearly_won()
    app.table.valid = False
    run(app, "WAIT")
    assert game.status() == WON
    assert app.mode == app_mod.END


def test_auto_play_off_leaves_a_clearly_won_game_to_the_player():
    app = app_with(declaration(finish=(("stock",), ())))
    app.settings[app_mod.S_AUTOPLAY] = 0
    game = app.table.game
    stock = game.pile_id("stock")
    while game.piles.size[stock]:
        game.piles.pop(stock)
    game.after_load()
    moves = game.history.moves
    run(app, "WAIT")
    assert game.history.moves == moves
