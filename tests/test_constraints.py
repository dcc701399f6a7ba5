"""constraints.txt pins every package requirements-sim.txt (what `make sim` installs) and
requirements.txt (what `make test` adds) bring into .venv, and the venv the suite runs in is the
one it describes."""

import importlib.metadata as metadata
import os
import re
import subprocess
import sys

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

from tools.mpy import ROOT


def pins(name):
    """{package: (version, requirement)} of a requirements or constraints file."""
    found = {}
    with open(os.path.join(ROOT, name)) as f:
        for line in f:
            line = line.split("#")[0].strip()
            if line:
                req = Requirement(line)
                specs = list(req.specifier)
                assert len(specs) == 1 and specs[0].operator == "==", line
                found[canonicalize_name(req.name)] = (specs[0].version, req)
    return found


def applies(req, python):
    return req.marker is None or req.marker.evaluate({"python_version": python, "python_full_version": python + ".0",
                                                      "extra": ""})


REQUIREMENTS = ("requirements-sim.txt", "requirements.txt")


def test_the_top_level_packages_have_the_same_version_in_the_constraints():
    constraints = pins("constraints.txt")
    for path in REQUIREMENTS:
        for name, (version, _) in pins(path).items():
            assert constraints[name][0] == version, (path, name)


def test_the_simulator_needs_only_its_window_and_no_workshop_package():
    # `make sim` installs requirements-sim.txt alone: the window, nothing for tests or builds.
    assert set(pins("requirements-sim.txt")) == {"pygame-ce"}
    assert not set(pins("requirements-sim.txt")) & set(pins("requirements.txt"))


def test_every_package_the_requirements_bring_is_pinned():
    constraints = pins("constraints.txt")
    python = "%d.%d" % sys.version_info[:2]
    todo = [req for path in REQUIREMENTS for _, req in pins(path).values()]
    seen = set()
    while todo:
        req = todo.pop()
        name = canonicalize_name(req.name)
        if name in seen:
            continue
        seen.add(name)
        assert name in constraints and applies(constraints[name][1], python), name
        for text in metadata.distribution(req.name).requires or []:
            dep = Requirement(text)
            if applies(dep, python):
                todo.append(dep)
    unused = {n for n, (_, req) in constraints.items() if applies(req, python)} - seen
    assert unused == set()


def test_the_venv_holds_the_pinned_versions():
    python = "%d.%d" % sys.version_info[:2]
    for name, (version, req) in pins("constraints.txt").items():
        if applies(req, python):
            assert metadata.version(name) == version, name


def test_make_venv_installs_with_the_constraints():
    with open(os.path.join(ROOT, "Makefile")) as f:
        makefile = f.read()
    assert re.search(r"^PIP := .*pip install", makefile, re.M)
    assert re.search(r"^\t\$\(PIP\) -r requirements-sim\.txt -c constraints\.txt$", makefile, re.M)
    assert re.search(r"^\t\$\(PIP\) -r requirements\.txt -c constraints\.txt$", makefile, re.M)
    assert re.search(r"^\$\(SIM_STAMP\): pyproject\.toml requirements-sim\.txt constraints\.txt$", makefile, re.M)
    assert re.search(r"^\$\(STAMP\): requirements\.txt constraints\.txt \$\(SIM_STAMP\)$", makefile, re.M)
    assert re.search(r"^sim: \$\(SIM_STAMP\)$", makefile, re.M)


def test_the_project_is_installed_so_its_modules_import_from_anywhere(tmp_path):
    # pip install -e . (the Makefile): from any folder, the tree's own modules, the host's
    # micropython stand-in among them, with no sys.path edits.
    code = "import engine_core, micropython, simulator, tools.mpy; print(engine_core.__file__, micropython.__file__)"
    out = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == [os.path.join(ROOT, "engine_core", "__init__.py"),
                                  os.path.join(ROOT, "micropython.py")]
