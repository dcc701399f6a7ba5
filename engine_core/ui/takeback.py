"""Undo and redo at the table, the play control's take-back (docs/screen.md): a game's own
undo, Nerts' take-back of the player's own move, the undo floor of the computer's turn and of a
link, and the moves kept for redo. Functions of the Table; no allocation."""

from engine_core import reasons as why
from engine_core.ui.slots import NONE
from engine_core.ui.view import MSG_NO_UNDO

from micropython import const

REDO_MAX = const(16)  # undone moves kept for redo (the heap budget: 64 KB in all)


def undo(table):
    """Y in play: take back the last move (Nerts: the player's own), or say why not."""
    hand = table.hand
    table.view.stop_slide()
    hand.held = NONE
    table.hint_slot = NONE
    table.finish_computer()
    h = table.game.history
    floor = table.undo_floor
    if table.step_computer and h.clears == floor >> 12 and h.moves <= floor & 0xFFF:
        table.say(why.TURN_PLAYED if floor & 0xFFF else MSG_NO_UNDO)  # (no move: the deal as dealt)
        return
    if hand.link is not None and not hand.link.may_undo():
        table.say(why.PEER_PLAYED if table.game.TURN_BASED else MSG_NO_UNDO)
        return
    if table.game.UNDO_OWN:
        undo_own(table)
        return
    end = table.game.history.head
    hand.cached_n = -1
    undone = h.last_move()
    if table.game.undo():
        if hand.link is not None:
            hand.link.local_undo(table.link_ms)
        keep_for_redo(table, undone)
        table.view.touch_entries(table.game.history.head, end)
        if table.move_count > 0:  # an undone computer move (Nerts) is not the player's
            table.move_count -= 1
        table.last_slot = NONE
    else:
        table.say(MSG_NO_UNDO)


def undo_own(table):
    """Take back the player's own newest move (Nerts against the computer): the others'
    later moves stay; when one was played on it, the foot says so and nothing changes."""
    game = table.game
    table.hand.cached_n = -1
    reason = game.take_back(table.hand.seat)
    if reason != why.NONE:
        table.say(reason)
        return
    keep_for_redo(table, game.taken_move)
    for p in range(game.piles.count):
        if game.taken[p]:
            table.view.touch(table.slots.slot_of[p])
    if table.move_count > 0:
        table.move_count -= 1
    table.last_slot = NONE


def keep_for_redo(table, move):
    if table.redo_n == REDO_MAX:  # full: the oldest undone move goes
        for i in range(REDO_MAX - 1):
            table.redo_moves[i] = table.redo_moves[i + 1]
        table.redo_n -= 1
    table.redo_moves[table.redo_n] = move
    table.redo_n += 1


def redo(table):
    """Play again the move undone last (while nothing else was played since)."""
    hand = table.hand
    hand.held = NONE
    table.hint_slot = NONE
    table.finish_computer()
    n = table.redo_n
    if n == 0 or not hand.allows(table.redo_moves[n - 1]):
        table.redo_n = 0
        table.say(why.NO_REDO)
        return
    table.play(table.redo_moves[n - 1])
    table.redo_n = n - 1
