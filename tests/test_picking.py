"""Picking up and placing: a card the pointer drops where it may not go returns to its pile and
the foot of the screen says why; while a card is held the arrow keys reach every pile."""

import pytest

from engine_core import reasons as why
from engine_core.gfx.palette import HELD
from engine_core.pointer import Pointer
from engine_core.ui import app as app_mod
from engine_core.ui import buttons as bt
from engine_core.ui import layouts
from engine_core.ui.table import NONE
from simulator.keys import make_app, run
from tests.seats import params

ARROWS = (bt.UP, bt.DOWN, bt.LEFT, bt.RIGHT)
SEEDS = (1, 2, 3)


def slot(table, name):
    return table.slots.slot_of[table.game.pile_id(name)]


def pile_size(table, s):
    return table.game.piles.size[table.slots.pile[s]]


def cursor_to(table, s, index=NONE):
    table.hand.cursor = s
    table.hand.cursor_index = index


def centre(table, s):
    """A screen point on the top card of slot s (as a click would land)."""
    st = table.slots.style
    n = table.game.piles.size[table.slots.pile[s]]
    x = table.slots.card_pos(s, n - 1, True)
    y = table.slots.card_pos(s, n - 1, False)
    return x + st.w // 2, y + st.h // 2


def held_pixels(app):
    """How many pixels of the screen have the held card's frame colour."""
    buf = app.screen.buf
    return sum((b >> 4 == HELD) + (b & 15 == HELD) for b in buf)


def yours(table):
    return [s for s in range(table.slots.count) if not table.slots.how[s] & layouts.THEIRS]


def reached_with_arrows(app, start):
    """Every slot the arrow keys lead to from `start` (the cursor put on each slot found in
    turn, each arrow pressed there)."""
    table = app.table
    seen = {start}
    todo = [start]
    while todo:
        s = todo.pop()
        for arrow in ARROWS:
            cursor_to(table, s)
            app.press(arrow)
            if table.hand.cursor not in seen:
                seen.add(table.hand.cursor)
                todo.append(table.hand.cursor)
    return seen


@pytest.mark.parametrize("size", layouts.SIZES)
@pytest.mark.parametrize("game, players", params())
def test_holding_a_card_from_any_pile_the_arrow_keys_reach_every_pile(game, players, size):
    held_from = 0
    for seed in SEEDS:
        app = make_app(size[0], size[1], game, seed, players=players)
        table = app.table
        for src in yours(table):
            cursor_to(table, src)
            app.press(bt.A)
            if table.held != src:
                continue  # nothing to pick up there in this deal
            held_from += 1
            missed = set(yours(table)) - reached_with_arrows(app, src)
            assert table.held == src  # moving never drops the card
            names = table.game.pile_names
            assert not missed, "seed %d, holding from %s: never reached %s" % (
                seed, names[table.slots.pile[src]], sorted(names[table.slots.pile[s]] for s in missed))
            app.press(bt.B)
    assert held_from >= 2


def test_sir_tommy_right_reaches_the_foundations_while_holding_and_a_there_says_why_not():
    app = make_app(240, 135, "sir_tommy", 1)
    table = app.table
    game = table.game
    cursor_to(table, slot(table, "stock"))
    run(app, "A")  # draw: the current card
    current = slot(table, "current")
    cursor_to(table, current)
    run(app, "A")  # picked up
    assert table.held == current
    foundations = [slot(table, "found%d" % k) for k in range(1, 5)]
    for _ in range(4):
        run(app, "RIGHT")
    found = table.hand.cursor
    assert found in foundations  # the foundations are within reach
    card = game.piles.top(game.pile_id("current"))
    assert card % 13 != 0, "the deal must turn up a card other than an ace"
    before = game.piles.cards[:]
    run(app, "A")  # refused: the card stays in hand, the pile says why
    assert table.held == current and table.view.shake_slot == found
    assert table.message == game.refusal(game.pile_id("current") << 16 | table.slots.pile[found] << 8)
    assert game.piles.cards == before
    run(app, "LEFT A")  # on to a holding pile: placed
    assert table.held == NONE
    assert sum(game.piles.size[game.pile_id("res%d" % k)] for k in range(1, 5)) == 1


@pytest.mark.parametrize("size", layouts.SIZES)
def test_spite_malice_down_from_a_side_stack_goes_to_the_hand_below_it(size):
    app = make_app(size[0], size[1], "spite_malice", 1)
    table = app.table
    hand = slot(table, "p1.hand")
    st = table.slots.style
    for k in range(1, 5):
        side = slot(table, "p1.side%d" % k)
        cursor_to(table, side)
        app.press(bt.DOWN)
        assert table.hand.cursor == hand, "DOWN from side %d, nothing held" % k
        # The card framed is the one nearest below the side stack, not always the last.
        i = table.hand.cursor_index if table.hand.cursor_index != NONE else table.slots.top_index(hand)
        xs = [table.slots.card_pos(hand, j, True) for j in range(pile_size(table, hand))]
        nearest = min(range(len(xs)), key=lambda j: abs(xs[j] - table.slots.x[side]))
        assert i == nearest, "DOWN from side %d framed card %d, not %d" % (k, i, nearest)
        if abs(xs[i] - table.slots.x[side]) < st.w:
            run(app, "UP")  # and back up to the same side stack
            assert table.hand.cursor == side
    cursor_to(table, hand, 0)
    run(app, "A")  # the hand's first card, held
    assert table.held == hand
    for k in range(1, 5):
        cursor_to(table, slot(table, "p1.side%d" % k))
        app.press(bt.DOWN)
        assert table.hand.cursor == hand, "DOWN from side %d, a hand card held" % k


def aces_up_2c_held():
    """Aces Up deal 69 (2S QS TD 3H): the 2S may go to the discard, nowhere else; clicked up."""
    app = make_app(240, 240, "aces_up", 69)
    table = app.table
    pointer = Pointer()
    col1 = slot(table, "col1")
    pointer.click(app, *centre(table, col1), 1000)
    assert table.held == col1
    assert held_pixels(app) > 0
    return app, table, pointer


def test_a_click_on_a_pile_that_refuses_the_card_puts_it_back_and_says_why():
    app, table, pointer = aces_up_2c_held()
    game = table.game
    col1, col3 = slot(table, "col1"), slot(table, "col3")
    before = game.piles.cards[:]
    pointer.click(app, *centre(table, col3), 2000)  # TD: the 2S may not go there
    assert table.held == NONE  # back where it came from
    assert held_pixels(app) == 0  # and no card is framed as held
    assert table.view.shake_slot == col3
    assert table.message == game.refusal(game.pile_id("col1") << 16 | game.pile_id("col3") << 8)
    assert game.piles.cards == before
    assert app.sound_event == 2 or not app.settings[app_mod.S_SOUND]  # the refusal's sound
    # The next clicks pick the card up again and place it: nothing is left in hand.
    pointer.click(app, *centre(table, col1), 3000)
    pointer.click(app, *centre(table, slot(table, "discard")), 4000)
    assert game.piles.size[game.pile_id("discard")] == 1 and table.held == NONE


def test_a_click_on_no_pile_puts_the_held_card_back():
    app, table, pointer = aces_up_2c_held()
    pointer.click(app, app.screen.width - 2, app.screen.height // 2, 2000)  # the felt
    assert table.held == NONE and held_pixels(app) == 0
    assert table.game.piles.size[table.game.pile_id("col1")] == 1


@pytest.mark.parametrize("held", (False, True))
def test_a_click_on_the_other_players_pile_leaves_the_cursor_on_yours_and_says_whose_it_is(held):
    app = make_app(240, 240, "spite_malice", 1)
    table = app.table
    game = table.game
    pointer = Pointer()
    hand = slot(table, "p1.hand")
    cursor_to(table, hand)
    if held:
        app.press(bt.A)
        assert table.held == hand
    before = game.piles.cards[:]
    pointer.click(app, *centre(table, slot(table, "p2.side1")), 1000)
    assert table.hand.cursor == hand and table.held == NONE
    assert table.message == why.NOT_YOURS
    assert game.piles.cards == before


def test_the_buttons_keep_a_refused_card_in_hand_and_the_cursor_moves_on():
    app = make_app(240, 240, "aces_up", 69)
    table = app.table
    game = table.game
    cursor_to(table, slot(table, "col1"))
    run(app, "A RIGHT RIGHT A")  # 2S over the TD: refused
    assert table.held == slot(table, "col1") and table.view.shake_slot == slot(table, "col3")
    assert table.message == game.refusal(game.pile_id("col1") << 16 | game.pile_id("col3") << 8)
    run(app, "RIGHT RIGHT A")  # on to the discard
    assert game.piles.size[game.pile_id("discard")] == 1 and table.held == NONE


def test_a_double_click_sends_home_with_a_card_held_on_two_buttons_too():
    app, table, pointer = aces_up_2c_held()
    app.settings[app_mod.S_TWO_BUTTONS] = 1
    col1 = slot(table, "col1")
    pointer.click(app, *centre(table, col1), 1200)  # the second click of a double-click
    assert table.game.piles.size[table.game.pile_id("discard")] == 1 and table.held == NONE


MPY_CLICKS = """
import gc, micropython
from engine_core.pointer import Pointer
from engine_core.ui import buttons as bt
from simulator.keys import make_app, parse

app = make_app(240, 240, 'aces_up', 69)
pointer = Pointer()
table = app.table
moves = parse('LEFT DOWN RIGHT UP')

def session(now):
    pointer.click(app, COL1, now)  # picked up
    pointer.click(app, COL3, now + 1000)  # refused: back to col1
    pointer.click(app, COL1, now + 2000)  # picked up again
    pointer.click(app, 238, 120, now + 3000)  # dropped on the felt: back
    pointer.click(app, COL1, now + 4000)
    for e in moves:
        app.press(e[0], e[1])  # the arrows with a card held
    app.press(bt.B, False)

session(10000)
gc.collect()
micropython.heap_lock()
try:
    session(20000)
    result = 'no allocation'
except MemoryError:
    result = 'allocated'
micropython.heap_unlock()
print(result, table.held, table.message)
"""


def test_clicks_that_put_a_card_back_and_arrows_while_holding_allocate_nothing_on_micropython():
    from tests.helpers import run_mpy_ok
    app = make_app(240, 240, "aces_up", 69)
    table = app.table
    col1 = "%d, %d" % centre(table, slot(table, "col1"))
    col3 = "%d, %d" % centre(table, slot(table, "col3"))
    out = run_mpy_ok(MPY_CLICKS.replace("COL1", col1).replace("COL3", col3))
    assert out.split()[:2] == ["no", "allocation"], out
    assert out.split()[2] == "255"  # nothing held at the end


# --- dragging: press, move, release (engine_core/pointer.py) ---

PRESS, MOVE, RELEASE = 0, 1, 2


def aces_up_console(seed=69):
    from engine_core.console import Console
    from engine_core.storage import MemoryStorage
    app = make_app(240, 240, "aces_up", seed)
    console = Console(app, MemoryStorage())
    console.start()
    return console, app.table


def pixel(screen, x, y):
    b = screen.buf[y * (screen.width // 2) + x // 2]
    return b & 15 if x & 1 else b >> 4


def drag(console, src, dst, now=1000, steps=4):
    """Press at src, move to dst in steps with the button held, release there."""
    console.click(src[0], src[1], now, PRESS)
    for k in range(1, steps + 1):
        console.click(src[0] + (dst[0] - src[0]) * k // steps, src[1] + (dst[1] - src[1]) * k // steps,
                      now + 10 * k, MOVE)
    console.click(dst[0], dst[1], now + 10 * steps + 10, RELEASE)


def test_a_card_dragged_onto_a_pile_that_takes_it_is_placed_there():
    console, table = aces_up_console()
    game = table.game
    drag(console, centre(table, slot(table, "col1")), centre(table, slot(table, "discard")))
    assert game.piles.size[game.pile_id("discard")] == 1 and game.piles.size[game.pile_id("col1")] == 0
    assert table.held == NONE and table.move_count == 1
    assert not console.pointer.drag and not console.pointer.shown


def test_a_card_dragged_onto_a_pile_that_refuses_it_goes_back_and_the_foot_says_why():
    console, table = aces_up_console()
    game = table.game
    before = game.piles.cards[:]
    drag(console, centre(table, slot(table, "col1")), centre(table, slot(table, "col3")))
    assert table.held == NONE and game.piles.cards == before
    assert table.view.shake_slot == slot(table, "col3")
    assert table.message == game.refusal(game.pile_id("col1") << 16 | game.pile_id("col3") << 8)


@pytest.mark.parametrize("where", ("felt", "off the screen", "its own pile"))
def test_a_card_dragged_onto_no_pile_or_back_onto_its_own_goes_back(where):
    console, table = aces_up_console()
    game = table.game
    before = game.piles.cards[:]
    col1 = centre(table, slot(table, "col1"))
    to = {"felt": (238, 120), "off the screen": (511, 511), "its own pile": (col1[0] + 1, col1[1] + 8)}[where]
    if where == "its own pile":  # out and back within the double-click's time: no double-click
        console.click(col1[0], col1[1], 1000, PRESS)
        console.click(238, 120, 1050, MOVE)
        console.click(to[0], to[1], 1100, MOVE)
        console.click(to[0], to[1], 1150, RELEASE)
    else:
        drag(console, col1, to)
    assert table.held == NONE and game.piles.cards == before and table.move_count == 0
    assert held_pixels(console.app) == 0


def test_a_press_and_release_without_moving_is_a_click_and_click_click_places():
    console, table = aces_up_console()
    game = table.game
    x, y = centre(table, slot(table, "col1"))
    console.click(x, y, 1000, PRESS)
    console.click(x + 2, y - 3, 1020, MOVE)  # within the slack: no drag
    console.click(x + 2, y - 3, 1040, RELEASE)
    assert table.held == slot(table, "col1") and not console.pointer.drag
    dx, dy = centre(table, slot(table, "discard"))
    console.click(dx, dy, 2000, PRESS)
    console.click(dx, dy, 2050, RELEASE)
    assert game.piles.size[game.pile_id("discard")] == 1 and table.held == NONE


def test_a_double_click_with_releases_sends_the_card_home():
    console, table = aces_up_console()
    game = table.game
    x, y = centre(table, slot(table, "col1"))
    for now in (1000, 1200):
        console.click(x, y, now, PRESS)
        console.click(x, y, now + 60, RELEASE)
    assert game.piles.size[game.pile_id("discard")] == 1 and table.held == NONE


def test_the_card_dragged_is_drawn_at_the_pointer_only_while_the_frame_is_sent():
    from engine_core.gfx.palette import WHITE
    console, table = aces_up_console()
    screen = console.app.screen
    st = table.slots.style
    x, y = centre(table, slot(table, "col1"))
    console.click(x, y, 1000, PRESS)
    screen.clear_dirty()
    to = (150, 150)  # felt below the columns
    console.click(to[0], to[1], 1050, MOVE)
    pointer = console.pointer
    assert pointer.drag and screen.dirty_count > 0  # the glass is to show the card there
    left, top = to[0] - (x - table.slots.x[slot(table, "col1")]), to[1] - (y - table.slots.y[slot(table, "col1")])
    assert (pointer.x, pointer.y) == (left, top)
    table_pixels = bytes(screen.buf)
    pointer.lay(console)
    assert pixel(screen, left, top + st.h // 2) == HELD  # its frame, in the held colour
    assert pixel(screen, left + st.w - 1, top + st.h // 2) == HELD
    assert pixel(screen, left + st.w // 2, top + st.h - 3) == WHITE
    assert pixel(screen, left + st.w + 2, top + st.h // 2) != HELD  # beside it, the felt
    pointer.lift(console)
    assert bytes(screen.buf) == table_pixels  # the table's pixels, as they were
    screen.clear_dirty()
    console.click(to[0] + 20, to[1] + 5, 1100, MOVE)
    d = screen.dirty
    marked = [tuple(d[4 * i:4 * i + 4]) for i in range(screen.dirty_count)]
    assert (left, top, st.w, st.h) in marked  # where it was, sent again without it
    assert (left + 20, top + 5, st.w, st.h) in marked
    console.press(bt.B, False)  # a key puts the card back: the drag ends, the glass loses it
    screen.clear_dirty()
    pointer.lay(console)
    assert not pointer.drag and (left + 20, top + 5, st.w, st.h) == tuple(screen.dirty[:4])
    console.click(to[0], to[1], 1200, RELEASE)
    assert table.held == NONE and table.game.piles.size[table.game.pile_id("col1")] == 1


def test_a_press_on_a_foundation_with_nothing_held_says_nothing_is_wrong():
    app, table, pointer = aces_up_2c_held()
    game = table.game
    discard = centre(table, slot(table, "discard"))
    pointer.click(app, *discard, 2000)  # placed on the discard
    assert game.piles.size[game.pile_id("discard")] == 1 and table.held == NONE
    table.message = 0
    app.sound_event = 0
    pointer.click(app, *discard, 5000)
    assert table.held == NONE and table.message == 0 and table.view.shake_slot == NONE
    assert app.sound_event == 0
    cursor_to(table, slot(table, "discard"))
    app.press(bt.A)  # the button says nothing wrong either
    assert table.message == 0 and table.view.shake_slot == NONE


MPY_DRAG = """
import gc, micropython
from engine_core.console import Console
from engine_core.storage import MemoryStorage
from simulator.keys import make_app

console = Console(make_app(240, 240, 'aces_up', 69), MemoryStorage())
console.start()
table = console.app.table

def session(now):
    console.click(COL1, now, 0)  # picked up
    for k in range(12):  # dragged about, each frame laid and lifted
        console.click(60 + 7 * k, 100 + 5 * k, now + 10 * k, 1)
        console.pointer.lay(console)
        console.pointer.lift(console)
    console.click(COL3, now + 200, 1)
    console.click(COL3, now + 210, 2)  # refused: back to col1
    console.click(COL1, now + 1000, 0)
    console.click(200, 200, now + 1010, 1)
    console.click(511, 511, now + 1020, 2)  # off the screen: back

session(10000)
result = 'not run'
gc.collect()
micropython.heap_lock()
try:
    session(20000)
    result = 'no allocation'
except MemoryError:
    result = 'allocated'
micropython.heap_unlock()
print(result, table.held, console.pointer.drag)
"""


def test_a_drag_its_frames_and_its_drops_allocate_nothing_on_micropython():
    from tests.helpers import run_mpy_ok
    app = make_app(240, 240, "aces_up", 69)
    table = app.table
    col1 = "%d, %d" % centre(table, slot(table, "col1"))
    col3 = "%d, %d" % centre(table, slot(table, "col3"))
    out = run_mpy_ok(MPY_DRAG.replace("COL1", col1).replace("COL3", col3))
    assert out.split() == ["no", "allocation", "255", "False"], out


@pytest.mark.parametrize("game, pile", [("spite_malice", "p1.hand"), ("nerts", "p1.work1")])
def test_with_two_buttons_b_steps_through_every_card_of_a_fan_picked_from_inside_and_a_picks_it(game, pile):
    # A and B only: B goes from pile to pile in reading order, and on a pile whose cards are
    # picked from inside (a Spite & Malice hand, a Nerts run) first from its top card to its
    # first face-up one, one a press; A picks the card the cursor is on.
    for k in range(5):  # each card of the fan in turn
        app = make_app(240, 240, game, 5)
        app.settings[app_mod.S_TWO_BUTTONS] = 1
        table = app.table
        s = slot(table, pile)
        n = pile_size(table, s)
        assert n >= 1
        if game == "nerts":  # a run of five down from the king, colours alternating
            piles = table.game.piles
            p = table.slots.pile[s]
            for i in range(5):
                piles.cards[piles.start[p] + i] = (12 - i) + 13 * (i % 2)
            piles.size[p] = n = 5
            work2 = table.slots.pile[slot(table, "p1.work2")]
            piles.cards[piles.start[work2]] = 10 + 39  # a jack of clubs: the ten of hearts' run goes on it
            piles.size[work2] = 1
        cursor_to(table, 0 if s else 1)  # elsewhere
        seen = []
        for _ in range(60):
            run(app, "B")
            if table.hand.cursor == s:
                i = table.hand.cursor_index
                seen.append(n - 1 if i == NONE else i)
                if len(seen) == k + 1:
                    break
        assert seen == list(range(n - 1, n - 2 - k, -1)), seen
        run(app, "A")
        if table.held == NONE:  # a run with nowhere to go is refused as itself
            assert game == "nerts" and table.message == why.NO_MOVE and k > 1
            continue
        assert table.held == s and table.hand.held_index == n - 1 - k


def test_after_a_hint_another_card_picked_up_keeps_the_cursor_on_it():
    # docs/screen.md: after X, "A then picks the card up with the cursor already on the
    # destination" - the hinted card. Another card picked up sent the cursor to the hint's
    # destination all the same, where a second A played it there (a Spite & Malice turn ended
    # on a side stack the player never chose).
    from simulator.keys import make_app, run
    app = make_app(240, 240, "spite_malice", 3)
    table = app.table
    run(app, "X")
    hinted, target = table.hint_from >> 8, table.hint_slot
    hand = table.hand
    assert hand.cursor == hinted
    run(app, "RIGHT" if hand.cursor_index == 0 else "LEFT")  # another card of the hand
    picked = (hand.cursor, hand.cursor_index)
    run(app, "A")
    assert table.held == picked[0] and (hand.cursor, hand.cursor_index) != (target, 255)
    assert hand.cursor == picked[0]
    # the hinted card itself: X, A puts the cursor on the hint's destination
    app = make_app(240, 240, "spite_malice", 3)
    table = app.table
    run(app, "X")
    target = table.hint_slot
    run(app, "A")
    assert table.held != NONE and table.hand.cursor == target


@pytest.mark.parametrize("size", [(240, 240), (240, 135), (160, 128), (128, 64), (320, 240)])
def test_a_deal_puts_the_cursor_on_a_card_to_take(size):
    # Spite & Malice's cursor started on the face-down stock, where A said "That card has no
    # move now": every game's first cursor is on a pile of the player's with a card face up.
    from engine_core.game import FACE_DOWN
    for name in ("aces_up", "sir_tommy", "casket", "spite_malice", "nerts"):
        app = make_app(*size, name, 3)
        table = app.table
        pile = table.slots.pile[table.hand.cursor]
        assert table.game.piles.size[pile] > 0 and table.game.pile_faces[pile] != FACE_DOWN, name


def test_the_cursors_own_copy_of_face_down_is_the_games():
    from engine_core.game import FACE_DOWN
    from engine_core.ui import table_input
    assert table_input._FACE_DOWN == FACE_DOWN
