"""Drive the protocol on CPython and on real MicroPython with the same commands."""

import json

from engine_core.protocol import ProtocolSession
from tools.mpy import run_micropython

RUNTIMES = ("cpython", "micropython")

_PROTOCOL_MAIN = """
import sys
from engine_core.protocol import run
run(sys.stdin.readline, sys.stdout.write)
"""


def protocol_cpython(lines):
    session = ProtocolSession()
    out = []
    for line in lines:
        reply = session.command(line)
        if reply is None:
            break
        out.append(reply)
    return out


def protocol_micropython(lines):
    result = run_micropython(_PROTOCOL_MAIN, ("\n".join(lines) + "\n").encode())
    assert result.exit_code == 0, result
    return result.stdout.splitlines()


def protocol(lines, runtime="cpython"):
    """The reply lines to `lines` of protocol commands on one runtime."""
    if runtime == "cpython":
        return protocol_cpython(lines)
    return protocol_micropython(lines)


def run_mpy_ok(code, stdin=b""):
    """Run MicroPython code that must succeed; its stdout."""
    result = run_micropython(code, stdin)
    assert result.exit_code == 0, result
    return result.stdout


class Driver:
    """A CPython protocol session with helpers for assertions."""

    def __init__(self, *setup):
        self.session = ProtocolSession()
        for line in setup:
            assert self.ok(line) == "ok", line

    def ok(self, line):
        return self.session.command(line)

    def moves(self):
        text = self.ok("moves")
        return text.split(" ") if text else []

    def state(self):
        return json.loads(self.ok("state"))

    def piles(self):
        return self.state()["piles"]

    def load(self, state):
        return self.ok("load " + json.dumps(state))

    def expect_error(self, line):
        """The command must fail with 'error: ...' and change nothing."""
        before = self.ok("state")
        reply = self.ok(line)
        assert reply.startswith("error: "), (line, reply)
        assert self.ok("state") == before, line
        return reply


def fake_hardware(monkeypatch):
    """firmware.hardware imported afresh over the fake machine module and the simulator's
    framebuf (the fixture of the tests that run the device's code on the host)."""
    import sys
    from simulator import framebuf
    from support.fakes import machine as fake_machine
    monkeypatch.setitem(sys.modules, "machine", fake_machine)
    monkeypatch.setitem(sys.modules, "framebuf", framebuf)
    monkeypatch.delitem(sys.modules, "firmware.hardware", raising=False)
    import firmware.hardware
    return firmware.hardware


class ScriptClock:
    """A loop's clock that only sleeping moves (engine_core/loop.py's port: ticks_ms, ticks_us,
    sleep_ms)."""

    def __init__(self):
        self.ms = 0

    def ticks_ms(self):
        return self.ms

    def ticks_us(self):
        return self.ms * 1000

    def sleep_ms(self, ms):
        self.ms += ms
