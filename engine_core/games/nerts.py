"""Nerts (Pounce, Racing Demon), rule profile 1 (docs/rules/nerts.md).

Every player has a deck of their own (deck index = player) and seven piles: pN.nerts,
pN.work1-4, pN.stock, pN.waste; the foundations found1..found{4N} are shared. There are no
turns: legal_moves lists every player's moves, and the computer players act from tick(ms)
(engine_core/ai/nerts_bot.py).

Move codes (engine_core/game.py): src << 16 | dst << 8 | arg, where arg is
  a work-to-work move: the number of cards K moved together;
  a move to a foundation: 0, or 1 + the declared kind of a joker ('>found3=7H');
  a move onto a work pile from the Nerts pile or the waste: 0;
  SLIDE (any source): the card is slid under the destination's base card.
Action words: deal, pN:flip, pN:cycle, pN:nerts.

Reading the position and generating moves: engine_core/games/nerts_moves.py, an object made
here (self.moves, a NertsMoves) whose contract that module's docstring gives; protocol text and
load checks: engine_core/games/nerts_check.py.
The profile choices (being stuck, sliding under, jokers) are described in docs/nerts.md.
"""

from array import array

from engine_core import OVER, PLAYING
from engine_core import cards
from engine_core.game import ACTION, FACE_DOWN, TOP_UP, V_GAME, V_SCORE, V_STATUS, Game
from engine_core.games import nerts_takeback
from engine_core.games.nerts_moves import (
    CALL, DEAL_MOVE, DEFAULT_TARGET, FLIP, JOKER_DECLARED, NERTS, PASS_CAP, PLAYER_MAX_MOVES,
    SLIDE, STOCK, STRIDE, V_JOKER, V_PASS, V_ROUND_OVER, WASTE, WORK1, WORK4, NertsMoves, shift)
from engine_core.games.nerts_refusal import WORDS, refusal
from engine_core.games.nerts_layout import LAYOUT  # noqa: F401 (beside the game: games.layout reads it here)


class Nerts(Game):
    NAME = "nerts"
    RULES_VERSION = 1
    MAX_MOVES = 1484  # 4 * PLAYER_MAX_MOVES; 'deal' only when no other move exists
    PLAYER_MAX_MOVES = PLAYER_MAX_MOVES
    SEAT_MAX_MOVES = PLAYER_MAX_MOVES  # the console asks for p1's moves only (moves_of)
    # A round with four computer players fills 800-1,450 entries (deals 1-8): 1,024 keep the
    # last 250 or so moves, and 4 KB of heap (the app holds under 64 KB at 320x240).
    JOURNAL_SIZE = 1024
    ACTIONS = ("deal", ":flip", ":cycle", ":nerts")
    WORDS = WORDS  # the reasons in Nerts's own words (nerts_refusal.py)
    TURN_BASED = False
    COMPETITIVE = True
    JOKERS = True
    OWNER_SUFFIX = True
    MIN_PLAYERS = 2
    MAX_PLAYERS = 4
    # Who is a computer player, and its levels: settings outside the state, held by the
    # computer players (self.bot, SAVED_IN), that a saved game keeps (engine_core/game_record.py).
    # When it acts and what it draws are worked out from the state itself.
    SAVED = ("computer", "speed", "skill")
    SAVED_IN = "bot"
    SAVED_RANGES = ((0, 1), (0, 4), (0, 3))  # nerts_bot: on or off, len(SPEEDS), SKILLS
    UNDO_BARRIERS = True  # 'deal' (the next round) starts a fresh journal
    UNDO_OWN = True  # the console's undo takes back the player's own move (take_back)
    REPLAY_MAX = 64  # take_back plays again at most this many later moves of the others

    def __init__(self, players=2, options=0):
        Game.__init__(self, players, options)
        from engine_core.games import OPT_JOKERS, OPT_TARGET_SHIFT
        self.DECKS = players
        self.jokers = (options & OPT_JOKERS) != 0
        target = options >> OPT_TARGET_SHIFT
        self.target = target if target > 0 else DEFAULT_TARGET
        self.deck_cards = 54 if self.jokers else 52
        for p in range(players):
            prefix = "p" + str(p + 1) + "."
            self.add_pile(prefix + "nerts", 13, TOP_UP)
            for i in range(4):
                self.add_pile(prefix + "work" + str(i + 1), 13)
            self.add_pile(prefix + "stock", self.deck_cards, FACE_DOWN)
            self.add_pile(prefix + "waste", self.deck_cards)
        self.found0 = STRIDE * players
        self.founds = 4 * players
        for k in range(self.founds):
            self.add_pile("found" + str(k + 1), 13)
        self.end_piles()
        # Reading the position and generating moves, with its own caches (nerts_moves.py).
        self.moves = NertsMoves(self.piles, self.vars, players, self.jokers)
        self.points = array("i", [0] * players)  # count_points
        # take_back: the others' moves to play again, and the piles (by id) that the player's
        # move changed and that the later moves changed.
        self.replay = array("i", [0] * self.REPLAY_MAX)
        self.taken = bytearray(256)
        self.later = bytearray(256)
        self.taken_move = -1
        # The computer players (engine_core/ai/nerts_bot.py's NertsBots, whose docstring gives
        # what the game, the link and the console may ask of them).
        self.bot = self.attach_ai()

    # --- cards of this game ---

    def deck_size(self):
        return self.players * self.deck_cards

    def is_card(self, card):
        if card >= cards.JOKER_BASE:
            return self.jokers and (card - cards.JOKER_BASE) >> 1 < self.players
        return card < self.players * 52

    # --- dealing ---

    def _deal(self):
        piles = self.piles
        buf = piles.cards
        for p in range(self.players):
            stock = p * STRIDE + STOCK
            s = piles.start[stock]
            for c in range(52):  # written, not pushed: a call a card was a third of the deal
                buf[s + c] = p * 52 + c
            n = 52
            if self.jokers:
                buf[s + 52] = cards.joker(p, 0)
                buf[s + 53] = cards.joker(p, 1)
                n = 54
            piles.size[stock] = n
        self._lay_out(False)
        self.moves.forget()

    def _lay_out(self, journal=True):
        """Shuffle each player's stock (their whole deck) and deal Nerts pile and work piles;
        a first deal leaves the shuffle out of the journal (Game.deal clears it after)."""
        piles = self.piles
        for p in range(self.players):
            base = p * STRIDE
            if journal:
                self.shuffle_pile(base + STOCK)
            else:
                self.shuffle_cards(piles.cards, piles.start[base + STOCK], piles.size[base + STOCK])
            self.move_cards(base + STOCK, base + NERTS, 13)
            for w in range(WORK1, WORK4 + 1):
                self.move_top(base + STOCK, base + w)

    def _next_round(self):
        """Every card back to its owner's stock, then a fresh layout (all journaled)."""
        piles = self.piles
        for p in range(self.players):
            base = p * STRIDE
            for i in range(STOCK):
                if piles.size[base + i] > 0:
                    self.move_cards(base + i, base + STOCK, piles.size[base + i])
            if piles.size[base + WASTE] > 0:
                self.move_cards(base + WASTE, base + STOCK, piles.size[base + WASTE])
        for f in range(self.found0, self.found0 + self.founds):
            while piles.size[f] > 0:
                c = self.pop(f)
                self.push(cards.deck(c) * STRIDE + STOCK, c)
        for i in range(V_GAME, V_JOKER + 8):
            if self.vars[i] != 0:
                self.set_var(i, 0)
        self._lay_out()
        self.moves.forget()


    def _end_round(self, how):
        self.count_points()
        for p in range(self.players):
            self.set_var(V_SCORE + p, self.vars[V_SCORE + p] + self.points[p])
        self.set_var(V_ROUND_OVER, how)

    def count_points(self):
        """points[p]: what p's cards are worth now (+1 on a foundation, -2 in the Nerts pile),
        the score a round adds; one pass over the foundations."""
        piles = self.piles
        points = self.points
        for p in range(self.players):
            points[p] = -2 * piles.size[p * STRIDE + NERTS]
        for f in range(self.found0, self.found0 + self.founds):
            s = piles.start[f]
            for i in range(s, s + piles.size[f]):
                c = piles.cards[i]
                if c < cards.JOKER_BASE:
                    points[c // 52] += 1
                else:
                    points[(c - cards.JOKER_BASE) >> 1] += 1

    def round_points(self, p):
        """What p's cards are worth in the current position (for tools and the screen)."""
        self.count_points()
        return self.points[p]

    def can_deal(self):
        """'deal' starts the next round once one is over and nobody has reached the target."""
        if self.vars[V_ROUND_OVER] == 0:
            return False
        return self.leader_score() < self.target

    def leader_score(self):
        best = self.vars[V_SCORE]
        for p in range(1, self.players):
            if self.vars[V_SCORE + p] > best:
                best = self.vars[V_SCORE + p]
        return best

    def _compute_status(self):
        if self.vars[V_ROUND_OVER] != 0:
            return OVER
        return PLAYING

    # --- the moves ---

    def legal_moves(self, out):
        if self.vars[V_STATUS] != PLAYING:
            if self.can_deal():
                out[0] = DEAL_MOVE
                return 1
            return 0
        mv = self.moves
        mv.fill_need()
        n = 0
        for p in range(self.players):
            n = mv.player_moves(p, out, n)
        return n

    def mover(self, move):
        """The player who makes `move`: an action's own player, else the source pile's owner."""
        src = move >> 16
        if src == ACTION:
            return move & 0xFF
        if src >= self.found0:
            return 0  # nothing leaves a foundation: no player's move
        return src // STRIDE

    def moves_of(self, player, out):
        """Only `player`'s moves (the console's player): a quarter of the cost with four."""
        if self.vars[V_STATUS] != PLAYING:
            return self.legal_moves(out)
        mv = self.moves
        mv.fill_need()
        return mv.player_moves(player, out, 0)

    # --- performing moves ---

    def apply(self, move):
        if move == DEAL_MOVE:
            # A round starts with a fresh journal: undo goes back to the start of the round,
            # and a tick never has to forget a whole deal (some 900 entries) from a full one.
            self.history.clear()
            self._next_round()
            self.history.clear()
            self.vars[V_STATUS] = self._compute_status()
            return
        Game.apply(self, move)

    def undo(self):
        self.moves.forget()
        return Game.undo(self)

    def take_back(self, player):
        """Undo `player`'s newest move and leave the others' later moves standing, as at a
        real table: the later moves are undone, then played again without it. Refused, with
        nothing changed, when a later move changed a pile the move changed (a card played
        onto the card it put on a foundation) or is no longer legal without it. Returns
        reasons.NONE when done, else why not; then self.taken_move is the move taken back
        and self.taken marks the piles it changed back (by pile id). No allocation."""
        return nerts_takeback.take_back(self, player)

    def _apply(self, move):
        src = move >> 16
        if src == ACTION:
            action = (move >> 8) & 0xFF
            p = move & 0xFF
            if action == CALL:
                self._end_round(2 + p)
                return
            if action == FLIP:
                self._flip(p)
                stuck = self.moves.flipped(p)
            else:
                self._cycle(p)  # the stock's order is no play: what is known stays
                stuck = self.moves.stuck(p)
            if stuck:
                self._end_round(1)
            return
        dst = (move >> 8) & 0xFF
        arg = move & 0xFF
        p = src // STRIDE
        mv = self.moves
        if dst >= self.found0:
            mv.forget()
            c = self.piles.top(src)
            if c >= cards.JOKER_BASE:
                self.set_var(V_JOKER + c - cards.JOKER_BASE, JOKER_DECLARED + arg - 1)
            self.move_top(src, dst)
            for i in range(self.players):
                if self.vars[V_PASS + i] != 0:
                    self.set_var(V_PASS + i, 0)
        elif arg & SLIDE:
            e = mv.empty_work(p, src)
            self.move_top(src, e)
            n = self.piles.size[dst]
            self._move_run(dst, e, n)
            self.move_cards(e, dst, n + 1)
        elif src % STRIDE == NERTS or src % STRIDE == WASTE:
            self._move_run(src, dst, 1)
        else:
            self._move_run(src, dst, arg)
        if self.vars[V_PASS + p] != 0:
            self.set_var(V_PASS + p, 0)
        if mv.moved(p):  # every player stuck: the round ends
            self._end_round(1)

    def _move_run(self, src, dst, count):
        """Move count cards; free jokers of dst that now have a card on them get fixed."""
        piles = self.piles
        below = piles.size[dst]
        self.move_cards(src, dst, count)
        if not self.jokers or below == 0:
            return
        base = self.moves.run_base(dst, 0)
        if base < 0:
            return
        s = piles.start[dst]
        for i in range(below):
            c = piles.cards[s + i]
            if c >= cards.JOKER_BASE and self.vars[V_JOKER + c - cards.JOKER_BASE] == 0:
                self.set_var(V_JOKER + c - cards.JOKER_BASE, 1 + shift(base, i))

    def _flip(self, p):
        stock = p * STRIDE + STOCK
        waste = stock + 1
        n = self.piles.size[stock]
        if n == 0:  # the waste turned over: its bottom card becomes the stock's top
            n = self.piles.size[waste]
            self.move_cards(waste, stock, n)
            self.reverse_top(stock, n)
            return
        if n > 3:
            n = 3
        self.move_cards(stock, waste, n)  # turned over together: the third card ends on top
        self.reverse_top(waste, n)
        turned = self.vars[V_PASS + p] + n
        self.set_var(V_PASS + p, turned if turned < PASS_CAP else PASS_CAP)

    def _cycle(self, p):
        # The top card goes to the bottom: through the waste, which has room for the whole deck.
        stock = p * STRIDE + STOCK
        waste = stock + 1
        n = self.piles.size[stock]
        self.move_cards(stock, waste, n)
        self.move_cards(waste, stock, 1)
        self.move_cards(waste, stock, n - 1)

    # --- the clock and the computer players ---

    def is_legal(self, move):
        """A flip or a Nerts call is decided from pile sizes, as player_moves offers them (a
        stock flip is the player's most frequent keypress: generating the moves cost it 0.5 M
        fuel); a card's move is looked for among the moves from its pile (moves_from: a
        replayed move cost 0.23 M fuel among all its player's); any other among its player's."""
        if move >> 16 == ACTION:
            if move & 0xFF >= self.players:
                return False  # no such player
            word = (move >> 8) & 0xFF
            if word == FLIP or word == CALL:
                if self.vars[V_STATUS] != PLAYING:
                    return False
                base = (move & 0xFF) * STRIDE
                if word == FLIP:
                    return self.piles.size[base + STOCK] + self.piles.size[base + WASTE] > 0
                return self.piles.size[base + NERTS] == 0
        elif move >> 16 < self.found0:
            if self.vars[V_STATUS] != PLAYING:
                return False
            self.moves.fill_need()
            out = self.scratch
            n = self.moves.moves_from(move >> 16, out)
            for i in range(n):
                if out[i] == move:
                    return True
            return False
        return Game.is_legal(self, move)

    def tick(self, ms):
        self.bot.tick(ms)

    def hint(self, seat=0):
        """The move the strongest computer player would make for `seat` (p1 unless a linked
        table seats the player elsewhere; 'deal' between rounds)."""
        if self.vars[V_STATUS] != PLAYING:
            return DEAL_MOVE if self.can_deal() else -1
        ai = self.AI
        assert ai is not None  # games.load gave the class its computer players' module
        return self.bot.choose(seat, ai.BEST_SKILL, False)

    def set_computer(self, level, speed):
        for p in range(1, self.players):
            self.set_bot(p, speed, level - 1)

    def set_bot(self, player, speed, skill):
        """Make `player` a computer player at a speed and skill level (nerts_bot.SPEEDS,
        SKILLS); speed -1 makes it a player who waits for commands."""
        self.bot.configure(player, speed, skill)

    # --- tokens ---

    def move_token(self, code):
        from engine_core.games.nerts_check import move_token
        return move_token(self, code)

    def parse_move(self, token):
        from engine_core.games.nerts_check import parse_move
        return parse_move(self, token)

    def explain_token(self, token):
        from engine_core.games.nerts_check import explain_token
        return explain_token(self, token)

    def refusal(self, move):
        return refusal(self, move)

    def explain(self, move):
        from engine_core.games.nerts_check import explain
        return explain(self, move)

    # --- load ---

    _check = None  # nerts_check.check_position, imported at the first check

    def check_position(self):
        check = Nerts._check
        if check is None:  # an import in every call allocates; a link checks states in play
            from engine_core.games.nerts_check import check_position as first
            Nerts._check = first  # type: ignore[assignment]  # None until the first check
            return first(self)
        return check(self)

    def after_restore(self):
        """A saved game is back (engine_core/save.py): forget what was derived from the old
        position."""
        self.moves.forget()

    def after_load(self):
        self.moves.forget()
        over = self.vars[V_STATUS] == OVER
        for i in range(V_GAME, V_JOKER + 8):
            self.vars[i] = 0
        from engine_core.games.nerts_check import settle_jokers
        settle_jokers(self)
        if over:
            self.vars[V_ROUND_OVER] = 1
        elif self.moves.stuck(0):
            self._end_round(1)
        Game.after_load(self)


# The rules page (the pause menu's Rules), after the rule profile docs/rules/nerts.md.
RULES_PAGE = (
    b"Everyone plays at once, each with a deck of their own.\n"
    b"Goal: empty your Nerts pile and score points on the shared foundations.\n"
    b"Your piles are the row marked You (Y on the smallest screen); the others' piles carry "
    b"their names (CPU, CPU2, CPU3). On the smallest screen, with two players the computer's "
    b"row is above yours; with three or four yours is the row under the foundations and "
    b"theirs carry C, 2 and 3.\n"
    b"Work piles build down in alternating colours; a run moves together (up and down "
    b"on a work pile choose how many cards). An empty work pile takes the Nerts top, a "
    b"work-pile run or the waste top.\n"
    b"Foundations build up in suit from the ace; any player may add to any foundation "
    b"(long A sends a card to one).\n"
    b"A on your stock turns three cards onto the waste; only its top card plays. When "
    b"you are stuck, A on the stock moves its top card to the bottom.\n"
    b"With your Nerts pile empty, A on it calls Nerts and ends the round. Each player "
    b"scores +1 for each of their cards on the foundations and -2 for each card left in "
    b"their Nerts pile. Rounds go on to the target score (100).\n"
    b"Undo takes back your own last move; the computer's moves since stay (not once it has "
    b"played on the card you moved). Redo puts the move back."
)
