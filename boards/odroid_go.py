"""Hardkernel ODROID-GO: ESP32 (WROVER, 4 MB PSRAM), 320x240 ILI9341, ADC D-pad, speaker.

Pins from Hardkernel's wiki as the MicroPython/CircuitPython board definition and retro-go's
target config give them; docs/boards.md. The D-pad is two resistor ladders read by the ADC:
an axis reads near 0 at rest, near full scale for UP/LEFT and about half scale for DOWN/RIGHT.
"""

from engine_core.ui.buttons import A, B, DOWN, LEFT, RIGHT, SELECT, START, UP, X, Y, mask

NAME = "Hardkernel ODROID-GO"
PORT = "esp32"
CONTROLLER = "ili9341"
GLASS = (0, 0, 240, 320)
MADCTL = 0xA0        # MY|MV: landscape, as retro-go sets it (with BGR: 0xA8)
BGR = True
INVERT = False
WIDTH = 320
HEIGHT = 240

SPI = (2, 40_000_000, 18, 23)   # VSPI pins; 40 MHz is what retro-go runs the panel at
CS = 5
DC = 21
RST = None           # the panel's reset is tied to the chip's EN
BACKLIGHT = 14

# MENU (GPIO13) and VOLUME (GPIO0) are hint (X) and undo (Y); GPIO 39 has no pull-up of its
# own on the chip, the board pulls it up.
BUTTONS = ((A, 32), (B, 33), (SELECT, 27), (START, 39), (X, 13), (Y, 0))
PULL_UP = True
ADC_BUTTONS = ((35, UP, DOWN), (34, LEFT, RIGHT))
LONG_PRESS = mask(A) | mask(X)   # a long X is redo in play
LONG_AS = ()

BUZZER = 26          # the speaker amplifier's IN+; its IN- (GPIO25) is held high (unsure:
BUZZER_ENABLE = 25   # as we recall Hardkernel's Arduino library doing; retro-go uses both DACs)
BATTERY = (36, 2)    # ADC1 channel 0 behind a 1:2 divider
CPU_FREQ = 240_000_000

# Link play (docs/link.md): UART1 on the 10-pin expansion header: TX GPIO4 (EXT5, header pin 5),
# RX GPIO15 (EXT4, pin 4), GND on pin 1. Not GPIO12 (EXT3): a strapping pin that must be low at
# boot, and an idle UART line is high. Pins: CircuitPython's hardkernel_odroid_go/pins.c.
LINK_UART = (1, 4, 15)
