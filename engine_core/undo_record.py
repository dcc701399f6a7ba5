"""The undo journal saved beside the game in progress, so undo works after a restart.

A record of its own (kind 'U'), written right after the game record into the Keeper's buffer:
the newest whole moves of the journal (engine_core/history.py) that fit, and the checksum of
the game record they belong to. At resume the journal is put back only when that checksum is
the saved game's (a power cut between the two writes leaves an older journal: it is dropped,
and the game resumes with nothing to undo, never with a wrong undo).

Payload (version 3; version 2 is the same without the cursor, version 1 without the redo list
too, both still read: the cursor then starts at home, as after a deal):
    the game record's CRC                      four bytes, as the record ends
    entry count                                two bytes
    each entry, oldest first                   four bytes (a journal entry, below 2**30)
    redo count                                 one byte (at most REDO_KEPT)
    each undone move that redo plays again     four bytes, the newest last
    how many of the newest moves undo may      two bytes (ANY_MOVE: all; Spite & Malice's
    take back                                  player undoes only the turn under way)
    the table's cursor: its slot               one byte (NO_CURSOR's 255: at home)
    and the card it frames in a fan            one byte (255: the top card)
The cursor is the interface's (engine_core/ui/table_input.py), kept so that Continue after a
restart puts it where it was; App.resume_game checks it against the table (a slot the table
has and the player's own, a card of the fan) and leaves it at home when it is not.
The Keeper's 1,024-byte buffer holds 250 entries: 60-80 moves of a patience game (fewer
when moves wait to be redone: they come first).
"""

from engine_core import OVER, PLAYING
from engine_core import history as hist
from engine_core import rng
from engine_core import records as r
from engine_core.game import V_DEALER, V_RNG, V_RNG2, V_SCORE, V_STATUS, V_TURN

from micropython import const

KIND_UNDO = const(0x55)  # 'U'
UNDO_VERSION = const(3)
_FIXED = const(6)
REDO_KEPT = const(16)  # undone moves kept for redo (as engine_core/ui/table.py keeps them)
ANY_MOVE = const(0xFFFF)  # undo may take back every move the journal holds
NO_CURSOR = const(0xFFFF)  # no cursor kept (a record before version 3): the cursor starts at home
_MOVE_LIMIT = const(0x1000000)  # a move code is below 2**24 (a MARK holds it)

# What the values of a saved position may be (its generator's states, the shared variables):
# asked by both checked decoders, this journal's and the game record's (game_record.py).
MAX_SCORE = const(100000)  # the widest score a position holds (as `load` takes scores)


def generator_in_range(dealer, state, state2):
    """A generator (rng.LEHMER, rng.COMBINED, rng.SPECTRAL) and states it can be in. No
    allocation."""
    if dealer == rng.LEHMER:
        return 1 <= state < rng.M and state2 == 0
    return (dealer == rng.COMBINED or dealer == rng.SPECTRAL) and 1 <= state < rng.M1 and 1 <= state2 < rng.M2


def var_in_range(game, i, value):
    """Shared variable i (below V_SCORE + 4) holds a value play could give it: a status, the
    player to move, a score (0 for a seat nobody has). No allocation."""
    if i == V_STATUS:
        return PLAYING <= value <= OVER
    if i == V_TURN:
        return 0 <= value < game.players
    if i >= V_SCORE:
        return -MAX_SCORE <= value <= MAX_SCORE and (i - V_SCORE < game.players or value == 0)
    return True


def remember_crc(buf, n, crc):
    """Copy the CRC of the record buf[0:n] into crc (a bytearray(4))."""
    for i in range(4):
        crc[i] = buf[n - 4 + i]


def encode_journal(history, crc, buf, redo, redo_n, undoable, cursor):
    """Write the newest whole moves of history that fit into buf, the redo list
    redo[0:redo_n], how many moves undo may take back and the cursor (slot << 8 | the card
    in a fan, NO_CURSOR: none); returns the record's size. No allocation."""
    room = journal_room(len(buf), redo_n)
    cap = history.capacity
    log = history.log
    count = history.used if history.used < room else room
    start = (history.head - count) % cap
    # Begin at a move's MARK: a move cut in half could not be undone.
    while count > 0 and hist.kind(log[start]) != hist.MARK:
        start = (start + 1) % cap
        count -= 1
    pos = r.begin(buf, KIND_UNDO, UNDO_VERSION)
    for i in range(4):
        buf[pos + i] = crc[i]
    pos = put_entries(buf, r.put_u16(buf, pos + 4, count), log, start, count, cap)
    buf[pos] = redo_n
    pos += 1
    for k in range(redo_n):
        pos = r.put_i32(buf, pos, redo[k])
    pos = r.put_u16(buf, pos, undoable if 0 <= undoable < ANY_MOVE else ANY_MOVE)
    pos = r.put_u16(buf, pos, cursor & 0xFFFF)
    return r.finish(buf, pos)


def put_entries(buf, pos, log, start, count, cap):
    """`count` entries of the ring `log` (`cap` long) from `start`, each as put_i32 writes it,
    into buf from pos; returns the end. (The Pico runs expand_viper.put_entries instead.)"""
    i = start
    for _ in range(count):
        pos = r.put_i32(buf, pos, log[i])
        i = (i + 1) % cap
    return pos


def journal_room(size, redo_n):
    """How many journal entries a record of `size` bytes holds beside redo_n redo moves."""
    return (size - r.OVERHEAD - _FIXED - 1 - 4 * redo_n - 4) // 4


def restore_journal(history, buf, n, crc):
    """Put a checked journal record buf[0:n] into the (cleared) history of the game whose
    record had CRC crc. r.OK, r.VERSION, or r.INVALID (another game's journal, a bad entry);
    the whole record is read with records.READER first (every entry a kind the journal
    knows, the first a MARK, a move code below 2**24 in every redo slot, how many moves undo
    may take back, the cursor's slot and card), and the history changes only on OK. No
    allocation."""
    if buf[3] > UNDO_VERSION or buf[3] < 1:
        return r.VERSION
    pos = r.HEADER
    if n < pos + _FIXED + 4:
        return r.INVALID
    for i in range(4):
        if buf[pos + i] != crc[i]:
            return r.INVALID
    rd = r.READER.start(buf, pos + 4, n - 4)
    count = rd.u16(0, history.capacity)
    first = rd.pos
    moves = 0
    for k in range(count):
        e = rd.i32(hist.ENTRY_MIN, hist.ENTRY_MAX)
        if k == 0 and hist.kind(e) != hist.MARK:
            rd.ok = False
        if hist.kind(e) == hist.MARK:
            moves += 1
    if buf[3] != 1:
        redo_n = rd.u8(0, REDO_KEPT)
        for k in range(redo_n):
            rd.i32(0, _MOVE_LIMIT - 1)
        rd.u16(0, ANY_MOVE)
    if buf[3] > 2:
        rd.u8(0, 255)  # the slot (the table checks it: App.resume_game)
        rd.u8(0, 255)  # the card in its fan
    if not rd.done():
        return r.INVALID
    history.clear()
    log = history.log
    for k in range(count):
        log[k] = r.get_i32(buf, first + 4 * k)
    history.head = count % history.capacity
    history.used = count
    history.moves = moves
    return r.OK


def redo_size(buf, n, at):
    """The redo count of the record buf[0:n] whose journal ends at `at` (restore_journal
    took it: its redo list is whole and in range; version 1 has none: 0)."""
    if buf[3] == 1:
        return 0
    return buf[at]


def restore_redo(buf, n, redo):
    """The redo list of a journal record restore_journal took, into redo; its length."""
    at = r.HEADER + _FIXED + 4 * r.get_u16(buf, r.HEADER + 4)
    count = redo_size(buf, n, at)
    for k in range(count):
        redo[k] = r.get_i32(buf, at + 1 + 4 * k)
    return count


def restore_undoable(buf, n):
    """How many of the newest moves undo may take back (ANY_MOVE: all), from a journal
    record restore_journal took."""
    if buf[3] == 1:
        return ANY_MOVE
    return r.get_u16(buf, n - 8 if buf[3] > 2 else n - 6)


def replays(history, game, saved, seen):
    """Whether the journal restored into history means what it says: undone entry by entry on
    `game` (a copy of the saved position, which it changes), every entry names piles, cards
    and variables the game has and a change its piles allow (a pop from a pile holding the
    card, a push onto one with room), the oldest position holds every card once, its
    variables in range and passes the game's check_position (as `load` asks), and then,
    move by move from there, each MARK names a move the game finds legal in that position,
    and making it notes exactly the entries the journal holds for it (so undo, redo and a
    take-back that plays a move again meet only moves the game can make); at the end the
    position is exactly `saved`'s. A journal that passes can be undone to its end without an
    error. `seen` is a scratch bytearray(256). Start-up only: it plays the moves again (move
    generation), allocating nothing."""
    piles = game.piles
    cap = history.capacity
    log = history.log
    first = (history.head - history.used) % cap
    k = history.used - 1
    while k >= 0:
        e = log[(first + k) % cap]
        if hist.kind(e) == hist.VAR_HI:
            if k == 0:
                return False
            lo = log[(first + k - 1) % cap]
            if hist.kind(lo) != hist.VAR_LO or hist.var_index(lo) != hist.var_index(e):
                return False
            if hist.var_index(e) >= len(game.vars):
                return False
            game.vars[hist.var_index(e)] = hist.var_value(e, lo)
            k -= 2
            continue
        if not _undo_entry(piles, e):
            return False
        k -= 1
    for c in range(256):
        seen[c] = 0
    for p in range(piles.count):
        for i in range(piles.size[p]):
            c = piles.card(p, i)
            if seen[c] or not game.is_card(c):
                return False
            seen[c] = 1
    for c in range(256):
        if game.is_card(c) and not seen[c]:
            return False
    # The oldest position is one play could give (its variables, the game's own check, as
    # `load` asks): only then may the game generate moves in it.
    if not _vars_in_range(game) or game.check_position():
        return False
    if not _moves_replay(history, game):
        return False
    for i in range(len(game.vars)):
        if game.vars[i] != saved.vars[i]:
            return False
    for p in range(piles.count):
        if piles.size[p] != saved.piles.size[p]:
            return False
        for i in range(piles.size[p]):
            if piles.card(p, i) != saved.piles.card(p, i):
                return False
    return True


def _vars_in_range(game):
    """The game's shared variables hold values play could give (as a game record's must:
    game_record.vars_in_range). No allocation."""
    v = game.vars
    if not generator_in_range(v[V_DEALER], v[V_RNG], v[V_RNG2]):
        return False
    for i in range(V_SCORE + 4):
        if not var_in_range(game, i, v[i]):
            return False
    return True


def _moves_replay(history, game):
    """The journal's moves made again on `game` (at the oldest position the journal holds):
    each legal there, each noting exactly the journal's entries for it. No allocation."""
    cap = history.capacity
    log = history.log
    first = (history.head - history.used) % cap
    own = game.history
    game.after_restore()  # the piles changed under the game: what it derived is stale
    k = 0
    while k < history.used:
        e = log[(first + k) % cap]
        if hist.kind(e) != hist.MARK:
            return False
        end = k + 1
        while end < history.used and hist.kind(log[(first + end) % cap]) != hist.MARK:
            end += 1
        move = hist.mark_move(e)
        mover = game.mover(move)
        if mover < 0 or mover >= game.players or not game.is_legal(move):
            return False
        own.clear()
        game.apply(move)
        if own.used != end - k:
            return False
        for i in range(end - k):
            if own.log[i] != log[(first + k + i) % cap]:
                return False
        k = end
    own.clear()
    return True


def _undo_entry(piles, e):
    """Undo entry e on piles as History.revert_move does, after checking it can be; False
    (piles unchanged) when it cannot. A MARK changes nothing."""
    tag = hist.kind(e)
    if tag == hist.MARK:
        return True
    p = hist.entry_pile(e)
    if p >= piles.count:
        return False
    if tag == hist.PUSH:
        if piles.top(p) != hist.entry_card(e):
            return False
        piles.pop(p)
    elif tag == hist.POP:
        if piles.free(p) < 1:
            return False
        piles.push(p, hist.entry_card(e))
    elif tag == hist.MOVE:
        dst = hist.entry_dst(e)
        n = hist.entry_count(e)
        if dst >= piles.count or piles.size[dst] < n or piles.free(p) < n or p == dst:
            return False
        piles.move(dst, p, n)
    elif tag == hist.REMOVE:
        if hist.entry_index(e) > piles.size[p] or piles.free(p) < 1:
            return False
        piles.insert_at(p, hist.entry_index(e), hist.entry_card(e))
    elif tag == hist.REVERSE:
        if hist.entry_count(e) > piles.size[p]:
            return False
        piles.reverse(p, hist.entry_count(e))
    else:
        return False  # a VAR_LO without its VAR_HI
    return True
