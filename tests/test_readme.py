"""The README's command blocks work as written: each block is run, or (for a window or a
board) checked with make -n; a block this test does not know fails it."""

import os
import re
import subprocess
import sys

from tools.mpy import ROOT


def blocks():
    with open(os.path.join(ROOT, "README.md")) as f:
        return re.findall(r"```\n(.*?)```", f.read(), re.S)


def test_the_readme_has_the_blocks_this_test_knows():
    assert len(blocks()) == 6


def test_the_make_verbs_of_the_readme_exist():
    for block in blocks():
        for line in block.splitlines():
            if line.startswith("make "):
                words = line.split("#")[0].split()
                result = subprocess.run(["make", "-n"] + words[1:], cwd=ROOT, capture_output=True, text=True)
                assert result.returncode == 0, (line, result.stderr)


def test_the_headless_commands_of_the_readme_write_their_files(tmp_path):
    block = [b for b in blocks() if "--headless" in b][0]
    env = dict(os.environ, SDL_VIDEODRIVER="dummy")  # the installed package: from any folder
    for line in block.strip().splitlines():
        words = line.split()
        assert words[0] == "python"
        args = [sys.executable] + [a.strip('"') for a in re.findall(r'"[^"]*"|\S+', " ".join(words[1:]))]
        subprocess.run(args, cwd=tmp_path, env=env, check=True, timeout=120)
    assert (tmp_path / "out.png").stat().st_size > 0 and (tmp_path / "frame.bin").stat().st_size > 0


def test_the_protocol_transcript_of_the_readme_is_what_play_answers():
    block = [b for b in blocks() if b.startswith("$ make play")][0]
    lines = block.strip().splitlines()[1:]
    commands = [line for line in lines if line.split()[0] in ("new", "moves", "move", "state", "undo", "hint", "show")]
    result = subprocess.run([sys.executable, "-m", "tools.play"], input="\n".join(commands) + "\n",
                            capture_output=True, text=True, timeout=60)
    answers = result.stdout.strip().splitlines()
    expected = [line for line in lines if line not in commands]
    assert len(answers) == len(expected)
    for got, want in zip(answers, expected):
        assert got.startswith(want.replace(" ...}", "")) if want.endswith("...}") else got == want


def test_near_the_top_the_readme_says_how_a_board_gets_the_console():
    with open(os.path.join(ROOT, "README.md"), encoding="utf-8") as f:
        top = f.read().split("## Screens", 1)[0]  # before the first pictures
    for needed in ("make build BOARD=", "make firmware BOARD=", "make flash BOARD=",  # how they differ
                   "first firmware build takes minutes", "no wiring", "Waveshare",
                   "ESP32", "esptool.py", "make flash BOARD=odroid_go PORT=/dev/ttyUSB0"):
        assert needed in top, needed
