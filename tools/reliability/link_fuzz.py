"""A stranger on the link: a hostile peer against a real Console (App, Keeper, data folder in
RAM) whose player presses keys at the same time (docs/link.md, "Threat model").

The peer plays a real Session (it hosts, joins, plays its own seat's legal moves, leaves and
offers again) and, between, writes messages of its own straight onto the wire: random kinds
and bytes, friendly messages mutated (a byte changed, cut short, made longer), replayed,
sent out of order, kinds the console's state does not take (an OFFER in play, an ACCEPT
at a guest, a STATE at a host), and any of these as frames of another table, from another
console or to another (pairing: they must change nothing but the channel's count of refused
frames), offers of other tables among them. After every step it checks:

- no exception;
- every card of the console's game exactly once, every pile within its capacity, and the
  position one `load` would take (check_position);
- every move the link applied to the console's game was legal there and of the peer's seat
  (Spite & Malice: the peer's turn; Nerts: a seat the console does not play);
- the records (statistics, settings) changed only in a step with a key press of the local
  player;
- the game on the console's table was never replaced, nor dealt again, while it was a local
  game (not linked, and the player not on the link screen), without the player's key press.

    python -m tools.reliability.link_fuzz [MESSAGES] [SEED]
"""

import random
import sys

from engine_core import games
from engine_core import records as r
from engine_core.console import Console
from engine_core.gfx.screen import Screen
from engine_core.link import messages as m
from engine_core.link import session as ls
from engine_core.storage import MemoryStorage
from engine_core.ui import buttons as bt
from engine_core.ui import screens as ui
from engine_core.ui.app import App
from engine_core.ui.linkplay import L_JOINING
from simulator import framebuf
from support.fakes.link import FakeWire
from tools.reliability.link_play import every_card_once

STEP_MS = 20
KEYS = (bt.UP, bt.DOWN, bt.LEFT, bt.RIGHT, bt.A, bt.A, bt.A, bt.X, bt.X, bt.Y)
LEAVING_KEYS = (bt.B, bt.START)  # pressed now and then: menus, no to a question, leaving


class Stranger:
    """The hostile peer: a Session of its own over `channel`, and a pen: write(kind, data)
    puts any message on the way to the console."""

    def __init__(self, channel, rand, name, write, stranger=None):
        """write(kind, data): a message on the way to the console from this peer; stranger(kind,
        data): the same as another console's, or of another table (None: not on this medium)."""
        self.rand = rand
        self.stranger = stranger
        self.strangers = 0  # messages written as another console's or another table's
        self.name = name
        self.write = write
        self.session = ls.Session(channel)
        self.game = None
        self.heard = []  # friendly messages this peer sent: material to replay and mutate
        self.now = 0
        send = channel.send

        def kept(kind, data, n):  # what the session sends is kept to be replayed and mutated
            taken = send(kind, data, n)
            if taken:
                if len(self.heard) < 64:
                    self.heard.append((kind, bytes(data[:n])))
                else:
                    self.heard[self.rand.randrange(64)] = (kind, bytes(data[:n]))
            return taken
        channel.send = kept

    def host(self):
        cls = games.load(self.name)
        options = self.rand.choice((0, games.options(target=50)))
        self.game = cls(2, options)
        self.session.host(self.game, self.rand.randrange(1 << 30), options, bytes((ls.HERE, ls.THERE)), self.now)

    def play(self):
        """A legal move of its own seat, now and then (the game goes on)."""
        s = self.session
        game = s.game
        if game is None or s.state != ls.S_PLAYING:
            return
        if game.TURN_BASED and game.turn() != s.my_seat:
            return
        n = game.moves_of(s.my_seat, game.scratch)
        if n:
            move = game.scratch[self.rand.randrange(n)]
            game.apply(move)
            s.local_move(move, self.now)

    def step(self, ms=STEP_MS):
        self.now += ms
        s = self.session
        if s.game is not None and s.state == ls.S_PLAYING and not s.game.TURN_BASED:
            s.game.tick(ms)
        flags = s.poll(self.now)
        if flags & ls.OFFER:
            s.accept(games.load(games.name_of(s.offer_game_id))(s.offer_players, s.offer_options), self.now)
        return flags

    def mischief(self, gen):
        """One hostile message: random, mutated, replayed, or of a kind out of place."""
        rand = self.rand
        how = rand.randrange(6)
        write = self.write
        if self.stranger is not None and rand.randrange(4) == 0:
            write = self.stranger  # another console's frame, or another table's
            self.strangers += 1
        if how == 0 or not self.heard:
            n = rand.randrange(0, 121)
            write(rand.randrange(0, 14), bytes(rand.randrange(256) for _ in range(n)))
            return
        kind, data = rand.choice(self.heard)
        data = bytearray(data)
        if how == 1 and data:  # a byte changed
            data[rand.randrange(len(data))] = rand.randrange(256)
        elif how == 2:  # cut short, or made longer
            if data and rand.randrange(2):
                data = data[:rand.randrange(len(data))]
            else:
                data += bytes(rand.randrange(256) for _ in range(rand.randrange(1, 12)))
        elif how == 3:  # of the generation now, a seat changed: another's move, another's undo
            if data:
                data[0] = gen
            if len(data) > 1:
                data[1] = rand.randrange(3)
        elif how == 4:  # a kind out of place
            kind = rand.choice((m.OFFER, m.ACCEPT, m.REFUSE, m.STATE, m.RESYNC, m.BYE, m.CLOCK, m.UNDO))
            if kind == m.OFFER:
                data = offer(rand)
        write(kind, data[:120])  # how == 5: replayed as it was


def offer(rand):
    """An offer, now well formed, now not (seats, options, seed, length)."""
    players = rand.choice((2, 2, 2, 3, 0, 9))
    d = bytearray(12 + max(0, min(players, 4)))
    d[0] = rand.choice((m.VERSION, m.VERSION, 2))
    d[1] = rand.choice((games.game_id("spite_malice"), games.game_id("nerts"), 200))
    d[2] = rand.choice((1, 1, 7))
    d[3] = players
    r.put_i32(d, 4, rand.choice((0, -1, games.options(target=100), -(1 << 29))))
    r.put_i32(d, 8, rand.choice((5, -7, 1 << 29)))
    for p in range(12, len(d)):
        d[p] = rand.choice((ls.HERE, ls.THERE, ls.COMPUTER, 0, 9))
    return d


class Watch:
    """The invariants, checked after every step (see the module's docstring)."""

    def __init__(self, console):
        self.console = console
        self.app = console.app
        self.seen = bytearray(256)
        self.failures = 0
        self.first = ""
        self.applied = 0
        self.watched = None

    def fail(self, why):
        self.failures += 1
        if not self.first:
            self.first = why

    def records(self):
        app = self.app
        return (tuple(app.played), tuple(app.won), tuple(app.streak), tuple(app.best), app.left,
                bytes(app.settings))

    def watch_moves(self, game, session):
        """Every move applied to `game` while the session polls: legal, of the peer's seat."""
        if self.watched is game:
            return
        self.watched = game
        apply = type(game).apply
        watch = self

        def checked(move):
            # (A table the link left plays on against the computer, sides swapped: its moves
            # in a tick are the computer's, not the link's.)
            if watch.in_poll and session.state != ls.S_LEFT and session.state != ls.S_IDLE:
                s = session
                if not game.is_legal(move):
                    watch.fail("an illegal move applied from the link: %06x" % move)
                elif game.TURN_BASED:
                    if game.turn() != s.peer_seat:
                        watch.fail("a move applied from the link in this console's turn: %06x" % move)
                watch.applied += 1
            return apply(game, move)
        game.apply = checked

    def step(self, stranger, keys):
        app = self.app
        table = app.table
        before_game = table.game if table is not None else None
        # A local game: not linked, and the player is not on the link screen (where it went
        # by leaving the game, and from where it hosts or joins).
        local = before_game is not None and not app.linked() and app.mode != ui.LINK
        before_seed = before_game.seed if local else None
        before_records = self.records()
        s = app.link.session if app.link is not None else None
        if s is not None and s.game is not None:
            self.watch_moves(s.game, s)
        self.in_poll = True
        try:
            self.console.tick(STEP_MS)
        finally:
            self.in_poll = False
        for key in keys:
            self.console.press(key)
            app.redraw()
        table = app.table
        if table is None:
            if app.mode in (ui.PLAY, ui.END, ui.LINK_LEFT, ui.PAUSE):
                self.fail("no table on a screen that shows one (mode %d)" % app.mode)
            return
        game = table.game
        piles = game.piles
        for p in range(piles.count):
            if piles.size[p] > piles.cap[p]:
                self.fail("%s holds %d, its capacity %d" % (game.pile_names[p], piles.size[p], piles.cap[p]))
        if not every_card_once(game, self.seen):
            self.fail("a card missing or twice in %s" % game.NAME)
        why = game.check_position()
        if why:
            self.fail("a position load refuses: %s" % why)
        if not keys:
            if self.records() != before_records:
                self.fail("the records changed with no key pressed")
            if local and (game is not before_game or game.seed != before_seed):
                self.fail("the local game was replaced with no key pressed")


def fuzz(name, console_hosts, messages, seed=1):
    """`messages` hostile messages at a console playing `name` with the stranger: counts."""
    rand = random.Random(seed)
    wire = FakeWire()
    console = Console(App(Screen(240, 240, framebuf)), MemoryStorage())
    console.start()
    console.app.attach_link(lambda: ls.Session(wire.end(1)), b"stranger")
    def elsewhere(kind, data):
        """As written at another table, or by another console, or to another: the channel's
        pairing must turn it away (FakeChannel judges it as the channel does: pairing.admits)."""
        end = wire.end(0)
        table, writer, to = end.table, end.me, end.partner
        which = rand.randrange(4)
        if which == 0:
            table = (table + 1 + rand.randrange(0xFFFE)) % 0xFFFF + 1  # another table
        elif which == 1:
            writer = 0x300 + rand.randrange(256)  # another console
        elif which == 2:
            to = 0x300 + rand.randrange(256)  # to another console
        else:  # an offer of a table that ended, or of another, to anyone
            kind, data, to = m.OFFER, bytes(offer(rand)), 0
            table = rand.choice((console.app.link.session.hello.table_id if console.app.link.session else 0,
                                 1 + rand.randrange(0xFFFF)))
        wire.queues[1].append((kind, bytes(data), table, writer, to))

    stranger = Stranger(wire.end(0), rand, name, lambda kind, data: wire.queues[1].append((kind, bytes(data))),
                        elsewhere)
    watch = Watch(console)
    app = console.app

    def sit_down():
        """The player opens Link play and hosts or joins; the stranger does the other."""
        app.open_link()
        if console_hosts:
            app.selected = 0 if name == "spite_malice" else 1
            console.press(bt.A)
            stranger.session.join(stranger.now)
        else:
            app.selected = 2
            console.press(bt.A)
            if stranger.session.state != ls.S_WAITING:
                stranger.host()

    sit_down()
    sent = steps = linked = 0
    while sent < messages:
        steps += 1
        stranger.step()
        if rand.randrange(3) == 0:
            stranger.play()
        for _ in range(rand.randrange(4)):
            if sent < messages:
                s = app.link.session
                stranger.mischief(s.gen if s is not None else 0)
                sent += 1
        if rand.randrange(400) == 0:  # the stranger leaves, and offers again
            stranger.session.leave(stranger.now)
            stranger.host()
        keys = ()
        if app.mode == ui.PLAY and rand.randrange(3) == 0:
            keys = (bt.X, bt.A, bt.A)  # the hinted move, as a player who knows the keys
        elif app.mode == ui.LINK and app.link.status == L_JOINING and app.link.session.tables.count \
                and rand.randrange(2) == 0:
            keys = (rand.choice((bt.A, bt.A, bt.DOWN)),)  # a table on the join list: pick one
        elif rand.randrange(4) == 0:
            keys = (rand.choice(LEAVING_KEYS) if rand.randrange(25) == 0 else rand.choice(KEYS),)
        s = app.link.session
        if s.is_host and s.state == ls.S_WAITING and stranger.session.is_host and rand.randrange(50) == 0:
            stranger.session.join(stranger.now)  # two hosts: the stranger takes the console's table
        elif stranger.session.state in (ls.S_IDLE, ls.S_LEFT) and rand.randrange(50) == 0:
            if console_hosts:
                stranger.session.join(stranger.now)  # the stranger comes back
            else:
                stranger.host()
        try:
            watch.step(stranger, keys)
        except Exception as e:  # a crash is a failure, with what it was
            watch.fail("raised %s: %s" % (type(e).__name__, e))
            break
        linked += app.linked()
        if not app.linked() and app.mode != ui.LINK_ASK and rand.randrange(100) == 0:
            sit_down()  # the player comes back to link play now and then
    s = app.link.session
    return {"messages": sent, "steps": steps, "steps linked": linked, "moves applied from the link": watch.applied,
            "refused": s.refused, "rejected": s.rejected, "failures": watch.failures,
            "of other tables or consoles": stranger.strangers, "frames refused": s.ch.refused,
            **({"first": watch.first} if watch.first else {})}


def fuzz_suite(messages, seed=1, progress=None):
    """`messages` in all, a quarter each: Spite & Malice and Nerts, the console hosting and joining."""
    total = {"messages": 0, "steps linked": 0, "moves applied from the link": 0, "rejected": 0, "refused": 0,
             "failures": 0, "of other tables or consoles": 0, "frames refused": 0}
    k = 0
    for name in ("spite_malice", "nerts"):
        for hosts in (True, False):
            got = fuzz(name, hosts, messages // 4, seed + k)
            k += 1
            for key in ("messages", "steps linked", "moves applied from the link", "rejected", "refused",
                        "failures", "of other tables or consoles", "frames refused"):
                total[key] += got[key]
            if got.get("first") and "first" not in total:
                total["first"] = "%s, console %s: %s" % (name, "hosting" if hosts else "joining", got["first"])
            if progress:
                progress("  %s, console %s: %s" % (name, "hosting" if hosts else "joining", got))
    return total


if __name__ == "__main__":
    from tools.cli import help_or_go
    help_or_go(__doc__, "-m tools.reliability.link_fuzz [MESSAGES] [SEED]")
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 10000
    print(fuzz_suite(count, int(sys.argv[2]) if len(sys.argv) > 2 else 1, print))
