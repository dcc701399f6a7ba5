"""The hobby displays' screens, 160x128 and 128x64, and every other size with a layout: every
card of a deal shows its rank and its suit whole, whatever the colours (a one-bit screen will
show these frames in black and white), and no text runs off the screen or over other text.

What is checked is what a player sees, found from the frame and from what was drawn on it:
the rank and suit glyphs a card's art has (tools/art/), the letters of the 5x7 font."""

import pytest

from engine_core import games
from engine_core.gfx import art_data
from engine_core.gfx import palette as pal
from engine_core.gfx.paint import CHAR_H, CHAR_W, LINE_H
from engine_core.ui import layouts, overlay
from engine_core.ui import screens as ui
from simulator.keys import make_app, run
from tests.seats import params, tables

NEW = ((160, 128), (128, 64))
FOLLOW_HINTS = "X A A " * 14  # a game under way: the hinted moves played


def games_with_layouts():
    return [g for g in games.available() if layouts.declaration(g) is not None]


# --- the cards ---

def image_bits(index):
    """The lit pixels of art image `index`, as (x, y)."""
    data = art_data.DATA
    off = art_data.INDEX[4 * index] << 8 | art_data.INDEX[4 * index + 1]
    w, h = art_data.INDEX[4 * index + 2], art_data.INDEX[4 * index + 3]
    stride = (w + 7) >> 3
    return [(x, y) for y in range(h) for x in range(w) if data[off + y * stride + (x >> 3)] & (0x80 >> (x & 7))]


def ink_of(fb, x, y, bits):
    """Whether every pixel of `bits` at (x, y) is one ink colour, black or red, and every
    pixel of their box that is not one of them is the card's white: the glyph shows whole."""
    inks = {fb.pixel(x + bx, y + by) for bx, by in bits}
    if len(inks) != 1 or inks - {pal.BLACK, pal.RED}:
        return False
    w = max(bx for bx, _ in bits) + 1
    h = max(by for _, by in bits) + 1
    lit = set(bits)
    return all(fb.pixel(x + bx, y + by) == pal.WHITE
               for by in range(h) for bx in range(w) if (bx, by) not in lit)


def corner_glyphs(app, card):
    """The rank and suit images a face-up card shows in its corner, in the table's card size."""
    st = app.table.slots.style
    tiny = st.big == 3
    rank_first = art_data.RANK_TINY if tiny else (art_data.RANK_BIG if st.big == 1 else art_data.RANK_SMALL)
    suit_first = art_data.SUIT_TINY if tiny else (art_data.SUIT_BIG if st.big == 1 else art_data.SUIT_SMALL)
    if card >= 208:
        return None, suit_first + 4
    return rank_first + card % 13, suit_first + (card // 13) % 4


def find_glyph(fb, bits, x0, y0, w, h):
    """Whether the glyph shows whole somewhere inside the box."""
    gw = max(bx for bx, _ in bits) + 1
    gh = max(by for _, by in bits) + 1
    return any(ink_of(fb, x, y, bits) for y in range(y0, y0 + h - gh + 1) for x in range(x0, x0 + w - gw + 1))


@pytest.mark.parametrize("size", layouts.SIZES)
@pytest.mark.parametrize("game, players", params())
def test_the_top_card_of_every_pile_shows_its_rank_and_suit_whole(game, players, size):
    app = make_app(size[0], size[1], game, 11, players=players)
    run(app, FOLLOW_HINTS + "B WAIT WAIT")
    if app.mode != ui.PLAY:  # the deal ended: a fresh one
        app.open_game(game, 12)
    assert app.table.game.players == (players or app.table.game.players)
    app.full = True
    app.redraw()
    table = app.table
    slots = table.slots
    st = slots.style
    piles = table.game.piles
    fb = app.screen.fb
    checked = 0
    for s in range(slots.count):
        p = slots.pile[s]
        n = piles.size[p]
        if n == 0 or not slots.card_face_up(p, n - 1, n):
            continue
        step = slots.step(s, n)
        fan = slots.how[s] & layouts.FAN_MASK
        x = slots.x[s] + ((n - 1) * step if fan == layouts.RIGHT else 0)
        y = slots.y[s] + ((n - 1) * step if fan == layouts.DOWN else 0)
        if y + st.h > table.view.strip_y:
            continue  # under the message strip's band: shown when no message is
        card = piles.cards[piles.start[p] + n - 1]
        rank, suit = corner_glyphs(app, card)
        # The corner: the top third of the card (the rank and the suit beside or under it).
        for image in (rank, suit):
            if image is None:
                continue
            assert find_glyph(fb, image_bits(image), x, y, st.w, st.h), (game, size, table.game.pile_names[p], card)
        checked += 1
    assert checked >= 3


def test_the_tiny_ranks_and_suits_differ_from_each_other():
    # A 13x9 card tells its rank and suit by shape alone: no two ranks and no two suits share
    # a glyph, and clubs differ from spades, hearts from diamonds.
    ranks = [tuple(image_bits(art_data.RANK_TINY + r)) for r in range(13)]
    suits = [tuple(image_bits(art_data.SUIT_TINY + s)) for s in range(5)]
    assert len(set(ranks)) == 13 and len(set(suits)) == 5


# --- the words ---

class Drawn:
    """Every letter of the font drawn, and every rectangle filled, in drawing order."""

    def __init__(self, app):
        self.ops = []
        painter = app.painter
        fb = app.screen.fb
        fill_rect = fb.fill_rect
        fill = fb.fill
        font = {id(painter.images[i]): i for i in range(art_data.FONT, art_data.FONT + 64)}
        ink_for = painter.ink_for
        glyphs = painter.glyphs
        inked = [0]  # the colour the painter's ink was last set to

        def ink(colour):
            inked[0] = colour
            return ink_for(colour)

        class Letters:  # the frame the painter blits its glyphs onto, each letter noted
            def blit(_, image, x, y, key=-1, palette=None):
                i = font.get(id(image))
                if i is not None:
                    self.ops.append(("letter", x, y, painter.widths[i], painter.heights[i], inked[0]))
                return glyphs.blit(image, x, y, key, palette)

        def filled(x, y, w, h, colour):
            self.ops.append(("fill", x, y, w, h, colour))
            return fill_rect(x, y, w, h, colour)

        def cleared(colour):
            self.ops.append(("fill", 0, 0, app.width, app.height, colour))
            return fill(colour)
        painter.ink_for = ink
        painter.glyphs = Letters()
        fb.fill_rect = filled
        fb.fill = cleared

    def letters(self):
        """The letters nothing filled over later, and those something other than a panel
        filled part of (text cut by what was drawn after it)."""
        shown = []
        cut = []
        for k, op in enumerate(self.ops):
            if op[0] != "letter":
                continue
            _, x, y, w, h, colour = op
            covered = False
            for later in self.ops[k + 1:]:
                if later[0] != "fill":
                    continue
                _, fx, fy, fw, fh, fc = later
                if fx < x + w and x < fx + fw and fy < y + h and y < fy + fh:
                    covered = True
                    whole = fx <= x and x + w <= fx + fw and fy <= y and y + h <= fy + fh
                    if not whole and fc != pal.PANEL and fc != pal.CURSOR:
                        cut.append(op)
                    break
            if not covered:
                shown.append(op)
        return shown, cut


def drawn_whole(app):
    """The letters of the screen drawn afresh, and the letters something cut."""
    drawn = Drawn(app)
    app.full = True
    app.redraw()
    return drawn.letters()


def check_letters(app, where):
    shown, cut = drawn_whole(app)
    assert not cut, (where, cut[:4])
    boxes = sorted(set((x, y, w, h) for _, x, y, w, h, _ in shown))
    for x, y, w, h in boxes:
        assert 0 <= x and x + w <= app.width and 0 <= y and y + h <= app.height, (where, "off the screen", x, y)
    for i, a in enumerate(boxes):
        for b in boxes[i + 1:]:
            apart = a[0] + a[2] <= b[0] or b[0] + b[2] <= a[0] or a[1] + a[3] <= b[1] or b[1] + b[3] <= a[1]
            assert apart, (where, "letters over letters", a, b)


SCREENS = (
    ("title", None, ""),
    ("game list", None, "DOWN A"),
    ("game list, the last game", None, "DOWN A UP"),
    ("deal number", None, "DOWN A X"),
    ("statistics", None, "DOWN DOWN A"),
    ("statistics, scrolled", None, "DOWN DOWN A " + "DOWN " * 20),
    ("settings", None, "DOWN DOWN DOWN A"),
)


@pytest.mark.parametrize("size", layouts.SIZES)
def test_no_words_run_off_the_screen_or_over_each_other_around_play(size):
    for where, game, keys in SCREENS:
        app = make_app(size[0], size[1], game, 7)
        run(app, keys)
        check_letters(app, where)
    app = make_app(size[0], size[1])
    run(app, "DOWN DOWN DOWN A")
    for i in range(20):  # every settings row and its line, and back to the top
        run(app, "DOWN")
        check_letters(app, "settings row %d" % app.selected)


@pytest.mark.parametrize("size", layouts.SIZES)
@pytest.mark.parametrize("game, players", params())
def test_no_words_run_off_the_screen_or_over_each_other_in_play(game, players, size):
    app = make_app(size[0], size[1], game, 7, players=players)
    app.table.slide_on(False)  # (a card gliding over the words is gone in a few frames)
    run(app, FOLLOW_HINTS)
    check_letters(app, "the table")
    for i in range(12):  # the pause menu, each row in turn
        run(app, "START" if i == 0 else "DOWN")
        check_letters(app, "pause menu row %d" % app.selected)
    run(app, "B SELECT")  # the rules, from their top to their end
    for i in range(60):
        check_letters(app, "rules line %d" % app.scroll)
        run(app, "DOWN")
    run(app, "B START UP A")  # give up? (asked)
    assert app.mode == ui.CONFIRM
    check_letters(app, "give up?")
    run(app, "A")  # given up: the end panel or the game list
    check_letters(app, "after giving up")


@pytest.mark.parametrize("size", layouts.SIZES)
@pytest.mark.parametrize("game, players", [t for t in params() if t.values[0] in ("nerts", "spite_malice")])
def test_scores_long_and_negative_stay_on_the_screen_and_clear_of_each_other(game, players, size):
    # A long match's scores ("You -150", "CPU2 -999") in the status line or its corner: each
    # player's name gives way to its initial before any word runs into another or off the edge.
    app = make_app(size[0], size[1], game, 7, players=players)
    run(app, "TICK")
    for scores in ((-150, 50, -150, -150), (150, -150, 1, 99), (-999, -999, -999, -999), (999, 0, 999, 0)):
        app.table.game.score = lambda p, scores=scores: scores[p]
        check_letters(app, ("scores", scores))


@pytest.mark.parametrize("size", layouts.SIZES)
@pytest.mark.parametrize("game, players", [t for t in params() if t.values[0] in ("nerts", "spite_malice")])
def test_the_end_panel_shows_every_players_score_whole_inside_it(game, players, size):
    # Three or four players' scores on a narrow panel ran past its border, or stopped at
    # "CPU2" with the rest cut off: each player's score shows, inside the panel.
    for scores in ((27, 16, 5, -13), (-150, 50, -150, -150), (-999, 999, -999, 999)):
        app = make_app(size[0], size[1], game, 7, players=players)
        run(app, "TICK")
        game_obj = app.table.game
        game_obj.score = lambda p, scores=scores: scores[p]
        app.show(ui.END)
        drawn = Drawn(app)
        app.full = True
        app.redraw()
        panels = [op for op in drawn.ops if op[0] == "fill" and op[5] == pal.PANEL]
        _, px, py, pw, ph, _ = max(panels, key=lambda op: op[3] * op[4])
        shown, cut = drawn.letters()
        inside = [op for op in shown if px <= op[1] < px + pw and py <= op[2] < py + ph]
        for _, x, y, w, h, _ in inside:
            assert x + w <= px + pw - 1 and y + h <= py + ph - 1, (game, size, scores, "past the panel", x, y)
        digits = sum(len(str(abs(v))) + (v < 0) for v in scores[:game_obj.players])
        values = [op for op in inside if op[5] == pal.WHITE]  # the scores' digits and signs
        assert len(values) >= digits, (game, size, scores, len(values), digits)


@pytest.mark.parametrize("size", layouts.SIZES)
def test_a_refusal_is_said_whole_at_the_foot_of_the_table(size):
    from engine_core import reasons as why
    from tests.drawn_text import find
    import textwrap
    app = make_app(size[0], size[1], "aces_up", 69)
    table = app.table
    table.hand.cursor = table.slots.slot_of[table.game.pile_id("col2")]  # QS: no higher spade shows
    run(app, "LONG_A")
    run(app, "TICK")
    words = why.screen_words(table.game, table.message).decode()
    assert len(words) > 20
    low = size[1] < 100  # one line a pixel from the edge, its two lines in turn (docs/screen.md)
    per_line = (size[0] - 1) // CHAR_W if low else (size[0] - 6) // CHAR_W
    lines = textwrap.wrap(words, per_line, break_on_hyphens=False)
    assert len(lines) <= 2
    ys = []
    for k, line in enumerate(lines):
        if low and k == 1:
            assert find(app, line.encode()) is None, line  # not yet
            run(app, "TICK " * 21)  # past half the strip's time
            assert find(app, lines[0].encode()) is None
        at = find(app, line.encode())
        assert at is not None, (size, line)
        assert at[0] + len(line) * CHAR_W - 1 <= size[0] and at[1] + CHAR_H <= size[1]
        ys.append(at[1])
    assert ys == sorted(ys)
    check_letters(app, "the refusal")


@pytest.mark.parametrize("size", NEW)
def test_the_link_screens_words_fit(size):
    from tests.test_link_ui import pick_the_table, tick, to_link_screen
    from engine_core.link.channel import Channel
    from engine_core.link.loopback import Wire
    from engine_core.link.session import Session
    from engine_core.ui import buttons as bt
    wire = Wire(1)
    apps = []
    for side in range(2):
        app = make_app(*size)
        app.attach_link(lambda end=wire.end(side): Session(Channel(end)), b"UART")
        apps.append(app)
    host, guest = apps
    for app in apps:
        to_link_screen(app)
        check_letters(app, "link play")
    host.press(bt.A)  # host Spite & Malice
    check_letters(host, "hosting")
    guest.selected = 2
    guest.press(bt.A)
    tick(wire, apps, 400)
    check_letters(guest, "the tables heard")
    for _ in range(300):
        tick(wire, apps, 20)
        pick_the_table(guest)
        if host.mode == ui.PLAY and guest.mode == ui.PLAY:
            break
    assert host.mode == ui.PLAY and guest.mode == ui.PLAY
    for app in apps:
        check_letters(app, "a linked table")


@pytest.mark.parametrize("size", layouts.SIZES)
def test_no_word_on_a_table_lies_in_the_message_strips_band(size):
    # The strip at the foot (a line, two on a screen narrower than 240) is drawn over the table
    # and mended when what lies under it is drawn again; the table's words are not, so none
    # sits where the strip goes.
    band = overlay.strip_top(*size)
    for game, players in tables():
        labels = layouts.declaration(game, players).get("labels", {}).get(layouts.screen_class(*size), ())
        for text, x, y in labels:
            assert y + CHAR_H <= band, (game, players, size, text)


@pytest.mark.parametrize("size", layouts.SIZES)
def test_your_spite_and_malice_side_stacks_show_their_sizes_at_every_size(size):
    # The other player's may go without theirs on the smallest screen; yours never do.
    from tests.drawn_text import glyphs, shows_at
    app = make_app(size[0], size[1], "spite_malice", 7)
    run(app, "TICK")
    table = app.table
    piles = table.game.piles
    p = table.game.pile_id("p1.side1")
    for i in range(3):
        piles.cards[piles.start[p] + i] = 13 * (i % 4) + 9 - i
    piles.size[p] = 3
    table.drop_message()
    app.full = True
    app.redraw()
    s = table.slots.slot_of[p]
    st = table.slots.style
    x0, y0 = table.slots.x[s], table.slots.y[s]
    drawn = glyphs(app, b"3")
    spots = [(x, y) for y in range(y0 + st.h, min(y0 + st.h + LINE_H + 4, app.height - 6))
             for x in range(max(0, x0 - 4), min(x0 + st.w + 4, app.width - 5)) if shows_at(app, b"3", x, y, drawn)]
    assert spots, size


@pytest.mark.parametrize("size", [(128, 64), (160, 128), (240, 135), (240, 240), (320, 240)])
def test_every_settings_row_keeps_two_blank_characters_between_its_name_and_its_value(size):
    # "Target score Game's" read as one phrase on 128x64: a name and its value stand two blank
    # characters apart at least, whatever the choice (short forms where they would not).
    from engine_core.gfx.paint import CHAR_W
    from engine_core.ui import settings as st
    from engine_core.ui.menus import SettingsMenu
    app = make_app(*size)
    app.go(ui.SETTINGS)
    p = app.painter
    drawn = []
    inside = []
    for name in ("text", "text_upto"):
        method = getattr(p, name)

        def noted(words, *args, _method=method, _name=name):
            if not inside:  # (text_upto draws through text: the outer call alone)
                n = args[0] if _name == "text_upto" else len(words)
                x, y = (args[1], args[2]) if _name == "text_upto" else (args[0], args[1])
                drawn.append((bytes(words[:n]), x, y))
            inside.append(1)
            try:
                return _method(words, *args)
            finally:
                inside.pop()
        setattr(p, name, noted)
    screen = app.screens[ui.SETTINGS]
    assert isinstance(screen, SettingsMenu)
    checked = 0
    for row in range(st.COUNT):
        i = screen.setting(app, row)
        for choice in range(st.choices(i)):
            app.settings[i] = choice
            del drawn[:]
            screen.draw_words(app, row, 10, 20, screen_width(app), False)
            (name, nx, _), (value, vx, _) = drawn
            assert vx - (nx + CHAR_W * len(name) - 1) >= 2 * CHAR_W + 1, (size, name, value)
            checked += 1
    assert checked > 30


def screen_width(app):
    from engine_core.ui.screens import panel_width
    return panel_width(app.width)


@pytest.mark.parametrize("size", [(160, 128), (128, 64)])
def test_the_narrow_statistics_page_scrolls_a_game_at_a_time_and_shows_every_game_whole(size):
    # Scrolled a line at a time, a page began with "Played 1 Won 0" and no name above it.
    from engine_core.ui.stats import Stats
    app = make_app(*size)
    app.go(ui.STATS)
    page = app.screens[ui.STATS]
    assert isinstance(page, Stats)
    per = page.per_game(app)
    seen = set()
    for _ in range(3 * len(app.names)):
        assert app.scroll % per == 0, "each page starts with a game's name"
        first = app.scroll // per
        for i in range(first, min(len(app.names), first + page.page_lines(app) // per)):
            seen.add(i)  # games whose lines the page holds whole
        run(app, "DOWN")
    assert seen == set(range(len(app.names)))
    run(app, "UP")
    assert app.scroll % per == 0


@pytest.mark.parametrize("size", ((128, 64), (240, 240)))
def test_a_card_that_slides_where_the_last_one_was_drawn_is_drawn_over_the_piles(size):
    """A key's answer draws piles again over a card still on its way, and starts another card
    sliding the same way (two redos in a row): the frame after shows the new card on its way,
    as a full redraw of the same state does, not the piles over the old card's place."""
    from engine_core.console import Console
    from engine_core.gfx.screen import Screen
    from engine_core.storage import MemoryStorage
    from engine_core.ui.app import App
    from simulator import framebuf
    for ticks in range(4):
        console = Console(App(Screen(size[0], size[1], framebuf, size[1] == 64)), MemoryStorage())
        console.open_game("spite_malice", 4)
        table = console.app.table
        view = table.view
        slot_of = table.slots.slot_of
        src, dst = slot_of[table.game.pile_id("p1.hand")], slot_of[table.game.pile_id("center1")]
        console.tick(33)
        view.start_slide(src, dst, 0)
        for _ in range(ticks + 1):
            console.tick(33)
        view.touch(src)  # the key's answer: the piles drawn again...
        view.touch(dst)
        view.start_slide(src, dst, 20)  # ...and another card slides the same way
        table.refresh()
        console.tick(33)
        glass = bytes(console.screen.buf)
        view.draw_all()
        assert bytes(console.screen.buf) == glass, ticks
