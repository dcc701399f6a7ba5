"""The app's sound events as the device's tones (engine_core/ui/tones.py: one table for the
board's beeper, the web page and this window), square waves through pygame's mixer when the
machine has an audio device; silent when it has none, and quiet about it: the audio library's
complaints while the mixer looks for a device (ALSA's eight `ALSA lib ...` lines on a machine
with no sound card) are kept off the terminal, and one line says the sound is off.

    sounds = Sounds()
    sounds.beep(hz, ms, now)    # the loop sounds the console's sound event (engine_core/loop.py)
"""

import os
import sys
from array import array

from engine_core.ui.tones import NAMES, tone_hz, tone_ms

RATE = 22050
VOLUME = 2500  # of 32767: a beep, not a blast
NO_DEVICE = "no sound device: the sound is off"


class quiet_stderr:
    """Within it, whatever is written to file descriptor 2 (the C libraries' stderr, which
    sys.stderr does not catch) goes nowhere; after it, stderr is the terminal again."""

    def __enter__(self):
        sys.stderr.flush()
        self.saved = None
        try:
            self.saved = os.dup(2)
            null = os.open(os.devnull, os.O_WRONLY)
            os.dup2(null, 2)
            os.close(null)
        except OSError:  # no descriptor 2 to redirect: nothing to quieten
            pass
        return self

    def __exit__(self, *exc):
        if self.saved is not None:
            os.dup2(self.saved, 2)
            os.close(self.saved)
        return False


def square_wave(hz, ms, rate=RATE, volume=VOLUME):
    """`ms` milliseconds of a square wave at `hz`, as 16-bit signed mono samples (bytes)."""
    n = rate * ms // 1000
    samples = array("h", [volume if (i * 2 * hz // rate) % 2 == 0 else -volume for i in range(n)])
    return samples.tobytes()


class Sounds:
    """The window's beeper, as the loop's port gives it (engine_core/loop.py): each tone a
    square wave played through the mixer, which ends it by itself."""

    def __init__(self):
        self.sounds = {}  # (hz, ms) -> the mixer's Sound
        self.played = []  # the tones played, in order (tests)
        self.playing = False  # the mixer ends a tone: the loop has none to end
        self.mixer = False
        try:
            import pygame
            with quiet_stderr():
                pygame.mixer.init(frequency=RATE, size=-16, channels=1)
            for sound in range(1, len(NAMES)):
                self.tone(tone_hz(sound), tone_ms(sound))
            self.mixer = True
        except Exception:  # no audio device (or no mixer): the window stays silent
            self.sounds = {}
            sys.stderr.write(NO_DEVICE + "\n")

    def tone(self, hz, ms):
        key = (hz, ms)
        if key not in self.sounds:
            import pygame
            self.sounds[key] = pygame.mixer.Sound(buffer=square_wave(hz, ms))
        return self.sounds[key]

    def beep(self, hz, ms, now):
        self.played.append((hz, ms))
        if self.mixer:
            self.tone(hz, ms).play()

    def update(self, now):
        pass
