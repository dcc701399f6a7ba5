"""Raspberry Pi Pico + a 1.8" ST7735 160x128 TFT module on SPI, and a D-pad, A B X Y and START.

Wired by hand on the pins the Waveshare Pico-LCD-1.3 uses (SPI1 GP8-13, the buttons on GP2,
GP3, GP15-21), pin by pin in docs/boards.md, so the same key scripts press the same GPIOs.
The module is the "black tab" kind (Adafruit's 1.8" breakout, whose example initialises it
with INITR_BLACKTAB): its controller is set for a 128x160 RAM (no offsets) and takes RGB order.
For a "green tab" module: RAM = (132, 162), GLASS = (2, 1, 128, 160), BGR = True; "red tab":
RAM = (128, 160), BGR = True (docs/boards.md).
"""

from engine_core.ui.buttons import A, B, DOWN, LEFT, RIGHT, SELECT, START, UP, X, Y, mask

NAME = "Raspberry Pi Pico + 1.8in ST7735 160x128 TFT"
PORT = "rp2"
CONTROLLER = "st7735"
RAM = (128, 160)     # the controller's RAM as the module sets it (GM = "11")
GLASS = (0, 0, 128, 160)
MADCTL = 0xA0        # MY|MV: landscape, as Adafruit's rotation 1
BGR = False
INVERT = False       # a TN glass
WIDTH = 160
HEIGHT = 128

SPI = (1, 15_000_000, 10, 11)   # SPI1: SCK GP10, MOSI GP11; at most 15 MHz (the ST7735's write cycle is 66 ns at least)
CS = 9
DC = 8
RST = 12
BACKLIGHT = 13       # the module's LED pin, through PWM

BUTTONS = ((UP, 2), (DOWN, 18), (LEFT, 16), (RIGHT, 20), (A, 15), (B, 17), (X, 19), (Y, 21),
           (START, 3))
PULL_UP = True
ADC_BUTTONS = ()
LONG_PRESS = mask(A) | mask(X)   # a long X is redo in play
LONG_AS = ((Y, SELECT),)             # no SELECT button: long Y

BUZZER = None
BATTERY = None
CPU_FREQ = 200_000_000  # the RP2040's rated top, at 1.15 V (firmware/hardware.py); SPI at 200 / 14 = 14.3 MHz

# Link play (docs/link.md): UART0 on GP0 (TX, pin 1) and GP1 (RX, pin 2), GND on pin 3.
LINK_UART = (0, 0, 1)
