"""--help for the tools that take no options parser: each answers it and does nothing else
(a bench or tools/screenshots.py run in full, or writes files, only when asked to)."""

import sys


def help_or_go(doc, usage):
    """With -h or --help among the arguments: print the usage and the module's docstring, and
    exit 0 before the tool does anything."""
    args = sys.argv[1:]
    if "-h" in args or "--help" in args:
        print("usage: python " + usage)
        print()
        print((doc or "").strip())
        sys.exit(0)
