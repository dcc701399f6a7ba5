"""A game module spells engine_core/layout.py's words as constants of its own, so that its
LAYOUT tuples are constants the frozen firmware keeps in flash (built from imported names, they
would be made in RAM at import: 12.5 KB on the Pico). The copies must say what layout.py says."""

import importlib

import pytest

from engine_core import games, layout


def shared_words(module):
    return [name for name in dir(module)
            if name.isupper() and not name.startswith("_") and hasattr(layout, name)
            and isinstance(getattr(module, name), int) and isinstance(getattr(layout, name), int)]


def layout_module(name):
    """The module that spells the game's LAYOUT: its own, or its NAME_layout beside it."""
    module = importlib.import_module(games.load(name).__module__)
    try:
        return importlib.import_module(module.__name__ + "_layout")
    except ImportError:
        return module


@pytest.mark.parametrize("name", games.names())
def test_a_games_copies_of_the_layout_words_equal_layout_py(name):
    module = layout_module(name)
    assert module.LAYOUT is games.layout(name)
    for word in shared_words(module):
        assert getattr(module, word) == getattr(layout, word), (name, word)


def test_the_games_that_copy_the_words_copy_the_ones_their_layout_uses():
    copied = [name for name in games.names() if shared_words(layout_module(name))]
    assert {"aces_up", "sir_tommy", "casket", "spite_malice"} <= set(copied)
