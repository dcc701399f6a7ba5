"""Power cuts during a save on the emulated Pico: the firmware's own save code, littlefs and
the flash as the chip leaves them, nothing modelled.

    python -m tools.device.pico_cuts [BOARD] [--cuts N] [--game NAME]

A first run saves a game (the old state), moves it on and starts saving it again (the new
state); the run ends there, the power cut, at one of N points spread over the save's time on
the chip (measured first). A second run powers up on the flash as the cut left it and loads
the game. It must be the old state or the new, exactly, with no message. tests/test_pico.py
runs a few cuts; the report here runs as many as asked.
"""

import re
import sys

import boards
from tools.device import pico

BOARD = "pico_lcd_13"
GAME = "spite_malice"  # the longest of the five records but Nerts's, and two players' hands
MOVES = 24  # the moves between the old state and the new

SETUP = (
    "from engine_core import games",
    "from engine_core.save import Keeper",
    "from engine_core.game_record import encode_game",
    "from engine_core.records import crc32_parts",
    "from firmware.main import data_storage",
    "from array import array",
    "import time",
    "crc = array('H', [0, 0]); out = array('i', [0] * 400)",
    "def state(k, g):\r    n = encode_game(g, k.moves, k.buf)\r    crc32_parts(k.buf, 0, n, crc)"
    "\r    return '%d-%d-%d' % (n, crc[0], crc[1])\r",
)


def moves_line(count):
    """A loop of `count` moves; repl() types the empty line that ends it (a second one would
    leave a prompt behind, which the next line's wait takes for its own)."""
    return ("for i in range(%d):\r    n = g.legal_moves(out)\r    g.apply(out[(i * 7) %% n]) "
            "if n else g.tick(500)\r    g.respond()\r" % count)


def keeper_script(board):
    """Power on, stop the console, and make `k`: a Keeper on the firmware's own storage."""
    script = pico.Script(board)
    script.boot()
    script.interrupt()
    for line in SETUP:
        script.repl(line)
    script.repl("k = Keeper(data_storage()); k.start()")
    return script


def cut_script(board, game, cut_us):
    """The first run: the old state saved and printed, the new state printed, then its save
    started and the power cut cut_us after the line that starts it is sent (-1: no cut, the
    save timed instead)."""
    script = keeper_script(board)
    script.repl("g = games.load(%r)(2); g.deal(7); k.started(g)" % game)
    script.repl(moves_line(MOVES))
    script.repl("k.moves = %d; k.save_game(g); print('OLD', state(k, g))" % MOVES)
    script.repl(moves_line(MOVES))
    script.repl("k.moves = %d; print('NEW', state(k, g), k.game_file.whole, k.game_file.storage"
                ".atomic)" % (2 * MOVES))
    script.repl("def go():\r    k.save_game(g)\r")
    if cut_us < 0:
        script.repl("t0 = time.ticks_us(); go(); print('SAVE' + '_US', time.ticks_diff("
                    "time.ticks_us(), t0))", expect="SAVE_US")
        script.add({"op": "run", "ms": 20})
    else:
        script.add({"op": "send", "text": "go()\r"})
        script.add({"op": "run", "ms": cut_us / 1000})
    return script


def load_script(board):
    """The second run: power on with the cut flash, load the game and say what came back."""
    script = keeper_script(board)
    script.repl("g = k.resume(); notes = []")
    script.repl("while True:\r    t = k.take_notice()\r    if not t: break\r    notes.append(t)\r")
    script.repl("print('LOAD' + 'ED', state(k, g) if g is not None else 'none', "
                "g.history.moves if g is not None else -1, repr(notes))", expect="LOADED")
    script.add({"op": "run", "ms": 20})
    return script


def found(console, tag):
    text = console if isinstance(console, str) else console.decode(errors="replace")
    m = re.search(r"^" + tag + r" (.*)$", text, re.M)
    if m is None:
        raise pico.PicoError("no %s line; the console ends:\n%s" % (tag, text[-2000:]))
    return m.group(1).strip()


def cut_once(board_name, game, cut_us):
    """(old, new, loaded): the states the first run printed and what the second loaded."""
    board = boards.load(board_name)
    first = pico.run(board_name, cut_script(board, game, cut_us), keep_flash=True)
    old = found(first.console, "OLD")
    new = found(first.console, "NEW").split()[0]
    second = pico.run(board_name, load_script(board), flash_image=first.flash_out)
    return old, new, found(second.console, "LOADED")


def save_us(board_name, game):
    board = boards.load(board_name)
    run = pico.run(board_name, cut_script(board, game, -1))
    return int(found(run.console, "SAVE_US"))


def verdict(old, new, loaded):
    """'old', 'new' or why the load is neither (the history's length and the notices follow
    the state in `loaded`)."""
    state, rest = loaded.split(" ", 1)
    notes = rest.split(" ", 1)[1]
    if notes != "[]":
        return "a message: " + notes
    if state == old:
        return "old"
    if state == new:
        return "new"
    return "neither the old state (%s) nor the new (%s): %s" % (old, new, state)


def sweep(board_name, game, cuts, log=print):
    """Cuts spread from the line's sending to a little past the save's measured length."""
    took = save_us(board_name, game)
    span = took + 20000  # the line is read and compiled before the save starts
    results = []
    for i in range(cuts):
        at = span * (i + 1) // (cuts + 1)
        old, new, loaded = cut_once(board_name, game, at)
        results.append((at, verdict(old, new, loaded)))
        log("cut at %6.1f ms: %s" % (at / 1000, results[-1][1]))
    return took, results


def main():
    from tools.cli import help_or_go
    help_or_go(__doc__, "tools/device/pico_cuts.py")
    args = sys.argv[1:]
    board_name = args[0] if args and not args[0].startswith("-") else BOARD
    cuts = int(args[args.index("--cuts") + 1]) if "--cuts" in args else 8
    game = args[args.index("--game") + 1] if "--game" in args else GAME
    reason = pico.missing()
    if reason:
        raise SystemExit("pico_cuts: " + reason)
    took, results = sweep(board_name, game, cuts)
    bad = [r for r in results if r[1] not in ("old", "new")]
    print("%s on %s: a save takes %.1f ms; %d cuts: %d old, %d new, %d neither" % (
        game, board_name, took / 1000, len(results), sum(r[1] == "old" for r in results),
        sum(r[1] == "new" for r in results), len(bad)))
    if bad:
        raise SystemExit(1)


if __name__ == "__main__":
    main()
