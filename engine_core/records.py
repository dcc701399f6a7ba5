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


# CRC-32 (IEEE 802.3, reflected, polynomial 0xEDB88320), its table entry for each byte kept as
# two 16-bit halves, each as two bytes (so that neither the table nor the running value needs
# ints >= 2**30): CRC_LL and CRC_LH the low half's low and high bytes, CRC_HL and CRC_HH the
# high half's. Constant bytes: frozen into the firmware they stay in flash, not in the heap.
CRC_LL = (
    b"\x00\x96\x2c\xba\x19\x8f\x35\xa3\x32\xa4\x1e\x88\x2b\xbd\x07\x91\x64\xf2\x48\xde\x7d\xeb\x51\xc7\x56\xc0\x7a"
    b"\xec\x4f\xd9\x63\xf5\xc8\x5e\xe4\x72\xd1\x47\xfd\x6b\xfa\x6c\xd6\x40\xe3\x75\xcf\x59\xac\x3a\x80\x16\xb5\x23"
    b"\x99\x0f\x9e\x08\xb2\x24\x87\x11\xab\x3d\x90\x06\xbc\x2a\x89\x1f\xa5\x33\xa2\x34\x8e\x18\xbb\x2d\x97\x01\xf4"
    b"\x62\xd8\x4e\xed\x7b\xc1\x57\xc6\x50\xea\x7c\xdf\x49\xf3\x65\x58\xce\x74\xe2\x41\xd7\x6d\xfb\x6a\xfc\x46\xd0"
    b"\x73\xe5\x5f\xc9\x3c\xaa\x10\x86\x25\xb3\x09\x9f\x0e\x98\x22\xb4\x17\x81\x3b\xad\x20\xb6\x0c\x9a\x39\xaf\x15"
    b"\x83\x12\x84\x3e\xa8\x0b\x9d\x27\xb1\x44\xd2\x68\xfe\x5d\xcb\x71\xe7\x76\xe0\x5a\xcc\x6f\xf9\x43\xd5\xe8\x7e"
    b"\xc4\x52\xf1\x67\xdd\x4b\xda\x4c\xf6\x60\xc3\x55\xef\x79\x8c\x1a\xa0\x36\x95\x03\xb9\x2f\xbe\x28\x92\x04\xa7"
    b"\x31\x8b\x1d\xb0\x26\x9c\x0a\xa9\x3f\x85\x13\x82\x14\xae\x38\x9b\x0d\xb7\x21\xd4\x42\xf8\x6e\xcd\x5b\xe1\x77"
    b"\xe6\x70\xca\x5c\xff\x69\xd3\x45\x78\xee\x54\xc2\x61\xf7\x4d\xdb\x4a\xdc\x66\xf0\x53\xc5\x7f\xe9\x1c\x8a\x30"
    b"\xa6\x05\x93\x29\xbf\x2e\xb8\x02\x94\x37\xa1\x1b\x8d")
CRC_LH = (
    b"\x00\x30\x61\x51\xc4\xf4\xa5\x95\x88\xb8\xe9\xd9\x4c\x7c\x2d\x1d\x10\x20\x71\x41\xd4\xe4\xb5\x85\x98\xa8\xf9"
    b"\xc9\x5c\x6c\x3d\x0d\x20\x10\x41\x71\xe4\xd4\x85\xb5\xa8\x98\xc9\xf9\x6c\x5c\x0d\x3d\x30\x00\x51\x61\xf4\xc4"
    b"\x95\xa5\xb8\x88\xd9\xe9\x7c\x4c\x1d\x2d\x41\x71\x20\x10\x85\xb5\xe4\xd4\xc9\xf9\xa8\x98\x0d\x3d\x6c\x5c\x51"
    b"\x61\x30\x00\x95\xa5\xf4\xc4\xd9\xe9\xb8\x88\x1d\x2d\x7c\x4c\x61\x51\x00\x30\xa5\x95\xc4\xf4\xe9\xd9\x88\xb8"
    b"\x2d\x1d\x4c\x7c\x71\x41\x10\x20\xb5\x85\xd4\xe4\xf9\xc9\x98\xa8\x3d\x0d\x5c\x6c\x83\xb3\xe2\xd2\x47\x77\x26"
    b"\x16\x0b\x3b\x6a\x5a\xcf\xff\xae\x9e\x93\xa3\xf2\xc2\x57\x67\x36\x06\x1b\x2b\x7a\x4a\xdf\xef\xbe\x8e\xa3\x93"
    b"\xc2\xf2\x67\x57\x06\x36\x2b\x1b\x4a\x7a\xef\xdf\x8e\xbe\xb3\x83\xd2\xe2\x77\x47\x16\x26\x3b\x0b\x5a\x6a\xff"
    b"\xcf\x9e\xae\xc2\xf2\xa3\x93\x06\x36\x67\x57\x4a\x7a\x2b\x1b\x8e\xbe\xef\xdf\xd2\xe2\xb3\x83\x16\x26\x77\x47"
    b"\x5a\x6a\x3b\x0b\x9e\xae\xff\xcf\xe2\xd2\x83\xb3\x26\x16\x47\x77\x6a\x5a\x0b\x3b\xae\x9e\xcf\xff\xf2\xc2\x93"
    b"\xa3\x36\x06\x57\x67\x7a\x4a\x1b\x2b\xbe\x8e\xdf\xef")
CRC_HL = (
    b"\x00\x07\x0e\x09\x6d\x6a\x63\x64\xdb\xdc\xd5\xd2\xb6\xb1\xb8\xbf\xb7\xb0\xb9\xbe\xda\xdd\xd4\xd3\x6c\x6b\x62"
    b"\x65\x01\x06\x0f\x08\x6e\x69\x60\x67\x03\x04\x0d\x0a\xb5\xb2\xbb\xbc\xd8\xdf\xd6\xd1\xd9\xde\xd7\xd0\xb4\xb3"
    b"\xba\xbd\x02\x05\x0c\x0b\x6f\x68\x61\x66\xdc\xdb\xd2\xd5\xb1\xb6\xbf\xb8\x07\x00\x09\x0e\x6a\x6d\x64\x63\x6b"
    b"\x6c\x65\x62\x06\x01\x08\x0f\xb0\xb7\xbe\xb9\xdd\xda\xd3\xd4\xb2\xb5\xbc\xbb\xdf\xd8\xd1\xd6\x69\x6e\x67\x60"
    b"\x04\x03\x0a\x0d\x05\x02\x0b\x0c\x68\x6f\x66\x61\xde\xd9\xd0\xd7\xb3\xb4\xbd\xba\xb8\xbf\xb6\xb1\xd5\xd2\xdb"
    b"\xdc\x63\x64\x6d\x6a\x0e\x09\x00\x07\x0f\x08\x01\x06\x62\x65\x6c\x6b\xd4\xd3\xda\xdd\xb9\xbe\xb7\xb0\xd6\xd1"
    b"\xd8\xdf\xbb\xbc\xb5\xb2\x0d\x0a\x03\x04\x60\x67\x6e\x69\x61\x66\x6f\x68\x0c\x0b\x02\x05\xba\xbd\xb4\xb3\xd7"
    b"\xd0\xd9\xde\x64\x63\x6a\x6d\x09\x0e\x07\x00\xbf\xb8\xb1\xb6\xd2\xd5\xdc\xdb\xd3\xd4\xdd\xda\xbe\xb9\xb0\xb7"
    b"\x08\x0f\x06\x01\x65\x62\x6b\x6c\x0a\x0d\x04\x03\x67\x60\x69\x6e\xd1\xd6\xdf\xd8\xbc\xbb\xb2\xb5\xbd\xba\xb3"
    b"\xb4\xd0\xd7\xde\xd9\x66\x61\x68\x6f\x0b\x0c\x05\x02")
CRC_HH = (
    b"\x00\x77\xee\x99\x07\x70\xe9\x9e\x0e\x79\xe0\x97\x09\x7e\xe7\x90\x1d\x6a\xf3\x84\x1a\x6d\xf4\x83\x13\x64\xfd"
    b"\x8a\x14\x63\xfa\x8d\x3b\x4c\xd5\xa2\x3c\x4b\xd2\xa5\x35\x42\xdb\xac\x32\x45\xdc\xab\x26\x51\xc8\xbf\x21\x56"
    b"\xcf\xb8\x28\x5f\xc6\xb1\x2f\x58\xc1\xb6\x76\x01\x98\xef\x71\x06\x9f\xe8\x78\x0f\x96\xe1\x7f\x08\x91\xe6\x6b"
    b"\x1c\x85\xf2\x6c\x1b\x82\xf5\x65\x12\x8b\xfc\x62\x15\x8c\xfb\x4d\x3a\xa3\xd4\x4a\x3d\xa4\xd3\x43\x34\xad\xda"
    b"\x44\x33\xaa\xdd\x50\x27\xbe\xc9\x57\x20\xb9\xce\x5e\x29\xb0\xc7\x59\x2e\xb7\xc0\xed\x9a\x03\x74\xea\x9d\x04"
    b"\x73\xe3\x94\x0d\x7a\xe4\x93\x0a\x7d\xf0\x87\x1e\x69\xf7\x80\x19\x6e\xfe\x89\x10\x67\xf9\x8e\x17\x60\xd6\xa1"
    b"\x38\x4f\xd1\xa6\x3f\x48\xd8\xaf\x36\x41\xdf\xa8\x31\x46\xcb\xbc\x25\x52\xcc\xbb\x22\x55\xc5\xb2\x2b\x5c\xc2"
    b"\xb5\x2c\x5b\x9b\xec\x75\x02\x9c\xeb\x72\x05\x95\xe2\x7b\x0c\x92\xe5\x7c\x0b\x86\xf1\x68\x1f\x81\xf6\x6f\x18"
    b"\x88\xff\x66\x11\x8f\xf8\x61\x16\xa0\xd7\x4e\x39\xa7\xd0\x49\x3e\xae\xd9\x40\x37\xa9\xde\x47\x30\xbd\xca\x53"
    b"\x24\xba\xcd\x54\x23\xb3\xc4\x5d\x2a\xb4\xc3\x5a\x2d")
_crc = array("H", [0, 0])  # the last checksum: high half, low half


def crc32_parts(buf, start, end, out):
    """CRC-32 of buf[start:end] into out[0] (high 16 bits) and out[1] (low 16 bits).

    The same value as zlib.crc32 (b"123456789" gives 0xCBF4, 0x3926). No allocation.
    """
    lo = 0xFFFF
    hi = 0xFFFF
    ll = CRC_LL
    lh = CRC_LH
    hl = CRC_HL
    hh = CRC_HH
    for i in range(start, end):
        k = (lo ^ buf[i]) & 0xFF
        lo = ((lo >> 8) | ((hi & 0xFF) << 8)) ^ (lh[k] << 8 | ll[k])
        hi = (hi >> 8) ^ (hh[k] << 8 | hl[k])
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
        self.whole = False  # NAME.dat holds a whole record (loaded or saved since power-on)

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
            self.whole = True
            return OK
        if found != MISSING:
            self.set_aside()
        if self._take_temp(self.temp, buf) or self._take_other_temp(buf):
            self._drop_temps()
            self.found = OK
            self.whole = True
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
        self.whole = False
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

    def save(self, buf, n, again=True):
        """Write buf[0:n] (a finished record) atomically: SAVED, FULL or FAILED.

        Where the backend replaces a whole file at once (`storage.atomic`: littlefs commits a
        file's new contents when it is closed, the old ones until then) a whole record is
        rewritten in place: one commit instead of three (create, close, rename), a save in a
        third of the time. A first record still goes through the temporary file, so that a cut
        never leaves an empty NAME.dat. Something at the temporary name that is not a file (a
        folder) would refuse every save: it is set aside as NAME.bad and the save tried again."""
        storage = self.storage
        direct = self.whole and getattr(storage, "atomic", False)
        try:
            if direct:
                storage.write(self.name, buf, n)
            else:
                storage.write(self.temp, buf, n)
                storage.rename(self.temp, self.name)
            self.whole = True
            return SAVED
        except OSError as e:
            if not direct:
                self._drop_temp()
                if again and storage.exists(self.temp) and self._temp_aside():  # (a file: dropped)
                    return self.save(buf, n, False)
            if errno_of(e) == ENOSPC:
                return FULL
            return FAILED

    def _temp_aside(self):
        """Move what is at the temporary name to NAME.bad (replacing an older one); True when
        the name is free then."""
        storage = self.storage
        try:
            storage.remove(self.aside)
        except OSError:
            pass
        try:
            storage.rename(self.temp, self.aside)
            return True
        except OSError:
            return False

    def erase(self):
        self.whole = False
        try:
            self.storage.remove(self.name)
        except OSError:
            pass
        self._drop_temp()


def load_message(title, found):
    """The line the screen shows about a record that could not be used ('' when none), within
    a 240-pixel screen's line (38 characters; two lines on a narrower screen): 'Statistics:
    unknown version, set aside'.
    The record is kept beside the new one (NAME.bad) and play goes on from the defaults."""
    if found == OK or found == MISSING:
        return ""
    return title + ": " + PROBLEMS[found] + ", set aside"


# --- settings ---

# name, default, lowest, highest: two bytes each in the record.
SETTINGS = (
    ("sound", 1, 0, 1),
    ("card_back", 0, 0, 15),
    ("bot_speed", 3, 0, 4),  # Nerts's speed level (nerts_bot.SPEEDS): Quick by default
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
    ("nerts_players", 2, 2, 4),  # how many play a new deal of Nerts (older records: 2)
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
