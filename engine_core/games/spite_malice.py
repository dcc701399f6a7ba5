"""Spite & Malice, rule profile 1 (docs/rules/spite_malice.md).

Two players, two decks. Each has a hand of 5, a payoff pile of 20 (only its top card face up)
and four side stacks; three centre stacks in the middle are built ace to queen regardless of
suit, kings wild. A centre stack's value is simply its card count, so a card of rank r fits a
stack holding r cards, and a king fits every stack. The twelfth card completes a stack, which
is shuffled into the stock with the game's generator. A hand-to-side play ends the turn; the
next player then draws up to 5. Emptying the payoff pile wins the game and scores the cards
left in the opponent's; a stock that cannot supply a draw ends the game in a draw. Matches go
to 50 points (the `target` option), `deal` starting each next game.

Undo takes back the last move, the turn-ending one too; with the computer playing p2, its
whole reply goes with it, so that p1 is to move again exactly as before. A game's end and a
deal clear the journal. With bots on (the default) p2 is the computer, at level `bot_level`
(1-3, default 3; see engine_core/ai/spite_malice.py), and plays its whole turn in respond().
"""

from engine_core import OVER, PLAYING
from engine_core import reasons as why
from engine_core.game import FACE_DOWN, SEEK, TOP_UP, V_SCORE, V_STATUS, V_TURN, Game, move_code
from engine_core.games import OPT_TARGET_SHIFT

from engine_core.games.spite_malice_layout import LAYOUT  # noqa: F401 (beside the game: games.layout reads it here)

from micropython import const

STOCK = const(0)
CENTER1 = const(1)  # center1..center3: ids 1..3
HAND = const(4)  # + PLAYER_STRIDE * player
PAYOFF = const(5)
SIDE1 = const(6)  # side1..side4: SIDE1..SIDE1 + 3
PLAYER_STRIDE = const(6)
N_CENTERS = const(3)
N_SIDES = const(4)
HAND_SIZE = const(5)
PAYOFF_SIZE = const(20)
STACK_FULL = const(12)  # ace .. queen
KING = const(12)
DEAL = const(0)  # action index
DEAL_MOVE = const(0xFF0000)  # action_code(DEAL)
DEFAULT_TARGET = const(50)

# engine_core/reasons.py's codes that Spite & Malice words its own way, as this module's
# constants (so that WORDS is a constant the frozen firmware keeps in flash;
# tests/test_reasons.py holds them equal to reasons.py's).
WHY_NOT_THERE = const(8)
WHY_NO_HOME = const(41)

# The reasons in this game's words: (code, screen words, protocol words); None: the shared
# ones. Its piles are the centre stacks (docs/rules/spite_malice.md), not foundations.
WORDS = (
    (WHY_NOT_THERE, None, "cards go onto a centre stack, or from the hand onto a side stack"),
    (WHY_NO_HOME, b"No centre stack takes that card now", "no centre stack takes that card now"),
)


def hand_pile(player):
    return HAND + PLAYER_STRIDE * player


def payoff_pile(player):
    return PAYOFF + PLAYER_STRIDE * player


def side_pile(player, j):
    """Side stack j (0..3) of a player."""
    return SIDE1 + PLAYER_STRIDE * player + j


def owner(p):
    """The player a pile belongs to, or -1 for the stock and the centre stacks."""
    if p < HAND:
        return -1
    return (p - HAND) // PLAYER_STRIDE


class SpiteMalice(Game):
    NAME = "spite_malice"
    RULES_VERSION = 1
    MAX_MOVES = 64  # at most 3 + 12 + 15 plays to the centre and 20 discards at once
    DECKS = 2
    ACTIONS = ("deal",)
    WORDS = WORDS
    TURN_BASED = True
    COMPETITIVE = True
    MIN_PLAYERS = 2
    MAX_PLAYERS = 2
    UNDO_BARRIERS = True  # a game's end and a deal: undo stops there
    STEPS_COMPUTER = True  # the computer's turn is shown a move at a time

    def __init__(self, players=2, options=0):
        Game.__init__(self, players, options)
        self.undone = -1  # (Game.undone: this game's undo sets it)
        self.add_pile("stock", 104, FACE_DOWN)
        for k in range(N_CENTERS):
            self.add_pile("center" + str(k + 1), STACK_FULL)
        for p in range(2):
            name = "p" + str(p + 1)
            self.add_pile(name + ".hand", HAND_SIZE)
            self.add_pile(name + ".payoff", PAYOFF_SIZE, TOP_UP)
            for j in range(N_SIDES):
                self.add_pile(name + ".side" + str(j + 1), 104)
        self.end_piles()
        self.target = options >> OPT_TARGET_SHIFT
        if self.target == 0:
            self.target = DEFAULT_TARGET
        self.barrier = False  # set by a move after which undo must not reach back
        self.bot_level = 3  # the computer's strength, 1 (easy) .. 3 (hard)
        self.bot = self.attach_ai()  # the computer player (engine_core/ai/spite_malice.py)
        self.auto_respond = True  # tick() plays the computer's turn; off when an interface steps it
        self.bot_fresh = True  # the next respond_step() starts the computer's turn
        self.bot_card = 0  # the card the computer's last step moved

    # --- dealing ---

    def _deal(self):
        if self.bot is not None:
            self.bot.work = 0  # (no work toward a move of the last deal's position)
        self.fill_and_shuffle(STOCK)
        self._lay_out()

    def _lay_out(self):
        """Deal payoff piles and hands from the (shuffled) stock; not journaled."""
        piles = self.piles
        for p in range(2):
            piles.move(STOCK, payoff_pile(p), PAYOFF_SIZE)
        for p in range(2):
            piles.move(STOCK, hand_pile(p), HAND_SIZE)

    def _next_game(self):
        """Gather every card into the stock, shuffle it with the game's generator, deal."""
        piles = self.piles
        for p in range(1, piles.count):
            piles.move(p, STOCK, piles.size[p])
        self.shuffle_cards(piles.cards, piles.start[STOCK], piles.size[STOCK])
        self._lay_out()
        self.vars[V_STATUS] = PLAYING  # the player who lost the last game is already in V_TURN

    # --- rules ---

    def match_over(self):
        return self.vars[V_SCORE] >= self.target or self.vars[V_SCORE + 1] >= self.target

    def legal_moves(self, out):
        if self.vars[V_STATUS] != PLAYING:
            if self.match_over():
                return 0
            out[0] = DEAL_MOVE
            return 1
        piles = self.piles
        size = piles.size
        player = self.vars[V_TURN]
        hand = hand_pile(player)
        payoff = payoff_pile(player)
        side = side_pile(player, 0)
        n = 0
        for src in range(payoff, side + N_SIDES):  # the payoff pile, then the side stacks
            c = piles.top(src)
            if c >= 0:
                r = c % 13
                for center in range(CENTER1, CENTER1 + N_CENTERS):
                    if r == size[center] or r == KING:
                        out[n] = move_code(src, center)
                        n += 1
        hs = piles.start[hand]
        for i in range(size[hand]):
            if self._first_of_kind(hs, i):
                c = piles.cards[hs + i]
                r = c % 13
                kind = c % 52
                for center in range(CENTER1, CENTER1 + N_CENTERS):
                    if r == size[center] or r == KING:
                        out[n] = move_code(hand, center, kind)
                        n += 1
                for s in range(side, side + N_SIDES):
                    out[n] = move_code(hand, s, kind)
                    n += 1
        return n

    def _first_of_kind(self, start, i):
        """True unless a card below index i of the hand is of the same kind (two decks)."""
        cards_ = self.piles.cards
        kind = cards_[start + i] % 52
        for k in range(i):
            if cards_[start + k] % 52 == kind:
                return False
        return True

    def _hand_index(self, hand, kind):
        """Index in the hand of a card of this kind, or -1."""
        piles = self.piles
        s = piles.start[hand]
        for i in range(piles.size[hand]):
            if piles.cards[s + i] % 52 == kind:
                return i
        return -1

    def _apply(self, move):
        if move == DEAL_MOVE:
            self._next_game()
            self.barrier = True
            return
        src = move >> 16
        dst = (move >> 8) & 0xFF
        player = self.vars[V_TURN]
        hand = hand_pile(player)
        if src == hand:
            card = self.remove_at(hand, self._hand_index(hand, move & 0xFF))
            self.push(dst, card)
        else:
            self.move_top(src, dst)
        if dst >= HAND:  # a discard onto a side stack: the turn passes
            self._end_turn(player)
            return
        # A completed stack goes into the stock first, even when its queen is the winning
        # payoff card: a complete stack never stays on the table (load refuses one).
        if self.piles.size[dst] == STACK_FULL:
            self.move_cards(dst, STOCK, STACK_FULL)
            self.shuffle_pile(STOCK)
        if src == payoff_pile(player) and self.piles.size[src] == 0:
            self._win(player)
            return
        if src == hand and self.piles.size[hand] == 0:
            self._draw(player)

    def _draw(self, player):
        """Fill the player's hand to 5 from the stock; a stock too short ends the game drawn."""
        hand = hand_pile(player)
        need = HAND_SIZE - self.piles.size[hand]
        if need == 0:
            return
        if self.piles.size[STOCK] < need:
            self.set_var(V_STATUS, OVER)
            self.barrier = True
            return
        self.move_cards(STOCK, hand, need)

    def _end_turn(self, player):
        other = 1 - player
        self.set_var(V_TURN, other)
        self._draw(other)

    def _win(self, player):
        other = 1 - player
        self.set_var(V_SCORE + player, self.vars[V_SCORE + player] + self.piles.size[payoff_pile(other)])
        self.set_var(V_STATUS, OVER)
        self.set_var(V_TURN, other)  # the loser starts the next game
        self.barrier = True

    def _compute_status(self):
        return self.vars[V_STATUS]  # set by the moves themselves (win, draw, deal)

    def apply(self, move):
        """Perform a legal move; after a game's end or a deal, undo stops here."""
        Game.apply(self, move)
        if self.barrier:
            self.barrier = False
            self.history.clear()

    def can_undo(self):
        """Whether undo() takes anything back: not when the journal holds only the computer's
        reply, without p1's move that led to it (the computer opened the game, or a long
        game's journal forgot that move)."""
        if self.bots and self.history.find_var_change(V_TURN, 1, True) >= 0:
            # the last move handed the turn back to p1: the computer's reply
            if self.history.find_var_change(V_TURN, 0, False) < 0:
                return False  # p1's move that led to it is not in the journal
        return Game.can_undo(self)

    def undo(self):
        """Take back the last move. With bots on, p2's moves are the computer's reply: they go
        back too, down to p1's own move, so that p1 is to move in the position it left. When
        that move is not in the journal, there is nothing to undo (can_undo)."""
        if not self.can_undo():
            return False
        self.undone = self.history.last_move()
        if not Game.undo(self):
            return False
        while self.bots and self.vars[V_TURN] == 1:
            move = self.history.last_move()
            if not Game.undo(self):
                break
            self.undone = move  # p1's own move, taken back last: what a redo plays again
        return True

    # --- the computer player ---

    def computer_to_move(self):
        return self.bots and self.vars[V_STATUS] == PLAYING and self.vars[V_TURN] == 1

    def set_computer(self, level, speed):
        self.bot_level = level  # the speed setting is for Nerts: a turn here is shown at one pace

    def respond_step(self):
        """One move of the computer's turn (as respond() would play it), for an interface that
        shows the turn move by move; the move, or -1 when the computer is not to move. The
        card it moved is in bot_card. No allocation."""
        if not self.computer_to_move():
            self.bot_fresh = True
            return -1
        piles = self.piles
        # The card about to move: named by the move for a hand card, else a pile's top.
        hand = hand_pile(1)
        fresh = self.bot_fresh
        self.bot_fresh = False
        move = self.bot.step_move(self, self.bot_level, fresh)
        src = move >> 16
        self.bot_card = move & 0xFF if src == hand else piles.top(src) % 52
        self.apply(move)
        if not self.computer_to_move():
            self.bot_fresh = True
        return move

    def respond(self):
        """With bots on, p2 plays its whole turn (and every turn it gets in a row)."""
        self.bot_fresh = True
        while self.bots and self.vars[V_STATUS] == PLAYING and self.vars[V_TURN] == 1:
            self.bot.play_turn(self, self.bot_level)

    def tick(self, ms):
        Game.tick(self, ms)
        if self.bots and self.auto_respond:
            self.respond()

    def hint(self):
        """The first move of the strongest computer player's plan for the player to move."""
        if self.vars[V_STATUS] != PLAYING:
            if self.match_over():
                return -1
            return DEAL_MOVE
        return self.bot.choose(self, 3)

    def quick_hint(self):
        """In play the hint is a search (its sampling alone about 10 ms on an RP2040): SEEK."""
        if self.vars[V_STATUS] != PLAYING:
            return self.hint()
        return SEEK

    def refusal(self, move):
        """Why a move is illegal: a code of engine_core/reasons.py (words: WORDS, or shared)."""
        if move == DEAL_MOVE:
            return why.GAME_ON if self.vars[V_STATUS] == PLAYING else why.MATCH_OVER
        if self.vars[V_STATUS] != PLAYING:
            return why.OVER
        piles = self.piles
        src = move >> 16
        dst = (move >> 8) & 0xFF
        player = self.vars[V_TURN]
        who = owner(src)
        if who < 0:
            return why.FROM_HAND
        if who != player:
            return why.NOT_YOUR_TURN
        if owner(dst) >= 0 and owner(dst) != player:
            return why.YOUR_PILES
        if dst == STOCK or dst == hand_pile(player) or dst == payoff_pile(player):
            return why.NOT_THERE
        if src != hand_pile(player) and dst >= HAND:
            return why.PAYOFF_CENTRE if src == payoff_pile(player) else why.SIDE_SWAP
        if src == hand_pile(player):
            if self._hand_index(src, move & 0xFF) < 0:
                return why.NOT_IN_HAND
        elif piles.size[src] == 0:
            return why.EMPTY
        return why.NO_FIT

    def moved_card(self, move):
        src = move >> 16
        if owner(src) >= 0 and src == hand_pile(owner(src)):
            return self.piles.card(src, self._hand_index(src, move & 0xFF))
        return self.piles.top(src)

    # --- for the protocol (spite_malice_text.py): 'pN.hand:CARD>DST' names a hand card ---

    def move_token(self, code):
        from engine_core.games.spite_malice_text import move_token
        return move_token(self, code)

    def parse_move(self, token):
        from engine_core.games.spite_malice_text import parse_move
        return parse_move(self, token)

    def explain_token(self, token):
        from engine_core.games.spite_malice_text import explain_token
        return explain_token(self, token)

    def explain(self, move):
        from engine_core.games.spite_malice_text import explain
        return explain(self, move)

    _check = None  # spite_malice_text.check_position, imported at the first check

    def check_position(self):
        check = SpiteMalice._check
        if check is None:  # an import in every call allocates; a link checks states in play
            from engine_core.games.spite_malice_text import check_position as first
            SpiteMalice._check = first  # type: ignore[assignment]  # None until the first check
            return first(self)
        return check(self)


# The rules page (the pause menu's Rules), after the rule profile docs/rules/spite_malice.md.
RULES_PAGE = (
    b"Two players, two decks. Goal: be first to empty your payoff pile.\n"
    b"Centre stacks build up from ace to queen regardless of suit. Kings are wild: a "
    b"king counts as the card that fits. A finished stack is shuffled into the stock.\n"
    b"On your turn, play the top of your payoff pile, a side stack top or a hand card onto "
    b"the centre, as often as you can (long A plays a card to a centre stack). Play your "
    b"whole hand and you draw five more.\n"
    b"End your turn by placing a hand card on one of your four side stacks. Side stack "
    b"cards only go to the centre.\n"
    b"Your hand is refilled to five at the start of your turn. Player 1 starts the "
    b"first game; the loser of a game starts the next.\n"
    b"The winner scores the cards left in the other payoff pile; a stock that runs dry "
    b"ends the game drawn. First to 50 points wins the match."
)
