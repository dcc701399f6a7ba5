"""Palette expansion in plain Python: the fallback where neither viper nor framebuf is there
(the host tests).

expand_row(line, at, buf, start, count, table) writes `count` pixels, starting at pixel index
`start` of the GS4_HMSB buffer `buf` (2 pixels a byte, left pixel in the high nibble), into
`line` from byte `at` on, as big-endian RGB565 through `table` (bytearray(32): colour i's high
byte at 2*i, low byte at 2*i + 1). No allocation.
"""


def expand_row(line, at, buf, start, count, table):
    j = at
    p = start
    end = start + count
    if p & 1:
        v = (buf[p >> 1] & 15) << 1
        line[j] = table[v]
        line[j + 1] = table[v + 1]
        j += 2
        p += 1
    while p + 1 < end:
        b = buf[p >> 1]
        v = (b >> 4) << 1
        line[j] = table[v]
        line[j + 1] = table[v + 1]
        v = (b & 15) << 1
        line[j + 2] = table[v]
        line[j + 3] = table[v + 1]
        j += 4
        p += 2
    if p < end:
        v = (buf[p >> 1] >> 4) << 1
        line[j] = table[v]
        line[j + 1] = table[v + 1]
