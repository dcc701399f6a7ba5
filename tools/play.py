"""Play any game through the text protocol on stdin/stdout (shared/PROTOCOL.md).

    python tools/play.py
    new aces_up seed=7
    moves
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from engine_core.protocol import run  # noqa: E402


def main():
    def write(text):
        sys.stdout.write(text)
        sys.stdout.flush()

    run(sys.stdin.readline, write)


if __name__ == "__main__":
    main()
