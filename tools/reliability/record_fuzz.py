"""The record mutator: records that are well formed and mean harm.

For each kind of record the console reads (settings, statistics, the saved game and the undo
journal of every game, and a link's STATE of the games played over the link) it makes real
records from played games, then, mutation after mutation, decodes one into its fields (the
layouts of engine_core/records.py, game_record.py and undo_record.py), changes some (a value
out of range or at its edge, a count, a journal entry's kind or a MARK's move code, a pile's
size, a card swapped, duplicated or replaced, a field added or dropped), writes it back with
its length and CRC right, and loads it the way the console does: the Keeper at power-on
(start() and resume(), as the simulator, the page and the device start), or the guest taking
a STATE (link/transfer.py, Transfer.acceptable). A mutation passes when nothing raises and either
- the record is refused: its notice said, the file set aside as NAME.bad, and what it would
  have changed as it was (defaults, no saved game, nothing to undo, the guest's table); or
- it is taken, and what was loaded holds: settings within their ranges, statistics whose
  counts agree, a game with every card exactly once and the position its own check
  accepts, every move of its journal undone and made again to the same position, a move
  made and undone to the same position.

Runs on CPython and on MicroPython (nothing beyond the engine and faults.py; its own
generator, so a seed makes the same mutations on both).

    python -m tools.reliability.record_fuzz --count N [--seed S]    N mutations of each kind
    python -m tools.reliability.record_fuzz --micropython [unix|wasm] --count N   on MicroPython
    run(count, seed)           from a script (a MicroPython guest too): counts, see new_counts
The soak runs 100,000 of each record format (settings, statistics, game, undo, STATE; a
format's count shared among its games: soak_suite): 19 minutes of CPU on CPython and 36 on
the unix port, measured (its real time there is longer: each guest deals its base records).
"""

import sys
from array import array

from engine_core import PLAYING, games
from engine_core import history as hist
from engine_core import records as r
from engine_core.game import Game
from engine_core.game_record import encode_game, restore_game
from engine_core.link import transfer
from engine_core.save import Keeper
from engine_core.storage import MemoryStorage
from engine_core.ui.layouts import THEIRS

GAMES = ("aces_up", "sir_tommy", "casket", "spite_malice", "nerts")
LINKED = ("spite_malice", "nerts")  # the games a link plays: their STATE
KINDS = (("settings", "stats") + tuple("game." + g for g in GAMES)
         + tuple("undo." + g for g in GAMES) + tuple("state." + g for g in LINKED))
# The record formats, each the kinds it covers: a soak's count per format is shared evenly
# among its kinds (the game record's 100,000 are 20,000 for each game).
FORMATS = (("settings", ("settings",)), ("statistics", ("stats",)),
           ("game", tuple("game." + g for g in GAMES)), ("undo", tuple("undo." + g for g in GAMES)),
           ("state", tuple("state." + g for g in LINKED)))
BASES = 2  # real records of each kind, from different deals
BUF = 2048
U8 = 1
U16 = 2
I32 = 4
CARD = 5  # a byte that is a card
CONSOLE_ONE_IN = 6  # mutations loaded through a whole console (the others: the Keeper)

# Values a mutated field takes besides its neighbours: edges of every width and of the
# ranges the formats declare (a byte over 255 reaches an i32 field only).
EDGES = (0, 1, 2, 3, 4, 5, 13, 52, 53, 54, 100, 127, 128, 255, 256, 300, 1000, 65535, 65536,
         0x3FFFFFFF, -1, -2, -255, -256, -100000, -100001, -0x40000000)


class Rand:
    """A small generator, the same on both runtimes (30-bit state)."""

    def __init__(self, seed):
        self.x = (seed * 2654435761 + 1) & 0x3FFFFFFF or 1

    def below(self, n):
        self.x = (self.x * 1103515245 + 12345) & 0x3FFFFFFF
        return (self.x >> 7) % n if n > 0 else 0


# --- real records ---

def played(name, seed, moves, rand):
    """A game of `name` dealt from seed with up to `moves` random legal moves."""
    cls = games.load(name)
    game = cls(cls.MIN_PLAYERS)
    game.deal(seed)
    out = array("i", [0] * cls.MAX_MOVES)
    for _ in range(moves):
        if game.status() != PLAYING:
            break
        n = game.legal_moves(out)
        if n == 0:
            game.tick(500)
            continue
        game.apply(out[rand.below(n)])
        game.respond()
        game.tick(rand.below(600))
    return game


def base_disk(name, seed, rand):
    """A disk with all four records of a played game of `name`; (disk, game)."""
    disk = MemoryStorage(files=10, size=BUF)
    keeper = Keeper(disk)
    keeper.start()
    keeper.settings.set("card_back", 1 + seed % 7)
    keeper.settings.set("target", 100 + seed)
    keeper.save_settings()
    keeper.stats.record_game(0, True, 61000, 80)
    keeper.stats.record_game(1, False, 0, 12)
    keeper.stats.record_match(3, True, 42)
    keeper.save_stats()
    game = played(name, seed, 25 + seed % 40, rand)
    while game.status() != PLAYING or game.history.moves < 3:  # a journal to mutate
        seed += 1
        game = played(name, seed, 25 + seed % 40, rand)
    keeper.moves = 30
    keeper.save_game(game)
    return disk, game


def read(disk, file_name):
    buf = bytearray(BUF)
    n = disk.read(file_name, buf)
    return buf, n


# --- the layouts, as lists of fields (offset, width) ---

def fields_of(kind, buf, n):
    """The payload's fields of a record of `kind` (settings, stats, game, undo): a list of
    (offset, width, part), widths U8, U16, I32 or CARD, in order; part numbers the record's
    parts (a game record: the fixed fields, variables, pile sizes, cards, saved attributes),
    so that a mutation reaches a short part as often as a long one. Trusts nothing but n."""
    out = []
    pos = r.HEADER
    end = n - 4
    part = [0]

    def add(width, count=1):
        nonlocal pos
        for _ in range(count):
            if pos + (width if width != CARD else 1) > end:
                return False
            out.append((pos, width, part[0]))
            pos += width if width != CARD else 1
        part[0] += 1
        return True

    if kind == "settings":
        count = buf[pos]
        add(U8) and add(U16, count)
    elif kind == "stats":
        count = buf[pos] * buf[pos + 1]
        add(U8, 2) and add(I32, count)
    elif kind == "game":
        if not (add(U8, 4) and add(I32, 4)):
            return out
        nvars = buf[pos] if pos < end else 0
        if not (add(U8) and add(I32, nvars)):
            return out
        npiles = buf[pos] if pos < end else 0
        sizes = pos + 1
        if not (add(U8) and add(U8, npiles)):
            return out
        total = 0
        for p in range(npiles):
            total += buf[sizes + p]
        if not add(CARD, total):
            return out
        extras = r.get_u16(buf, pos) if pos + 2 <= end else 0
        add(U16) and add(I32, extras)
    elif kind == "undo":
        if not add(U8, 4):  # the game record's CRC, a byte at a time
            return out
        count = r.get_u16(buf, pos) if pos + 2 <= end else 0
        if not (add(U16) and add(I32, count)):
            return out
        if buf[3] == 1:
            return out
        redo = buf[pos] if pos < end else 0
        if add(U8) and add(I32, redo) and add(U16) and buf[3] > 2:
            add(U8, 2)  # the cursor: its slot, the card in a fan
    return out


def get(buf, at, width):
    if width == U8 or width == CARD:
        return buf[at]
    if width == U16:
        return r.get_u16(buf, at)
    return r.get_i32(buf, at)


def put(buf, at, width, value):
    if width == U8 or width == CARD:
        buf[at] = value & 0xFF
    elif width == U16:
        r.put_u16(buf, at, value & 0xFFFF)
    else:
        if value < -0x40000000 or value > 0x3FFFFFFF:
            value = 0x3FFFFFFF if value > 0 else -0x40000000
        r.put_i32(buf, at, value)


# --- mutations ---

def mutate(kind, buf, n, rand):
    """Change buf[0:n], a record of `kind`, in one to three ways; the new size (the length
    and CRC made right). What was done, as short words, is returned too: (size, words)."""
    words = []
    for _ in range(1 + rand.below(3)):
        fields = fields_of(kind, buf, n)
        if not fields:
            break
        n = _one(kind, buf, n, fields, rand, words)
    r.finish(buf, n - 4)
    return n, " ".join(words)


def pick(fields, rand):
    """A field of a part picked at random, then a field of it: (offset, width)."""
    part = fields[rand.below(len(fields))][2] if rand.below(3) == 0 else rand.below(fields[-1][2] + 1)
    first = -1
    count = 0
    for i in range(len(fields)):
        if fields[i][2] == part:
            if first < 0:
                first = i
            count += 1
    if count == 0:
        first = 0
        count = len(fields)
    at, width, _ = fields[first + rand.below(count)]
    return at, width


def _one(kind, buf, n, fields, rand, words):
    way = rand.below(10)
    at, width = pick(fields, rand)
    value = get(buf, at, width)
    if way <= 2:  # a value at an edge
        put(buf, at, width, EDGES[rand.below(len(EDGES))])
        words.append("edge@" + str(at))
    elif way == 3:  # a neighbour
        put(buf, at, width, value + (1 if rand.below(2) else -1))
        words.append("step@" + str(at))
    elif way == 4:  # two fields of the same width swapped (cards, entries, sizes)
        at2, width2 = pick(fields, rand)
        if width2 == width:
            other = get(buf, at2, width2)
            put(buf, at2, width, value)
            put(buf, at, width, other)
        words.append("swap@" + str(at) + "," + str(at2))
    elif way == 5:  # a field copied over another of its width (a card twice)
        at2, width2 = pick(fields, rand)
        if width2 == width:
            put(buf, at2, width, value)
        words.append("copy@" + str(at) + ">" + str(at2))
    elif way == 6 and kind == "undo" and width == I32:  # a journal entry's kind or move code
        a = value & 0xFF if value >= 0 else 0
        b = (value >> 8) & 0xFF if value >= 0 else 0
        c = (value >> 16) & 0xFF if value >= 0 else 0
        makers = (hist.mark_entry(hist.mark_move(value) ^ (1 << rand.below(24)) if value >= 0 else 0),
                  hist.push_entry(b, a), hist.pop_entry(b, a), hist.move_entry(c, b, a),
                  hist.var_entry_lo(c, value), hist.var_entry_hi(c, value), hist.remove_entry(c, b, a),
                  hist.reverse_entry(b, a), hist.mark_entry(0) * (hist.LAST_KIND + 1) + a)  # no kind at all
        put(buf, at, I32, makers[rand.below(len(makers))])
        words.append("entry@" + str(at))
    elif way == 6 and kind == "game" and width == CARD:  # a card replaced by any byte
        buf[at] = rand.below(256)
        words.append("card@" + str(at))
    elif way == 7:  # a pile's size or a count moved one way and another the other
        at2, width2 = pick(fields, rand)
        if width2 == width:
            put(buf, at, width, value + 1)
            put(buf, at2, width, get(buf, at2, width) - 1)
        words.append("shift@" + str(at) + "," + str(at2))
    elif way == 8 and n + width + 4 <= len(buf):  # a field added (the counts unchanged)
        size = 1 if width == CARD else width
        for i in range(n - 1, at - 1, -1):
            buf[i + size] = buf[i]
        n += size
        words.append("grow@" + str(at))
    elif way == 9 and n - 4 > at + 1:  # a field dropped
        size = 1 if width == CARD else width
        for i in range(at, n - size):
            buf[i] = buf[i + size]
        n -= size
        words.append("drop@" + str(at))
    else:
        put(buf, at, width, rand.below(1 << 16) * (1 if rand.below(4) else -1))
        words.append("any@" + str(at))
    return n


# --- the invariants of what was taken ---

def cards_once(game):
    """'' when every card of the game is on the table exactly once, else why not."""
    seen = bytearray(256)
    piles = game.piles
    for p in range(piles.count):
        if piles.size[p] > piles.cap[p]:
            return "pile over capacity"
        for i in range(piles.size[p]):
            c = piles.card(p, i)
            if seen[c] or not game.is_card(c):
                return "a card twice or not the game's: " + str(c)
            seen[c] = 1
    for c in range(256):
        if game.is_card(c) and not seen[c]:
            return "a card missing: " + str(c)
    return ""


def image(game):
    buf = bytearray(BUF)
    n = encode_game(game, 0, buf)
    return bytes(buf[:n])


def game_holds(game):
    """'' when a loaded game is sound: cards once, its own check, a move made and undone."""
    why = cards_once(game) or game.check_position()
    if why:
        return why
    out = array("i", [0] * game.MAX_MOVES)
    if game.status() == PLAYING:
        n = game.legal_moves(out)
        if n:
            before = image(game)
            game.apply(out[0])
            why = cards_once(game)
            if why:
                return "after a move: " + why
            if game.UNDO_BARRIERS and not game.history.moves:
                return ""  # the move ended the game or its deal: undo stops there (UNDO_BARRIERS)
            # The journal's own undo (a game's undo may refuse a move alone: Spite &
            # Malice's computer reply goes back only with the player's move before it).
            if not Game.undo(game) or image(game) != before:
                return "a move made and undone is not the same position"
    return ""


def journal_holds(game):
    """'' when every move of the journal the game's undo reaches undoes, keeping every card
    once, and made again (each legal again) gives back the position it started from."""
    start = image(game)
    h = game.history
    moves = []  # the journal's moves, oldest first
    i = h.mark_before(h.used)
    while i >= 0:
        moves.insert(0, h.move_at(i))
        i = h.mark_before(i)
    held = h.moves
    while game.can_undo():
        if not game.undo():
            break
        why = cards_once(game)
        if why:
            return "after undo: " + why
    for move in moves[len(moves) - (held - h.moves):]:
        if not game.is_legal(move):
            return "redo of an undone move is not legal: " + hex(move)
        game.apply(move)
    if image(game) != start:
        return "undo then redo is not the same position"
    return ""


# --- loading as the console does ---

class Bases:
    """The real records the mutations start from, made once."""

    def __init__(self, seed):
        rand = Rand(seed)
        self.disks = {}
        self.games = {}
        for name in GAMES:
            self.disks[name] = []
            self.games[name] = []
            for b in range(BASES):
                disk, game = base_disk(name, seed * 7 + b * 31 + 3, rand)
                self.disks[name].append(disk)
                self.games[name].append(game)


def copy_disk(disk):
    out = MemoryStorage(files=10, size=BUF)
    buf = bytearray(BUF)
    for name in disk.listing():
        n = disk.read(name, buf)
        out.write(name, buf, n)
    return out


def notices(keeper):
    out = []
    while True:
        text = keeper.take_notice()
        if not text:
            return out
        out.append(text)


def trial(kind, bases, rand):
    """One mutation of one record of `kind`: ('refused' | 'accepted', '') or ('failure', why)."""
    part = kind.split(".")[0]
    game_name = kind.split(".")[1] if "." in kind else GAMES[rand.below(len(GAMES))]
    b = rand.below(BASES)
    disk = copy_disk(bases.disks[game_name][b])
    original = bases.games[game_name][b]
    file_name = {"settings": "settings.dat", "stats": "stats.dat", "game": "game.dat",
                 "undo": "undo.dat", "state": "game.dat"}[part]
    buf, n = read(disk, file_name)
    layout = "game" if part == "state" else part
    n, words = mutate(layout, buf, n, rand)
    if part == "state":
        return _state(buf, n, original, words)
    disk.write(file_name, buf, n)
    if part != "state" and rand.below(CONSOLE_ONE_IN) == 0:
        return _through_the_console(disk, file_name, words, rand)
    keeper = Keeper(disk)
    keeper.start()
    game = keeper.resume()
    said = notices(keeper)
    base = file_name[:-4]
    aside = base + ".bad"
    if part == "settings" or part == "stats":
        record = keeper.settings if part == "settings" else keeper.stats
        if said and said[0].endswith("set aside"):
            fresh = r.Settings() if part == "settings" else r.Statistics()
            if not disk.exists(aside) or disk.exists(file_name):
                return "failure", words + ": refused but not set aside"
            if list(record.values) != list(fresh.values):
                return "failure", words + ": refused but not at the defaults"
            return "refused", ""
        if said:
            return "failure", words + ": " + said[0]
        return _record_holds(part, record, words)
    if part == "game":
        if game is None:
            if not said or not disk.exists(aside) or disk.exists(file_name):
                return "failure", words + ": no game, but not said and set aside: " + str(said)
            return "refused", ""
        why = game_holds(game)
        if not why and game.can_undo():
            why = journal_holds(game)
        return ("failure", words + ": taken, but " + why) if why else ("accepted", "")
    # the undo journal: the game itself always resumes
    if game is None:
        return "failure", words + ": the game did not resume: " + str(said)
    if image(game) != image(original):
        return "failure", words + ": the resumed game is not the saved one"
    if said:
        if disk.exists(file_name) or game.can_undo():
            return "failure", words + ": journal refused but kept: " + str(said)
        return "refused", ""
    if not game.can_undo():
        return "refused", ""  # dropped as another save's (its CRC), as a power cut leaves one
    if game.UNDO_OWN:
        again = Keeper(disk)
        again.start()
        other = again.resume()
        if other is not None:
            other.take_back(0)
            why = cards_once(other)
            if why:
                return "failure", words + ": after a take-back: " + why
    why = journal_holds(game)
    return ("failure", words + ": taken, but " + why) if why else ("accepted", "")


def _through_the_console(disk, file_name, words, rand):
    """The mutated record met as a person meets it: a real console started on the disk (as
    the simulator, the page and the device start), then Y, the pause menu's Redo and random
    keys on whatever it resumed. Nothing may raise; every card of its game stays once."""
    from tools.reliability.restarts import new_console, press_randomly
    console = new_console(disk)
    said = console.notice
    if said.endswith(b"set aside") and disk.exists(file_name):
        return "failure", words + ": said set aside, but still there"
    table = console.app.table
    if console.app.resumable and table is not None:
        hand = table.hand
        if hand.cursor >= table.slots.count or table.slots.how[hand.cursor] & THEIRS:
            return "failure", words + ": the cursor resumed on slot " + str(hand.cursor)
        for _ in range(3):
            table.press_undo()
            why = cards_once(table.game)
            if why:
                return "failure", words + ": after Y on the console: " + why
        table.press_redo()
    for _ in range(12):
        press_randomly(console, rand, 0)
        game = console.app.table.game if console.app.table is not None else None
        why = cards_once(game) if game is not None else ""
        if why:
            return "failure", words + ": after a key on the console: " + why
    return ("refused" if said else "accepted"), ""


def _record_holds(part, record, words):
    if part == "settings":
        for i in range(len(r.SETTINGS)):
            v = record.values[i]
            if v < r.SETTINGS[i][2] or v > r.SETTINGS[i][3]:
                return "failure", words + ": a setting out of range taken: " + r.SETTINGS[i][0]
        return "accepted", ""
    for g in range(r.STAT_GAMES):
        at = g * r.STAT_FIELDS
        v = record.values
        if not (0 <= v[at + r.WON] <= v[at + r.PLAYED] and v[at + r.STREAK] <= v[at + r.BEST_STREAK]
                and v[at + r.BEST_STREAK] <= v[at + r.WON] and v[at + r.MATCHES_WON] <= v[at + r.MATCHES]):
            return "failure", words + ": statistics whose counts disagree taken"
    return "accepted", ""


class _Session:
    """What the guest's link session's Transfer (link/transfer.py) reads of it: its game and
    seat (seat 1, the guest's)."""

    def __init__(self, game):
        self.game = game
        self.my_seat = 1
        self.party = False  # a two-console table (a party table's guest checks the same pile)
        self.is_host = False  # the guest loads states; a host watches no pile of its own


def _transfer(buf, n, game):
    """The guest's Transfer holding the received record, its own payoff pile as its moves left it."""
    t = transfer.Transfer(_Session(game))
    t.sbuf = buf
    t.r_total = n
    return t


def _state(buf, n, original, words):
    """The guest takes a STATE: its table is the host's game before the mutation (the two
    agreed, so the guest's own payoff pile is the one its moves left), played a move on (a
    guest's journal to keep when the STATE is refused)."""
    cls = type(original)
    guest = cls(original.players, original.options)
    guest.deal(original.seed)
    agreed = bytearray(BUF)
    if restore_game(guest, agreed, encode_game(original, 0, agreed), bytearray(256)) != r.OK:
        return "failure", words + ": the unmutated record does not load"
    hint = guest.hint() if hasattr(guest, "hint") else -1
    if hint is not None and hint >= 0 and guest.is_legal(hint):
        guest.apply(hint)
    before = image(guest)
    moves = guest.history.moves
    if not _transfer(buf, n, guest).acceptable(guest):
        if image(guest) != before or guest.history.moves != moves:
            return "failure", words + ": STATE refused but the guest's table changed"
        return "refused", ""
    why = game_holds(guest)
    return ("failure", words + ": STATE taken, but " + why) if why else ("accepted", "")


def new_counts(kinds=KINDS):
    """The counts run() returns: 'refused', 'accepted', 'failures', 'first' (the first
    failure's kind, mutation and why; '' when none) and 'kinds' {kind: [refused, accepted,
    failures]}."""
    counts = {"refused": 0, "accepted": 0, "failures": 0, "first": "", "kinds": {}}
    for kind in kinds:
        counts["kinds"][kind] = [0, 0, 0]
    return counts


def step(kind, i, bases, rand, counts, log=None):
    """Mutation i of `kind`, counted."""
    try:
        outcome, why = trial(kind, bases, rand)
    except Exception as e:  # the finding itself: a record that raises
        outcome = "failure"
        why = "raised " + type(e).__name__ + ": " + str(e)
    per = counts["kinds"][kind]
    if outcome == "failure":
        counts["failures"] += 1
        per[2] += 1
        if not counts["first"]:
            counts["first"] = kind + " #" + str(i) + " " + why
        if log is not None:
            log(kind + " #" + str(i) + " " + why)
    else:
        counts[outcome] += 1
        per[0 if outcome == "refused" else 1] += 1


def per_format(count):
    """{kind: mutations} for `count` mutations of each record format (FORMATS)."""
    out = {}
    for _, kinds in FORMATS:
        for kind in kinds:
            out[kind] = count // len(kinds)
    return out


def run(count, seed=1, kinds=KINDS, log=None):
    """`count` mutations of each kind in `kinds`, or count[kind] of each when count is a dict
    (see new_counts)."""
    bases = Bases(seed)
    rand = Rand(seed)
    counts = new_counts(kinds)
    for kind in kinds:
        for i in range(count[kind] if isinstance(count, dict) else count):
            step(kind, i, bases, rand, counts, log)
    return counts


# For a MicroPython guest (tools/mpy.py): COUNT mutations of each kind from SEED. The
# WebAssembly build's heap does not last much beyond 300 mutations in one guest (its
# collector frees live objects once the heap has filled: tools/mpy.py), so longer runs there
# are many guests of MPY_CHUNK each (run_micropython_chunks).
MPY_RUN = """
from tools.reliability import record_fuzz
counts = record_fuzz.run(COUNT, SEED)
for k in ("failures", "refused", "accepted", "first"):
    print(k + "=" + str(counts[k]))
for k in record_fuzz.KINDS:
    print(k + ":" + " ".join(str(v) for v in counts["kinds"][k]))
"""
MPY_CHUNK = 15  # mutations of each kind in one WebAssembly guest
UNIX_CHUNK = 500  # and in one guest of the unix port


def run_micropython_chunks(count, seed=1, runtime="wasm"):
    """`count` mutations of each kind (or count[kind] of each, a dict) on MicroPython (a
    runtime of tools/mpy.py), in guests of about MPY_CHUNK of each kind on WebAssembly (its heap
    does not last longer) or UNIX_CHUNK on the unix port (more of each when fewer kinds are
    left), seeds seed, seed + 1, ...: the counts, as run() gives them. A guest that fails
    counts as a failure with its output."""
    from tools.mpy import run_micropython
    counts = new_counts()
    left = dict(count) if isinstance(count, dict) else dict((kind, count) for kind in KINDS)
    chunk = UNIX_CHUNK if runtime == "unix" else MPY_CHUNK
    while max(left.values()) > 0:
        # A guest deals its base records first: once few kinds are left, each takes a larger
        # share, so a guest makes about as many mutations as one of every kind would.
        share = chunk * len(KINDS) // sum(1 for kind in KINDS if left[kind] > 0)
        n = dict((kind, min(share, left[kind])) for kind in KINDS)
        result = run_micropython(MPY_RUN.replace("COUNT", repr(n)).replace("SEED", str(seed)), fuel=10 ** 13,
                                 runtime=runtime)
        lines = {}
        for line in result.stdout.split("\n"):
            if "=" in line:
                lines[line.split("=", 1)[0]] = line.split("=", 1)[1]
            elif ":" in line:
                lines[line.split(":", 1)[0]] = line.split(":", 1)[1]
        if result.exit_code != 0 or "failures" not in lines:
            counts["failures"] += 1
            counts["first"] = counts["first"] or "guest seed %d: %r" % (seed, result)
        else:
            for k in ("failures", "refused", "accepted"):
                counts[k] += int(lines[k])
            if lines["first"] and not counts["first"]:
                counts["first"] = lines["first"]
            for kind in KINDS:
                values = lines[kind].split()
                for i in range(3):
                    counts["kinds"][kind][i] += int(values[i])
        for kind in KINDS:
            left[kind] -= n[kind]
        seed += 1
    return counts


def soak_suite(count, seed=1, runtime=None):
    """`count` mutations of each record format (per_format) as a row of
    tools/reliability/soak.py's table (ints, 'failures' and 'first'): on CPython (runtime
    None), or on MicroPython's runtime "unix" or "wasm" (run_micropython_chunks)."""
    share = per_format(count)
    counts = run_micropython_chunks(share, seed, runtime) if runtime else run(share, seed)
    row = {"formats": len(FORMATS), "kinds": len(KINDS), "mutations": sum(share.values())}
    for name, kinds in FORMATS:
        row[name] = sum(counts["kinds"][kind][0] + counts["kinds"][kind][1] + counts["kinds"][kind][2]
                        for kind in kinds)
    row.update({"refused": counts["refused"], "accepted": counts["accepted"], "failures": counts["failures"]})
    if counts["first"]:
        row["first"] = counts["first"]
    return row


def main(argv):
    import argparse
    parser = argparse.ArgumentParser(prog="python -m tools.reliability.record_fuzz",
                                     description="Records that are well formed and mean harm: N "
                                     "mutations of each record kind, loaded as the console loads them.")
    parser.add_argument("--count", type=int, default=100, help="mutations of each kind (default 100)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--micropython", nargs="?", const="unix", choices=("unix", "wasm"),
                        help="run on MicroPython: the unix port (default) or the WebAssembly build")
    args = parser.parse_args(argv)
    count, seed, runtime = args.count, args.seed, args.micropython
    counts = run_micropython_chunks(count, seed, runtime) if runtime else run(count, seed, log=print)
    for kind in KINDS:
        refused, accepted, failures = counts["kinds"][kind]
        print("%-20s refused %6d  accepted %6d  failures %d" % (kind, refused, accepted, failures))
    print("failures", counts["failures"], counts["first"])
    return 1 if counts["failures"] else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
