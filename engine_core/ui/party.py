"""A party table on the console's screens: Nerts for three and four consoles (docs/link.md,
"The party table"; docs/screen.md, "Link play").

The host's lobby: how many seats (2, 3 or 4), what becomes of a guest's seat when its console
goes away (it waits, the computer plays it, or it is dropped), who has sat down (each guest's
short id), and Start. The table is offered as soon as the lobby opens, and again when the seats
change while no guest sits; Start deals, the seats no console took going to the computer.
With two seats it is the two-console table: the game starts when the guest joins.

A console has a Party when its link can carry more than two consoles (App.attach_link's
`party`: the simulator's TCP port, an ESP32's radio); an RP2040 board's UART carries two, and
its firmware leaves this module and hub.py out (tools/device/firmware.py, NOT_FROZEN). The
wiring it is given says how: `further`, a transport for each further guest's leg (the hub's,
made the first time a table of more than two opens, for good), `take(guests)` (the link
takes that many guests now: on TCP the seats that take clients, on one radio the console's
own transport through the hub's first leg) and `bind(hub)`.
"""

from engine_core.gfx import palette as pal
from engine_core.gfx.paint import CHAR_H, LINE_H
from engine_core.link import hub as lh
from engine_core.link import messages as m
from engine_core.ui import buttons as bt
from engine_core.ui import said
from engine_core.ui.linkplay import L_PARTY
from engine_core.ui.screens import felt, panel, panel_width

_SEATS = 0  # the lobby's rows
_AWAY = 1
_START = 2
ROWS = 3
_NONE = 255  # slots.NONE: no slot, or a shared pile
POLICY_WORDS = (b"Away: seat waits", b"Away: computer", b"Away: dropped")  # hub.WAIT, BOT, DROP
POLICY_SHORT = (b"Away: waits", b"Away: CPU", b"Away: drop")
_NO_ONE = b"No guest seated yet"  # (what it says, at most 20 characters: a 128-pixel line)
_TWO = b"Starts as one joins"
_KEYS = b"A: choose  B: cancel"
SEAT_NAMES = (b"P1", b"P2", b"P3", b"P4")  # a table of more than two's seats, as every console names them
PARTY_TAGS = ((b"You ", b"P2 ", b"P3 ", b"P4 "), (b"P1 ", b"You ", b"P3 ", b"P4 "),  # the score corner's
              (b"P1 ", b"P2 ", b"You ", b"P4 "), (b"P1 ", b"P2 ", b"P3 ", b"You "))  # names, from each seat


class Party:
    def __init__(self, wiring):
        self.wiring = wiring
        self.hub = None  # made the first time a table of more than two opens
        self.seats = 4  # the lobby's choice
        self.policy = lh.WAIT
        self.live = -1  # the hub's seated guests when the lobby was last drawn
        self.told = None  # why Start did nothing (words under the rows), or None

    # --- a table of two, or of more ---

    def two(self, session):
        """A two-console table (Spite & Malice, Nerts for two, or joining one): the console's
        own channel alone."""
        self.wiring.take(1)
        session.use(None)

    def open(self, app, link):
        """Host Nerts: the lobby, its table offered at once."""
        app.selected = _SEATS
        self.told = None
        self.host(app, link)

    def host(self, app, link):
        """Offer a Nerts table of `seats` seats: the host at 0, a console's at each other (THERE);
        a table already offered is withdrawn first."""
        session = link.session
        if session.state == m.S_WAITING and session.is_host:
            session.cancel(app.clock)
        players = self.seats
        table = app.open_table("nerts", -1, players)
        game = table.game
        app.configure_rules(game)
        app.configure_computer(game)  # the seats no console takes play at the settings' speed
        self.wiring.take(players - 1)
        if players > 2:
            if self.hub is None:
                self.hub = lh.Hub(session.own, self.wiring.further)
                self.wiring.bind(self.hub)
            self.hub.policy = self.policy
            session.use(self.hub)
        else:
            session.use(None)
        kinds = bytearray(players)
        for p in range(players):
            kinds[p] = m.HERE if p == 0 else m.THERE
        session.host(game, app.fresh_number(), game.options, kinds, app.clock)
        self.live = -1
        link.status = L_PARTY

    def seated(self, session):
        """The hub's seated guests (bit i: leg i) at the table offered; 0 at a table of two."""
        hub = self.hub
        return hub.live if hub is not None and session.hub is not None else 0

    def guests(self, session):
        """How many guests sit at the table offered (0 at a table of two: it starts as one sits)."""
        live = self.seated(session)
        n = 0
        while live:
            n += live & 1
            live >>= 1
        return n

    # --- the lobby's keys and time ---

    def press(self, app, link, button):
        """UP and DOWN choose a row; A (or LEFT and RIGHT on the first two) changes it or starts;
        B withdraws the table (the link screen's)."""
        session = link.session
        if self.told is not None:
            self.told = None
            app.full = True
        if button == bt.UP:
            app.selected = (app.selected + ROWS - 1) % ROWS
            app.full = True
        elif button == bt.DOWN:
            app.selected = (app.selected + 1) % ROWS
            app.full = True
        elif button == bt.A or button == bt.LEFT or button == bt.RIGHT:
            back = button == bt.LEFT
            row = app.selected
            if row == _SEATS:
                if self.guests(session):
                    self.told = b"B to change seats"
                else:
                    self.seats = (self.seats - 2 + (2 if back else 1)) % 3 + 2
                    self.host(app, link)
            elif row == _AWAY:
                self.policy = (self.policy + (2 if back else 1)) % 3
                if self.hub is not None:
                    self.hub.policy = self.policy
            elif button == bt.A:
                if self.seats == 2:
                    self.told = _TWO
                elif not self.guests(session):
                    self.told = _NO_ONE
                else:
                    session.start(app.clock)
            app.full = True
        else:
            return False
        return True

    def tick(self, app, link):
        """A guest sat down or got up: the lobby is drawn again."""
        if self.seated(link.session) != self.live:
            app.full = True

    # --- drawing ---

    def draw(self, app, link):
        if not app.full:
            return
        p = app.painter
        w = app.width
        short = app.height < 100  # a 64-pixel screen: rows a line apart, no key line
        row = LINE_H if short else LINE_H + 2
        pw = panel_width(w)
        ins = 8 if w >= 160 else 4
        lines = ROWS + 3 + (0 if short else 1)  # the title, the rows, the seats, what it says, the keys
        ph = lines * row + (4 if short else 10)
        px = (w - pw) // 2
        py = (app.height - ph) // 2
        top = py + (1 if short else 4)
        felt(app)
        panel(app, px, py, pw, ph)
        session = link.session
        ty = top + (0 if short else 1)  # (inside the panel's frame on a 64-pixel screen too)
        p.text(b"Host Nerts", px + ins - 2, ty, pal.GOLD)
        join = link.join  # (its hexadecimal ids: the table's, as the join lists show it)
        join.hex_id(session.hello.table_host)
        p.text(join.short_id, px + pw - ins - 24, ty, pal.DIM)
        wide = pw - 2 * ins >= 26 * 6
        for i in range(ROWS):
            y = top + (i + 1) * row
            chosen = i == app.selected
            colour = pal.BLACK if chosen else pal.WHITE
            app.fb.fill_rect(px + 3, y - 1, pw - 6, row, pal.CURSOR if chosen else pal.PANEL)
            x = px + ins
            if i == _SEATS:
                x = p.text(b"Seats ", x, y + (row - CHAR_H) // 2 - 1, colour)
                p.number(self.seats, x, y + (row - CHAR_H) // 2 - 1, colour)
            elif i == _AWAY:
                words = POLICY_WORDS if wide else POLICY_SHORT
                p.text(words[self.policy], x, y + (row - CHAR_H) // 2 - 1, colour)
            else:
                p.text(b"Start", x, y + (row - CHAR_H) // 2 - 1, colour)
        y = top + (ROWS + 1) * row + (0 if short else 2)
        self.draw_seats(app, link, px + ins, y, wide)
        y += row
        self.live = self.seated(session)
        text = self.told
        if text is None:
            text = self.waiting(session)
        p.text_upto(text, (pw - 2 * ins + 1) // 6, px + ins, y, pal.GOLD if self.told is not None else pal.WHITE)
        if not short:
            p.text(_KEYS, px + ins, y + row, pal.SLOT)
        app.screen.mark_all()

    def waiting(self, session):
        """What the lobby waits for, in words."""
        if self.seats == 2:
            return _TWO
        n = self.guests(session)
        if n == 0:
            return b"Waiting for guests"
        if n == self.seats - 1:
            return b"All seated: Start"
        return b"Free seats: CPU"

    def draw_seats(self, app, link, x, y, wide):
        """Each seat in turn: you, a guest's short id, or dashes while it is free (wide: with
        the seats' names, P1 .. P4)."""
        p = app.painter
        hub = self.hub
        join = link.join
        live = self.seated(link.session)
        for q in range(self.seats):
            if wide:
                x = p.text(b"P", x, y, pal.DIM)
                x = p.number(q + 1, x, y, pal.DIM) + 3
            if q == 0:
                x = p.text(b"You", x, y, pal.WHITE)
            elif live >> (q - 1) & 1 and hub is not None:
                join.hex_id(hub.legs[q - 1].partner)
                x = p.text(join.short_id, x, y, pal.GOLD)
            else:
                x = p.text(b"----", x, y, pal.SLOT)
            x += 6 if wide else 4


def seat_away(b, seat, away, computer, short=False):
    """'P3 is away: the others play on' (or '...: the computer plays it', or 'P3 is back') in
    b (Table.said: the length, then the text): a seat whose console went away or came back.
    short: a 128x64 strip. No allocation."""
    n = said.put_said(b, 1, b"P")
    b[n] = 49 + seat
    n += 1
    if not away:
        n = said.put_said(b, n, b" is back")
    elif short:
        n = said.put_said(b, n, b" is away")
    else:
        n = said.put_said(b, n, b" is away: the computer plays it" if computer else b" is away: the others play on")
    b[0] = n - 1


def turn_seats(slots, seat, linked):
    """A table of three or four seen from `seat` (Slots.set_seat): slot pJ.x shows the pile of
    seat (J - 1 + seat) % players, so your own piles are always the p1 slots and the others'
    follow round the table in seat order; at a party table (`linked`) the others' names are
    their seats' (P1 .. P4; on the smallest screen their digits) and so are the score
    corner's. What it needs is made the first time (slots.seat_piles: each slot's pile from
    seat 0, its seat or NONE for a shared pile, how far apart two seats' same piles lie, the
    table's own words); after that only the words of a party table allocate, once a game."""
    game = slots.game
    players = game.players
    if slots.seat_piles is None:
        home = bytes(slots.pile)
        seat_of = bytearray(slots.count)
        stride = game.pile_id("p2.nerts") - game.pile_id("p1.nerts")
        for s in range(slots.count):
            name = game.pile_names[home[s]]
            seat_of[s] = int(name[1]) - 1 if name[0] == "p" and name[2] == "." else _NONE
            if seat_of[s] != _NONE and game.pile_id("p1." + name[3:]) + stride * seat_of[s] != home[s]:
                raise ValueError("a seat's piles lie apart from the others': " + name)
        slots.seat_piles = (home, seat_of, stride, slots.labels_on_table)
    home, seat_of, stride, plain = slots.seat_piles
    slot_of = slots.slot_of
    for p in range(256):
        slot_of[p] = _NONE
    for s in range(slots.count):
        j = seat_of[s]
        p = home[s]
        if j != _NONE:
            p += ((j + seat) % players - j) * stride
        slots.pile[s] = p
        slot_of[p] = s
    if not linked:
        slots.labels_on_table = plain
        slots.labels_seats = None
        return
    slots.labels_seats = PARTY_TAGS  # the score corner's names from each seat (overlay.player_tags)
    labels = []
    for k in range(len(plain)):
        text, x, y = plain[k]
        if k < players - 1 and text != b"You":  # the others', p2 .. pN in turn (nerts_layout.seat_class)
            q = (k + 1 + seat) % players
            text = SEAT_NAMES[q] if len(text) > 1 else SEAT_NAMES[q][1:]
        labels.append((text, x, y))
    slots.labels_on_table = labels
