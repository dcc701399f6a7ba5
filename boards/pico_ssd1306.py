"""Raspberry Pi Pico + a 0.96" SSD1306 128x64 OLED module on I2C, and six push buttons.

Wired by hand, pin by pin in docs/boards.md. The SSD1306's I2C runs at most at 400 kHz (its
datasheet's clock cycle time, 2.5 us at least): the console uses 400 kHz. No buzzer, no
battery, no backlight: brightness is the OLED's contrast.
"""

from engine_core.ui.buttons import A, B, DOWN, LEFT, RIGHT, START, UP, mask

NAME = "Raspberry Pi Pico + SSD1306 128x64 OLED (I2C)"
PORT = "rp2"
CONTROLLER = "ssd1306"
MONO = True          # a one-bit screen (MONO_VLSB, docs/screen.md)
GLASS = (0, 0, 128, 64)   # the glass from RAM column 0: the SSD1306's 128 columns are the glass
MADCTL = 0x00        # (MIPI-DCS panels only) the module is upright with SEG re-map and COM scan reversed
BGR = False
INVERT = False
WIDTH = 128
HEIGHT = 64

I2C = (0, 400_000, 5, 4)   # I2C0: SCL GP5 (pin 7), SDA GP4 (pin 6); the module carries pull-ups
I2C_ADDRESS = 0x3C   # SA0 low: the address the modules ship with (0x3D with SA0 high)
SPI = None
CS = None
DC = None
RST = None           # the I2C modules reset themselves at power-on (no RES# pin brought out)
BACKLIGHT = None

# Six buttons between a GPIO and GND (pin 18 sits among them).
BUTTONS = ((UP, 10), (DOWN, 11), (LEFT, 12), (RIGHT, 13), (A, 14), (B, 15))
PULL_UP = True
ADC_BUTTONS = ()
LONG_PRESS = mask(A) | mask(B)
LONG_AS = ((B, START),)             # no START button: long B; no SELECT (the hardware screen from the REPL)

BUZZER = None
BATTERY = None
CPU_FREQ = 200_000_000  # the RP2040's rated top, at 1.15 V (firmware/hardware.py)

# Link play (docs/link.md): UART0 on GP0 (TX, pin 1) and GP1 (RX, pin 2), GND on pin 3; unused here.
LINK_UART = (0, 0, 1)
