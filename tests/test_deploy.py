"""make build: every module compiled for the board's chip, a main.py, a freezing manifest;
make flash: the mpremote command that copies the build."""

import os
import subprocess
import sys

import pytest

import boards
from tools import deploy
from tools.mpy import ROOT

# mpy v6 header: b"M", version, then the native architecture in the top bits of byte 2.
ARCH_CODE = {"armv6m": 4, "xtensawin": 10}


@pytest.mark.parametrize("name", ["picosystem", "odroid_go"])
def test_build_compiles_every_module_for_the_boards_chip(tmp_path, name):
    board = boards.load(name)
    out = deploy.build(name, str(tmp_path))
    compiled = sorted(os.path.relpath(os.path.join(d, f), out)[:-4]
                      for d, _, fs in os.walk(out) for f in fs if f.endswith(".mpy"))
    assert compiled == sorted(p[:-3] for p in deploy.sources(name))
    assert "boards/%s" % name in compiled
    assert not [c for c in compiled if c.startswith("boards/") and c not in ("boards/__init__", "boards/" + name)]
    with open(os.path.join(out, "firmware", "expand_viper.mpy"), "rb") as f:
        header = f.read(4)
    assert header[0:2] == b"M\x06"
    assert header[2] >> 2 == ARCH_CODE[deploy.ARCH[board.PORT]], "native code for the board's chip"
    with open(os.path.join(out, "main.py")) as f:
        assert "start(%r)" % name in f.read()
    with open(os.path.join(out, "manifest.py")) as f:
        manifest = f.read()
    assert 'package("firmware"' in manifest and name + ".py" in manifest


def test_flash_copies_the_build_with_mpremote_and_resets():
    command, folder = deploy.flash_command("pico_lcd_13", "/dev/ttyACM0")
    assert os.path.basename(command[0]) == "mpremote"
    assert command[1:3] == ["connect", "/dev/ttyACM0"]
    assert command[-2:] == ["+", "reset"]
    assert folder.endswith(os.path.join("build", "pico_lcd_13"))


def test_flash_without_a_port_says_how_to_give_one():
    run = subprocess.run([sys.executable, os.path.join(ROOT, "tools", "deploy.py"), "flash", "picosystem"],
                         capture_output=True, text=True)
    assert run.returncode != 0 and "PORT=" in run.stderr
