"""Pairing: which console and which table a frame belongs to, and the tables a joining console
hears (docs/link.md, "Pairing").

Every frame carries three addresses: TABLE, the table's id (a random 1..65535 the host draws
when it opens the table), FROM, the writer's console id (1..65535, drawn when its channel is
made, or its radio address's last two bytes on ESP-NOW), and TO, the console it is for (0: an
offer to anyone, a beacon). `admits` says what a channel makes of a frame from its addresses;
`Tables` keeps the offers a joining console hears, for its player to pick one, and the tables
that ended, so that an offer of one replayed is never taken for a new table. Nothing here
allocates after construction.
"""

from array import array

from engine_core import rng
from engine_core.link.crc import crc16
from engine_core.link.frames import FRAME_MAX, HEADER, OVERHEAD

from micropython import const

# What a channel makes of a frame (admits()).
REFUSED = const(0)  # another table's, another console's, or a replay: counted, nothing changes
LINK = const(1)  # of this link: the channel's sequence numbers and acknowledgements take it
FIRST = const(2)  # the first frame of the guest who took this host's open table: it pairs
BEACON = const(3)  # an offer to anyone (TO 0): a table to list
OWN = const(4)  # the partner's beacon of this very table (its host says it is taken): nothing to take

OFFER_MAX = const(16)  # an offer's bytes (messages.OFFER_HEAD + MAX_SEATS)
TABLES = const(8)  # offers a joining console lists at once
ENDED = const(8)  # tables remembered as ended
GONE_MS = const(3000)  # an offer not heard again for this long leaves the list
BEACON_MS = const(500)  # an open table's offer goes out this often
FULL_MS = const(1000)  # a taken table's (FULL) this often: a bystander's list keeps it (GONE_MS)
_MASK = const(0x3FFFFFFF)  # messages.CLOCK_MASK (messages imports records: kept light here)


def admits(listening, table, partner, me, f_table, f_from, f_to):
    """What a channel in its pairing state (listening; the table it holds, 0: none; its
    partner's console id, 0: none yet; its own id) makes of a frame addressed f_table, f_from,
    f_to: REFUSED, LINK, FIRST or BEACON.

    - A beacon (TO 0, a table named) is listed by a listening console, and taken from the
      partner when it names a new table (the partner offers again after a game); the
      partner's beacon of this table (a host saying its table is taken) is OWN: nothing to
      take, nothing wrong; any other console's is refused.
    - A listening console takes nothing else.
    - A channel with no table (made and never paired: the channel's own tests) is a plain
      point-to-point link of frames with TABLE 0.
    - Otherwise a frame must be of this table and to this console; a host whose table is open
      (no partner yet) pairs with the first console whose frame is (FIRST); once paired, only
      the partner's frames are taken.
    """
    if f_to == 0 and f_table != 0:
        if listening or (partner != 0 and f_from == partner and f_table != table):
            return BEACON
        return OWN if partner != 0 and f_from == partner else REFUSED
    if listening:
        return REFUSED
    if table == 0:
        return LINK if f_table == 0 else REFUSED
    if f_table != table or f_to != me or f_from == 0:
        return REFUSED
    if partner == 0:
        return FIRST
    return LINK if f_from == partner else REFUSED


def draw_noise():  # subset: ok (start-up: called from the channel's __init__)
    # A power cycle must give a different epoch and console id from the last ones, so
    # something that varies between boots: os.urandom where the port has it, else the
    # microsecond clock. 0..65535.
    e = 0
    try:
        import os
        b = os.urandom(2)
        e = b[0] << 8 | b[1]
    except Exception:  # no urandom (ImportError, AttributeError), or one that fails (WASI)
        import time
        e = hash(time.ticks_us()) & 0xFFFF  # (a small int's hash is itself: the stubs call ticks opaque)
    return e


def new_id(noise):
    """An id in 1..65535 from a generator's state (rng.step)."""
    return noise % 65535 + 1


class Tables:
    """The tables a joining console hears, newest offers kept, and the tables that ended.

    count, and per row i < count: host[i] (the host's console id), table[i] (the table's id),
    game_id(i), offer(i) (the offer's bytes, offer_len[i] of them), heard[i] (when last heard).
    `changes` counts changes to the list (a screen redraws when it moves)."""

    def __init__(self):
        self.count = 0
        self.host = array("i", [0] * TABLES)
        self.table = array("i", [0] * TABLES)
        self.heard = array("i", [0] * TABLES)
        self.offers = bytearray(TABLES * OFFER_MAX)
        self.offer_len = bytearray(TABLES)
        self.full = bytearray(TABLES)  # 1: the row's table is taken (its beacon says FULL)
        self.ended_host = array("i", [0] * ENDED)
        self.ended_table = array("i", [0] * ENDED)
        self.ended_at = 0
        self.changes = 0
        self.noise = rng.seed_state(1)

    def find(self, host, table):
        for i in range(self.count):
            if self.host[i] == host and self.table[i] == table:
                return i
        return -1

    def hear(self, host, table, d, n, now, full=False):
        """An offer (d[0:n], already checked) of `table` from `host` heard at `now`, open or
        (full) taken: listed, or its row freshened. True when it is new to the list (a full
        list drops its stalest)."""
        i = self.find(host, table)
        if i >= 0:
            self.heard[i] = now
            if self.full[i] != full:
                self.full[i] = full
                self.changes += 1
            return False
        self.supersede(host, d)
        if self.count == TABLES:
            self._drop(self._stalest(now))
        i = self.count
        self.count += 1
        self.host[i] = host
        self.table[i] = table
        self.heard[i] = now
        at = i * OFFER_MAX
        for k in range(n):
            self.offers[at + k] = d[k]
        self.offer_len[i] = n
        self.full[i] = full
        self.changes += 1
        return True

    def supersede(self, host, d):
        """A new table of `host` drops its rows of another seed: a host offers one table at a
        time (a party table's seats, each a table of its own id, share its seed), so those were
        withdrawn (the seats changed) and are not picked in the seconds before they expire."""
        i = 0
        while i < self.count:
            at = i * OFFER_MAX + 8  # (the seed: messages.py, OFFER)
            if self.host[i] == host and (self.offers[at] != d[8] or self.offers[at + 1] != d[9]
                                         or self.offers[at + 2] != d[10] or self.offers[at + 3] != d[11]):
                self._drop(i)
            else:
                i += 1

    def game_id(self, i):
        return self.offers[i * OFFER_MAX + 1]

    def offer_at(self, i):
        """Where row i's offer starts in `offers`."""
        return i * OFFER_MAX

    def expire(self, now):
        """Drop the rows not heard for GONE_MS."""
        i = 0
        while i < self.count:
            if (now - self.heard[i]) & _MASK >= GONE_MS:
                self._drop(i)
            else:
                i += 1

    def _stalest(self, now):
        k = 0
        for i in range(self.count):
            if (now - self.heard[i]) & _MASK > (now - self.heard[k]) & _MASK:
                k = i
        return k

    def _drop(self, i):
        last = self.count - 1
        while i < last:
            self.host[i] = self.host[i + 1]
            self.table[i] = self.table[i + 1]
            self.heard[i] = self.heard[i + 1]
            self.offer_len[i] = self.offer_len[i + 1]
            self.full[i] = self.full[i + 1]
            at = i * OFFER_MAX
            for k in range(OFFER_MAX):
                self.offers[at + k] = self.offers[at + OFFER_MAX + k]
            i += 1
        self.count = last
        self.changes += 1

    def end(self, host, table):
        """The table ended (played, left, refused): off the list, and never listed again."""
        if table == 0 or self.ended(host, table):
            return
        i = self.ended_at
        self.ended_host[i] = host
        self.ended_table[i] = table
        self.ended_at = (i + 1) % ENDED
        i = self.find(host, table)
        if i >= 0:
            self._drop(i)

    def ended(self, host, table):
        for i in range(ENDED):
            if self.ended_table[i] == table and self.ended_host[i] == host:
                return True
        return False

    def new_table(self, me, now):
        """A table id for this console to host under: random, never one of its ended tables."""
        while True:
            self.noise = rng.step((self.noise & 0xFFFFFF) + now + me)
            table = new_id(self.noise)
            if not self.ended(me, table):
                return table


class Pairing:
    """A channel's pairing (engine_core/link/channel.py makes one): the console's id (`me`),
    whether it listens for offers (`listening`), the table it belongs to and the partner at
    the other end, an open table's offer as a beacon frame, and the addresses every frame it
    writes carries (tx_addr, tx_crc) and every frame of its link carries (rx_addr, rx_crc).
    `talking`: the channel writes link frames (paired, or a plain point-to-point link).

    What the channel asks of it: link(listening, table, partner) (a new link), offer(kind,
    data, n) (the open table's beacon), took(partner) (the first guest's frame paired a host),
    stamp(frame) (the addresses into a frame buffer), beacon_due(now), beaconed(now); it reads
    the fields above. It asks nothing of the channel."""

    def __init__(self, me):
        self.me = me
        self.listening = False
        self.table = 0  # the table this channel belongs to (0: none)
        self.partner = 0  # the console at the other end (0: not paired)
        self.beacon = bytearray(FRAME_MAX)  # an open table's offer, as a frame
        self.beacon_len = 0
        self.t_beacon = -1
        self.tx_addr = bytearray(6)
        self.rx_addr = bytearray(6)
        self.talking = True
        self.tx_crc = 0
        self.rx_crc = 0
        self.address()

    def link(self, listening, table, partner):
        """A new link: listening for offers, or of `table` with `partner` (0: none yet)."""
        self.listening = listening
        self.table = table
        self.partner = partner
        self.beacon_len = 0
        self.t_beacon = -1
        self.address()

    def offer(self, kind, data, n):
        """Host: the open table's offer (a message of `kind`, data[0:n], at most FRAGMENT
        bytes) goes out as a beacon every BEACON_MS until the first guest's frame pairs it.
        data None: the offer's bytes kept, the beacon goes on as `kind` (the table taken:
        FULL, every second, to anyone: TO 0) or, kind 0, stops."""
        b = self.beacon
        if data is None:
            b[2] = kind
            b[11] = b[12] = 0
            self.beacon_len = b[1] + OVERHEAD if kind else 0
            self.t_beacon = -1
            return
        b[1] = n
        b[2] = kind
        b[3] = 0
        for i in range(n):
            b[HEADER + i] = data[i]
        self.beacon_len = n + OVERHEAD

    def took(self, partner):
        """The first frame of the guest who took this host's open table: paired with it."""
        self.partner = partner
        self.beacon_len = 0
        self.address()

    def beacon_due(self, now):
        return self.beacon_len and (self.t_beacon < 0 or ((now - self.t_beacon) & _MASK)
                                    >= (BEACON_MS if self.partner == 0 else FULL_MS))

    def beaconed(self, now):
        self.t_beacon = now

    def address(self):
        # TABLE, FROM and TO of every frame this side writes (bytes 7..12), and their CRC,
        # whenever they change (the channel stamps its frame buffers with them: a frame
        # written costs nothing more for them); rx_addr: the same of the partner's frames,
        # and rx_crc their CRC.
        self.talking = not self.listening and (self.table == 0 or self.partner != 0)
        tx = self.tx_addr
        rx = self.rx_addr
        tx[0] = rx[0] = self.table >> 8
        tx[1] = rx[1] = self.table & 0xFF
        tx[2] = rx[4] = self.me >> 8
        tx[3] = rx[5] = self.me & 0xFF
        tx[4] = rx[2] = self.partner >> 8
        tx[5] = rx[3] = self.partner & 0xFF
        self.tx_crc = crc16(tx, 0, 6)
        self.rx_crc = crc16(rx, 0, 6)
        self.stamp(self.beacon)

    def stamp(self, b):
        """This side's addresses into frame buffer b (bytes 7..12)."""
        a = self.tx_addr
        for i in range(6):
            b[7 + i] = a[i]
