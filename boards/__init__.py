"""One module per board: every pin and panel fact of a handheld, and nothing else.

A board module is plain constants (docs/boards.md lists them with their sources):

    NAME            what the board is called
    PORT            "rp2" or "esp32": the stock MicroPython it runs, and the mpy-cross arch
    CONTROLLER      "st7789", "ili9341", "ili9342c" or "st7735" (firmware/panel.py), or
                    "ssd1306" or "sh1106" (one-bit OLEDs, firmware/oled.py)
    MONO            True for a one-bit screen (the OLEDs); absent: 16 colours
    RAM             (columns, rows) of the controller's RAM where it differs from the
                    driver's RAM_SIZE (an ST7735 module set for 128x160); absent: as there
    GLASS           (x, y, w, h): where the visible glass sits in the controller's RAM,
                    in the controller's native orientation (no MADCTL bits set); on an OLED,
                    x is the glass's first RAM column (2 on an SH1106 module's 132)
    MADCTL          orientation bits MY 0x80 / MX 0x40 / MV 0x20 that show the picture upright
                    (as the vendor's own code sets them); the driver adds the colour order bit
    BGR, INVERT     the glass's colour order and whether it needs display inversion (IPS)
    WIDTH, HEIGHT   the screen as the player sees it (GLASS w/h, swapped when MV is set)
    SPI             (id, baudrate, sck, mosi), or None for a panel on I2C; CS, DC, RST,
                    BACKLIGHT are GPIO numbers (None: absent)
    I2C, I2C_ADDRESS  (id, frequency, scl, sda) and the 7-bit address of an OLED on I2C
                    (only where SPI is None)
    BUTTONS         ((logical button, gpio), ...): active-low push buttons
    PULL_UP         whether the GPIO buttons need the chip's pull-up (False: the board has its own)
    ADC_BUTTONS     ((gpio, button near full scale, button near half scale), ...): a D-pad read
                    through a resistor ladder (ODROID-GO)
    LONG_PRESS      bit mask of the buttons whose long press means something (engine_core/ui)
    LONG_AS         ((held button, reported button), ...): long presses standing in for buttons
                    the board lacks (START opens the pause menu, SELECT the hardware screen)
    BUZZER          GPIO of a PWM buzzer or speaker, or None (BUZZER_ENABLE: a pin held high
                    for it, where a board has one)
    BATTERY         (adc gpio, divider ratio) or None (BATTERY_ENABLE: a pin held high
                    while measuring, where a board has one)
    CPU_FREQ        machine.freq() set at start-up, or 0 to leave it (on the RP2040 above
                    133 MHz the core's voltage is raised to 1.15 V first; 200 MHz at most)
    LINK_UART       (uart id, tx gpio, rx gpio) for link play between two boards, or None
                    (firmware/link_uart.py; docs/link.md says which pins and why)

Adding a board is adding one module here and its name to NAMES.
"""

NAMES = ("picosystem", "pico_lcd_13", "pico_lcd_114", "odroid_go", "m5stack_core", "tdisplay",
         "pico_ssd1306", "pico_st7735", "pico_lcd_18", "pico_sh1106")


def pins(board):
    """Every GPIO the board module names for its panel, buttons, sound and battery."""
    used = [board.CS, board.DC, board.RST, board.BACKLIGHT, board.BUZZER]
    used += [g for _, g in board.BUTTONS] + [g for g, _, _ in board.ADC_BUTTONS]
    if board.SPI is not None:
        used += list(board.SPI[2:])
    if getattr(board, "I2C", None) is not None:
        used += list(board.I2C[2:])
    used += [getattr(board, "BUZZER_ENABLE", None), getattr(board, "BATTERY_ENABLE", None)]
    if board.BATTERY:
        used.append(board.BATTERY[0])
    return [p for p in used if p is not None]


def load(name):
    """The board module called `name` (one of NAMES); ValueError for an unknown name."""
    if name not in NAMES:
        raise ValueError("unknown board '" + name + "'")
    package = __import__("boards." + name)
    return getattr(package, name)
