"""The table of one game on one screen, the object the App plays on: the play control (what
the buttons do, messages, undo and redo, the computer's pacing, hints, sounds) and the App's
one handle on the other parts, split by job (docs/engine.md, "The table"): the layout's slots
(slots.py), the input model (table_input.py: cursor, held card, kept moves and targets) and the
renderer (view.py, with what each slot last drew in drawn.py; overlay.py). Every array is made
in __init__; press-time work indexes them."""

from array import array

from engine_core import PLAYING
from engine_core import reasons as why
from engine_core.fields import I32_MAX
from engine_core.game import ACTION, SEEK
from engine_core.ui import buttons as bt
from engine_core.ui import said, takeback
from engine_core.ui.layouts import THEIRS
from engine_core.ui.overlay import player_tags
from engine_core.ui.slots import NONE, Slots
from engine_core.ui.table_input import NO_ARG, TableInput
from engine_core.ui.view import MESSAGE_MS, MSG_NO_HINT, MSG_NONE, TableRenderer

from micropython import const

COMPUTER_STEP_MS = const(450)  # the computer's turn (Spite & Malice) moves a card this often
# The positions of the computer's search done in a frame between the moves it shows: some
# 1.1 M fuel, 4 ms on a Pico at 200 MHz (tools/bench/bench_spite_malice.py).
_PREPARE_NODES = const(20)

# Sounds the app asks the board for (App.sound_event; docs/screen.md).
SOUND_MOVE = const(1)
SOUND_ILLEGAL = const(2)
SOUND_WON = const(3)
SOUND_LOST = const(4)
SOUND_DEAL = const(5)


class Table:
    def __init__(self, painter, game, decl, size, title):
        self.game = game
        self.slots = Slots(painter, game, decl, size)
        self.hand = TableInput(game, self.slots)
        self.said = bytearray(39)  # the line saying what the computer played: length, then text
        self.view = TableRenderer(painter, game, self.slots, self.hand, self.said, title)
        self.sound = 0  # SOUND_MOVE / SOUND_ILLEGAL since the app last looked
        self.hint_slot = NONE
        self.hint_from = NONE  # the hinted card: its slot << 8 | its index in the cursor's terms
        self.hint_after = False  # a hint to seek in the next frame (X, the pause menu's Hint)
        self.last_slot = NONE
        self.move_count = 0
        self.message = MSG_NONE  # a code of engine_core/reasons.py, shown at the foot
        self.message_ms = 0  # how much longer it shows
        # A computer's turn shown move by move (games with respond_step: Spite & Malice).
        self.step_computer = game.STEPS_COMPUTER
        if self.step_computer:
            game.auto_respond = False
        self.computer_ms = 0  # time to the computer's next move; 0: not its turn
        # The journal when the player's turn began (moves | clears << 12): undo stops there.
        self.undo_floor = 0
        self.redo_moves = array("i", [0] * takeback.REDO_MAX)  # undone moves, the newest last
        self.redo_n = 0
        self.link_ms = 0  # the app's clock, for what the table tells the session
        self.new_game()

    # --- what the App and the hosts read of the other parts (the rest is reached there:
    # table.hand (the cursor, the moves kept), table.slots (where each slot is), table.view) ---

    def get_held(self):
        return self.hand.held

    def get_seat(self):
        return self.hand.seat

    def get_valid(self):
        return self.view.drawn.valid

    def set_valid(self, valid):
        self.view.drawn.valid = valid

    def get_pending(self):
        return self.view.pending or self.hint_after

    def get_slide(self):
        return self.view.slide

    held = property(get_held)
    seat = property(get_seat)
    valid = property(get_valid, set_valid)  # False: the next refresh draws everything
    pending = property(get_pending)  # slots, or a hint to seek (X, the pause menu's Hint), wait for the next frame
    slide = property(get_slide)

    def moves_wanted(self):
        """The next frame lists the moves for the next key: the game lists them ahead (the
        input model's prefetch) and none are listed now."""
        return self.hand.prefetch and self.hand.cached_n < 0

    def linked(self):
        """The table plays a linked game (the input model holds the link's session)."""
        return self.hand.link is not None

    def legal_moves(self):
        return self.hand.legal_moves()

    def allows(self, move):
        return self.hand.allows(move)

    def next_slot(self):
        """Two buttons' short B: the cursor to the next pile (or card), a key that lets the
        strip go as any other."""
        self.let_go()
        self.hand.next_slot()

    def point(self, s, index):
        self.hand.point(s, index)

    def slot_at(self, px, py):
        return self.slots.slot_at(px, py, self.view.drawn.highlight_from)

    def refresh(self):
        """The renderer draws what changed, told first what the play control shows."""
        self.view.shown(self.hint_slot, self.last_slot, self.message, self.message_ms, self.move_count)
        self.view.refresh()

    def on_glass(self):
        """The glass shows the table as it stands: nothing waits for a frame to be drawn (a
        pile touched, a highlight or a message strip said in this keypress). A panel may then
        open over it without drawing it again (the pause menu: App.show)."""
        view = self.view
        d = view.drawn
        hand = self.hand
        if not d.valid or view.pending or d.hint != self.hint_slot or d.last != self.last_slot:
            return False
        if d.cursor != hand.cursor or d.cursor_index != hand.cursor_index:
            return False
        if d.held != hand.held or d.held_index != hand.held_index:
            return False
        if d.msg != self.message and (self.message != MSG_NONE or d.msg == MSG_NONE):
            return False  # a strip to draw, or one gone still on the glass
        if self.message != MSG_NONE and self.message_ms > MESSAGE_MS:
            return False
        touched = view.touched
        for s in range(self.slots.count):
            if touched[s]:
                return False
        return True

    def frame(self, ms):
        """A slide or a shake moves on and is drawn (the renderer told what is shown); True
        while something moves."""
        self.view.shown(self.hint_slot, self.last_slot, self.message, self.message_ms, self.move_count)
        return self.view.frame(ms)

    def slide_on(self, on):
        self.view.slide_on(on)

    def player_tags(self):
        return player_tags(self.view)

    def mark_journal(self):
        self.view.mark_journal()

    def touch_since(self):
        """What changed since mark_journal() is drawn again, and the moves generated afresh."""
        if self.view.touch_since():
            self.hand.cached_n = -1

    def land(self):
        """The game has ended: a card still on its way is at its pile, nothing shakes and the
        strip's words about play ("...: your turn") are gone, so the end panel lies over the
        final position drawn still (drawn afresh under it)."""
        if self.view.slide & 0xFF or self.view.shake_ms:
            self.view.still()
            self.valid = False
        if self.message != MSG_NONE:
            self.drop_message()

    # --- a deal, a seat ---

    def new_game(self):
        """After a deal: cursor home, nothing held, everything redrawn."""
        self.hand.home()
        self.hint_slot = NONE
        self.hint_after = False
        self.last_slot = NONE
        self.move_count = 0
        self.message = MSG_NONE
        self.message_ms = 0
        self.computer_ms = 0
        self.redo_n = 0
        self.view.still()  # nothing slides or shakes (the table is drawn afresh)
        self.floor_undo()  # a resumed game's journal may hold the computer's last turn
        if self.step_computer:
            self.game.bot_fresh = True
            self.game.bot.work = 0  # (no work toward a move of another position)
            if self.game.computer_to_move():  # a game resumed in the computer's turn
                self.computer_ms = COMPUTER_STEP_MS
        self.view.drawn.valid = False

    def set_seat(self, seat, link):
        """Play seat `seat` (0: p1, as ever; link play gives the console that joined p2) with
        `link` the session that carries the moves, or None. No allocation."""
        self.slots.set_seat(seat, link is not None)
        self.hand.seat = seat
        self.hand.link = link
        self.hand.cached_n = -1
        self.view.drawn.scores = -1
        self.view.drawn.valid = False

    # --- finishing by itself ---

    def clearly_won(self):
        """True when nothing is left to decide: every remaining card can go home in turn."""
        return self.slots.clearly_won()

    def play_home(self):
        """Play one legal move to a foundation (auto-play); False when there is none."""
        hand = self.hand
        slots = self.slots
        n = hand.legal_moves()
        for i in range(n):
            m = hand.moves[i]
            dst = (m >> 8) & 0xFF
            if m >> 16 != ACTION:
                for k in range(len(slots.foundations)):
                    if slots.foundations[k] == dst:
                        self.play(m)
                        hand.cursor = slots.slot_of[dst] if slots.slot_of[dst] != NONE else hand.cursor
                        return True
        return False

    # --- time ---

    def say(self, reason):
        """Show a message (a code of engine_core/reasons.py) at the foot for MESSAGE_MS."""
        self.message = reason
        self.message_ms = MESSAGE_MS + 1  # odd: drawn in the next frame, not in the keypress
        self.view.drawn.msg = MSG_NONE  # the strip drawn anew

    def computer_step(self):
        """The computer plays one move of its turn; the foot says what it played."""
        slots = self.slots
        game = self.game
        self.view.mark_journal()
        move = game.respond_step()
        self.touch_since()
        if move < 0:
            self.computer_ms = 0
            return
        dst = (move >> 8) & 0xFF
        self.last_slot = slots.slot_of[dst]
        self.view.start_slide(slots.slot_of[move >> 16], slots.slot_of[dst], game.piles.top(dst))
        self.tell_computer_move(game.bot_card, dst)
        if game.computer_to_move():
            self.computer_ms = COMPUTER_STEP_MS
        else:
            self.computer_ms = 0
            self.floor_undo()

    def finish_computer(self):
        """A key pressed during the computer's turn: it plays the rest of it at once, planned
        afresh from the position (as a console restarted in the middle of the turn plans it:
        the plan in memory is not in the records)."""
        if self.computer_ms == 0:
            return
        self.view.mark_journal()
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
        """'Seven of hearts to centre 2' (or 'to side 3: your turn') in the message strip
        (said.py). No allocation."""
        said.computer_move(self.said, kind, dst, self.view.screen.height < 100)
        self.say_now(why.SAID)

    def say_out_of_step(self, here, there):
        """'Out of step: 0A1B2C3D vs 3E4F5A6B' in the message strip (said.py). No allocation."""
        said.out_of_step(self.said, here, there)
        self.say_now(why.SAID)

    def tick(self, ms):
        """Animate a shake, let a message go, step the computer's turn; True while something
        moves."""
        if self.computer_ms > 0:
            was = self.computer_ms
            self.computer_ms -= ms
            if self.computer_ms <= 0:
                self.computer_step()
            elif was != COMPUTER_STEP_MS and not self.hint_after and self.game.computer_to_move():
                # Between the moves shown, the next one is sought a part at a time
                # (Bot.prepare), so no frame holds a whole search; not in the frame that set
                # the wait (a press's, or a move's), nor when X's hint plays the turn out next,
                # nor once the turn has passed (the kiosk's demo plays it out itself).
                game = self.game
                game.bot.prepare(game, game.bot_level, game.bot_fresh, _PREPARE_NODES)
        if self.message_ms > MESSAGE_MS:
            self.message_ms = MESSAGE_MS  # a frame has come: the strip is drawn in it
        elif self.message_ms > 0:
            before = self.message_ms
            self.message_ms -= ms
            if self.message_ms <= 0:
                self.drop_message()
            elif before > MESSAGE_MS // 2 >= self.message_ms and self.view.screen.height < 100:
                self.view.drawn.msg = MSG_NONE  # a one-line strip turns to the words' next line
        elif self.message != MSG_NONE:
            self.drop_message()  # a key let it go (let_go)
        return self.frame(ms)  # a slide or a shake

    def drop_message(self):
        self.message_ms = 0
        self.message = MSG_NONE
        d = self.view.drawn
        if d.msg != NONE:  # a strip shows: the next refresh draws what it covers again
            d.msg = MSG_NONE

    def let_go(self):
        """A key in play: the strip shown goes in the next frame (what it said is about the
        key before; a key that says something anew says it after this). The strip lies over
        the table's foot, where the player's own cards may be (a hand, a long column)."""
        if self.message != MSG_NONE and self.message_ms <= MESSAGE_MS and self.message != why.LINK_SILENT:
            self.message_ms = 0

    def shake(self, s, reason):
        """Refuse: the pile shakes and the foot of the screen says why."""
        self.sound = SOUND_ILLEGAL
        self.view.start_shake(s)
        self.say(reason)

    def refuse_move(self, s, src, dst_pile, arg):
        """Shake slot s with the game's own reason for refusing src > dst_pile."""
        if arg < 0 or arg == NO_ARG:
            arg = 0
        self.shake(s, self.game.refusal(src << 16 | dst_pile << 8 | arg))

    def play(self, move):
        hand = self.hand
        slots = self.slots
        game = self.game
        self.view.stop_slide()  # a card still sliding lands now
        self.view.mark_journal()
        self.redo_n = 0  # a new move: what was undone cannot come back
        game.apply(move)
        if hand.link is not None:
            hand.link.local_move(move, self.link_ms)  # the other console makes it too
        if self.step_computer and game.computer_to_move():
            self.computer_ms = COMPUTER_STEP_MS  # its moves come one by one (tick)
        else:
            game.respond()
        self.touch_since()
        self.sound = SOUND_MOVE
        if self.move_count < I32_MAX:  # (the largest a record holds, whatever one said: a small int)
            self.move_count += 1
        hand.held = NONE
        self.hint_slot = NONE
        dst = (move >> 8) & 0xFF
        if move >> 16 == ACTION:
            self.last_slot = NONE
        else:
            self.last_slot = slots.slot_of[dst]
            self.view.start_slide(slots.slot_of[move >> 16], slots.slot_of[dst], game.piles.top(dst))
        hand.cursor_index = NONE

    def press_a(self):
        """Pick up, place, or play the action of an action pile."""
        hand = self.hand
        slots = self.slots
        s = hand.cursor
        game = self.game
        if game.status() != PLAYING:
            return
        if hand.held != NONE:
            if s == hand.held:
                hand.held = NONE
                return
            m = hand.find_move(hand.held, hand.held_index, slots.pile[s])
            if m < 0:
                self.refuse_move(s, slots.pile[hand.held], slots.pile[s], hand.picked_arg(hand.held, hand.held_index))
                return
            self.play(m)
            return
        refused = -1  # an action this pile offers, refused now
        if slots.action_pile[s] != NONE:
            for k in range(len(slots.action_slot)):
                if slots.action_slot[k] == s:
                    action = ACTION << 16 | slots.action_word[k] << 8
                    if slots.action_own[k]:
                        action |= hand.seat
                    if hand.allows(action):
                        self.play(action)
                        return
                    if refused < 0:
                        refused = action
        p = slots.pile[s]
        if slots.how[s] & THEIRS:
            self.shake(s, why.NOT_YOURS)
            return
        if hand.link is not None and game.TURN_BASED and game.turn() != hand.seat:
            self.shake(s, why.THEIR_TURN)
            return
        if game.piles.size[p] == 0:
            self.shake(s, game.refusal(refused) if refused >= 0 else why.EMPTY)
            return
        index = hand.picked_index(s)
        if not hand.mark_targets(s, index):
            arg = hand.picked_arg(s, index)
            if refused >= 0:
                self.shake(s, game.refusal(refused))
            elif len(slots.foundations) != 1:
                self.shake(s, why.NO_MOVE)
            elif slots.foundations[0] != p:  # the one place it could go says why not
                self.refuse_move(s, p, slots.foundations[0], arg)
            return  # (on that place itself its cards are home: nothing is refused)
        hand.held = s
        hand.held_index = index
        if self.hint_slot != NONE and s << 8 | hand.cursor_index == self.hint_from and hand.can_take[self.hint_slot]:
            hand.cursor = self.hint_slot  # X, A, A plays the hinted move (another card: no jump)
            hand.cursor_index = NONE
        self.hint_slot = NONE

    def press_long_a(self):
        """Send the card under the cursor to a foundation where it fits."""
        hand = self.hand
        slots = self.slots
        if self.view.slide & 0xFF:
            self.view.stop_slide()
        if self.computer_ms:
            self.finish_computer()
        self.let_go()
        s = hand.cursor
        hand.held = NONE
        if self.game.status() != PLAYING:
            self.shake(s, why.OVER)
            return
        if slots.how[s] & THEIRS:
            self.shake(s, why.NOT_YOURS)
            return
        index = hand.picked_index(s)
        m = hand.find_home(s, index)
        if m >= 0:
            self.play(m)
            return
        src = slots.pile[s]
        if self.game.piles.size[src] == 0:
            self.shake(s, why.EMPTY)
        elif len(slots.foundations) == 1:
            self.refuse_move(s, src, slots.foundations[0], hand.picked_arg(s, index))
        else:
            self.shake(s, why.NO_HOME)

    def press_b(self):
        hand = self.hand
        hand.held = NONE
        self.hint_slot = NONE

    def press_hint(self):
        """X: the hint for this console's own seat (own_hint). One found at little cost shows
        in the press's frame. One that needs a search (Game.quick_hint: SEEK) is sought in the
        next frame (seek_hint), and this frame's strip says so: a search may outlast a frame.
        So is the rest of a computer's turn shown move by move, with the hint: those moves
        drawn at once took most of a Pico's frame."""
        self.hand.held = NONE
        m = SEEK if self.computer_ms else self.own_hint(True)
        if m != SEEK:
            self.show_hint(m)
            return
        self.hint_slot = NONE
        self.hint_after = True
        self.say_now(why.SEEKING)

    def seek_hint(self):
        """The hint that X or the pause menu's Hint left for the next frame (hint_after)."""
        self.hint_after = False
        self.ready()  # (the strip's words go)
        self.hand.held = NONE
        self.show_hint(self.own_hint(False))

    def own_hint(self, quick):
        """The hint for this console's own seat, never the other player's move: a linked
        table's turn that is not ours has none; Nerts hints the seat played here. quick:
        Game.quick_hint's answer (SEEK for a search)."""
        game = self.game
        seat = self.hand.seat
        if game.TURN_BASED:
            if self.hand.link is not None and game.status() == PLAYING and game.turn() != seat:
                return -1
        elif seat != 0:
            return game.hint(seat)
        return game.quick_hint() if quick else game.hint()

    def show_hint(self, m):
        """The cursor on hint m's card, its destination framed; or 'No hint'. A hint that is
        a pile's action (the stock: draw) has no destination to frame: the cursor goes to the
        pile and the strip says what to do there, in this frame."""
        if m < 0:
            self.say(MSG_NO_HINT)
            return
        self.hint_slot = self.hand.show_move(m)
        self.hint_from = self.hand.cursor << 8 | self.hand.cursor_index
        if self.hint_slot == NONE:
            self.say_now(why.HINT_HERE)

    def say_now(self, reason):
        """say(), drawn in this frame: the press's own answer (X's), or the table's own line
        (said.py: what the computer played, out of step)."""
        self.message = reason
        self.message_ms = MESSAGE_MS  # (even: drawn in this frame)
        self.view.drawn.msg = MSG_NONE

    def press_undo(self):
        takeback.undo(self)

    def press_redo(self):
        takeback.redo(self)

    def ready(self, finish=True):
        """Before a key's work: a card still on its way lands (taken off in the next frame),
        the computer's turn shown move by move is played out (unless told not to), the
        strip's words go."""
        if self.view.slide & 0xFF:
            self.view.stop_slide()
        if self.computer_ms and finish:
            self.finish_computer()
        self.let_go()

    def press(self, button):
        """One button in play (B, X, Y and directions; START is the app's)."""
        hand = self.hand
        self.ready(button != bt.X)  # (X's hint plays the computer's turn out: press_hint)
        if button == bt.A:
            self.press_a()
        elif button == bt.B:
            self.press_b()
        elif button == bt.X:
            self.press_hint()
        elif button == bt.Y:
            self.press_undo()
        elif button <= bt.RIGHT:
            hand.move_cursor(button)
