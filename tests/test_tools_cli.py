"""Every tool answers --help with its usage and does nothing else."""

import glob
import os
import subprocess
import sys

import pytest

from tools.mpy import ROOT


def tools_with_a_main():
    names = []
    for path in sorted(glob.glob(os.path.join(ROOT, "tools", "*.py"))):
        with open(path) as f:
            if '__name__ == "__main__"' in f.read():
                names.append(os.path.basename(path))
    return names


def git_status():
    return subprocess.run(["git", "status", "--porcelain", "--untracked-files=all", "--", "docs", "tools",
                           "README.md", "engine_core"], cwd=ROOT,
                          capture_output=True, text=True).stdout


@pytest.mark.parametrize("tool", tools_with_a_main())
def test_every_tool_answers_help_at_once_without_side_effects(tool):
    before = git_status()
    result = subprocess.run([sys.executable, os.path.join("tools", tool), "--help"], cwd=ROOT,
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    assert "usage" in result.stdout.lower() or "python tools/" in result.stdout
    assert git_status() == before
