"""The screen's pixels as RGB: what the panel shows, for windows, screenshots and tests."""


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


def save_png(path, buf, width, height, palette, scale=1):
    """Write the screen to a PNG file, each pixel scale x scale: with Pillow (the workshop's,
    smallest files), else with pygame-ce (all `make sim` installs), the same pixels."""
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
