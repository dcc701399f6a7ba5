"""Words on the screens: menus and the rules pages (game titles are in the
registry, engine_core/games/__init__.py, which names each game's rules page here).

All bytes, so drawing them allocates nothing. The rules pages follow each game's rule
profile; the player reads them from the pause menu.
"""

from engine_core.ui import buttons as bt

PAUSE = (b"Resume", b"Hint", b"Undo", b"Redo", b"Restart", b"New deal", b"Rules", b"Settings",
         b"To the title", b"Give up")

TITLE_ITEMS = (b"Continue", b"New game", b"Choose a game", b"Statistics", b"Settings", b"Link play")
CONFIRMS = (b"Restart this deal?", b"Deal a new game?", b"Deal that number?", b"Give up this game?",
            b"Leave this game?", b"Giving up ", b"A linked game is not kept: it ends here, uncounted.",
            b" counts as a loss.")  # the question, by A_*; the words under it (5, the game's name, 7)
STATS_COLUMNS = (b"Games", b"Won", b"Now", b"Best")


WINNABLE_NOTE = (
    b"Winnable deals: set Settings > Deals to Winnable and every new deal is one the "
    b"computer has checked can be won. You still have to find the way."
)

RULES_KEYS = (
    b"Keys: D-pad moves the cursor. A picks up and places. Long A plays a card straight "
    b"up, as the rules above say. B cancels. X hint. Y undo. Long X (R on a keyboard) redo. "
    b"START menu. SELECT this page: UP and DOWN scroll it a line, LEFT and RIGHT a page.\n"
    b"Two buttons: B next pile, long B menu, A pick or place, long A play up or cancel."
)

KEYS_FIRST = (b"Keys: D-pad moves the cursor. A picks up and places. Long A plays a card straight "
              b"up, as the rules above say. B cancels. ")
KEYS_TWO = b"Two buttons: B next pile, long B menu, A pick or place, long A play up or cancel."
KEYS_SCROLL = b"UP and DOWN scroll it a line, LEFT and RIGHT a page."
BUTTON_WORDS = (b"UP", b"DOWN", b"LEFT", b"RIGHT", b"A", b"B", b"X", b"Y", b"START", b"SELECT")  # by bt.*


def key_word(button, has, long_as):  # subset: ok (start-up: rules_keys)
    """How the rules page names `button` on a board: its own name when the board has it, "Long
    B" when a long B stands for it (long_as: a bytearray, button -> the held one, 255 none), or
    b"" when the board cannot press it."""
    if has >> button & 1:
        return BUTTON_WORDS[button]
    held = long_as[button]
    return b"" if held == 255 else b"Long " + BUTTON_WORDS[held]


def rules_keys(has, long_as):  # subset: ok (start-up: the board's keys text, made once)
    """The keys paragraph of the rules pages for a board with the buttons of mask `has` and
    the stand-ins `long_as` (key_word): only the buttons it has, each by the press that gives
    it; what it cannot press is in the pause menu. A board with every button gets RULES_KEYS,
    one without a D-pad (A and B do everything) the two-button paragraph alone."""
    if has & 0x0F != 0x0F:
        return KEYS_TWO
    menu = key_word(bt.START, has, long_as)
    parts = [KEYS_FIRST]
    missing = []
    for button, words in ((bt.X, b" hint. "), (bt.Y, b" undo. ")):
        word = key_word(button, has, long_as)
        if word:
            parts.append(word + words)
        else:
            missing.append(words[1:-2])
    if has >> bt.X & 1:
        parts.append(b"Long X (R on a keyboard) redo. ")
    else:
        missing.append(b"redo")
    if menu:
        parts.append(menu + b" menu")
        if missing:
            listed = b", ".join(missing[:-1]) + b" and " + missing[-1] if len(missing) > 1 else missing[0]
            parts.append(b" (" + listed + (b" are in it)" if len(missing) > 1 else b" is in it)"))
        parts.append(b". ")
    page = key_word(bt.SELECT, has, long_as)
    parts.append(page + b" this page: " if page else b"This page: ")
    parts.append(KEYS_SCROLL + b"\n" + KEYS_TWO)
    return b"".join(parts)
