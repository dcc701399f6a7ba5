"""Words on a console's frame, found by their pixels: the glyphs the painter draws for them,
in one colour, with none of that colour between them (so a filled box is no match)."""

from engine_core.gfx.paint import CHAR_H, CHAR_W


def glyphs(app, words):
    """The pixels `words` light when drawn at (0, 0), and the width of their box."""
    buf = app.screen.buf
    saved = bytes(buf)
    w = len(words) * CHAR_W - 1
    app.fb.fill_rect(0, 0, w + 1, CHAR_H, 0)
    app.painter.text(words, 0, 0, 1)
    lit = [(x, y) for y in range(CHAR_H) for x in range(w) if app.fb.pixel(x, y) == 1]
    buf[:] = saved
    return lit, w


def shows_at(app, words, x, y, drawn=None):
    """`words` are on the frame with their top left corner at (x, y)."""
    lit, w = drawn or glyphs(app, words)
    px = app.fb.pixel
    if x < 0 or y < 0 or x + w > app.width or y + CHAR_H > app.height:
        return False
    colour = px(x + lit[0][0], y + lit[0][1])
    for dx, dy in lit:
        if px(x + dx, y + dy) != colour:
            return False
    on = set(lit)
    for dy in range(CHAR_H):
        for dx in range(w):
            if (dx, dy) not in on and px(x + dx, y + dy) == colour:
                return False
    return True


def find(app, words):
    """Where `words` are on the frame (the top left corner of the first), or None."""
    drawn = glyphs(app, words)
    lit, w = drawn
    fx, fy = lit[0]
    px = app.fb.pixel
    for y in range(app.height - CHAR_H + 1):
        for x in range(app.width - w + 1):
            c = px(x + fx, y + fy)
            if px(x + lit[-1][0], y + lit[-1][1]) == c and shows_at(app, words, x, y, drawn):
                return x, y
    return None
