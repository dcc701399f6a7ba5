"""A pointer on the screen: the simulator's mouse, a click or a tap on the web page's canvas.

In play a click on a pile puts the cursor there and presses A (pick up, place), as the D-pad
and A would; a second click on the same pile within DOUBLE_MS sends its card home (a long A,
putting back a card held first). A card the pile refuses goes back where it came from, the
refusal said at the foot of the screen, as a card dropped in the wrong place snaps back in
solitaires played with a mouse; so does a held card when the click is on no pile, or on the
other player's (where the cursor never goes: the foot says whose pile it is). (The
buttons keep a refused card in hand: the cursor moves on to another pile.) Elsewhere, on the
menus and panels, a click is A.
"""

from engine_core import reasons as why
from engine_core.ui import buttons as bt
from engine_core.ui.layouts import THEIRS
from engine_core.ui.screens import PLAY
from engine_core.ui.slots import NONE

from micropython import const

DOUBLE_MS = const(400)


class Pointer:
    def __init__(self):
        self.last_slot = -1  # the pile clicked last and when (ms): a double-click
        self.last_ms = 0

    def click(self, app, x, y, now):
        """A click at screen pixel (x, y), at `now` ms on any clock. app: the App, or the
        Console around it (Console.click: in the kiosk's demo a click is a press, and never
        reaches here)."""
        table = app.table
        if app.mode != PLAY or table is None:
            app.press(bt.A, False)
            return
        at_point = table.slot_at(x, y)
        if at_point == NONE:
            if table.held != NONE:
                self.put_back(app, table)  # dropped on the felt
            return
        s = at_point & 0xFF
        index = at_point >> 8
        if table.slots.how[s] & THEIRS:  # the other player's: the cursor stays on yours
            if table.held != NONE:
                table.press_b()
            table.say(why.NOT_YOURS)
            app.redraw()
            return
        double = s == self.last_slot and now - self.last_ms <= DOUBLE_MS
        self.last_slot = s
        self.last_ms = now
        if double:
            if table.held != NONE:
                table.press_b()  # not B through the app: on two buttons B is "next pile"
            table.point(s, index)
            app.press(bt.A, True)
            self.last_slot = -1
            return
        held = table.held
        table.point(s, index)
        app.press(bt.A, False)
        if held != NONE and s != held and table.held == held:
            self.put_back(app, table)  # refused: the reason is at the foot already

    def put_back(self, app, table):
        """The held card goes back to its pile: nothing is held."""
        table.press_b()
        app.redraw()
