"""Panel bench: what sending pixels to each board's panel costs.

For every board: the bytes a full redraw and a typical move put on the SPI bus and how long
the wire takes at the board's SPI clock (the physical floor), and the fuel the driver spends
on MicroPython (WASI) to flush them with the framebuf expansion (what a port without viper
uses) and with the plain-Python one, with a rough RP2040 time (fuel / 168 per microsecond,
docs/performance.md). The device's viper expansion cannot run here; the wire time is its floor.
"driver heap" is what a Panel holds (line buffer, its views and, for framebuf, the frame
buffers over it), the framebuffer itself not counted.

A typical move redraws two card-sized rectangles (where the card left, where it landed): 24x34
on 240x135, 32x44 on 240x240 and 40x56 on 320x240, at an odd x so the 8-pixel widening shows.

    python -m tools.bench.bench_panel
"""

import json

import boards
from tools.mpy import run_micropython

TITLE = "Panel: bytes to the panel and the cost of a flush"
FUEL_PER_US_RP2040 = 168
CARD = {135: (24, 34), 240: (32, 44)}           # by screen height; 320 wide gets 40x56

GUEST = """
import sys
sys.path.insert(0, '/support/fakes')
import gc, host, json
from array import array
import boards
from machine import SPI, Pin
from firmware.panel import Panel

def fuel():
    return int(host.call("fuel", ""))

board = boards.load(BOARD)
W = board.WIDTH
H = board.HEIGHT
spi = SPI(1)
dc = Pin(1)
cs = Pin(2)
gc.collect()
before = gc.mem_alloc()
panel = Panel(spi, dc, cs, None, board, EXPANDER)
gc.collect()
heap = gc.mem_alloc() - before
buf = bytearray(W * H // 2)
for i in range(len(buf)):
    buf[i] = (i * 7) & 255
palette = array('H', range(0, 65536, 4096))
panel.send(buf, W, palette, 0, 0, 8, 1)     # the first send of a buffer wraps it once
spi.bytes = 0
overhead = 10 ** 9
for _ in range(10):
    a = fuel()
    b = fuel()
    overhead = min(overhead, b - a)
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
print(json.dumps({"heap": heap, "full_fuel": full_fuel, "full_bytes": full_bytes,
                  "move_fuel": b - a - overhead, "move_bytes": spi.bytes}))
"""


def card_size(board):
    if board.WIDTH == 320:
        return 40, 56
    return CARD[board.HEIGHT]


def measure_board(name, expander):
    board = boards.load(name)
    cw, ch = card_size(board)
    code = (GUEST.replace("BOARD", repr(name)).replace("EXPANDER", repr(expander))
            .replace("CW", str(cw)).replace("CH", str(ch)))
    result = run_micropython(code)
    if result.exit_code != 0:
        raise SystemExit("panel bench failed on MicroPython:\n%s" % result.stderr)
    return json.loads(result.stdout.strip().splitlines()[-1])


def wire_ms(nbytes, baudrate):
    return nbytes * 8 / baudrate * 1000


def fuel_cell(fuel):
    return "%s (%.1f ms)" % (format(fuel, ","), fuel / FUEL_PER_US_RP2040 / 1000)


def colour_boards():
    """The boards with a MIPI-DCS colour panel (firmware/panel.py) and a card size here; the
    one-bit OLEDs' flushes are measured on the emulated Pico (tools/device/pico_pattern.py),
    and the 160x128 boards' too until their layouts give them a card size."""
    out = []
    for name in boards.NAMES:
        board = boards.load(name)
        if not getattr(board, "MONO", False) and (board.WIDTH == 320 or board.HEIGHT in CARD):
            out.append(name)
    return out


def bus_hz(board):
    """The SPI clock a board's panel gets: on the RP2040 what its clock divides into
    (tools/device/pico.spi_hz), elsewhere the rate its module asks for."""
    if board.PORT == "rp2":
        from tools.device.pico import spi_hz
        return spi_hz(board)
    return board.SPI[1]


def measure():
    lines = [
        "| board | screen | SPI clock | full redraw: bytes, wire | flush fuel, framebuf (RP2040) | plain Python | "
        "typical move: bytes, wire | flush fuel, framebuf (RP2040) | plain Python | driver heap |",
        "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    for name in colour_boards():
        board = boards.load(name)
        fast = measure_board(name, "framebuf")
        plain = measure_board(name, "plain")
        assert fast["full_bytes"] == plain["full_bytes"] and fast["move_bytes"] == plain["move_bytes"]
        baud = bus_hz(board)
        lines.append("| %s | %dx%d | %.1f MHz | %s B, %.1f ms | %s | %s | %s B, %.2f ms | %s | %s | %s B |" % (
            name, board.WIDTH, board.HEIGHT, baud / 1e6,
            format(fast["full_bytes"], ","), wire_ms(fast["full_bytes"], baud),
            fuel_cell(fast["full_fuel"]), fuel_cell(plain["full_fuel"]),
            format(fast["move_bytes"], ","), wire_ms(fast["move_bytes"], baud),
            fuel_cell(fast["move_fuel"]), fuel_cell(plain["move_fuel"]), format(fast["heap"], ",")))
    return ("\n".join(lines)
            + "\n\nCard moves of the games' scripted sessions (support/ui_scripts.py), sent by the driver:\n\n"
            + moves_table()
            + "\n\nThe device's modules (firmware, the games' interface, every game) imported rather than"
            + " frozen hold %s B of heap for their code." % format(code_heap(), ","))


CODE_GUEST = """
import sys
sys.path.insert(0, '/support/fakes')
import gc
gc.collect()
a = gc.mem_alloc()
import firmware.main, firmware.hardware, firmware.hwtest, boards.picosystem
from engine_core.ui.app import App
from engine_core import games
for name in games.available():
    games.load(name)
gc.collect()
print(gc.mem_alloc() - a)
"""


def code_heap():
    """Heap taken by the device's modules when imported from source or .mpy files (not
    frozen): the firmware, the games' interface and every game."""
    result = run_micropython(CODE_GUEST)
    if result.exit_code != 0:
        raise SystemExit("code heap bench failed on MicroPython:\n%s" % result.stderr)
    return int(result.stdout.split()[-1])


def session_moves(board, game, keys):
    """Bytes the panel received for each card move of a scripted session (CPython: the
    bytes do not depend on the runtime): the keypress's own frame and the frames that finish
    a spread redraw."""
    from firmware.panel import Panel
    from simulator.keys import make_app, parse
    from support.fakes.machine import SPI, Pin
    from engine_core.ui.app import PLAY
    app = make_app(board.WIDTH, board.HEIGHT, game, 7)
    spi = SPI(1)
    panel = Panel(spi, Pin(1), Pin(2), None, board, "plain")
    screen = app.screen
    panel.show(screen)
    sent = []
    for button, long_press in parse(keys):
        if button < 0:
            app.tick(-button)
            panel.show(screen)
            continue
        in_play = app.mode == PLAY
        count = app.table.game.history.moves if in_play else 0
        spi.bytes = 0
        app.press(button, long_press)
        panel.show(screen)
        while app.mode == PLAY and app.table.pending:
            app.tick(0)
            panel.show(screen)
        history = app.table.game.history if app.mode == PLAY else None
        if in_play and history is not None and history.moves > count and history.last_move() >> 16 != 255:
            sent.append(spi.bytes)
    return sent


def moves_table():
    from support.ui_scripts import games_with_layouts, script
    lines = [
        "| board | game | card moves | bytes to the panel per card move (median / worst) | wire at the board's clock (median / worst) |",
        "| --- | --- | --- | --- | --- |",
    ]
    for name in colour_boards():
        board = boards.load(name)
        for game in games_with_layouts():
            sent = sorted(session_moves(board, game, script(game)))
            if not sent:
                continue
            median = sent[len(sent) // 2]
            lines.append("| %s | %s | %d | %s / %s B | %.2f / %.2f ms |" % (
                name, game, len(sent), format(median, ","), format(sent[-1], ","),
                wire_ms(median, bus_hz(board)), wire_ms(sent[-1], bus_hz(board))))
    return "\n".join(lines)


if __name__ == "__main__":
    from tools.cli import help_or_go
    help_or_go(__doc__, '-m tools.bench.bench_panel')
    print("## " + TITLE)
    print(measure())
