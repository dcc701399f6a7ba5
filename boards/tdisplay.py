"""LILYGO TTGO T-Display: ESP32, 240x135 ST7789 IPS, two buttons, battery sense.

Pins from LILYGO's pin map (Xinyuan-LilyGO/TTGO-T-Display) and the TFT_eSPI setup for the
board; docs/boards.md. Offsets are those TFT_eSPI uses for this glass in landscape.
"""

from engine_core.ui.buttons import A, B, mask

NAME = "LILYGO T-Display"
PORT = "esp32"
CONTROLLER = "st7789"
GLASS = (52, 40, 135, 240)   # the same 135x240 glass as the Pico-LCD-1.14
MADCTL = 0x60        # MX|MV: TFT_eSPI rotation 1 (landscape), colstart 40, rowstart 53
BGR = False
INVERT = True
WIDTH = 240
HEIGHT = 135

SPI = (1, 40_000_000, 18, 19)   # HSPI (its default MISO, 12, is free); 40 MHz as TFT_eSPI runs it
CS = 5
DC = 16
RST = 23
BACKLIGHT = 4

# GPIO35 is input-only with a pull-up on the board; GPIO0 is the boot button (pulled up too).
BUTTONS = ((A, 35), (B, 0))
PULL_UP = False
ADC_BUTTONS = ()
LONG_PRESS = mask(A) | mask(B)
LONG_AS = ()                         # long A and long B belong to the two-button scheme

BUZZER = None
BATTERY = (34, 2)    # only while GPIO14 (ADC_EN) is high; a 1:2 divider
BATTERY_ENABLE = 14
CPU_FREQ = 240_000_000

# Link play (docs/link.md): UART1 on GPIO26 (TX) and GPIO27 (RX), side by side on the header that
# carries 36-39, 32, 33 and 25 (LILYGO's pin map), next to its GND pin; neither is a strapping pin.
LINK_UART = (1, 26, 27)
