"""Spite & Malice computer players against each other.

    python -m tools.players.arena spite_malice LEVEL_A LEVEL_B [--games N | --decided N]
        [--first SEED] [--jobs J] [--matches]

LEVEL is 1, 2 or 3 (the bot levels, engine_core/ai/spite_malice.py), or one of the
yardsticks, players with fixed rules that share no code with the levels:
`random`, a uniformly random legal move each time;
`greedy`, the ordinary greedy player (greedy_move):
1. the payoff card, whenever it fits a centre stack (the first that takes it);
2. else any card that fits a centre stack: a side stack's top before a hand card, a card that
   is not a king before a king, the lowest card first (then the first stack), so it completes
   stacks and plays out its hand, which draws five more;
3. else it discards, ending its turn: a card that continues a descending run (onto a side
   stack whose top is one rank higher; the highest such card), else its highest card onto an
   empty side stack, else onto one whose top has the same rank, else onto the side stack with
   the highest top; a king only when the hand holds nothing else.
`aiming`, the payoff-aiming greedy (aiming_move):
1. the payoff card, whenever it fits (the first stack that takes it);
2. else a card that brings a centre stack to one below the payoff card's value, so that the
   payoff card fits next: a side stack's top before a hand card, a king only here (to open
   the payoff card) and after any other card;
3. else a card that is not a king onto the lowest centre stack that takes one (a side stack's
   top before a hand card); it never plays a king otherwise;
4. else it discards as `greedy` does.
`blocking`, the blocking greedy (blocking_move): `aiming`, except that of the plays in its
steps 1-3 it takes one that leaves the fewest centre stacks on which the opponent's payoff card
would fit (a play that opens its own payoff card counted with that card played), and only
then aiming's order; it still plays whenever aiming would.
`chaining`, the chaining greedy (chaining_move): `aiming`, except that its step 2 looks further
ahead: when a centre stack can be built up to one below its payoff card this turn from its hand
and its side stacks' tops (each top once, the cards beneath not counted), with kings filling the
ranks it lacks, it plays the first card of that run (a side stack's top before a hand card, a
king when that rank is lacking); of such stacks, the one needing the fewest kings, then the
shortest run, then the first. It spends kings to open the payoff card, however far off.
`planning`, a player that plans its own turn before each move (tools/players/planner_spite_malice.py):
a search of up to 4,000 positions over its side stacks, its hand, its payoff card and wild
kings, scored by the cards it plays, the kings it spends and the threat to the opponent's
payoff card it leaves.
`cautious`, the reference player of earlier measurements (cautious_move): as greedy, but in
step 2 it plays only cards that keep the stack at or below its payoff card's value (the one
leaving a stack closest below it; a king only when no other card qualifies), and it discards
its highest card onto a side stack of the same rank or else the emptiest.
Each game is one deal, seeds --first, --first + 1, ...; A plays p1 (and so starts) on the
even seeds and p2 on the odd ones, so neither side gains from moving first. With --decided N
it plays on until N games are decided. A game the stock cannot finish is a draw. Prints the
win rate of A with a 95% Wilson interval (and the rate counting
draws as half, and A's share of the decided games), the draws, the average game length in turns
and the average points per won game; for the drawn games, what A still had to do (payoff cards
left) and where the cards that could have fed the stock were held (A's side stacks, the centre,
B's side stacks). With --matches, each unit is a whole match to 50 points instead (`deal` after
each game, the loser starting the next), and the average length is in games.
"""

import argparse
import math
import multiprocessing
import os
import random
import sys
import time
from array import array

from engine_core import PLAYING, games
from tools.players.planner_spite_malice import planning_move

MAX_TURNS = 2000  # a game still going after this many turns counts as a draw (never seen)
LEVELS = ("1", "2", "3", "random", "greedy", "aiming", "blocking", "chaining", "planning", "cautious")
KING = 12
PAYOFF = (5, 11)  # the payoff piles of p1 and p2 (engine_core/games/spite_malice.py)
CENTERS = (1, 2, 3)


def _rank(game, move):
    """The rank of the card a move plays (a hand move carries the card's kind)."""
    src = move >> 16
    if src in (4, 10):
        return (move & 0xFF) % 13
    return game.piles.top(src) % 13


def _discard_key(game, move):
    """The greedy players' order of discards (module docstring, `greedy` 3): lowest first."""
    r = (move & 0xFF) % 13
    dst = (move >> 8) & 0xFF
    top = game.piles.top(dst)
    fit = 3  # the stack with the highest top, last
    if top >= 0 and top % 13 == r + 1:
        fit = 0  # continues a descending run
    elif top < 0:
        fit = 1
    elif top % 13 == r:
        fit = 2
    return (r == KING, fit != 0, -r, fit, -(top % 13 if top >= 0 else 13), dst)


def _discard(game, out, n):
    """The greedy players' discard among the n legal moves in out."""
    best = -1
    best_key = None
    for i in range(n):
        m = out[i]
        if (m >> 8) & 0xFF not in CENTERS:
            k = _discard_key(game, m)
            if best_key is None or k < best_key:
                best, best_key = m, k
    return best


def greedy_move(game, out):
    """The ordinary greedy player's next move (module docstring, `greedy` 1-3)."""
    n = game.legal_moves(out)
    player = game.turn()
    payoff = PAYOFF[player]
    hand = 4 + 6 * player
    best = -1
    best_key = None
    for i in range(n):
        m = out[i]
        src = m >> 16
        dst = (m >> 8) & 0xFF
        if dst in CENTERS:
            if src == payoff:
                return m
            r = _rank(game, m)
            k = (src == hand, r == KING, r, src, dst)
            if best_key is None or k < best_key:
                best, best_key = m, k
    return best if best >= 0 else _discard(game, out, n)


def _openings(sizes, rank):
    """How many centre stacks of these sizes take a payoff card of this rank (-1: none)."""
    if rank < 0:
        return 0
    if rank == KING:
        return 3
    return sum(1 for s in sizes if s == rank)


def aiming_move(game, out, block=False):
    """The payoff-aiming greedy player's next move (module docstring, `aiming`); with block,
    the blocking greedy's (`blocking`)."""
    n = game.legal_moves(out)
    piles = game.piles
    player = game.turn()
    hand = 4 + 6 * player
    want = piles.top(PAYOFF[player]) % 13
    theirs = piles.top(PAYOFF[1 - player])
    theirs = theirs % 13 if theirs >= 0 else -1
    sizes = [piles.size[k] for k in CENTERS]
    payoff_plays = []
    candidates = []  # (aiming's order, the stack sizes once the play is through, move)
    for i in range(n):
        m = out[i]
        src = m >> 16
        dst = (m >> 8) & 0xFF
        if dst not in CENTERS:
            continue
        after = list(sizes)
        after[dst - 1] = (after[dst - 1] + 1) % 12
        if src == PAYOFF[player]:
            payoff_plays.append((_openings(after, theirs), len(payoff_plays), m))
            continue
        r = _rank(game, m)
        if want != KING and after[dst - 1] == want:
            # it opens the payoff card, which then goes onto this stack
            after[dst - 1] = (want + 1) % 12
            candidates.append(((0, src == hand, r == KING, dst), after, m))
        elif r != KING:
            candidates.append(((1, sizes[dst - 1], src == hand, dst), after, m))
    if payoff_plays:
        return min(payoff_plays)[2] if block else payoff_plays[0][2]
    if not candidates:
        return _discard(game, out, n)
    if not block:
        return min(candidates)[2]
    return min((_openings(after, theirs), key, m) for key, after, m in candidates)[2]


def blocking_move(game, out):
    """The blocking greedy player's next move (module docstring, `blocking`)."""
    return aiming_move(game, out, True)


def chaining_move(game, out):
    """The chaining greedy player's next move (module docstring, `chaining`)."""
    n = game.legal_moves(out)
    piles = game.piles
    player = game.turn()
    payoff = PAYOFF[player]
    want = piles.top(payoff) % 13
    if want == KING or want == 0:
        return aiming_move(game, out)  # a king or an ace fits now or never needs a run
    for i in range(n):
        if out[i] >> 16 == payoff and (out[i] >> 8) & 0xFF in CENTERS:
            return out[i]
    hand = 4 + 6 * player
    sides = [6 + 6 * player + j for j in range(4)]
    have = [piles.card(hand, i) % 13 for i in range(piles.size[hand])]
    have += [piles.top(s) % 13 for s in sides if piles.size[s]]
    kings = have.count(KING)
    best = None  # (kings needed, run length, stack)
    for dst in CENTERS:
        size = piles.size[dst]
        if size >= want:
            continue
        left = list(have)
        missing = 0
        for r in range(size, want):
            if r in left:
                left.remove(r)
            else:
                missing += 1
        if missing <= kings and (best is None or (missing, want - size, dst) < best):
            best = (missing, want - size, dst)
    if best is None:
        return aiming_move(game, out)
    dst = best[2]
    first = piles.size[dst]  # the rank the stack takes next
    plays = []  # (order, move): the run's first card, side tops before hand cards, a king last
    for i in range(n):
        m = out[i]
        if (m >> 8) & 0xFF != dst:
            continue
        r = _rank(game, m)
        if r == first or r == KING:
            plays.append(((r == KING, m >> 16 == hand, m >> 16), m))
    return min(plays)[1]


def cautious_move(game, out):
    """The cautious reference player's next move (module docstring, `cautious`)."""
    n = game.legal_moves(out)
    piles = game.piles
    player = game.turn()
    payoff = PAYOFF[player]
    want = piles.top(payoff) % 13  # the value a centre stack needs for the payoff card
    best = -1
    best_key = None
    discard = -1
    discard_key = None
    for i in range(n):
        m = out[i]
        src = m >> 16
        dst = (m >> 8) & 0xFF
        if dst in CENTERS:
            if src == payoff:
                return m
            size = piles.size[dst] + 1  # the stack's value after the play
            if want == KING or size > want:
                continue
            r = _rank(game, m)
            k = (r == KING, want - size, src != 4 + 6 * player)
            if best_key is None or k < best_key:
                best, best_key = m, k
        else:
            r = _rank(game, m)
            top = piles.top(dst)
            same = top >= 0 and top % 13 == r
            k = (r == KING, -r, not same, piles.size[dst], dst)
            if discard_key is None or k < discard_key:
                discard, discard_key = m, k
    return best if best >= 0 else discard


REFERENCE = {"greedy": greedy_move, "aiming": aiming_move, "blocking": blocking_move, "chaining": chaining_move,
             "planning": planning_move, "cautious": cautious_move}


def play_game(level_a, level_b, seed):
    """(winner 'a'/'b'/None, turns, points, payoff cards played by a, by b) of one deal."""
    cls = games.load("spite_malice")
    game = cls(2)
    game.bots = False
    game.deal(seed)
    out = array("i", [0] * cls.MAX_MOVES)
    rnd = random.Random(seed)
    a_seat = seed % 2  # 0: A is p1
    levels = (level_a, level_b) if a_seat == 0 else (level_b, level_a)
    turns = 0
    while game.status() == PLAYING and turns < MAX_TURNS:
        player = game.turn()
        level = levels[player]
        if level == "random":
            while game.status() == PLAYING and game.turn() == player:
                n = game.legal_moves(out)
                game.apply(out[rnd.randrange(n)])
        elif level in REFERENCE:
            choose = REFERENCE[level]
            while game.status() == PLAYING and game.turn() == player:
                game.apply(choose(game, out))
        else:
            game.bot.play_turn(game, int(level))
        turns += 1
    piles = game.piles
    payoff_left = (piles.size[5], piles.size[11])
    winner = None
    points = 0
    for p in range(2):
        if game.score(p) > 0:
            winner = "a" if p == a_seat else "b"
            points = game.score(p)
    held = (sum(piles.size[6 + 6 * a_seat + j] for j in range(4)),
            sum(piles.size[1 + k] for k in range(3)),
            sum(piles.size[12 - 6 * a_seat + j] for j in range(4)))
    return winner, turns, points, 20 - payoff_left[a_seat], 20 - payoff_left[1 - a_seat], held


MAX_GAMES_PER_MATCH = 500  # a match of nothing but draws stops here (counted as a draw)


def play_match(level_a, level_b, seed):
    """(winner 'a'/'b'/None, games, points of the winner, 0, 0) of one match to 50 points."""
    cls = games.load("spite_malice")
    game = cls(2)
    game.bots = False
    game.deal(seed)
    out = array("i", [0] * cls.MAX_MOVES)
    rnd = random.Random(seed)
    a_seat = seed % 2
    levels = (level_a, level_b) if a_seat == 0 else (level_b, level_a)
    played = 1
    while played < MAX_GAMES_PER_MATCH:
        turns = 0
        while game.status() == PLAYING and turns < MAX_TURNS:
            player = game.turn()
            if levels[player] == "random":
                while game.status() == PLAYING and game.turn() == player:
                    game.apply(out[rnd.randrange(game.legal_moves(out))])
            elif levels[player] in REFERENCE:
                while game.status() == PLAYING and game.turn() == player:
                    game.apply(REFERENCE[levels[player]](game, out))
            else:
                game.bot.play_turn(game, int(levels[player]))
            turns += 1
        if game.legal_moves(out) != 1:  # no 'deal': the match is over
            break
        game.apply(out[0])
        played += 1
    winner = None
    points = 0
    for p in range(2):
        if game.score(p) >= game.target:
            winner = "a" if p == a_seat else "b"
            points = game.score(p)
    return winner, played, points, 0, 0, None


def _job(args):
    if args[3]:
        return play_match(args[0], args[1], args[2])
    return play_game(args[0], args[1], args[2])


def wilson(wins, n, z=1.96):
    """The 95% Wilson score interval of a proportion."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    d = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / d
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return centre - half, centre + half


def progress(done, total, start):
    width = 40
    filled = width * done // total
    rate = done / max(time.time() - start, 1e-9)
    sys.stderr.write("\r[%s%s] %d/%d  %.0f/s " % ("#" * filled, "." * (width - filled), done, total, rate))
    sys.stderr.flush()


def run(level_a, level_b, count, seed=0, jobs=0, show_progress=True, matches=False, decided=0):
    """Play `count` games (or matches) on seeds seed, seed + 1, ...; with `decided`, as many
    as it takes for that many decided ones (count is then ignored). Returns the figures."""
    results = []
    start = time.time()
    jobs = jobs or os.cpu_count() or 1
    pool = multiprocessing.Pool(jobs) if jobs > 1 else None
    next_seed = seed
    total = decided or count
    try:
        while True:
            done = sum(1 for r in results if r[0] is not None) if decided else len(results)
            if done >= total:
                break
            # each game decides at most once: a batch of what is missing never overshoots
            tasks = [(level_a, level_b, next_seed + i, matches) for i in range(total - done)]
            next_seed += len(tasks)
            batch = pool.imap_unordered(_job, tasks, chunksize=4) if pool else map(_job, tasks)
            for r in batch:
                results.append(r)
                if show_progress:
                    progress(min(len(results), total), total, start)
    finally:
        if pool:
            pool.close()
    if show_progress:
        sys.stderr.write("\n")
    count = len(results)
    wins = sum(1 for r in results if r[0] == "a")
    losses = sum(1 for r in results if r[0] == "b")
    draws = count - wins - losses
    won_points = [r[2] for r in results if r[0] is not None]
    return {
        "matches": matches, "first": seed, "last": next_seed - 1,
        "games": count, "wins": wins, "losses": losses, "draws": draws,
        "win_rate": wins / count, "interval": wilson(wins, count),
        "decided_rate": wins / max(wins + losses, 1), "decided_interval": wilson(wins, wins + losses),
        "score_rate": (wins + draws / 2) / count,
        "turns": sum(r[1] for r in results) / count,
        "points": sum(won_points) / len(won_points) if won_points else 0.0,
        "payoff_a": sum(r[3] for r in results) / count,
        "payoff_b": sum(r[4] for r in results) / count,
        "drawn": drawn_figures([r for r in results if r[0] is None and r[5] is not None]),
    }


def drawn_figures(drawn):
    """(A's payoff cards left: median, lower and upper quartile; average cards held in A's side
    stacks, the centre, B's side stacks) over the drawn games, or None when there are none."""
    if not drawn:
        return None
    left = sorted(20 - r[3] for r in drawn)
    n = len(left)
    return (left[n // 2], left[n // 4], left[(3 * n) // 4],
            sum(r[5][0] for r in drawn) / n, sum(r[5][1] for r in drawn) / n, sum(r[5][2] for r in drawn) / n)


def report(level_a, level_b, f):
    low, high = f["interval"]
    lines = [
        "%s vs %s: %d %s, seeds %d-%d (A plays p1 on even seeds)" % (
            level_a, level_b, f["games"], "matches to 50 points" if f["matches"] else "games", f["first"], f["last"]),
        "  A wins %d, B wins %d, draws %d" % (f["wins"], f["losses"], f["draws"]),
        "  A win rate %.1f%% (95%% CI %.1f-%.1f%%); counting draws as half, %.1f%%" % (
            100 * f["win_rate"], 100 * low, 100 * high, 100 * f["score_rate"]),
        "  of the decided ones, A won %.1f%% (95%% CI %.1f-%.1f%%)" % (
            100 * f["decided_rate"], 100 * f["decided_interval"][0], 100 * f["decided_interval"][1]),
    ]
    if f["matches"]:
        lines.append("  average match length %.1f games; average points of the winner %.1f" % (f["turns"], f["points"]))
    else:
        lines.append("  average game length %.1f turns; average points per won game %.1f" % (f["turns"], f["points"]))
        lines.append("  payoff cards played per game: A %.1f, B %.1f" % (f["payoff_a"], f["payoff_b"]))
        if f["drawn"]:
            lines.append("  drawn games: A had %d payoff cards left (median; quartiles %d-%d); cards held"
                         " at the draw: %.1f in A's side stacks, %.1f in the centre, %.1f in B's side"
                         " stacks" % f["drawn"])
    return "\n".join(lines)


def main(argv):
    parser = argparse.ArgumentParser(prog="arena.py spite_malice", description=__doc__.split("\n")[0])
    parser.add_argument("level_a", choices=LEVELS)
    parser.add_argument("level_b", choices=LEVELS)
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--first", "--seed", dest="first", type=int, default=0,
                        help="seed of the first deal (default 0): measure on seeds no tuning used")
    parser.add_argument("--decided", type=int, default=0,
                        help="play on until this many games are decided (instead of --games)")
    parser.add_argument("--jobs", type=int, default=0, help="worker processes (default: one per core)")
    parser.add_argument("--matches", action="store_true", help="play whole matches to 50 points")
    args = parser.parse_args(argv)
    if args.games < 1 or args.decided < 0:
        parser.error("--games must be at least 1, --decided at least 0")
    figures = run(args.level_a, args.level_b, args.games, args.first, args.jobs, matches=args.matches,
                  decided=args.decided)
    print(report(args.level_a, args.level_b, figures))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
