"""Hostile input to the protocol: numbers, words, quotes and `load` JSON get a clear error,
the same on CPython and on MicroPython (engine_core/text.py, engine_core/jsontext.py)."""

import io
import json

import pytest

from engine_core import games
from engine_core.protocol import run
from engine_core.text import parse_number, quote, split_words
from tests.helpers import RUNTIMES, protocol_micropython


def served(lines):
    """The replies run() writes on CPython for `lines` (each line ends in a newline)."""
    out = io.StringIO()
    feed = iter([line + "\n" for line in lines])
    run(lambda: next(feed, ""), out.write)
    return out.getvalue().split("\n")[:-1]


def replies(lines, runtime):
    if runtime == "cpython":
        return served(lines)
    return protocol_micropython(lines)


# line, the reply it must get (after `new aces_up seed=5`)
CASES = [
    ("new aces_up seed=\u00b2", "error: bad seed '\u00b2': expected a whole number"),
    ("new aces_up players=\u2460", "error: bad players '\u2460': expected a whole number"),
    ("new aces_up seed=\u0663", "error: bad seed '\u0663': expected a whole number"),
    ("tick \u00b2", "error: bad tick '\u00b2': expected a whole number"),
    ("tick \u0663", "error: bad tick '\u0663': expected a whole number"),
    ("new aces_up seed=" + "9" * 5000,
     "error: seed '" + "9" * 60 + "...' is out of range 0..1073741823"),
    ("tick " + "1" * 4301, "error: tick '" + "1" * 60 + "...' is out of range 0..1073741823"),
    ("tick 1073741824", "error: tick 1073741824 is out of range 0..1073741823"),
    ("tick 00000000000000000007", "ok"),
    ("load " + "[" * 100000, "error: load: not valid JSON: longer than 20000 characters"),
    ("load " + "[" * 5000, "error: load: not valid JSON: at byte 9: nested deeper than 8 levels"),
    ("load " + '{"a":' * 5000 + "1" + "}" * 5000,
     "error: load: not valid JSON: longer than 20000 characters"),
    ("load " + '{"a":' * 9 + "1" + "}" * 9,
     "error: load: not valid JSON: at byte 41: nested deeper than 8 levels"),
    ('load {"game":"aces_up","rules":1,"piles":{"":[]}}', "error: load: unknown pile ''"),
    ('load {"game":"aces_up","rules":1,"piles":{"p":[]}}', "error: load: unknown pile 'p'"),
    ('load {"game":"aces_up","rules":1.0}', "error: load: not valid JSON: at byte 28: numbers must be whole"),
    ('load {"game":"aces_up","rules":' + "1" * 11 + "}",
     "error: load: not valid JSON: at byte 27: a number longer than 10 digits"),
    ('load {"game":"aces_up","game":"casket"}',
     "error: load: not valid JSON: at byte 19: the key 'game' appears twice"),
    ('load {"game":"aces_up" "rules":1}', "error: load: not valid JSON: at byte 19: expected ',' or '}'"),
    ('load {"game":"aces_up"} x', "error: load: not valid JSON: at byte 20: unexpected 'x' after the value"),
    ('load {"game":"\\ud800"}', "error: load: not valid JSON: at byte 10: a \\u escape of a lone surrogate"),
    ('load {"game":"ace\x01"}', "error: load: not valid JSON: at byte 13: a control character \\x01 in a string"),
    ('load {"game":NaN}', "error: load: not valid JSON: at byte 9: expected a value, found 'N'"),
    ('load {"game":"\\u0061ces_up","rules":7}', "error: load: rules version 7 is not supported: aces_up plays rules 1"),
    ("load [1, 2]", "error: load: expected a JSON object"),
    ("new\x1caces_up", "error: unknown command 'new\\x1caces_up'"),
    ("new aces_up\u2028",
     "error: unknown game 'aces_up\\u2028': expected one of " + ", ".join(games.names())),
    ("new\u0085aces_up", "error: unknown command 'new\\x85aces_up'"),
    ("bogus\x00\x1b[31m", "error: unknown command 'bogus\\x00\\x1b[31m'"),
    ("bogus\\x00", "error: unknown command 'bogus\\\\x00'"),
    ("x" * 100000, "error: unknown command '" + "x" * 60 + "...'"),
    ("move \x1b" + "x" * 100000, "error: bad move '\\x1b" + "x" * 59 + "...': longer than any move token"),
    ("move col1>\x1b[2J", "error: bad move 'col1>\\x1b[2J': no pile named '\\x1b[2J'"),
    ("new aces_up seed=3\tplayers=1", "ok"),
]


@pytest.mark.parametrize("runtime", RUNTIMES)
def test_bad_numbers_words_and_json_get_the_same_clear_error_on_both_runtimes(runtime):
    lines = ["new aces_up seed=5"]
    for line, _ in CASES:
        lines += [line, "state"]
    out = replies(lines, runtime)
    assert out[0] == "ok"
    state = out[2]
    for k, (line, expected) in enumerate(CASES):
        assert out[1 + 2 * k] == expected, line[:80]
        if expected.startswith("error"):
            assert out[2 + 2 * k] == state, line[:80]  # nothing changed
        state = out[2 + 2 * k]
    assert len(out) == len(lines)


def test_the_number_parser_takes_ascii_digits_in_range_only():
    assert parse_number("42", "seed", 0, 99) == 42
    assert parse_number("-3", "x", -5, 5) == -3
    assert parse_number("007", "x", 0, 9) == 7
    for bad in ("", "-", "+4", " 4", "4 ", "4x", "\u00b2", "\u0663", "\uff14", "1_000", "0x10"):
        with pytest.raises(ValueError, match="expected a whole number"):
            parse_number(bad, "seed", 0, 99)
    with pytest.raises(ValueError, match="out of range 1..4"):
        parse_number("5", "players", 1, 4)


def test_words_are_separated_by_spaces_and_tabs_only():
    assert split_words(" new\taces_up  seed=3 ") == ["new", "aces_up", "seed=3"]
    assert split_words("load {\"a\": 1}  ", 1) == ["load", "{\"a\": 1}"]
    assert split_words("a\x1cb\u2028c\u0085d\x0be") == ["a\x1cb\u2028c\u0085d\x0be"]
    assert split_words(" \t ") == []


def test_a_quote_is_short_and_shows_control_characters_escaped():
    assert quote("ok") == "'ok'"
    assert quote("a\x00b\x7f\x9b\\") == "'a\\x00b\\x7f\\x9b\\\\'"
    assert quote("y" * 61) == "'" + "y" * 60 + "...'"


def test_the_state_itself_still_loads_and_json_module_agrees_on_it():
    out = served(["new nerts players=4 jokers=1 seed=7", "state"])
    again = served(["load " + out[1], "state"])
    assert again == ["ok", out[1]]
    assert json.loads(out[1])["game"] == "nerts"


@pytest.mark.parametrize("runtime", RUNTIMES)
def test_a_nerts_run_count_in_other_digits_is_a_bad_move_on_both_runtimes(runtime):
    # CPython's str.isdigit takes '①' and '²' and int() then raised: an internal error
    lines = ["new nerts seed=3", "state"]
    for count in ("\u24602", "\u00b2", "\u0663", "002", "3\u00b2"):
        lines += ["move p1.work4*%s>p1.work1" % count, "state"]
    out = replies(lines, runtime)
    state = out[1]
    for k in range(5):
        assert out[2 + 2 * k].startswith("error: "), out[2 + 2 * k]
        assert "internal error" not in out[2 + 2 * k]
        assert out[3 + 2 * k] == state
