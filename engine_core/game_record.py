"""The game in progress as a record (engine_core/records.py frames it; the Keeper in
engine_core/save.py writes and reads it; a link sends it whole, engine_core/link/transfer.py).

A saved game holds what resumes it exactly: the game (its registry id), rule profile (Casket
plays 1 or 2; records written before profile 2 existed say 1, and resume under it), players, options,
seed, clock, the moves made so far, every journaled variable (the generator's state among them,
and which generator dealt: V_DEALER, 0 in records of builds before it, whose games the Lehmer
generator dealt and still draws for, so they resume exactly; engine_core/rng.py)
and every pile's cards. The newest moves of the undo journal go into a record of their own
(engine_core/undo_record.py), so undo works after a restart. Games keep their state in piles and
vars (docs/engine.md), so this works for every game
through what the Game base class holds; a game with state outside the journal names those
attributes in a class constant SAVED (attributes of the game, or of the part of it that the
class constant SAVED_IN names: Nerts keeps its computer players' levels in game.bot), and one
that derives more from its piles rebuilds it in an after_restore() method.

Payload of a game record (kind 'G', version 1):
    game id (engine_core/games/__init__.py: fixed per game, whatever the menu order; the ids
    of the five first games are their positions in the list that named games here before the
    registry, so those records read unchanged), rules version, players,
    flags (bit 0: computer players on)
    options, seed, clock_ms, moves                      four bytes each
    var count, then each var                            four bytes each
    pile count, then each pile's size, then all cards bottom to top, pile after pile
    the count of extra ints (two bytes), then each: the game's SAVED attributes, in order
                                                        (each within the game's SAVED_RANGES)
Every field is read with records.READER against its declared range before anything changes.
"""


from engine_core import OVER, WON
from engine_core import games
from engine_core import records as r
from engine_core.game import N_VARS, V_DEALER, V_RNG, V_RNG2, V_SCORE
from engine_core.undo_record import generator_in_range, var_in_range

from micropython import const

KIND_GAME = const(0x47)  # 'G'
GAME_VERSION = const(1)

_FIXED = const(20)  # the fixed fields of the payload, before the var count


def game_record_size(game):
    """The size of the record encode_game writes for the game as it stands."""
    piles = game.piles
    cards = 0
    for p in range(piles.count):
        cards += piles.size[p]
    return r.OVERHEAD + _FIXED + 1 + 4 * N_VARS + 1 + piles.count + cards + 2 + 4 * extra_count(game)


def saved_attributes(game):
    """The names of the attributes beyond piles and vars that the game asks a saved game to
    keep (a class constant SAVED: ints or arrays of small ints, state outside the journal such
    as who is a computer player and at which levels); () for most games."""
    return game.SAVED


def saved_holder(game):
    """The object whose attributes SAVED names: the part of the game that its class constant
    SAVED_IN names, or the game itself for SAVED_IN = "" (asked only of a game with SAVED
    attributes, which declares SAVED_IN beside them)."""
    where = game.SAVED_IN
    return getattr(game, where) if where else game


def extra_count(game):
    """How many ints the game's SAVED attributes hold."""
    n = 0
    for name in saved_attributes(game):
        value = getattr(saved_holder(game), name)
        if type(value) is int:
            n += 1
        else:
            n += len(value)
    return n


def encode_game(game, moves, buf):
    """Write `game` as a record into buf; returns its size. No allocation."""
    pos = r.begin(buf, KIND_GAME, GAME_VERSION)
    buf[pos] = games.game_id(game.NAME)
    buf[pos + 1] = game.rules
    buf[pos + 2] = game.players
    buf[pos + 3] = 1 if game.bots else 0
    pos = r.put_i32(buf, pos + 4, game.options)
    pos = r.put_i32(buf, pos, game.seed)
    pos = r.put_i32(buf, pos, game.clock_ms)
    pos = r.put_i32(buf, pos, moves)
    buf[pos] = N_VARS
    pos += 1
    for i in range(N_VARS):
        pos = r.put_i32(buf, pos, game.vars[i])
    piles = game.piles
    buf[pos] = piles.count
    pos += 1
    for p in range(piles.count):
        buf[pos] = piles.size[p]
        pos += 1
    for p in range(piles.count):
        s = piles.start[p]
        for i in range(piles.size[p]):
            buf[pos] = piles.cards[s + i]
            pos += 1
    pos = r.put_u16(buf, pos, extra_count(game))
    for name in saved_attributes(game):
        value = getattr(saved_holder(game), name)
        if type(value) is int:
            pos = r.put_i32(buf, pos, value)
        else:
            for i in range(len(value)):
                pos = r.put_i32(buf, pos, value[i])
    return r.finish(buf, pos)


def peek_game(buf):
    """(name, players, options) of a checked game record, or None when it names no known game.

    Allocates (a tuple): used once at resume to create the game object.
    """
    name = games.name_of(buf[r.HEADER])
    if name is None:
        return None
    return name, buf[r.HEADER + 2], r.get_i32(buf, r.HEADER + 4)


def restore_game(game, buf, n, used, own=False):
    """Put the checked record buf[0:n] into `game` (same class, players and options as saved,
    playing the rule profile the record names: saved_rules(buf) and game.set_rules()).

    Returns OK, VERSION (another layout or rules version) or INVALID (the contents do not make
    a game: a field outside its declared range, such as a pile over its capacity or a saved
    setting out of the game's SAVED_RANGES; a card that is not this game's, missing or twice;
    a status, generator state, player to move, score or clock out of range). The whole record
    is read and checked first (records.READER); the game changes only on OK, and nothing
    raises. resume() then asks the game's check_position, as `load` does.
    `used` is a scratch bytearray(256). own: the record is this console's own copy of its game
    a moment ago (a link's state refused: transfer.py), its values taken as play left them: a
    score play pushed past what `load` takes must not leave a refused state in place.
    No allocation.
    """
    if buf[3] != GAME_VERSION or buf[r.HEADER + 1] != game.rules:
        return r.VERSION
    base = r.HEADER
    if n < base + _FIXED + 1 + 4:
        return r.INVALID
    if buf[base + _FIXED] != N_VARS:
        return r.VERSION
    rd = r.READER.start(buf, base, n - 4)
    gid = games.game_id(game.NAME)
    rd.u8(gid, gid)
    rd.u8(game.rules, game.rules)
    rd.u8(game.players, game.players)
    rd.u8(0, 1)  # flags: computer players on
    rd.i32(game.options, game.options)
    seed = rd.i32(0, r.I32_MAX)
    clock = rd.i32(0, r.I32_MAX)
    rd.i32(r.I32_MIN, r.I32_MAX)  # moves (a negative count, as older builds could save, reads as 0)
    rd.u8(N_VARS, N_VARS)
    vars_at = rd.skip(4 * N_VARS)
    if not rd.ok or not (own or vars_in_range(game, buf, vars_at)):
        return r.INVALID
    for i in range(0 if own else N_VARS):
        rd.pos = vars_at + 4 * i
        rd.i32(r.I32_MIN, r.I32_MAX)
    piles = game.piles
    rd.u8(piles.count, piles.count)
    sizes_at = rd.pos
    total = 0
    for p in range(piles.count):
        total += rd.u8(0, piles.cap[p])
    cards_at = rd.skip(total)
    extras = extra_count(game)
    rd.u16(extras, extras)
    k = 0
    for name in saved_attributes(game):
        lo, hi = saved_range(game, k)
        value = getattr(saved_holder(game), name)
        for _ in range(1 if type(value) is int else len(value)):
            rd.i32(r.I32_MIN if own else lo, r.I32_MAX if own else hi)
        k += 1
    if not rd.done():
        return r.INVALID
    for c in range(256):
        used[c] = 0
    for i in range(total):
        c = buf[cards_at + i]
        if used[c] or not game.is_card(c):
            return r.INVALID
        used[c] = 1
    for c in range(256):
        if game.is_card(c) and not used[c]:
            return r.INVALID
    # Everything checks: replace the game's state.
    piles.clear()
    pos = cards_at
    for p in range(piles.count):
        for i in range(buf[sizes_at + p]):
            piles.push(p, buf[pos])
            pos += 1
    for i in range(N_VARS):
        game.vars[i] = r.get_i32(buf, vars_at + 4 * i)
    game.seed = seed
    game.clock_ms = clock
    game.bots = buf[base + 3] & 1 == 1
    pos = cards_at + total + 2
    for name in saved_attributes(game):
        holder = saved_holder(game)
        value = getattr(holder, name)
        if type(value) is int:
            setattr(holder, name, r.get_i32(buf, pos))
            pos += 4
        else:
            for i in range(len(value)):
                value[i] = r.get_i32(buf, pos)
                pos += 4
    game.history.clear()  # a resumed game starts with nothing to undo
    game.after_restore()  # a game that derives state from its piles rebuilds it
    return r.OK


def saved_range(game, k):
    """The (lowest, highest) value the k-th of the game's SAVED attributes may hold (its
    SAVED_RANGES; without one, what the attribute can store: a bytearray 0 .. 255)."""
    if k < len(game.SAVED_RANGES):
        return game.SAVED_RANGES[k]
    if type(getattr(saved_holder(game), game.SAVED[k])) is bytearray:
        return _BYTE_RANGE
    return _I32_RANGE


_BYTE_RANGE = (0, 255)
_I32_RANGE = (r.I32_MIN, r.I32_MAX)


def vars_in_range(game, buf, at):
    """The shared variables a record holds are ones play could give: a status, a generator
    state, the player to move and the scores in range. No allocation."""
    if not generator_in_range(r.get_i32(buf, at + 4 * V_DEALER), r.get_i32(buf, at + 4 * V_RNG),
                              r.get_i32(buf, at + 4 * V_RNG2)):
        return False
    for i in range(V_SCORE + 4):
        if not var_in_range(game, i, r.get_i32(buf, at + 4 * i)):
            return False
    return True


def saved_rules(buf):
    """The rule profile a game record was played under (records of every build keep it)."""
    return buf[r.HEADER + 1]


def saved_moves(buf):
    """The moves made, as the record counts them; a count below 0 (an undo of the computer's
    moves could make one before it was kept from it) is 0: the game itself is sound."""
    moves = r.get_i32(buf, r.HEADER + 16)
    return moves if moves > 0 else 0


def human_won(game):
    """Whether player 1 (the person; computer players take the other seats) won a finished game."""
    status = game.status()
    if status == WON:
        return True
    if status != OVER or not game.COMPETITIVE:
        return False
    mine = game.score(0)
    for i in range(1, game.players):
        if game.score(i) >= mine:
            return False
    return True
