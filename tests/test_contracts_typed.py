"""The type checker sees what one part of the link asks of another (docs/link.md, "The
session's parts"): each part is made with its collaborators' classes named, so a misspelt call
or field across a part's contract is an error in `make typecheck`, not an AttributeError in a
linked game. A copy of the engine with one such slip in each of seven parts (the Nerts
computer players' too) must give seven errors, one at each slip."""

import os
import shutil
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
STUBS = os.path.join(ROOT, ".venv", "stubs", "rp2")

# (file, the text as it is, the slip): a method or field of another part, misspelt.
SLIPS = (
    ("engine_core/link/hello.py", "self.outbox.queue(m.ACCEPT", "self.outbox.queue_(m.ACCEPT"),
    ("engine_core/link/repair.py", "self.tell(state_hash(self.s.game))", "self.tell(state_hash(self.s.gane))"),
    ("engine_core/link/lockstep.py", "self.repair.my_hash(self.turn_no", "self.repair.my_hashes(self.turn_no"),
    ("engine_core/link/outbox.py", "                self.s.state_sent()", "                self.s.state_send()"),
    ("engine_core/link/transfer.py", "b[0] = self.s.gen", "b[0] = self.s.generation"),
    ("engine_core/link/sending.py", "        if not ch.finish():", "        if not ch.finished():"),
    ("engine_core/ai/nerts_bot.py", "game.advance_clock(end - game.clock_ms)",
     "game.advance_clocks(end - game.clock_ms)"),
)


@pytest.mark.skipif(not os.path.isdir(STUBS), reason="the MicroPython stubs (make typecheck installs them)")
def test_a_slip_across_a_parts_contract_is_a_type_error(tmp_path):
    for folder in ("engine_core", "firmware", "boards"):
        shutil.copytree(os.path.join(ROOT, folder), str(tmp_path / folder),
                        ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(os.path.join(ROOT, "micropython.py"), str(tmp_path))
    for path, text, slip in SLIPS:
        with open(str(tmp_path / path)) as f:
            source = f.read()
        assert source.count(text) >= 1, (path, text)
        with open(str(tmp_path / path), "w") as f:
            f.write(source.replace(text, slip, 1))
    env = dict(os.environ, MYPYPATH=STUBS)
    run = subprocess.run([sys.executable, "-m", "mypy", "--config-file",
                          os.path.join(ROOT, "tools", "device", "mypy-device.ini"),
                          "--cache-dir", str(tmp_path / "cache"), "--custom-typeshed-dir", STUBS,
                          "engine_core", "firmware", "boards"],
                         cwd=str(tmp_path), env=env, capture_output=True, text=True)
    errors = [line for line in run.stdout.split("\n") if ": error:" in line]
    for path, text, slip in SLIPS:
        assert any(line.startswith(path + ":") and "attr-defined" in line for line in errors), \
            (path, slip, run.stdout[-2000:])
    assert len(errors) == len(SLIPS), run.stdout[-2000:]
