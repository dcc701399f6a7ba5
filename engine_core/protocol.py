"""The line-based text protocol (docs/protocol.md).

run(read_line, write) serves commands until `quit` or end of input and writes one response
line per command. It runs unchanged on CPython and MicroPython:
    from engine_core.protocol import run; run(sys.stdin.readline, sys.stdout.write)
This layer parses and formats text, so it allocates; the engine beneath it does not.
"""

from array import array

from engine_core import PLAYING
from engine_core import games
from engine_core.state_text import (MAX_SEED, ProtocolError, check_players, check_rules, game_class,  # noqa: F401
                                    load_state, state_json)  # (MAX_SEED, state_json: for the command lines)
from engine_core.text import escape_controls, is_text, parse_number, quote, split_words, strip_line
from engine_core.ai import winnable

HELP = ("commands: new GAME [seed=N] [players=K] [jokers=1] [target=N] [winnable=1] [rules=N]"
        " | state | moves | move TOKEN | undo | redo | hint | load JSON | tick MS | bots on|off"
        " | auto on|off | finish | help | quit (docs/protocol.md)")
MAX_TOKEN = 40  # the longest tokens ("p4.work1*13>p4.work2", "p4.hand:7H>p4.discard4") are shorter


def run(read_line, write, session=None):
    """Serve protocol commands from read_line() until 'quit' or an empty read (end of input),
    in a new ProtocolSession or the one given."""
    if session is None:
        session = ProtocolSession()
    while True:
        try:
            line = read_line()
        except UnicodeError:  # bytes that are not UTF-8 (noise on a serial line): one bad line
            write("error: the line is not UTF-8 text\n")
            continue
        if not line:
            return
        if not is_text(line):  # what MicroPython's decoder lets through and CPython's does not
            write("error: the line is not UTF-8 text\n")
            continue
        line = strip_line(line)
        if not line:
            continue
        reply = session.command(line)
        if reply is None:
            return
        write(reply + "\n")


class ProtocolSession:
    """One protocol conversation: the current game and its settings."""

    def __init__(self):
        self.game = None
        self.bots = True  # 'bots on|off' holds for the session: every game after it, new or loaded
        self.undone = []  # the moves 'undo' took back, the newest last: what 'redo' plays again
        self.journal_at = None  # the journal as the last undo or redo left it (journal_mark)

    def command(self, line):
        """The reply line for one command (without newline), or None for 'quit'."""
        words = split_words(line, 1)  # a tab separates as well as a space
        word = words[0] if words else ""
        rest = words[1] if len(words) > 1 else ""
        if word == "quit":
            if rest:
                return "error: quit takes no argument"
            return None
        try:
            return self._dispatch(word, rest)
        except ProtocolError as e:
            return "error: " + escape_controls(str(e.args[0]))
        except Exception as e:  # a bug must not stop the loop; report it instead
            return "error: internal error: " + type(e).__name__ + " " + quote(str(e))

    def _dispatch(self, word, rest):
        if word == "help":
            if rest:
                raise ProtocolError("help takes no argument")
            return HELP
        reply = self._command(word, rest)
        if word in ("new", "load", "move", "auto", "finish"):
            self.undone = []  # a new game or a new move: what was undone cannot come back
        return reply

    def _command(self, word, rest):
        if word == "new":
            self.game = new_game(split_words(rest))
            self.game.bots = self.bots
            return "ok"
        if word == "load":
            self.game = load_state(rest, self.game)
            self.game.bots = self.bots
            return "ok"
        if word == "bots":
            if rest not in ("on", "off"):
                raise ProtocolError("bots takes 'on' or 'off'")
            self.bots = rest == "on"
            game = self.game
            if game is not None:
                game.bots = self.bots
                if game.bots:
                    game.respond()
            return "ok"
        if word not in ("state", "moves", "move", "undo", "redo", "hint", "tick", "auto", "finish"):
            raise ProtocolError("unknown command " + quote(word))
        game = self.game
        if game is None:
            raise ProtocolError("no game: start one with 'new GAME'")
        if word == "move":
            do_move(game, rest)
            return "ok"
        if word == "tick":
            game.tick(parse_int(rest, "tick", 0, MAX_SEED))
            return "ok"
        if word == "auto":
            if rest not in ("on", "off"):
                raise ProtocolError("auto takes 'on' or 'off'")
            game.autoplay = rest == "on"
            if game.autoplay:
                game.auto_play()
            return "ok"
        if rest:
            raise ProtocolError(word + " takes no argument")
        if word == "state":
            return state_json(game)
        if word == "moves":
            return " ".join(legal_tokens(game))
        if word == "undo":
            move = game.history.last_move()
            if not game.undo():
                raise ProtocolError("nothing to undo")
            self.undone.append(game.undone if game.undone >= 0 else move)
            self.journal_at = journal_mark(game)
            return "ok"
        if word == "redo":
            return self.redo(game)
        if word == "finish":
            if game.finish() == 0:
                raise ProtocolError("the game is not clearly won yet")
            return "ok"
        move = game.hint()
        if move < 0 and game.status() == PLAYING:
            # The advisor sees nothing worth doing (in Casket the last moves may only shuttle a
            # card between two equal targets), but `none` is kept for a position without moves
            # of the hint's player (the one to move; p1 in Nerts, where everyone plays at once).
            out = array("i", [0] * game.MAX_MOVES)
            n = game.moves_of(0, out)
            tokens = sorted(game.move_token(out[i]) for i in range(n))
            return tokens[0] if tokens else "none"
        return "none" if move < 0 else game.move_token(move)

    def redo(self, game):
        """Play again the move undone last, as 'move' plays it (the computer players respond;
        auto-play waits for the next 'move')."""
        if not self.undone:
            raise ProtocolError("nothing to redo")
        move = self.undone.pop()
        # The computer players have moved since (a tick): the move may still be legal, but on
        # another table than the one it was undone from.
        if journal_mark(game) != self.journal_at or not game.is_legal(move):
            self.undone = []
            raise ProtocolError("nothing to redo: the table has changed since the undo")
        game.apply(move)
        if game.bots:
            game.respond()
        self.journal_at = journal_mark(game)
        return "ok"


def journal_mark(game):
    """Where the game's journal stands: any move made or taken back moves it."""
    h = game.history
    return (h.head, h.used, h.moves, h.clears)


def parse_int(text, what, low, high):
    """An int in low..high written in ASCII decimal (engine_core/text.py), else ProtocolError."""
    try:
        return parse_number(text, what, low, high)
    except ValueError as e:
        raise ProtocolError(e.args[0])


def new_game(args):
    """A freshly dealt game for 'new GAME [seed=N] [players=K] [jokers=1] [target=N] [winnable=1]
    [rules=N]'.

    rules=N plays rule profile N, one of those the game has (Casket: 2, the default, or 1).

    winnable=1 deals winnable deal number N (seed=N picks it) from the game's table of seeds
    the solver proved winnable (engine_core/ai/winnable.py); the state shows the real seed.
    """
    if not args:
        raise ProtocolError("new needs a game: " + ", ".join(games.names()))
    cls = game_class(args[0])
    seed = 1
    players = cls.MIN_PLAYERS
    jokers = False
    target = 0
    only_winnable = False
    profile = cls.RULES_VERSION
    given = []  # the options named so far: each at most once
    for arg in args[1:]:
        key, sep, value = arg.partition("=")
        if not sep:
            raise ProtocolError("expected key=value, got " + quote(arg))
        if key in given:
            raise ProtocolError("option " + quote(key) + " given twice")
        given.append(key)
        if key == "seed":
            seed = parse_int(value, "seed", 0, MAX_SEED)
        elif key == "players":
            players = parse_int(value, "players", 1, 9)
        elif key == "jokers":
            jokers = parse_int(value, "jokers", 0, 1) == 1
        elif key == "target":
            target = parse_int(value, "target", 1, games.MAX_TARGET)
        elif key == "winnable":
            only_winnable = parse_int(value, "winnable", 0, 1) == 1
        elif key == "rules":
            profile = parse_int(value, "rules", 0, MAX_SEED)
        else:
            raise ProtocolError("unknown option " + quote(key))
    check_players(cls, players)
    if jokers and not cls.JOKERS:
        raise ProtocolError(cls.NAME + " is played without jokers")
    if target and not cls.COMPETITIVE:
        raise ProtocolError(cls.NAME + " has no target score")
    if only_winnable:
        if profile != cls.RULES_VERSION:  # the solver proved them under the default profile
            raise ProtocolError("the winnable deals of " + cls.NAME + " are proven under rules "
                                + str(cls.RULES_VERSION))
        seed = winnable.seed_for(cls.NAME, seed)
        if seed < 0:
            raise ProtocolError("no table of winnable deals for " + cls.NAME)
    check_rules(cls, profile, "")
    game = cls(players, games.options(jokers, target))
    game.set_rules(profile)
    game.deal(seed)
    return game


def legal_tokens(game):
    # Every player's moves: in Nerts more than the game's scratch (one player's) holds.
    out = array("i", [0] * game.MAX_MOVES)
    n = game.legal_moves(out)
    tokens = [game.move_token(out[i]) for i in range(n)]
    tokens.sort()
    return tokens


def do_move(game, token):
    if not token or " " in token or "\t" in token:
        raise ProtocolError("move takes one move token, e.g. 'move col1>discard'")
    if len(token) > MAX_TOKEN:
        raise ProtocolError("bad move " + quote(token) + ": longer than any move token")
    code = game.parse_move(token)
    if code < 0:
        raise ProtocolError("bad move " + quote(token) + ": " + game.explain_token(token))
    if not game.is_legal(code):
        reason = game.explain(code)
        raise ProtocolError("illegal move " + quote(token)[1:-1] + (": " + reason if reason else ""))
    game.apply(code)
    if game.bots:
        game.respond()
    if game.autoplay:
        game.auto_play()
