"""The device: boot, safe mode, and the app loop.

The board's own main.py (written by `make build`) calls start(BOARD_NAME). Hold any button
while the board powers on and start() only lights the screen with "SAFE MODE" and returns:
the app does not run and the USB serial REPL is free (for mpremote, a new build, or the
protocol).

The frame loop is the engine's (engine_core/loop.py, docs/engine.md "The loop and its
port"); this module gives it the device's port (Device): the buttons (their pins latch a
press's edge, so a tap shorter than a frame is not lost and a rest ends at once), the beeper,
the board's clocks, the panel, and the power (dimming, the screen off, the battery). The app
the loop drives is the Shell: the Console (engine_core/console.py) with the hardware screen a
SELECT away and the battery gauge drawn over it. The loop keeps the last PRESS_LOG presses
with the time the app took them, so that a session can be told and replayed exactly; at the
REPL after Ctrl-C:
    >>> from firmware.main import press_log; press_log()

The text protocol (docs/protocol.md) over the USB serial REPL:
    >>> from firmware.main import protocol; protocol()
"""

import gc
import sys
import time

from engine_core.gfx import palette as pal
from engine_core.gfx.paint import LINE_H, Painter
from engine_core.gfx.screen import Screen
from engine_core.ui.app import PAUSE, S_SOUND, TITLE
from engine_core.ui.idle import console_idle, screen_may_sleep
from engine_core.loop import FRAME_MS, PRESS_LOG, REST_MAX_MS, Loop  # noqa: F401  (PRESS_LOG: press_log())
from engine_core.loop import press_log  # noqa: F401  (at the REPL: the last presses)
from firmware.buttons import SELECT, X, GpioButtons

_link = [None]  # type: list                  # the console's Link (link_state(), at the REPL)
_power = [None]  # type: list                 # the loop's power figures when it stopped (power_state())
BACKGROUND = pal.FELT           # the splash's colours
TEXT = pal.WHITE


class FrameStats:
    """What the loop measures (microseconds; millivolts, -1 when unknown)."""

    def __init__(self):
        self.frame_us = 0
        self.flush_us = 0
        self.battery_mv = -1


class Clock:
    """The board's clocks (tests pass a fake with the same methods): the time module's own
    functions, called without a Python frame between (the loop's rest calls two of them each
    time it looks at the keys)."""

    def __init__(self):
        self.ticks_ms = time.ticks_ms
        self.ticks_us = time.ticks_us
        self.sleep_ms = time.sleep_ms


class Device:
    """The device's port of the loop (engine_core/loop.py): the buttons, the beeper, the
    board's clocks, the panel, and the power (dimming, the screen off, the battery: firmware/
    power.py; or None). The buttons rest the loop when their pins latch edges: a reader of
    GPIO pins alone (firmware/buttons.py GpioButtons, its `fell`); an ADC D-pad, alone or with
    pins (AdcDpad, Readers), latches none: it must be polled."""

    def __init__(self, app, panel, buttons, beeper, clock, power=None):
        self.app = app
        self.panel = panel
        self.keys = buttons
        self.beeper = beeper
        self.clock = clock
        self.latch = buttons.reader if isinstance(buttons.reader, GpioButtons) else None
        self.power = power
        self.warm = []  # type: list  # games whose modules are still to import (start: after the title)

    def flush(self, screen):
        self.panel.show(screen)

    def woke(self, now):
        return self.power is not None and self.power.woke(now)

    def rest_ms(self, now):
        if self.warm:
            return 0  # (a frame each until the games are imported)
        return REST_MAX_MS if self.power is None else self.power.rest_ms(now)

    def after_frame(self, now):
        if self.power is not None:
            self.power.update(now, self.keys.held, self.app)
        if self.warm and not self.keys.count:  # one game a frame, none with a press waiting
            keep_layout(self.app.app.app, self.warm.pop(0))


def device_loop(app, panel, buttons, beeper, clock, stats, frame_ms=FRAME_MS, power=None,
                gauge=None):
    """The engine's loop on the device's port; the battery gauge drawn by the shell."""
    if gauge is not None:
        app.gauge = gauge
    return Loop(app, Device(app, panel, buttons, beeper, clock, power), frame_ms, True, stats)


def link_state():
    """The console's link play (docs/link.md), at the REPL after Ctrl-C; None until Link play
    was first opened:
        >>> from firmware.main import link_state; link_state()
    The session's state and seat, the hash of the game on the table (statehash.state_hash),
    what the session sent and found, the channel's counters (frames_refused: frames of another
    table or console), this console's id, its table and partner, and the polls in which bytes
    arrived with their time on this board (firmware/link_timed.py). Only the link is kept for
    it (its session holds the linked game), not the stopped app: a new app made at the REPL
    (firmware.bench.heap, protocol()) has the rest of the heap."""
    link = _link[0]
    if link is None or link.session is None:
        return None
    from engine_core.link.statehash import state_hash
    s = link.session
    ch = s.ch
    return {
        "state": s.state, "seat": s.my_seat, "host": s.is_host, "linked": link.linked,
        "game": s.game.NAME if s.game is not None else None,
        "hash": state_hash(s.game) if s.game is not None else None,
        "turn": s.turn_no, "moves_sent": s.moves_sent, "messages_sent": s.messages_sent,
        "bytes_sent": s.bytes_sent, "hashes_compared": s.hashes_compared, "desyncs": s.desyncs,
        "refused": s.refused, "rejected": s.rejected, "repairs": s.repairs,
        "sent": ch.sent, "received": ch.received, "resent": ch.resent, "bad": ch.bad,
        "duplicates": ch.duplicates, "dropped": ch.dropped, "restarts": ch.restarts,
        "frames_refused": ch.refused, "console": ch.me, "table": ch.table, "partner": ch.partner,
        "bytes_read": ch.transport.bytes_read, "busy_polls": ch.busy_polls, "busy_us": ch.busy_us,
        "busy_us_max": ch.busy_us_max,
    }


def splash(screen, panel, painter, title, line):
    """A title and a line of text (bytes), centred, sent at once."""
    screen.fb.fill(BACKGROUND)
    y = screen.height // 2 - 12
    painter.text_centred(title, screen.width // 2, y, TEXT)
    painter.text_centred(line, screen.width // 2, y + 2 * LINE_H, TEXT)
    screen.mark_all()
    panel.show(screen)


DATA_DIR = "/data"  # settings, statistics and the game in progress (docs/reliability.md)


class Shell:
    """The games' app with the hardware screen a SELECT away (a long press on boards without
    SELECT, docs/boards.md); SELECT or long B leaves it, and the app redraws everything
    (its `full` flag and redraw(), as engine_core/ui's App has them). In kiosk mode the
    console (engine_core/console.py) says when SELECT may open it (only from the service
    menu), its kiosk keeps time meanwhile, and it may take the screen back. Shown alone
    (start(hardware=True): show_alone()), the hardware screen is all there is: leaving it
    ends the loop, and the kiosk does not take it back."""

    done = False  # the loop runs until the board is switched off
    alone = False  # the hardware screen alone (show_alone())

    def __init__(self, app, make_hardware):
        """make_hardware(): the hardware screen (firmware/hwtest.py), made when it is first
        shown: a console whose SELECT is never pressed spends no memory on it."""
        self.app = app
        self.screen = app.screen
        self.painter = app.painter  # the console's, for what the shell draws over it (the gauge)
        self.make_hardware = make_hardware
        self.hardware = None  # made when first shown (hardware_screen())
        self.showing_hardware = False
        self.gauge = None  # the battery gauge (firmware/gauge.py), where the board reads it

    def hardware_screen(self):
        hardware = self.hardware
        if hardware is None:
            hardware = self.hardware = self.make_hardware()
        return hardware

    def press(self, button, long):
        if self.showing_hardware:
            hardware = self.hardware_screen()
            self.app.covered_press()
            if button == SELECT:
                hardware.done = True
            else:
                hardware.press(button, long)
            if hardware.done:
                self.close_hardware()
            return
        if button == SELECT and self.app.hardware_allowed():
            self.showing_hardware = True
            self.hardware_screen().open()
            return
        self.app.press(button, long)

    def show_alone(self):
        """The hardware screen alone, over a console that never shows (from the REPL, on boards
        without SELECT): leaving it ends the loop (`done`), the screen left as it is."""
        self.alone = True
        self.showing_hardware = True
        self.hardware_screen().open()

    def type_digit(self, digit):
        """A digit typed: the device has no keyboard, so none comes; one would mean nothing
        here (the loop's contract, engine_core/loop.py)."""

    def click(self, x, y, now, phase):
        """A click on the screen: the device has no pointer, so none comes; one would mean
        nothing here (the loop's contract, engine_core/loop.py)."""

    def close_hardware(self):
        if self.alone:
            self.done = True  # the loop ends; the hardware screen stays on the glass
            return
        self.showing_hardware = False
        self.hardware_screen().close()
        self.app.full = True
        self.app.redraw()

    def held(self, mask):
        self.app.held(mask)

    def before_press(self, button, long_press):
        """Console.before_press; on the hardware screen, or for the SELECT that opens it, no
        press plays a turn out."""
        if self.showing_hardware or button == SELECT and self.app.hardware_allowed():
            return False
        return self.app.before_press(button, long_press)

    def defers(self):
        """On the hardware screen every button acts as it goes down (a long B, held on, leaves)."""
        return 0 if self.showing_hardware else self.app.defers()

    def tick(self, ms):
        if self.showing_hardware:
            self.hardware_screen().tick(ms)
            if not self.alone and self.app.covered_tick(ms):  # the kiosk takes its screen back
                self.close_hardware()
        else:
            self.app.tick(ms)
        if self.gauge is not None:
            self.gauge.frame(self.gauge_shown())

    def sound_on(self):
        """The hardware screen clicks (it tests the buzzer), except in kiosk mode, where sound
        stays off; the games as their sound setting says."""
        if self.showing_hardware and not self.app.kiosk_on:
            return True
        return self.app.settings[S_SOUND] != 0

    # --- power (engine_core/power.py) and sound ---

    def idle(self):
        """Nothing moves until a key (engine_core/ui/idle.py); the hardware screen's figures
        keep changing."""
        return not self.showing_hardware and console_idle(self.app)

    def may_sleep(self):
        """The screen may dim and go off: not in a computer's turn, a link game or the kiosk."""
        return not self.showing_hardware and screen_may_sleep(self.app)

    def save_now(self):
        """The game in progress written now (the screen is going off)."""
        self.app.save_now(False)

    def notify(self, text):
        self.app.keeper.notify(text)

    def take_sound(self):
        """The console's sound event, taken (0: none); silent in the kiosk and on the hardware
        screen (the app asks only when its sound setting is on)."""
        sound = self.app.take_sound()
        return 0 if self.showing_hardware else sound

    def gauge_shown(self):
        """The battery gauge belongs on the title and the pause menu."""
        if self.showing_hardware:
            return False
        mode = self.app.mode
        return mode == TITLE or mode == PAUSE


def make_app(screen, hw, stats, hardware_only, storage=None):
    """The games' app (engine_core/ui) with its records kept in `storage` (engine_core/console.py;
    None: in RAM only) under the shell, its title drawn, a saved game resumed; with
    hardware_only, the shell shows the hardware screen alone (Shell.show_alone), drawn."""
    from engine_core.console import Console
    from engine_core.storage import MemoryStorage
    from engine_core.ui.app import App
    from engine_core import games, records, rng, undo_record
    from firmware import panel
    if panel.EXPANDER == "viper" and sys.platform == "rp2":  # the deals' shuffle in machine
        # code, the same cards as rng's (checked on the emulated chip; an ESP32 shuffles in bytecode)
        rng.shuffle2 = panel.expand_viper.shuffle2  # type: ignore[assignment]
        records.crc32_parts = panel.expand_viper.crc32_parts  # type: ignore[assignment]  # (a save's checksums)
        undo_record.put_entries = panel.expand_viper.put_entries  # type: ignore[assignment]  # (its journal)
    app = App(screen, games.names(), laid_out=True)  # (each game's module imported after the title)
    from firmware import card
    card.install(app.painter)  # the cards drawn in one call where the firmware can (C)
    app.set_buttons(board_buttons(hw.board), hw.board.LONG_AS)  # what its keys and rules page name
    attach_link(app, hw.board)
    console = Console(app, storage if storage is not None else MemoryStorage(), 1)
    console.keeper.in_halves = True  # a save in two frames: a press that lands in it waits less
    console.start()

    def make_hardware():
        from firmware.hwtest import HardwareScreen
        return HardwareScreen(screen, app.painter, hw.buttons, stats, hw)

    shell = Shell(console, make_hardware)
    if hardware_only:
        shell.show_alone()
    return shell


def keep_layout(app, name):
    """A game's module imported (the firmware's App lists the games without importing them:
    every one is frozen in) and its layout kept for this board's screen class alone: the
    other classes' slots, built when the module was imported, are let go (a board's screen
    never changes; some 2 KB of heap on a Pico in all). The layouts for other player counts
    (Nerts for three and four) are made later, when first asked for, at this class alone
    (layouts.declaration). Called for one game a frame from the first frames after the title
    (Device.after_frame): a game first opened before that is imported then, as ever."""
    import sys
    from engine_core.ui import layouts
    decl = layouts.declaration(name)
    if sys.implementation.name != "micropython" or decl is None:
        return  # a host's process makes apps of every size
    for table in [decl] + [v for v in decl.values() if isinstance(v, dict)]:
        for key in [k for k in table if isinstance(k, int) and k != app.size]:
            del table[key]
    gc.collect()  # the other classes' slots let go now, before the next game's module comes


class LinkOnDemand:
    """A link's transport opened the first time it is used: the session is made when the
    player first opens Link play, and the UART or the radio (Wi-Fi on for ESP-NOW costs power)
    starts only then."""

    def __init__(self, board):
        self.board = board
        self.link = None
        self.bytes_read = 0  # since start-up (link_state())

    def open(self):
        if self.link is None:
            if self.board.PORT == "esp32":
                from firmware import link_espnow
                self.link = link_espnow.open_link()
            else:
                from firmware import link_uart
                self.link = link_uart.open_link(self.board)
        return self.link

    @property
    def console_id(self):
        """The console's id on the link: the transport's (ESP-NOW: from the radio's address),
        or 0 (the channel draws one)."""
        return getattr(self.open(), "console_id", 0)

    def write(self, buf, n):
        return self.open().write(buf, n)

    def readinto(self, buf):
        n = self.open().readinto(buf)
        self.bytes_read += n
        return n


def attach_link(app, board):
    """Link play (docs/link.md): ESP-NOW between ESP32 boards, else the board's LINK_UART; a
    board with neither has no Link play on its title."""
    if board.PORT != "esp32" and getattr(board, "LINK_UART", None) is None:
        return
    transport: object = LinkOnDemand(board)
    party = None
    if board.PORT == "esp32":  # one radio: a party table's host too (docs/link.md)
        from engine_core.ui.party import Party
        from firmware.link_espnow import PartyRadio
        transport = PartyRadio(transport)
        party = Party(transport)

    def make_session():
        from engine_core.link.session import Session
        from firmware.link_timed import TimedChannel
        return Session(TimedChannel(transport))
    app.attach_link(make_session, b"ESP-NOW" if board.PORT == "esp32" else b"UART", party)
    _link[0] = app.link


def has_x(board):
    """Whether the board has an X button of its own (a long press standing for it counts)."""
    for button, _ in board.BUTTONS:
        if button == X:
            return True
    for _, reported in board.LONG_AS:
        if reported == X:
            return True
    return False


def board_buttons(board):
    """The mask of the buttons the board has (engine_core/ui/buttons.py mask): its GPIO buttons
    and the D-pad of its resistor ladders (App.set_buttons)."""
    has = 0
    for button, _ in board.BUTTONS:
        has |= 1 << button
    for _, high, middle in board.ADC_BUTTONS:
        has |= 1 << high | 1 << middle
    return has


def panel_start(panel, reset_at):
    """The panel out of sleep and on, once RESET_TO_SLPOUT_MS have passed since its reset."""
    from firmware.panel import RESET_TO_SLPOUT_MS
    left = RESET_TO_SLPOUT_MS - time.ticks_diff(time.ticks_ms(), reset_at)
    if left > 0:
        time.sleep_ms(left)
    panel.start(time.sleep_ms)


def start(board_name, hardware=False, frames=-1):
    """Boot the board called `board_name` (boards.NAMES); returns when the app is done, in
    safe mode, on Ctrl-C or after `frames` frames (tests). hardware=True runs the hardware
    screen alone (from the REPL, on boards that have no SELECT to reach it)."""
    import boards
    from firmware.hardware import Hardware
    board = boards.load(board_name)
    gc.collect()
    screen = make_screen(board)                         # the big buffer first, after collecting
    hw = Hardware(board)
    # The panel's reset, then its 120 ms before SLPOUT spent building the app (firmware/panel.py).
    hw.panel.reset(time.sleep_ms)
    reset_at = time.ticks_ms()
    if hw.buttons.held_at_start():
        panel_start(hw.panel, reset_at)
        splash(screen, hw.panel, Painter(screen), b"SAFE MODE", b"the REPL is free")
        hw.brightness(100)
        print("safe mode: the app is not running; the REPL is free")
        return None
    stats = FrameStats()
    app = make_app(screen, hw, stats, hardware, data_storage())
    panel_start(hw.panel, reset_at)
    hw.panel.show(screen)                               # the title is the boot splash
    hw.brightness(100)
    clock = Clock()
    power = make_power(app, hw, clock)
    loop = device_loop(app, hw.panel, hw.buttons, hw.beeper, clock, stats, power=power,
                       gauge=make_gauge(app, screen, power))
    if not app.alone:
        loop.port.warm = list(app.app.app.names)  # imported in the first frames, after the title
    gc.collect()
    try:
        loop.run(frames)
    except KeyboardInterrupt:
        print("stopped: the REPL is free")
    _power[0] = power_figures(loop)
    return loop


def data_storage():
    """The records' storage on the device: DATA_DIR, rewritten in place where it is on littlefs."""
    from engine_core.storage import FileStorage
    return FileStorage(DATA_DIR, on_littlefs(DATA_DIR))


def on_littlefs(path):
    """True when `path` is on littlefs (the RP2040 and ESP32 ports format their flash so),
    which commits a file's new contents whole when it is closed: records are then rewritten
    in place (engine_core/records.py), a save in a third of the time."""
    try:
        import vfs
        point, lfs = "", False
        for fs, at in vfs.mount():
            inside = at == "/" or path == at or path.startswith(at + "/")
            if inside and len(at) >= len(point):
                point, lfs = at, type(fs) is getattr(vfs, "VfsLfs2", None)
        return lfs
    except (ImportError, AttributeError, TypeError, OSError):
        return False


def make_screen(board):
    """The board's screen: one-bit (MONO_VLSB, docs/screen.md) where the board says MONO (its
    OLED's driver, firmware/oled.py, sends those bytes as they are), else 16 colours."""
    if getattr(board, "MONO", False):
        return Screen(board.WIDTH, board.HEIGHT, mono=True)
    return Screen(board.WIDTH, board.HEIGHT)


def make_power(app, hw, clock):
    """Dimming, the screen going off and the battery watch for the games' app, with the times
    of its settings (Dim after, Screen off after: the records' dim_s, screen_off_s; 0: never),
    a change in the menu taken at once; None for the hardware screen alone."""
    if app.alone:  # the hardware screen alone
        return None
    from engine_core.power import Power
    battery = hw.battery_mv if hw.battery is not None else None
    return Power(hw.brightness, hw.panel, clock.sleep_ms, 0, 0, battery, clock.ticks_ms(),
                 app.app.app.settings)


def make_gauge(app, screen, power):
    """The battery gauge on boards that read the battery, for the games' app; else None."""
    if power is None or power.battery_mv is None:
        return None
    from firmware.gauge import Gauge
    return Gauge(screen, app.painter, power)


def power_state():
    """At the REPL after Ctrl-C: the loop's rests, the screen's state and the battery, as
    they were when the app stopped (kept without the app, whose memory the REPL may need).
        >>> from firmware.main import power_state; power_state()"""
    return _power[0]


def power_figures(loop):
    out = {"rests": loop.rests, "rested_ms": loop.rested_ms}
    power = loop.port.power
    if power is not None:
        out.update({"state": power.state, "dims": power.dims, "offs": power.offs,
                    "wakes": power.wakes, "battery_mv": power.mv, "battery_percent": power.percent()})
    return out


def protocol():
    """The text protocol on the REPL's stdin/stdout until 'quit' (docs/protocol.md)."""
    from engine_core.protocol import run
    run(sys.stdin.readline, sys.stdout.write)
