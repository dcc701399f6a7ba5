"""Nerts for three and four players on one console's screen (docs/nerts.md, "On the console"):
the Nerts players setting seats a new deal, every card stays somewhere once while everyone
plays, every seat's Nerts pile and score show, each card on top reads whole in one bit too,
and nothing is allocated on MicroPython. The layouts' other checks (on the screen, no overlap,
legible in colour, reached with the D-pad, drawn key by key as from scratch) run with every
game's in tests/test_ui.py, test_small_screens.py, test_picking.py and test_redraw.py."""

import random

import pytest

from engine_core import PLAYING, cards
from engine_core import records as r
from engine_core.console import Console
from engine_core.game import V_SCORE
from engine_core.gfx.paint import CHAR_H
from engine_core.gfx.screen import Screen
from engine_core.storage import MemoryStorage
from engine_core.ui import app as ui
from engine_core.ui import layouts
from engine_core.ui import settings as st
from engine_core.ui.app import App
from simulator import framebuf
from simulator.image import mono_pixels
from simulator.keys import make_app, parse, run
from tests.helpers import run_mpy_ok
from tests.test_small_screens import corner_glyphs, image_bits
from tests.test_ui_micropython import heap_lock_script
from support.ui_scripts import script

PLAY_KEYS = ("UP", "DOWN", "LEFT", "RIGHT", "A", "A", "B", "X", "Y", "LONG_A", "X A A", "TICK", "WAIT")


def console_on(storage, size=(240, 240)):
    console = Console(App(Screen(size[0], size[1], framebuf)), storage)
    console.start()
    return console


def keys(console, text):
    for button, long_press in parse(text):
        if button < 0:
            console.tick(-button)
        else:
            console.press(button, long_press)


def placed(table, name):
    """Whether the table shows the pile."""
    p = table.game.pile_id(name)
    return p >= 0 and table.slots.slot_of[p] != 255


def seats_shown(table, players):
    """The table is laid out for `players`: every foundation and every seat's Nerts pile."""
    return (table.game.players == players and placed(table, "found%d" % (4 * players))
            and placed(table, "p%d.nerts" % players) and not placed(table, "found%d" % (4 * players + 1)))


def layout_of(game):
    """Each pile's cards, bottom to top."""
    piles = game.piles
    return [list(piles.cards[piles.start[p]:piles.start[p] + piles.size[p]]) for p in range(len(game.pile_names))]


def every_card_once(game):
    """Each card of each seat's deck (jokers when dealt) in exactly one pile."""
    piles = game.piles
    seen = {}
    for p in range(len(game.pile_names)):
        s = piles.start[p]
        for i in range(s, s + piles.size[p]):
            seen[piles.cards[i]] = seen.get(piles.cards[i], 0) + 1
    want = list(range(52 * game.players))
    if game.jokers:
        want += [cards.joker(p, k) for p in range(game.players) for k in (0, 1)]
    return sorted(seen) == sorted(want) and set(seen.values()) == {1}


# --- the setting ---

def test_the_setting_is_two_three_or_four_players_two_by_default():
    assert st.SETTINGS[st.S_PLAYERS][st.NAME] == b"Nerts players"
    assert [st.nerts_players(c) for c in range(st.choices(st.S_PLAYERS))] == [2, 3, 4]
    assert st.nerts_players(st.SETTINGS[st.S_PLAYERS][st.DEFAULT]) == 2
    assert r.Settings().get("nerts_players") == 2


@pytest.mark.parametrize("players", [3, 4])
def test_a_new_deal_of_nerts_seats_the_settings_players_and_a_game_under_way_keeps_its_own(players):
    app = make_app(240, 240, "nerts", 5, players=players)
    game = app.table.game
    assert seats_shown(app.table, players)
    app.settings[st.S_PLAYERS] = 0  # two, from now on
    run(app, "X A A TICK")
    assert app.table.game is game and game.players == players  # the game in play goes on
    app.open_game("nerts", 6)  # a new deal: two
    assert seats_shown(app.table, 2)


def test_the_setting_is_saved_and_a_console_switched_on_again_deals_for_that_many():
    disk = MemoryStorage()
    console = console_on(disk)
    keys(console, "DOWN DOWN DOWN A" + " DOWN" * st.S_PLAYERS)  # title: settings; Nerts players
    app = console.app
    assert app.mode == ui.SETTINGS and app.setting_label(st.S_PLAYERS) == b"2"
    keys(console, "RIGHT RIGHT TICK TICK")  # written on the frame after
    assert app.setting_label(st.S_PLAYERS) == b"4" and console.keeper.settings.get("nerts_players") == 4
    again = console_on(disk)
    assert again.app.settings[st.S_PLAYERS] == 2
    again.open_game("nerts", 3)
    assert again.app.table.game.players == 4


def settings_record(values):
    """A settings record holding `values` (name: value) and the defaults of the fields before
    the last it names, as a build with that many fields wrote it."""
    names = [row[0] for row in r.SETTINGS]
    count = max(names.index(n) for n in values) + 1
    buf = bytearray(256)
    pos = r.begin(buf, r.KIND_SETTINGS, r.SETTINGS_VERSION)
    buf[pos] = count
    pos += 1
    for i in range(count):
        pos = r.put_u16(buf, pos, values.get(names[i], r.SETTINGS[i][1]))
    return bytes(buf[:r.finish(buf, pos)])


def storage_with_settings(data):
    disk = MemoryStorage()
    disk.write("settings.dat", data, len(data))
    return disk


def test_a_settings_record_from_before_the_setting_loads_with_two_players():
    old = settings_record({"screen_off_s": 600, "jokers": 1})  # the last field such a build had
    disk = storage_with_settings(old)
    console = console_on(disk)
    assert disk.read("settings.bad", bytearray(256)) <= 0
    assert console.keeper.settings.get("jokers") == 1 and console.keeper.settings.get("nerts_players") == 2
    console.open_game("nerts", 4)
    assert console.app.table.game.players == 2 and console.app.table.game.jokers


@pytest.mark.parametrize("bad", [0, 1, 5, 7, 65535])
def test_a_settings_record_with_no_such_number_of_players_is_set_aside_for_the_defaults(bad):
    disk = storage_with_settings(settings_record({"nerts_players": bad, "jokers": 1}))
    console = console_on(disk)
    assert disk.read("settings.bad", bytearray(256)) > 0  # the record set aside, as a damaged one
    assert console.keeper.settings.get("nerts_players") == 2 and console.keeper.settings.get("jokers") == 0
    assert console.app.settings[st.S_PLAYERS] == 0
    assert st.choice_of(st.S_PLAYERS, bad) == 0  # and a value no choice holds reads as the default
    console.open_game("nerts", 4)
    assert console.app.table.game.players == 2


@pytest.mark.parametrize("players", [3, 4])
def test_a_saved_nerts_game_resumes_with_its_own_players_whatever_the_setting(players):
    disk = MemoryStorage()
    console = console_on(disk)
    console.app.settings[st.S_PLAYERS] = players - 2
    console.open_game("nerts", 9)
    keys(console, "X A A TICK X A A TICK WAIT")
    game = console.app.table.game
    assert game.players == players and game.history.moves > 0
    console.close()  # switched off: the game is saved
    again = console_on(disk)
    assert again.app.resumable
    again.app.settings[st.S_PLAYERS] = 0  # two players at a new deal
    keys(again, "A")  # Continue
    table = again.app.table
    assert again.app.mode == ui.PLAY and table.game.players == players
    assert seats_shown(table, players)
    assert layout_of(table.game) == layout_of(game)


# --- play ---

@pytest.mark.parametrize("players", [3, 4])
@pytest.mark.parametrize("size", [(240, 240), (128, 64)])
def test_every_card_of_every_seat_is_somewhere_once_while_everyone_plays(players, size):
    for seed in (1, 2):
        app = make_app(size[0], size[1], "nerts", seed, players=players)
        rnd = random.Random(seed * 10 + players)
        for step in range(250):
            run(app, rnd.choice(PLAY_KEYS))
            if app.mode != ui.PLAY:
                run(app, "B" if app.mode != ui.END else "A")
                if app.mode != ui.PLAY:
                    app.open_game("nerts", seed + step)
            game = app.table.game
            assert game.players == players
            assert every_card_once(game), (seed, step)
        assert game.history.moves > 10  # the computer players played


def drawn_words(app):
    """Everything the table's painter writes in a full redraw: texts, letters and numbers."""
    words = []
    p = app.table.view.painter
    text, char, number = p.text, p.char, p.number

    def t(s, x, y, colour):
        words.append(bytes(s))
        return text(s, x, y, colour)

    def c(ch, x, y, colour):
        words.append(bytes([ch]))
        return char(ch, x, y, colour)

    def n(v, x, y, colour):
        words.append(str(v).encode())
        return number(v, x, y, colour)

    p.text, p.char, p.number = t, c, n
    try:
        app.full = True
        app.redraw()
    finally:
        del p.text, p.char, p.number
    return words


@pytest.mark.parametrize("players", [3, 4])
@pytest.mark.parametrize("size", layouts.SIZES)
def test_every_seats_nerts_count_and_score_show(players, size):
    app = make_app(size[0], size[1], "nerts", 2, players=players)
    game = app.table.game
    run(app, "X A A TICK")
    scores = (7, 3, 12, 5)
    for i in range(players):
        game.vars[V_SCORE + i] = scores[i]
    words = drawn_words(app)
    for i in range(players):
        assert str(game.score(i)).encode() in words, (i, words)
    slots = app.table.slots
    for p in range(1, players):
        s = slots.slot_of[game.pile_id("p%d.nerts" % (p + 1))]
        assert s != 255 and slots.how[s] & layouts.COUNT and slots.how[s] & layouts.THEIRS
        assert str(game.piles.size[slots.pile[s]]).encode() in words
        if size != (128, 64):  # named on the table: CPU, CPU2, CPU3
            assert (b"CPU", b"CPU2", b"CPU3")[p - 1] in words
    tags = [w for w in words if w in (b"You ", b"CPU ", b"CPU2 ", b"CPU3 ", b"Y", b"C", b"2", b"3")]
    assert len(tags) >= players, words  # a row a seat in the score corner


def mono_glyph(pixels, width, x, y, bits):
    """Whether the glyph shows whole at (x, y) of a one-bit frame: its pixels one tone, the
    rest of its box the other (dark ink on the lit card, or lit on the cursor's negative)."""
    lit = set(bits)
    w = max(bx for bx, _ in bits) + 1
    h = max(by for _, by in bits) + 1
    tones = {pixels[(y + by) * width + x + bx] for bx, by in bits}
    if len(tones) != 1:
        return False
    ink = tones.pop()
    return all(pixels[(y + by) * width + x + bx] == 1 - ink for by in range(h) for bx in range(w)
               if (bx, by) not in lit)


@pytest.mark.parametrize("players", [3, 4])
@pytest.mark.parametrize("size", layouts.SIZES)
def test_on_a_one_bit_screen_each_piles_top_card_shows_its_rank_and_suit_whole(players, size):
    app = make_app(size[0], size[1], "nerts", 11, mono=True, players=players)
    run(app, "X A A X A A X A A TICK B WAIT")
    app.full = True
    app.redraw()
    table = app.table
    slots = table.slots
    st_ = slots.style
    piles = table.game.piles
    pixels = mono_pixels(app.screen.buf, size[0], size[1])
    checked = 0
    for s in range(slots.count):
        p = slots.pile[s]
        n = piles.size[p]
        if n == 0 or not slots.card_face_up(p, n - 1, n):
            continue
        x = slots.x[s]
        y = slots.y[s] + ((n - 1) * slots.step(s, n) if slots.how[s] & layouts.FAN_MASK == layouts.DOWN else 0)
        if y + st_.h > table.view.strip_y and table.view.message:
            continue  # under the message strip: shown when it goes
        card = piles.cards[piles.start[p] + n - 1]
        for image in corner_glyphs(app, card):
            if image is None:
                continue
            bits = image_bits(image)
            gw = max(bx for bx, _ in bits) + 1
            gh = max(by for _, by in bits) + 1
            assert any(mono_glyph(pixels, size[0], gx, gy, bits)
                       for gy in range(y, y + st_.h - gh + 1) for gx in range(x, x + st_.w - gw + 1)), \
                (size, table.game.pile_names[p], card)
        checked += 1
    assert checked >= 3 + players


@pytest.mark.parametrize("players, size, mono", [
    (3, (240, 135), False), (3, (240, 240), False), (3, (128, 64), True),
    (4, (320, 240), False), (4, (160, 128), False), (4, (128, 64), True)])
def test_keypress_to_redraw_allocates_nothing_under_heap_lock(players, size, mono):
    setup = ("from engine_core.ui.settings import S_PLAYERS\n"
             "app.settings[S_PLAYERS] = %d\n"
             "app.open_game('nerts', 7)\n"
             "assert app.table.game.players == %d\n") % (players - 2, players)
    code = heap_lock_script("nerts", size, script("nerts") + " TICK WAIT TICK WAIT", setup)
    if mono:
        code = code.replace("make_app(%d, %d, 'nerts', 7)" % size, "make_app(%d, %d, 'nerts', 7, True)" % size)
        assert "True)" in code
    out = run_mpy_ok(code)
    assert out.startswith("no allocation "), out


def test_a_round_for_four_ends_with_every_card_still_once():
    app = make_app(160, 128, "nerts", 3, players=4)
    game = app.table.game
    for _ in range(4000):
        run(app, "TICK")
        if game.status() != PLAYING:
            break
    assert every_card_once(game)


@pytest.mark.parametrize("players", [3, 4])
def test_the_simulators_players_flag_deals_nerts_for_that_many(tmp_path, players):
    import subprocess
    import sys

    from PIL import Image

    from simulator.image import to_rgb_bytes
    from tools.mpy import ROOT
    out = tmp_path / "shot.png"
    done = subprocess.run([sys.executable, "-m", "simulator", "--headless", "--board", "320x240", "--game", "nerts",
                           "--players", str(players), "--seed", "3", "--keys", "A", "--screenshot", str(out)],
                          cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    app = make_app(320, 240, "nerts", 3, players=players)
    run(app, "A")
    assert seats_shown(app.table, players)
    assert Image.open(out).convert("RGB").tobytes() == to_rgb_bytes(app.screen.buf, 320, 240, app.screen.palette)


SEAT_OF = {b"You": "p1.", b"CPU": "p2.", b"CPU2": "p3.", b"CPU3": "p4.", b"C": "p2.", b"2": "p3.", b"3": "p4."}


@pytest.mark.parametrize("players", [3, 4])
@pytest.mark.parametrize("size", layouts.SIZES)
def test_each_seats_name_lies_nearest_its_own_piles(players, size):
    from tests.test_table_labels import boxes
    cls = layouts.screen_class(*size)
    decl = layouts.declaration("nerts", players)
    piles = boxes(decl, cls)
    labels = decl["labels"][cls]
    named = {text for text, x, y in labels}
    # Every other seat is named (at 128x64 by the initial the score corner gives it), and
    # your own row where there is room beside it (not at 128x64: the others' names tell it).
    others = (b"C", b"2", b"3") if size == (128, 64) else (b"CPU", b"CPU2", b"CPU3")
    assert set(others[:players - 1]) <= named
    assert size == (128, 64) or b"You" in named
    for text, x, y in labels:
        x1, y1 = x + 6 * len(text) - 1, y + CHAR_H

        def gap(box):
            return max(box[1] - x1, x - box[3], 0) + max(box[2] - y1, y - box[4], 0)
        nearest = min(piles, key=gap)
        assert nearest[0].startswith(SEAT_OF[text]), (text, nearest)


@pytest.mark.parametrize("players", [3, 4])
@pytest.mark.parametrize("size", layouts.SIZES)
def test_with_nothing_held_the_arrow_keys_reach_every_foundation_and_every_pile_of_yours(players, size):
    from tests.test_picking import reached_with_arrows, yours
    app = make_app(size[0], size[1], "nerts", 4, players=players)
    table = app.table
    mine = set(yours(table))
    assert len(mine) == 4 * players + 7  # the foundations, and your seven piles
    for start in sorted(mine):
        assert table.held == 255
        missed = mine - reached_with_arrows(app, start)
        names = table.game.pile_names
        assert not missed, (names[table.slots.pile[start]], sorted(names[table.slots.pile[s]] for s in missed))
