"""Why a move is refused: each game's refusal() is its one decision tree, and the screen's and
the protocol's words come from the reasons table (engine_core/reasons.py and a game's WORDS)."""

import functools
import importlib
import random
from array import array

import pytest

from engine_core import PLAYING, cards, games
from engine_core import reasons as why
from engine_core.game import ACTION


def codes():
    return {name: getattr(why, name) for name in dir(why) if name.isupper() and isinstance(getattr(why, name), int)}


def game_modules():
    """Every module that declares a game's WORDS (a game's own or a part of it)."""
    out = []
    for name in games.names():
        cls = games.load(name)
        out.append((name, importlib.import_module(cls.__module__)))
    out.append(("nerts", importlib.import_module("engine_core.games.nerts_refusal")))
    return out


def test_every_code_has_the_screens_words_and_the_protocols():
    assert len(why.TEXTS) == len(why.SAYS) == max(codes().values()) + 1
    for text in why.TEXTS:
        assert len(text) <= 38, text


@pytest.mark.parametrize("name,module", game_modules())
def test_a_games_copies_of_the_reason_codes_equal_reasons_py(name, module):
    copied = [word for word in dir(module) if word.startswith("WHY_")]
    for word in copied:
        assert getattr(module, word) == codes()[word[4:]], (name, word)
    for entry in getattr(module, "WORDS", ()):
        assert len(entry) == 3 and entry[0] in codes().values(), (name, entry)
        assert entry[1] is None or len(entry[1]) <= 38, (name, entry)


@functools.lru_cache(maxsize=None)
def reasons_given(name):
    """The reasons the game gives for every illegal move over random play, after checking
    that each has words on the screen and a complete error line for the protocol."""
    cls = games.load(name)
    game = cls(cls.MIN_PLAYERS, 0)
    game.bots = False
    rnd = random.Random(name)
    out = array("i", [0] * game.MAX_MOVES)
    seen = set()
    for seed in range(3):
        game.deal(seed)
        for step in range(60):
            candidates = [ACTION << 16 | a << 8 | p for a in range(len(game.ACTIONS)) for p in range(game.players)]
            candidates += [s << 16 | d << 8 for s in range(game.piles.count) for d in range(game.piles.count)]
            for move in candidates:
                if game.is_legal(move):
                    continue
                code = game.refusal(move)
                text = game.explain(move)
                assert code != why.NONE and why.screen_words(game, code), (move, text)
                assert text and "{" not in text and "}" not in text, (name, move, text)
                seen.add(code)
            n = game.legal_moves(out)
            if n == 0 or game.status() != PLAYING:
                break
            game.apply(out[rnd.randrange(n)])
    return frozenset(seen)


@pytest.mark.parametrize("name", games.names())
def test_every_illegal_move_has_a_reason_in_both_words(name):
    assert len(reasons_given(name)) >= 4


# What the table itself says when a pick-up or a long press finds nothing to do.
TABLE_REASONS = (why.NO_MOVE, why.NO_HOME, why.EMPTY, why.NOT_YOURS, why.OVER)


def pile_words(name):
    """What the rule profile calls the piles cards go up to (docs/rules/, the game's page)."""
    return {"aces_up": "discard", "spite_malice": "centre stack"}.get(name, "foundation")


@pytest.mark.parametrize("name", games.names())
def test_a_games_words_use_its_own_pile_names(name):
    # Every reason the game or its table can give, in this game's words: Aces Up's pile is
    # the discard and Spite & Malice's are centre stacks; neither has foundations.
    cls = games.load(name)
    game = cls(cls.MIN_PLAYERS, 0)
    if pile_words(name) != "foundation":
        for code in reasons_given(name) | set(TABLE_REASONS):
            assert b"foundation" not in why.screen_words(game, code).lower(), (name, code)
            assert "foundation" not in why.protocol_words(game, code), (name, code)


def test_spite_malice_says_centre_stack_when_a_long_press_finds_no_home():
    # Long A on a hand card that no centre stack takes: the strip names the centre stacks.
    from simulator.keys import make_app, run
    app = make_app(240, 240, "spite_malice", 3)
    run(app, "")
    table = app.table
    game = table.game
    hand = game.pile_id("p1.hand")
    slot = table.slots.slot_of[hand]
    for i in range(game.piles.size[hand]):
        card = game.piles.card(hand, i)
        if not any(game.is_legal(hand << 16 | game.pile_id("center" + str(k)) << 8 | cards.kind(card))
                   for k in range(1, 4)):
            break
    else:
        pytest.fail("every hand card fits a centre stack")
    table.hand.cursor = slot
    table.hand.cursor_index = i
    table.press_long_a()
    words = why.screen_words(game, table.message)
    assert b"centre stack" in words.lower(), words
