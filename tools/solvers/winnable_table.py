"""Write engine_core/ai/winnable_GAME.py: the proven-winnable seeds as a bitmap."""

import os

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

TEMPLATE = '''"""Proven-winnable %(game)s deals: written by `python -m tools.solvers.stats %(game)s --deals %(deals)d
--write-table` (every seed here was won by the solver and the win replayed on the engine).
Bit i (byte i >> 3, bit i & 7) is set when seed FIRST + i, dealt by the generator GENERATOR
(engine_core/rng.py), can be won under rule profile RULES. See winnable.py.
"""

GENERATOR = "%(generator)s"
RULES = %(rules)d
FIRST = %(first)d
DEALS = %(deals)d
COUNT = %(count)d
BITS = %(bits)s
'''


def bitmap(first, seeds, deals):
    bits = bytearray((deals + 7) // 8)
    for s in seeds:
        i = s - first
        bits[i >> 3] |= 1 << (i & 7)
    return bytes(bits)


def write(game, first, seeds, deals):
    path = os.path.join(ROOT, "engine_core", "ai", "winnable_%s.py" % game)
    from engine_core import games, rng
    text = TEMPLATE % {"game": game, "generator": rng.NAMES[rng.SPECTRAL], "rules": games.load(game).RULES_VERSION,
                       "first": first, "deals": deals, "count": len(seeds),
                       "bits": wrap(repr(bitmap(first, seeds, deals)))}
    with open(path, "w") as f:
        f.write(text)
    return path


def wrap(literal, width=96):
    """A long bytes literal split over lines inside parentheses."""
    body = literal[2:-1]
    quote = literal[-1]
    parts = []
    while body:
        cut = min(width, len(body))
        while cut < len(body) and body[cut - 1] == "\\" or _inside_escape(body, cut):
            cut -= 1
        parts.append("    b" + quote + body[:cut] + quote)
        body = body[cut:]
    return "(\n" + "\n".join(parts) + "\n)"


def _inside_escape(body, cut):
    """True when cutting at `cut` would split an escape like \\x0f or \\n."""
    i = body.rfind("\\", max(0, cut - 4), cut)
    if i < 0:
        return False
    # count backslashes before i: an escaped backslash is not an escape start
    j = i
    while j > 0 and body[j - 1] == "\\":
        j -= 1
    if (i - j) % 2 == 1:
        return False
    nxt = body[i + 1] if i + 1 < len(body) else ""
    length = 4 if nxt == "x" else 2
    return cut < i + length
