"""Pimoroni PicoSystem: RP2040, 240x240 ST7789 IPS, D-pad + A B X Y, piezo, LiPo.

Pins from Pimoroni's own SDK (picosystem.hpp, hardware.cpp); docs/boards.md.
The SDK overclocks to 250 MHz and drives the panel through PIO; stock MicroPython uses
SPI0 on the same pins (GP6 is an SPI0 SCK pin, GP7 an SPI0 TX pin).
"""

from engine_core.ui.buttons import A, B, DOWN, LEFT, RIGHT, SELECT, START, UP, X, Y, mask

NAME = "Pimoroni PicoSystem"
PORT = "rp2"
CONTROLLER = "st7789"
GLASS = (0, 0, 240, 240)
MADCTL = 0x00        # the SDK sends 0x04 (MH: refresh order only): upright with no swap
BGR = False
INVERT = True        # the SDK sends INVON
WIDTH = 240
HEIGHT = 240

SPI = (0, 62_500_000, 6, 7)
CS = 5
DC = 9
RST = 4
BACKLIGHT = 12       # PWM

BUTTONS = ((UP, 23), (DOWN, 20), (LEFT, 22), (RIGHT, 21), (A, 18), (B, 19), (X, 17), (Y, 16))
PULL_UP = True
ADC_BUTTONS = ()
LONG_PRESS = mask(A) | mask(X)   # a long X is redo in play
LONG_AS = ((B, START), (Y, SELECT))   # no START or SELECT buttons: long B, long Y

BUZZER = 11          # piezo, PWM
BATTERY = (26, 3)    # ADC0; the SDK multiplies by 3 for the divider
CPU_FREQ = 200_000_000  # the RP2040's rated top, at 1.15 V (firmware/hardware.py); SPI at 200 / 4 = 50 MHz

# Link play (docs/link.md): none. The PicoSystem's case brings out only USB-C; the RP2040's free
# GPIOs reach no header or pad we know of, so no UART link is declared.
LINK_UART = None
