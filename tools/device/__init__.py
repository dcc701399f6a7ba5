"""The firmware on a board: building it, putting it on, the protocol over USB, the emulated Pico."""
