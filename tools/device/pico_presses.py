"""How soon the emulated Pico answers each press: from the edge that decides it (docs/screen.md,
"When a press acts": the edge its pin latched, or the release of a button that waits) to the
last byte of the first frame that answers it, over a session of every game on a board: the
title, the game list and a first deal, moves, a hint, the pause menu, a new deal from it.

    python -m tools.device.pico_presses pico_lcd_13 [--xip-cache] [--games aces_up,nerts]
    python -m tools.device.pico_presses pico_lcd_13 --xip-cache --turn-keys 12 [--delay 30]

Prints one line a press, and the worst per kind of press (a deal, a full-screen change, the
rest); tests/test_pico.py holds the figures to their targets.
"""

import argparse

import boards
from engine_core import PLAYING
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


def turn_keys(board_name, turns, delay_ms, xip_cache=None):
    """Spite & Malice, deal 1: the player's turns played by the hint (X A A), and a key (RIGHT)
    pressed `delay_ms` after the A that ends each, in the computer's turn shown move by move,
    which the key plays out at once. [(ms from its edge to the last byte of the first flush
    after it, to that of the second, bytes of each)], a row a turn."""
    board = boards.load(board_name)
    reference = Reference(board)
    script = pico.Script(board)
    script.boot()
    done = 0
    for token in pressable(board, "DOWN A %s X A" % " ".join(["DOWN"] * GAMES.index("spite_malice"))):
        script.key(token)
        reference.press(token)
        reference.tick(1000)
    table = reference.console.app.table
    for _ in range(40 * turns):
        if done == turns or table.game.status() != PLAYING:
            break
        for token in pressable(board, "X A"):
            script.key(token)
            reference.press(token)
            reference.tick(1000)
        reference.press("A")
        reference.tick(1)
        if not table.computer_ms:
            script.key("A")
            reference.tick(999)
            continue
        for gpio, hold in pico.button_presses(board, "A"):  # no wait for the panel: the key comes
            script.add({"op": "press", "gpio": gpio, "hold_ms": hold})
        script.add({"op": "run", "ms": delay_ms})
        reference.tick(delay_ms)
        script.key("RIGHT", "turn key")
        reference.press("RIGHT")
        reference.tick(1000)
        done += 1
    result = pico.run(board_name, script, xip_cache=xip_cache)
    if result.tracebacks():
        raise pico.PicoError(result.console[-3000:])
    rows = []
    edge = None
    for marker in result.markers():
        if marker["name"] == "press":
            edge = marker["ns"] / 1e6
        elif marker["name"] == "turn key":
            flushes = [f for f in marker["flushes"] if f[1] / 1e6 > edge][:2]
            rows.append(tuple(f[1] / 1e6 - edge for f in flushes) + tuple(f[2] for f in flushes))
    return rows


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("board", help="an RP2040 board with a built firmware")
    parser.add_argument("--xip-cache", action="store_true", help="with the XIP cache modelled")
    parser.add_argument("--games", default=",".join(GAMES))
    parser.add_argument("--turn-keys", type=int, metavar="TURNS",
                        help="instead: a key in each of the computer's first TURNS turns of Spite & Malice")
    parser.add_argument("--delay", type=int, default=30, help="(--turn-keys) ms from the turn's start to the key")
    args = parser.parse_args()
    if args.turn_keys:
        for first, second, n1, n2 in turn_keys(args.board, args.turn_keys, args.delay, args.xip_cache):
            print("RIGHT in the computer's turn: %5.1f ms to the first flush (%d B), %5.1f ms to the "
                  "turn played out (%d B)" % (first, n1, second, n2))
        return
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
