"""Flush timings on a real board, for each way of expanding and sending the board can run.

    >>> from firmware.bench import run; run("picosystem")
    expander  full screen us  40x56 rectangle us
    viper+dma ...

The host can only count WebAssembly fuel (make bench); this measures the board itself, so
that the choice made at import (viper first, then framebuf) can be checked on the chip.
"""

import time

from firmware.buttons import elapsed
from firmware.panel import EXPANDER, framebuf

REPEATS = 5


def expanders(port):
    """(name, expander, with a DMA feeder) this MicroPython can run, fastest expected first."""
    ways = []
    if EXPANDER == "viper":
        if port == "rp2":
            ways.append(("viper+dma", "viper", True))
        ways.append(("viper", "viper", False))
    if framebuf is not None:
        ways.append(("framebuf", "framebuf", False))
    ways.append(("plain", "plain", False))
    return ways


def best_us(panel, buf, width, palette, x, y, w, h):
    best = -1
    for _ in range(REPEATS):
        t = time.ticks_us()
        panel.send(buf, width, palette, x, y, w, h)
        us = elapsed(time.ticks_us(), t)
        if best < 0 or us < best:
            best = us
    return best


def run(board_name):
    """Print the best of five flushes of a whole screen and of a card-sized rectangle."""
    from array import array

    import boards
    from firmware.hardware import Hardware
    from firmware.panel import Panel
    board = boards.load(board_name)
    if getattr(board, "MONO", False):
        print("a one-bit OLED: firmware.panel_check.pattern(BOARD, 0) and (BOARD, 1) time its flushes")
        return
    hw = Hardware(board)
    hw.panel.init()
    hw.brightness(100)
    w = board.WIDTH
    h = board.HEIGHT
    buf = bytearray(w * h // 2)
    for i in range(len(buf)):
        buf[i] = (i * 7) & 255
    palette = array("H", range(0, 65536, 4096))
    print("expander  full screen us  40x56 rectangle us")
    results = []
    for name, expander, dma in expanders(board.PORT):
        # the board's own panel has the DMA feeder (firmware/hardware.py)
        panel = hw.panel if dma else Panel(hw.spi, hw.dc, hw.cs, hw.rst, board, expander)
        full = best_us(panel, buf, w, palette, 0, 0, w, h)
        card = best_us(panel, buf, w, palette, 13, 21, 40, 56)
        print("%-9s %14d %19d" % (name, full, card))
        results.append((name, full, card))
    return results


def largest_block():
    """The largest bytearray the heap can give now (bytes), found by halving."""
    import gc
    low = 0
    high = gc.mem_free()
    while low < high:
        size = (low + high + 1) // 2
        try:
            block = bytearray(size)
            del block
            low = size
        except MemoryError:
            high = size - 1
        gc.collect()
    return low


def heap(board_name, seed=1):
    """Free heap and the largest free block after opening each game, with the app built as
    the board runs it (firmware.main.make_app, the panel and its buffers included)."""
    import gc

    import boards
    from engine_core.gfx.screen import Screen
    from firmware.hardware import Hardware
    from firmware.main import FrameStats, data_storage, keep_layout, make_app
    board = boards.load(board_name)
    gc.collect()
    screen = Screen(board.WIDTH, board.HEIGHT, None, getattr(board, "MONO", False))
    hw = Hardware(board)
    shell = make_app(screen, hw, FrameStats(), False, data_storage())
    app = shell.app.app
    for name in app.names:
        keep_layout(app, name)  # as the first frames after the title do (Device.after_frame)
    print("game          free B  largest block B")
    results = []
    for name in app.names:
        app.open_game(name, seed)
        gc.collect()
        free = gc.mem_free()
        block = largest_block()
        print("%-12s %7d %16d" % (name, free, block))
        results.append((name, free, block))
    return results


class _Replay:
    """A link transport that hands over one prepared frame per read (copied in C, as a
    UART's readinto copies) and takes every write."""

    def __init__(self):
        self.frame = None

    def readinto(self, buf):
        f = self.frame
        if f is None:
            return 0
        self.frame = None
        buf[0:len(f)] = f
        return len(f)

    def write(self, buf, n):
        return n


def link_frames(count=8):
    """The time of a link channel's poll in which one frame arrives, and the receive() after
    it, on this board (tools/bench/bench_link.py counts the same in fuel on the host):
    a message of 8 and of 60 bytes, an acknowledgement; median and worst, in microseconds."""
    from engine_core.link.channel import HEADER, OVERHEAD, SYNC, Channel, crc16
    replay = _Replay()
    ch = Channel(replay, epoch=22)
    ch.poll(0)
    now = 0
    seq = 0
    print("link frame       median us  worst us")
    for name, ln, kind in (("message 8 B", 8, 1), ("message 60 B", 60, 1), ("acknowledgement", 0, 0)):
        times = []
        for i in range(count + 2):      # the first two fill MicroPython's caches: not counted
            f = bytearray(ln + OVERHEAD)
            f[0] = SYNC
            f[1] = ln
            f[2] = kind
            f[3] = seq & 0xFF
            f[5] = 11
            f[6] = 22
            c = crc16(f, 1, HEADER + ln)
            f[HEADER + ln] = c >> 8
            f[HEADER + ln + 1] = c & 0xFF
            if kind:
                seq += 1
            now += 5
            replay.frame = f
            start = time.ticks_us()
            ch.poll(now)
            ch.receive()
            times.append(elapsed(time.ticks_us(), start))
        times = sorted(times[2:])
        print("%-16s %9d %9d" % (name, times[len(times) // 2], times[-1]))


def nerts_busy(seconds=10, computers=3, speed=1, skill=1):
    """Nerts with `computers` computer players (at Steady speed and the Normal level unless
    given) ticked as the loop ticks a game: every 33 ms, the CPU sleeping in between
    (time.sleep_ms: WFE until the timer's interrupt). Prints the share of the time the ticks took,
    by the chip's own clock (tools/device/pico_power.py counts the emulator's cycles too)."""
    import time

    from engine_core import PLAYING, games
    game = games.load("nerts")(computers + 1, 0)
    game.deal(1)
    for p in range(1, computers + 1):
        game.set_bot(p, speed, skill)
    busy_us = 0
    frames = 0
    start = time.ticks_ms()
    while time.ticks_diff(time.ticks_ms(), start) < seconds * 1000:
        frame_start = time.ticks_ms()
        t = time.ticks_us()
        game.tick(33)
        if game.status() != PLAYING:
            game.deal(frames)
            for p in range(1, computers + 1):
                game.set_bot(p, speed, skill)
        busy_us += time.ticks_diff(time.ticks_us(), t)
        frames += 1
        left = 33 - time.ticks_diff(time.ticks_ms(), frame_start)
        if left > 0:
            time.sleep_ms(left)
    print("nerts busy %d.%d%% over %d frames" % (busy_us // (seconds * 10000),
                                                 busy_us // (seconds * 1000) % 10, frames))
    return busy_us
