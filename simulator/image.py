"""The screen's pixels as RGB: what the panel shows, for windows, screenshots and tests.

A colour screen (GS4_HMSB) goes through its RGB565 palette; a one-bit screen (MONO_VLSB, the
SSD1306/SH1106 page layout) is decoded by mono_pixels(), which the window, the screenshots and
the emulated panels' tests share, and shown lit on dark as an OLED shows it.
"""

LIT = (255, 255, 255)  # a lit pixel of a one-bit panel (white OLEDs; the dark ones show black)
DARK = (0, 0, 0)

# Row r of a page: bit r of each byte, as 0 or 1 (MONO_VLSB: bit 0 is the page's top row).
_ROW_BITS = [bytes((b >> r) & 1 for b in range(256)) for r in range(8)]


def rgb888(value):
    """An RGB565 value as (r, g, b), each 0..255, as a panel shows it."""
    r = (value >> 11) & 0x1F
    g = (value >> 5) & 0x3F
    b = value & 0x1F
    return (r << 3 | r >> 2, g << 2 | g >> 4, b << 3 | b >> 2)


def to_rgb_bytes(buf, width, height, palette):
    """Width * height * 3 bytes of RGB for a GS4_HMSB buffer and a 16-entry RGB565 palette."""
    lut_pairs = []
    colours = [bytes(rgb888(palette[i])) for i in range(16)]
    for b in range(256):
        lut_pairs.append(colours[b >> 4] + colours[b & 15])
    return b"".join(lut_pairs[b] for b in bytes(buf[: width * height // 2]))


def mono_pixels(buf, width, height):
    """Width * height bytes, row by row, each 1 (lit) or 0 (dark), of a MONO_VLSB frame: byte
    `page * width + x` holds rows 8 * page .. 8 * page + 7 of column x, the top row in bit 0
    (ceil(height / 8) pages; the bits past the last row are not pixels)."""
    need = width * ((height + 7) >> 3)
    if len(buf) < need:
        raise ValueError("a %dx%d MONO_VLSB frame is %d bytes, not %d" % (width, height, need, len(buf)))
    data = bytes(buf[:need])
    rows = []
    for y in range(height):
        o = (y >> 3) * width
        rows.append(data[o:o + width].translate(_ROW_BITS[y & 7]))
    return b"".join(rows)


def mono_rgb_bytes(buf, width, height, lit=LIT, dark=DARK):
    """Width * height * 3 bytes of RGB for a MONO_VLSB frame."""
    pixels = mono_pixels(buf, width, height)
    out = bytearray(3 * len(pixels))
    for c in range(3):
        out[c::3] = pixels.translate(bytes((dark[c], lit[c])) + bytes(254))
    return bytes(out)


def screen_rgb_bytes(screen):
    """The RGB bytes of a Screen, colour or one-bit."""
    if getattr(screen, "mono", False):
        return mono_rgb_bytes(screen.buf, screen.width, screen.height)
    return to_rgb_bytes(screen.buf, screen.width, screen.height, screen.palette)


def save_png(path, buf, width, height, palette, scale=1, mono=False):
    """Write the screen to a PNG file, each pixel scale x scale: with Pillow (the workshop's,
    smallest files), else with pygame-ce (all `make sim` installs), the same pixels. mono: buf
    is a one-bit (MONO_VLSB) frame, the palette unused."""
    if mono:
        data = mono_rgb_bytes(buf, width, height)
    else:
        data = to_rgb_bytes(buf, width, height, palette)
    try:
        from PIL import Image
    except ImportError:
        import pygame
        surface = pygame.image.frombuffer(data, (width, height), "RGB")
        if scale != 1:
            surface = pygame.transform.scale(surface, (width * scale, height * scale))
        pygame.image.save(surface, path)
        return
    img = Image.frombytes("RGB", (width, height), data)
    if scale != 1:
        img = img.resize((width * scale, height * scale), Image.NEAREST)
    img.save(path, optimize=True)
