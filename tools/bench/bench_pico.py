"""The firmware on an emulated Raspberry Pi Pico (rp2040js, tools/device/pico.py): boot, keypresses,
flushes and heap, in the chip's own time (make bench).

Times are rp2040js's: the board's clock (200 MHz), cycles as it counts them, SPI bytes at the
bus's clock (50 MHz), the flash at 100 MHz, no bus contention: estimates. Every figure comes twice: with every read of the flash in a cycle
(rp2040js), and with the RP2040's XIP cache modelled, a read that misses it waiting for the
flash (tools/device/pico/chip.mjs), as a real Pico's would. Needs a built firmware (make firmware BOARD=pico_lcd_13), node
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


def figures(board_name=BOARD, xip_cache=None, keys=KEYS):
    """The figures of one run of `keys` from the title; xip_cache: with the XIP cache modelled
    (tools/device/pico/chip.mjs; None: as pico.xip_default() says)."""
    board = boards.load(board_name)
    script = pico.Script(board)
    script.boot()
    for token in keys.split():
        script.key(token)
    script.interrupt()
    script.repl("from firmware.bench import run, heap", timeout_ms=10000)
    # The heap first: the flush bench's panel, DMA channel and pins stay claimed after it
    # (288 B on pico_lcd_13), which the console never holds.
    script.repl("heap(%r)" % board_name, timeout_ms=120000)
    script.repl("run(%r)" % board_name, timeout_ms=120000)
    result = pico.run(board_name, script, xip_cache=xip_cache)
    markers = result.markers()
    boot = [m for m in markers if m["name"] == "boot"][0]
    presses = []
    marks = [m for m in markers if m["name"] not in ("boot", "press", "end")]
    press_markers = [m for m in markers if m["name"] == "press"]
    before = boot["spi_bytes"]
    reference = Reference(board)  # what each screen defers, for each press's deciding edge
    for token, press, mark in zip(keys.split(), press_markers, marks):
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
    heap = re.findall(r"^(\w+)\s+(\d+)\s+(\d+)\s*$", result.console.split("largest block")[-1].split(">>>")[0],
                      re.M)
    last_key = marks[len(keys.split()) - 1]
    return {"board": board, "boot_ms": boot["last_spi_ns"] / 1e6, "presses": presses,
            "xip": (boot["xip"], last_key["xip"], result.end["xip"]) if result.end.get("xip") else None,
            "full_us": int(flush.group(1)) if flush else None,  # None: an OLED (firmware.bench says so)
            "rect_us": int(flush.group(2)) if flush else None,
            "bench": [(n, int(a), int(b)) for n, a, b in rows],
            "heap": [(n, int(f), int(b)) for n, f, b in heap], "tracebacks": result.tracebacks()}


def partial_presses(f):
    """The presses of a run whose first frame redraws part of the screen."""
    board = f["board"]
    return [p for p in f["presses"] if p[3][0][1] < 2 * board.WIDTH * board.HEIGHT]


def press_rows(f):
    """The flush and keypress figures of one run, as table cells."""
    board = f["board"]
    full = 2 * board.WIDTH * board.HEIGHT
    lat = sorted(p[1] for p in partial_presses(f))  # (a deal: its own rows)
    settled = sorted(p[4] for p in f["presses"])
    partial = [fl for p in f["presses"] for fl in p[3] if fl[1] < full // 2]
    move_flush = sorted(ms for ms, _ in partial)
    move_bytes = sorted(n for _, n in partial)
    wire_ms = full * 8 / pico.spi_hz(board) * 1000
    return [
        "%d ms" % f["boot_ms"],
        "%.1f ms (wire alone %.2f ms)" % (f["full_us"] / 1000, wire_ms),
        "%.2f ms" % (f["rect_us"] / 1000),
        "%.2f / %.2f ms (%s-%s bytes)" % (move_flush[len(move_flush) // 2], move_flush[-1],
                                          format(move_bytes[0], ","), format(move_bytes[-1], ",")),
        "%.1f / %.1f ms" % (lat[len(lat) // 2], lat[-1]),
        "%.1f / %.1f ms" % (settled[len(settled) // 2], settled[-1]),
    ]


SESSION_ROWS = (
    ("a press in a session of every game (tools/device/pico_presses.py: the title, the game list, "
     "moves, a hint, the pause menu, a new deal), deciding edge to the last byte of its first "
     "frame: worst of those that redraw part of the screen", "one frame (33 ms)"),
    ("the same, worst of those that redraw the whole screen (an 18.4 ms flush at 50 MHz) but a deal, and which",
     "one frame (33 ms)"),
    ("a new deal (the pause menu's New deal, then yes): worst of the five games", "50 ms"),
    ("a game's first deal (its table made), from the game list: worst of the five games", "50 ms"),
)


def session_figures(xip_cache):
    """The cells of SESSION_ROWS from a session of every game (tools/device/pico_presses.py)."""
    from tools.device.pico_presses import answers
    from tools.device.pico_scenario import GAMES
    board = boards.load(BOARD)
    full = 2 * board.WIDTH * board.HEIGHT
    partial, whole, new_deal, first_deal = [], [], [], []
    for game in GAMES:
        rows = answers(BOARD, game, xip_cache)
        for i, (token, screen, ms, n) in enumerate(rows):
            if n < full:
                partial.append((ms, game, token, screen))
            elif screen != 1 and i != len(rows) - 1:  # not a deal (from the game list; the last)
                whole.append((ms, game, token, screen))
        first_deal.append(([ms for token, screen, ms, n in rows if screen == 1 and n >= full][0], game))
        new_deal.append((rows[-1][2], game))
    worst = max(whole)
    return ["%.1f ms" % max(partial)[0],
            "%.1f ms (%s, %s on %s)" % (worst[0], worst[1], worst[2], SCREEN_NAMES.get(worst[3], "a screen")),
            "%.1f ms (%s)" % max(new_deal), "%.1f ms (%s)" % max(first_deal)]


SCREEN_NAMES = {0: "the title", 1: "the game list", 3: "the table", 4: "the pause menu", 9: "a question"}


def measure():
    reason = pico.unavailable(BOARD)
    if reason is not None:
        print("emulated Pico: not measured (%s)" % reason, file=sys.stderr)
        return None
    plain = figures(xip_cache=False)
    cached = figures(xip_cache=True)
    board = plain["board"]
    boot, last_key, end = cached["xip"]
    whats = [
        ("power-on to the title on screen (last byte of the first full frame)", "500 ms"),
        ("full-screen flush (firmware.bench, viper + DMA)", "20 ms"),
        ("40x56 card-sized rectangle flush", ""),
        ("a frame's flush without a full redraw (card moves and slides, cursor; overlapping "
         "rectangles merged): first to last byte, median / worst", "4 ms"),
        ("keypress: deciding edge to the last byte of the frame that answers it, median / worst "
         "over the %d of its %d presses that redraw part of the screen (a deal's are in the rows "
         "below)" % (len(partial_presses(plain)), len(plain["presses"])),
         "one frame (33 ms)"),
        ("keypress: deciding edge to the last byte of all it moved (a card's slide, a notice's "
         "end), median / worst", ""),
    ]
    lines = [
        "Board %s (%dx%d, SPI %.1f MHz), MicroPython 1.27.0 with the console frozen in; "
        "rp2040js at %d MHz: estimates (no bus contention). Each figure twice: as rp2040js "
        "counts, every read of the flash in a cycle, and with the RP2040's XIP cache modelled "
        "(16 KB, two-way, 8-byte lines; a miss waits %d cycles for the Pico's flash at clk_sys / 2 "
        "in quad I/O continuous read: tools/device/pico/chip.mjs), the figure a real Pico's flash "
        "allows. `python -m tools.bench.bench_pico` (part of `make bench` when the firmware is "
        "built) measures them; tests/test_pico.py holds the flush, keypress and heap figures to "
        "their targets, and the XIP cache model to its arithmetic."
        % (BOARD, board.WIDTH, board.HEIGHT, pico.spi_hz(board) / 1e6, board.CPU_FREQ // 1000000,
           end[2] // end[1]),
        "",
        "| what | flash in a cycle | XIP cache modelled | budget |",
        "| --- | --- | --- | --- |",
    ]
    for (what, budget), a, b in zip(whats, press_rows(plain), press_rows(cached)):
        lines.append("| %s | %s | %s | %s |" % (what, a, b, budget))
    sessions = [session_figures(False), session_figures(True)]
    for i, (what, budget) in enumerate(SESSION_ROWS):
        lines.append("| %s | %s | %s | %s |" % (what, sessions[0][i], sessions[1][i], budget))
    lines.append("| XIP cache hits (of the core's reads of the flash): to the title / the %d presses / "
                 "the whole run with firmware.bench | | %.2f%% / %.2f%% / %.2f%% (%s misses in all) | |"
                 % (len(KEYS.split()), 100 * pico.hit_rate(boot), 100 * pico.hit_rate(last_key, boot),
                    100 * pico.hit_rate(end), format(end[1], ",")))
    same = "the same with the XIP cache modelled" if plain["heap"] == cached["heap"] else \
        "as rp2040js counts; with the XIP cache modelled %s" % ", ".join(
            "%s %s B" % (n, format(free, ",")) for n, free, _ in cached["heap"])
    lines += [
        "",
        "Free heap after opening each game in turn (seed 1), the app built as the board runs it",
        "(%s); the app keeps each game it has opened, so the figures fall game by game:" % same,
        "",
        "| game opened | free heap | largest free block |",
        "| --- | --- | --- |",
    ]
    for name, free, block in plain["heap"]:
        lines.append("| %s | %s B | %s B |" % (name, format(free, ","), format(block, ",")))
    return "\n".join(lines)


if __name__ == "__main__":
    from tools.cli import help_or_go
    help_or_go(__doc__, "tools/bench/bench_pico.py   (make bench runs it)")
    print(measure())
