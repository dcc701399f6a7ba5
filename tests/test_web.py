"""The console's web page (make web) in a real browser: headless Chromium driven by Playwright.

Every frame the page draws for a key script equals, byte for byte, the simulator's frame for
the same presses and ticks; the records the page keeps in localStorage are the simulator's
records, resumed and recovered the same way. Without Chromium these tests skip, and the run
says so loudly (tests/conftest.py); .ci/run sets POCKET_WEB_TESTS=required, which turns the
skip into a failure.
"""

import os
import subprocess
import sys

import pytest

from engine_core.storage import FileStorage, MemoryStorage
from simulator.image import to_rgb_bytes
from tests.test_ui_micropython import SCRIPTS
from tests.web_page import (CHROMIUM, KEY_OF, Replay, Server, WebConsole, expected_events,
                            first_difference, missing, presses, skip_or_fail, ticks)
from tools.frame import frame as simulator_frame
from tools.mpy import ROOT

GAMES = ("aces_up", "sir_tommy", "casket", "spite_malice", "nerts")
SIZES = ("240x135", "320x240")
SEED = 7


@pytest.fixture(scope="session")
def web_dir(tmp_path_factory):
    why = missing()
    if why:
        skip_or_fail(why)
    from tools.build_web import build
    out = str(tmp_path_factory.mktemp("web"))
    build(out)
    return out


@pytest.fixture(scope="session")
def browser(web_dir):
    from playwright.sync_api import sync_playwright
    playwright = sync_playwright().start()
    browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
    yield browser
    browser.close()
    playwright.stop()


@pytest.fixture(scope="session")
def server(web_dir):
    server = Server(web_dir)
    yield server
    server.close()


@pytest.fixture
def open_page(browser, web_dir, server):
    """open_page(query, via='file'|'http', **context options) -> WebConsole; afterwards the
    pages must have logged no error."""
    opened = []

    def open_(query, via="file", **options):
        context = browser.new_context(**options)
        base = "file://" + web_dir + "/" if via == "file" else server.url
        console = WebConsole(context, base, query)
        opened.append(console)
        return console

    yield open_
    errors = []
    for console in opened:
        errors += console.errors
        console.context.close()
    assert errors == []


def size_of(text):
    w, h = text.split("x")
    return int(w), int(h)


def play_and_compare(console, replay, script, width, press_button=None):
    """Each token of `script` on the page, then its log on the simulator: the canvas must
    equal the simulator's screen after every token. Returns the frames compared."""
    events = console.take_log()  # loading: the first frame
    replay.play(events)
    compared = 0
    for step, token in enumerate(["(start)"] + script.split()):
        if step:
            console.key(token, press_button)
            events = console.take_log()
            want_presses, want_ticks = expected_events(token)
            assert presses(events) == want_presses, (step, token, events)
            assert ticks(events) == want_ticks, (step, token, events)
            replay.play(events)
        page, simulator = console.canvas(), replay.rgb()
        assert page == simulator, "after %r (token %d): %s" % (
            token, step, first_difference(page, simulator, width))
        compared += 1
    return compared


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("game", GAMES)
def test_every_frame_of_a_key_script_equals_the_simulators_frame(open_page, game, size):
    width, height = size_of(size)
    script = SCRIPTS[game]
    console = open_page("board=%s&game=%s&seed=%d&time=manual" % (size, game, SEED))
    replay = Replay(width, height, MemoryStorage())
    replay.console.open_game(game, SEED)
    compared = play_and_compare(console, replay, script, width)
    assert compared == len(script.split()) + 1
    # And the last frame is the headless simulator's for the whole script (simulator/keys.py).
    last = simulator_frame("cpython", width, height, game, SEED, script)
    s = replay.screen
    assert console.canvas() == to_rgb_bytes(last, width, height, s.palette)
