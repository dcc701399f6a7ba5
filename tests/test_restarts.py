"""Restart equivalence: the console stopped, or its power cut mid-save, at random points of
random sessions, and made again from its records, gives back the same game, undo and redo
history, settings and statistics, and plays on identically (tools/reliability/restarts.py)."""

import pytest

from engine_core.console import Console
from tools.reliability import restarts, soak

QUICK = soak.QUICK


@pytest.mark.parametrize("name", restarts.interface_games())
def test_every_game_comes_back_exactly_after_restarts_at_random_points(name):
    counts = restarts.run([name], QUICK["restart_sessions"], seed=1)
    assert counts["failures"] == 0, counts.get("first")
    assert counts["sessions"] == QUICK["restart_sessions"]
    assert counts["restarts"] > QUICK["restart_sessions"]  # two a session, on average
    assert counts["cuts"] > QUICK["restart_sessions"] // 5


def test_restart_sessions_on_micropython_come_back_exactly_too():
    counts = soak.mpy_restart_suite(QUICK["mpy_restart_sessions"], seed=3)
    assert counts["failures"] == 0, counts.get("first")
    assert counts["sessions"] == QUICK["mpy_restart_sessions"] * len(restarts.interface_games())
    assert counts["restarts"] > 0 and counts["cuts"] > 0


def test_the_restart_check_catches_a_console_that_forgets_the_redo_list(monkeypatch):
    monkeypatch.setattr(Console, "redo_to_table", lambda self, table: None)
    counts = restarts.run(["aces_up"], 40, seed=1)
    assert counts["failures"] > 0 and "redo list" in counts["first"]


def test_the_restart_check_catches_a_game_set_aside_at_start(monkeypatch):
    """As a Nerts game whose move count went below 0 was."""
    from engine_core import save
    monkeypatch.setattr(save, "peek_game", lambda buf: None)
    counts = restarts.run(["nerts"], 20, seed=1)
    assert counts["failures"] > 0 and "game" in counts["first"]


def test_the_restart_check_catches_a_restored_game_that_differs(monkeypatch):
    from engine_core.games.nerts import Nerts
    monkeypatch.setattr(Nerts, "after_restore", lambda self: self.vars.__setitem__(1, 12345))
    counts = restarts.run(["nerts"], 20, seed=1)
    assert counts["failures"] > 0
