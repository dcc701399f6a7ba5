"""The console's firmware on an emulated Raspberry Pi Pico (rp2040js): the firmware that
`make firmware` builds boots, every game plays through the real rp2 port of MicroPython with
its bytes decoded by the panel model, every frame equals the simulator's, no press is lost
or doubled (the loop's press log), no traceback reaches the USB REPL, and a soft reset
resumes the game from the flash's filesystem. Two chips joined by their UARTs play Spite &
Malice against each other (tools/device/pico_link.py).

These run with `make test-device` (PICO_TESTS=1), which builds the firmware first; `make test`
skips them and says why. PICO_REQUIRED=1 (CI) turns a skip into a failure.
"""

import os

import pytest

import boards
from tools.device import pico, pico_scenario

BOARDS = ("pico_lcd_13", "pico_lcd_114")
# The boards with the hobby displays: their scripted sessions run as the others' do (the
# one-bit boards once the engine has a one-bit Screen), and their panel traffic is checked
# with a known picture as well (test_the_chip_shows_a_known_picture...).
HOBBY_BOARDS = ("pico_ssd1306", "pico_st7735", "pico_lcd_18", "pico_sh1106")


def need_device(board_name):
    """Skip (or, with PICO_REQUIRED=1, fail) when the emulated Pico cannot run."""
    reason = None
    if os.environ.get("PICO_TESTS") != "1":
        reason = "the emulated-Pico tests run with `make test-device`"
    else:
        reason = pico.unavailable(board_name)
    if reason is None:
        return
    if os.environ.get("PICO_REQUIRED") == "1":
        pytest.fail("emulated-Pico test not run: " + reason)
    pytest.skip(reason)


def cases():
    for board_name in BOARDS + HOBBY_BOARDS:
        for game in pico_scenario.GAMES:
            yield pytest.param(board_name, game, id=board_name + "-" + game)


def engine_draws(board):
    """Why the engine cannot draw the board's screen yet (a sentence), or None."""
    if getattr(board, "MONO", False):
        import inspect

        from engine_core.gfx.screen import Screen
        if "mono" not in inspect.signature(Screen.__init__).parameters:
            return "no one-bit Screen yet"
    return None


@pytest.mark.parametrize("board_name, game", list(cases()))
def test_every_frame_on_the_chip_equals_the_simulators(board_name, game):
    reason = engine_draws(boards.load(board_name))
    if reason is not None:
        pytest.skip(reason)
    need_device(board_name)
    board = boards.load(board_name)
    result, compared = pico_scenario.play(board_name, game)   # every press taken, once
    assert result.tracebacks() == 0, result.console[-3000:]
    assert result.errors == []
    assert result.end["cs_high_bytes"] == 0
    names = [name for name, _, _ in compared]
    assert names[0] == "boot" and names[-1] == "soft reset"
    # The call frames' stack (read by the harness at each key's marker) keeps a quarter spare
    # at the session's deepest, before the REPL is used.
    from tools.device.firmware import PYSTACK_BYTES
    before_repl = [m["pystack"] for m in result.markers() if m["name"] not in ("press", "end", "soft reset")]
    used = max(before_repl)
    assert 0 < used <= PYSTACK_BYTES * 3 // 4, used
    differing = [(i, name) for i, (name, device, want) in enumerate(compared)
                 if want is not None and device != want]
    assert differing == [], "frames that differ from the simulator's: %s" % differing
    if pico_scenario.can_press(board, "SELECT"):   # (six-button boards: from the REPL)
        # The hardware screen was drawn (whole, all of the glass) and left again.
        assert "hardware" in names
        hardware = [device for name, device, _ in compared if name == "hardware"][0]
        assert all(v >= 0 for row in hardware for v in row)
        assert hardware != compared[names.index("hardware") - 1][1]
    # The soft reset came back with the game saved: the title offers Continue.
    assert compared[-1][1] != compared[0][1]
    assert pico.frame_bytes(board) <= result.end["spi_bytes"]


@pytest.mark.parametrize("board_name", HOBBY_BOARDS)
def test_the_chip_shows_a_known_picture_through_each_hobby_panel(board_name):
    """firmware/panel_check.py on the chip: the SSD1306's I2C transfers (control bytes and all),
    the SH1106's SPI bytes with their D/C level (its glass from RAM column 2) and the ST7735's
    (with the module's offsets), decoded by the controllers' models,
    show exactly the picture the host computes: the whole screen, then one rectangle changed
    and sent alone (only its pages or its window on the wire)."""
    from tools.device import pico_pattern
    need_device(board_name)
    board = boards.load(board_name)
    run, steps, show_us = pico_pattern.check(board_name)
    assert run.errors == [], run.errors[:3]
    assert run.end["cs_high_bytes"] == 0
    for step, (glass, want, marker) in steps.items():
        assert glass == want, "step %d differs from the host's picture" % step
    full = steps[0][2]["flushes"][-1][2]
    partial = sum(n for _, _, n in steps[1][2]["flushes"])
    assert full >= pico.frame_bytes(board)
    assert 0 < partial < full // 4, "the changed rectangle alone"
    assert sorted(show_us) == [0, 1]
    if board.SPI is None:
        assert run.end["spi_hz"] <= 400_000, "the OLEDs' I2C at most at 400 kHz"


def test_the_chips_figures_meet_their_targets():
    """firmware.bench on the chip (its rows named for what they run), the flushes of card
    moves, and the heap each game leaves (tools/bench/bench_pico.py, which make bench prints)."""
    from tools.bench import bench_pico
    need_device(bench_pico.BOARD)
    f = bench_pico.figures()
    assert f["tracebacks"] == 0
    assert [name for name, _, _ in f["bench"]] == ["viper+dma", "viper", "framebuf", "plain"]
    full = dict((name, us) for name, us, _ in f["bench"])
    assert full["viper+dma"] <= 20000, "a full 240x240 flush within 20 ms"
    assert full["viper+dma"] < full["viper"] < full["framebuf"] < full["plain"]
    partial = sorted(ms for _, _, _, flushes, _ in f["presses"] for ms, n in flushes if n < 240 * 240)
    assert len(partial) >= 5 and partial[-1] <= 4.0, "card moves, slides and cursor steps flush within 4 ms"
    # A press that starts a card's slide (its last byte two frames or more after its answer)
    # is answered by the slide's first frame; the others by the frame after them.
    slides = [p for p in f["presses"] if p[4] - p[1] >= 66]
    answers = sorted(p[1] for p in f["presses"] if p[4] - p[1] < 66)
    assert answers[len(answers) // 2] <= 33, "a press is answered within a frame, as a rule"
    assert all(p[1] <= 66 for p in slides), "a card's slide starts within two frames of its press"
    assert f["boot_ms"] < 500
    assert [name for name, _, _ in f["heap"]] == list(pico_scenario.GAMES)
    for name, free, block in f["heap"]:
        assert free > 48 * 1024 and block > 32 * 1024, (name, free, block)


def test_two_chips_play_spite_and_malice_over_their_uarts():
    """Two emulated Picos, UART0 crossed (tools/device/pico_link.py): one hosts Spite & Malice,
    the other joins, and each plays its own seat with its buttons; then both REPLs show the
    same game: seats 0 and 1, in play, equal state hashes, moves made on both sides, nothing
    refused, no desync, no message sent again on a clean wire."""
    from tools.device import pico_link
    need_device(pico_link.BOARD)
    result = pico_link.run()
    host, guest = result.states
    for name, state, run in zip(pico_link.NAMES, result.states, result.runs):
        assert run.tracebacks() == 0, "%s: %s" % (name, run.console[-3000:])
        assert state["state"] == 2 and state["linked"] and state["game"] == "spite_malice", (name, state)
        assert state["moves_sent"] > 0, (name, state)
        assert state["desyncs"] == 0 and state["refused"] == 0 and state["repairs"] == 0, (name, state)
        assert state["resent"] == 0 and state["restarts"] == 0, (name, state)
    # The guest listens first: the host may open its UART in the middle of a keep-alive.
    assert guest["bad"] == 0 and host["bad"] <= 1, (host, guest)
    assert (host["seat"], guest["seat"]) == (0, 1) and host["host"] and not guest["host"]
    assert host["hash"] == guest["hash"], (host, guest)
    assert host["turn"] == guest["turn"] >= 2 and host["hashes_compared"] > 0
    # Every message one side sent, the other took; the wire lost nothing while both listened.
    assert host["sent"] == guest["received"] and guest["sent"] == host["received"]
    for w in result.wire:
        assert w["overruns"] == 0
        assert w["late_max_ns"] <= pico_link.SLICE_US * 1000 + 1000   # a slice, and an instruction


def test_the_chip_sleeps_when_nothing_moves_dims_goes_off_and_wakes_on_a_key():
    """tools/device/pico_power.py: the title within 500 ms of power-on; on a still title and a
    still table the core executes at most 5% of the time (the rest it waits for an
    interrupt) and draws nothing; 30 s after the last key the backlight dims, at 180 s the
    panel goes to sleep (DISPOFF, SLPIN), a key wakes it (SLPOUT, DISPON) and does nothing
    else, and the next key plays."""
    from tools.device import pico_power as pp
    need_device(pp.BOARD)
    f = pp.figures()
    assert f["tracebacks"] == 0
    assert f["boot_ms"] < 500
    assert f["title"] <= 0.05 and f["table"] <= 0.05, (f["title"], f["table"])
    assert f["dim"] <= 0.05 and f["off"] <= 0.05, (f["dim"], f["off"])
    assert f["drawn_still"] == (0, 0), "nothing drawn while nothing moves"
    assert pp.SLPIN not in f["dim_cmds"]
    assert f["off_cmds"][-2:] == [pp.DISPOFF, pp.SLPIN]
    assert f["wake_cmds"] == [pp.SLPOUT, pp.DISPON] and f["woken_bytes"] == 2, "the waking key drew nothing"
    assert f["moved_bytes"] > 0, "the next key moved the cursor"
    state = f["state"]
    assert (state["dims"], state["offs"], state["wakes"], state["state"]) == (1, 1, 1, 0), state
    assert 0 < f["three"] < 0.5 and 0 < f["nerts"] < 0.5


def loop_program(adds, passes, mirror=0x10):
    """A flash image whose code (at 0x10000000, where the harness starts the core) runs a loop
    of `adds` one-cycle instructions `passes` times through the flash's `mirror` (0x10 cached,
    0x13 uncached), from 0x10, then waits for an interrupt that never comes."""
    words = [0x2000 | passes,             # movs r0, #passes
             0x2300 | mirror,             # movs r3, #mirror
             (24 << 6) | (3 << 3) | 3,    # lsls r3, r3, #24
             0x3311,                      # adds r3, #0x11: the loop at 0x10, in Thumb state
             0x4718,                      # bx r3
             0x3200, 0x3200, 0x3200]      # adds r2, #0: to the next line
    words += [0x3101] * adds              # adds r1, #1
    words += [0x3801,                     # subs r0, #1
              0xd000,                     # beq over the branch back
              0x4718,                     # bx r3
              0xbf30,                     # wfi
              0xe7fe]                     # b .
    return b"".join(w.to_bytes(2, "little") for w in words)


def chip_cycles(tmp, image, xip_cache):
    """The cycles the core executed running `image` until it waits, and the XIP counts."""
    path = os.path.join(tmp, "loop.bin")
    with open(path, "wb") as f:
        f.write(image)
    job = {"bootrom": pico.bootrom_path(), "firmware": path, "fs_offset": 0x100000, "fs_size": 4096,
           "hooks": {"erase": 1, "program": 1}, "spi": 0, "dc": 20, "cs": None, "buttons": [],
           "trace": os.path.join(tmp, "trace.bin"), "console": os.path.join(tmp, "console.txt"),
           "xip_cache": xip_cache, "max_ms": 1000,
           "steps": [{"op": "run", "ms": 20}, {"op": "mark", "name": "done"}]}
    status, stderr = pico.run_node(pico.RUNNER, job, tmp)
    assert status == 0, stderr
    with open(job["trace"], "rb") as f:
        records = pico.parse_trace(f.read())
    done = [r[1] for r in records if r[0] == "M" and r[1]["name"] == "done"][0]
    end = records[-1][1]
    return round(done["busy_ns"] * end["clk_sys"] / 1e9), done["xip"]


def test_the_xip_cache_model_charges_a_miss_once_per_line_until_it_is_evicted(tmp_path):
    """tools/device/pico/chip.mjs's XIP cache seen from outside: the extra cycles a loop run
    from flash costs with the cache modelled. 56 cycles a line on the first pass and none
    after, while the loop fits the cache; every line again every pass when it is larger than
    the cache (24 KB: three lines for each two-way set); and every line every pass through the
    uncached mirror."""
    reason = pico.missing()
    if os.environ.get("PICO_TESTS") != "1" or reason:
        pytest.skip(reason or "the emulated-Pico tests run with `make test-device`")
    miss = 56
    extra = {}
    # 509 adds and the three instructions after them: 1,024 bytes (128 lines); 12,285: 24 KB.
    for name, adds, mirror in (("small", 509, 0x10), ("large", 12 * 1024 - 3, 0x10), ("uncached", 509, 0x13)):
        for passes in (1, 4):
            image = loop_program(adds, passes, mirror)
            plain, none = chip_cycles(str(tmp_path), image, False)
            modelled, counts = chip_cycles(str(tmp_path), image, True)
            assert none is None and counts[2] == modelled - plain
            extra[name, passes] = (modelled - plain) / miss
    # The small loop's 128 lines, the set-up's two and the end's one, once: then all hits.
    assert extra["small", 1] == extra["small", 4] == 128 + 2 + 1
    # 24 KB: 3,072 lines, each evicted before the next pass comes back to it.
    assert extra["large", 4] - extra["large", 1] == 3 * 3072
    # Through 0x13000000 every read pays: the loop's 512 instructions (rp2040js fetches them
    # 16 bits at a time) on every pass.
    assert extra["uncached", 4] - extra["uncached", 1] == 3 * 512


# Power-on to the title with the XIP cache modelled, against the 350 ms target: 320 ms
# measured (docs/performance.md; 274 ms without the model); 401 ms before the firmware's
# changes for the cache and the boot (docs/firmware.md), 526 ms before the games' modules were
# imported after the title.
POWER_ON_XIP_MS = 350


def test_power_on_with_the_xip_cache_modelled():
    """The boot as a real Pico's flash allows it: the title comes later by the cycles the core
    waited for the flash (and the rest after the title, a little more), nearly every read of
    the flash hits the cache, and the power-on time is the measured one."""
    need_device("pico_lcd_13")
    board = boards.load("pico_lcd_13")
    boots = []
    for xip_cache in (False, True):
        script = pico.Script(board)
        script.boot()
        result = pico.run("pico_lcd_13", script, xip_cache=xip_cache)
        boots.append([m for m in result.markers() if m["name"] == "boot"][0])
    plain, cached = boots
    assert "xip" not in plain or plain["xip"] is None
    waited_ms = cached["xip"][2] / result.end["clk_sys"] * 1000
    later_ms = (cached["last_spi_ns"] - plain["last_spi_ns"]) / 1e6
    # (the waits counted run to the boot marker, 300 ms after the title: they include the
    # games' modules imported in the frames after it and the title's New game table made ahead,
    # which do not delay the title: about three fifths of them since the card backs are laid
    # by blits, 30 of 72 ms before the title; a third before that)
    assert 0.35 * waited_ms <= later_ms <= waited_ms, (later_ms, waited_ms)
    assert 0.98 < pico.hit_rate(cached["xip"]) < 1
    assert cached["last_spi_ns"] / 1e6 <= POWER_ON_XIP_MS, cached["last_spi_ns"] / 1e6


def test_presses_in_a_session_are_answered_from_their_deciding_edge():
    """Measured from outside the loop: the chip's pin edge (or a waiting button's release) to
    the last byte of the first frame that answers it (tools/device/pico_presses.py). On Aces
    Up every press that redraws part of the screen (cursor, moves, the hint, the pause menu's
    panel) is out within one frame, and a new deal from the pause menu within 50 ms. (Other
    games' figures, and the whole-screen ones that are not yet within their targets, are in
    docs/performance.md.)"""
    need_device("pico_lcd_13")
    from tools.device.pico_presses import answers
    board = boards.load("pico_lcd_13")
    full = 2 * board.WIDTH * board.HEIGHT
    rows = answers("pico_lcd_13", "aces_up")
    partial = [(ms, token, screen) for token, screen, ms, n in rows if n < full]
    assert len(partial) >= 12 and max(partial)[0] <= 33, max(partial)
    token, screen, ms, n = rows[-1]  # the new deal: yes to the pause menu's question
    assert (token, screen) == ("A", 9) and n >= full and ms <= 50, rows[-1]


NEW_DEALS = [("pico_lcd_13", g) for g in ("sir_tommy", "casket", "spite_malice", "nerts")]
# (pico_st7735's deals: test_every_press_of_a_session_is_on_the_glass_within_a_frame)


@pytest.mark.parametrize("board_name, game", NEW_DEALS)
def test_a_new_deal_is_on_the_glass_within_50_ms_in_every_game(board_name, game):
    """The same session in the other games (tools/device/pico_presses.py), with the XIP cache
    modelled: yes to the pause menu's New deal, from the edge that decides it to the last byte
    of the new table, within 50 ms. Casket's thirty piles are the slowest; on pico_lcd_13 it
    took 48.6-50.6 ms at 125 MHz (39.9 at 200 MHz), on pico_st7735 55.6 ms at 120 MHz (43.9),
    and Nerts there 54.2 ms (42.5; docs/performance.md has every game's both ways)."""
    need_device(board_name)
    from tools.device.pico_presses import answers
    board = boards.load(board_name)
    rows = answers(board_name, game, xip_cache=True)
    # (In Nerts the question may not come: where the player's moves of the session all came
    # too late for the computer players', no game is in progress, and New deal deals at once.)
    deals = [row for row in rows[-2:] if row[0] == "A" and row[3] >= 2 * board.WIDTH * board.HEIGHT]
    assert deals and deals[-1][2] <= 50, rows[-2:]


PRESS_BOARDS = [(b, g) for b in ("pico_ssd1306", "pico_st7735") for g in pico_scenario.GAMES]


@pytest.mark.parametrize("board_name, game", PRESS_BOARDS)
def test_every_press_of_a_session_is_on_the_glass_within_a_frame(board_name, game):
    """Every press of the session in every game (tools/device/pico_presses.py: the title, the
    game list, moves, a hint, the pause menu and back, its questions), with the XIP cache
    modelled, from the edge that decides it to the last byte of the first frame that answers
    it, within one frame (33 ms); a deal (the game list's A, yes to New deal) within 50 ms.
    pico_ssd1306 sends a whole screen in 23.3 ms (I2C at 400 kHz, the SSD1306's fastest), and
    its START is a long B; pico_st7735's pause menu covers its screen (160x128). A player's
    move is written in the frames right after it, so no press of the session meets its save
    (START in Sir Tommy on pico_st7735 met one made half a second after a move, 50.9 ms, in
    one build). The computer players' moves in Nerts are written in the frames right after a
    press's answer too (written five seconds after the oldest of them, whenever that fell, the
    save met A in play on pico_st7735: 36.1 ms in one build). A press whose edge falls while
    the computer players' frame is under way is answered in that frame's flush (it waited for
    the frame and then one of its own: A in play on pico_st7735, 33.9 ms in one build)."""
    need_device(board_name)
    from tools.device.pico_presses import answers
    rows = answers(board_name, game, xip_cache=True)
    deals = [row for row in rows if row[0] == "A" and row[1] in (1, 9)]
    others = [row for row in rows if row not in deals]
    assert len(others) >= 15 and len(deals) >= 1, rows
    assert max(row[2] for row in others) <= 33, [row for row in others if row[2] > 33]
    assert max(row[2] for row in deals) <= 50, deals


def test_a_key_in_the_computers_turn_shows_its_first_answer_at_once():
    """Spite & Malice on pico_lcd_13, the XIP cache modelled: a key pressed 30 ms into the
    computer's turn shown move by move plays the turn out at once, up to some 60 ms of the
    chip's work (docs/performance.md); its first answer, the strip that says so (with the
    player's card still sliding landed), is on the glass within half a frame of its edge, and
    the turn played out follows in a flush of its own. (Before the strip, that first flush came
    20-33 ms after the edge.)"""
    need_device("pico_lcd_13")
    from tools.device.pico_presses import turn_keys
    rows = turn_keys("pico_lcd_13", 6, 30, xip_cache=True)
    assert len(rows) == 6, rows
    for first, second, strip, answer in rows:
        assert first <= 16.5 and second > first and answer > strip, rows


def test_a_press_in_the_pause_after_a_move_meets_no_save():
    """A move, a pause of 490-580 ms from its edge, then START, eight times over, on
    pico_st7735 with the XIP cache modelled: every START within a frame. A save made once play
    had paused half a second fell in such a pause (7-10 ms of the record's half, 2-4 ms of
    the journal's, up to 16 ms when littlefs compacts), and a START that went down while it
    was written waited for it: 50.9 ms in Sir Tommy in one build's session. Saved in the frames
    right after the move (engine_core/save.py, SAVE_DELAY_MS), no pause meets it."""
    need_device("pico_st7735")
    board = boards.load("pico_st7735")
    reference = pico_scenario.Reference(board)  # which press of a hint's X A A makes the move
    script = pico.Script(board)
    script.boot()
    tokens = []

    def key(token):
        script.key(token)
        tokens.append(token)
        reference.press(token)
        reference.tick(1000)

    for token in "DOWN A A".split():  # the game list, Aces Up, a deal
        key(token)
    table = reference.console.app.table
    moves = []
    for i in range(8):
        key("X")
        count = table.move_count
        while table.move_count == count:
            assert tokens.count("A") < 40, "the hint's move"
            key("A")
        moves.append(len(tokens) - 1)
        script.wait(50 + 12 * i, "pause")  # after the move's answer and 300 ms of quiet
        key("START")  # the pause menu...
        key("START")  # ...and back to play
    result = pico.run("pico_st7735", script, xip_cache=True)
    presses = [m for m in result.markers() if m["name"] == "press"]
    assert len(presses) == len(tokens)
    flushes = sorted(f[1] / 1e6 for m in result.markers() for f in m.get("flushes", ()))
    late = []
    for i in moves:
        moved = presses[i]["ns"] / 1e6  # the move: the hint's A, on its edge
        edge = presses[i + 1]["ns"] / 1e6  # START
        answered = min(t for t in flushes if t > edge)
        late.append((round(edge - moved), round(answered - edge, 1)))
    assert all(ms <= 33 for _, ms in late), str(late)
    # How long a pause came out depends on the frames after the move's answer (the script
    # waits for the panel to be quiet): at least half of them must fall where the save fell.
    inside = [pause for pause, _ in late if 490 <= pause <= 580]
    assert len(inside) >= 4 and min(inside) < 520 and max(inside) > 545, late


def test_the_rp2040_boards_run_at_200_mhz_with_the_core_at_1_15_v():
    """Every RP2040 board asks for 200 MHz, the RP2040's rated top at 1.15 V (pico-sdk 2.1.1),
    and the firmware raises the core's voltage before the clock: the emulated chip fails a
    run whose clk_sys goes beyond what the voltage then set allows, or past 133 MHz within 1 ms
    of the raise (tools/device/pico/chip.mjs, Vreg). Seen from outside: the chip's clock at the
    end of a boot, and its SPI clock, within the ST7789's 16 ns write cycle."""
    need_device("pico_lcd_13")
    for name in BOARDS + HOBBY_BOARDS:
        assert boards.load(name).CPU_FREQ == 200_000_000, name
    board = boards.load("pico_lcd_13")
    script = pico.Script(board)
    script.boot()
    result = pico.run("pico_lcd_13", script)
    assert result.end["clk_sys"] == 200_000_000
    assert result.end["spi_hz"] == 50_000_000  # 200 / 4: 62.5 MHz at most, and an even divider


def at_the_repl(board_name, source, said):
    """Boot, stop the console (Ctrl-C), run `source` at the USB REPL, and return the last line
    it printed that starts with `said` (with a tuple of words, such a line for each, the last
    word the one it ends with)."""
    script = pico.Script(boards.load(board_name))
    script.boot()
    script.interrupt()
    script.add({"op": "send", "text": "\x05"})  # paste mode: the lines as they are
    script.add({"op": "text", "text": "paste mode", "timeout_ms": pico.BOOT_TIMEOUT_MS})
    for line in source.strip().split("\n"):
        script.add({"op": "send", "text": line + "\r"})  # a line at a time: the USB's buffer
        script.add({"op": "text", "text": "=== ", "timeout_ms": pico.BOOT_TIMEOUT_MS})
    script.add({"op": "send", "text": "\x04"})
    script.add({"op": "text", "text": said[-1] if isinstance(said, tuple) else said, "timeout_ms": 900000})
    script.add({"op": "text", "text": ">>> ", "timeout_ms": 60000})
    console = pico.run(board_name, script).console
    if isinstance(said, tuple):
        return [[t for t in console.splitlines() if t.startswith(w)][-1] for w in said]
    return [t for t in console.splitlines() if t.startswith(said)][-1]


CARD_CHECK = """
import gc
gc.collect()
from engine_core.gfx.screen import Screen
import sys
from engine_core.gfx import paint
from firmware import card as C
del sys.modules['engine_core.gfx.paint']
import engine_core.gfx.paint as python_paint
sys.modules['engine_core.gfx.paint'] = paint
REFERENCE = python_paint.Painter.card
s = Screen(%d, %d)
p = paint.Painter(s)
kept = bytearray(len(s.buf))
frames = (5, 10, 11, 15, 12)
cards = list(range(52)) + [208, 209]
def check():
    n = 0
    bad = []
    wrong = 0
    for st in p.styles:
        if st is None:
            continue
        spots = ((0, 0), (s.width - st.w, s.height - st.h), (3 - st.w, 5), (s.width - 4, 7),
                 (9, 2 - st.h), (11, s.height - 3), (-2, -3), (17, 21))
        for k in range(len(cards) * 4):
            c = cards[k %% len(cards)]
            x, y = spots[k %% len(spots)] if k %% 5 == 0 else (k * 7 %% (s.width - st.w), k * 13 %% (s.height - st.h))
            args = (st, x, y, c if k %% 9 else -1, k %% 9 != 0, frames[k %% 5], 5 if k %% 3 else 2,
                    k %% 2 == 1, k %% 7 != 3)
            s.fb.fill(k %% 16)
            REFERENCE(p, *args)
            kept[:] = s.buf
            s.fb.fill(k %% 16)
            p.card(*args)
            n += 1
            if kept != s.buf:
                wrong += 1
                if len(bad) < 3:
                    bad.append((st.size,) + args[1:])
    print('CARDS', n, 'INSTALLED', paint.Painter.card is C.card and REFERENCE is not C.card, 'BAD', bad, wrong)
TEXT = python_paint.Painter.text_span
def check_text():
    n = 0
    wrong = 0
    words = (b"Paused Deal 1234", b"the quick brown fox: jumps over 9 lazy dogs!", bytes(range(20, 130)))
    for k in range(60):
        s_ = words[k %% 3]
        a = k %% 5
        b = len(s_) - k %% 7
        x = (k * 37) %% (s.width + 40) - 30
        y = (k * 11) %% (s.height + 12) - 6
        args = (s_, a, b, x, y, k %% 16)
        s.fb.fill((k * 5) %% 16)
        r1 = TEXT(p, *args)
        kept[:] = s.buf
        s.fb.fill((k * 5) %% 16)
        r2 = p.text_span(*args)
        n += 1
        if kept != s.buf or r1 != r2:
            wrong += 1
    return n, paint.Painter.text_span is C.text_span and TEXT is not C.text_span, wrong
print('TEXTS', *check_text())
check()
"""


@pytest.mark.parametrize("board_name", ["pico_lcd_13", "pico_st7735"])
def test_the_firmwares_card_draws_the_python_painters_pixels(board_name):
    """FrameBuffer.card (tools/device/card.c, firmware/card.py), which the firmware draws every
    card with, against Painter.card on the chip itself: every card at each card size the
    screen holds, face down and up, each frame colour, with and without its centre, cut by
    each edge of the screen, over a background of each colour. And FrameBuffer.glyphs, which
    draws every text, against Painter.text_span: texts cut by each edge, in every colour,
    with codes outside the font."""
    need_device(board_name)
    board = boards.load(board_name)
    lines = at_the_repl(board_name, CARD_CHECK % (board.WIDTH, board.HEIGHT), ("TEXTS", "CARDS"))
    assert lines[0] == "TEXTS 60 True 0", lines[0]
    words = lines[1].split()
    assert int(words[1]) >= 400 and words[3] == "True" and lines[1].endswith(" 0"), lines[1]


CRC_CHECK = """
from array import array
from engine_core import records
from firmware import expand_viper
import random
def bitwise(buf, start, end):
    c = 0xFFFFFFFF
    for i in range(start, end):
        c ^= buf[i]
        for _ in range(8):
            c = (c >> 1) ^ (0xEDB88320 if c & 1 else 0)
    return c ^ 0xFFFFFFFF
random.seed(7)
same = 0
for n in (0, 1, 9, 300, 1024):
    buf = bytearray(random.getrandbits(8) for _ in range(n + 8))
    a = array('H', [1, 1])
    expand_viper.crc32_parts(buf, 3, 3 + n, a)
    c = bitwise(buf, 3, 3 + n)
    same += a[0] == c >> 16 and a[1] == c & 0xFFFF
nine = array('H', [0, 0])
expand_viper.crc32_parts(b'123456789', 0, 9, nine)
print('CRC', same, records.crc32_parts is expand_viper.crc32_parts, hex(nine[0]), hex(nine[1]))
"""


def test_the_firmwares_checksum_is_zlibs_crc32():
    """The records' checksums on the chip come from expand_viper.crc32_parts, installed by the
    firmware (firmware/main.py) in place of records.crc32_parts: zlib's value for
    b'123456789' (0xCBF43926), and a CRC-32 worked out a bit at a time for spans of every
    length."""
    need_device("pico_lcd_13")
    line = at_the_repl("pico_lcd_13", CRC_CHECK, "CRC")
    assert line == "CRC 5 True 0xcbf4 0x3926", line


TAKE_BACK = """
import time
from array import array
from engine_core import games
from engine_core.games.nerts import Nerts
def worst(seed):
    game = games.load('nerts')(4)
    game.deal(seed)
    out = array('i', [0] * Nerts.PLAYER_MAX_MOVES)
    most = 0
    taken = 0
    for step in range(200):
        if game.status() != 0:
            break
        n = game.moves_of(0, out)
        if not n:
            game.tick(300)
            continue
        game.apply(out[(step * 7) % n])
        game.tick(1500)
        t0 = time.ticks_us()
        reason = game.take_back(0)
        t = time.ticks_diff(time.ticks_us(), t0)
        if reason == 0:
            taken += 1
            most = max(most, t)
    return most, taken
found = [worst(seed) for seed in range(3)]
print('TAKE_BACK', max(m for m, _ in found), sum(t for _, t in found))
"""


def test_y_in_nerts_takes_back_the_players_move_within_half_a_frame():
    """Y in Nerts plays the computer players' later moves again without the player's
    (Nerts.take_back): over the 1.3 M fuel keypress budget, so its budget is the frame it
    answers in. On the chip, four players, the computer players playing 1.5 s between the
    player's moves: every take-back within 16 ms, half of the 33 ms frame (docs/nerts.md)."""
    need_device("pico_lcd_13")
    words = at_the_repl("pico_lcd_13", TAKE_BACK, "TAKE_BACK ").split()
    assert int(words[2]) >= 50 and int(words[1]) <= 16000, words


SAVE_HALVES = """
import time
from array import array
from engine_core import games
from engine_core.save import Keeper
from firmware.main import DATA_DIR, data_storage, on_littlefs
keeper = Keeper(data_storage())
keeper.in_halves = True  # as firmware/main.py's make_app sets it
keeper.start()
game = games.load('nerts')(4)
game.deal(5)
keeper.started(game)
out = array('i', [0] * 200)
game_ms = []
journal_ms = []
for step in range(40):
    n = game.moves_of(0, out)
    game.apply(out[(step * 7) % n]) if n else game.tick(300)
    keeper.moved(game)
    keeper.tick(game, 16)
    t0 = time.ticks_us()
    keeper.tick(game, 50)  # (a frame: a tick of over two frames' time saves nothing)
    t1 = time.ticks_us()
    keeper.tick(game, 16)
    t2 = time.ticks_us()
    game_ms.append(time.ticks_diff(t1, t0))
    journal_ms.append(time.ticks_diff(t2, t1))
game_ms.sort()
journal_ms.sort()
print('HALVES', on_littlefs(DATA_DIR), game_ms[20] // 100, journal_ms[20] // 100,
      game_ms[-1] // 100, journal_ms[-1] // 100, 'END')
"""


def test_a_save_on_the_chip_is_two_short_frames():
    """A save of a four-player Nerts game, as the console makes it after a move: the game
    record in one frame, its undo journal in the next, each rewritten in place on littlefs
    (engine_core/records.py), the journal's entries put in machine code. A press that lands
    in a save waits for one half: 10 ms and 2 ms at the median on the chip; littlefs's
    compaction of its metadata, every few saves, makes either up to 26-28 ms. The whole save
    took 24-39 ms through a temporary file and a rename."""
    need_device("pico_lcd_13")
    line = at_the_repl("pico_lcd_13", SAVE_HALVES, "HALVES")
    words = line.split()
    assert words[1] == "True", line  # the firmware's data folder is on littlefs
    medians = int(words[2]) / 10, int(words[3]) / 10
    worst = int(words[4]) / 10, int(words[5]) / 10
    assert medians[0] <= 12 and medians[1] <= 5 and max(worst) <= 30, line


def test_a_power_cut_during_a_save_leaves_the_old_or_the_new_game():
    """The power cut at points spread over a save of Spite & Malice on the chip (the run
    ends there, the flash as it was left), then a power-on from that flash: the game loaded
    is the old one or the new one, exactly, with no message (tools/device/pico_cuts.py)."""
    from tools.device import pico_cuts
    need_device("pico_lcd_13")
    took, results = pico_cuts.sweep("pico_lcd_13", pico_cuts.GAME, 4, log=lambda text: None)
    verdicts = [v for _, v in results]
    assert all(v in ("old", "new") for v in verdicts), results
    assert "new" in verdicts, results
