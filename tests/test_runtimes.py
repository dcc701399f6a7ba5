"""The two MicroPython runtimes of tools/mpy.py agree: the WebAssembly build (fuel figures, the
short runs) and the unix port (the long runs) print the same for the same scripts. Also the
unix port's build (tools/mpy_unix.py): cached, and a clear refusal without its source."""

import os

import pytest

from tools import mpy_unix
from tools.mpy import run_micropython
from tools.reliability import fuzz, soak

SEEDS = 12  # deals of each game and player count on each runtime

DEALS = """
from engine_core import games
from engine_core.link.statehash import state_hash
from engine_core.protocol import state_json
for name in games.available():
    cls = games.load(name)
    for players in range(cls.MIN_PLAYERS, cls.MAX_PLAYERS + 1):
        for seed in range(SEEDS):
            game = cls(players)
            game.deal(seed * 7919 + 3)
            print(name, players, seed, state_hash(game), state_json(game))
"""

# No gc.collect() inside the loops: the WebAssembly build's collector, run there, frees the
# loop's live iterator (tools/mpy.py); the 32 MB heap never fills in these scripts.
SESSION = """
from array import array
from engine_core import PLAYING, games, rng
from engine_core.link.statehash import state_hash
x = rng.seed_state(SEED)
for name in games.available():
    cls = games.load(name)
    out = array("i", [0] * cls.MAX_MOVES)
    game = cls(cls.MAX_PLAYERS)
    x = rng.step(x)
    game.deal(x % 100000)
    hashes = []
    for step in range(STEPS):
        if game.status() != PLAYING:
            break
        n = game.legal_moves(out)
        x = rng.step(x)
        if n == 0:
            game.tick(500)
        else:
            game.apply(out[x % n])
            game.respond()
            game.tick(x % 1000)
        hashes.append(state_hash(game))
    print(name, game.status(), len(hashes), " ".join([str(h) for h in hashes]))
"""


def both(code, stdin=b""):
    """The script's output on each runtime, after checking each ran to its end."""
    wasm = run_micropython(code, stdin, runtime="wasm")
    unix = run_micropython(code, stdin, runtime="unix")
    assert wasm.exit_code == 0, wasm
    assert unix.exit_code == 0, unix
    assert unix.fuel is None and wasm.fuel > 0
    return wasm.stdout, unix.stdout


def test_every_game_deals_the_same_on_both_runtimes():
    wasm, unix = both(DEALS.replace("SEEDS", str(SEEDS)))
    lines = wasm.splitlines()
    setups = sum(cls.MAX_PLAYERS - cls.MIN_PLAYERS + 1
                 for cls in (soak.games.load(n) for n in soak.games.available()))
    assert len(lines) == setups * SEEDS
    assert len(set(line.split(" ", 3)[3] for line in lines)) == len(lines)  # every deal its own
    assert unix == wasm


def test_a_random_session_has_the_same_state_hashes_on_both_runtimes():
    wasm, unix = both(SESSION.replace("SEED", "5").replace("STEPS", "300"))
    lines = wasm.splitlines()
    assert [line.split()[0] for line in lines] == soak.games.available()
    assert sum(int(line.split()[2]) for line in lines) > 500  # moves were played
    assert unix == wasm


def test_the_protocol_replies_the_same_on_both_runtimes():
    """The protocol fuzzer's lines (commands, moves, loads, malformed lines), served by the
    same script on each runtime: the replies are byte for byte the same."""
    _, made, replies = fuzz.fuzz_cpython(1200, seed=11)
    stdin = b"\n".join(made) + b"\n"
    wasm, unix = both(fuzz.MPY_FUZZ, stdin)
    assert wasm.count("\n") > 1000
    assert unix == wasm
    assert wasm.rsplit("\n@@counts", 1)[0].split("\n")[:-1] == [r[:-1] for r in replies]


def test_the_unix_runtime_reports_exit_codes_and_tracebacks():
    result = run_micropython("import sys\nprint('out')\nsys.exit(3)", runtime="unix")
    assert (result.stdout, result.exit_code, result.fuel) == ("out\n", 3, None)
    result = run_micropython("import engine_core\nraise ValueError('no')", runtime="unix")
    assert result.exit_code == 1 and "ValueError: no" in result.stderr
    result = run_micropython("import sys\nprint(sys.stdin.read())", b"given", runtime="unix")
    assert result.stdout == "given\n"
    with pytest.raises(ValueError):
        run_micropython("print(1)", runtime="pypy")


def test_the_unix_build_says_where_it_looked_when_the_source_is_missing(monkeypatch, tmp_path):
    monkeypatch.delenv("MICROPY_UNIX_SRC", raising=False)
    monkeypatch.setenv("FIRMWARE_CACHE", str(tmp_path))
    missing = str(tmp_path / "shared" / "micropython" / "micropython-1.27.0-unix.tar.xz")
    monkeypatch.setattr(mpy_unix, "ARCHIVE", missing)
    with pytest.raises(mpy_unix.BuildError) as e:
        mpy_unix.build()
    assert missing in str(e.value) and "MICROPY_UNIX_SRC" in str(e.value)
    monkeypatch.setenv("MICROPY_UNIX_SRC", str(tmp_path / "nowhere"))
    with pytest.raises(mpy_unix.BuildError, match="nowhere"):
        mpy_unix.build()


def test_a_built_unix_runtime_is_found_in_the_cache_and_not_built_again(monkeypatch, tmp_path):
    archive = tmp_path / "micropython-1.27.0-unix.tar.xz"
    archive.write_bytes(b"stands for the source archive")
    monkeypatch.setenv("MICROPY_UNIX_SRC", str(archive))
    monkeypatch.setenv("FIRMWARE_CACHE", str(tmp_path / "cache"))
    cached = mpy_unix.cached_binary()
    assert os.path.basename(cached) == "micropython-unix-" + mpy_unix.file_digest(str(archive))
    os.makedirs(os.path.dirname(cached))
    open(cached, "w").close()

    def no_build(*args, **kwargs):
        raise AssertionError("built again")

    monkeypatch.setattr(mpy_unix.subprocess, "run", no_build)
    monkeypatch.setattr(mpy_unix, "_extract", no_build)
    assert mpy_unix.build() == cached


def test_the_soak_goes_on_past_a_runtime_that_stops(monkeypatch):
    """A MicroPython run that traps (as the WebAssembly build's did on long runs) is a failure
    of its run; the suite goes on to its end, and a suite that raises is one failure."""
    import tools.mpy

    calls = []

    def trapping(code, stdin=b"", fuel=0, root=None, runtime="wasm"):
        calls.append(runtime)
        raise RuntimeError("wasm trap: out of bounds memory access")

    monkeypatch.setattr(tools.mpy, "run_micropython", trapping)
    counts = soak.mpy_restart_suite(3 * soak.MPY_RESTART_CHUNK)
    assert calls == ["unix"] * 3
    assert counts["failures"] == 3 and "out of bounds" in counts["first"]
    counts = soak.run_suite(lambda: soak.mpy_mash_suite(100))
    assert counts == {"failures": 1, "first": "raised RuntimeError: wasm trap: out of bounds memory access"}
    assert calls[-1] == "unix"


def test_the_soak_runs_one_suite_when_asked_and_times_it():
    results = soak.run_all(soak.QUICK, log=lambda *words: None, only=["deal quality on MicroPython"])
    assert list(results) == ["deal quality on MicroPython"]
    counts = results["deal quality on MicroPython"]
    assert counts["failures"] == 0 and counts["deals"] == soak.QUICK["mpy_quality_deals"], counts
    assert counts["time"].endswith(" s") and counts["CPU"].endswith(" s")
    with pytest.raises(ValueError, match="no suite named nowhere"):
        soak.run_all(soak.QUICK, only=["nowhere"])
