"""Play any game through the text protocol on stdin/stdout (docs/protocol.md).

    python -m tools.play
    new aces_up             a random deal; its number goes to stderr ("deal 4711 ...")
    new aces_up seed=7      deal 7, the same every time
    show                    the table in text: every pile with its cards
    moves

At a terminal it greets with a banner and prompts with '> '; piped, it speaks only the
protocol, one response line per command on stdout (`show` answers with several lines).
"""

import json
import random
import sys

from engine_core.protocol import HELP, ProtocolSession, run
from engine_core.text import split_words

BANNER = ("Pocket card console: the text protocol (docs/protocol.md).\n"
          "Type 'help' for the commands, 'new aces_up' to deal a game, 'show' to see the table,"
          " 'quit' to leave.\n")
PROMPT = "> "
DEALS = 10000000  # a random deal's number is below this, as the console's own (the deal screen's X)
PLAY_HELP = HELP.replace(" | help |", " | show | help |")


class PlaySession(ProtocolSession):
    """The protocol with two things for a person at the keyboard: `new GAME` without a seed
    deals a random one and says which (on `note`, stderr: stdout keeps the protocol's one line
    per command), and `show` draws the table in text."""

    def __init__(self, note=None, numbers=None):
        ProtocolSession.__init__(self)
        self.note = note or (lambda text: None)
        self.numbers = numbers or random.SystemRandom()

    def command(self, line):
        words = split_words(line, 1)
        word = words[0] if words else ""
        rest = words[1] if len(words) > 1 else ""
        if word == "help" and not rest:
            return PLAY_HELP
        if word == "show":
            if rest:
                return "error: show takes no argument"
            if self.game is None:
                return "error: no game: start one with 'new GAME'"
            return show(json.loads(ProtocolSession.command(self, "state")))
        if word == "new" and rest and not any(w.startswith("seed=") for w in split_words(rest)):
            seed = self.numbers.randrange(DEALS)
            reply = ProtocolSession.command(self, line + " seed=%d" % seed)
            if reply == "ok":
                state = json.loads(ProtocolSession.command(self, "state"))
                self.note("deal %d: 'new %s seed=%d' deals it again" % (state["seed"], rest, seed))
            return reply
        return ProtocolSession.command(self, line)


def cards_text(cards):
    """A pile's cards bottom to top: the face-down ones counted ('(12 down)'), the face-up ones
    by name ('7H', in Nerts with the owner: '7H2'); '-' for an empty pile."""
    down = sum(1 for card in cards if card.startswith("#"))
    parts = []
    if down:
        parts.append("(%d down)" % down)
    parts.extend(card for card in cards if not card.startswith("#"))
    return " ".join(parts) if parts else "-"


def show(state):
    """The table in text, from a state (the protocol's JSON, parsed): a heading (the game, the
    deal, whose turn, the score) and one line per pile, its name and its cards."""
    head = "%s  deal %d  rules %d  %s" % (state["game"], state["seed"], state["rules"], state["status"])
    if state.get("turn"):
        head += "  turn " + state["turn"]
    if state.get("score"):
        head += "  score " + " ".join("%s %d" % (who, n) for who, n in sorted(state["score"].items()))
    piles = state["piles"]
    width = max([len(name) for name in piles] + [4])
    lines = [head]
    for name, cards in piles.items():
        lines.append("  %-*s  %s" % (width, name, cards_text(cards)))
    return "\n".join(lines)


def main():
    interactive = sys.stdin.isatty()
    if interactive:
        sys.stdout.write(BANNER)

    def read_line():
        if interactive:
            sys.stdout.write(PROMPT)
            sys.stdout.flush()
        # Each line decoded on its own, as MicroPython does: bytes that are not UTF-8 raise
        # UnicodeError for that line only, and run() answers it with an error.
        return sys.stdin.buffer.readline().decode("utf-8")

    def write(text):
        sys.stdout.write(text)
        sys.stdout.flush()

    def note(text):
        sys.stdout.flush()
        sys.stderr.write(text + "\n")
        sys.stderr.flush()

    run(read_line, write, PlaySession(note))


if __name__ == "__main__":
    from tools.cli import help_or_go
    help_or_go(__doc__, '-m tools.play   (the text protocol on stdin/stdout: docs/protocol.md)')
    main()
