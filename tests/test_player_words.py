"""The words a player reads: the notice about a damaged record fits the narrowest screen, and
the rules pages speak plainly, each in its game's own pile names (docs/rules/*.md)."""

import textwrap

import pytest

from engine_core import games
from engine_core import records as r
from engine_core import save
from engine_core.ui import layouts, pages, texts

NARROWEST = min(width for width, height in layouts.SIZES)
TITLES = ("Settings", "Statistics", "Saved game")  # every RecordFile's title
JARGON = ("shipped", "seed", "solver", "profile", "protocol", "table of such")


def fits(text, width, lines):
    """Whether text, broken at spaces, fits `lines` lines written from x = 4 in 6-pixel letters."""
    text = text if isinstance(text, str) else text.decode()
    wrapped = textwrap.wrap(text, (width - 7) // 6, break_on_hyphens=False)
    return len(wrapped) <= lines and all(4 + 6 * len(line) <= width for line in wrapped)


def test_every_notice_of_a_damaged_record_fits_a_240_pixel_line_and_three_of_the_narrowest():
    # The console's notice strip writes from x = 4 in 6-pixel letters (console.draw_notice), on
    # a line or, on a narrower screen, more.
    notices = [r.load_message(title, found) for title in TITLES for found in range(len(r.PROBLEMS))]
    notices += [save.NOTICE_FULL, save.NOTICE_FAILED, save.NOTICE_JOURNAL, save.NOTICE_CANNOT_KEEP]
    for text in notices:
        assert 4 + 6 * len(text) <= 240, text
        assert fits(text, NARROWEST, 3), text


def test_a_notice_too_long_for_a_narrow_screen_shows_whole_on_more_lines():
    from engine_core.console import Console
    from engine_core.storage import MemoryStorage
    from simulator.keys import make_app
    from tests.drawn_text import find
    text = max((r.load_message("Statistics", found) for found in range(len(r.PROBLEMS))), key=len).encode()
    for width, height in layouts.SIZES:
        console = Console(make_app(width, height), MemoryStorage())
        console.notice = text
        console.draw_notice()
        lines = textwrap.wrap(text.decode(), (width - 7) // 6, break_on_hyphens=False)
        assert len(lines) == 1 or width < 240
        for line in lines:
            assert find(console.app, line.encode()) is not None, (width, line)


def rules_screen(name):
    """What the rules screen shows for a game (engine_core/ui/screens.py draw_rules)."""
    text = games.rules_text(name)
    if games.winnable_module(name) is not None:
        text += b"\n" + texts.WINNABLE_NOTE
    return (text + b"\n" + texts.RULES_KEYS).decode()


@pytest.mark.parametrize("name", games.names())
def test_no_rules_page_line_carries_jargon(name):
    for line in rules_screen(name).lower().split("\n"):
        for word in JARGON:
            assert word not in line, (name, word, line)


@pytest.mark.parametrize("name,piles", [("aces_up", "discard"), ("spite_malice", "centre stack")])
def test_a_game_without_foundations_never_speaks_of_one_on_its_rules_page(name, piles):
    page = rules_screen(name).lower()
    assert "foundation" not in page and piles in page


def test_the_pause_menu_and_the_question_before_giving_up_fit_every_screen():
    # A menu's panel is the screen less 16 pixels, 220 at most, its rows written from 8 in;
    # the pause menu's is as narrow as its words, 136 at least, and a question asked from it
    # is centred in that panel (engine_core/ui/menus.py, screens.py). On a 128-pixel screen
    # the panel is the screen less 4 pixels, its rows written from 4 in; where a question's two
    # lines do not fit they are one paragraph in three lines. On a 64-pixel screen the menu
    # shows the rows it has room for, a line of text apart, and scrolls.
    from engine_core.gfx.paint import CHAR_H, LINE_H
    for width, height in layouts.SIZES:
        widest = min(width - 16, 220) if width >= 160 else width - 4
        inset = 8 if width >= 160 else 4
        for panel in (widest, min(widest, 136)):
            for text in texts.PAUSE:
                assert inset + 6 * len(text) <= panel - 4, (width, text)
            for text in texts.CONFIRMS[:5] + (b"A: yes  B: no",):
                assert 6 * len(text) <= panel - 8, (width, text)
            # The words under the question: giving up each game, named; leaving a linked game.
            paragraphs = [texts.CONFIRMS[5] + games.title(name) + texts.CONFIRMS[7] for name in games.names()]
            for paragraph in paragraphs + [texts.CONFIRMS[6]]:
                assert len(paragraph) <= len(pages._BODY), paragraph  # the buffer they are put in
                assert len(textwrap.wrap(paragraph.decode(), (panel - 7) // 6)) <= 3, (width, paragraph)
        lines = len(texts.PAUSE) + 1  # the rows under the menu's name
        row = LINE_H + 2 if lines * (LINE_H + 2) + 10 <= height - 4 else (height - 14) // lines
        if row < CHAR_H + 2:  # the menu scrolls, its rows a line apart
            row = LINE_H
            assert (height - 14) // row - 1 >= 3, (width, height)
        assert row >= CHAR_H + 2, (width, height)
    assert b"Give up" in texts.PAUSE and b"To the title" in texts.PAUSE
    from engine_core.ui import menus
    assert max(len(text) for text in texts.PAUSE) == menus._PAUSE_LONGEST  # the narrow panel's measure
