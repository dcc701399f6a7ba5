"""The table's renderer: the piles drawn from the slots (slots.py), the highlights of the input
model (table_input.py) and of the play control (table.py), and the redraw of only what changed.

What was drawn is recorded per slot in a Drawn record (card count, fan step, highlight, shake
offset, extent, and a copy of the cards in arena order): a refresh decides from that record
alone what to draw again, redraws a fan only from the first card that differs, and marks just
that rectangle. A fresh record (nothing drawn) makes the next refresh a full redraw. Slots to
look at are *touched*: those a move's journal entries name, and those whose highlight changed.
The status line, the message strip and the sliding card are drawn by overlay.py.
"""

from engine_core import reasons as why
from engine_core.game import FACE_DOWN, FACE_UP, TOP_UP
from engine_core.gfx.palette import CURSOR, FELT, GREY, HELD, HINT, LAST, SLOT, WHITE
from engine_core.ui import overlay
from engine_core.ui.drawn import SHAKE_BIAS, Drawn
from engine_core.ui.layouts import ARG_KIND, COUNT, DOWN, FAN_MASK, HIDDEN, PICK, RIGHT, STACK, WILD
from engine_core.ui.overlay import MESSAGE_MS, SLIDE_DRAWN, SLIDE_FRAMES, SLIDE_LEFT, SLIDE_ON, SLIDE_WAIT
from engine_core.ui.slots import MARGIN, NONE

from micropython import const

# Piles redrawn in one frame at most: a deal or a computer's turn that changes more piles
# finishes its redraw in the next frames (each about 0.25 M fuel a pile: tools/bench/bench_screens.py).
SLOTS_PER_FRAME = const(2)
_CLOSED = const(2)  # a closed-up fan's step (slots.py's own: a private const costs the heap nothing)
SHAKE_MS = const(240)  # a refused pile shakes this long
UNCHANGED = const(-1)  # first_to_redraw: the slot looks as drawn

# What the strip at the foot of the table says (a code of engine_core/reasons.py; how long: overlay.py).
MSG_NONE = const(0)
MSG_NO_HINT = why.NO_HINT
MSG_NO_UNDO = why.NO_UNDO
KING = const(12)  # rank index of a king (card % 13)


class TableRenderer:
    def __init__(self, painter, game, slots, hand, said, title):
        self.painter = painter
        self.screen = painter.screen
        self.fb = painter.fb
        self.game = game
        self.slots = slots
        self.hand = hand  # the input model: cursor, held card
        self.said = said  # the play control's words (Table.said: the length, then the text)
        # What the play control shows, as Table.refresh gives it (shown): the hint, the last
        # move, the message and how long it shows yet, the move count.
        self.hint_slot = NONE
        self.last_slot = NONE
        self.message = MSG_NONE
        self.message_ms = 0
        self.move_count = 0
        self.title = title
        self.style = slots.style
        self.strip_y = overlay.strip_top(self.screen.width, self.screen.height)  # the message strip's top
        self.how = slots.how
        self.drawn = Drawn(slots.count, len(game.piles.cards))
        self.pending = False  # touched piles wait for the next frame
        # Slots to look at in the next refresh; index NONE (a pile not on screen) is a sink.
        self.touched = bytearray(256)
        self.j_head = 0
        self.j_used = 0
        self.j_clears = 0
        self.highlight_from = NONE
        self.highlight_colour = GREY
        self.slide = SLIDE_ON  # a card sliding to its pile (overlay.py; SLIDE_* fields)
        self.shake_slot = NONE  # a refused pile, shaking sideways by shake_dx for shake_ms
        self.shake_ms = 0
        self.shake_dx = 0

    # --- a refused pile shaking, a card sliding ---

    def still(self):
        """Nothing moves: no slide, no shake (a deal: the table is drawn afresh)."""
        self.slide &= SLIDE_ON
        self.shake_ms = 0
        self.shake_dx = 0
        self.shake_slot = NONE

    def start_shake(self, s):
        """Slot s shakes (a refusal); a pile still shaking settles back."""
        self.touch(self.shake_slot)
        self.shake_slot = s
        self.shake_ms = SHAKE_MS
        self.shake_dx = 2

    def frame(self, ms):
        """A frame has come (Table.tick): a slide or a shake moves on and is drawn; True
        while something moves."""
        if self.slide_frame(ms) and self.shake_ms <= 0:  # a card's slide
            self.refresh()
            return True
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
        drawn = self.slide & SLIDE_DRAWN
        if drawn:
            # Taken off where it was drawn, never kept for this card (ghost_stays): its drawn
            # frame is set to one no slide has, even where this one's first frame falls on it
            drawn = SLIDE_DRAWN
        self.slide = (self.slide & SLIDE_ON | drawn | SLIDE_WAIT | SLIDE_FRAMES
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

    # --- what to look at ---

    def touch(self, s):
        if s != NONE:
            self.touched[s] = 1

    def touch_entries(self, start, end):
        """Touch the piles that the journal entries start .. end (ring positions) changed:
        a move, the computer's answers, or (read backwards) what an undo took back."""
        self.game.history.mark_piles(start, end, self.touched, self.slots.slot_of)

    def mark_journal(self):
        """Note where the journal stands, before a move or a tick (see touch_since)."""
        h = self.game.history
        self.j_head = h.head
        self.j_used = h.used
        self.j_clears = h.clears

    def touch_since(self):
        """Touch what changed since mark_journal(); everything when the journal was cleared
        meanwhile (a game's end, a new game of a match) or ran full. True when it changed."""
        h = self.game.history
        if h.clears == self.j_clears and self.j_used < h.used < h.capacity:
            self.touch_entries(self.j_head, h.head)
        elif h.clears != self.j_clears or h.head != self.j_head or h.used != self.j_used:
            for s in range(self.slots.count):
                self.touched[s] = 1
        else:
            return False
        return True

    # --- drawing ---

    def highlight(self, s):
        """Set highlight_from (the first highlighted card, or NONE) and highlight_colour for
        slot s."""
        hand = self.hand
        self.highlight_from = NONE
        self.highlight_colour = GREY
        if s == hand.cursor and s != hand.held:
            self.highlight_colour = CURSOR
            self.highlight_from = hand.cursor_index if hand.cursor_index != NONE else self.slots.top_index(s)
        elif s == hand.held:
            self.highlight_colour = HELD
            self.highlight_from = hand.held_index
        elif s == self.hint_slot:
            self.highlight_colour = HINT
            self.highlight_from = self.slots.top_index(s)
        elif s == self.last_slot:
            self.highlight_colour = LAST
            self.highlight_from = self.slots.top_index(s)

    def draw_all(self):
        """The whole table, from nothing."""
        self.fb.fill(FELT)
        self.screen.mark_all()
        labels = self.slots.labels_on_table
        for i in range(len(labels)):
            label = labels[i]
            self.painter.text(label[0], label[1], label[2], SLOT)
        for s in range(self.slots.count):
            self.touched[s] = 0
            self.draw_slot(s, True, False)  # on felt already: nothing to clear
        self.remember_highlights()
        overlay.draw_status(self, True)
        self.slide &= ~(SLIDE_DRAWN | SLIDE_WAIT)
        if self.slide & SLIDE_LEFT:
            overlay.draw_ghost(self)  # over the piles and the status line, under the message strip
        d = self.drawn
        d.msg = NONE
        if self.message != MSG_NONE:
            overlay.draw_message(self, 0, self.screen.width)
        d.damage_from = 255
        d.damage_to = 0
        d.valid = True

    def draw_region(self, x, y, w, h):
        """The table again where a panel lay over x, y, w, h, the rest of the glass showing it
        as it was drawn (the pause menu, a question over it): what draw_all draws there
        (overlay.restore_rect; the message strip is mended by the next refresh), and only that
        part of the screen sent again. False, drawing nothing, when the table must be drawn
        whole instead (never drawn). A card on its way is taken off whole, and the refresh
        after draws it at its frame, as in play."""
        d = self.drawn
        if not d.valid:
            return False
        overlay.restore_rect(self, x, y, w, h)
        if self.slide & SLIDE_DRAWN:  # (a pile redrawn there may have reached over it)
            overlay.restore_ghost(self)
        return True

    def shown(self, hint_slot, last_slot, message, message_ms, move_count):
        """What the play control (table.py) shows now; it says so before each refresh."""
        self.hint_slot = hint_slot
        self.last_slot = last_slot
        self.message = message
        self.message_ms = message_ms
        self.move_count = move_count

    def refresh(self):
        """Redraw what changed since the last refresh (everything when not yet drawn).

        Only touched slots are looked at: those a move's journal entries name, and those
        whose highlight changed (cursor, held, hint, last move, shake)."""
        d = self.drawn
        if not d.valid:
            self.draw_all()
            return
        if d.msg == MSG_NONE and self.message == MSG_NONE:  # the strip went (Table.drop_message)
            if self.slide & SLIDE_DRAWN:
                self.draw_all()  # a sliding card may lie over it (one not drawn yet does not)
                return
            d.msg = NONE
            top = self.strip_y
            overlay.restore_rect(self, 0, top, self.screen.width, self.screen.height - top)
        hand = self.hand
        if hand.cursor != d.cursor or hand.cursor_index != d.cursor_index:
            self.touch(d.cursor)
            self.touch(hand.cursor)
        if hand.held != d.held or hand.held_index != d.held_index:
            self.touch(d.held)
            self.touch(hand.held)
        if self.hint_slot != d.hint:
            self.touch(d.hint)
            self.touch(self.hint_slot)
        if self.last_slot != d.last:
            self.touch(d.last)
            self.touch(self.last_slot)
        self.touch(self.shake_slot)
        self.remember_highlights()
        budget = SLOTS_PER_FRAME
        self.pending = False
        touched = self.touched
        shaken = self.shake_slot
        for s in range(self.slots.count):
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
            if not overlay.ghost_stays(self):  # off its old place
                overlay.restore_ghost(self)
            elif budget == SLOTS_PER_FRAME:
                ghost = False  # where it was drawn, and nothing drawn over it since
        if overlay.draw_status(self):
            slots = self.slots
            x, y, w = slots.status
            if y + overlay.status_reach(self) > self.strip_y:
                overlay.strip_damage(self, x, x + w)  # the status corner
            ghost = not self.slide & SLIDE_WAIT  # the status may have been drawn over it
        if ghost and self.slide & SLIDE_LEFT:
            overlay.draw_ghost(self)  # over the piles and the status line, under the message strip
        if self.message != MSG_NONE:
            if self.message_ms > MESSAGE_MS or self.message_ms == 0:
                # Said in this keypress: the strip waits for the next frame, which mends what
                # was drawn over it meanwhile (it may show from a full redraw in a keypress);
                # or let go by it (Table.let_go): the next frame takes it away.
                self.pending = True
                return
            if d.msg != self.message:
                overlay.draw_message(self, 0, self.screen.width)
            elif d.damage_from != 255:  # mend what a redraw beneath covered
                overlay.draw_message(self, 2 * d.damage_from, 2 * d.damage_to)
        d.damage_from = 255
        d.damage_to = 0

    def remember_highlights(self):
        d = self.drawn
        hand = self.hand
        d.cursor = hand.cursor
        d.cursor_index = hand.cursor_index
        d.held = hand.held
        d.held_index = hand.held_index
        d.hint = self.hint_slot
        d.last = self.last_slot

    def shake_of(self, s):
        """How far slot s is shaken sideways now (pixels, either way)."""
        if s == self.shake_slot:
            return self.shake_dx
        return 0

    def draw_slot(self, s, force, clear=True):
        """Redraw slot s where it differs from what was drawn (all of it when forced), on felt
        painted over what it covered (unless `clear` is False: the whole table is new).

        A shake moves a stack, an empty pile or a row sideways as a whole, but only the top
        card of a column fanned down: a long column is not redrawn on every frame of a
        shake. (In a row the top card's neighbour shows beside it, so the row moves whole.)
        Its parts are called once a slot, never once a card, and are passed what draw_slot
        has read: on MicroPython a call costs about 2,000 fuel and an attribute read a few
        hundred (as split, a full redraw costs 3-5% more than drawn in one piece)."""
        piles = self.game.piles
        slots = self.slots
        p = slots.pile[s]
        n = piles.size[p]
        d = self.drawn
        known = d.count[s] == n  # its step and extent as drawn (drawn.py)
        step = d.step[s] if known else slots.step(s, n)
        self.highlight(s)
        shake = self.shake_of(s)
        first = 0 if force else self.first_to_redraw(s, n, step, shake)
        if first == UNCHANGED:
            return
        shaking = shake != 0 or d.shake[s] != SHAKE_BIAS  # the way back is drawn too
        extent = d.extent[s] if known else slots.extent(s, n, step)
        fan = self.how[s] & FAN_MASK
        x = slots.x[s]
        y = slots.y[s]
        if clear:  # (from where its first redrawn card lies)
            row = fan == RIGHT
            at = slots.card_pos(s, first, row, self.highlight_from) - (x if row else y)
            self.clear_slot(s, x, y, at, extent, shaking)
        if n == 0:
            self.painter.empty_pile(self.style, x + shake, y, slots.labels[s], self.highlight_colour)
        elif fan == STACK:
            self.draw_stack_top(s, n, x + shake, y)
        elif fan == RIGHT:
            self.draw_fan(s, n, first, step, x + shake, y, False)  # a row moves whole
        else:  # a column stays; its top card alone moves aside
            self.draw_fan(s, n, first, step, x, y, shaking and fan == DOWN)
        if self.how[s] & COUNT:
            self.draw_count(s, n)
        # Record what shows (cards below `first` are recorded already; a stack shows only
        # its top).
        base = piles.start[p]
        drawn = d.cards
        if fan == STACK:
            if n > 0:
                drawn[base + n - 1] = piles.cards[base + n - 1]
        else:
            for i in range(first, n):
                drawn[base + i] = piles.cards[base + i]
        d.count[s] = n
        d.step[s] = step
        d.highlight_from[s] = self.highlight_from
        d.highlight_colour[s] = self.highlight_colour
        d.extent[s] = extent
        d.shake[s] = shake + SHAKE_BIAS

    def first_to_redraw(self, s, n, step, shake):
        """The first card of slot s (n cards, fan step `step`, shaken by `shake` now) that must
        be drawn again, or UNCHANGED when it looks as drawn."""
        d = self.drawn
        drawn_count = d.count[s]
        highlight_from = self.highlight_from
        drawn_from = d.highlight_from[s]
        drawn_shake = d.shake[s]
        highlight_moved = highlight_from != drawn_from or self.highlight_colour != d.highlight_colour[s]
        shake_moved = shake + SHAKE_BIAS != drawn_shake
        if self.how[s] & FAN_MASK == STACK:  # only its top card shows
            top = self.game.piles.start[self.slots.pile[s]] + n - 1
            if (n == drawn_count and not highlight_moved and not shake_moved
                    and (n == 0 or d.cards[top] == self.game.piles.cards[top])):
                return UNCHANGED
            return 0
        if step != d.step[s]:
            return 0  # every card moved
        slots = self.slots
        beneath = slots.beneath(s, n)
        if n != drawn_count and (beneath != slots.beneath(s, drawn_count) or step == 1 and beneath):
            return 0  # a fan past its room: the cards shown moved along
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
        base = self.game.piles.start[self.slots.pile[s]]
        cards = self.game.piles.cards
        drawn = self.drawn.cards
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
        reach = extent if extent > self.drawn.extent[s] else self.drawn.extent[s]
        if (y + st.h if row else y + reach) > self.strip_y:
            if row:  # drawn over the message strip: it is mended on top
                overlay.strip_damage(self, x + offset - MARGIN, x + reach + MARGIN)
            else:
                overlay.strip_damage(self, x - MARGIN, x + st.w + MARGIN)
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
        p = self.slots.pile[s]
        c = self.game.piles.cards[self.game.piles.start[p] + n - 1]
        self.painter.card(st, x, y, c, self.slots.card_face_up(p, n - 1, n), self.highlight_colour, FELT, False)
        if self.how[s] & WILD and c % 13 == KING and n - 1 < KING:
            overlay.draw_wild(self, st, x, y, n - 1)

    def draw_fan(self, s, n, first, step, x, y, top_aside):
        """Cards first .. n - 1 of a fanned slot s from x, y; with top_aside, the top card of
        a column is drawn shaken aside (its old place cleared) and the rest stay."""
        st = self.style
        fb = self.fb
        p = self.slots.pile[s]
        base = self.game.piles.start[p]
        cards = self.game.piles.cards
        row = self.how[s] & FAN_MASK == RIGHT
        colour = self.highlight_colour
        highlight_from = self.highlight_from
        single = self.slots.arg_mode == ARG_KIND and self.how[s] & PICK
        face = self.game.pile_faces[p]  # as card_face_up, without a call per card
        if self.how[s] & HIDDEN:
            face = FACE_DOWN
        # A covered card's centre never shows at the usual step or less; a wider step
        # (a spread hand) shows it.
        open_fan = step > (st.step_right if row else st.step_down)
        index_below = row and step < st.w  # cards spread apart look like lone cards
        # One bit, cards a pixel apart show only their edges, dark as the table: every other
        # one is lit, so the pile shows as stripes (as at two pixels apart, edge and margin).
        edges = step == 1 and self.screen.mono
        beneath = self.slots.beneath(s, n)
        hide = beneath if step == 1 else 0  # cards beneath the first shown
        closed = 0 if step == 1 else beneath  # the deepest cards, closed up (Slots.card_pos)
        opened = n - 1 - closed
        # A closed-up fan opens at its highlighted card (Slots.card_pos): the cursor's or the held.
        first_open = self.highlight_from if self.highlight_from < closed else closed
        for i in range(first if first > hide else hide, n):
            # A run is framed from the picked card up; a hand card (named by its kind) alone.
            frame = colour if i >= highlight_from and (i == highlight_from or not single) else GREY
            corner = FELT if i == hide else GREY
            up = face == FACE_UP or (face == TOP_UP and i == n - 1)
            top = i == n - 1 or open_fan
            cx = x
            cy = y
            if closed == 0:
                along = (i - hide) * step
            elif i <= first_open:
                along = i * _CLOSED
            elif i <= first_open + opened:  # (as Slots.card_pos, without a call a card)
                along = first_open * _CLOSED + (i - first_open) * step
            else:
                along = first_open * _CLOSED + opened * step + (i - first_open - opened) * _CLOSED
            if row:
                cx = x + along
            else:
                cy = y + along
            if i == n - 1 and top_aside:
                fb.fill_rect(cx - MARGIN, cy, st.w + 2 * MARGIN, st.h, FELT)
                self.screen.mark(cx - MARGIN, cy, st.w + 2 * MARGIN, st.h)
                cx += self.shake_of(s)
            self.painter.card(st, cx, cy, cards[base + i], up, frame, corner, index_below, top)
            if edges and i & 1:
                if row:
                    fb.fill_rect(cx, cy + 1, 1, st.h - 2, WHITE)
                else:
                    fb.fill_rect(cx + 1, cy, st.w - 2, 1, WHITE)

    def draw_count(self, s, n):
        """The card count under a stack or column that shows it (none for an empty one)."""
        if self.how[s] & FAN_MASK != RIGHT and n > 0:
            st = self.style
            width = self.painter.number_width(n)
            self.painter.number(n, self.slots.x[s] + (st.w - width) // 2, self.slots.y[s] + st.h + 2, SLOT)
