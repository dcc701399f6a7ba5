"""Every game played on the emulated Pico and, with the same presses, in the simulator's
engine on CPython: the frames the panel received must equal the simulator's frames.

    python -m tools.device.pico_scenario pico_lcd_13 aces_up       (a report; tests/test_pico.py asserts)

A scenario opens a game from the title, plays card moves, a hint, an undo, the pause menu and
the rules page, visits the hardware screen, then stops the app (Ctrl-C), soft-resets the board
(Ctrl-D) and checks that the game comes back. The simulator side is the same Console and App
on CPython (engine_core.console) with records in RAM, given the same presses at the same
times as the device's app took them (the loop's press log, read at the REPL). That log must
hold exactly the script's presses: none lost, none doubled. The hardware
screen is the device's own (it shows measured figures): its frame is checked for decoding
errors only, and the app's clock stands still while it shows, on both sides.
"""

import argparse
import os

import boards
from engine_core import games
from engine_core.ui import buttons as bt
from support.oled_model import expected_mono
from support.panel_model import expected_glass
from tools.device import pico

GAMES = tuple(games.names())  # the title's game list, in its order
FRAME_MS = 33

# From the title: the game list, the game, the seed entry (X; a long A without X), deal seed 1.
OPEN = "DOWN A %s X A"
# In play: moves, a hint and its play, an undo, the pause menu and back.
# (A game without keys of its own here plays PLAY_ANY.)
PLAY_ANY = "A A X A A Y RIGHT A"
PLAY = {
    "aces_up": "RIGHT A A X A A Y RIGHT RIGHT A",
    "casket": "A A X A A Y RIGHT A A",
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
    return opening.split() + pressable(board, PLAY.get(game, PLAY_ANY) + " " + PAUSE)


def pressable(board, text):
    """The tokens of `text`, each one the board lacks (X, Y) reached through the pause menu."""
    tokens = []
    for token in text.split():
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
        self.first = 0  # what is left of the first tick after the last press (press())
        self.power_on()

    def power_on(self):
        from engine_core.console import Console
        from engine_core.gfx.screen import Screen
        from simulator import framebuf
        from engine_core.ui.app import App
        from firmware.main import attach_link, board_buttons
        if getattr(self.board, "MONO", False):   # a one-bit screen, as firmware/main.py makes it
            app = App(Screen(self.board.WIDTH, self.board.HEIGHT, framebuf, mono=True))
        else:
            app = App(Screen(self.board.WIDTH, self.board.HEIGHT, framebuf))
        app.set_buttons(board_buttons(self.board), self.board.LONG_AS)   # as the firmware's make_app
        attach_link(app, self.board)   # as the firmware's make_app: the title offers Link play
        self.console = Console(app, self.storage, 1)
        self.console.start()
        self.screen = app.screen

    def press(self, token, first_ms=0):
        """The press, then time as the device's loop gives it: its first tick after a press
        is the whole of the frame that took it, `first_ms` (the app's clock stood at the
        frame before; what counts a frame, such as a message's first, sees that one tick)."""
        token = token.upper()
        long_press = token.startswith("LONG_")
        name = token[5:] if long_press else token
        self.console.press(bt.NAMES.index(name), long_press)
        self.first = first_ms

    def tick(self, ms):
        while ms > 0:
            step = FRAME_MS if ms > FRAME_MS else ms
            if self.first > 0:
                step = self.first if self.first < ms else ms
                self.first -= step
            self.console.tick(step)
            ms -= step

    def step(self):
        """Time passes to the next millisecond the device could have drawn at; returns how
        many (1, or the rest of the first tick after a press)."""
        step = self.first if self.first > 0 else 1
        self.first = 0
        self.console.tick(step)
        return step

    def glass(self):
        s = self.screen
        b = self.board
        if getattr(b, "MONO", False):
            return expected_mono(s.buf, s.width, s.height)
        return expected_glass(s.buf, s.width, s.height, s.palette, b.GLASS, b.MADCTL)


def can_press(board, token):
    try:
        pico.button_presses(board, token)
    except pico.PicoError:
        return False
    return True


def build_script(board, game):
    """The session: the game's keys, the hardware screen and back (on a board that can press
    SELECT: the others reach it from the REPL), Ctrl-C, the press log, a soft reset."""
    script = pico.Script(board)
    script.boot()
    for token in script_keys(game, board):
        script.key(token)
    if can_press(board, "SELECT"):
        script.key("SELECT", "hardware")
        script.key("SELECT", "back from hardware")
    script.interrupt()
    script.repl("from firmware.main import press_log")
    script.repl("print('PRESSES', press_log())")
    script.soft_reset()
    return script


def press_log(console):
    """The presses the device's loop took, [(ticks_ms, button name, long)], from the REPL."""
    import ast
    for line in console.splitlines():
        if line.startswith("PRESSES ["):
            return [tuple(p) for p in ast.literal_eval(line[len("PRESSES "):])]
    raise pico.PicoError("the device's press log is not on the REPL")


def logged_as(token):
    """How the device's press log names a key-script token: (button name, long). A button
    reached through a long press that stands for it (LONG_AS) is logged as itself."""
    token = token.upper()
    if token.startswith("LONG_"):
        return (token[5:], True)
    return (token, False)


DEBOUNCE_MS = 20


def delivered_ms(board, token, marker, deferred):
    """When the device's button driver hands the press to the app, in emulated ms: the
    deciding edge (docs/screen.md, "When a press acts"). The edge that presses it (its pin
    latches it: a leading-edge debounce); the release and its debounce for a button whose
    press waits there (`deferred`: the screen's App.defers() mask, for a button of the board's
    LONG_PRESS; a LONG_AS stand-in always); when held long enough for a long press
    (firmware/buttons.py)."""
    from engine_core.ui.buttons import LONG_PRESS_MS
    token = token.upper()
    button = bt.NAMES.index(token[5:] if token.startswith("LONG_") else token)
    pressed = marker["ns"] / 1e6
    if token.startswith("LONG_") or button not in dict(board.BUTTONS):
        return pressed + LONG_PRESS_MS
    if button in [held for held, _ in board.LONG_AS] or board.LONG_PRESS & deferred & (1 << button):
        return marker["release_ns"] / 1e6 + DEBOUNCE_MS
    return pressed


def play(board_name, game):
    """Run a game's scenario on the emulated Pico and on CPython; returns
    (run, [(name, device glass, reference glass or None)]).

    The reference takes each press at the time the device's app took it (the loop's press
    log: the app's clock then), so a computer player on the clock (Nerts) acts at the same
    game times on both, and the first tick after a press spans the frame that took it, as on
    the device. Frames are drawn at the device's own frame times, which are not logged: the
    glass at a marker is compared with the reference's frames over the FRAME_MS + 10 ms
    before the device's last byte (the frame that sent it), and the one the device showed is
    among them when both agree."""
    board = boards.load(board_name)
    script = build_script(board, game)
    result = pico.run(board_name, script)
    frames = result.frames()
    log = press_log(result.console)
    keys = [m["name"] for m, _ in frames if m["name"] not in ("boot", "soft reset")]
    wanted = [logged_as("SELECT" if k in ("hardware", "back from hardware") else k)
              for k in keys]
    if [(name, long) for _, name, long in log] != wanted:
        raise pico.PicoError("the device took other presses than the script's: %s, not %s"
                             % (log, wanted))
    reference = Reference(board)
    compared = []
    now = 0
    presses = [t for t, _, _ in log]
    edges = [m for m in result.markers() if m["name"] == "press"]
    for marker, glass in frames:
        name = marker["name"]
        if name == "soft reset":
            reference.power_on()
        elif name == "back from hardware":   # the app stood still while it showed...
            now = presses.pop(0)
            edges.pop(0)
            reference.console.full = True     # ...and redraws everything after it
            reference.console.redraw()
        elif name != "boot":
            t = presses.pop(0)
            reference.tick(t - now)
            now = t
            edge = edges.pop(0)
            if name != "hardware":
                deferred = reference.console.defers()
                reference.press(name, max(1, int(delivered_ms(board, name, edge, deferred)) - t))
        if name == "hardware":
            compared.append((name, glass, None))
            continue
        # The glass has not changed since the device's last byte before the marker: it shows
        # the state of the frame that sent it (a frame can be late, while the game is saved).
        drawn = max(now, int(marker["last_spi_ns"] / 1e6))
        start = drawn - (FRAME_MS + 10)
        if start > now:
            reference.tick(start - now)
            now = start
        want = reference.glass()
        seen = bytes(reference.screen.buf)
        while want != glass and now < drawn:
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
