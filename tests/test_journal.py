"""The undo journal's entries: made, read and undone only by engine_core/history.py."""

import os
import re
from array import array

import pytest

from engine_core import history as journal
from engine_core.history import History
from engine_core.piles import Piles

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
KINDS = ("MARK", "PUSH", "POP", "MOVE", "VAR_LO", "VAR_HI", "REMOVE", "REVERSE")


def test_every_kind_is_between_first_and_last_and_none_is_shared():
    values = [getattr(journal, name) for name in KINDS]
    assert sorted(values) == list(range(journal.FIRST_KIND, journal.LAST_KIND + 1))


@pytest.mark.parametrize("move", [0, 1, 0x0A0B0C, 255 << 16 | 7 << 8 | 3, (1 << 24) - 1])
def test_a_mark_holds_its_move_code(move):
    e = journal.mark_entry(move)
    assert journal.kind(e) == journal.MARK and journal.mark_move(e) == move and journal.is_entry(e)


@pytest.mark.parametrize("p, card", [(0, 0), (5, 51), (255, 255), (17, 103)])
def test_a_push_and_a_pop_hold_pile_and_card(p, card):
    for make, kind in ((journal.push_entry, journal.PUSH), (journal.pop_entry, journal.POP)):
        e = make(p, card)
        assert journal.kind(e) == kind and journal.is_entry(e)
        assert journal.entry_pile(e) == p and journal.entry_card(e) == card


@pytest.mark.parametrize("src, dst, count", [(0, 1, 1), (255, 254, 255), (3, 0, 13)])
def test_a_move_holds_source_destination_and_count(src, dst, count):
    e = journal.move_entry(src, dst, count)
    assert journal.kind(e) == journal.MOVE and journal.is_entry(e)
    assert journal.entry_pile(e) == src and journal.entry_dst(e) == dst and journal.entry_count(e) == count


@pytest.mark.parametrize("p, i, card", [(0, 0, 0), (255, 254, 253), (9, 3, 40)])
def test_a_remove_holds_pile_index_and_card(p, i, card):
    e = journal.remove_entry(p, i, card)
    assert journal.kind(e) == journal.REMOVE and journal.is_entry(e)
    assert journal.entry_pile(e) == p and journal.entry_index(e) == i and journal.entry_card(e) == card


@pytest.mark.parametrize("p, count", [(0, 1), (255, 255), (4, 24)])
def test_a_reverse_holds_pile_and_count(p, count):
    e = journal.reverse_entry(p, count)
    assert journal.kind(e) == journal.REVERSE and journal.is_entry(e)
    assert journal.entry_pile(e) == p and journal.entry_count(e) == count


@pytest.mark.parametrize("value", [0, 1, -1, 0x7FFF, 0x8000, 123456789, (1 << 30) - 1, -(1 << 30), -42])
def test_a_variable_comes_back_from_its_two_halves(value):
    lo = journal.var_entry_lo(23, value)
    hi = journal.var_entry_hi(23, value)
    assert journal.kind(lo) == journal.VAR_LO and journal.kind(hi) == journal.VAR_HI
    assert journal.var_index(lo) == 23 and journal.var_index(hi) == 23
    assert journal.var_value(hi, lo) == value
    assert 0 <= lo < 1 << 30 and 0 <= hi < 1 << 30  # small ints on every port


def test_note_methods_write_the_entries_the_makers_make():
    hist = History(16)
    hist.begin(0x010203)
    hist.note_push(1, 2)
    hist.note_pop(3, 4)
    hist.note_move(5, 6, 7)
    hist.note_var(8, -9)
    hist.note_remove(10, 11, 12)
    hist.note_reverse(13, 14)
    assert list(hist.log[:hist.used]) == [
        journal.mark_entry(0x010203), journal.push_entry(1, 2), journal.pop_entry(3, 4),
        journal.move_entry(5, 6, 7), journal.var_entry_lo(8, -9), journal.var_entry_hi(8, -9),
        journal.remove_entry(10, 11, 12), journal.reverse_entry(13, 14)]


def test_a_saved_journal_is_checked_entry_by_entry():
    assert not journal.is_entry(0) and not journal.is_entry(-1)
    assert not journal.is_entry((journal.LAST_KIND + 1) << 24)
    assert journal.is_entry(journal.reverse_entry(0, 0))


def arena():
    piles = Piles([8, 8, 8])
    for c in (10, 11, 12, 13):
        piles.push(0, c)
    piles.push(1, 20)
    return piles


def snapshot(piles, variables):
    cards = [bytes(piles.cards[piles.start[p]:piles.start[p] + piles.size[p]]) for p in range(piles.count)]
    return cards, list(variables)


def test_revert_move_undoes_every_kind_of_change():
    piles = arena()
    variables = array("i", [5, -7, 1 << 29])
    before = snapshot(piles, variables)
    hist = History(32)
    hist.begin(1)
    hist.note_push(2, 30)
    piles.push(2, 30)
    hist.note_pop(0, piles.pop(0))
    hist.note_move(0, 1, 2)
    piles.move(0, 1, 2)
    hist.note_remove(1, 0, piles.remove_at(1, 0))
    hist.note_reverse(1, 2)
    piles.reverse(1, 2)
    for i, value in ((0, 99), (1, 3), (2, -5)):
        hist.note_var(i, variables[i])
        variables[i] = value
    assert snapshot(piles, variables) != before
    assert hist.revert_move(piles, variables)
    assert snapshot(piles, variables) == before
    assert hist.used == 0 and hist.moves == 0
    assert not hist.revert_move(piles, variables)


@pytest.mark.parametrize("note, args, changed", [
    ("begin", (7 << 16 | 8 << 8 | 9,), set()),
    ("note_push", (3, 40), {3}),
    ("note_pop", (4, 41), {4}),
    ("note_move", (5, 6, 2), {5, 6}),
    ("note_var", (7, 1234), set()),
    ("note_remove", (8, 9, 42), {8}),
    ("note_reverse", (10, 3), {10}),
])
def test_mark_piles_names_the_piles_an_entry_changed(note, args, changed):
    hist = History(8)
    hist.begin(0)
    start = hist.head
    getattr(hist, note)(*args)
    marks = bytearray(256)
    index = bytearray(range(256))
    hist.mark_piles(start, hist.head, marks, index)
    assert {p for p in range(256) if marks[p]} == changed


def test_find_var_change_looks_in_the_last_move_or_the_whole_journal():
    hist = History(16)
    hist.begin(1)
    hist.note_var(2, 0)
    hist.begin(2)
    hist.note_push(0, 1)
    assert hist.find_var_change(2, 0, True) == -1
    assert hist.find_var_change(2, 0, False) == 3
    assert hist.find_var_change(2, 1, False) == -1
    hist.note_var(2, 1)
    assert hist.find_var_change(2, 1, True) == 1


# Only the journal module knows the layout: a shift by 24 (the kind) or a kind named next to
# a shift or mask elsewhere would break undo and redraws silently when a kind is added.
LAYOUT_OWNER = os.path.join("engine_core", "history.py")
# Byte packing of 32-bit numbers, not journal entries.
OTHER_SHIFTS_BY_24 = {os.path.join("engine_core", "fields.py")}  # put_i32 and get_i32
NAMED_KIND = "|".join(KINDS)
KIND_WITH_BITS = re.compile(rf"\.({NAMED_KIND})\b.*(<<|>>|&)|(<<|>>|&).*\.({NAMED_KIND})\b")


def engine_sources():
    for top in ("engine_core", "tools", "simulator"):
        for folder, _, names in os.walk(os.path.join(ROOT, top)):
            for name in names:
                if name.endswith(".py"):
                    path = os.path.join(folder, name)
                    yield os.path.relpath(path, ROOT), path


def test_no_module_but_the_journal_decodes_entries():
    offences = []
    for rel, path in engine_sources():
        if rel == LAYOUT_OWNER:
            continue
        with open(path) as f:
            for number, line in enumerate(f, 1):
                code = line.split("#", 1)[0]
                shift_by_24 = re.search(r"(<<|>>)\s*24\b", code) and rel not in OTHER_SHIFTS_BY_24
                kind_with_bits = KIND_WITH_BITS.search(code) and re.search(r"\b(h|hist|history|journal)\.", code)
                if shift_by_24 or kind_with_bits:
                    offences.append(f"{rel}:{number}: {line.strip()}")
    assert offences == []
