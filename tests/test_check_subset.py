"""tools/check_subset.py: each form the engine's subset forbids is caught, start-up code and
marked exceptions pass, and the engine as it stands passes."""

import os
import subprocess
import sys
import textwrap

import pytest

from tools import check_subset
from tools.mpy import ROOT


def codes(source):
    found = check_subset.check_source(textwrap.dedent(source), "engine_core/example.py")
    return sorted({line.split()[1] for line in found})


def per_move(body):
    """A method that runs on every move, with `body` in it."""
    return "class G:\n    def step(self):\n        pass\n\n    def apply(self, move):\n" + textwrap.indent(
        textwrap.dedent(body), "        ")


EVERYWHERE = [
    ("S1", "x = 1\ntext = f'{x}'\n"),
    ("S2", "HALF = 0.5\n"),
    ("S3", "def f(a, b):\n    return a / b\n"),
    ("S3", "def f(a, b):\n    a /= b\n    return a\n"),
    ("S4", "def f(*args):\n    return 0\n"),
    ("S4", "def f(**kwargs):\n    return 0\n"),
    ("S4", "def f(g, a):\n    return g(*a)\n"),
    ("S4", "def f(g, a):\n    return g(**a)\n"),
    ("S5", "KEY = lambda c: c\n"),
    ("S6", "def f():\n    def g():\n        return 1\n    return g\n"),
    ("S7", "def cards(n):\n    for i in range(n):\n        yield i\n"),
    ("S8", "async def f():\n    return 1\n"),
    ("S9", "COUNT = 0\n\ndef f():\n    global COUNT\n    COUNT = 1\n"),
    ("S10", "from dataclasses import dataclass\n"),
    ("S10", "import typing\n"),
    ("S11", "import micropython\n\n@micropython.native\ndef f():\n    return 1\n"),
]

PER_MOVE = [
    ("P1", "n = [c for c in range(4)]"),
    ("P1", "n = sum(c for c in range(4))"),
    ("P2", "rest = self.cards[1:]"),
    ("P3", "return move, 1"),
    ("P3", "for p in (self.a, self.b):\n    p.clear()"),
    ("P4", "seen = []"),
    ("P4", "seen = {}"),
    ("P4", "seen = {move}"),
    ("P5", "name = 'p' + self.name"),
    ("P5", "name = 'p%d' % move"),
    ("P5", "name = str(move)"),
    ("P5", "buf = bytearray(8)"),
    ("P5", "for i, c in enumerate(self.cards):\n    pass"),
    ("P5", "name = ' '.join(self.names)"),
    ("P6", "state = move & 0xFFFFFFFF"),
    ("P7", "f = self.step"),
    ("P7", "self.run(self.step)"),
]


@pytest.mark.parametrize("code, source", EVERYWHERE)
def test_each_form_forbidden_everywhere_is_caught_even_at_start_up(code, source):
    assert code in codes(source)


@pytest.mark.parametrize("code, body", PER_MOVE)
def test_each_allocating_form_is_caught_in_per_move_code(code, body):
    assert codes(per_move(body)) == [code]


@pytest.mark.parametrize("code, body", PER_MOVE)
def test_start_up_code_may_allocate(code, body):
    body = textwrap.indent(textwrap.dedent(body), "        ")
    init = "class G:\n    def step(self):\n        pass\n\n    def __init__(self, move):\n" + body
    assert codes(init) == []
    module_level = textwrap.dedent(body).replace("return move, 1", "X = (len, 1)").replace("self.", "G.")
    assert codes("class G:\n    a = b = cards = names = []\n\nmove = 1\n" + module_level) == []


def test_allowed_forms_pass():
    assert codes(per_move("""
        a, b = self.b, self.a
        for p in (1, 2, 3):
            self.n += p // 2 + (1 << 29) - 1
        self.step()
        self.buf[0] = self.cards[len(self.cards) - 1]
        return (1, -2)
    """)) == []


def test_a_marked_line_or_function_with_its_reason_passes_and_an_unmarked_one_does_not():
    assert codes(per_move("text = str(move)  # subset: ok (a rare notice)")) == []
    marked = "def explain_move(move):  # subset: ok (protocol text)\n    return 'no ' + str(move)\n"
    assert codes(marked) == []
    assert codes(marked.replace("  # subset: ok (protocol text)", "")) == ["P5"]
    assert codes(per_move("text = str(move)  # subset: ok")) == ["P5"]  # no reason given


def test_the_protocol_methods_and_exempt_modules_may_allocate():
    assert codes("class G:\n    def move_token(self, code):\n        return 'p' + str(code)\n") == []
    found = check_subset.check_source("def f(x):\n    return 'a' + x\n", "engine_core/protocol.py")
    assert found == []


def test_a_device_module_imported_with_a_host_fallback_passes():
    assert codes("try:\n    import framebuf\nexcept ImportError:\n    from simulator import framebuf\n") == []
    assert codes("from simulator import framebuf\n") == ["S10"]


def test_an_import_for_the_type_checker_alone_passes_only_under_typing():
    typing_only = "_TYPING = const(0)\nif _TYPING:\n    from typing import Any\n"
    assert codes(typing_only) == []
    assert codes(typing_only.replace("if _TYPING:", "if DEBUG:")) == ["S10"]
    assert codes(typing_only + "else:\n    from typing import Any\n") == ["S10"]


def test_the_exemptions_name_code_that_exists():
    for key in check_subset.EXEMPT:
        path, _, name = key.partition(":")
        with open(os.path.join(ROOT, path), encoding="utf-8") as f:
            source = f.read()
        assert not name or "def " + name.split(".")[-1] + "(" in source, key


def test_the_engine_keeps_to_its_subset():
    assert check_subset.check_files(check_subset.engine_files()) == []


def test_the_command_fails_on_a_finding_and_names_it(tmp_path):
    bad = tmp_path / "bad.py"
    bad.write_text("def f(a, b):\n    return a / b\n")
    run = subprocess.run([sys.executable, "-m", "tools.check_subset", str(bad)],
                         capture_output=True, text=True)
    assert run.returncode == 1 and ":2: S3 " in run.stdout
    run = subprocess.run([sys.executable, "-m", "tools.check_subset"],
                         capture_output=True, text=True)
    assert run.returncode == 0, run.stdout
