"""The firmware on an emulated Raspberry Pi Pico (rp2040js, tools/device/pico.py): boot, keypresses,
flushes and heap, in the chip's own time (make bench).

Times are rp2040js's: 125 MHz, cycles as it counts them, SPI bytes at the bus's 62.5 MHz; it
leaves out flash wait states, XIP cache misses and bus contention, so they are estimates
that a real Pico may exceed. Needs a built firmware (make firmware BOARD=pico_lcd_13), node
with the npm packages, and the RP2040 boot ROM; without them the section is left as it was.
"""

import re
import sys

import boards
from tools.device import pico
from tools.device.pico_scenario import Reference, delivered_ms

TITLE = "The emulated Pico: boot, keypresses, flushes, heap"
BOARD = "pico_lcd_13"
# From the title into Aces Up, then cursor moves and card moves, an undo and a hint.
KEYS = "A A A RIGHT A A RIGHT RIGHT A A Y X A A LEFT LEFT"
MOVES = {"card move"}


def figures(board_name=BOARD):
    board = boards.load(board_name)
    script = pico.Script(board)
    script.boot()
    for token in KEYS.split():
        script.key(token)
    script.interrupt()
    script.repl("from firmware.bench import run, heap", timeout_ms=10000)
    script.repl("run(%r)" % board_name, timeout_ms=120000)
    script.repl("heap(%r)" % board_name, timeout_ms=120000)
    result = pico.run(board_name, script)
    markers = result.markers()
    boot = [m for m in markers if m["name"] == "boot"][0]
    presses = []
    marks = [m for m in markers if m["name"] not in ("boot", "press", "end")]
    press_markers = [m for m in markers if m["name"] == "press"]
    before = boot["spi_bytes"]
    reference = Reference(board)  # what each screen defers, for each press's deciding edge
    for token, press, mark in zip(KEYS.split(), press_markers, marks):
        deferred = reference.console.defers()
        reference.press(token)
        reference.tick(1000)
        sent = mark["spi_bytes"] - before
        before = mark["spi_bytes"]
        if sent == 0:
            continue
        edge = delivered_ms(board, token, press, deferred)
        flushes = [((end - start) / 1e6, n) for start, end, n in mark["flushes"]]
        answer = mark["flushes"][0][1] / 1e6 - edge      # the first frame drawn after it
        presses.append((token, answer, sent, flushes, mark["last_spi_ns"] / 1e6 - edge))
        print("%-6s %6.1f ms to the answer's last byte (%6.1f ms to the last), %6d bytes, flushes %s"
              % (token, answer, presses[-1][4], sent, " ".join("%.2f ms/%d B" % f for f in flushes)),
              file=sys.stderr)
    rows = re.findall(r"^(viper\+dma|viper|framebuf|plain)\s+(\d+)\s+(\d+)\s*$", result.console, re.M)
    flush = re.search(r"viper\+dma\s+(\d+)\s+(\d+)", result.console)
    heap = re.findall(r"^(\w+)\s+(\d+)\s+(\d+)\s*$", result.console.split("largest block")[-1], re.M)
    return {"board": board, "boot_ms": boot["last_spi_ns"] / 1e6, "presses": presses,
            "full_us": int(flush.group(1)), "rect_us": int(flush.group(2)),
            "bench": [(n, int(a), int(b)) for n, a, b in rows],
            "heap": [(n, int(f), int(b)) for n, f, b in heap], "tracebacks": result.tracebacks()}


def measure():
    reason = pico.unavailable(BOARD)
    if reason is not None:
        print("emulated Pico: not measured (%s)" % reason, file=sys.stderr)
        return None
    f = figures()
    board = f["board"]
    wire_ms = 2 * board.WIDTH * board.HEIGHT * 8 / board.SPI[1] * 1000
    lat = sorted(p[1] for p in f["presses"])
    settled = sorted(p[4] for p in f["presses"])
    full = 2 * board.WIDTH * board.HEIGHT
    partial = [fl for p in f["presses"] for fl in p[3] if fl[1] < full // 2]
    move_flush = sorted(ms for ms, _ in partial)
    move_bytes = sorted(n for _, n in partial)
    lines = [
        "Board %s (%dx%d, SPI %.1f MHz), MicroPython 1.27.0 with the console frozen in; "
        "rp2040js at 125 MHz: estimates (no flash wait states or bus contention). "
        "`python -m tools.bench.bench_pico` (part of `make bench` when the firmware is built) measures "
        "them; tests/test_pico.py holds the flush, keypress and heap figures to their targets."
        % (BOARD, board.WIDTH, board.HEIGHT, board.SPI[1] / 1e6),
        "",
        "| what | figure | budget |",
        "| --- | --- | --- |",
        "| power-on to the title on screen (last byte of the first full frame) | %d ms | 500 ms |" % f["boot_ms"],
        "| full-screen flush (firmware.bench, viper + DMA) | %.1f ms (wire alone %.2f ms) | 20 ms |"
        % (f["full_us"] / 1000, wire_ms),
        "| 40x56 card-sized rectangle flush | %.2f ms | |" % (f["rect_us"] / 1000),
        "| a frame's flush without a full redraw (card moves and slides, cursor; overlapping "
        "rectangles merged): first to last byte, median / worst | "
        "%.2f / %.2f ms (%s-%s bytes) | 4 ms |"
        % (move_flush[len(move_flush) // 2], move_flush[-1], format(move_bytes[0], ","), format(move_bytes[-1], ",")),
        "| keypress: debounced edge to the last byte of the frame that answers it, median / worst "
        "over %d presses | %.1f / %.1f ms | one frame (33 ms) |" % (len(lat), lat[len(lat) // 2], lat[-1]),
        "| keypress: debounced edge to the last byte of all it moved (a card's slide, a notice's "
        "end), median / worst | %.1f / %.1f ms | |" % (settled[len(settled) // 2], settled[-1]),
        "",
        "Free heap after opening each game in turn (seed 1), the app built as the board runs it;",
        "the app keeps each game it has opened, so the figures fall game by game:",
        "",
        "| game opened | free heap | largest free block |",
        "| --- | --- | --- |",
    ]
    for name, free, block in f["heap"]:
        lines.append("| %s | %s B | %s B |" % (name, format(free, ","), format(block, ",")))
    return "\n".join(lines)


if __name__ == "__main__":
    from tools.cli import help_or_go
    help_or_go(__doc__, "tools/bench/bench_pico.py   (make bench runs it)")
    print(measure())
