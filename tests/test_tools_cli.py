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
