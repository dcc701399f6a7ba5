"""The protocol fuzzer's checks, the same code on CPython and MicroPython (tools/reliability/fuzz.py
drives it): lines go through engine_core.protocol.run() as they would on a serial line, and
after every line
- exactly one reply came for it (none for a blank line or `quit`);
- the reply is no `error: internal error`;
- after an error the state is what it was before the line;
- after an `ok` every card of the game is in exactly one pile, once.

    checker = Checker(next_line, write)   # next_line() -> the line (\\n-terminated), '' to end
    checker.serve()
    checker.counts   # {"lines": .., "replies": .., ...}; checker.first: the first failure
"""

from engine_core import cards
from engine_core.protocol import ProtocolSession, run, state_json
from engine_core.text import strip_line, split_words

NAMES = ("lines", "replies", "errors", "internal errors", "changed by an error",
         "cards lost or doubled", "replies missing or extra")


class Checker:
    def __init__(self, next_line, write):
        self.next_line = next_line
        self.write = write
        self.session = ProtocolSession()
        self.counts = {}
        for name in NAMES:
            self.counts[name] = 0
        self.first = ""
        self.before = None  # the state before the line under way ('' when there is no game)
        self.pending = False  # a line was handed to run() and is not checked yet
        self.line = None  # that line (None: it did not decode)
        self.replies = 0  # replies written for it
        self.last = ""
        self.ended = False
        self.feed = None
        self.scratch = bytearray(256)

    def serve(self):
        """Run lines until next_line() gives ''."""
        while self.serve_one():
            pass

    def serve_one(self):
        """Read one line and serve it (a `quit` starts a new session); False at the end."""
        try:
            line = self.next_line()
            error = None
        except UnicodeError as e:  # not UTF-8: run() answers it as it does on a serial line
            line = None
            error = e
        if line == "":
            self.ended = True
            return False
        self.feed = [line, error]
        run(self.read_line, self.reply, self.session)
        self.finish_line()
        if line is not None and split_words(strip_line(line)) == ["quit"]:
            self.session = ProtocolSession()
            self.before = None
        return True

    def state(self):
        game = self.session.game
        return state_json(game) if game is not None else ""

    def read_line(self):
        """run()'s reader: the line being served, then the end of input."""
        if self.feed is None:
            return ""
        line, error = self.feed
        self.feed = None
        if self.before is None:
            self.before = self.state()
        self.replies = 0
        self.last = ""
        self.line = line
        self.pending = True
        if error is not None:
            raise error
        self.counts["lines"] += 1
        return line

    def reply(self, text):
        self.replies += 1
        self.counts["replies"] += 1
        self.last = text
        self.write(text)

    def fail(self, what, detail):
        self.counts[what] += 1
        if not self.first:
            line = self.line if self.line is not None else "(not UTF-8)"
            self.first = what + ": " + repr(line[:120]) + " -> " + detail[:200]

    def finish_line(self):
        """Check the line just served (called before the next one is read)."""
        if not self.pending:
            return
        self.pending = False
        self.counts["lines"] += 1 if self.line is None else 0
        expected = 1
        if self.line is not None:
            words = split_words(strip_line(self.line), 1)
            if not words or (len(words) == 1 and words[0] == "quit"):
                expected = 0
        if self.replies != expected:
            self.fail("replies missing or extra", str(self.replies) + " replies")
            self.before = None
            return
        if expected == 0:
            self.before = None
            return
        last = self.last
        if last.startswith("error: internal error"):
            self.fail("internal errors", last)
        if last.startswith("error:"):
            self.counts["errors"] += 1
            now = self.state()
            if now != self.before:
                self.fail("changed by an error", last)
            self.before = now
            return
        self.before = None  # an accepted command: the state may have changed
        if last == "ok\n" and self.session.game is not None:
            problem = conservation(self.session.game, self.scratch)
            if problem:
                self.fail("cards lost or doubled", problem)


def conservation(game, seen):
    """'' when every card of the game lies in exactly one pile, else what is wrong."""
    for c in range(256):
        seen[c] = 0
    piles = game.piles
    for p in range(piles.count):
        for i in range(piles.size[p]):
            c = piles.card(p, i)
            if seen[c] or not game.is_card(c):
                return "card " + cards.name(c, game.OWNER_SUFFIX) + " twice or foreign"
            seen[c] = 1
    for c in range(256):
        if game.is_card(c) and not seen[c]:
            return "card " + cards.name(c, game.OWNER_SUFFIX) + " lost"
    return ""
