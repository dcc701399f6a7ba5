// FrameBuffer.card: a card drawn into a GS4 frame in one call, the pixels of
// engine_core/gfx/paint.py's Painter.card (the reference every host draws with; firmware/card.py
// puts this in its place on the chip). tools/device/firmware.py adds this text to
// extmod/modframebuf.c before framebuf_blit, and the method to FrameBuffer's table. The plan
// below is Painter.card's line by line; a rectangle is framebuf's fill_rect (clipped by it), an
// image is framebuf_blit's one-bit-through-a-palette path in one colour, its paper left alone.
// tests/test_pico.py draws cards both ways on the emulated chip and compares the frames.
//
// fb.card(x, y, what, back, specs, art, index):
//   what: the card (bits 0-7), its size (8-11), its frame colour (12-15), the colour under
//     its top corners (16-19), face up (20), index below (21), centre (22);
//   back: the card size's back, a MONO_HLSB FrameBuffer;
//   specs: the colours and image numbers (CARD_* below), then 8 bytes a card size from
//     CARD_ROW: width, height, art, step right, first rank, first suit, first pip, height / 3;
//   art, index: engine_core/gfx/art_data.py's DATA and INDEX.

enum { CARD_WHITE = 4, CARD_GREY, CARD_FELT, CARD_BACK, CARD_BACK_LIGHT, CARD_GOLD, CARD_RED,
       CARD_BLACK, CARD_CROWN, CARD_SUIT_BIG, CARD_JOKER_RANK, CARD_ART_TINY, CARD_ART_INDEX,
       CARD_JACK, CARD_JOKER_BASE, CARD_ROW = 24 };

// Its functions lie after the code and the read-only data (.console_card: tools/device/
// firmware.py), so that what lies before them keeps its place against the XIP cache.
#define CARD_CODE __attribute__((section(".console_card")))

CARD_CODE static void card_outline(const mp_obj_framebuf_t *fb, int x, int y, int w, int h, uint32_t col) {
    fill_rect(fb, x, y, w, 1, col);  // framebuf_rect's four sides, in its order
    fill_rect(fb, x, y + h - 1, w, 1, col);
    fill_rect(fb, x, y, 1, h, col);
    fill_rect(fb, x + w - 1, y, 1, h, col);
}

// The nibbles a pair of pixels sets in a GS4 byte, by their two bits (the left one high).
static const uint8_t card_pair[4] = {0x00, 0x0f, 0xf0, 0xff};

CARD_CODE static void card_image(const mp_obj_framebuf_t *fb, const uint8_t *src, int w, int h, int x, int y, uint32_t col) {
    if (x >= fb->width || y >= fb->height || -x >= w || -y >= h) {
        return;
    }
    int x0 = MAX(0, x);
    int y0 = MAX(0, y);
    int x1 = MAX(0, -x);
    int y1 = MAX(0, -y);
    int x0end = MIN(fb->width, x + w);
    int y0end = MIN(fb->height, y + h);
    int per_row = (w + 7) >> 3;
    if (fb->format == FRAMEBUF_MVLSB) {  // a one-bit screen's frame (text alone comes here)
        for (; y0 < y0end; ++y0, ++y1) {
            const uint8_t *row = src + y1 * per_row;
            uint8_t *p = (uint8_t *)fb->buf + (y0 >> 3) * fb->stride + x0;
            uint8_t bit = 1 << (y0 & 7);
            for (int xs = x1, xd = x0; xd < x0end; ++xs, ++xd, ++p) {
                if (row[xs >> 3] & (0x80 >> (xs & 7))) {
                    *p = col ? (*p | bit) : (*p & ~bit);
                }
            }
        }
        return;
    }
    uint32_t both = (col & 0x0f) * 0x11;  // the colour in both nibbles
    for (; y0 < y0end; ++y0, ++y1) {
        const uint8_t *row = src + y1 * per_row;
        uint8_t *p = (uint8_t *)fb->buf + ((y0 * fb->stride + x0) >> 1);
        int n = x0end - x0;
        // The image's bits from pixel x1 on, the next one in bit 31, `have` of them loaded:
        // a byte of the GS4 frame (two pixels) is written at most once.
        int i = x1 >> 3;
        uint32_t bits = (uint32_t)row[i++] << (24 + (x1 & 7));
        int have = 8 - (x1 & 7);
        if (x0 & 1) {  // the first pixel is the low nibble of its byte
            if (bits >> 31) {
                *p = (*p & 0xf0) | (both & 0x0f);
            }
            ++p;
            bits <<= 1;
            --have;
            --n;
        }
        while (n > 0) {
            if (have < 2 && i < per_row) {
                bits |= (uint32_t)row[i++] << (24 - have);
                have += 8;
            }
            uint32_t m = card_pair[bits >> 30];
            if (n == 1) {
                m &= 0xf0;  // the last pixel alone: the high nibble
            }
            if (m) {
                *p = (*p & ~m) | (both & m);
            }
            ++p;
            bits <<= 2;
            have -= 2;
            n -= 2;
        }
    }
}

// Image i of the art at (x, y) in colour col (an image that would reach past the art's end
// is not drawn: the art is the firmware's own).
CARD_CODE static void card_art(const mp_obj_framebuf_t *fb, const mp_buffer_info_t *art, const uint8_t *index, int i, int x, int y, uint32_t col) {
    const uint8_t *e = index + 4 * i;
    size_t off = e[0] << 8 | e[1];
    if (off + ((e[2] + 7) >> 3) * e[3] <= art->len) {
        card_image(fb, (const uint8_t *)art->buf + off, e[2], e[3], x, y, col);
    }
}

// Python's floor division by two, for a sum that may be negative.
static inline int card_half(int v) {
    return v >= 0 ? v / 2 : -((1 - v) / 2);
}

CARD_CODE static mp_obj_t framebuf_card(size_t n_args, const mp_obj_t *args_in) {
    (void)n_args;
    mp_obj_framebuf_t *self = MP_OBJ_TO_PTR(args_in[0]);
    if (self->format != FRAMEBUF_GS4_HMSB) {
        mp_raise_ValueError(MP_ERROR_TEXT("card wants a GS4_HMSB frame"));
    }
    int x = mp_obj_get_int(args_in[1]);
    int y = mp_obj_get_int(args_in[2]);
    int what = mp_obj_get_int(args_in[3]);
    mp_obj_framebuf_t back;
    get_readonly_framebuffer(args_in[4], &back);
    mp_buffer_info_t info;
    mp_get_buffer_raise(args_in[5], &info, MP_BUFFER_READ);
    const uint8_t *sp = info.buf;
    int size = (what >> 8) & 15;
    if (info.len < (size_t)(CARD_ROW + 8 * size + 8)) {
        mp_raise_ValueError(MP_ERROR_TEXT("no such card size"));
    }
    mp_buffer_info_t art_info;
    mp_get_buffer_raise(args_in[6], &art_info, MP_BUFFER_READ);
    const mp_buffer_info_t *art = &art_info;
    mp_get_buffer_raise(args_in[7], &info, MP_BUFFER_READ);
    const uint8_t *index = info.buf;
    size_t images = info.len / 4;
    const uint8_t *st = sp + CARD_ROW + 8 * size;
    int w = st[0], h = st[1], big = st[2], step_right = st[3];
    uint32_t frame = (what >> 12) & 15;
    uint32_t felt = sp[CARD_FELT];

    fill_rect(self, x, y, w, h, sp[CARD_WHITE]);
    card_outline(self, x, y, w, h, frame);
    if (frame != sp[CARD_GREY]) {
        card_outline(self, x + 1, y + 1, w - 2, h - 2, frame);
    }
    uint32_t corner = (what >> 16) & 15;
    fill_rect(self, x, y, 1, 1, corner);
    fill_rect(self, x + w - 1, y, 1, 1, corner);
    fill_rect(self, x, y + h - 1, 1, 1, felt);
    fill_rect(self, x + w - 1, y + h - 1, 1, 1, felt);
    int o = big == sp[CARD_ART_TINY] ? 2 : 3;  // the inset
    if (!((what >> 20) & 1)) {  // face down
        fill_rect(self, x + o, y + o, w - 2 * o, h - 2 * o, sp[CARD_BACK]);
        card_image(self, back.buf, back.width, back.height, x + o, y + o, sp[CARD_BACK_LIGHT]);
        return mp_const_none;
    }
    int card = what & 255;
    int suit, rank, rank_img;
    uint32_t colour;
    if (card >= sp[CARD_JOKER_BASE]) {
        suit = 4;
        rank = 0;
        rank_img = big == sp[CARD_ART_TINY] ? st[4] + sp[CARD_JACK] : sp[CARD_JOKER_RANK];
        colour = card & 1 ? sp[CARD_RED] : sp[CARD_BLACK];
    } else {
        suit = (card / 13) % 4;
        rank = card % 13;
        rank_img = st[4] + rank;
        colour = suit == 1 || suit == 2 ? sp[CARD_RED] : sp[CARD_BLACK];
    }
    int suit_img = st[5] + suit;
    int crown = sp[CARD_CROWN];
    int pip = st[6] + suit;
    if ((size_t)rank_img >= images || (size_t)suit_img >= images || (size_t)crown >= images
        || (size_t)pip >= images || (size_t)(sp[CARD_SUIT_BIG] + suit) >= images) {
        mp_raise_ValueError(MP_ERROR_TEXT("no such image"));
    }
    #define CARD_W(i) ((int)index[4 * (i) + 2])
    #define CARD_H(i) ((int)index[4 * (i) + 3])
    card_art(self, art, index, rank_img, x + o, y + o, colour);
    int rw = CARD_W(rank_img);
    int rh = CARD_H(rank_img);
    int below = (what >> 21) & 1;
    int top;
    if (below && big < sp[CARD_ART_INDEX]) {
        card_art(self, art, index, suit_img, x + 2 + card_half(rw + 2 - CARD_W(suit_img)), y + 5 + rh, colour);
        top = y + 3 + st[7];
    } else {  // beside the rank
        card_art(self, art, index, suit_img, x + o + 1 + rw, y + o, colour);
        top = y + 5 + rh;
        if (big >= sp[CARD_ART_INDEX]) {
            return mp_const_none;
        }
    }
    if (!((what >> 22) & 1)) {  // no centre
        return mp_const_none;
    }
    if (rank >= sp[CARD_JACK]) {  // the gold panel with a crown
        int px = below ? x + step_right : x + 4;
        int pw = x + w - 4 - px;
        int ph = y + h - 4 - top;
        fill_rect(self, px, top, pw, ph, sp[CARD_GOLD]);
        if (pw < CARD_W(crown) + 2) {  // a mini card: the gold panel and its suit
            card_art(self, art, index, suit_img, px + card_half(pw - CARD_W(suit_img)),
                top + card_half(ph - CARD_H(suit_img)), colour);
            return mp_const_none;
        }
        card_outline(self, px, top, pw, ph, colour);
        card_art(self, art, index, crown, px + card_half(pw - CARD_W(crown)), top + 2, colour);
        if (ph >= CARD_H(crown) + CARD_H(suit_img) + 6) {
            card_art(self, art, index, suit_img, px + card_half(pw - CARD_W(suit_img)),
                top + 4 + CARD_H(crown), colour);
        }
    } else {
        int cx;
        if (below) {
            pip = sp[CARD_SUIT_BIG] + suit;
            cx = x + step_right + card_half(w - 2 - step_right);
        } else {
            cx = x + card_half(w);
        }
        card_art(self, art, index, pip, cx - card_half(CARD_W(pip)),
            top + card_half(y + h - 2 - top - CARD_H(pip)), colour);
    }
    #undef CARD_W
    #undef CARD_H
    return mp_const_none;
}
static MP_DEFINE_CONST_FUN_OBJ_VAR_BETWEEN(framebuf_card_obj, 8, 8, framebuf_card);


// fb.glyphs(s, start, end, x, y, colour, art, index, first): s[start:end] in the font's
// glyphs at (x, y), the pixels of Painter.text_span: a lower-case letter as its capital, a
// code outside 33..95 a space; each glyph is art image first + code, 6 pixels on from the
// last (paint.CHAR_W). Returns the x after the text.
CARD_CODE static mp_obj_t framebuf_glyphs(size_t n_args, const mp_obj_t *args_in) {
    (void)n_args;
    mp_obj_framebuf_t *self = MP_OBJ_TO_PTR(args_in[0]);
    mp_buffer_info_t text;
    mp_get_buffer_raise(args_in[1], &text, MP_BUFFER_READ);
    mp_int_t start = mp_obj_get_int(args_in[2]);
    mp_int_t end = mp_obj_get_int(args_in[3]);
    mp_int_t x = mp_obj_get_int(args_in[4]);
    mp_int_t y = mp_obj_get_int(args_in[5]);
    uint32_t colour = mp_obj_get_int(args_in[6]);
    mp_buffer_info_t art;
    mp_get_buffer_raise(args_in[7], &art, MP_BUFFER_READ);
    mp_buffer_info_t index;
    mp_get_buffer_raise(args_in[8], &index, MP_BUFFER_READ);
    mp_int_t first = mp_obj_get_int(args_in[9]);
    if (start < 0) {
        start = 0;
    }
    if (end > (mp_int_t)text.len) {
        end = text.len;
    }
    const uint8_t *s = (const uint8_t *)text.buf;
    for (mp_int_t i = start; i < end; ++i) {
        int c = s[i];
        if (c >= 97 && c <= 122) {
            c -= 32;
        }
        mp_int_t image = first + c;
        if (c > 32 && c < 96 && image >= 0 && 4 * (size_t)(image + 1) <= index.len) {
            card_art(self, &art, (const uint8_t *)index.buf, image, x, y, colour);
        }
        x += 6;
    }
    return MP_OBJ_NEW_SMALL_INT(x);
}
static MP_DEFINE_CONST_FUN_OBJ_VAR_BETWEEN(framebuf_glyphs_obj, 10, 10, framebuf_glyphs);
