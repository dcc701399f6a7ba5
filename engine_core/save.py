"""The game in progress as a record, and the Keeper: everything the interface persists.

A saved game holds what resumes it exactly: the game (its registry id), rule profile (Casket plays 1 or
2; records written before profile 2 existed say 1, and resume under it), players, options,
seed, clock, the moves made so far, every journaled variable (the generator's state among them,
and which generator dealt: V_DEALER, 0 in records of builds before it, whose games the Lehmer
generator dealt and still draws for, so they resume exactly; engine_core/rng.py)
and every pile's cards. The newest moves of the undo journal go into a record of their own
(engine_core/undo_record.py), so undo works after a restart. Games keep their state in piles and vars (docs/engine.md), so this works for every game
through what the Game base class holds; a game with state outside the journal names those
attributes in a class constant SAVED, and one that derives more from its piles rebuilds it in
an after_restore() method.

Payload of a game record (kind 'G', version 1):
    game id (engine_core/games/__init__.py: fixed per game, whatever the menu order; the ids
    of the five first games are their positions in the list that named games here before the
    registry, so those records read unchanged), rules version, players,
    flags (bit 0: computer players on)
    options, seed, clock_ms, moves                      four bytes each
    var count, then each var                            four bytes each
    pile count, then each pile's size, then all cards bottom to top, pile after pile
    the count of extra ints (two bytes), then each: the game's SAVED attributes, in order

The Keeper is what the interface calls: start() at power-on, moved() after each move, tick()
from the app loop (it saves once play has paused SAVE_DELAY_MS, so mashing buttons does not
wear the flash), finished()/abandoned() for the statistics. Problems come back as short lines
for the screen through take_notice(); the game always goes on.
"""

from array import array

from engine_core import OVER, PLAYING, WON
from engine_core import games
from engine_core import records as r
from engine_core import rng
from engine_core import undo_record as undo
from engine_core.game import N_VARS, V_DEALER, V_RNG, V_RNG2, V_SCORE, V_STATUS, V_TURN

from micropython import const

KIND_GAME = const(0x47)  # 'G'
GAME_VERSION = const(1)
BUFFER_SIZE = const(1024)  # records measured by tools/bench/bench_save.py: an Aces Up game is 186 bytes
SAVE_DELAY_MS = const(500)
NOTICES = const(4)
MAX_SCORE = const(100000)  # as `load` takes scores

_FIXED = const(20)  # the fixed fields of the payload, before the var count

NOTICE_FULL = "Storage full: progress not saved"
NOTICE_FAILED = "Storage error: progress not saved"
NOTICE_JOURNAL = "Undo history invalid: set aside, game kept"
NOTICE_CANNOT_KEEP = "Cannot write records: progress not saved"


def game_record_size(game):
    """The size of the record encode_game writes for the game as it stands."""
    piles = game.piles
    cards = 0
    for p in range(piles.count):
        cards += piles.size[p]
    return r.OVERHEAD + _FIXED + 1 + 4 * N_VARS + 1 + piles.count + cards + 2 + 4 * extra_count(game)


def saved_attributes(game):
    """The names of the attributes beyond piles and vars that the game asks a saved game to
    keep (a class constant SAVED: ints or arrays of small ints, state outside the journal such
    as who is a computer player and at which levels); () for most games."""
    return game.SAVED


def extra_count(game):
    """How many ints the game's SAVED attributes hold."""
    n = 0
    for name in saved_attributes(game):
        value = getattr(game, name)
        if type(value) is int:
            n += 1
        else:
            n += len(value)
    return n


def encode_game(game, moves, buf):
    """Write `game` as a record into buf; returns its size. No allocation."""
    pos = r.begin(buf, KIND_GAME, GAME_VERSION)
    buf[pos] = games.game_id(game.NAME)
    buf[pos + 1] = game.rules
    buf[pos + 2] = game.players
    buf[pos + 3] = 1 if game.bots else 0
    pos = r.put_i32(buf, pos + 4, game.options)
    pos = r.put_i32(buf, pos, game.seed)
    pos = r.put_i32(buf, pos, game.clock_ms)
    pos = r.put_i32(buf, pos, moves)
    buf[pos] = N_VARS
    pos += 1
    for i in range(N_VARS):
        pos = r.put_i32(buf, pos, game.vars[i])
    piles = game.piles
    buf[pos] = piles.count
    pos += 1
    for p in range(piles.count):
        buf[pos] = piles.size[p]
        pos += 1
    for p in range(piles.count):
        s = piles.start[p]
        for i in range(piles.size[p]):
            buf[pos] = piles.cards[s + i]
            pos += 1
    pos = r.put_u16(buf, pos, extra_count(game))
    for name in saved_attributes(game):
        value = getattr(game, name)
        if type(value) is int:
            pos = r.put_i32(buf, pos, value)
        else:
            for i in range(len(value)):
                pos = r.put_i32(buf, pos, value[i])
    return r.finish(buf, pos)


def peek_game(buf):
    """(name, players, options) of a checked game record, or None when it names no known game.

    Allocates (a tuple): used once at resume to create the game object.
    """
    name = games.name_of(buf[r.HEADER])
    if name is None:
        return None
    return name, buf[r.HEADER + 2], r.get_i32(buf, r.HEADER + 4)


def restore_game(game, buf, n, used):
    """Put the checked record buf[0:n] into `game` (same class, players and options as saved,
    playing the rule profile the record names: saved_rules(buf) and game.set_rules()).

    Returns OK, VERSION (another layout or rules version) or INVALID (the contents do not make
    a game: a pile over its capacity, a card that is not this game's, missing or twice, a
    status, generator state, player to move, score or clock out of range). The
    game changes only on OK. resume() then asks the game's check_position, as `load` does. `used` is a scratch bytearray(256). No allocation.
    """
    if buf[3] != GAME_VERSION or buf[r.HEADER + 1] != game.rules:
        return r.VERSION
    base = r.HEADER
    if buf[base] != games.game_id(game.NAME) or buf[base + 2] != game.players:
        return r.INVALID
    if r.get_i32(buf, base + 4) != game.options:
        return r.INVALID
    seed = r.get_i32(buf, base + 8)
    clock = r.get_i32(buf, base + 12)
    if seed < 0 or clock < 0:
        return r.INVALID  # (a negative move count, as older builds could save, reads as 0)
    pos = base + _FIXED
    if buf[pos] != N_VARS:
        return r.VERSION
    vars_at = pos + 1
    if not vars_in_range(game, buf, vars_at):
        return r.INVALID
    pos = vars_at + 4 * N_VARS
    piles = game.piles
    if pos >= n or buf[pos] != piles.count:
        return r.INVALID
    sizes_at = pos + 1
    cards_at = sizes_at + piles.count
    total = 0
    for p in range(piles.count):
        size = buf[sizes_at + p]
        if size > piles.cap[p]:
            return r.INVALID
        total += size
    extras_at = cards_at + total
    if extras_at + 2 + 4 > n or r.get_u16(buf, extras_at) != extra_count(game):
        return r.INVALID
    if extras_at + 2 + 4 * extra_count(game) + 4 != n:
        return r.INVALID
    for c in range(256):
        used[c] = 0
    for i in range(total):
        c = buf[cards_at + i]
        if used[c] or not game.is_card(c):
            return r.INVALID
        used[c] = 1
    for c in range(256):
        if game.is_card(c) and not used[c]:
            return r.INVALID
    # Everything checks: replace the game's state.
    piles.clear()
    pos = cards_at
    for p in range(piles.count):
        for i in range(buf[sizes_at + p]):
            piles.push(p, buf[pos])
            pos += 1
    for i in range(N_VARS):
        game.vars[i] = r.get_i32(buf, vars_at + 4 * i)
    game.seed = seed
    game.clock_ms = clock
    game.bots = buf[base + 3] & 1 == 1
    pos = extras_at + 2
    for name in saved_attributes(game):
        value = getattr(game, name)
        if type(value) is int:
            setattr(game, name, r.get_i32(buf, pos))
            pos += 4
        else:
            for i in range(len(value)):
                value[i] = r.get_i32(buf, pos)
                pos += 4
    game.history.clear()  # a resumed game starts with nothing to undo
    game.after_restore()  # a game that derives state from its piles rebuilds it
    return r.OK


def vars_in_range(game, buf, at):
    """The shared variables a record holds are ones play could give: a status, a generator
    state, the player to move and the scores in range. No allocation."""
    status = r.get_i32(buf, at + 4 * V_STATUS)
    if status < PLAYING or status > OVER:
        return False
    if not generator_in_range(r.get_i32(buf, at + 4 * V_DEALER), r.get_i32(buf, at + 4 * V_RNG),
                              r.get_i32(buf, at + 4 * V_RNG2)):
        return False
    turn = r.get_i32(buf, at + 4 * V_TURN)
    if turn < 0 or turn >= game.players:
        return False
    for i in range(4):
        score = r.get_i32(buf, at + 4 * (V_SCORE + i))
        if score < -MAX_SCORE or score > MAX_SCORE or (i >= game.players and score != 0):
            return False
    return True


def generator_in_range(dealer, state, state2):
    """A generator (rng.LEHMER or rng.COMBINED) and states it can be in. No allocation."""
    if dealer == rng.LEHMER:
        return 1 <= state < rng.M and state2 == 0
    return dealer == rng.COMBINED and 1 <= state < rng.M1 and 1 <= state2 < rng.M2


def saved_rules(buf):
    """The rule profile a game record was played under (records of every build keep it)."""
    return buf[r.HEADER + 1]


def saved_moves(buf):
    """The moves made, as the record counts them; a count below 0 (an undo of the computer's
    moves could make one before it was kept from it) is 0: the game itself is sound."""
    moves = r.get_i32(buf, r.HEADER + 16)
    return moves if moves > 0 else 0


def human_won(game):
    """Whether player 1 (the person; computer players take the other seats) won a finished game."""
    status = game.status()
    if status == WON:
        return True
    if status != OVER or not game.COMPETITIVE:
        return False
    mine = game.score(0)
    for i in range(1, game.players):
        if game.score(i) >= mine:
            return False
    return True


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
        self.moves = 0  # moves made in the current game
        self.unsaved = False  # the current game changed since it was last saved
        self.quiet_ms = 0  # time since the last move
        self.recorded = False  # the current game's result is in the statistics
        self.redo = array("i", [0] * undo.REDO_KEPT)  # the moves redo would play, newest last
        self.redo_n = 0
        self.undoable = undo.ANY_MOVE  # how many of the newest moves undo may take back

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
            if cls is not None and cls.MIN_PLAYERS <= players <= cls.MAX_PLAYERS:
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

    # --- during play ---

    def started(self, game):
        """A new deal: counts start from zero (call abandoned() first for an unfinished game)."""
        self.moves = 0
        self.recorded = False
        self.unsaved = True
        self.quiet_ms = 0
        self.redo_n = 0
        self.undoable = undo.ANY_MOVE

    def moved(self, game):
        """After each move (or undo) the player makes: the result is recorded when it ends it."""
        self.moves += 1
        self.unsaved = True
        self.quiet_ms = 0
        if game.status() != PLAYING and not self.recorded:
            self.finished(game)

    def keep_redo(self, moves, n, undoable):
        """The interface's redo list is moves[0:n] (the newest last), and undo may take back
        the newest `undoable` moves: kept with the journal at the next save when they
        changed. No allocation."""
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
            self.unsaved = True
            self.quiet_ms = 0

    def tick(self, game, ms):
        """From the app loop: saves the game once play has paused SAVE_DELAY_MS."""
        if not self.unsaved:
            return
        self.quiet_ms += ms
        if self.quiet_ms >= SAVE_DELAY_MS:
            self.save_game(game)

    def save_game(self, game):
        """Write the game now: SAVED, FULL or FAILED (a notice says so). No allocation."""
        self.unsaved = False
        if game_record_size(game) > BUFFER_SIZE:
            return self._write_result(r.FAILED)
        if self.moves < 0:
            self.moves = 0
        n = encode_game(game, self.moves, self.buf)
        result = self._write_result(self.game_file.save(self.buf, n))
        if result == r.SAVED:
            undo.remember_crc(self.buf, n, self.game_crc)
            n = undo.encode_journal(game.history, self.game_crc, self.buf, self.redo, self.redo_n,
                                     self.undoable)
            self._write_result(self.undo_file.save(self.buf, n))
        return result

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
        self.save_stats()

    def abandoned(self, game):
        """The player leaves an unfinished game for another deal: it counts as played, lost."""
        if not self.recorded and self.moves > 0 and game.status() == PLAYING:
            self.recorded = True
            self.stats.record_game(games.game_id(game.NAME), False, game.clock_ms, self.moves)
            self.save_stats()
        self.game_file.erase()
        self.undo_file.erase()
        self.unsaved = False

    # --- settings and statistics ---

    def save_settings(self):
        return self._write_result(self.settings_file.save(self.buf, self.settings.encode(self.buf)))

    def save_stats(self):
        return self._write_result(self.stats_file.save(self.buf, self.stats.encode(self.buf)))

    def reset_all(self):
        """Settings and statistics back to defaults, saved (the kiosk's locked reset)."""
        self.settings.reset()
        self.stats.reset()
        self.save_settings()
        self.save_stats()
