"""Link play over ESP-NOW between two ESP32 boards, no wires (docs/link.md): the transport of
engine_core/link/channel.py.

    from firmware.link_espnow import open_link
    link = open_link()               # broadcast; link.console_id: the radio address's last two bytes
    ch = Channel(link)               # (the channel's own id: frames carry it as FROM)

write(buf, n) sends buf[0:n] as one datagram (the channel writes one frame at a time, 69 bytes at
most); readinto(buf) copies one received datagram (the rest of one longer than buf at the next
call). Neither blocks: send() does not wait for the radio's acknowledgement (the channel has its
own) and irecv(0) returns at once. Nothing allocates after construction: the outgoing bytes go
through one buffer whose memoryviews of every length are made here, and irecv() reuses its list
and buffers. A full send queue (OSError) takes nothing: the channel writes again later.

Who sent it: every console hears every other in range. A frame carries its table and its
writer's console id (FROM: engine_core/link/pairing.py), and on ESP-NOW a console's id is its
radio address's last two bytes, so a datagram whose frame names a writer other than the radio
that sent it is dropped here (counted in `ignored`); the channel then takes only the frames
of its table from its partner (docs/link.md, "Pairing").
"""

BROADCAST = b"\xff\xff\xff\xff\xff\xff"
DATAGRAM = 128  # bytes sent at most per write(): more than a frame (75)
SYNC = 0xA5  # a frame's first byte (engine_core/link/frames.py)
FROM_AT = 9  # where a frame's FROM is (frames.FROM_AT)


def console_id(mac):
    """A console's id from its radio address: the last two bytes (never 0)."""
    return (mac[4] << 8 | mac[5]) or 0xFFFF


class EspNowLink:
    """A transport over an espnow.ESPNow object that is active and has BROADCAST as a peer."""

    def __init__(self, esp, mac=b"\x02\x00\x00\x00\x00\x01"):
        self.esp = esp
        self.console_id = console_id(mac)  # this console's id on the link (Channel takes it)
        self._tx = bytearray(DATAGRAM)
        self._views = [memoryview(self._tx)[:n] for n in range(DATAGRAM + 1)]
        self._msg = self._tx  # the datagram being read (irecv's buffer)
        self._msg_len = 0
        self._msg_pos = 0
        self.refused = 0  # writes the radio's queue had no room for
        self.ignored = 0  # datagrams whose frame names a writer other than their radio

    def write(self, buf, n):
        """Send buf[0:n] (DATAGRAM bytes at most) as one datagram; bytes taken (0: queue full)."""
        if n > DATAGRAM:
            n = DATAGRAM
        tx = self._tx
        for i in range(n):
            tx[i] = buf[i]
        try:
            self.esp.send(BROADCAST, self._views[n], False)
        except OSError:
            self.refused += 1
            return 0
        return n

    def readinto(self, buf):
        """Copy (the rest of) one datagram into buf; 0 when none waits (or the one that came
        names another writer than its radio)."""
        if self._msg_pos >= self._msg_len:
            got = self.esp.irecv(0)
            mac = got[0]
            if mac is None:
                return 0
            msg = got[1]
            if len(msg) > FROM_AT + 1 and msg[0] == SYNC and \
                    msg[FROM_AT] << 8 | msg[FROM_AT + 1] != console_id(mac):
                self.ignored += 1
                return 0
            self._msg = got[1]
            self._msg_len = len(self._msg)
            self._msg_pos = 0
        msg = self._msg
        pos = self._msg_pos
        n = self._msg_len - pos
        if n > len(buf):
            n = len(buf)
        for i in range(n):
            buf[i] = msg[pos + i]
        self._msg_pos = pos + n
        return n


def open_link(wifi_channel=1):
    """Wi-Fi on in station mode (not connected), ESP-NOW active, the broadcast peer added."""
    network = __import__("network")
    espnow = __import__("espnow")
    sta = network.WLAN(network.STA_IF)
    sta.active(True)
    sta.disconnect()
    sta.config(channel=wifi_channel)  # both consoles must be on the same channel
    esp = espnow.ESPNow()
    esp.active(True)
    esp.add_peer(BROADCAST)
    return EspNowLink(esp, sta.config("mac"))


class Shared:
    """A party table's host on one radio (engine_core/link/hub.py): `legs`, a transport for each
    guest's channel, over one datagram link (an EspNowLink). Each datagram read goes to the leg
    whose partner wrote it (FROM), or, from a console no leg is paired with, to the leg whose
    seat's table it names while that seat waits for its guest: the others never see it. A leg
    holds up to _HELD datagrams until its channel reads them (more are dropped: the writer's
    channel sends again). Every leg writes through the radio; each frame names its guest (TO).
    Tell it the hub's legs with bind(hub) once the hub is made. Nothing allocates after that."""

    def __init__(self, link, guests):
        self.link = link
        self.console_id = getattr(link, "console_id", 0)
        self.buf = bytearray(DATAGRAM)
        self.legs = [_Leg(self) for _ in range(guests)]
        self.channels = []  # type: list
        self.ignored = 0  # datagrams no leg takes

    def bind(self, hub):
        self.channels = hub.legs

    def pump(self):
        buf = self.buf
        while True:
            n = self.link.readinto(buf)
            if not n:
                return
            if n < 15 or buf[0] != SYNC:
                self.ignored += 1
                continue
            writer = buf[FROM_AT] << 8 | buf[FROM_AT + 1]
            to = -1
            for i in range(len(self.channels)):
                if self.channels[i].partner == writer:
                    to = i
                    break
            if to < 0:  # a new guest: to the leg whose seat (its table) it answers
                table = buf[7] << 8 | buf[8]
                for i in range(len(self.channels)):
                    ch = self.channels[i]
                    if ch.partner == 0 and ch.table == table:
                        to = i
                        break
            if to < 0 or not self.legs[to].put(buf, n):
                self.ignored += 1


_HELD = 4  # datagrams a leg holds for its channel


class _Leg:
    def __init__(self, shared):
        self.shared = shared
        self.console_id = shared.console_id
        self.held = bytearray(_HELD * DATAGRAM)
        self.lens = bytearray(_HELD)
        self.head = 0
        self.count = 0

    def put(self, buf, n):
        if self.count == _HELD:
            return False
        at = (self.head + self.count) % _HELD
        self.lens[at] = n
        base = at * DATAGRAM
        held = self.held
        for i in range(n):
            held[base + i] = buf[i]
        self.count += 1
        return True

    def write(self, buf, n):
        return self.shared.link.write(buf, n)

    def readinto(self, buf):
        self.shared.pump()
        if not self.count:
            return 0
        at = self.head
        n = self.lens[at]
        base = at * DATAGRAM
        held = self.held
        for i in range(n):
            buf[i] = held[base + i]
        self.head = (at + 1) % _HELD
        self.count -= 1
        return n


class PartyRadio:
    """A console's own link on an ESP32, able to host a party table (engine_core/ui/party.py's
    wiring): it reads and writes through `radio` (firmware.main.LinkOnDemand), and while a
    table of more than two is hosted through the first leg of a Shared over that radio, whose
    further legs (`further`) are the hub's. The Shared is made the first time a table is hosted
    from the lobby (take), for good."""

    def __init__(self, radio):
        self.radio = radio
        self.shared = None
        self.further = []  # type: list
        self.leg = None  # the Shared's first leg while a party table is hosted

    @property
    def console_id(self):
        return self.radio.console_id

    @property
    def bytes_read(self):
        return self.radio.bytes_read

    def take(self, guests):
        """The table hosted now seats `guests` guests (1: a table of two, or joining)."""
        if guests > 1 and self.shared is None:
            self.shared = Shared(self.radio, 3)
            self.further = self.shared.legs[1:]
        self.leg = self.shared.legs[0] if guests > 1 and self.shared is not None else None

    def bind(self, hub):
        if self.shared is not None:
            self.shared.bind(hub)

    def write(self, buf, n):
        leg = self.leg
        return leg.write(buf, n) if leg is not None else self.radio.write(buf, n)

    def readinto(self, buf):
        leg = self.leg
        return leg.readinto(buf) if leg is not None else self.radio.readinto(buf)
