"""The channel's check of a frame (engine_core/link/channel.py; docs/link.md, "A frame, byte by
byte"): CRC-16/CCITT-FALSE (polynomial 0x1021, initial 0xFFFF, no reflection, no final xor;
b"123456789" gives 0x29B1), table-driven, nothing allocated after import.
"""


def _tables():  # subset: ok (start-up: the CRC tables, built once at import)
    # The table of CRC-16/CCITT split into its high and low bytes: the running CRC is kept as
    # two bytes too, which saves the shifts and masks of each step (about 2,000 fuel a byte).
    high = bytearray(256)
    low = bytearray(256)
    for i in range(256):
        c = i << 8
        for _ in range(8):
            c = ((c << 1) ^ 0x1021) if c & 0x8000 else (c << 1)
        high[i] = (c >> 8) & 0xFF
        low[i] = c & 0xFF
    return high, low


CRC_HIGH, CRC_LOW = _tables()


def crc16(buf, start, end, crc=0xFFFF):
    """CRC-16/CCITT-FALSE of buf[start:end], going on from `crc` (b"123456789" gives 0x29B1).

    No allocation.
    """
    hi = crc >> 8
    lo = crc & 0xFF
    th = CRC_HIGH
    tl = CRC_LOW
    i = start
    while i + 4 <= end:
        x = hi ^ buf[i]
        hi = lo ^ th[x]
        lo = tl[x]
        x = hi ^ buf[i + 1]
        hi = lo ^ th[x]
        lo = tl[x]
        x = hi ^ buf[i + 2]
        hi = lo ^ th[x]
        lo = tl[x]
        x = hi ^ buf[i + 3]
        hi = lo ^ th[x]
        lo = tl[x]
        i += 4
    while i < end:
        x = hi ^ buf[i]
        hi = lo ^ th[x]
        lo = tl[x]
        i += 1
    return hi << 8 | lo


def frame_crc(buf, p, end, crc):
    """The CRC of the frame at buf[p:end], going on from `crc`, the CRC of its addresses
    (bytes p+7 .. p+12: address_crc): then its bytes p+1 .. p+6, the six steps written out, and
    its message, p+13 .. end-3, four bytes a turn (about 1,850 fuel a byte on MicroPython).
    The addresses come first so that a link's own, which never change, cost nothing a frame."""
    th = CRC_HIGH
    tl = CRC_LOW
    x = (crc >> 8) ^ buf[p + 1]
    hi = (crc & 0xFF) ^ th[x]
    lo = tl[x]
    x = hi ^ buf[p + 2]
    hi = lo ^ th[x]
    lo = tl[x]
    x = hi ^ buf[p + 3]
    hi = lo ^ th[x]
    lo = tl[x]
    x = hi ^ buf[p + 4]
    hi = lo ^ th[x]
    lo = tl[x]
    x = hi ^ buf[p + 5]
    hi = lo ^ th[x]
    lo = tl[x]
    x = hi ^ buf[p + 6]
    hi = lo ^ th[x]
    lo = tl[x]
    return crc16(buf, p + 13, end - 2, hi << 8 | lo)


def address_crc(buf, p):
    """The CRC of a frame's addresses, bytes p+7 .. p+12, where frame_crc starts."""
    return crc16(buf, p + 7, p + 13)
