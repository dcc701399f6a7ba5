"""The console's firmware on an emulated Raspberry Pi Pico (rp2040js, tools/device/pico/run.mjs).

    python -m tools.device.pico pico_lcd_13 --keys "A RIGHT A" --png out.png

Boots build/BOARD/firmware.bin (make firmware BOARD=...) with a littlefs filesystem, presses
the board's buttons on their GPIOs, captures every byte sent to the panel with its DC level,
decodes them with the panel model (support/panel_model.py) and reads the USB REPL. What it
needs: node and the project's npm packages (npm ci), the RP2040 boot ROM (PICO_BOOTROM, or
../shared/micropython/rp2040-bootrom-b1.mjs beside the repository) and a built firmware.

Times are the emulator's (the board's clock, CPU_FREQ, 200 MHz on every RP2040 board; cycles
as rp2040js counts them; no bus contention; SPI bytes take their bits at the bus's clock):
estimates. rp2040js reads the flash in a cycle; with --xip-cache (or PICO_XIP_CACHE=1, or
xip_cache=True to run()) the harness models the RP2040's 16 KB XIP cache, and a read that
misses it waits the flash's 28 clocks, 56 of the core's at the flash divider 2
(tools/device/pico/chip.mjs, XipCache): the figures a real Pico's flash allows.
"""

import argparse
import json
import os
import shutil
import struct
import subprocess
import sys
import tempfile

import boards
from engine_core.ui import buttons as bt
from support.oled_model import OledModel
from support.panel_model import model_for

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

BOOTROM = os.path.join(os.path.dirname(ROOT), "shared", "micropython", "rp2040-bootrom-b1.mjs")
RUNNER = os.path.join(ROOT, "tools", "device", "pico", "run.mjs")
SHORT_MS = 60          # a tap: past the 20 ms debounce, short of the 350 ms repeat
LONG_MS = 600          # a long press: past 400 ms
QUIET_MS = 300         # the panel is done once it has been quiet this long
FIRST_MS = 1000        # a press that has drawn nothing by then changed nothing
BOOT_TIMEOUT_MS = 5000
PRESS_TIMEOUT_MS = 8000


class PicoError(Exception):
    pass


def xip_default():
    """Whether runs model the XIP cache unless told: PICO_XIP_CACHE=1 says they do."""
    return os.environ.get("PICO_XIP_CACHE") == "1"


def bootrom_path():
    return os.environ.get("PICO_BOOTROM") or BOOTROM


def missing():
    """Why the emulated Pico cannot run here (a sentence), or None."""
    if shutil.which("node") is None:
        return "node is not installed (Debian: apt-get install nodejs npm)"
    if not os.path.isdir(os.path.join(ROOT, "node_modules", "rp2040js")):
        return "the npm packages are not installed (npm ci)"
    if not os.path.isfile(bootrom_path()):
        return "no RP2040 boot ROM at %s (set PICO_BOOTROM)" % bootrom_path()
    return None


def unavailable(board_name):
    """Why the emulated Pico cannot run `board_name`'s firmware here (a sentence), or None."""
    reason = missing()
    if reason is None:
        try:
            firmware_facts(board_name)
        except PicoError as e:
            reason = str(e)
    return reason


def firmware_facts(board_name, build_root=None):
    folder = os.path.join(build_root or os.path.join(ROOT, "build"), board_name)
    path = os.path.join(folder, "firmware.json")
    if not os.path.isfile(path):
        raise PicoError("no firmware for %s: make firmware BOARD=%s" % (board_name, board_name))
    with open(path) as f:
        facts = json.load(f)
    facts["bin"] = os.path.join(folder, "firmware.bin")
    return facts


def firmware_elf(board_name, build_root=None):
    """The ELF of the board's built firmware (its symbols name the profiles' addresses)."""
    elf = firmware_facts(board_name, build_root).get("elf")
    if not elf or not os.path.isfile(elf):
        raise PicoError("the firmware's ELF is gone: make firmware BOARD=%s" % board_name)
    return elf


def button_presses(board, token):
    """[(gpio, hold_ms)] that make the board report the key-script token (a button name,
    LONG_<name>); a button the board lacks is reached through its LONG_AS stand-in."""
    token = token.upper()
    long_press = token.startswith("LONG_")
    name = token[5:] if long_press else token
    if name not in bt.NAMES:
        raise PicoError("unknown key %r" % token)
    button = bt.NAMES.index(name)
    gpios = dict(board.BUTTONS)
    if button in gpios:
        return [(gpios[button], LONG_MS if long_press else SHORT_MS)]
    for held, reported in board.LONG_AS:
        if reported == button and held in gpios and not long_press:
            return [(gpios[held], LONG_MS)]
    raise PicoError("%s has no way to press %s" % (board.NAME, token))


def spi_hz(board):
    """The SPI clock the RP2040 gives a board's request at its CPU_FREQ (the peripheral clock
    is the system clock): clk_peri / (CPSDVSR x (1 + SCR)), CPSDVSR even, the fastest not
    above the request, as the SDK's spi_set_baudrate picks it."""
    clk, asked = board.CPU_FREQ, board.SPI[1]
    prescale = 2
    while prescale < 254 and clk >= prescale * 256 * asked:
        prescale += 2
    postdiv = 256
    while postdiv > 1 and clk // (prescale * (postdiv - 1)) <= asked:
        postdiv -= 1
    return clk / (prescale * postdiv)


def frame_bytes(board):
    """The bytes a whole frame takes on the panel's bus: one bit a pixel on the one-bit OLEDs,
    16 on the colour panels."""
    if getattr(board, "MONO", False):
        return board.WIDTH * board.HEIGHT // 8
    return 2 * board.WIDTH * board.HEIGHT


def panel_model(board):
    """The model that decodes the board's panel traffic (support/oled_model.py for the OLEDs,
    support/panel_model.py for the MIPI-DCS panels)."""
    if getattr(board, "MONO", False):
        return OledModel(board.CONTROLLER, board.HEIGHT // 8)
    return model_for(board)


def glass_of(board, model):
    """What the glass shows, rows of RGB565 values (colour) or of 0/1 (one-bit); -1: unwritten."""
    if getattr(board, "MONO", False):
        return model.glass_image(board.GLASS[0], board.WIDTH, board.HEIGHT)
    return model.glass_image(board.GLASS, board.BGR, board.INVERT)


class Script:
    """The steps of one emulated run (tools/device/pico/run.mjs); or one chip's part of a run of
    two (tools/device/pico_link.py): `steps` is then the run's list, shared, and `chip` the
    chip's index in it."""

    def __init__(self, board, steps=None, chip=None):
        self.board = board
        self.steps = [] if steps is None else steps
        self.chip = chip
        self.marks = []

    def add(self, step):
        if self.chip is not None:
            step["chip"] = self.chip
        self.steps.append(step)

    def boot(self):
        """Power on and wait for the USB REPL to connect, then for the panel to settle."""
        self.add({"op": "connect", "timeout_ms": BOOT_TIMEOUT_MS})
        self.settle("boot", min_bytes=frame_bytes(self.board))

    def settle(self, name, min_bytes=0, first_ms=FIRST_MS):
        """Run until the panel has been quiet for QUIET_MS after its first byte (or
        first_ms without one) and at least min_bytes, then mark the frame `name`."""
        self.add({"op": "quiet", "quiet_ms": QUIET_MS, "first_ms": first_ms,
                           "min_bytes": min_bytes, "timeout_ms": PRESS_TIMEOUT_MS})
        self.mark(name)

    def mark(self, name):
        self.add({"op": "mark", "name": name})
        self.marks.append(name)

    def key(self, token, name=None):
        for gpio, hold in button_presses(self.board, token):
            self.add({"op": "press", "gpio": gpio, "hold_ms": hold})
        self.settle(name or token)

    def keys(self, text):
        for token in text.split():
            self.key(token)

    def wait(self, ms, name):
        self.add({"op": "run", "ms": ms})
        self.mark(name)

    def repl(self, line, expect=">>> ", timeout_ms=BOOT_TIMEOUT_MS):
        """Type a line at the USB REPL and wait for `expect`."""
        self.add({"op": "send", "text": line + "\r"})
        self.add({"op": "text", "text": expect, "timeout_ms": timeout_ms})

    def interrupt(self):
        """Ctrl-C: the app stops and the REPL is free."""
        self.add({"op": "send", "text": "\x03"})
        self.add({"op": "text", "text": ">>> ", "timeout_ms": BOOT_TIMEOUT_MS})

    def soft_reset(self):
        """Ctrl-D at the REPL: MicroPython restarts and runs main.py again."""
        self.add({"op": "send", "text": "\x04"})
        self.add({"op": "text", "text": "soft reboot", "timeout_ms": BOOT_TIMEOUT_MS})
        self.settle("soft reset", min_bytes=frame_bytes(self.board))


class Run:
    """What one emulated run left: the panel's bytes and markers, the REPL's text."""

    def __init__(self, board, records, console, flash_out):
        self.board = board
        self.records = records        # [("D", dc, bytes) or ("M", dict)]
        self.console = console
        self.flash_out = flash_out
        self.end = records[-1][1] if records and records[-1][0] == "M" else {}

    def markers(self):
        return [r[1] for r in self.records if r[0] == "M"]

    def frames(self):
        """[(marker, glass rows)] at every named marker, decoded by the panel's model."""
        model = panel_model(self.board)
        out = []
        for record in self.records:
            if record[0] == "D":
                model.feed([(record[1], record[2])])
            elif record[1]["name"] not in ("press", "end"):
                out.append((record[1], glass_of(self.board, model)))
        self.errors = model.errors
        return out

    def tracebacks(self):
        return self.console.count("Traceback")


def parse_trace(data):
    records = []
    i = 0
    while i < len(data):
        kind = data[i:i + 1]
        if kind == b"D":
            dc = data[i + 1]
            n = struct.unpack_from("<I", data, i + 2)[0]
            records.append(("D", dc, data[i + 6:i + 6 + n]))
            i += 6 + n
        elif kind == b"M":
            n = struct.unpack_from("<I", data, i + 1)[0]
            records.append(("M", json.loads(data[i + 5:i + 5 + n])))
            i += 5 + n
        else:
            raise PicoError("bad trace record at byte %d" % i)
    return records


def chip_job(board_name, tmp, flash_image=None, keep_flash=False, build_root=None, name=None,
             xip_cache=None):
    """(board, job) for one chip of a run (tools/device/pico/chip.mjs), its files in `tmp`
    (named after `name` when given); xip_cache: model the XIP cache (None: xip_default())."""
    board = boards.load(board_name)
    facts = firmware_facts(board_name, build_root)
    prefix = name + "-" if name else ""
    job = {
        "bootrom": bootrom_path(), "firmware": facts["bin"],
        "fs_offset": facts["fs_offset"], "fs_size": facts["fs_size"], "hooks": facts["hooks"],
        "spi": board.SPI[0] if board.SPI is not None else None, "dc": board.DC, "cs": board.CS,
        "buttons": [gpio for _, gpio in board.BUTTONS],
        "trace": os.path.join(tmp, prefix + "trace.bin"),
        "console": os.path.join(tmp, prefix + "console.txt"),
        "xip_cache": xip_default() if xip_cache is None else bool(xip_cache),
    }
    if board.SPI is None:
        job["i2c"], job["i2c_address"] = board.I2C[0], board.I2C_ADDRESS
    if name:
        job["name"] = name
    if flash_image is not None:
        job["flash_image"] = os.path.join(tmp, prefix + "fs-in.img")
        with open(job["flash_image"], "wb") as f:
            f.write(flash_image)
    if keep_flash:
        job["flash_out"] = os.path.join(tmp, prefix + "fs-out.img")
    return board, job


def read_console(job):
    if not os.path.exists(job["console"]):
        return ""
    with open(job["console"], encoding="latin-1") as f:
        return f.read()


def read_run(board, job):
    """The Run a chip's job left in its files."""
    with open(job["trace"], "rb") as f:
        records = parse_trace(f.read())
    flash_out = None
    if "flash_out" in job:
        with open(job["flash_out"], "rb") as f:
            flash_out = f.read()
    return Run(board, records, read_console(job), flash_out)


def run_node(runner, job, tmp, timeout_s=None):
    """Run a job with node; (exit status, stderr). A run past timeout_s (wall time) is stopped."""
    path = os.path.join(tmp, "job.json")
    with open(path, "w") as f:
        json.dump(job, f)
    try:
        done = subprocess.run(["node", runner, path], capture_output=True, text=True, cwd=ROOT,
                              timeout=timeout_s)
    except subprocess.TimeoutExpired:
        return -1, "the run took longer than %d s of wall time" % timeout_s
    return done.returncode, done.stderr.strip()


def run(board_name, script, flash_image=None, keep_flash=False, max_ms=600000, build_root=None,
        xip_cache=None, xip_misses=None):
    """Boot the firmware and play `script`; returns a Run. flash_image: a filesystem image
    to power up with (a Run's flash_out); keep_flash: return the filesystem as it ends;
    xip_cache: model the XIP cache (None: xip_default()); xip_misses: a file to write the
    cache's misses to, as JSON [[line, misses], ...], a line being its offset in the flash >> 3
    (the cache is then modelled)."""
    reason = missing()
    if reason:
        raise PicoError(reason)
    with tempfile.TemporaryDirectory() as tmp:
        board, job = chip_job(board_name, tmp, flash_image, keep_flash, build_root,
                              xip_cache=xip_cache or xip_misses is not None)
        if xip_misses is not None:
            job["xip_misses"] = os.path.abspath(xip_misses)
        job["max_ms"] = max_ms
        job["steps"] = script.steps
        status, stderr = run_node(RUNNER, job, tmp)
        if status != 0:
            raise PicoError("%s\n--- USB REPL ---\n%s" % (stderr, read_console(job)[-3000:]))
        return read_run(board, job)


def xip_summary(counts):
    """A marker's XIP counts ([reads of the flash, misses, cycles waited]) in words."""
    reads, misses, cycles = counts
    return "%d reads of the flash, %.2f%% hits, %d misses, %d cycles waited" % (
        reads, 100 * hit_rate(counts), misses, cycles)


def hit_rate(counts, since=None):
    """The share of the flash reads that hit the XIP cache, from the counts of a marker (and
    since those of an earlier one)."""
    reads, misses = counts[0], counts[1]
    if since:
        reads, misses = reads - since[0], misses - since[1]
    return 1 - misses / reads if reads else 1.0


def glass_to_png(rows, path, board):
    """The glass as the player sees it (screen orientation), as a PNG."""
    from PIL import Image

    from support.panel_model import glass_position
    image = Image.new("RGB", (board.WIDTH, board.HEIGHT))
    if getattr(board, "MONO", False):
        image.putdata([(255, 255, 255) if v > 0 else (0, 0, 0) for row in rows for v in row])
        image.save(path)
        return
    pixels = []
    for y in range(board.HEIGHT):
        for x in range(board.WIDTH):
            c, r = glass_position(x, y, board.GLASS, board.MADCTL)
            v = max(rows[r][c], 0)
            pixels.append((((v >> 11) & 31) * 255 // 31, ((v >> 5) & 63) * 255 // 63, (v & 31) * 255 // 31))
    image.putdata(pixels)
    image.save(path)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("board", help="an RP2040 board with a built firmware (make firmware BOARD=...)")
    parser.add_argument("--keys", default="", help="a key script, e.g. \"A RIGHT A LONG_A\"")
    parser.add_argument("--png", help="write the last frame as a PNG")
    parser.add_argument("--xip-cache", action="store_true", default=xip_default(),
                        help="model the XIP cache: a read that misses it waits for the flash")
    args = parser.parse_args()
    try:
        board = boards.load(args.board)
        script = Script(board)
        script.boot()
        script.keys(args.keys)
        result = run(args.board, script, xip_cache=args.xip_cache)
    except (PicoError, ValueError) as e:
        raise SystemExit("pico: %s" % e)
    frames = result.frames()
    for marker, _ in frames:
        print("%-12s %9.1f ms" % (marker["name"], marker["ns"] / 1e6))
    print("panel bytes %d, tracebacks %d" % (result.end.get("spi_bytes", 0), result.tracebacks()))
    if result.end.get("xip"):
        print("XIP cache: %s" % xip_summary(result.end["xip"]))
    if args.png and frames:
        glass_to_png(frames[-1][1], args.png, board)
    sys.stdout.write(result.console[-2000:])


if __name__ == "__main__":
    main()
