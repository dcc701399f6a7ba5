"""Small versioned records on the device's filesystem, safe against power loss.

    store = Store("/data")                    # the folder is created when missing
    store.save("settings", 1, payload)        # bytes; written to settings.tmp, then renamed
    payload = store.load("settings", 1)       # bytes, or None: store.problem says why

A record is: b"PC", version (1 byte), payload length (2 bytes, little-endian), the payload,
and a CRC-16/CCITT of everything before it (2 bytes). A record that is missing, short,
corrupt or of another version loads as None with `problem` set ("missing", "short",
"corrupt", "version"); a damaged one is kept aside as NAME.bad for a later look, never
deleted. The caller then uses its defaults. Records are written rarely (settings, a game
in progress, statistics): this module allocates and is not for the frame loop.
"""

import os

MAGIC = b"PC"
HEADER = 5
MAX_PAYLOAD = 0xFFFF


def crc16(data, crc=0xFFFF):
    """CRC-16/CCITT-FALSE of `data`."""
    for byte in data:
        crc ^= byte << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) & 0xFFFF if crc & 0x8000 else (crc << 1) & 0xFFFF
    return crc


def encode(version, payload):
    """The bytes of one record."""
    if not 0 <= version <= 255 or len(payload) > MAX_PAYLOAD:
        raise ValueError("record version or size out of range")
    head = MAGIC + bytes((version, len(payload) & 255, len(payload) >> 8))
    body = head + bytes(payload)
    crc = crc16(body)
    return body + bytes((crc & 255, crc >> 8))


def decode(data, version):
    """(payload, problem): the payload and None, or None and why not."""
    if len(data) < HEADER + 2:
        return None, "short"
    if data[0:2] != MAGIC:
        return None, "corrupt"
    size = data[3] | data[4] << 8
    if len(data) < HEADER + size + 2:
        return None, "short"
    end = HEADER + size
    if crc16(data[0:end]) != data[end] | data[end + 1] << 8 or len(data) != end + 2:
        return None, "corrupt"
    if data[2] != version:
        return None, "version"
    return bytes(data[HEADER:end]), None


def _exists(path):
    try:
        os.stat(path)
        return True
    except OSError:
        return False


class Store:
    def __init__(self, folder):
        self.folder = folder
        self.problem = None
        if not _exists(folder):
            os.mkdir(folder)

    def path(self, name):
        return self.folder + "/" + name

    def save(self, name, version, payload):
        """Write a record: a temporary file first, renamed over the old record when whole."""
        final = self.path(name)
        temp = final + ".tmp"
        with open(temp, "wb") as f:
            f.write(encode(version, payload))
        try:
            os.rename(temp, final)
        except OSError:             # filesystems that refuse to rename over a file
            os.remove(final)
            os.rename(temp, final)

    def load(self, name, version):
        """The payload of a record, or None with `problem` set (a damaged file kept as .bad)."""
        path = self.path(name)
        self.problem = None
        try:
            with open(path, "rb") as f:
                data = f.read()
        except OSError:
            self.problem = "missing"
            return None
        payload, problem = decode(data, version)
        if problem is not None:
            self.problem = problem
            if _exists(path + ".bad"):
                os.remove(path + ".bad")
            os.rename(path, path + ".bad")
        return payload
