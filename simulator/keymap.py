"""The keyboard's map to the console's buttons: one table for the simulator's window and the
web page (tools/build_web.py writes it into the page), so the two stay in step.

KEYS: (key, button) rows. A key is named as pygame names its constant, without the K_
(K_a -> "a", K_RETURN -> "RETURN"); a button by its name in engine_core/ui/buttons.py.
A key may appear once; a button may have several keys. Enter is A, as a tap is: it picks
what is highlighted on every screen (docs/screen.md, "What each key means"); Esc is the host's
back key (Console.back_key), not a button.
"""

# The D-pad's repeat is the device's own (engine_core/ui/buttons.py).
from engine_core.ui import buttons as bt
from engine_core.ui.buttons import REPEAT_FIRST_MS, REPEAT_MS  # noqa: F401


KEYS = (
    ("UP", "UP"), ("DOWN", "DOWN"), ("LEFT", "LEFT"), ("RIGHT", "RIGHT"),
    ("a", "A"), ("SPACE", "A"), ("RETURN", "A"),  # each button's key is its own letter
    ("b", "B"),
    ("x", "X"),
    ("y", "Y"),
    ("s", "START"),
    ("BACKSPACE", "SELECT"),
)

# Buttons whose long press means something on some screen. Where the screen defers one
# (App.defers()), it reports once when held past engine_core.ui.buttons.LONG_PRESS_MS (long)
# or on release (short); elsewhere it acts as it goes down, and once more (held on) past that
# time. The D-pad repeats. A long X is redo in play (a held A sends the card it picked up
# home, a long B is back).
LONG_BUTTONS = ("A", "B", "X")
# Keys that give a button's long press at once: R is redo, as holding X is.
LONG_KEYS = (("r", "X"),)

# The browser's KeyboardEvent.key for pygame's key names (a letter or digit is itself).
BROWSER_KEYS = {
    "UP": "ArrowUp", "DOWN": "ArrowDown", "LEFT": "ArrowLeft", "RIGHT": "ArrowRight",
    "SPACE": " ", "RETURN": "Enter", "BACKSPACE": "Backspace", "TAB": "Tab",
    "ESCAPE": "Escape", "LSHIFT": "Shift", "RSHIFT": "Shift", "LCTRL": "Control",
    "RCTRL": "Control", "LALT": "Alt", "RALT": "Alt", "DELETE": "Delete", "HOME": "Home",
    "END": "End", "PAGEUP": "PageUp", "PAGEDOWN": "PageDown", "INSERT": "Insert",
    "COMMA": ",", "PERIOD": ".", "SLASH": "/", "SEMICOLON": ";", "MINUS": "-", "EQUALS": "=",
}
# How the page's legend writes a key.
KEY_LABELS = {"UP": "\u2191", "DOWN": "\u2193", "LEFT": "\u2190", "RIGHT": "\u2192",
              "SPACE": "Space", "RETURN": "Enter", "BACKSPACE": "Backspace"}
BACK_KEY = "ESCAPE"  # backs out as B does (Console.back_key), in the window and on the page


def browser_key(key):
    """KeyboardEvent.key (lower case for a letter) for a key of KEYS; ValueError if unknown."""
    if len(key) == 1 and key.isalnum():
        return key.lower()
    if key in BROWSER_KEYS:
        return BROWSER_KEYS[key]
    raise ValueError("no browser name for the key %r: add it to simulator/keymap.py" % key)


def key_label(key):
    if key in KEY_LABELS:
        return KEY_LABELS[key]
    return key.upper() if len(key) == 1 else key.title()


# The keyboard map's rows: (keys, the button they press or None, words, what holding it does).
HELP = (
    ("Arrows", bt.UP, "D-pad: move the cursor", ""),
    ("A/Space/Enter", bt.A, "A: pick, pick up, place", "home"),
    ("B", bt.B, "B: cancel, back", "back"),
    ("X", bt.X, "X: hint", "redo"),
    ("Y", bt.Y, "Y: undo; Nerts: your own last move", ""),
    ("R", bt.X, "redo, as holding X", ""),
    ("S", bt.START, "START: pause menu, and back to play", ""),
    ("Backspace", bt.SELECT, "SELECT: the rules and keys", ""),
    ("0 - 9", None, "type a deal's number (the Deal number screen)", ""),
    ("Mouse", None, "click a pile: pick up, place; double-click: home; drag a card to a pile", ""),
    ("H / F1", None, "this help", ""),
    ("F12", None, "screenshot (simulator-N.png)", ""),
    ("Esc", None, "back, as B; on the title: close", ""),
)
# The rows for a console played with A and B alone (the two-button setting: docs/screen.md).
HELP_TWO = (
    ("A/Space/Enter", bt.A, "A: pick up, place, choose", "home; a held card: put back"),
    ("B", bt.B, "B: the next pile, the next row", "the pause menu in play, back elsewhere"),
)
# What a long press standing for a button the board lacks gives (a board's LONG_AS).
STAND_IN_WORDS = {bt.X: "X, hint", bt.Y: "Y, undo", bt.START: "START, the pause menu",
                  bt.SELECT: "SELECT, the rules and keys"}


def help_lines(board, two_only=False):
    """The keyboard map of a board, (keys, words): only the keys of buttons it has, and for a
    button whose long press stands for one it lacks (its LONG_AS), what holding it gives.
    two_only: the console plays with A and B alone (its setting): those two, as it takes them."""
    present = board.buttons if board is not None else range(bt.COUNT)
    long_as = dict(board.long_as) if board is not None else {}
    rows = HELP
    if two_only:
        rows = HELP_TWO + tuple(row for row in HELP if row[1] is None)
        long_as = {}
    lines = []
    for key, button, words, hold in rows:
        if button is not None and button not in present:
            continue
        if button in long_as:
            hold = STAND_IN_WORDS[long_as[button]]
        lines.append((key, words + " (hold: %s)" % hold if hold else words))
    return lines


def help_text(board=None):
    """The keyboard map as lines of text (`python -m simulator --help` ends with it)."""
    lines = help_lines(board)
    width = max(len(key) for key, _ in lines)
    return "\n".join("  %-*s  %s" % (width, key, what) for key, what in lines)
