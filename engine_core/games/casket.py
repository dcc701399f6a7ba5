"""Casket Solitaire, rule profiles 2 (the default) and 1 (docs/rules/casket.md).

Two decks. Thirteen jewels lie under five lids; eight body piles build down in suit; three
reserves stack any number of cards, only the top one available (profile 1: one card each);
eight foundations build up in suit from the Ace. An emptied lid is refilled at once from the
jewels (the same move, undone with it) until the jewels are gone; lids accept no cards, and a
lid card may not head an empty body pile. Draw turns one stock card onto the waste, only once
the waste card is placed; no redeal.
"""

from array import array

from engine_core import PLAYING
from engine_core import cards
from engine_core import reasons as why
from engine_core import rules
from engine_core.game import FACE_DOWN, TOP_UP, V_STATUS, Game
from engine_core.games.casket_layout import LAYOUT  # noqa: F401 (beside the game: games.layout reads it here)
from engine_core.rules import IN_SUIT, KIND_OF, RANK_OF, WANT_ACE, WANT_ANY, WANT_NONE

from micropython import const

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

# engine_core/reasons.py's codes that Casket words its own way, as this module's constants
# (so that WORDS is a constant the frozen firmware keeps in flash; tests/test_reasons.py holds
# them equal to reasons.py's).
WHY_NOT_THERE = const(8)
WHY_FOUND_NEXT = const(10)

# The reasons in Casket's words: (code, screen words, protocol words); None: the shared ones.
WORDS = (
    (WHY_NOT_THERE, None, "cards go to a foundation, a body pile or a reserve"),
    (WHY_FOUND_NEXT, None, "{card} is not next on {dst}: foundations build up in suit to the King"),
)


def is_lid(p):
    return LID1 <= p <= LID5


class Casket(Game):
    NAME = "casket"
    RULES_VERSION = 2  # reserves stack without limit; profile 1 holds one card in each
    RULES_PROFILES = (1, 2)
    DECKS = 2
    # 17 sources (waste, 3 reserves, 5 lids, 8 bodies), each to at most 8 foundations
    # (an Ace), 8 body piles and 3 reserves, plus draw: a loose bound, 1.3 KB of ints.
    MAX_MOVES = 17 * 19 + 1
    # Two or three entries a move: undo reaches back some 620 moves. 192 fewer than the default
    # pay for the profile-2 reserves (3 x 104 card slots) and the table's slide and redo, keeping
    # the app under 64 KB of heap at 320x240 (tests/test_ui_micropython.py).
    JOURNAL_SIZE = 1856
    ACTIONS = ("draw",)
    WORDS = WORDS

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
            self.add_pile("res" + str(i + 1), 104)  # profile 2: a stack of any size
        for i in range(8):
            self.add_pile("found" + str(i + 1), 13)
        self.end_piles()
        # the status check stops at the first target with a move: 17 sources at most
        self.probe = array("i", [0] * 17)
        # The exposed cards by kind: holder[k] and holder2[k] are the piles whose top card is
        # of kind k (two decks: at most two), 0 for none. Kept all zero between calls.
        self.holder = bytearray(52)
        self.holder2 = bytearray(52)
        self.sources = bytearray(17)  # the piles with an exposed card, in pile order
        self.source_kinds = bytearray(17)  # the kind of each one's exposed card
        self.source_count = 0
        self.aces = bytearray(17)  # the piles whose exposed card is an Ace
        self.ace_count = 0
        self.attach_ai()  # hints and auto-play (engine_core/ai/casket.py)

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
        return self._generate(out, self.MAX_MOVES)

    # Moves are found from the targets' side: each foundation and body pile wants one kind
    # (rules.foundation_want, rules.down_in_suit_want), looked up in an index of the exposed
    # cards by kind; only empty piles go through the sources. Pairing every source with
    # every target cost a median 1,086,000 fuel per legal_moves in `make bench`; this costs
    # about 350,000 (the opening position, 52 moves: 1,107,000 -> 454,000).

    def _generate(self, out, limit):
        """Write the legal moves into out; stop early once there are `limit` or more."""
        self._index_sources()
        n = self._moves_to_targets(out, limit)
        self._clear_index()
        if n < limit and rules.may_draw(self.piles, STOCK, WASTE):
            out[n] = DRAW_MOVE
            n += 1
        return n

    def _moves_to_targets(self, out, limit):
        piles = self.piles
        n = 0
        for f in range(FOUND1, FOUND8 + 1):
            want = rules.foundation_want(piles, f, IN_SUIT)
            if want == WANT_ACE:
                n = self._add_aces(out, n, f)
            elif want != WANT_NONE:
                n = self._add_holders(out, n, f, want)
            if n >= limit:
                return n
        for b in range(BODY1, BODY8 + 1):
            want = rules.down_in_suit_want(piles, b)
            if want == WANT_ANY:
                n = self._add_non_lids(out, n, b)  # a lid card may not head it
            elif want != WANT_NONE:
                n = self._add_holders(out, n, b, want)
            if n >= limit:
                return n
        stacked = self.rules != 1
        for r in range(RES1, RES3 + 1):
            if stacked or rules.single_card_takes(piles, r):
                n = self._add_to_reserve(out, n, r)
        return n

    def _index_sources(self):
        """Index the exposed cards of the waste, lids, body piles and reserves by kind."""
        piles = self.piles
        size = piles.size
        start = piles.start
        deck = piles.cards
        holder = self.holder
        sources = self.sources
        kinds = self.source_kinds
        count = 0
        aces = 0
        for p in range(WASTE, RES3 + 1):  # waste, (jewels), lids, body piles, reserves
            n = size[p]
            if n and p != JEWELS:
                k = KIND_OF[deck[start[p] + n - 1]]
                if holder[k] == 0:
                    holder[k] = p
                else:
                    self.holder2[k] = p
                sources[count] = p
                kinds[count] = k
                count += 1
                if RANK_OF[k] == cards.ACE:
                    self.aces[aces] = p
                    aces += 1
        self.source_count = count
        self.ace_count = aces

    def _clear_index(self):
        holder = self.holder
        holder2 = self.holder2
        kinds = self.source_kinds
        for i in range(self.source_count):
            k = kinds[i]
            holder[k] = 0
            holder2[k] = 0

    def _add_holders(self, out, n, dst, want):
        src = self.holder[want]
        if src:
            out[n] = src << 16 | dst << 8
            n += 1
            src = self.holder2[want]
            if src:
                out[n] = src << 16 | dst << 8
                n += 1
        return n

    def _add_to_reserve(self, out, n, dst):
        """Moves to dst from the waste, lids and body piles (not from another reserve)."""
        sources = self.sources
        for i in range(self.source_count):
            src = sources[i]
            if src < RES1:
                out[n] = src << 16 | dst << 8
                n += 1
        return n

    def _add_aces(self, out, n, dst):
        for i in range(self.ace_count):
            out[n] = self.aces[i] << 16 | dst << 8
            n += 1
        return n

    def _add_non_lids(self, out, n, dst):
        """Moves to dst from every source except lids."""
        sources = self.sources
        for i in range(self.source_count):
            src = sources[i]
            if src < LID1 or src > LID5:
                out[n] = src << 16 | dst << 8
                n += 1
        return n

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
        if self.rules != 1 or rules.first_empty(piles, RES1, RES3) >= 0:
            # a reserve takes any card of the waste, a lid or a body pile
            if piles.size[WASTE] > 0 or rules.cards_in(piles, LID1, BODY8) > 0:
                return True
        return self._generate(self.probe, 1) > 0

    def _compute_status(self):
        return rules.patience_status(self.piles, FOUND1, FOUND8, 104, self._has_move())

    # --- advice ---

    def greedy_hint(self):
        """A greedy choice: a foundation play (lid cards first: each refill opens the
        casket); a lid card, else a reserve card, else the waste onto a body pile; the waste
        into an empty body pile or a reserve; draw; a lid card into a reserve; a lone body
        card onto another body pile (freeing a column). Else -1: what remains moves a body
        card onto the other copy of the card below it, or splits a run into an empty body
        pile, which changes what the piles want by nothing, or for the worse."""
        if self.vars[V_STATUS] != PLAYING:
            return -1
        self._index_sources()
        m = self._greedy_move()
        self._clear_index()
        return m

    def _greedy_move(self):
        piles = self.piles
        best = -1
        best_rank = 99
        for f in range(FOUND1, FOUND8 + 1):
            want = rules.foundation_want(piles, f, IN_SUIT)
            if want == WANT_ACE:
                for i in range(self.ace_count):
                    src = self.aces[i]
                    if self._play_rank(src) < best_rank:
                        best = src << 16 | f << 8
                        best_rank = self._play_rank(src)
            elif want != WANT_NONE:
                for j in range(2):
                    src = self._holder(want, j)
                    if src and self._play_rank(src) < best_rank:
                        best = src << 16 | f << 8
                        best_rank = self._play_rank(src)
        if best >= 0:
            return best
        for b in range(BODY1, BODY8 + 1):
            want = rules.down_in_suit_want(piles, b)
            if want != WANT_ANY and want != WANT_NONE:
                for j in range(2):
                    src = self._holder(want, j)
                    if src and not (BODY1 <= src <= BODY8) and self._play_rank(src) < best_rank:
                        best = src << 16 | b << 8
                        best_rank = self._play_rank(src)
        if best >= 0:
            return best
        if piles.size[WASTE] > 0:
            b = rules.first_empty(piles, BODY1, BODY8)
            if b >= 0:
                return WASTE << 16 | b << 8
            r = self._open_reserve()
            if r >= 0:
                return WASTE << 16 | r << 8
        if rules.may_draw(piles, STOCK, WASTE):
            return DRAW_MOVE
        r = self._open_reserve()
        if r >= 0:
            for src in range(LID1, LID5 + 1):
                if piles.size[src] > 0:
                    return src << 16 | r << 8
        for b in range(BODY1, BODY8 + 1):
            want = rules.down_in_suit_want(piles, b)
            if want != WANT_ANY and want != WANT_NONE:
                for j in range(2):
                    src = self._holder(want, j)
                    if src and BODY1 <= src <= BODY8 and piles.size[src] == 1:
                        return src << 16 | b << 8
        return -1

    def _open_reserve(self):
        """The reserve the greedy choice fills: the first empty one, else (profile 2) the
        one holding fewest cards; -1 when none takes a card."""
        piles = self.piles
        r = rules.first_empty(piles, RES1, RES3)
        if r >= 0 or self.rules == 1:
            return r
        r = RES1
        for p in range(RES1 + 1, RES3 + 1):
            if piles.size[p] < piles.size[r]:
                r = p
        return r

    def _holder(self, kind, j):
        """The first (j = 0) or second pile whose exposed card is of this kind, or 0."""
        if j == 0:
            return self.holder[kind]
        return self.holder2[kind]

    def _play_rank(self, src):
        """Which source the hint plays first: lids, then body piles, reserves, the waste."""
        if src == WASTE:
            return 50
        return src

    # --- why a move is illegal, and what a loaded position must satisfy ---

    def refusal(self, move):
        """Why a move is illegal: a code of engine_core/reasons.py (words: WORDS, or shared)."""
        piles = self.piles
        reason = rules.move_refusal_code(self, move, DRAW_MOVE, WASTE, FOUND1, FOUND8, STOCK)
        if reason:
            return reason
        src = move >> 16
        dst = (move >> 8) & 0xFF
        if src == JEWELS:
            return why.JEWEL
        if src == dst:
            return why.OWN_PILE
        if is_lid(dst):
            return why.LID
        if dst == STOCK or dst == WASTE or dst == JEWELS:
            return why.NOT_THERE
        if piles.size[src] == 0:
            return why.EMPTY
        if RES1 <= dst <= RES3:
            if RES1 <= src <= RES3:
                return why.RESERVE_SWAP
            return why.RESERVE_FULL
        if FOUND1 <= dst <= FOUND8:
            return why.FOUND_ACE if piles.size[dst] == 0 else why.FOUND_NEXT
        if piles.size[dst] == 0:
            return why.LID_EMPTY_BODY
        return why.BODY_DOWN

    def check_position(self):
        piles = self.piles
        names = self.pile_names
        for f in range(FOUND1, FOUND8 + 1):
            reason = rules.foundation_error(piles, f, names[f], IN_SUIT)
            if reason:
                return reason
        for b in range(BODY1, BODY8 + 1):
            reason = rules.descending_in_suit_error(piles, b, names[b])
            if reason:
                return reason
        if self.rules == 1:
            for p in range(RES1, RES3 + 1):
                if piles.size[p] > 1:
                    return (names[p] + " holds " + str(piles.size[p])
                            + " cards: a reserve holds one under rules 1")
        if piles.size[JEWELS] > 0:
            for p in range(LID1, LID5 + 1):
                if piles.size[p] == 0:
                    return names[p] + " is empty while jewels remain: an emptied lid is refilled at once"
        return ""


# The rules page (the pause menu's Rules), after the rule profile docs/rules/casket.md.
RULES_PAGE = (
    b"Two decks. Goal: build eight foundations up in suit from ace to king. The waste, "
    b"reserve, lid and body tops may go up (long A sends one to a foundation); cards never "
    b"leave a foundation.\n"
    b"Body piles build down in suit. An empty body pile takes a card from the waste, a "
    b"reserve or another body pile, never from a lid.\n"
    b"Lids take no cards; an emptied lid is refilled from the jewels while jewels remain. "
    b"The top jewel is shown but never played.\n"
    b"Reserves take single cards from the waste, a lid or a body pile, and stack them: "
    b"only the top card of a reserve may move. Under rules 1 (Settings: Casket rules) "
    b"a reserve holds one card.\n"
    b"Draw turns one stock card onto the waste, only once the waste card is placed. "
    b"No redeal. Under rules 1 the game is lost when no move remains; stacked reserves "
    b"always take a card.\n"
    b"Advice: prepare a non-empty body target before you take a lid card, so every jewel "
    b"refill stays usable. Clearing a body pile can block a lid move, since lid cards may "
    b"not head an empty body pile. Once the jewels are out, use the reserves to reorder "
    b"the last same-suit descents before you place the final waste cards."
)
