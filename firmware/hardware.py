"""A board module's facts turned into machine objects: the only device module that imports
`machine` (tests put support/fakes/machine.py in its place).

    hw = Hardware(board)     # SPI or I2C bus, panel, buttons, beeper, backlight, battery

The panel's driver follows the board's CONTROLLER: firmware/panel.py for the MIPI-DCS
colour panels (ST7789, ILI9341, ILI9342C, ST7735), firmware/oled.py for the one-bit OLEDs
(SSD1306, SH1106) on I2C (the board's I2C) or SPI.
"""

import time

import machine
from machine import ADC, PWM, SPI, Pin
from micropython import const

from firmware.buttons import AdcDpad, Buttons, GpioButtons, Readers
from firmware.panel import EXPANDER, Panel
from firmware.sound import Beeper

OLEDS = ("ssd1306", "sh1106")   # firmware/oled.py's controllers
_VREG = const(0x40064000)       # the RP2040's core regulator: its output voltage, VSEL, in bits 7:4
_VSEL_1V15 = const(12)          # 1.15 V (1.10 V, 11, at reset)
_RATED_1V10_HZ = const(133_000_000)   # the fastest clock the RP2040 is rated for at 1.10 V


def _input(gpio, pull_up):
    if pull_up:
        try:
            return Pin(gpio, Pin.IN, Pin.PULL_UP)
        except ValueError:      # ESP32 GPIO 34-39 have no pulls: the board has its own
            pass
    return Pin(gpio, Pin.IN)


def _adc(board, gpio):
    if board.PORT == "esp32":
        return ADC(Pin(gpio), atten=ADC.ATTN_11DB)   # the full 0-3.3 V range
    return ADC(Pin(gpio))


def _output(gpio, value):
    return None if gpio is None else Pin(gpio, Pin.OUT, value=value)


def core_voltage(cpu_freq):
    """The RP2040 is rated to 133 MHz at its reset voltage, 1.10 V, and to 200 MHz at 1.15 V
    (pico-sdk 2.1.1); machine.freq leaves the voltage as it is, so a faster clock raises it
    first, and waits for it to settle as the SDK does (1 ms). The wait is time.sleep_us's
    busy wait on the microsecond timer: time.sleep(0.001) and sleep_ms(1) count millisecond
    ticks, and end at the next one, which may come a few microseconds later."""
    if cpu_freq <= _RATED_1V10_HZ:
        return
    vreg = machine.mem32[_VREG]
    if (vreg >> 4) & 15 < _VSEL_1V15:
        machine.mem32[_VREG] = (vreg & ~0xF0) | _VSEL_1V15 << 4
        time.sleep_us(1000)


def feeder(board):
    """A DMA feeder for the panel's bus where the chip has one (RP2040, with viper), else None."""
    if board.PORT != "rp2" or EXPANDER != "viper":
        return None
    from firmware.spi_dma import SpiDma
    return SpiDma(board.SPI[0], board.DC, board.CS)


class Hardware:
    def __init__(self, board):
        self.board = board
        if board.CPU_FREQ:
            if board.PORT == "rp2":
                # MicroPython 1.24+ leaves the peripheral clock at 48 MHz, which caps SPI at
                # 24 MHz; with it at the system clock, 200 MHz, a 62.5 MHz request gives 50 MHz
                # (200 / 4: the SPI divides by an even number; docs/boards.md).
                core_voltage(board.CPU_FREQ)
                machine.freq(board.CPU_FREQ, board.CPU_FREQ)  # type: ignore[call-overload]  # the stubs miss the 2-argument form
            else:
                machine.freq(board.CPU_FREQ)
        self.spi = self.i2c = None
        if board.SPI is not None:
            spi_id, baudrate, sck, mosi = board.SPI
            self.spi = SPI(spi_id, baudrate=baudrate, polarity=0, phase=0, sck=Pin(sck), mosi=Pin(mosi))
        self.dc = _output(board.DC, 0)
        self.cs = _output(board.CS, 1)
        self.rst = _output(board.RST, 1)
        self.panel = self.make_panel(board)
        self.backlight = None if board.BACKLIGHT is None else PWM(Pin(board.BACKLIGHT))
        if self.backlight is not None:
            self.backlight.freq(1000)
            self.backlight.duty_u16(0)
        readers: list = []
        if board.BUTTONS:
            pins = [_input(gpio, board.PULL_UP) for _, gpio in board.BUTTONS]
            # The pins' interrupts stamp each edge with the clock (none on a host's CPython).
            readers.append(GpioButtons(pins, [b for b, _ in board.BUTTONS], getattr(time, "ticks_ms", None)))
        if board.ADC_BUTTONS:
            readers.append(AdcDpad([_adc(board, g) for g, _, _ in board.ADC_BUTTONS],
                                   [hi for _, hi, _ in board.ADC_BUTTONS],
                                   [mid for _, _, mid in board.ADC_BUTTONS]))
        self.buttons = Buttons(readers[0] if len(readers) == 1 else Readers(readers),
                               board.LONG_PRESS, board.LONG_AS)
        buzzer_enable = getattr(board, "BUZZER_ENABLE", None)
        if buzzer_enable is not None:
            Pin(buzzer_enable, Pin.OUT, value=1)
        # On: whether a press clicks is the app's sound setting (firmware/main.py).
        self.beeper = Beeper(None if board.BUZZER is None else PWM(Pin(board.BUZZER)), enabled=True)
        self.battery = None
        self.battery_ratio = 0
        if board.BATTERY is not None:
            enable = getattr(board, "BATTERY_ENABLE", None)
            if enable is not None:
                Pin(enable, Pin.OUT, value=1)
            self.battery = _adc(board, board.BATTERY[0])
            self.battery_ratio = board.BATTERY[1]

    def make_panel(self, board):
        if board.CONTROLLER not in OLEDS:
            return Panel(self.spi, self.dc, self.cs, self.rst, board, EXPANDER, feeder(board))
        from firmware.oled import I2cBus, Oled, SpiBus
        if self.spi is not None:
            bus = SpiBus(self.spi, self.dc, self.cs)
        else:
            from machine import I2C
            i2c_id, freq, scl, sda = board.I2C
            self.i2c = I2C(i2c_id, scl=Pin(scl), sda=Pin(sda), freq=freq)
            bus = I2cBus(self.i2c, board.I2C_ADDRESS)  # type: ignore[assignment]  # (either bus)
        return Oled(bus, self.rst, board)

    def brightness(self, percent):
        """Backlight 0..100 %; on a board without one (an OLED), the panel's contrast."""
        if self.backlight is not None:
            self.backlight.duty_u16(percent * 655)
        elif self.board.CONTROLLER in OLEDS:
            self.panel.brightness(percent)

    def battery_mv(self):
        """The battery's voltage in millivolts, or -1 where the board cannot tell."""
        if self.battery is None:
            return -1
        return self.battery.read_u16() * 3300 // 65535 * self.battery_ratio
