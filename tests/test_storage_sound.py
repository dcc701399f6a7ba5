"""Records on the filesystem survive power loss and damage; beeps start and stop on time."""

import os
import shutil

import pytest

from firmware import storage
from firmware.sound import Beeper
from firmware.storage import Store
from tests.fakes.machine import PWM, Pin
from tools.mpy import ROOT, run_micropython


def test_a_saved_record_loads_back(tmp_path):
    store = Store(str(tmp_path / "data"))
    store.save("settings", 3, b"\x01\x02\x03")
    assert store.load("settings", 3) == b"\x01\x02\x03"
    assert store.problem is None


def test_saving_again_replaces_the_record_and_leaves_no_temporary_file(tmp_path):
    store = Store(str(tmp_path))
    store.save("game", 1, b"old")
    store.save("game", 1, b"new one")
    assert store.load("game", 1) == b"new one"
    assert sorted(os.listdir(tmp_path)) == ["game"]


def test_a_missing_record_loads_as_none_and_says_missing(tmp_path):
    store = Store(str(tmp_path))
    assert store.load("stats", 1) is None
    assert store.problem == "missing"


@pytest.mark.parametrize("damage, problem", [
    (lambda data: data[:4], "short"),
    (lambda data: data[:-3], "short"),
    (lambda data: data[:6] + bytes([data[6] ^ 1]) + data[7:], "corrupt"),
    (lambda data: b"XX" + data[2:], "corrupt"),
    (lambda data: data + b"\x00", "corrupt"),
])
def test_a_damaged_record_is_reported_and_kept_aside_not_deleted(tmp_path, damage, problem):
    store = Store(str(tmp_path))
    store.save("settings", 1, b"payload bytes")
    path = tmp_path / "settings"
    damaged = damage(path.read_bytes())
    path.write_bytes(damaged)
    assert store.load("settings", 1) is None
    assert store.problem == problem
    assert (tmp_path / "settings.bad").read_bytes() == damaged
    assert not path.exists()


def test_a_record_of_another_version_is_reported_as_such(tmp_path):
    store = Store(str(tmp_path))
    store.save("settings", 1, b"v1")
    assert store.load("settings", 2) is None
    assert store.problem == "version"


def test_a_power_cut_while_writing_leaves_the_old_record_whole(tmp_path):
    store = Store(str(tmp_path))
    store.save("game", 1, b"the old game")
    # The temporary file of an interrupted save: written partly, never renamed.
    (tmp_path / "game.tmp").write_bytes(storage.encode(1, b"the new game")[:7])
    assert store.load("game", 1) == b"the old game"


def test_the_checksum_is_crc16_ccitt():
    assert storage.crc16(b"123456789") == 0x29B1


def test_records_round_trip_on_micropython_too(tmp_path):
    # The guest sees a folder of its own as '/', holding a copy of the module.
    (tmp_path / "firmware").mkdir()
    for name in ("__init__.py", "storage.py"):
        shutil.copy(os.path.join(ROOT, "firmware", name), tmp_path / "firmware" / name)
    code = (
        "from firmware.storage import Store\n"
        "s = Store('/data')\n"
        "s.save('r', 7, b'abc')\n"
        "print(s.load('r', 7), s.load('r', 8), s.problem, s.load('r', 7), s.problem)\n"
    )
    result = run_micropython(code, root=str(tmp_path))
    assert result.exit_code == 0, result
    assert result.stdout.strip() == "b'abc' None version None missing"
    assert (tmp_path / "data" / "r.bad").exists()


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
