"""Flush timings on a real board, for each palette expansion the board can run.

    >>> from firmware.bench import run; run("picosystem")
    expander  full screen us  40x56 rectangle us
    viper     ...

The host can only count WebAssembly fuel (make bench); this measures the board itself, so
that the choice made at import (viper first, then framebuf) can be checked on the chip.
"""

import time

from firmware.buttons import elapsed
from firmware.panel import EXPANDER

REPEATS = 5


def expanders():
    """The expansions this MicroPython can run, fastest expected first."""
    names = []
    if EXPANDER == "viper":
        names.append("viper")
    try:
        import framebuf  # noqa: F401
        names.append("framebuf")
    except ImportError:
        pass
    names.append("plain")
    return names


def best_us(panel, buf, width, palette, x, y, w, h):
    best = -1
    for _ in range(REPEATS):
        t = time.ticks_us()
        panel.send(buf, width, palette, x, y, w, h)
        us = elapsed(time.ticks_us(), t)
        if best < 0 or us < best:
            best = us
    return best


def run(board_name):
    """Print the best of five flushes of a whole screen and of a card-sized rectangle."""
    from array import array

    import boards
    from firmware.hardware import Hardware
    from firmware.panel import Panel
    board = boards.load(board_name)
    hw = Hardware(board)
    hw.panel.init()
    hw.brightness(100)
    w = board.WIDTH
    h = board.HEIGHT
    buf = bytearray(w * h // 2)
    for i in range(len(buf)):
        buf[i] = (i * 7) & 255
    palette = array("H", range(0, 65536, 4096))
    print("expander  full screen us  40x56 rectangle us")
    results = []
    for name in expanders():
        panel = Panel(hw.spi, hw.dc, hw.cs, hw.rst, board, name)
        full = best_us(panel, buf, w, palette, 0, 0, w, h)
        card = best_us(panel, buf, w, palette, 13, 21, 40, 56)
        print("%-9s %14d %19d" % (name, full, card))
        results.append((name, full, card))
    return results
