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


def test_the_simulator_starts_quietly_without_a_sound_device(tmp_path):
    """The window opens (on SDL's dummy video driver here); on a machine with no sound card the
    audio library's complaints (ALSA's `ALSA lib ...` lines) stay off the terminal: at most
    one line says the sound is off."""
    import os
    import signal
    import subprocess
    import sys
    import time
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", PYTHONPATH=root)
    proc = subprocess.Popen([sys.executable, "-m", "simulator", "--data-dir", str(tmp_path)], cwd=root,
                            env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 60
        while not os.path.exists(tmp_path / "console.lock") and proc.poll() is None:  # started
            if time.monotonic() > deadline:
                break
            time.sleep(0.2)
        time.sleep(1.0)
        assert proc.poll() is None, proc.stderr.read()
    finally:
        proc.send_signal(signal.SIGTERM)
        out, err = proc.communicate(timeout=30)
    assert "ALSA" not in err, err
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) <= 1, err


def test_no_sound_device_means_a_silent_mixer_and_one_line(capfd, monkeypatch):
    import pygame
    from simulator import sound

    def no_device(**kwargs):
        import os
        os.write(2, b"ALSA lib pcm.c:2666:(snd_pcm_open_noupdate) Unknown PCM default\n")
        raise pygame.error("No available audio device")
    monkeypatch.setattr(pygame.mixer, "init", no_device)
    sounds = sound.Sounds()
    sounds.beep(880, 40, 0)
    err = capfd.readouterr().err
    assert not sounds.mixer and sounds.played == [(880, 40)]
    assert err == sound.NO_DEVICE + "\n"
