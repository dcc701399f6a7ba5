"""The text protocol: every command, the state JSON, and bad input (clear error, nothing changed)."""

import io
import json
import os
import random
import subprocess
import sys

import pytest

from engine_core.protocol import ProtocolSession, run
from tests.helpers import RUNTIMES, Driver, protocol

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

KEYS = ["game", "rules", "seed", "status", "turn", "clock_ms", "piles", "score", "rng", "rng2", "generator"]


def test_state_is_one_line_of_json_with_keys_in_the_protocol_order():
    text = Driver("new aces_up seed=9").ok("state")
    assert "\n" not in text
    assert list(json.loads(text)) == KEYS
    assert text.startswith('{"game": "aces_up", "rules": 1, "seed": 9, "status": "playing", '
                           '"turn": null, "clock_ms": 0, "piles": {"stock": ["#')
    state = json.loads(text)
    assert text.endswith(', "discard": []}, "score": {}, "rng": %d, "rng2": %d, "generator": "spectral"}' % (
        state["rng"], state["rng2"]))


def test_seed_defaults_to_1():
    assert Driver("new aces_up").ok("state") == Driver("new aces_up seed=1").ok("state")


def test_moves_are_sorted_and_separated_by_one_space():
    d = Driver("new aces_up seed=3")
    text = d.ok("moves")
    assert text.split(" ") == sorted(text.split(" "))


def test_undo_with_nothing_to_undo():
    assert Driver("new aces_up").ok("undo") == "error: nothing to undo"


def test_hint_is_a_legal_move_token():
    d = Driver("new aces_up seed=12")
    for _ in range(60):
        h = d.ok("hint")
        if h == "none":
            break
        assert h in d.moves()
        assert d.ok("move " + h) == "ok"


def test_tick_advances_the_clock_and_bots_answer_ok():
    d = Driver("new aces_up")
    assert d.ok("tick 1500") == "ok" and d.ok("tick 500") == "ok"
    assert d.state()["clock_ms"] == 2000
    assert d.ok("bots off") == "ok" and d.ok("bots on") == "ok"


def test_load_of_the_own_state_round_trips_and_play_is_reproducible():
    d = Driver("new aces_up seed=21")
    for _ in range(5):
        d.ok("move " + d.ok("hint"))
    text = d.ok("state")
    e = Driver()
    assert e.ok("load " + text) == "ok"
    assert e.ok("state") == text
    assert e.ok("moves") == d.ok("moves")
    assert e.ok("undo") == "error: nothing to undo"


def test_quit_ends_the_loop_and_end_of_input_too():
    out = io.StringIO()
    lines = iter(["new aces_up\n", "quit\n", "state\n"])
    run(lambda: next(lines, ""), out.write)
    assert out.getvalue() == "ok\n"
    out = io.StringIO()
    lines = iter(["new aces_up\n", "undo\n"])
    run(lambda: next(lines, ""), out.write)
    assert out.getvalue() == "ok\nerror: nothing to undo\n"


def test_play_py_speaks_the_protocol_on_stdin_and_stdout():
    proc = subprocess.run([sys.executable, "-m", "tools.play"],
                          input="new aces_up seed=2\nmoves\nbogus\nquit\n", capture_output=True, text=True)
    lines = proc.stdout.splitlines()
    assert proc.returncode == 0 and lines[0] == "ok" and lines[2].startswith("error: ")


# Bad input: a clear error and the state unchanged.

BAD_COMMANDS = [
    ("frobnicate", "unknown command"),
    ("new", "new needs a game"),
    ("new solitaire", "unknown game 'solitaire'"),
    ("new aces_up seed=x", "bad seed"),
    ("new aces_up seed=-1", "seed -1 is out of range"),
    ("new aces_up seed=99999999999", "out of range"),
    ("new aces_up players=2", "played by 1 player"),
    ("new aces_up colour=red", "unknown option"),
    ("new aces_up seed", "expected key=value"),
    ("new aces_up seed=1 seed=2", "option 'seed' given twice"),
    ("new casket rules=1 rules=2", "option 'rules' given twice"),
    ("move", "move takes one move token"),
    ("move col1>col2 col3>col4", "move takes one move token"),
    ("move col9>discard", "no pile named 'col9'"),
    ("move shuffle", "bad move"),
    ("move col1>col2", "illegal move col1>col2"),
    ("move discard>col1", "illegal move"),
    ("move stock>col1", "illegal move"),
    ("move deal", "illegal move deal"),
    ("tick", "bad tick"),
    ("tick -5", "tick -5 is out of range"),
    ("tick soon", "bad tick"),
    ("bots maybe", "bots takes"),
    ("state please", "takes no argument"),
    ("load", "load needs the state"),
    ("load {not json", "not valid JSON"),
    ("load [1, 2]", "expected a JSON object"),
]


@pytest.mark.parametrize("line,reason", BAD_COMMANDS)
def test_bad_input_gets_a_clear_error_and_changes_nothing(line, reason):
    d = Driver("new aces_up seed=5")
    reply = d.expect_error(line)
    assert reason in reply, reply


def test_commands_before_any_game_get_a_clear_error():
    s = ProtocolSession()
    for line in ("state", "moves", "move deal", "undo", "hint", "tick 5", "auto on"):
        assert s.command(line) == "error: no game: start one with 'new GAME'"
    assert s.command("bots off") == "ok"  # a session setting: it applies to the games to come


def valid_state():
    return Driver("new aces_up seed=5").state()


def broken(change):
    state = valid_state()
    change(state)
    return state


def drop_key(key):
    return lambda s: s.pop(key)


BAD_LOADS = [
    (drop_key("piles"), "missing key 'piles'"),
    (drop_key("rng"), "missing key 'rng'"),
    (drop_key("turn"), "missing key 'turn'"),
    (lambda s: s.update(game="chess"), "unknown game"),
    (lambda s: s.update(rules=2), "rules version 2"),
    (lambda s: s.update(status="paused"), "unknown status"),
    (lambda s: s.update(rng=0), "rng must be"),
    (lambda s: s.update(rng="x"), "'rng' must be a whole number"),
    (lambda s: s.update(seed=-4), "seed out of range"),
    (lambda s: s.update(turn="p1"), "turn must be null"),
    (lambda s: s.update(score={"p1": 3}), "score must be {}"),
    (lambda s: s["piles"].update(col9=[]), "unknown pile 'col9'"),
    (lambda s: s["piles"].pop("discard"), "missing pile 'discard'"),
    (lambda s: s["piles"]["col1"].append(s["piles"]["col2"][0]), "duplicate card"),
    (lambda s: s["piles"]["stock"].pop(), "missing cards"),
    (lambda s: s["piles"]["col1"].append("ZZ"), "'ZZ' is not a card"),
    (lambda s: s["piles"]["col1"].append("7H1"), "is not a card"),
    (lambda s: s["piles"]["col1"].append(7), "a card must be a string"),
    (lambda s: s["piles"].update(col1="AS"), "must be a list"),
    (lambda s: s["piles"]["col1"].extend(s["piles"]["stock"][:4]) or s["piles"]["stock"].__delitem__(slice(0, 4)),
     None),  # a legal reshuffle of where cards lie: accepted
]


@pytest.mark.parametrize("change,reason", BAD_LOADS)
def test_load_refuses_an_invalid_state_and_changes_nothing(change, reason):
    d = Driver("new aces_up seed=8")
    line = "load " + json.dumps(broken(change))
    if reason is None:
        assert d.ok(line) == "ok"
        return
    assert reason in d.expect_error(line)


def test_load_takes_a_hand_made_position_play_could_not_reach_and_plays_it_by_the_rules():
    # Two cards in the stock and aces on the discard: never so in play, but the rules apply.
    layout = {"col1": ["2H"], "col2": ["3S"], "col3": ["4D"], "col4": ["5C"], "stock": ["7H", "8S"]}
    used = {c for pile in layout.values() for c in pile}
    discard = [r + s for s in "SHDC" for r in "A23456789TJQK" if r + s not in used]
    state = {"game": "aces_up", "rules": 1, "seed": 1, "status": "playing", "turn": None,
             "clock_ms": 0, "piles": dict(layout, stock=["#7H", "#8S"], discard=discard),
             "score": {}, "rng": 12345}
    d = Driver("new aces_up")
    assert d.ok("load " + json.dumps(state)) == "ok"
    assert d.moves() == ["deal"]  # no discard, no empty column
    d.ok("move deal")  # the top card goes to col1, the next to col2; col3 and col4 get none
    piles = d.piles()
    assert piles["col1"] == ["2H", "8S"] and piles["col2"] == ["3S", "7H"] and piles["stock"] == []
    assert piles["col3"] == ["4D"] and piles["col4"] == ["5C"]
    assert d.state()["status"] == "lost" and d.moves() == []

def test_load_accepts_face_down_marks_or_none_and_recomputes_the_status():
    state = valid_state()
    state["piles"]["stock"] = [c.lstrip("#") for c in state["piles"]["stock"]]
    state["status"] = "won"  # wrong: the position is still in play
    d = Driver("new aces_up")
    assert d.load(state) == "ok"
    assert d.state()["status"] == "playing"
    assert all(c.startswith("#") for c in d.state()["piles"]["stock"])


@pytest.mark.parametrize("runtime", RUNTIMES)
def test_bad_input_replies_are_identical_on_both_runtimes(runtime):
    lines = ["state", "new aces_up seed=5"] + [line for line, _ in BAD_COMMANDS] + [
        "load " + json.dumps(broken(change)) for change, _ in BAD_LOADS[:-1]] + ["state", "quit"]
    out = protocol(lines, runtime)
    assert len(out) == len(lines) - 1
    assert out == protocol(lines, "cpython")


def test_random_garbage_never_stops_the_loop():
    rnd = random.Random(1)
    s = ProtocolSession()
    s.command("new aces_up seed=3")
    alphabet = "abcdefghijklmnopqrstuvwxyz0123456789 >:=*#{}[]\",.-"
    words = ["new", "move", "load", "state", "moves", "undo", "hint", "tick", "bots", "aces_up", "col1>discard"]
    for _ in range(3000):
        line = " ".join(rnd.choice(words) if rnd.random() < 0.5 else
                        "".join(rnd.choice(alphabet) for _ in range(rnd.randrange(1, 12)))
                        for _ in range(rnd.randrange(1, 4)))
        reply = s.command(line)
        assert reply is None or reply == "ok" or reply.startswith("error: ") or reply.startswith("{") \
            or reply == "none" or all(">" in t or t == "deal" for t in reply.split()), (line, reply)
        assert "internal error" not in (reply or ""), (line, reply)


def test_a_loaded_position_with_an_ace_on_the_discard_is_not_won_with_48_cards_discarded():
    layout = {"col1": ["AH"], "col2": ["AD"], "col3": ["AC"], "col4": ["2S"]}
    used = {c[0] for c in layout.values()}
    discard = [r + s for s in "SHDC" for r in "A23456789TJQK" if r + s not in used]
    state = {"game": "aces_up", "rules": 1, "seed": 1, "status": "playing", "turn": None,
             "clock_ms": 0, "piles": dict(layout, stock=[], discard=discard), "score": {}, "rng": 12345}
    d = Driver("new aces_up")
    assert len(discard) == 48 and d.ok("load " + json.dumps(state)) == "ok"
    assert d.state()["status"] == "lost"


def protocol_md_commands():
    """The command words of docs/protocol.md's table of commands."""
    with open(os.path.join(ROOT, "docs", "protocol.md"), encoding="utf-8") as f:
        text = f.read()
    table = text.split("## Commands and responses", 1)[1].split("\n\n", 1)[0]
    return {row.split("`")[1].split()[0] for row in table.splitlines() if row.startswith("| `")}


def test_play_py_at_a_terminal_greets_prompts_and_help_lists_every_command_of_protocol_md():
    import pty
    import select
    import termios
    controller, terminal = pty.openpty()
    mode = termios.tcgetattr(terminal)
    mode[3] &= ~termios.ECHO  # what is typed is not echoed: the output is the program's
    termios.tcsetattr(terminal, termios.TCSANOW, mode)
    proc = subprocess.Popen([sys.executable, "-m", "tools.play"], cwd=ROOT,
                            stdin=terminal, stdout=terminal, stderr=terminal)
    os.close(terminal)
    os.write(controller, b"help\nnew aces_up seed=1\nmove col3>discard\nundo\nredo\nquit\n")
    out = b""
    while True:
        ready, _, _ = select.select([controller], [], [], 20)
        if not ready:
            break
        try:
            chunk = os.read(controller, 4096)
        except OSError:  # the terminal closed with the program
            break
        if not chunk:
            break
        out += chunk
    proc.wait(timeout=20)
    os.close(controller)
    text = out.decode().replace("\r\n", "\n")
    assert "docs/protocol.md" in text.split("\n", 1)[0]  # a banner
    assert "help" in text.split("\n")[1]
    help_line = [line for line in text.split("\n") if "commands:" in line][0]
    words = set(help_line.replace("|", " ").split())
    commands = protocol_md_commands()
    assert {"new", "state", "moves", "move", "undo", "redo", "hint", "help", "quit"} <= commands
    assert commands - {"anything"} <= words
    assert text.count("> ") >= 6  # a prompt before each command
    assert "> ok\n> ok\n> ok\n> ok\n" in text  # new, move, undo and redo accepted


def test_redo_plays_again_what_undo_took_back_until_a_new_move():
    session = ProtocolSession()
    assert session.command("new aces_up seed=1") == "ok"
    assert session.command("redo") == "error: nothing to redo"
    assert session.command("move col3>discard") == "ok"
    after = session.command("state")
    assert session.command("undo") == "ok"
    before = session.command("state")
    assert session.command("redo") == "ok"
    assert session.command("state") == after  # the very move again
    assert session.command("redo") == "error: nothing to redo"
    assert session.command("undo") == "ok" and session.command("state") == before
    assert session.command("move stock>col1").startswith("error: ")  # refused: redo stays
    assert session.command("redo") == "ok" and session.command("undo") == "ok"
    assert session.command("move col3>discard") == "ok"  # a move: what was undone is gone
    assert session.command("undo") == "ok" and session.command("move col3>discard") == "ok"
    assert session.command("redo") == "error: nothing to redo"


def test_redo_in_spite_and_malice_with_the_computer_plays_the_players_move_again():
    # Undo takes the computer's reply back with the player's move (docs/protocol.md); redo
    # refused it ("the table has changed since the undo"), having kept the computer's last
    # move as the one to play again.
    session = ProtocolSession()
    assert session.command("new spite_malice seed=1") == "ok"
    assert session.command("move p1.hand:4S>p1.side1") == "ok"
    after = session.command("state")
    assert session.command("undo") == "ok"
    before = session.command("state")
    assert '"turn": "p1"' in before
    assert session.command("redo") == "ok"
    assert session.command("state") == after  # the move again, and the same reply to it
    assert session.command("undo") == "ok" and session.command("state") == before
    assert session.command("undo") == "error: nothing to undo"


def test_redo_is_refused_once_the_computer_players_have_moved_since_the_undo():
    # docs/protocol.md: redo is refused when "the computer players have moved since". In
    # Nerts the undone move often stays legal after they move, and redo played it on their
    # changed table. A tick without their moves (Aces Up, Nerts with bots off) keeps redo.
    session = ProtocolSession()
    for line in ("new nerts seed=1", "move p1:cycle", "undo", "tick 20000"):
        assert session.command(line) == "ok", line
    before = session.command("state")
    assert session.command("redo") == "error: nothing to redo: the table has changed since the undo"
    assert session.command("state") == before
    for line in ("bots off", "new nerts seed=1", "move p1:cycle"):
        assert session.command(line) == "ok", line
    after = session.command("state")
    for line in ("undo", "tick 20000", "redo"):
        assert session.command(line) == "ok", line
    assert '"piles"' in after and session.command("state").split('"piles"')[1] == after.split('"piles"')[1]
