"""The protocol over a board's serial REPL gives the same replies as on the host: the host
side of tools/device/device_protocol.py against a stand-in transport that runs what it is sent."""

import contextlib
import io

from tests.helpers import protocol
from tools.device.device_protocol import serve


class PythonTransport:
    """Runs exec'd code in one namespace, as the board's raw REPL does, and returns stdout."""

    def __init__(self):
        self.namespace = {}
        self.raw = False

    def enter_raw_repl(self, soft_reset=True):
        assert not soft_reset, "a soft reset would restart the app"
        self.raw = True

    def exit_raw_repl(self):
        self.raw = False

    def exec(self, code):
        assert self.raw
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            exec(code, self.namespace)
        return out.getvalue().replace("\n", "\r\n").encode()


def test_protocol_replies_over_the_repl_equal_the_hosts():
    lines = ["new aces_up seed=7", "moves", "move col2>discard", "state", "bogus", "undo", "hint"]
    transport = PythonTransport()
    replies = []
    serve(transport, lines, replies.append)
    assert [r.rstrip("\n") for r in replies] == protocol(lines)
    assert not transport.raw, "the REPL is left in its normal mode"


def test_quit_ends_the_session():
    transport = PythonTransport()
    replies = []
    serve(transport, ["new aces_up seed=7", "quit", "state"], replies.append)
    assert replies == ["ok\n"]
