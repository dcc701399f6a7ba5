"""Write the goldens the tests compare to, for a change that means to change them, and say why.

    make goldens WHY="the foot's text moves a pixel down" EXPECT="nerts@240x240 nerts@320x240"
    python -m tools.goldens --why "..." --expect "KEY ..."            frame hashes and golden deals
    python -m tools.goldens --why "..." --expect "KEY ..." frames     the frame hashes only
    python -m tools.goldens --why "..." --expect "KEY ..." deals      the golden deals only

EXPECT names the keys the change means to change, by words: `GAME@WxH` a frame hash
(frames `GAME WxH`), `GAME` a game's golden deals (deals `GAME`); a word may be a pattern
(`nerts@*`, `*@240x135`). When any key that no word names would change, the command refuses,
writes nothing, and names each such key as EXPECT spells it; so a change that moves one game's
pixels cannot rewrite another's by the way. `all` names every key, and like every run it needs
a reason.

Recomputes the frame hashes (tests/golden/frame_hashes.json, support/goldens.py hashes every
frame of fixed random sessions) and the golden deals (tests/golden/GAME.json, the state of
`new GAME seed=N` for each golden seed on CPython), writes the files that differ, and appends
to tests/golden/CHANGES.md an entry: the date, the reason, and each key that changed with its
old and new value. Without a reason it refuses and writes nothing; when nothing differs it
writes nothing. This is the only command that writes under tests/golden/: `make test` and a
refactor leave it as it is (tests/test_goldens.py). tests/golden/lehmer/, records/ and
nerts_stuck_round.json were written by builds before today's and nothing rewrites them.
"""

import fnmatch
import json
import os
import sys
import time

from support import goldens


class Refused(ValueError):
    """Keys that would change and that EXPECT does not name: [(kind, key, old, new)]."""

    def __init__(self, changes):
        ValueError.__init__(self, "EXPECT does not name " + " ".join(spelled(k, key) for k, key, _, _ in changes))
        self.changes = changes


def spelled(kind, key):
    """A key as EXPECT names it: frames `nerts 240x240` -> nerts@240x240, deals `nerts` -> nerts."""
    return key.replace(" ", "@") if kind == "frames" else key


def expected(kind, key, words):
    """Whether one of EXPECT's words names the key."""
    return any(w == "all" or fnmatch.fnmatchcase(spelled(kind, key), w) for w in words)


def frame_changes(folder, new):
    """[(kind, key, old, new)] of the frame hashes `new` would change."""
    old = goldens.golden_frames(folder)
    return [("frames", k, old.get(k, goldens.NONE), new.get(k, goldens.NONE))
            for k in sorted(set(old) | set(new)) if old.get(k) != new.get(k)]


def deal_changes(folder, texts):
    """[(kind, key, old, new)] of the golden deals {GAME: text} would change."""
    changes = []
    for name in sorted(texts):
        path = os.path.join(folder, name + ".json")
        old = goldens.NONE
        if os.path.exists(path):
            with open(path, "rb") as f:
                old = goldens.digest(f.read())
        new = goldens.digest(texts[name].encode())
        if old != new:
            changes.append(("deals", name, old, new))
    return changes


def update(folder, why, frames=None, deals=None, date=None, expect=()):
    """Write what differs of `frames` ({key: hash}) and `deals` ({GAME: text}) into `folder`
    and record it in its CHANGES.md under `why`; the changes, [] when nothing differed. Raises
    Refused, having written nothing, when a key that no word of `expect` names would change."""
    if not why or not why.strip():
        raise ValueError("say why the goldens change")
    words = expect.split() if isinstance(expect, str) else list(expect)
    changes = []
    if frames is not None:
        changes += frame_changes(folder, frames)
    if deals is not None:
        changes += deal_changes(folder, deals)
    unexpected = [c for c in changes if not expected(c[0], c[1], words)]
    if unexpected:
        raise Refused(unexpected)
    if frames is not None and any(kind == "frames" for kind, _, _, _ in changes):
        with open(os.path.join(folder, goldens.FRAMES), "w") as f:
            json.dump(frames, f, indent=1, sort_keys=True)
            f.write("\n")
    for kind, name, _, _ in changes:
        if kind == "deals":
            with open(os.path.join(folder, name + ".json"), "w") as f:
                f.write(deals[name])
    if changes:
        with open(os.path.join(folder, goldens.CHANGES), "a") as f:
            f.write(goldens.entry(date or time.strftime("%Y-%m-%d"), why, changes))
    return changes


USAGE = "usage: python -m tools.goldens --why \"...\" --expect \"KEY ...\" [frames] [deals]"


def main(argv):
    why, kinds, expect = None, [], []
    args = list(argv)
    while args:
        arg = args.pop(0)
        if arg == "--why" and args:
            why = args.pop(0)
        elif arg.startswith("--why="):
            why = arg[len("--why="):]
        elif arg == "--expect" and args:
            expect += args.pop(0).split()
        elif arg.startswith("--expect="):
            expect += arg[len("--expect="):].split()
        elif arg in ("frames", "deals"):
            kinds.append(arg)
        else:
            raise SystemExit(USAGE)
    if not why or not why.strip():
        print("tools/goldens.py: refused, nothing written: a change to the goldens says why "
              "(make goldens WHY=\"...\"); a refactor leaves them as they are", file=sys.stderr)
        return 2
    kinds = kinds or ["frames", "deals"]
    frames = goldens.all_frame_hashes() if "frames" in kinds else None
    deals = None
    if "deals" in kinds:
        from engine_core import games
        deals = {name: goldens.deals_text(name) for name in games.available()}
    try:
        changes = update(goldens.GOLDEN, why, frames, deals, expect=expect)
    except Refused as refused:
        print("tools/goldens.py: refused, nothing written: these would change and EXPECT does not "
              "name them:", file=sys.stderr)
        for kind, key, old, new in refused.changes:
            print("  %s  (%s `%s`: %s -> %s)" % (spelled(kind, key), kind, key, old, new), file=sys.stderr)
        print("a change that means to change them says so: make goldens WHY=\"...\" EXPECT=\"%s\""
              % " ".join(spelled(k, key) for k, key, _, _ in refused.changes), file=sys.stderr)
        return 2
    for kind, key, old, new in changes:
        print("%s %s: %s -> %s" % (kind, key, old, new))
    print("%d goldens changed%s" % (len(changes), ", recorded in tests/golden/CHANGES.md" if changes else ""))
    return 0


if __name__ == "__main__":
    from tools.cli import help_or_go
    help_or_go(__doc__, "tools/goldens.py --why \"...\" --expect \"KEY ...\" [frames] [deals]")
    sys.exit(main(sys.argv[1:]))
