"""A pointer on the screen: the simulator's mouse, a click, a tap or a drag on the web page's canvas.

In play a press on a pile puts the cursor there and presses A (pick up, place), as the D-pad
and A would; a second press on the same pile within DOUBLE_MS sends its card home (a long A,
putting back a card held first). A card the pile refuses goes back where it came from, the
refusal said at the foot of the screen, as a card dropped in the wrong place snaps back in
solitaires played with a mouse; so does a held card when the press is on no pile, or on the
other player's (where the cursor never goes: the foot says whose pile it is). (The
buttons keep a refused card in hand: the cursor moves on to another pile.) Elsewhere, on the
menus and panels, a press is A.

Dragging: a press that picks a card up and then moves more than SLACK pixels carries it (the run
from it, on a pile that moves runs): the card follows the pointer, and the release drops it on
the pile under the pointer, as a press there places a held card (placed, or back with the
reason; on no pile, back). A press and release without such a move is a click, so click-click
and double-click are as before. The carried card is drawn into the framebuffer only while
the host sends it to the glass (lay(), then lift() puts back the bytes it covered): the
screen's pixels between frames are the table's alone, and nothing the table draws meanwhile
is lost. Each motion, lay and lift works in memory made when the first drag starts.
"""

from engine_core import reasons as why
from engine_core.gfx.palette import FELT, GREY, HELD
from engine_core.ui import buttons as bt
from engine_core.ui.layouts import ARG_KIND, FAN_MASK, PICK, RIGHT, THEIRS
from engine_core.ui.screens import PLAY
from engine_core.ui.slots import NONE

from micropython import const

DOUBLE_MS = const(400)
PRESS = const(0)  # a pointer event's phase (engine_core/loop.py: CLICK | phase << 19 | y << 9 | x)
MOVE = const(1)  # moved with the button held (a finger on the glass)
RELEASE = const(2)  # let go; a release off the screen comes at OFF, OFF: on no pile
OFF = const(511)
SLACK = const(3)  # screen pixels a press may move and still be a click


class Pointer:
    def __init__(self):
        self.last_slot = -1  # the pile clicked last and when (ms): a double-click
        self.last_ms = 0
        self.down = False  # pressed on the screen, not yet released
        self.drag = False  # a held card follows the pointer
        self.down_x = 0  # where the press was
        self.down_y = 0
        self.x = 0  # where the carried card is drawn: its top left, its size
        self.y = 0
        self.w = 0
        self.h = 0
        self.extra = 0  # cards carried above the one taken (a run), and their step
        self.step = 0
        self.grab_x = 0  # the pointer within the carried card
        self.grab_y = 0
        self.shown = False  # the glass shows the card at x, y (w x h)
        self.laid = False  # the card is in the framebuffer now, over the bytes kept in under
        self.under = None  # a bytearray, made when the first drag starts

    def click(self, app, x, y, now, phase=PRESS):
        """A pointer event at screen pixel (x, y), at `now` ms on any clock: a press (a click),
        a move with the button held, or the release. app: the App, or the Console around it
        (Console.click: in the kiosk's demo a press is a button press, and never reaches here)."""
        if phase == MOVE:
            self.move(app, x, y)
            return
        if phase == RELEASE:
            self.down = False
            if self.drag:
                self.drop(app, x, y, now)
            return
        self.down = True
        self.drag = False
        if self.shown:  # a release that never came: the glass loses the card
            app.screen.mark(self.x, self.y, self.w, self.h)
            self.shown = False
        self.down_x = x
        self.down_y = y
        table = app.table
        if app.mode != PLAY or table is None:
            app.press(bt.A, False)
            return
        at_point = table.slot_at(x, y)
        if at_point == NONE:
            if table.held != NONE:
                self.put_back(app, table)  # dropped on the felt
            return
        s = at_point & 0xFF
        index = at_point >> 8
        if table.slots.how[s] & THEIRS:  # the other player's: the cursor stays on yours
            if table.held != NONE:
                table.press_b()
            table.say(why.NOT_YOURS)
            app.redraw()
            return
        double = s == self.last_slot and now - self.last_ms <= DOUBLE_MS
        self.last_slot = s
        self.last_ms = now
        if double:
            if table.held != NONE:
                table.press_b()  # not B through the app: on two buttons B is "next pile"
            table.point(s, index)
            app.press(bt.A, True)
            self.last_slot = -1
            return
        held = table.held
        table.point(s, index)
        app.press(bt.A, False)
        if held != NONE and s != held and table.held == held:
            self.put_back(app, table)  # refused: the reason is at the foot already
        elif held == NONE and table.held == s:  # picked up: held where the pointer took it
            slots = table.slots
            i = table.hand.held_index
            self.grab_x = x - slots.card_pos(s, i, True, i)  # (a closed-up fan opens at it)
            self.grab_y = y - slots.card_pos(s, i, False, i)

    def put_back(self, app, table):
        """The held card goes back to its pile: nothing is held."""
        table.press_b()
        app.redraw()

    def move(self, app, x, y):
        """The pointer moved with the button down: past SLACK from the press, a card the press
        picked up follows it (the glass is marked where it was and where it goes)."""
        if not self.down:
            return
        table = app.table
        if not self.drag:
            dx = x - self.down_x
            dy = y - self.down_y
            if -SLACK <= dx <= SLACK and -SLACK <= dy <= SLACK:
                return
            if app.mode != PLAY or table is None or table.held == NONE:
                return
            self.drag = True
            self.last_slot = -1  # a drag ends no double-click
            self.carry(app, table)
        screen = app.screen
        if self.shown:
            screen.mark(self.x, self.y, self.w, self.h)
        self.x = x - self.grab_x
        self.y = y - self.grab_y
        self.shown = True
        screen.mark(self.x, self.y, self.w, self.h)

    def carry(self, app, table):
        """A drag starts: the carried cards' size, and room for the bytes they cover."""
        slots = table.slots
        st = slots.style
        s = table.held
        n = table.game.piles.size[slots.pile[s]]
        extra = 0 if slots.arg_mode == ARG_KIND else n - 1 - table.hand.held_index
        if not slots.how[s] & PICK or extra < 0:
            extra = 0
        step = slots.step(s, n) if extra else 0
        self.extra = extra
        self.step = step
        self.w = st.w
        self.h = st.h
        if slots.how[s] & FAN_MASK == RIGHT:
            self.w += extra * step
        else:
            self.h += extra * step
        rows = self.h if self.h < app.screen.height else app.screen.height
        if app.screen.mono:  # whole pages of eight rows, a byte a column
            size = self.w * ((rows >> 3) + 2)
        else:
            size = (self.w // 2 + 2) * rows
        if self.under is None or len(self.under) < size:
            self.under = bytearray(size)

    def drop(self, app, x, y, now):
        """The release ends a drag: the card goes where a press there would place it (or back
        to its pile, the reason at the foot), and the glass is marked where it was carried."""
        self.drag = False
        if self.shown:
            app.screen.mark(self.x, self.y, self.w, self.h)
            self.shown = False
        if app.table is None or app.table.held == NONE:
            return
        self.last_slot = -1
        self.click(app, x, y, now)
        self.down = False
        self.last_slot = -1  # a press right after a drop is a first click

    def lay(self, app):
        """Before the host sends the frame (when it has dirty rectangles): the carried card drawn
        into the framebuffer at the pointer, the bytes it covers kept (lift() puts them back once
        sent). A drag whose card
        is no longer held (a key put it back, a deal) ends: the glass is marked where it was."""
        if not self.drag:
            return
        table = app.table
        screen = app.screen
        if app.mode != PLAY or table is None or table.held == NONE:
            self.drag = False
            if self.shown:
                screen.mark(self.x, self.y, self.w, self.h)
                self.shown = False
            return
        self.copy(screen, True)
        slots = table.slots
        st = slots.style
        s = table.held
        p = slots.pile[s]
        piles = table.game.piles
        n = piles.size[p]
        first = table.hand.held_index
        row = slots.how[s] & FAN_MASK == RIGHT
        step = self.step
        last = first + self.extra
        if last > n - 1:
            last = n - 1
        base = piles.start[p]
        painter = app.painter
        for i in range(first, last + 1):
            d = (i - first) * step
            painter.card(st, self.x + d if row else self.x, self.y if row else self.y + d, piles.cards[base + i],
                         True, HELD, FELT if i == first else GREY, row, i == last)
        self.laid = True

    def lift(self, app):
        """The frame is sent: the bytes the carried card covered go back (no mark: the glass
        keeps the card until it moves)."""
        if self.laid:
            self.copy(app.screen, False)
            self.laid = False

    def copy(self, screen, keep):
        """The bytes of the framebuffer under the carried card to `under` (keep), or back."""
        under = self.under
        if under is None:
            return
        if screen.mono:
            self.copy_pages(screen, keep)
            return
        buf = screen.buf
        stride = screen.width // 2
        x0 = self.x if self.x > 0 else 0
        x1 = self.x + self.w
        if x1 > screen.width:
            x1 = screen.width
        b0 = x0 // 2
        nb = (x1 + 1) // 2 - b0
        y0 = self.y if self.y > 0 else 0
        y1 = self.y + self.h
        if y1 > screen.height:
            y1 = screen.height
        k = 0
        for row in range(y0, y1):
            o = row * stride + b0
            for j in range(nb):
                if keep:
                    under[k + j] = buf[o + j]
                else:
                    buf[o + j] = under[k + j]
            k += nb

    def copy_pages(self, screen, keep):
        """copy() on a one-bit screen: whole bytes, each eight rows of a column (MONO_VLSB), so
        the rows of the first and last page beyond the card go out and back unchanged."""
        buf = screen.buf
        under = self.under
        w = screen.width
        x0 = self.x if self.x > 0 else 0
        x1 = self.x + self.w
        if x1 > w:
            x1 = w
        y0 = self.y if self.y > 0 else 0
        y1 = self.y + self.h
        if y1 > screen.height:
            y1 = screen.height
        k = 0
        for page in range(y0 >> 3, (y1 + 7) >> 3):
            o = page * w
            for x in range(x0, x1):
                if keep:
                    under[k] = buf[o + x]  # type: ignore[index]  # (made when the drag started)
                else:
                    buf[o + x] = under[k]  # type: ignore[index]
                k += 1
