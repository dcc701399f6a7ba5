"""The panel's pixels fed to the SPI bus by a DMA channel (RP2040), so that expanding the next
rows overlaps sending the last ones (firmware/panel.py keeps two line buffers and alternates).

    feeder = SpiDma(spi_id)       # claims a free DMA channel (rp2.DMA)
    feeder.attach(lines)          # the two line buffers, once
    feeder.send(k, count)         # waits for the last transfer, then sends lines[k][:count]
    feeder.finish()               # waits until the last byte has left the bus

The registers are written from viper, with addresses worked out once: nothing here
allocates. Without it (measured on rp2040js, 240x240 at 62.5 MHz) a full-screen flush took
57 ms: each row's expansion waited for the previous row's transfer to end.
"""

import micropython
import rp2  # type: ignore[import-not-found, unused-ignore]  # rp2 only
import uctypes
from micropython import const

_DMA_BASE = const(0x50000000)
_CHANNEL_STRIDE = const(0x40)
_SPI_BASES = (0x4003C000, 0x40040000)    # SPI0, SPI1
_DREQ_TX = (16, 18)                       # DREQ_SPI0_TX, DREQ_SPI1_TX


@micropython.viper
def _start(regs: int, read: int, write: int, count: int, ctrl: int):
    """Wait for the channel to be idle, then program it (CTRL_TRIG last: it starts)."""
    channel = ptr32(regs)
    while channel[3] & 0x1000000:         # CTRL BUSY
        pass
    channel[0] = read
    channel[1] = write
    channel[2] = count
    channel[3] = ctrl


@micropython.viper
def _finish(regs: int, spi_regs: int):
    """Wait for the channel, then for the SPI's FIFO to empty and its shifter to stop."""
    channel = ptr32(regs)
    while channel[3] & 0x1000000:
        pass
    status = ptr32(spi_regs + 12)         # SSPSR
    while (status[0] & 0x11) != 0x01:     # TFE set, BSY clear
        pass


class SpiDma:
    def __init__(self, spi_id):
        self.dma = rp2.DMA()
        self.regs = _DMA_BASE + _CHANNEL_STRIDE * self.dma.channel  # type: ignore[attr-defined, unused-ignore]  # the rp2 stubs miss it
        self.spi_regs = _SPI_BASES[spi_id]
        self.data_reg = self.spi_regs + 8      # SSPDR
        self.ctrl = self.dma.pack_ctrl(size=0, inc_read=True, inc_write=False,
                                       treq_sel=_DREQ_TX[spi_id])
        self.addresses = [0, 0]

    def attach(self, lines):
        for k in range(2):
            self.addresses[k] = uctypes.addressof(lines[k])

    def send(self, k, count):
        _start(self.regs, self.addresses[k], self.data_reg, count, self.ctrl)

    def finish(self):
        _finish(self.regs, self.spi_regs)
