"""Link play over a UART between two boards (docs/link.md): the transport of
engine_core/link/channel.py. A UART joins two consoles, never more: a party table of three or
four (engine_core/link/hub.py) needs a link per guest, which a board with one UART has not.

    from firmware.link_uart import UartLink, open_link
    link = open_link(board)          # None when the board declares no LINK_UART
    ch = Channel(link)

Wiring: this board's TX to the other's RX and RX to TX (crossed), and a common ground; both
sides are 3.3 V logic (never 5 V). The pins are the board module's LINK_UART = (id, tx, rx).

Neither call blocks: write() hands the UART at most what its transmit buffer holds, and only
once the last frame has left (txdone), so the app's frame never waits for the wire; readinto()
takes what has arrived (any()), and no more: asked for more, the UART would wait for it.
Nothing allocates: MicroPython's stream calls take a length, uart.write(buf, n) and
uart.readinto(buf, n), so no slice is made.
"""

BAUDRATE = 115_200  # 11.5 KB/s: a 69-byte frame (60 bytes of message) in 6 ms
TXBUF = 256  # bytes the UART driver queues: more than a frame
RXBUF = 1024  # bytes it keeps until the next poll: a whole window of frames (8 x 69)


class UartLink:
    """A transport over a machine.UART made with timeout=0 (so readinto never waits)."""

    def __init__(self, uart):
        self.uart = uart

    def write(self, buf, n):
        """Hand buf[0:n] to the UART, or nothing while it still sends the last frame; bytes taken."""
        if n > TXBUF:
            n = TXBUF
        if not self.uart.txdone():
            return 0
        w = self.uart.write(buf, n)
        return w if w else 0

    def readinto(self, buf):
        """Copy what has arrived into buf; 0 when nothing has. The UART is asked for no more than
        it holds: MicroPython's, asked for more, waits for the rest for timeout_char, which the
        rp2 port raises to a character's time at least (1-2 ms at 115,200 baud), timeout=0 or
        not, and a byte that comes meanwhile starts the wait again."""
        n = self.uart.any()
        if not n:
            return 0
        if n > len(buf):
            n = len(buf)
        n = self.uart.readinto(buf, n)
        return n if n else 0


def open_link(board, baudrate=BAUDRATE):
    """The UART link of `board` (its LINK_UART), or None when it has none."""
    pins = getattr(board, "LINK_UART", None)
    if pins is None:
        return None
    from machine import UART, Pin
    uart_id, tx, rx = pins
    uart = UART(uart_id, baudrate=baudrate, tx=Pin(tx), rx=Pin(rx), txbuf=TXBUF, rxbuf=RXBUF,
                timeout=0, timeout_char=0)
    return UartLink(uart)
