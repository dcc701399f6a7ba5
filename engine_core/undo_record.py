"""The undo journal saved beside the game in progress, so undo works after a restart.

A record of its own (kind 'U'), written right after the game record into the Keeper's buffer:
the newest whole moves of the journal (engine_core/history.py) that fit, and the checksum of
the game record they belong to. At resume the journal is put back only when that checksum is
the saved game's (a power cut between the two writes leaves an older journal: it is dropped,
and the game resumes with nothing to undo, never with a wrong undo).

Payload (version 1):
    the game record's CRC                      four bytes, as the record ends
    entry count                                two bytes
    each entry, oldest first                   four bytes (a journal entry, below 2**30)
The Keeper's 1,024-byte buffer holds 250 entries: 60-80 moves of a patience game.
"""

from engine_core import history as hist
from engine_core import records as r

from micropython import const

KIND_UNDO = const(0x55)  # 'U'
UNDO_VERSION = const(1)
_FIXED = const(6)


def remember_crc(buf, n, crc):
    """Copy the CRC of the record buf[0:n] into crc (a bytearray(4))."""
    for i in range(4):
        crc[i] = buf[n - 4 + i]


def encode_journal(history, crc, buf):
    """Write the newest whole moves of history that fit into buf; returns the record's size.
    No allocation."""
    room = (len(buf) - r.OVERHEAD - _FIXED) // 4
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
    pos = r.put_u16(buf, pos + 4, count)
    i = start
    for _ in range(count):
        pos = r.put_i32(buf, pos, log[i])
        i = (i + 1) % cap
    return r.finish(buf, pos)


def restore_journal(history, buf, n, crc):
    """Put a checked journal record buf[0:n] into the (cleared) history of the game whose
    record had CRC crc. r.OK, r.VERSION, or r.INVALID (another game's journal, a bad entry);
    the history changes only on OK. No allocation."""
    if buf[3] != UNDO_VERSION:
        return r.VERSION
    pos = r.HEADER
    for i in range(4):
        if buf[pos + i] != crc[i]:
            return r.INVALID
    count = r.get_u16(buf, pos + 4)
    first = pos + _FIXED
    if first + 4 * count + 4 != n or count > history.capacity:
        return r.INVALID
    moves = 0
    for k in range(count):
        e = r.get_i32(buf, first + 4 * k)
        if not hist.is_entry(e) or (k == 0 and hist.kind(e) != hist.MARK):
            return r.INVALID
        if hist.kind(e) == hist.MARK:
            moves += 1
    history.clear()
    log = history.log
    for k in range(count):
        log[k] = r.get_i32(buf, first + 4 * k)
    history.head = count % history.capacity
    history.used = count
    history.moves = moves
    return r.OK
