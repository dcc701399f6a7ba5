"""The goldens a refactor may not rewrite. tests/golden/ holds what the tests compare to (frame
hashes, golden deals, and goldens older builds wrote); the tests only read it. One explicit
command writes it, `make goldens WHY="..." EXPECT="KEY ..."` (tools/goldens.py), and refuses
without a reason or when a key EXPECT does not name would change; it appends to
tests/golden/CHANGES.md which keys changed, old -> new, and why. Here: every value the goldens
hold is the one CHANGES.md last set (so a rewrite without its entry fails), no other code in
tests/, tools/ or support/ writes under tests/golden/, and the command refuses without a reason
and writes nothing when a key it was not told of would change. Each check is first shown
failing on a bad example of its own."""

import ast
import os
import shutil
import subprocess
import sys

import pytest

from support import goldens
from tools import goldens as command
from tools.mpy import ROOT

A, B, C = "0123456789abcdef", "fedcba9876543210", "00112233aabbccdd"

BASELINE = """# Changes
Some words.

## 2026-12-03: baseline
- frames `aces_up 240x240`: %s
- frames `nerts 240x240`: %s
- deals `nerts`: %s
- fixed `lehmer/nerts.json`: %s
""" % (A, A, B, C)


def changes_md():
    with open(os.path.join(goldens.GOLDEN, goldens.CHANGES)) as f:
        return f.read()


# --- (c) every value the goldens hold is accounted for ---

def test_every_golden_holds_the_value_changes_md_last_set():
    assert goldens.unaccounted(goldens.current(), changes_md()) == []


def test_a_golden_the_record_does_not_account_for_is_caught():
    now = {("frames", "aces_up 240x240"): A, ("frames", "nerts 240x240"): A,
           ("deals", "nerts"): B, ("fixed", "lehmer/nerts.json"): C}
    assert goldens.unaccounted(now, BASELINE) == []
    rewritten = dict(now)
    rewritten[("frames", "nerts 240x240")] = C          # rewritten without an entry
    rewritten[("fixed", "lehmer/nerts.json")] = A       # an old build's golden touched
    rewritten[("frames", "casket 240x240")] = B         # a key nobody recorded
    del rewritten[("deals", "nerts")]                    # a golden gone without a word
    assert goldens.unaccounted(rewritten, BASELINE) == [
        "deals `nerts` is none, CHANGES.md says %s" % B,
        "fixed `lehmer/nerts.json` is %s, CHANGES.md says %s" % (A, C),
        "frames `casket 240x240` is %s, CHANGES.md says none" % B,
        "frames `nerts 240x240` is %s, CHANGES.md says %s" % (C, A),
    ]
    # An entry that says so accounts for a change.
    fixed = BASELINE + goldens.entry("2026-12-04", "the foot moves", [("frames", "nerts 240x240", A, C)])
    assert goldens.unaccounted(dict(now, **{}), fixed) == ["frames `nerts 240x240` is %s, CHANGES.md says %s" % (A, C)]
    now[("frames", "nerts 240x240")] = C
    assert goldens.unaccounted(now, fixed) == []


def test_a_record_without_reasons_or_with_wrong_old_values_is_caught():
    bad = BASELINE + "\n".join([
        "## 2026-12-04:",                                        # no reason
        "- frames `nerts 240x240`: %s -> %s" % (B, C),            # old value is A, not B
        "## 2026-12-05: the deals change",
        "- frames `aces_up 240x240`: %s" % B,                     # set again without its old value
        "- fixed `lehmer/nerts.json`: %s -> %s" % (C, A),         # nothing rewrites a fixed golden
        "- deals nerts: %s" % A,                                  # not a key line
    ]) + "\n"
    values, faults = goldens.recorded(bad)
    assert faults == [
        "line 9: an entry's heading is '## YYYY-MM-DD: why': ## 2026-12-04:",
        "line 10: a key line outside an entry with a reason",
        "line 10: frames `nerts 240x240` was %s in the record, not %s" % (A, B),
        "line 12: frames `aces_up 240x240` is set again without its old value",
        "line 13: fixed `lehmer/nerts.json` changes; nothing may rewrite it",
        "line 14: not a key line: - deals nerts: %s" % A,
    ]


# --- (b) the one command that writes, with a reason ---

def make_folder(tmp_path):
    folder = tmp_path / "golden"
    (folder / "lehmer").mkdir(parents=True)
    (folder / "frame_hashes.json").write_text('{\n "aces_up 240x240": "%s",\n "nerts 240x240": "%s"\n}\n' % (A, A))
    (folder / "nerts.json").write_text("[\n]\n")
    (folder / "lehmer" / "nerts.json").write_text("old\n")
    now = goldens.current(str(folder))
    text = goldens.entry("2026-12-03", "baseline", [(k, key, None, v) for (k, key), v in sorted(now.items())])
    (folder / "CHANGES.md").write_text("# Changes\n" + text)
    assert goldens.unaccounted(now, (folder / "CHANGES.md").read_text()) == []
    return folder


def test_the_command_writes_what_changed_and_records_it_with_its_reason(tmp_path):
    folder = make_folder(tmp_path)
    before = (folder / "CHANGES.md").read_text()
    frames = {"aces_up 240x240": A, "nerts 240x240": B}
    deals = {"nerts": "[\n1\n]\n"}
    # A rewrite by hand is caught ...
    (folder / "frame_hashes.json").write_text('{"aces_up 240x240": "%s", "nerts 240x240": "%s"}' % (A, B))
    assert goldens.unaccounted(goldens.current(str(folder)), before) == [
        "frames `nerts 240x240` is %s, CHANGES.md says %s" % (B, A)]
    (folder / "frame_hashes.json").write_text('{"aces_up 240x240": "%s", "nerts 240x240": "%s"}' % (A, A))
    # ... the command's is recorded.
    changes = command.update(str(folder), "the foot  moves\na pixel", frames, deals, date="2026-12-04",
                             expect="nerts@240x240 nerts")
    old_deals = goldens.digest(b"[\n]\n")
    new_deals = goldens.digest(b"[\n1\n]\n")
    assert changes == [("frames", "nerts 240x240", A, B), ("deals", "nerts", old_deals, new_deals)]
    assert goldens.golden_frames(str(folder)) == frames
    assert (folder / "nerts.json").read_text() == deals["nerts"]
    assert (folder / "CHANGES.md").read_text() == before + (
        "\n## 2026-12-04: the foot moves a pixel\n"
        "- frames `nerts 240x240`: %s -> %s\n"
        "- deals `nerts`: %s -> %s\n" % (A, B, old_deals, new_deals))
    assert goldens.unaccounted(goldens.current(str(folder)), (folder / "CHANGES.md").read_text()) == []
    # Nothing differs: nothing written, no entry.
    after = (folder / "CHANGES.md").read_text()
    assert command.update(str(folder), "again", frames, deals) == []          # nothing expected, nothing changes
    assert (folder / "CHANGES.md").read_text() == after


def test_the_command_refuses_without_a_reason(tmp_path):
    folder = make_folder(tmp_path)
    snapshot = goldens.current(str(folder)), (folder / "CHANGES.md").read_text()
    for why in ("", "  \n"):
        with pytest.raises(ValueError):
            command.update(str(folder), why, {"nerts 240x240": B})
    assert (goldens.current(str(folder)), (folder / "CHANGES.md").read_text()) == snapshot
    before = goldens.current()
    for args in ([], ["frames"], ["--why", " "]):
        run = subprocess.run([sys.executable, "-m", "tools.goldens"] + args, cwd=ROOT, capture_output=True, text=True)
        assert run.returncode == 2 and "refused, nothing written" in run.stderr
    assert goldens.current() == before


def test_the_command_refuses_a_change_expect_does_not_name_and_writes_nothing(tmp_path):
    folder = make_folder(tmp_path)
    snapshot = goldens.current(str(folder)), (folder / "CHANGES.md").read_text()
    frames = {"aces_up 240x240": B, "nerts 240x240": B}
    deals = {"nerts": "[\n1\n]\n"}
    for expect in ("", "nerts@240x240", "nerts@* aces_up", "*@240x240", "aces_up@240x240 nerts@240x135 nerts"):
        with pytest.raises(command.Refused) as refused:
            command.update(str(folder), "the foot moves", frames, deals, expect=expect)
        named = [command.spelled(kind, key) for kind, key, _, _ in refused.value.changes]
        assert named and not any(command.expected(kind, key, expect.split())
                                 for kind, key, _, _ in refused.value.changes)
        assert (goldens.current(str(folder)), (folder / "CHANGES.md").read_text()) == snapshot
    with pytest.raises(command.Refused) as refused:
        command.update(str(folder), "the foot moves", frames, deals, expect="nerts@240x240 nerts")
    assert refused.value.changes == [("frames", "aces_up 240x240", A, B)]
    assert "EXPECT does not name aces_up@240x240" in str(refused.value)
    # All: every key, with a reason; without one, nothing.
    with pytest.raises(ValueError):
        command.update(str(folder), " ", frames, deals, expect="all")
    assert (goldens.current(str(folder)), (folder / "CHANGES.md").read_text()) == snapshot
    changes = command.update(str(folder), "everything moves", frames, deals, date="2026-12-05", expect="all")
    assert [(kind, key) for kind, key, _, _ in changes] == [
        ("frames", "aces_up 240x240"), ("frames", "nerts 240x240"), ("deals", "nerts")]
    assert goldens.unaccounted(goldens.current(str(folder)), (folder / "CHANGES.md").read_text()) == []


def test_the_command_line_names_what_expect_leaves_out(tmp_path, monkeypatch, capsys):
    folder = make_folder(tmp_path)
    monkeypatch.setattr(goldens, "GOLDEN", str(folder))
    monkeypatch.setattr(goldens, "all_frame_hashes", lambda: {"aces_up 240x240": B, "nerts 240x240": A})
    snapshot = goldens.current(str(folder)), (folder / "CHANGES.md").read_text()
    assert command.main(["--why", "aces moves", "frames"]) == 2
    err = capsys.readouterr().err
    assert "refused, nothing written" in err and "aces_up@240x240" in err and "nerts@240x240" not in err
    assert command.main(["--why", "aces moves", "--expect", "nerts@*", "frames"]) == 2
    assert (goldens.current(str(folder)), (folder / "CHANGES.md").read_text()) == snapshot
    assert command.main(["--why", "aces moves", "--expect", "aces_up@240x240", "frames"]) == 0
    assert goldens.golden_frames(str(folder)) == {"aces_up 240x240": B, "nerts 240x240": A}


@pytest.mark.skipif(shutil.which("make") is None, reason="no make")
def test_make_goldens_refuses_without_why_before_doing_anything():
    env = dict(os.environ)
    env.pop("WHY", None)
    run = subprocess.run(["make", "-s", "goldens"], cwd=ROOT, capture_output=True, text=True, env=env)
    assert run.returncode != 0 and "refuses without WHY" in run.stderr


# --- (a) nothing else writes under tests/golden/ ---

TEMPORARY = ("tmp_path", "tmpdir", "tmp_path_factory", "tempfile")
COPIES = {"shutil.copy": 1, "shutil.copy2": 1, "shutil.copyfile": 1, "shutil.copytree": 1, "shutil.move": 1,
          "os.replace": 1, "os.rename": 1, "os.remove": 0, "os.unlink": 0}


def names_in(node):
    return set(n.id for n in ast.walk(node) if isinstance(n, ast.Name))


def write_targets(tree):
    """The path expression of each call that writes a file: open() with a mode that writes,
    .write_text/.write_bytes, a copy, move, rename or removal."""
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        if isinstance(func, ast.Name) and func.id == "open" and node.args:
            modes = node.args[1:2] + [k.value for k in node.keywords if k.arg == "mode"]
            if any(isinstance(m, ast.Constant) and set(str(m.value)) & set("wax+") for m in modes):
                yield node.args[0]
        elif isinstance(func, ast.Attribute) and func.attr in ("write_text", "write_bytes"):
            yield func.value
        elif ast.unparse(func) in COPIES and len(node.args) > COPIES[ast.unparse(func)]:
            yield node.args[COPIES[ast.unparse(func)]]


def golden_writers(sources):
    """The files of {path: source} that name the goldens and write a file outside a temporary
    folder (a path made from tmp_path, tmpdir or tempfile): only the command may."""
    found = []
    for path, text in sorted(sources.items()):
        if "golden" not in text.lower():
            continue
        tree = ast.parse(text)
        temporary, grown = set(TEMPORARY), True
        while grown:          # names bound to a path made from a temporary one
            grown = False
            for node in ast.walk(tree):
                pairs = []
                if isinstance(node, ast.Assign):
                    pairs = [(t, node.value) for t in node.targets]
                elif isinstance(node, ast.withitem) and node.optional_vars is not None:
                    pairs = [(node.optional_vars, node.context_expr)]
                for target, value in pairs:
                    new = names_in(target) - temporary
                    if new and names_in(value) & temporary:
                        temporary |= new
                        grown = True
        if any(not names_in(target) & temporary for target in write_targets(tree)):
            found.append(path)
    return found


def python_sources(*folders):
    out = {}
    for folder in folders:
        for here, dirs, files in os.walk(os.path.join(ROOT, folder)):
            dirs[:] = [d for d in dirs if d not in ("__pycache__", "node_modules")]
            for name in files:
                if name.endswith(".py"):
                    path = os.path.join(here, name)
                    with open(path, encoding="utf-8") as f:
                        out[os.path.relpath(path, ROOT).replace(os.sep, "/")] = f.read()
    return out


def test_only_the_goldens_command_writes_under_tests_golden():
    bad = {
        "tests/test_frames.py": "GOLDEN = 'tests/golden/x.json'\nif WRITE:\n    f = open(GOLDEN, 'w')\n",
        "tools/deals.py": "def write(name):\n    path = os.path.join(ROOT, 'tests', 'golden', name)\n"
                          "    with open(path, mode='a') as f:\n        pass\n",
        "tools/copy.py": "shutil.copy(new, GOLDEN_DIR)\n",
        "tests/test_tmp.py": "GOLDEN = 'golden'\ndef test(tmp_path):\n    bad = tmp_path / 'x'\n"
                             "    bad.write_text('')\n    with tempfile.TemporaryDirectory() as d:\n"
                             "        open(os.path.join(d, 'f'), 'w')\n",                # temporary files
        "tools/other.py": "with open(path, 'w') as f:\n    f.write(text)\n",           # not the goldens
        "tests/test_read.py": "with open(GOLDEN) as f:\n    json.load(f)\n",              # reads them
    }
    assert golden_writers(bad) == ["tests/test_frames.py", "tools/copy.py", "tools/deals.py"]
    assert golden_writers(python_sources("tests", "tools", "support")) == ["tools/goldens.py"]
