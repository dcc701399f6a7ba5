"""The panel's pixels sent by a DMA channel (RP2040): a whole rectangle in one viper call,
expanding the next rows into one line buffer while the other is on the wire.

    feeder = SpiDma(spi_id, dc, cs)   # claims a free DMA channel (rp2.DMA); DC, CS: GPIO numbers
    feeder.attach(lines, pairs, width)   # the two line buffers, the pair table, the screen width
    feeder.flush(buf, x, y, start, n, rows, per_write)

flush() selects the panel, sends CASET/RASET/RAMWR for the controller window that starts at
(x, y) and is n by rows, then expands `rows` rows of n pixels of the GS4 framebuffer `buf`
from pixel `start` (eight pixels a word, through the pair table of expand_viper.make_pairs),
per_write rows into each buffer, each buffer sent by DMA while the next is filled; it waits
for the last byte to leave the bus and deselects. x, start, n and the width are multiples
of 8. The registers (DMA, SPI, the GPIOs' set/clear) are written from viper with addresses
worked out once: nothing here allocates.

Measured on rp2040js (240x240 at 62.5 MHz): a full-screen flush took 57.5 ms with a row at
a time through machine.SPI (each row's expansion waited for the last row's transfer), 15.7 ms
with DMA overlapping it; an 8x8 rectangle 904 us through machine.SPI and Pin, 651 us with
the window commands in viper, and 180 us with the whole rectangle here.
"""

from array import array

import micropython
import rp2  # type: ignore[import-not-found, unused-ignore]  # rp2 only
import uctypes
from micropython import const

_DMA_BASE = const(0x50000000)
_CHANNEL_STRIDE = const(0x40)
_SPI_BASES = (0x4003C000, 0x40040000)    # SPI0, SPI1
_DREQ_TX = (16, 18)                       # DREQ_SPI0_TX, DREQ_SPI1_TX

# The context array: what _flush needs, worked out once.
_CHANNEL = const(0)      # the DMA channel's registers
_SPI = const(1)          # the SPI's registers
_DC = const(2)           # GPIO bit of DC
_CS = const(3)           # GPIO bit of CS (0: none)
_CTRL = const(4)         # the channel's CTRL_TRIG value
_LINE0 = const(5)        # the two line buffers' addresses
_LINE1 = const(6)
_PAIRS = const(7)        # the pair table's address
_WIDTH_WORDS = const(8)  # the framebuffer's row, in 32-bit words


@micropython.viper
def _flush(ctx, buf, x: int, y: int, start: int, n: int, rows: int, per_write: int):
    c = ptr32(ctx)
    channel = ptr32(c[_CHANNEL])
    data = ptr32(c[_SPI] + 8)                 # SSPDR
    status = ptr32(c[_SPI] + 12)              # SSPSR: TFE bit 0, BSY bit 4
    out_set = ptr32(0xD0000014)               # SIO GPIO_OUT_SET / _CLR
    out_clr = ptr32(0xD0000018)
    dc = c[_DC]
    src = ptr32(buf)
    pair = ptr32(c[_PAIRS])
    out_clr[0] = c[_CS]
    # CASET x..x+n-1, RASET y..y+rows-1, RAMWR; the panel samples DC with each byte's last
    # bit, so DC changes only once the bus is idle.
    cmd = 0x2A
    first = x
    last = x + n - 1
    while cmd <= 0x2C:
        while (status[0] & 0x11) != 0x01:
            pass
        out_clr[0] = dc
        data[0] = cmd
        while (status[0] & 0x11) != 0x01:
            pass
        out_set[0] = dc
        if cmd != 0x2C:
            data[0] = first >> 8
            data[0] = first & 255
            data[0] = last >> 8
            data[0] = last & 255
        cmd += 1
        first = y
        last = y + rows - 1
    # The expansion is expand_viper.expand_rows's loop, inline: a call a buffer from here
    # would cost what this function saves.
    words = n >> 3
    stride = c[_WIDTH_WORDS]
    q = start >> 3
    k = 0
    r = 0
    while r < rows:
        line = c[_LINE0 + k]
        dst = ptr32(line)
        j = 0
        chunk = 0
        while chunk < per_write and r < rows:
            p = q
            end = q + words
            while p < end:
                w = src[p]
                dst[j] = pair[w & 255]
                dst[j + 1] = pair[(w >> 8) & 255]
                dst[j + 2] = pair[(w >> 16) & 255]
                dst[j + 3] = pair[(w >> 24) & 255]
                j += 4
                p += 1
            q += stride
            chunk += 1
            r += 1
        while channel[3] & 0x1000000:         # CTRL BUSY: the other buffer is still going
            pass
        channel[0] = line
        channel[1] = c[_SPI] + 8
        channel[2] = j << 2
        channel[3] = c[_CTRL]
        k ^= 1
    while channel[3] & 0x1000000:
        pass
    while (status[0] & 0x11) != 0x01:
        pass
    out_set[0] = c[_CS]


class SpiDma:
    def __init__(self, spi_id, dc, cs):
        self.dma = rp2.DMA()
        self.ctx = array("I", [0] * 9)
        ctx = self.ctx
        ctx[_CHANNEL] = _DMA_BASE + _CHANNEL_STRIDE * self.dma.channel  # type: ignore[attr-defined, unused-ignore]  # the rp2 stubs miss it
        ctx[_SPI] = _SPI_BASES[spi_id]
        ctx[_DC] = 1 << dc
        ctx[_CS] = 0 if cs is None else 1 << cs
        ctx[_CTRL] = self.dma.pack_ctrl(size=0, inc_read=True, inc_write=False,
                                        treq_sel=_DREQ_TX[spi_id])

    def attach(self, lines, pairs, width):
        ctx = self.ctx
        ctx[_LINE0] = uctypes.addressof(lines[0])
        ctx[_LINE1] = uctypes.addressof(lines[1])
        ctx[_PAIRS] = uctypes.addressof(pairs)
        ctx[_WIDTH_WORDS] = width >> 3

    def flush(self, buf, x, y, start, n, rows, per_write):
        _flush(self.ctx, buf, x, y, start, n, rows, per_write)
