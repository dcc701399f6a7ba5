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

from engine_core import games
from engine_core.protocol import state_json
from engine_core.save import Keeper
from engine_core.storage import FileStorage, MemoryStorage
from engine_core.ui import layouts
from simulator.boards import ONE_BIT
from simulator.image import to_rgb_bytes
from support import ui_scripts
from tests.web_page import (CHROMIUM, KEY_OF, Replay, WebConsole, expected_events, script_of,
                            first_difference, missing, presses, skip_or_fail, ticks)
from tools.build_web import Server
from tools.frame import frame as simulator_frame
from tools.mpy import ROOT

GAMES = tuple(games.names())
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


def compare_drawn(console, replay, width, what):
    """The page's events since the last look, played on the simulator: each frame the page drew
    meanwhile must equal the simulator's screen at that point. Returns (events, frames)."""
    events, frames = console.take_log()
    done = 0
    for index, rgb in frames:
        replay.play(events[done:index])
        done = index
        simulator = replay.rgb()
        # (compared first: pytest's own diff of two frames' bytes takes minutes)
        if rgb != simulator:
            pytest.fail("a frame of %s: %s" % (what, first_difference(rgb, simulator, width)))
    replay.play(events[done:])
    return events, len(frames)


def play_and_compare(console, replay, script, width, press_button=None):
    """Each token of `script` on the page, and the page's log of presses and ticks on the
    simulator: every frame the page drew equals the simulator's screen after the same events,
    and so does the canvas once each token has settled. Returns (frames drawn, tokens)."""
    drawn = 0
    for step, token in enumerate(["(start)"] + script.split()):
        if step:
            console.key(token, press_button)
        events, frames = compare_drawn(console, replay, width, "%r (token %d)" % (token, step))
        console.played += events
        drawn += frames
        if step:
            want_presses, want_ticks = expected_events(token)
            if isinstance(want_presses, tuple):
                assert presses(events) in want_presses, (step, token, events)
            else:
                assert presses(events) == want_presses, (step, token, events)
            assert ticks(events) == want_ticks, (step, token, events)
        page, simulator = console.canvas(), replay.rgb()
        if page != simulator:
            pytest.fail("after %r (token %d): %s" % (token, step, first_difference(page, simulator, width)))
    return drawn, step


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("game", GAMES)
def test_every_frame_of_a_key_script_equals_the_simulators_frame(open_page, game, size):
    width, height = size_of(size)
    script = ui_scripts.script(game)
    console = open_page("board=%s&game=%s&seed=%d&time=manual" % (size, game, SEED))
    replay = Replay(width, height, MemoryStorage())
    replay.console.open_game(game, SEED)
    drawn, tokens = play_and_compare(console, replay, script, width)
    assert tokens == len(script.split()) and drawn > tokens // 2
    # A computer's turn still being shown (Spite & Malice) plays out with time passing, as
    # the headless simulator lets it at the end of a script.
    for _ in range(20):
        table = replay.console.app.table
        if table is None or table.computer_ms <= 0:
            break
        play_and_compare(console, replay, "WAIT", width)
        script += " WAIT"
    # And the last frame is the headless simulator's for the whole script (simulator/keys.py),
    # as the page played it: a long press is the press and its hold where the screen does not
    # defer the button, and the hold's time passes (docs/screen.md, "When a press acts").
    last = simulator_frame("cpython", width, height, game, SEED, script_of(console.played))
    s = replay.screen
    want = to_rgb_bytes(last, width, height, s.palette)
    if console.canvas() != want:
        pytest.fail("the last frame: %s" % first_difference(console.canvas(), want, width))


def test_a_one_bit_screen_on_the_page_is_the_simulators_frame_by_frame(open_page):
    # ?mono=1: the page decodes the MONO_VLSB frame (docs/screen.md, "One-bit panels") lit on
    # dark, as the simulator's --mono shows it.
    console = open_page("board=240x135&mono=1&game=aces_up&seed=%d&time=manual" % SEED)
    replay = Replay(240, 135, MemoryStorage(), mono=True)
    replay.console.open_game("aces_up", SEED)
    script = "RIGHT A X A A START DOWN A B UP LEFT A"
    drawn, tokens = play_and_compare(console, replay, script, 240)
    assert tokens == len(script.split()) and drawn > tokens // 2
    assert set(console.canvas()) == {0, 255}


def read_record(storage, name):
    buf = bytearray(4096)
    return bytes(buf[:storage.read(name, buf)])


def files_of(folder):
    out = {}
    for name in os.listdir(folder):
        with open(os.path.join(folder, name), "rb") as f:
            out[name] = f.read()
    return out


def test_the_page_keeps_the_simulators_records_and_a_reload_resumes_the_game(open_page, tmp_path):
    keys = "X A A X A A WAIT"
    console = open_page("board=240x240&game=aces_up&seed=%d&time=manual" % SEED, via="http")
    for token in keys.split():
        console.key(token)
    # The simulator's console, given the page's presses and ticks, writes the same files byte
    # for byte: the moves, saved in the frames after them.
    replayed = tmp_path / "replayed"
    replay = Replay(240, 240, FileStorage(str(replayed)))
    replay.console.open_game("aces_up", SEED)
    compare_drawn(console, replay, 240, "the moves")
    records = console.storage()
    assert "game.dat" in records
    assert records == files_of(replayed)
    # The simulator's window, given the same keys, keeps the same game; closed, it writes the
    # time since the last move too (Console.close), where the page, hidden, writes only what is
    # new (Console.save_now).
    sim_dir = tmp_path / "simulator"
    run = subprocess.run([sys.executable, "-m", "simulator", "--headless", "--board", "240x240",
                          "--game", "aces_up", "--seed", str(SEED), "--keys", keys,
                          "--data-dir", str(sim_dir), "--screenshot", str(tmp_path / "x.png")],
                         cwd=ROOT, capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    page_disk = MemoryStorage()
    for name, data in records.items():
        page_disk.write(name, data, len(data))
    resumed = []
    for disk in (page_disk, FileStorage(str(sim_dir))):
        keeper = Keeper(disk)
        keeper.start()
        resumed.append(keeper.resume())
    page_resumed, sim_resumed = resumed
    assert page_resumed.clock_ms < sim_resumed.clock_ms
    page_resumed.clock_ms = sim_resumed.clock_ms
    assert state_json(page_resumed) == state_json(sim_resumed)
    assert page_resumed.history.moves == sim_resumed.history.moves == 2
    # A link to a deal is dealt once: the address loses ?game= so that a reload resumes.
    assert "game=" not in console.evaluate("location.search")
    assert "game=aces_up&seed=7" in console.evaluate("document.getElementById('deal').href")

    console.reload()
    console.settle()
    replay = Replay(240, 240, FileStorage(str(sim_dir)))
    compare_drawn(console, replay, 240, "the reload")
    assert replay.console.game is not None and replay.console.game.NAME == "aces_up"
    assert console.canvas() == replay.rgb()  # the resumed game, and its notice


def test_a_tab_closed_mid_game_saves_the_last_move_first(open_page):
    console = open_page("board=320x240&game=sir_tommy&seed=3&time=manual", via="http")
    replay = Replay(320, 240, MemoryStorage())
    replay.console.open_game("sir_tommy", 3)
    for token in "X A A X A A".split():
        console.key(token)
    compare_drawn(console, replay, 320, "the moves")
    assert "game.dat" not in console.storage()  # play has not paused long enough to save
    console.reload()  # the page is hidden first: it saves the game in progress
    console.settle()
    replay.console.keeper.save_game(replay.console.game)
    assert console.storage()["game.dat"] == read_record(replay.storage, "game.dat")
    resumed = Replay(320, 240, replay.storage)
    compare_drawn(console, resumed, 320, "the reload")
    assert console.canvas() == resumed.rgb()


def test_a_damaged_record_is_set_aside_and_reported_as_the_simulator_does(open_page, tmp_path):
    console = open_page("board=240x240&game=casket&seed=5&time=manual", via="http")
    for token in "X A A WAIT".split():
        console.key(token)
    record = bytearray(console.storage()["game.dat"])
    record[len(record) // 2] ^= 0x5A
    console.evaluate("hex => localStorage.setItem('pocket-cards/game.dat', hex)", record.hex())
    sim_dir = tmp_path / "records"
    sim_dir.mkdir()
    for name, data in console.storage().items():
        (sim_dir / name).write_bytes(data)
    console.reload()
    console.settle()
    replay = Replay(240, 240, FileStorage(str(sim_dir)))
    compare_drawn(console, replay, 240, "the reload")
    assert replay.console.notice.startswith(b"Saved game")  # on screen, in the foot strip
    assert console.canvas() == replay.rgb()
    after = console.storage()
    assert after == files_of(sim_dir)
    assert "game.dat" not in after and after["game.bad"] == bytes(record)


def touch_buttons(console):
    """press_button for WebConsole.key: a finger on the on-screen buttons; held past the long
    press for a long one."""
    cdp = console.context.new_cdp_session(console.page)

    def press(name, long_press):
        box = console.page.locator('[data-button="%s"]' % name).bounding_box()
        point = {"x": box["x"] + box["width"] / 2, "y": box["y"] + box["height"] / 2}
        cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [point]})
        if long_press:
            console.hold_long()
        assert console.evaluate("n => document.querySelector('[data-button=%s]').classList"
                                ".contains('down')" % name, None) or not long_press
        cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    return press


def test_the_on_screen_buttons_play_with_taps_and_long_presses(open_page):
    script = "X A A LONG_A RIGHT A B Y START DOWN A UP LEFT"
    console = open_page("board=240x240&game=aces_up&seed=%d&time=manual" % SEED,
                        has_touch=True, is_mobile=True, viewport={"width": 412, "height": 915})
    replay = Replay(240, 240, MemoryStorage())
    replay.console.open_game("aces_up", SEED)
    drawn, tokens = play_and_compare(console, replay, script, 240, touch_buttons(console))
    assert tokens == 13 and drawn >= 10


def test_from_a_server_the_page_compiles_the_wasm_file_and_from_file_the_script(open_page):
    names = "performance.getEntriesByType('resource').map(e => e.name.split('/').pop())"
    served = open_page("", via="http").evaluate(names)
    assert "engine.js" in served
    assert "micropython.wasm" in served and "micropython.wasm.js" not in served
    assert not served_page_has_wasm_script(open_page("", via="http"))
    assert served_page_has_wasm_script(open_page("", via="file"))  # (no resource timing there)


def served_page_has_wasm_script(console):
    return console.evaluate("!!document.querySelector('script[src=\"micropython.wasm.js\"]')")


def test_board_takes_a_board_name_and_a_board_with_two_buttons_shows_two(open_page):
    console = open_page("board=tdisplay&time=manual")
    assert console.evaluate("[document.getElementById('screen').width, "
                            "document.getElementById('screen').height]") == [240, 135]
    shown = console.evaluate("[...document.querySelectorAll('.pads [data-button]')]"
                             ".filter(b => b.checkVisibility({visibilityProperty: true}))"
                             ".map(b => b.dataset.button)")
    assert sorted(shown) == ["A", "B"]
    replay = Replay(240, 135, MemoryStorage(), board="tdisplay")  # as the device makes its App
    play_and_compare(console, replay, "A B B LONG_B", 240)


def test_an_unknown_board_is_reported_on_the_page_and_the_console_still_runs(open_page):
    console = open_page("board=no_such_board&game=no_such_game")
    status = console.evaluate("document.getElementById('status').textContent")
    assert "no_such_board" in status and "no_such_game" in status
    assert console.evaluate("document.getElementById('screen').width") == 240


def test_the_size_switch_offers_every_size_with_a_layout_and_opens_the_page_at_it(open_page):
    console = open_page("board=240x240&game=aces_up&seed=%d&time=manual" % SEED)
    links = console.evaluate("[...document.querySelectorAll('#sizes a')]"
                             ".map(a => [a.textContent, a.getAttribute('href'), a.hasAttribute('aria-current')])")
    assert [text for text, _, _ in links] == ["%dx%d" % size for size in layouts.SIZES]
    assert [text for text, _, current in links if current] == ["240x240"]
    for text, href, _ in links:  # the page's other parameters are kept
        assert "board=" + text in href and "game=aces_up" in href
    for size in ("160x128", "128x64"):
        width, height = size_of(size)
        console = open_page("board=%s&game=aces_up&seed=%d&time=manual" % (size, SEED))
        assert console.evaluate("[document.getElementById('screen').width, "
                                "document.getElementById('screen').height]") == [width, height]
        replay = Replay(width, height, MemoryStorage(), mono=(width, height) in ONE_BIT)
        replay.console.open_game("aces_up", SEED)
        play_and_compare(console, replay, "X LONG_A RIGHT A", width)


def test_a_size_with_no_layout_is_reported_with_the_sizes_and_the_page_runs_at_240x240(open_page):
    console = open_page("board=200x100&time=manual")
    status = console.evaluate("document.getElementById('status').textContent")
    assert "no layout for a 200x100 screen" in status and "160x128, 128x64" in status
    assert console.evaluate("document.getElementById('screen').width") == 240


def test_kiosk_mode_shows_the_demo_when_idle_as_the_simulator_does(open_page):
    console = open_page("kiosk=1&time=manual")
    assert console.evaluate("document.body.classList.contains('kiosk')")
    replay = Replay(240, 240, MemoryStorage(), kiosk=True)
    assert console.storage()["settings.dat"] == read_record(replay.storage, "settings.dat")
    compare_drawn(console, replay, 240, "the start")
    console.evaluate("window.pcc.advance(20050)")  # idle at the title: the demo starts
    console.settle()
    for _ in range(3):
        console.key("WAIT")
    assert compare_drawn(console, replay, 240, "the demo")[1] >= 3
    assert replay.console.demo
    assert console.canvas() == replay.rgb()


def test_in_real_time_the_page_runs_at_the_devices_frame_rate_and_the_computer_plays(open_page):
    console = open_page("board=320x240&game=nerts&seed=7", via="http")
    before = console.canvas()
    start = console.evaluate("[window.pcc.frames, performance.now()]")
    console.page.wait_for_timeout(3000)
    end = console.evaluate("[window.pcc.frames, performance.now()]")
    rate = (end[0] - start[0]) / ((end[1] - start[1]) / 1000)
    assert 15 <= rate <= 31, rate  # FRAME_MS = 33: 30 a second, fewer when the machine is busy
    assert console.canvas() != before  # the computer players moved with no key pressed


# --- a full or hostile storage: the origin's real quota ---

FILL_QUOTA = """() => {
  // The origin's localStorage filled to its quota: big items, then smaller, down to one character.
  let n = 0;
  for (let size = 1 << 20; size >= 1; size >>= 2) {
    const text = "x".repeat(size);
    for (;;) {
      try { localStorage.setItem("filler/" + n, text); n++; } catch (error) { break; }
    }
  }
  return n;
}"""

FILL_WITH_ONE_ITEM = """key => {
  // The longest value `key` can hold: the origin full with it alone.
  localStorage.clear();
  let lo = 0, hi = 1 << 24;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    try { localStorage.setItem(key, "z".repeat(mid)); lo = mid; } catch (error) { hi = mid - 1; }
  }
  localStorage.setItem(key, "z".repeat(lo));
  return lo;
}"""


def test_with_the_origins_quota_really_full_a_save_says_storage_full_and_play_goes_on(open_page):
    console = open_page("board=240x240&game=aces_up&seed=%d&time=manual" % SEED, via="http")
    replay = Replay(240, 240, MemoryStorage())
    replay.console.open_game("aces_up", SEED)
    compare_drawn(console, replay, 240, "the deal")
    assert console.evaluate(FILL_QUOTA) > 0
    assert console.evaluate("() => { try { localStorage.setItem('one/more', 'x'); return 1; }"
                            " catch (e) { return e.name; } }") == "QuotaExceededError"
    replay.storage.capacity = replay.storage.used()  # the simulator's disk as full
    for token in "X A A WAIT".split():  # a move, and the pause that saves it
        console.key(token)
    compare_drawn(console, replay, 240, "the save on a full quota")
    assert replay.console.notice == b"Storage full: progress not saved"
    assert console.canvas() == replay.rgb()  # the same notice, drawn the same
    assert console.evaluate("window.pcc.error") is None
    for token in "X A A WAIT".split():  # the console plays on
        console.key(token)
    compare_drawn(console, replay, 240, "play after it")
    assert console.canvas() == replay.rgb()


def test_a_damaged_item_filling_the_quota_is_logged_by_its_key_and_removed_at_load(open_page):
    console = open_page("board=240x240&time=manual", via="http")
    size = console.evaluate(FILL_WITH_ONE_ITEM, "pocket-cards/game.dat")
    assert size > 1_000_000
    logged = []
    console.page.on("console", lambda message: logged.append(message.text))
    console.reload()  # it loads, sees a damaged record, cannot copy it aside: removes it
    console.settle()
    assert [line for line in logged if "pocket-cards/game.dat" in line and "removed" in line]
    assert console.evaluate("localStorage.getItem('pocket-cards/game.dat')") is None
    console.key("A")  # a new deal: the page runs, and keeps records again
    console.key("X")
    console.key("A")
    console.key("A")
    console.key("WAIT")
    assert "game.dat" in console.storage()
    console.reload()  # and the reload after it resumes, with no error
    assert console.evaluate("window.pcc.error") is None


def canvas_point(console, x, y):
    """The page's point (CSS pixels) at the middle of the screen's pixel (x, y)."""
    box = console.page.locator("#screen").bounding_box()
    size = console.evaluate("[document.getElementById('screen').width, document.getElementById('screen').height]")
    return box["x"] + (x + 0.5) * box["width"] / size[0], box["y"] + (y + 0.5) * box["height"] / size[1]


def pile_point(console, table, slot):
    slots = table.slots
    return canvas_point(console, slots.x[slot] + slots.style.w // 2, slots.y[slot] + slots.style.h // 2)


@pytest.mark.parametrize("how", ("mouse", "touch"))
def test_cards_are_clicked_and_tapped_on_the_canvas_as_the_simulators_mouse_plays_them(open_page, how):
    touch = how == "touch"
    # Aces Up deal 16: two cards to discard (col3, col4), one placed by click-click, the other sent home
    console = open_page("board=240x240&game=aces_up&seed=16&time=manual", has_touch=touch, is_mobile=touch,
                        viewport={"width": 412, "height": 915} if touch else {"width": 1280, "height": 900})
    replay = Replay(240, 240, MemoryStorage())
    replay.console.open_game("aces_up", 16)
    table = replay.console.app.table
    game = table.game

    def click(slot):
        before = console.delivered()
        x, y = pile_point(console, table, slot)
        if touch:
            console.page.touchscreen.tap(x, y)
        else:
            console.page.mouse.click(x, y)
        console.settle(before + 1)
        compare_drawn(console, replay, 240, "a %s on slot %d" % (how, slot))

    n = table.legal_moves()
    move = [m for m in table.hand.moves[:n] if m >> 16 != 255][0]
    src, dst = table.slots.slot_of[move >> 16], table.slots.slot_of[(move >> 8) & 0xFF]
    click(src)
    assert table.held == src  # picked up
    click(dst)
    assert table.move_count == 1 and table.held == 255  # and placed
    discard = game.pile_id("discard")
    before = game.piles.size[discard]
    n = table.legal_moves()
    home = [m for m in table.hand.moves[:n] if (m >> 8) & 0xFF == discard]
    s = table.slots.slot_of[home[0] >> 16]
    click(s)
    click(s)  # twice at once (no time passes): to the discard
    assert game.piles.size[discard] == before + 1
    assert console.canvas() == replay.rgb()


@pytest.mark.parametrize("how", ("mouse", "touch"))
def test_a_card_is_dragged_on_the_canvas_with_the_mouse_and_with_a_finger(open_page, how):
    """Aces Up deal 69 (2S QS TD 3H): the 2S dragged over the felt follows the pointer (every
    frame the simulator's, the card laid over it), then dropped on the TD goes back with the
    reason, and dropped on the discard is placed."""
    from engine_core.gfx.palette import HELD
    from simulator.image import rgb888
    touch = how == "touch"
    console = open_page("board=240x240&game=aces_up&seed=69&time=manual", has_touch=touch, is_mobile=touch,
                        viewport={"width": 412, "height": 915} if touch else {"width": 1280, "height": 900})
    replay = Replay(240, 240, MemoryStorage())
    replay.console.open_game("aces_up", 69)
    table = replay.console.app.table
    game = table.game
    slots = table.slots
    st = slots.style
    col1, col3, discard = (slots.slot_of[game.pile_id(name)] for name in ("col1", "col3", "discard"))
    cdp = console.context.new_cdp_session(console.page) if touch else None

    def pointer(kind, x, y):
        px, py = canvas_point(console, x, y)
        if not touch:
            {"down": console.page.mouse.down, "up": console.page.mouse.up}.get(kind, lambda: None)()
            if kind == "move":
                console.page.mouse.move(px, py, steps=3)
            return
        kinds = {"down": "touchStart", "move": "touchMove", "up": "touchEnd"}
        points = [] if kind == "up" else [{"x": px, "y": py}]
        cdp.send("Input.dispatchTouchEvent", {"type": kinds[kind], "touchPoints": points})

    def drag(src, to, what):
        x, y = slots.x[src] + st.w // 2, slots.y[src] + st.h // 2
        if not touch:
            console.page.mouse.move(*canvas_point(console, x, y))
        pointer("down", x, y)
        pointer("move", 150, 150)  # over the felt: the card follows
        console.settle()
        compare_drawn(console, replay, 240, what + ": the card carried")
        assert replay.console.pointer.drag
        shown = console.canvas()
        i = 3 * (150 * 240 + 150 - st.w // 2)  # the card's left edge, at the pointer's height
        assert tuple(shown[i:i + 3]) == rgb888(replay.screen.palette[HELD]), what
        tx, ty = slots.x[to] + st.w // 2, slots.y[to] + st.h // 2
        pointer("move", tx, ty)
        pointer("up", tx, ty)
        console.settle()
        compare_drawn(console, replay, 240, what + ": the drop")
        assert not replay.console.pointer.drag
        assert console.canvas() == replay.rgb()

    before = game.piles.cards[:]
    drag(col1, col3, "a drag to a pile that refuses it")
    assert table.held == 255 and game.piles.cards == before
    assert table.message == game.refusal(game.pile_id("col1") << 16 | game.pile_id("col3") << 8)
    drag(col1, discard, "a drag to the discard")
    assert game.piles.size[game.pile_id("discard")] == 1 and table.held == 255


def test_the_select_button_opens_the_rules_from_play(open_page):
    console = open_page("board=240x240&game=casket&seed=3&time=manual",
                        has_touch=True, is_mobile=True, viewport={"width": 390, "height": 844})
    replay = Replay(240, 240, MemoryStorage())
    replay.console.open_game("casket", 3)
    play_and_compare(console, replay, "SELECT DOWN", 240, touch_buttons(console))
    assert replay.console.mode == 5  # the rules (engine_core/ui/screens.py RULES)
    play_and_compare(console, replay, "SELECT", 240, touch_buttons(console))
    assert replay.console.mode == 3  # and back to play


def test_digits_typed_on_the_deal_screen_make_the_deals_number(open_page):
    console = open_page("board=240x240&time=manual")
    replay = Replay(240, 240, MemoryStorage())
    play_and_compare(console, replay, "DOWN A X", 240)  # Choose a game, Aces Up, a deal by number
    assert replay.console.mode == 2
    before = console.delivered()
    console.page.keyboard.type("4097")
    console.settle(before + 4)
    compare_drawn(console, replay, 240, "the digits")
    assert replay.console.app.seed() == 4097 and console.canvas() == replay.rgb()
    play_and_compare(console, replay, "A", 240)
    assert replay.console.game.seed == 4097
    assert "seed 4097" in console.evaluate("document.getElementById('deal').textContent")


def test_enter_picks_and_esc_backs_out_on_the_page_as_in_the_simulator(open_page):
    # docs/screen.md "What each key means": Enter is A; Esc is the console's back key (in play
    # with nothing held the pause menu, in the pause menu back to the game).
    console = open_page("board=240x240&time=manual")
    replay = Replay(240, 240, MemoryStorage())
    compare_drawn(console, replay, 240, "the title")
    modes = []
    for key in ("Enter", "Escape", "Escape", "Escape"):
        before = console.delivered()
        console.page.keyboard.press(key)
        console.settle(before + 1)
        compare_drawn(console, replay, 240, key)
        modes.append(replay.console.mode)
    assert modes == [3, 4, 3, 4]  # a new deal, the pause menu, the game, the pause menu
    assert console.canvas() == replay.rgb()


def page_fit(console):
    return console.evaluate("""() => {
        const c = document.getElementById('screen'), box = c.getBoundingClientRect();
        return {scrollHeight: document.documentElement.scrollHeight, scrollWidth: document.documentElement.scrollWidth,
                keysBottom: document.getElementById('keys').getBoundingClientRect().bottom,
                width: box.width, height: box.height, device: box.width * devicePixelRatio};
    }""")


def test_a_laptop_sees_the_whole_page_and_a_phone_a_screen_its_width_both_crisp(open_page):
    laptop = page_fit(open_page("game=aces_up&seed=7", viewport={"width": 1280, "height": 900}))
    assert laptop["scrollHeight"] <= 900 and laptop["scrollWidth"] <= 1280  # no scrolling
    assert laptop["keysBottom"] <= 900  # the key help in view
    assert laptop["width"] == 720  # three pixels a pixel, the largest whole scale that fits
    for ratio, css in ((2, 360), (3, 320)):  # 390 px phones: 780 and 1170 device pixels across
        phone = page_fit(open_page("game=aces_up&seed=7", viewport={"width": 390, "height": 844},
                                   device_scale_factor=ratio, is_mobile=True, has_touch=True))
        assert phone["scrollWidth"] <= 390
        assert phone["device"] % 240 == 0  # whole device pixels per screen pixel: crisp
        assert phone["width"] == css  # the largest such scale inside the width


def test_on_a_still_title_the_page_rests_and_a_key_wakes_it(open_page):
    """Nothing moves on the title: the page stops its frames (a tick a second at most), as the
    device rests; a key wakes it and is taken at once (docs/web.md)."""
    console = open_page("board=240x240", via="http")
    console.page.wait_for_function("window.pcc.resting", timeout=10000)
    start = console.evaluate("[window.pcc.frames, performance.now()]")
    console.page.wait_for_timeout(3000)
    end = console.evaluate("[window.pcc.frames, performance.now()]")
    rate = (end[0] - start[0]) / ((end[1] - start[1]) / 1000)
    assert rate <= 2, rate  # 30 a second before
    before = console.canvas()
    delivered = console.delivered()
    console.page.keyboard.press("ArrowDown")
    console.page.wait_for_function("n => window.pcc.delivered > n", arg=delivered, timeout=2000)
    console.page.wait_for_function("window.pcc.resting", timeout=10000)
    assert console.canvas() != before, "the title's cursor moved"
    assert console.evaluate("window.pcc.rests") >= 2


def test_the_canvas_dims_and_goes_dark_as_the_device_and_a_key_or_a_tap_wakes_it(open_page):
    """The device's power on the page (engine_core/power.py, the default settings: dim after
    30 s, dark after 3 min): the canvas dimmed with a CSS filter, then blank; a key or a tap
    lights it and does nothing else, and the next key plays (docs/web.md)."""
    console = open_page("board=240x240&time=manual")
    console.settle()
    filter_ = "getComputedStyle(document.getElementById('screen')).filter"
    title = console.canvas()
    assert console.evaluate("window.pcc.light") == 100 and console.evaluate(filter_) == "none"
    for ms, light, shown in ((29000, 100, "none"), (1500, 10, "brightness(0.351)"), (140000, 10, None),
                             (10000, 0, "brightness(0)")):
        console.evaluate("ms => window.pcc.advance(ms)", ms)
        console.settle()
        assert console.evaluate("window.pcc.light") == light, ms
        if shown is not None:
            assert console.evaluate(filter_) == shown, ms
    console.key("DOWN")
    assert console.evaluate("window.pcc.light") == 100 and console.evaluate(filter_) == "none"
    assert console.canvas() == title, "the waking key did nothing else"
    console.key("DOWN")
    assert console.canvas() != title, "the next key plays"
    moved = console.canvas()
    console.evaluate("ms => window.pcc.advance(ms)", 181000)
    console.settle()
    assert console.evaluate("window.pcc.light") == 0
    box = console.page.locator("#screen").bounding_box()
    console.page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    console.page.wait_for_function("window.pcc.light === 100", timeout=5000)
    console.settle()
    assert console.canvas() == moved, "the waking tap did nothing else"


def held_frame_pixels(rgb, palette):
    """How many pixels of an RGB frame have the held card's frame colour (engine_core/gfx)."""
    from engine_core.gfx.palette import HELD
    from simulator.image import rgb888
    colour = bytes(rgb888(palette[HELD]))
    return sum(1 for i in range(0, len(rgb), 3) if rgb[i:i + 3] == colour)


@pytest.mark.parametrize("how", ("mouse", "touch"))
def test_a_card_dropped_where_it_may_not_go_returns_to_its_pile_and_the_page_says_why(open_page, how):
    touch = how == "touch"
    console = open_page("board=240x240&game=aces_up&seed=69&time=manual", has_touch=touch, is_mobile=touch,
                        viewport={"width": 412, "height": 915} if touch else {"width": 1280, "height": 900})
    replay = Replay(240, 240, MemoryStorage())
    replay.console.open_game("aces_up", 69)  # 2S QS TD 3H: the 2S may go to the discard only
    table = replay.console.app.table
    game = table.game
    palette = replay.screen.palette

    def click(name):
        before = console.delivered()
        x, y = pile_point(console, table, table.slots.slot_of[game.pile_id(name)])
        if touch:
            console.page.touchscreen.tap(x, y)
        else:
            console.page.mouse.click(x, y)
        console.settle(before + 1)
        compare_drawn(console, replay, 240, "a %s on %s" % (how, name))

    click("col1")
    assert table.held == table.slots.slot_of[game.pile_id("col1")]
    assert held_frame_pixels(console.canvas(), palette) > 0  # the 2S framed as held
    click("col3")  # on the TD: refused
    assert table.held == 255  # back on its pile, nothing in hand
    assert table.message == game.refusal(game.pile_id("col1") << 16 | game.pile_id("col3") << 8)
    page = console.canvas()
    assert page == replay.rgb()  # the page says so as the simulator does
    assert held_frame_pixels(page, palette) == 0
    click("col1")  # picked up again and placed
    click("discard")
    assert game.piles.size[game.pile_id("discard")] == 1 and table.held == 255
    assert console.canvas() == replay.rgb()


# The page as an app (docs/web.md): installable, offline, and a phone's height.

def test_a_phone_sees_the_whole_page_without_scrolling_and_reaches_every_button(open_page):
    for ratio in (2, 3):
        console = open_page("game=aces_up&seed=7", viewport={"width": 390, "height": 844},
                            device_scale_factor=ratio, is_mobile=True, has_touch=True)
        fit = console.evaluate("""() => {
            const root = document.documentElement, out = [];
            for (const el of document.querySelectorAll('.pads button, #screen')) {
                const r = el.getBoundingClientRect();
                const hit = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
                out.push({name: el.dataset.button || el.id, top: r.top, bottom: r.bottom, left: r.left,
                          right: r.right, reached: hit === el || el.contains(hit)});
            }
            return {scrollHeight: root.scrollHeight, scrollWidth: root.scrollWidth, items: out,
                    footer: document.querySelector('footer').getBoundingClientRect().bottom};
        }""")
        assert fit["scrollHeight"] <= 844 and fit["scrollWidth"] <= 390, (ratio, fit)
        assert fit["footer"] <= 844  # the help in view too
        assert len(fit["items"]) == 11
        for item in fit["items"]:  # every button on the screen, and nothing over it
            assert item["top"] >= 0 and item["bottom"] <= 844 and item["left"] >= 0 and item["right"] <= 390, item
            assert item["reached"], item
        console.page.touchscreen.tap(*button_centre(console, "START"))  # a tap reaches the console
        console.page.wait_for_function("window.pcc.delivered > 0")


def button_centre(console, name):
    box = console.page.locator('.pads button[data-button="%s"]' % name).bounding_box()
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def test_the_page_installs_as_an_app_and_plays_with_the_network_cut(browser, tmp_path):
    """From a server, in a browser profile of its own (a context without one is incognito,
    which Chromium never installs from): the manifest parses with its fields, Chromium finds
    nothing that stops the install, and a service worker controls the page. A second build
    replaces the first's cache. Then the server stops and the network goes: the page opens
    from the cache and a deal plays, frame by frame as the simulator plays it."""
    import json
    from tools.build_web import build, manifest
    folder = str(tmp_path / "web")
    first = build(folder)
    server = Server(folder)
    url = server.url
    context = browser.browser_type.launch_persistent_context(
        str(tmp_path / "profile"), executable_path=CHROMIUM, args=["--no-sandbox"],
        viewport={"width": 390, "height": 844}, device_scale_factor=3, is_mobile=True, has_touch=True)
    errors = []
    try:
        page = context.pages[0] if context.pages else context.new_page()
        page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda e: errors.append(str(e)))

        def open_(query=""):
            page.goto(url + "index.html" + ("?" + query if query else ""))
            page.wait_for_function("window.pcc && (window.pcc.ready || window.pcc.error)", timeout=60000)
            assert page.evaluate("window.pcc.error") is None

        def cache_names():
            return page.evaluate("caches.keys()")

        open_()
        page.evaluate("navigator.serviceWorker.ready")
        page.wait_for_function("navigator.serviceWorker.controller !== null", timeout=60000)
        cdp = context.new_cdp_session(page)
        assert cdp.send("Page.getInstallabilityErrors")["installabilityErrors"] == []
        shown = cdp.send("Page.getAppManifest")
        assert shown["errors"] == [] and json.loads(shown["data"]) == manifest()
        parsed = shown["manifest"]
        assert parsed["display"] == "kStandalone" and parsed["name"] == "Pocket card console"
        assert parsed["startUrl"] == url and parsed["themeColor"] == "rgba(24,26,30,1)"
        assert [icon["sizes"] for icon in parsed["icons"]] == ["192x192", "512x512"]
        sw = first["sw.js"].decode()
        (old_cache,) = cache_names()
        assert '"%s"' % old_cache in sw
        # Everything the page needs is in the cache.
        cached = page.evaluate("n => caches.open(n).then(c => c.keys()).then(r => r.map(q => q.url))", old_cache)
        for name in ("", "index.html", "engine.js", "config.js", "page.js", "style.css", "micropython.wasm",
                     "manifest.webmanifest", "icon-192.png", "icon-512.png"):
            assert url + name in cached, name

        # A new build (the modules as source: engine.js differs) is a new cache; the old goes.
        build(folder, compiled=False)
        open_()
        for _ in range(600):  # the new worker installs, takes over and deletes the old cache
            names = cache_names()
            if len(names) == 1 and names[0] != old_cache:
                break
            page.wait_for_timeout(100)
        (new_cache,) = cache_names()
        assert new_cache != old_cache

        # The network cut, the server gone: the page opens from the cache and a deal plays.
        server.close()
        server = None
        context.set_offline(True)
        console = WebConsole.__new__(WebConsole)
        console.context, console.page, console.errors = context, page, errors
        console.played = []
        open_("board=240x240&game=aces_up&seed=%d&time=manual" % SEED)
        before = len(errors)
        assert page.evaluate("fetch('not-cached.txt').then(() => 'reached', () => 'no network')") == "no network"
        del errors[before:]  # the browser's report of that failed fetch
        assert page.evaluate("fetch('engine.js').then(r => r.text())").count('"web/main.py"') == 1  # the new build
        replay = Replay(240, 240, MemoryStorage())
        replay.console.open_game("aces_up", SEED)
        script = "X A A X A A"
        play_and_compare(console, replay, script, 240)
        assert replay.console.game.history.last_move() >= 0  # moves were made
        assert console.canvas() == to_rgb_bytes(simulator_frame("cpython", 240, 240, "aces_up", SEED, script),
                                                240, 240, replay.screen.palette)
    finally:
        context.close()
        if server is not None:
            server.close()
    assert errors == []


def test_a_board_short_of_buttons_plays_its_long_presses_on_the_page_as_on_the_device(open_page):
    # pico_ssd1306 has a D-pad, A and B: a long B is START (its LONG_AS), so holding B opens
    # the pause menu, and its rules name only what it has; the page once took the long B for
    # a long B and showed the rules of a board with every button.
    console = open_page("board=pico_ssd1306&game=sir_tommy&seed=3&time=manual")
    replay = Replay(128, 64, MemoryStorage(), board="pico_ssd1306")
    replay.console.open_game("sir_tommy", 3)
    compare_drawn(console, replay, 128, "the deal")
    for token in ("LONG_B",) + ("DOWN",) * 6 + ("A",):  # the pause menu, then its Rules
        console.key(token)
        events, _ = compare_drawn(console, replay, 128, token)
        if token == "LONG_B":
            assert presses(events) == [("START", False)], events
            assert replay.console.mode == 4  # the pause menu (engine_core/ui/screens.py PAUSE)
        assert console.canvas() == replay.rgb(), token
    assert replay.console.mode == 5  # the rules, naming the board's own presses
    console.page.keyboard.press(KEY_OF["X"])  # a key for a button the board lacks does nothing
    console.key("TICK")
    events, _ = compare_drawn(console, replay, 128, "X")
    assert presses(events) == [] and replay.console.mode == 5
