"""M5Stack Core (Basic/Gray): ESP32, 320x240 ILI9342C IPS, three buttons, speaker.

Pins from M5Stack's documentation (docs.m5stack.com, Core Basic) and its Arduino library
setup; docs/boards.md. Three buttons: A B and C (as START); left/right/up/down are reached
through the menu and the two-button scheme (long A, long B) of docs/screen.md.
"""

from engine_core.ui.buttons import A, B, SELECT, START, mask

NAME = "M5Stack Core"
PORT = "esp32"
CONTROLLER = "ili9342c"
GLASS = (0, 0, 320, 240)   # the ILI9342C's RAM is natively 320 wide
MADCTL = 0x00        # M5Stack's library sends 0x08 (BGR only) for its landscape rotation
BGR = True
INVERT = True        # the IPS glass of the later Cores needs INVON (M5Stack's library sends it)
WIDTH = 320
HEIGHT = 240

SPI = (2, 40_000_000, 18, 23)
CS = 14
DC = 27
RST = 33
BACKLIGHT = 32

# GPIO 37, 38, 39 are input-only and pulled up on the board.
BUTTONS = ((A, 39), (B, 38), (START, 37))
PULL_UP = False
ADC_BUTTONS = ()
LONG_PRESS = mask(A) | mask(B)
LONG_AS = ((START, SELECT),)         # long C

BUZZER = 25          # speaker through the DAC pin's amplifier; PWM works on it too
BATTERY = None       # read over I2C from the IP5306 power chip: not done here
CPU_FREQ = 240_000_000

# Link play (docs/link.md): UART2 on GPIO17 (TX) and GPIO16 (RX), M5Stack's own UART2 pins on the
# M-Bus and the side header of the Core Basic / Gray (a Fire uses them for PSRAM).
LINK_UART = (2, 17, 16)
