"""Link play on two emulated Picos joined by their UARTs (rp2040js, tools/device/pico/link.mjs).

    python -m tools.device.pico_link [BOARD] [--turns N]       (a report; tests/test_pico.py asserts)

Two chips run the same firmware (default pico_lcd_13), each with its own flash filesystem and
USB REPL, their LINK_UART pins crossed (TX of one to RX of the other). Each runs for a slice of
emulated time in turn (SLICE_US), so their clocks stay within a slice of each other; a byte
takes its 10 bits at 115,200 baud (86.8 us) and reaches the other chip when its stop bit is in.

The scenario: both boot to the title; the guest opens Link play (UP from the first row wraps to
it; A) and joins (DOWN DOWN A: the list of tables heard); the host opens Link play and hosts
Spite & Malice (A on the first row); the guest's list shows the host's table, and A joins it;
both show the table. Then the console whose turn it is presses X (hint), A, A (pick up,
place) again and again, until TURNS turns have ended: the driver reads whose turn it is from
the wire (link.mjs answers each batch of steps with the bytes it carried): a console whose
X A A sent no MOVE is not to move, one that sent a HASH has ended its turn. At the end,
Ctrl-C on both and each REPL prints firmware.main.link_state(): the session's state, seat,
the game's state hash and counters, the channel's counters and the time the chip spent in
polls that received bytes.
"""

import argparse
import ast
import json
import os
import subprocess
import tempfile
import threading
import time

import boards
from engine_core.link.session import K_HASH, K_MOVE
from tools.device import pico

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

BOARD = "pico_lcd_13"
RUNNER = os.path.join(ROOT, "tools", "device", "pico", "link.mjs")
NAMES = ("host", "guest")
HOST, GUEST = 0, 1
SLICE_US = 50               # each chip runs this much emulated time in turn
TURNS = 4                   # turns to play (each ends with the mover's HASH on the wire)
MOST_PRESSES = 16           # X A A at most, whoever's turn it is
TURN_KEYS = "X A A"
KEY_QUIET_MS = 200          # a press is answered once its panel has been quiet this long
KEY_FIRST_MS = 400          # or has drawn nothing this long after the press began
TABLE_TIMEOUT_MS = 10000    # from the host's A to both tables drawn and quiet
SETTLE_MS = 1500            # after the last press: the last move, its acknowledgement, the hashes
MAX_MS = 120000             # emulated time, both chips
WALL_S = 1200               # wall time


def key(script, token, name=None):
    """Press a key on one chip; then run until its panel has drawn and been quiet for KEY_QUIET_MS
    (counted from the press: what it drew while the button was down counts), or KEY_FIRST_MS
    without a byte: the other chip runs all the while."""
    for gpio, hold in pico.button_presses(script.board, token):
        script.add({"op": "press", "gpio": gpio, "hold_ms": hold})
    script.add({"op": "quiet", "quiet_ms": KEY_QUIET_MS, "first_ms": KEY_FIRST_MS, "since_press": True,
                "timeout_ms": pico.PRESS_TIMEOUT_MS})
    script.mark(name or token)


def setup_steps(board):
    """Both boot; the guest joins, the host hosts Spite & Malice; both show the table."""
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
    for token in "UP A DOWN DOWN A".split():   # Link play, "Join a table": waiting for the host
        key(guest, token)
    for token in "UP A".split():               # Link play
        key(host, token)
    for gpio, hold in pico.button_presses(board, "A"):   # "Host Spite & Malice"
        host.add({"op": "press", "gpio": gpio, "hold_ms": hold})
    # The guest's list, drawn at its last press, is drawn again with the host's table on it.
    steps.append({"op": "quiet", "chips": [GUEST], "quiet_ms": pico.QUIET_MS, "since_press": True,
                  "min_bytes": 2 * screen, "timeout_ms": TABLE_TIMEOUT_MS})
    for gpio, hold in pico.button_presses(board, "A"):   # the guest joins the table listed
        guest.add({"op": "press", "gpio": gpio, "hold_ms": hold})
    # The host redraws twice since its last press: the waiting screen, then the table; the
    # guest once since its own: the table (its list, redrawn in the same frame, goes with it).
    steps.append({"op": "quiet", "chips": [HOST], "quiet_ms": pico.QUIET_MS, "since_press": True,
                  "min_bytes": 2 * screen, "timeout_ms": TABLE_TIMEOUT_MS})
    steps.append({"op": "quiet", "chips": [GUEST], "quiet_ms": pico.QUIET_MS, "since_press": True,
                  "min_bytes": screen, "timeout_ms": TABLE_TIMEOUT_MS})
    for chip in chips:
        chip.mark("table")
    return steps


def turn_steps(board, chip, n):
    """X A A on one chip: the hinted move, when it is that console's turn."""
    steps = []
    script = pico.Script(board, steps, chip)
    for token in TURN_KEYS.split():
        key(script, token, "%s %d %s" % (NAMES[chip], n, token))
    return steps


def final_steps(board):
    """The last messages settle; Ctrl-C on both; each REPL prints link_state()."""
    steps = []
    chips = [pico.Script(board, steps, i) for i in range(2)]
    chips[HOST].wait(SETTLE_MS, "settled")
    for chip in chips:
        chip.interrupt()
        chip.repl("from firmware.main import link_state")
        chip.repl("print('LINK', link_state())")
    return steps


class Runner:
    """link.mjs in interactive mode: batches of steps, each answered with the wire's bytes."""

    def __init__(self, job, tmp):
        path = os.path.join(tmp, "job.json")
        with open(path, "w") as f:
            json.dump(job, f)
        self.proc = subprocess.Popen(["node", RUNNER, path], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, text=True, cwd=ROOT)
        self.timer = threading.Timer(WALL_S, self.proc.kill)
        self.timer.start()
        self.wire = [b"", b""]      # all each direction carried so far

    def do(self, steps):
        self.proc.stdin.write(json.dumps(steps) + "\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        reply = json.loads(line) if line.strip() else {"error": "the runner stopped (after %d s of wall "
                                                                   "time at most)" % WALL_S}
        if "error" in reply:
            self.close()
            raise pico.PicoError("%s %s" % (reply["error"], self.proc.stderr.read().strip()))
        for i in (0, 1):
            self.wire[i] += bytes.fromhex(reply["wire"][i])
        return reply

    def close(self):
        try:
            self.proc.stdin.write("\n")
            self.proc.stdin.close()
        except OSError:
            pass
        self.proc.wait()
        self.timer.cancel()
        return self.proc.returncode


def kinds(data, kind):
    return sum(1 for k, _, _ in frames(data) if k == kind)


def play(runner, board, turns=TURNS, most=MOST_PRESSES):
    """X A A on the console whose turn it is, as the wire shows it: a console whose X A A sent
    no MOVE is not to move (the other is); one that sent a HASH ended its turn."""
    mover = HOST
    ended = 0
    for n in range(most):
        moves = kinds(runner.wire[mover], K_MOVE)
        hashes = kinds(runner.wire[mover], K_HASH)
        runner.do(turn_steps(board, mover, n))
        if kinds(runner.wire[mover], K_MOVE) == moves:
            mover = 1 - mover
        elif kinds(runner.wire[mover], K_HASH) > hashes:
            ended += 1
            mover = 1 - mover
            if ended >= turns:
                return


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


def run(board_name=BOARD, turns=TURNS, max_ms=MAX_MS, build_root=None):
    """Play the scenario; returns a LinkRun. Raises PicoError naming the chip that failed."""
    reason = pico.missing()
    if reason:
        raise pico.PicoError(reason)
    board = boards.load(board_name)
    started = time.time()
    with tempfile.TemporaryDirectory() as tmp:
        jobs = [pico.chip_job(board_name, tmp, build_root=build_root, name=name)[1] for name in NAMES]
        job = {"bootrom": pico.bootrom_path(), "chips": jobs, "uart": board.LINK_UART[0], "slice_us": SLICE_US,
               "max_ms": max_ms, "wire": os.path.join(tmp, "wire.json"), "interactive": True}
        runner = Runner(job, tmp)
        try:
            runner.do(setup_steps(board))
            play(runner, board, turns)
            runner.do(final_steps(board))
        except pico.PicoError as e:
            shown = "\n".join("--- %s's USB REPL ---\n%s" % (name, pico.read_console(j)[-1500:])
                              for name, j in zip(NAMES, jobs))
            raise pico.PicoError("%s\n%s" % (e, shown))
        finally:
            status = runner.close()
        if status != 0:
            raise pico.PicoError("the runner ended with status %s" % status)
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
    parser.add_argument("--turns", type=int, default=TURNS)
    args = parser.parse_args()
    try:
        result = run(args.board, args.turns)
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
