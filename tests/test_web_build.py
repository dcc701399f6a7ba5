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
