"""The panel driver against a model of the controller: what the glass shows must be the
framebuffer expanded through the palette, on every board, for full and partial updates."""

import random
import sys
from array import array

import pytest

import boards
from firmware import expand_plain, panel as panel_module
from firmware.panel import Panel, window_offsets
from support.fakes.machine import SPI, Pin
from support.panel_model import expected_glass, model_for

# The boards with a MIPI-DCS colour panel (the one-bit OLEDs: tests/test_oled.py).
BOARDS = [name for name in boards.NAMES if boards.load(name).CONTROLLER in panel_module.RAM_SIZE]


def make_panel(board):
    spi = SPI(1)
    dc = Pin(board.DC, Pin.OUT)
    spi.dc = dc
    spi.log = []
    cs = Pin(board.CS, Pin.OUT)
    rst = None if board.RST is None else Pin(board.RST, Pin.OUT)
    return Panel(spi, dc, cs, rst, board), spi


def random_screen(board, rnd):
    buf = bytearray(rnd.getrandbits(8) for _ in range(board.WIDTH * board.HEIGHT // 2))
    palette = array("H", [rnd.getrandbits(16) for _ in range(16)])
    return buf, palette


def decoded(board, spi, model=None):
    model = model or model_for(board)
    model.feed(spi.log)
    spi.log.clear()
    return model


def glass_of(board, model):
    return model.glass_image(board.GLASS, board.BGR, board.INVERT)


def expected(board, buf, palette):
    return expected_glass(buf, board.WIDTH, board.HEIGHT, palette, board.GLASS, board.MADCTL)


@pytest.mark.parametrize("name", BOARDS)
def test_init_wakes_the_panel_in_16_bit_colour_with_the_boards_orientation(name):
    board = boards.load(name)
    p, spi = make_panel(board)
    p.init(sleep_ms=lambda ms: None)
    model = decoded(board, spi)
    assert model.awake and model.on
    assert model.colmod & 0x07 == 0x05, "16 bits a pixel on the MCU interface"
    assert model.madctl == board.MADCTL | (0x08 if board.BGR else 0)
    assert model.inverted == board.INVERT
    assert model.commands[0] == 0x01, "a software reset comes first"


@pytest.mark.parametrize("name", BOARDS)
def test_a_full_screen_send_shows_the_framebuffer_through_the_palette(name):
    board = boards.load(name)
    rnd = random.Random(name)
    buf, palette = random_screen(board, rnd)
    p, spi = make_panel(board)
    p.init(sleep_ms=lambda ms: None)
    p.send(buf, board.WIDTH, palette, 0, 0, board.WIDTH, board.HEIGHT)
    model = decoded(board, spi)
    assert not model.errors
    assert glass_of(board, model) == expected(board, buf, palette)
    assert model.writes_outside(board.GLASS) == 0


@pytest.mark.parametrize("name", BOARDS)
def test_dirty_rectangles_update_exactly_their_part_of_the_glass(name):
    board = boards.load(name)
    rnd = random.Random(name + "dirty")
    buf, palette = random_screen(board, rnd)
    p, spi = make_panel(board)
    p.init(sleep_ms=lambda ms: None)
    p.send(buf, board.WIDTH, palette, 0, 0, board.WIDTH, board.HEIGHT)
    model = decoded(board, spi)
    for _ in range(12):
        x = rnd.randrange(board.WIDTH)
        y = rnd.randrange(board.HEIGHT)
        w = rnd.randrange(1, board.WIDTH - x + 1)
        h = rnd.randrange(1, board.HEIGHT - y + 1)
        for yy in range(y, y + h):
            for xx in range(x, x + w):
                i = (yy * board.WIDTH + xx) >> 1
                v = rnd.randrange(16)
                buf[i] = (buf[i] & 0x0F) | (v << 4) if xx % 2 == 0 else (buf[i] & 0xF0) | v
        p.send(buf, board.WIDTH, palette, x, y, w, h)
        decoded(board, spi, model)
    assert not model.errors
    assert glass_of(board, model) == expected(board, buf, palette)
    assert model.writes_outside(board.GLASS) == 0


def test_a_changed_palette_recolours_what_is_sent_next():
    board = boards.load("pico_lcd_114")
    rnd = random.Random(3)
    buf, palette = random_screen(board, rnd)
    p, spi = make_panel(board)
    p.init(sleep_ms=lambda ms: None)
    p.send(buf, board.WIDTH, palette, 0, 0, board.WIDTH, board.HEIGHT)
    model = decoded(board, spi)
    palette[5] = 0x1234
    p.send(buf, board.WIDTH, palette, 0, 0, board.WIDTH, board.HEIGHT)
    decoded(board, spi, model)
    assert glass_of(board, model) == expected(board, buf, palette)


def test_show_sends_every_dirty_rectangle_and_clears_them():
    board = boards.load("picosystem")
    rnd = random.Random(9)
    buf, palette = random_screen(board, rnd)

    class Screen:
        width, height = board.WIDTH, board.HEIGHT
        dirty = array("h", [0, 0, 240, 240, 17, 33, 5, 9, 0, 0, 0, 0])
        dirty_count = 2
        cleared = 0

        def clear_dirty(self):
            self.cleared += 1
            self.dirty_count = 0

    screen = Screen()
    screen.buf, screen.palette = buf, palette
    p, spi = make_panel(board)
    p.show(screen)
    # Two windows: CASET, RASET, RAMWR each.
    assert sum(1 for dc, data in spi.log if dc == 0 and data[0] == 0x2C) == 2
    assert screen.cleared == 1 and screen.dirty_count == 0
    spi.log.clear()
    p.show(screen)
    assert spi.log == []


def test_windows_are_widened_to_whole_8_pixel_columns_and_clipped_to_the_screen():
    board = boards.load("picosystem")
    p, spi = make_panel(board)
    buf = bytearray(board.WIDTH * board.HEIGHT // 2)
    palette = array("H", range(16))
    p.send(buf, board.WIDTH, palette, 13, 7, 5, 3)          # columns 13..17 -> 8..23
    windows = [data for dc, data in spi.log if dc == 1 and len(data) == 4]
    assert windows[0] == bytes([0, 8, 0, 23]) and windows[1] == bytes([0, 7, 0, 9])
    spi.log.clear()
    p.send(buf, board.WIDTH, palette, 230, 235, 40, 40)     # clipped at 239
    windows = [data for dc, data in spi.log if dc == 1 and len(data) == 4]
    assert windows[0] == bytes([0, 224, 0, 239]) and windows[1] == bytes([0, 235, 0, 239])


def test_an_empty_rectangle_sends_nothing():
    board = boards.load("picosystem")
    p, spi = make_panel(board)
    p.send(bytearray(240 * 120), 240, array("H", range(16)), 10, 10, 0, 5)
    assert spi.log == []


# Offsets the vendors' own code uses, as a check of window_offsets (docs/boards.md).
@pytest.mark.parametrize("name, first_column, first_row", [
    ("pico_lcd_114", 40, 53),   # Waveshare demo: CASET 0x0028..0x0117, RASET 0x0035..0x00BB
    ("tdisplay", 40, 53),       # TFT_eSPI rotation 1: colstart 40, rowstart 53
    ("pico_lcd_13", 0, 0),
    ("picosystem", 0, 0),
    ("odroid_go", 0, 0),
    ("m5stack_core", 0, 0),
    ("pico_st7735", 0, 0),      # a black-tab module: Adafruit's INITR_BLACKTAB, no offsets
    ("pico_lcd_18", 1, 2),      # Waveshare demo (MADCTL 0x70): CASET 0x0001..0x00A0, RASET 0x0002..0x0081
])
def test_window_offsets_match_the_vendors_code(name, first_column, first_row):
    board = boards.load(name)
    assert window_offsets(board.CONTROLLER, board.GLASS, board.MADCTL,
                          getattr(board, "RAM", None)) == (first_column, first_row)


# The ST7735's variants as Adafruit's ST7735 library sets them: a "green tab" module (GM =
# "00", the 128x160 glass at column 2, row 1 of the 132x162 RAM) takes colstart 2, rowstart 1
# upright (MADCTL MY|MX) and the two swapped in landscape (MY|MV, rotation 1; MX|MV,
# rotation 3); "red" and "black tab" modules (128x160 RAM) take no offsets in any rotation.
@pytest.mark.parametrize("madctl, offsets", [(0xC0, (2, 1)), (0xA0, (1, 2)), (0x60, (1, 2)), (0x00, (2, 1))])
def test_st7735_green_tab_offsets_match_adafruits_in_every_rotation(madctl, offsets):
    assert window_offsets("st7735", (2, 1, 128, 160), madctl) == offsets
    assert window_offsets("st7735", (0, 0, 128, 160), madctl, (128, 160)) == (0, 0)


def test_a_240x240_glass_upside_down_needs_the_80_row_offset():
    # MY mirrors across the 320-row RAM: the visible 240 rows are then 80..319.
    assert window_offsets("st7789", (0, 0, 240, 240), 0xC0) == (0, 80)
    assert window_offsets("st7789", (0, 0, 240, 240), 0xA0) == (80, 0)


def viper_stand_in():
    """expand_viper's source with the viper types played by memoryviews (native byte order,
    like the device's ptr16 and ptr32)."""
    import types
    source = open(panel_module.__file__.replace("panel.py", "expand_viper.py")).read()
    fake = types.ModuleType("micropython")
    fake.viper = lambda f: f
    namespace = {"ptr8": lambda b: memoryview(b).cast("B"), "ptr16": lambda b: memoryview(b).cast("B").cast("H"),
                 "ptr32": lambda b: memoryview(b).cast("B").cast("I")}
    import sys
    saved = sys.modules.get("micropython")
    sys.modules["micropython"] = fake
    try:
        exec(compile(source, "expand_viper.py", "exec"), namespace)
    finally:
        if saved is None:
            del sys.modules["micropython"]
        else:
            sys.modules["micropython"] = saved
    return namespace


@pytest.mark.skipif(sys.byteorder != "little", reason="the viper pairing is for little-endian chips")
def test_the_viper_expansion_writes_the_same_bytes_as_the_plain_one():
    viper = viper_stand_in()
    rnd = random.Random(5)
    width = 48
    buf = bytearray(rnd.getrandbits(8) for _ in range(width * 20 // 2))
    table = bytearray(rnd.getrandbits(8) for _ in range(32))
    pairs = bytearray(1024)
    viper["make_pairs"](pairs, table)
    for start, count, rows in [(0, 8, 1), (8, 16, 3), (16, 32, 5), (48 * 3 + 40, 8, 17), (0, 48, 20)]:
        a = bytearray(2 * count * rows + 8)
        b = bytearray(2 * count * rows + 8)
        for r in range(rows):
            expand_plain.expand_row(a, 2 * count * r, buf, start + r * width, count, table)
        viper["expand_rows"](b, buf, start, count, rows, width, pairs)
        assert a == b, (start, count, rows)
        assert not any(b[2 * count * rows:]), "only its own bytes are written"


def covered(rects):
    return {(x + i, y + j) for x, y, w, h in rects for i in range(w) for j in range(h)}


def test_merging_dirty_rectangles_covers_every_pixel_and_only_pays_off_where_it_should():
    merge = viper_stand_in()["merge_rects"]
    # A card sliding over its last place, a cursor over a card, the strip far below.
    rects = [(127, 14, 30, 42), (142, 14, 30, 42), (209, 3, 29, 9), (0, 200, 240, 20)]
    dirty = array("h", [v for r in rects for v in r] + [0] * 8)
    n = merge(dirty, len(rects), 1024)
    merged = [tuple(dirty[4 * i:4 * i + 4]) for i in range(n)]
    assert covered(merged) >= covered(rects)
    assert n == 3 and (127, 14, 45, 42) in merged, merged
    assert (0, 200, 240, 20) in merged, "a far rectangle stays on its own"
    # Random sets: every pixel still covered, never more pixels than the slack allows.
    rnd = random.Random(3)
    for _ in range(200):
        rects = [(rnd.randrange(200), rnd.randrange(200), rnd.randrange(1, 40), rnd.randrange(1, 40))
                 for _ in range(rnd.randrange(1, 13))]
        dirty = array("h", [v for r in rects for v in r])
        n = merge(dirty, len(rects), 512)
        merged = [tuple(dirty[4 * i:4 * i + 4]) for i in range(n)]
        assert covered(merged) >= covered(rects)
        sent = sum(w * h for _, _, w, h in merged)
        assert sent <= sum(w * h for _, _, w, h in rects) + 512 * (len(rects) - n)
    assert merge(array("h", [5, 5, 10, 10]), 1, 0) == 1
    assert merge(array("h"), 0, 1024) == 0


def test_the_plain_expansion_puts_the_left_pixel_from_the_high_nibble_high_byte_first():
    table = bytearray(32)
    table[2 * 0xA], table[2 * 0xA + 1] = 0xF8, 0x00     # colour 10: red
    table[2 * 0x3], table[2 * 0x3 + 1] = 0x07, 0xE0     # colour 3: green
    line = bytearray(4)
    expand_plain.expand_row(line, 0, bytearray([0xA3]), 0, 2, table)
    assert line == bytes([0xF8, 0x00, 0x07, 0xE0])
    expand_plain.expand_row(line, 0, bytearray([0xA3]), 1, 1, table)
    assert line[:2] == bytes([0x07, 0xE0])


class FakeFeeder:
    """firmware/spi_dma.py's SpiDma on the host, doing in Python what its viper does with the
    registers: select, the window's commands, the rows expanded (by expand_viper's
    expand_rows, through a stand-in) per_write at a time into the two buffers in turn, each
    written to the SPI, then deselect. What it is given is what the chip would be given."""

    def __init__(self, spi, cs, dc, expand_rows=None):
        self.spi = spi
        self.cs = cs
        self.dc = dc
        self.expand_rows = expand_rows
        self.sent = []
        self.finished = 0

    def attach(self, lines, pairs, width):
        assert len(lines) == 2 and len(lines[0]) == len(lines[1]) and len(pairs) == 1024
        self.lines = lines
        self.pairs = pairs
        self.width = width

    def flush(self, buf, x, y, start, n, rows, per_write):
        assert x % 8 == 0 and start % 8 == 0 and n % 8 == 0 and self.width % 8 == 0
        assert 2 * n * per_write <= len(self.lines[0])
        self.cs.value(0)
        for cmd, first, last in ((0x2A, x, x + n - 1), (0x2B, y, y + rows - 1)):
            self.dc.value(0)
            self.spi.write(bytes([cmd]))
            self.dc.value(1)
            self.spi.write(bytes([first >> 8, first & 255, last >> 8, last & 255]))
        self.dc.value(0)
        self.spi.write(b"\x2c")
        self.dc.value(1)
        k = 0
        done = 0
        while done < rows:
            count = min(per_write, rows - done)
            self.expand_rows(self.lines[k], buf, start + done * self.width, n, count, self.width, self.pairs)
            self.sent.append(k)
            self.spi.write(bytes(self.lines[k][:2 * n * count]))
            done += count
            k ^= 1
        self.finished += 1
        self.cs.value(1)


@pytest.mark.skipif(sys.byteorder != "little", reason="the viper pairing is for little-endian chips")
@pytest.mark.parametrize("name", ["pico_lcd_13", "pico_lcd_114", "picosystem"])
def test_the_dma_feeder_sends_what_the_glass_must_show(name, monkeypatch):
    board = boards.load(name)
    viper = viper_stand_in()
    fake = type("expand_viper", (), {"expand_rows": staticmethod(viper["expand_rows"]),
                                     "make_pairs": staticmethod(viper["make_pairs"]),
                                     "merge_rects": staticmethod(viper["merge_rects"])})
    monkeypatch.setattr(panel_module, "expand_viper", fake)
    spi = SPI(1)
    dc = Pin(board.DC, Pin.OUT)
    cs = Pin(board.CS, Pin.OUT)
    spi.dc = dc
    spi.log = []
    feeder = FakeFeeder(spi, cs, dc, viper["expand_rows"])
    panel = Panel(spi, dc, cs, None, board, "viper", feeder)
    panel.init(sleep_ms=lambda ms: None)
    rnd = random.Random(name)
    buf, palette = random_screen(board, rnd)
    panel.send(buf, board.WIDTH, palette, 0, 0, board.WIDTH, board.HEIGHT)
    # Four rows a transfer, the two buffers in turn.
    assert feeder.sent[:4] == [0, 1, 0, 1] and len(feeder.sent) == -(-board.HEIGHT // 4)
    assert feeder.finished == 1
    model = decoded(board, spi)
    assert glass_of(board, model) == expected(board, buf, palette)
    # Dirty rectangles of every shape, and a palette change on the way.
    for i in range(30):
        if i == 15:
            palette = array("H", [rnd.getrandbits(16) for _ in range(16)])
            panel.send(buf, board.WIDTH, palette, 0, 0, board.WIDTH, board.HEIGHT)
        x, y = rnd.randrange(board.WIDTH), rnd.randrange(board.HEIGHT)
        w, h = rnd.randrange(1, 90), rnd.randrange(1, 90)
        for k in range(len(buf)):
            if rnd.random() < 0.05:
                buf[k] = rnd.getrandbits(8)
        panel.send(buf, board.WIDTH, palette, 0, 0, board.WIDTH, board.HEIGHT)
        panel.send(buf, board.WIDTH, palette, x, y, w, h)
    model = decoded(board, spi, model)
    assert glass_of(board, model) == expected(board, buf, palette)
    # A screen's overlapping dirty rectangles, merged before they are sent.
    from engine_core.gfx.screen import Screen
    from simulator import framebuf
    screen = Screen(board.WIDTH, board.HEIGHT, framebuf)
    screen.mark_all()
    panel.show(screen)
    for frame in range(20):
        for _ in range(rnd.randrange(1, 12)):
            x, y = rnd.randrange(board.WIDTH - 30), rnd.randrange(board.HEIGHT - 40)
            screen.fb.fill_rect(x, y, rnd.randrange(1, 30), rnd.randrange(1, 40), rnd.randrange(16))
            screen.mark(x, y, 30, 40)
        before = feeder.finished
        count = screen.dirty_count
        panel.show(screen)
        assert feeder.finished - before <= count
    model = decoded(board, spi, model)
    assert glass_of(board, model) == expected(board, screen.buf, screen.palette)
    assert model.errors == []
    assert model.writes_outside(board.GLASS) == 0
    assert cs.value() == 1


def test_a_dma_feeder_needs_the_viper_expansion():
    board = boards.load("pico_lcd_13")
    with pytest.raises(ValueError):
        Panel(SPI(1), Pin(1), Pin(2), None, board, "plain", FakeFeeder(None, None, None))


def test_the_viper_shuffle_deals_as_the_engines_for_both_generators():
    """The device shuffles with expand_viper.shuffle2 (firmware/main.py): the same cards in
    the same places and the same states as engine_core.rng.shuffle2, from any state, for
    every generator that deals with two streams."""
    from array import array

    from engine_core import rng
    shuffle = viper_stand_in()["shuffle2"]
    rnd = random.Random(11)
    for generator in (rng.COMBINED, rng.SPECTRAL):
        for _ in range(300):
            count = rnd.choice((52, 54, 104, 108, 7, 1, 0))
            start = rnd.randrange(0, 20)
            cards = bytearray(rnd.getrandbits(8) for _ in range(start + count + 5))
            mine = bytearray(cards)
            state = array("i", [rnd.randrange(1, rng.M1), rnd.randrange(1, rng.M2), 77])
            ours = array("i", state)
            rng.shuffle2(cards, start, count, state, 0, 1, generator)
            shuffle(mine, start, count, ours, 0, 1, generator)
            assert mine == cards and ours == state, (generator, count, start)


def test_the_viper_checksum_is_zlibs_crc32_of_the_span_as_records_wants_it():
    """The device checks its records with expand_viper.crc32_parts (firmware/main.py): the
    value zlib.crc32 gives (an outside reference), split as engine_core.records's, of any
    span, the bytes around it left alone."""
    import zlib
    from array import array

    from engine_core import records
    crc = viper_stand_in()["crc32_parts"]
    rnd = random.Random(3)
    for n in (0, 1, 9, 255, 1024):
        buf = bytearray(rnd.getrandbits(8) for _ in range(n + 8))
        start = rnd.randrange(0, 8)
        ours, theirs = array("H", [7, 7]), array("H", [7, 7])
        crc(buf, start, start + n, ours)
        records.crc32_parts(buf, start, start + n, theirs)
        value = zlib.crc32(bytes(buf[start:start + n]))
        assert list(ours) == list(theirs) == [value >> 16, value & 0xFFFF], n
    nine = array("H", [0, 0])
    crc(b"123456789", 0, 9, nine)
    assert list(nine) == [0xCBF4, 0x3926]


def test_the_viper_byte_copy_copies_a_span_and_nothing_else():
    viper = viper_stand_in()
    src = bytearray(range(256)) * 4
    for at, start, n in [(1, 0, 128), (1, 8, 120), (1, 896, 128), (0, 5, 0), (3, 1000, 24)]:
        dst = bytearray(b"\xee" * 160)
        viper["copy_bytes"](dst, at, src, start, n)
        assert dst[at:at + n] == src[start:start + n] and dst[:at] == b"\xee" * at
        assert dst[at + n:] == b"\xee" * (160 - at - n)


@pytest.mark.skipif(sys.byteorder != "little", reason="the viper reading is for little-endian chips")
def test_the_viper_journal_entries_are_the_bytes_put_i32_writes():
    """The device writes its undo journal's entries with expand_viper.put_entries
    (firmware/main.py): the same bytes as fields.put_i32 of each entry, round the ring's end,
    for values of either sign up to the 30 bits a journal entry may hold."""
    from array import array

    from engine_core import fields
    put_entries = viper_stand_in()["put_entries"]
    rnd = random.Random(11)
    cap = 40
    log = array("i", [rnd.choice((1, -1)) * rnd.randrange(2 ** 30) for _ in range(cap)])
    log[0], log[1], log[2], log[3] = -1, 0, 2 ** 30 - 1, -2 ** 30
    for start, count in ((0, 0), (0, cap), (35, 12), (39, 1), (7, 33)):
        ours = bytearray(200)
        end = put_entries(ours, 3, log, start, count, cap)
        want = bytearray(200)
        pos = 3
        for k in range(count):
            pos = fields.put_i32(want, pos, log[(start + k) % cap])
        assert end == pos == 3 + 4 * count and ours == want, (start, count)
