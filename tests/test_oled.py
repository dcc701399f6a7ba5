"""The one-bit OLED driver (firmware/oled.py) against a model of the SSD1306 and SH1106 written
from their datasheets (support/oled_model.py): over I2C and SPI, what the glass shows is the
MONO_VLSB frame, only the dirty pages' dirty columns go out, and sleep, wake and brightness
are the datasheets' commands."""

import random
import types
from array import array

import pytest

import boards
from firmware.oled import I2cBus, Oled, SpiBus
from support.fakes.machine import I2C, SPI, Pin
from support.oled_model import OledModel, expected_mono

MAX_DIRTY = 12
# (controller, bus, first RAM column of the glass): the SSD1306's RAM is the glass's 128
# columns; the SH1106's is 132, a 128-column module's glass from column 2.
KINDS = [("ssd1306", "i2c", 0), ("ssd1306", "spi", 0), ("sh1106", "i2c", 2), ("sh1106", "spi", 2)]


class MonoScreen:
    """The one-bit screen's contract (docs/screen.md): MONO_VLSB bytes, page-major, bit 0 on
    the page's top row; dirty rectangles as the 16-colour screen has them."""

    mono = True

    def __init__(self, width=128, height=64):
        self.width = width
        self.height = height
        self.buf = bytearray(width * height // 8)
        self.dirty = array("h", [0] * (4 * MAX_DIRTY))
        self.dirty_count = 0

    def pixel(self, x, y, on):
        i = (y >> 3) * self.width + x
        if on:
            self.buf[i] |= 1 << (y & 7)
        else:
            self.buf[i] &= ~(1 << (y & 7))

    def mark(self, x, y, w, h):
        k = 4 * self.dirty_count
        self.dirty[k:k + 4] = array("h", [x, y, w, h])
        self.dirty_count += 1

    def mark_all(self):
        self.dirty_count = 0
        self.mark(0, 0, self.width, self.height)

    def clear_dirty(self):
        self.dirty_count = 0


def module(controller, offset):
    return types.SimpleNamespace(CONTROLLER=controller, WIDTH=128, HEIGHT=64, GLASS=(offset, 0, 128, 64),
                                 MONO=True)


def make(controller, bus, offset):
    board = module(controller, offset)
    if bus == "i2c":
        wire = I2C(0)
        driver = Oled(I2cBus(wire, 0x3C), None, board)
    else:
        wire = SPI(1)
        wire.dc = Pin(8, Pin.OUT)
        driver = Oled(SpiBus(wire, wire.dc, Pin(9, Pin.OUT, value=1)), Pin(12, Pin.OUT), board)
    wire.log = []
    return driver, wire


def decoded(controller, wire, model=None):
    model = model or OledModel(controller)
    model.feed(wire.log)
    wire.log.clear()
    return model


def started(controller, bus, offset):
    driver, wire = make(controller, bus, offset)
    driver.init(sleep_ms=lambda ms: None)
    return driver, wire, decoded(controller, wire)


@pytest.mark.parametrize("controller, bus, offset", KINDS)
def test_init_turns_the_display_on_upright_with_its_supply_on_and_the_ram_dark(controller, bus, offset):
    _, _, model = started(controller, bus, offset)
    assert model.errors == []
    assert model.on, "0xAF: display on"
    assert model.seg_remap and model.com_reverse, "0xA1 and 0xC8: the modules' upright picture"
    assert not model.inverted and not model.all_on
    if controller == "ssd1306":
        assert model.charge_pump, "0x8D 0x14: the module has no external VCC"
        assert model.mode == 0, "horizontal addressing (0x20 0x00): the driver writes through windows"
    else:
        assert model.dcdc, "0xAD 0x8B"
    assert all(v == 0 for page in model.ram for v in page), "every RAM byte dark, edges too"


@pytest.mark.parametrize("controller, bus, offset", KINDS)
def test_a_full_frame_shows_the_mono_vlsb_bytes_on_the_glass(controller, bus, offset):
    driver, wire, model = started(controller, bus, offset)
    rnd = random.Random(3)
    screen = MonoScreen()
    screen.buf[:] = bytes(rnd.getrandbits(8) for _ in range(len(screen.buf)))
    screen.mark_all()
    driver.show(screen)
    assert screen.dirty_count == 0
    decoded(controller, wire, model)
    assert model.errors == []
    assert model.glass_image(offset, 128, 64) == expected_mono(screen.buf, 128, 64)
    assert model.writes_outside(offset, 128) == 0
    assert model.data_bytes == 64 * 128 // 8 + (8 * 128 + (8 * 8 if controller == "sh1106" else 0)), \
        "the frame's 1 KB once, after init cleared the RAM"


@pytest.mark.parametrize("controller, bus, offset", KINDS)
def test_only_the_dirty_pages_dirty_columns_are_sent(controller, bus, offset):
    driver, wire, model = started(controller, bus, offset)
    screen = MonoScreen()
    screen.mark_all()
    driver.show(screen)
    decoded(controller, wire, model)
    sent_before = model.data_bytes
    for x in range(20, 30):                     # a 10x3 bar on rows 26..28: page 3 only
        for y in range(26, 29):
            screen.pixel(x, y, True)
    screen.pixel(127, 63, True)                 # and the bottom-right pixel: page 7
    screen.mark(20, 26, 10, 3)
    screen.mark(127, 63, 1, 1)
    driver.show(screen)
    decoded(controller, wire, model)
    assert model.glass_image(offset, 128, 64) == expected_mono(screen.buf, 128, 64)
    # Columns 16..31 of page 3 (the bar widened to 8-column steps) and 120..127 of page 7.
    assert model.data_bytes - sent_before == 16 + 8
    assert model.errors == []


def test_an_ssd1306s_pages_dirty_across_the_glass_go_out_in_one_window():
    # Horizontal addressing (SSD1306 datasheet 10.1.3, 0x21/0x22): a whole frame in one data
    # transfer of 1,024 bytes after one window's commands, not eight pages' address and data
    # transfers (1,064 bytes on the bus in sixteen transfers, 26 ms at 400 kHz).
    driver, wire, model = started("ssd1306", "i2c", 0)
    rnd = random.Random(5)
    screen = MonoScreen()
    screen.buf[:] = bytes(rnd.getrandbits(8) for _ in range(len(screen.buf)))
    screen.mark_all()
    driver.show(screen)
    data = [t for _, t in wire.log if t[0] == 0x40]
    assert [len(t) for t in data] == [1 + 1024]
    assert sum(len(t) for _, t in wire.log) == 1 + 6 + 1 + 1024
    decoded("ssd1306", wire, model)
    assert model.errors == [] and model.glass_image(0, 128, 64) == expected_mono(screen.buf, 128, 64)
    # Pages 2..4 across the glass, then a span of page 6: two windows.
    for y in (16, 30, 39, 50):
        screen.pixel(3, y, True)
    screen.mark(0, 16, 128, 24)
    screen.mark(40, 50, 8, 2)
    driver.show(screen)
    data = [t for _, t in wire.log if t[0] == 0x40]
    assert [len(t) for t in data] == [1 + 3 * 128, 1 + 8]
    decoded("ssd1306", wire, model)
    assert model.errors == [] and model.glass_image(0, 128, 64) == expected_mono(screen.buf, 128, 64)


def test_rectangles_on_the_same_page_go_out_as_one_span():
    driver, wire, model = started("ssd1306", "i2c", 0)
    screen = MonoScreen()
    screen.mark(0, 0, 8, 8)
    screen.mark(40, 4, 8, 2)
    driver.show(screen)
    data = [t for _, t in wire.log if t[0] == 0x40]
    assert len(data) == 1 and len(data[0]) == 1 + 48, "one transfer: columns 0..47 of page 0"


def test_i2c_transfers_start_with_the_control_byte_the_datasheets_give():
    # SSD1306 8.1.5.1: Co = 0 and D/C# = 0 before a command stream (0x00), D/C# = 1 before
    # display data (0x40); the controller answers at 0x3C with SA0 low.
    driver, wire = make("ssd1306", "i2c", 0)
    driver.init(sleep_ms=lambda ms: None)
    assert {t[0] for _, t in wire.log} == {0x00, 0x40}
    assert wire.addresses == [0x3C]


@pytest.mark.parametrize("controller, bus, offset", KINDS)
def test_sleep_wake_and_brightness_are_display_off_on_and_contrast(controller, bus, offset):
    driver, wire, model = started(controller, bus, offset)
    driver.sleep()
    assert not decoded(controller, wire, model).on, "0xAE: the sleep mode, RAM kept"
    driver.wake(0, lambda ms: None)
    assert decoded(controller, wire, model).on
    driver.brightness(100)
    assert decoded(controller, wire, model).contrast == 255
    driver.brightness(30)
    assert decoded(controller, wire, model).contrast == 76
    driver.brightness(0)
    assert decoded(controller, wire, model).contrast == 0
    assert model.commands[-1] == 0x81, "0x81 and its parameter"


def test_nothing_dirty_sends_nothing():
    driver, wire, _ = started("sh1106", "spi", 2)
    driver.show(MonoScreen())
    assert wire.log == []


def test_a_glass_wider_than_the_ram_is_refused():
    with pytest.raises(ValueError):
        make("sh1106", "i2c", 6)


def test_the_ssd1306_board_runs_its_i2c_within_the_datasheets_400_khz():
    board = boards.load("pico_ssd1306")
    i2c_id, freq, scl, sda = board.I2C
    assert freq <= 400_000, "SSD1306: I2C clock cycle time 2.5 us at least"
    # RP2040 datasheet, GPIO functions: I2C0 SDA on GP0/4/8/12/16/20, SCL on GP1/5/9/13/17/21.
    assert i2c_id == 0 and sda % 4 == 0 and scl == sda + 1
    assert board.I2C_ADDRESS in (0x3C, 0x3D)


def test_the_model_reads_control_bytes_as_the_ssd1306_datasheet_gives_them():
    # Co = 1: one byte, then another control byte; Co = 0: the rest of the transfer is of one
    # kind (D/C#). A transfer of single commands, then a data stream at page 2, column 5.
    model = OledModel("ssd1306")
    model.feed([(2, bytes([0x80, 0xAF, 0x80, 0x81, 0x80, 0x10, 0x80, 0xB2, 0x00, 0x05, 0x10])),
                (2, bytes([0x40, 0xFF, 0x01]))])
    assert model.errors == []
    assert model.on and model.contrast == 0x10
    assert model.ram[2][5] == 0xFF and model.ram[2][6] == 0x01


def test_a_transfer_cut_in_two_reads_on_where_it_stood():
    # The emulated chip's trace may cut a transfer at a marker: the rest (DC level 3) goes on
    # as the stream or the single byte it was in, with no control byte of its own.
    whole = OledModel("ssd1306")
    whole.feed([(2, bytes([0x00, 0xB3, 0x02, 0x10])), (2, bytes([0x40, 1, 2, 3, 4]))])
    cut = OledModel("ssd1306")
    cut.feed([(2, bytes([0x00, 0xB3])), (3, bytes([0x02, 0x10])), (2, bytes([0x40, 1, 2])), (3, bytes([3, 4]))])
    single = OledModel("ssd1306")
    single.feed([(2, bytes([0x80])), (3, bytes([0xAF, 0x00, 0xB3, 0x02, 0x10])), (2, bytes([0x40, 1, 2, 3, 4]))])
    for model in (whole, cut, single):
        assert model.errors == [] and model.ram[3][2:6] == [1, 2, 3, 4]
    assert single.on
