"""The line-based text protocol (docs/protocol.md).

run(read_line, write) serves commands until `quit` or end of input and writes one response
line per command. It runs unchanged on CPython and MicroPython:
    from engine_core.protocol import run; run(sys.stdin.readline, sys.stdout.write)
This layer parses and formats text, so it allocates; the engine beneath it does not.
"""

from array import array

from engine_core import PLAYING, STATUS_NAMES
from engine_core import cards
from engine_core import games
from engine_core import rng
from engine_core import jsontext
from engine_core.text import escape_controls, is_text, parse_number, quote, split_words, strip_line
from engine_core.ai import winnable
from engine_core.game import FACE_DOWN, TOP_UP, V_DEALER, V_RNG, V_RNG2, V_SCORE, V_STATUS, V_TURN, parse_player

MAX_SEED = 0x3FFFFFFF
HELP = ("commands: new GAME [seed=N] [players=K] [jokers=1] [target=N] [winnable=1] [rules=N]"
        " | state | moves | move TOKEN | undo | redo | hint | load JSON | tick MS | bots on|off"
        " | auto on|off | finish | help | quit (docs/protocol.md)")
MAX_TOKEN = 40  # the longest tokens ("p4.work1*13>p4.work2", "p4.hand:7H>p4.discard4") are shorter


class ProtocolError(Exception):
    """A command that cannot be carried out; its text follows 'error: '."""


def run(read_line, write, session=None):
    """Serve protocol commands from read_line() until 'quit' or an empty read (end of input),
    in a new Session or the one given."""
    if session is None:
        session = Session()
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


class Session:
    """One protocol conversation: the current game and its settings."""

    def __init__(self):
        self.game = None
        self.bots = True  # 'bots on|off' holds for the session: every game after it, new or loaded
        self.undone = []  # the moves 'undo' took back, the newest last: what 'redo' plays again

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
            self.undone.append(move)
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
        if not game.is_legal(move):  # the computer players have moved since (tick)
            self.undone = []
            raise ProtocolError("nothing to redo: the table has changed since the undo")
        game.apply(move)
        if game.bots:
            game.respond()
        return "ok"


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
    for arg in args[1:]:
        key, sep, value = arg.partition("=")
        if not sep:
            raise ProtocolError("expected key=value, got " + quote(arg))
        if key == "seed":
            seed = parse_int(value, "seed", 0, MAX_SEED)
        elif key == "players":
            players = parse_int(value, "players", 1, 9)
        elif key == "jokers":
            jokers = parse_int(value, "jokers", 0, 1) == 1
        elif key == "target":
            target = parse_int(value, "target", 1, 10000)
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


def game_class(name):
    try:
        return games.load(name)
    except (KeyError, ImportError):
        raise ProtocolError("unknown game " + quote(name) + ": expected one of " + ", ".join(games.names()))


def check_rules(cls, profile, prefix):
    """ProtocolError unless the game has rule profile `profile`."""
    if profile not in cls.RULES_PROFILES:
        have = " or ".join(str(v) for v in cls.RULES_PROFILES)
        raise ProtocolError(prefix + "rules version " + str(profile) + " is not supported: "
                            + cls.NAME + " plays rules " + have)


def check_players(cls, players):
    low = cls.MIN_PLAYERS
    high = cls.MAX_PLAYERS
    if players < low or players > high:
        if low == high:
            raise ProtocolError(cls.NAME + " is played by " + str(low) + (" player" if low == 1 else " players"))
        raise ProtocolError(cls.NAME + " is played by " + str(low) + " to " + str(high) + " players")


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


# --- state <-> JSON ---

def card_text(game, card, face_down):
    text = cards.name(card, game.OWNER_SUFFIX)
    return "#" + text if face_down else text


def player_name(i):
    return "p" + str(i + 1)


def state_json(game):
    """The state as one line of JSON, keys in the protocol's order."""
    piles = game.piles
    out = []
    for p in range(piles.count):
        face = game.pile_faces[p]
        n = piles.size[p]
        names = []
        for i in range(n):
            down = face == FACE_DOWN or (face == TOP_UP and i < n - 1)
            names.append('"' + card_text(game, piles.card(p, i), down) + '"')
        out.append('"' + game.pile_names[p] + '": [' + ", ".join(names) + "]")
    scores = []
    if game.COMPETITIVE:
        for i in range(game.players):
            scores.append('"' + player_name(i) + '": ' + str(game.score(i)))
    turn = game.turn()
    return (
        '{"game": "' + game.NAME + '", "rules": ' + str(game.rules)
        + ', "seed": ' + str(game.seed)
        + ', "status": "' + STATUS_NAMES[game.status()] + '"'
        + ', "turn": ' + ("null" if turn < 0 else '"' + player_name(turn) + '"')
        + ', "clock_ms": ' + str(game.clock_ms)
        + ', "piles": {' + ", ".join(out) + "}"
        + ', "score": {' + ", ".join(scores) + "}"
        + ', "rng": ' + str(game.vars[V_RNG]) + generator_json(game) + "}"
    )


def generator_json(game):
    """The generator that dealt the game and its second state; nothing for one the Lehmer
    generator dealt, as states of builds before say nothing."""
    dealer = game.vars[V_DEALER]
    if dealer == rng.LEHMER:
        return ""
    return ', "rng2": ' + str(game.vars[V_RNG2]) + ', "generator": "' + rng.NAMES[dealer] + '"'


def need(data, key, kind):
    if key not in data:
        raise ProtocolError("load: missing key '" + key + "'")
    value = data.get(key)
    if kind is int and (type(value) is not int):
        raise ProtocolError("load: '" + key + "' must be a whole number")
    if kind is not int and type(value) is not kind:
        raise ProtocolError("load: '" + key + "' has the wrong type")
    return value


def count_players(cls, pile_names):
    """Players implied by 'pN.' pile names (the class minimum when there are none)."""
    players = cls.MIN_PLAYERS
    for name in pile_names:
        if name.startswith("p") and "." in name:
            n = parse_player(name.split(".", 1)[0], 9)
            if n + 1 > players:
                players = n + 1
    return players


def load_state(text, current):
    """A new game object holding the state given as JSON; ProtocolError when it is not valid."""
    if not text:
        raise ProtocolError("load needs the state as JSON")
    try:
        data = jsontext.parse(text)
    except jsontext.JsonError as e:
        raise ProtocolError("load: not valid JSON: " + e.args[0])
    if type(data) is not jsontext.Object:
        raise ProtocolError("load: expected a JSON object")
    cls = game_class(need(data, "game", str))
    profile = need(data, "rules", int)
    check_rules(cls, profile, "load: ")
    piles = need(data, "piles", jsontext.Object)
    players = count_players(cls, piles.keys)
    check_players(cls, players)
    options = current.options if current is not None and current.NAME == cls.NAME else 0
    options &= ~games.OPT_JOKERS
    for name in piles.keys:
        cards_in_pile = piles.get(name)
        if type(cards_in_pile) is list:
            for name in cards_in_pile:
                if type(name) is str and name.lstrip("#").startswith("JK"):
                    options |= games.OPT_JOKERS
    game = cls(players, options)
    game.set_rules(profile)
    fill_piles(game, piles)
    status = need(data, "status", str)
    if status not in STATUS_NAMES:
        raise ProtocolError("load: unknown status " + quote(status))
    game.vars[V_STATUS] = STATUS_NAMES.index(status)
    game.seed = need(data, "seed", int)
    if game.seed < 0 or game.seed > MAX_SEED:
        raise ProtocolError("load: seed out of range")
    game.clock_ms = need(data, "clock_ms", int)
    if game.clock_ms < 0 or game.clock_ms > MAX_SEED:
        raise ProtocolError("load: clock_ms out of range")
    load_generator(game, data)
    load_turn(game, data)
    load_score(game, need(data, "score", jsontext.Object))
    reason = game.check_position()
    if reason:
        raise ProtocolError("load: " + reason)
    game.after_load()
    return game


def load_generator(game, data):
    """The generator's state: 'rng', and for a deal of the combined generator (\"generator\":
    \"combined\") 'rng2'; a state without 'generator' is the Lehmer generator's."""
    dealer = rng.LEHMER
    if "generator" in data:
        name = data.get("generator")
        if name not in rng.NAMES:
            raise ProtocolError("load: generator must be one of " + ", ".join(rng.NAMES))
        dealer = rng.NAMES.index(name)
    state_rng = need(data, "rng", int)
    if state_rng < 1 or state_rng >= rng.M:
        raise ProtocolError("load: rng must be in 1.." + str(rng.M - 1))
    game.vars[V_DEALER] = dealer
    game.vars[V_RNG] = state_rng
    if dealer == rng.LEHMER:
        if "rng2" in data:
            raise ProtocolError("load: rng2 belongs to the combined generator")
        return
    state_rng = need(data, "rng2", int)
    if state_rng < 1 or state_rng >= rng.M2:
        raise ProtocolError("load: rng2 must be in 1.." + str(rng.M2 - 1))
    game.vars[V_RNG2] = state_rng


def load_turn(game, data):
    if "turn" not in data:
        raise ProtocolError("load: missing key 'turn'")
    turn = data.get("turn")
    if not game.TURN_BASED:
        if turn is not None:
            raise ProtocolError("load: turn must be null in " + game.NAME)
        return
    player = parse_player(turn, game.players) if type(turn) is str else -1
    if player < 0:
        raise ProtocolError("load: turn must name a player, e.g. \"p1\"")
    game.vars[V_TURN] = player


def load_score(game, score):
    if not game.COMPETITIVE:
        if score:
            raise ProtocolError("load: score must be {} in " + game.NAME)
        return
    for i in range(game.players):
        key = player_name(i)
        if key not in score or type(score.get(key)) is not int:
            raise ProtocolError("load: score needs a whole number for " + key)
        if abs(score.get(key)) > 100000:
            raise ProtocolError("load: score of " + key + " out of range")
        game.vars[V_SCORE + i] = score.get(key)
    if len(score) != game.players:
        raise ProtocolError("load: score names players the game does not have")


def fill_piles(game, piles_data):
    """Put the named cards into the game's piles, checking that every card is there once."""
    for name in piles_data.keys:
        if game.pile_id(name) < 0:
            raise ProtocolError("load: unknown pile " + quote(name))
    used = bytearray(256)
    copies = card_copies(game)
    piles = game.piles
    for p in range(piles.count):
        name = game.pile_names[p]
        if name not in piles_data:
            raise ProtocolError("load: missing pile '" + name + "'")
        names = piles_data.get(name)
        if type(names) is not list:
            raise ProtocolError("load: pile '" + name + "' must be a list of cards")
        if len(names) > piles.cap[p]:
            raise ProtocolError("load: pile '" + name + "' holds more cards than it can")
        for text in names:
            piles.push(p, card_id(game, text, used, copies))
    missing = []
    for c in range(256):
        if game.is_card(c) and not used[c]:
            missing.append(cards.name(c, game.OWNER_SUFFIX))
    if missing:
        raise ProtocolError("load: missing cards: " + " ".join(missing))


def card_copies(game):
    """The game's card ids by what a state names them: (kind, owner) -> ids, lowest first
    (owner -1 in games without owners' numbers)."""
    copies = {}
    for c in range(256):
        if game.is_card(c):
            key = (cards.kind(c), cards.deck(c) if game.OWNER_SUFFIX else -1)
            if key not in copies:
                copies[key] = []
            copies[key].append(c)
    return copies


def card_id(game, text, used, copies):
    """The id of the first unused copy of the card `text` names."""
    if type(text) is not str:
        raise ProtocolError("load: a card must be a string like \"7H\"")
    name = text[1:] if text.startswith("#") else text
    kind = cards.parse_kind(name[:2])
    owner = -1
    if game.OWNER_SUFFIX:
        if len(name) == 3 and "1" <= name[2] <= "9":
            owner = ord(name[2]) - ord("1")
        if owner < 0:
            raise ProtocolError("load: " + quote(text) + " needs its owner's number, e.g. 7H2")
    elif len(name) != 2:
        kind = -1
    if kind < 0:
        raise ProtocolError("load: " + quote(text) + " is not a card")
    ids = copies.get((kind, owner))
    for c in ids or ():
        if not used[c]:
            used[c] = 1
            return c
    if not ids:
        raise ProtocolError("load: " + quote(text) + " is not a card of this game")
    raise ProtocolError("load: duplicate card " + quote(name))
