"""Small versioned binary records with a checksum, written so that a power cut loses nothing.

A record file is
    'P' 'C'   magic
    kind      one byte: b'G' the game in progress, b'S' settings, b'T' statistics
    version   one byte: the layout of the payload
    length    two bytes, big-endian: the payload's size
    payload
    crc       four bytes: CRC-32 (as zlib computes it) of everything before it
It is written whole to NAME.new, then renamed over NAME.dat. A power cut before the rename
leaves the old NAME.dat; one after it, the new. Reading accepts a file only when its length,
magic, kind, checksum and version all agree; a bad file is renamed to NAME.bad (kept aside for
a bug report) and the caller falls back to defaults for that record alone. A complete NAME.new
with no NAME.dat (a filesystem that removes before it renames, cut between the two) is taken.

Encoding and checking work on preallocated buffers and allocate nothing; the CRC runs on
two 16-bit halves with two 256-entry tables, so no value reaches 2**30 (boxed on the chips).
"""

from array import array

from engine_core.fields import (I32_MAX, I32_MIN, READER, Reader, get_i32, get_u16,  # noqa: F401
                                 put_i32, put_u16)
from engine_core.storage import EISDIR, ENOSPC, errno_of

from micropython import const

HEADER = const(6)
OVERHEAD = const(10)  # header + crc
MAX_PAYLOAD = const(65535)

# What reading a record found.
OK = const(0)
MISSING = const(1)  # no file: the first start, not an error
SHORT = const(2)  # fewer bytes than the header or its length says: cut off
CORRUPT = const(3)  # wrong magic or kind, or the checksum does not match
VERSION = const(4)  # a layout this build does not know (written by a newer one)
INVALID = const(5)  # checksum fine but the contents make no sense (a value out of range)
UNREADABLE = const(6)  # something that is not a file (a folder, a pipe) at its name

# What writing a record found.
SAVED = const(0)
FULL = const(1)  # ENOSPC: the filesystem is full
FAILED = const(2)  # any other OSError

PROBLEMS = ("", "missing", "cut short", "corrupt", "unknown version", "invalid", "unreadable")


def _crc_tables():
    # CRC-32 (IEEE 802.3, reflected, polynomial 0xEDB88320) with each table entry kept as two
    # 16-bit halves, so that neither the tables nor the running value need ints >= 2**30.
    low = array("H", [0] * 256)
    high = array("H", [0] * 256)
    for i in range(256):
        lo = i
        hi = 0
        for _ in range(8):
            carry = lo & 1
            lo = (lo >> 1) | ((hi & 1) << 15)
            hi >>= 1
            if carry:
                lo ^= 0x8320
                hi ^= 0xEDB8
        low[i] = lo
        high[i] = hi
    return low, high


CRC_LOW, CRC_HIGH = _crc_tables()
_crc = array("H", [0, 0])  # the last checksum: high half, low half


def crc32_parts(buf, start, end, out):
    """CRC-32 of buf[start:end] into out[0] (high 16 bits) and out[1] (low 16 bits).

    The same value as zlib.crc32 (b"123456789" gives 0xCBF4, 0x3926). No allocation.
    """
    lo = 0xFFFF
    hi = 0xFFFF
    low = CRC_LOW
    high = CRC_HIGH
    for i in range(start, end):
        k = (lo ^ buf[i]) & 0xFF
        lo = ((lo >> 8) | ((hi & 0xFF) << 8)) ^ low[k]
        hi = (hi >> 8) ^ high[k]
    out[0] = hi ^ 0xFFFF
    out[1] = lo ^ 0xFFFF


def begin(buf, kind, version):
    """Write the header; the payload starts at HEADER."""
    buf[0] = 0x50  # 'P'
    buf[1] = 0x43  # 'C'
    buf[2] = kind
    buf[3] = version
    return HEADER


def finish(buf, end):
    """Close a record whose payload ends at `end`: its length and CRC. Returns the file size."""
    put_u16(buf, 4, end - HEADER)
    crc32_parts(buf, 0, end, _crc)
    put_u16(buf, end, _crc[0])
    put_u16(buf, end + 2, _crc[1])
    return end + 4


def check(buf, n, kind):
    """OK when buf[0:n] is a whole, intact record of `kind`, else why not (version unchecked)."""
    if n < OVERHEAD:
        return SHORT
    if buf[0] != 0x50 or buf[1] != 0x43 or buf[2] != kind:
        return CORRUPT
    size = get_u16(buf, 4) + OVERHEAD
    if n < size:
        return SHORT
    if n > size:
        return CORRUPT
    crc32_parts(buf, 0, size - 4, _crc)
    if get_u16(buf, size - 4) != _crc[0] or get_u16(buf, size - 2) != _crc[1]:
        return CORRUPT
    return OK


class RecordFile:
    """One record on a backend: NAME.dat, its NAME.new while writing (NAME.TAG.new where the
    backend has a tag: a temporary name no other process shares), NAME.bad when set aside."""

    def __init__(self, storage, name, kind, title):
        self.storage = storage
        self.name = name + ".dat"
        tag = storage.tag
        self.temp = name + "." + tag + ".new" if tag else name + ".new"
        self.base = name
        self.aside = name + ".bad"
        self.kind = kind
        self.title = title  # for messages: "Settings", "Statistics", "Saved game"
        self.found = MISSING  # what the last load found
        self.size = 0  # bytes of the record the last load read

    def load(self, buf):
        """Read the record into buf: OK (self.size bytes), MISSING, SHORT or CORRUPT.

        A bad file is set aside; a complete temp file left by an interrupted rename is taken.
        The caller decodes the payload and calls reject() when its version or contents fail.
        """
        self.size = 0
        n = self._read(self.name, buf)
        found = MISSING if n == -1 else UNREADABLE if n == -2 else check(buf, n, self.kind)
        if found == OK:
            self._drop_temps()
            self.size = n
            self.found = OK
            return OK
        if found != MISSING:
            self.set_aside()
        if self._take_temp(self.temp, buf) or self._take_other_temp(buf):
            self._drop_temps()
            self.found = OK
            return OK
        self._drop_temps()
        self.found = found
        return found

    def _take_temp(self, temp, buf):
        """A complete record in the temporary file `temp` becomes the record."""
        m = self._read(temp, buf)
        if m < 0 or check(buf, m, self.kind) != OK:
            return False
        try:
            self.storage.rename(temp, self.name)
        except OSError:
            pass  # read it anyway; the next save writes it again
        self.size = m
        return True

    def _take_other_temp(self, buf):
        """A complete temporary file another process (or an older build: NAME.new) left."""
        for temp in self._other_temps():
            if self._take_temp(temp, buf):
                return True
        return False

    def _other_temps(self):
        try:
            names = self.storage.listing()
        except OSError:
            return ()
        found = []
        for name in names:
            if name != self.temp and name.startswith(self.base + ".") and name.endswith(".new"):
                found.append(name)
        found.sort()
        return found

    def _drop_temps(self):
        self._drop_temp()
        for temp in self._other_temps():
            try:
                self.storage.remove(temp)
            except OSError:
                pass

    def _read(self, name, buf):
        try:
            return self.storage.read(name, buf)
        except OSError as e:
            if errno_of(e) == EISDIR:
                return -2  # something there that is not a file (a folder, a pipe)
            return 0  # a file that cannot be read through: taken as cut short

    def _drop_temp(self):
        try:
            self.storage.remove(self.temp)
        except OSError:
            pass

    def reject(self, found):
        """The decoder refused the record just loaded (VERSION or INVALID): set it aside."""
        self.found = found
        self.set_aside()

    def set_aside(self):
        """Rename the current file (or folder, or whatever is at its name) to NAME.bad,
        replacing an older one; when that fails, remove it."""
        storage = self.storage
        try:
            storage.rename(self.name, self.aside)
            return
        except OSError:
            pass
        try:  # a folder cannot replace a file (nor a file a folder): drop the old NAME.bad
            storage.remove(self.aside)
            storage.rename(self.name, self.aside)
            return
        except OSError:
            pass
        try:
            storage.remove(self.name)
        except OSError:
            pass

    def save(self, buf, n):
        """Write buf[0:n] (a finished record) atomically: SAVED, FULL or FAILED."""
        storage = self.storage
        try:
            storage.write(self.temp, buf, n)
            storage.rename(self.temp, self.name)
            return SAVED
        except OSError as e:
            self._drop_temp()
            if errno_of(e) == ENOSPC:
                return FULL
            return FAILED

    def erase(self):
        try:
            self.storage.remove(self.name)
        except OSError:
            pass
        self._drop_temp()


def load_message(title, found):
    """The line the screen shows about a record that could not be used ('' when none), within
    the narrowest screen's line (38 characters): 'Statistics: unknown version, set aside'.
    The record is kept beside the new one (NAME.bad) and play goes on from the defaults."""
    if found == OK or found == MISSING:
        return ""
    return title + ": " + PROBLEMS[found] + ", set aside"


# --- settings ---

# name, default, lowest, highest: two bytes each in the record.
SETTINGS = (
    ("sound", 1, 0, 1),
    ("card_back", 0, 0, 15),
    ("bot_speed", 1, 0, 2),
    ("bot_level", 1, 0, 2),
    ("jokers", 0, 0, 1),
    ("target", 0, 0, 10000),  # 0: the game's own default
    ("auto_play", 1, 0, 1),
    ("kiosk", 0, 0, 1),
    ("kiosk_idle_s", 90, 10, 3600),  # idle time before the demo starts or play is abandoned
    ("last_game", 0, 0, 15),
    ("two_buttons", 0, 0, 1),  # the interface's A-and-B-only scheme
    ("casket_rules", 2, 1, 2),  # the rule profile a new Casket deal plays
    ("winnable", 0, 0, 1),  # new deals only among those the solver proved winnable
    ("slide", 1, 0, 1),  # a moved card slides to its pile
    ("dim_s", 30, 0, 3600),  # the device's backlight dims after this long without a key; 0: never
    ("screen_off_s", 180, 0, 36000),  # and its panel goes off (game saved); 0: never
)
SETTINGS_VERSION = const(1)
KIND_SETTINGS = const(0x53)  # 'S'


class Settings:
    """The player's settings by index (see SETTINGS); defaults until loaded."""

    def __init__(self):
        self.values = array("H", [0] * len(SETTINGS))
        self.reset()

    def reset(self):
        for i in range(len(SETTINGS)):
            self.values[i] = SETTINGS[i][1]

    @staticmethod
    def index(name):
        for i in range(len(SETTINGS)):
            if SETTINGS[i][0] == name:
                return i
        raise KeyError(name)

    def get(self, name):
        return self.values[Settings.index(name)]

    def set(self, name, value):
        """Set a setting; ValueError when value is outside its range."""
        i = Settings.index(name)
        if value < SETTINGS[i][2] or value > SETTINGS[i][3]:
            raise ValueError(name)
        self.values[i] = value

    def encode(self, buf):
        pos = begin(buf, KIND_SETTINGS, SETTINGS_VERSION)
        buf[pos] = len(SETTINGS)
        pos += 1
        for i in range(len(SETTINGS)):
            pos = put_u16(buf, pos, self.values[i])
        return finish(buf, pos)

    def decode(self, buf, n):
        """OK, VERSION or INVALID; the values change only on OK (read with READER, every
        value within its setting's range, then taken).

        A record from an older build with fewer fields keeps the defaults of the newer ones.
        """
        if buf[3] != SETTINGS_VERSION:
            return VERSION
        rd = READER.start(buf, HEADER, n - 4)
        count = rd.u8(0, len(SETTINGS))
        for i in range(count):
            rd.u16(SETTINGS[i][2], SETTINGS[i][3])
        if not rd.done():
            return INVALID
        self.reset()
        for i in range(count):
            self.values[i] = get_u16(buf, HEADER + 1 + 2 * i)
        return OK


# --- statistics ---

# Per game, at the game's registry id (engine_core.games.game_id); four bytes each.
PLAYED = const(0)  # games finished or abandoned after a move
WON = const(1)
STREAK = const(2)  # current winning streak (0 after a loss)
BEST_STREAK = const(3)
BEST_TIME_MS = const(4)  # fastest win by the game clock (0: none yet)
FEWEST_MOVES = const(5)  # fewest moves in a win (0: none yet)
MATCHES = const(6)  # competitive games: matches (or games to the target) finished
MATCHES_WON = const(7)
BEST_SCORE = const(8)  # competitive games: the player's best final score
STAT_FIELDS = const(9)
STAT_GAMES = const(8)  # room for more games than the five: the registry's ids are below it (games.ID_LIMIT)
STATS_VERSION = const(1)
KIND_STATS = const(0x54)  # 'T'
_MAX = const(0x3FFFFFFF)


def _counts_agree(buf, at, fields):
    """One game's counters as play keeps them: wins within games, streaks within wins, matches
    won within matches; each pair checked when both are in the record (an older build's
    record has fewer fields)."""
    return (_within(buf, at, fields, WON, PLAYED) and _within(buf, at, fields, BEST_STREAK, WON)
            and _within(buf, at, fields, STREAK, BEST_STREAK)
            and _within(buf, at, fields, MATCHES_WON, MATCHES))


def _within(buf, at, fields, part, whole):
    """Counter `part` is at most counter `whole`, or one of them is not in the record."""
    return part >= fields or whole >= fields or get_i32(buf, at + 4 * part) <= get_i32(buf, at + 4 * whole)


class Statistics:
    """Counters per game (fields above) in one array of STAT_GAMES * STAT_FIELDS ints."""

    def __init__(self):
        self.values = array("i", [0] * (STAT_GAMES * STAT_FIELDS))

    def reset(self):
        for i in range(len(self.values)):
            self.values[i] = 0

    def get(self, game, field):
        return self.values[game * STAT_FIELDS + field]

    def _set(self, game, field, value):
        if value > _MAX:
            value = _MAX
        self.values[game * STAT_FIELDS + field] = value

    def record_game(self, game, won, time_ms, moves):
        """A game finished (or abandoned: won False). No allocation."""
        self._set(game, PLAYED, self.get(game, PLAYED) + 1)
        if not won:
            self._set(game, STREAK, 0)
            return
        self._set(game, WON, self.get(game, WON) + 1)
        streak = self.get(game, STREAK) + 1
        self._set(game, STREAK, streak)
        if streak > self.get(game, BEST_STREAK):
            self._set(game, BEST_STREAK, streak)
        best = self.get(game, BEST_TIME_MS)
        if time_ms > 0 and (best == 0 or time_ms < best):
            self._set(game, BEST_TIME_MS, time_ms)
        fewest = self.get(game, FEWEST_MOVES)
        if moves > 0 and (fewest == 0 or moves < fewest):
            self._set(game, FEWEST_MOVES, moves)

    def record_match(self, game, won, score):
        """A competitive match finished with the player's final score."""
        matches = self.get(game, MATCHES)
        self._set(game, MATCHES, matches + 1)
        if won:
            self._set(game, MATCHES_WON, self.get(game, MATCHES_WON) + 1)
        if matches == 0 or score > self.get(game, BEST_SCORE):
            self._set(game, BEST_SCORE, score)

    def encode(self, buf):
        pos = begin(buf, KIND_STATS, STATS_VERSION)
        buf[pos] = STAT_GAMES
        buf[pos + 1] = STAT_FIELDS
        pos += 2
        for i in range(len(self.values)):
            pos = put_i32(buf, pos, self.values[i])
        return finish(buf, pos)

    def decode(self, buf, n):
        """OK, VERSION or INVALID; the values change only on OK (read with READER: counters
        0 .. 2**30 - 1, a best score from -100,000, then the counts checked to agree)."""
        if buf[3] != STATS_VERSION:
            return VERSION
        rd = READER.start(buf, HEADER, n - 4)
        games = rd.u8(0, STAT_GAMES)
        fields = rd.u8(0, STAT_FIELDS)
        for i in range(games * fields):
            rd.i32(-100000 if i % fields == BEST_SCORE else 0, _MAX)
        if not rd.done():
            return INVALID
        for g in range(games):
            if not _counts_agree(buf, HEADER + 2 + 4 * g * fields, fields):
                return INVALID
        self.reset()
        for g in range(games):
            for f in range(fields):
                self.values[g * STAT_FIELDS + f] = get_i32(buf, HEADER + 2 + 4 * (g * fields + f))
        return OK
