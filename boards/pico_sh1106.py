"""Raspberry Pi Pico + Waveshare 1.3inch OLED module (SH1106, 128x64) on SPI, six push buttons.

The module's user manual (Waveshare, "1.3inch OLED User Manual", Rev 2.4): driver chip SH1106,
128x64, 4-wire SPI as it ships (BS0/BS1 at 0/0), pins VCC GND DIN CLK CS DC RES. Wired by
hand, pin by pin in docs/boards.md. No buzzer, no battery, no backlight: brightness is the
OLED's contrast.
"""

from engine_core.ui.buttons import A, B, DOWN, LEFT, RIGHT, START, UP, mask

NAME = "Raspberry Pi Pico + Waveshare 1.3inch OLED (SH1106, SPI)"
PORT = "rp2"
CONTROLLER = "sh1106"
MONO = True          # a one-bit screen (MONO_VLSB, docs/screen.md)
GLASS = (2, 0, 128, 64)   # the 128-column glass from column 2 of the SH1106's 132-column RAM
MADCTL = 0x00        # (MIPI-DCS panels only) upright with SEG re-map and COM scan reversed
BGR = False
INVERT = False
WIDTH = 128
HEIGHT = 64

SPI = (1, 2_000_000, 10, 11)   # SPI1: CLK GP10 (pin 14), DIN GP11 (pin 15); 2 MHz (below)
CS = 9
DC = 8
RST = 12
BACKLIGHT = None

# Six buttons between a GPIO and GND, on the Pico-LCD-1.3's button pins.
BUTTONS = ((UP, 2), (DOWN, 18), (LEFT, 16), (RIGHT, 20), (A, 15), (B, 17))
PULL_UP = True
ADC_BUTTONS = ()
LONG_PRESS = mask(A) | mask(B)
LONG_AS = ((B, START),)             # no START button: long B; no SELECT (the hardware screen from the REPL)

BUZZER = None
BATTERY = None
CPU_FREQ = 200_000_000  # the RP2040's rated top, at 1.15 V (firmware/hardware.py)

# Link play (docs/link.md): UART0 on GP0 (TX, pin 1) and GP1 (RX, pin 2), GND on pin 3.
LINK_UART = (0, 0, 1)
