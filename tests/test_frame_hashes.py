"""Every frame of fixed random sessions, hashed: a change to how the screens are drawn (not
what they show) leaves each session's hash as it was. A change that means to alter a frame
writes the new hashes: `.venv/bin/python -m tests.test_frame_hashes --write`, and says why in
its commit."""

import hashlib
import json
import os
import random
import sys

import pytest

from engine_core import games
from engine_core.ui import layouts
from simulator.keys import make_app, run

GOLDEN = os.path.join(os.path.dirname(os.path.abspath(__file__)), "golden", "frame_hashes.json")
KEYS = ("UP", "DOWN", "LEFT", "RIGHT", "A", "A", "B", "X", "Y", "START", "SELECT", "LONG_A",
        "TICK", "WAIT", "X A A", "X A A", "X A A")
STEPS = 150


def session_hash(game, size):
    """The hash of every frame of a random session of `game` at `size`, after each key."""
    rnd = random.Random("%s %dx%d" % (game, size[0], size[1]))
    app = make_app(size[0], size[1], game, rnd.randrange(1000))
    digest = hashlib.sha256(bytes(app.screen.buf))
    for _ in range(STEPS):
        run(app, rnd.choice(KEYS))
        digest.update(bytes(app.screen.buf))
    return digest.hexdigest()[:16]


def key(game, size):
    return "%s %dx%d" % (game, size[0], size[1])


def golden():
    with open(GOLDEN) as f:
        return json.load(f)


@pytest.mark.parametrize("size", layouts.SIZES)
@pytest.mark.parametrize("game", games.available())
def test_every_frame_of_a_random_session_is_as_it_was(game, size):
    assert session_hash(game, size) == golden()[key(game, size)]


if __name__ == "__main__" and sys.argv[1:] == ["--write"]:
    hashes = {key(g, s): session_hash(g, s) for g in games.available() for s in layouts.SIZES}
    with open(GOLDEN, "w") as f:
        json.dump(hashes, f, indent=1, sort_keys=True)
        f.write("\n")
    print("wrote %d session hashes to %s" % (len(hashes), GOLDEN))
