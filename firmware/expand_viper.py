"""Palette expansion in viper: the device's fast path (firmware/expand_plain.py is the
reference; tests run this source on the host through a stand-in for the viper types and
check it writes the same bytes).

The table's 2-byte entries are read and written as 16-bit words: whatever the chip's byte
order, a word copied from the table lands in the line in the same byte order (big-endian,
as the panel wants).

Viper code compiles only for a chip: `mpy-cross -march=armv6m` or `-march=xtensawin`, as
`make build` and tests/test_micropython.py do; a plain `mpy-cross` refuses it ("invalid
arch"), and the WASI MicroPython has no viper, so firmware/panel.py falls back there.
"""

import micropython


@micropython.viper
def expand_row(line, at: int, buf, start: int, count: int, table):
    dst = ptr16(line)
    src = ptr8(buf)
    colours = ptr16(table)
    j = at >> 1
    p = start
    end = start + count
    if p & 1:
        dst[j] = colours[src[p >> 1] & 15]
        j += 1
        p += 1
    while p + 1 < end:
        b = src[p >> 1]
        dst[j] = colours[b >> 4]
        dst[j + 1] = colours[b & 15]
        j += 2
        p += 2
    if p < end:
        dst[j] = colours[src[p >> 1] >> 4]
