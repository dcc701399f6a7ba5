"""Fuzz the text protocol on CPython and on MicroPython, and compare the two.

    python -m tools.reliability.fuzz [--lines N] [--seed S] [--seconds T] [--runtime both|cpython]
                                     [--micropython unix|wasm]

Random and malformed lines (valid commands and moves of the game at hand, mutated moves, loads
of the state as it stands and of mutated states, numbers in other scripts and past every limit,
deep and long JSON, control characters, bytes that are not UTF-8, long lines) go through
engine_core.protocol.run(), with tools/reliability/fuzz_check.py's checks after every line: one reply per
line, no internal error, the state unchanged after an error, every card in one pile after an
`ok`. The lines are made on CPython (seeded: the same seed gives the same lines) and sent to
MicroPython as the bytes of a serial line; the replies of the two must be identical. MicroPython
is the unix port unless told (--micropython wasm: the WebAssembly build, tools/mpy.py). --seconds
bounds the run: lines stop being made once it has passed (the count says how many ran).
`make soak` runs 100,000 lines (tools/reliability/soak.py), `make test` a short slice
(tests/test_fuzz.py).
"""

import json
import random
import sys
import time

from engine_core import games
from engine_core.protocol import legal_tokens
from tools.reliability.fuzz_check import NAMES, Checker

CHUNK = 2000  # lines per MicroPython run (each run starts a fresh interpreter: ~0.2 G fuel on WebAssembly)
ODD = ("\x00", "\x1b[2J", "\x1c", "\x1f", "\x7f", "\x85", "\u2028", "\u00b2", "\u2460", "\u0663",
       "\uff14", "\ufeff", "\\", "\"", "'", "{", "}", "[", "]", ":", ",", "=", ">", "*", "#", "\t",
       " ", "\r", "\x0b", "\x0c", "-", "0", "9", "é", "\U0001F0A1", "\U0010FFFF")
BAD_BYTES = (b"\xff", b"\xc0\xaf", b"\xed\xa0\x80", b"\xf4\x90\x80\x80", b"\xe2\x82", b"\x80",
             b"\xf8\x88\x80\x80\x80")
NUMBERS = ("0", "1", "-1", "7", "1073741823", "1073741824", "2147483648", "-0", "00", "01",
           "9" * 11, "1" * 4301, "\u00b2", "\u0663", "1e3", "1.5", "+3", " 3", "0x10", "")
WORDS = ("new", "state", "moves", "move", "undo", "hint", "load", "tick", "bots", "auto",
         "finish", "quit")


class Maker:
    """Lines for the fuzzer, made from the session the checker is running (legal moves of the
    game at hand, its state for `load`)."""

    def __init__(self, seed):
        self.rand = random.Random(seed)
        self.names = games.available()
        self.checker = None  # the Checker serving the lines: its session is the one at hand
        self.previous = b"new aces_up"

    def line(self):
        """The next line, as bytes without its newline."""
        rand = self.rand
        k = rand.randrange(100)
        game = self.checker.session.game if self.checker is not None else None
        if k < 8 or game is None and k < 40:
            text = self.new_line()
        elif k < 40 and game is not None:
            tokens = legal_tokens(game)
            text = "move " + rand.choice(tokens) if tokens else "moves"
        elif k < 46:
            text = "move " + self.mutate(rand.choice(legal_tokens(game) or ["deal"]) if game else "col1>col2")
        elif k < 60:
            text = rand.choice(["state", "moves", "hint", "undo", "bots on", "bots off", "auto on",
                                "auto off", "finish", "undo", "moves", "state"])
        elif k < 66:
            text = "tick " + self.tick_ms()
        elif k < 72 and game is not None:
            text = "load " + self.mutated_state(game)
        elif k < 80:
            text = self.odd_number_line()
        elif k < 86:
            return self.mutate_bytes(self.previous)
        elif k < 92:
            text = self.garbage()
        elif k < 95:
            return rand.choice(BAD_BYTES).join(self.garbage().encode().split(b" ", 1) + [b""])
        elif k < 97:
            text = self.deep_json()
        else:
            text = rand.choice(WORDS) + " " + rand.choice(ODD) * rand.choice([61, 300, 5000])
        data = text.encode()
        self.previous = data
        return data

    def new_line(self):
        rand = self.rand
        name = rand.choice(self.names + ["aces-up", "", "chess", "Nerts"])
        parts = ["new", name]
        for option in ("seed", "players", "jokers", "target", "winnable"):
            if rand.random() < 0.4:
                value = str(rand.randrange(1 << 30)) if option == "seed" and rand.random() < 0.7 \
                    else str(rand.randrange(5)) if rand.random() < 0.8 else rand.choice(NUMBERS)
                parts.append(option + "=" + value)
        if rand.random() < 0.05:
            parts.append(rand.choice(["bogus=1", "seed", "=3", "seed==3"]))
        return rand.choice([" ", "\t", "  "]).join(parts)

    def tick_ms(self):
        rand = self.rand
        k = rand.randrange(100)
        if k < 70:
            return str(rand.randrange(2000))
        if k < 85:
            return str(rand.randrange(60000))
        if k < 88:
            return "1073741823"
        return rand.choice(NUMBERS)

    def mutate(self, text):
        rand = self.rand
        chars = list(text)
        for _ in range(rand.randint(1, 3)):
            i = rand.randrange(len(chars) + 1)
            k = rand.randrange(3)
            if k == 0 or not chars:
                chars.insert(i, rand.choice(ODD + tuple("0123456789>*:=.#pSHDCAKQJT")))
            elif k == 1 and i < len(chars):
                del chars[i]
            elif i < len(chars):
                chars[i] = rand.choice(ODD + tuple("0123456789>*:=.#"))
        return "".join(chars)

    def mutate_bytes(self, data):
        rand = self.rand
        data = bytearray(data)
        for _ in range(rand.randint(1, 4)):
            i = rand.randrange(len(data) + 1)
            if rand.random() < 0.5 or not data:
                data[i:i] = bytes([rand.randrange(256)])
            elif i < len(data):
                data[i] = rand.randrange(256)
        return bytes(data).replace(b"\n", b"")

    def mutated_state(self, game):
        from engine_core.protocol import state_json
        rand = self.rand
        text = state_json(game)
        k = rand.randrange(10)
        if k < 3:
            return text  # a valid load: the state as it stands
        state = json.loads(text)
        piles = state["piles"]
        names = list(piles)
        if k < 6:  # cards moved, doubled, dropped or renamed
            a, b = rand.choice(names), rand.choice(names)
            if piles[a]:
                card = piles[a].pop(rand.randrange(len(piles[a])))
                how = rand.randrange(4)
                if how == 0:
                    piles[b].append(card)
                elif how == 1:
                    piles[b] += [card, card]
                elif how == 2:
                    piles[b].append(self.mutate(card))
        elif k < 8:  # another value for a field
            key = rand.choice(list(state))
            state[key] = rand.choice([None, True, -1, 0, 1, 99, 1 << 30, "x", [], {}, "playing",
                                      "p1", "p9", {"p1": 3}, "over", "won", 1073741823])
        else:
            text = self.mutate(text)
            return text
        return json.dumps(state, separators=rand.choice([(",", ":"), (", ", ": ")]))

    def odd_number_line(self):
        rand = self.rand
        number = rand.choice(NUMBERS)
        return rand.choice(["tick ", "new aces_up seed=", "new nerts players=", "new spite_malice target=",
                            "new nerts jokers=", "new casket winnable=1 seed="]) + number

    def garbage(self):
        rand = self.rand
        n = rand.choice([1, 2, 5, 12, 40, 200])
        return "".join(rand.choice(ODD) if rand.random() < 0.5 else chr(rand.randrange(32, 127))
                       for _ in range(n))

    def deep_json(self):
        rand = self.rand
        depth = rand.choice([7, 8, 9, 50, 5000])
        if rand.random() < 0.5:
            return "load " + "[" * depth + "]" * depth
        return "load " + '{"a":' * depth + "1" + "}" * depth


def fuzz_cpython(lines, seed, seconds=0):
    """Make and serve up to `lines` lines on CPython; returns (checker, the lines as bytes,
    the replies)."""
    maker = Maker(seed)
    made = []
    replies = []
    start = time.time()

    def next_line():
        if len(made) >= lines or (seconds and time.time() - start > seconds):
            return ""
        # Each MicroPython run serves CHUNK lines in a fresh interpreter: a `quit` closes every
        # chunk, so that both runtimes start a new session at the same line.
        data = b"quit" if len(made) % CHUNK == CHUNK - 1 else maker.line()
        made.append(data)
        return data.decode("utf-8") + "\n"  # raises UnicodeError, as MicroPython's readline

    checker = Checker(next_line, replies.append)
    maker.checker = checker
    checker.serve()
    return checker, made, replies


# The WebAssembly build's collector can free live objects when it runs inside a call
# (tools/mpy.py): the lines are served from the script's top level, which collects every few
# lines, so that the heap never fills and the collector never runs anywhere else. (The unix
# port does not need this; both runtimes run the same script.)
MPY_FUZZ = """
import gc, sys
from tools.reliability.fuzz_check import Checker, NAMES
out = sys.stdout
checker = Checker(sys.stdin.readline, out.write)
count = 0
while checker.serve_one():
    count += 1
    if count % 8 == 0:
        gc.collect()
out.write("\\n@@counts")
for name in NAMES:
    out.write(" " + str(checker.counts[name]))
out.write("\\n@@first " + checker.first + "\\n")
"""


def fuzz_micropython(made, runtime="unix"):
    """Serve the lines on MicroPython (tools/mpy.py's `runtime`), CHUNK at a time; returns
    (counts, first, replies)."""
    from tools.mpy import run_micropython
    counts = {name: 0 for name in NAMES}
    first = ""
    replies = []
    for at in range(0, len(made), CHUNK):
        chunk = made[at:at + CHUNK]
        result = run_micropython(MPY_FUZZ, b"\n".join(chunk) + b"\n", fuel=10 ** 13, runtime=runtime)
        text = result.stdout
        if result.exit_code != 0 or "\n@@counts" not in text:
            return None, "MicroPython stopped: " + (result.stdout + result.stderr)[-400:], replies
        body, tail = text.rsplit("\n@@counts", 1)
        replies += [line + "\n" for line in body.split("\n")[:-1]]  # each ends in a newline
        values, first_line = tail.split("\n@@first ", 1)
        for name, value in zip(NAMES, values.split()):
            counts[name] += int(value)
        first = first or first_line.strip()
    return counts, first, replies


def fuzz_suite(lines, seed=1, seconds=0, micropython=True, runtime="unix"):
    """The soak's entry: counts, with 'failures' (and 'first'). `runtime`: which MicroPython."""
    checker, made, replies = fuzz_cpython(lines, seed, seconds)
    counts = {"lines": checker.counts["lines"], "errors": checker.counts["errors"]}
    failures = 0
    first = checker.first
    for name in NAMES[3:]:
        failures += checker.counts[name]
    counts["internal errors"] = checker.counts["internal errors"]
    if micropython:
        mpy_counts, mpy_first, mpy_replies = fuzz_micropython(made, runtime)
        if mpy_counts is None:
            failures += 1
            first = first or mpy_first
        else:
            counts["lines on MicroPython"] = mpy_counts["lines"]
            counts["internal errors"] += mpy_counts["internal errors"]
            for name in NAMES[3:]:
                failures += mpy_counts[name]
            first = first or mpy_first
            differ = disagreements(made, replies, mpy_replies)
            counts["runtime disagreements"] = differ[0]
            failures += differ[0]
            first = first or differ[1]
    counts["failures"] = failures
    if first:
        counts["first"] = first
    return counts


def disagreements(made, replies, mpy_replies):
    """How many replies differ between the runtimes, and the first difference."""
    n = 0
    first = ""
    for i in range(max(len(replies), len(mpy_replies))):
        a = replies[i] if i < len(replies) else None
        b = mpy_replies[i] if i < len(mpy_replies) else None
        if a != b:
            n += 1
            if not first:
                first = "reply %d: CPython %r, MicroPython %r" % (i, (a or "")[:100], (b or "")[:100])
    return n, first


def main(argv):
    import argparse
    parser = argparse.ArgumentParser(prog="python -m tools.reliability.fuzz", description=__doc__.split("\n\n")[0])
    parser.add_argument("--lines", type=int, default=10000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--seconds", type=int, default=0)
    parser.add_argument("--runtime", choices=("both", "cpython"), default="both")
    parser.add_argument("--micropython", choices=("unix", "wasm"), default="unix")
    args = parser.parse_args(argv)
    counts = fuzz_suite(args.lines, args.seed, args.seconds, args.runtime == "both", args.micropython)
    print(counts)
    return 1 if counts["failures"] else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
