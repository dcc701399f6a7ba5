"""Driving the console's web page in headless Chromium (Playwright) and replaying what it did
in the simulator, for tests/test_web.py.

The page runs with ?time=manual: frames still come from requestAnimationFrame, but no time
passes for the console unless the test says so (pcc.advance), as in the simulator's key
scripts. The page logs every press and tick it hands the console; the test replays that log
on CPython (the simulator's Console and App) and compares the canvas with the simulator's
screen after every step of the script.
"""

import base64
import binascii
import os
import shutil

import pytest

from engine_core.ui import buttons as bt
from simulator import keymap
from simulator.image import screen_rgb_bytes
from tools.mpy import ROOT

CHROMIUM = os.environ.get("CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")
REQUIRED = os.environ.get("POCKET_WEB_TESTS") == "required"  # .ci/run: a skip is a failure
SKIPPED = "BROWSER TESTS SKIPPED"  # tests/conftest.py prints a banner when it sees this
PACKAGE = os.path.join(ROOT, "node_modules", "@micropython", "micropython-webassembly-pyscript")
PREFIX = "pocket-cards/"
TICK_MS = 50
TICK, CLICK, DIGIT = -1, -2, -3  # take_log()'s events other than presses
LOG_TICK, LOG_CLICK, LOG_DIGIT = 0xFF, 0xFE, 0xFD  # their codes in the page's log (web/main.py)
LOG_PHASES = {0xFE: 0, 0xFC: 1, 0xFB: 2}  # the pointer pressed, moved, released (engine_core/pointer.py)
LONG_WAIT_S = 20


def skip_or_fail(why):
    message = "%s: %s" % (SKIPPED, why)
    if REQUIRED:
        pytest.fail(message + " (POCKET_WEB_TESTS=required)")
    pytest.skip(message)


def missing():
    """Why the browser tests cannot run here, or ''."""
    if not CHROMIUM:
        return "no Chromium (apt-get install chromium, or set CHROMIUM to its path)"
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "the playwright package is not installed (make venv)"
    if not os.path.exists(os.path.join(PACKAGE, "micropython.wasm")):
        return "node_modules has no MicroPython WebAssembly port (npm ci)"
    return ""


def playwright_key(key):
    return "Space" if key == " " else key


# The first key of each button in the shared key map, as Playwright names it.
KEY_OF = {}
for _key, _button in keymap.KEYS:
    KEY_OF.setdefault(_button, playwright_key(keymap.browser_key(_key)))


class WebConsole:
    """One page of the console in a browser context, with its console messages collected."""

    def __init__(self, context, base_url, query):
        self.context = context
        self.page = context.new_page()
        self.errors = []
        self.played = []  # the events the tests have taken from the log (play_and_compare)
        self.page.on("console", self._console)
        self.page.on("pageerror", lambda error: self.errors.append("pageerror: %s" % error))
        self.url = base_url + "index.html" + ("?" + query if query else "")
        self.page.goto(self.url)
        self.wait_ready()

    def _console(self, message):
        if message.type == "error":
            self.errors.append("console.error: " + message.text)

    def wait_ready(self):
        self.page.wait_for_function("window.pcc && (window.pcc.ready || window.pcc.error)",
                                    timeout=LONG_WAIT_S * 1000)
        error = self.page.evaluate("window.pcc.error")
        assert error is None, error

    def reload(self):
        self.page.reload()
        self.wait_ready()

    def evaluate(self, code, arg=None):
        return self.page.evaluate(code, arg)

    def settle(self, delivered=None):
        """Wait until the page has delivered `delivered` presses and its redraw is done."""
        want = -1 if delivered is None else delivered
        self.page.wait_for_function(
            "want => (want < 0 || window.pcc.delivered >= want) && window.pcc.settled()",
            arg=want, timeout=LONG_WAIT_S * 1000)
        # A frame after settling: the canvas holds what the last frame drew.
        frames = self.evaluate("window.pcc.frames")
        self.page.wait_for_function("n => window.pcc.frames > n", arg=frames)

    def delivered(self):
        return self.evaluate("window.pcc.delivered")

    def key(self, token, press_button=None):
        """Play one token of a key script (simulator/keys.py) with the keyboard, or, given
        press_button(name, long_press), with something else (the on-screen buttons)."""
        if token in ("TICK", "WAIT"):
            for _ in range(1 if token == "TICK" else 10):
                self.evaluate("ms => window.pcc.advance(ms)", TICK_MS)
                self.settle()
            return
        long_press = token.startswith("LONG_")
        name = token[5:] if long_press else token
        before = self.delivered()
        if press_button is not None:
            press_button(name, long_press)
        elif long_press:
            self.page.keyboard.down(KEY_OF[name])
            self.hold_long()
            self.page.keyboard.up(KEY_OF[name])
        else:
            self.page.keyboard.press(KEY_OF[name])
        self.settle(before + 1)

    def hold_long(self):
        """While a button is down: its long press time passes (the page's manual time), and
        the page delivers what that brings: the long press, or, for a button that acted on its
        edge, the press and its hold (docs/screen.md, "When a press acts")."""
        for _ in range(bt.LONG_PRESS_MS // TICK_MS):
            self.evaluate("ms => window.pcc.advance(ms)", TICK_MS)
            self.settle()

    def canvas(self):
        return base64.b64decode(self.evaluate("window.pcc.canvasRGB()"))

    def take_log(self):
        """The events since the last call, [(button, long_press)] (long_press True, False, or
        "held" for a press held on after it acted), (TICK, ms) for the ticks,
        (CLICK, (x, y, phase)) for the pointer on the canvas (pressed, moved, released) and
        (DIGIT, digit) for a typed digit, as the
        page handed them over, and the frames it drew meanwhile: [(events before it, RGB
        bytes)]."""
        log, drawn = self.evaluate("window.pcc.takeLog()")
        data = binascii.unhexlify(log)
        events = []
        for k in range(0, len(data), 4):
            code = data[k]
            value = data[k + 1] | data[k + 2] << 8 | data[k + 3] << 16
            if code == LOG_TICK:
                events.append((TICK, value))
            elif code in LOG_PHASES:
                events.append((CLICK, (value & 0xFFF, value >> 12, LOG_PHASES[code])))
            elif code == LOG_DIGIT:
                events.append((DIGIT, value))
            else:
                events.append((code & 0x3F, "held" if code & 0x40 else bool(code & 0x80)))
        return events, [(index, base64.b64decode(rgb)) for index, rgb in drawn]

    def storage(self):
        """The page's records: {file name: bytes}."""
        items = self.evaluate(
            "prefix => Object.entries(localStorage).filter(([k]) => k.startsWith(prefix))", PREFIX)
        return {k[len(PREFIX):]: binascii.unhexlify(v) for k, v in items}

    def close(self):
        self.page.close()


class Replay:
    """The simulator's console (engine_core Console around the App, records in `storage`),
    fed the page's log."""

    def __init__(self, width, height, storage, kiosk=False, two_buttons=False, mono=False, board=None):
        """board: a board's name: its App as the simulator and the device make it (its
        buttons and long presses told, simulator/__main__.py board_app)."""
        from engine_core.console import Console
        from simulator.keys import make_app
        if board is not None:
            from simulator.__main__ import board_app
            from simulator.boards import resolve_board
            app = board_app(resolve_board(board))
        else:
            app = make_app(width, height, mono=mono)
        if two_buttons:
            app.settings[7] = 1  # S_TWO_BUTTONS, as the simulator sets it
        self.storage = storage
        self.console = Console(app, storage)
        if kiosk:
            self.console.keeper.start()
            self.console.keeper.settings.set("kiosk", 1)
            self.console.keeper.save_settings()
        self.console.start()
        self.screen = app.screen

    def play(self, events):
        for button, value in events:
            if button == TICK:
                self.console.held(0)
                self.console.tick(value)
            elif button == CLICK:
                self.console.click(value[0], value[1], self.console.app.clock, value[2])
            elif button == DIGIT:
                self.console.type_digit(value)
            else:
                self.console.press(button, bt.HELD_ON if value == "held" else value)

    def rgb(self):
        """The screen as the glass shows it: with a card dragged, as the page lays it for a frame."""
        s = self.screen
        pointer = self.console.pointer
        if pointer is not None:
            pointer.lay(self.console)
        rgb = screen_rgb_bytes(s)
        if pointer is not None:
            pointer.lift(self.console)
        return rgb


def presses(events):
    return [(bt.NAMES[b], long_press) for b, long_press in events if b >= 0]


def script_of(events):
    """A key script (simulator/keys.py) of the presses and ticks the page logged: what the
    headless simulator must play to end where the page ended."""
    tokens = []
    for b, value in events:
        if b == TICK:
            if value:
                assert value == TICK_MS, value
                tokens.append("TICK")
        else:
            assert b >= 0, (b, value)
            tokens.append(("LONG_" if value is True else "HELD_" if value == "held" else "") + bt.NAMES[b])
    return " ".join(tokens)


def ticks(events):
    return [ms for b, ms in events if b == TICK and ms]


def expected_events(token):
    """What one script token must hand the console: (presses, nonzero ticks)."""
    if token == "TICK":
        return [], [TICK_MS]
    if token == "WAIT":
        return [], [TICK_MS] * 10
    if token.startswith("LONG_"):
        # A long press in place of the short one where the screen defers the button; else
        # the press at its edge and its hold. Either way the long press time passes.
        return (([(token[5:], True)], [(token[5:], False), (token[5:], "held")]),
                [TICK_MS] * (bt.LONG_PRESS_MS // TICK_MS))
    return [(token, False)], []


def first_difference(a, b, width):
    for i in range(min(len(a), len(b)) // 3):
        if a[3 * i:3 * i + 3] != b[3 * i:3 * i + 3]:
            return "first differing pixel (%d, %d): page %s, simulator %s" % (
                i % width, i // width, tuple(a[3 * i:3 * i + 3]), tuple(b[3 * i:3 * i + 3]))
    return "sizes differ: %d and %d bytes" % (len(a), len(b))
