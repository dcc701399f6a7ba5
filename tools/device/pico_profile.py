"""Where the emulated Pico spends its cycles while it answers presses: the firmware runs in
rp2040js (tools/device/pico/profile.mjs) with every instruction's cycles counted at its
program counter, and the counts are named by the firmware's symbols (arm-none-eabi-nm).

    python -m tools.device.pico_profile pico_lcd_13 "DOWN A A"      # the title, the game list, a deal
    python -m tools.device.pico_profile pico_lcd_13 "DOWN A A" --top 40

The first window, "title", runs from power-on until the panel has received a whole frame's
bytes (the title on screen); "boot" from there to the first key (the games' modules are
imported in the frames after the title). Each key's window runs from the marker before it to
the marker after the frames that answer it (the panel quiet for 300 ms), so it holds the
answer and the loop's rests after it. Code
the VM emitted (viper, native) runs from RAM and is counted as "RAM"; the boot ROM's routines
(memcpy, memset, the float library) as "ROM".
"""

import argparse
import bisect
import json
import os
import subprocess
import tempfile

from tools.device import pico

PROFILER = os.path.join(pico.ROOT, "tools", "device", "pico", "profile.mjs")


def symbols(elf):
    """Sorted ([address], [name]) of the firmware's code symbols."""
    out = subprocess.run(["arm-none-eabi-nm", "-n", "--defined-only", elf], capture_output=True,
                         text=True, check=True).stdout
    addrs, names = [], []
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[1] in "tTwW":
            addrs.append(int(parts[0], 16) & ~1)
            names.append(parts[2])
    return addrs, names


def name_of(pc, addrs, names):
    if pc < 0x4000:
        return "ROM"
    if 0x20000000 <= pc < 0x20042000:
        return "RAM"
    i = bisect.bisect_right(addrs, pc) - 1
    return names[i] if i >= 0 else "?"


def profile(board_name, keys, build_root=None, watch=()):
    """[(window name, total cycles, [(function, cycles)] sorted)] for a key script from boot."""
    board = __import__("boards").load(board_name)
    script = pico.Script(board)
    script.boot()
    for token in keys.split():
        script.key(token)
    elf = pico.firmware_elf(board_name, build_root)
    addrs, names = symbols(elf)
    with tempfile.TemporaryDirectory() as tmp:
        board, job = pico.chip_job(board_name, tmp, build_root=build_root)
        job["steps"] = script.steps
        job["max_ms"] = 600000
        job["profile"] = os.path.join(tmp, "profile.json")
        job["title_bytes"] = pico.frame_bytes(board)
        job["watch"] = [addrs[names.index(w)] for w in watch]
        status, stderr = pico.run_node(PROFILER, job, tmp)
        if status != 0:
            raise pico.PicoError(stderr)
        with open(job["profile"]) as f:
            windows = json.load(f)
    result = []
    for window in windows:
        by_name = {}
        for pc, cycles in window["pcs"]:
            name = name_of(pc, addrs, names)
            by_name[name] = by_name.get(name, 0) + cycles
        total = sum(by_name.values())
        calls = [(name_of(pc, addrs, names), r0, name_of(lr, addrs, names), ns)
                 for pc, r0, lr, ns in window["calls"]]
        result.append((window["name"], total, sorted(by_name.items(), key=lambda kv: -kv[1]), calls))
    return result


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("board", help="an RP2040 board with a built firmware (make firmware BOARD=...)")
    parser.add_argument("keys", help="key tokens after boot, as the scenario's (tools/device/pico.py)")
    parser.add_argument("--top", type=int, default=25, help="functions shown per window")
    parser.add_argument("--watch", action="append", default=[],
                        help="a function whose calls are counted, by caller and first argument (r0)")
    args = parser.parse_args()
    for name, total, functions, calls in profile(args.board, args.keys, watch=args.watch):
        mhz = __import__("boards").load(args.board).CPU_FREQ / 1e6
        print("%s: %.1f M cycles (%.1f ms at %g MHz, rests included)" % (name, total / 1e6, total / mhz / 1e3, mhz))
        for function, cycles in functions[:args.top]:
            print("  %8.2f M %5.1f%%  %s" % (cycles / 1e6, 100.0 * cycles / total, function))
        counted = {}
        for function, r0, caller, _ in calls:
            key = (function, caller)
            n, most = counted.get(key, (0, 0))
            counted[key] = (n + 1, max(most, r0))
        for (function, caller), (n, most) in sorted(counted.items(), key=lambda kv: -kv[1][0])[:args.top]:
            print("  %6d calls of %s from %s (largest r0 %d)" % (n, function, caller, most))


if __name__ == "__main__":
    main()
