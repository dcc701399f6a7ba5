"""make screenshots: PNGs of every game with a layout on every screen class, into docs/screens/.

Each is a short scripted session (a few moves, the cursor and a held card showing), drawn by
the simulator headless; the README shows them.
"""

import os
import subprocess
import sys

from engine_core import games
from engine_core.ui import layouts
from simulator.image import save_png
from simulator.keys import land, make_app, run

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

OUT = os.path.join(ROOT, "docs", "screens")

# Per game: a seed and keys that leave an interesting table (moves made, a card held).
SESSIONS = {
    "aces_up": (14, "X LONG_A X LONG_A X A RIGHT A X A RIGHT A X LONG_A LEFT A"),
}
FOLLOW_HINTS = "X A A " * 14 + "X A"  # the hinted moves, then one card held
# Screens other than play, on 240x240.
EXTRA = (
    ("title", None, 1, ""),
    ("menu", "aces_up", 7, "X LONG_A START DOWN"),
    ("rules", "aces_up", 7, "START UP UP UP UP A"),
    ("statistics", None, 1, "DOWN DOWN A"),
    ("confirm", "aces_up", 7, "X LONG_A START UP A"),
)


def shoot(path, width, height, game, seed, keys):
    app = make_app(width, height, game, seed)
    run(app, keys)
    land(app)
    s = app.screen
    save_png(path, s.buf, s.width, s.height, s.palette, 2)


def shoot_link(out):
    """Link play on 240x240: the link screen waiting, then one deal from both consoles' seats
    after a few turns (two consoles in this process over a simulated wire)."""
    from engine_core.link.channel import Channel
    from engine_core.link.loopback import Wire
    from engine_core.link.session import Session
    from engine_core.ui import buttons as bt
    wire = Wire(1)
    apps = []
    for side in range(2):
        app = make_app(240, 240)
        end = wire.end(side)
        app.attach_link(lambda end=end: Session(Channel(end)), b"UART")
        app.open_link()
        apps.append(app)
    host, guest = apps
    host.press(bt.A)  # host Spite & Malice
    written = [os.path.join(out, "link-240x240.png")]
    save_png(written[0], host.screen.buf, 240, 240, host.screen.palette, 2)
    guest.selected = 2  # join
    guest.press(bt.A)

    def ticks(n):
        for _ in range(n):
            host.tick(20)
            guest.tick(20)
    ticks(10)
    path = os.path.join(out, "link-join-240x240.png")  # the tables heard
    guest.redraw()
    save_png(path, guest.screen.buf, 240, 240, guest.screen.palette, 2)
    written.append(path)
    guest.press(bt.A)  # join the table listed
    ticks(50)
    for _ in range(7):  # the player to move follows the hints
        for app in apps:
            if app.table.game.turn() == app.table.seat:
                for key in (bt.X, bt.A, bt.A):
                    app.press(key)
        ticks(40)
    for name, app in (("link-host", host), ("link-guest", guest)):
        land(app)
        path = os.path.join(out, name + "-240x240.png")
        save_png(path, app.screen.buf, 240, 240, app.screen.palette, 2)
        written.append(path)
    return written


def main():
    os.makedirs(OUT, exist_ok=True)
    written = []
    for game in games.names():
        if game not in games.available() or games.layout(game) is None:
            continue
        seed, keys = SESSIONS.get(game, (7, FOLLOW_HINTS))
        for width, height in layouts.SIZES:
            path = os.path.join(OUT, "%s-%dx%d.png" % (game, width, height))
            shoot(path, width, height, game, seed, keys)
            written.append(path)
    for name, game, seed, keys in EXTRA:
        path = os.path.join(OUT, "%s-240x240.png" % name)
        shoot(path, 240, 240, game, seed, keys)
        written.append(path)
    written += shoot_link(OUT)
    path = os.path.join(OUT, "simulator-320x240.png")  # the window: skin and keyboard map
    env = dict(os.environ, SDL_VIDEODRIVER="dummy")
    subprocess.run([sys.executable, "-m", "simulator", "--headless", "--board", "320x240",
                    "--game", "aces_up", "--seed", "7", "--keys", "X", "--skin", "--keymap",
                    "--scale", "2", "--screenshot", path], cwd=ROOT, env=env, check=True)
    written.append(path)
    for path in written:
        print("wrote %s (%d bytes)" % (os.path.relpath(path, ROOT), os.path.getsize(path)))


if __name__ == "__main__":
    from tools.cli import help_or_go
    help_or_go(__doc__, '-m tools.screenshots   (rewrites the PNGs in docs/screens/)')
    main()
