"""Engine invariants over random play, the undo journal, and the generator."""

import random
from array import array

import pytest

from engine_core import PLAYING, cards, games, rng
from engine_core import history as journal
from engine_core.game import HISTORY_SIZE
from engine_core.history import History

GAMES = games.available()


def snapshot(game):
    """Everything that defines a position: pile contents and the journaled variables."""
    piles = game.piles
    return ([bytes(piles.cards[piles.start[p]:piles.start[p] + piles.size[p]]) for p in range(piles.count)],
            list(game.vars))


def every_card_once(game):
    seen = []
    piles = game.piles
    for p in range(piles.count):
        seen += [piles.card(p, i) for i in range(piles.size[p])]
    expected = [c for c in range(256) if game.is_card(c)]
    return sorted(seen) == expected


def random_games(name, seeds, rnd):
    cls = games.load(name)
    out = array("i", [0] * cls.MAX_MOVES)
    for seed in seeds:
        game = cls(cls.MIN_PLAYERS)
        game.bots = False  # every player's moves come from here (with bots on p2's are replies)
        game.deal(seed)
        for _ in range(400):
            if game.status() != PLAYING:
                break
            n = game.legal_moves(out)
            if n == 0:
                break
            yield game, out, n


@pytest.mark.parametrize("name", GAMES)
def test_every_card_is_somewhere_exactly_once_and_undo_restores_the_exact_state(name):
    rnd = random.Random(5)
    steps = 0
    for game, out, n in random_games(name, range(30), rnd):
        assert every_card_once(game)
        before = snapshot(game)
        move = out[rnd.randrange(n)]
        assert 0 <= move < 1 << 24
        game.apply(move)
        assert every_card_once(game)
        barrier = game.UNDO_BARRIERS and not game.can_undo()  # e.g. the end of a turn
        if rnd.random() < 0.3 and not barrier:
            assert game.undo()
            assert snapshot(game) == before
            game.apply(move)
        steps += 1
    assert steps > 500


@pytest.mark.parametrize("name", GAMES)
def test_undo_all_the_way_back_restores_the_deal(name):
    cls = games.load(name)
    out = array("i", [0] * cls.MAX_MOVES)
    rnd = random.Random(3)
    for seed in range(10):
        game = cls(cls.MIN_PLAYERS)
        game.deal(seed)
        start = snapshot(game)
        count = 0
        # as long as the journal holds every move (a move journals at most a few dozen entries)
        while game.status() == PLAYING and count < 300 and game.history.used < game.JOURNAL_SIZE - 64:
            n = game.legal_moves(out)
            if n == 0:
                break
            game.apply(out[rnd.randrange(n)])
            count += 1
            if game.UNDO_BARRIERS and not game.can_undo():
                start = snapshot(game)  # undo stops at this move (e.g. the end of a turn)
                count = 0
        for _ in range(count):
            assert game.undo()
        assert not game.undo()
        assert snapshot(game) == start


@pytest.mark.parametrize("name", GAMES)
def test_every_legal_move_has_a_token_that_parses_back_to_it(name):
    rnd = random.Random(8)
    for game, out, n in random_games(name, range(10), rnd):
        for i in range(n):
            token = game.move_token(out[i])
            assert game.parse_move(token) == out[i], token
        game.apply(out[rnd.randrange(n)])


# The undo journal

def test_history_forgets_the_oldest_moves_when_full_and_keeps_the_newest():
    hist = History(10)
    for move in range(6):
        hist.begin(move)
        hist.note_push(0, move)  # one change per move: two entries a move
    assert hist.moves == 5 and hist.used == 10
    assert hist.last_move() == 5
    for move in (5, 4, 3, 2, 1):
        assert hist.pop_entry() == journal.push_entry(0, move)
        assert hist.pop_entry() == journal.mark_entry(move)
        hist.moves -= 1
    assert hist.used == 0 and hist.moves == 0


def test_undo_survives_a_game_longer_than_the_journal():
    cls = games.load("aces_up")
    game = cls()
    game.deal(4)
    # Move a card back and forth between two empty columns far more often than the journal holds.
    game.piles.clear()
    for c in range(52):
        game.piles.push(0, c)
    game.piles.move(0, 1, 2)
    game.history.clear()
    code_a = 1 << 16 | 2 << 8
    code_b = 2 << 16 | 1 << 8
    for i in range(HISTORY_SIZE):
        game.apply(code_a if i % 2 == 0 else code_b)
    undone = 0
    while game.undo():
        undone += 1
    assert 0 < undone < HISTORY_SIZE
    assert every_card_once(game)


# The generator

def test_generator_constants_are_a_full_period_lehmer_generator():
    m, a = rng.M, rng.A
    assert m == 2**30 - 35 and all(m % d for d in range(2, int(m ** 0.5) + 1, 1) if d < 40000)
    assert rng._Q == m // a and rng._R == m % a and rng._R < rng._Q
    for p in (2, 7, 2341, 16381):  # the prime factors of m - 1
        assert pow(a, (m - 1) // p, m) != 1


def test_generator_step_equals_the_plain_formula_and_stays_below_2_30():
    x = rng.seed_state(0)
    for _ in range(10000):
        y = rng.step(x)
        assert y == a_times(x) and 0 < y < 2**30
        x = y


def a_times(x):
    return rng.A * x % rng.M


def test_seeds_give_different_deals_and_the_same_seed_the_same_deal():
    cls = games.load("aces_up")
    decks = set()
    for seed in range(200):
        g = cls()
        g.deal(seed)
        decks.add(bytes(g.piles.cards))
    assert len(decks) == 200
    g1, g2 = cls(), cls()
    g1.deal(77)
    g2.deal(77)
    assert snapshot(g1) == snapshot(g2)


def test_shuffle_is_a_permutation_and_roughly_uniform():
    counts = [0] * 4
    for seed in range(4000):
        buf = bytearray(range(4))
        rng.shuffle(buf, 0, 4, rng.seed_state(seed))
        assert sorted(buf) == [0, 1, 2, 3]
        counts[buf[0]] += 1
    assert all(850 < c < 1150 for c in counts), counts


def test_card_ids_names_and_kinds():
    assert cards.name(cards.make(0, cards.HEARTS, 6)) == "7H"
    assert cards.name(cards.make(2, cards.SPADES, 0), owner_suffix=True) == "AS3"
    assert cards.name(cards.joker(1, 0), owner_suffix=True) == "JK2"
    assert cards.parse_kind("TD") == cards.make(0, cards.DIAMONDS, 9)
    assert cards.parse_kind("1D") == -1 and cards.parse_kind("JK") == cards.KIND_JOKER
    assert cards.is_red(cards.make(0, cards.DIAMONDS, 3)) and not cards.is_red(cards.make(1, cards.CLUBS, 3))
    assert cards.joker(3, 1) < cards.NO_CARD


def test_undo_restores_a_generator_state_that_uses_all_30_bits():
    from engine_core.game import V_RNG
    game = games.load("aces_up")()
    game.deal(1)
    for state in (rng.M - 1, 1 << 29, (1 << 29) - 1, 1):
        game.vars[V_RNG] = state
        game.history.begin(0)
        game.random_below(52)
        assert game.vars[V_RNG] != state
        assert game.undo()
        assert game.vars[V_RNG] == state
