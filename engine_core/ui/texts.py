"""Words on the screens: menus and the rules pages (game titles are in the
registry, engine_core/games/__init__.py, which names each game's rules page here).

All bytes, so drawing them allocates nothing. The rules pages follow each game's rule
profile; the player reads them from the pause menu.
"""

PAUSE = (b"Resume", b"Hint", b"Undo", b"Redo", b"Restart", b"New deal", b"Rules", b"Settings",
         b"To the title", b"Give up")

TITLE_ITEMS = (b"Continue", b"New game", b"Choose a game", b"Statistics", b"Settings", b"Link play")
CONFIRMS = (b"Restart this deal?", b"Deal a new game?", b"Deal that number?", b"Give up this game?",
            b"Leave this game?", b"Giving up this game counts", b"as a loss in the statistics.",
            b"A linked game is not kept:", b"it ends here, uncounted.")  # the question, by A_*; its lines
STATS_COLUMNS = (b"Games", b"Won", b"Now", b"Best")


WINNABLE_NOTE = (
    b"Winnable deals: with Settings, Deals on Winnable, every new deal is one the computer "
    b"has checked can be won. You still have to find the way."
)

RULES_KEYS = (
    b"Keys: D-pad moves the cursor. A picks up and places. Long A plays a card straight "
    b"up, as the rules above say. B cancels. X hint. Y undo. Long X (R on a keyboard) redo. "
    b"START menu. SELECT this page: UP and DOWN scroll it a line, LEFT and RIGHT a page.\n"
    b"Two buttons: B next pile, long B menu, A pick or place, long A play up or cancel."
)
