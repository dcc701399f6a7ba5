"""One meaning per key: docs/screen.md's table "What each key means" (screen x key -> meaning)
is read here, and every key is pressed on every screen and checked against it, so the table
and the console cannot drift apart. Enter is what simulator/keymap.py (shared with the web
page) makes of it; Esc is the host's back key (Console.back_key)."""

import os

import pytest

from engine_core.console import Console
from engine_core.loop import LONG
from engine_core.storage import MemoryStorage
from engine_core.ui import buttons as bt
from engine_core.ui import screens as ui
from engine_core.ui import texts
from engine_core.ui.linkplay import LINK_GAMES
from engine_core.ui.table import NONE
from simulator import keymap
from simulator.keys import make_app

DOC = os.path.join(os.path.dirname(__file__), "..", "docs", "screen.md")
KEY_COLUMNS = {"A": (bt.A,), "B": (bt.B,), "START": (bt.START,), "SELECT": (bt.SELECT,),
               "UP DOWN": (bt.UP, bt.DOWN), "LEFT RIGHT": (bt.LEFT, bt.RIGHT), "X": (bt.X,), "Y": (bt.Y,),
               "Enter": ("Enter",), "Esc": ("Esc",)}


def key_table():
    """{screen: {key column: meaning}} from docs/screen.md."""
    with open(DOC) as f:
        text = f.read()
    part = text.split("## What each key means", 1)[1].split("\n| screen |", 1)[1]
    rows = ["| screen |" + part.split("\n\n", 1)[0]][0].split("\n")
    head = [c.strip() for c in rows[0].strip("|").split("|")]
    table = {}
    for line in rows[2:]:
        cells = [c.strip() for c in line.strip("|").split("|")]
        table[cells[0]] = dict(zip(head[1:], cells[1:]))
    return table


TABLE = key_table()


# --- each screen, set up afresh: (app, what its pick gives, where its back goes) ---

def title():
    app = make_app(240, 240)
    app.selected = app.title_index(ui.T_STATS)
    return app, ui.STATS, None


def game_list():
    app = make_app(240, 240)
    app.selected = app.title_index(ui.T_CHOOSE)
    app.press(bt.A)
    return app, ui.PLAY, ui.TITLE


def deal_number():
    app, _, _ = game_list()
    app.press(bt.X)
    assert app.mode == ui.DEAL
    return app, ui.PLAY, ui.CHOOSE


def play_nothing_held():
    app = make_app(240, 240, "spite_malice", 3)  # a deal where every key has something to do
    for key in (bt.X, bt.A, bt.A):  # a move made: there is something to undo
        app.press(key)
    app.tick(50)
    assert app.table.move_count > 0 and app.table.held == NONE
    return app, None, None


def play_card_held():
    app, _, _ = play_nothing_held()
    app.press(bt.X)
    app.press(bt.A)
    assert app.table.held != NONE
    return app, None, None


def pause():
    app, _, _ = play_nothing_held()
    app.press(bt.START)
    app.selected = ui.P_RULES
    return app, ui.RULES, ui.PLAY


def rules():
    app, _, _ = play_nothing_held()
    app.press(bt.SELECT)
    for _ in range(5):
        app.press(bt.DOWN)
    assert app.mode == ui.RULES and app.scroll == 5
    return app, None, ui.PLAY


def statistics():
    app, _, _ = title()
    app.press(bt.A)
    assert app.mode == ui.STATS
    return app, None, ui.TITLE


def settings():
    app = make_app(240, 240)
    app.selected = app.title_index(ui.T_SETTINGS)
    app.press(bt.A)
    app.selected = 0
    assert app.mode == ui.SETTINGS
    return app, None, ui.TITLE


def end():
    from tests.test_redraw import play_out
    app = make_app(240, 240, "aces_up", 14)
    play_out(app)
    app.tick(50)
    assert app.mode == ui.END
    return app, None, None


def confirm():
    app, _, _ = play_nothing_held()
    app.press(bt.START)
    app.selected = ui.P_GIVE_UP
    app.press(bt.A)
    assert app.mode == ui.CONFIRM
    return app, ui.TITLE, ui.PAUSE


def link_play():
    from tests.test_link_ui import linked_pair, to_link_screen
    wire, host, guest = linked_pair()
    to_link_screen(host)
    host.selected = len(LINK_GAMES)  # Join a table
    return host, ui.LINK, ui.TITLE


def other_left():
    from tests.test_link_ui import settle, start, tick
    wire, host, guest = start("spite_malice", seed=7)
    guest.press(bt.START)
    guest.selected = ui.P_TITLE
    guest.press(bt.A)
    settle(wire, (host, guest))
    tick(wire, (host,), 1000)  # the question's guard time
    assert host.mode == ui.LINK_LEFT
    return host, ui.PLAY, ui.TITLE


def an_offer():
    from tests.test_link_questions import playing_on_alone
    from tests.test_link_stranger import console_with_link, run
    wire, console, peer = console_with_link()
    app = playing_on_alone(console, peer)
    peer.host("spite_malice", seed=31)
    for _ in range(40):
        run(console, peer, 20)
        if app.mode == ui.LINK_ASK:
            break
    run(console, peer, 1000)  # the question's guard time
    assert app.mode == ui.LINK_ASK and app.answers_live()
    return app, ui.LINK, ui.PLAY


SCREENS = {"title": title, "game list": game_list, "deal number": deal_number,
           "play, a card held": play_card_held, "play, nothing held": play_nothing_held, "pause": pause,
           "rules": rules, "statistics": statistics, "settings": settings, "end": end,
           "confirm": confirm, "link play": link_play, "the other console left": other_left,
           "an offer": an_offer}


def looks(app):
    """What a key may change, as a value to compare."""
    table = app.table
    deal = app.deal_screen
    link = app.link
    return (app.mode, app.selected, app.scroll, bytes(deal.digits), deal.pos, bytes(app.settings),
            app.deals, app.resumable, id(table),
            None if table is None else (table.hand.cursor, table.held, table.move_count, table.hint_slot,
                                        table.message),
            None if link is None else link.status)


def press(app, key):
    """A key as the console takes it; False when it is nothing for the console (Esc on the title)."""
    if key == "Enter":
        names = [button for name, button in keymap.KEYS if name == "RETURN"]
        assert len(names) == 1
        key = bt.NAMES.index(names[0])
    if key == "Esc":
        code = Console(app, MemoryStorage()).back_key()
        if code < 0:
            return False
        app.press(code & ~LONG, bool(code & LONG))
        return True
    app.press(key)
    return True


def check(meaning, before, app, picked, back, pressed):
    """Did the press do what the table says?"""
    mode, selected, scroll, digits, pos, settings, deals, _, table, held_etc, _ = before
    now = looks(app)
    if meaning == "-":
        return now == before
    if meaning == "close":
        return not pressed and now == before
    if meaning in ("pick", "yes"):
        return app.mode == picked and now != before
    if meaning == "back":
        return app.mode == back
    if meaning == "move":
        return app.mode == mode and app.selected != selected
    if meaning == "pause":
        return app.mode == ui.PAUSE
    if meaning == "resume":
        return app.mode == ui.PLAY
    if meaning == "rules":
        return app.mode == ui.RULES
    if meaning == "games":
        return app.mode == ui.CHOOSE
    if meaning == "number":
        return app.mode == ui.DEAL
    if meaning == "deal":
        return app.mode == ui.PLAY and app.deals == deals + 1
    if meaning == "change":
        return app.mode == mode and bytes(app.settings) != settings
    if meaning in ("digit", "random"):
        return app.mode == ui.DEAL and (bytes(app.deal_screen.digits), app.deal_screen.pos) != (digits, pos)
    if meaning == "line":
        return app.mode == ui.RULES and abs(app.scroll - scroll) == 1
    if meaning == "page":
        return app.mode == ui.RULES and abs(app.scroll - scroll) > 1
    if meaning == "cards":
        return app.mode == ui.PLAY and now[9] != held_etc
    if meaning == "cancel":
        return app.mode == ui.PLAY and held_etc[1] != NONE and app.table.held == NONE
    if meaning == "hint":  # the cursor to the hint's card, or the reason there is none
        return app.mode == ui.PLAY and now[9] != held_etc
    if meaning == "undo":  # taken back (redo has it), or the reason it may not be
        table = app.table
        return app.mode == ui.PLAY and (table.redo_n > 0 or table.message != held_etc[4])
    raise AssertionError("a meaning the test does not know: " + meaning)


def test_the_table_names_every_screen_and_key():
    assert sorted(TABLE) == sorted(SCREENS)
    for screen, row in TABLE.items():
        assert sorted(row) == sorted(KEY_COLUMNS), screen


@pytest.mark.parametrize("screen", sorted(SCREENS))
def test_every_key_on_every_screen_does_what_the_table_says(screen):
    wrong = []
    for column, meaning in sorted(TABLE[screen].items()):
        for key in KEY_COLUMNS[column]:
            app, picked, back = SCREENS[screen]()
            before = looks(app)
            pressed = press(app, key)
            if not check(meaning, before, app, picked, back, pressed):
                wrong.append((column, key, meaning, "now on screen %d" % app.mode))
    assert not wrong, wrong


def test_enter_is_a_and_start_has_its_own_key_in_the_simulator_and_on_the_page():
    from tools.build_web import config
    keys = dict(keymap.KEYS)
    assert keys["RETURN"] == "A" and "START" in keys.values()
    page = dict(config()["keys"])
    assert page["Enter"] == "A" and config()["backKey"] == "Escape"
    with open(os.path.join(os.path.dirname(__file__), "..", "web", "page.js")) as f:
        assert "CONFIG.backKey" in f.read()  # the page's Esc backs out as the window's does


def test_two_buttons_keep_the_pause_menu_a_toggle_and_a_pick():
    app, _, _ = play_nothing_held()
    from engine_core.ui.settings import S_TWO_BUTTONS
    app.settings[S_TWO_BUTTONS] = 1
    app.press(bt.B, True)  # long B: START in play
    assert app.mode == ui.PAUSE and texts.PAUSE[app.selected] == b"Resume"
    app.press(bt.B, True)  # long B in the menu: back to the game
    assert app.mode == ui.PLAY
    app.press(bt.B, True)
    for _ in range(ui.P_RULES):
        app.press(bt.B)  # short B: down
    app.press(bt.A)  # short A picks
    assert app.mode == ui.RULES
