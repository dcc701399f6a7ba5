"""The words a player reads: the notice about a damaged record fits the narrowest screen, and
the rules pages speak plainly, each in its game's own pile names (docs/rules/*.md)."""

import pytest

from engine_core import games
from engine_core import records as r
from engine_core import save
from engine_core.ui import layouts, texts

NARROWEST = min(width for width, height in layouts.SIZES)
TITLES = ("Settings", "Statistics", "Saved game")  # every RecordFile's title
JARGON = ("shipped", "seed", "solver", "profile", "protocol", "table of such")


def test_every_notice_of_a_damaged_record_fits_the_narrowest_screen():
    # The console's notice strip writes from x = 4 in 6-pixel letters (console.draw_notice).
    for title in TITLES:
        for found in range(len(r.PROBLEMS)):
            text = r.load_message(title, found)
            assert 4 + 6 * len(text) <= NARROWEST, text
    for text in (save.NOTICE_FULL, save.NOTICE_FAILED, save.NOTICE_JOURNAL, save.NOTICE_CANNOT_KEEP):
        assert 4 + 6 * len(text) <= NARROWEST, text


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
    # The menu's panel is the screen less 16 pixels, 220 at most, its rows written from 8 in;
    # the question is centred in a panel as wide (engine_core/ui/menus.py, screens.py).
    from engine_core.gfx.paint import CHAR_H, LINE_H
    for width, height in layouts.SIZES:
        panel = min(width - 16, 220)
        for text in texts.PAUSE:
            assert 8 + 6 * len(text) <= panel - 4, (width, text)
        for text in texts.CONFIRMS + (b"A: yes  B: no",):
            assert 6 * len(text) <= panel - 8, (width, text)
        lines = len(texts.PAUSE) + 1  # the rows under the menu's name
        row = LINE_H + 2 if lines * (LINE_H + 2) + 10 <= height - 4 else (height - 14) // lines
        assert row >= CHAR_H + 2, (width, height)
    assert b"Give up" in texts.PAUSE and b"To the title" in texts.PAUSE
