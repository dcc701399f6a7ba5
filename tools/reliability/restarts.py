"""Restart equivalence: a restart at any moment gives back exactly what was there.

A session is random presses on the real console (engine_core/console.py) of one game:
moves, undo, redo, hint, long A, the menus, new deals, quitting, time passing. At random
points the console is stopped and a new one is made from its records:
- a stop once play has paused (the save is made): the new console must hold the same game
  (state hash, rules, players, options, seed, move count), the same undo journal (the newest
  whole moves the record holds), the same redo list, settings and statistics;
- a power cut in the middle of that save (at a random byte or step): the new console must
  hold what the records held before the save began, or what it was writing (a cut between
  the game and its journal may leave the new game with nothing to undo or redo).
After each restart the old console's game and the new one play on the same random moves,
undos, redos and time, and must stay equal, step by step. Then the session goes on with the
new console.

Runs on CPython and on MicroPython (no module beyond the engine's and faults.py).

    python -m tools.reliability.restarts SESSIONS [SEED]     every game, SESSIONS each
"""

import sys

from engine_core import PLAYING, games
from engine_core import history as hist
from engine_core import undo_record as undo
from engine_core.console import Console
from engine_core.gfx.screen import Screen
from engine_core.link.statehash import state_hash
from engine_core.save import BUFFER_SIZE
from engine_core.undo_record import ANY_MOVE
from engine_core.ui import buttons as bt
from engine_core.ui.app import App
from tools.reliability.faults import FaultyStorage, PowerCut

if sys.implementation.name == "micropython":
    FRAMEBUF = None  # its own framebuf, in C
else:
    from tools.reliability import nullfb as FRAMEBUF  # draw nothing (see nullfb.py)

PRESSES = 36  # per session
RESTART_PER_MILLE = 60  # of presses: a stop (two of three) or a power cut mid-save
PLAY_ON = 8  # steps played on both consoles after each restart
TICKS = (16, 100, 600, 2500)


class Rand:
    """Park and Miller's generator: the same numbers on both runtimes."""

    def __init__(self, seed):
        self.x = seed % 2147483646 + 1

    def below(self, n):
        self.x = self.x * 48271 % 2147483647
        return self.x % n


def new_console(disk, halves=False):
    """A console on `disk`; halves: it saves as the device does, the game record in one frame
    and its journal in the next (Keeper.in_halves)."""
    screen = Screen(240, 240, FRAMEBUF) if FRAMEBUF is not None else Screen(240, 240)
    console = Console(App(screen), disk)
    console.keeper.in_halves = halves
    console.start()
    return console


def journal(history):
    out = []
    i = (history.head - history.used) % history.capacity
    for _ in range(history.used):
        out.append(history.log[i])
        i = (i + 1) % history.capacity
    return out


def kept(entries, redo_n):
    """The newest whole moves of a journal that its record holds (undo_record.py)."""
    room = undo.journal_room(BUFFER_SIZE, redo_n)
    if len(entries) > room:
        entries = entries[len(entries) - room:]
        while entries and hist.kind(entries[0]) != hist.MARK:  # begin at a move's MARK
            entries = entries[1:]
    return entries


def record(console):
    """What a restart must give back, as a list that compares with ==."""
    keeper = console.keeper
    out = [list(keeper.settings.values), list(keeper.stats.values)]
    game = console.game
    if game is None:
        return out + [None]
    table = console.app.table
    redo = []
    undoable = ANY_MOVE
    if table.game is game:
        redo = list(table.redo_moves[:table.redo_n])
        undoable = console.undoable(table)
    entries = kept(journal(game.history), len(redo))
    marks = 0
    for e in entries:
        marks += 1 if hist.kind(e) == hist.MARK else 0
    if undoable >= marks:  # every move held
        undoable = ANY_MOVE
    return out + [[game.NAME, game.players, game.options, game.rules, game.seed,
                   state_hash(game), game.clock_ms, keeper.moves if keeper.moves > 0 else 0,
                   entries, redo, undoable]]


def copy_disk(disk):
    """What the storage holds now, on a storage of its own."""
    other = FaultyStorage(len(disk.names), disk.size)
    for i in range(len(disk.names)):
        other.names[i] = disk.names[i]
        other.length[i] = disk.length[i]
        other.data[i][:] = disk.data[i]
    return other


def without_journal(rec):
    """A record whose game lost its journal and redo list (a cut between the two writes)."""
    if rec[2] is None:
        return rec
    game = list(rec[2])
    game[8] = []
    game[9] = []
    game[10] = ANY_MOVE
    return rec[:2] + [game]


def forget_journal(console):
    """The old console as the new one came back after a cut between the game's two records:
    nothing to undo or redo."""
    table = console.app.table
    if console.game is not None and table is not None and table.game is console.game:
        console.game.history.clear()
        table.redo_n = 0
        table.floor_undo()


def press_randomly(console, rand, game_index):
    """One random input of a player: mostly play, now and then the menus or time."""
    roll = rand.below(100)
    if roll < 14:
        console.tick(TICKS[rand.below(len(TICKS))])
    elif roll < 20:
        console.press(bt.Y)
    elif roll < 24:  # the pause menu's Redo
        for b in (bt.START, bt.DOWN, bt.DOWN, bt.DOWN, bt.A):
            console.press(b)
    elif roll < 32:
        console.press(bt.X)
    elif roll < 35:
        console.press(bt.A, True)
    elif roll < 38:
        console.press(bt.START)
    elif roll < 40:
        console.press(bt.B)
    elif roll < 41:  # back to the title and a new deal of the same game
        console.app.game_index = game_index
        console.app.start_game(rand.below(100000))
        console.after_input()
    elif roll < 70:
        console.press(bt.A)
    else:
        console.press(bt.UP + rand.below(4))


def play_on(old, new, rand, problem):
    """The same steps on the old console's game and the restored one; '' or what differed.

    The steps go to the two tables directly; the new console, with which the session goes
    on, looks at its game after each one, as it does after every press and tick (a console
    that looked only after all of them could take a journal of the same length for an
    unchanged one). The old console is not told: it shares the storage and must not write."""
    a = old.app.table
    b = new.app.table
    if a is None or b is None or a.game is not old.game or b.game is not new.game:
        return problem
    for step in range(PLAY_ON):
        roll = rand.below(10)
        if roll < 2 and b.game.can_undo():
            a.press_undo()
            b.press_undo()
        elif roll < 3:
            a.press_redo()
            b.press_redo()
        elif roll < 4:
            ms = TICKS[rand.below(3)]
            for t in (a, b):  # as the App ticks a table in play
                t.game.tick(ms)
                t.tick(ms)
        else:
            a.finish_computer()  # a key pressed in the computer's turn ends it (Table.press)
            b.finish_computer()
            na = a.legal_moves()
            nb = b.legal_moves()
            if list(a.hand.moves[:na]) != list(b.hand.moves[:nb]):
                return "play on, step %d: other legal moves" % step
            if na and a.game.status() == PLAYING:
                move = a.hand.moves[rand.below(na)]
                a.play(move)
                b.play(move)
        new.after_input()  # the new console notes the step, as after every press and tick
        if state_hash(a.game) != state_hash(b.game):
            return "play on, step %d: the games differ" % step
        if a.move_count != b.move_count or a.redo_n != b.redo_n:
            return "play on, step %d: move count or redo list differs" % step
    return problem


def differs(want, got):
    names = ("settings", "statistics", "game")
    fields = ("name", "players", "options", "rules", "seed", "state", "clock", "moves",
              "undo journal", "redo list", "moves undo may take back")
    for i in range(3):
        if want[i] != got[i]:
            if i < 2 or want[2] is None or got[2] is None:
                return names[i]
            for k in range(len(fields)):
                if want[2][k] != got[2][k]:
                    return "game's " + fields[k]
    return ""


def session(name, seed, counts):
    """One session of `name`; '' or what went wrong first."""
    rand = Rand(seed)
    disk = FaultyStorage(8, 2048)
    halves = seed % 2 == 1  # every other session saves as the device does
    console = new_console(disk, halves)
    game_index = console.app.names.index(name)
    console.open_game(name, seed)
    for i in range(PRESSES):
        try:
            press_randomly(console, rand, game_index)
        except PowerCut:
            return "press %d: the storage was cut outside a cut" % i
        if rand.below(1000) >= RESTART_PER_MILLE:
            continue
        cut = rand.below(3) == 0
        # The flash work a press puts off (a left game's erase, the statistics) is done on the
        # frame after it, as the device's loop runs one after every press: before the stop.
        console.catch_up(True)
        if cut:
            before = record(new_console(copy_disk(disk)))
            if rand.below(2):
                disk.cut_after_bytes(rand.below(BUFFER_SIZE + 200))
            else:
                disk.cut_after_ops(rand.below(4))
        try:
            console.close()  # switched off: what is not saved yet is saved now
        except PowerCut:
            counts["cuts"] += 1
        want = record(console)
        disk.restart()
        again = new_console(disk, halves)
        got = record(again)
        counts["restarts"] += 1
        problem = ""
        if not cut and got != want:
            problem = "press %d, restart: %s differs" % (i, differs(want, got))
        elif cut and got != want and got != before and got != without_journal(want):
            problem = "press %d, cut: %s differs" % (i, differs(want, got))
        if not problem and got != want:  # the old journal without the new game's: dropped
            forget_journal(console)
        if not problem and (not cut or got != before):
            problem = play_on(console, again, rand, "")
        if problem:
            return problem
        console = again
    return ""


def run(names, sessions, seed=1, log=None):
    """`sessions` sessions of each game; counts per game and in all, with 'failures' and
    (when there were any) 'first'."""
    counts = {"sessions": 0, "restarts": 0, "cuts": 0, "failures": 0}
    for name in names:
        for k in range(sessions):
            try:
                problem = session(name, seed + k, counts)
            except Exception as e:  # nothing may raise
                problem = "raised %s: %s" % (type(e).__name__, e)
            counts["sessions"] += 1
            if problem:
                counts["failures"] += 1
                if "first" not in counts:
                    counts["first"] = "%s seed %d: %s" % (name, seed + k, problem)
        if log:
            log("restarts: %s, %d sessions" % (name, sessions))
    return counts


def interface_games():
    from engine_core.ui import layouts
    out = []
    for name in games.available():
        if layouts.declaration(name) is not None:
            out.append(name)
    return out


if __name__ == "__main__":
    from tools.cli import help_or_go
    help_or_go(__doc__, "-m tools.reliability.restarts SESSIONS [SEED]")
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 10
    s = int(sys.argv[2]) if len(sys.argv) > 2 else 1
    print(run(interface_games(), n, s, print))
