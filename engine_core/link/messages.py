"""The session's messages: their kinds, their layouts and the checks every one passes before
the session acts on it (docs/link.md, "Messages" and "Threat model"), and the codes the link's
modules share (seat kinds, poll flags, session states, refusal reasons, the clock's wrap).

The peer is untrusted: `check(kind, d, n, players, record)` looks at a message's length and
at every field that can be judged without the game (ranges, seats, the offer's seats); the
session then judges it against its state (session.ACCEPTS) and the game (the move's legality,
the state's position). Nothing here allocates.
"""

from engine_core import records as r

from micropython import const

# Of these messages; 3: a table's game is dealt with the SPECTRAL generator (engine_core/rng.py).
# A version-2 table deals with COMBINED: this console joins one, dealing as its host does
# (DEALS_WITH); a version-2 console cannot join a table of this one, and says so. Version 1
# dealt with LEHMER and is refused.
VERSION = const(3)
OLD_VERSION = const(2)

# The clock every link module compares as differences modulo 2**30: the app's clock wraps
# here (engine_core/ui/app.py), and so do the channel's and the session's times.
CLOCK_MASK = const(0x3FFFFFFF)

# Message kinds (the channel's kind byte).
OFFER = const(1)
ACCEPT = const(2)
REFUSE = const(3)
MOVE = const(4)
UNDO = const(5)
HASH = const(6)
CLOCK = const(7)
RESYNC = const(8)
STATE = const(9)
BYE = const(10)
FULL = const(11)  # a taken table's offer, still sent as a beacon: two consoles play there
KINDS = const(11)

# Who sits at a seat, from one console's view.
HERE = const(1)
THERE = const(2)
COMPUTER = const(3)
OTHER = const(4)  # a party table's seat of another guest: the host relays its moves (hub.py)
MAX_SEATS = const(4)

# Session.poll() flags.
F_OFFER = const(1)
F_STARTED = const(2)
F_CHANGED = const(4)
F_PAUSED = const(8)
F_RESUMED = const(16)
F_DESYNC = const(32)
F_LEFT = const(64)
F_REFUSED = const(128)

# Session states (session.py: the table of transitions and of the kinds each accepts).
S_IDLE = const(0)
S_WAITING = const(1)
S_PLAYING = const(2)
S_PAUSED = const(3)
S_LEFT = const(4)
S_DESYNC = const(5)

# What moves a session from one state to another (session.TRANSITIONS).
E_HOST = const(1)  # this console offers a table
E_JOIN = const(2)  # this console waits for one
E_OFFER = const(3)  # an offer came that this console can play: its player answers
E_START = const(4)  # this console accepted, or the peer accepted this console's offer
E_REFUSE = const(5)  # this console refused an offer, or the peer refused this one's
E_CANCEL = const(6)  # this console stopped waiting
E_LEAVE = const(7)  # this console left, the peer said BYE, or the link started over
E_SILENT = const(8)  # nothing heard for SILENCE_MS
E_HEARD = const(9)  # heard again: back to the state before the pause
E_DISAGREE = const(10)  # the consoles disagree: the host's state is on its way
E_AGREE = const(11)  # the state was sent (host) or loaded (guest), or the guest stops asking

# Reasons for refusing an offer (REFUSE's byte).
R_DECLINED = const(1)  # the person at the guest said no
R_VERSION = const(2)  # another version of these messages
R_GAME = const(3)  # a game this console does not have
R_RULES = const(4)  # a rule profile it cannot play
R_BUSY = const(5)
R_INVALID = const(6)  # an offer that breaks its own layout (seats, options, seed)

# Layouts: the fixed lengths, and the heads of the variable ones.
OFFER_HEAD = const(12)  # version, game, rules, players, options(4), seed(4); a seat kind a player
ACCEPT_LEN = const(7)  # version, game, rules, seed(4)
REFUSE_LEN = const(1)  # reason
LOCKSTEP_RECORD = const(4)  # a MOVE record in turn-based play: seat, move(3)
REALTIME_RECORD = const(10)  # in real-time play: seat, move(3), time(4), counter(2)
UNDO_LEN = const(2)  # gen, seat
HASH_LEN = const(9)  # gen, key(4), hash(4)
CLOCK_LEN = const(5)  # gen, time(4)
RESYNC_LEN = const(5)  # gen, hash(4)
STATE_HEAD = const(13)  # gen, offset(2), total(2), key(4), hash(4); then the record's bytes
STATE_DATA = const(107)  # record bytes per chunk (13 + 107 = 120, the channel's payload)
STATE_MAX = const(1024)  # a state record's most bytes (save.BUFFER_SIZE)
# A STATE's key at most: 10 days of Nerts game time in ms, and the most turns a Spite & Malice
# table believes. The key becomes the guest's turn number, which counts on from there: one near
# 2**30 went past what a HASH may carry (and past MicroPython's small ints), and no hash was
# compared again.
STATE_KEY_MOST = const(864000000)
PAYLOAD_MAX = const(120)

# Why check() refused a message (0: it passed).
BAD_LENGTH = const(1)
BAD_FIELD = const(2)
BAD_SEAT = const(3)


def _u30(d, at):
    """A four-byte field that must hold 0 .. 2**30 - 1 (put_i32 of a non-negative int)."""
    return d[at] & 0xC0 == 0


def check(kind, d, n, players, record):
    """0 when message `kind` with payload d[0:n] keeps its layout, else BAD_*: exact length,
    fields in range, seats below `players`; `record` is the MOVE record's size of the table's
    play (LOCKSTEP_RECORD or REALTIME_RECORD). An OFFER is judged by the session, which
    answers it with a reason (another version: R_VERSION; a broken one, check_offer:
    R_INVALID). No allocation."""
    if n < 0 or n > PAYLOAD_MAX:
        return BAD_LENGTH
    if kind == OFFER or kind == FULL:
        return 0 if n >= 4 else BAD_LENGTH  # the rest: check_offer, refused with a reason
    if kind == ACCEPT:
        if n != ACCEPT_LEN:
            return BAD_LENGTH
        return 0 if _u30(d, 3) else BAD_FIELD
    if kind == REFUSE:
        if n != REFUSE_LEN:
            return BAD_LENGTH
        return 0 if R_DECLINED <= d[0] <= R_INVALID else BAD_FIELD
    if kind == MOVE:
        if n < 1 + record or (n - 1) % record != 0:
            return BAD_LENGTH
        at = 1
        while at < n:
            if d[at] >= players:
                return BAD_SEAT
            if record == REALTIME_RECORD and not _u30(d, at + 4):
                return BAD_FIELD
            at += record
        return 0
    if kind == UNDO:
        if n != UNDO_LEN:
            return BAD_LENGTH
        return 0 if d[1] < players else BAD_SEAT
    if kind == HASH:
        if n != HASH_LEN:
            return BAD_LENGTH
        return 0 if _u30(d, 1) and _u30(d, 5) else BAD_FIELD
    if kind == CLOCK:
        if n != CLOCK_LEN and n != CLOCK_LEN + 1:  # (+1: a party table's seats away, hub.py)
            return BAD_LENGTH
        return 0 if _u30(d, 1) else BAD_FIELD
    if kind == RESYNC:
        if n != RESYNC_LEN:
            return BAD_LENGTH
        return 0 if _u30(d, 1) else BAD_FIELD
    if kind == STATE:
        if n <= STATE_HEAD:
            return BAD_LENGTH
        at = r.get_u16(d, 1)
        total = r.get_u16(d, 3)
        if total > STATE_MAX or at + n - STATE_HEAD > total:
            return BAD_FIELD
        return 0 if _u30(d, 5) and r.get_i32(d, 5) <= STATE_KEY_MOST and _u30(d, 9) else BAD_FIELD
    if kind == BYE:
        return 0 if n == 0 else BAD_LENGTH
    return BAD_FIELD  # no such kind


def check_offer(d, n):
    """An offer of this version: players 2..MAX_SEATS, exactly one seat kind each, options and
    seed non-negative 30-bit ints, and the seats: the host at seat 0 (HERE), exactly one seat
    for the guest (THERE), any others the computer's or (a party table) other guests'."""
    players = d[3]
    if players < 2 or players > MAX_SEATS or n != OFFER_HEAD + players:
        return BAD_LENGTH
    if not _u30(d, 4) or not _u30(d, 8):
        return BAD_FIELD
    if d[OFFER_HEAD] != HERE:
        return BAD_SEAT
    there = 0
    for p in range(1, players):
        kind = d[OFFER_HEAD + p]
        if kind == THERE:
            there += 1
        elif kind != COMPUTER and kind != OTHER:
            return BAD_SEAT
    return 0 if there == 1 else BAD_SEAT

ASK_MS = const(5000)  # a guest that asked for the state and got none in this time plays on
