"""Nerts' take-back of one player's own move (Nerts.take_back): the move undone with the
others' later moves standing, as at a real table. No allocation."""

from engine_core import history as hist
from engine_core import reasons as why


def take_back(game, player):
    """See Nerts.take_back."""
    h = game.history
    later = 0
    end = h.used  # where the player's move ends (held entries, oldest 0)
    mark = h.mark_before(end)
    while mark >= 0 and game.mover(h.move_at(mark)) != player:
        later += 1
        end = mark
        mark = h.mark_before(end)
    if mark < 0:
        return why.NO_UNDO
    if later > game.REPLAY_MAX:
        return why.UNDO_TOO_OLD
    taken = game.taken
    others = game.later
    for p in range(game.piles.count):
        taken[p] = 0
        others[p] = 0
    h.mark_piles(h.ring_at(mark), h.ring_at(end), taken, hist.PILE_IDS)
    h.mark_piles(h.ring_at(end), h.head, others, hist.PILE_IDS)
    for p in range(game.piles.count):
        if taken[p] and others[p]:
            return why.PLAYED_ON
    own = h.move_at(mark)
    game.taken_move = own
    # Another player's move depends on this one only through a foundation it changed:
    # when none, each later move is legal again as it was (a legality check costs a
    # move generation, some 0.5 M fuel on MicroPython).
    check = False
    for f in range(game.found0, game.found0 + game.founds):
        if taken[f]:
            check = True
    h.moves_since(h.ring_at(end), game.replay)
    for _ in range(later + 1):
        game.undo()
    for i in range(later):
        if check and not game.is_legal(game.replay[i]):
            for _ in range(i):  # put everything back as it was: the same moves again
                game.undo()
            game.apply(own)
            for k in range(later):
                game.apply(game.replay[k])
            return why.PLAYED_SINCE
        game.apply(game.replay[i])
    return why.NONE
