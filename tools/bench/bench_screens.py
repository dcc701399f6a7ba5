"""What the screens cost: fuel per keypress (button -> ui -> game -> redraw into the
framebuffer), fuel per full-screen redraw, the share of the screen a move redraws, and the
simulator's frames per second on the host.

Keypresses are those of the scripted sessions in support/ui_scripts.py, played on
real MicroPython. A "card move" keypress placed a card (A on a pile, or long A); an "action"
keypress played an action word (Aces Up's deal: four piles change); "cursor" keypresses
moved the cursor, picked a card up or cancelled; "hint" is X (the game's hint, whose
budget is 17 M); "turn end" is a move after which the journal was cleared (a game's end or
a new game in Spite & Malice); "a computer move" is a frame of the computer's turn, which the
table shows one move at a time (Spite & Malice; a key pressed meanwhile lets it finish its
turn at once, within the computer-turn budget of 17 M).
Columns show median / worst. A keypress
redraws at most two piles in its own frame; when more changed (a deal, the computer's
turn), the rest are drawn in the following frames, measured separately. "The next frame" is
the first frame after a keypress has settled: there the table generates the legal moves
ahead of the next keypress (solitaires and turn-based games). The full redraw is the table drawn from nothing
after the session. Budgets (docs/performance.md): 1.3 M fuel a keypress, 5 M a full
redraw, 15% of the pixels a move.
"""

import json
import os
import time

from engine_core.ui.screens import PLAY
from tools.mpy import FUEL_PRELUDE


TITLE = "Screens: keypress and redraw"

GUEST = FUEL_PRELUDE + """
import gc, host, json
from simulator.keys import make_app, parse


def median(xs):
    xs.sort()
    return xs[len(xs) // 2] if xs else 0

app = make_app(WIDTH, HEIGHT, GAME, 7)
events = parse(KEYS)
screen = app.screen
moves = []
idle = []
turns = []
steps = []
hints = []
frames = []
actions = []
undos = []
cursor = []
share = []
for e in events:
    if app.mode != 3:  # only keypresses in play
        if e[0] >= 0:
            app.press(e[0], e[1])
        continue
    if e[0] < 0:
        app.tick(-e[0])
        continue
    count = app.table.game.history.moves
    clears = app.table.game.history.clears
    screen.clear_dirty()
    # The app allocates nothing in play, but this script does (its lists, the fuel readings):
    # collect now so that no collection of its garbage lands inside a measured keypress.
    gc.collect()
    a = fuel()
    app.press(e[0], e[1])
    b = fuel()
    while app.mode == 3 and app.table.pending:  # the rest of a spread redraw, frame by frame
        gc.collect()
        c = fuel()
        app.tick(0)
        d = fuel()
        frames.append(d - c - overhead)
    while app.mode == 3 and app.table.computer_ms > 0:  # the computer's turn, a move at a time
        gc.collect()
        c = fuel()
        app.tick(app.table.computer_ms)
        d = fuel()
        steps.append(d - c - overhead)
        while app.mode == 3 and app.table.pending:
            app.tick(0)
    if app.mode == 3:  # a frame passes before the next keypress (moves made ready there)
        gc.collect()
        c = fuel()
        app.tick(0)
        d = fuel()
        idle.append(d - c - overhead)
    if app.mode != 3:
        continue
    if app.table.game.history.clears != clears or (
            app.table.game.TURN_BASED and app.table.game.history.moves > count + 1):
        turns.append(b - a - overhead)  # a new game, or the computer's turn after the move
    elif e[0] == 6:
        hints.append(b - a - overhead)
    elif app.table.game.history.moves > count:
        if app.table.game.history.last_move() >> 16 == 255:
            actions.append(b - a - overhead)
        else:
            moves.append(b - a - overhead)
            share.append(screen.pixels_marked * 1000 // (screen.width * screen.height))
    elif app.table.game.history.moves < count:
        undos.append(b - a - overhead)
    else:
        cursor.append(b - a - overhead)
app.open_game(GAME, 7)
app.table.valid = False
a = fuel()
app.table.refresh()
b = fuel()
full = b - a - overhead
def worst(xs):
    return max(xs) if xs else 0

print(json.dumps({"move": [median(moves), worst(moves), len(moves)],
                  "action": [median(actions), worst(actions), len(actions)],
                  "undo": [median(undos), worst(undos), len(undos)],
                  "frames": [median(frames), worst(frames), len(frames)],
                  "idle": [median(idle), worst(idle), len(idle)],
                  "turn": [median(turns), worst(turns), len(turns)],
                  "steps": [median(steps), worst(steps), len(steps)],
                  "hint": [median(hints), worst(hints), len(hints)],
                  "cursor": [median(cursor), worst(cursor), len(cursor)],
                  "share": [median(share), worst(share)], "full": full}))
"""


def micropython_figures(game, width, height, keys):
    from tools.mpy import run_micropython
    code = (GUEST.replace("WIDTH", str(width)).replace("HEIGHT", str(height))
            .replace("GAME", repr(game)).replace("KEYS", repr(keys)))
    result = run_micropython(code)
    if result.exit_code != 0:
        raise SystemExit("screen bench failed on MicroPython:\n" + result.stderr)
    return json.loads(result.stdout.strip().splitlines()[-1])


# The collector is conservative: a dead object whose address a deep call left on the C stack
# stays alive through the next collection (1,488 B of it after opening Nerts, by chance of
# layout). scrub() overwrites that stack with a chain of shallow frames before each count.
HEAP_GUEST = """
import gc
from engine_core import games
from simulator.keys import make_app
def scrub(n):
    return scrub(n - 1) if n else 0
games.available()  # modules first: on the device they are frozen, their code in flash
scrub(60)
gc.collect()
a = gc.mem_alloc()
app = make_app(WIDTH, HEIGHT)
scrub(60)
gc.collect()
b = gc.mem_alloc()
app.open_game(GAME, 1)
scrub(60)
gc.collect()
c = gc.mem_alloc()
print(b - a, c - b)
"""


def heap_figures(game, width, height):
    """Bytes of heap: the app with its framebuffer and art, then one game with its table."""
    from tools.mpy import run_micropython
    code = (HEAP_GUEST.replace("WIDTH", str(width)).replace("HEIGHT", str(height))
            .replace("GAME", repr(game)))
    result = run_micropython(code)
    if result.exit_code != 0:
        raise SystemExit("heap bench failed on MicroPython:\n" + result.stderr)
    app, table = result.stdout.split()
    return int(app), int(table)


def simulator_fps(game, width, height, keys, seconds=1.0):
    """Frames per second of the simulator's loop: a keypress, the redraw, the window update
    (headless SDL), cycling through the scripted session."""
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    from simulator.keys import make_app, parse
    from simulator.window import Window
    events = [e for e in parse(keys) if e[0] >= 0]
    app = make_app(width, height, game, 7)
    window = Window(app.screen, scale=3, board=None, visible=False)
    frames = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        button, long_press = events[frames % len(events)]
        app.press(button, long_press)
        if app.mode != PLAY:
            app.open_game(game, 7)
        window.update()
        frames += 1
    window.close()
    return frames / (time.perf_counter() - start)


def measure():
    from engine_core.ui import layouts
    from support.ui_scripts import games_with_layouts, script
    rows = [
        "| game | screen | card move keypress fuel (median / worst) | cursor or pick-up keypress | hint (X) | action (deal, draw) | undo | turn end | a computer move shown | later frames of a spread redraw (median / worst, count) | the next frame (median / worst) | full redraw | screen redrawn per card move (median / worst) | simulator fps |",
        "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    for game in games_with_layouts():
        for width, height in layouts.SIZES:
            f = micropython_figures(game, width, height, script(game))
            fps = simulator_fps(game, width, height, script(game), 0.5)
            def pair(k):
                return "%s / %s" % (format(f[k][0], ","), format(f[k][1], ","))
            rows.append("| %s | %dx%d | %s (%.1f ms RP2040) | %s | %s | %s | %s | %s | %s | %s, %d | %s | %s (%.1f ms) | %.1f%% / %.1f%% | %d |" % (
                game, width, height, pair("move"), f["move"][1] / 168 / 1000, pair("cursor"),
                pair("hint"), pair("action"), pair("undo"), pair("turn") if f["turn"][2] else "-",
                pair("steps") if f["steps"][2] else "-",
                pair("frames"), f["frames"][2], pair("idle"),
                format(f["full"], ","), f["full"] / 168 / 1000,
                f["share"][0] / 10, f["share"][1] / 10, fps))
    rows.append("")
    rows.append("| game | screen | heap: app, framebuffer and art | heap: the game and its table | total |")
    rows.append("| --- | --- | --- | --- | --- |")
    for game in games_with_layouts():
        for width, height in layouts.SIZES:
            app, table = heap_figures(game, width, height)
            rows.append("| %s | %dx%d | %s B | %s B | %s B |" % (
                game, width, height, format(app, ","), format(table, ","), format(app + table, ",")))
    return "\n".join(rows)


if __name__ == "__main__":
    from tools.cli import help_or_go
    help_or_go(__doc__, '-m tools.bench.bench_screens')
    print(measure())
