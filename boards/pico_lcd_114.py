"""Raspberry Pi Pico + Waveshare Pico-LCD-1.14: 240x135 ST7789 IPS, joystick + A B.

Pins and window offsets from Waveshare's wiki and demo (Pico-LCD-1.14); docs/boards.md.
A and B with a joystick (its press is START): hint and undo are in the menu.
"""

from engine_core.ui.buttons import A, B, DOWN, LEFT, RIGHT, SELECT, START, UP, mask

NAME = "Raspberry Pi Pico + Waveshare Pico-LCD-1.14"
PORT = "rp2"
CONTROLLER = "st7789"
GLASS = (52, 40, 135, 240)   # a 135x240 glass centred in the 240x320 RAM
MADCTL = 0x60        # MX|MV; Waveshare's demo sends 0x70 and windows x 40..279, y 53..187
BGR = False
INVERT = True
WIDTH = 240
HEIGHT = 135

SPI = (1, 62_500_000, 10, 11)
CS = 9
DC = 8
RST = 12
BACKLIGHT = 13

BUTTONS = ((UP, 2), (DOWN, 18), (LEFT, 16), (RIGHT, 20), (A, 15), (B, 17), (START, 3))
PULL_UP = True
ADC_BUTTONS = ()
LONG_PRESS = mask(A)
LONG_AS = ((B, SELECT),)             # no SELECT button: long B

BUZZER = None
BATTERY = None
CPU_FREQ = 200_000_000  # the RP2040's rated top, at 1.15 V (firmware/hardware.py); SPI at 200 / 4 = 50 MHz

# Link play (docs/link.md): UART0 on GP0 (TX, the Pico's pin 1) and GP1 (RX, pin 2), with GND on
# pin 3. The Pico-LCD-1.14 uses GP2, GP3, GP8-13, GP15-18 and GP20; GP0/GP1 are free.
LINK_UART = (0, 0, 1)
