"""Restart equivalence: the console stopped, or its power cut mid-save, at random points of
random sessions, and made again from its records, gives back the same game, undo and redo
history, settings and statistics, and plays on identically (tools/reliability/restarts.py)."""

import pytest

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
    from engine_core.ui.app import App
    resume = App.resume_game
    monkeypatch.setattr(App, "resume_game", lambda self, game, moves, redo_moves, redo_n, undoable, cursor:
                        resume(self, game, moves, redo_moves, 0, undoable, cursor))
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


def fresh_counts():
    return {"sessions": 0, "restarts": 0, "cuts": 0, "failures": 0}


@pytest.mark.parametrize("name,seed", [("spite_malice", 523), ("spite_malice", 235),
                                       ("nerts", 2210)])
def test_a_computer_level_or_speed_changed_mid_game_plays_on_the_same_after_a_restart(name, seed):
    """These sessions change the computer's level or speed in the settings mid-game: the
    game in play went on at the level it was dealt with, the resumed one at the new level."""
    assert restarts.session(name, seed, fresh_counts()) == ""


@pytest.mark.parametrize("name,seed", [("casket", 1455), ("nerts", 1737), ("nerts", 2458)])
def test_the_console_a_session_goes_on_with_has_counted_the_moves_played_on(name, seed):
    """In these sessions the steps played on after a restart leave the journal as long as
    before (moves made, then as many undone): the console the session goes on with must still
    count them, or the next restart brings back another move count."""
    counts = fresh_counts()
    assert restarts.session(name, seed, counts) == ""
    assert counts["restarts"] >= 2


def test_the_sessions_that_failed_at_the_soaks_scale_come_back_exactly_on_micropython_too():
    from tests.helpers import run_mpy_ok
    cases = [("casket", 1455), ("nerts", 1737), ("nerts", 2458), ("spite_malice", 523),
             ("spite_malice", 235), ("nerts", 2210)]
    code = ("from tools.reliability import restarts\n"
            "for name, seed in %r:\n"
            "    counts = {'sessions': 0, 'restarts': 0, 'cuts': 0, 'failures': 0}\n"
            "    print(name, seed, repr(restarts.session(name, seed, counts)), counts['restarts'])\n"
            % (cases,))
    lines = run_mpy_ok(code).strip().split("\n")
    assert len(lines) == len(cases)
    for (name, seed), line in zip(cases, lines):
        assert line.startswith("%s %d '' " % (name, seed)), line
        assert int(line.split()[-1]) >= 2  # a restart played on, and one after it
