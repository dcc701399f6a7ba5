"""Link play over ESP-NOW between two ESP32 boards, no wires (docs/link.md): the transport of
engine_core/link/channel.py.

    from firmware.link_espnow import open_link
    link = open_link()               # broadcast until the partner is heard, then only it
    ch = Channel(link)

write(buf, n) sends buf[0:n] as one datagram (the channel writes one frame at a time, 69 bytes at
most); readinto(buf) copies one received datagram (the rest of one longer than buf at the next
call). Neither blocks: send() does not wait for the radio's acknowledgement (the channel has its
own) and irecv(0) returns at once. Nothing allocates after construction: the outgoing bytes go
through one buffer whose memoryviews of every length are made here, and irecv() reuses its list
and buffers. A full send queue (OSError) takes nothing: the channel writes again later.

Partner: the first console heard. Frames from any other sender are ignored until forget()
(a new table), so two pairs of consoles in one room keep to themselves once paired.
"""

BROADCAST = b"\xff\xff\xff\xff\xff\xff"
DATAGRAM = 128  # bytes sent at most per write(): more than a frame (69)


class EspNowLink:
    """A transport over an espnow.ESPNow object that is active and has BROADCAST as a peer."""

    def __init__(self, esp):
        self.esp = esp
        self._tx = bytearray(DATAGRAM)
        self._views = [memoryview(self._tx)[:n] for n in range(DATAGRAM + 1)]
        self.partner = bytearray(6)
        self.paired = False
        self._msg = self._tx  # the datagram being read (irecv's buffer)
        self._msg_len = 0
        self._msg_pos = 0
        self.refused = 0  # writes the radio's queue had no room for
        self.ignored = 0  # datagrams from a console that is not the partner

    def forget(self):
        """Forget the partner: the next console heard becomes it."""
        self.paired = False

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
        """Copy (the rest of) one datagram from the partner into buf; 0 when none waits."""
        if self._msg_pos >= self._msg_len:
            got = self.esp.irecv(0)
            mac = got[0]
            if mac is None:
                return 0
            if not self.paired:
                partner = self.partner
                for i in range(6):
                    partner[i] = mac[i]
                self.paired = True
            elif mac != self.partner:
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
    return EspNowLink(esp)
