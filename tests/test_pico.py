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
    for board_name in BOARDS:
        for game in pico_scenario.GAMES:
            yield pytest.param(board_name, game, id=board_name + "-" + game)


@pytest.mark.parametrize("board_name, game", list(cases()))
def test_every_frame_on_the_chip_equals_the_simulators(board_name, game):
    need_device(board_name)
    board = boards.load(board_name)
    result, compared = pico_scenario.play(board_name, game)   # every press taken, once
    assert result.tracebacks() == 0, result.console[-3000:]
    assert result.errors == []
    assert result.end["cs_high_bytes"] == 0
    names = [name for name, _, _ in compared]
    assert names[0] == "boot" and names[-1] == "soft reset"
    assert "hardware" in names
    differing = [(i, name) for i, (name, device, want) in enumerate(compared)
                 if want is not None and device != want]
    assert differing == [], "frames that differ from the simulator's: %s" % differing
    # The hardware screen was drawn (whole, all of the glass) and left again.
    hardware = [device for name, device, _ in compared if name == "hardware"][0]
    assert all(v >= 0 for row in hardware for v in row)
    assert hardware != compared[names.index("hardware") - 1][1]
    # The soft reset came back with the game saved: the title offers Continue.
    assert compared[-1][1] != compared[0][1]
    assert board.WIDTH * board.HEIGHT * 2 <= result.end["spi_bytes"]


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
