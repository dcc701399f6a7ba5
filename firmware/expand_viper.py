"""Palette expansion in viper: the device's fast path (firmware/expand_plain.py is the
reference; tests run this source on the host through a stand-in for the viper types and
check it writes the same bytes). And a deal's shuffle (engine_core/rng.py's shuffle2 is the
reference, which every host runs; the device runs this one in its place: firmware/main.py).

The table's 2-byte entries are read as 16-bit words and paired into 32-bit words in memory
order: copied into the line, each pixel's bytes land as they stand in the table (big-endian,
as the panel wants) on a little-endian chip (RP2040, ESP32).

Viper code compiles only for a chip: `mpy-cross -march=armv6m` or `-march=xtensawin`, as
`make build` and tests/test_micropython.py do; a plain `mpy-cross` refuses it ("invalid
arch"), and the WASI MicroPython has no viper, so firmware/panel.py falls back there.
"""

import micropython

from engine_core.records import CRC_HH, CRC_HL, CRC_LH, CRC_LL


@micropython.viper
def make_pairs(pairs, table):
    """pairs[b]: byte b's two pixels (high nibble first) as one 32-bit word, built from the
    16-entry table whenever the palette changes (1 KB; expand_rows reads it)."""
    dst = ptr32(pairs)
    colours = ptr16(table)
    b = 0
    while b < 256:
        dst[b] = colours[b >> 4] | (colours[b & 15] << 16)
        b += 1


@micropython.viper
def expand_rows(line, buf, start: int, count: int, rows: int, width: int, pairs):
    """`rows` rows of `count` pixels from pixel `start`, `width` pixels apart, one after
    another into `line`. start, count and width are multiples of 8 (the panel widens windows
    to 8-pixel columns), so each 32-bit word of the framebuffer is 8 whole pixels: one load,
    then four 32-bit stores from the pairs table. Measured on rp2040js (240x240, DMA feeder):
    a full-screen flush 57.5 ms with one row and one call a pixel pair, 21.3 ms with a byte a
    pair, 15.7 ms with a word a loop (the wire alone: 14.75 ms)."""
    dst = ptr32(line)
    src = ptr32(buf)
    pair = ptr32(pairs)
    j = 0
    first = start >> 3
    stride = width >> 3
    r = 0
    while r < rows:
        q = first
        end = q + (count >> 3)
        while q < end:
            w = src[q]
            dst[j] = pair[w & 255]
            dst[j + 1] = pair[(w >> 8) & 255]
            dst[j + 2] = pair[(w >> 16) & 255]
            dst[j + 3] = pair[(w >> 24) & 255]
            j += 4
            q += 1
        first += stride
        r += 1


@micropython.viper
def copy_bytes(dst, at: int, src, start: int, n: int):
    """dst[at:at + n] = src[start:start + n], with no slice made (firmware/oled.py: a page's
    span behind the control byte: a loop of bytecode a byte took 8.5 ms of a 128x64 frame)."""
    d = ptr8(dst)
    s = ptr8(src)
    i = 0
    while i < n:
        d[at + i] = s[start + i]
        i += 1


@micropython.viper
def merge_rects(dirty, count: int, slack: int) -> int:
    """Merge the dirty rectangles (x, y, w, h in an array('h'), as Screen keeps them) two by
    two wherever their bounding box has at most `slack` pixels more than the two: a card
    sliding over its last place, a cursor over a card. Each rectangle sent costs a window's
    commands and a viper call besides its pixels (about what `slack` pixels take on the
    wire), and overlapping ones send their common pixels twice. Returns the new count; the
    rectangles merged away are overwritten by the last ones."""
    d = ptr16(dirty)
    i = 0
    while i < count:
        a = 4 * i
        j = i + 1
        grown = 0
        while j < count:
            b = 4 * j
            x = int(d[a])
            y = int(d[a + 1])
            x2 = x + int(d[a + 2])
            y2 = y + int(d[a + 3])
            bx = int(d[b])
            by = int(d[b + 1])
            bx2 = bx + int(d[b + 2])
            by2 = by + int(d[b + 3])
            area = int(d[a + 2]) * int(d[a + 3]) + int(d[b + 2]) * int(d[b + 3]) + slack
            if bx < x:
                x = bx
            if by < y:
                y = by
            if bx2 > x2:
                x2 = bx2
            if by2 > y2:
                y2 = by2
            if (x2 - x) * (y2 - y) <= area:
                d[a] = x
                d[a + 1] = y
                d[a + 2] = x2 - x
                d[a + 3] = y2 - y
                count -= 1
                last = 4 * count
                d[b] = d[last]
                d[b + 1] = d[last + 1]
                d[b + 2] = d[last + 2]
                d[b + 3] = d[last + 3]
                grown = 1
            else:
                j += 1
        if not grown:
            i += 1
    return count


# shuffle2's moduli, rng's M1 and M2, read from here (flash, frozen) as 32-bit little-endian
# words: as immediates in this function, the code mpy-cross builds for the armv6m dealt other
# cards on the emulated chip (and a multiply by an immediate of more than 16 bits goes wrong
# there too; the multipliers below are 16-bit, and they deal right).
_MODULI = b'\xdd\xff\xff?\xd7\xff\xff?'


@micropython.viper
def shuffle2(buf, start: int, count: int, state, i1: int, i2: int, generator: int):
    """engine_core.rng.shuffle2 in machine code: the same Fisher-Yates swaps of the bytes
    buf[start:start+count], the same two Lehmer streams (Schrage's method, every value below
    2**30), the same states left in the array('i') `state`. The multipliers are rng's (B1, B2
    for SPECTRAL, 2; A, A2 for COMBINED); tests/test_panel.py checks both against rng's. A
    deal's shuffle of 104 cards on the Pico: 4.3 ms less than in bytecode."""
    cards = ptr8(buf)
    st = ptr32(state)
    k = ptr8(_MODULI)  # (bytes in flash need not lie on a word: read a byte at a time)
    m1 = k[0] | k[1] << 8 | k[2] << 16 | k[3] << 24
    m2 = k[4] | k[5] << 8 | k[6] << 16 | k[7] << 24
    if generator == 2:
        a1 = 32184
        q1 = 33362
        r1 = 19181
        a2 = 27007
        q2 = 39757
        r2 = 24484
    else:
        a1 = 32763
        q1 = 32772
        r1 = 32753
        a2 = 32757
        q2 = 32779
        r2 = 80
    x1 = st[i1]
    x2 = st[i2]
    i = count - 1
    while i > 0:
        x1 = a1 * (x1 % q1) - r1 * (x1 // q1)
        if x1 < 0:
            x1 += m1
        x2 = a2 * (x2 % q2) - r2 * (x2 // q2)
        if x2 < 0:
            x2 += m2
        z = x1 - x2
        if z < 1:
            z += m1
            z -= 1
        a = start + i
        b = start + z % (i + 1)
        t = cards[a]
        cards[a] = cards[b]
        cards[b] = t
        i -= 1
    st[i1] = x1
    st[i2] = x2


@micropython.viper
def crc32_parts(buf, start: int, end: int, out):
    """engine_core.records.crc32_parts in machine code: the same CRC-32 (zlib's) of
    buf[start:end] into out[0] (high 16 bits) and out[1] (low 16 bits), through records's
    tables of 16-bit halves (no value past 16 bits). A save of the game checks two records:
    in bytecode 768 bytes took 20.6 ms on the Pico, here 1.0 ms."""
    b = ptr8(buf)
    o = ptr16(out)
    ll = ptr8(CRC_LL)
    lh = ptr8(CRC_LH)
    hl = ptr8(CRC_HL)
    hh = ptr8(CRC_HH)
    lo = 0xFFFF
    hi = 0xFFFF
    i = start
    while i < end:
        k = (lo ^ b[i]) & 0xFF
        lo = ((lo >> 8) | ((hi & 0xFF) << 8)) ^ (lh[k] << 8 | ll[k])
        hi = (hi >> 8) ^ (hh[k] << 8 | hl[k])
        i += 1
    o[0] = hi ^ 0xFFFF
    o[1] = lo ^ 0xFFFF


@micropython.viper
def put_entries(buf, pos: int, log, start: int, count: int, cap: int) -> int:
    """engine_core.undo_record.put_entries in machine code: `count` entries of the journal's
    ring `log` (an array of 32-bit ints, `cap` long) from `start`, each as fields.put_i32 writes
    it (a sign bit, then 30 bits; a negative value as its complement), into buf from pos;
    returns the end. Read a byte at a time from the little-endian words, so no value is ever
    wider than a byte. A Nerts journal of 240 entries: 7 ms in bytecode on the Pico."""
    b = ptr8(buf)
    g = ptr8(log)
    i = start
    n = 0
    while n < count:
        w = i << 2
        m = 0
        if g[w + 3] & 0x80:  # negative: every byte complemented, the sign bit set
            m = 0xFF
        b[pos] = (g[w + 3] ^ m) | (m & 0x80)
        b[pos + 1] = g[w + 2] ^ m
        b[pos + 2] = g[w + 1] ^ m
        b[pos + 3] = g[w] ^ m
        pos += 4
        i += 1
        if i == cap:
            i = 0
        n += 1
    return pos
