"""The table of one game on one screen: its piles drawn from a layout declaration, the
cursor, what is held, hints, the last move, and the redraw of only what changed.

Every array is made in __init__; press-time work indexes them. What was drawn is remembered
per slot (card count, fan step, highlight, and a copy of the cards in arena order), so a
refresh redraws a fan only from the first card that differs and marks just that rectangle.
"""

from array import array

from engine_core import PLAYING
from engine_core.game import ACTION, FACE_DOWN, FACE_UP, TOP_UP
from engine_core import history as hist
from engine_core import cards
from engine_core.gfx.palette import CURSOR, FELT, GREY, HELD, HINT, LAST, SLOT, WHITE
from engine_core.gfx.paint import LINE_H
from engine_core.ui import buttons as bt
from engine_core.ui.layouts import (ARG_COUNT, ARG_KIND, COUNT, DOWN, FAN_MASK, HIDDEN, PICK,
                                    RIGHT, STACK, THEIRS, WIDE)

try:
    from micropython import const
except ImportError:
    def const(x):
        return x

NONE = const(255)
# Piles redrawn in one frame at most: a deal or a computer's turn that changes more piles
# finishes its redraw in the next frames (each about 0.25 M fuel a pile: tools/bench_screens.py).
SLOTS_PER_FRAME = const(2)
SHAKE_MS = const(240)
MARGIN = const(2)  # room a shaken pile moves into: layouts leave this much between piles

# What the status line says besides the move count.
MSG_NONE = const(0)
MSG_NO_MOVE = const(1)
MSG_NO_HINT = const(2)
MSG_NO_UNDO = const(3)
MESSAGES = (b"", b"Not there", b"No hint", b"Nothing to undo")
PLAYER_TAGS = (b"P1 ", b"P2 ", b"P3 ", b"P4 ")

# Sounds the app asks the board for (App.sound_event; docs/screen.md).
SOUND_MOVE = const(1)
SOUND_ILLEGAL = const(2)
SOUND_WON = const(3)
SOUND_LOST = const(4)


class Table:
    def __init__(self, painter, game, decl, size, title):
        self.painter = painter
        self.screen = painter.screen
        self.fb = painter.fb
        self.game = game
        self.style = painter.styles[decl.get("cards", {}).get(size, size)]
        self.title = title
        slots = decl[size]
        n = len(slots)
        self.count = n
        self.pile = bytearray(n)
        self.x = array("h", [0] * n)
        self.y = array("h", [0] * n)
        self.how = bytearray(n)
        self.room = array("h", [0] * n)
        self.labels = []
        self.slot_of = bytearray([NONE] * 256)  # by pile id; NONE for a pile not shown
        for s in range(n):
            name, x, y, how, room, label = slots[s]
            p = game.pile_id(name)
            if p < 0:
                raise ValueError("layout names no pile of the game: " + name)
            self.pile[s] = p
            self.x[s] = x
            self.y[s] = y
            self.how[s] = how
            self.room[s] = room
            self.labels.append(label)
            self.slot_of[p] = s
        self.foundations = bytearray([game.pile_id(f) for f in decl["foundations"]])
        self.is_foundation = bytearray(256)  # by pile id
        for f in self.foundations:
            self.is_foundation[f] = 1
        # Action piles: A on the slot plays the action word (for player 1) when it is legal.
        self.action_pile = bytearray([NONE] * n)  # the first action of each slot, or NONE
        actions = decl["actions"]
        self.action_slot = bytearray(len(actions))
        self.action_word = bytearray(len(actions))
        for k in range(len(actions)):
            s = self.slot_of[game.pile_id(actions[k][0])]
            self.action_slot[k] = s
            self.action_word[k] = game.ACTIONS.index(actions[k][1])
            if self.action_pile[s] == NONE:
                self.action_pile[s] = self.action_word[k]
        self.arg_mode = decl["arg"]
        # A game is clearly won (and may finish itself) when these piles are empty and
        # these others hold cards in falling rank, so every card can go home in turn.
        finish = decl.get("finish", ((), ()))
        self.finish_empty = bytearray([game.pile_id(f) for f in finish[0]])
        self.finish_falling = bytearray([game.pile_id(f) for f in finish[1]])
        self.can_finish = len(finish[0]) + len(finish[1]) > 0
        self.labels_on_table = decl.get("labels", {}).get(size, ())
        status = decl["status"][size]
        self.status_x = status[0]
        self.status_y = status[1]
        self.status_w = status[2]
        # Reading order (top to bottom, left to right) for the two-button "next pile".
        self.order = bytearray(n)
        for s in range(n):  # insertion sort by row band, then x
            k = s
            while k > 0 and self.reads_before(s, self.order[k - 1]):
                self.order[k] = self.order[k - 1]
                k -= 1
            self.order[k] = s
        # What was drawn.
        self.drawn_n = bytearray(n)
        self.drawn_step = bytearray(n)
        self.drawn_hl_from = bytearray(n)
        self.drawn_hl_col = bytearray(n)
        self.drawn_ext = array("h", [0] * n)
        self.drawn_dx = bytearray([8] * n)
        self.drawn_cards = bytearray(len(game.piles.cards))
        self.drawn_moves = -1
        self.drawn_msg = NONE
        self.valid = False
        self.pending = False  # touched piles wait for the next frame
        self.sound = 0  # SOUND_MOVE / SOUND_ILLEGAL since the app last looked
        # Slots to look at in the next refresh; and the highlights as last drawn.
        self.touched = bytearray(256)  # by slot; index NONE (a pile not on screen) is a sink
        self.j_head = 0
        self.j_used = 0
        self.j_clears = 0
        self.r_cursor = NONE
        self.r_cursor_index = NONE
        self.r_held = NONE
        self.r_held_index = NONE
        self.r_hint = NONE
        self.r_last = NONE
        # The player's state.
        self.moves = array("i", [0] * game.MAX_MOVES)
        self.cached_n = -1  # legal moves in self.moves, valid while the journal is unchanged
        self.cached_head = 0
        self.cached_used = 0
        self.cached_clears = 0
        self.cached_moves = 0
        self.can_take = bytearray(n)
        self.cursor = 0
        self.cursor_index = 0
        self.held = NONE
        self.held_index = 0
        self.hint_slot = NONE
        self.last_slot = NONE
        self.move_count = 0
        self.message = MSG_NONE
        self.shake_slot = NONE
        self.shake_ms = 0
        self.shake_dx = 0
        self.hl_from = NONE
        self.hl_col = GREY
        self.new_game()

    def new_game(self):
        """After a deal: cursor home, nothing held, everything redrawn."""
        self.cursor = self.order[0]
        for i in range(self.count):
            s = self.order[i]
            if self.game.piles.size[self.pile[s]] > 0 and self.action_pile[s] == NONE:
                self.cursor = s
                break
        self.cursor_index = NONE
        self.cached_n = -1
        self.held = NONE
        self.hint_slot = NONE
        self.last_slot = NONE
        self.move_count = 0
        self.message = MSG_NONE
        self.shake_ms = 0
        self.shake_dx = 0
        self.valid = False

    # --- geometry ---

    def reads_before(self, a, b):
        ra = self.y[a] // 16
        rb = self.y[b] // 16
        return ra < rb or (ra == rb and self.x[a] < self.x[b])

    def step(self, s, n):
        """The fan step of slot s holding n cards, compressed to fit its room."""
        fan = self.how[s] & FAN_MASK
        st = self.style
        if fan == STACK or n < 2:
            return 0
        full = st.step_down if fan == DOWN else st.step_right
        size = st.h if fan == DOWN else st.w
        if self.how[s] & WIDE:
            full = size + 3  # a hand: every card whole when there is room
        fit = (self.room[s] - size) // (n - 1)
        if fit < full:
            full = fit if fit > 1 else 1
        return full

    def extent(self, s, n, step):
        """How far slot s reaches along its fan (or down, for a stack with its count)."""
        st = self.style
        fan = self.how[s] & FAN_MASK
        if fan == RIGHT:
            return st.w + (n - 1) * step if n > 1 else st.w
        e = st.h + (n - 1) * step if n > 1 else st.h
        if self.how[s] & COUNT:
            e += LINE_H
        return e

    # --- highlights ---

    def top_index(self, s):
        n = self.game.piles.size[self.pile[s]]
        return n - 1 if n > 0 else 0

    def highlight(self, s):
        """Set hl_from (first highlighted card, NONE) and hl_col for slot s."""
        self.hl_from = NONE
        self.hl_col = GREY
        if s == self.cursor and s != self.held:
            self.hl_col = CURSOR
            self.hl_from = self.cursor_index if self.cursor_index != NONE else self.top_index(s)
        elif s == self.held:
            self.hl_col = HELD
            self.hl_from = self.held_index
        elif s == self.hint_slot:
            self.hl_col = HINT
            self.hl_from = self.top_index(s)
        elif s == self.last_slot:
            self.hl_col = LAST
            self.hl_from = self.top_index(s)

    # --- drawing ---

    def card_face_up(self, p, i, n):
        if self.how[self.slot_of[p]] & HIDDEN:
            return False
        face = self.game.pile_faces[p]
        if face == FACE_DOWN:
            return False
        if face == TOP_UP:
            return i == n - 1
        return True

    def draw_all(self):
        """The whole table, from nothing."""
        self.fb.fill(FELT)
        self.screen.mark_all()
        for i in range(len(self.labels_on_table)):
            label = self.labels_on_table[i]
            self.painter.text(label[0], label[1], label[2], SLOT)
        for s in range(self.count):
            self.touched[s] = 0
            self.draw_slot(s, True)
        self.remember_highlights()
        self.drawn_moves = -1
        self.drawn_msg = NONE
        self.draw_status()
        self.valid = True

    def touch(self, s):
        if s != NONE:
            self.touched[s] = 1

    def touch_entries(self, start, end):
        """Touch the piles that the journal entries start .. end (ring positions) changed:
        a move, the computer's answers, or (read backwards) what an undo took back."""
        h = self.game.history
        log = h.log
        cap = h.capacity
        slot_of = self.slot_of
        touched = self.touched
        i = start
        while i != end:
            e = log[i]
            tag = e >> 24
            # A pile in bits 16-23 (MOVE's source, REMOVE's pile), in bits 8-15 for the other
            # pile changes (PUSH, POP, MOVE's destination, and any later tag of that shape).
            # slot_of and touched have 256 entries, so any byte indexes them safely.
            if tag == hist.MOVE or tag == hist.REMOVE:
                touched[slot_of[(e >> 16) & 0xFF]] = 1
            if tag != hist.MARK and tag != hist.VAR_LO and tag != hist.VAR_HI and tag != hist.REMOVE:
                touched[slot_of[(e >> 8) & 0xFF]] = 1
            i = (i + 1) % cap

    def mark_journal(self):
        """Note where the journal stands, before a move or a tick (see touch_since)."""
        h = self.game.history
        self.j_head = h.head
        self.j_used = h.used
        self.j_clears = h.clears

    def touch_since(self):
        """Touch what changed since mark_journal(); everything when the journal was cleared
        meanwhile (a turn's end, a new game of a match) or ran full."""
        h = self.game.history
        if h.clears != self.j_clears or h.head != self.j_head or h.used != self.j_used:
            self.cached_n = -1  # the position changed: generate the moves afresh
        if h.clears == self.j_clears and self.j_used < h.used < h.capacity:
            self.touch_entries(self.j_head, h.head)
        elif h.clears != self.j_clears or h.head != self.j_head or h.used != self.j_used:
            for s in range(self.count):
                self.touched[s] = 1

    def refresh(self):
        """Redraw what changed since the last refresh (everything when not yet drawn).

        Only touched slots are looked at: those a move's journal entries name, and those
        whose highlight changed (cursor, held, hint, last move, shake)."""
        if not self.valid:
            self.draw_all()
            return
        if self.cursor != self.r_cursor or self.cursor_index != self.r_cursor_index:
            self.touch(self.r_cursor)
            self.touch(self.cursor)
        if self.held != self.r_held or self.held_index != self.r_held_index:
            self.touch(self.r_held)
            self.touch(self.held)
        if self.hint_slot != self.r_hint:
            self.touch(self.r_hint)
            self.touch(self.hint_slot)
        if self.last_slot != self.r_last:
            self.touch(self.r_last)
            self.touch(self.last_slot)
        self.touch(self.shake_slot)
        self.remember_highlights()
        budget = SLOTS_PER_FRAME
        self.pending = False
        for s in range(self.count):
            if self.touched[s] or self.drawn_dx[s] != 8:
                if budget == 0:
                    self.pending = True  # the rest in the next frames (app.tick)
                    break
                budget -= 1
                self.touched[s] = 0
                self.draw_slot(s, self.drawn_dx[s] != self.slot_dx(s))
        self.draw_status()

    def remember_highlights(self):
        self.r_cursor = self.cursor
        self.r_cursor_index = self.cursor_index
        self.r_held = self.held
        self.r_held_index = self.held_index
        self.r_hint = self.hint_slot
        self.r_last = self.last_slot

    def slot_dx(self, s):
        """How far slot s is shaken sideways now (+ 8, to fit a bytearray)."""
        if s == self.shake_slot:
            return self.shake_dx + 8
        return 8

    def draw_slot(self, s, force):
        piles = self.game.piles
        p = self.pile[s]
        n = piles.size[p]
        step = self.step(s, n)
        self.highlight(s)
        hl_from = self.hl_from
        hl_col = self.hl_col
        dn = self.drawn_n[s]
        fan = self.how[s] & FAN_MASK
        base = piles.start[p]
        cards_now = piles.cards
        drawn = self.drawn_cards
        first = 0
        if not force and step == self.drawn_step[s] and fan != STACK:
            m = n if n < dn else dn
            while first < m and drawn[base + first] == cards_now[base + first]:
                first += 1
            if n != dn and first > n - 1:
                first = n - 1
            if hl_from != self.drawn_hl_from[s] or hl_col != self.drawn_hl_col[s]:
                old = self.drawn_hl_from[s]
                if hl_from < first:
                    first = hl_from
                if old < first:
                    first = old
            changed = (n != dn or first < m or hl_from != self.drawn_hl_from[s]
                       or hl_col != self.drawn_hl_col[s])
            if not changed:
                return
            if first < 0 or n == 0 or dn == 0:
                first = 0
        elif not force and fan == STACK:
            if (n == dn and hl_from == self.drawn_hl_from[s] and hl_col == self.drawn_hl_col[s]
                    and (n == 0 or drawn[base + n - 1] == cards_now[base + n - 1])):
                return
        st = self.style
        x = self.x[s]
        y = self.y[s]
        old_ext = self.drawn_ext[s]
        ext = self.extent(s, n, step)
        reach = ext if ext > old_ext else old_ext
        fb = self.fb
        # Clear what this redraw covers (and the margin a shake moves into).
        if first == 0:
            dx = self.slot_dx(s)
            margin = MARGIN if dx != 8 or self.drawn_dx[s] != 8 else 0  # room a shake uses
            self.drawn_dx[s] = dx
            dx -= 8
            if fan == RIGHT:
                fb.fill_rect(x - margin, y, reach + 2 * margin, st.h, FELT)
                self.screen.mark(x - margin, y, reach + 2 * margin, st.h)
            else:
                fb.fill_rect(x - margin, y, st.w + 2 * margin, reach, FELT)
                self.screen.mark(x - margin, y, st.w + 2 * margin, reach)
            x += dx
        elif fan == RIGHT:
            x += self.drawn_dx[s] - 8  # a partial redraw keeps the pile where it is drawn
            x0 = x + first * step
            fb.fill_rect(x0, y, x + reach - x0, st.h, FELT)
            self.screen.mark(x0, y, x + reach - x0, st.h)
        else:
            x += self.drawn_dx[s] - 8
            y0 = y + first * step
            fb.fill_rect(x, y0, st.w, y + reach - y0, FELT)
            self.screen.mark(x, y0, st.w, y + reach - y0)
        # Draw.
        if n == 0:
            self.painter.empty_pile(st, x, y, self.labels[s], hl_col)
        elif fan == STACK:
            c = cards_now[base + n - 1]
            self.painter.card(st, x, y, c, self.card_face_up(p, n - 1, n), hl_col, FELT, False)
        else:
            below = fan == RIGHT
            single = self.arg_mode == ARG_KIND and self.how[s] & PICK
            face = self.game.pile_faces[p]  # as card_face_up, without a call per card
            if self.how[s] & HIDDEN:
                face = FACE_DOWN
            # A covered card's centre never shows at the usual step or less; a wider step
            # (a spread hand) shows it.
            open_fan = step > (st.step_right if below else st.step_down)
            for i in range(first, n):
                # A run is framed from the picked card up; a hand card (named by its
                # kind) alone.
                frame = hl_col if i >= hl_from and (i == hl_from or not single) else GREY
                corner = FELT if i == 0 else GREY
                c = cards_now[base + i]
                up = face == FACE_UP or (face == TOP_UP and i == n - 1)
                top = i == n - 1 or open_fan
                if fan == RIGHT:
                    self.painter.card(st, x + i * step, y, c, up, frame, corner, below, top)
                else:
                    self.painter.card(st, x, y + i * step, c, up, frame, corner, below, top)
        if self.how[s] & COUNT and fan != RIGHT:
            ty = y + st.h + 2
            if n > 0:
                nw = self.painter.number_width(n)
                self.painter.number(n, x + (st.w - nw) // 2, ty, SLOT)
        # Remember (cards below `first` are already remembered; a stack shows only its top).
        if fan == STACK:
            if n > 0:
                drawn[base + n - 1] = cards_now[base + n - 1]
        else:
            for i in range(first, n):
                drawn[base + i] = cards_now[base + i]
        self.drawn_n[s] = n
        self.drawn_step[s] = step
        self.drawn_hl_from[s] = hl_from
        self.drawn_hl_col[s] = hl_col
        self.drawn_ext[s] = ext

    def draw_status(self):
        """The move count (its own small box) and the title or a message."""
        p = self.painter
        x = self.status_x
        y = self.status_y
        w = self.status_w
        fb = self.fb
        narrow = w < 100  # a corner: the count under its name
        if self.message != self.drawn_msg:
            self.drawn_msg = self.message
            if narrow:
                fb.fill_rect(x, y, w, LINE_H - 1, FELT)
                self.screen.mark(x, y, w, LINE_H - 1)
                p.text(b"Score" if self.game.COMPETITIVE else b"Moves", x, y, SLOT)
            else:
                fb.fill_rect(x, y, w - 72, LINE_H - 1, FELT)
                self.screen.mark(x, y, w - 72, LINE_H - 1)
                if self.message != MSG_NONE:
                    p.text(MESSAGES[self.message], x, y, CURSOR)
                else:
                    p.text(self.title, x, y, SLOT)
                if not self.game.COMPETITIVE:
                    p.text(b"Moves", x + w - 65, y, SLOT)
        if self.game.COMPETITIVE:
            self.draw_scores(x, y, w, narrow)
            return
        if self.move_count != self.drawn_moves:
            self.drawn_moves = self.move_count
            if narrow:
                y += LINE_H
            nx = x + w - 29 if not narrow else x
            fb.fill_rect(nx, y, 29, LINE_H - 1, FELT)
            self.screen.mark(nx, y, 29, LINE_H - 1)
            if narrow:
                p.number(self.move_count, nx, y, WHITE)
            else:
                p.number(self.move_count, x + w - p.number_width(self.move_count), y, WHITE)

    def draw_scores(self, x, y, w, narrow):
        """Competitive games: each player's score instead of the move count."""
        game = self.game
        total = 0
        for i in range(game.players):
            total = total * 7 + game.score(i) + 3 * i
        if total == self.drawn_moves:
            return
        self.drawn_moves = total
        p = self.painter
        if narrow:
            y += LINE_H
            bw = w
            bx = x
        else:
            bw = 29 + 36 * (game.players - 1)
            bx = x + w - bw
        bh = LINE_H * game.players if narrow else LINE_H - 1
        self.fb.fill_rect(bx, y, bw, bh, FELT)
        self.screen.mark(bx, y, bw, bh)
        for i in range(game.players):
            colour = WHITE if i == 0 else SLOT
            score = game.score(i)
            if narrow:
                tx = p.text(PLAYER_TAGS[i], bx, y + i * LINE_H, SLOT)
            else:
                tx = p.text(PLAYER_TAGS[i], bx + 36 * i, y, SLOT)
            if score < 0:
                tx = p.text(b"-", tx, y + (i * LINE_H if narrow else 0), colour)
                score = -score
            p.number(score, tx, y + (i * LINE_H if narrow else 0), colour)

    # --- finishing by itself ---

    def clearly_won(self):
        """True when nothing is left to decide: every remaining card can go home in turn."""
        if not self.can_finish or self.game.status() != PLAYING:
            return False
        piles = self.game.piles
        for i in range(len(self.finish_empty)):
            if piles.size[self.finish_empty[i]] > 0:
                return False
        for i in range(len(self.finish_falling)):
            p = self.finish_falling[i]
            base = piles.start[p]
            for k in range(1, piles.size[p]):
                if piles.cards[base + k] % 13 > piles.cards[base + k - 1] % 13:
                    return False
        return True

    def play_home(self):
        """Play one legal move to a foundation (auto-play); False when there is none."""
        game = self.game
        n = self.legal_moves()
        for i in range(n):
            m = self.moves[i]
            dst = (m >> 8) & 0xFF
            if m >> 16 != ACTION:
                for k in range(len(self.foundations)):
                    if self.foundations[k] == dst:
                        self.play(m)
                        self.cursor = self.slot_of[dst] if self.slot_of[dst] != NONE else self.cursor
                        return True
        return False

    # --- time ---

    def tick(self, ms):
        """Animate a shake; True while something moves."""
        if self.shake_ms <= 0:
            return False
        self.shake_ms -= ms
        phase = (SHAKE_MS - self.shake_ms) // 60
        if self.shake_ms <= 0:
            self.shake_dx = 0
        elif phase & 1:
            self.shake_dx = -2
        else:
            self.shake_dx = 2
        self.refresh()
        if self.shake_ms <= 0:
            self.shake_slot = NONE
        return True

    def shake(self, s):
        self.sound = SOUND_ILLEGAL
        self.shake_slot = s
        self.shake_ms = SHAKE_MS
        self.shake_dx = 2
        self.message = MSG_NO_MOVE

    # --- the player's actions ---

    def move_cursor(self, direction):
        """The nearest slot in a direction (among those that can take what is held)."""
        st = self.style
        c = self.cursor
        if self.how[c] & PICK and self.held == NONE:
            if self.move_within(direction):
                return
        cx = self.x[c]
        cy = self.y[c]
        best = NONE
        best_score = 0
        for s in range(self.count):
            if s == c:
                continue
            if self.held != NONE and s != self.held and not self.can_take[s]:
                continue
            dx = self.x[s] - cx
            dy = self.y[s] - cy
            if direction == bt.RIGHT:
                along = dx
                across = dy
            elif direction == bt.LEFT:
                along = -dx
                across = dy
            elif direction == bt.DOWN:
                along = dy
                across = dx
            else:
                along = -dy
                across = dx
            if across < 0:
                across = -across
            if along <= 0 or across > 2 * along + st.w:
                continue
            score = along + 3 * across
            if best == NONE or score < best_score:
                best = s
                best_score = score
        if best != NONE:
            self.cursor = best
            self.cursor_index = NONE
            self.message = MSG_NONE

    def move_within(self, direction):
        """In a PICK fan, move the cursor along its cards; False at the end of the fan."""
        c = self.cursor
        n = self.game.piles.size[self.pile[c]]
        i = self.cursor_index
        if i == NONE:
            i = n - 1
        fan = self.how[c] & FAN_MASK
        back = bt.UP if fan == DOWN else bt.LEFT
        fwd = bt.DOWN if fan == DOWN else bt.RIGHT
        if direction == back and i > 0 and self.card_face_up(self.pile[c], i - 1, n):
            self.cursor_index = i - 1
            return True
        if direction == fwd and i < n - 1:
            self.cursor_index = i + 1
            return True
        return False

    def next_slot(self):
        """The next slot in reading order (two-button play), skipping those that cannot take."""
        k = 0
        for i in range(self.count):
            if self.order[i] == self.cursor:
                k = i
        for j in range(1, self.count + 1):
            s = self.order[(k + j) % self.count]
            if self.held == NONE or s == self.held or self.can_take[s]:
                self.cursor = s
                self.cursor_index = NONE
                return

    def legal_moves(self):
        """The game's legal moves in self.moves; how many. Kept while the journal stands
        still, so picking up and then placing generate them once (Casket's cost 0.35-0.5 M
        fuel a call)."""
        h = self.game.history
        # Every change the table makes or sees (play, undo, a tick's computer moves, a deal)
        # drops the cache; the journal's position is checked as well, for changes made
        # behind the table's back.
        if (self.cached_n >= 0 and h.head == self.cached_head and h.used == self.cached_used
                and h.clears == self.cached_clears and h.moves == self.cached_moves):
            return self.cached_n
        n = self.game.legal_moves(self.moves)
        self.cached_n = n
        self.cached_head = h.head
        self.cached_used = h.used
        self.cached_clears = h.clears
        self.cached_moves = h.moves
        return n

    def arg_fits(self, move, s, index):
        """Does the move's arg agree with picking card `index` of slot s? Only a PICK slot
        (a hand, a run) says more than its pile: which card, or how many."""
        mode = self.arg_mode
        if not self.how[s] & PICK:
            return True
        if mode == ARG_COUNT:
            count = self.game.piles.size[self.pile[s]] - index
            return count == 1 or move & 0xFF == count  # one card: any move of the top card
        if mode == ARG_KIND:
            return move & 0xFF == cards.kind(self.game.piles.card(self.pile[s], index))
        return True

    def find_move(self, s, index, dst_pile):
        """A legal move from card `index` of slot s to dst_pile, or -1."""
        game = self.game
        n = self.legal_moves()
        src = self.pile[s]
        for i in range(n):
            m = self.moves[i]
            if m >> 16 == src and (m >> 8) & 0xFF == dst_pile and self.arg_fits(m, s, index):
                return m
        return -1

    def picked_index(self, s):
        if self.cursor_index != NONE and self.how[s] & PICK:
            return self.cursor_index
        return self.top_index(s)

    def play(self, move):
        game = self.game
        self.mark_journal()
        game.apply(move)
        game.respond()
        self.touch_since()
        self.sound = SOUND_MOVE
        self.move_count += 1
        self.held = NONE
        self.hint_slot = NONE
        self.message = MSG_NONE
        dst = (move >> 8) & 0xFF
        if move >> 16 == ACTION:
            self.last_slot = NONE
        else:
            self.last_slot = self.slot_of[dst]
        self.cursor_index = NONE

    def press_a(self):
        """Pick up, place, or play the action of an action pile."""
        s = self.cursor
        game = self.game
        if game.status() != PLAYING:
            return
        if self.held != NONE:
            if s == self.held:
                self.held = NONE
                return
            m = self.find_move(self.held, self.held_index, self.pile[s])
            if m < 0:
                self.shake(s)
                return
            self.play(m)
            return
        if self.action_pile[s] != NONE:
            n = self.legal_moves()
            for k in range(len(self.action_slot)):
                if self.action_slot[k] == s:
                    for i in range(n):
                        m = self.moves[i]
                        if m >> 16 == ACTION and (m >> 8) & 0xFF == self.action_word[k] and m & 0xFF == 0:
                            self.play(m)
                            return
        p = self.pile[s]
        if game.piles.size[p] == 0 or self.how[s] & THEIRS:
            self.shake(s)
            return
        index = self.picked_index(s)
        n = self.legal_moves()
        found = False
        for t in range(self.count):
            self.can_take[t] = 0
        pick = self.how[s] & PICK
        for i in range(n):
            m = self.moves[i]
            if m >> 16 == p and (not pick or self.arg_fits(m, s, index)):
                t = self.slot_of[(m >> 8) & 0xFF]
                if t != NONE:
                    self.can_take[t] = 1
                    found = True
        if not found:
            self.shake(s)
            return
        self.held = s
        self.held_index = index
        if self.hint_slot != NONE and self.can_take[self.hint_slot]:
            self.cursor = self.hint_slot  # X, A, A plays the hinted move
            self.cursor_index = NONE
        self.hint_slot = NONE
        self.message = MSG_NONE

    def press_long_a(self):
        """Send the card under the cursor to a foundation where it fits."""
        s = self.cursor
        self.held = NONE
        if self.game.status() != PLAYING or self.how[s] & THEIRS:
            self.shake(s)
            return
        index = self.picked_index(s)
        n = self.legal_moves()
        src = self.pile[s]
        pick = self.how[s] & PICK
        for i in range(n):
            m = self.moves[i]
            if m >> 16 == src and self.is_foundation[(m >> 8) & 0xFF]:
                if not pick or self.arg_fits(m, s, index):
                    self.play(m)
                    return
        self.shake(s)

    def press_b(self):
        self.held = NONE
        self.hint_slot = NONE
        self.message = MSG_NONE

    def press_hint(self):
        m = self.game.hint()
        self.held = NONE
        if m < 0:
            self.message = MSG_NO_HINT
            return
        src = m >> 16
        if src == ACTION:
            for s in range(self.count):
                if self.action_pile[s] == (m >> 8) & 0xFF:
                    self.cursor = s
            self.hint_slot = NONE
            self.cursor_index = NONE
        else:
            if self.slot_of[src] != NONE:
                self.cursor = self.slot_of[src]
            self.hint_slot = self.slot_of[(m >> 8) & 0xFF]
            self.cursor_index = self.index_for_arg(self.cursor, m & 0xFF)
        self.message = MSG_NONE

    def index_for_arg(self, s, arg):
        """The card of a PICK slot that a move's arg names (NONE: the top card)."""
        if not self.how[s] & PICK:
            return NONE
        piles = self.game.piles
        p = self.pile[s]
        n = piles.size[p]
        if self.arg_mode == ARG_COUNT and 0 < arg <= n:
            return n - arg
        if self.arg_mode == ARG_KIND:
            for i in range(n):
                if cards.kind(piles.card(p, i)) == arg:
                    return i
        return NONE

    def press_undo(self):
        self.held = NONE
        self.hint_slot = NONE
        end = self.game.history.head
        self.cached_n = -1
        if self.game.undo():
            self.touch_entries(self.game.history.head, end)
            self.move_count -= 1
            self.last_slot = NONE
            self.message = MSG_NONE
        else:
            self.message = MSG_NO_UNDO

    def press(self, button):
        """One button in play (B, X, Y and directions; START is the app's)."""
        if button == bt.A:
            self.press_a()
        elif button == bt.B:
            self.press_b()
        elif button == bt.X:
            self.press_hint()
        elif button == bt.Y:
            self.press_undo()
        elif button <= bt.RIGHT:
            self.move_cursor(button)
