"""make build: every module compiled for the board's chip, a main.py, a freezing manifest;
make flash: the UF2 to an RP2040's BOOTSEL drive, the mpremote copy on a board with PSRAM, a
clear refusal elsewhere; make firmware's UF2 and its toolchain check."""

import os
import subprocess
import sys

import pytest

import boards
from tools.device import deploy

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# mpy v6 header: b"M", version, then the native architecture in the top bits of byte 2.
ARCH_CODE = {"armv6m": 4, "xtensawin": 10}


@pytest.mark.parametrize("name", ["picosystem", "odroid_go"])
def test_build_compiles_every_module_for_the_boards_chip(tmp_path, name):
    board = boards.load(name)
    out = deploy.build(name, str(tmp_path))
    compiled = sorted(os.path.relpath(os.path.join(d, f), out)[:-4]
                      for d, _, fs in os.walk(out) for f in fs if f.endswith(".mpy"))
    assert compiled == sorted(p[:-3] for p in deploy.sources(name))
    assert "boards/%s" % name in compiled
    assert not [c for c in compiled if c.startswith("boards/") and c not in ("boards/__init__", "boards/" + name)]
    with open(os.path.join(out, "firmware", "expand_viper.mpy"), "rb") as f:
        header = f.read(4)
    assert header[0:2] == b"M\x06"
    assert header[2] >> 2 == ARCH_CODE[deploy.ARCH[board.PORT]], "native code for the board's chip"
    with open(os.path.join(out, "main.py")) as f:
        assert "start(%r)" % name in f.read()
    with open(os.path.join(out, "manifest.py")) as f:
        manifest = f.read()
    assert 'package("firmware"' in manifest and name + ".py" in manifest


def test_flash_copies_the_build_with_mpremote_and_resets():
    command, folder = deploy.flash_command("odroid_go", "/dev/ttyUSB0")
    assert os.path.basename(command[0]) == "mpremote"
    assert command[1:3] == ["connect", "/dev/ttyUSB0"]
    assert command[-2:] == ["+", "reset"]
    assert folder.endswith(os.path.join("build", "odroid_go"))


def test_flash_without_a_port_says_how_to_give_one():
    run = subprocess.run([sys.executable, "-m", "tools.device.deploy", "flash", "odroid_go"],
                         capture_output=True, text=True)
    assert run.returncode != 0 and "PORT=" in run.stderr


@pytest.mark.parametrize("name", ["m5stack_core", "tdisplay"])
def test_flash_refuses_the_mpy_route_on_an_esp32_without_psram(name):
    run = subprocess.run([sys.executable, "-m", "tools.device.deploy", "flash", name,
                          "--port", "/dev/null"], capture_output=True, text=True)
    assert run.returncode != 0
    assert "PSRAM" in run.stderr and "ROMFS" in run.stderr and "Traceback" not in run.stderr


def test_flash_puts_the_uf2_on_the_bootsel_drive(tmp_path, monkeypatch, capsys):
    from tools.device import firmware
    drive = tmp_path / "RPI-RP2"
    drive.mkdir()
    (drive / "INFO_UF2.TXT").write_text("UF2 Bootloader v3.0\n")
    monkeypatch.setenv("PICO_DRIVE", str(drive))
    built = []

    def fake_build(name, jobs=None, out_root=None):
        built.append(name)
        out = os.path.join(out_root, name)
        os.makedirs(out, exist_ok=True)
        with open(os.path.join(out, "firmware.uf2"), "wb") as f:
            f.write(firmware.uf2_blocks(b"\x01" * 300))
        return os.path.join(out, "firmware.uf2")

    monkeypatch.setattr(firmware, "build", fake_build)
    assert deploy.flash_rp2("pico_lcd_114", None, False, str(tmp_path / "build")) == 0
    assert built == ["pico_lcd_114"]
    assert (drive / "firmware.uf2").read_bytes() == firmware.uf2_blocks(b"\x01" * 300)
    assert "records are kept" in capsys.readouterr().out


def test_flash_without_a_bootsel_drive_says_what_to_do(monkeypatch, tmp_path, capsys):
    from tools.device import firmware
    monkeypatch.setenv("PICO_DRIVE", str(tmp_path / "not-mounted"))
    monkeypatch.setattr(firmware, "build", lambda name, jobs=None, out_root=None: None)
    assert deploy.flash_rp2("picosystem", None, False, str(tmp_path)) == 1
    assert "BOOTSEL" in capsys.readouterr().out


def test_the_uf2_carries_the_image_in_256_byte_blocks_for_the_rp2040():
    import struct

    from tools.device import firmware
    image = bytes(range(256)) * 2 + b"\xAA" * 10
    data = firmware.uf2_blocks(image)
    assert len(data) == 3 * 512
    for n in range(3):
        block = data[512 * n:512 * (n + 1)]
        magic0, magic1, flags, address, size, number, count, family = struct.unpack_from("<8I", block)
        assert (magic0, magic1, struct.unpack_from("<I", block, 508)[0]) == (0x0A324655, 0x9E5D5157, 0x0AB16F30)
        assert flags == 0x00002000 and family == 0xE48BFF56
        assert (address, size, number, count) == (0x10000000 + 256 * n, 256, n, 3)
        assert block[32:32 + 256] == (image[256 * n:256 * (n + 1)] + bytes(256))[:256]


def test_the_shared_source_follows_the_patches_of_the_checkout_that_builds(tmp_path, monkeypatch):
    """The MicroPython source in the cache is shared by every checkout's builds: a file patched
    by one build and not by the next (a change tried, then dropped) is put back as it came,
    and the files still patched carry their additions once, however often it runs."""
    from tools.device import firmware
    (tmp_path / "py").mkdir()
    (tmp_path / "py" / "map.c").write_text("int a;\nint b;\n")
    (tmp_path / "py" / "vm.c").write_text("int c;\n")
    monkeypatch.setattr(firmware, "PATCHES", (("py/map.c", "int a;\n", "int a2;\n"),
                                              ("py/vm.c", "int c;\n", "int c2;\n")))
    firmware.patch_source(str(tmp_path))
    firmware.patch_source(str(tmp_path))
    assert (tmp_path / "py" / "map.c").read_text() == "int a;\nint a2;\nint b;\n"
    assert (tmp_path / "py" / "vm.c").read_text() == "int c;\nint c2;\n"
    monkeypatch.setattr(firmware, "PATCHES", (("py/vm.c", "int c;\n", "int c3;\n"),))
    firmware.patch_source(str(tmp_path))
    assert (tmp_path / "py" / "map.c").read_text() == "int a;\nint b;\n"
    assert (tmp_path / "py" / "vm.c").read_text() == "int c;\nint c3;\n"
    monkeypatch.setattr(firmware, "PATCHES", (("py/map.c", "int b;\n", "int b2;\n", firmware.REPLACE),))
    firmware.patch_source(str(tmp_path))
    firmware.patch_source(str(tmp_path))
    assert (tmp_path / "py" / "map.c").read_text() == "int a;\nint b2;\n"
    assert (tmp_path / "py" / "vm.c").read_text() == "int c;\n"
    monkeypatch.setattr(firmware, "PATCHES", (("py/vm.c", "int nothing;\n", "x"),))
    with pytest.raises(firmware.BuildError):
        firmware.patch_source(str(tmp_path))


def test_firmware_says_which_packages_to_install_when_the_toolchain_is_missing(monkeypatch):
    from tools.device import firmware
    monkeypatch.setattr(firmware.shutil, "which", lambda name: None)
    with pytest.raises(firmware.BuildError) as e:
        firmware.build("pico_lcd_13")
    assert "apt-get install gcc-arm-none-eabi libnewlib-arm-none-eabi cmake build-essential" in str(e.value)


def test_firmware_refuses_an_esp32_board():
    run = subprocess.run([sys.executable, "-m", "tools.device.firmware", "tdisplay"],
                         capture_output=True, text=True)
    assert run.returncode == 2 and "pico_lcd_13" in run.stderr and "Traceback" not in run.stderr


def test_firmware_md_quotes_the_size_and_the_room_left_as_the_build_prints_them():
    import glob
    import json
    import re
    from tools.device import firmware
    with open(os.path.join(ROOT, "docs", "firmware.md"), encoding="utf-8") as f:
        text = f.read()
    quoted = re.search(r"\n(build/(\w+)/firmware\.uf2): (\d+) bytes of firmware", text)
    assert quoted, "docs/firmware.md quotes no line of the build"
    size = int(quoted.group(3))
    assert firmware.size_line(quoted.group(1), size) in text  # the build's own words and room
    left = (firmware.FS_OFFSET - size) // 1024
    assert "about %d KB, leaving about %d KB" % (round(size / 1024), left) in text
    # A firmware built in this tree (make firmware) is what the page quotes, within 8 KB.
    for facts in glob.glob(os.path.join(ROOT, "build", "*", "firmware.json")):
        with open(facts) as f:
            built = json.load(f)["bytes"]
        assert abs(built - size) <= 8 * 1024, "%s: %d bytes, docs/firmware.md says %d" % (facts, built, size)


def test_make_flash_suggests_the_serial_port_the_readme_gives_for_the_board():
    with open(os.path.join(ROOT, "README.md"), encoding="utf-8") as f:
        readme = f.read()
    for name in deploy.PSRAM_BOARDS:  # the boards make flash copies files to over a serial port
        run = subprocess.run([sys.executable, "-m", "tools.device.deploy", "flash", name],
                             capture_output=True, text=True, cwd=ROOT)
        suggested = run.stderr.split("PORT=")[1].split()[0]
        assert "make flash BOARD=%s PORT=%s" % (name, suggested) in readme
    assert "PORT=%s reboots" % deploy.SERIAL_PORT["rp2"] in readme  # an RP2040 running the console
