"""Play any game through the text protocol on stdin/stdout (docs/protocol.md).

    python -m tools.play
    new aces_up seed=7
    moves
"""

import sys


from engine_core.protocol import run


def main():
    def read_line():
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
