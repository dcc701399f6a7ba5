"""Drawing only what changed gives the frame a redraw from scratch gives: on every screen of
every game at every screen size, after every key of random sessions (docs/screen.md)."""

import random

import pytest

from engine_core import PLAYING, games
from engine_core import reasons as why
from engine_core.gfx import palette as pal
from engine_core.link.channel import Channel
from engine_core.link.loopback import Wire
from engine_core.link.session import Session
from engine_core.ui import buttons as bt
from engine_core.ui import layouts
from engine_core.ui import screens as ui
from simulator import framebuf
from simulator.keys import make_app, run

SIZES = layouts.SIZES


def with_link(app):
    """The console given a link after its first frame, as the simulator and the firmware do."""
    wire = Wire(1)
    app.attach_link(lambda: Session(Channel(wire.end(0))), b"wire")
    return app


def from_scratch(app, junk):
    """The frame a full redraw of the app's state gives over a screen full of colour `junk`;
    the screen is left as it was."""
    saved = bytes(app.screen.buf)
    app.fb.fill(junk)
    app.full = True
    app.redraw()
    frame = bytes(app.screen.buf)
    app.screen.buf[:] = saved
    return frame


def bars(app):
    """The highlight bars down the middle column of the screen: runs of rows of the cursor's
    colour."""
    screen = app.screen
    x = screen.width // 2 - 70  # inside a title row's bar, left of its words
    runs = 0
    inside = False
    for y in range(screen.height):
        b = screen.buf[(y * screen.width + x) >> 1]
        on = (b >> 4 if x % 2 == 0 else b & 15) == pal.CURSOR
        if on and not inside:
            runs += 1
        inside = on
    return runs


def test_the_title_of_a_console_with_a_link_draws_its_five_items_after_each_key():
    for w, h in SIZES:
        app = with_link(make_app(w, h))
        assert app.menu_length() == 5  # New game, Choose a game, Statistics, Settings, Link play
        assert bytes(app.screen.buf) == from_scratch(app, pal.CURSOR), (w, h)  # before a key
        for key in (bt.DOWN, bt.DOWN, bt.UP, bt.UP, bt.UP):
            app.press(key)
            assert bars(app) == 1, (w, h, key)
            assert bytes(app.screen.buf) == from_scratch(app, pal.CURSOR), (w, h, key)
        assert app.selected == app.title_index(ui.T_LINK)
        app.press(bt.A)
        assert app.mode == ui.LINK


# A random session goes through the screens as a player does: in play mostly moves (a hinted
# one, "X A A"); on a menu a few steps to a row, then A or B; every key now and then. PLAY_OUT
# plays the hints until the game ends, for the end panel.
PLAY_KEYS = ("UP", "DOWN", "LEFT", "RIGHT", "A", "B", "X", "Y", "LONG_A", "TICK", "WAIT",
             "X A A", "X A A", "X A A", "START", "START", "START", "SELECT", "PLAY_OUT")
ANY_KEYS = ("UP", "DOWN", "LEFT", "RIGHT", "A", "B", "X", "Y", "START", "SELECT", "LONG_A",
            "LONG_B", "TICK")
LEAVE_KEYS = ("A", "A", "A", "B", "B", "X", "START", "LONG_A")


def tour(game):
    """Keys that visit every screen once, from the title of a console with a link and no saved
    game (rows: New game, Choose a game, Statistics, Settings, Link play), `game` chosen from
    the list. Its deal is one the hints play to the end in every game, for the end screen:
    p1's hints alone end about one Nerts deal in six (on 1000002 they flip on, stuck, while
    the computer player waits for the clock)."""
    return ("DOWN DOWN A B "  # statistics
            "DOWN A DOWN RIGHT B "  # settings
            "DOWN A A TICK B B "  # link play: host, cancel, back
            "DOWN DOWN A " + "DOWN " * games.available().index(game) +
            "X " + "LEFT " * 6 + "UP A "  # the game list, deal 1000001 by its number
            "X A A X A A START DOWN DOWN DOWN DOWN DOWN DOWN A DOWN B "  # play, pause, rules
            "UP UP A B B PLAY_OUT TICK WAIT WAIT B").split()  # restart? no; the end (Nerts's
    # takes no key at once: pages.Play.tick); the game list


def next_keys(app, rnd):
    """The next few keys of a random session, for the screen the app shows."""
    if app.mode == ui.PLAY:
        return [rnd.choice(PLAY_KEYS)]
    if rnd.random() < 0.2:
        return [rnd.choice(ANY_KEYS)]
    if app.mode == ui.LINK:
        return ["DOWN"] * rnd.randrange(3) + ["A", "TICK", "B", "B"]
    steps = [rnd.choice(("UP", "DOWN"))] * rnd.randrange(5)
    return steps + [rnd.choice(("LEFT", "RIGHT"))] * rnd.randrange(2) + [rnd.choice(LEAVE_KEYS)]


def play_out(app):
    """Play the hints until the game on the table ends (the next key shows the end)."""
    table = app.table
    game = table.game
    for _ in range(2000):
        if game.status() != PLAYING:
            return
        move = game.hint()
        if move < 0:
            return
        table.play(move)


def changed_outside_dirty(screen, before, after):
    """Whether a pixel changed outside the rectangles the screen was told of: the two frames
    compared with those rectangles blanked in both."""
    d = screen.dirty
    frames = []
    for frame in (before, after):
        buf = bytearray(frame)
        fmt = framebuf.MONO_VLSB if screen.mono else framebuf.GS4_HMSB
        fb = framebuf.FrameBuffer(buf, screen.width, screen.height, fmt)
        for r in range(screen.dirty_count):
            fb.fill_rect(d[4 * r], d[4 * r + 1], d[4 * r + 2], d[4 * r + 3], 0)
        frames.append(buf)
    return frames[0] != frames[1]


def session(game, size, seed, steps, mono=False, players=0):
    """A session of `steps` keys from the title (the tour, then random keys), the frame checked
    after each key; the screens it saw, and ("players", n) for each table played. mono: on a
    one-bit screen; players: the Nerts players setting (3 or 4)."""

    rnd = random.Random(seed)
    app = with_link(make_app(size[0], size[1], mono=mono, players=players))
    seen = set()
    keys = tour(game)
    for step in range(steps):
        if not keys:
            keys = next_keys(app, rnd)
        key = keys.pop(0)
        if key == "PLAY_OUT":
            play_out(app)
            key = "TICK"
        before = bytes(app.screen.buf)
        app.screen.clear_dirty()
        run(app, key)
        after = bytes(app.screen.buf)
        seen.add(app.mode)
        if app.mode == ui.PLAY:
            seen.add(("players", app.table.game.players))
        where = (game, size, seed, step, key, app.mode)
        junk = pal.FELT if step % 2 else pal.CURSOR  # a pixel a full redraw leaves shows
        assert after == from_scratch(app, junk), where
        assert not changed_outside_dirty(app.screen, before, after), where
    return seen


EVERY_SCREEN = {ui.TITLE, ui.CHOOSE, ui.DEAL, ui.PLAY, ui.PAUSE, ui.RULES, ui.SETTINGS, ui.END,
                ui.STATS, ui.CONFIRM, ui.LINK}  # LINK_LEFT needs a second console: test_link_ui


@pytest.mark.parametrize("game", games.available())
def test_a_frame_drawn_key_by_key_equals_a_redraw_from_scratch_on_every_screen(game):
    seen = set()
    for size in SIZES:
        seen |= session(game, size, sum(game.encode()) + size[0] * size[1], 120)
    assert seen >= EVERY_SCREEN, sorted(EVERY_SCREEN - seen)


@pytest.mark.parametrize("mono", [False, True])
@pytest.mark.parametrize("players", [3, 4])
def test_nerts_for_three_and_four_draws_key_by_key_what_a_redraw_draws(players, mono):
    # The same sessions, Nerts dealt for three and four (the setting), colour and one bit: the
    # computer players move on the clock, the score corner has a row a player.
    seen = set()
    for size in SIZES:
        seen |= session("nerts", size, players * 1000 + size[0] * size[1], 120, mono, players)
    assert ("players", players) in seen and ui.PLAY in seen and ui.END in seen


@pytest.mark.parametrize("game", games.available())
def test_a_one_bit_frame_drawn_key_by_key_equals_a_redraw_from_scratch_on_every_screen(game):
    # The same sessions on a one-bit screen (MONO_VLSB): a full redraw paints every pixel dark
    # or lit (the junk alternates between a lit and a dark role), and the dirty rectangles
    # cover every change, though a byte there holds eight rows.
    seen = set()
    for size in SIZES:
        seen |= session(game, size, sum(game.encode()) + size[0] * size[1], 120, mono=True)
    assert seen >= EVERY_SCREEN, sorted(EVERY_SCREEN - seen)


def test_a_pile_shaken_while_its_neighbour_settles_back_from_a_shake_is_drawn_whole():
    # Casket on the smallest screen: foundations 1 and 5 stand 3 pixels apart, less than the
    # room two shakes move into. A refusal on foundation 5, then at once one on foundation 1.
    app = make_app(240, 135, "casket", 1)
    table = app.table
    game = table.game
    for name in ("found5", "found1"):
        table.shake(table.slots.slot_of[game.pile_id(name)], why.FOUND_NEXT)
        app.tick(0)
        assert bytes(app.screen.buf) == from_scratch(app, pal.CURSOR), name


def test_the_message_strip_is_mended_over_a_pile_redrawn_before_its_first_frame():
    # Spite & Malice on the smallest screen: the hand's row reaches into the message strip.
    # Redo from the pause menu with nothing to redo says so and redraws the whole table in
    # that keypress, the strip with it; the next key, before any frame, moves the cursor to
    # the hand, redrawn over the strip. The frame that follows draws the strip over it.
    app = make_app(240, 135, "spite_malice", 7)
    for key in (bt.START, bt.DOWN, bt.DOWN, bt.DOWN, bt.A, bt.DOWN):  # no frame between
        app.press(key)
    assert app.table.message == why.NO_REDO
    run(app, "")  # frames until the table is drawn
    assert bytes(app.screen.buf) == from_scratch(app, pal.CURSOR)


GUEST = """
from engine_core import PLAYING
from engine_core.link.channel import Channel
from engine_core.link.loopback import Wire
from engine_core.link.session import Session
from simulator.keys import make_app, run

app = make_app(WIDTH, HEIGHT)
wire = Wire(1)
app.attach_link(lambda: Session(Channel(wire.end(0))), b"wire")
step = 0
bad = []
for key in KEYS:
    if key == "PLAY_OUT":
        game = app.table.game
        for _ in range(2000):
            move = game.hint()
            if game.status() != PLAYING or move < 0:
                break
            app.table.play(move)
        key = "TICK"
    run(app, key)
    after = bytes(app.screen.buf)
    app.fb.fill(JUNK[step % 2])
    app.full = True
    app.redraw()
    if bytes(app.screen.buf) != after:
        bad.append((step, key, app.mode))
    app.screen.buf[:] = after
    step += 1
print("checked", step, "wrong", bad)
"""


@pytest.mark.parametrize("game, size", [("aces_up", (240, 135)), ("spite_malice", (320, 240))])
def test_on_micropython_the_tour_of_every_screen_draws_key_by_key_what_a_redraw_draws(game, size):
    from tests.helpers import run_mpy_ok
    keys = tour(game)
    code = (GUEST.replace("WIDTH", str(size[0])).replace("HEIGHT", str(size[1]))
            .replace("KEYS", repr(keys)).replace("JUNK", repr((pal.CURSOR, pal.FELT))))
    assert run_mpy_ok(code).split("\n")[-2] == "checked %d wrong []" % len(keys)


@pytest.mark.parametrize("size", SIZES)
def test_a_question_over_any_screen_is_drawn_over_that_screen_as_it_was(size):
    # A game saved in progress waits (Continue on the title): giving it up for a new deal or
    # for a deal by number asks first, over the screen the question came from; link play
    # sets it aside and asks nothing.
    app = with_link(make_app(size[0], size[1], "sir_tommy", 5))
    run(app, "X A A X A A")
    assert app.in_progress()
    app.resumable = True  # as engine_core/console.py leaves a restored game
    app.go(ui.TITLE)
    app.redraw()
    asked = set()
    for key in "DOWN A B DOWN A DOWN A B X A B B B DOWN DOWN DOWN A B".split():
        run(app, key)
        if app.mode == ui.CONFIRM:
            asked.add(app.confirm_screen.back)
        assert bytes(app.screen.buf) == from_scratch(app, pal.CURSOR), key
    assert asked == {ui.TITLE, ui.CHOOSE, ui.DEAL}
    assert app.mode == ui.TITLE and app.resumable and app.selected == app.title_index(ui.T_LINK)  # B: back


@pytest.mark.parametrize("game", ("spite_malice", "nerts"))
def test_linked_play_and_the_other_console_leaving_draw_as_a_redraw_from_scratch(game):
    from tests.test_link_ui import settle, start, tick
    wire, host, guest = start(game, seed=3)
    consoles = (host, guest)
    for keys in ("X A A", "X A A", "START", "B", "SELECT", "B", "X A A", "Y"):
        for app in consoles:
            run(app, keys)
        settle(wire, consoles)
        for app in consoles:
            assert bytes(app.screen.buf) == from_scratch(app, pal.CURSOR), (keys, app.mode)
    run(guest, "START UP A")  # Give up: in link play, leave the table
    settle(wire, consoles)
    assert host.mode == ui.LINK_LEFT
    assert bytes(host.screen.buf) == from_scratch(host, pal.CURSOR)
    tick(wire, (host,), 1000)  # the question's guard time: its answers drawn live
    assert bytes(host.screen.buf) == from_scratch(host, pal.CURSOR)
    run(host, "A")  # play on against the computer
    assert host.mode == ui.PLAY
    assert bytes(host.screen.buf) == from_scratch(host, pal.CURSOR)


def test_the_end_panel_lies_over_the_final_position_with_no_card_left_on_its_way():
    from engine_core.ui.view import MSG_NONE
    # Spite & Malice's computer plays the deal's last card (its payoff pile's) while its card
    # slides: the end panel came over the card frozen halfway, drawn over the table for good.
    app = make_app(240, 240, "spite_malice", 5)
    for _ in range(400):
        if app.mode != ui.PLAY:
            break
        moves = app.table.move_count
        for key in ("X", "A", "A", "TICK", "TICK"):
            run(app, key)
            if app.mode != ui.PLAY:
                break
        if app.mode == ui.PLAY and app.table.move_count == moves:
            run(app, "B WAIT WAIT")
    assert app.mode == ui.END and app.table.game.status() != PLAYING
    assert not app.table.slide & 0xFF, "a card is still drawn on its way under the end panel"
    # The strip's words about play ("Jack of spades to side 4: your turn") went with it.
    assert app.table.message == MSG_NONE, "the strip still speaks of play under the end panel"
    assert bytes(app.screen.buf) == from_scratch(app, pal.CURSOR)
    frame = bytes(app.screen.buf)
    run(app, "TICK TICK TICK")
    assert bytes(app.screen.buf) == frame  # nothing moves on under the panel
