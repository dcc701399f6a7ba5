"""Play any game through the text protocol on stdin/stdout (docs/protocol.md).

    python -m tools.play
    new aces_up seed=7
    moves

At a terminal it greets with a banner and prompts with '> '; piped, it speaks only the
protocol, one response line per command.
"""

import sys


from engine_core.protocol import run


BANNER = ("Pocket card console: the text protocol (docs/protocol.md).\n"
          "Type 'help' for the commands, 'new aces_up' to deal a game, 'quit' to leave.\n")
PROMPT = "> "


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

    run(read_line, write)


if __name__ == "__main__":
    from tools.cli import help_or_go
    help_or_go(__doc__, '-m tools.play   (the text protocol on stdin/stdout: docs/protocol.md)')
    main()
