"""A stand-in for MicroPython's `espnow` module (ESP32), for the link transport under test on
CPython and MicroPython: every active ESPNow object hears what any other sends (one room, no
radio), in order, into a preallocated queue of SLOTS datagrams; a test may drop or refuse.
irecv() reuses its list and buffers as the real one does, so using it allocates nothing."""

SLOTS = 16
MAX_DATA_LEN = 250
_air = []  # the active ESPNow objects


class ESPNow:
    def __init__(self, mac=b"\x02\x00\x00\x00\x00\x01"):
        self.mac = bytes(mac)
        self.on = False
        self.peers = []
        self.slots = [bytearray(MAX_DATA_LEN) for _ in range(SLOTS)]
        self.views = [[memoryview(s)[:n] for n in range(MAX_DATA_LEN + 1)] for s in self.slots]
        self.lens = [0] * SLOTS
        self.macs = [b""] * SLOTS
        self.head = 0
        self.count = 0
        self.result = [None, None]
        self.full = False  # set by a test: send() raises as a full queue does
        self.sent = 0

    def active(self, on=None):
        if on is None:
            return self.on
        self.on = on
        if on and self not in _air:
            _air.append(self)
        elif not on and self in _air:
            _air.remove(self)
        return None

    def add_peer(self, mac):
        self.peers.append(bytes(mac))

    def send(self, mac, msg, sync=True):
        if self.full:
            raise OSError(12, "ESP_ERR_ESPNOW_NO_MEM")
        n = len(msg)
        if n > MAX_DATA_LEN:
            raise ValueError("msg too long")
        self.sent += 1
        for other in _air:
            if other is self or other.count == SLOTS:
                continue
            k = (other.head + other.count) % SLOTS
            slot = other.slots[k]
            for i in range(n):
                slot[i] = msg[i]
            other.lens[k] = n
            other.macs[k] = self.mac
            other.count += 1
        return True

    def irecv(self, timeout_ms=None):
        result = self.result
        if self.count == 0:
            result[0] = None
            result[1] = None
            return result
        k = self.head
        result[0] = self.macs[k]
        result[1] = self.views[k][self.lens[k]]
        self.head = (k + 1) % SLOTS
        self.count -= 1
        return result

    def any(self):
        return self.count > 0


def reset():
    """Empty the room (between tests)."""
    del _air[:]
