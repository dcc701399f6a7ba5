"""manifest.py (freezing) and engine_core/package.json (mip) list every module of the engine, with
paths relative to themselves, and are what tools/engine_manifest.py writes from the tree."""

import glob
import json
import os

from tools import engine_manifest
from tools.mpy import ROOT


def engine_modules():
    top = os.path.join(ROOT, "engine_core")
    return sorted(os.path.relpath(p, top).replace(os.sep, "/")
                  for p in glob.glob(os.path.join(top, "**", "*.py"), recursive=True))


def frozen_files():
    """The files manifest.py freezes, run the way MicroPython's build runs a manifest: from
    its own folder, with package() given (tools/manifestfile.py)."""
    calls = []

    def package(name, files=None, base_path=".", opt=None):
        calls.append((name, files, base_path))

    with open(os.path.join(ROOT, "manifest.py")) as f:
        source = f.read()
    here = os.getcwd()
    os.chdir(os.path.dirname(os.path.join(ROOT, "manifest.py")))
    try:
        exec(compile(source, "manifest.py", "exec"), {"package": package})
        found = []
        for name, files, base_path in calls:
            assert not os.path.isabs(base_path)
            for f in files:
                path = os.path.abspath(os.path.join(base_path, name, f))
                assert os.path.isfile(path), path
                found.append(os.path.relpath(path, ROOT).replace(os.sep, "/"))
    finally:
        os.chdir(here)
    return sorted(found)


def test_the_manifest_freezes_every_engine_module_by_relative_paths():
    assert frozen_files() == ["engine_core/" + m for m in engine_modules()]
    with open(os.path.join(ROOT, "manifest.py")) as f:
        assert ROOT not in f.read()


def test_the_package_json_lists_every_engine_module_for_mip():
    with open(os.path.join(ROOT, "engine_core", "package.json")) as f:
        package = json.load(f)
    assert isinstance(package["version"], str) and package["version"]
    sources = []
    for dest, src in package["urls"]:
        # mip fetches a relative source from the package.json's folder into dest on the device.
        assert dest == "engine_core/" + src and not src.startswith(("/", "http", "github:"))
        assert os.path.isfile(os.path.join(ROOT, "engine_core", src))
        sources.append(src)
    assert sorted(sources) == engine_modules() and len(set(sources)) == len(sources)


def test_both_files_are_what_the_tool_writes_from_the_tree():
    assert engine_manifest.main([]) == 0
    for path, text in engine_manifest.expected().items():
        with open(path) as f:
            assert f.read() == text, path


def test_a_module_added_to_the_engine_makes_both_stale(monkeypatch):
    files = engine_manifest.engine_files()
    monkeypatch.setattr(engine_manifest, "engine_files", lambda: files + ["new_module.py"])
    assert engine_manifest.main([]) == 1


def test_mpremotes_mip_installs_the_engine_from_the_package_json(capsys):
    # mpremote's own mip (pinned in requirements.txt), onto a stand-in for a board's filesystem.
    from mpremote import mip

    class Board:
        def __init__(self):
            self.files = {}

        def fs_exists(self, path):
            return False

        def fs_mkdir(self, path):
            pass

        def fs_writefile(self, path, data, progress_callback=None):
            self.files[path] = data

    board = Board()
    mip._install_json(board, os.path.join(ROOT, "engine_core", "package.json"), "", "/lib", None, False)
    assert sorted(board.files) == ["/lib/engine_core/" + m for m in engine_modules()]
    with open(os.path.join(ROOT, "engine_core", "rng.py"), "rb") as f:
        assert board.files["/lib/engine_core/rng.py"] == f.read()
