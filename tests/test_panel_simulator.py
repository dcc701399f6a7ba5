"""What a board's panel shows equals what the simulator shows: for every board and every
game's opening screen, the bytes the driver sends, decoded by the panel model and seen the
way the player holds the board, are the simulator's image pixel for pixel."""

import pytest

import boards
from firmware.panel import Panel
from simulator.image import rgb888, to_rgb_bytes
from simulator.keys import make_app
from support.fakes.machine import SPI, Pin
from support.panel_model import glass_position, model_for


def opening_apps(width, height):
    from engine_core import games
    from engine_core.ui import layouts
    apps = [("title", make_app(width, height))]
    return apps + [(name, make_app(width, height, name, 1)) for name in games.available()
                   if layouts.declaration(name) is not None]


def players_view(board, glass):
    """The glass image turned back to the screen as the player sees it (WIDTH x HEIGHT
    RGB bytes), undoing the board's orientation within the glass."""
    out = bytearray()
    for y in range(board.HEIGHT):
        for x in range(board.WIDTH):
            c, r = glass_position(x, y, board.GLASS, board.MADCTL)
            out += bytes(rgb888(glass[r][c]))
    return bytes(out)


def oled_equals_the_simulator(board, apps):
    """The one-bit boards: the OLED driver's bytes, decoded by the OLED model, are the
    screen's MONO_VLSB frame."""
    from firmware.oled import I2cBus, Oled
    from support.fakes.machine import I2C
    from support.oled_model import OledModel, expected_mono
    for game, app in apps:
        screen = app.screen
        if not getattr(screen, "mono", False):
            pytest.skip("the simulator draws no one-bit screen at %dx%d here" % (board.WIDTH, board.HEIGHT))
        i2c = I2C(0)
        i2c.log = []
        oled = Oled(I2cBus(i2c, board.I2C_ADDRESS), None, board)
        oled.init(sleep_ms=lambda ms: None)
        screen.mark_all()
        oled.show(screen)
        model = OledModel(board.CONTROLLER)
        model.feed(i2c.log)
        assert not model.errors, (game, model.errors[:3])
        glass = model.glass_image(board.GLASS[0], board.WIDTH, board.HEIGHT)
        assert glass == expected_mono(screen.buf, board.WIDTH, board.HEIGHT), game


@pytest.mark.parametrize("name", boards.NAMES)
def test_every_games_opening_screen_on_the_panel_equals_the_simulators_image(name):
    board = boards.load(name)
    apps = opening_apps(board.WIDTH, board.HEIGHT)
    assert len(apps) >= 3
    if getattr(board, "MONO", False):
        oled_equals_the_simulator(board, apps)
        return
    for game, app in apps:
        screen = app.screen
        spi = SPI(1)
        dc = Pin(board.DC)
        spi.dc, spi.log = dc, []
        panel = Panel(spi, dc, Pin(board.CS), None, board)
        panel.init(sleep_ms=lambda ms: None)
        screen.mark_all()
        panel.show(screen)
        model = model_for(board)
        model.feed(spi.log)
        assert not model.errors, (game, model.errors[:3])
        glass = model.glass_image(board.GLASS, board.BGR, board.INVERT)
        simulator = to_rgb_bytes(screen.buf, board.WIDTH, board.HEIGHT, screen.palette)
        assert players_view(board, glass) == simulator, game


@pytest.mark.parametrize("name", boards.NAMES)
def test_the_simulator_takes_every_board_by_name(name):
    from simulator.boards import resolve_board
    board = boards.load(name)
    sim = resolve_board(name)
    assert (sim.width, sim.height) == (board.WIDTH, board.HEIGHT)
