"""A known picture through a board's panel driver on the emulated Pico, decoded by the panel's
model: the check of the chip-side decoders (the SSD1306's I2C, the ST7735's SPI with its
offsets) that needs no game on the screen.

    python -m tools.device.pico_pattern pico_ssd1306

Boots the board's firmware, stops whatever main.py started (Ctrl-C; a traceback there is
reported, not fatal: a board whose screen the engine cannot draw yet still boots to the
REPL), then runs firmware.panel_check.pattern(BOARD, 0) (the whole screen) and (BOARD, 1)
(one rectangle changed and sent alone) at the REPL. Each step's glass, decoded from the
captured bytes, must equal what the host computes for the same step (panel_check.frame).
"""

import argparse
import re

import boards
from firmware import panel_check
from support.oled_model import expected_mono
from support.panel_model import expected_glass
from tools.device import pico

STEPS = (0, 1)
SHOW_US = re.compile(r"pattern (\d) done: show (\d+) us")


def expected(board, step):
    """The glass the host computes for `step`, as the panel's model reports it."""
    mono = getattr(board, "MONO", False)
    screen = panel_check.frame(board.WIDTH, board.HEIGHT, mono, step)
    if mono:
        return expected_mono(screen.buf, board.WIDTH, board.HEIGHT)
    return expected_glass(screen.buf, board.WIDTH, board.HEIGHT, screen.palette, board.GLASS, board.MADCTL)


def script(board):
    s = pico.Script(board)
    s.add({"op": "connect", "timeout_ms": pico.BOOT_TIMEOUT_MS})
    s.wait(1500, "boot")
    s.interrupt()
    s.repl("from firmware.panel_check import pattern")
    for step in STEPS:
        s.repl("pattern(%r, %d)" % (board_name_of(board), step), expect="pattern %d done" % step,
               timeout_ms=pico.PRESS_TIMEOUT_MS)
        s.settle("pattern %d" % step, first_ms=0)
    return s


def board_name_of(board):
    for name in boards.NAMES:
        if boards.load(name) is board:
            return name
    raise ValueError("not a board module")


def check(board_name):
    """(run, {step: (device glass, expected glass, marker)}, {step: show() us on the chip})."""
    board = boards.load(board_name)
    run = pico.run(board_name, script(board))
    glasses = dict((m["name"], (m, g)) for m, g in run.frames())
    steps = {}
    for step in STEPS:
        marker, glass = glasses["pattern %d" % step]
        steps[step] = (glass, expected(board, step), marker)
    show_us = dict((int(a), int(b)) for a, b in SHOW_US.findall(run.console))
    return run, steps, show_us


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("board", help="an RP2040 board with a built firmware")
    args = parser.parse_args()
    try:
        run, steps, show_us = check(args.board)
    except (pico.PicoError, ValueError) as e:
        raise SystemExit("pico_pattern: %s" % e)
    for step, (glass, want, marker) in sorted(steps.items()):
        flushes = marker.get("flushes") or [[0, 0, 0]]
        print("step %d: %s; show() %d us on the chip, the last flush %d bytes in %.2f ms of the bus"
              % (step, "equal" if glass == want else "DIFFERENT", show_us.get(step, -1),
                 flushes[-1][2], (flushes[-1][1] - flushes[-1][0]) / 1e6))
    print("decoder errors: %s; bus %.0f Hz" % (run.errors[:3] or "none", run.end.get("spi_hz", 0)))


if __name__ == "__main__":
    main()
