"""The simulator: the console's own code on the desktop, pixel for pixel.

    python -m simulator [--board 240x240|320x240|240x135|BOARD] [--game aces_up --seed 7]
        [--data-dir DIR] [--kiosk]
    python -m simulator --headless --board 240x240 --game aces_up --seed 7 \\
        --keys "RIGHT A" --screenshot out.png

Interactive: a pygame-ce window with a skin of the board; H shows the keyboard map. A
button held 400 ms is a long press. Esc backs out as B does (in play it opens the pause
menu); on the title it asks before closing the window (not in kiosk mode: a visitor cannot
close it). The digit keys type a deal's number.
Settings, statistics and the game in progress are kept in --data-dir (default: the
platform's user data folder; docs/reliability.md): close the window mid-game and the next
start resumes it. One console per folder: a second one on the same --data-dir stops with a
one-line error (simulator/datadir.py). --kiosk turns kiosk mode on (and keeps it on).
Link play (docs/link.md): --link PORT puts the console on a local TCP link: the first window
listens on 127.0.0.1:PORT, a second one started the same way connects to it (and, when the
first holds the data folder, keeps its records in a folder of its own); --listen PORT and
--link HOST:PORT choose the side. The title then offers "Link play".
Headless: runs the key script (see simulator/keys.py) and writes the screen (--scale N pixels
a pixel; --skin for the whole window) as a PNG; it keeps records only when given --data-dir.
"""

import argparse
import os
import sys

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

from engine_core.pointer import Pointer
from engine_core.ui import buttons as bt
from simulator import keymap
from simulator.boards import resolve_board
from simulator.image import save_png
from simulator.keymap import REPEAT_FIRST_MS, REPEAT_MS
from simulator.keys import land, make_app, run

# Buttons whose long press means something: reported on release (simulator/keymap.py).
LONG_BUTTONS = tuple(bt.NAMES.index(name) for name in keymap.LONG_BUTTONS)
MAX_SCALE = 16


class Parser(argparse.ArgumentParser):
    def error(self, message):
        """A bad argument: one line (`python -m simulator --help` shows the usage)."""
        sys.stderr.write("error: " + message + " (python -m simulator --help)\n")
        sys.exit(2)
TITLE_MODE = 0  # engine_core.ui.screens.TITLE
PLAY_MODE = 3  # engine_core.ui.screens.PLAY
S_TWO_BUTTONS = 7  # engine_core.ui.settings.S_TWO_BUTTONS
NO_SLOT = 255  # engine_core.ui.view.NONE


def parse_args(argv):
    parser = Parser(prog="python -m simulator", description=__doc__.split("\n\n")[0])
    parser.add_argument("--board", default="240x240", help="board name, or a size: 240x135, 240x240, 320x240")
    parser.add_argument("--game", help="start in this game (aces_up, ...)")
    parser.add_argument("--seed", type=seed_arg, default=1, help="the deal's number, 0..1073741823")
    parser.add_argument("--keys", default="", help='a key script, e.g. "RIGHT A LONG_A TICK"')
    parser.add_argument("--headless", action="store_true", help="no window: run the keys and write --screenshot")
    parser.add_argument("--screenshot", help="PNG to write after the keys")
    parser.add_argument("--scale", type=scale_number, default=None, help="pixels per device pixel (window 3, PNG 1)")
    parser.add_argument("--skin", action="store_true", help="the PNG shows the whole window, skin included")
    parser.add_argument("--keymap", action="store_true", help="with --skin: the keyboard map over it")
    parser.add_argument("--two-buttons", action="store_true", help="play with A and B only")
    parser.add_argument("--data-dir", help="where settings, statistics and the game in progress are kept"
                        " (default: the platform's user data folder)")
    parser.add_argument("--kiosk", action="store_true", help="kiosk mode: demo when idle, settings locked")
    parser.add_argument("--link", help="link play over TCP: PORT (listen there, or join a console that"
                        " listens) or HOST:PORT (join)")
    parser.add_argument("--listen", type=port_arg, help="link play over TCP: wait on this port")
    return parser.parse_args(argv)


def port_arg(text):
    from engine_core.text import parse_number
    try:
        return parse_number(text, "port", 1, 65535)
    except ValueError as e:
        raise argparse.ArgumentTypeError(str(e))


def link_arg(text):
    """--link: (None, port) for a bare port, (host, port) for HOST:PORT."""
    host, _, port = text.rpartition(":")
    try:
        return (host or None), port_arg(port)
    except argparse.ArgumentTypeError as e:
        raise argparse.ArgumentTypeError("--link %s: %s" % (text, e))


def attach_link(app, args):
    """Give the console its TCP link (simulator/link_socket.py), when asked for one."""
    if not args.link and not args.listen:
        return
    from engine_core.link.channel import Channel
    from engine_core.link.session import Session
    from simulator import link_socket
    try:
        if args.listen:
            transport = link_socket.listen(args.listen)
            label = "TCP :%d" % args.listen
        else:
            host, port = link_arg(args.link)
            if host is None:
                transport = link_socket.listen_or_connect(port)
                label = ("TCP :%d" if transport.server is not None else "TCP to :%d") % port
            else:
                transport = link_socket.connect(host, port)
                label = "TCP to %s:%d" % (host, port)
    except (OSError, argparse.ArgumentTypeError) as e:
        sys.exit("error: link: %s" % e)
    app.attach_link(lambda: Session(Channel(transport)), label.encode())


def scale_number(text):
    """--scale: a whole number 1..16 (engine_core/text.py, as the protocol reads numbers)."""
    from engine_core.text import parse_number
    try:
        return parse_number(text, "scale", 1, MAX_SCALE)
    except ValueError as e:
        raise argparse.ArgumentTypeError(str(e))


def check_output(path):
    """An error line when a PNG cannot be written at path (its folder missing, not a folder)."""
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        return "error: cannot write %s: no folder %s" % (path, folder)
    if os.path.isdir(path):
        return "error: cannot write %s: it is a folder" % path
    return ""


def keep(app, args):
    """The app with its records kept (engine_core/console.py), started: a saved game resumes."""
    from engine_core.console import Console
    from simulator.datadir import DataDirError, default_data_dir, host_storage
    try:
        storage = host_storage(args.data_dir)
    except DataDirError as e:
        if not (args.link or args.listen) or args.data_dir:
            sys.exit("error: " + str(e))
        # The second linked console on this machine: a data folder of its own.
        second = default_data_dir() + "-link"
        print("a second console here: its records go to " + second)
        try:
            storage = host_storage(second)
        except DataDirError as e:
            sys.exit("error: " + str(e))
    console = Console(app, storage)
    if args.kiosk:
        console.keeper.start()
        console.keeper.settings.set("kiosk", 1)
        console.keeper.save_settings()
    console.start()
    if storage.cannot_keep:  # a full or read-only disk: play on, say so once
        print("warning: records in %s cannot be kept: %s" % (storage.root, storage.cannot_keep),
              file=sys.stderr)
        console.keeper.cannot_keep()
        console.show_notice()
    return console


def seed_arg(text):
    """--seed: a whole number in the protocol's range, 0 .. 2**30 - 1 (engine_core/protocol.py)."""
    from engine_core.protocol import MAX_SEED
    try:
        value = int(text, 10)
    except ValueError:
        raise argparse.ArgumentTypeError("%r is not a whole number" % text)
    if not 0 <= value <= MAX_SEED:
        raise argparse.ArgumentTypeError("%s is outside 0..%d" % (text, MAX_SEED))
    return value


def main(argv=None):
    args = parse_args(argv)
    if args.screenshot and check_output(args.screenshot):
        sys.exit(check_output(args.screenshot))
    if not args.headless and display_missing():
        sys.exit(NO_DISPLAY)
    try:
        board = resolve_board(args.board)
    except ValueError as e:
        sys.exit("error: " + str(e))
    app = make_app(board.width, board.height)
    if args.two_buttons or board.two_buttons:
        app.settings[7] = 1  # S_TWO_BUTTONS
    attach_link(app, args)
    if not args.headless or args.data_dir:
        app = keep(app, args)
    if args.game:
        try:
            app.open_game(args.game, args.seed)
        except ValueError as e:
            sys.exit("error: %s (games with a layout: %s)" % (e, " ".join(app.names)))
    try:
        run(app, args.keys)
    except ValueError as e:
        sys.exit("error: " + str(e))
    if args.headless and hasattr(app, "close"):
        app.close()  # the console saves what play has not saved yet
    if args.headless:
        land(app)  # a screenshot shows the cards where they landed
        if not args.screenshot:
            sys.exit("error: --headless needs --screenshot")
        try:
            screenshot(app, board, args)
        except OSError as e:
            sys.exit("error: cannot write %s: %s" % (args.screenshot, e.strerror or e))
        return
    interactive(app, board, args)


def screenshot(app, board, args):
    if args.skin:
        from simulator.window import Window
        window = Window(app.screen, args.scale or 3, board, visible=False)
        window.help = args.keymap
        window.save(args.screenshot)
        window.close()
    else:
        s = app.screen
        save_png(args.screenshot, s.buf, s.width, s.height, s.palette, args.scale or 1)


class Keys:
    """Keyboard events -> button presses: long presses for A and B (reported once, when held
    past LONG_PRESS_MS, or as a short press on release), key repeat for the D-pad."""

    def __init__(self, app, window):
        self.app = app
        self.window = window
        self.down = {}  # button -> [pressed at ms, long reported, next repeat ms]
        self.shots = 0
        self.quit = False
        self.pointer = Pointer()  # the mouse on the screen (engine_core/pointer.py)

    def event(self, event, now):
        import pygame
        from simulator.window import DIGIT_KEYS, KEYMAP, LONG_KEYMAP
        app = self.app
        if event.type == pygame.QUIT:
            self.quit = True
        elif self.window.asking and event.type in (pygame.KEYDOWN, pygame.MOUSEBUTTONDOWN):
            # "Close the simulator?": Esc again closes, any other key or a click stays.
            self.window.asking = False
            self.quit = event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE
        elif event.type == pygame.KEYDOWN:
            if event.key == pygame.K_ESCAPE:
                self.escape()
            elif event.key in (pygame.K_h, pygame.K_F1):
                self.window.help = not self.window.help
            elif event.key == pygame.K_F12:
                self.shots += 1
                path = "simulator-%d.png" % self.shots
                s = app.screen
                save_png(path, s.buf, s.width, s.height, s.palette, 2)
                print("wrote " + path)
            elif event.key in DIGIT_KEYS:
                app.type_digit(DIGIT_KEYS[event.key])
            elif event.key in LONG_KEYMAP:  # a long press at once (R: redo)
                app.press(LONG_KEYMAP[event.key], True)
            elif event.key in KEYMAP:
                button = KEYMAP[event.key]
                self.window.pressed.add(button)
                self.down[button] = [now, False, now + REPEAT_FIRST_MS]
                if button not in LONG_BUTTONS:
                    app.press(button, False)
        elif event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            self.click(event.pos, now)
        elif event.type == pygame.KEYUP and event.key in KEYMAP:
            button = KEYMAP[event.key]
            self.window.pressed.discard(button)
            state = self.down.pop(button, None)
            if state and button in LONG_BUTTONS and not state[1]:
                app.press(button, False)

    def escape(self):
        """Esc backs out as B does: it closes the key map, drops a held card, opens the pause
        menu from play, leaves a menu; on the title, where there is nothing to back out of,
        it asks before closing the window."""
        app = self.app
        if self.window.help:
            self.window.help = False
        elif app.mode == TITLE_MODE:
            if not getattr(app, "kiosk_on", False):  # a kiosk's visitor cannot close it
                self.window.asking = True
        elif getattr(app, "app", app).settings[S_TWO_BUTTONS]:  # (the App inside a Console)
            # A and B only: a long A drops a held card, a long B is START in play, else B.
            held = app.mode == PLAY_MODE and app.table.held != NO_SLOT
            app.press(bt.A if held else bt.B, True)
        elif app.mode == PLAY_MODE:
            app.press(bt.B if app.table.held != NO_SLOT else bt.START, False)
        else:
            app.press(bt.B, False)

    def click(self, pos, now):
        """Mouse: a drawn button presses it; on the screen, engine_core/pointer.py: in play a
        pile takes the cursor and A (pick up, place), a double-click sends the card to a
        foundation (long A); elsewhere on the screen, A."""
        app = self.app
        window = self.window
        for button, (x, y, r) in window.button_spots().items():
            if (pos[0] - x) ** 2 + (pos[1] - y) ** 2 <= r * r:
                app.press(button, False)
                return
        sx = (pos[0] - window.side) // window.scale
        sy = (pos[1] - window.pad) // window.scale
        if not (0 <= sx < app.screen.width and 0 <= sy < app.screen.height):
            return
        self.pointer.click(app, sx, sy, now)

    def held(self, now):
        """Buttons still held: long presses and repeats come due."""
        for button, state in self.down.items():
            if button in LONG_BUTTONS:
                if not state[1] and now - state[0] >= bt.LONG_PRESS_MS:
                    state[1] = True
                    self.app.press(button, True)
            elif button <= bt.RIGHT and now >= state[2]:
                state[2] = now + REPEAT_MS
                self.app.press(button, False)


NO_DISPLAY = ("error: no display to open a window on (DISPLAY and WAYLAND_DISPLAY are unset);"
              " run it on a desktop, or draw without a window: --headless --screenshot FILE")


def display_missing():
    """True on Linux with no X or Wayland display (and no SDL video driver chosen)."""
    env = os.environ
    return (sys.platform.startswith("linux") and not env.get("DISPLAY")
            and not env.get("WAYLAND_DISPLAY") and not env.get("SDL_VIDEODRIVER"))


REST_MAX_MS = 1000  # resting, the window still ticks the app once a second (as the device)
REST_STEP_S = 0.01  # resting, a look at the event queue every 10 ms


def rest(pygame, max_ms):
    """Sleep until an event is queued or max_ms have passed. pygame's event.wait with a timeout
    polls inside SDL every millisecond (4% of a core here, with nothing happening); sleeping
    10 ms between looks costs under 1% and answers a key within 10 ms."""
    import time
    end = time.monotonic() + max_ms / 1000
    while time.monotonic() < end:
        pygame.event.pump()
        if pygame.event.peek():
            return
        time.sleep(REST_STEP_S)


def resting(app, keys):
    """Nothing moves and no key is down (engine_core/ui/idle.py): the window waits for the
    next event instead of running frames."""
    from engine_core.ui.idle import app_idle, console_idle
    if keys.down:
        return False
    return console_idle(app) if hasattr(app, "keeper") else app_idle(app)


def interactive(app, board, args):
    loop = Loop(app, board, args.scale)
    while loop.frame():
        pass
    loop.close()


class Loop:
    """The window's loop, a frame at a time: keys and clicks to the app, its time, its sound,
    the window drawn when something changed, and rest while nothing moves."""

    def __init__(self, app, board, scale=None):
        import pygame
        from simulator.window import Window, fit_scale
        from simulator.sound import Sounds
        self.pygame = pygame
        self.app = app
        if not scale:
            pygame.display.init()
            info = pygame.display.Info()
            scale = fit_scale(app.screen.width, app.screen.height, info.current_w, info.current_h)
        self.window = Window(app.screen, scale, board)
        self.keys = Keys(app, self.window)
        self.sounds = Sounds()
        self.clock = pygame.time.Clock()
        self.window.update()

    def frame(self):
        """One frame; False once the window is to close."""
        pygame = self.pygame
        app = self.app
        keys = self.keys
        now = pygame.time.get_ticks()
        events = pygame.event.get()
        for event in events:
            keys.event(event, now)
        if keys.quit:
            return False
        keys.held(now)
        if hasattr(app, "held"):  # the console's kiosk chord needs the buttons held down
            mask = 0
            for button in keys.down:
                mask |= 1 << button
            app.held(mask)
        app.tick(self.clock.get_time() or 16)
        self.sounds.play(app)
        if events or app.screen.dirty_count:  # a key lights a button; the app drew
            self.window.update()
        if resting(app, keys):
            rest(pygame, REST_MAX_MS)  # next to no CPU until a key, a click or a second
            self.clock.tick()
        else:
            self.clock.tick(60)
        return True

    def close(self):
        """The window closes: a linked game's partner is told (BYE, as the pause menu's Quit
        says it), and the console saves what play has not saved yet."""
        goodbye(self.app)
        if hasattr(self.app, "close"):
            self.app.close()
        self.window.close()


def goodbye(app):
    """Say BYE on the link when a table is linked or open: the other console then offers to
    play on at once, instead of waiting out a silence."""
    inner = getattr(app, "app", app)  # (the App inside a Console)
    link = getattr(inner, "link", None)
    if link is None or link.session is None:
        return
    if inner.linked():
        inner.leave_link()
    elif link.session.state != 0:  # engine_core.link.messages.S_IDLE: a table open, an offer taken
        link.session.leave(inner.clock)


if __name__ == "__main__":
    main()
