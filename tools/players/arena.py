"""Computer players against each other: python -m tools.players.arena GAME [options].

Each competitive game has its own arena module (tools/arena_GAME.py with main(argv)); this
entry point picks it by the game's name and passes the remaining arguments on.
"""

import importlib
import sys


def main(argv):
    if argv and argv[0] in ("-h", "--help"):
        print(__doc__.strip())
        return 0
    if not argv:
        sys.exit("usage: python -m tools.players.arena GAME [options]   (GAME: spite_malice or nerts;"
                 " 'python -m tools.players.arena GAME --help' for its options)")
    try:
        module = importlib.import_module("tools.players.arena_" + argv[0])
    except ImportError:
        sys.exit("no arena for '%s'" % argv[0])
    return module.main(argv[1:])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
