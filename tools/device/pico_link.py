"""Link play on two emulated Picos joined by their UARTs (rp2040js, tools/device/pico/link.mjs).

    python tools/device/pico_link.py [BOARD] [--rounds N]       (a report; tests/test_pico.py asserts)

Two chips run the same firmware (default pico_lcd_13), each with its own flash filesystem and
USB REPL, their LINK_UART pins crossed (TX of one to RX of the other). Each runs for a slice of
emulated time in turn (SLICE_US), so their clocks stay within a slice of each other; a byte
takes its 10 bits at 115,200 baud (86.8 us) and reaches the other chip when its stop bit is in.

The scenario: both boot to the title; the guest opens Link play (UP from the first row wraps to
it; A) and joins (DOWN DOWN A); the host opens Link play and hosts Spite & Malice (A on the first
row); both show the table. Then, round after round, each console in turn presses X (hint), A, A
(pick up, place): the player to move plays the hinted move, the other is told it is not its
turn. At the end, Ctrl-C on both and each REPL prints firmware.main.link_state(): the
session's state, seat, the game's state hash and counters, the channel's counters and the
time the chip spent in polls that received bytes.
"""

import argparse
import ast
import os
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, ROOT)

import boards  # noqa: E402
from tools.device import pico  # noqa: E402

BOARD = "pico_lcd_13"
RUNNER = os.path.join(ROOT, "tools", "device", "pico", "link.mjs")
NAMES = ("host", "guest")
HOST, GUEST = 0, 1
SLICE_US = 50               # each chip runs this much emulated time in turn
ROUNDS = 3                  # rounds of X A A on each console
TURN_KEYS = "X A A"
TABLE_TIMEOUT_MS = 10000    # from the host's A to both tables drawn and quiet
SETTLE_MS = 1500            # after the last press: the last move, its acknowledgement, the hashes
MAX_MS = 120000             # emulated time, both chips
WALL_S = 1200               # wall time


def build_script(board, rounds=ROUNDS):
    """(steps, [host script, guest script]): the run's steps, each naming its chip."""
    steps = []
    chips = [pico.Script(board, steps, i) for i in range(2)]
    screen = 2 * board.WIDTH * board.HEIGHT
    for chip in chips:
        chip.add({"op": "connect", "timeout_ms": pico.BOOT_TIMEOUT_MS})
    steps.append({"op": "quiet", "chips": [HOST, GUEST], "quiet_ms": pico.QUIET_MS, "since_press": True,
                  "min_bytes": screen, "timeout_ms": pico.PRESS_TIMEOUT_MS})
    for chip in chips:
        chip.mark("boot")
    host, guest = chips
    guest.keys("UP A DOWN DOWN A")          # Link play, "Join a table": waiting for the host
    host.keys("UP A")                       # Link play
    for gpio, hold in pico.button_presses(board, "A"):   # "Host Spite & Malice"
        host.add({"op": "press", "gpio": gpio, "hold_ms": hold})
    # Both redraw twice since their last press: the waiting screen, then the table.
    steps.append({"op": "quiet", "chips": [HOST, GUEST], "quiet_ms": pico.QUIET_MS, "since_press": True,
                  "min_bytes": 2 * screen, "timeout_ms": TABLE_TIMEOUT_MS})
    for chip in chips:
        chip.mark("table")
    for r in range(rounds):
        for chip in chips:
            for token in TURN_KEYS.split():
                chip.key(token, "round %d %s" % (r, token))
    host.wait(SETTLE_MS, "settled")
    for chip in chips:
        chip.interrupt()
        chip.repl("from firmware.main import link_state")
        chip.repl("print('LINK', link_state())")
    return steps, chips


def link_state(console):
    """The dict link_state() printed on a chip's REPL."""
    for line in console.splitlines():
        if line.startswith("LINK {"):
            return ast.literal_eval(line[len("LINK "):])
    raise pico.PicoError("no link_state() on the REPL")


def frames(data):
    """The frames in one direction's bytes (docs/link.md, "A frame, byte by byte"):
    [(kind, message length, frame length)]; bytes outside frames are left out."""
    out = []
    i = 0
    while i + 9 <= len(data):
        if data[i] != 0xA5 or data[i + 1] > 60:
            i += 1
            continue
        n = data[i + 1]
        out.append((data[i + 2] & 0x3F, n, n + 9))
        i += n + 9
    return out


class LinkRun:
    """What a run of two linked chips left: each chip's Run and link_state(), the wire."""

    def __init__(self, runs, wire, wall_s):
        self.runs = runs
        self.wire = wire            # per direction (host->guest, guest->host): bytes, ns, ...
        self.wall_s = wall_s
        self.states = [link_state(r.console) for r in runs]

    def wire_bytes(self, direction, since_ns=0):
        w = self.wire[direction]
        data = bytes.fromhex(w["bytes"])
        return bytes(b for b, ns in zip(data, w["ns"]) if ns >= since_ns)


def run(board_name=BOARD, rounds=ROUNDS, max_ms=MAX_MS, build_root=None):
    """Play the scenario; returns a LinkRun. Raises PicoError naming the chip that failed."""
    reason = pico.missing()
    if reason:
        raise pico.PicoError(reason)
    board = boards.load(board_name)
    steps, _ = build_script(board, rounds)
    started = time.time()
    with tempfile.TemporaryDirectory() as tmp:
        jobs = [pico.chip_job(board_name, tmp, build_root=build_root, name=name)[1] for name in NAMES]
        uart = board.LINK_UART[0]
        job = {"bootrom": pico.bootrom_path(), "chips": jobs, "uart": uart, "slice_us": SLICE_US,
               "max_ms": max_ms, "wire": os.path.join(tmp, "wire.json"), "steps": steps}
        status, stderr = pico.run_node(RUNNER, job, tmp, WALL_S)
        if status != 0:
            shown = "\n".join("--- %s's USB REPL ---\n%s" % (name, pico.read_console(j)[-1500:])
                              for name, j in zip(NAMES, jobs))
            raise pico.PicoError("%s\n%s" % (stderr, shown))
        import json
        with open(job["wire"]) as f:
            wire = json.load(f)
        runs = [pico.read_run(board, j) for j in jobs]
    return LinkRun(runs, wire, time.time() - started)


def figures(result):
    """Bytes on the wire per Spite & Malice turn and the chips' time per received frame."""
    host, guest = result.states
    marks = dict((m["name"], m["ns"]) for m in result.runs[HOST].markers())
    table_ns = marks["table"]
    turns = host["turn"]
    out = {"turns": turns, "moves": host["moves_sent"] + guest["moves_sent"],
           "play_ms": (marks["settled"] - table_ns) / 1e6}
    total = 0
    message = 0
    kinds = {}
    for direction in (0, 1):
        for kind, n, length in frames(result.wire_bytes(direction, table_ns)):
            total += length
            if kind:
                message += length
            kinds[kind] = kinds.get(kind, 0) + 1
    out["wire_bytes"] = total
    out["message_frame_bytes"] = message
    out["frames_by_kind"] = kinds
    out["bytes_per_turn"] = total / turns if turns else None
    # What a chip heard is the tail of what the other sent: the bytes it read (before it opened
    # its UART, nothing listened).
    received = [len(frames(result.wire_bytes(1 - chip)[-s["bytes_read"]:])) if s["bytes_read"] else 0
                for chip, s in enumerate(result.states)]
    out["frames_received"] = received
    out["us_per_frame"] = [s["busy_us"] / n if n else None for s, n in zip(result.states, received)]
    out["us_per_busy_poll"] = [s["busy_us"] / s["busy_polls"] if s["busy_polls"] else None
                               for s in result.states]
    out["us_max"] = [s["busy_us_max"] for s in result.states]
    return out


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("board", nargs="?", default=BOARD)
    parser.add_argument("--rounds", type=int, default=ROUNDS)
    args = parser.parse_args()
    try:
        result = run(args.board, args.rounds)
    except pico.PicoError as e:
        raise SystemExit("pico_link: %s" % e)
    for name, state, r in zip(NAMES, result.states, result.runs):
        print("%-5s %s" % (name, state))
        print("      tracebacks %d, emulated %.1f s" % (r.tracebacks(), r.end.get("ns", 0) / 1e9))
    for w, direction in zip(result.wire, ("host->guest", "guest->host")):
        print("%s: %d bytes, late %d (at most %.1f us), overruns %d, unheard %d"
              % (direction, len(w["bytes"]) // 2, w["late"], w["late_max_ns"] / 1e3, w["overruns"],
                 w["unheard"]))
    for key, value in figures(result).items():
        print("%-20s %s" % (key, value))
    print("wall time %.1f s" % result.wall_s)


if __name__ == "__main__":
    main()
