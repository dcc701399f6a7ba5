"""The hobby displays' boards on an emulated Raspberry Pi Pico (rp2040js, tools/device/pico.py):
the console's own session on each, its frames and its heap (make bench).

The session is pico_lcd_13's (tools/bench/bench_pico.py) with A for its undo and hint, which
six-button boards have no X and Y for: from the title into Aces Up and its moves; then the
same heap walk, firmware.bench.heap(BOARD). Flash in a cycle, as
rp2040js counts: estimates. Needs each board's built firmware (make firmware BOARD=...);
a board without one is left out and said so.
"""

import sys

from tools.bench.bench_pico import figures
from tools.device import pico

TITLE = "The hobby displays on the emulated Pico: the console's session and heap"
BOARDS = ("pico_ssd1306", "pico_sh1106", "pico_st7735", "pico_lcd_18")
KEYS = "A A A RIGHT A A RIGHT RIGHT A A A A LEFT LEFT"  # D-pad, A and B: every board has them


def bus(board):
    """The board's bus to its panel: the I2C rate its module asks for, the SPI clock the chip
    gives it."""
    if getattr(board, "I2C", None):
        return "I2C%d at %d kHz" % (board.I2C[0], board.I2C[1] // 1000)
    return "SPI%d at %.3g MHz" % (board.SPI[0], pico.spi_hz(board) / 1e6)


def whole_bytes(board):
    """The pixel bytes of a whole frame: one bit a pixel on a one-bit board, else 16 bits."""
    if getattr(board, "MONO", False):
        return board.WIDTH * board.HEIGHT // 8
    return 2 * board.WIDTH * board.HEIGHT


def row(f):
    """One board's cells from figures()."""
    board = f["board"]
    whole = whole_bytes(board)
    flushes = [fl for p in f["presses"] for fl in p[3]]
    moves = sorted(fl for fl in flushes if fl[1] < whole * 9 // 10)
    wholes = sorted(fl for fl in flushes if fl[1] >= whole)
    answers = sorted(p[1] for p in f["presses"])
    heap = f["heap"]
    return [
        "%s (%dx%d%s, %s)" % (board.__name__.split(".")[-1], board.WIDTH, board.HEIGHT,
                             ", one bit" if getattr(board, "MONO", False) else "", bus(board)),
        "%d ms" % f["boot_ms"],
        "%.2f ms (%s B) / %.1f ms (%s B)" % (moves[len(moves) // 2][0], format(moves[len(moves) // 2][1], ","),
                                             moves[-1][0], format(moves[-1][1], ",")) if moves else "-",
        "%.1f ms (%s B)" % (wholes[-1][0], format(wholes[-1][1], ",")) if wholes else "-",
        "%.1f / %.1f ms" % (answers[len(answers) // 2], answers[-1]),
        " / ".join(format(free, ",") for _, free, _ in heap) + " B (%s B)" % format(heap[-1][2], ","),
    ]


def measure():
    lines = [
        "The session `%s` from the title, then " % KEYS +
        "`firmware.bench.heap(BOARD)`, on each board's own firmware (flash in a cycle; "
        "`python -m tools.bench.bench_hobby_pico`, part of `make bench`). A frame's time is "
        "its first to its last byte on the bus; a press's, its deciding edge to the last byte "
        "of the frame that answers it.",
        "",
        "| board (panel bus) | title on screen after power-on | frames of a move, first to last "
        "byte: median / worst | a whole frame | press to its answer: median / worst | free heap "
        "after each game opened in turn: aces_up, sir_tommy, casket, spite_malice, nerts "
        "(largest block at the last) |",
        "| --- | --- | --- | --- | --- | --- |",
    ]
    measured = 0
    for name in BOARDS:
        reason = pico.unavailable(name)
        if reason is not None:
            print("%s: not measured (%s)" % (name, reason), file=sys.stderr)
            continue
        print("measuring %s on the emulated Pico ..." % name, file=sys.stderr, flush=True)
        f = figures(name, xip_cache=False, keys=KEYS)
        if f["tracebacks"]:
            raise RuntimeError("%s: the firmware raised:\n%s" % (name, "\n".join(f["tracebacks"])))
        lines.append("| " + " | ".join(row(f)) + " |")
        measured += 1
    if measured == 0:
        return None
    return "\n".join(lines)


if __name__ == "__main__":
    from tools.cli import help_or_go
    help_or_go(__doc__, "tools/bench/bench_hobby_pico.py   (make bench runs it)")
    print(measure())
