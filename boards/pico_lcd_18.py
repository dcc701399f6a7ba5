"""Raspberry Pi Pico + Waveshare Pico-LCD-1.8: 160x128 ST7735S TFT on the Pico's headers, with
a D-pad, A B X Y and START wired by hand (the board has no buttons of its own).

Panel pins, offsets and orientation from Waveshare's wiki (Pico-LCD-1.8) and its MicroPython
demo (LCD_1inch8); docs/boards.md. The buttons sit on the GPIOs the Pico-LCD-1.3's own do,
none of them used by this board. No buzzer, no battery.
"""

from engine_core.ui.buttons import A, B, DOWN, LEFT, RIGHT, SELECT, START, UP, X, Y, mask

NAME = "Raspberry Pi Pico + Waveshare Pico-LCD-1.8"
PORT = "rp2"
CONTROLLER = "st7735"
GLASS = (2, 1, 128, 160)   # the 128x160 glass at column 2, row 1 of the ST7735S's 132x162 RAM
MADCTL = 0x60        # MX|MV; the demo sends 0x70 and windows x 1..160, y 2..129
BGR = False          # the demo's MADCTL has no BGR bit
INVERT = False       # a TN glass: the demo sends no INVON
WIDTH = 160
HEIGHT = 128

SPI = (1, 15_000_000, 10, 11)   # SPI1: CLK GP10, DIN GP11 (the demo: 10 MHz; the ST7735S's write cycle: 66 ns)
CS = 9
DC = 8
RST = 12
BACKLIGHT = 13

BUTTONS = ((UP, 2), (DOWN, 18), (LEFT, 16), (RIGHT, 20), (A, 15), (B, 17), (X, 19), (Y, 21),
           (START, 3))
PULL_UP = True
ADC_BUTTONS = ()
LONG_PRESS = mask(A) | mask(X)   # a long X is redo in play
LONG_AS = ((Y, SELECT),)             # no SELECT button: long Y

BUZZER = None
BATTERY = None
CPU_FREQ = 200_000_000  # the RP2040's rated top, at 1.15 V (firmware/hardware.py); SPI at 200 / 14 = 14.3 MHz

# Link play (docs/link.md): UART0 on GP0 (TX, pin 1) and GP1 (RX, pin 2), GND on pin 3; the
# Pico-LCD-1.8 uses GP8-13 only.
LINK_UART = (0, 0, 1)
