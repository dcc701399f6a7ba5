"""What every game shares: piles, journaled changes, undo, status, seeds and move codes.

A game subclass declares its piles in __init__ (add_pile), then implements
  _deal()               lay out a fresh game (the full deck is in piles via fill_and_shuffle)
  legal_moves(out)      write move codes into out, return how many
  _apply(move)          perform a legal move through the journaled methods below
  _compute_status()     PLAYING, WON, LOST or OVER for the current position
Everything a move changes goes through push/pop/move_cards/remove_at/reverse_top/set_var, which record
what undo needs in the History; so undo is exact for every game, random state included.

Move codes (below 2**24 so that the journal can hold them):
  src << 16 | dst << 8 | arg      a pile-to-pile move; arg is game-specific (a count, a card kind)
  ACTION << 16 | action << 8 | player   an action word ('deal', 'draw', 'p2:flip', ...)
"""

from array import array

from engine_core import PLAYING
from engine_core import cards
from engine_core import history as h
from engine_core import reasons as why
from engine_core import rng
from engine_core.piles import Piles

from micropython import const

ACTION = const(255)  # the src field of an action-word move code
SEEK = const(-2)  # quick_hint(): the hint needs a search that may take longer than a frame

# Face policy of a pile, for the state's '#' marks and for what a player may see.
FACE_UP = const(0)
FACE_DOWN = const(1)
TOP_UP = const(2)  # face down except the top card

# Shared variable slots (games add their own from V_GAME on).
V_STATUS = const(0)
V_RNG = const(1)
V_TURN = const(2)  # index of the player to move (turn-based games)
V_SCORE = const(3)  # V_SCORE + player: match or game totals (up to 4 players)
V_GAME = const(7)
N_VARS = const(24)
# The generator that dealt the game (rng.LEHMER, rng.COMBINED or rng.SPECTRAL; a game from an
# older build says 0, LEHMER) and the second stream of the two-stream ones. Games' own slots stay below V_RNG2.
V_RNG2 = const(22)
V_DEALER = const(23)

HISTORY_SIZE = const(2048)


def move_code(src, dst, arg=0):
    return src << 16 | dst << 8 | arg


def action_code(action, player=0):
    return ACTION << 16 | action << 8 | player


def move_src(code):
    return code >> 16


def move_dst(code):
    return (code >> 8) & 0xFF


def move_arg(code):
    return code & 0xFF


def parse_player(text, players):
    """0 for 'p1' .. players - 1; -1 for anything else."""
    if len(text) == 2 and text[0] == "p" and "1" <= text[1] <= "9":
        n = ord(text[1]) - ord("1")
        if n < players:
            return n
    return -1


class Game:
    NAME = ""
    RULES_VERSION = 1  # the rule profile a new game plays
    RULES_PROFILES = (1,)  # type: tuple  # every profile the game can play (new GAME rules=N, load, saves)
    MAX_MOVES = 64
    # The most moves moves_of() can return for one player, where that is fewer than MAX_MOVES
    # (Nerts: everyone plays at once, and the console only ever asks for its own player's).
    # The game's scratch array and the table's move array are this big.
    SEAT_MAX_MOVES = 0  # 0: MAX_MOVES
    JOURNAL_SIZE = HISTORY_SIZE  # undo journal entries; a longer game forgets its oldest moves
    DECKS = 1
    ACTIONS = ()  # type: tuple  # action words, by action index; ':flip' is a player's own ('p2:flip')
    WORDS = ()  # type: tuple  # the game's own words for reasons (engine_core/reasons.py)
    TURN_BASED = False
    COMPETITIVE = False  # keeps a score per player (and plays to a target score)
    JOKERS = False  # jokers are an option (new GAME jokers=1)
    OWNER_SUFFIX = False  # card names carry their owner's number ('7H2')
    MIN_PLAYERS = 1
    MAX_PLAYERS = 1
    UNDO_BARRIERS = False  # some moves end what undo can reach (a game's end in Spite & Malice)
    UNDO_OWN = False  # the console's undo takes back the player's own newest move (take_back)
    STEPS_COMPUTER = False  # the computer's turn is shown a move at a time (respond_step)
    AI = None  # its advisor and computer players' module (engine_core/ai): games.load sets it
    SAVED = ()  # type: tuple  # attributes beyond piles and vars a saved game keeps (engine_core/save.py)
    SAVED_RANGES = ()  # type: tuple  # (lowest, highest) of each SAVED attribute's values (game_record.py)

    def __init__(self, players=1, options=0):
        self.players = players
        self.options = options
        self.rules = self.RULES_VERSION  # the rule profile in play (set_rules)
        self.pile_names = []
        self.pile_faces = bytearray(0)  # each pile's face policy, by id (end_piles)
        self._faces = []
        self._caps = []
        self.vars = array("i", [0] * N_VARS)
        self.history = h.History(self.JOURNAL_SIZE)
        self.seed = 0
        self.clock_ms = 0
        self.bots = True
        self.advisor = None  # a game's hint and auto-play advisor, set by its __init__
        self.autoplay = False  # make safe moves after each move (auto_play)
        self.scratch = array("i", [0] * self.seat_max_moves())

    # --- declaring piles (start-up only) ---

    def add_pile(self, name, capacity, face=FACE_UP):
        self.pile_names.append(name)
        self._caps.append(capacity)
        self._faces.append(face)
        return len(self.pile_names) - 1

    def end_piles(self):
        """Allocate the arena once every pile is declared."""
        self.piles = Piles(self._caps)
        self.pile_faces = bytearray(self._faces)
        del self._caps  # start-up lists, done with: dropped whole, so nothing of them stays
        del self._faces  # in the heap between the game's long-lived objects

    def pile_id(self, name):
        """The id of a pile named as the rule profile says, or -1."""
        for i in range(len(self.pile_names)):
            if self.pile_names[i] == name:
                return i
        return -1

    def deck_size(self):
        """How many cards the game uses (every id below it that is_card accepts)."""
        return self.DECKS * 52

    def is_card(self, card):
        """True for every card id this game deals."""
        return card < self.DECKS * 52

    # --- journaled changes ---

    def push(self, p, card):
        self.history.note_push(p, card)
        self.piles.push(p, card)

    def pop(self, p):
        card = self.piles.pop(p)
        self.history.note_pop(p, card)
        return card

    def move_cards(self, src, dst, count):
        self.history.note_move(src, dst, count)
        self.piles.move(src, dst, count)

    def move_top(self, src, dst):
        self.move_cards(src, dst, 1)

    def remove_at(self, p, i):
        card = self.piles.remove_at(p, i)
        self.history.note_remove(p, i, card)
        return card

    def reverse_top(self, p, count):
        """Turn the top `count` cards of pile p over as one packet (a stock turned onto the
        waste, a waste turned over): one journal entry however many cards."""
        self.history.note_reverse(p, count)
        self.piles.reverse(p, count)

    def set_var(self, i, value):
        self.history.note_var(i, self.vars[i])
        self.vars[i] = value

    def random_below(self, n):
        """A journaled random number 0 <= r < n from the game's generator."""
        v = self.vars
        if v[V_DEALER] == rng.LEHMER:
            x = rng.step(v[V_RNG])
            self.set_var(V_RNG, x)
            return x % n
        self.history.note_var(V_RNG, v[V_RNG])
        self.history.note_var(V_RNG2, v[V_RNG2])
        return rng.advance(v, V_RNG, V_RNG2, v[V_DEALER]) % n

    def shuffle_pile(self, p):
        """Shuffle pile p in place with the game's generator (journaled as a pile restore)."""
        piles = self.piles
        n = piles.size[p]
        s = piles.start[p]
        for i in range(n):  # undo pops these back in reverse, then pushes the old order
            self.history.note_pop(p, piles.cards[s + n - 1 - i])
        x1 = self.vars[V_RNG]
        x2 = self.vars[V_RNG2]
        self.shuffle_cards(piles.cards, s, n)
        for i in range(n):
            self.history.note_push(p, piles.cards[s + i])
        self.history.note_var(V_RNG, x1)  # the states' old values, as set_var keeps them
        if self.vars[V_DEALER] != rng.LEHMER:
            self.history.note_var(V_RNG2, x2)

    def shuffle_cards(self, buf, start, count):
        """Shuffle buf[start:start+count] with the game's generator, its state in vars (not
        journaled: shuffle_pile journals it)."""
        v = self.vars
        if v[V_DEALER] == rng.LEHMER:
            v[V_RNG] = rng.shuffle(buf, start, count, v[V_RNG])
        else:
            rng.shuffle2(buf, start, count, v, V_RNG, V_RNG2, v[V_DEALER])

    # --- the game interface ---

    def set_rules(self, version):
        """Play rule profile `version` from the next deal, load or restore on (one of
        RULES_PROFILES; ValueError for any other). No allocation.

        >>> game.set_rules(1); game.deal(7)
        """
        for v in self.RULES_PROFILES:
            if v == version:
                self.rules = version
                return
        raise ValueError("no such rule profile")

    def deal(self, seed, generator=rng.SPECTRAL):
        """A new game from `seed` (0 <= seed < 2**30), dealt by `generator` (rng.LEHMER,
        rng.COMBINED: as builds before dealt it). No allocation."""
        self.seed = seed
        self.clock_ms = 0
        self.history.clear()
        self.piles.clear()
        for i in range(N_VARS):
            self.vars[i] = 0
        self.vars[V_DEALER] = generator
        if generator == rng.LEHMER:
            self.vars[V_RNG] = rng.seed_state(seed)
        else:
            rng.seed_states(seed, self.vars, V_RNG, V_RNG2)
        self._deal()
        self.history.clear()
        self.vars[V_STATUS] = self._compute_status()

    def fill_and_shuffle(self, p):
        """Put every card of the game into pile p in id order, then shuffle it (not journaled)."""
        piles = self.piles
        n = self.deck_size()
        buf = piles.cards
        start = piles.start[p]
        k = piles.size[p]
        if k == 0 and n <= cards.JOKER_BASE and self.is_card(n - 1):
            for c in range(n):  # ids 0 .. n - 1 (is_card takes every id below a bound), no call a card
                buf[start + c] = c
            k = n
        c = 0
        while k < n:
            if self.is_card(c):
                buf[start + k] = c
                k += 1
            c += 1
        piles.size[p] = n
        self.shuffle_cards(buf, start, n)

    def apply(self, move):
        """Perform a legal move (trusted: check with is_legal first). No allocation."""
        self.history.begin(move)
        self._apply(move)
        status = self._compute_status()
        if status != self.vars[V_STATUS]:
            self.set_var(V_STATUS, status)

    # The move undo() took back last where it takes back more than one (Spite & Malice's takes
    # the computer's reply back with the move that led to it, and sets its own): what a redo
    # plays again (the protocol's). -1 where undo() takes back the newest move alone.
    undone = -1

    def undo(self):
        """Revert the last move; False when there is nothing to undo. No allocation."""
        return self.history.revert_move(self.piles, self.vars)

    def can_undo(self):
        return self.history.moves > 0

    def status(self):
        return self.vars[V_STATUS]

    def moves_of(self, player, out):
        """The legal moves the player at this console may make: all of legal_moves, except in
        games where everyone plays at once (Nerts overrides it to skip the other players'
        moves, most of the cost). No allocation."""
        return self.legal_moves(out)

    def seat_max_moves(self):
        """How big an array moves_of() needs (see SEAT_MAX_MOVES)."""
        return self.SEAT_MAX_MOVES or self.MAX_MOVES

    def mover(self, move):
        """The player who makes `move` (games where everyone plays at once override it)."""
        return 0

    def is_legal(self, move):
        """True when `move` is among the legal moves of the player who makes it (uses the
        game's scratch array)."""
        n = self.moves_of(self.mover(move), self.scratch)
        for i in range(n):
            if self.scratch[i] == move:
                return True
        return False

    def turn(self):
        """The player to move (0-based) in turn-based games, else -1."""
        if self.TURN_BASED:
            return self.vars[V_TURN]
        return -1

    def score(self, player):
        return self.vars[V_SCORE + player]

    def tick(self, ms):
        """Advance the game clock; computer players act here in games that have them."""
        self.advance_clock(ms)

    def advance_clock(self, ms):
        """clock_ms += ms (0 <= ms < 2**30), wrapping at 2**30 (12 days): every value stays
        a small int on MicroPython, where 2**30 and the sum of two big clocks would be boxed."""
        room = 0x3FFFFFFF - self.clock_ms
        if ms > room:
            self.clock_ms = ms - room - 1
        else:
            self.clock_ms += ms

    def respond(self):
        """Let computer players whose turn it is act now (when self.bots is on).

        The protocol calls this after every accepted move and after 'bots on'; turn-based
        games with a computer opponent override it. No allocation.
        """

    def hint(self):
        """A recommended legal move code, or -1 when there is none.

        A game with an advisor (engine_core/ai/: hint, safe_move, finish_move) asks it.
        """
        if self.advisor is not None:
            return self.advisor.hint()
        if self.vars[V_STATUS] != PLAYING:
            return -1
        if self.moves_of(0, self.scratch) > 0:
            return self.scratch[0]
        return -1

    def quick_hint(self):
        """hint() where it is found at little cost, else SEEK: the hint needs a search that may
        outlast a frame, and the interface says so before it seeks it (Table.press_hint)."""
        if self.advisor is not None:
            return self.advisor.quick_hint()
        return self.hint()

    def safe_move(self):
        """A move auto-play may make now: one no remaining card could ever need undone, or -1.

        The patience games' advisors know them (foundation moves; Aces Up's discards).
        No allocation.
        """
        if self.advisor is not None:
            return self.advisor.safe_move()
        return -1

    def finish_move(self):
        """The next move of a win that is certain from here (the 'finish' action), or -1."""
        if self.advisor is not None:
            return self.advisor.finish_move()
        return -1

    def auto_play(self):
        """Make safe moves while there are any; returns how many. Each is an ordinary move in
        the journal, so undo takes them back one at a time. No allocation."""
        count = 0
        m = self.safe_move()
        while m >= 0:
            self.apply(m)
            count += 1
            m = self.safe_move()
        return count

    def finish(self):
        """Play a certain win to its end; returns the moves made (0: the game is not clearly
        won). Each move is journaled like any other. No allocation."""
        count = 0
        m = self.finish_move()
        while m >= 0:
            self.apply(m)
            count += 1
            m = self.finish_move()
        return count

    def check_position(self):
        """'' when the position could arise in play, else why not (used by `load`)."""
        return ""

    def after_load(self):
        """Recompute derived state after the piles and variables were replaced by `load`."""
        self.history.clear()
        self.vars[V_STATUS] = self._compute_status()

    def attach_ai(self):
        """Give the game its advisor and computer players (the AI module's attach(game));
        returns what attach returns (Spite & Malice's computer player). The module comes from
        the registry through games.load: make games that way."""
        ai = self.AI
        if ai is None:
            raise TypeError(self.NAME + ": make the game with engine_core.games.load(name)")
        return ai.attach(self)

    def after_restore(self):
        """Rebuild what the game derives from its piles once a saved game is read back
        (engine_core/save.py); most games derive nothing."""

    def set_computer(self, level, speed):
        """The computer players' strength (1 easy .. 3 hard) and speed (0 .. 2) from the
        settings; a game without computer players has nothing to set."""

    # --- move tokens (for the protocol and tools; these allocate) ---

    def move_token(self, code):
        """The protocol's text for a move code: 'col1>discard', 'deal', 'p2:flip'."""
        src = move_src(code)
        if src == ACTION:
            word = self.ACTIONS[move_dst(code)]
            if word[0] == ":":
                return "p" + str(move_arg(code) + 1) + word
            return word
        return self.pile_names[src] + ">" + self.pile_names[move_dst(code)]

    def parse_move(self, token):
        """The move code a token names, or -1 when it names none. Legality is not checked."""
        for i in range(len(self.ACTIONS)):
            word = self.ACTIONS[i]
            if word[0] != ":":
                if token == word:
                    return action_code(i)
            elif token.endswith(word) and token[0] == "p":
                player = parse_player(token[: len(token) - len(word)], self.players)
                if player >= 0:
                    return action_code(i, player)
        parts = token.split(">")
        if len(parts) != 2:
            return -1
        src = self.pile_id(parts[0])
        dst = self.pile_id(parts[1])
        if src < 0 or dst < 0:
            return -1
        return move_code(src, dst)

    def refusal(self, move):
        """Why a well-formed move is not legal now, as a code of engine_core/reasons.py: the
        game's one decision tree for an illegal move. It builds no text, so the interface may
        ask on a keypress (no allocation); the words are the reasons table's."""
        if self.vars[V_STATUS] != PLAYING:
            return why.OVER
        return why.NOT_THERE

    def explain(self, move):
        """Why a well-formed move is not legal now, for the protocol's error line: refusal()'s
        reason in this game's words, with the move's piles and cards filled in. A game with
        fields of its own fills them in its override."""
        text = why.protocol_words(self, self.refusal(move))
        if "{" not in text:
            return text
        src = move_src(move)
        dst = move_dst(move)
        names = self.pile_names
        if "{src}" in text:
            text = text.replace("{src}", names[src])
        if "{dst}" in text:
            text = text.replace("{dst}", names[dst])
        if "{card}" in text:
            text = text.replace("{card}", cards.name(self.moved_card(move)))
        if "{on}" in text:
            text = text.replace("{on}", cards.name(self.piles.top(dst)))
        return text

    def moved_card(self, move):
        """The card a move would take: the top of its source pile (-1 when empty)."""
        return self.piles.top(move_src(move))

    def explain_token(self, token):
        """Why a token names no move of this game."""
        parts = token.split(">")
        if len(parts) == 2:
            for name in parts:
                if self.pile_id(name) < 0:
                    return "no pile named '" + name + "'"
        return "expected SRC>DST with pile names, or one of: " + " ".join(self.ACTIONS)

    # --- for subclasses ---

    def _deal(self):
        raise NotImplementedError

    def legal_moves(self, out):
        raise NotImplementedError

    def _apply(self, move):
        raise NotImplementedError

    def _compute_status(self):
        return PLAYING
