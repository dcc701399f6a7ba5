"""Every frame of fixed random sessions, hashed: a change to how the screens are drawn (not
what they show) leaves each session's hash as it was. This test only reads
tests/golden/frame_hashes.json. A change that means to alter a frame runs
`make goldens WHY="..."` (tools/goldens.py), which writes the new hashes and records which
changed, and why, in tests/golden/CHANGES.md (tests/test_goldens.py holds the record to them)."""

import pytest

from engine_core import games
from engine_core.ui import layouts
from support.goldens import frame_key, golden_frames, session_hash


@pytest.mark.parametrize("size", layouts.SIZES)
@pytest.mark.parametrize("game", games.available())
def test_every_frame_of_a_random_session_is_as_it_was(game, size):
    assert session_hash(game, size) == golden_frames()[frame_key(game, size)]
