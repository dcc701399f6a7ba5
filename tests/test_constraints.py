"""constraints.txt pins every package requirements.txt brings into .venv, and the venv the suite
runs in is the one it describes."""

import importlib.metadata as metadata
import os
import re
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


def test_the_top_level_packages_have_the_same_version_in_both_files():
    constraints = pins("constraints.txt")
    for name, (version, _) in pins("requirements.txt").items():
        assert constraints[name][0] == version, name


def test_every_package_the_requirements_bring_is_pinned():
    constraints = pins("constraints.txt")
    python = "%d.%d" % sys.version_info[:2]
    todo = [req for _, req in pins("requirements.txt").values()]
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
    assert re.search(r"pip install .*-r requirements\.txt -c constraints\.txt", makefile)
    assert re.search(r"^\$\(STAMP\): requirements\.txt constraints\.txt$", makefile, re.M)
