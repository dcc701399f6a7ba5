"""Where the emulated Pico's XIP cache misses: the press session of tools/device/pico_presses.py
run with the cache modelled, each miss named by the firmware symbol whose bytes the missed
8-byte line holds (code, or read-only data such as the frozen modules' bytecode).

    python -m tools.device.pico_xip pico_lcd_13 [--games casket] [--top 30]

The functions that miss most are the ones other hot lines keep evicting; those the VM runs on
every bytecode are laid side by side at the start of the firmware's code (HOT_CODE in
tools/device/firmware.py), which this tool was used to choose (docs/performance.md).
"""

import argparse
import bisect
import collections
import json
import os
import subprocess
import tempfile

from tools.device import firmware, pico, pico_presses
from tools.device.pico_scenario import GAMES


def flash_symbols(elf):
    """Sorted [(address, size, kind, name)] of the symbols in flash; kind 'code' or 'data'."""
    out = subprocess.run(["arm-none-eabi-nm", "-S", "-n", "--defined-only", elf], capture_output=True,
                         text=True, check=True).stdout
    found = []
    for line in out.splitlines():
        parts = line.split()
        if len(parts) != 4:
            continue
        address = int(parts[0], 16) & ~1
        if firmware.FLASH_BASE <= address < firmware.FLASH_BASE + 0x1000000:
            found.append((address, int(parts[1], 16), "code" if parts[2] in "tTwW" else "data", parts[3]))
    return found


def name_misses(lines, symbols):
    """{(name, kind, size): misses} for [[line, misses]] (a line is its offset in the flash >> 3);
    a line shared by the end of one symbol and the start of the next counts half to each."""
    starts = [s[0] for s in symbols]
    named = collections.Counter()
    for line, count in lines:
        address = firmware.FLASH_BASE + (line << 3)
        for half in (address, address + 4):
            i = bisect.bisect_right(starts, half) - 1
            if i >= 0 and half < starts[i] + max(symbols[i][1], 4):
                named[(symbols[i][3], symbols[i][2], symbols[i][1])] += count / 2
            else:
                named[("?", "?", 0)] += count / 2
    return named


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("board", help="an RP2040 board with a built firmware")
    parser.add_argument("--games", default=",".join(GAMES), help="comma-separated (default: all five)")
    parser.add_argument("--top", type=int, default=30, help="symbols to list")
    args = parser.parse_args()
    try:
        symbols = flash_symbols(pico.firmware_elf(args.board))
    except pico.PicoError as e:
        raise SystemExit(str(e))
    named = collections.Counter()
    total_ms = 0.0
    presses = 0
    with tempfile.TemporaryDirectory() as tmp:
        for game in args.games.split(","):
            path = os.path.join(tmp, game + ".json")
            rows = pico_presses.answers(args.board, game, xip_misses=path)
            total_ms += sum(ms for _, _, ms, _ in rows)
            presses += len(rows)
            with open(path) as f:
                named.update(name_misses(json.load(f), symbols))
    misses = sum(named.values())
    hot = sum(n for (name, _, _), n in named.items() if name in firmware.HOT_CODE)
    print("%d presses answered in %.2f ms on average; %d misses, %.1f%% of them in HOT_CODE"
          % (presses, total_ms / max(presses, 1), misses, 100.0 * hot / max(misses, 1)))
    for (name, kind, size), n in named.most_common(args.top):
        print("%9d %5.1f%%  %-4s %6d B  %s%s" % (n, 100.0 * n / max(misses, 1), kind, size, name,
                                                "  (hot)" if name in firmware.HOT_CODE else ""))


if __name__ == "__main__":
    main()
