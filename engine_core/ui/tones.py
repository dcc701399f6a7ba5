"""The sounds of the app's events as tones: one table for the device's beeper
(firmware/main.py), the web page (web/page.js, through web/main.py) and the simulator.

    hz, ms = TONES[2 * sound], TONES[2 * sound + 1]     # sound: App.sound_event, 1..5

Short square-wave beeps a piezo can play: a move is a tick, a refused move a low buzz, a deal
a quick chirp, a win a long high tone and a loss a long low one, so that each says what
happened without a look at the screen (docs/screen.md).
"""

from array import array

from engine_core.ui.table import SOUND_DEAL, SOUND_ILLEGAL, SOUND_LOST, SOUND_MOVE, SOUND_WON

NAMES = ("", "move", "refused", "won", "lost", "deal")   # by sound number

# (hz, ms) by sound number; 0 is no sound.
TONES = array("H", [0] * 2 * len(NAMES))


def _set(sound, hz, ms):
    TONES[2 * sound] = hz
    TONES[2 * sound + 1] = ms


_set(SOUND_MOVE, 1800, 20)
_set(SOUND_ILLEGAL, 220, 90)
_set(SOUND_WON, 880, 250)
_set(SOUND_LOST, 150, 300)
_set(SOUND_DEAL, 1200, 40)


def tone_hz(sound):
    return TONES[2 * sound] if 0 < sound < len(NAMES) else 0


def tone_ms(sound):
    return TONES[2 * sound + 1] if 0 < sound < len(NAMES) else 0
