"""What the web page costs (docs/web.md), measured in headless Chromium.

    python -m tools.bench.web_bench [--runs 5]
    python -m tools.bench.web_bench --screenshot docs/screens/web.png     (the README's picture)

Builds the page into a temporary folder, serves it on localhost and opens it over http:// and
file://, and prints:
- page weight: every file the page downloads, as served (no compression) and gzipped (-9),
  which is what a static host that compresses sends;
- load: from the start of navigation to the first frame on the canvas, and the part of it
  spent starting MicroPython and the console (the page's script to the first frame);
- frame time: the cost of one device frame in the page (button presses, the console's tick,
  the canvas copy), for frames with a press and for frames without, while a key script plays
  in real time.
Needs Chromium (CHROMIUM, or `chromium` on the PATH), the playwright package and npm ci.
"""

import argparse
import gzip
import os
import shutil
import statistics
import tempfile
import time

from tools.build_web import Server, build

SCRIPT = "X A A X A A RIGHT RIGHT A LEFT A X A A START DOWN A Y Y X A A LONG_A X A A"
KEYS = {"A": "a", "B": "b", "X": "x", "Y": "y", "START": "s", "UP": "ArrowUp",
        "DOWN": "ArrowDown", "LEFT": "ArrowLeft", "RIGHT": "ArrowRight"}


def percentile(values, p):
    values = sorted(values)
    return values[min(len(values) - 1, int(round(p / 100 * (len(values) - 1))))]


def weight(folder, served):
    rows = []
    for name in served:
        with open(os.path.join(folder, name), "rb") as f:
            data = f.read()
        rows.append((name, len(data), len(gzip.compress(data, 9))))
    return rows


def open_page(browser, url):
    context = browser.new_context()
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(url)
    page.wait_for_function("window.pcc && (window.pcc.ready || window.pcc.error)", timeout=60000)
    if errors or page.evaluate("window.pcc.error"):
        raise SystemExit("the page failed: %s %s" % (errors, page.evaluate("window.pcc.error")))
    return context, page


def play(page, script):
    for token in script.split():
        long_press = token.startswith("LONG_")
        key = KEYS[token[5:] if long_press else token]
        if long_press:
            page.keyboard.down(key)
            time.sleep(0.5)
            page.keyboard.up(key)
        else:
            page.keyboard.press(key)
        time.sleep(0.15)
    time.sleep(1.0)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--screenshot", help="only write a PNG of the page with a game in play")
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright
    chromium = os.environ.get("CHROMIUM") or shutil.which("chromium")
    folder = tempfile.mkdtemp(prefix="pocket-web-")
    build(folder)
    server = Server(folder)
    source_folder = tempfile.mkdtemp(prefix="pocket-web-source-")
    build(source_folder, compiled=False)  # the modules as source, for comparison
    source_server = Server(source_folder)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, args=["--no-sandbox"])
        if args.screenshot:
            context = browser.new_context(viewport={"width": 1280, "height": 780})
            page = context.new_page()
            page.goto(server.url + "index.html?board=320x240&game=sir_tommy&seed=7")
            page.wait_for_function("window.pcc && window.pcc.ready", timeout=60000)
            play(page, "X A A X A A X A A RIGHT")
            page.screenshot(path=args.screenshot)
            print("wrote " + args.screenshot)
            return
        print("Chromium %s, %d runs each" % (browser.version, args.runs))

        context, page = open_page(browser, server.url + "index.html")
        served = ["index.html"] + page.evaluate(
            "performance.getEntriesByType('resource').map(e => e.name.split('/').pop())")
        context.close()
        rows = weight(folder, [n for n in served if os.path.exists(os.path.join(folder, n))])
        print("\n| file (over http) | bytes | gzipped |\n| --- | ---: | ---: |")
        for name, size, packed in rows:
            print("| %s | %d | %d |" % (name, size, packed))
        print("| **total** | **%d** | **%d** |" % (sum(r[1] for r in rows), sum(r[2] for r in rows)))
        local = weight(folder, ["micropython.wasm.js"])[0]
        print("(from file:// the page reads micropython.wasm.js, %d bytes, instead of the .wasm)"
              % local[1])
        source = weight(source_folder, ["engine.js"])[0]
        print("(with the modules as source, engine.js would be %d bytes, %d gzipped)" % source[1:])

        print("\n| load (ms) | navigation to first frame, median | max | script to first frame, median"
              " | of which MicroPython starting, median |\n| --- | ---: | ---: | ---: | ---: |")
        for via, base in (("http://", server.url), ("file://", "file://" + folder + "/"),
                          ("http://, modules as source", source_server.url)):
            first, boot, port = [], [], []
            for _ in range(args.runs):
                context, page = open_page(browser, base + "index.html?board=240x240")
                first.append(page.evaluate("window.pcc.firstFrameMs"))
                boot.append(page.evaluate("window.pcc.loadMs"))
                port.append(page.evaluate("window.pcc.micropythonMs"))
                context.close()
            print("| %s | %.0f | %.0f | %.0f | %.0f |" % (
                via, statistics.median(first), max(first), statistics.median(boot),
                statistics.median(port)))

        print("\n| frame time (ms) | frames | median | 95th percentile | max |"
              "\n| --- | ---: | ---: | ---: | ---: |")
        for game, size in (("aces_up", "240x240"), ("nerts", "320x240")):
            context, page = open_page(browser, server.url + "index.html?board=%s&game=%s&seed=7"
                                      % (size, game))
            play(page, SCRIPT)
            times = page.evaluate("window.pcc.frameTimes()")
            context.close()
            for label, pick in (("with a press", lambda t: t[1] > 0), ("without", lambda t: t[1] == 0)):
                values = [t[0] for t in times if pick(t)]
                print("| %s %s, %s | %d | %.2f | %.2f | %.2f |" % (
                    game, size, label, len(values), statistics.median(values),
                    percentile(values, 95), max(values)))
        browser.close()
    server.close()
    source_server.close()
    shutil.rmtree(folder)
    shutil.rmtree(source_folder)


if __name__ == "__main__":
    main()
