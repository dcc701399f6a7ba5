"""The simulator's window: the device's pixels scaled up inside a skin of the board, and a
help overlay with the keyboard map."""

import os

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
import pygame

from engine_core.ui import buttons as bt
from simulator import keymap
from simulator.keymap import HELP, help_lines
from simulator.image import screen_rgb_bytes

# Keyboard -> logical buttons (simulator/keymap.py: the web page uses the same table); each
# button's key is its own letter.
KEYMAP = {getattr(pygame, "K_" + key): bt.NAMES.index(button) for key, button in keymap.KEYS}
LONG_KEYMAP = {getattr(pygame, "K_" + key): bt.NAMES.index(button) for key, button in keymap.LONG_KEYS}
# The digit keys, the keypad's too: typed into a number entry (the deal screen's).
DIGIT_KEYS = {}
for _d in range(10):
    DIGIT_KEYS[pygame.K_0 + _d] = _d
    DIGIT_KEYS[getattr(pygame, "K_KP_%d" % _d)] = _d
# The key drawn beside each button of the skin.
KEY_LABELS = {bt.A: "key A", bt.B: "key B", bt.X: "key X", bt.Y: "key Y",
              bt.START: "key S", bt.SELECT: "Backspace"}
ASK_CLOSE = ("Close the simulator?", "Esc: close    any other key: stay")
HINT = "H: keyboard map"
HELP_WORDS_X = 140  # where the keyboard map's words start in its panel, right of the keys
SCALE_MAX = 3
GAMMA = 2.2  # a backlight's share of full, as bright as it looks: share ** (1 / GAMMA)


def light_alpha(percent):
    """How dark a veil (alpha 0..255) shows the screen at `percent` of its backlight (the
    device's: engine_core/power.py): none at 100, black at 0, and 10 % (dim) about 65 %."""
    return 255 - round(255 * (percent / 100) ** (1 / GAMMA))


def fit_scale(width, height, display_w, display_h):
    """The largest whole scale (1..SCALE_MAX) at which the window fits the display, leaving
    room for a title bar and a task bar (a 1366x768 laptop screen gives 2 at 240x240)."""
    for scale in range(SCALE_MAX, 1, -1):
        w, h = window_size(width, height, scale)
        if w <= display_w and h <= display_h - 80:
            return scale
    return 1


def window_size(width, height, scale):
    """The window for a screen at a scale: tall enough for the keyboard map (a 128x64 screen
    at scale 2 is not), with room for HELP_WRAPS of its lines broken in two (a narrow window)."""
    return width * scale + 2 * SIDE, max(height * scale + 2 * PAD + 40, 60 + 22 * (len(HELP) + HELP_WRAPS))


def break_words(font, text, room):
    """text in lines no wider than `room` pixels in `font`, broken at spaces (a word wider
    than the room has a line of its own)."""
    lines = []
    line = ""
    for word in text.split(" "):
        wider = line + " " + word if line else word
        if line and font.size(wider)[0] > room:
            lines.append(line)
            line = word
        else:
            line = wider
    lines.append(line)
    return lines


HELP_WRAPS = 3  # window_size: rows of room for the keyboard map's lines broken in two
SIDE = 150  # room for the D-pad on the left and the buttons on the right
PAD = 24

BODY = (46, 52, 64)
BEZEL = (16, 18, 22)
BUTTON = (200, 60, 70)
LABEL = (220, 224, 232)
KEY_COLOUR = (160, 170, 190)


class Window:
    def __init__(self, screen, scale=3, board=None, visible=True):
        if not visible:
            os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
        pygame.display.init()  # sound: simulator/sound.py, through the mixer
        pygame.font.init()
        self.screen = screen
        self.scale = scale
        self.board = board
        self.pad = PAD
        self.side = SIDE
        self.size = window_size(screen.width, screen.height, scale)
        self.surface = pygame.display.set_mode(self.size)
        name = board.name if board else "%dx%d" % (screen.width, screen.height)
        pygame.display.set_caption("Pocket card console - %s" % name)
        self.font = pygame.font.Font(None, 22)
        self.small = pygame.font.Font(None, 18)
        self.help = False
        self.asking = False  # Esc on the title: "Close the simulator?" is shown
        self.pressed = set()
        self.two_only = False  # the console plays with A and B alone (its setting): the skin shows those
        self.light = 100  # the screen's backlight, percent (set_light(): the console's power)
        self.shown_light = 100  # as last drawn
        self.skin = self.draw_skin()
        self.frame = pygame.Surface((screen.width, screen.height))
        self.refresh_frame()

    def draw_skin(self):
        """The board's body, bezel, D-pad and buttons (they light up while pressed)."""
        s = pygame.Surface(self.size)
        s.fill((24, 26, 30))
        # Each board gets its own body colour, so two skins are told apart at a glance.
        body = BODY
        if self.board and self.board.module is not None:
            h = sum(ord(c) for c in self.board.name)
            body = (40 + h % 50, 44 + (h // 3) % 40, 56 + (h // 7) % 50)
        pygame.draw.rect(s, body, s.get_rect().inflate(-8, -8), border_radius=28)
        sx, sy = self.side, self.pad
        w, h = self.screen.width * self.scale, self.screen.height * self.scale
        pygame.draw.rect(s, BEZEL, (sx - 10, sy - 10, w + 20, h + 20), border_radius=10)
        for text, colour, x, y in self.caption():
            s.blit(self.small.render(text, True, colour), (x, y))
        return s

    def caption(self):
        """The board's name under the screen and the keyboard map's key at its right, each
        line as (text, colour, x, y): the name broken at spaces where it is wider than the
        screen, and the key on a line of its own where it does not fit beside the name's
        last line (a 128-pixel screen), so that neither runs over the other or the buttons."""
        w, h = self.screen.width * self.scale, self.screen.height * self.scale
        sx, y = self.side, self.pad + h + 16
        name = self.board.title if self.board else "%dx%d" % (self.screen.width, self.screen.height)
        font = self.small
        lines = []
        for line in break_words(font, name, w):
            lines.append((line, LABEL, sx, y))
            y += font.get_linesize()
        hint_w = font.size(HINT)[0]
        if font.size(lines[-1][0])[0] + 12 + hint_w <= w:
            y = lines[-1][3]  # beside the name's last line
        lines.append((HINT, (250, 206, 72), sx + w - hint_w, y))
        return lines

    def button_spots(self):
        """Where each button is drawn: {button: (x, y, radius)}."""
        w, h = self.screen.width * self.scale, self.screen.height * self.scale
        cy = self.pad + h // 2
        lx = self.side // 2
        rx = self.side + w + self.side // 2
        d = 30
        f = 40  # the face buttons apart enough for their key labels
        return {
            bt.UP: (lx, cy - d, 14), bt.DOWN: (lx, cy + d, 14),
            bt.LEFT: (lx - d, cy, 14), bt.RIGHT: (lx + d, cy, 14),
            bt.A: (rx + f, cy, 16), bt.B: (rx, cy + f, 16), bt.X: (rx, cy - f, 16), bt.Y: (rx - f, cy, 16),
            bt.SELECT: (lx, cy + 3 * d + 8, 10), bt.START: (rx, cy + 3 * d + 8, 10),
        }

    def set_light(self, percent):
        """The screen's backlight: 100 lit, less dimmed, 0 dark (drawn at the next update)."""
        self.light = percent

    def refresh_frame(self):
        scr = self.screen
        data = screen_rgb_bytes(scr)  # a one-bit screen lit on dark, as its OLED
        self.frame = pygame.image.frombuffer(data, (scr.width, scr.height), "RGB")
        scr.clear_dirty()

    def update(self):
        """Copy the framebuffer to the window when the screen has dirty rectangles."""
        if self.screen.dirty_count:
            self.refresh_frame()
        self.compose()
        pygame.display.flip()

    def compose(self):
        s = self.surface
        s.blit(self.skin, (0, 0))
        w, h = self.screen.width * self.scale, self.screen.height * self.scale
        s.blit(pygame.transform.scale(self.frame, (w, h)), (self.side, self.pad))
        self.shown_light = self.light
        if self.light < 100:  # dimmed, or dark
            veil = pygame.Surface((w, h), pygame.SRCALPHA)
            veil.fill((0, 0, 0, light_alpha(self.light)))
            s.blit(veil, (self.side, self.pad))
        present = self.board.buttons if self.board else range(bt.COUNT)
        if self.two_only:
            present = [b for b in present if b == bt.A or b == bt.B]
        for button, (x, y, r) in self.button_spots().items():
            if button not in present:
                continue
            lit = button in self.pressed
            colour = (255, 220, 80) if lit else BUTTON if button in (bt.A, bt.B, bt.X, bt.Y) else (90, 96, 110)
            pygame.draw.circle(s, colour, (x, y), r)
            if bt.A <= button <= bt.Y:
                text = self.font.render(bt.NAMES[button], True, LABEL)
                s.blit(text, (x - text.get_width() // 2, y - text.get_height() // 2))
            elif button > bt.Y:
                text = self.small.render(bt.NAMES[button], True, LABEL)
                s.blit(text, (x - text.get_width() // 2, y + r + 2))
            if button in KEY_LABELS:  # the keyboard key that presses it
                key = self.small.render(KEY_LABELS[button], True, KEY_COLOUR)
                ky = y + r + 1 if button <= bt.Y else y + r + 14
                s.blit(key, (x - key.get_width() // 2, ky))
        if bt.UP in present:
            key = self.small.render("arrow keys", True, KEY_COLOUR)
            lx, ly, lr = self.button_spots()[bt.DOWN]
            s.blit(key, (lx - key.get_width() // 2, ly + lr + 2))
        if self.help:
            self.draw_help()
        if self.asking:
            self.draw_ask()

    def draw_ask(self):
        s = self.surface
        panel = pygame.Surface((self.size[0] - 60, 70), pygame.SRCALPHA)
        panel.fill((10, 14, 30, 235))
        question = self.font.render(ASK_CLOSE[0], True, (250, 206, 72))
        answers = self.font.render(ASK_CLOSE[1], True, (255, 255, 255))
        panel.blit(question, ((panel.get_width() - question.get_width()) // 2, 12))
        panel.blit(answers, ((panel.get_width() - answers.get_width()) // 2, 40))
        s.blit(panel, (30, (self.size[1] - 70) // 2))

    def help_rows(self):
        """The keyboard map's rows, (key, words): a line too wide for the panel goes on in the
        row under it (its key empty), so that none runs past the panel's edge."""
        room = self.size[0] - 60 - HELP_WORDS_X - 14
        rows = []
        for key, what in help_lines(self.board, self.two_only):
            for k, line in enumerate(break_words(self.font, what, room)):
                rows.append((key if k == 0 else "", line))
        return rows

    def draw_help(self):
        s = self.surface
        rows = self.help_rows()
        panel = pygame.Surface((self.size[0] - 60, 30 + 22 * len(rows)), pygame.SRCALPHA)
        panel.fill((10, 14, 30, 230))
        panel.blit(self.font.render("Keyboard", True, (250, 206, 72)), (14, 8))
        for i, (key, what) in enumerate(rows):
            panel.blit(self.font.render(key, True, (255, 255, 255)), (14, 32 + 22 * i))
            panel.blit(self.font.render(what, True, (190, 200, 220)), (HELP_WORDS_X, 32 + 22 * i))
        s.blit(panel, (30, 20))

    def save(self, path):
        self.compose()
        pygame.image.save(self.surface, path)

    def close(self):
        pygame.display.quit()
