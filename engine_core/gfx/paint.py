"""Text and card drawing on a Screen, from the art in art_data (tools/art/ is its source).

Every image is a MONO_HLSB FrameBuffer made once here; it is coloured as it is blitted,
through a 2-pixel palette FrameBuffer whose colour 0 is the transparent key. On a one-bit
screen the same calls go through its canvas (engine_core/gfx/mono.py), which gives each role
its tone; only a highlight's frame is drawn differently there, as lit marks on the card's
outer rings (the cursor's with the face negative: mono.py).
Text is bytes (b"Resume"), so drawing it indexes ints and allocates nothing; numbers are
drawn digit by digit from a scratch bytearray.
"""

from engine_core.gfx import art_data
from engine_core.gfx.palette import BACK, BACK_LIGHT, BLACK, FELT, GOLD, GREY, RED, WHITE
from engine_core.layout import LARGE, MEDIUM, MICRO, MINI, SMALL, STRIP, TINY  # noqa: F401  (the card sizes; screens import them here)

from micropython import const

CHAR_W = const(6)  # 5 pixels and a space
CHAR_H = const(7)
LINE_H = const(10)

# Card sizes, by SMALL, MEDIUM, LARGE, MINI, TINY, MICRO, STRIP: (width, height, fan step down,
# fan step right, art). Art: ART_SMALL (the font's ranks, small suits, a centre pip or face
# panel), ART_BIG (big ranks and suits), ART_INDEX (small art, the corner index alone: no room
# for a centre) or ART_TINY (3x5 ranks and 5x5 suits two pixels in: a 13x9 card). A fan never
# steps closer than the size's least step, which leaves a covered card's index whole
# (engine_core/ui/slots.py).
ART_SMALL = const(0)
ART_BIG = const(1)
ART_INDEX = const(2)
ART_TINY = const(3)
CARD_SIZES = ((24, 32, 10, 11, ART_SMALL), (30, 42, 14, 14, ART_BIG), (36, 50, 15, 15, ART_BIG),
              (18, 24, 10, 10, ART_SMALL), (20, 28, 10, 11, ART_SMALL), (13, 9, 7, 6, ART_TINY),
              (18, 14, 10, 11, ART_INDEX))

JACK = const(10)  # rank index of the jack
JOKER_BASE = const(208)  # engine_core.cards.JOKER_BASE


class CardStyle:
    """The measurements of one card size and the back art built for it."""

    def __init__(self, size, framebuf):
        spec = CARD_SIZES[size]
        self.size = size
        self.w = spec[0]
        self.h = spec[1]
        self.step_down = spec[2]
        self.step_right = spec[3]
        self.big = spec[4]
        if self.big == ART_BIG:
            self.rank_first = art_data.RANK_BIG
            self.suit_first = art_data.SUIT_BIG
            self.pip_first = art_data.PIP
        elif self.big == ART_TINY:
            self.rank_first = art_data.RANK_TINY
            self.suit_first = art_data.SUIT_TINY
            self.pip_first = art_data.SUIT_TINY
        else:
            self.rank_first = art_data.RANK_SMALL
            self.suit_first = art_data.SUIT_SMALL
            self.pip_first = art_data.SUIT_BIG
        # The back's inner pattern, the tile repeated over the whole inner panel.
        inset = 2 if self.big == ART_TINY else 3  # the face's and the back's margin
        bw = self.w - 2 * inset
        bh = self.h - 2 * inset
        # (the FrameBuffer keeps its buffer: no attribute for it, twelve fill the
        # instance's table exactly, a thirteenth would grow it to seventeen)
        self.back = framebuf.FrameBuffer(bytearray(((bw + 7) >> 3) * bh), bw, bh, framebuf.MONO_HLSB)
        self.back_w = bw
        self.back_h = bh


class Painter:
    def __init__(self, screen):
        self.screen = screen
        self.fb = screen.fb
        framebuf = screen.framebuf
        index = art_data.INDEX
        # A screen 200 pixels wide or more never draws the small screens' cards (TINY, MICRO,
        # STRIP) nor the tiny art: it holds none of them (1.5 KB of heap at 320x240).
        wide = screen.width >= 200
        count = art_data.RANK_TINY if wide else art_data.COUNT
        end = index[4 * count] << 8 | index[4 * count + 1] if count < art_data.COUNT else len(art_data.DATA)
        # The images lie in the art's bytes where the firmware's FrameBuffer takes a buffer it
        # cannot write (tools/device/firmware.py: frozen, they stay in flash); elsewhere
        # FrameBuffer wants a writable buffer, and the art is copied to RAM once (1.1 KB).
        data = memoryview(art_data.DATA)[:end]
        try:
            framebuf.FrameBuffer(data[0:1], 8, 1, framebuf.MONO_HLSB)
        except TypeError:
            data = memoryview(bytearray(data))
        self.art = data
        self.images: list = [None] * count  # made at its length: appends would leave it 128 long
        self.widths = bytearray(count)
        self.heights = bytearray(count)
        for i in range(count):
            off = index[4 * i] << 8 | index[4 * i + 1]
            w = index[4 * i + 2]
            h = index[4 * i + 3]
            n = ((w + 7) >> 3) * h
            self.images[i] = framebuf.FrameBuffer(data[off:off + n], w, h, framebuf.MONO_HLSB)
            self.widths[i] = w
            self.heights[i] = h
        self.ink_buf = bytearray(1)
        self.ink = framebuf.FrameBuffer(self.ink_buf, 2, 1, framebuf.GS4_HMSB)
        self.glyphs = self.fb  # the frame the glyphs are blitted onto (a one-bit screen's: MonoPainter)
        if screen.mono:
            self.fb.follow(self.ink, self.ink_buf)
        self.key = 0
        self.digits = bytearray(12)
        self.styles = [None if wide and size >= TINY else CardStyle(size, framebuf) for size in range(len(CARD_SIZES))]
        if screen.mono:  # how many of each card size's outer rings a highlight may mark,
            self.rings = bytearray(2 * len(CARD_SIZES))  # the suit beside the rank or under it
            for st in self.styles:
                if st is not None:
                    self.rings[2 * st.size] = self.rings_for(st, False)
                    self.rings[2 * st.size + 1] = self.rings_for(st, True)
        tile = self.images[art_data.BACK_TILE]  # 8x8, laid edge to edge (cut at the right and the foot)
        for st in self.styles:
            if st is None:
                continue
            for y in range(0, st.back_h, 8):
                for x in range(0, st.back_w, 8):
                    st.back.blit(tile, x, y)

    def rings_for(self, st, index_below):
        """The outer rings of a card of style st that lie outside the ring of paper round its
        index (1 or 2): a one-bit highlight marks those and leaves the index's margin to it.
        The 10 is left out: two digits wide, its suit reaches the edge of the smaller cards."""
        rw = 0
        for r in range(13):
            if r != 9 and self.widths[st.rank_first + r] > rw:
                rw = self.widths[st.rank_first + r]
        sw = self.widths[st.suit_first]
        o = 2 if st.big == ART_TINY else 3
        if index_below and st.big < ART_INDEX:  # the suit under the rank (Painter.card)
            left = 2 + (rw + 2 - sw) // 2
            right = o + rw if o + rw > left + sw else left + sw
        else:
            left = o
            right = o + rw + 1 + sw
        free = (left if left < st.w - right else st.w - right) - 1  # the rings before the margin
        return 2 if free >= 2 else 1

    # --- images and text ---

    def ink_for(self, colour):
        """The ink's palette set to `colour` over a transparent paper; returns the paper's key."""
        bg = 1 if colour == 0 else 0
        self.ink_buf[0] = bg << 4 | colour
        return bg

    def image(self, i, x, y, colour):
        """Blit image i with its ink in `colour`; its paper stays transparent."""
        self.glyphs.blit(self.images[i], x, y, self.ink_for(colour), self.ink)

    def text(self, s, x, y, colour):
        """Draw bytes `s` at (x, y); returns the x after it. Lower case shows as capitals."""
        return self.text_upto(s, len(s), x, y, colour)

    def text_upto(self, s, most, x, y, colour):
        """The first `most` characters of s at (x, y) (all of it when it is shorter); returns
        the x after them."""
        return self.text_span(s, 0, len(s) if len(s) < most else most, x, y, colour)

    def text_span(self, s, start, end, x, y, colour):
        """s[start:end] at (x, y), no slice made; returns the x after it. (The ink is set once
        and each glyph blitted here: a call a character to image() cost as much again.)"""
        fb = self.glyphs
        images = self.images
        ink = self.ink
        key = self.ink_for(colour)
        first = art_data.FONT - 32
        for i in range(start, end):
            c = s[i]
            if 97 <= c <= 122:
                c -= 32
            if 32 < c < 96:
                fb.blit(images[first + c], x, y, key, ink)
            x += CHAR_W
        return x

    def text_width(self, s):
        return len(s) * CHAR_W - 1

    def text_centred(self, s, cx, y, colour):
        self.text(s, cx - (len(s) * CHAR_W - 1) // 2, y, colour)

    def number(self, n, x, y, colour):
        """Draw a non-negative int; returns the x after it."""
        d = self.digits  # the digits written from its end back, then drawn as a text
        k = len(d)
        while True:
            k -= 1
            d[k] = 48 + n % 10
            n //= 10
            if n == 0 or k == 0:
                break
        return self.text_span(d, k, len(d), x, y, colour)

    def number_width(self, n):
        k = 1
        while n >= 10:
            n //= 10
            k += 1
        return k * CHAR_W - 1

    def char(self, c, x, y, colour):
        """One character code (an int) at (x, y)."""
        if 97 <= c <= 122:
            c -= 32
        if 32 < c < 96:
            self.image(art_data.FONT + c - 32, x, y, colour)

    def big_char(self, c, x, y, scale, colour):
        """One character at `scale` times the font size, pixel by pixel (titles, seeds)."""
        if 97 <= c <= 122:
            c -= 32
        if c <= 32 or c >= 96:
            return
        fb = self.fb
        data = self.art
        index = art_data.INDEX
        k = 4 * (art_data.FONT + c - 32)
        off = index[k] << 8 | index[k + 1]
        for row in range(CHAR_H):
            bits = data[off + row]
            for col in range(5):
                if bits & (0x80 >> col):
                    fb.fill_rect(x + col * scale, y + row * scale, scale, scale, colour)

    def big_text(self, s, x, y, scale, colour):
        for i in range(len(s)):
            self.big_char(s[i], x, y, scale, colour)
            x += CHAR_W * scale
        return x

    def note(self, x, y, w):
        """Mark the line of text at x, y (w pixels wide) as a description, not an item: on a
        colour screen its colour says so and this draws nothing; one bit draws a dotted rule
        under it (MonoPainter.note)."""
        return

    # --- cards ---

    def card(self, st, x, y, card, face_up, frame, top_corner, index_below, centre=True):
        """One card at (x, y) in style st.

        frame: the border colour (GREY normally; a highlight colour draws it two pixels
        thick). top_corner: the colour under the rounded top corners (FELT for a card that
        lies on the table, GREY for one that overlaps another card's border). index_below:
        the suit sits under the rank (cards fanned to the right) instead of beside it.
        centre: draw the middle (pip or face panel); a card covered by the next card of a
        fan skips it, since none of it shows. Written with few calls: each Python call
        costs about as much as blitting 30 pixels (measured with tools/bench/bench_screens.py).
        """
        fb = self.fb
        w = st.w
        h = st.h
        fb.fill_rect(x, y, w, h, WHITE)
        fb.rect(x, y, w, h, frame)
        if frame != GREY:
            if self.screen.mono:  # one bit: the highlight told by its marks
                fb.frame(x, y, w, h, frame, self.rings[2 * st.size + (1 if index_below else 0)])
            else:
                fb.rect(x + 1, y + 1, w - 2, h - 2, frame)
        fb.pixel(x, y, top_corner)
        fb.pixel(x + w - 1, y, top_corner)
        fb.pixel(x, y + h - 1, FELT)
        fb.pixel(x + w - 1, y + h - 1, FELT)
        ink = self.ink
        o = 2 if st.big == ART_TINY else 3  # the inset: inside the frame, even a highlighted one
        if not face_up:
            fb.fill_rect(x + o, y + o, w - 2 * o, h - 2 * o, BACK)
            self.ink_buf[0] = BACK_LIGHT  # paper 0 (transparent), ink BACK_LIGHT
            fb.blit(st.back, x + o, y + o, 0, ink)
            return
        images = self.images
        if card >= JOKER_BASE:
            suit = 4
            rank = 0
            rank_img = st.rank_first + JACK if st.big == ART_TINY else art_data.FONT + 74 - 32  # 'J'
            colour = RED if card & 1 else BLACK
        else:
            suit = (card // 13) % 4
            rank = card % 13
            rank_img = st.rank_first + rank
            colour = RED if suit == 1 or suit == 2 else BLACK
        # Ink in `colour`, paper transparent (key 1 for black ink, else 0).
        key = 1 if colour == BLACK else 0
        self.ink_buf[0] = key << 4 | colour
        fb.blit(images[rank_img], x + o, y + o, key, ink)
        rw = self.widths[rank_img]
        rh = self.heights[rank_img]
        suit_img = st.suit_first + suit
        if index_below and st.big < ART_INDEX:
            fb.blit(images[suit_img], x + 2 + (rw + 2 - self.widths[suit_img]) // 2, y + 5 + rh, key, ink)
            top = y + 3 + h // 3
        else:  # beside the rank (the only place a card with no centre has room for)
            fb.blit(images[suit_img], x + o + 1 + rw, y + o, key, ink)
            top = y + 5 + rh
            if st.big >= ART_INDEX:
                return
        if not centre:
            return
        # The centre: a big pip, or the gold panel with a crown that marks a face card.
        if rank >= JACK:
            px = x + st.step_right if index_below else x + 4
            pw = x + w - 4 - px
            ph = y + h - 4 - top
            fb.fill_rect(px, top, pw, ph, GOLD)
            crown = art_data.CROWN
            if pw < self.widths[crown] + 2:  # a mini card: the gold panel and its suit
                fb.blit(images[suit_img], px + (pw - self.widths[suit_img]) // 2,
                        top + (ph - self.heights[suit_img]) // 2, key, ink)
                return
            fb.rect(px, top, pw, ph, colour)
            fb.blit(images[crown], px + (pw - self.widths[crown]) // 2, top + 2, key, ink)
            if ph >= self.heights[crown] + self.heights[suit_img] + 6:
                fb.blit(images[suit_img], px + (pw - self.widths[suit_img]) // 2,
                        top + 4 + self.heights[crown], key, ink)
        else:
            if index_below:  # the pip stays clear of the strip the next card leaves visible
                pip = art_data.SUIT_BIG + suit
                cx = x + st.step_right + (w - 2 - st.step_right) // 2
            else:
                pip = st.pip_first + suit
                cx = x + w // 2
            ph = self.heights[pip]
            fb.blit(images[pip], cx - self.widths[pip] // 2, top + (y + h - 2 - top - ph) // 2, key, ink)

    def empty_pile(self, st, x, y, label, frame):
        """The mark of an empty pile: a dark outline, a label letter (b'' for none)."""
        fb = self.fb
        w = st.w
        h = st.h
        fb.fill_rect(x, y, w, h, FELT)
        colour = frame
        if frame == GREY:
            colour = 3  # FELT_DARK
        fb.rect(x + 1, y, w - 2, h, colour)
        fb.rect(x, y + 1, w, h - 2, colour)
        if frame != GREY:
            if self.screen.mono:  # inside the outline, clear of it
                fb.frame(x + 2, y + 2, w - 4, h - 4, frame)
            else:
                fb.rect(x + 2, y + 2, w - 4, h - 4, colour)
        if len(label):  # one letter
            self.char(label[0], x + (w - CHAR_W + 1) // 2, y + (h - CHAR_H) // 2, 6)


def painter_for(screen):
    """The painter of a screen: a one-bit screen's draws its text and cards straight into the
    frame (engine_core/gfx/mono.py); a colour screen never loads that module."""
    if screen.mono:
        from engine_core.gfx.mono import MonoPainter
        return MonoPainter(screen)
    return Painter(screen)
