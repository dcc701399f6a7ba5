"""Every tool answers --help with its usage and does nothing else."""

import glob
import os
import subprocess
import sys

import pytest

from tools.mpy import ROOT


def tools_with_a_main():
    names = []
    paths = glob.glob(os.path.join(ROOT, "tools", "*.py")) + glob.glob(os.path.join(ROOT, "tools", "*", "*.py"))
    for path in sorted(paths):
        with open(path) as f:
            if '__name__ == "__main__"' in f.read():
                names.append(os.path.relpath(path, os.path.join(ROOT, "tools")))
    return names


def test_the_tools_are_grouped_by_purpose():
    """Only the everyday tools stay on the top floor; the rest live in folders by purpose."""
    top = sorted(os.path.basename(p) for p in glob.glob(os.path.join(ROOT, "tools", "*.py")))
    assert len(top) <= 13, top
    for folder in ("solvers", "bench", "device", "players", "reliability"):
        assert os.path.isfile(os.path.join(ROOT, "tools", folder, "__init__.py"))


def git_status():
    return subprocess.run(["git", "status", "--porcelain", "--untracked-files=all", "--", "docs", "tools",
                           "README.md", "engine_core"], cwd=ROOT,
                          capture_output=True, text=True).stdout


@pytest.mark.parametrize("tool", tools_with_a_main())
def test_every_tool_answers_help_at_once_without_side_effects(tool):
    before = git_status()
    module = "tools." + tool[:-len(".py")].replace("/", ".")
    result = subprocess.run([sys.executable, "-m", module, "--help"], cwd=ROOT,
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    assert "usage" in result.stdout.lower() or "python -m " + module in result.stdout
    assert git_status() == before


# make play (tools/play.py): a random deal unless a seed is given, and `show`.

def run_play(text):
    return subprocess.run([sys.executable, "-m", "tools.play"], input=text, cwd=ROOT,
                          capture_output=True, text=True, timeout=60)


def test_play_deals_a_random_number_unless_one_is_given_and_says_which():
    import json
    import re
    seeds = []
    for _ in range(2):
        result = run_play("new aces_up\nstate\n")
        lines = result.stdout.splitlines()
        assert result.returncode == 0 and lines[0] == "ok" and len(lines) == 2  # stdout: the protocol
        state = json.loads(lines[1])
        said = re.fullmatch(r"deal (\d+): 'new aces_up seed=(\d+)' deals it again\n", result.stderr)
        assert said and int(said.group(1)) == state["seed"] == int(said.group(2)), result.stderr
        again = run_play("new aces_up seed=%d\nstate\n" % state["seed"])
        assert again.stdout.splitlines()[1] == lines[1] and again.stderr == ""  # replayed, no note
        seeds.append(state["seed"])
    assert seeds[0] != seeds[1]  # two random deals (one chance in ten million to be the same)
    given = [run_play("new aces_up seed=7\nstate\n").stdout for _ in range(2)]
    assert given[0] == given[1] and json.loads(given[0].splitlines()[1])["seed"] == 7


def test_play_random_deals_keep_the_other_options():
    import json
    import random
    from tools.play import PlaySession
    notes = []
    session = PlaySession(notes.append, random.Random(5))
    assert session.command("new nerts players=3") == "ok"
    state = json.loads(session.command("state"))
    assert len(state["score"]) == 3 and notes == ["deal %d: 'new nerts players=3 seed=%d' deals it again"
                                                  % (state["seed"], state["seed"])]
    assert session.command("new aces_up winnable=1") == "ok"
    assert "winnable=1 seed=" in notes[-1]
    assert session.command("new aces_up bogus=1").startswith("error: unknown option")
    assert len(notes) == 2  # no deal, nothing said


@pytest.mark.parametrize("game", ["aces_up", "sir_tommy", "casket", "spite_malice", "nerts"])
def test_play_show_draws_every_pile_of_every_game(game):
    import json
    from engine_core.protocol import ProtocolSession
    result = run_play("new %s seed=3\nshow\nstate\n" % game)
    lines = result.stdout.splitlines()
    assert lines[0] == "ok"
    state = json.loads(lines[-1])
    table = lines[1:-1]
    assert table[0].startswith("%s  deal 3  rules %d  playing" % (game, state["rules"]))
    assert len(table) == 1 + len(state["piles"])
    for line, (name, cards) in zip(table[1:], state["piles"].items()):
        words = line.split()
        assert words[0] == name
        up = [c for c in cards if not c.startswith("#")]
        down = len(cards) - len(up)
        assert words[1:] == (["(%d" % down, "down)"] if down else []) + up or (words[1:] == ["-"] and not cards)
    session = ProtocolSession()
    assert session.command("show").startswith("error: unknown command")  # the board's protocol is unchanged


def test_play_show_needs_a_game_and_help_lists_it():
    result = run_play("show\nhelp\nnew aces_up seed=1\nshow me\n")
    lines = result.stdout.splitlines()
    assert lines[0].startswith("error: no game")
    assert "| show |" in lines[1]
    assert lines[3] == "error: show takes no argument"
