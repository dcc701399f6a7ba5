"""The one-bit screen's drawing: a FrameBuffer's calls, each colour a palette role.

Screen(..., mono=True) keeps a MONO_VLSB FrameBuffer (the SSD1306/SH1106 page layout) and
hands the drawing code this canvas as its `fb`: the code names roles (FELT, CURSOR) as on a
colour screen, and each call looks its role up in `tone` (palette.MONO: dark 0 or lit 1).
blit() maps the two roles of its ink palette the same way, keeping the colour key's meaning
(a pixel whose role is the key is left as it is), so the painter's code is the colour
screen's, and a colour screen pays nothing for this one. A highlight frame, which colour
alone marks on a colour screen, is drawn as lit marks on the card's outer rings, clear of its
index (frame(), palette.MONO_MARKS); under the cursor MonoPainter draws the face negative.
Nothing here allocates after __init__.

Costs (fuel on MicroPython): a call through the canvas is a Python call more than the
FrameBuffer's own, about 4,000 for a fill and 9,000 for a blit against a glyph's 6,000, so
MonoPainter draws text and cards, most of the calls, straight into the frame. MicroPython fills
a MONO_VLSB rectangle bit by bit (20 fuel a pixel, three times GS4_HMSB's pairs): a tall
rectangle's whole pages are filled through a GS8 view of the same bytes, a byte a column.
"""

from engine_core.gfx import art_data
from engine_core.gfx.paint import ART_INDEX, ART_TINY, CHAR_H, CHAR_W, JACK, JOKER_BASE, Painter
from engine_core.gfx.palette import (BACK, BACK_LIGHT, BLACK, CURSOR, FELT, GOLD, GREY, MARK_CORNERS,
                                     MARK_NEGATIVE, MARK_RING, MARK_TICKS, MONO, MONO_MARKS, RED, SLOT, WHITE)

from micropython import const

SKIP = const(2)  # the key of the canvas's own ink: a value no tone takes
TALL = const(16)  # a rectangle this tall or taller has its whole pages filled a byte a column
RANK_LETTERS = b"A23456789TJQK"  # the tiny ranks' glyphs, in the art's order (art_data.RANK_TINY)


class MonoCanvas:
    def __init__(self, framebuf, fb, buf, width, height):
        self.fb = fb  # the MONO_VLSB FrameBuffer over screen.buf
        pages = height >> 3  # whole pages (a screen under 8 rows fills none through it)
        self.pages = framebuf.FrameBuffer(buf, width, pages if pages else 1, framebuf.GS8)
        self.width = width
        self.height = height
        self.tone = bytearray(MONO)
        self.ink_buf = bytearray(1)  # a blit's two tones, or SKIP
        self.ink = framebuf.FrameBuffer(self.ink_buf, 2, 1, framebuf.GS4_HMSB)
        self.roles = None  # the painter's ink palette, and its byte: read without a call
        self.roles_buf = None
        # Dotted lines (dots()): every other pixel lit, 32 and 8 across, 8 down.
        self.dots32 = framebuf.FrameBuffer(bytearray(b"\xaa\xaa\xaa\xaa"), 32, 1, framebuf.MONO_HLSB)
        self.dots8 = framebuf.FrameBuffer(bytearray(b"\xaa"), 8, 1, framebuf.MONO_HLSB)
        self.dots_down = framebuf.FrameBuffer(bytearray(b"\x80\x00\x80\x00\x80\x00\x80\x00"), 1, 8,
                                              framebuf.MONO_HLSB)

    def follow(self, roles, roles_buf):
        """The painter's ink (a GS4_HMSB palette of two roles over roles_buf), whose roles
        blit() reads from the byte (a call to its pixel() costs as much as a glyph's blit)."""
        self.roles = roles
        self.roles_buf = roles_buf

    def fill(self, c):
        self.fill_rect(0, 0, self.width, self.height, c)

    def fill_rect(self, x, y, w, h, c):
        t = self.tone[c]
        if h < TALL:
            self.fb.fill_rect(x, y, w, h, t)
            return
        if y < 0:
            h += y
            y = 0
        end = y + h
        if end > self.height:
            end = self.height
        top = (y + 7) & ~7  # the first whole page's first row
        foot = end & ~7  # the row after the last whole page
        if foot <= top:
            self.fb.fill_rect(x, y, w, end - y, t)
            return
        if top > y:
            self.fb.fill_rect(x, y, w, top - y, t)
        self.pages.fill_rect(x, top >> 3, w, (foot - top) >> 3, 255 if t else 0)
        if end > foot:
            self.fb.fill_rect(x, foot, w, end - foot, t)

    def rect(self, x, y, w, h, c, fill=False):
        if fill:
            self.fill_rect(x, y, w, h, c)
        else:
            self.fb.rect(x, y, w, h, self.tone[c])

    def hline(self, x, y, w, c):
        self.fb.hline(x, y, w, self.tone[c])

    def vline(self, x, y, h, c):
        self.fb.vline(x, y, h, self.tone[c])

    def pixel(self, x, y, c=-1):
        """Set a pixel to role c, or with no c read it (0 dark, 1 lit)."""
        if c < 0:
            return self.fb.pixel(x, y)
        self.fb.pixel(x, y, self.tone[c])
        return None

    def blit(self, source, x, y, key=-1, palette=None):
        """Blit a one-bit image through a 2-pixel palette of roles (as the painter's ink):
        each role drawn in its tone, a role equal to `key` left out."""
        if palette is None:
            self.fb.blit(source, x, y, key)
            return
        tone = self.tone
        if palette is self.roles:
            ink = self.roles_buf[0]  # type: ignore[index]  # (set with roles, by follow())
            paper = ink >> 4
            ink &= 15
        else:
            paper = palette.pixel(0, 0)
            ink = palette.pixel(1, 0)
        paper = SKIP if paper == key else tone[paper]
        ink = SKIP if ink == key else tone[ink]
        self.ink_buf[0] = paper << 4 | ink
        self.fb.blit(source, x, y, SKIP, self.ink)

    def dots(self, x, y, n, down):
        """A dotted line of n pixels from x, y, across or down: lit at x, y and every other
        pixel on, blitted 32 or 8 pixels at a time (a call each, as a pixel() is)."""
        fb = self.fb
        if down:
            while n >= 8:
                fb.blit(self.dots_down, x, y, 0)
                y += 8
                n -= 8
            while n > 0:
                fb.pixel(x, y, 1)
                y += 2
                n -= 2
            return
        while n >= 32:
            fb.blit(self.dots32, x, y, 0)
            x += 32
            n -= 32
        while n >= 8:
            fb.blit(self.dots8, x, y, 0)
            x += 8
            n -= 8
        while n > 0:
            fb.pixel(x, y, 1)
            x += 2
            n -= 2

    def frame(self, x, y, w, h, role, rings=2):
        """The marks of highlight `role` (palette.MONO_MARKS) on the outer `rings` rings of the
        box x, y, w, h (1 on a 13x9 card, whose second ring is its index's margin): those
        rings dark, then the role's lit marks. The cursor's are all lit: the painter draws
        the face inside them negative."""
        fb = self.fb
        mark = MONO_MARKS[role]
        t = 1 if mark == MARK_NEGATIVE else 0
        fb.rect(x, y, w, h, t)
        if rings > 1:
            fb.rect(x + 1, y + 1, w - 2, h - 2, t)
        if mark == MARK_RING:
            if rings > 1:
                fb.rect(x, y, w, h, 1)
                return
            self.dots(x, y, w, False)  # a dotted outline
            self.dots(x, y + h - 1, w, False)
            self.dots(x, y, h, True)
            self.dots(x + w - 1, y, h, True)
        elif mark == MARK_CORNERS:  # brackets: arms a third of each side
            a = w // 3
            b = h // 3
            fb.fill_rect(x, y, a, rings, 1)
            fb.fill_rect(x + w - a, y, a, rings, 1)
            fb.fill_rect(x, y + h - rings, a, rings, 1)
            fb.fill_rect(x + w - a, y + h - rings, a, rings, 1)
            fb.fill_rect(x, y, rings, b, 1)
            fb.fill_rect(x + w - rings, y, rings, b, 1)
            fb.fill_rect(x, y + h - b, rings, b, 1)
            fb.fill_rect(x + w - rings, y + h - b, rings, b, 1)
        elif mark == MARK_TICKS:
            n = (w if w < h else h) // 3  # the length of a tick
            fb.fill_rect(x + (w - n) // 2, y, n, rings, 1)
            fb.fill_rect(x + (w - n) // 2, y + h - rings, n, rings, 1)
            fb.fill_rect(x, y + (h - n) // 2, rings, n, 1)
            fb.fill_rect(x + w - rings, y + (h - n) // 2, rings, n, 1)


class MonoPainter(Painter):
    """The painter of a one-bit screen: its glyphs and cards drawn straight into the MONO_VLSB
    frame, each role given its tone here (paint.painter_for makes it). card() is Painter.card
    with tones for roles (and the cursor's face negative): tests/test_mono.py checks that both
    draw the same pixels, so a change to the card's layout made in one shows until it is made
    in the other."""

    def __init__(self, screen):
        Painter.__init__(self, screen)
        self.raw = screen.fb.fb
        self.tone = screen.fb.tone
        self.glyphs = self.raw

    def ink_for(self, colour):
        t = self.tone[colour]
        bg = 1 if t == 0 else 0
        self.ink_buf[0] = bg << 4 | t
        return bg

    def card(self, st, x, y, card, face_up, frame, top_corner, index_below, centre=True):
        """Painter.card, in tones (its docstring says what the arguments mean); under the
        cursor's frame the face is negative, each tone inside it the other."""
        fb = self.raw
        tone = self.tone
        w = st.w
        h = st.h
        o = 2 if st.big == ART_TINY else 3  # the inset (Painter.card)
        neg = 1 if frame == CURSOR else 0
        self.fb.fill_rect(x, y, w, h, FELT if neg else WHITE)  # the canvas: a tall fill a page at a time
        if frame != GREY:  # (the cursor's frame a ring: the negative face reaches the rest)
            self.fb.frame(x, y, w, h, frame, 1 if neg else self.rings[2 * st.size + (1 if index_below else 0)])
        else:
            fb.rect(x, y, w, h, tone[GREY])
        fb.pixel(x, y, tone[top_corner])
        fb.pixel(x + w - 1, y, tone[top_corner])
        fb.pixel(x, y + h - 1, tone[FELT])
        fb.pixel(x + w - 1, y + h - 1, tone[FELT])
        ink = self.ink
        if not face_up:
            self.fb.fill_rect(x + o, y + o, w - 2 * o, h - 2 * o, BACK_LIGHT if neg else BACK)
            lines = tone[BACK_LIGHT] ^ neg  # the tile's lines; its paper the other tone, the key
            self.ink_buf[0] = (1 - lines) << 4 | lines
            fb.blit(st.back, x + o, y + o, 1 - lines, ink)
            return
        images = self.images
        if card >= JOKER_BASE:
            suit = 4
            rank = 0
            rank_img = st.rank_first + JACK if st.big == ART_TINY else art_data.FONT + 74 - 32  # 'J'
        else:
            suit = (card // 13) % 4
            rank = card % 13
            rank_img = st.rank_first + rank
        dark = tone[RED] ^ neg  # red and black ink alike: the suits' glyphs tell them apart
        key = 1 if dark == 0 else 0
        self.ink_buf[0] = key << 4 | dark
        fb.blit(images[rank_img], x + o, y + o, key, ink)
        rw = self.widths[rank_img]
        rh = self.heights[rank_img]
        suit_img = st.suit_first + suit
        if index_below and st.big < ART_INDEX:
            fb.blit(images[suit_img], x + 2 + (rw + 2 - self.widths[suit_img]) // 2, y + 5 + rh, key, ink)
            top = y + 3 + h // 3
        else:
            fb.blit(images[suit_img], x + o + 1 + rw, y + o, key, ink)
            top = y + 5 + rh
            if st.big >= ART_INDEX:
                return
        if not centre:
            return
        if rank >= JACK:
            px = x + st.step_right if index_below else x + 4
            pw = x + w - 4 - px
            ph = y + h - 4 - top
            fb.fill_rect(px, top, pw, ph, tone[GOLD] ^ neg)
            crown = art_data.CROWN
            if pw < self.widths[crown] + 2:
                fb.blit(images[suit_img], px + (pw - self.widths[suit_img]) // 2,
                        top + (ph - self.heights[suit_img]) // 2, key, ink)
                return
            fb.rect(px, top, pw, ph, dark)
            fb.blit(images[crown], px + (pw - self.widths[crown]) // 2, top + 2, key, ink)
            if ph >= self.heights[crown] + self.heights[suit_img] + 6:
                fb.blit(images[suit_img], px + (pw - self.widths[suit_img]) // 2,
                        top + 4 + self.heights[crown], key, ink)
        else:
            if index_below:
                pip = art_data.SUIT_BIG + suit
                cx = x + st.step_right + (w - 2 - st.step_right) // 2
            else:
                pip = st.pip_first + suit
                cx = x + w // 2
            ph = self.heights[pip]
            fb.blit(images[pip], cx - self.widths[pip] // 2, top + (y + h - 2 - top - ph) // 2, key, ink)

    def empty_pile(self, st, x, y, label, frame):
        """Painter.empty_pile in tones: the outline lit, or a highlight's marks on it (the
        cursor's lights the inside too, the label dark on it). On a 13x9 pile the outline is
        a ring, and a rank letter (the 'A' of a foundation) is the tiny rank's glyph inside
        it with a pixel to spare all round: the font's 5x7 letter lay on a thicker outline,
        its top and foot merged with it (an A read as H)."""
        fb = self.raw
        w = st.w
        h = st.h
        rings = 1 if st.big == ART_TINY else 2
        self.fb.fill_rect(x, y, w, h, FELT)
        neg = 1 if frame == CURSOR else 0
        if frame != GREY:
            self.fb.frame(x, y, w, h, frame, rings)
            if neg:
                fb.fill_rect(x + rings, y + rings, w - 2 * rings, h - 2 * rings, 1)
        elif rings == 1:
            fb.rect(x, y, w, h, 1)
        else:
            fb.rect(x + 1, y, w - 2, h, 1)
            fb.rect(x, y + 1, w, h - 2, 1)
        fb.pixel(x, y, 0)  # the outline's corners, round
        fb.pixel(x + w - 1, y, 0)
        fb.pixel(x, y + h - 1, 0)
        fb.pixel(x + w - 1, y + h - 1, 0)
        if not len(label):
            return
        c = label[0]
        colour = BLACK if neg else SLOT
        if rings == 1:
            for i in range(13):
                if RANK_LETTERS[i] == c:
                    self.image(art_data.RANK_TINY + i, x + (w - 3) // 2, y + (h - 5) // 2, colour)
                    return
        self.char(c, x + (w - CHAR_W + 1) // 2, y + (h - CHAR_H) // 2, colour)

    def note(self, x, y, w):
        """The mark of a description line at x, y, w pixels of text (Painter.note): a dotted
        rule a pixel under its letters, so that it reads as a note, not as a row to choose."""
        self.fb.dots(x, y + CHAR_H + 1, w, False)
