"""How soon the emulated Pico answers each press: from the edge that decides it (docs/screen.md,
"When a press acts": the edge its pin latched, or the release of a button that waits) to the
last byte of the first frame that answers it, over a session of every game on a board: the
title, the game list and a first deal, moves, a hint, the pause menu, a new deal from it.

    python -m tools.device.pico_presses pico_lcd_13 [--xip-cache] [--games aces_up,nerts]

Prints one line a press, and the worst per kind of press (a deal, a full-screen change, the
rest); tests/test_pico.py holds the figures to their targets.
"""

import argparse

import boards
from tools.device import pico
from tools.device.pico_scenario import GAMES, Reference, delivered_ms, pressable

# From the title: the game list, the game, a first deal; moves and a hint; the pause menu
# opened and closed; a new deal from it (the game counts: the question, then yes).
SESSION = "DOWN A %s A RIGHT A A X A A START START START DOWN DOWN DOWN DOWN DOWN A A"


def answers(board_name, game, xip_cache=None, xip_misses=None):
    """[(token, screen before it, ms from its deciding edge to the last byte of the first frame
    after it, bytes of that frame)] of the session; a press that drew nothing is left out.
    xip_misses: a file for the XIP cache's misses (pico.run)."""
    board = boards.load(board_name)
    keys = pressable(board, SESSION % " ".join(["DOWN"] * GAMES.index(game)))
    script = pico.Script(board)
    script.boot()
    for token in keys:
        script.key(token)
    result = pico.run(board_name, script, xip_cache=xip_cache, xip_misses=xip_misses)
    markers = result.markers()
    marks = [m for m in markers if m["name"] not in ("boot", "press", "end")]
    presses = [m for m in markers if m["name"] == "press"]
    reference = Reference(board)
    out = []
    for token, press, mark in zip(keys, presses, marks):
        screen = reference.console.mode
        deferred = reference.console.defers()
        reference.press(token)
        reference.tick(1000)
        edge = delivered_ms(board, token, press, deferred)
        flushes = [f for f in mark["flushes"] if f[1] / 1e6 > edge]
        if flushes:
            out.append((token, screen, flushes[0][1] / 1e6 - edge, flushes[0][2]))
    return out


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("board", help="an RP2040 board with a built firmware")
    parser.add_argument("--xip-cache", action="store_true", help="with the XIP cache modelled")
    parser.add_argument("--games", default=",".join(GAMES))
    args = parser.parse_args()
    board = boards.load(args.board)
    full = pico.frame_bytes(board)
    for game in args.games.split(","):
        rows = answers(args.board, game, args.xip_cache)
        for token, screen, ms, n in rows:
            print("%-12s %-6s screen %d  %6.1f ms  %6d B%s" % (game, token, screen, ms, n,
                                                              "  full" if n >= full else ""))
        small = [ms for _, _, ms, n in rows if n < full]
        big = [ms for _, _, ms, n in rows if n >= full]
        print("%s: worst %.1f ms a partial frame, %.1f ms a full one"
              % (game, max(small, default=0.0), max(big, default=0.0)))


if __name__ == "__main__":
    main()
