"""Stand-ins for MicroPython's `machine` classes, for drivers under test on CPython and on
MicroPython (WASI), where no hardware exists. They keep what a test needs to check and,
unless asked to record, allocate nothing when used (the heap-lock tests rely on that).
"""


class Pin:
    IN = 0
    OUT = 1
    OPEN_DRAIN = 2
    PULL_UP = 1
    PULL_DOWN = 2
    IRQ_FALLING = 4
    IRQ_RISING = 8

    def __init__(self, id, mode=-1, pull=-1, value=None):
        self.id = id
        self.mode = mode
        self.pull = pull
        self.level = 1 if value is None else value
        self.handler = None
        self.trigger = 0

    def value(self, v=None):
        if v is None:
            return self.level
        edge = self.IRQ_FALLING if self.level and not v else self.IRQ_RISING if v and not self.level else 0
        self.level = v
        if edge & self.trigger and self.handler is not None:
            self.handler(self)      # as a pin interrupt would, at once
        return None

    def irq(self, handler=None, trigger=IRQ_FALLING | IRQ_RISING, hard=False):
        self.handler = handler
        self.trigger = trigger

    def __call__(self, v=None):
        return self.value(v)

    def on(self):
        self.level = 1

    def off(self):
        self.level = 0


class SPI:
    """Counts what is written; with `log` set to a list, records (dc level, bytes) too."""

    def __init__(self, id=0, baudrate=1000000, polarity=0, phase=0, sck=None, mosi=None, miso=None):
        self.id = id
        self.baudrate = baudrate
        self.sck = sck
        self.mosi = mosi
        self.dc = None
        self.log = None
        self.bytes = 0
        self.writes = 0

    def write(self, buf):
        self.bytes += len(buf)
        self.writes += 1
        if self.log is not None:
            self.log.append((self.dc.value() if self.dc is not None else 1, bytes(buf)))


class I2C:
    """Counts what is written; with `log` set to a list, records (2, bytes) per write transfer
    (support/oled_model.py reads 2 as "an I2C transfer, control bytes included")."""

    def __init__(self, id=0, scl=None, sda=None, freq=400000):
        self.id = id
        self.scl = scl
        self.sda = sda
        self.freq = freq
        self.log = None
        self.addresses = []
        self.bytes = 0
        self.writes = 0

    def writeto(self, addr, buf, stop=True):
        self.bytes += len(buf)
        self.writes += 1
        if addr not in self.addresses:
            self.addresses.append(addr)
        if self.log is not None:
            self.log.append((2, bytes(buf)))
        return len(buf)


class ADC:
    """An analogue input; tests set `level` (0..65535)."""

    ATTN_11DB = 3

    def __init__(self, pin, atten=None):
        self.pin = pin
        self.atten = atten
        self.level = 0

    def read_u16(self):
        return self.level


class PWM:
    """Keeps the last frequency and duty; `history` lists (freq, duty) changes when set."""

    def __init__(self, pin, freq=0, duty_u16=0):
        self.pin = pin
        self.frequency = freq
        self.duty = duty_u16
        self.history = None

    def freq(self, f=None):
        if f is None:
            return self.frequency
        self.frequency = f
        return None

    def duty_u16(self, d=None):
        if d is None:
            return self.duty
        self.duty = d
        if self.history is not None:
            self.history.append((self.frequency, d))
        return None

    def deinit(self):
        self.duty = 0


class _Memory:
    """machine.mem32: the registers a test reads back (the RP2040's VREG at its reset value,
    1.10 V); every write goes into `clocking` too."""

    def __init__(self):
        self.words = {0x40064000: 0xB1}

    def __getitem__(self, address):
        return self.words.get(address, 0)

    def __setitem__(self, address, value):
        self.words[address] = value
        clocking.append(("mem32", address, value))


mem32 = _Memory()
clocking: list = []  # the writes to mem32 and the clocks set (freq), in order


def freq(hz=None, peripheral=None):
    if hz is not None:
        clocking.append(("freq", hz, peripheral))
    return 125000000 if hz is None else None


class UART:
    """A UART joined to another by UART.join(a, b): what one writes, the other reads. Each has
    a preallocated receive ring of `rxbuf` bytes (what does not fit is lost, as on a chip whose
    buffer overflows); txdone() is True unless a test sets `busy`. Allocates nothing in use."""

    def __init__(self, id, baudrate=115200, tx=None, rx=None, txbuf=256, rxbuf=256, timeout=0,
                 timeout_char=0):
        self.id = id
        self.baudrate = baudrate
        self.tx = tx
        self.rx = rx
        self.txbuf = txbuf
        self.timeout = timeout
        self.ring = bytearray(rxbuf)
        self.start = 0
        self.count = 0
        self.peer = None
        self.busy = False
        self.overflow = 0
        self.waits = 0          # reads that would have waited on a chip (readinto)

    @staticmethod
    def join(a, b):
        a.peer = b
        b.peer = a

    def txdone(self):
        return not self.busy

    def write(self, buf, n=-1):
        if n < 0:
            n = len(buf)
        peer = self.peer
        if peer is not None:
            size = len(peer.ring)
            for i in range(n):
                if peer.count == size:
                    peer.overflow += 1
                    continue
                peer.ring[(peer.start + peer.count) % size] = buf[i]
                peer.count += 1
        return n

    def any(self):
        return self.count

    def readinto(self, buf, nbytes=-1):
        want = len(buf) if nbytes < 0 or nbytes > len(buf) else nbytes
        if want > self.count:
            # MicroPython's UART, asked for more than it holds, waits for the rest: timeout_char,
            # which the rp2 port raises to at least a character's time (1 ms at 115,200 baud:
            # 1-2 ms in its ticks), even with timeout=0.
            self.waits += 1
        if self.count == 0:
            return None         # as MicroPython's UART does when nothing comes before the timeout
        n = min(want, self.count)
        size = len(self.ring)
        for i in range(n):
            buf[i] = self.ring[self.start]
            self.start = (self.start + 1) % size
        self.count -= n
        return n
