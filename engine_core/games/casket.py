"""Casket Solitaire, rule profile 1 (shared/rules/casket.md).

Two decks. Thirteen jewels lie under five lids; eight body piles build down in suit; three
reserves hold one card each; eight foundations build up in suit from the Ace. An emptied lid
is refilled at once from the jewels (the same move, undone with it) until the jewels are
gone; lids accept no cards, and a lid card may not head an empty body pile. Draw turns one
stock card onto the waste, only once the waste card is placed; no redeal.
"""

from array import array

from engine_core import PLAYING
from engine_core import cards
from engine_core import rules
from engine_core.game import FACE_DOWN, TOP_UP, V_STATUS, Game
from engine_core.rules import IN_SUIT

try:
    from micropython import const
except ImportError:
    def const(x):
        return x

STOCK = const(0)
WASTE = const(1)
JEWELS = const(2)
LID1 = const(3)
LID5 = const(7)
BODY1 = const(8)
BODY8 = const(15)
RES1 = const(16)
RES3 = const(18)
FOUND1 = const(19)
FOUND8 = const(26)
DRAW_MOVE = const(0xFF0000)  # action_code(0): 'draw'
DEALT_STOCK = const(77)  # 104 cards less 13 jewels, 5 lids, 8 body piles and the waste


def is_lid(p):
    return LID1 <= p <= LID5


class Casket(Game):
    NAME = "casket"
    RULES_VERSION = 1
    DECKS = 2
    # 17 sources (waste, 3 reserves, 5 lids, 8 bodies), each to at most 8 foundations
    # (an Ace), 8 body piles and 3 reserves, plus draw: a loose bound, 1.3 KB of ints.
    MAX_MOVES = 17 * 19 + 1
    ACTIONS = ("draw",)

    def __init__(self, players=1, options=0):
        Game.__init__(self, players, options)
        self.add_pile("stock", 104, FACE_DOWN)  # 104 while dealing, at most 77 in play
        self.add_pile("waste", 1)
        self.add_pile("jewels", 13, TOP_UP)
        for i in range(5):
            self.add_pile("lid" + str(i + 1), 1)
        for i in range(8):
            self.add_pile("body" + str(i + 1), 13)  # a run down in suit: 13 at most
        for i in range(3):
            self.add_pile("res" + str(i + 1), 1)
        for i in range(8):
            self.add_pile("found" + str(i + 1), 13)
        self.end_piles()
        self.probe = array("i", [0] * self.MAX_MOVES)  # for the status check

    def _deal(self):
        piles = self.piles
        self.fill_and_shuffle(STOCK)
        piles.move(STOCK, JEWELS, 13)
        for p in range(LID1, BODY8 + 1):
            piles.move(STOCK, p, 1)
        piles.move(STOCK, WASTE, 1)

    # --- move generation ---

    def legal_moves(self, out):
        if self.vars[V_STATUS] != PLAYING:
            return 0
        return self._generate(out)

    def _generate(self, out):
        piles = self.piles
        n = self._moves_from(out, 0, WASTE)
        for p in range(LID1, RES3 + 1):  # lids, body piles, reserves
            n = self._moves_from(out, n, p)
        if rules.may_draw(piles, STOCK, WASTE):
            out[n] = DRAW_MOVE
            n += 1
        return n

    def _moves_from(self, out, n, src):
        """Write the moves of the exposed card of src (waste, lid, body or reserve)."""
        piles = self.piles
        c = rules.top(piles, src)
        if c < 0:
            return n
        n = rules.add_foundation_moves(piles, out, n, src, c, FOUND1, FOUND8, IN_SUIT)
        lid = is_lid(src)
        for b in range(BODY1, BODY8 + 1):
            if b != src and self._body_takes(b, c, lid):
                out[n] = src << 16 | b << 8
                n += 1
        if src < RES1:
            n = rules.add_moves_to_empty(piles, out, n, src, RES1, RES3)
        return n

    def _body_takes(self, b, c, from_lid):
        """Body piles build down in suit; an empty one takes any card except a lid's."""
        if self.piles.size[b] == 0:
            return not from_lid
        return rules.down_in_suit_takes(self.piles, b, c)

    def _apply(self, move):
        if move == DRAW_MOVE:
            self.move_top(STOCK, WASTE)
            return
        src = move >> 16
        self.move_top(src, (move >> 8) & 0xFF)
        if is_lid(src) and self.piles.size[JEWELS] > 0:
            self.move_top(JEWELS, src)  # the emptied lid is refilled at once

    def _has_move(self):
        piles = self.piles
        if rules.may_draw(piles, STOCK, WASTE):
            return True
        if rules.first_empty(piles, RES1, RES3) >= 0:
            # a reserve takes any card of the waste, a lid or a body pile
            if piles.size[WASTE] > 0 or rules.cards_in(piles, LID1, BODY8) > 0:
                return True
        return self._generate(self.probe) > 0

    def _compute_status(self):
        return rules.patience_status(self.piles, FOUND1, FOUND8, 104, self._has_move())

    # --- advice ---

    def hint(self):
        """A greedy choice: foundation plays (lids first, each refill opens the casket);
        lid cards onto body piles; the waste and reserves onto body piles; the waste into an
        empty body pile or a reserve; draw; a lid card into a reserve; a lone body card onto
        another body (freeing a column); else the first legal move."""
        if self.vars[V_STATUS] != PLAYING:
            return -1
        piles = self.piles
        for src in range(LID1, RES3 + 1):
            m = self._to_foundation(src)
            if m >= 0:
                return m
        m = self._to_foundation(WASTE)
        if m >= 0:
            return m
        for src in range(LID1, LID5 + 1):
            m = self._to_built_body(src)
            if m >= 0:
                return m
        m = self._to_built_body(WASTE)
        if m >= 0:
            return m
        for src in range(RES1, RES3 + 1):
            m = self._to_built_body(src)
            if m >= 0:
                return m
        if piles.size[WASTE] > 0:
            b = rules.first_empty(piles, BODY1, BODY8)
            if b >= 0:
                return WASTE << 16 | b << 8
            r = rules.first_empty(piles, RES1, RES3)
            if r >= 0:
                return WASTE << 16 | r << 8
        if rules.may_draw(piles, STOCK, WASTE):
            return DRAW_MOVE
        r = rules.first_empty(piles, RES1, RES3)
        if r >= 0:
            for src in range(LID1, LID5 + 1):
                if piles.size[src] > 0:
                    return src << 16 | r << 8
        for src in range(BODY1, BODY8 + 1):
            if piles.size[src] == 1:
                m = self._to_built_body(src)
                if m >= 0:
                    return m
        if self.legal_moves(self.scratch) > 0:
            return self.scratch[0]
        return -1

    def _to_foundation(self, src):
        c = rules.top(self.piles, src)
        if c >= 0:
            for f in range(FOUND1, FOUND8 + 1):
                if rules.foundation_takes(self.piles, f, c, IN_SUIT):
                    return src << 16 | f << 8
        return -1

    def _to_built_body(self, src):
        """src onto a non-empty body pile, or -1."""
        c = rules.top(self.piles, src)
        if c >= 0:
            for b in range(BODY1, BODY8 + 1):
                if b != src and rules.down_in_suit_takes(self.piles, b, c):
                    return src << 16 | b << 8
        return -1

    # --- for the protocol ---

    def explain(self, move):
        reason = Game.explain(self, move)
        if reason:
            return reason
        piles = self.piles
        names = self.pile_names
        if move == DRAW_MOVE:
            if piles.size[WASTE] > 0:
                return "the waste card must be placed before the next draw"
            return "the stock is empty and there is no redeal"
        src = move >> 16
        dst = (move >> 8) & 0xFF
        if FOUND1 <= src <= FOUND8:
            return "cards never leave a foundation"
        if src == JEWELS:
            return "the top jewel is shown but never played directly"
        if src == STOCK:
            return "stock cards are turned onto the waste by 'draw'"
        if src == dst:
            return "a card cannot move onto its own pile"
        if is_lid(dst):
            return "lids accept no cards"
        if dst == STOCK or dst == WASTE or dst == JEWELS:
            return "cards go to a foundation, a body pile or a reserve"
        if piles.size[src] == 0:
            return names[src] + " is empty"
        c = rules.top(piles, src)
        if RES1 <= dst <= RES3:
            if RES1 <= src <= RES3:
                return "cards never move from one reserve to another"
            return names[dst] + " already holds a card (a reserve holds one)"
        if FOUND1 <= dst <= FOUND8:
            if piles.size[dst] == 0:
                return "a foundation starts with an Ace, not " + cards.name(c)
            return (cards.name(c) + " is not next on " + names[dst]
                    + ": foundations build up in suit to the King")
        if piles.size[dst] == 0:
            return "a lid card may not head an empty body pile"
        return ("body piles build down in suit: " + cards.name(c) + " does not go on "
                + cards.name(rules.top(piles, dst)))

    def check_position(self):
        piles = self.piles
        names = self.pile_names
        if piles.size[STOCK] > DEALT_STOCK:
            return "the stock holds at most 77 cards after the deal"
        for f in range(FOUND1, FOUND8 + 1):
            reason = rules.foundation_error(piles, f, names[f], IN_SUIT)
            if reason:
                return reason
        for b in range(BODY1, BODY8 + 1):
            reason = rules.descending_in_suit_error(piles, b, names[b])
            if reason:
                return reason
        if piles.size[JEWELS] > 0:
            for p in range(LID1, LID5 + 1):
                if piles.size[p] == 0:
                    return names[p] + " is empty while jewels remain: an emptied lid is refilled at once"
        return ""
