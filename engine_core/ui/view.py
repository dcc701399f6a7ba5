"""How a table looks: the piles drawn from a layout declaration, the highlights, the status
line, and the redraw of only what changed (the Table in table.py adds what the player does).

What was drawn is remembered per slot (card count, fan step, highlight, shake offset, and a
copy of the cards in arena order), so a refresh redraws a fan only from the first card that
differs and marks just that rectangle. Piles to look at are *touched*: those a move's journal
entries name, and those whose highlight changed.
"""

from engine_core import reasons as why
from engine_core.game import FACE_DOWN, FACE_UP, TOP_UP
from engine_core.gfx.palette import BLACK, CURSOR, FELT, GREY, HELD, HINT, LAST, PANEL, SLOT, WHITE
from engine_core.gfx.paint import LINE_H
from engine_core.ui.layouts import (ARG_KIND, COUNT, DOWN, FAN_MASK, HIDDEN, PICK, RIGHT, STACK,
                                    WIDE, WILD)

from micropython import const

NONE = const(255)
# Piles redrawn in one frame at most: a deal or a computer's turn that changes more piles
# finishes its redraw in the next frames (each about 0.25 M fuel a pile: tools/bench/bench_screens.py).
SLOTS_PER_FRAME = const(2)
MARGIN = const(2)  # room a shaken pile moves into: layouts leave this much between piles
SHAKE_BIAS = const(8)  # drawn_shake holds a slot's shake plus this, to fit a bytearray
UNCHANGED = const(-1)  # first_to_redraw: the slot looks as drawn

# What the strip at the foot of the table says (a code of engine_core/reasons.py), and how long.
MSG_NONE = const(0)
MSG_NO_HINT = why.NO_HINT
MSG_NO_UNDO = why.NO_UNDO
MESSAGE_MS = const(2000)
# A card sliding from one pile to another (Table.slide, one small int): frames left, the frame
# drawn, the source and destination slots, the card, and whether the setting is on.
SLIDE_FRAMES = const(4)  # a frame a tick (about 33 ms on the device)
SLIDE_LEFT = const(0xF)
SLIDE_DRAWN = const(0xF0)
SLIDE_ON = const(0x10000000)
SLIDE_WAIT = const(0x20000000)  # changed in a keypress: drawn in the next frame, not in it
DAMAGE_FROM = const(39)  # bytes of Table.said after its text: the strip's band drawn over since
DAMAGE_TO = const(40)  # it was drawn, in pixel pairs (255, 0: none)
GHOST_X = const(41)  # then where the sliding card was drawn: x (two bytes), y
GHOST_Y = const(43)
KING = const(12)  # rank index of a king (card % 13)
RANK_CHARS = b"A23456789TJQ"  # a wild king's rank tag (ten is drawn as 10)
SCORE_W = const(37)  # one player's score in a wide status line ("You 12")
PLAYER_TAGS = (b"You ", b"CPU ", b"CPU2 ", b"CPU3 ")  # seat 1 is the player, the rest the computer
LINK_TAGS = ((b"You ", b"P2 "), (b"P1 ", b"You "))  # link play, from either console's seat


class TableView:
    """Drawing for Table; every attribute it reads is made in Table.__init__."""

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

    def slot_at(self, px, py):
        """The slot whose cards cover the screen point (px, py) and the card under it (the top
        card of a stack), as slot | index << 8; NONE when no slot does (a pointer: the
        simulator's mouse)."""
        st = self.style
        piles = self.game.piles
        for s in range(self.count):
            n = piles.size[self.pile[s]]
            step = self.step(s, n)
            fan = self.how[s] & FAN_MASK
            x = self.x[s]
            y = self.y[s]
            w = st.w
            h = st.h
            if fan == RIGHT and n > 1:
                w += (n - 1) * step
            elif fan == DOWN and n > 1:
                h += (n - 1) * step
            if x <= px < x + w and y <= py < y + h:
                i = n - 1
                if fan == RIGHT and step > 0 and (px - x) // step < i:
                    i = (px - x) // step
                elif fan == DOWN and step > 0 and (py - y) // step < i:
                    i = (py - y) // step
                return s | (i if i > 0 else 0) << 8
        return NONE

    # --- a card sliding to its pile ---

    def slide_on(self, on):
        """The card slide setting (App passes it at each deal and when it changes)."""
        if on:
            self.slide |= SLIDE_ON
        elif self.slide & SLIDE_ON:
            self.slide -= SLIDE_ON

    def start_slide(self, src, dst, card):
        """A card moved from slot src to slot dst: it slides there over the next frames (the
        card drawn on the way of an earlier slide is taken off in the next frame)."""
        if not self.slide & SLIDE_ON or src == NONE or dst == NONE or src == dst or card < 0:
            self.stop_slide()
            return
        self.slide = (self.slide & (SLIDE_ON | SLIDE_DRAWN) | SLIDE_WAIT | SLIDE_FRAMES
                      | src << 8 | dst << 14 | card << 20)

    def stop_slide(self):
        """The slide ends: the card drawn on its way is taken off in the next frame."""
        if self.slide & SLIDE_DRAWN:
            self.slide = (self.slide & ~SLIDE_LEFT) | SLIDE_WAIT
        else:
            self.slide &= SLIDE_ON

    def slide_frame(self, ms):
        """A frame has come (Table.tick): what a keypress changed is drawn now, and with time
        passing the card moves on a step. True when the slide needs a redraw."""
        s = self.slide
        if s & SLIDE_WAIT:
            self.slide = s - SLIDE_WAIT
            return True
        if s & SLIDE_LEFT and ms > 0:
            self.slide = s - 1
            return True
        return False

    def ghost_stays(self):
        """True while the sliding card drawn last is where it is to be drawn now (the same
        frame, and no pile beneath moved it)."""
        frame = self.slide & SLIDE_LEFT
        if frame == 0 or frame != (self.slide & SLIDE_DRAWN) >> 4:
            return False
        d = self.said
        return self.ghost_x(frame) == d[GHOST_X] | d[GHOST_X + 1] << 8 and self.ghost_y(frame) == d[GHOST_Y]

    def restore_ghost(self):
        d = self.said
        self.restore_under(d[GHOST_X] | d[GHOST_X + 1] << 8, d[GHOST_Y])
        self.slide &= ~SLIDE_DRAWN

    def ghost_x(self, frame):
        return self.slide_pos(frame, True)

    def ghost_y(self, frame):
        return self.slide_pos(frame, False)

    def slide_pos(self, frame, along_x):
        """Where the sliding card is at a frame (SLIDE_FRAMES .. 1), x or y: from the place it
        left (the source's next card position) towards the destination's top card."""
        s = (self.slide >> 8) & 0x3F
        d = (self.slide >> 14) & 0x3F
        a = self.card_pos(s, self.game.piles.size[self.pile[s]], along_x)
        b = self.card_pos(d, self.game.piles.size[self.pile[d]] - 1, along_x)
        t = SLIDE_FRAMES + 1 - frame
        return a + (b - a) * t // (SLIDE_FRAMES + 1)

    def card_pos(self, s, i, along_x):
        if i < 0:
            i = 0
        n = self.game.piles.size[self.pile[s]]
        fan = self.how[s] & FAN_MASK
        step = self.step(s, n if n > i else i + 1)
        if along_x:
            return self.x[s] + (i * step if fan == RIGHT else 0)
        return self.y[s] + (i * step if fan == DOWN else 0)

    def restore_under(self, gx, gy):
        """Draw again what a card drawn at (gx, gy) covered: the felt, every slot, label and
        the status line it touched, and mark the strip at the foot."""
        st = self.style
        w = st.w
        h = st.h
        self.fb.fill_rect(gx, gy, w, h, FELT)
        self.screen.mark(gx, gy, w, h)
        piles = self.game.piles
        for s in range(self.count):
            n = piles.size[self.pile[s]]
            step = self.step(s, n)
            fan = self.how[s] & FAN_MASK
            ext = self.extent(s, n, step)
            sw = ext if fan == RIGHT else st.w
            sh = st.h if fan == RIGHT else ext
            x = self.x[s] - MARGIN
            if x < gx + w and gx < x + sw + 2 * MARGIN and self.y[s] < gy + h and gy < self.y[s] + sh:
                self.draw_slot(s, True)
        for i in range(len(self.labels_on_table)):
            label = self.labels_on_table[i]
            if label[1] < gx + w and gx < label[1] + 6 * len(label[0]) and label[2] < gy + h and gy < label[2] + LINE_H:
                self.painter.text(label[0], label[1], label[2], SLOT)
        if self.status_x < gx + w and gx < self.status_x + self.status_w and self.status_y < gy + h and gy < self.status_y + 3 * LINE_H:
            self.draw_status(True)
            if self.status_y + 3 * LINE_H > self.screen.height - LINE_H - 3:
                self.strip_damage(self.status_x, self.status_x + self.status_w)
        if gy + h > self.screen.height - LINE_H - 3:
            self.strip_damage(gx, gx + w)

    def draw_ghost(self):
        """The sliding card at its frame, on top of the table."""
        frame = self.slide & SLIDE_LEFT
        card = (self.slide >> 20) & 0xFF
        gx = self.ghost_x(frame)
        gy = self.ghost_y(frame)
        self.painter.card(self.style, gx, gy, card, True, GREY, FELT, False)
        self.screen.mark(gx, gy, self.style.w, self.style.h)
        d = self.said
        d[GHOST_X] = gx & 0xFF
        d[GHOST_X + 1] = gx >> 8
        d[GHOST_Y] = gy
        if gy + self.style.h > self.screen.height - LINE_H - 3:
            self.strip_damage(gx, gx + self.style.w)
        self.slide = (self.slide & ~SLIDE_DRAWN) | frame << 4

    def top_index(self, s):
        n = self.game.piles.size[self.pile[s]]
        return n - 1 if n > 0 else 0

    def highlight(self, s):
        """Set highlight_from (the first highlighted card, or NONE) and highlight_colour for
        slot s."""
        self.highlight_from = NONE
        self.highlight_colour = GREY
        if s == self.cursor and s != self.held:
            self.highlight_colour = CURSOR
            self.highlight_from = self.cursor_index if self.cursor_index != NONE else self.top_index(s)
        elif s == self.held:
            self.highlight_colour = HELD
            self.highlight_from = self.held_index
        elif s == self.hint_slot:
            self.highlight_colour = HINT
            self.highlight_from = self.top_index(s)
        elif s == self.last_slot:
            self.highlight_colour = LAST
            self.highlight_from = self.top_index(s)

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
        self.draw_status(True)
        self.slide &= ~(SLIDE_DRAWN | SLIDE_WAIT)
        if self.slide & SLIDE_LEFT:
            self.draw_ghost()  # over the piles and the status line, under the message strip
        if self.message != MSG_NONE:
            self.draw_message(0, self.screen.width)
        self.said[DAMAGE_FROM] = 255
        self.said[DAMAGE_TO] = 0
        self.valid = True

    def touch(self, s):
        if s != NONE:
            self.touched[s] = 1

    def touch_entries(self, start, end):
        """Touch the piles that the journal entries start .. end (ring positions) changed:
        a move, the computer's answers, or (read backwards) what an undo took back."""
        self.game.history.mark_piles(start, end, self.touched, self.slot_of)

    def mark_journal(self):
        """Note where the journal stands, before a move or a tick (see touch_since)."""
        h = self.game.history
        self.j_head = h.head
        self.j_used = h.used
        self.j_clears = h.clears

    def touch_since(self):
        """Touch what changed since mark_journal(); everything when the journal was cleared
        meanwhile (a game's end, a new game of a match) or ran full."""
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
        touched = self.touched
        shaken = self.shake_slot
        for s in range(self.count):
            if touched[s] and s != shaken:
                if budget == 0:
                    self.pending = True  # the rest in the next frames (app.tick)
                    break
                budget -= 1
                touched[s] = 0
                self.draw_slot(s, False)
        # The shaken slot last: a neighbour settling back from a shake clears the gap between
        # them, where the shaken card reaches.
        if shaken != NONE and touched[shaken]:
            if budget == 0:
                self.pending = True
            else:
                budget -= 1
                touched[shaken] = 0
                self.draw_slot(shaken, False)
        ghost = self.slide & (SLIDE_LEFT | SLIDE_DRAWN) and not self.slide & SLIDE_WAIT
        if self.slide & SLIDE_WAIT and self.slide & (SLIDE_LEFT | SLIDE_DRAWN):
            self.pending = True  # a keypress moved it: the next frame draws it (App.tick)
        elif ghost and self.slide & SLIDE_DRAWN:
            if not self.ghost_stays():  # off its old place
                self.restore_ghost()
            elif budget == SLOTS_PER_FRAME:
                ghost = False  # where it was drawn, and nothing drawn over it since
        if self.draw_status():
            if self.status_y + 3 * LINE_H > self.screen.height - LINE_H - 3:
                self.strip_damage(self.status_x, self.status_x + self.status_w)  # the status corner
            ghost = not self.slide & SLIDE_WAIT  # the status may have been drawn over it
        if ghost and self.slide & SLIDE_LEFT:
            self.draw_ghost()  # over the piles and the status line, under the message strip
        if self.message != MSG_NONE:
            if self.message_ms > MESSAGE_MS:
                # Said in this keypress: the strip waits for the next frame, which mends what
                # was drawn over it meanwhile (it may show from a full redraw in a keypress).
                self.pending = True
                return
            if self.drawn_msg != self.message:
                self.draw_message(0, self.screen.width)
            elif self.said[DAMAGE_FROM] != 255:  # mend what a redraw beneath covered
                self.draw_message(2 * self.said[DAMAGE_FROM], 2 * self.said[DAMAGE_TO])
        self.said[DAMAGE_FROM] = 255
        self.said[DAMAGE_TO] = 0

    def strip_damage(self, x0, x1):
        """Note that pixels x0 .. x1 of the message strip's band were drawn over."""
        d = self.said
        if x0 < 0:
            x0 = 0
        if x0 // 2 < d[DAMAGE_FROM]:
            d[DAMAGE_FROM] = x0 // 2
        if (x1 + 1) // 2 > d[DAMAGE_TO]:
            d[DAMAGE_TO] = (x1 + 1) // 2

    def draw_message(self, x0, x1):
        """The message strip at the foot of the table (why a move was refused, and the like),
        between x0 and x1: what a redraw beneath it covered, or all of it. Only the letters
        there are drawn again (a whole strip costs about 0.4 M fuel)."""
        fb = self.fb
        w = self.screen.width
        if x1 > w:
            x1 = w
        y = self.screen.height - LINE_H - 3
        fb.fill_rect(x0, y, x1 - x0, LINE_H + 3, PANEL)
        said = self.message == why.SAID
        text = why.screen_words(self.game, self.message)
        n = self.said[0] if said else len(text)
        first = (x0 - 4) // 6
        if first < 0:
            first = 0
        for i in range(first, n):
            x = 4 + 6 * i
            if x >= x1:
                break
            self.painter.char(self.said[i + 1] if said else text[i], x, y + 2, WHITE)
        self.screen.mark(x0, y, x1 - x0, LINE_H + 3)
        self.drawn_msg = self.message

    def remember_highlights(self):
        self.r_cursor = self.cursor
        self.r_cursor_index = self.cursor_index
        self.r_held = self.held
        self.r_held_index = self.held_index
        self.r_hint = self.hint_slot
        self.r_last = self.last_slot

    def shake_of(self, s):
        """How far slot s is shaken sideways now (pixels, either way)."""
        if s == self.shake_slot:
            return self.shake_dx
        return 0

    def draw_slot(self, s, force):
        """Redraw slot s where it differs from what was drawn (all of it when forced).

        A shake moves a stack, an empty pile or a row sideways as a whole, but only the top
        card of a column fanned down: a long column is not redrawn on every frame of a
        shake. (In a row the top card's neighbour shows beside it, so the row moves whole.)
        Its parts are called once a slot, never once a card, and are passed what draw_slot
        has read: on MicroPython a call costs about 2,000 fuel and an attribute read a few
        hundred (as split, a full redraw costs 3-5% more than drawn in one piece)."""
        piles = self.game.piles
        p = self.pile[s]
        n = piles.size[p]
        step = self.step(s, n)
        self.highlight(s)
        shake = self.shake_of(s)
        first = 0 if force else self.first_to_redraw(s, n, step, shake)
        if first == UNCHANGED:
            return
        shaking = shake != 0 or self.drawn_shake[s] != SHAKE_BIAS  # the way back is drawn too
        extent = self.extent(s, n, step)
        fan = self.how[s] & FAN_MASK
        x = self.x[s]
        y = self.y[s]
        self.clear_slot(s, x, y, first * step, extent, shaking)
        if n == 0:
            self.painter.empty_pile(self.style, x + shake, y, self.labels[s], self.highlight_colour)
        elif fan == STACK:
            self.draw_stack_top(s, n, x + shake, y)
        elif fan == RIGHT:
            self.draw_fan(s, n, first, step, x + shake, y, False)  # a row moves whole
        else:  # a column stays; its top card alone moves aside
            self.draw_fan(s, n, first, step, x, y, shaking and fan == DOWN)
        if self.how[s] & COUNT:
            self.draw_count(s, n)
        # Remember what shows (cards below `first` are remembered already; a stack shows
        # only its top).
        base = piles.start[p]
        drawn = self.drawn_cards
        if fan == STACK:
            if n > 0:
                drawn[base + n - 1] = piles.cards[base + n - 1]
        else:
            for i in range(first, n):
                drawn[base + i] = piles.cards[base + i]
        self.drawn_count[s] = n
        self.drawn_step[s] = step
        self.drawn_highlight_from[s] = self.highlight_from
        self.drawn_highlight_colour[s] = self.highlight_colour
        self.drawn_extent[s] = extent
        self.drawn_shake[s] = shake + SHAKE_BIAS

    def first_to_redraw(self, s, n, step, shake):
        """The first card of slot s (n cards, fan step `step`, shaken by `shake` now) that must
        be drawn again, or UNCHANGED when it looks as drawn."""
        drawn_count = self.drawn_count[s]
        highlight_from = self.highlight_from
        drawn_from = self.drawn_highlight_from[s]
        drawn_shake = self.drawn_shake[s]
        highlight_moved = highlight_from != drawn_from or self.highlight_colour != self.drawn_highlight_colour[s]
        shake_moved = shake + SHAKE_BIAS != drawn_shake
        if self.how[s] & FAN_MASK == STACK:  # only its top card shows
            top = self.game.piles.start[self.pile[s]] + n - 1
            if (n == drawn_count and not highlight_moved and not shake_moved
                    and (n == 0 or self.drawn_cards[top] == self.game.piles.cards[top])):
                return UNCHANGED
            return 0
        if step != self.drawn_step[s]:
            return 0  # every card moved
        first = self.first_new_card(s, n, drawn_count)
        if highlight_moved:  # the old and the new highlighted cards are both redrawn
            if highlight_from < first:
                first = highlight_from
            if drawn_from < first:
                first = drawn_from
        if n == drawn_count and first >= n and not highlight_moved and not shake_moved:
            return UNCHANGED
        return self.widen_for_shake(s, n, drawn_count, first, shake != 0 or drawn_shake != SHAKE_BIAS)

    def first_new_card(self, s, n, drawn_count):
        """The first of slot s's n cards that differs from the drawn_count drawn; at most the
        top card when cards went (it was covered and now shows whole)."""
        base = self.game.piles.start[self.pile[s]]
        cards = self.game.piles.cards
        drawn = self.drawn_cards
        same = n if n < drawn_count else drawn_count
        first = 0
        while first < same and drawn[base + first] == cards[base + first]:
            first += 1
        if n != drawn_count and first > n - 1:
            first = n - 1
        return first

    def widen_for_shake(self, s, n, drawn_count, first, shaking):
        """`first` moved down to take in what a shake of fanned slot s moves (never below 0)."""
        if shaking:
            if self.how[s] & FAN_MASK == RIGHT:
                first = 0  # a row shakes whole
            else:  # the old top card, drawn aside, and the new one are both redrawn
                if first > n - 1:
                    first = n - 1
                if first > drawn_count - 1:
                    first = drawn_count - 1
        if first < 0 or n == 0 or drawn_count == 0:
            first = 0
        return first

    def clear_slot(self, s, x, y, offset, extent, shaking):
        """Paint felt over what the redraw of slot s (at x, y) covers: from `offset` along its
        fan (where its first redrawn card lies) to the farther of the drawn and the new
        extent, and the room a shake moves into."""
        st = self.style
        row = self.how[s] & FAN_MASK == RIGHT
        reach = extent if extent > self.drawn_extent[s] else self.drawn_extent[s]
        if (y + st.h if row else y + reach) > self.screen.height - LINE_H - 3:
            if row:  # drawn over the message strip: it is mended on top
                self.strip_damage(x + offset - MARGIN, x + reach + MARGIN)
            else:
                self.strip_damage(x - MARGIN, x + st.w + MARGIN)
        margin = MARGIN if shaking else 0
        if row:
            x0 = x + offset
            self.fb.fill_rect(x0 - margin, y, x + reach - x0 + 2 * margin, st.h, FELT)
            self.screen.mark(x0 - margin, y, x + reach - x0 + 2 * margin, st.h)
        else:
            y0 = y + offset
            self.fb.fill_rect(x - margin, y0, st.w + 2 * margin, y + reach - y0, FELT)
            self.screen.mark(x - margin, y0, st.w + 2 * margin, y + reach - y0)

    def draw_stack_top(self, s, n, x, y):
        """The top card of stack slot s (n cards) at x, y, with a wild king's rank tag."""
        st = self.style
        p = self.pile[s]
        c = self.game.piles.cards[self.game.piles.start[p] + n - 1]
        self.painter.card(st, x, y, c, self.card_face_up(p, n - 1, n), self.highlight_colour, FELT, False)
        if self.how[s] & WILD and c % 13 == KING and n - 1 < KING:
            self.draw_wild(st, x, y, n - 1)

    def draw_fan(self, s, n, first, step, x, y, top_aside):
        """Cards first .. n - 1 of a fanned slot s from x, y; with top_aside, the top card of
        a column is drawn shaken aside (its old place cleared) and the rest stay."""
        st = self.style
        fb = self.fb
        p = self.pile[s]
        base = self.game.piles.start[p]
        cards = self.game.piles.cards
        row = self.how[s] & FAN_MASK == RIGHT
        colour = self.highlight_colour
        highlight_from = self.highlight_from
        single = self.arg_mode == ARG_KIND and self.how[s] & PICK
        face = self.game.pile_faces[p]  # as card_face_up, without a call per card
        if self.how[s] & HIDDEN:
            face = FACE_DOWN
        # A covered card's centre never shows at the usual step or less; a wider step
        # (a spread hand) shows it.
        open_fan = step > (st.step_right if row else st.step_down)
        index_below = row and step < st.w  # cards spread apart look like lone cards
        for i in range(first, n):
            # A run is framed from the picked card up; a hand card (named by its kind) alone.
            frame = colour if i >= highlight_from and (i == highlight_from or not single) else GREY
            corner = FELT if i == 0 else GREY
            up = face == FACE_UP or (face == TOP_UP and i == n - 1)
            top = i == n - 1 or open_fan
            cx = x
            cy = y
            if row:
                cx = x + i * step
            else:
                cy = y + i * step
            if i == n - 1 and top_aside:
                fb.fill_rect(cx - MARGIN, cy, st.w + 2 * MARGIN, st.h, FELT)
                self.screen.mark(cx - MARGIN, cy, st.w + 2 * MARGIN, st.h)
                cx += self.shake_of(s)
            self.painter.card(st, cx, cy, cards[base + i], up, frame, corner, index_below, top)

    def draw_count(self, s, n):
        """The card count under a stack or column that shows it (none for an empty one)."""
        if self.how[s] & FAN_MASK != RIGHT and n > 0:
            st = self.style
            width = self.painter.number_width(n)
            self.painter.number(n, self.x[s] + (st.w - width) // 2, self.y[s] + st.h + 2, SLOT)

    def draw_wild(self, st, x, y, rank):
        """A wild king on a stack built from the ace: the rank it stands for, in a black tag
        at the card's foot."""
        p = self.painter
        w = 13 if rank == 9 else 7
        tx = x + st.w - w - 2
        ty = y + st.h - LINE_H
        self.fb.fill_rect(tx, ty, w, LINE_H - 1, BLACK)
        if rank == 9:
            p.char(49, tx + 1, ty + 1, WHITE)
            p.char(48, tx + 7, ty + 1, WHITE)
        else:
            p.char(RANK_CHARS[rank], tx + 1, ty + 1, WHITE)

    def draw_status(self, full=False):
        """The move count (its own small box) and the title or a message; the labels only
        in a full redraw (full), since they never change. True when the count (or the
        scores) was drawn again."""
        p = self.painter
        x = self.status_x
        y = self.status_y
        w = self.status_w
        fb = self.fb
        narrow = w < 100  # a corner: the count under its name, no room for messages
        if full:
            self.drawn_moves = -1
            self.drawn_scores = -1
            if narrow:
                p.text(b"Score" if self.game.COMPETITIVE else b"Moves", x, y, SLOT)
            else:  # the game's name and the deal's number
                if not self.game.COMPETITIVE:
                    p.text(b"Moves", x + w - 65, y, SLOT)
                tx = p.text(self.title, x, y, SLOT)
                room = 72 if not self.game.COMPETITIVE else SCORE_W + 46 * (self.game.players - 1)
                if tx + 60 <= x + w - room:
                    p.number(self.game.seed, p.text(b" #", tx, y, SLOT), y, SLOT)
        if self.game.COMPETITIVE:
            return self.draw_scores(x, y, w, narrow)
        if self.move_count == self.drawn_moves:
            return False
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
        return True

    def player_tags(self):
        """Each player's name by seat: 'You' and the computer's, or in link play the other's seat."""
        if self.link is not None and self.game.players == 2:
            return LINK_TAGS[self.seat]
        return PLAYER_TAGS

    def draw_scores(self, x, y, w, narrow):
        """Competitive games: each player's score instead of the move count. True when
        they were drawn again (a hash of them all tells when they changed)."""
        game = self.game
        total = 0
        for i in range(game.players):
            total = total * 7 + game.score(i) + 3 * i
        if total == self.drawn_scores:
            return False
        self.drawn_scores = total
        p = self.painter
        if narrow:
            y += LINE_H
            bw = w
            bx = x
        else:
            bw = SCORE_W + 42 * (game.players - 1)
            bx = x + w - bw
        bh = LINE_H * game.players if narrow else LINE_H - 1
        self.fb.fill_rect(bx, y, bw, bh, FELT)
        self.screen.mark(bx, y, bw, bh)
        tags = self.player_tags()
        for i in range(game.players):
            colour = WHITE if i == self.seat else SLOT
            score = game.score(i)
            if narrow:
                tx = p.text(tags[i], bx, y + i * LINE_H, SLOT)
            else:
                tx = p.text(tags[i], bx + 42 * i, y, SLOT)
            if score < 0:
                tx = p.text(b"-", tx, y + (i * LINE_H if narrow else 0), colour)
                score = -score
            p.number(score, tx, y + (i * LINE_H if narrow else 0), colour)
