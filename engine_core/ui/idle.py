"""Whether the console may rest: nothing animates, no computer player is due and nothing waits
for time to pass, so that until the next key the screen stays as it is. The device's loop then
sleeps until a key or its own timers (engine_core/power.py); the simulator and the web page stop
redrawing (docs/performance.md, "Resting"). The answer is read, never changed: asking costs a
few attribute reads, and nothing is allocated.

A wrong "yes" would freeze an animation until the next key, so each clock the interface runs
is listed here: a slide or shake, a message strip, the computer's turn (Spite & Malice), real-
time computer players (Nerts), auto-play of a won game, a move list prefetched on an idle
frame, a table made ahead in the game list, a redraw spread over frames (the pause menu's
table after its panel too), link play, the console's notice, a save waiting for play to
pause, and the kiosk.
"""

from engine_core import PLAYING
from engine_core.ui.screens import PLAY
from engine_core.ui.settings import S_AUTOPLAY
from engine_core.ui.view import NONE, SLIDE_LEFT, SLIDE_WAIT


def bots_due(game):
    """Computer players who act on the game's clock are in play. A game of several players who
    all play at once (not TURN_BASED: Nerts) holds them as game.bot, whose any_computer() says
    whether any seat is one (engine_core/ai/nerts_bot.py, NertsBots)."""
    if game.TURN_BASED or game.players < 2 or not game.bots or game.status() != PLAYING:
        return False
    return game.bot.any_computer()


def app_idle(app):
    """engine_core/ui's App: True when tick() would change nothing until the next press."""
    if app.full or app.table_later or app.link_in_use():
        return False
    table = app.table
    if app.mode != PLAY or table is None:
        return not app.table_wanted()        # title and menus change only with a key, but for
        # the table the game list makes ahead of its A (App.make_ahead)
    if table.pending or table.computer_ms > 0 or table.message or table.view.shake_ms > 0:
        return False
    if table.slide & (SLIDE_LEFT | SLIDE_WAIT):
        return False
    if table.moves_wanted():
        return False                         # the next frame lists the moves for the next key
    game = table.game
    if bots_due(game):
        return False
    if app.settings[S_AUTOPLAY] and table.held == NONE and table.clearly_won():
        return False
    return True


def console_idle(console):
    """engine_core/console.py's Console (the app with its records and the kiosk)."""
    keeper = console.keeper
    if console.kiosk_on or console.notice_ms or keeper.unsaved or keeper.notice_count:
        return False
    if console.due or keeper.later or keeper.journal_due:  # a write put off to the next frame
        return False
    return app_idle(console.app)


def screen_may_sleep(console):
    """The device's screen may dim and go off: not in the middle of a computer's turn or of
    real-time computer players, not in link play, not in the kiosk (its demo keeps the screen
    on)."""
    app = console.app
    if console.kiosk_on or app.link_in_use():
        return False
    table = app.table
    if app.mode == PLAY and table is not None and (table.computer_ms > 0 or bots_due(table.game)):
        return False
    return True
