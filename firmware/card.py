"""The cards drawn by the firmware's FrameBuffer.card (C, tools/device/card.c, built in by
tools/device/firmware.py): Painter.card's pixels in one call. Painter.card (engine_core/gfx/
paint.py) stays the reference, which every host draws with; on the chip it made a dozen
framebuf calls and some hundred bytecodes a card, about 250 µs against about 100 µs.
tests/test_pico.py draws every card both ways on the emulated chip and compares the frames,
and every frame of its sessions equals the simulator's. (Few names here: each costs the heap,
which a Pico has 48 KB of to spare in Nerts.) The Python painter's images of the card art,
which only its card() draws, are let go."""

from engine_core.gfx import art_data, paint

from micropython import const

_ROW = const(24)  # tools/device/card.c's CARD_ROW: the header's length, then 8 bytes a card size

_SPECS = bytearray(0)  # install's


def install(painter):
    """Painter.card drawn by FrameBuffer.card from now on, where the frame has it (the
    firmware's), for a colour screen (a one-bit screen's MonoPainter keeps its own card, and
    its text_span is FrameBuffer.glyphs in the tone of each colour). False where it does not.
    Called once, at start-up.

    FrameBuffer.card reads, besides the card, the colours and image numbers it needs
    (tools/device/card.c's CARD_* names them, from byte 4), then each card size's measures."""
    global _SPECS
    if painter.screen.mono:  # a one-bit screen's painter keeps its own card; its text is C's
        if not hasattr(painter.raw, "glyphs"):
            return False
        from engine_core.gfx.mono import MonoPainter
        MonoPainter.text_span = mono_text_span  # type: ignore[method-assign]
        return True
    if not hasattr(painter.fb, "card"):
        return False
    from engine_core.gfx import palette as pal
    specs = bytearray(_ROW + 8 * len(paint.CARD_SIZES))
    header = (pal.WHITE, pal.GREY, pal.FELT, pal.BACK, pal.BACK_LIGHT, pal.GOLD, pal.RED,
              pal.BLACK, art_data.CROWN, art_data.SUIT_BIG, art_data.FONT + 74 - 32,
              paint.ART_TINY, paint.ART_INDEX, paint.JACK, paint.JOKER_BASE)
    specs[4:4 + len(header)] = bytes(header)
    for st in painter.styles:
        if st is not None:
            r = _ROW + 8 * st.size
            specs[r:r + 8] = bytes((st.w, st.h, st.big, st.step_right, st.rank_first,
                                    st.suit_first, st.pip_first, st.h // 3))
    _SPECS = specs
    paint.Painter.card = card  # type: ignore[method-assign]
    paint.Painter.text_span = text_span  # type: ignore[method-assign]
    images = painter.images  # the card art's images, drawn by card() alone: let go (1.8 KB)
    for i in range(art_data.RANK_SMALL, len(images)):
        images[i] = None
    return True


def card(self, st, x, y, card, face_up, frame, top_corner, index_below, centre=True):
    """Painter.card (its docstring says what the arguments mean), in one call."""
    self.fb.card(x, y, (card & 255) | st.size << 8 | frame << 12 | top_corner << 16
                 | (0x100000 if face_up else 0) | (0x200000 if index_below else 0)
                 | (0x400000 if centre else 0), st.back, _SPECS, art_data.DATA, art_data.INDEX)


def mono_text_span(self, s, start, end, x, y, colour):
    """Painter.text_span on a one-bit screen in one call: each glyph's ink in the colour's
    tone, its paper left (the pause menu's words on 128x64: 2.8 ms in bytecode)."""
    return self.raw.glyphs(s, start, end, x, y, self.tone[colour], art_data.DATA, art_data.INDEX,
                           art_data.FONT - 32)


def text_span(self, s, start, end, x, y, colour):
    """Painter.text_span in one call (FrameBuffer.glyphs): a blit and some twenty bytecodes a
    letter cost about 24 us (the rules page, about 800 letters: 60.1 -> 40.9 ms)."""
    return self.fb.glyphs(s, start, end, x, y, colour, art_data.DATA, art_data.INDEX, art_data.FONT - 32)
