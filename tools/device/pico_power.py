"""Power on the emulated Pico: time to the title, how much of the time the CPU executes rather
than waits for an interrupt (on a still title, a still table, in dimmed and switched-off
screens, in Nerts), and the dimming and the panel's sleep as the console does them.

    python -m tools.device.pico_power            (a report, both ways; tests/test_pico.py asserts)

The busy share is rp2040js's: the time the core spent executing instructions against the
time it spent in WFI/WFE (tools/device/pico/chip.mjs counts both), between two marks of a run.
Times are the emulator's (the board's clock, 200 MHz): estimates. The report gives each figure twice: with every
read of the flash in a cycle (rp2040js), and with the RP2040's XIP cache modelled, a read that
misses it waiting for the flash (chip.mjs, XipCache), as a real Pico's would.
"""

import json
import re

import boards
from tools.device import pico

BOARD = "pico_lcd_13"
OPEN_ACES_UP = "DOWN A X A"                    # the game list, Aces Up, the seed entry, deal 1
OPEN_NERTS = "DOWN A DOWN DOWN DOWN DOWN X A"
STILL_MS = 5000                                # each still stretch measured
SETTLE_MS = 3000                               # after the last key: slides end, the save is made
DIM_S = 30                                     # the settings' defaults (engine_core/records.py)
OFF_S = 180
SLPIN, SLPOUT, DISPOFF, DISPON = 0x10, 0x11, 0x28, 0x29


def busy(markers, first, last):
    """The share of the time between two marks the core executed (0..1)."""
    a = [m for m in markers if m["name"] == first][0]
    b = [m for m in markers if m["name"] == last][0]
    run = b["busy_ns"] - a["busy_ns"]
    wait = b["wait_ns"] - a["wait_ns"]
    return run / (run + wait)


def still(script, name, ms=STILL_MS):
    script.mark(name + " 0")
    script.wait(ms, name + " 1")


def day_script(board):
    """Boot; a still title; Aces Up dealt and left alone until it dims and goes off; a key."""
    script = pico.Script(board)
    script.boot()
    still(script, "title")
    script.keys(OPEN_ACES_UP)
    script.wait(SETTLE_MS, "settled")
    still(script, "table")
    # The last key was pressed before "settled"; dimming is DIM_S after it.
    after_key = SETTLE_MS + STILL_MS + pico.QUIET_MS
    script.wait(DIM_S * 1000 - after_key + 5000, "dim 0")
    script.wait(20000, "dim 1")
    script.wait((OFF_S - DIM_S) * 1000 - 20000, "off 0")
    script.wait(10000, "off 1")
    script.key("RIGHT", "woken")               # wakes the screen and does nothing else
    script.key("RIGHT", "moved")               # the cursor moves
    script.interrupt()
    script.repl("from firmware.main import power_state; print(power_state())")
    return script


def nerts_script(board, seconds=10):
    script = pico.Script(board)
    script.boot()
    script.keys(OPEN_NERTS)
    script.wait(2000, "nerts 0")
    script.wait(seconds * 1000, "nerts 1")
    script.interrupt()
    script.repl("from firmware.bench import nerts_busy")
    script.mark("three 0")
    script.repl("nerts_busy(%d)" % seconds, expect="nerts busy", timeout_ms=(seconds + 20) * 1000)
    script.mark("three 1")
    script.add({"op": "text", "text": ">>> ", "timeout_ms": 5000})
    return script


def commands_between(run, first, last):
    """The panel commands (DC low bytes) sent between two marks."""
    out = []
    inside = False
    for record in run.records:
        if record[0] == "M":
            if record[1]["name"] == first:
                inside = True
            elif record[1]["name"] == last:
                inside = False
        elif inside and record[1] == 0:
            out.extend(record[2])
    return out


def figures(board_name=BOARD, xip_cache=None):
    """The figures of a day's run and a Nerts run; xip_cache: with the XIP cache modelled (None:
    as pico.xip_default() says)."""
    board = boards.load(board_name)
    day = pico.run(board_name, day_script(board), xip_cache=xip_cache)
    m = day.markers()
    boot = [x for x in m if x["name"] == "boot"][0]
    state = json.loads(re.findall(r"^(\{.*\})\s*$", day.console, re.M)[-1].replace("'", '"'))
    bytes_at = dict((x["name"], x["spi_bytes"]) for x in m if "spi_bytes" in x)
    nerts = pico.run(board_name, nerts_script(board), xip_cache=xip_cache)
    n = nerts.markers()
    three = re.search(r"nerts busy (\d+\.\d)%", nerts.console)
    return {
        "board": board,
        "boot_ms": boot["last_spi_ns"] / 1e6,
        "title": busy(m, "title 0", "title 1"),
        "table": busy(m, "table 0", "table 1"),
        "dim": busy(m, "dim 0", "dim 1"),
        "off": busy(m, "off 0", "off 1"),
        "nerts": busy(n, "nerts 0", "nerts 1"),
        "three": busy(n, "three 0", "three 1"),
        "three_ticks": float(three.group(1)) / 100 if three else None,
        "drawn_still": (bytes_at["title 1"] - bytes_at["title 0"], bytes_at["table 1"] - bytes_at["table 0"]),
        "dim_cmds": commands_between(day, "dim 0", "dim 1"),
        "off_cmds": commands_between(day, "dim 1", "off 0"),
        "wake_cmds": commands_between(day, "off 1", "woken"),
        "woken_bytes": bytes_at["woken"] - bytes_at["off 1"],
        "moved_bytes": bytes_at["moved"] - bytes_at["woken"],
        "state": state,
        "tracebacks": day.tracebacks() + nerts.tracebacks(),
        "xip": (pico.hit_rate(x_at(m, "title 1"), x_at(m, "title 0")),
                pico.hit_rate(x_at(n, "nerts 1"), x_at(n, "nerts 0"))) if day.end.get("xip") else None,
    }


def x_at(markers, name):
    return [x for x in markers if x["name"] == name][0]["xip"]


# Datasheet currents (typical) for the battery estimate: the RP2040 at 125 MHz running
# (about 25 mA with both clocks up, Raspberry Pi's RP2040 datasheet, "Power consumption":
# ~24 mA for a busy core at 125 MHz) and waiting in WFI/WFE with its clocks running (~ 9 mA:
# the clocks and the PLLs stay up, only the core stops); a 240x240 IPS module with an ST7789:
# controller ~ 5 mA displaying, ~ 0.01 mA asleep; its LED backlight ~ 30 mA at full, ~ 3 mA
# at the dimmed 10 %, 0 off. The core's two currents scale with the clock and the core's
# voltage: the core is fed by the chip's own linear regulator, so the current drawn goes as
# C V f (its power as C V^2 f): at 200 MHz and 1.15 V (docs/boards.md, "The RP2040's clock")
# 1.6 x 1.15 / 1.10 = 1.67 times the figures at 125 MHz and 1.10 V. An upper bound: part of
# them (the USB PLL, the crystal, the flash's standby, leakage) does not follow clk_sys.
CORE_SCALE = 200 / 125 * 1.15 / 1.10
CORE_RUN_MA = 24.0 * CORE_SCALE
CORE_WAIT_MA = 9.0 * CORE_SCALE
PANEL_ON_MA = 5.0
PANEL_SLEEP_MA = 0.01
BACKLIGHT_MA = 30.0
CELL_MAH = 1000


def current_ma(busy_share, backlight_share, panel_on=True):
    core = CORE_RUN_MA * busy_share + CORE_WAIT_MA * (1 - busy_share)
    return core + (PANEL_ON_MA if panel_on else PANEL_SLEEP_MA) + BACKLIGHT_MA * backlight_share


TARGETS = ("500 ms", "5%", "5%", "5%", "stated", "stated")


def report(f, cached=None):
    """The table of docs/performance.md's "Resting and power on the emulated Pico": f's figures
    (flash in a cycle) and, given, cached's (the same runs with the XIP cache modelled)."""
    runs = [f] if cached is None else [f, cached]
    cells = [[] for _ in TARGETS]
    for g in runs:
        three = "-" if g["three_ticks"] is None else "%.1f%%" % (100 * g["three_ticks"])
        for row, cell in zip(cells, (
                "%d ms" % g["boot_ms"],
                "%.2f%% (%d B)" % (100 * g["title"], g["drawn_still"][0]),
                "%.2f%% (%d B)" % (100 * g["table"], g["drawn_still"][1]),
                "%.2f%% / %.2f%%" % (100 * g["dim"], 100 * g["off"]),
                "%.1f%%" % (100 * g["nerts"]),
                "%.1f%% (%s)" % (100 * g["three"], three))):
            row.append(cell)
    whats = (
        "power-on to the title on screen (last byte of its first full frame)",
        "CPU busy on a still title, %d s (bytes drawn)" % (STILL_MS // 1000),
        "CPU busy on a still Aces Up table, %d s (bytes drawn)" % (STILL_MS // 1000),
        "CPU busy with the screen dimmed / off",
        "CPU busy in Nerts against the device's computer player, its moves drawn, 10 s",
        "CPU busy ticking Nerts with three computer players, 10 s (`firmware.bench.nerts_busy`: "
        "the game's ticks alone, Steady speed and the Normal level; in brackets the chip's own clock's figure)",
    )
    head = "| what (%s, emulated) | flash in a cycle |" % BOARD
    rule = "| --- | --- |"
    if cached is not None:
        head += " XIP cache modelled |"
        rule += " --- |"
    lines = [head + " target |", rule + " --- |"]
    lines += ["| %s | %s | %s |" % (what, " | ".join(row), target)
              for what, row, target in zip(whats, cells, TARGETS)]
    if cached is not None:
        lines.append("| XIP cache hits (of the core's reads of the flash): still title / Nerts | | "
                     "%.2f%% / %.2f%% | |" % (100 * cached["xip"][0], 100 * cached["xip"][1]))
    return "\n".join(lines)


def battery_hours(f):
    """Hours on a 1,000 mAh cell: in play (busy as Nerts, screen lit), and a pocket day's
    cycle (a key a minute: 30 s lit, 30 s dimmed), and with the screen off."""
    play = current_ma(f["nerts"], 1.0)
    cycle = (current_ma(f["table"], 1.0) + current_ma(f["dim"], 0.1)) / 2
    off = current_ma(f["off"], 0.0, panel_on=False)
    return [(name, ma, CELL_MAH / ma) for name, ma in
            (("playing Nerts, screen lit", play), ("a key a minute: 30 s lit, 30 s dimmed", cycle),
             ("screen off (after 3 minutes)", off))]


def main():
    from tools.cli import help_or_go
    help_or_go(__doc__, "tools/device/pico_power.py")
    reason = pico.unavailable(BOARD)
    if reason:
        raise SystemExit("pico_power: %s" % reason)
    f = figures(xip_cache=False)
    cached = figures(xip_cache=True)
    print(report(f, cached))
    for g, how in ((f, "flash in a cycle"), (cached, "XIP cache modelled")):
        print(how)
        for name, ma, hours in battery_hours(g):
            print("  %-40s %6.1f mA  %5.1f h" % (name, ma, hours))
        print("  power_state:", g["state"])


if __name__ == "__main__":
    main()
