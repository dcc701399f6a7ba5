"""Beeps start and stop on time, and stay silent where they should."""

from firmware.sound import Beeper
from support.fakes.machine import PWM, Pin


def test_a_beep_plays_for_its_length_then_stops():
    pwm = PWM(Pin(11))
    beeper = Beeper(pwm, enabled=True)
    beeper.beep(880, 40, 1000)
    assert pwm.freq() == 880 and pwm.duty_u16() > 0
    beeper.update(1039)
    assert pwm.duty_u16() > 0
    beeper.update(1040)
    assert pwm.duty_u16() == 0


def test_beeps_are_silent_when_sound_is_off_or_the_board_has_no_buzzer():
    pwm = PWM(Pin(11))
    beeper = Beeper(pwm)
    beeper.beep(880, 40, 0)
    assert pwm.duty_u16() == 0
    Beeper(None, enabled=True).beep(880, 40, 0)
