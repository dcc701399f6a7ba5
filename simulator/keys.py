"""Scripted button presses, the same on CPython and MicroPython (simulator, tools/frame.py).

Tokens: a button name (UP DOWN LEFT RIGHT A B X Y START SELECT), LONG_<name> for a long
press in place of the short one (a button the screen defers; where the board's long press of
that button stands for one it lacks, that one: LONG_B is START on pico_ssd1306), HELD_<name> for a press that
acted on its edge and is held on past the long press time (so "A HELD_A" is A held long on a
screen that does not defer A: in play, the card picked up goes home), TICK (50 ms pass), WAIT
(half a second passes, in ticks), LINKED and HANGUP: the
console plays on, its time passing as the wall clock's, until a linked game is on its table
(LINKED), or until the peer of its link has closed the connection (HANGUP), at most a minute
each. A script against a peer in another process waits for that peer, whatever the two
processes' speeds. Both return at once on a console without a link. Each press is followed
by the frames that come without time passing (next_frames), as on a device, where a frame
always comes between two presses.
"""

import time

from engine_core.gfx.screen import Screen
from engine_core.ui import buttons as bt
from engine_core.ui.app import App
from engine_core.ui.screens import PLAY

try:
    import framebuf  # MicroPython's own (these helpers run there too)
except ImportError:
    from simulator import framebuf  # the host's, byte-identical

TICK_MS = 50


def make_app(width, height, game=None, seed=None, mono=False, players=0):
    """The console at a screen size; with a game, dealt from `seed` and in play. mono: a
    one-bit screen (MONO_VLSB). players: 3 or 4, the Nerts players setting (else 2)."""
    app = App(Screen(width, height, framebuf, mono))
    if players > 2:
        from engine_core.ui.settings import S_PLAYERS
        app.settings[S_PLAYERS] = players - 2
    if game is not None:
        app.open_game(game, seed if seed is not None else 1)
    return app


def parse(text):
    """[(button, long_press) or (-ms, False)] for a key script; raises ValueError."""
    events = []
    for token in text.split():
        token = token.upper()
        long_press = False
        if token == "TICK":
            events.append((-TICK_MS, False))
            continue
        if token == "HANGUP" or token == "LINKED":
            events.append((token, False))
            continue
        if token == "WAIT":
            for _ in range(10):
                events.append((-TICK_MS, False))
            continue
        if token.startswith("LONG_"):
            long_press = True
            token = token[5:]
        elif token.startswith("HELD_"):
            long_press = bt.HELD_ON
            token = token[5:]
        if token not in bt.NAMES:
            raise ValueError("unknown key %r (expected one of %s, LONG_<key>, HELD_<key>, TICK, WAIT, LINKED, HANGUP)"
                             % (token, " ".join(bt.NAMES)))
        events.append((bt.NAMES.index(token), long_press))
    return events


HANGUP_S = 60
HANGUP_STEP_MS = 5


def wait_link(app, inner, until, hung_up=None):
    """Play on until until(inner, session, hung_up) (LINKED, HANGUP), at most HANGUP_S of wall
    time. `app`: the App, or a Console holding it (engine_core/console.py); `inner`: the App;
    hung_up: the host's question whether the peer closed the connection (None: a link that
    has no connection to lose)."""
    link = inner.link
    if link is None:
        return
    end = time.monotonic() + HANGUP_S
    while time.monotonic() < end:
        if until(inner, link.session, hung_up):
            return
        app.tick(HANGUP_STEP_MS)
        time.sleep(HANGUP_STEP_MS / 1000)


def _linked(app, session, hung_up):
    return app.linked()


def _hung_up(app, session, hung_up):
    return session is None or hung_up is None or hung_up()


def run(app, text, inner=None, hung_up=None, long_as=()):
    """Play a key script on `app` (the App, or a Console holding `inner`, the App). hung_up():
    True once the peer of the link has closed the connection (HANGUP waits for it; None: a
    link without a connection, HANGUP returns at once). long_as: the board's long presses
    standing for buttons it lacks ((held, reported) pairs, a board module's LONG_AS): there
    LONG_<held> is the reported button's press, as the device's driver reports it."""
    inner = app if inner is None else inner
    for button, long_press in parse(text):
        if long_press is True:
            button, long_press = stand_in(button, long_as)
        if button == "LINKED":
            wait_link(app, inner, _linked)
        elif button == "HANGUP":
            wait_link(app, inner, _hung_up, hung_up)
        elif button < 0:
            app.tick(-button)
        else:
            app.press(button, long_press)
            next_frames(app)  # on a device a frame always comes between two presses
    settle(app)


def stand_in(button, long_as):
    """(button, long_press) for a long press of `button` on a board whose long presses
    `long_as` stand for others: (the reported button, False) where one does."""
    for held, reported in long_as:
        if held == button:
            return reported, False
    return button, True


def settle(app):
    """Let frames pass (without time passing) until a redraw spread over frames is done, and a
    message strip a key let go is gone; a computer's turn shown move by move (Spite & Malice)
    plays out first, its time passing."""
    for _ in range(200):
        table = app.table
        if app.mode != PLAY or table is None or table.computer_ms <= 0:
            break
        app.tick(table.computer_ms)
    next_frames(app)


def next_frames(app):
    """The frames that come without time passing: a redraw spread over frames done, a strip a
    key let go gone (Table.let_go)."""
    for _ in range(64):
        table = app.table
        if app.mode != PLAY or table is None:
            return
        if not table.pending and not (table.message and table.message_ms == 0):
            return
        app.tick(0)


def land(app):
    """Let a card still sliding reach its pile (a few frames of 33 ms), for a screenshot."""
    for _ in range(8):
        table = app.table
        if app.mode != PLAY or table is None or not table.slide & 0xFF:
            return
        app.tick(33)
    settle(app)
