"""The app's sound events as the device's tones (engine_core/ui/tones.py: one table for the
board's beeper, the web page and this window), square waves through pygame's mixer when the
machine has an audio device; silent when it has none.

    sounds = Sounds()
    sounds.play(app)        # each frame: plays and clears the App's sound_event
"""

from array import array

from engine_core.ui.tones import NAMES, tone_hz, tone_ms

RATE = 22050
VOLUME = 2500  # of 32767: a beep, not a blast


def square_wave(hz, ms, rate=RATE, volume=VOLUME):
    """`ms` milliseconds of a square wave at `hz`, as 16-bit signed mono samples (bytes)."""
    n = rate * ms // 1000
    samples = array("h", [volume if (i * 2 * hz // rate) % 2 == 0 else -volume for i in range(n)])
    return samples.tobytes()


class Sounds:
    def __init__(self):
        self.sounds = {}
        self.played = []  # the sounds played, in order (tests)
        try:
            import pygame
            pygame.mixer.init(frequency=RATE, size=-16, channels=1)
            for sound in range(1, len(NAMES)):
                self.sounds[sound] = pygame.mixer.Sound(buffer=square_wave(tone_hz(sound), tone_ms(sound)))
        except Exception:  # no audio device (or no mixer): the window stays silent
            self.sounds = {}

    def play(self, app):
        """The console's (or the bare App's) sound event, taken and played; none in the kiosk."""
        target = getattr(app, "app", app)
        sound = target.sound_event
        target.sound_event = 0
        if not sound or getattr(app, "kiosk_on", False):
            return 0
        self.played.append(sound)
        if sound in self.sounds:
            self.sounds[sound].play()
        return sound
