"""The console's firmware on an emulated Raspberry Pi Pico (rp2040js): the firmware that
`make firmware` builds boots, every game plays through the real rp2 port of MicroPython with
its bytes decoded by the panel model, every frame equals the simulator's, no traceback reaches
the USB REPL, and a soft reset resumes the game from the flash's filesystem.

These run with `make test-device` (PICO_TESTS=1), which builds the firmware first; `make test`
skips them and says why. PICO_REQUIRED=1 (CI) turns a skip into a failure.
"""

import os

import pytest

import boards
from tools import pico, pico_scenario

BOARDS = ("pico_lcd_13", "pico_lcd_114")


def need_device(board_name):
    """Skip (or, with PICO_REQUIRED=1, fail) when the emulated Pico cannot run."""
    reason = None
    if os.environ.get("PICO_TESTS") != "1":
        reason = "the emulated-Pico tests run with `make test-device`"
    else:
        reason = pico.missing()
        if reason is None:
            try:
                pico.firmware_facts(board_name)
            except pico.PicoError as e:
                reason = str(e)
    if reason is None:
        return
    if os.environ.get("PICO_REQUIRED") == "1":
        pytest.fail("emulated-Pico test not run: " + reason)
    pytest.skip(reason)


@pytest.mark.parametrize("game", pico_scenario.GAMES)
@pytest.mark.parametrize("board_name", BOARDS)
def test_every_frame_on_the_chip_equals_the_simulators(board_name, game):
    need_device(board_name)
    board = boards.load(board_name)
    result, compared = pico_scenario.play(board_name, game)
    assert result.tracebacks() == 0, result.console[-3000:]
    assert result.errors == []
    assert result.end["cs_high_bytes"] == 0
    names = [name for name, _, _ in compared]
    assert names[0] == "boot" and names[-1] == "soft reset"
    assert "hardware" in names
    differing = [(i, name) for i, (name, device, want) in enumerate(compared)
                 if want is not None and device != want]
    assert differing == [], "frames that differ from the simulator's: %s" % differing
    # The hardware screen was drawn (whole, all of the glass) and left again.
    hardware = [device for name, device, _ in compared if name == "hardware"][0]
    assert all(v >= 0 for row in hardware for v in row)
    assert hardware != compared[names.index("hardware") - 1][1]
    # The soft reset came back with the game saved: the title offers Continue.
    assert compared[-1][1] != compared[0][1]
    assert board.WIDTH * board.HEIGHT * 2 <= result.end["spi_bytes"]
