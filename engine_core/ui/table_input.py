"""The table's input model: where the cursor is, what card is held, the legal moves kept while
the journal stands still, the slots that can take what is held, and which moves are this
console's to make (link play). The play control (table.py) asks it; the renderer (view.py)
draws its cursor and held card.

Every array is made in __init__; press-time work indexes them.
"""

from array import array

from engine_core import cards
from engine_core.game import ACTION
from engine_core.ui import buttons as bt
from engine_core.ui.layouts import ARG_COUNT, ARG_KIND, DOWN, FAN_MASK, PICK, RIGHT, THEIRS
from engine_core.ui.slots import NONE

from micropython import const

_FACE_DOWN = const(1)  # game.FACE_DOWN: a pile whose cards are all face down
NO_ARG = const(0x100)  # picked_arg: no move's arg (args are 0..255)


class TableInput:
    def __init__(self, game, slots):
        self.game = game
        self.slots = slots
        self.how = slots.how  # the others of the slots' arrays are read through self.slots
        self.seat = 0  # the player this console plays
        self.link = None  # the link session in link play (engine_core/link/session.py)
        self.moves = array("i", [0] * game.seat_max_moves())
        self.cached_n = -1  # legal moves in self.moves, valid while the journal is unchanged
        # Solitaires and turn-based games have their moves generated in an idle frame
        # (App.tick), ahead of the next keypress; a real-time game (Nerts) changes under
        # the player's hand, and its frames are its computer players'.
        self.prefetch = game.TURN_BASED or game.players == 1
        self.cached_head = 0
        self.cached_used = 0
        self.cached_clears = 0
        self.cached_moves = 0
        self.can_take = bytearray(slots.count)
        self.cursor = 0
        self.cursor_index = 0
        self.held = NONE
        self.held_index = 0

    def home(self):
        """After a deal: the cursor on the first pile of the player's with a card to take (not
        an action pile, not one face down), nothing held, the moves generated afresh."""
        order = self.slots.order
        self.cursor = order[0]
        for i in range(self.slots.count):
            s = order[i]
            if self.how[s] & THEIRS:
                continue
            p = self.slots.pile[s]
            if self.game.piles.size[p] > 0 and self.slots.action_pile[s] == NONE \
                    and self.game.pile_faces[p] != _FACE_DOWN:  # (a stock no one picks from)
                self.cursor = s
                break
        self.cursor_index = NONE
        self.cached_n = -1
        self.held = NONE

    def mine(self, move):
        """In link play, is `move` this console's to make? The player to move's, in a
        turn-based game; in Nerts its own seat's; the next game's deal as the session says
        (the loser's in Spite & Malice, the host's in Nerts once the round's end is final)."""
        game = self.game
        link = self.link
        if move >> 16 == ACTION and not self.slots.is_own_word((move >> 8) & 0xFF):
            return link is not None and link.may_deal()  # the next game's deal: the session knows whose it is
        if game.TURN_BASED:
            return game.turn() == self.seat
        return game.mover(move) == self.seat

    # --- the cursor ---

    def move_cursor(self, direction):
        """The nearest slot in a direction, from the card the cursor frames. Every slot of
        yours and the shared ones can be reached, a card held or not: a pile that cannot take
        the held card refuses it, with the reason, when A places it there."""
        st = self.slots.style
        c = self.cursor
        if self.how[c] & PICK and self.held == NONE:
            if self.move_within(direction):
                return
        ys = self.slots.y
        cx = self.aim_from_x(c)
        cy = ys[c]
        best = NONE
        best_score = 0
        for s in range(self.slots.count):
            if s == c or self.how[s] & THEIRS:  # the cursor stays on your piles and the shared
                continue
            dx = self.aim_at_x(s, cx) - cx
            dy = ys[s] - cy
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
            if self.held == NONE and self.how[best] & PICK and self.how[best] & FAN_MASK == RIGHT:
                self.cursor_index = self.card_nearest_x(best, cx)  # the card below, not the top

    def aim_from_x(self, s):
        """Where the cursor on slot s is, across: the card it frames (a fan to the right
        reaches far from its slot's left edge)."""
        slots = self.slots
        if self.how[s] & FAN_MASK != RIGHT:
            return slots.x[s]
        i = self.cursor_index if s == self.cursor and self.cursor_index != NONE else slots.top_index(s)
        return slots.card_pos(s, i, True)

    def aim_at_x(self, s, cx):
        """Where the cursor would land in slot s, across, coming from cx: a fan to the right at
        its card nearest cx (what is below a pile is the card under it), else the slot."""
        slots = self.slots
        x = slots.x[s]
        if self.how[s] & FAN_MASK != RIGHT:
            return x
        last = slots.card_pos(s, slots.top_index(s), True)
        return x if cx < x else (last if cx > last else cx)

    def card_nearest_x(self, s, cx):
        """The card of fan slot s nearest cx (NONE: the top card)."""
        slots = self.slots
        n = self.game.piles.size[slots.pile[s]]
        best = NONE
        best_d = 0
        for i in range(n):
            d = slots.card_pos(s, i, True) - cx
            if d < 0:
                d = -d
            if best == NONE or d < best_d:
                best = i
                best_d = d
        return NONE if best == n - 1 else best

    def move_within(self, direction):
        """In a PICK fan, move the cursor along its cards; False at the end of the fan."""
        c = self.cursor
        n = self.game.piles.size[self.slots.pile[c]]
        i = self.cursor_index
        if i == NONE:
            i = n - 1
        fan = self.how[c] & FAN_MASK
        back = bt.UP if fan == DOWN else bt.LEFT
        fwd = bt.DOWN if fan == DOWN else bt.RIGHT
        if direction == back and i > 0 and self.slots.card_face_up(self.slots.pile[c], i - 1, n):
            self.cursor_index = i - 1
            return True
        if direction == fwd and i < n - 1:
            self.cursor_index = i + 1
            return True
        return False

    def next_slot(self):
        """The next slot in reading order (two-button play), skipping those that cannot take;
        with nothing held, first the next card down a fan picked from inside (a hand, a Nerts
        run: from its top card towards its first face-up one), so every card can be picked."""
        if self.held == NONE and self.how[self.cursor] & PICK:
            back = bt.UP if self.how[self.cursor] & FAN_MASK == DOWN else bt.LEFT
            if self.move_within(back):
                return
        order = self.slots.order
        k = 0
        for i in range(self.slots.count):
            if order[i] == self.cursor:
                k = i
        for j in range(1, self.slots.count + 1):
            s = order[(k + j) % self.slots.count]
            if self.how[s] & THEIRS:
                continue
            if self.held == NONE or s == self.held or self.can_take[s]:
                self.cursor = s
                self.cursor_index = NONE
                return

    def point(self, s, index):
        """Put the cursor on slot s (a pointer's click), on card `index` of a fan it picks
        from."""
        self.cursor = s
        n = self.game.piles.size[self.slots.pile[s]]
        self.cursor_index = index if self.how[s] & PICK and index < n - 1 else NONE

    # --- the moves the buttons mean ---

    def moves_fresh(self):
        """True while self.moves still holds the legal moves (the journal has stood still)."""
        h = self.game.history
        # Every change the table makes or sees (play, undo, a tick's computer moves, a deal)
        # drops the cache; the journal's position is checked as well, for changes made
        # behind the table's back.
        return (self.cached_n >= 0 and h.head == self.cached_head and h.used == self.cached_used
                and h.clears == self.cached_clears and h.moves == self.cached_moves)

    def legal_moves(self):
        """The game's legal moves in self.moves; how many. Kept while the journal stands
        still, so picking up and then placing generate them once (Casket's cost 0.35-0.5 M
        fuel a call)."""
        if self.moves_fresh():
            return self.cached_n
        h = self.game.history
        n = self.game.moves_of(self.seat, self.moves)  # the console's player (p1 but in link play)
        if self.link is not None and n > 0 and not self.mine(self.moves[0]):
            n = 0  # the other console's turn, or its deal
        self.cached_n = n
        self.cached_head = h.head
        self.cached_used = h.used
        self.cached_clears = h.clears
        self.cached_moves = h.moves
        return n

    def allows(self, move):
        """Is the move legal? From the kept moves, generated if need be; but a real-time
        game, whose moves change on the clock, is asked directly (Nerts tells a stock flip
        from two pile sizes instead of generating every move: 0.5 M fuel less a flip), and
        so is another player's move, which the kept moves (the console's player's) never
        hold: redo plays again an undone computer move whether or not the moves are kept."""
        if not self.prefetch and (not self.moves_fresh() or self.game.mover(move) != self.seat):
            if self.link is not None and not self.mine(move):
                return False
            return self.game.is_legal(move)
        n = self.legal_moves()
        for i in range(n):
            if self.moves[i] == move:
                return True
        return False

    def picked_arg(self, s, index):
        """The arg a move must carry to move card `index` of slot s, -1 for any, or NO_ARG
        (which no move carries) for an index past the top (an undo can shrink the pile under
        the cursor). Only a PICK slot (a hand, a run) says more than its pile: which card,
        or how many. Found once per keypress rather than per move (a Spite & Malice hand
        lists 35 moves)."""
        mode = self.slots.arg_mode
        if not self.how[s] & PICK:
            return -1
        count = self.game.piles.size[self.slots.pile[s]] - index
        if count < 1:
            return NO_ARG
        if mode == ARG_COUNT:
            return -1 if count == 1 else count  # one card: any move of the top card
        if mode == ARG_KIND:
            return cards.kind(self.game.piles.card(self.slots.pile[s], index))
        return -1

    def find_move(self, s, index, dst_pile):
        """A legal move from card `index` of slot s to dst_pile, or -1."""
        n = self.legal_moves()
        src = self.slots.pile[s]
        arg = self.picked_arg(s, index)
        for i in range(n):
            m = self.moves[i]
            if m >> 16 == src and (m >> 8) & 0xFF == dst_pile and (arg < 0 or m & 0xFF == arg):
                return m
        return -1

    def mark_targets(self, s, index):
        """The slots that card `index` of slot s can move to, in can_take; False when none
        can (picking it up would lead nowhere)."""
        p = self.slots.pile[s]
        n = self.legal_moves()
        found = False
        for t in range(self.slots.count):
            self.can_take[t] = 0
        arg = self.picked_arg(s, index)
        for i in range(n):
            m = self.moves[i]
            if m >> 16 == p and (arg < 0 or m & 0xFF == arg):
                t = self.slots.slot_of[(m >> 8) & 0xFF]
                if t != NONE:
                    self.can_take[t] = 1
                    found = True
        return found

    def find_home(self, s, index):
        """A legal move of card `index` of slot s to a foundation, or -1."""
        n = self.legal_moves()
        src = self.slots.pile[s]
        arg = self.picked_arg(s, index)
        for i in range(n):
            m = self.moves[i]
            if m >> 16 == src and self.slots.is_foundation((m >> 8) & 0xFF) and (arg < 0 or m & 0xFF == arg):
                return m
        return -1

    def show_move(self, m):
        """The cursor on what move m takes (a hint): the card, or the action's pile. The slot
        the move goes to, NONE for an action."""
        slots = self.slots
        src = m >> 16
        if src == ACTION:
            for s in range(slots.count):
                if slots.action_pile[s] == (m >> 8) & 0xFF:
                    self.cursor = s
            self.cursor_index = NONE
            return NONE
        if slots.slot_of[src] != NONE:
            self.cursor = slots.slot_of[src]
        self.cursor_index = self.index_for_arg(self.cursor, m & 0xFF)
        return slots.slot_of[(m >> 8) & 0xFF]

    def picked_index(self, s):
        if self.cursor_index != NONE and self.how[s] & PICK:
            return self.cursor_index
        return self.slots.top_index(s)

    def index_for_arg(self, s, arg):
        """The card of a PICK slot that a move's arg names (NONE: the top card)."""
        if not self.how[s] & PICK:
            return NONE
        piles = self.game.piles
        p = self.slots.pile[s]
        n = piles.size[p]
        mode = self.slots.arg_mode
        if mode == ARG_COUNT and 0 < arg <= n:
            return n - arg
        if mode == ARG_KIND:
            for i in range(n):
                if cards.kind(piles.card(p, i)) == arg:
                    return i
        return NONE
