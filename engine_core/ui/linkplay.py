"""Link play on the console: the screen that hosts a table or joins one, and what changes in
play when the other player is at another console (engine_core/link/session.py carries the
moves; docs/link.md).

The App makes one Link (its `link`) and talks to it by the methods its docstring names; the
link screens (LinkScreen, LinkLeft, LinkAsk) are screen objects as in screens.py. A console
has link play when its host (the simulator, the firmware) gave it a session
(App.attach_link); the title then offers "Link play". A linked game is
not saved and not counted in the statistics; when the other console leaves, the game can go
on against the computer. An offer that comes anywhere but on the link screen is a question
("A console offers Spite & Malice: A join, B no"), never an action: nothing on this console
changes until its player says yes. A silent link is said on every screen of a linked game.
"""

from engine_core import PLAYING, games
from engine_core import reasons as why
from engine_core.game import ACTION, V_SCORE, V_TURN
from engine_core.gfx import palette as pal
from engine_core.gfx.paint import CHAR_H, LINE_H
from engine_core.ui.view import MESSAGE_MS
from engine_core.link import messages as m
from engine_core.ui import buttons as bt
from engine_core.ui import overlay
from engine_core.ui.join import JoinList
from engine_core.ui.screens import (END, LINK, LINK_ASK, LINK_LEFT, PLAY, T_LINK, TITLE, Scene, centred_panel,
                                    felt, panel, panel_width, table_under)
from engine_core.ui.settings import S_LEVEL, S_SPEED

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
L_SEATED = const(7)  # a party table's guest, seated: its host starts the game
L_PARTY = const(8)  # a party table's lobby (engine_core/ui/party.py) is the link screen
LINK_STATUS = (
    b"Host a table, or join the other's",
    b"Waiting for the other console...",
    b"Waiting for the other's table...",
    b"The other console did not take it",
    b"The other console left",
    b"This console cannot play that game",
    b"A table waits: Join a table to play",
    b"Seated: the host starts the game",
)

CANNOT_GAME = b"not here"  # an offer this console cannot take, as the join list says why
CANNOT_SEATS = b"too many seats"

SEATS_TWO = bytes((m.HERE, m.THERE))  # the host's person, the other console's person


class Link:
    """A console's link play, made once by App.attach_link (the App's `link`; None on a console
    without a link): its session (made when Link play is first opened), what the link screens
    keep of it, and what changes in play when the other player is at another console.

    It keeps no reference to the App: the firmware keeps the link after its app stops
    (firmware.main.link_state), and a held App would keep its whole heap. The App passes itself
    to the methods that change what the console shows. What the App and the screens ask of it:
      in_use(mode)       the link wants polling (its screen open, a game or a goodbye under way)
      playing()          a game with the other console is on the table
      paused()           that game waits for a silent link (its clock stands still)
      notice()           what every screen of a linked game says about the link (reasons), or 0
      open(app)          the link screen, from the title: the session made the first time
      tick(app)          the session's news, each tick before the table's own time
      take_offer(app)    join the table offered (the join list's A, a question's yes)
      cannot_join(game_id, players)  why an offer cannot be taken here (words), or None
      leave(clock)       this player leaves the linked game: the other console is told
      unlink()           a game not linked goes on the table
      play_on_alone(app) the computer takes the other console's seat
      deals_next(table), next_deal_waits(table)  the match's next deal: this console's, waiting
    Of the App it uses: its clock, table, mode, full and settings, and go, show, question,
    open_table, configure_rules, configure_computer, fresh_number, note_scores, seat_linked,
    deal_next and resume (app.py says what each does)."""

    def __init__(self, make_session, label, names, party=None):
        self.make_session = make_session
        self.party = party  # a link that carries more than two consoles: its lobby (party.py)
        self.session = None
        self.label = label  # what the link is (b"TCP 127.0.0.1:7001", b"UART 1")
        self.names = names  # the games this console has a layout for
        self.status = L_CHOOSE  # what the link screen says (LINK_STATUS)
        self.linked = False  # a game with the other console is on the table
        self.began_linked = False  # the game on the table began linked: not saved, not counted
        self.rollbacks = 0  # the session's count of moves put in their place, when last drawn
        self.deal_asked = False  # A on the end panel before the next deal was ours to make
        self.ask_back = PLAY  # the screen an offer's question came over, and goes back to
        self.join: JoinList = None  # type: ignore[assignment]  # Join a table's list: made with the session

    def in_use(self, mode):
        """The link is polled only while its screen is open or a game or a goodbye is under way."""
        session = self.session
        if session is None:
            return False
        return mode == LINK or self.linked or session.state != m.S_IDLE

    def playing(self):
        """A game with the other console is on the table."""
        return self.linked

    def unlink(self):
        """A game not linked goes on the table."""
        self.linked = False
        self.began_linked = False

    # --- the link screen ---

    def open(self, app):
        """From the title (a game under way set aside: App.set_aside)."""
        if self.session is None:
            self.session = self.make_session()
            self.join = JoinList(self)  # (a console that never links keeps its heap)
        app.go(LINK)
        self.status = L_CHOOSE
        self.alone()

    def alone(self):
        """A console that hosted a party table goes back to its own channel (a table of two,
        joining, hearing offers)."""
        session = self.session
        if self.party is not None and session is not None and not session.playing() \
                and not (session.is_host and session.state == m.S_WAITING):
            self.party.two(session)

    def host(self, app, name):
        session = self.session
        if session is None:
            return
        if name not in self.names:
            self.status = L_CANNOT
            return
        if name == "nerts" and self.party is not None:
            self.party.open(app, self)  # the lobby: two, three or four seats
            return
        self.alone()  # (after a party table's lobby: the console's own channel again)
        table = app.open_table(name, -1, 2)  # a linked table seats two, whatever the setting
        app.configure_rules(table.game)
        session.host(table.game, app.fresh_number(), table.game.options, SEATS_TWO, app.clock)
        self.status = L_HOSTING

    def cannot_join(self, game_id, players):
        """Why this console cannot take an offer of game_id for `players` (words for the join
        list), or None: it plays the link games it has a layout for, Nerts at up to four seats
        where its build has the party table's screens."""
        name = games.name_of(game_id)
        if name is None or name not in self.names or name not in LINK_GAMES:
            return CANNOT_GAME
        if players != 2:
            try:  # an RP2040 board's firmware leaves the party table's screens out: its UART seats two
                import engine_core.ui.party  # noqa: F401
            except ImportError:
                return CANNOT_SEATS
            if name != "nerts" or players > 4:
                return CANNOT_SEATS
        return None

    def take_offer(self, app):
        """The other console offers a table: make that game here and accept, or refuse."""
        session = self.session
        if session is None or session.state != m.S_WAITING or session.is_host or not session.offer_table:
            return  # answered already (a second A before the table came up): nothing to take
        name = games.name_of(session.offer_game_id)
        if self.cannot_join(session.offer_game_id, session.offer_players) is not None:
            session.refuse(m.R_GAME)
            self.status = L_CANNOT
            app.full = True
            return
        table = app.open_table(name, session.offer_options, session.offer_players)
        game = table.game
        try:
            game.set_rules(session.offer_rules)
        except ValueError:
            session.refuse(m.R_RULES)
            self.status = L_CANNOT
            app.full = True
            return
        session.accept(game, app.clock)

    def start(self, app, session):
        """Both consoles agreed: the dealt game goes on the table, seen from this seat."""
        app.seat_linked(session)
        self.linked = True
        self.began_linked = True
        self.status = L_CHOOSE  # Join a table was answered: a later offer is asked again
        self.deal_asked = False
        session.away_told = 0
        app.show(PLAY)

    # --- time: the session's news ---

    def tick(self, app):
        """Called from App.tick before the table's own time: what the other console did."""
        session = self.session
        if session is None:
            return
        table = app.table
        watch = self.linked and table is not None
        if watch:
            table.link_ms = app.clock
            table.mark_journal()
        flags = session.poll(app.clock)
        mode = app.mode
        if mode == LINK and self.status == L_JOINING and session.waiting_start:
            self.status = L_SEATED  # a party table's seat taken: its host starts the game
            app.full = True
        if mode == LINK and self.status == L_PARTY:
            self.party.tick(app, self)  # the lobby: who sat down
        elif mode == LINK and self.status == L_JOINING:
            self.join.tick(app)  # the tables heard: the player picks one
        elif flags & m.F_OFFER:
            if mode == LINK:  # an offer the player has not asked for: it waits for Join a table
                self.status = L_OFFERED
                app.full = True
            elif self.cannot_join(session.offer_game_id, session.offer_players):
                session.decline()  # nothing to ask: this console could not take it
                if mode == LINK_ASK:
                    app.show(self.ask_back)  # (it replaced the offer asked about: gone too)
            else:  # anywhere else: a question, over what is on the screen
                if mode != LINK_ASK:
                    self.ask_back = mode
                # (an offer that replaced the one asked about is asked about afresh: its
                # name drawn, its guard time anew, so that A joins only the table it names)
                app.question(LINK_ASK)
        if flags & m.F_LEFT and app.mode == LINK_ASK:
            app.show(self.ask_back)  # the offer was withdrawn
        if flags & m.F_STARTED and session.state == m.S_PLAYING:
            self.start(app, session)
            return
        if flags & m.F_REFUSED:
            self.status = L_REFUSED
            app.full = True
        if not watch:
            if flags & m.F_LEFT and app.mode == LINK:
                self.status = L_LEFT
                app.full = True
            return
        table.touch_since()
        if self.deal_asked and app.mode == END and session.may_deal():
            self.deal_asked = False
            app.deal_next()
        if flags & m.F_CHANGED:
            if session.timeline.rollbacks != self.rollbacks:  # Nerts put a move in its place:
                self.rollbacks = session.timeline.rollbacks  # what was undone shows again
                table.valid = False
            if app.mode == END and table.game.status() == PLAYING:
                app.note_scores()  # the other player dealt the next game
                app.show(PLAY)
        if flags & m.F_DESYNC:
            if session.hash_here != session.hash_there:  # (a party host's state sent to every
                table.say_out_of_step(session.hash_here, session.hash_there)  # guest: not a word)
            table.valid = False
        if flags & m.F_RESUMED:
            table.say(why.LINK_BACK)
            app.full = True  # the silence notice goes from whatever screen shows it
        if session.party and session.away != session.away_told:
            self.tell_away(table, session)
        if flags & m.F_LEFT:
            self.linked = False
            app.question(LINK_LEFT)
            return
        if session.state == m.S_PAUSED:
            if table.message != why.LINK_SILENT:
                table.say(why.LINK_SILENT)
                table.message_ms = MESSAGE_MS  # drawn in this frame (the table's own tick waits)
            elif table.message_ms != MESSAGE_MS:
                table.message_ms = MESSAGE_MS  # it stays while the link is silent

    def tell_away(self, table, session):
        """A party table's seat went away or came back: the message strip says which."""
        from engine_core.ui.party import seat_away  # (a console that sits at a party table has it)
        for p in range(session.players):
            bit = 1 << p
            if (session.away ^ session.away_told) & bit:
                session.away_told ^= bit
                computer = session.is_host and session.seats[p] == m.COMPUTER
                seat_away(table.said, p, session.away & bit, computer, table.view.screen.height < 100)
                table.say_now(why.SAID)
                return

    def next_deal_waits(self, table):
        """A game of the match ended and the match goes on: a next deal waits (whoever's)."""
        game = table.game
        n = game.legal_moves(game.scratch)
        for i in range(n):
            if game.scratch[i] >> 16 == ACTION:
                return True
        return False

    def deals_next(self, table):
        """This console makes the next deal of the match: in Spite & Malice the loser of the
        game, in Nerts the host (once both consoles have the round's end: deal_asked waits)."""
        if table.game.TURN_BASED:
            return table.game.turn() == table.seat
        return table.seat == 0

    def paused(self):
        """True while the game waits for a silent link (its clock stands still)."""
        session = self.session
        return self.linked and session is not None and session.state == m.S_PAUSED

    def notice(self):
        """What every screen of a linked game says now about the link (a reasons code), or 0."""
        return why.LINK_SILENT if self.paused() else 0

    # --- leaving ---

    def leave(self, clock):
        """This player leaves the linked game (the pause menu's To the title or Give up): the
        other console is told."""
        session = self.session
        if self.linked and session is not None:
            session.leave(clock)
            self.linked = False

    def play_on_alone(self, app):
        """The computer takes the other console's seat; this console's player plays on. In
        Spite & Malice the computer plays p2, so a player who joined (p2) changes sides."""
        table = app.table
        game = table.game
        seat = table.seat
        if game.TURN_BASED and seat == 1:
            swap_sides(game)
            seat = 0
        table.set_seat(seat, None)
        game.bots = True
        app.configure_computer(game)
        if not game.TURN_BASED:
            settings = app.settings
            for p in range(game.players):
                if p != seat:
                    game.set_bot(p, settings[S_SPEED], settings[S_LEVEL])
                else:
                    game.set_bot(p, -1, 0)
        table.new_game()  # a computer whose turn it is (Spite & Malice) plays it step by step
        app.resume()


def draw_notice(app, code=why.LINK_SILENT):
    """The silence notice (or another reason's words) at the foot of a screen other than the
    table (whose own line says it): the pause menu, the end panel, the rules. Drawn every frame
    while silent."""
    y = overlay.strip_top(app.width, app.height)  # where the table's own strip is
    app.fb.fill_rect(0, y, app.width, app.height - y, pal.PANEL)
    text = why.TEXTS[code]
    if code == why.LINK_SILENT and app.height < 100:
        text = why.LINK_SILENT_SHORT  # a line, or two
    overlay.draw_lines(app.painter, text, 0, len(text), (app.width - 6) // 6, y + 2, app.height, 0, app.width,
                       pal.GOLD)
    app.screen.mark(0, y, app.width, app.height - y)


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


class LinkScreen(Scene):
    """Host a table or join the other's; what the link is doing below the rows."""

    MODE = LINK

    def length(self, app):
        return len(LINK_ITEMS)

    def press(self, app, button):
        link = app.link
        if link.status == L_JOINING and link.join.press(app, button):
            return
        if link.status == L_PARTY and button != bt.B and link.party.press(app, link, button):
            return
        session = link.session
        waiting = link.status == L_HOSTING or link.status == L_JOINING or link.status >= L_SEATED
        if button == bt.B:
            if waiting:
                session.cancel(app.clock)
                if link.status == L_PARTY:
                    app.selected = 1  # back on Host Nerts
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
                link.alone()
                session.join(app.clock)  # subset: ok (the link session's join, not str.join)
                link.status = L_JOINING
            elif link.status == L_OFFERED:
                return  # the other console hosts already: join its table
            else:
                link.host(app, LINK_GAMES[app.selected])
            app.full = True

    def draw(self, app):
        if app.link.status == L_JOINING:
            return app.link.join.draw(app)
        if app.link.status == L_PARTY:
            return app.link.party.draw(app, app.link)
        p = app.painter
        link = app.link
        n = len(LINK_ITEMS)
        w = app.width
        short = app.height < 100  # a 64-pixel screen: rows a line apart, no key line
        row = LINE_H if short else LINE_H + 2
        pw = panel_width(w)
        # Under the rows: your table, what the link does (two lines where narrow), the keys.
        under = 2 if short else (3 if w >= 240 else 4)
        ph = (n + 1 + under) * row + (4 if short else 10)
        px = (w - pw) // 2
        py = (app.height - ph) // 2
        ins = 8 if w >= 160 else 4
        if app.full:
            felt(app)
            panel(app, px, py, pw, ph)
            p.text(b"Link play", px + ins - 2, py + 5 - (3 if short else 0), pal.GOLD)
            label = link.label
            if p.text_width(b"Link play ") + p.text_width(label) <= pw - 2 * ins + 2:  # (where both fit)
                p.text(label, px + pw - ins - p.text_width(label), py + 5 - (3 if short else 0), pal.DIM)
            self.draw_under(app, px, py + (2 if short else 6) + (n + 1) * row, pw, row, under)
            app.drawn_selected = -1
        if app.drawn_selected == app.selected:
            return
        for i in range(n):
            if app.drawn_selected < 0 or i == app.selected or i == app.drawn_selected:
                y = py + (1 if short else 4) + (i + 1) * row
                chosen = i == app.selected
                app.fb.fill_rect(px + 3, y, pw - 6, row, pal.CURSOR if chosen else pal.PANEL)
                app.screen.mark(px + 3, y, pw - 6, row)
                p.text(LINK_ITEMS[i], px + ins, y + (row - CHAR_H) // 2, pal.BLACK if chosen else pal.WHITE)
        app.drawn_selected = app.selected

    def draw_under(self, app, px, y, pw, row, lines):
        """The lines under the link screen's rows, from y: the table this console hosts (its
        id, as a joining console lists it, and its game where it fits), what the link does
        (broken over lines where it is long), and the keys where there is a line for them."""
        p = app.painter
        link = app.link
        ins = 8 if app.width >= 160 else 4
        session = link.session
        wide = app.width >= 240
        if link.status == L_HOSTING and session is not None and session.game is not None:
            join = link.join
            join.hex_id(session.hello.table_host)
            x = p.text(b"Your table ", px + ins, y, pal.GOLD)
            x = p.text(join.short_id, x, y, pal.WHITE)
            title = games.title(session.game.NAME)
            if x + 12 + p.text_width(title) <= px + pw - 4:
                p.text(title, x + 12, y, pal.GOLD)
            y += row
            lines -= 1
        elif link.status == L_SEATED and session is not None:
            x = p.text(b"Your seat P", px + ins, y, pal.GOLD)
            x = p.number(session.my_seat + 1, x, y, pal.WHITE)
            p.text(b" of ", x, y, pal.GOLD)
            p.number(session.players, x + 24, y, pal.WHITE)
            y += row
            lines -= 1
        elif wide:
            y += row  # (the line stays empty)
            lines -= 1
        keys = b"A: choose  B: back"
        if link.status == L_HOSTING or link.status == L_JOINING or link.status == L_SEATED:
            keys = b"B: cancel"
        if app.height >= 100:
            p.text(keys, px + ins, y + (lines - 1) * row, pal.SLOT)
            lines -= 1
        text = LINK_STATUS[link.status]
        per_line = len(text) if wide else (pw - 2 * ins + 1) // 6
        if link.status == L_SEATED and lines * per_line < len(text):
            text = b"The host starts it"  # (one line of a 128x64 screen)
        overlay.draw_lines(p, text, 0, len(text), per_line, y, y + (lines - 1) * row + CHAR_H, 0, app.width,
                           pal.WHITE, px + ins)


class LinkLeft(Scene):
    """The other console left the game: A plays on against the computer, B goes to the title."""

    MODE = LINK_LEFT

    def press(self, app, button):
        if button == bt.A:
            app.link.play_on_alone(app)
        elif button == bt.B:
            app.go(TITLE)

    def draw(self, app):
        if not app.full:
            return
        p = app.painter
        x = app.width // 2
        table_under(app)  # the table stays visible around the panel
        y = centred_panel(app, 4)
        live = app.answers_live()
        room = panel_width(app.width) - 4
        said = b"The other console left"
        if app.link.session.party:
            said = b"The host left"  # (a party table: the others play on with the computer)
        p.text_centred(said if p.text_width(said) <= room else b"Other console left", x, y, pal.GOLD)
        said = b"A: play on against the computer"
        p.text_centred(said if p.text_width(said) <= room else b"A: play the computer", x, y + LINE_H + 3,
                       pal.WHITE if live else pal.DIM)
        p.text_centred(b"B: to the title", x, y + 2 * LINE_H + 6, pal.CURSOR if live else pal.DIM)


class LinkAsk(Scene):
    """'A console offers Spite & Malice', over the screen it came on. A joins the offered
    table (a game under way is set aside, as from the title's Link play); B says no: the offer
    is set aside here (its host is not told: the offer went to every console in range) and the
    screen before comes back unchanged."""

    MODE = LINK_ASK

    def press(self, app, button):
        if button == bt.A:
            app.set_aside()
            app.go(LINK)
            app.selected = _JOIN
            app.link.status = L_JOINING
            app.link.take_offer(app)
        elif button == bt.B:
            app.link.session.decline()
            app.show(app.link.ask_back)

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
            said = b"Your game waits for you"
            if p.text_width(said) > panel_width(app.width) - 4:
                said = b"Your game waits"
            p.text_centred(said, x, y + 2 * LINE_H + 4, pal.WHITE)
        p.text_centred(b"A: join  B: no", x, y + 3 * LINE_H + 6, pal.CURSOR if app.answers_live() else pal.DIM)
