"""The Keeper: everything the interface persists (settings, statistics, the game in progress).

The game as a record (what it holds, how it is read back) is engine_core/game_record.py.

The Keeper is what the interface calls: start() at power-on, moved() after each move, tick()
from the app loop (it saves a move in the frames after the one that showed it, unless a key
is down), finished()/abandoned() for the statistics. Problems come back as short lines for the
screen through take_notice(); the game always goes on.
"""

from array import array

from engine_core import PLAYING
from engine_core import games
from engine_core import records as r
from engine_core import undo_record as undo
from engine_core.game_record import (KIND_GAME, encode_game, game_record_size, human_won,  # noqa: F401
                                     peek_game, restore_game, saved_moves, saved_rules)

from micropython import const

BUFFER_SIZE = const(1024)  # records measured by tools/bench/bench_save.py: an Aces Up game is 186 bytes
# A move is saved in the frame after the one that showed it (the change's frame counts its own
# time first: Keeper.tick), its journal in the next: a press then meets a save only when it
# comes within about two frames of a move, where with a delay of half a second the pauses in
# which a player presses again were those that met it. Moves come at a person's pace.
SAVE_DELAY_MS = const(50)
# While a key is down the save waits for its release (X acts on its release) for this long at
# most: a key held or stuck keeps a move from the flash no longer.
KEY_DOWN_SAVE_MS = const(1000)
_LONG_TICK_MS = const(66)  # a tick longer than two frames: a press may wait behind it (Keeper.tick)
# Changes the player did not make (computer players' moves, auto-play) are saved with the next
# save, or once the oldest of them has waited this long: Nerts's computer players move about
# once a second, and a save a move wore the flash and took 25-40 ms of the chip's frames.
OTHERS_SAVE_MS = const(5000)
# From this wait on they are saved in the frames right after a press's answer, where the next
# press is not yet coming (written whenever their five seconds were up, the save met a press).
_OTHERS_PRESS_MS = const(2500)
# Nothing holds a change from the flash longer, not even a press in every frame.
_OVERDUE_MS = const(10000)
# Flash work a press puts off until the frame after the one that answers it (Keeper.catch_up):
# a deal or a game's end is on the glass first, and the flash (4 ms an erase of a record and
# its spare, more for the statistics) waits a frame.
LATER_ERASE = const(1)  # the saved game and its journal removed: the game was left
LATER_STATS = const(2)  # the statistics written
LATER_GAME = const(4)  # the game written (it has ended: with its statistics, so that a restart
#                        never finds the statistics counting a game it resumes unfinished)
NOTICES = const(4)
NOTICE_FULL = "Storage full: progress not saved"
NOTICE_FAILED = "Storage error: progress not saved"
NOTICE_JOURNAL = "Undo history: invalid, set aside"
NOTICE_CANNOT_KEEP = "Cannot write: progress not saved"


class Keeper:
    """Settings, statistics and the game in progress on one storage backend."""

    def __init__(self, storage):
        self.buf = bytearray(BUFFER_SIZE)
        self.used = bytearray(256)
        self.settings = r.Settings()
        self.stats = r.Statistics()
        self.settings_file = r.RecordFile(storage, "settings", r.KIND_SETTINGS, "Settings")
        self.stats_file = r.RecordFile(storage, "stats", r.KIND_STATS, "Statistics")
        self.game_file = r.RecordFile(storage, "game", KIND_GAME, "Saved game")
        self.undo_file = r.RecordFile(storage, "undo", undo.KIND_UNDO, "Undo history")
        self.game_crc = bytearray(4)  # the checksum of the game record last saved or loaded
        self.notices = [""] * NOTICES
        self.notice_count = 0
        self.has_saved_game = False
        self.failing = False  # the last write failed (and said so)
        self.later = 0  # flash work put off (LATER_*) until catch_up() on the next frame
        self.later_wait = False  # the frame that put it off is not over yet
        self.ended = None  # the game that ended, to write with its statistics (LATER_GAME)
        self.moves = 0  # moves made in the current game
        self.unsaved = False  # the current game changed since it was last saved
        self.quiet_ms = 0  # time since the last move (-1: its own frame has not ended yet)
        self.own = False  # an unsaved change is the player's own (saved after SAVE_DELAY_MS)
        self.waited_ms = 0  # how long the oldest unsaved change has waited (capped at _OVERDUE_MS)
        self.pressed_ms = 0  # time since the frame that answered the last press (capped likewise)
        self.recorded = False  # the current game's result is in the statistics
        self.redo = array("i", [0] * undo.REDO_KEPT)  # the moves redo would play, newest last
        self.redo_n = 0
        self.undoable = undo.ANY_MOVE  # how many of the newest moves undo may take back
        self.cursor = undo.NO_CURSOR  # the table's cursor (slot << 8 | card in a fan) now
        self.cursor_kept = undo.NO_CURSOR  # and as the last save wrote it
        self.in_halves = False  # tick() saves the game record in one frame, its journal in the
        #                          next (the device: a press that lands in a save waits less)
        self.journal_due = 0  # tick() wrote the game record and left its journal in buf (this
        #                        many bytes), written on the next frame or before buf is used

    # --- notices for the screen ---

    def notify(self, text):
        if not text:
            return
        if self.notice_count == NOTICES:
            for i in range(NOTICES - 1):
                self.notices[i] = self.notices[i + 1]
            self.notice_count -= 1
        self.notices[self.notice_count] = text
        self.notice_count += 1

    def take_notice(self):
        """The oldest message not yet shown, or '' (the interface shows one at a time)."""
        if self.notice_count == 0:
            return ""
        text = self.notices[0]
        for i in range(self.notice_count - 1):
            self.notices[i] = self.notices[i + 1]
        self.notice_count -= 1
        self.notices[self.notice_count] = ""
        return text

    def _write_result(self, result):
        """Say when writing fails, once: not again until a write has worked."""
        if result == r.SAVED:
            self.failing = False
        elif not self.failing:
            self.failing = True
            self.notify(NOTICE_FULL if result == r.FULL else NOTICE_FAILED)
        return result

    def cannot_keep(self):
        """The storage cannot be written at all (a full or read-only disk found at start):
        said once; the saves that fail after it say nothing more."""
        self.failing = True
        self.notify(NOTICE_CANNOT_KEEP)

    # --- power-on ---

    def start(self):
        """Load settings and statistics and look for a saved game; problems become notices."""
        self._load(self.settings_file, self.settings)
        self._load(self.stats_file, self.stats)
        found = self.game_file.load(self.buf)
        self.has_saved_game = found == r.OK
        if found == r.OK and peek_game(self.buf) is None:
            self.game_file.reject(r.INVALID)
            self.has_saved_game = False
        self.notify(r.load_message(self.game_file.title, self.game_file.found))

    def _load(self, file, record):
        found = file.load(self.buf)
        if found == r.OK:
            decoded = record.decode(self.buf, file.size)
            if decoded != r.OK:
                file.reject(decoded)
                found = decoded
        if found != r.OK:
            record.reset()
        self.notify(r.load_message(file.title, found))

    def resume(self):
        """The saved game, restored exactly (a new game object), or None when there is none.

        Allocates (the game object); call once at power-on, after start().
        """
        if not self.has_saved_game:
            return None
        self.has_saved_game = False
        found = self.game_file.load(self.buf)
        if found != r.OK:
            self.notify(r.load_message(self.game_file.title, found))
            return None
        head = peek_game(self.buf)
        game = None
        result = r.INVALID
        if head is not None:
            name, players, options = head
            try:
                cls = games.load(name)
            except (KeyError, ImportError):
                cls = None
            if cls is not None and cls.MIN_PLAYERS <= players <= cls.MAX_PLAYERS and games.options_ok(options):
                result = r.VERSION  # a rule profile this build does not play
                if saved_rules(self.buf) in cls.RULES_PROFILES:
                    game = cls(players, options)
                    game.set_rules(saved_rules(self.buf))  # a game saved under rules 1 resumes under 1
                    result = restore_game(game, self.buf, self.game_file.size, self.used)
                    if result == r.OK and game.check_position():
                        result = r.INVALID  # a position `load` refuses (it may allocate: start-up)
        if result != r.OK:
            self.game_file.reject(result)
            self.notify(r.load_message(self.game_file.title, result))
            return None
        assert game is not None  # result is OK only once a game was made
        self.moves = saved_moves(self.buf)
        undo.remember_crc(self.buf, self.game_file.size, self.game_crc)
        copy = cls(players, options)  # the saved position again, to replay the journal on
        copy.set_rules(saved_rules(self.buf))
        restore_game(copy, self.buf, self.game_file.size, self.used)
        self.resume_journal(game, copy)
        self.unsaved = False
        self.recorded = game.status() != PLAYING
        return game

    def resume_journal(self, game, copy):
        """Put the saved undo journal into the resumed game when it is this game's and means
        what it says (undo_record.replays, on `copy`, a second copy of the saved position).
        Another save's journal is dropped; one that fails the replay is set aside with a
        notice: the game is kept, with nothing to undo."""
        if self.undo_file.load(self.buf) != r.OK:
            return  # none, or a damaged one (set aside): nothing to undo
        found = undo.restore_journal(game.history, self.buf, self.undo_file.size, self.game_crc)
        if found == r.OK and not undo.replays(game.history, copy, game, self.used):
            game.history.clear()
            found = r.INVALID
            self.undo_file.reject(found)
            self.notify(NOTICE_JOURNAL)
        elif found != r.OK:
            self.undo_file.erase()
        else:
            self.redo_n = undo.restore_redo(self.buf, self.undo_file.size, self.redo)
            self.undoable = undo.restore_undoable(self.buf, self.undo_file.size)
            n = self.undo_file.size
            if self.buf[3] > 2:  # version 3 keeps the cursor
                self.cursor = self.cursor_kept = r.get_u16(self.buf, n - 6)

    # --- during play ---

    def started(self, game):
        """A new deal: counts start from zero (call abandoned() first for an unfinished game)."""
        self.moves = 0
        self.recorded = False
        self.unsaved = True
        self.own = True
        self.quiet_ms = -1
        self.waited_ms = 0
        self.redo_n = 0
        self.undoable = undo.ANY_MOVE

    def moved(self, game, own=True):
        """After each move (or undo): the result is recorded when it ends the game. own: the
        player's (a press's); a computer player's or auto-play's waits for OTHERS_SAVE_MS."""
        self.moves += 1
        if not self.unsaved:
            self.waited_ms = 0
        if own or not self.unsaved:
            # The pause counts from the player's last move: a move the player did not make
            # starts it only when nothing waits (three computer players in Nerts move about
            # once a second each: their moves must not keep putting the player's save off).
            self.quiet_ms = -1
        self.unsaved = True
        self.own = self.own or own
        if game.status() != PLAYING and not self.recorded:
            self.finished(game)

    def keep_redo(self, moves, n, undoable, cursor):
        """The interface's redo list is moves[0:n] (the newest last), and undo may take back
        the newest `undoable` moves: kept with the journal at the next save when they
        changed, as the player's own change (each move of a computer's turn shown move by
        move, Spite & Malice's, moves undo's floor: it is saved as it comes, so that a restart
        never plays that turn other than it was shown). The cursor (slot << 8 | card in a fan)
        goes with them, but a cursor moved alone asks for no save of its own (the flash is
        spared): it is written with the next one, or when the game is kept or the console
        switched off (Console.save_now). No allocation."""
        self.cursor = cursor
        if n > undo.REDO_KEPT:
            n = undo.REDO_KEPT
        same = n == self.redo_n and undoable == self.undoable
        self.undoable = undoable
        for i in range(n):
            if same and self.redo[i] != moves[i]:
                same = False
            self.redo[i] = moves[i]
        self.redo_n = n
        if not same:
            if not self.unsaved:
                self.waited_ms = 0
            self.unsaved = True
            self.own = True
            self.quiet_ms = -1

    def tick(self, game, ms, answering=False, key_down=False):
        """From the app loop: saves the game once play has paused SAVE_DELAY_MS (the frame after
        the move's). Not in a frame that answers a press (its answer goes out first), nor while
        a key is down (X acts on its release, which would wait for the save) until play has
        paused KEY_DOWN_SAVE_MS, or the oldest unsaved change has waited that long: a key held
        or stuck keeps a move from the flash no longer, however steadily play goes on. Nor in
        a tick longer than two frames (one that ran long, a search's: holds()), on the same
        terms. Changes the player did not make alone wait until the oldest of them has waited
        OTHERS_SAVE_MS, or _OTHERS_PRESS_MS in the two frames after a press's. None waits
        longer than _OVERDUE_MS, whatever comes."""
        if self.waited_ms < _OVERDUE_MS:
            self.waited_ms += ms
        if answering:
            self.pressed_ms = 0
        elif self.pressed_ms < _OVERDUE_MS:
            self.pressed_ms += ms
        due = False
        if self.unsaved:
            if self.quiet_ms < 0:
                # The frame that took the change saves nothing, whatever its time (after a rest
                # the loop hands a press over at the last frame's time, then that whole rest):
                # the change is on the glass first, the save on a later frame.
                self.quiet_ms = ms
            else:
                self.quiet_ms += ms
                due = not answering and self.quiet_ms >= SAVE_DELAY_MS
                if due and self.quiet_ms < KEY_DOWN_SAVE_MS and (
                        key_down and self.waited_ms < KEY_DOWN_SAVE_MS or self.holds(ms)):
                    due = False
                if due and not self.own and self.waited_ms < OTHERS_SAVE_MS and (
                        self.waited_ms < _OTHERS_PRESS_MS or self.pressed_ms > _LONG_TICK_MS):
                    due = False
            if self.waited_ms >= _OVERDUE_MS:
                due = True  # not even a press in every frame holds a change longer
        journal = self.journal_due and not answering
        if due and (self.own or not journal):
            # The game record in this frame, its journal in the next (in halves): a press that
            # lands in a save waits for half of it (on a Pico 10 ms and 2 ms at the median,
            # either up to 28 ms at worst). A journal still waiting is the last save's: the
            # player's move does not wait behind it, and this save writes its own at once
            # (moves every other frame would otherwise leave no journal written at all).
            self.save_game(game, not self.in_halves or answering or journal)
        elif journal:
            # Written as it was encoded with the record, whatever moved since (with three
            # computer players in Nerts something moves in most frames).
            self.write_journal()

    def holds(self, ms):
        """A tick of `ms` writes no game record and no flash work put off (Console.tick): a
        tick longer than two frames may come before a press (the loop lets a long frame's
        time pass before it hands over a press that came during it), which must not wait for
        a write; but never once the oldest unsaved change has waited KEY_DOWN_SAVE_MS (a
        slow host, every frame long, still saves)."""
        return ms > _LONG_TICK_MS and self.waited_ms < KEY_DOWN_SAVE_MS

    def put_off(self, work):
        self.later |= work
        self.later_wait = True

    def catch_up(self, now=False):
        """Once a frame (Console.tick): the flash work put off, a frame after it was put off
        (`now`: at once, before a save or the power going off)."""
        if not self.later:
            return
        if self.later_wait and not now:
            self.later_wait = False
            return
        work = self.later
        self.later = 0
        if work & LATER_STATS:
            self.save_stats()
        if work & LATER_GAME and self.ended is not None:
            game = self.ended
            self.ended = None
            if not work & LATER_ERASE:  # (a game left since it ended is erased: not written,
                self.save_game(game)  # nor the flags of the game dealt after it cleared)
        if work & LATER_ERASE:
            self.journal_due = 0
            self.game_file.erase()
            self.undo_file.erase()

    def save_game(self, game, journal=True):
        """Write the game now, and its undo journal unless told not to (tick() in halves writes
        it on the next frame): SAVED, FULL or FAILED (a notice says so). No allocation."""
        written = self.later & LATER_GAME and self.ended is game
        self.catch_up(True)  # an erase put off must not follow this save
        if written:  # catch_up wrote this very game, with its statistics
            return r.FAILED if self.failing else r.SAVED
        self.journal_due = 0
        self.unsaved = False
        self.own = False
        self.waited_ms = 0
        if game_record_size(game) > BUFFER_SIZE:
            return self._write_result(r.FAILED)
        if self.moves < 0:
            self.moves = 0
        elif self.moves > r.I32_MAX:  # (one move past a crafted record's largest count)
            self.moves = r.I32_MAX  # a count the record's reader takes back
        n = encode_game(game, self.moves, self.buf)
        result = self._write_result(self.game_file.save(self.buf, n))
        if result == r.SAVED:
            undo.remember_crc(self.buf, n, self.game_crc)
            if journal:
                self._write_result(self.undo_file.save(self.buf, self.encode_journal(game, self.buf)))
            else:  # encoded now, to match the record; written in the next frame (tick)
                self.journal_due = self.encode_journal(game, self.buf)
        return result

    def write_journal(self):
        """The journal save_game left in buf, now (before anything else is encoded there)."""
        n = self.journal_due
        if n:
            self.journal_due = 0
            self._write_result(self.undo_file.save(self.buf, n))

    def encode_journal(self, game, buf):
        """The undo journal of the game record just written, into buf; its size."""
        self.cursor_kept = self.cursor
        return undo.encode_journal(game.history, self.game_crc, buf, self.redo, self.redo_n,
                                   self.undoable, self.cursor)

    def finished(self, game):
        """Record a finished game in the statistics and save them."""
        if self.recorded:
            return
        self.recorded = True
        index = games.game_id(game.NAME)
        won = human_won(game)
        self.stats.record_game(index, won, game.clock_ms, self.moves)
        if game.COMPETITIVE:
            self.stats.record_match(index, won, game.score(0))
        self.ended = game
        self.put_off(LATER_STATS | LATER_GAME)

    def abandoned(self, game):
        """The player leaves an unfinished game for another deal: it counts as played, lost."""
        if not self.recorded and self.moves > 0 and game.status() == PLAYING:
            self.recorded = True
            self.stats.record_game(games.game_id(game.NAME), False, game.clock_ms, self.moves)
            self.put_off(LATER_STATS)
        self.put_off(LATER_ERASE)
        self.unsaved = False

    # --- settings and statistics ---

    def save_settings(self):
        self.write_journal()
        return self._write_result(self.settings_file.save(self.buf, self.settings.encode(self.buf)))

    def save_stats(self):
        self.write_journal()
        return self._write_result(self.stats_file.save(self.buf, self.stats.encode(self.buf)))

    def reset_all(self):
        """Settings and statistics back to defaults, saved (the kiosk's locked reset)."""
        self.settings.reset()
        self.stats.reset()
        self.save_settings()
        self.save_stats()
