"""The protocol fuzzer (tools/reliability/fuzz.py), a short slice: `make soak` runs 100,000 lines a runtime.

Random and malformed lines on CPython and on MicroPython: one reply a line, no internal error,
the state unchanged after an error, every card in one pile after an `ok`, the same replies on
both runtimes. And the checks themselves catch what they look for."""

from engine_core import protocol
from tools.reliability import fuzz
from tools.reliability.fuzz_check import Checker


def test_a_slice_of_the_fuzzer_finds_nothing_on_either_runtime():
    counts = fuzz.fuzz_suite(700, seed=3, micropython=True)
    assert counts["failures"] == 0, counts.get("first")
    assert counts["lines"] == 700 and counts["lines on MicroPython"] == 700
    assert counts["internal errors"] == 0 and counts["runtime disagreements"] == 0
    assert 100 < counts["errors"] < 600  # malformed lines and legal play both


def test_the_same_seed_makes_the_same_lines():
    assert fuzz.fuzz_cpython(300, 5)[1] == fuzz.fuzz_cpython(300, 5)[1]


def serve(lines):
    feed = iter([line + "\n" for line in lines])
    checker = Checker(lambda: next(feed, ""), lambda text: None)
    checker.serve()
    return checker


def test_the_checks_catch_an_error_that_changes_the_state(monkeypatch):
    real = protocol.ProtocolSession._dispatch

    def careless(self, word, rest):
        if word == "hint" and self.game is not None:
            self.game.tick(5)  # the clock moves, then an error
            raise protocol.ProtocolError("no")
        return real(self, word, rest)

    monkeypatch.setattr(protocol.ProtocolSession, "_dispatch", careless)
    checker = serve(["new aces_up", "hint", "state"])
    assert checker.counts["changed by an error"] == 1 and "hint" in checker.first


def test_the_checks_catch_a_lost_card_an_internal_error_and_a_missing_reply(monkeypatch):
    real = protocol.ProtocolSession._dispatch

    def broken(self, word, rest):
        if word == "undo":
            self.game.piles.pop(0)  # a card vanishes
            return "ok"
        if word == "moves":
            raise KeyError("bug")
        return real(self, word, rest)

    monkeypatch.setattr(protocol.ProtocolSession, "_dispatch", broken)
    checker = serve(["new aces_up", "undo", "moves"])
    assert checker.counts["cards lost or doubled"] == 1
    assert checker.counts["internal errors"] == 1
    monkeypatch.setattr(protocol.ProtocolSession, "command", lambda self, line: None if line == "state" else "ok")
    assert serve(["new aces_up", "state"]).counts["replies missing or extra"] == 1


def test_runtime_disagreements_are_counted():
    assert fuzz.disagreements([b"a", b"b"], ["ok\n", "ok\n"], ["ok\n", "error: x\n"])[0] == 1
