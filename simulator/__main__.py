"""The simulator: the console's own code on the desktop, pixel for pixel.

    python -m simulator [--board 240x240|320x240|240x135|160x128|128x64|BOARD] [--game aces_up --seed 7]
        [--data-dir DIR] [--kiosk] [--mono]
    python -m simulator --headless --board 240x240 --game aces_up --seed 7 \\
        --keys "RIGHT A" --screenshot out.png

Interactive: a pygame-ce window with a skin of the board; H shows the keyboard map (--help lists it too). A
button held 400 ms is a long press. Esc backs out as B does (in play it opens the pause
menu); on the title it asks before closing the window (not in kiosk mode: a visitor cannot
close it). The digit keys type a deal's number. The screen dims and goes dark as the device's
does (the settings Dim after and Screen off after); a key or a click wakes it.
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
--mono shows the screen one-bit, lit on dark, as an SSD1306 or SH1106 OLED shows it (the
engine draws into a MONO_VLSB frame: docs/screen.md); a board whose module says MONO = True
is always shown so, and so is the size 128x64 (every such panel is an OLED).
"""

import argparse
import os
import sys
import time

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

from engine_core.loop import CLICK, DIGIT, HELD, LONG, TICKS_MASK, Loop
from engine_core.pointer import MOVE, OFF, PRESS, RELEASE
from engine_core.ui import buttons as bt
from engine_core.ui.settings import S_PLAYERS, S_TWO_BUTTONS
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


def parse_args(argv):
    parser = Parser(prog="python -m simulator", description=__doc__.split("\n\n")[0],
                    formatter_class=argparse.RawDescriptionHelpFormatter,
                    epilog="keys in the window (H shows them there too):\n" + keymap.help_text())
    parser.add_argument("--board", default="240x240",
                        help="board name, or a size: 240x135, 240x240, 320x240, 160x128, 128x64")
    parser.add_argument("--game", help="start in this game (aces_up, ...)")
    parser.add_argument("--seed", type=seed_arg, default=1, help="the deal's number, 0..1073741823 (1 unless given)")
    parser.add_argument("--keys", default="", help='a key script, e.g. "RIGHT A LONG_A TICK"')
    parser.add_argument("--headless", action="store_true", help="no window: run the keys and write --screenshot")
    parser.add_argument("--screenshot", help="PNG to write after the keys")
    parser.add_argument("--scale", type=scale_number, default=None, help="pixels per device pixel (window 3, PNG 1)")
    parser.add_argument("--skin", action="store_true", help="the PNG shows the whole window, skin included")
    parser.add_argument("--keymap", action="store_true", help="with --skin: the keyboard map over it")
    parser.add_argument("--two-buttons", action="store_true", help="play with A and B only")
    parser.add_argument("--players", type=int, choices=(2, 3, 4), help="players at a new deal of Nerts:"
                        " the Nerts players setting, for this run")
    parser.add_argument("--mono", action="store_true", help="a one-bit screen (as an SSD1306/SH1106 OLED shows it):"
                        " what a board whose module says MONO = True, and the size 128x64, always show")
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
    """Give the console its TCP link (simulator/link_socket.py), when asked for one; returns
    hung_up() for the key script's HANGUP (True once the peer closed the connection), or None
    without a link."""
    if not args.link and not args.listen:
        return None
    from engine_core.link.channel import Channel
    from engine_core.link.session import Session
    from simulator import link_socket
    listener = None  # a console that listens may host a party table: up to three guests on its port
    try:
        if args.listen:
            listener = link_socket.listen_party(args.listen, 3)
            transport = listener.seats[0]
            label = "TCP :%d" % args.listen
        else:
            host, port = link_arg(args.link)
            if host is None:
                transport, listener = link_socket.party_or_connect(port)
                label = ("TCP :%d" if listener is not None else "TCP to :%d") % port
            else:
                transport = link_socket.connect(host, port)
                label = "TCP to %s:%d" % (host, port)
    except (OSError, argparse.ArgumentTypeError) as e:
        sys.exit("error: link: %s" % e)
    party = None
    if listener is not None:
        from engine_core.ui.party import Party
        party = Party(listener)
    app.attach_link(lambda: Session(Channel(transport)), label.encode(), party)
    return lambda: not transport.connected


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
        # A second linked console on this machine (a third and a fourth at a party table):
        # a data folder of its own.
        storage = None
        for k in ("", "-3", "-4"):
            other = default_data_dir() + "-link" + k
            try:
                storage = host_storage(other)
            except DataDirError as e:
                if k == "-4":
                    sys.exit("error: " + str(e))
                continue
            print("another console here: its records go to " + other)
            break
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


def in_memory(app):
    """The app in a console whose records last as long as the run (headless, no --data-dir)."""
    from engine_core.console import Console
    from engine_core.storage import MemoryStorage
    console = Console(app, MemoryStorage())
    console.start()
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
    app = board_app(board, args.mono, args.two_buttons)
    hung_up = attach_link(app, args)
    if not args.headless or args.data_dir:
        app = keep(app, args)
    else:
        app = in_memory(app)
    if args.players:
        app.app.settings[S_PLAYERS] = args.players - 2  # the setting's choice: 2, 3 or 4 players
    if args.game:
        try:
            app.open_game(args.game, args.seed)
        except ValueError as e:
            sys.exit("error: %s (games with a layout: %s)" % (e, " ".join(app.names)))
    try:
        run(app, args.keys, app.app, hung_up, board.long_as)
    except ValueError as e:
        sys.exit("error: " + str(e))
    if args.headless:
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


def board_app(board, mono=False, two_buttons=False):
    """The App of a board as the device's firmware/main.py make_app gives it: its screen
    (one-bit where the board's is), its buttons and the long presses standing for those it
    lacks (App.set_buttons: the rules pages name what the board has). two_buttons: play
    with A and B only on any board (--two-buttons)."""
    app = make_app(board.width, board.height, mono=mono or board.mono)
    app.set_buttons(board.mask, board.long_as)
    if two_buttons:
        app.settings[S_TWO_BUTTONS] = 1
    return app


def screenshot(app, board, args):
    if args.skin:
        from simulator.window import Window
        window = Window(app.screen, args.scale or 3, board, visible=False)
        window.help = args.keymap
        window.two_only = app.app.settings[S_TWO_BUTTONS] == 1
        window.save(args.screenshot)
        window.close()
    else:
        s = app.screen
        save_png(args.screenshot, s.buf, s.width, s.height, s.palette, args.scale or 1, s.mono)


class Keys:
    """The window's keys, as the loop's port gives them (engine_core/loop.py): keyboard and
    mouse events to events for the console, in order. A, B and X act as they go down, unless
    the screen defers them (`defer`, from App.defers(): then once when held past LONG_PRESS_MS,
    long, or on release, short); one that acted and is held on past LONG_PRESS_MS reports
    HELD once (engine_core/loop.py). The keys are the board's (window.board): a key for a
    button it lacks does nothing, and a button whose long press stands for one it lacks (the
    board's LONG_AS: a long B as START on pico_ssd1306) always waits, then reports that one
    when held long, as the device's driver does (firmware/buttons.py). Key repeat for the D-pad,
    the digit keys, clicks on the drawn buttons and on the screen; H, F12 and Esc are the
    window's own."""

    def __init__(self, app, window):
        self.app = app
        self.window = window
        board = window.board
        self.present = board.buttons if board is not None else tuple(range(bt.COUNT))
        self.long_as = dict(board.long_as) if board is not None else {}  # held -> reported
        self.down = {}  # button -> [pressed at ms, long reported, next repeat ms, waits]
        self.defer = 0  # the buttons whose press waits on this screen (the loop sets it)
        self.shots = 0
        self.quit = False
        self.events = []  # events for the console, the oldest first
        self.held = 0
        self.changed = False  # an event came: a key lights a button on the skin
        self.pointing = False  # the mouse button went down on the screen and is still down

    @property
    def count(self):
        return len(self.events)

    def next_event(self):
        return self.events.pop(0) if self.events else -1

    def busy(self):
        return len(self.down) > 0

    def poll(self, now):
        import pygame
        for event in pygame.event.get():
            self.changed = True
            self.event(event, now)
        self.repeat(now)
        mask = 0
        for button in self.down:
            mask |= 1 << button
        self.held = mask

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
                save_png(path, s.buf, s.width, s.height, s.palette, 2, s.mono)
                print("wrote " + path)
            elif event.key in DIGIT_KEYS:
                self.events.append(DIGIT | DIGIT_KEYS[event.key])
            elif event.key in LONG_KEYMAP:  # a long press at once (R: redo)
                if LONG_KEYMAP[event.key] in self.present:
                    self.events.append(LONG_KEYMAP[event.key] | LONG)
            elif event.key in KEYMAP and KEYMAP[event.key] in self.present:
                button = KEYMAP[event.key]
                self.window.pressed.add(button)
                waits = button in self.long_as or button in LONG_BUTTONS and self.defer >> button & 1 == 1
                self.down[button] = [now, False, now + REPEAT_FIRST_MS, waits]
                if not waits:
                    self.events.append(button)
        elif event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            self.click(event.pos)
        elif event.type == pygame.MOUSEMOTION and self.pointing:
            self.pointer(event.pos, MOVE)
        elif event.type == pygame.MOUSEBUTTONUP and event.button == 1 and self.pointing:
            self.pointing = False
            self.pointer(event.pos, RELEASE)
        elif event.type == pygame.KEYUP and event.key in KEYMAP:
            button = KEYMAP[event.key]
            self.window.pressed.discard(button)
            state = self.down.pop(button, None)
            if state and state[3] and not state[1]:
                self.events.append(button)

    def escape(self):
        """Esc backs out as B does: it closes the key map, drops a held card, opens the pause
        menu from play, leaves a menu; on the title, where there is nothing to back out of,
        it asks before closing the window."""
        if self.window.help:
            self.window.help = False
            return
        code = self.app.back_key()  # engine_core/console.py
        if code >= 0:
            self.events.append(code)
        elif self.app.may_close():  # a kiosk's visitor cannot close it
            self.window.asking = True

    def click(self, pos):
        """Mouse: a drawn button presses it; on the screen, a press at its pixel (engine_core/
        pointer.py: in play a pile takes the cursor and A, a double-click sends the card to a
        foundation, a drag carries the card picked up; elsewhere, A)."""
        window = self.window
        for button, (x, y, r) in window.button_spots().items():
            if button in self.present and (pos[0] - x) ** 2 + (pos[1] - y) ** 2 <= r * r:
                self.events.append(button)
                return
        if self.pointer(pos, PRESS):
            self.pointing = True

    def pointer(self, pos, phase):
        """The pointer at a window position as an event at the screen's pixel: a press (only on
        the screen; True if there), a move while pressed (moves not yet taken are replaced by the
        last), the release (off the screen: at OFF, OFF, on no pile)."""
        window = self.window
        sx = (pos[0] - window.side) // window.scale
        sy = (pos[1] - window.pad) // window.scale
        if not (0 <= sx < self.app.screen.width and 0 <= sy < self.app.screen.height):
            if phase == PRESS:
                return False
            if phase == MOVE:
                return True
            sx = sy = OFF
        code = CLICK | phase << 19 | sy << 9 | sx
        if phase == MOVE and self.events and self.events[-1] >= CLICK and self.events[-1] >> 19 == MOVE:
            self.events[-1] = code
        else:
            self.events.append(code)
        return True

    def repeat(self, now):
        """Buttons still held: long presses and repeats come due."""
        for button, state in self.down.items():
            if button in self.long_as:  # a long press standing for a button the board lacks
                if not state[1] and now - state[0] >= bt.LONG_PRESS_MS:
                    state[1] = True
                    self.events.append(self.long_as[button])
            elif button in LONG_BUTTONS:
                if not state[1] and now - state[0] >= bt.LONG_PRESS_MS:
                    state[1] = True
                    self.events.append(button | (LONG if state[3] else HELD))
            elif button <= bt.RIGHT and now >= state[2]:
                state[2] = now + REPEAT_MS
                self.events.append(button)


class EventQueue:
    """The loop's latch on the desktop: SDL's event queue holds what came while it rested."""

    @property
    def fell(self):
        import pygame
        pygame.event.pump()
        return pygame.event.peek()


class WallClock:
    """The loop's clock on the desktop: the wall clock's milliseconds."""

    def ticks_ms(self):
        return int(time.monotonic() * 1000) & TICKS_MASK

    def ticks_us(self):
        return (time.perf_counter_ns() // 1000) & TICKS_MASK

    def sleep_ms(self, ms):
        time.sleep(ms / 1000)


class Desktop:
    """The window's port of the loop (engine_core/loop.py): its keys, the mixer's tones, the
    wall clock (or a test's), and the window drawn again when the screen changed, a key lit
    a button or the screen's light changed. The device's power (engine_core/power.py, its
    times the console's settings) dims the window's screen and turns it dark; a key wakes
    it and does nothing else. This port is also the power's panel and its app."""

    def __init__(self, window, keys, sounds, clock=None):
        from engine_core.power import Power
        self.window = window
        self.keys = keys
        self.beeper = sounds
        self.clock = clock if clock is not None else WallClock()
        self.latch = EventQueue()
        self.drawn = False
        self.power = Power(window.set_light, self, self.clock.sleep_ms, 0, 0, None, self.clock.ticks_ms(),
                           keys.app.app.settings)

    def flush(self, screen):
        # A card dragged is in the framebuffer only while it is sent (engine_core/pointer.py).
        pointer = self.keys.app.pointer
        if pointer is not None:
            pointer.lay(self.keys.app)
        self.window.refresh_frame()
        if pointer is not None:
            pointer.lift(self.keys.app)
        self.drawn = True

    def woke(self, now):
        return self.power.woke(now)

    def rest_ms(self, now):
        return self.power.rest_ms(now)  # resting, the window still ticks the console once a second

    def after_frame(self, now):
        self.power.update(now, self.keys.held, self)
        window = self.window
        two_only = self.keys.app.app.settings[S_TWO_BUTTONS] == 1
        if two_only != window.two_only:  # the setting changed: the skin's buttons with it
            window.two_only = two_only
            self.keys.changed = True
        if self.drawn or self.keys.changed or window.light != window.shown_light:
            window.update()
            self.drawn = False
            self.keys.changed = False

    # --- the power's panel and app ---

    def sleep(self):
        pass  # dark: the window shows the screen black (Window.set_light(0))

    def wake(self, wait_ms, sleep_ms):
        pass

    def may_sleep(self):
        from engine_core.ui.idle import screen_may_sleep
        return screen_may_sleep(self.keys.app)

    def save_now(self):
        self.keys.app.save_now(False)

    def notify(self, text):
        pass  # the battery's warnings: the desktop has no battery


NO_DISPLAY = ("error: no display to open a window on (DISPLAY and WAYLAND_DISPLAY are unset);"
              " run it on a desktop, or draw without a window: --headless --screenshot FILE")


def display_missing():
    """True on Linux with no X or Wayland display (and no SDL video driver chosen)."""
    env = os.environ
    return (sys.platform.startswith("linux") and not env.get("DISPLAY")
            and not env.get("WAYLAND_DISPLAY") and not env.get("SDL_VIDEODRIVER"))


WINDOW_FRAME_MS = 16  # the window runs at 60 frames a second
# Resting, the window looks at SDL's event queue this often: each look wakes the process and
# pumps the queue, which costs far more than the device's pin flag (every 2 ms it kept about
# 2% of a core on a still title); a press after a rest waits at most this, half a frame.
WINDOW_REST_STEP_MS = 8


def interactive(app, board, args):
    host = WindowHost(app, board, args.scale)
    while host.frame():
        pass
    host.close()


class WindowHost:
    """The window around the engine's loop (engine_core/loop.py) on its port (Desktop): a
    frame at a time, then the wait or the rest until the next; the console's records saved
    and the link told when the window closes."""

    def __init__(self, app, board, scale=None, clock=None):
        """clock: the loop's (None: the wall clock)."""
        import pygame
        from simulator.window import Window, fit_scale
        from simulator.sound import Sounds
        self.app = app  # a Console (engine_core/console.py)
        if not scale:
            pygame.display.init()
            info = pygame.display.Info()
            scale = fit_scale(app.screen.width, app.screen.height, info.current_w, info.current_h)
        self.window = Window(app.screen, scale, board)
        self.keys = Keys(app, self.window)
        self.sounds = Sounds()
        self.port = Desktop(self.window, self.keys, self.sounds, clock)
        self.loop = Loop(app, self.port, WINDOW_FRAME_MS, rest_step_ms=WINDOW_REST_STEP_MS)
        self.window.update()

    def frame(self):
        """One frame and the wait after it; False once the window is to close."""
        self.loop.frame()
        if self.keys.quit:
            return False
        self.loop.wait()
        return not self.keys.quit

    def close(self):
        """The window closes: a linked game's partner is told (BYE, as the pause menu's To the title
        says it), and the console saves what play has not saved yet."""
        self.app.goodbye()
        self.app.close()
        self.window.close()


if __name__ == "__main__":
    main()
