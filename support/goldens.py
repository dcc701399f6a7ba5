"""The goldens in tests/golden/ and their record, tests/golden/CHANGES.md: how each golden is
made and read, and whether the record accounts for every value the files hold. Read here, by
the tests; written only by `make goldens WHY="..."` (tools/goldens.py).

Three kinds of key, each with a 16-hex-digit value:
  frames `GAME WxH`  a session's frame hash, as tests/golden/frame_hashes.json holds it
  deals `GAME`       the digest of tests/golden/GAME.json, the golden deals
  fixed `PATH`       the digest of a golden no command writes: written by builds before
                     today's (lehmer/, combined/, records/, nerts_stuck_round.json); it never changes

CHANGES.md is a list of entries, oldest first, each a heading `## DATE: WHY` and one line per
key it sets: "- frames `nerts 240x240`: 1234abcd1234abcd -> 5678ef005678ef00" ("none" for a
key that did not exist or no longer does). The last line that names a key gives its value.
"""

import hashlib
import json
import os
import random
import re

GOLDEN = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "tests", "golden")
FRAMES = "frame_hashes.json"
CHANGES = "CHANGES.md"
NONE = "none"
FIXED_TOP = ("nerts_stuck_round.json",)
FIXED_FOLDERS = ("lehmer", "combined", "records")

# A session of random keys, hashed frame by frame (tests/test_frame_hashes.py).
KEYS = ("UP", "DOWN", "LEFT", "RIGHT", "A", "A", "B", "X", "Y", "START", "SELECT", "LONG_A",
        "TICK", "WAIT", "X A A", "X A A", "X A A")
STEPS = 150
# The golden deals: `new GAME seed=N` for each (tests/test_micropython.py).
SEEDS = (1, 2, 3, 42, 1000000)

HEADING = re.compile(r"^## (\d{4}-\d\d-\d\d): (.*\S.*)$")
LINE = re.compile(r"^- (frames|deals|fixed) `([^`]+)`: (?:([0-9a-f]{16}|none) -> )?([0-9a-f]{16}|none)$")


def frame_key(game, size):
    return "%s %dx%d" % (game, size[0], size[1])


def session_hash(game, size):
    """The hash of every frame of a random session of `game` at `size`, after each key."""
    from simulator.keys import make_app, run
    rnd = random.Random(frame_key(game, size))
    app = make_app(size[0], size[1], game, rnd.randrange(1000))
    digest = hashlib.sha256(bytes(app.screen.buf))
    for _ in range(STEPS):
        run(app, rnd.choice(KEYS))
        digest.update(bytes(app.screen.buf))
    return digest.hexdigest()[:16]


def all_frame_hashes():
    """{frames key: hash} of today's code, every game at every screen size."""
    from engine_core import games
    from engine_core.ui import layouts
    return {frame_key(g, s): session_hash(g, s) for g in games.available() for s in layouts.SIZES}


def deals_text(name):
    """tests/golden/NAME.json as today's code deals it: the state of each golden seed, as
    CPython's protocol session gives it."""
    from engine_core.protocol import ProtocolSession
    session = ProtocolSession()
    states = []
    for seed in SEEDS:
        reply = session.command("new %s seed=%d" % (name, seed))
        if reply != "ok":
            raise ValueError("new %s seed=%d: %s" % (name, seed, reply))
        states.append(session.command("state"))
    return "[\n" + ",\n".join(states) + "\n]\n"


def digest(data):
    return hashlib.sha256(data).hexdigest()[:16]


def golden_frames(folder=GOLDEN):
    with open(os.path.join(folder, FRAMES)) as f:
        return json.load(f)


def deal_files(folder=GOLDEN):
    """The games that have golden deals: tests/golden/GAME.json, frame_hashes.json aside."""
    return sorted(n[:-5] for n in os.listdir(folder) if n.endswith(".json") and n != FRAMES
                  and n not in FIXED_TOP and os.path.isfile(os.path.join(folder, n)))


def fixed_files(folder=GOLDEN):
    """The goldens no command writes, relative to the folder."""
    out = [n for n in FIXED_TOP if os.path.exists(os.path.join(folder, n))]
    for sub in FIXED_FOLDERS:
        if os.path.isdir(os.path.join(folder, sub)):
            out += [sub + "/" + n for n in sorted(os.listdir(os.path.join(folder, sub)))]
    return out


def current(folder=GOLDEN):
    """{(kind, key): value} of every golden the folder holds."""
    values = {("frames", k): v for k, v in golden_frames(folder).items()}
    for name in deal_files(folder):
        with open(os.path.join(folder, name + ".json"), "rb") as f:
            values[("deals", name)] = digest(f.read())
    for rel in fixed_files(folder):
        with open(os.path.join(folder, rel), "rb") as f:
            values[("fixed", rel)] = digest(f.read())
    return values


def recorded(text):
    """({(kind, key): value last set}, [faults]) from the text of CHANGES.md. A fault: a key
    line outside an entry, an entry without a reason, a line that is neither, a change whose
    old value is not what the record held, a fixed key set twice."""
    values, faults, entry = {}, [], None
    for n, line in enumerate(text.splitlines(), 1):
        if line.startswith("## "):
            m = HEADING.match(line)
            entry = m.group(2) if m else None
            if not m:
                faults.append("line %d: an entry's heading is '## YYYY-MM-DD: why': %s" % (n, line))
            continue
        if not line.startswith("- "):
            continue
        m = LINE.match(line)
        if not m:
            faults.append("line %d: not a key line: %s" % (n, line))
            continue
        if entry is None:
            faults.append("line %d: a key line outside an entry with a reason" % n)
        kind, key, old, new = m.groups()
        before = values.get((kind, key), NONE)
        if (kind, key) in values and old is None:
            faults.append("line %d: %s `%s` is set again without its old value" % (n, kind, key))
        elif old is not None and old != before:
            faults.append("line %d: %s `%s` was %s in the record, not %s" % (n, kind, key, before, old))
        if kind == "fixed" and (kind, key) in values:
            faults.append("line %d: fixed `%s` changes; nothing may rewrite it" % (n, key))
        values[(kind, key)] = new
    return values, faults


def unaccounted(now, text):
    """Every fault of the record and every golden whose value the record does not give as
    the last it set."""
    values, faults = recorded(text)
    for kind, key in sorted(set(now) | set(k for k, v in values.items() if v != NONE)):
        have, said = now.get((kind, key), NONE), values.get((kind, key), NONE)
        if have != said:
            faults.append("%s `%s` is %s, CHANGES.md says %s" % (kind, key, have, said))
    return faults


def entry(date, why, changes):
    """An entry of CHANGES.md: `changes` is [(kind, key, old, new)], old None for a baseline."""
    lines = ["", "## %s: %s" % (date, " ".join(why.split()))]
    for kind, key, old, new in changes:
        lines.append("- %s `%s`: %s%s" % (kind, key, "" if old is None else old + " -> ", new))
    return "\n".join(lines) + "\n"
