"""Every game played on the emulated Pico and, with the same presses, in the simulator's
engine on CPython: the frames the panel received must equal the simulator's frames.

    python tools/pico_scenario.py pico_lcd_13 aces_up       (a report; tests/test_pico.py asserts)

A scenario opens a game from the title, plays card moves, a hint, an undo, the pause menu and
the rules page, visits the hardware screen, then stops the app (Ctrl-C), soft-resets the board
(Ctrl-D) and checks that the game comes back. The simulator side is the same Console and App
on CPython (engine_core.console) with records in RAM, given the same presses and the same
time between them as the device had (the emulator's clock between frames). The hardware
screen is the device's own (it shows measured figures): its frame is checked for decoding
errors only.
"""

import argparse
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

import boards  # noqa: E402
from engine_core.ui import buttons as bt  # noqa: E402
from tests.panel_model import expected_glass  # noqa: E402
from tools import pico  # noqa: E402

GAMES = ("aces_up", "sir_tommy", "casket", "spite_malice", "nerts")
FRAME_MS = 33

# From the title: the game list, the game, the seed entry (X; a long A without X), deal seed 1.
OPEN = "DOWN A %s X A"
# In play: moves, a hint and its play, an undo, the pause menu and back.
PLAY = {
    "aces_up": "RIGHT A A X A A Y RIGHT RIGHT A",
    "sir_tommy": "A A X A A Y RIGHT A",
    "casket": "A A X A A Y RIGHT A A",
    "spite_malice": "A A X A A Y RIGHT A",
    "nerts": "A A X A A Y RIGHT A",
}
PAUSE = "START DOWN DOWN DOWN DOWN DOWN DOWN A B B"   # the pause menu, its rules page, back to play


# Boards without X and Y reach the hint and undo through the pause menu (docs/screen.md).
THROUGH_MENU = {"X": "START DOWN A", "Y": "START DOWN DOWN A"}


def has_button(board, name):
    return bt.NAMES.index(name) in dict(board.BUTTONS)


def script_keys(game, board):
    """The key tokens of a game's scenario before the hardware screen and the reset."""
    opening = OPEN % " ".join(["DOWN"] * GAMES.index(game))
    if not has_button(board, "X"):
        opening = opening.replace("X", "LONG_A")   # the seed entry: a long A without X
    tokens = opening.split()
    for token in (PLAY[game] + " " + PAUSE).split():
        try:
            pico.button_presses(board, token)
            tokens.append(token)
        except pico.PicoError:
            tokens += THROUGH_MENU[token].split()
    return tokens


class Reference:
    """The console on CPython as the device runs it: Console(App) with records in RAM."""

    def __init__(self, board):
        from engine_core.storage import MemoryStorage
        self.board = board
        self.storage = MemoryStorage()
        self.power_on()

    def power_on(self):
        from engine_core.console import Console
        from engine_core.gfx.screen import Screen
        from engine_core.ui.app import S_TWO_BUTTONS, App
        from firmware.main import has_dpad
        app = App(Screen(self.board.WIDTH, self.board.HEIGHT))
        if not has_dpad(self.board):
            app.settings[S_TWO_BUTTONS] = 1
        self.console = Console(app, self.storage, 1, None)
        self.console.start()
        self.screen = app.screen

    def press(self, token):
        token = token.upper()
        long_press = token.startswith("LONG_")
        name = token[5:] if long_press else token
        self.console.press(bt.NAMES.index(name), long_press)

    def tick(self, ms):
        while ms > 0:
            step = FRAME_MS if ms > FRAME_MS else ms
            self.console.tick(step)
            ms -= step

    def step(self):
        """One millisecond passes; returns 1."""
        self.console.tick(1)
        return 1

    def glass(self):
        s = self.screen
        b = self.board
        return expected_glass(s.buf, s.width, s.height, s.palette, b.GLASS, b.MADCTL)


def build_script(board, game):
    script = pico.Script(board)
    script.boot()
    for token in script_keys(game, board):
        script.key(token)
    script.key("SELECT", "hardware")
    script.key("SELECT", "back from hardware")
    script.interrupt()
    script.soft_reset()
    return script


DEBOUNCE_MS = 20


def delivered_ms(board, token, marker):
    """When the device's button driver hands the press to the app, in emulated ms: after
    the debounce, on release for buttons whose long press means something, when held long
    enough for a long press (firmware/buttons.py)."""
    from engine_core.ui.buttons import LONG_PRESS_MS
    token = token.upper()
    button = bt.NAMES.index(token[5:] if token.startswith("LONG_") else token)
    pressed = marker["ns"] / 1e6
    if token.startswith("LONG_") or button not in dict(board.BUTTONS):
        return pressed + LONG_PRESS_MS
    if board.LONG_PRESS & (1 << button):
        return marker["release_ns"] / 1e6 + DEBOUNCE_MS
    return pressed + DEBOUNCE_MS


def play(board_name, game):
    """Run a game's scenario on the emulated Pico and on CPython; returns
    (run, [(name, device glass, reference glass or None)]).

    The reference is given each press at the emulated time the device's app got it, and
    time up to each frame's marker. The device's own clock lags the marker by up to a frame
    (its last tick), so the frame is compared with the reference's frames over the last
    FRAME_MS + 10 ms before the marker: the one the device showed is among them when both
    agree (for the computer players of Nerts, which act on the clock)."""
    board = boards.load(board_name)
    script = build_script(board, game)
    result = pico.run(board_name, script)
    frames = result.frames()
    presses = [m for m in result.markers() if m["name"] == "press"]
    reference = Reference(board)
    compared = []
    now = 0.0
    for marker, glass in frames:
        name = marker["name"]
        at = marker["ns"] / 1e6
        if name == "soft reset":
            reference.power_on()
        elif name not in ("boot", "hardware", "back from hardware"):
            press = presses.pop(0)
            due = delivered_ms(board, name, press)
            reference.tick(int(due - now))
            now += int(due - now)
            reference.press(name)
        elif name in ("hardware", "back from hardware"):
            presses.pop(0)
            if name == "back from hardware":   # the shell has the app redraw everything
                reference.console.full = True
                reference.console.redraw()
        if name == "hardware":
            compared.append((name, glass, None))
            continue
        window = FRAME_MS + 10
        if at - window > now:
            reference.tick(int(at - window - now))
            now += int(at - window - now)
        want = reference.glass()
        seen = bytes(reference.screen.buf)
        while want != glass and now < at:
            now += reference.step()
            if reference.screen.buf != seen:
                seen = bytes(reference.screen.buf)
                want = reference.glass()
        compared.append((name, glass, want))
    return result, compared


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("board", choices=("pico_lcd_13", "pico_lcd_114", "picosystem"))
    parser.add_argument("game", choices=GAMES)
    parser.add_argument("--png-dir", help="write each device frame that differs as a PNG here")
    args = parser.parse_args()
    board = boards.load(args.board)
    result, compared = play(args.board, args.game)
    for i, (name, device, want) in enumerate(compared):
        same = "-" if want is None else ("same" if device == want else "DIFFERS")
        print("%2d %-20s %s" % (i, name, same))
        if args.png_dir and want is not None and device != want:
            os.makedirs(args.png_dir, exist_ok=True)
            pico.glass_to_png(device, os.path.join(args.png_dir, "%02d-device.png" % i), board)
            pico.glass_to_png(want, os.path.join(args.png_dir, "%02d-simulator.png" % i), board)
    print("decode errors: %d, tracebacks: %d" % (len(result.errors), result.tracebacks()))


if __name__ == "__main__":
    main()
