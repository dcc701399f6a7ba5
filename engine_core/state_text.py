"""A game's state as the protocol's JSON line (docs/protocol.md, State JSON), and `load`'s
reading of one: the checks that name the first thing wrong. Edge code: it allocates.
"""

from engine_core import STATUS_NAMES
from engine_core import cards
from engine_core import games
from engine_core import jsontext
from engine_core import rng
from engine_core.game import FACE_DOWN, TOP_UP, V_DEALER, V_RNG, V_RNG2, V_SCORE, V_STATUS, V_TURN, parse_player
from engine_core.text import quote

MAX_SEED = 0x3FFFFFFF


class ProtocolError(Exception):
    """A command that cannot be carried out; its text follows 'error: '."""


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
    copies: dict = {}
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
