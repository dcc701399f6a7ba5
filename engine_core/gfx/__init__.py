"""Drawing into the 16-colour framebuffer: palette, screen and dirty rectangles, art, cards.

See docs/screen.md for the contract with the panel driver.
"""
