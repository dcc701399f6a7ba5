"""moves_of(player): what the console's player may do, cheaper than every player's moves."""

import random
from array import array

from engine_core import PLAYING, games


def test_nerts_moves_of_a_player_are_exactly_that_players_legal_moves_and_is_legal_agrees():
    cls = games.load("nerts")
    rnd = random.Random(4)
    every = array("i", [0] * cls.MAX_MOVES)
    mine = array("i", [0] * cls.MAX_MOVES)
    checked = 0
    for seed in range(6):
        game = cls(3)
        game.bots = False
        game.deal(seed)
        for _ in range(150):
            n = game.legal_moves(every)
            if n == 0:
                break
            for player in range(3):
                prefix = "p%d" % (player + 1)
                expected = sorted(game.move_token(every[i]) for i in range(n)
                                  if game.move_token(every[i]).startswith(prefix + ".")
                                  or game.move_token(every[i]).startswith(prefix + ":"))
                k = game.moves_of(player, mine)
                assert k <= game.seat_max_moves()  # the size of the table's and the scratch array
                assert sorted(game.move_token(mine[i]) for i in range(k)) == expected
                checked += 1
            for i in range(n):  # is_legal looks only at the mover's moves
                assert game.is_legal(every[i]) and game.mover(every[i]) == int(game.move_token(every[i])[1]) - 1
            listed = set(every[i] for i in range(n))
            for player in range(3):  # a flip or a call is decided from pile sizes: the same answer
                for word in ("flip", "nerts", "cycle"):
                    code = game.parse_move("p%d:%s" % (player + 1, word))
                    assert game.is_legal(code) == (code in listed), (seed, player, word)
            game.apply(every[rnd.randrange(n)])
            if game.status() != PLAYING:
                break
    assert checked > 1000


def test_a_move_is_legal_only_for_its_own_player_and_only_when_listed():
    cls = games.load("nerts")
    game = cls(2)
    game.bots = False
    game.deal(1)
    flip_p2 = game.parse_move("p2:flip")
    assert game.mover(flip_p2) == 1 and game.is_legal(flip_p2)
    assert not game.is_legal(game.parse_move("p2.waste>found1"))  # p2 has turned nothing yet
    assert not game.is_legal(game.parse_move("found1>p1.work1"))  # nothing leaves a foundation


def test_turn_based_and_patience_games_give_all_their_legal_moves():
    for name in ("aces_up", "sir_tommy", "casket", "spite_malice"):
        cls = games.load(name)
        game = cls(cls.MIN_PLAYERS)
        game.deal(3)
        a = array("i", [0] * cls.MAX_MOVES)
        b = array("i", [0] * cls.MAX_MOVES)
        n = game.legal_moves(a)
        assert game.moves_of(0, b) == n and list(a[:n]) == list(b[:n])


def test_nerts_decides_a_call_with_an_empty_nerts_pile_as_the_moves_list_it():
    cls = games.load("nerts")
    game = cls(2)
    game.bots = False
    game.deal(3)
    nerts, stock = game.pile_id("p2.nerts"), game.pile_id("p2.stock")
    game.piles.move(nerts, stock, game.piles.size[nerts])
    game.after_load()
    every = array("i", [0] * cls.MAX_MOVES)
    listed = set(every[i] for i in range(game.legal_moves(every)))
    call, p1_call = game.parse_move("p2:nerts"), game.parse_move("p1:nerts")
    assert call in listed and game.is_legal(call)
    assert p1_call not in listed and not game.is_legal(p1_call)


def test_an_action_of_a_player_not_at_the_table_is_never_legal():
    cls = games.load("nerts")
    game = cls(2)
    game.bots = False
    game.deal(1)
    for word in (1, 2, 3):  # flip, cycle, nerts for a third player in a game of two
        assert not game.is_legal(0xFF << 16 | word << 8 | 2)


def test_redo_plays_again_an_undone_move_whether_or_not_the_table_keeps_its_moves():
    # Nerts undo takes back the player's own move while the computer plays on (take_back).
    # Whether the table's legal moves happen to be kept (as the console that drew them) or
    # not (as a console just made again from its records) must not decide whether redo
    # plays it.
    from engine_core.link.statehash import state_hash
    from simulator.keys import make_app, run
    results = []
    for keep in (False, True):
        app = make_app(240, 240, "nerts", 3)
        table = app.table
        game = table.game
        run(app, "X A A")
        assert game.history.moves == 1 and game.mover(game.history.last_move()) == 0
        while game.history.moves == 1:
            app.tick(50)
        assert game.mover(game.history.last_move()) != 0  # a computer player's move since
        played = state_hash(game)
        table.press_undo()
        assert state_hash(game) != played
        if keep:
            table.legal_moves()
        table.press_redo()
        results.append(state_hash(game) == played)
    assert results == [True, True]
