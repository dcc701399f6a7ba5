"""What `load` accepts and what play reaches must agree: a property check for every game.

    python -m tools.reliability.roundtrip [STEPS] [SEED]

For every game and player count: random play; at every step the state is loaded into a new
session and must give back the same state; then the position is mutated (a card moved from
one pile to another), and when `load` accepts the mutant, every legal move is made from it and
the state it leads to must load again. Runs unchanged on MicroPython (no random module, no
json: the engine's own generator and the protocol's reader), where tests/test_roundtrip.py
runs it too. Prints one line per game, then the failures (at most 5 of each game).
"""

import sys

from engine_core import PLAYING, games, rng
from engine_core.game import V_SCORE, V_STATUS, V_TURN
from engine_core.protocol import ProtocolSession, legal_tokens, state_json

WALK = 12


def session_of(text):
    s = ProtocolSession()
    s.command("bots off")
    reply = s.command("load " + text)
    return s, reply


def mutant(game, x):
    """The state JSON of `game` with up to 20 cards moved from one pile to another (or None)."""
    piles = game.piles
    n = piles.count
    src = x % n
    x = rng.step(x)
    dst = x % n
    x = rng.step(x)
    count = 1 + x % (20 if x % 3 == 0 else 2)
    if x % 5 == 0:
        return other_vars(game, x)
    if src == dst:
        return None
    moved = 0
    while moved < count and piles.size[src] > 0 and piles.size[dst] < piles.cap[dst]:
        piles.push(dst, piles.pop(src))
        moved += 1
    if moved == 0:
        return None
    text = state_json(game)
    for _ in range(moved):
        piles.push(src, piles.pop(dst))
    return text


def other_vars(game, x):
    """The state JSON of `game` with another status, player to move or score."""
    keep = [game.vars[V_STATUS], game.vars[V_TURN], game.vars[V_SCORE]]
    x = rng.step(x)
    game.vars[V_STATUS] = x % 4
    if game.TURN_BASED:
        game.vars[V_TURN] = (x >> 2) % game.players
    if game.COMPETITIVE:
        game.vars[V_SCORE] = (x >> 4) % 120 - 10
    text = state_json(game)
    game.vars[V_STATUS] = keep[0]
    game.vars[V_TURN] = keep[1]
    game.vars[V_SCORE] = keep[2]
    return text


def check_moves_from(text, x, failures, limit):
    """Every legal move from the loaded position, and a random walk of WALK moves from it,
    lead to states that load again."""
    s, reply = session_of(text)
    if reply != "ok":
        return 0
    count = 0
    for token in legal_tokens(s.game):
        t, _ = session_of(text)
        if t.command("move " + token) != "ok":
            continue
        count += 1
        check_loads(t, text + " | move " + token, failures, limit)
    for _ in range(WALK):
        tokens = legal_tokens(s.game)
        if not tokens:
            break
        x = rng.step(x)
        s.command("move " + tokens[x % len(tokens)])
        count += 1
        check_loads(s, text + " | walk ... " + tokens[x % len(tokens)], failures, limit)
    return count


def check_loads(s, how, failures, limit):
    after = s.command("state")
    reply = session_of(after)[1]
    if reply != "ok" and len(failures) < limit:
        failures.append(how + " | " + after + " | " + reply)


def run(name, players, steps, seed, limit=5):
    """(positions checked, mutants loaded, moves from mutants, failures) for one game."""
    s = ProtocolSession()
    s.command("bots off")
    s.command("new " + name + " players=" + str(players) + " seed=" + str(seed))
    x = rng.seed_state(seed + 1)
    failures = []
    checked = 0
    loaded = 0
    moved = 0
    for step in range(steps):
        text = s.command("state")
        t, reply = session_of(text)
        checked += 1
        again = t.command("state") if reply == "ok" else reply
        if again != text and len(failures) < limit:
            failures.append("round trip: " + text + " | " + again)
        x = rng.step(x)
        bad = mutant(t.game, x) if reply == "ok" else None
        if bad is not None:
            moved += check_moves_from(bad, x, failures, limit)
            if session_of(bad)[1] == "ok":
                loaded += 1
        tokens = legal_tokens(s.game)
        x = rng.step(x)
        if s.game.status() != PLAYING and "deal" not in tokens:
            s.command("new " + name + " players=" + str(players) + " seed=" + str(seed + step + 1))
        elif tokens:
            s.command("move " + tokens[x % len(tokens)])
        else:
            s.command("tick 1000")
    return checked, loaded, moved, failures


def main(steps=40, seed=1):
    total = 0
    for name in games.available():
        cls = games.load(name)
        for players in range(cls.MIN_PLAYERS, cls.MAX_PLAYERS + 1):
            checked, loaded, moved, failures = run(name, players, steps, seed)
            total += len(failures)
            print(name, players, checked, loaded, moved, len(failures))
            for f in failures:
                print("  " + f)
    print("failures", total)
    return total


if __name__ == "__main__":
    if "--help" in sys.argv or "-h" in sys.argv:
        print(__doc__)
        sys.exit(0)
    args = [int(a) for a in sys.argv[1:]]
    sys.exit(1 if main(*args) else 0)
