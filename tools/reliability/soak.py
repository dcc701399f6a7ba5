"""The reliability suite: power cuts, corrupt records, button mashing, a memory soak, and
the protocol fuzzer on both runtimes (tools/reliability/fuzz.py). Its MicroPython suites run
on MicroPython's unix port (tools/mpy.py, runtime="unix"; built once by tools/mpy_unix.py).

    python -m tools.reliability.soak                 the full run (make soak): prints the figures
    python -m tools.reliability.soak --update-docs   also writes them into docs/reliability.md
    python -m tools.reliability.soak --quick         the short run that `make test` also makes
    python -m tools.reliability.soak --only NAME     only the suite NAME (at full size; repeatable)
    python -m tools.reliability.soak --jobs N        the suites in N processes (default: one per core)
    python -m tools.reliability.soak --link          only the link play runs (1,000 Spite & Malice
                                                     games and 1,000 Nerts rounds over a faulty link,
                                                     the same with the link cut at random times, and
                                                     1,000,000 messages of a hostile peer:
                                                     tools/reliability/link_fuzz.py)

Each suite returns a dict of counts with a 'failures' entry and, when it failed, 'first' (what
went wrong first); a suite that raises counts as one failure, and the run goes on to the
next. tests/test_reliability.py runs them short and checks that each can fail.
"""

import json
import os
import random
import sys
import time
from array import array

from engine_core import PLAYING, games
from engine_core import records as r
from engine_core.protocol import state_json
from engine_core.save import Keeper
from tools.reliability.faults import FaultyStorage, PowerCut
from tools.reliability import record_fuzz

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

DOCS = os.path.join(ROOT, "docs", "reliability.md")
BEGIN = "<!-- soak:begin -->"
END = "<!-- soak:end -->"

FULL = {"restart_sessions": 10000, "mpy_restart_sessions": 10000,
        "cut_positions": 6, "corruptions": 20000, "ui_events": 1000000, "mash_events": 1000000,
        "mpy_mash_events": 100000, "memory_games": 10000, "fuzz_lines": 100000,
        "link_games": 1000, "link_rounds": 1000, "link_fuzz_messages": 1000000, "link_adversary_frames": 1000000,
        "quality_deals": 100000, "mpy_quality_deals": 10000, "record_mutations": 100000}
QUICK = {"restart_sessions": 200, "mpy_restart_sessions": 4,
         "cut_positions": 1, "corruptions": 600, "ui_events": 6000, "mash_events": 20000,
         "mpy_mash_events": 3000, "memory_games": 40, "fuzz_lines": 1000,
         "link_games": 6, "link_rounds": 6, "link_fuzz_messages": 4000, "link_adversary_frames": 2000,
         "quality_deals": 2000, "mpy_quality_deals": 300, "record_mutations": 50}
QUALITY_START = 1000000  # the soak's deal numbers: not those tests/test_deals.py checks


def player_counts(cls):
    return list(range(cls.MIN_PLAYERS, cls.MAX_PLAYERS + 1))


def played_game(name, seed, moves, players=None):
    """A game of `name` dealt from seed with `moves` random legal moves (and some ticks)."""
    cls = games.load(name)
    game = cls(players or cls.MIN_PLAYERS)
    game.deal(seed)
    rand = random.Random(seed)
    out = array("i", [0] * cls.MAX_MOVES)  # every player's moves (the scratch holds one's in Nerts)
    for _ in range(moves):
        if game.status() != PLAYING:
            break
        n = game.legal_moves(out)
        if n == 0:
            game.tick(500)
            continue
        game.apply(out[rand.randrange(n)])
        game.respond()
        game.tick(rand.randrange(1000))
    return game


# --- the three records, as values that can be compared ---

def settings_values(keeper):
    return list(keeper.settings.values)


def stats_values(keeper):
    return list(keeper.stats.values)


def snapshot(keeper, game):
    """What a restart must find: each record's values (None for no saved game)."""
    return {"settings": settings_values(keeper), "stats": stats_values(keeper),
            "game": state_json(game) if game is not None else None}


def reference_keeper(disk, name="aces_up", seed=3):
    """A Keeper on `disk` with all three records saved (non-default values); returns
    (keeper, game)."""
    keeper = Keeper(disk)
    keeper.start()
    keeper.settings.set("sound", 0)
    keeper.settings.set("card_back", 3)
    keeper.settings.set("target", 250)
    keeper.save_settings()
    keeper.stats.record_game(0, True, 61000, 80)
    keeper.stats.record_game(0, False, 0, 12)
    keeper.stats.record_match(3, True, 42)
    keeper.save_stats()
    game = played_game(name, seed, 15)
    keeper.moves = 15
    keeper.save_game(game)
    return keeper, game


def restart(disk):
    """Power on again: a new Keeper loads everything. Returns (keeper, game, notices)."""
    disk.restart()
    keeper = Keeper(disk)
    keeper.start()
    game = keeper.resume()
    notices = []
    while True:
        text = keeper.take_notice()
        if not text:
            break
        notices.append(text)
    return keeper, game, notices


# --- power cuts ---

def _change(keeper, record, new_game):
    """Save a new version of one record (the power may go during it)."""
    if record == "settings":
        keeper.settings.set("card_back", 7)
        keeper.settings.set("kiosk", 1)
        keeper.save_settings()
    elif record == "stats":
        keeper.stats.record_game(1, True, 90000, 120)
        keeper.save_stats()
    else:
        keeper.save_game(new_game)


def power_cut_suite(names=None, positions=1):
    """For each game, `positions` pairs of old and new games, each record and each storage
    style (rename replaces; FAT's remove-then-rename; littlefs's whole-file rewrite): cut the
    power after every byte of the record's write and before every storage operation of the
    save; after the restart the old or the new state must load, with no message."""
    names = names or games.available()
    counts = {"cuts": 0, "old": 0, "new": 0, "failures": 0}
    for name in names:
        for pair in range(positions):
            for style in STYLES:
                for record in ("game", "settings", "stats"):
                    _cut_every_byte(name, style, record, counts, pair)
    return counts


STYLES = ("replace", "fat", "atomic")


def _disk(style):
    disk = FaultyStorage()
    disk.fat = style == "fat"
    disk.atomic = style == "atomic"
    return disk


def _cut_every_byte(name, style, record, counts, pair=0):
    old_seed = 3 + 7 * pair
    new_game = played_game(name, 11 + 13 * pair, 40 + 9 * pair)
    # Size the experiment: bytes and operations of one uninterrupted save.
    disk = _disk(style)
    keeper, _ = reference_keeper(disk, name, old_seed)
    disk.bytes_written = 0
    disk.ops = 0
    _change(keeper, record, new_game)
    size, ops = disk.bytes_written, disk.ops
    new = restart(disk)
    new_state = snapshot(new[0], new[1])
    cuts = [("byte", k) for k in range(size + 1)] + [("op", j) for j in range(ops + 1)]
    for how, at in cuts:
        disk = _disk(style)
        keeper, old_game = reference_keeper(disk, name, old_seed)
        old_state = snapshot(keeper, old_game)
        if how == "byte":
            disk.cut_after_bytes(at)
        else:
            disk.cut_after_ops(at)
        try:
            _change(keeper, record, new_game)
        except PowerCut:
            pass
        counts["cuts"] += 1
        try:
            after_keeper, after_game, notices = restart(disk)
            state = snapshot(after_keeper, after_game)
        except Exception as e:  # a crash at power-on is a failure
            state, notices = None, [type(e).__name__ + ": " + str(e)]
        if state == old_state and not notices:
            counts["old"] += 1
        elif state == new_state and not notices:
            counts["new"] += 1
        else:
            counts["failures"] += 1
            counts.setdefault("first", "%s %s cut at %s %d (%s): %s" % (
                name, record, how, at, style, notices or "neither the old nor the new state"))


# --- corruption ---

CORRUPTIONS = ("bit flips", "truncation", "garbage", "appended garbage", "wrong version",
               "wrong kind", "zeroed", "checksum fine, contents impossible")


def _reseal(data):
    """Recompute a record's checksum after changing it on purpose."""
    buf = bytearray(data)
    return bytes(buf[:r.finish(buf, len(buf) - 4)])


def corrupt(data, how, rand, record):
    """`data` changed by `how` (never left as it was)."""
    while True:
        bad = _corrupt_once(data, how, rand, record)
        if bad != data:
            return bad


def _corrupt_once(data, how, rand, record):
    data = bytearray(data)
    if how == "bit flips":
        for _ in range(rand.randint(1, 8)):
            i = rand.randrange(len(data) * 8)
            data[i // 8] ^= 1 << (i % 8)
    elif how == "truncation":
        data = data[:rand.randrange(len(data))]
    elif how == "garbage":
        data = bytearray(rand.randrange(256) for _ in range(rand.randint(1, 600)))
    elif how == "appended garbage":
        data += bytearray(rand.randrange(256) for _ in range(rand.randint(1, 40)))
    elif how == "wrong version":
        data[3] = rand.choice([0, 2, 3, 99, 255])
        data = bytearray(_reseal(data))
    elif how == "wrong kind":
        data[2] = rand.choice([k for k in (0, 0x41, 0x47, 0x53, 0x54, 0xFF) if k != data[2]])
        data = bytearray(_reseal(data))
    elif how == "zeroed":
        start = rand.randrange(len(data))
        for i in range(start, min(len(data), start + rand.randint(1, 64))):
            data[i] = 0
    else:
        data = bytearray(_reseal(_impossible(data, rand, record)))
    return bytes(data)


def _impossible(data, rand, record):
    """Contents no save could hold, under a good checksum."""
    body = r.HEADER
    if record == "settings":
        field = rand.randrange(data[body])
        r.put_u16(data, body + 1 + 2 * field, 60000)
    elif record == "stats":
        r.put_i32(data, body + 2 + 4 * rand.randrange(8), -5)  # a negative 'played'
    else:
        start, count = card_span(data)  # the last card becomes a copy of the one before
        data[start + count - 1] = data[start + count - 2]
    return data


def card_span(data):
    """Where the cards of a game record start, and how many there are."""
    pos = r.HEADER + 20
    pos += 1 + 4 * data[pos]  # the vars
    piles = data[pos]
    total = 0
    for p in range(piles):
        total += data[pos + 1 + p]
    return pos + 1 + piles, total


FILES = {"game": "game", "settings": "settings", "stats": "stats"}
TITLES = {"game": "Saved game", "settings": "Settings", "stats": "Statistics"}


def corruption_suite(trials, seed=1):
    """Corrupt one record at random (CORRUPTIONS), power on, and check: no exception, a
    message naming that record, the record back to defaults and set aside as NAME.bad, and
    the other two records exactly as saved."""
    rand = random.Random(seed)
    counts = {"corruptions": 0, "failures": 0}
    for how in CORRUPTIONS:
        counts[how] = 0
    names = games.available()
    defaults = Keeper(FaultyStorage())
    for trial in range(trials):
        record = ("game", "settings", "stats")[trial % 3]
        how = CORRUPTIONS[(trial // 3) % len(CORRUPTIONS)]
        disk = FaultyStorage()
        keeper, game = reference_keeper(disk, names[trial % len(names)], 1 + trial % 50)
        saved = snapshot(keeper, game)
        file = FILES[record] + ".dat"
        buf = bytearray(2048)
        n = disk.read(file, buf)
        bad = corrupt(bytes(buf[:n]), how, rand, record)
        disk.write(file, bad, len(bad))
        counts["corruptions"] += 1
        counts[how] += 1
        problem = _check_after_corruption(disk, record, saved, defaults, bad)
        if problem:
            counts["failures"] += 1
            counts.setdefault("first", "%s of %s: %s" % (how, record, problem))
    return counts


def _check_after_corruption(disk, record, saved, defaults, bad):
    try:
        keeper, game, notices = restart(disk)
        state = snapshot(keeper, game)
    except Exception as e:
        return "raised " + type(e).__name__ + ": " + str(e)
    expected = dict(saved)
    expected[record] = None if record == "game" else snapshot(defaults, None)[record]
    if state != expected:
        return "the records after power-on are not the saved ones with defaults for this one"
    if len(notices) != 1 or not notices[0].startswith(TITLES[record]):
        return "expected one message about it, got %r" % (notices,)
    buf = bytearray(2048)
    if disk.exists(FILES[record] + ".dat"):
        return "the bad file was not set aside"
    n = disk.read(FILES[record] + ".bad", buf)
    if bytes(buf[:max(n, 0)]) != bad[:2048]:
        return "the file set aside is not the bad one"
    return ""


# --- button mashing through the engine ---

def mash_suite(events, seed=1):
    """`events` random events spread over every game and player count, with the card check
    after each (tools/reliability/mash.py)."""
    from tools.reliability.mash import Masher
    setups = [(name, players) for name in games.available() for players in
              player_counts(games.load(name))]
    counts = {"events": 0, "games and player counts": len(setups), "failures": 0}
    x = seed
    for k, (name, players) in enumerate(setups):
        per = events // len(setups) + (1 if k < events % len(setups) else 0)
        cls = games.load(name)
        masher = Masher(cls(players))
        masher.game.deal(seed)
        try:
            x = masher.run(per, x + 1)
        except Exception as e:
            masher.failure = "raised %s: %s" % (type(e).__name__, e)
        counts["events"] += masher.events
        if masher.failure:
            counts["failures"] += 1
            counts.setdefault("first", "%s/%d players after %d events: %s" % (
                name, players, masher.events, masher.failure))
    return counts


MPY_MASH = """
import gc, micropython
from engine_core import games
from tools.reliability.mash import Masher
names = games.available()
mashers = []
for name in names:
    cls = games.load(name)
    m = Masher(cls(cls.MIN_PLAYERS))
    m.game.deal(1)
    mashers.append(m)
SETUP
result = "no allocation"
i = 0
x = SEED
gc.collect()
micropython.heap_lock()
try:
    for i in range(len(mashers)):
        x = mashers[i].run(PER, x + 1)
except MemoryError:
    result = "allocated"
micropython.heap_unlock()
for m in mashers:
    print(m.game.NAME, m.events, m.failure or "-")
print(result)
"""


def mpy_mash_suite(events, seed=1, setup="", runtime="unix"):
    """The masher on real MicroPython under heap_lock: any allocation fails it. `runtime`:
    tools/mpy.py's; the WebAssembly build is 32-bit as the devices are (an int past 2**30
    allocates there), the unix port is 64-bit but lasts any length of run."""
    from tools.mpy import run_micropython
    per = -(-events // len(games.available()))  # rounded up: at least `events` in all
    script = MPY_MASH.replace("SEED", str(seed)).replace("PER", str(per))
    result = run_micropython(script.replace("SETUP", setup), fuel=10 ** 15, runtime=runtime)
    counts = {"events": 0, "failures": 0}
    lines = result.stdout.split("\n")
    if result.exit_code != 0 or "no allocation" not in lines:
        counts["failures"] += 1
        counts["first"] = (result.stdout + result.stderr)[-400:]
    for line in lines:
        parts = line.split()
        if len(parts) == 3 and parts[1].isdigit():
            counts["events"] += int(parts[1])
            if parts[2] != "-":
                counts["failures"] += 1
                counts.setdefault("first", line)
    return counts


MPY_MEMORY = """
import gc
from array import array
from engine_core import PLAYING, games, kiosk, rng
from engine_core.save import Keeper
from engine_core.storage import MemoryStorage

names = games.available()
players = []
objects = []
for name in names:
    cls = games.load(name)
    objects.append(cls(cls.MIN_PLAYERS))
out = array("i", [0] * 256)
keeper = Keeper(MemoryStorage())
keeper.start()
SETUP
x = rng.seed_state(1)
baseline = 0
released = 0
grew = 0
moves = 0
i = 0
steps = 0
game = None
first = -1
for i in range(GAMES):
    game = objects[i % len(objects)]
    game.deal(i)
    keeper.started(game)
    steps = 0
    while game.status() == PLAYING and steps < STEPS:
        x = rng.step(x)
        if kiosk.demo_step(game, out, x):
            keeper.moved(game)
            moves += 1
        steps += 1
    if game.status() == PLAYING:
        keeper.abandoned(game)
    else:
        keeper.save_game(game)
    # Twice: the collector is conservative, and one pass may still keep a block of start-up
    # garbage that a stale word on the machine stack points at. Such a block can also be let
    # go of later (seen: 16 to 560 bytes, depending on the script's own layout): free memory
    # then rises, and the figure to hold becomes the new one. Growth is free memory falling.
    gc.collect()
    gc.collect()
    if i == len(objects) - 1:
        baseline = gc.mem_free()
    elif i >= len(objects):
        if gc.mem_free() < baseline:
            grew += 1
            if first < 0:
                first = i
        elif gc.mem_free() > baseline:
            released += gc.mem_free() - baseline
            baseline = gc.mem_free()
print("games", GAMES)
print("moves", moves)
played = 0
for i in range(len(names)):
    played += keeper.stats.get(i, 0)
print("played", played)
print("grew", grew, first)
print("free", baseline, gc.mem_free())
print("released", released)
"""


def mpy_memory_suite(total, steps=400, setup="", runtime="unix"):
    """`total` games in a row on MicroPython, computer players on every seat (the kiosk's
    demo player: the hint for the patience games), each result recorded in the statistics and
    saved; after each game gc.collect() (twice), and gc.mem_free() must never fall below its
    value after the first round (one game of each kind: the warm-up). It may rise, when the
    conservative collector lets go of start-up garbage late; the new figure then holds.
    `runtime`: tools/mpy.py's (the unix port unless told)."""
    from tools.mpy import run_micropython
    script = MPY_MEMORY.replace("GAMES", str(total)).replace("STEPS", str(steps))
    result = run_micropython(script.replace("SETUP", setup), fuel=10 ** 15, runtime=runtime)
    counts = {"games": 0, "moves": 0, "failures": 0}
    if result.exit_code != 0:
        counts["failures"] = 1
        counts["first"] = (result.stdout + result.stderr)[-400:]
        return counts
    values = {}
    for line in result.stdout.split("\n"):
        parts = line.split()
        if parts:
            values[parts[0]] = [int(v) for v in parts[1:]]
    counts["games"] = values["games"][0]
    counts["moves"] = values["moves"][0]
    counts["recorded"] = values["played"][0]
    counts["mem_free"] = values["free"][0]
    counts["bytes let go of late"] = values["released"][0]
    grew, first = values["grew"]
    if grew:
        counts["failures"] = grew
        counts["first"] = "gc.mem_free() fell after game %d" % first
    return counts


# --- restart equivalence (tools/reliability/restarts.py) ---

def restart_suite(sessions, seed=1, log=None):
    """`sessions` random sessions of each game on the console, stopped, cut and made again
    from its records at random points: counts in all and per game."""
    from tools.reliability import restarts
    return restarts.run(restarts.interface_games(), sessions, seed, log)


MPY_RESTARTS = """
from tools.reliability import restarts
counts = restarts.run(restarts.interface_games(), SESSIONS, SEED)
for k in counts:
    print(k + "=" + str(counts[k]))
"""

MPY_RESTART_CHUNK = 100  # sessions of each game per MicroPython run (a run's heap is its own)


def mpy_restart_suite(sessions, seed=1, runtime="unix", log=None):
    """The same sessions on real MicroPython (tools/mpy.py's `runtime`: the unix port unless
    told), in runs of MPY_RESTART_CHUNK sessions a game."""
    from tools.mpy import Result, run_micropython
    counts = {"sessions": 0, "restarts": 0, "cuts": 0, "failures": 0}
    done = 0
    while done < sessions:
        n = min(MPY_RESTART_CHUNK, sessions - done)
        script = MPY_RESTARTS.replace("SESSIONS", str(n)).replace("SEED", str(seed + done))
        try:
            result = run_micropython(script, fuel=10 ** 16, runtime=runtime)
        except Exception as e:  # the runtime itself stopped (a trap): this run's failure
            result = Result("", "raised %s: %s" % (type(e).__name__, e), 1, None)
        done += n
        if result.exit_code != 0:
            counts["failures"] += 1
            counts.setdefault("first", (result.stdout + result.stderr)[-400:])
        else:
            for line in result.stdout.split("\n"):
                if "=" in line:
                    key, value = line.split("=", 1)
                    if key in ("sessions", "restarts", "cuts", "failures"):
                        counts[key] += int(value)
                    elif key == "first":
                        counts.setdefault("first", value)
        if log and done % max(MPY_RESTART_CHUNK, sessions // 10 // MPY_RESTART_CHUNK * MPY_RESTART_CHUNK) == 0:
            log("  MicroPython: %d of %d sessions a game, %d failures" % (done, sessions, counts["failures"]))
    return counts


# --- link play: two consoles over a faulty link ---

LINK_FAULTS = (30, 30, 30, 30)  # per mille of chunks dropped, doubled, reordered, corrupted
LINK_DELAY_MS = 40
LINK_CUTS = 4  # per mille of 20 ms frames: the wire is cut (1 to 12 s) about every 5 s


def link_suite(name, units, cuts=0, seed=1, progress=None):
    """`units` Spite & Malice games or Nerts rounds (4 seats: 2 people, 2 computer players),
    each on a new table over a faulty wire (tools/reliability/link_play.py): both consoles
    must hold the same state hash at every turn (every second of game time in Nerts) and at
    the end, with every card once. With cuts, the wire is cut and restored at random times."""
    from tools.reliability.link_play import Table
    counts = {"games" if name == "spite_malice" else "rounds": 0, "failures": 0}
    turns = compared = rollbacks = skipped = pauses = cut_count = seconds = repairs = 0
    faults = [0, 0, 0, 0]
    for k in range(units):
        table = Table(name, seed=seed + k, faults=LINK_FAULTS, delay=LINK_DELAY_MS, cuts=cuts)
        try:
            if table.start():
                table.play_game()
        except Exception as e:  # a crash is a failure, reported with its unit
            table.fail("raised %s: %s" % (type(e).__name__, e))
        counts["games" if name == "spite_malice" else "rounds"] += 1
        if table.problem():
            counts["failures"] += 1
            counts.setdefault("first", "%s seed %d: %s" % (name, seed + k, table.problem()))
        turns += table.turns
        seconds += table.games[0].clock_ms // 1000
        compared += min(s.hashes_compared for s in table.sessions)
        rollbacks += sum(s.timeline.rollbacks for s in table.sessions)
        skipped += sum(s.timeline.skipped for s in table.sessions)
        pauses += table.pauses
        cut_count += table.cut_count
        repairs += sum(s.repair.overflows for s in table.sessions)
        w = table.wire
        for i, v in enumerate((w.dropped, w.duplicated, w.reordered, w.corrupted)):
            faults[i] += v
        if progress and (k + 1) % max(1, units // 10) == 0:
            progress("  %s%s: %d of %d" % (name, " with cuts" if cuts else "", k + 1, units))
    if name == "spite_malice":
        counts["turns"] = turns
        counts["hashes compared"] = compared
    else:
        counts["seconds of play"] = seconds
        counts["hashes compared"] = compared
        counts["moves rolled back"] = rollbacks
        counts["moves skipped"] = skipped
    counts["wire chunks dropped, doubled, reordered, corrupted"] = "/".join(str(v) for v in faults)
    if cuts:
        counts["cuts"] = cut_count
        counts["pauses"] = pauses
        counts["states re-sent after a queue overflow"] = repairs
    return counts


def link_figures(units=20, seed=500):
    """What the link carries on a clean wire (20 ms each way): bytes per Spite & Malice turn
    and per second of Nerts (4 seats), as the sessions hand them to the channel (message
    and kind byte) and as the wire carries them (frames, acknowledgements, keep-alives)."""
    from tools.reliability.link_play import Table
    figures = {}
    for name in ("spite_malice", "nerts"):
        per = 0
        session_bytes = wire_bytes = 0
        for k in range(units):
            table = Table(name, seed=seed + k, delay=20)
            table.start()
            base_session, base_wire = table.session_bytes(), table.bytes_on_wire()
            table.play_game()
            per += table.turns if name == "spite_malice" else table.games[0].clock_ms / 1000.0
            session_bytes += table.session_bytes() - base_session
            wire_bytes += table.bytes_on_wire() - base_wire
        unit = "turn" if name == "spite_malice" else "second"
        figures["%s: session bytes per %s" % (name, unit)] = "%.0f" % (session_bytes / per)
        figures["%s: wire bytes per %s" % (name, unit)] = "%.0f" % (wire_bytes / per)
    return figures


# --- the whole run ---

def link_suites(sizes, seed, log):
    from tools.reliability.link_fuzz import fuzz_suite as link_fuzz
    return (
        ("link play, Spite & Malice", lambda: link_suite("spite_malice", sizes["link_games"], 0, seed, log)),
        ("link play, Nerts", lambda: link_suite("nerts", sizes["link_rounds"], 0, seed, log)),
        ("link play, Spite & Malice, cuts", lambda: link_suite("spite_malice", sizes["link_games"],
                                                                LINK_CUTS, seed + 50000, log)),
        ("link play, Nerts, cuts", lambda: link_suite("nerts", sizes["link_rounds"], LINK_CUTS,
                                                       seed + 50000, log)),
        ("link play, a hostile peer", lambda: link_fuzz(sizes["link_fuzz_messages"], seed, log)),
        ("link play, an adversary", lambda: link_adversary(sizes["link_adversary_frames"], seed, log)),
    )


def link_adversary(frames, seed, log):
    """Well-formed frames with hostile meaning (tools/reliability/link_adversary.py), and a
    second client on the socket ten times: a soak row."""
    from tools.reliability.link_adversary import adversary_suite, impostors
    counts = adversary_suite(frames, seed, progress=log)
    reached, refused = impostors(10, seed)
    counts["impostors refused"] = refused
    if reached:
        counts["failures"] += 1
        counts.setdefault("first", "%d frames of a second client reached the channel" % reached)
    return counts


def cpu_seconds():
    """CPU time of this process and of the MicroPython runs it has waited for."""
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system


def run_all(sizes, seed=1, log=print, only_link=False, only=(), jobs=1):
    from tools.reliability.fuzz import fuzz_suite
    from tools.reliability.mash_ui import mash
    suites = link_suites(sizes, seed, log)
    if not only_link:
        suites = (
            ("restart equivalence", lambda: restart_suite(sizes["restart_sessions"], seed, log)),
            ("restart equivalence on MicroPython", lambda: mpy_restart_suite(sizes["mpy_restart_sessions"],
                                                                            seed, log=log)),
            ("power cuts", lambda: power_cut_suite(positions=sizes["cut_positions"])),
            ("corruption", lambda: corruption_suite(sizes["corruptions"], seed)),
            ("record mutation", lambda: record_fuzz.soak_suite(sizes["record_mutations"], seed)),
            ("record mutation on MicroPython", lambda: record_fuzz.soak_suite(sizes["record_mutations"], seed,
                                                                               "unix")),
            ("button mashing, interface", lambda: mash(sizes["ui_events"], seed)),
            ("button mashing, engine", lambda: mash_suite(sizes["mash_events"], seed)),
            ("mashing on MicroPython", lambda: mpy_mash_suite(sizes["mpy_mash_events"], seed)),
            ("memory soak", lambda: mpy_memory_suite(sizes["memory_games"])),
            ("protocol fuzzing, both runtimes", lambda: fuzz_suite(sizes["fuzz_lines"], seed)),
            ("deal quality", lambda: deal_quality_suite(sizes["quality_deals"], QUALITY_START)),
            ("deal quality on MicroPython", lambda: mpy_deal_quality_suite(sizes["mpy_quality_deals"],
                                                                           QUALITY_START)),
        ) + suites
    if only:
        unknown = set(only) - set(name for name, _ in suites)
        if unknown:
            raise ValueError("no suite named %s; the suites: %s" % (
                ", ".join(sorted(unknown)), "; ".join(name for name, _ in suites)))
        suites = tuple((name, suite) for name, suite in suites if name in only)
    if jobs > 1 and len(suites) > 1:
        return _run_parallel(suites, jobs, log)
    results = {}
    for i, (name, suite) in enumerate(suites):
        log("[%d/%d] %s ..." % (i + 1, len(suites), name))
        RUNNING[:] = [name, time.time()]
        results[name] = timed(suite)
        log(name, results[name])
    RUNNING[:] = []
    return results


def timed(suite):
    """run_suite with the suite's real time and CPU time (this process and the MicroPython runs
    it waited for) among its counts, as the docs' table shows them."""
    start = time.time()
    cpu = cpu_seconds()
    counts = run_suite(suite)
    counts["time"] = "%.0f s" % (time.time() - start)
    counts["CPU"] = "%.0f s" % (cpu_seconds() - cpu)
    return counts


_SUITES = []  # the suites of a parallel run, for the forked workers


def _run_in_worker(i):
    return i, timed(_SUITES[i][1])


def _run_parallel(suites, jobs, log):
    """The suites in `jobs` worker processes, the longest first (LONGEST), each row as it ends;
    the table keeps the suites' own order."""
    import multiprocessing
    _SUITES[:] = suites
    order = sorted(range(len(suites)), key=lambda i: LONGEST.index(suites[i][0]) if suites[i][0] in LONGEST
                   else len(LONGEST))
    done = {}
    RUNNING[:] = ["%d suites in %d processes" % (len(suites), jobs), time.time()]
    with multiprocessing.get_context("fork").Pool(jobs, maxtasksperchild=1) as pool:
        for i, counts in pool.imap_unordered(_run_in_worker, order):
            done[i] = counts
            log("[%d/%d] %s" % (len(done), len(suites), suites[i][0]), counts)
    RUNNING[:] = []
    return dict((suites[i][0], done[i]) for i in range(len(suites)))


# The suites that take longest at full size, longest first: a parallel run starts them first.
LONGEST = ("record mutation on MicroPython", "restart equivalence on MicroPython", "record mutation",
           "restart equivalence", "button mashing, interface", "memory soak", "link play, a hostile peer",
           "link play, an adversary", "protocol fuzzing, both runtimes", "power cuts")


def deal_quality_suite(deals, start, generator=None):
    """tools/reliability/deal_quality.py over `deals` deal numbers from `start`: the
    card-by-position chi-square, the first-card and same-place matches of consecutive
    numbers within their 99% bands, and no deal twice (the generator of new deals unless told)."""
    from engine_core import rng
    from tools.reliability import deal_quality
    return _quality_counts(deal_quality.suite(deals, start, rng.SPECTRAL if generator is None else generator))


def mpy_deal_quality_suite(deals, start, runtime="unix"):
    """The same over deals made on MicroPython, each also equal to CPython's."""
    from tools.reliability import deal_quality
    return _quality_counts(deal_quality.micropython_suite(deals, start, runtime))


def _quality_counts(result):
    counts = {"deals": result["deals"]}
    if "chi_square" in result:
        counts["chi-square"] = "%.0f (99%% band %.0f-%.0f)" % ((result["chi_square"],) + result["chi_band"])
        counts["first cards alike"] = "%d (99%% band %.0f-%.0f)" % (
            (result["first_card_matches"],) + result["match_band"])
        counts["distinct"] = result["distinct"]
    if "unlike_cpython" in result:
        counts["unlike CPython"] = result["unlike_cpython"]
    counts["failures"] = result["failures"]
    if "first" in result:
        counts["first"] = result["first"]
    return counts


def run_suite(suite):
    """One suite's counts; a suite that raises is one failure with what it raised, and the
    run goes on to the next suite."""
    try:
        return suite()
    except Exception as e:
        return {"failures": 1, "first": "raised %s: %s" % (type(e).__name__, str(e)[-400:])}


RUNNING = []  # the suite running now and when it began (for the heartbeat)
HEARTBEAT_S = 30


def heartbeat(started):
    """Every HEARTBEAT_S seconds, a line saying which suite runs and for how long."""
    import threading

    def beat():
        while True:
            time.sleep(HEARTBEAT_S)
            if RUNNING:
                print("  ... %s: %.0f s (soak: %.0f s)" % (RUNNING[0], time.time() - RUNNING[1],
                                                          time.time() - started), flush=True)

    threading.Thread(target=beat, daemon=True).start()


def table(results):
    rows = ["| suite | what ran | failures |", "| --- | --- | --- |"]
    for suite, counts in results.items():
        what = ", ".join("%s: %s" % (k, "{:,}".format(v) if isinstance(v, int) else v)
                         for k, v in counts.items() if k not in ("failures", "first"))
        rows.append("| %s | %s | %d |" % (suite, what, counts["failures"]))
    return "\n".join(rows)


def update_docs(text):
    """Put the table's rows into docs/reliability.md: a suite's row replaces the one of the
    same suite, new suites go at the end (a --link run keeps the other suites' rows)."""
    with open(DOCS) as f:
        doc = f.read()
    a = doc.index(BEGIN) + len(BEGIN)
    b = doc.index(END)
    old = [line for line in doc[a:b].strip().split("\n") if line.startswith("| ")]
    rows = text.split("\n")
    by_suite = {row.split(" | ")[0]: row for row in rows[2:]}
    merged = rows[:2]
    for row in old[2:]:
        merged.append(by_suite.pop(row.split(" | ")[0], row))
    merged += [row for row in rows[2:] if row.split(" | ")[0] in by_suite]
    with open(DOCS, "w") as f:
        f.write(doc[:a] + "\n" + "\n".join(merged) + "\n" + doc[b:])


LINK_DOCS = os.path.join(ROOT, "docs", "link.md")
FIGURES_BEGIN = "<!-- link-figures:begin -->"
FIGURES_END = "<!-- link-figures:end -->"


def update_link_figures(figures):
    """The bytes per turn and per second into docs/link.md (between its markers)."""
    with open(LINK_DOCS) as f:
        doc = f.read()
    a = doc.index(FIGURES_BEGIN) + len(FIGURES_BEGIN)
    b = doc.index(FIGURES_END)
    rows = ["| what | bytes |", "| --- | --- |"] + ["| %s | %s |" % kv for kv in figures.items()]
    with open(LINK_DOCS, "w") as f:
        f.write(doc[:a] + "\n" + "\n".join(rows) + "\n" + doc[b:])


def main(argv):
    sizes = QUICK if "--quick" in argv else FULL
    started = time.time()
    heartbeat(started)
    only = [argv[i + 1] for i in range(len(argv) - 1) if argv[i] == "--only"]
    jobs = os.cpu_count() or 1
    if "--jobs" in argv:
        given = argv[argv.index("--jobs") + 1:][:1]
        if not given or not given[0].isdigit() or int(given[0]) < 1:
            sys.exit("--jobs takes a number of processes, 1 or more")
        jobs = int(given[0])
    try:
        results = run_all(sizes, log=lambda *words: print(*words, flush=True),
                          only_link="--link" in argv, only=only, jobs=jobs)
    except ValueError as e:  # an unknown --only
        sys.exit(str(e))
    text = table(results)
    print(text)
    if "--quick" not in argv and not only:
        figures = link_figures()
        print("link figures (clean wire):", figures, flush=True)
        if "--update-docs" in argv:
            update_link_figures(figures)
    print("soak: %.1f minutes, %.1f minutes of CPU" % ((time.time() - started) / 60, cpu_seconds() / 60),
          flush=True)
    if "--update-docs" in argv:
        update_docs(text)
    if "--json" in argv:
        print(json.dumps(results))
    failed = sum(c["failures"] for c in results.values())
    return 1 if failed else 0


if __name__ == "__main__":
    from tools.cli import help_or_go
    help_or_go(__doc__, '-m tools.reliability.soak [--quick] [--link] [--only NAME] [--jobs N] '
                        '[--update-docs] [--json]')
    sys.exit(main(sys.argv[1:]))
