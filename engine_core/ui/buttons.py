"""Logical buttons. The firmware's button driver reports these; so does the simulator; the
board modules (boards/) name their buttons with them."""

from micropython import const

UP = const(0)
DOWN = const(1)
LEFT = const(2)
RIGHT = const(3)
A = const(4)
B = const(5)
X = const(6)
Y = const(7)
START = const(8)
SELECT = const(9)
COUNT = const(10)

NAMES = ("UP", "DOWN", "LEFT", "RIGHT", "A", "B", "X", "Y", "START", "SELECT")

LONG_PRESS_MS = const(400)  # held this long, a press is reported as a long press
REPEAT_FIRST_MS = const(350)  # a D-pad button held this long starts repeating, every REPEAT_MS
REPEAT_MS = const(110)  # (the device's driver, the simulator's window and the page alike)

# App.press(button, long_press): a long press stands for the short one (True), or, with
# HELD_ON, follows it: the press already acted on its edge, and the button is still down past
# LONG_PRESS_MS (App.defers() says which buttons wait instead, screen by screen).
HELD_ON = const(2)


def mask(button):
    """The bit of a logical button in a button mask (the boards' LONG_PRESS, the driver's)."""
    return 1 << button
