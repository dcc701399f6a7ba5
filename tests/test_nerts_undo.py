"""Undo and redo of the player's own moves in Nerts against the computer (docs/nerts.md):
Y takes back the player's newest move while the computer's later moves stay; a long X plays
it again. The computer's moves are told in words (Spite & Malice), and in link play the other
console's player is the other player."""

import json
import random
from array import array

import pytest

from engine_core import PLAYING, games
from engine_core import reasons as why
from engine_core.games.nerts_moves import STRIDE
from engine_core.protocol import load_state, state_json
from engine_core.storage import FileStorage
from engine_core.ui import app as ui
from engine_core.ui import buttons as bt
from simulator.keys import make_app, run
from tests.test_console import console_on, keys
from tests.test_nerts import position

Nerts = games.load("nerts")


def without_clock(game):
    """The state without its clock: the game was saved in the frame after the last move, and
    its time went on."""
    state = json.loads(state_json(game))
    del state["clock_ms"]
    return state


def side(game, p):
    """Player p's own piles, card by card."""
    piles = game.piles
    return [[piles.card(q, i) for i in range(piles.size[q])] for q in range(p * STRIDE, (p + 1) * STRIDE)]


def foundation_cards(game):
    piles = game.piles
    return sorted(piles.card(f, i) for f in range(game.found0, game.found0 + game.founds)
                  for i in range(piles.size[f]))


def every_card_once(game):
    piles = game.piles
    held = sorted(piles.card(p, i) for p in range(piles.count) for i in range(piles.size[p]))
    return held == sorted(c for c in range(256) if game.is_card(c))


def put_position(app, piles):
    """The app's Nerts table set to a loaded position (tests/test_nerts.py position), in play."""
    loaded = load_state(json.dumps(position(piles)), None)
    game = app.table.game
    for i in range(len(loaded.piles.cards)):
        game.piles.cards[i] = loaded.piles.cards[i]
    for p in range(loaded.piles.count):
        game.piles.size[p] = loaded.piles.size[p]
    for i in range(len(loaded.vars)):
        game.vars[i] = loaded.vars[i]
    game.after_load()
    app.table.new_game()
    app.redraw()


# --- the engine: take_back ---

@pytest.mark.parametrize("seed", range(8))
def test_take_back_restores_the_players_own_side_and_keeps_every_later_computer_move(seed):
    """Random play of p1 against two computer players; now and then p1 takes back its newest
    move: p1's piles are exactly as before that move, the computers' piles as they were, the
    foundations lose only the card p1 put there, every card is held once; a refusal changes
    nothing; the move played again (redo) gives p1's piles as after it."""
    game = Nerts(3)
    game.deal(seed)
    rnd = random.Random(seed)
    out = array("i", [0] * Nerts.PLAYER_MAX_MOVES)
    mine = []  # (move, p1's side before it, p1's side after it), the newest last
    outcomes = {}
    for _ in range(300):
        if game.status() != PLAYING:
            break
        n = game.moves_of(0, out)
        if n and rnd.random() < 0.5:
            m = out[rnd.randrange(n)]
            before = side(game, 0)
            game.apply(m)
            mine.append((m, before, side(game, 0)))
        game.tick(rnd.choice((150, 400, 1200)))
        if mine and rnd.random() < 0.3:
            m, before, after = mine[-1]
            state = state_json(game)
            others = [side(game, p) for p in (1, 2)]
            found = foundation_cards(game)
            reason = game.take_back(0)
            outcomes[reason] = outcomes.get(reason, 0) + 1
            if reason != why.NONE:
                assert reason in (why.PLAYED_ON, why.PLAYED_SINCE, why.UNDO_TOO_OLD)
                assert state_json(game) == state, "a refused undo changes nothing"
                mine.clear()  # the earlier moves are behind this one
                continue
            assert game.taken_move == m
            assert side(game, 0) == before
            assert [side(game, p) for p in (1, 2)] == others
            moved_home = (m >> 8) & 0xFF >= game.found0 and m >> 16 != 255
            assert len(foundation_cards(game)) == len(found) - (1 if moved_home else 0)
            assert every_card_once(game)
            mine.pop()
            if rnd.random() < 0.5 and game.is_legal(m):  # redo
                game.apply(m)
                assert side(game, 0) == after
                mine.append((m, before, after))
    assert outcomes.get(why.NONE, 0) > 0, outcomes


def test_take_back_is_refused_when_the_computer_played_on_the_card():
    """p1 plays its ace of hearts to found1, p2 its two of hearts onto it: p1's ace cannot
    come back."""
    game = load_state(json.dumps(position({"p1.nerts": ["KC1", "AH1"], "p2.nerts": ["KD2", "2H2"]})), None)
    game.apply(game.parse_move("p1.nerts>found1"))
    game.apply(game.parse_move("p2.nerts>found1"))
    state = state_json(game)
    assert game.take_back(0) == why.PLAYED_ON and state_json(game) == state
    assert why.TEXTS[why.PLAYED_ON] == b"The computer has played on that pile"


def test_take_back_leaves_the_computers_moves_made_after_it():
    game = load_state(json.dumps(position({"p1.nerts": ["KC1", "AH1"], "p2.nerts": ["KD2", "AS2"]})), None)
    game.apply(game.parse_move("p1.nerts>found1"))
    game.apply(game.parse_move("p2.nerts>found2"))
    assert game.take_back(0) == why.NONE
    piles = json.loads(state_json(game))["piles"]
    assert piles["p1.nerts"][-1].lstrip("#") == "AH1" and piles["found1"] == []
    assert piles["found2"] == ["AS2"] and piles["p2.nerts"][-1].lstrip("#") == "KD2"
    assert game.take_back(0) == why.NO_UNDO  # nothing of p1's is left to take back


def test_a_later_move_no_longer_legal_without_it_puts_everything_back(monkeypatch):
    """When a later move of the computer could not be played without the player's move, the
    moves are played again as they were: the state and the journal are exactly as before."""
    game = load_state(json.dumps(position({"p1.nerts": ["KC1", "AH1"], "p2.nerts": ["KD2", "AS2"],
                                           "p2.work1": ["9S2"], "p2.work2": ["8H2"]})), None)
    for token in ("p1.nerts>found1", "p2.nerts>found2", "p2.work2>p2.work1"):
        game.apply(game.parse_move(token))
    state = state_json(game)
    log = list(game.history.log[:game.history.used])
    legal = game.is_legal
    stacked = game.parse_move("p2.work2>p2.work1")
    monkeypatch.setattr(game, "is_legal", lambda m: m != stacked and legal(m))
    assert game.take_back(0) == why.PLAYED_SINCE
    assert state_json(game) == state and list(game.history.log[:game.history.used]) == log
    assert game.history.moves == 3


# --- the console: Y and a long X in play ---

def computer_moves_since(game, start_moves):
    return game.history.moves - start_moves


def play_and_let_the_computer_move(app):
    """X A A (the hinted card move), then time until the computer has moved: p1's side
    before and after its move."""
    table = app.table
    game = table.game
    before = side(game, 0)
    run(app, "X A A")
    after = side(game, 0)
    assert after != before and game.history.moves == 1, "the hint was a card move"
    for _ in range(200):
        run(app, "TICK")
        if game.history.moves > 1:
            break
    assert game.mover(game.history.last_move()) == 1, "the computer moved after it"
    return before, after


def test_y_in_nerts_takes_back_your_move_not_the_computers_and_a_long_x_puts_it_back():
    app = make_app(320, 240, "nerts", 3)
    game = app.table.game
    before, after = play_and_let_the_computer_move(app)
    theirs = side(game, 1)
    found = foundation_cards(game)
    run(app, "Y")
    assert side(game, 0) == before, "your own move is taken back"
    assert side(game, 1) == theirs and foundation_cards(game) == found, "the computer's move stays"
    assert every_card_once(game) and app.table.message != why.NO_UNDO
    run(app, "LONG_X")  # redo
    assert side(game, 0) == after and side(game, 1) == theirs and every_card_once(game)
    run(app, "Y Y")
    assert side(game, 0) == before and app.table.message == why.NO_UNDO


def test_y_says_the_computer_has_played_on_that_pile_and_changes_nothing():
    app = make_app(320, 240, "nerts", 1)
    app.settings[ui.S_SPEED] = 1  # Steady: the computer takes its time, and sees the ace first
    app.configure_computer(app.table.game)
    put_position(app, {"p1.nerts": ["KC1", "AH1"], "p2.nerts": ["KD2", "2H2"]})
    table = app.table
    game = table.game
    table.hand.cursor = table.slots.slot_of[game.pile_id("p1.nerts")]
    run(app, "LONG_A")  # the ace home
    found1 = game.pile_id("found1")
    assert game.piles.size[found1] == 1 and game.piles.top(found1) == 13  # AH1
    for _ in range(200):
        run(app, "TICK")
        if game.piles.size[game.pile_id("found1")] == 2:
            break
    assert game.piles.size[game.pile_id("found1")] == 2, "the computer played its two on it"
    state = state_json(game)
    run(app, "Y")
    assert table.message == why.PLAYED_ON and state_json(game) == state


@pytest.mark.parametrize("game", ["aces_up", "sir_tommy", "casket"])
def test_a_long_x_redoes_what_y_undid(game):
    app = make_app(240, 135, game, 11)
    table = app.table
    states = [state_json(table.game)]
    for _ in range(2):
        run(app, "X A A")
        states.append(state_json(table.game))
    run(app, "Y Y")
    assert state_json(table.game) == states[0]
    run(app, "LONG_X")
    assert state_json(table.game) == states[1] and app.mode == ui.PLAY
    run(app, "LONG_X")
    assert state_json(table.game) == states[2]
    run(app, "LONG_X")
    assert table.message == why.NO_REDO and state_json(table.game) == states[2]


def test_nerts_undone_by_y_is_continued_after_a_restart_and_undoes_on(tmp_path):
    """The journal after a take-back is saved and replays at resume; Y goes on taking back
    the player's own moves in the resumed game. Deal 6's first three hints are card moves
    (no flip of the stock, which the second A would repeat), so each X A A is one move."""
    console = console_on(FileStorage(str(tmp_path)))
    console.app.settings[ui.S_SPEED] = 1  # Steady, the pace this deal's moves were chosen at
    console.open_game("nerts", 6)
    table = console.app.table
    sides = [side(table.game, 0)]
    for _ in range(3):
        keys(console, "X A A " + "TICK " * 30)
        sides.append(side(table.game, 0))
    keys(console, "Y")
    assert side(table.game, 0) == sides[-2]
    keys(console, "WAIT")  # play pauses: saved
    again = console_on(FileStorage(str(tmp_path)))
    assert again.app.resumable and again.app.mode == ui.TITLE
    assert without_clock(again.app.table.game) == without_clock(table.game)  # (saved after Y)
    keys(again, "A")  # Continue
    assert again.app.mode == ui.PLAY
    keys(again, "Y")
    assert side(again.app.table.game, 0) == sides[-3] and every_card_once(again.app.table.game)


# --- words ---

def test_in_link_play_undo_speaks_of_the_other_player_not_the_computer():
    from tests.test_link_ui import settle, start
    wire, host, guest = start("spite_malice", seed=5, faults=False)
    mover = host if host.table.game.turn() == 0 else guest
    other = guest if mover is host else host
    run(mover, "X A A")
    settle(wire, (host, guest))
    run(other, "Y")  # the other console's move is not this player's to take back
    assert other.table.message == why.PEER_PLAYED
    assert why.TEXTS[other.table.message] == b"The other player has played: no undo"


def test_the_computers_move_in_spite_and_malice_is_told_in_words_that_fit_the_narrowest_screen():
    from engine_core.ui.table import COMPUTER_STEP_MS
    app = make_app(240, 135, "spite_malice", 4)
    table = app.table
    game = table.game
    for _ in range(60):  # the player's hints until one ends the turn
        for button in (bt.X, bt.A, bt.A):
            app.press(button)
        if table.computer_ms:
            break
    told = []
    while table.computer_ms:
        app.tick(COMPUTER_STEP_MS)
        assert table.message == why.SAID
        said = bytes(table.said[1:table.said[0] + 1])
        rank = "Ace Two Three Four Five Six Seven Eight Nine Ten Jack Queen King".split()[game.bot_card % 13]
        suit = ("spades", "hearts", "diamonds", "clubs")[game.bot_card // 13 % 4]
        assert said.startswith(("%s of %s to " % (rank, suit)).encode()), said
        assert 4 + 6 * len(said) <= app.screen.width  # the strip's letters are 6 pixels
        told.append(said)
    assert told and not any(b"CPU" in t for t in told)


# --- redo on a key ---

def test_in_the_simulator_r_or_holding_x_redoes_and_the_key_map_says_so(monkeypatch):
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    import pygame

    from simulator.window import Window, help_lines
    from tests.test_simulator import window_keys
    app = make_app(240, 240, "aces_up", 14)
    window = Window(app.screen, scale=1, visible=False)
    keys = window_keys(app, window)
    table = app.table
    start = state_json(table.game)
    run(app, "X A A")
    moved = state_json(table.game)
    assert moved != start
    run(app, "Y")
    keys.event(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_r), 0)
    assert state_json(table.game) == moved, "R redoes"
    run(app, "Y")
    keys.event(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_x), 1000)
    keys.repeat(1000 + bt.LONG_PRESS_MS)
    keys.event(pygame.event.Event(pygame.KEYUP, key=pygame.K_x), 1500)
    assert state_json(table.game) == moved, "holding X redoes"
    assert any("redo" in what for _, what in help_lines(None))
    window.close()


@pytest.mark.parametrize("board", ["picosystem", "pico_lcd_13", "odroid_go"])
def test_boards_with_x_and_y_report_a_long_x_and_the_app_redoes_on_it(board):
    import boards
    from firmware.buttons import LONG, Buttons
    from tests.test_buttons import Raw, events
    from tests.test_buttons import run as poll
    module = boards.load(board)
    raw = Raw()
    buttons = Buttons(raw, long_mask=module.LONG_PRESS, long_as=module.LONG_AS)
    poll(buttons, raw, {0: bt.mask(bt.X), 700: 0}, 800)
    got = events(buttons)
    assert got == [bt.X | LONG], got
    app = make_app(module.WIDTH, module.HEIGHT, "aces_up", 14)
    run(app, "X A A")
    moved = state_json(app.table.game)
    run(app, "Y")
    app.press(got[0] & ~LONG, (got[0] & LONG) != 0)
    assert state_json(app.table.game) == moved


def test_the_rules_page_and_the_web_page_name_redo():
    from engine_core.ui import texts
    from tools.build_web import key_legend
    assert b"redo" in texts.RULES_KEYS and b"Long X" in texts.RULES_KEYS
    from engine_core.games import nerts
    assert b"Redo puts the move back" in nerts.RULES_PAGE  # (by name: the keys are the board's own paragraph)
    assert "R: long X (redo)" in key_legend()
