"""Panel bench: what sending pixels to each board's panel costs.

For every board: the bytes a full redraw and a typical move put on the SPI bus and how long
the wire takes at the board's SPI clock (the physical floor), and the fuel the driver spends
on MicroPython (WASI, so the plain-Python expansion: the device runs the viper one) to flush
them, with a rough RP2040 time (fuel / 168 per microsecond, docs/performance.md).

A typical move redraws two card-sized rectangles (where the card left, where it landed): 24x34
on 240x135, 32x44 on 240x240 and 40x56 on 320x240, at an odd x so the 8-pixel widening shows.

    python tools/bench_panel.py
"""

import json
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

import boards  # noqa: E402
from tools.mpy import run_micropython  # noqa: E402

TITLE = "Panel: bytes to the panel and the cost of a flush"
FUEL_PER_US_RP2040 = 168
CARD = {135: (24, 34), 240: (32, 44)}           # by screen height; 320 wide gets 40x56

GUEST = """
import sys
sys.path.insert(0, '/tests/fakes')
import host, json
from array import array
import boards
from machine import SPI, Pin
from firmware.panel import Panel

def fuel():
    return int(host.call("fuel", ""))

board = boards.load(BOARD)
spi = SPI(1)
panel = Panel(spi, Pin(1), Pin(2), None, board)
buf = bytearray(board.WIDTH * board.HEIGHT // 2)
for i in range(len(buf)):
    buf[i] = (i * 7) & 255
palette = array('H', range(0, 65536, 4096))
overhead = 10 ** 9
for _ in range(10):
    a = fuel()
    b = fuel()
    overhead = min(overhead, b - a)
W = board.WIDTH
H = board.HEIGHT
a = fuel()
panel.send(buf, W, palette, 0, 0, W, H)
b = fuel()
full_fuel = b - a - overhead
full_bytes = spi.bytes
spi.bytes = 0
a = fuel()
panel.send(buf, W, palette, 13, 21, CW, CH)
panel.send(buf, W, palette, W - CW - 29, H - CH - 3, CW, CH)
b = fuel()
print(json.dumps({"full_fuel": full_fuel, "full_bytes": full_bytes,
                  "move_fuel": b - a - overhead, "move_bytes": spi.bytes}))
"""


def card_size(board):
    if board.WIDTH == 320:
        return 40, 56
    return CARD[board.HEIGHT]


def measure_board(name):
    board = boards.load(name)
    cw, ch = card_size(board)
    code = GUEST.replace("BOARD", repr(name)).replace("CW", str(cw)).replace("CH", str(ch))
    result = run_micropython(code)
    if result.exit_code != 0:
        raise SystemExit("panel bench failed on MicroPython:\n%s" % result.stderr)
    return json.loads(result.stdout.strip().splitlines()[-1])


def wire_ms(nbytes, baudrate):
    return nbytes * 8 / baudrate * 1000


def measure():
    lines = [
        "| board | screen | SPI clock | full redraw: bytes / wire / flush fuel (RP2040 est.) | typical move: bytes / wire / flush fuel (RP2040 est.) |",
        "| --- | --- | --- | --- | --- |",
    ]
    for name in boards.NAMES:
        board = boards.load(name)
        f = measure_board(name)
        baud = board.SPI[1]
        lines.append("| %s | %dx%d | %.1f MHz | %s B / %.1f ms / %s (%.0f ms) | %s B / %.2f ms / %s (%.1f ms) |" % (
            name, board.WIDTH, board.HEIGHT, baud / 1e6,
            format(f["full_bytes"], ","), wire_ms(f["full_bytes"], baud), format(f["full_fuel"], ","),
            f["full_fuel"] / FUEL_PER_US_RP2040 / 1000,
            format(f["move_bytes"], ","), wire_ms(f["move_bytes"], baud), format(f["move_fuel"], ","),
            f["move_fuel"] / FUEL_PER_US_RP2040 / 1000))
    return "\n".join(lines)


if __name__ == "__main__":
    print("## " + TITLE)
    print(measure())
