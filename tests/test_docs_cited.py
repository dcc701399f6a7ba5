"""The rules and documents the code cites are in the repository: each game's rule profile in
docs/rules/, the protocol in docs/protocol.md, and every docs/ path a module, test or document
names exists."""

import os
import re
import sys

import pytest

from engine_core import games
from tools.mpy import ROOT

SKIP_DIRS = {".git", ".venv", "node_modules", "build", "__pycache__", ".pytest_cache", ".hypothesis",
             "screens", "stats"}
DOC_PATH = re.compile(r"(?<![\w/.])docs/[\w./-]*\w")


def texts():
    """(path relative to the repository, text) of every Python module and Markdown document."""
    for folder, dirs, files in os.walk(ROOT):
        dirs[:] = sorted(d for d in dirs if d not in SKIP_DIRS)
        for name in sorted(files):
            if name.endswith((".py", ".md")):
                path = os.path.join(folder, name)
                with open(path, encoding="utf-8") as f:
                    yield os.path.relpath(path, ROOT), f.read()


def test_every_docs_path_the_code_and_docs_cite_exists():
    missing = []
    for rel, text in texts():
        for cited in DOC_PATH.findall(text):
            cited = cited.rstrip(".")
            if "*" in cited or "GAME" in cited:
                continue
            if not os.path.exists(os.path.join(ROOT, cited)):
                missing.append((rel, cited))
    assert missing == []


def test_nothing_cites_rules_or_a_protocol_outside_the_repository():
    outside = re.compile(r"shared/(rules|PROTOCOL|PERFORMANCE|DESIGN|STYLE)")
    assert [rel for rel, text in texts() if outside.search(text)] == []


@pytest.mark.parametrize("name", games.names())
def test_each_game_cites_its_rule_profile_and_plays_the_profile_it_states(name):
    cls = games.load(name)
    doc = "docs/rules/%s.md" % name
    assert doc in sys.modules[cls.__module__].__doc__
    with open(os.path.join(ROOT, doc), encoding="utf-8") as f:
        title = f.readline()
    assert title.startswith("# ") and re.search(r"rule profile %d\b" % cls.RULES_VERSION, title), title


def test_the_rules_folder_holds_a_profile_for_each_game_and_nothing_else():
    # Every line of the registry, the TEST_ONLY game's too (its page shows what a new game adds).
    names = sorted(n[:-3] for n in os.listdir(os.path.join(ROOT, "docs", "rules")) if n.endswith(".md"))
    assert names == sorted(line[0] for line in games.GAMES)


def test_the_protocol_names_the_rule_profiles_in_the_repository():
    with open(os.path.join(ROOT, "docs", "protocol.md"), encoding="utf-8") as f:
        assert "docs/rules/" in f.read()
