"""Write the goldens the tests compare to, for a change that means to change them, and say why.

    make goldens WHY="the foot's text moves a pixel down"
    python -m tools.goldens --why "..."                  frame hashes and golden deals
    python -m tools.goldens --why "..." frames           the frame hashes only
    python -m tools.goldens --why "..." deals            the golden deals only

Recomputes the frame hashes (tests/golden/frame_hashes.json, support/goldens.py hashes every
frame of fixed random sessions) and the golden deals (tests/golden/GAME.json, the state of
`new GAME seed=N` for each golden seed on CPython), writes the files that differ, and appends
to tests/golden/CHANGES.md an entry: the date, the reason, and each key that changed with its
old and new value. Without a reason it refuses and writes nothing; when nothing differs it
writes nothing. This is the only command that writes under tests/golden/: `make test` and a
refactor leave it as it is (tests/test_goldens.py). tests/golden/lehmer/, records/ and
nerts_stuck_round.json were written by builds before today's and nothing rewrites them.
"""

import json
import os
import sys
import time

from support import goldens


def frame_changes(folder, new):
    """Write frame_hashes.json if `new` differs; [(kind, key, old, new)] of what changed."""
    old = goldens.golden_frames(folder)
    changes = [("frames", k, old.get(k, goldens.NONE), new.get(k, goldens.NONE))
               for k in sorted(set(old) | set(new)) if old.get(k) != new.get(k)]
    if changes:
        with open(os.path.join(folder, goldens.FRAMES), "w") as f:
            json.dump(new, f, indent=1, sort_keys=True)
            f.write("\n")
    return changes


def deal_changes(folder, texts):
    """Write each tests/golden/GAME.json of {GAME: text} that differs; what changed."""
    changes = []
    for name in sorted(texts):
        path = os.path.join(folder, name + ".json")
        old = goldens.NONE
        if os.path.exists(path):
            with open(path, "rb") as f:
                old = goldens.digest(f.read())
        new = goldens.digest(texts[name].encode())
        if old != new:
            with open(path, "w") as f:
                f.write(texts[name])
            changes.append(("deals", name, old, new))
    return changes


def update(folder, why, frames=None, deals=None, date=None):
    """Write what differs of `frames` ({key: hash}) and `deals` ({GAME: text}) into `folder`
    and record it in its CHANGES.md under `why`; the changes, [] when nothing differed."""
    if not why or not why.strip():
        raise ValueError("say why the goldens change")
    changes = []
    if frames is not None:
        changes += frame_changes(folder, frames)
    if deals is not None:
        changes += deal_changes(folder, deals)
    if changes:
        with open(os.path.join(folder, goldens.CHANGES), "a") as f:
            f.write(goldens.entry(date or time.strftime("%Y-%m-%d"), why, changes))
    return changes


def main(argv):
    why, kinds = None, []
    args = list(argv)
    while args:
        arg = args.pop(0)
        if arg == "--why" and args:
            why = args.pop(0)
        elif arg.startswith("--why="):
            why = arg[len("--why="):]
        elif arg in ("frames", "deals"):
            kinds.append(arg)
        else:
            raise SystemExit("usage: python -m tools.goldens --why \"...\" [frames] [deals]")
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
    changes = update(goldens.GOLDEN, why, frames, deals)
    for kind, key, old, new in changes:
        print("%s %s: %s -> %s" % (kind, key, old, new))
    print("%d goldens changed%s" % (len(changes), ", recorded in tests/golden/CHANGES.md" if changes else ""))
    return 0


if __name__ == "__main__":
    from tools.cli import help_or_go
    help_or_go(__doc__, "tools/goldens.py --why \"...\" [frames] [deals]")
    sys.exit(main(sys.argv[1:]))
