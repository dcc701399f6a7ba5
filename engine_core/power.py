"""A day in the pocket: the screen dims and then goes off when no key comes, the battery is
watched, and the loop rests between keys (docs/firmware.md, "Power"). The device's power, and
the simulator's window and the web page have the same (their screen dims and goes dark, and a
key wakes it): one timing for all three.

    power = Power(hw.brightness, hw.panel, clock.sleep_ms, dim_ms, off_ms, hw.battery_mv,
                  now, app.settings)
    power.woke(now)             # a key: True when it only woke the screen (not acted on)
    power.update(now, held, app) # after each frame: dims, turns off, reads the battery
    power.rest_ms(now)          # how long the loop may rest before one of these falls due

The app (firmware/main.py's Shell) says when the screen may go dark (`may_sleep()`: never in
a computer's turn, a link game or the kiosk's demo), saves the game before the panel goes off
(`save_now()`) and shows the battery's warning (`notify(text)`). Given the App's settings
(engine_core/ui/settings.py), the times are theirs (Dim after, Screen off after), read after
every frame, so a change in the menu counts at once. Nothing here allocates after __init__.
"""

from engine_core.loop import REST_MAX_MS, TICKS_MASK
from engine_core.ui.settings import S_DIM, S_OFF, SETTINGS, VALUES

from micropython import const

SLEEP_TOGGLE_MS = const(120)    # the panel's least time between SLPIN and SLPOUT (ST7789)

AWAKE = 0
DIM = 1
OFF = 2

FULL_PERCENT = 100
DIM_PERCENT = 10
BATTERY_EVERY_MS = 10000        # how often the battery is read

# A single LiPo cell under a light load: empty at 3.3 V, full at 4.1 V (the gauge's ends).
EMPTY_MV = 3300
FULL_MV = 4100
LOW_MV = 3500                   # about 15 %: a warning
CRITICAL_MV = 3350              # about 5 %: the game is saved and the panel goes off
NO_BATTERY_MV = 1000            # less than this: no cell (USB power, nothing on the ADC)

B_UNKNOWN = 0
B_OK = 1
B_LOW = 2
B_CRITICAL = 3


def setting_ms(settings, i):
    """The milliseconds the choice of time setting i (S_DIM, S_OFF) stands for (0: never)."""
    return SETTINGS[i][VALUES][settings[i]] * 1000


def battery_percent(mv):
    """The gauge's reading, 0..100 (linear between EMPTY_MV and FULL_MV); -1 when unknown."""
    if mv < NO_BATTERY_MV:
        return -1
    if mv <= EMPTY_MV:
        return 0
    if mv >= FULL_MV:
        return 100
    return (mv - EMPTY_MV) * 100 // (FULL_MV - EMPTY_MV)


def battery_state(mv):
    if mv < NO_BATTERY_MV:
        return B_UNKNOWN
    if mv <= CRITICAL_MV:
        return B_CRITICAL
    if mv <= LOW_MV:
        return B_LOW
    return B_OK


class Power:
    def __init__(self, brightness, panel, sleep_ms, dim_ms, off_ms, battery_mv=None, now=0,
                 settings=None):
        """brightness(percent): the backlight. panel: has sleep() and wake(). sleep_ms: the
        clock's, for the panel's waits. dim_ms, off_ms: without a key this long the screen
        dims, then goes off (0: never). battery_mv(): the cell's voltage (None: no battery).
        settings: the App's choices (engine_core/ui/app.py), whose Dim after and Screen off
        after then stand for dim_ms and off_ms, read again after every frame."""
        self.brightness = brightness
        self.panel = panel
        self.sleep_ms = sleep_ms
        self.settings = settings
        if settings is not None:
            dim_ms = setting_ms(settings, S_DIM)
            off_ms = setting_ms(settings, S_OFF)
        self.dim_ms = dim_ms
        self.off_ms = off_ms
        self.battery_mv = battery_mv
        self.state = AWAKE
        self.last_key = now
        self.off_at = now
        self.mv = -1
        self.battery = B_UNKNOWN
        self.read_at = now
        self.warned = False
        self.dims = 0                # times dimmed, turned off, woken (the REPL: power_state())
        self.offs = 0
        self.wakes = 0
        self.read_battery(now, None)

    # --- keys ---

    def woke(self, now):
        """A key came: the screen lights up. True when it was dim or off, so the key only woke
        it and the app does not take it."""
        self.last_key = now
        if self.state == AWAKE:
            return False
        if self.state == OFF:
            self.panel.wake(SLEEP_TOGGLE_MS - ((now - self.off_at) & TICKS_MASK), self.sleep_ms)
        self.brightness(FULL_PERCENT)
        self.state = AWAKE
        self.wakes += 1
        return True

    # --- time ---

    def update(self, now, held, app):
        """After a frame: a key held counts as a key; dims and turns off when their time has
        come and the app allows it; reads the battery every BATTERY_EVERY_MS. The times are
        the settings' as they are now (a change in the menu counts at once)."""
        settings = self.settings
        if settings is not None:
            self.dim_ms = setting_ms(settings, S_DIM)
            self.off_ms = setting_ms(settings, S_OFF)
        if held:
            self.last_key = now
        if (now - self.read_at) & TICKS_MASK >= BATTERY_EVERY_MS:
            self.read_battery(now, app)
        if self.state == OFF:
            return
        quiet = (now - self.last_key) & TICKS_MASK
        if self.off_ms and quiet >= self.off_ms and app.may_sleep():
            self.turn_off(app, now)
        elif self.state == AWAKE and self.dim_ms and quiet >= self.dim_ms and app.may_sleep():
            self.brightness(DIM_PERCENT)
            self.state = DIM
            self.dims += 1

    def turn_off(self, app, now):
        """The game saved, the backlight off, the panel asleep (DCS SLPIN): until a key."""
        app.save_now()
        self.brightness(0)
        self.panel.sleep()
        self.state = OFF
        self.off_at = now
        self.offs += 1

    def rest_ms(self, now):
        """How long the loop may rest before a timer of ours falls due (at most REST_MAX_MS)."""
        left = REST_MAX_MS
        quiet = (now - self.last_key) & TICKS_MASK
        if self.state == AWAKE and self.dim_ms:
            left = min(left, max(0, self.dim_ms - quiet))
        if self.state != OFF and self.off_ms:
            left = min(left, max(0, self.off_ms - quiet))
        if self.battery_mv is not None:
            left = min(left, max(0, BATTERY_EVERY_MS - ((now - self.read_at) & TICKS_MASK)))
        return left

    # --- the battery ---

    def read_battery(self, now, app):
        """Read the cell: a warning once when it runs low, and at critical charge the game
        saved and the panel off (a key wakes it, and the next reading turns it off again)."""
        self.read_at = now
        if self.battery_mv is None:
            return
        self.mv = self.battery_mv()
        self.battery = battery_state(self.mv)
        if app is None:
            return
        if self.battery == B_OK:
            self.warned = False
        elif self.battery == B_LOW and not self.warned:
            self.warned = True
            app.notify("Battery low: charge soon")
        elif self.battery == B_CRITICAL and self.state != OFF:
            app.notify("Battery empty: game saved")
            self.turn_off(app, now)

    def percent(self):
        return battery_percent(self.mv)
