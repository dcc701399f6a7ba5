"""Beeps through PWM on a buzzer or speaker pin; silent where a board has none.

    beeper = Beeper(pwm)               # a machine.PWM, or None
    beeper.beep(880, 40, now_ms)       # starts a tone; returns at once
    beeper.update(now_ms)              # every loop pass: ends the tone when its time is up

`enabled` silences it whatever is asked (off unless the caller says so). No allocation after
__init__.
"""

from firmware.buttons import elapsed

HALF = 32768                    # 50 % duty: the loudest square wave


class Beeper:
    def __init__(self, pwm, enabled=False):
        self.pwm = pwm
        self.enabled = enabled
        self.playing = False
        self.started = 0
        self.length = 0
        if pwm is not None:
            pwm.duty_u16(0)

    def beep(self, freq, ms, now):
        """Start a `freq` Hz tone for `ms` milliseconds (replacing any tone playing)."""
        if self.pwm is None or not self.enabled or freq <= 0 or ms <= 0:
            return
        self.pwm.freq(freq)
        self.pwm.duty_u16(HALF)
        self.playing = True
        self.started = now
        self.length = ms

    def update(self, now):
        if self.playing and elapsed(now, self.started) >= self.length:
            self.stop()

    def stop(self):
        if self.pwm is not None:
            self.pwm.duty_u16(0)
        self.playing = False
