"""Raspberry Pi Pico + Waveshare Pico-LCD-1.3: 240x240 ST7789 IPS, joystick + A B X Y.

Pins from Waveshare's wiki and demo (Pico-LCD-1.3); docs/boards.md. No buzzer, no battery.
"""

from engine_core.ui.buttons import A, B, DOWN, LEFT, RIGHT, SELECT, START, UP, X, Y, mask

NAME = "Raspberry Pi Pico + Waveshare Pico-LCD-1.3"
PORT = "rp2"
CONTROLLER = "st7789"
GLASS = (0, 0, 240, 240)
MADCTL = 0x60        # MX|MV; Waveshare's demo sends 0x70 (ML only changes refresh order)
BGR = False
INVERT = True        # Waveshare's demo sends INVON (0x21)
WIDTH = 240
HEIGHT = 240

SPI = (1, 62_500_000, 10, 11)
CS = 9
DC = 8
RST = 12
BACKLIGHT = 13

# The joystick's push (GP3) opens the menu.
BUTTONS = ((UP, 2), (DOWN, 18), (LEFT, 16), (RIGHT, 20), (A, 15), (B, 17), (X, 19), (Y, 21),
           (START, 3))
PULL_UP = True
ADC_BUTTONS = ()
LONG_PRESS = mask(A) | mask(X)   # a long X is redo in play
LONG_AS = ((Y, SELECT),)             # no SELECT button: long Y

BUZZER = None
BATTERY = None
CPU_FREQ = 200_000_000  # the RP2040's rated top, at 1.15 V (firmware/hardware.py); SPI at 200 / 4 = 50 MHz

# Link play (docs/link.md): UART0 on GP0 (TX, the Pico's pin 1) and GP1 (RX, pin 2), with GND on
# pin 3. The Pico-LCD-1.3 uses GP2, GP3, GP8-13 and GP15-21; GP0/GP1 are free (the REPL is on USB).
LINK_UART = (0, 0, 1)
