"""The table of one game on one screen: the cursor, what is held, hints, undo, the last
move, shakes, and the moves the player's buttons mean (view.py draws it).

Every array is made in __init__; press-time work indexes them.
"""

from array import array

from engine_core import PLAYING
from engine_core import cards
from engine_core import reasons as why
from engine_core.game import ACTION
from engine_core.gfx.palette import GREY
from engine_core.ui import buttons as bt
from engine_core.ui.layouts import ARG_COUNT, ARG_KIND, DOWN, FAN_MASK, PICK, RIGHT, THEIRS
# MARGIN: the layouts' gap, for tests.
from engine_core.ui.view import (MARGIN, MESSAGE_MS, MSG_NO_HINT, MSG_NO_UNDO, MSG_NONE,  # noqa: F401
                                 NONE, SHAKE_BIAS, SLIDE_LEFT, SLIDE_ON, TableView)

from micropython import const

SHAKE_MS = const(240)
REDO_MAX = const(16)  # undone moves kept for redo (the heap budget: 64 KB in all)
COMPUTER_STEP_MS = const(450)
RANKS = b"A23456789TJQK"
SUITS = b"SHDC"  # the computer's turn (Spite & Malice) moves a card this often

# Sounds the app asks the board for (App.sound_event; docs/screen.md).
SOUND_MOVE = const(1)
SOUND_ILLEGAL = const(2)
SOUND_WON = const(3)
SOUND_LOST = const(4)
SOUND_DEAL = const(5)


NO_ARG = const(0x100)  # picked_arg: no move's arg (args are 0..255)


def other_seat(name):
    """The same pile of the other player of two: 'p1.hand' <-> 'p2.hand'; shared piles keep
    their names."""
    if name[:3] == "p1.":
        return "p2." + name[3:]
    if name[:3] == "p2.":
        return "p1." + name[3:]
    return name


class Table(TableView):
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
        # Action piles: A on the slot plays the action word (for the console's seat) when it is legal.
        self.action_pile = bytearray([NONE] * n)  # the first action of each slot, or NONE
        actions = decl["actions"]
        self.action_slot = bytearray(len(actions))
        self.action_word = bytearray(len(actions))
        self.action_own = bytearray(len(actions))  # 1: a player's own word (':flip'), carries the seat
        for k in range(len(actions)):
            s = self.slot_of[game.pile_id(actions[k][0])]
            self.action_slot[k] = s
            self.action_word[k] = game.ACTIONS.index(actions[k][1])
            self.action_own[k] = 1 if actions[k][1][0] == ":" else 0
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
        self.seat_setup(slots, self.labels_on_table, decl.get("players", 1))
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
        self.drawn_count = bytearray(n)
        self.drawn_step = bytearray(n)
        self.drawn_highlight_from = bytearray(n)
        self.drawn_highlight_colour = bytearray(n)
        self.drawn_extent = array("h", [0] * n)
        self.drawn_shake = bytearray([SHAKE_BIAS] * n)
        self.drawn_cards = bytearray(len(game.piles.cards))
        self.drawn_moves = -1
        self.drawn_scores = -1  # competitive games: a hash of every player's score
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
        self.can_take = bytearray(n)
        self.cursor = 0
        self.cursor_index = 0
        self.held = NONE
        self.held_index = 0
        self.hint_slot = NONE
        self.last_slot = NONE
        self.move_count = 0
        self.message = MSG_NONE  # a code of engine_core/reasons.py, shown at the foot
        self.message_ms = 0  # how much longer it shows
        self.shake_slot = NONE
        self.shake_ms = 0
        self.shake_dx = 0
        self.highlight_from = NONE
        self.highlight_colour = GREY
        # A computer's turn shown move by move (games with respond_step: Spite & Malice).
        self.step_computer = game.STEPS_COMPUTER
        if self.step_computer:
            game.auto_respond = False
        self.computer_ms = 0  # time to the computer's next move; 0: not its turn
        # The journal when the player's turn began (moves | clears << 12): undo stops there.
        self.undo_floor = 0
        self.slide = SLIDE_ON  # a card sliding to its pile (view.py; SLIDE_* fields)
        self.redo_moves = array("i", [0] * REDO_MAX)  # undone moves, the newest last
        self.redo_n = 0
        # The line saying what the computer played (length, then text), then the part of the
        # message strip drawn over since it was drawn (view.py DAMAGE_FROM, DAMAGE_TO) and
        # where the sliding card was drawn (GHOST_X, GHOST_Y).
        self.said = bytearray(44)
        self.said[39] = 255
        self.new_game()

    def new_game(self):
        """After a deal: cursor home, nothing held, everything redrawn."""
        self.cursor = self.order[0]
        for i in range(self.count):
            s = self.order[i]
            if self.how[s] & THEIRS:
                continue
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
        self.message_ms = 0
        self.computer_ms = 0
        self.redo_n = 0
        self.slide &= SLIDE_ON  # nothing slides (the table is drawn afresh)
        self.floor_undo()  # a resumed game's journal may hold the computer's last turn
        if self.step_computer:
            self.game.bot_fresh = True
            if self.game.computer_to_move():  # a game resumed in the computer's turn
                self.computer_ms = COMPUTER_STEP_MS
        self.shake_ms = 0
        self.shake_dx = 0
        self.shake_slot = NONE
        self.valid = False

    # --- geometry ---

    # --- whose side of the table (link play) ---

    def seat_setup(self, slots, labels, players):
        """Made once: the piles each slot shows from either seat of a two-player game (the slot
        named p1.hand shows p2.hand from seat 1), and the words for link play (the other
        console's player by seat, P1 or P2, where the table says 'CPU')."""
        self.seat = 0  # the player this console plays
        self.link = None  # the link session in link play (engine_core/link/session.py)
        self.link_ms = 0  # the app's clock, for what the table tells the session
        self.labels_home = labels
        self.labels_link = None  # per seat: the other player's seat where the table says 'CPU'
        self.seat_piles = None  # a one-player game is seen from seat 0 only
        if players == 2:
            self.labels_link = ([], [])
            for t in labels:
                self.labels_link[0].append((b"P2" if t[0] == b"CPU" else t[0], t[1], t[2]))
                self.labels_link[1].append((b"P1" if t[0] == b"CPU" else t[0], t[1], t[2]))
            other = bytearray(self.count)
            for s in range(self.count):
                other[s] = self.game.pile_id(other_seat(slots[s][0]))
            self.seat_piles = (bytes(self.pile), bytes(other))

    def set_seat(self, seat, link):
        """Play seat `seat` (0: p1, as ever; link play gives the console that joined p2) with
        `link` the session that carries the moves, or None. No allocation."""
        piles = self.seat_piles[seat]
        slot_of = self.slot_of
        for p in range(256):
            slot_of[p] = NONE
        for s in range(self.count):
            self.pile[s] = piles[s]
            slot_of[piles[s]] = s
        self.seat = seat
        self.link = link
        self.labels_on_table = self.labels_home if link is None else self.labels_link[seat]
        self.cached_n = -1
        self.drawn_scores = -1
        self.valid = False

    def mine(self, move):
        """In link play, is `move` this console's to make? The player to move's, in a
        turn-based game; in Nerts its own seat's; the next game's deal as the session says
        (the loser's in Spite & Malice, the host's in Nerts once the round's end is final)."""
        game = self.game
        if move >> 16 == ACTION and not self.is_own_word((move >> 8) & 0xFF):
            return self.link.may_deal()  # the next game's deal: the session knows whose it is
        if game.TURN_BASED:
            return game.turn() == self.seat
        return game.mover(move) == self.seat

    def is_own_word(self, word):
        for k in range(len(self.action_word)):
            if self.action_word[k] == word:
                return self.action_own[k] == 1
        return False

    def reads_before(self, a, b):
        ra = self.y[a] // 16
        rb = self.y[b] // 16
        return ra < rb or (ra == rb and self.x[a] < self.x[b])

    # --- highlights ---

    # --- drawing ---

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

    def say(self, reason):
        """Show a message (a code of engine_core/reasons.py) at the foot for MESSAGE_MS."""
        self.message = reason
        self.message_ms = MESSAGE_MS + 1  # odd: drawn in the next frame, not in the keypress
        self.drawn_msg = NONE

    def computer_step(self):
        """The computer plays one move of its turn; the foot says what it played."""
        game = self.game
        self.mark_journal()
        move = game.respond_step()
        self.touch_since()
        if move < 0:
            self.computer_ms = 0
            return
        dst = (move >> 8) & 0xFF
        self.last_slot = self.slot_of[dst]
        self.start_slide(self.slot_of[move >> 16], self.slot_of[dst], game.piles.top(dst))
        self.tell_computer_move(game.bot_card, dst)
        if game.computer_to_move():
            self.computer_ms = COMPUTER_STEP_MS
        else:
            self.computer_ms = 0
            self.floor_undo()

    def finish_computer(self):
        """A key pressed during the computer's turn: it plays the rest of it at once."""
        if self.computer_ms == 0:
            return
        self.mark_journal()
        self.game.respond()
        self.touch_since()
        self.computer_ms = 0
        self.last_slot = NONE
        self.floor_undo()

    def floor_undo(self):
        """The player's turn begins: undo never reaches back into the computer's turn (it
        would show the cards the player drew afterwards)."""
        h = self.game.history
        self.undo_floor = h.moves | (h.clears & 0xFFFF) << 12  # moves: at most 2,048

    def tell_computer_move(self, kind, dst):
        """'CPU: 7H to centre 2' (or 'to side 3') in the message strip. No allocation."""
        b = self.said
        n = self.put_said(1, b"CPU: ")
        rank = kind % 13
        if rank == 9:
            n = self.put_said(n, b"10")
        else:
            b[n] = RANKS[rank]
            n += 1
        b[n] = SUITS[(kind // 13) % 4]
        n += 1
        centre = dst <= 3  # Spite & Malice: centre1..3 are piles 1..3, then each player's six
        n = self.put_said(n, b" to centre " if centre else b" to side ")
        b[n] = 48 + (dst if centre else (dst - 6) % 6 + 1)
        n += 1
        if not centre:
            n = self.put_said(n, b": your turn")
        b[0] = n - 1
        self.message = why.SAID
        self.message_ms = MESSAGE_MS
        self.drawn_msg = NONE

    def say_out_of_step(self, here, there):
        """'Out of step: 0A1B2C3D vs 3E4F5A6B' in the message strip: the two consoles' state
        hashes when they disagreed (the host's table is then loaded here). No allocation."""
        n = self.put_said(1, b"Out of step: ")
        n = self.put_hex(n, here)
        n = self.put_said(n, b" vs ")
        n = self.put_hex(n, there)
        self.said[0] = n - 1
        self.message = why.SAID
        self.message_ms = MESSAGE_MS
        self.drawn_msg = NONE

    def put_hex(self, n, value):
        for k in range(8):
            d = (value >> (28 - 4 * k)) & 15
            self.said[n + k] = 48 + d if d < 10 else 55 + d
        return n + 8

    def put_said(self, n, text):
        for i in range(len(text)):
            self.said[n + i] = text[i]
        return n + len(text)

    def tick(self, ms):
        """Animate a shake, let a message go, step the computer's turn; True while something
        moves."""
        if self.computer_ms > 0:
            self.computer_ms -= ms
            if self.computer_ms <= 0:
                self.computer_step()
        if self.message_ms > MESSAGE_MS:
            self.message_ms = MESSAGE_MS  # a frame has come: the strip is drawn in it
        elif self.message_ms > 0:
            self.message_ms -= ms
            if self.message_ms <= 0:
                self.message_ms = 0
                self.message = MSG_NONE
                self.valid = False  # the strip goes: what it covered is drawn again
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

    def shake(self, s, reason):
        """Refuse: the pile shakes and the foot of the screen says why."""
        self.sound = SOUND_ILLEGAL
        self.touch(self.shake_slot)  # a pile still shaking settles back
        self.shake_slot = s
        self.shake_ms = SHAKE_MS
        self.shake_dx = 2
        self.say(reason)

    def refuse_move(self, s, src, dst_pile, arg):
        """Shake slot s with the game's own reason for refusing src > dst_pile."""
        if arg < 0 or arg == NO_ARG:
            arg = 0
        self.shake(s, self.game.refusal(src << 16 | dst_pile << 8 | arg))

    # --- the player's actions ---

    def move_cursor(self, direction):
        """The nearest slot in a direction, from the card the cursor frames. Every slot of
        yours and the shared ones can be reached, a card held or not: a pile that cannot take
        the held card refuses it, with the reason, when A places it there."""
        st = self.style
        c = self.cursor
        if self.how[c] & PICK and self.held == NONE:
            if self.move_within(direction):
                return
        cx = self.aim_from_x(c)
        cy = self.y[c]
        best = NONE
        best_score = 0
        for s in range(self.count):
            if s == c or self.how[s] & THEIRS:  # the cursor stays on your piles and the shared
                continue
            dx = self.aim_at_x(s, cx) - cx
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
            if self.held == NONE and self.how[best] & PICK and self.how[best] & FAN_MASK == RIGHT:
                self.cursor_index = self.card_nearest_x(best, cx)  # the card below, not the top

    def aim_from_x(self, s):
        """Where the cursor on slot s is, across: the card it frames (a fan to the right
        reaches far from its slot's left edge)."""
        if self.how[s] & FAN_MASK != RIGHT:
            return self.x[s]
        i = self.cursor_index if s == self.cursor and self.cursor_index != NONE else self.top_index(s)
        return self.card_pos(s, i, True)

    def aim_at_x(self, s, cx):
        """Where the cursor would land in slot s, across, coming from cx: a fan to the right at
        its card nearest cx (what is below a pile is the card under it), else the slot."""
        x = self.x[s]
        if self.how[s] & FAN_MASK != RIGHT:
            return x
        last = self.card_pos(s, self.top_index(s), True)
        return x if cx < x else (last if cx > last else cx)

    def card_nearest_x(self, s, cx):
        """The card of fan slot s nearest cx (NONE: the top card)."""
        n = self.game.piles.size[self.pile[s]]
        best = NONE
        best_d = 0
        for i in range(n):
            d = self.card_pos(s, i, True) - cx
            if d < 0:
                d = -d
            if best == NONE or d < best_d:
                best = i
                best_d = d
        return NONE if best == n - 1 else best

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
            if self.how[s] & THEIRS:
                continue
            if self.held == NONE or s == self.held or self.can_take[s]:
                self.cursor = s
                self.cursor_index = NONE
                return

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
        mode = self.arg_mode
        if not self.how[s] & PICK:
            return -1
        count = self.game.piles.size[self.pile[s]] - index
        if count < 1:
            return NO_ARG
        if mode == ARG_COUNT:
            return -1 if count == 1 else count  # one card: any move of the top card
        if mode == ARG_KIND:
            return cards.kind(self.game.piles.card(self.pile[s], index))
        return -1

    def find_move(self, s, index, dst_pile):
        """A legal move from card `index` of slot s to dst_pile, or -1."""
        n = self.legal_moves()
        src = self.pile[s]
        arg = self.picked_arg(s, index)
        for i in range(n):
            m = self.moves[i]
            if m >> 16 == src and (m >> 8) & 0xFF == dst_pile and (arg < 0 or m & 0xFF == arg):
                return m
        return -1

    def picked_index(self, s):
        if self.cursor_index != NONE and self.how[s] & PICK:
            return self.cursor_index
        return self.top_index(s)

    def play(self, move):
        game = self.game
        self.stop_slide()  # a card still sliding lands now
        self.mark_journal()
        self.redo_n = 0  # a new move: what was undone cannot come back
        game.apply(move)
        if self.link is not None:
            self.link.local_move(move, self.link_ms)  # the other console makes it too
        if self.step_computer and game.computer_to_move():
            self.computer_ms = COMPUTER_STEP_MS  # its moves come one by one (tick)
        else:
            game.respond()
        self.touch_since()
        self.sound = SOUND_MOVE
        self.move_count += 1
        self.held = NONE
        self.hint_slot = NONE
        dst = (move >> 8) & 0xFF
        if move >> 16 == ACTION:
            self.last_slot = NONE
        else:
            self.last_slot = self.slot_of[dst]
            self.start_slide(self.slot_of[move >> 16], self.slot_of[dst], game.piles.top(dst))
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
                self.refuse_move(s, self.pile[self.held], self.pile[s], self.picked_arg(self.held, self.held_index))
                return
            self.play(m)
            return
        refused = -1  # an action this pile offers, refused now
        if self.action_pile[s] != NONE:
            for k in range(len(self.action_slot)):
                if self.action_slot[k] == s:
                    action = ACTION << 16 | self.action_word[k] << 8
                    if self.action_own[k]:
                        action |= self.seat
                    if self.allows(action):
                        self.play(action)
                        return
                    if refused < 0:
                        refused = action
        p = self.pile[s]
        if self.how[s] & THEIRS:
            self.shake(s, why.NOT_YOURS)
            return
        if self.link is not None and game.TURN_BASED and game.turn() != self.seat:
            self.shake(s, why.THEIR_TURN)
            return
        if game.piles.size[p] == 0:
            self.shake(s, game.refusal(refused) if refused >= 0 else why.EMPTY)
            return
        index = self.picked_index(s)
        n = self.legal_moves()
        found = False
        for t in range(self.count):
            self.can_take[t] = 0
        arg = self.picked_arg(s, index)
        for i in range(n):
            m = self.moves[i]
            if m >> 16 == p and (arg < 0 or m & 0xFF == arg):
                t = self.slot_of[(m >> 8) & 0xFF]
                if t != NONE:
                    self.can_take[t] = 1
                    found = True
        if not found:
            if refused >= 0:
                self.shake(s, game.refusal(refused))
            elif len(self.foundations) == 1:  # the one place it could go says why not
                self.refuse_move(s, p, self.foundations[0], arg)
            else:
                self.shake(s, why.NO_MOVE)
            return
        self.held = s
        self.held_index = index
        if self.hint_slot != NONE and self.can_take[self.hint_slot]:
            self.cursor = self.hint_slot  # X, A, A plays the hinted move
            self.cursor_index = NONE
        self.hint_slot = NONE

    def press_long_a(self):
        """Send the card under the cursor to a foundation where it fits."""
        if self.slide & 0xFF:
            self.stop_slide()
        if self.computer_ms:
            self.finish_computer()
        s = self.cursor
        self.held = NONE
        if self.game.status() != PLAYING:
            self.shake(s, why.OVER)
            return
        if self.how[s] & THEIRS:
            self.shake(s, why.NOT_YOURS)
            return
        index = self.picked_index(s)
        n = self.legal_moves()
        src = self.pile[s]
        arg = self.picked_arg(s, index)
        for i in range(n):
            m = self.moves[i]
            if m >> 16 == src and self.is_foundation[(m >> 8) & 0xFF] and (arg < 0 or m & 0xFF == arg):
                self.play(m)
                return
        if self.game.piles.size[src] == 0:
            self.shake(s, why.EMPTY)
        elif len(self.foundations) == 1:
            self.refuse_move(s, src, self.foundations[0], arg)
        else:
            self.shake(s, why.NO_HOME)

    def press_b(self):
        self.held = NONE
        self.hint_slot = NONE

    def press_hint(self):
        self.finish_computer()
        m = self.game.hint()
        self.held = NONE
        if m < 0:
            self.say(MSG_NO_HINT)
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
        self.stop_slide()
        self.held = NONE
        self.hint_slot = NONE
        self.finish_computer()
        h = self.game.history
        floor = self.undo_floor
        if self.step_computer and h.clears == floor >> 12 and h.moves <= floor & 0xFFF:
            self.say(why.TURN_PLAYED)
            return
        if self.link is not None and not self.link.may_undo():
            self.say(why.TURN_PLAYED if self.game.TURN_BASED else MSG_NO_UNDO)
            return
        end = self.game.history.head
        self.cached_n = -1
        undone = h.last_move()
        if self.game.undo():
            if self.link is not None:
                self.link.local_undo(self.link_ms)
            self.keep_for_redo(undone)
            self.touch_entries(self.game.history.head, end)
            if self.move_count > 0:  # an undone computer move (Nerts) is not the player's
                self.move_count -= 1
            self.last_slot = NONE
        else:
            self.say(MSG_NO_UNDO)

    def keep_for_redo(self, move):
        if self.redo_n == REDO_MAX:  # full: the oldest undone move goes
            for i in range(REDO_MAX - 1):
                self.redo_moves[i] = self.redo_moves[i + 1]
            self.redo_n -= 1
        self.redo_moves[self.redo_n] = move
        self.redo_n += 1

    def press_redo(self):
        """Play again the move undone last (while nothing else was played since)."""
        self.held = NONE
        self.hint_slot = NONE
        self.finish_computer()
        n = self.redo_n
        if n == 0 or not self.allows(self.redo_moves[n - 1]):
            self.redo_n = 0
            self.say(why.NO_REDO)
            return
        self.play(self.redo_moves[n - 1])
        self.redo_n = n - 1

    def point(self, s, index):
        """Put the cursor on slot s (a pointer's click), on card `index` of a fan it picks
        from."""
        self.cursor = s
        n = self.game.piles.size[self.pile[s]]
        self.cursor_index = index if self.how[s] & PICK and index < n - 1 else NONE

    def press(self, button):
        """One button in play (B, X, Y and directions; START is the app's)."""
        if self.slide & 0xFF:
            self.stop_slide()  # a card still on its way lands (taken off in the next frame)
        if self.computer_ms:
            self.finish_computer()
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
