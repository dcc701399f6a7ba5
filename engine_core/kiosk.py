"""Kiosk mode: a console on a shop counter or a museum wall, running for months unattended.

A small state machine the interface calls every frame:
    kiosk.buttons(held)   the mask of buttons held down now (bit i: BUTTONS[i])
    action = kiosk.tick(ms)
and then does what the action says:
    NOTHING
    START_DEMO   deal kiosk.demo_game (an index into games.available()) with kiosk.demo_seed,
                 all seats played by the computer; nothing goes to the statistics
    DEMO_STEP    call demo_step(game, out, kiosk.next_random()) once and redraw
    TO_TITLE     leave the demo or the abandoned game and show the title screen
    UNLOCK       the service chord was held: open the settings (the service menu)
    RESET        the chord was held again in the service menu: reset settings and statistics
After a person starts a game from the title, the interface calls kiosk.playing().

Rules: at the title, IDLE_DEMO_MS without a press starts the demo; in the demo any press goes
back to the title (and is swallowed); a person's game left without a press for idle_ms (the
'kiosk_idle_s' setting) returns to the title; settings and the statistics reset stay locked
unless the chord (A + B) is held for CHORD_MS, and in that service menu the chord held
again resets them; sound is off by default.
Nothing here allocates after __init__.
"""

from engine_core import PLAYING as GAME_PLAYING
from engine_core import rng

from micropython import const

# The logical buttons (DESIGN.md), bit i of a mask.
BUTTONS = ("UP", "DOWN", "LEFT", "RIGHT", "A", "B", "X", "Y", "START", "SELECT")
A_BUTTON = const(1 << 4)
B_BUTTON = const(1 << 5)
# A and B held together: the only buttons every board has (docs/boards.md), and SELECT opens
# the device's hardware screen. Five seconds: longer than anyone mashing holds both.
CHORD = const(A_BUTTON | B_BUTTON)

# Modes.
TITLE = const(0)
DEMO = const(1)
PLAYER = const(2)  # a person is playing
SERVICE = const(3)  # the unlocked settings / reset menu

# Actions for the interface.
NOTHING = const(0)
START_DEMO = const(1)
DEMO_STEP = const(2)
TO_TITLE = const(3)
UNLOCK = const(4)
RESET = const(5)

IDLE_DEMO_MS = const(20000)  # at the title, before the demo starts
DEMO_STEP_MS = const(400)  # between two computer moves in the demo: slow enough to follow
DEMO_END_MS = const(4000)  # the final position stays this long before the next demo
DEMO_MAX_STEPS = const(600)  # a demo game that has not ended by then gives way to the next
CHORD_MS = const(5000)
SERVICE_IDLE_MS = const(30000)  # the service menu locks itself again after this


class Kiosk:
    def __init__(self, game_count, idle_ms=90000, seed=1):
        self.game_count = game_count  # how many games the demo rotates through
        self.idle_ms = idle_ms
        self.mode = TITLE
        self.quiet_ms = 0  # time since the last press
        self.wait_ms = 0  # time until the next demo step
        self.held = 0  # buttons held now
        self.chord_ms = 0  # how long the chord has been held
        self.chord_used = False  # the chord must be released before it unlocks again
        self.pressed = False  # a new press arrived since the last tick
        self.demo_game = -1
        self.demo_seed = 0
        self.demo_steps = 0
        self.demo_over = False
        self.random = rng.seed_state(seed)

    def next_random(self):
        """A number 0 <= n < 2**30 for the demo's choices."""
        self.random = rng.step(self.random)
        return self.random

    def buttons(self, held):
        """The buttons held down now (call every frame, before tick)."""
        if held & ~self.held:
            self.pressed = True
        self.held = held

    def playing(self):
        """A person started a game from the title."""
        self.mode = PLAYER
        self.quiet_ms = 0

    def busy(self):
        """A link table is open or linked (the interface calls this every frame it is): no
        demo starts or plays, and the console counts as a person's (its idle time from now)."""
        self.mode = PLAYER
        self.quiet_ms = 0
        self.pressed = False

    def settings_locked(self):
        """Settings and the statistics reset are reachable only in SERVICE mode."""
        return self.mode != SERVICE

    def leave_service(self):
        self.mode = TITLE
        self.quiet_ms = 0

    def demo_finished(self, game_over):
        """The interface reports after each DEMO_STEP whether the demo game has ended."""
        self.demo_steps += 1
        if game_over or self.demo_steps >= DEMO_MAX_STEPS:
            self.demo_over = True
            self.wait_ms = DEMO_END_MS

    def tick(self, ms):
        pressed = self.pressed
        self.pressed = False
        if self.held & CHORD == CHORD:
            self.chord_ms += ms
            if self.chord_ms >= CHORD_MS and not self.chord_used:
                self.chord_used = True
                self.quiet_ms = 0
                if self.mode == SERVICE:
                    return RESET
                self.mode = SERVICE
                return UNLOCK
        else:
            self.chord_ms = 0
            if self.held & CHORD == 0:
                self.chord_used = False
        if pressed:
            self.quiet_ms = 0
            if self.mode == DEMO:
                self.mode = TITLE
                return TO_TITLE
            return NOTHING
        self.quiet_ms += ms
        if self.mode == TITLE:
            if self.quiet_ms >= IDLE_DEMO_MS:
                return self._start_demo()
        elif self.mode == PLAYER or self.mode == SERVICE:
            limit = self.idle_ms if self.mode == PLAYER else SERVICE_IDLE_MS
            if self.quiet_ms >= limit:
                self.mode = TITLE
                self.quiet_ms = 0
                return TO_TITLE
        elif self.mode == DEMO:
            self.wait_ms -= ms
            if self.wait_ms > 0:
                return NOTHING
            if self.demo_over:
                return self._start_demo()
            self.wait_ms = DEMO_STEP_MS
            return DEMO_STEP
        return NOTHING

    def _start_demo(self):
        self.mode = DEMO
        self.demo_game = (self.demo_game + 1) % self.game_count
        self.demo_seed = self.next_random()
        self.demo_steps = 0
        self.demo_over = False
        self.wait_ms = DEMO_STEP_MS
        return START_DEMO


def demo_step(game, out, x):
    """One move by the computer for the person's seat; computer opponents answer in respond()
    and in tick(). Mostly the game's hint; one move in eight is a random legal move, which
    keeps a hint player from circling. Returns False when there was nothing to do.
    No allocation (out: an array('i') of game.seat_max_moves(), e.g. the game's scratch).
    """
    if game.status() != GAME_PLAYING:
        return False
    game.tick(DEMO_STEP_MS)
    if game.status() != GAME_PLAYING:
        return True
    move = -1
    if x & 7 != 0:
        move = game.hint()
    if move < 0 or not game.is_legal(move):
        n = game.moves_of(0, out)  # the person's seat: in Nerts the others are computer players
        if n == 0:
            return False
        move = out[(x >> 3) % n]
    game.apply(move)
    game.respond()
    return True


def kiosk_settings(settings):
    """At power-on in kiosk mode: sound off (the service menu may turn it on for a while)."""
    if settings.get("kiosk"):
        settings.set("sound", 0)
