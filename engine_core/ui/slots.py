"""The slots of one game's table on one screen, made once from its layout declaration
(engine_core/ui/layouts.py): the pile each slot shows, where it is drawn and how it fans, the
reading order of the two-button "next pile", the action piles, the status line's box, and the
piles each slot shows from either seat of a two-player game. The input model, the play
control and the renderer of a table all read them (docs/engine.md, "The table").

Every array is made in __init__; after start-up only set_seat changes them, in place.
"""

from array import array

from engine_core import PLAYING
from engine_core.game import FACE_DOWN, TOP_UP
from engine_core.gfx.paint import LINE_H
from engine_core.ui.layouts import COUNT, DOWN, FAN_MASK, HIDDEN, RIGHT, STACK, WIDE

from micropython import const

NONE = const(255)  # no slot, or a pile not shown
MARGIN = const(2)  # room a shaken pile moves into: layouts leave this much between piles
_CLOSED = const(2)  # the step of a long fan's deepest cards, closed up: edge and margin show (view.py's too)
# A fan never steps closer than its card size's least step (by paint.CARD_SIZES's order): a
# covered card's index stays whole (its inset and its rank's height, down; across, the rank
# and the suit under it, or the rank alone where the suit sits beside it): down 10, 13, 13,
# 10, 10, 7, 10 and across 9, 13, 13, 9, 9, 5, 8, as bytes written out where they are read
# (Slots.step and beneath), so that they cost the heap nothing.


def other_seat(name):
    """The same pile of the other player of two: 'p1.hand' <-> 'p2.hand'; shared piles keep
    their names."""
    if name[:3] == "p1.":
        return "p2." + name[3:]
    if name[:3] == "p2.":
        return "p1." + name[3:]
    return name


class Slots:
    def __init__(self, painter, game, decl, size):
        self.game = game
        self.style = painter.styles[decl.get("cards", {}).get(size, size)]
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
        self.labels_on_table = decl.get("labels", {}).get(size, ())
        self.seat_setup(slots, self.labels_on_table, decl.get("players", 1))
        self.status = decl["status"][size]  # the status line's box: x, y, width
        # Reading order (top to bottom, left to right) for the two-button "next pile".
        self.order = bytearray(n)
        for s in range(n):  # insertion sort by row band, then x
            k = s
            while k > 0 and self.reads_before(s, self.order[k - 1]):
                self.order[k] = self.order[k - 1]
                k -= 1
            self.order[k] = s

    # --- whose side of the table (link play) ---

    def seat_setup(self, slots, labels, players):
        """Made once: the piles each slot shows from either seat of a two-player game (the slot
        named p1.hand shows p2.hand from seat 1), and the words for link play (the other
        console's player by seat, P1 or P2, where the table says 'CPU')."""
        self.labels_seats: "tuple | None" = None  # link play, by seat: the words (party: the tags)
        self.seat_piles: "tuple | None" = None  # a one-player game is seen from seat 0 only
        if players == 2:
            self.labels_seats = (labels, [], [])  # the table's own words first
            for t in labels:
                self.labels_seats[1].append((b"P2" if t[0] == b"CPU" else t[0], t[1], t[2]))
                self.labels_seats[2].append((b"P1" if t[0] == b"CPU" else t[0], t[1], t[2]))
            other = bytearray(self.count)
            for s in range(self.count):
                other[s] = self.game.pile_id(other_seat(slots[s][0]))
            self.seat_piles = (bytes(self.pile), bytes(other))

    def set_seat(self, seat, linked):
        """The slots as seen from seat `seat` (0: p1; link play gives the console that joined
        p2), with the link play words when `linked`. No allocation (a party table's seat:
        party.turn_seats)."""
        sides = self.seat_piles
        labels = self.labels_seats
        if self.game.players > 2:  # three or four: turned round the table (a party table's seat)
            if sides is None and seat == 0 and not linked:
                return  # as laid out
            from engine_core.ui.party import turn_seats  # (a console that sits at one has it)
            return turn_seats(self, seat, linked)
        if sides is None or labels is None:
            return  # a one-player game is seen from seat 0 only
        piles = sides[seat]
        slot_of = self.slot_of
        for p in range(256):
            slot_of[p] = NONE
        for s in range(self.count):
            self.pile[s] = piles[s]
            slot_of[piles[s]] = s
        self.labels_on_table = labels[1 + seat if linked else 0]

    def is_own_word(self, word):
        for k in range(len(self.action_word)):
            if self.action_word[k] == word:
                return self.action_own[k] == 1
        return False

    def is_foundation(self, p):
        for k in range(len(self.foundations)):
            if self.foundations[k] == p:
                return True
        return False

    def clearly_won(self):
        """True when nothing is left to decide: every remaining card can go home in turn (the
        layout's finish: these piles empty, those in falling rank)."""
        if not (len(self.finish_empty) or len(self.finish_falling)) or self.game.status() != PLAYING:
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

    def reads_before(self, a, b):
        ra = self.y[a] // 16
        rb = self.y[b] // 16
        return ra < rb or (ra == rb and self.x[a] < self.x[b])

    # --- what a slot shows ---

    def top_index(self, s):
        n = self.game.piles.size[self.pile[s]]
        return n - 1 if n > 0 else 0

    def card_face_up(self, p, i, n):
        if self.how[self.slot_of[p]] & HIDDEN:
            return False
        face = self.game.pile_faces[p]
        if face == FACE_DOWN:
            return False
        if face == TOP_UP:
            return i == n - 1
        return True

    # --- where a slot's cards lie ---

    def step(self, s, n):
        """The fan step of slot s holding n cards, compressed to fit its room, but never closer
        than the step that leaves a covered card's index whole (the card size's least step):
        past that the deepest cards close up instead (beneath). Only a fan that does not fit
        even closed up steps closer, one pixel, and hides its deepest cards (beneath)."""
        fan = self.how[s] & FAN_MASK
        st = self.style
        if fan == STACK or n < 2:
            return 0
        full = st.step_down if fan == DOWN else st.step_right
        size = st.h if fan == DOWN else st.w
        if self.how[s] & WIDE:
            full = size + 3  # a hand: every card whole when there is room
        spare = self.room[s] - size
        fit = spare // (n - 1)
        if fit >= full:
            return full
        least = (b"\x0a\x0d\x0d\x0a\x0a\x07\x0a" if fan == DOWN else b"\x09\x0d\x0d\x09\x09\x05\x08")[st.size]
        if fit >= least:
            return fit
        if (n - 1) * _CLOSED <= spare:
            return least
        return fit if fit > 1 else 1

    def beneath(self, s, n):
        """How many of fanned slot s's n cards, its deepest, lie out of its open fan: closed up
        two pixels apart (their edges show, none of their index) so that the rest keep the
        least step; or, where the fan does not fit even so (its step is one pixel), hidden
        beneath the first card shown, so that its last cards show and the top one whole."""
        fan = self.how[s] & FAN_MASK
        if fan == STACK or n < 2:
            return 0
        st = self.style
        spare = self.room[s] - (st.h if fan == DOWN else st.w)
        if (n - 1) * _CLOSED > spare:
            k = n - 1 - spare
            return k if k > 0 else 0
        least = (b"\x0a\x0d\x0d\x0a\x0a\x07\x0a" if fan == DOWN else b"\x09\x0d\x0d\x09\x09\x05\x08")[st.size]
        over = (n - 1) * least - spare
        return (over + least - _CLOSED - 1) // (least - _CLOSED) if over > 0 else 0

    def extent(self, s, n, step):
        """How far slot s, holding n cards (all its pile has), reaches along its fan (or down,
        for a stack with its count)."""
        st = self.style
        how = self.how[s]
        fan = how & FAN_MASK
        if fan == RIGHT:
            return st.w + (self.card_pos(s, n - 1, True) - self.x[s] if step else 0)
        e = st.h + (self.card_pos(s, n - 1, False) - self.y[s] if step else 0)  # (no step: a stack, or one card)
        if how & COUNT:
            e += LINE_H
        return e

    def slot_at(self, px, py, opens):
        """The slot whose cards cover the screen point (px, py) and the card under it (the top
        card of a stack), as slot | index << 8; NONE when no slot does (a pointer: the
        simulator's mouse). opens: per slot, the card its fan opens at as drawn (card_pos)."""
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
            if fan == RIGHT:
                w += self.card_pos(s, n - 1, True) - x
            elif fan == DOWN:
                h += self.card_pos(s, n - 1, False) - y
            if x <= px < x + w and y <= py < y + h:
                i = n - 1
                if step > 0:  # the last card whose place along the fan is at or before the point
                    while i > 0 and self.card_pos(s, i, fan == RIGHT, opens[s]) > (px if fan == RIGHT else py):
                        i -= 1
                return s | i << 8
        return NONE

    def card_pos(self, s, i, along_x, opens=NONE):
        """Where card i of slot s lies, x or y (a sliding card's ends). A closed-up fan opens
        its cards at the least step from card `opens` where that card is among the closed
        (the cursor's or the held card, as the renderer draws it: its highlight), the cards
        above them closed up in turn."""
        if i < 0:
            i = 0
        n = self.game.piles.size[self.pile[s]]
        fan = self.how[s] & FAN_MASK
        m = n if n > i else i + 1
        step = self.step(s, m)
        k = self.beneath(s, m) if step else 0
        if step == 1:  # hidden beneath the first shown
            along = i - k if i > k else 0
        elif k == 0:
            along = i * step
        else:
            first = opens if opens < k else k  # the lowest card shown open
            opened = m - 1 - k
            if i <= first:
                along = i * _CLOSED
            elif i <= first + opened:
                along = first * _CLOSED + (i - first) * step
            else:
                along = first * _CLOSED + opened * step + (i - first - opened) * _CLOSED
        if along_x:
            return self.x[s] + (along if fan == RIGHT else 0)
        return self.y[s] + (along if fan == DOWN else 0)
