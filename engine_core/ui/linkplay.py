"""Link play on the console: the screen that hosts a table or joins one, and what changes in
play when the other player is at another console (engine_core/link/session.py carries the
moves; docs/link.md).

The App mixes LinkPlay in; the link screens (LinkScreen, LinkLeft, LinkAsk) are screen
objects as in screens.py. A console has link play when its host (the simulator, the firmware)
gave it a session (App.attach_link); the title then offers "Link play". A linked game is
not saved and not counted in the statistics; when the other console leaves, the game can go
on against the computer. An offer that comes anywhere but on the link screen is a question
("A console offers Spite & Malice: A join, B no"), never an action: nothing on this console
changes until its player says yes. A silent link is said on every screen of a linked game.
"""

from engine_core import PLAYING, games, rng
from engine_core import reasons as why
from engine_core.game import ACTION, V_SCORE, V_TURN
from engine_core.gfx import palette as pal
from engine_core.gfx.paint import CHAR_H, LINE_H
from engine_core.ui.view import MESSAGE_MS
from engine_core.link import messages as m
from engine_core.ui import buttons as bt
from engine_core.ui.join import JoinList
from engine_core.ui.screens import (END, LINK, LINK_ASK, LINK_LEFT, PLAY, T_LINK, TITLE, Screen, centred_panel,
                                    felt, panel, table_under)
from engine_core.ui.settings import S_LEVEL, S_SLIDE, S_SPEED

from micropython import const

LINK_GAMES = ("spite_malice", "nerts")  # what a console can host, with the row's words
LINK_ITEMS = (b"Host Spite & Malice", b"Host Nerts", b"Join a table")
_JOIN = const(2)

# What the link screen says under its rows.
L_CHOOSE = const(0)
L_HOSTING = const(1)
L_JOINING = const(2)
L_REFUSED = const(3)
L_LEFT = const(4)
L_CANNOT = const(5)
L_OFFERED = const(6)
LINK_STATUS = (
    b"Host a table, or join the other's",
    b"Waiting for the other console...",
    b"Waiting for the other's table...",
    b"The other console did not take it",
    b"The other console left",
    b"This console cannot play that game",
    b"A table waits: Join a table to play",
)

CANNOT_GAME = b"not here"  # an offer this console cannot take, as the join list says why
CANNOT_SEATS = b"not 2 seats"

SEATS_TWO = bytes((m.HERE, m.THERE))  # the host's person, the other console's person


class Link:
    """A console's link: its session (made when Link play is first opened) and what the
    screens keep of it."""

    def __init__(self, make_session, label):
        self.make_session = make_session
        self.session = None
        self.label = label  # what the link is (b"TCP 127.0.0.1:7001", b"UART 1")
        self.status = L_CHOOSE  # what the link screen says (LINK_STATUS)
        self.linked = False  # a game with the other console is on the table
        self.began_linked = False  # the game on the table began linked: not saved, not counted
        self.rollbacks = 0  # the session's count of moves put in their place, when last drawn
        self.deal_asked = False  # A on the end panel before the next deal was ours to make
        self.ask_back = PLAY  # the screen an offer's question came over, and goes back to


class LinkPlay:
    """Link play's part of App (whose link is None on a console without one)."""

    def attach_link(self, make_session, label):
        """Give the console a link: make_session() makes its Session over a transport (called
        once, when the player first opens Link play: a console that never links spends no memory
        on it, and a radio stays off until then); label says what the link is. Start-up only."""
        self.link = Link(make_session, label)
        self.link.join = JoinList()  # Join a table's list of the tables heard
        self.full = True  # the title gains its Link play row
        self.redraw()

    def link_in_use(self):
        """The link is polled only while its screen is open or a game or a goodbye is under way."""
        link = self.link
        if link is None or link.session is None:
            return False
        return self.mode == LINK or link.linked or link.session.state != m.S_IDLE

    def linked(self):
        """A game with the other console is on the table."""
        return self.link is not None and self.link.linked

    def link_game(self):
        """The game on the table began linked (it is not saved and not counted)."""
        return self.link is not None and self.link.began_linked

    # --- the link screen ---

    def open_link(self):
        """From the title (after confirming that a game in progress is left)."""
        link = self.link
        if link.session is None:
            link.session = link.make_session()
        self.go(LINK)
        link.status = L_CHOOSE

    def host_link(self, name):
        if name not in self.names:
            self.link.status = L_CANNOT
            return
        table = self.open_table(name)
        self.configure_rules(table.game)
        self.noise = rng.step((self.noise & 0xFFFFFF) + self.clock + 7)  # as a fresh deal's seed
        self.link.session.host(table.game, self.noise % 10000000, table.game.options, SEATS_TWO, self.clock)
        self.link.status = L_HOSTING

    def cannot_join(self, game_id, players):
        """Why this console cannot take an offer of game_id for `players` (words for the join
        list), or None: it plays the two-seat games it has a layout for."""
        name = games.name_of(game_id)
        if name is None or name not in self.names or name not in LINK_GAMES:
            return CANNOT_GAME
        if players != 2:
            return CANNOT_SEATS
        return None

    def take_offer(self):
        """The other console offers a table: make that game here and accept, or refuse."""
        session = self.link.session
        if session.state != m.S_WAITING or session.is_host or not session.offer_table:
            return  # answered already (a second A before the table came up): nothing to take
        name = games.name_of(session.offer_game_id)
        if self.cannot_join(session.offer_game_id, session.offer_players) is not None:
            session.refuse(m.R_GAME)
            self.link.status = L_CANNOT
            self.full = True
            return
        table = self.open_table(name, session.offer_options)
        game = table.game
        try:
            game.set_rules(session.offer_rules)
        except ValueError:
            session.refuse(m.R_RULES)
            self.link.status = L_CANNOT
            self.full = True
            return
        session.accept(game, self.clock)

    def start_linked(self):
        """Both consoles agreed: the dealt game goes on the table, seen from this seat."""
        session = self.link.session
        name = session.game.NAME
        self.game_index = self.names.index(name)
        table = self.tables[name]
        self.table = table
        table.slide_on(self.settings[S_SLIDE])
        table.set_seat(session.my_seat, session)
        table.new_game()
        self.note_scores()
        self.link.linked = True
        self.link.began_linked = True
        self.link.status = L_CHOOSE  # Join a table was answered: a later offer is asked again
        self.link.deal_asked = False
        self.counted = True  # not in the statistics
        self.resumable = False
        self.show(PLAY)

    # --- time: the session's news ---

    def link_tick(self):
        """Called from App.tick before the table's own time: what the other console did."""
        link = self.link
        session = link.session
        table = self.table
        watch = link.linked and table is not None
        if watch:
            table.link_ms = self.clock
            table.mark_journal()
        flags = session.poll(self.clock)
        if self.mode == LINK and link.status == L_JOINING:
            link.join.tick(self, 0)  # the tables heard: the player picks one
        elif flags & m.F_OFFER:
            if self.mode == LINK:  # an offer the player has not asked for: it waits for Join a table
                link.status = L_OFFERED
                self.full = True
            elif self.mode != LINK_ASK:  # anywhere else: a question, over what is on the screen
                if self.cannot_join(session.offer_game_id, session.offer_players):
                    session.decline()  # nothing to ask: this console could not take it
                else:
                    link.ask_back = self.mode
                    self.question(LINK_ASK)
        if flags & m.F_LEFT and self.mode == LINK_ASK:
            self.back_from_ask()  # the offer was withdrawn
        if flags & m.F_STARTED and session.state == m.S_PLAYING:
            self.start_linked()
            return
        if flags & m.F_REFUSED:
            self.link.status = L_REFUSED
            self.full = True
        if not watch:
            if flags & m.F_LEFT and self.mode == LINK:
                self.link.status = L_LEFT
                self.full = True
            return
        table.touch_since()
        if link.deal_asked and self.mode == END and session.may_deal():
            link.deal_asked = False
            self.deal_next()
        if flags & m.F_CHANGED:
            if session.timeline.rollbacks != link.rollbacks:  # Nerts put a move in its place:
                link.rollbacks = session.timeline.rollbacks  # what was undone shows again
                table.valid = False
            if self.mode == END and table.game.status() == PLAYING:
                self.note_scores()  # the other player dealt the next game
                self.show(PLAY)
        if flags & m.F_DESYNC:
            table.say_out_of_step(session.hash_here, session.hash_there)
            table.valid = False
        if flags & m.F_RESUMED:
            table.say(why.LINK_BACK)
            self.full = True  # the silence notice goes from whatever screen shows it
        if flags & m.F_LEFT:
            link.linked = False
            self.question(LINK_LEFT)
            return
        if session.state == m.S_PAUSED:
            if table.message != why.LINK_SILENT:
                table.say(why.LINK_SILENT)
                table.message_ms = MESSAGE_MS  # drawn in this frame (the table's own tick waits)
            elif table.message_ms != MESSAGE_MS:
                table.message_ms = MESSAGE_MS  # it stays while the link is silent

    def next_deal_waits(self):
        """A game of the match ended and the match goes on: a next deal waits (whoever's)."""
        game = self.table.game
        n = game.legal_moves(game.scratch)
        for i in range(n):
            if game.scratch[i] >> 16 == ACTION:
                return True
        return False

    def deals_next(self):
        """This console makes the next deal of the match: in Spite & Malice the loser of the
        game, in Nerts the host (once both consoles have the round's end: deal_asked waits)."""
        table = self.table
        if table.game.TURN_BASED:
            return table.game.turn() == table.seat
        return table.seat == 0

    def link_paused(self):
        """True while the game waits for a silent link (its clock stands still)."""
        return self.linked() and self.link.session.state == m.S_PAUSED

    def link_notice(self):
        """What every screen of a linked game says now about the link (a reasons code), or 0."""
        return why.LINK_SILENT if self.link_paused() else 0

    def draw_link_notice(self):
        """The silence notice at the foot of a screen other than the table (whose own line
        says it): the pause menu, the end panel, the rules. Drawn every frame while silent."""
        if self.mode == PLAY or not self.link_notice():
            return
        y = self.height - LINE_H - 3
        self.fb.fill_rect(0, y, self.width, LINE_H + 3, pal.PANEL)
        self.painter.text(why.TEXTS[why.LINK_SILENT], 4, y + 2, pal.GOLD)
        self.screen.mark(0, y, self.width, LINE_H + 3)

    # --- an offer that came over another screen ---

    def back_from_ask(self):
        self.show(self.link.ask_back)

    # --- leaving ---

    def leave_link(self):
        """This player leaves the linked game (the pause menu's Quit): the other console is told."""
        if self.linked():
            self.link.session.leave(self.clock)
            self.link.linked = False

    def play_on_alone(self):
        """The computer takes the other console's seat; this console's player plays on. In
        Spite & Malice the computer plays p2, so a player who joined (p2) changes sides."""
        table = self.table
        game = table.game
        seat = table.seat
        if game.TURN_BASED and seat == 1:
            swap_sides(game)
            seat = 0
        table.set_seat(seat, None)
        game.bots = True
        self.configure_computer(game)
        if not game.TURN_BASED:
            for p in range(game.players):
                if p != seat:
                    game.set_bot(p, self.settings[S_SPEED], self.settings[S_LEVEL])
                else:
                    game.set_bot(p, -1, 0)
        table.new_game()  # a computer whose turn it is (Spite & Malice) plays it step by step
        self.resume()


def swap_sides(game):
    """Exchange the two players of a two-player turn-based game (Spite & Malice): their
    piles, scores and whose turn it is. The journal starts afresh (undo does not reach back
    across it)."""
    names = game.pile_names
    piles = game.piles
    for a in range(len(names)):
        name = names[a]
        if name[:3] == "p1.":
            b = game.pile_id("p2." + name[3:])
            na = piles.size[a]
            nb = piles.size[b]
            sa = piles.start[a]
            sb = piles.start[b]
            for i in range(na if na > nb else nb):
                x = piles.cards[sa + i]
                piles.cards[sa + i] = piles.cards[sb + i]
                piles.cards[sb + i] = x
            piles.size[a] = nb
            piles.size[b] = na
    v = game.vars
    x = v[V_SCORE]
    v[V_SCORE] = v[V_SCORE + 1]
    v[V_SCORE + 1] = x
    v[V_TURN] = 1 - v[V_TURN]
    game.history.clear()


class LinkScreen(Screen):
    """Host a table or join the other's; what the link is doing below the rows."""

    MODE = LINK

    def length(self, app):
        return len(LINK_ITEMS)

    def press(self, app, button):
        link = app.link
        if link.status == L_JOINING and link.join.press(app, button):
            return
        session = link.session
        waiting = link.status == L_HOSTING or link.status == L_JOINING
        if button == bt.B or button == bt.START:
            if waiting:
                session.cancel(app.clock)
                link.status = L_CHOOSE
                app.full = True
            else:
                if link.status == L_OFFERED:
                    session.decline()  # the player left the offer unanswered
                    link.status = L_CHOOSE
                app.go(TITLE)
                app.selected = app.title_index(T_LINK)
            return
        if waiting:
            return
        n = len(LINK_ITEMS)
        if button == bt.UP:
            app.selected = (app.selected + n - 1) % n
        elif button == bt.DOWN:
            app.selected = (app.selected + 1) % n
        elif button == bt.A:
            if app.selected == _JOIN:
                session.join(app.clock)  # subset: ok (the link session's join, not str.join)
                link.status = L_JOINING
            elif link.status == L_OFFERED:
                return  # the other console hosts already: join its table
            else:
                app.host_link(LINK_GAMES[app.selected])
            app.full = True

    def draw(self, app):
        if app.link.status == L_JOINING:
            return app.link.join.draw(app)
        p = app.painter
        link = app.link
        n = len(LINK_ITEMS)
        row = LINE_H + 2
        w = app.width
        pw = w - 16 if w - 16 < 220 else 220
        ph = (n + 4) * row + 10
        px = (w - pw) // 2
        py = (app.height - ph) // 2
        if app.full:
            felt(app)
            panel(app, px, py, pw, ph)
            p.text(b"Link play", px + 6, py + 5, pal.GOLD)
            label = link.label
            p.text(label, px + pw - 8 - p.text_width(label), py + 5, pal.DIM)
            p.text(LINK_STATUS[link.status], px + 8, py + 6 + (n + 2) * row, pal.WHITE)
            keys = b"A: choose  B: back"
            if link.status == L_HOSTING or link.status == L_JOINING:
                keys = b"B: cancel"
            p.text(keys, px + 8, py + 6 + (n + 3) * row, pal.SLOT)
            app.drawn_selected = -1
        if app.drawn_selected == app.selected:
            return
        for i in range(n):
            if app.drawn_selected < 0 or i == app.selected or i == app.drawn_selected:
                y = py + 4 + (i + 1) * row
                chosen = i == app.selected
                app.fb.fill_rect(px + 3, y, pw - 6, row, pal.CURSOR if chosen else pal.PANEL)
                app.screen.mark(px + 3, y, pw - 6, row)
                p.text(LINK_ITEMS[i], px + 8, y + (row - CHAR_H) // 2, pal.BLACK if chosen else pal.WHITE)
        app.drawn_selected = app.selected


class LinkLeft(Screen):
    """The other console left the game: A plays on against the computer, B goes to the title."""

    MODE = LINK_LEFT

    def press(self, app, button):
        if button == bt.A:
            app.play_on_alone()
        elif button == bt.B or button == bt.START:
            app.go(TITLE)

    def draw(self, app):
        if not app.full:
            return
        p = app.painter
        x = app.width // 2
        table_under(app)  # the table stays visible around the panel
        y = centred_panel(app, 4)
        live = app.guard_ms == 0
        p.text_centred(b"The other console left", x, y, pal.GOLD)
        p.text_centred(b"A: play on against the computer", x, y + LINE_H + 3, pal.WHITE if live else pal.DIM)
        p.text_centred(b"B: to the title", x, y + 2 * LINE_H + 6, pal.CURSOR if live else pal.DIM)


class LinkAsk(Screen):
    """'A console offers Spite & Malice', over the screen it came on. A joins the offered
    table (a game in progress is left, as from the title's Link play); B says no: the offer
    is set aside here (its host is not told: the offer went to every console in range) and the
    screen before comes back unchanged."""

    MODE = LINK_ASK

    def press(self, app, button):
        if button == bt.A:
            app.leave()
            app.go(LINK)
            app.selected = _JOIN
            app.link.status = L_JOINING
            app.take_offer()
        elif button == bt.B or button == bt.START:
            app.link.session.decline()
            app.back_from_ask()

    def draw(self, app):
        if not app.full:
            return
        p = app.painter
        x = app.width // 2
        back = app.link.ask_back
        if app.table is not None and (back == PLAY or back == LINK_LEFT or back == END):
            table_under(app)  # the table stays visible around the question
        else:
            felt(app)
        name = games.name_of(app.link.session.offer_game_id)
        y = centred_panel(app, 5)
        p.text_centred(b"A console offers", x, y, pal.WHITE)
        p.text_centred(games.title(name) if name is not None else b"a game", x, y + LINE_H + 2, pal.GOLD)
        if app.in_progress():
            p.text_centred(b"This game counts as a loss", x, y + 2 * LINE_H + 4, pal.WHITE)
        p.text_centred(b"A: join  B: no", x, y + 3 * LINE_H + 6, pal.CURSOR if app.guard_ms == 0 else pal.DIM)
