"""Which screen a --board means: a bare size (240x135, 240x240, 320x240, 160x128, 128x64) or the
name of a board module under boards/ that gives WIDTH and HEIGHT. Either must be a size the
games have a layout for (engine_core/ui/layouts.py SIZES): any other would show a layout made
for a bigger screen cut off at its edges, so it is refused with the list of sizes."""

import importlib
import re

from engine_core.ui import layouts


ALL_BUTTONS = tuple(range(10))  # engine_core.ui.buttons: UP .. SELECT
ONE_BIT = ((128, 64),)  # every panel of these sizes is a one-bit OLED: the bare size shows one bit
DPAD = (0, 1, 2, 3)


class Board:
    def __init__(self, name, width, height, module=None):
        self.name = name
        self.width = width
        self.height = height
        self.module = module
        self.title = getattr(module, "NAME", name) if module else name
        # A one-bit panel (SSD1306, SH1106): its module says MONO = True (docs/screen.md); a
        # bare size is one bit where every panel of it is (128x64: ONE_BIT).
        self.mono = bool(getattr(module, "MONO", False)) if module else (width, height) in ONE_BIT
        self.buttons = ALL_BUTTONS
        if module is not None and hasattr(module, "BUTTONS"):
            present = {b for b, _ in module.BUTTONS}
            if getattr(module, "ADC_BUTTONS", ()):
                present |= set(DPAD)
            self.buttons = tuple(sorted(present))
        # Long presses standing for buttons the board lacks: (held, reported) pairs, as the
        # device's driver applies them (firmware/buttons.py): a long B as START, and so on.
        self.long_as = tuple(getattr(module, "LONG_AS", ())) if module else ()

    @property
    def mask(self):
        """The buttons it has, a mask (App.set_buttons)."""
        has = 0
        for button in self.buttons:
            has |= 1 << button
        return has

    @property
    def no_x(self):
        """A board without X: a long A stands for it where X has a meaning (App.no_x)."""
        return 6 not in self.buttons and not any(
            reported == 6 for _, reported in getattr(self.module, "LONG_AS", ()))

    @property
    def two_buttons(self):
        """A board without a D-pad plays with A and B alone (docs/screen.md)."""
        return not set(DPAD) <= set(self.buttons)


def size_names():
    """The sizes with a layout, as --board takes them: '240x135, 240x240, ...'."""
    return layouts.size_names()


def resolve_board(text):
    """A Board for '240x240' or for a board name; ValueError with the choices otherwise."""
    m = re.fullmatch(r"(\d+)x(\d+)", text)
    if m:
        width, height = int(m.group(1)), int(m.group(2))
        if not layouts.has_layout(width, height):
            raise ValueError("no layout for a %dx%d screen: the sizes are %s" % (width, height, size_names()))
        return Board(text, width, height)
    if not re.fullmatch(r"[a-z0-9_]+", text):
        raise ValueError("--board takes a size (%s) or a board name: %s"
                         % (size_names(), ", ".join(board_names())))
    try:
        module = importlib.import_module("boards." + text)
    except ImportError:
        raise ValueError("no board named %r: the boards are %s; or give a size: %s"
                         % (text, ", ".join(board_names()), size_names()))
    width = getattr(module, "WIDTH", None)
    height = getattr(module, "HEIGHT", None)
    if not isinstance(width, int) or not isinstance(height, int):
        raise ValueError("boards/%s.py gives no WIDTH and HEIGHT" % text)
    if not layouts.has_layout(width, height):
        raise ValueError("boards/%s.py has a %dx%d screen, which has no layout: the sizes are %s"
                         % (text, width, height, size_names()))
    return Board(text, width, height, module)


def board_names():
    """The boards under boards/ (boards.NAMES)."""
    import boards
    return boards.NAMES
