"""Dump the raw framebuffer after a key script, on CPython or on real MicroPython.

    python -m tools.frame --runtime micropython --board 240x240 --game aces_up --seed 7 \\
        --keys "RIGHT A" --out frame.bin

The bytes are the GS4_HMSB buffer exactly as the panel driver would read it (with --mono the
one-bit MONO_VLSB buffer); the two runtimes must give identical bytes
(tests/test_ui_micropython.py, tests/test_mono.py). Without --game the console starts at its
title screen.
"""

import argparse
import binascii

from simulator.boards import resolve_board

GUEST = """
import binascii
from simulator.keys import make_app, run
app = make_app(WIDTH, HEIGHT, GAME, SEED, MONO)
run(app, KEYS)
print(binascii.hexlify(app.screen.buf).decode())
"""


def frame_cpython(width, height, game, seed, keys, mono=False):
    from simulator.keys import make_app, run
    app = make_app(width, height, game, seed, mono)
    run(app, keys)
    return bytes(app.screen.buf)


def frame_micropython(width, height, game, seed, keys, mono=False):
    from tools.mpy import run_micropython
    code = (GUEST.replace("WIDTH", str(width)).replace("HEIGHT", str(height)).replace("MONO", repr(mono))
            .replace("GAME", repr(game)).replace("SEED", repr(seed)).replace("KEYS", repr(keys)))
    result = run_micropython(code)
    if result.exit_code != 0:
        raise RuntimeError("MicroPython failed:\n" + result.stderr)
    return binascii.unhexlify(result.stdout.strip().splitlines()[-1])


def frame(runtime, width, height, game=None, seed=1, keys="", mono=False):
    if runtime == "cpython":
        return frame_cpython(width, height, game, seed, keys, mono)
    if runtime == "micropython":
        return frame_micropython(width, height, game, seed, keys, mono)
    raise ValueError("runtime must be cpython or micropython")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runtime", choices=("cpython", "micropython"), default="cpython")
    parser.add_argument("--board", default="240x240", help="a board name or a size: 240x135, 240x240, 320x240")
    parser.add_argument("--game")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--keys", default="")
    parser.add_argument("--mono", action="store_true", help="a one-bit screen: the MONO_VLSB buffer")
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    try:
        board = resolve_board(args.board)
    except ValueError as e:
        parser.error(str(e))
    mono = args.mono or board.mono
    data = frame(args.runtime, board.width, board.height, args.game, args.seed, args.keys, mono)
    with open(args.out, "wb") as f:
        f.write(data)
    print("%s: %d bytes (%dx%d %s)" % (args.out, len(data), board.width, board.height,
                                      "MONO_VLSB" if mono else "GS4_HMSB"))


if __name__ == "__main__":
    main()
