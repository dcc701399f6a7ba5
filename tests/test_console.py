"""The console: the interface with its records kept, and kiosk mode around it."""

import json
from array import array

import pytest

from engine_core import PLAYING, games
from engine_core import kiosk as k
from engine_core import records as r
from engine_core.gfx import palette as pal
from engine_core.console import NOTICE_MS, Console
from engine_core.gfx.screen import Screen
from engine_core.ui import buttons as bt
from engine_core.games.spite_malice import hand_pile
from simulator import framebuf
from engine_core.protocol import state_json
from engine_core.storage import MemoryStorage
from engine_core.ui import app as ui
from engine_core.ui import layouts, view
from engine_core.ui.app import App
from simulator.keys import parse
from tools.reliability.faults import FaultyStorage
from tests.helpers import run_mpy_ok
from tools.reliability.mash_ui import mash
from tools.reliability.soak import QUICK

SIZE = (240, 240)


def position(game):
    """The state without the clock: time passes after a save until the power goes."""
    state = json.loads(state_json(game))
    return state.pop("clock_ms"), state


def pixel_of(screen, x, y):
    b = screen.buf[(y * screen.width + x) >> 1]
    return b >> 4 if x % 2 == 0 else b & 15


def console_on(storage, kiosk=False, size=SIZE):
    console = Console(App(Screen(size[0], size[1], framebuf)), storage)
    if kiosk:
        console.keeper.settings.set("kiosk", 1)
        console.keeper.save_settings()
    console.start()
    return console


def keys(console, text):
    for button, long_press in parse(text):
        if button < 0:
            console.tick(-button)
        else:
            console.press(button, long_press)


def into_play(console):
    keys(console, "A")  # the title's first item: a new deal
    assert console.app.mode == ui.PLAY


def dealt_and_saved(disk):
    """A console on `disk` with a new deal in play, saved."""
    console = console_on(disk)
    into_play(console)
    keys(console, "WAIT WAIT")
    return console


def saved_game(disk):
    """The game the records on `disk` hold, as a restart loads it (None: no game)."""
    from engine_core.save import Keeper
    keeper = Keeper(disk)
    keeper.start()
    return keeper.resume()


def resumed(disk):
    """The game a console started on `disk` continues (its state without the clock)."""
    again = console_on(disk)
    keys(again, "A")  # Continue
    return position(again.app.table.game)[1]


def play_hints(console, n):
    for _ in range(n):
        keys(console, "X A A TICK")


def test_a_game_switched_off_mid_play_comes_back_where_it_was():
    disk = MemoryStorage()
    console = console_on(disk)
    into_play(console)
    play_hints(console, 4)
    game = console.app.table.game
    assert console.app.table.move_count >= 3
    keys(console, "WAIT")  # play pauses: the game is saved
    again = console_on(disk)
    assert again.app.mode == ui.TITLE and again.app.resumable  # the title offers Continue
    keys(again, "A")
    assert again.app.mode == ui.PLAY
    clock, state = position(again.app.table.game)
    assert state == position(game)[1] and 0 < position(game)[0] - clock <= 500
    assert again.app.table.move_count == console.app.table.move_count
    game.undo()  # undo works after the restart: Y takes back the last move as before it
    keys(again, "Y")
    assert position(again.app.table.game)[1] == position(game)[1]
    assert again.app.table.message == 0 and again.app.table.move_count == console.app.table.move_count - 1


def test_the_resumed_game_plays_on_and_is_saved_again():
    disk = MemoryStorage()
    console = console_on(disk)
    into_play(console)
    play_hints(console, 2)
    keys(console, "WAIT")
    again = console_on(disk)
    keys(again, "A")  # Continue
    play_hints(again, 3)
    keys(again, "WAIT")
    third = console_on(disk)
    assert position(third.app.table.game)[1] == position(again.app.table.game)[1]


def test_a_finished_game_goes_into_the_kept_statistics_shown_on_the_end_panel():
    disk = MemoryStorage()
    console = console_on(disk)
    into_play(console)
    game = console.app.table.game
    while game.status() == PLAYING:
        game.apply(game.hint())  # finish quickly through the engine ...
    keys(console, "TICK")  # ... the console notices the end
    assert console.keeper.stats.get(0, r.PLAYED) == 1
    keys(console, "TICK")  # and writes the statistics on the frame after that
    again = console_on(disk)
    assert again.app.played[0] == 1


def test_a_new_deal_after_moves_counts_the_old_game_as_played():
    disk = MemoryStorage()
    console = console_on(disk)
    into_play(console)
    play_hints(console, 2)
    keys(console, "START DOWN DOWN DOWN DOWN A")  # pause menu: restart
    assert console.app.mode == ui.CONFIRM
    keys(console, "A")  # yes: the game is given up, a loss
    assert console.app.mode == ui.PLAY and console.app.table.move_count == 0
    assert console.keeper.stats.get(0, r.PLAYED) == 1 and console.keeper.stats.get(0, r.WON) == 0


def test_a_changed_setting_is_saved_and_comes_back():
    disk = MemoryStorage()
    console = console_on(disk)
    into_play(console)
    keys(console, "START UP UP UP A")  # pause menu: settings (the third item from the foot)
    assert console.app.mode == ui.SETTINGS
    keys(console, "A")  # sound: on -> off
    assert console.app.settings[ui.S_SOUND] == 0
    console.tick(33)  # the frame that answered the press: nothing written yet
    assert console_on(disk).app.settings[ui.S_SOUND] == 1
    console.tick(33)  # the next frame writes it
    again = console_on(disk)
    assert again.app.settings[ui.S_SOUND] == 0


def restarted_with(name, value):
    """A console powered on again after `name` was saved as `value`."""
    disk = MemoryStorage()
    first = console_on(disk)
    first.keeper.settings.set(name, value)
    first.keeper.save_settings()
    return console_on(disk)


def table_after_deal(console, game):
    console.open_game(game, 7)
    return console.app.table


def sound_is_passed_on(console):
    app = console.app
    table_after_deal(console, "aces_up").sound = 1
    app.collect_sound()
    return app.take_sound() != 0


def shown_back(console):
    c = pal.BACKS[1][0]
    return console.app.screen.palette[pal.BACK] == pal.rgb565(c[0], c[1], c[2])


def b_steps_on_the_title(console):
    before = console.app.selected
    keys(console, "B")
    return console.app.mode == ui.TITLE and console.app.selected != before


def winnable_seed(console):
    from engine_core.ai import winnable
    console.app.game_index = console.app.names.index("aces_up")
    t = winnable.table("aces_up")
    return all(winnable.is_winnable(t.BITS, t.FIRST, console.app.random_seed()) for _ in range(20))


# Every setting the App has, saved with a value other than its default, acts after a restart.
AFTER_RESTART = {
    "sound": (0, lambda c: not sound_is_passed_on(c)),
    "card_back": (1, shown_back),
    "bot_speed": (2, lambda c: table_after_deal(c, "nerts").game.bot.speed_of(1) == 2),
    "bot_level": (0, lambda c: table_after_deal(c, "spite_malice").game.bot_level == 1
                  and table_after_deal(c, "nerts").game.bot.skill_of(1) == 0),
    "jokers": (1, lambda c: table_after_deal(c, "spite_malice").game.options & games.OPT_JOKERS),
    "target": (150, lambda c: table_after_deal(c, "spite_malice").game.options
               >> games.OPT_TARGET_SHIFT == 150),
    "auto_play": (0, lambda c: c.app.settings[ui.S_AUTOPLAY] == 0),   # read at each frame
    "two_buttons": (1, b_steps_on_the_title),
    "nerts_players": (4, lambda c: table_after_deal(c, "nerts").game.players == 4),
    "casket_rules": (1, lambda c: table_after_deal(c, "casket").game.rules == 1),
    "winnable": (1, winnable_seed),
    "slide": (0, lambda c: not table_after_deal(c, "aces_up").slide & view.SLIDE_ON),
    "dim_s": (0, lambda c: power_of(c).dim_ms == 0),                     # the screen's power
    "screen_off_s": (600, lambda c: power_of(c).off_ms == 600000),
}


def power_of(console):
    """The screen's power (engine_core/power.py) over the console's settings, as every host
    makes it."""
    from engine_core.power import Power
    return Power(None, None, None, 1, 1, None, 0, console.app.settings)


def test_every_app_setting_has_its_restart_check():
    from engine_core.ui.settings import KEY, SETTINGS
    assert sorted(AFTER_RESTART) == sorted(row[KEY] for row in SETTINGS)


@pytest.mark.parametrize("name", sorted(AFTER_RESTART))
def test_a_saved_setting_acts_after_a_restart(name):
    value, acts = AFTER_RESTART[name]
    assert not acts(console_on(MemoryStorage())), "the default does otherwise"
    assert acts(restarted_with(name, value))


def test_a_damaged_record_is_shown_at_the_foot_of_the_screen_for_a_while():
    disk = FaultyStorage()
    console = console_on(disk)
    console.keeper.save_stats()
    disk.write("stats.dat", b"garbage", 7)
    again = console_on(disk)
    assert again.notice == b"Statistics: cut short, set aside"
    assert again.notice_ms == NOTICE_MS
    keys(again, "WAIT " * 7)
    assert again.notice_ms == 0


def test_a_notice_strip_is_sent_once_not_every_frame():
    disk = FaultyStorage()
    console = console_on(disk)
    into_play(console)
    console.keeper.save_stats()
    disk.write("stats.dat", b"garbage", 7)
    again = console_on(disk)
    screen = again.app.screen
    again.tick(33)
    assert again.notice_ms > 0 and screen.dirty_count > 0  # the resumed game and its strip
    screen.clear_dirty()
    for _ in range(20):
        again.tick(33)
        assert screen.dirty_count == 0, "an unchanged strip is not drawn again"
    keys(again, "RIGHT")  # a redraw: the strip is drawn over it again
    strip_y = again.app.height - 1
    marked = [screen.dirty[4 * i + 1] + screen.dirty[4 * i + 3] for i in range(screen.dirty_count)]
    assert max(marked) > strip_y
    assert again.notice_ms > 0


def test_a_full_filesystem_is_shown_and_play_goes_on():
    disk = FaultyStorage()
    console = console_on(disk)
    into_play(console)
    disk.capacity = disk.used()
    play_hints(console, 2)
    keys(console, "WAIT")
    assert console.notice == b"Storage full: progress not saved"
    play_hints(console, 2)
    assert console.app.mode in (ui.PLAY, ui.END)


def test_in_kiosk_mode_sound_is_off_and_the_demo_starts_when_idle():
    console = console_on(MemoryStorage(), kiosk=True)
    assert console.app.settings[ui.S_SOUND] == 0
    for _ in range(k.IDLE_DEMO_MS // 33 + 2):
        console.tick(33)
    assert console.kiosk.mode == k.DEMO and console.app.mode == ui.PLAY
    game = console.app.table.game
    before = state_json(game)
    for _ in range(3 * k.DEMO_STEP_MS // 33):
        console.tick(33)
    assert state_json(game) != before  # the computer is playing
    assert console.app.table.move_count >= 2  # and its moves are counted
    y = console.app.height - 3  # the DEMO caption at the foot
    assert any(pixel_of(console.app.screen, x, y) == pal.GOLD for x in range(0, 40))
    console.press(4)  # any press: back to the title
    console.tick(33)
    assert console.app.mode == ui.TITLE and console.keeper.stats.get(0, r.PLAYED) == 0


def test_in_kiosk_mode_a_game_left_alone_returns_to_the_title():
    console = console_on(MemoryStorage(), kiosk=True)
    into_play(console)
    play_hints(console, 1)
    for _ in range(console.kiosk.idle_ms // 500 + 1):
        console.tick(500)
    assert console.app.mode == ui.TITLE


def test_in_kiosk_mode_settings_stay_locked_until_the_chord_is_held():
    console = console_on(MemoryStorage(), kiosk=True)
    into_play(console)
    keys(console, "START UP UP UP A")
    assert console.app.mode == ui.PAUSE  # settings refused
    keys(console, "B")
    console.held(k.CHORD)
    for _ in range(k.CHORD_MS // 33 + 2):
        console.tick(33)
    assert console.app.mode == ui.SETTINGS


def test_in_the_service_menu_the_chord_again_resets_statistics():
    disk = MemoryStorage()
    console = console_on(disk, kiosk=True)
    console.keeper.stats.record_game(0, True, 0, 0)
    console.keeper.save_stats()
    console.held(k.CHORD)
    for _ in range(k.CHORD_MS // 33 + 2):
        console.tick(33)
    console.held(0)
    console.tick(33)
    console.held(k.CHORD)
    for _ in range(k.CHORD_MS // 33 + 2):
        console.tick(33)
    assert console.keeper.stats.get(0, r.PLAYED) == 0
    assert console_on(disk).keeper.stats.get(0, r.PLAYED) == 0


def test_mashing_every_screen_size_loses_no_card_and_raises_nothing():
    counts = mash(QUICK["ui_events"], seed=3)
    assert counts["failures"] == 0, counts.get("first")
    assert counts["events"] == QUICK["ui_events"] and counts["screens seen"] >= 5


HEAP_LOCK = """
import gc, micropython
from engine_core.console import Console
from engine_core.gfx.screen import Screen
from engine_core.ui import buttons as bt
from engine_core.games.spite_malice import hand_pile
from engine_core.storage import MemoryStorage
from engine_core.ui.app import App
from simulator.keys import parse

def play(console, events):
    for e in events:
        if e[0] < 0:
            console.tick(-e[0])
        else:
            console.press(e[0], e[1])

console = Console(App(Screen(240, 240)), MemoryStorage())
KIOSK
console.start()
events = parse(KEYS)
play(console, events)  # the first pass makes every screen's and game's objects once
result = "not run"
gc.collect()
micropython.heap_lock()
try:
    play(console, events)
    play(console, events)
    result = "no allocation"
except MemoryError:
    result = "allocated"
micropython.heap_unlock()
print(result, console.keeper.stats.get(0, 0) > 0, console.kiosk.demo_game, len(console.names))
"""

# Into a game, moves by the hint, a pause (the save), the pause menu's restart (the old game
# counted), more moves, back to the title.
KEYS = ("A A A " + "X A A TICK " * 6 + "WAIT WAIT START DOWN DOWN DOWN DOWN A A " + "X A A " * 4 +
        "WAIT START UP A A DOWN DOWN A B")


def test_keeping_records_allocates_nothing_per_keypress_on_micropython():
    out = run_mpy_ok(HEAP_LOCK.replace("KIOSK", "").replace("KEYS", repr(KEYS))).split()
    assert out[:3] == ["no", "allocation", "True"]


def test_the_kiosk_demo_through_the_interface_allocates_nothing_on_micropython():
    kiosk = ("console.keeper.start()\n"
             "console.keeper.settings.set('kiosk', 1)\n"
             "console.keeper.save_settings()\n")
    n = len(interface_games())
    keys = ("WAIT " * 46 + "A ") * n  # a demo of each game, each ended by a press
    out = run_mpy_ok(HEAP_LOCK.replace("KIOSK", kiosk).replace("KEYS", repr(keys))).split()
    assert out[:2] == ["no", "allocation"]
    assert int(out[4]) == n and int(out[3]) == n - 1  # three rounds of demos went round the games


def interface_games():
    return [g for g in games.available() if layouts.declaration(g) is not None]


def test_the_casket_rules_setting_picks_the_profile_of_the_next_deal_and_a_resumed_game_keeps_its_own():
    disk = MemoryStorage()
    console = console_on(disk)
    keys(console, "DOWN A DOWN DOWN A")  # title: choose a game, Casket, a fresh deal
    app = console.app
    assert app.table.game.NAME == "casket" and app.table.game.rules == 2
    keys(console, "START UP UP UP A UP UP UP UP UP")  # pause menu: settings; Casket rules, fifth from last
    assert app.mode == ui.SETTINGS and app.setting_label(ui.S_CASKET_RULES) == b"2: stacks"
    keys(console, "A")
    assert app.setting_label(ui.S_CASKET_RULES) == b"1: one card"
    keys(console, "TICK TICK")  # written on the frame after
    assert console.keeper.settings.get("casket_rules") == 1
    assert app.table.game.rules == 2  # the game in play keeps its profile
    keys(console, "B UP UP A")  # back to the pause menu, new deal (nothing played: no question)
    game = app.table.game
    assert app.mode == ui.PLAY and game.rules == 1 and '"rules": 1' in state_json(game)
    play_hints(console, 2)
    assert app.table.move_count >= 1
    keys(console, "WAIT")  # play pauses: the game is saved
    again = console_on(disk)  # switched off and on: the profile-1 game comes back as it was
    assert again.app.table.game.rules == 1 and position(again.app.table.game)[1] == position(game)[1]
    assert again.app.settings[ui.S_CASKET_RULES] == 1
    # Continue; Casket rules back to 2: the resumed game stays at 1
    keys(again, "A START UP UP UP A UP UP UP UP UP A TICK TICK")
    assert again.keeper.settings.get("casket_rules") == 2 and again.app.table.game.rules == 1
    keys(again, "B UP UP A A")  # new deal, yes: leave the game in progress
    assert again.app.table.game.rules == 2


def test_giving_up_a_started_game_records_a_loss_and_leaves_nothing_to_continue():
    disk = MemoryStorage()
    console = console_on(disk)
    into_play(console)
    play_hints(console, 2)
    keys(console, "WAIT START UP A")  # Give up: asked once
    assert console.app.mode == ui.CONFIRM and console.keeper.stats.get(0, r.PLAYED) == 0
    keys(console, "A")  # yes
    assert console.app.mode == ui.TITLE
    assert console.keeper.stats.get(0, r.PLAYED) == 1 and console.app.played[0] == 1
    keys(console, "TICK TICK")  # the flash work waits for the frame after the answer
    again = console_on(disk)
    assert not again.app.resumable and again.app.mode == ui.TITLE


def test_a_resumed_spite_malice_game_never_undoes_into_the_computers_turn():
    disk = MemoryStorage()
    console = console_on(disk)
    keys(console, "DOWN A DOWN DOWN DOWN A")  # Spite & Malice, a fresh deal
    table = console.app.table
    game = table.game
    for _ in range(40):  # the player's hints until the computer has played a turn
        keys(console, "X A A TICK")
        if table.computer_ms:
            break
    keys(console, "WAIT WAIT WAIT WAIT WAIT WAIT WAIT WAIT")  # its turn, then the save
    assert not game.computer_to_move()
    again = console_on(disk)
    keys(again, "A")  # Continue
    before = position(again.app.table.game)[1]
    keys(again, "Y")
    assert position(again.app.table.game)[1] == before


@pytest.mark.parametrize("name", ["spite_malice", "nerts"])
def test_the_computer_changed_in_the_settings_mid_game_plays_so_before_a_restart_and_after(name):
    """A resumed game takes the computer's level and speed from the settings: the game in
    play takes a change at once, so a restart does not change how the computer plays."""

    def computer(game):
        if name == "nerts":
            return ([game.bot.speed_of(p) for p in range(game.players)],
                    [game.bot.skill_of(p) for p in range(game.players)])
        return game.bot_level

    disk = MemoryStorage()
    console = console_on(disk)
    console.open_game(name, 7)
    game = console.app.table.game
    dealt = computer(game)
    keys(console, "START UP UP UP A")  # pause menu: settings
    assert console.app.mode == ui.SETTINGS
    keys(console, "DOWN DOWN A DOWN A B B")  # speed and level one step on; back to play
    assert console.app.mode == ui.PLAY and console.app.table.game is game
    assert computer(game) != dealt  # the game in play takes the change
    console.close()
    again = console_on(disk)
    assert computer(again.app.table.game) == computer(game)


@pytest.mark.parametrize("name", ["spite_malice", "nerts"])
def test_the_computer_changed_mid_game_allocates_nothing_on_micropython(name):
    from tests.test_ui_micropython import heap_lock_script
    keys = "START UP UP UP A DOWN DOWN A DOWN A LEFT UP LEFT B B X A A"
    out = run_mpy_ok(heap_lock_script(name, SIZE, keys))
    assert out.startswith("no allocation "), out


def test_a_move_taken_back_and_another_made_between_two_looks_is_still_saved():
    """A computer's move and an undo can fall in one frame: the journal is then as long as
    before, at the same place, with another position behind it. The Console must still save."""
    disk = MemoryStorage()
    console = console_on(disk)
    console.open_game("aces_up", 1)  # two cards to discard (col1, col3): one move each
    assert console.app.mode == ui.PLAY
    game = console.app.table.game
    out = array("i", [0] * game.MAX_MOVES)
    moves = [out[i] for i in range(game.legal_moves(out))]
    pair = None
    for first in moves:
        for second in moves:
            game.apply(first)
            after_first = (game.history.head, game.history.used, position(game)[1])
            game.undo()
            game.apply(second)
            after_second = (game.history.head, game.history.used, position(game)[1])
            game.undo()
            if after_first[:2] == after_second[:2] and after_first[2] != after_second[2]:
                pair = (first, second)
    assert pair is not None, "the deal offers two moves that leave journals of one length"
    game.apply(pair[0])
    console.after_input()
    keys(console, "WAIT")  # saved with the first move
    game.undo()
    game.apply(pair[1])
    console.after_input()
    keys(console, "WAIT")  # play pauses: the game is saved
    again = console_on(disk)
    keys(again, "A")  # Continue
    assert position(again.app.table.game)[1] == position(game)[1]


def test_to_the_title_keeps_the_game_and_continue_brings_it_back_with_the_cursor_where_it_was():
    disk = MemoryStorage()
    console = console_on(disk)
    into_play(console)
    play_hints(console, 2)
    keys(console, "RIGHT")
    app = console.app
    table = app.table
    cursor, moves, state = table.hand.cursor, table.move_count, position(table.game)[1]
    keys(console, "START UP UP A")  # To the title: nothing asked
    assert app.mode == ui.TITLE and app.resumable and app.selected == 0  # Continue, highlighted
    assert console.keeper.stats.get(0, r.PLAYED) == 0 and app.played[0] == 0 and app.left == 0
    keys(console, "A")  # Continue
    assert app.mode == ui.PLAY and app.table is table
    assert table.hand.cursor == cursor and table.move_count == moves and position(table.game)[1] == state
    keys(console, "START UP UP A TICK TICK")  # (written on the frame after the title's)
    again = console_on(disk)  # switched off at the title: the kept game is on record
    assert again.app.mode == ui.TITLE and again.app.resumable
    assert position(again.app.table.game)[1] == state and again.keeper.stats.get(0, r.PLAYED) == 0
    keys(again, "DOWN A")  # New game over the kept one: asked once, then given up
    assert again.app.mode == ui.CONFIRM
    keys(again, "A")
    assert again.app.mode == ui.PLAY and again.keeper.stats.get(0, r.PLAYED) == 1
    assert again.keeper.stats.get(0, r.WON) == 0


# --- the cursor kept with the saved game (undo record version 3) ---

def cursor_of(console):
    hand = console.app.table.hand
    return hand.cursor, hand.cursor_index


def home_of(console):
    """Where a deal puts the cursor on the console's table (TableInput.home)."""
    hand = console.app.table.hand
    kept = hand.cursor, hand.cursor_index, hand.held
    hand.home()
    home = hand.cursor, hand.cursor_index
    hand.cursor, hand.cursor_index, hand.held = kept
    return home


def test_to_the_title_then_switched_off_continue_puts_the_cursor_where_it_was():
    disk = MemoryStorage()
    console = console_on(disk)
    into_play(console)
    play_hints(console, 2)
    for _ in range(8):  # to a pile other than the cursor's home, wherever the deal put it
        keys(console, "RIGHT")
        if cursor_of(console) != home_of(console):
            break
    cursor = cursor_of(console)
    assert cursor != home_of(console)
    keys(console, "START UP UP A")  # To the title
    console.close()  # the window closed
    again = console_on(disk)
    keys(again, "A")  # Continue
    assert again.app.mode == ui.PLAY and cursor_of(again) == cursor


def test_a_cursor_moved_after_the_last_save_is_kept_by_to_the_title_and_by_the_screen_going_dark():
    for leave in ("START UP UP A", ""):
        disk = MemoryStorage()
        console = console_on(disk)
        into_play(console)
        play_hints(console, 2)
        keys(console, "WAIT")  # play pauses: the game is saved, the cursor where the hint left it
        keys(console, "RIGHT WAIT")  # the cursor alone moved: no save of its own
        assert console.keeper.unsaved is False
        cursor = cursor_of(console)
        if leave:
            keys(console, leave + " TICK TICK")  # To the title: kept a frame later (then a cut)
        else:
            console.save_now(False)  # the screen going dark writes what changed
        again = console_on(disk)
        keys(again, "A")
        assert cursor_of(again) == cursor, leave


def test_the_card_framed_in_a_fan_comes_back_too():
    disk = MemoryStorage()
    console = console_on(disk)
    console.open_game("spite_malice", 3)
    table = console.app.table
    hand_slot = table.slots.slot_of[hand_pile(0)]
    table.hand.point(hand_slot, 1)
    keys(console, "TICK")
    console.close()
    again = console_on(disk)
    keys(again, "A")
    assert cursor_of(again) == (hand_slot, 1)


def undo_record_of(disk):
    buf = bytearray(2048)
    n = disk.read("undo.dat", buf)
    return buf, n


def test_a_version_2_undo_record_still_resumes_with_the_cursor_at_home():
    disk = MemoryStorage()
    console = console_on(disk)
    into_play(console)
    play_hints(console, 3)
    keys(console, "Y RIGHT")  # a move to redo, the cursor moved
    console.close()
    buf, n = undo_record_of(disk)
    assert buf[3] == 3
    buf[3] = 2  # as the build before the cursor was kept wrote it: no cursor's two bytes
    disk.write("undo.dat", buf, r.finish(buf, n - 6))
    again = console_on(disk)
    keys(again, "A")
    table = again.app.table
    assert again.notice == b"" and cursor_of(again) == home_of(again)
    assert table.redo_n == 1 and table.game.can_undo()
    assert position(table.game)[1] == position(console.app.table.game)[1]


@pytest.mark.parametrize("slot, index", [(200, 0), ("theirs", 0), (254, 255), ("hand", 250)])
def test_an_undo_record_whose_cursor_is_out_of_range_leaves_the_cursor_at_home(slot, index):
    disk = MemoryStorage()
    console = console_on(disk)
    console.open_game("spite_malice", 3)
    table = console.app.table
    slots = table.slots
    theirs = [s for s in range(slots.count) if slots.how[s] & layouts.THEIRS]
    slot = {"theirs": theirs[0], "hand": slots.slot_of[hand_pile(0)]}.get(slot, slot)
    keys(console, "X A A TICK")
    console.close()
    buf, n = undo_record_of(disk)
    buf[n - 6], buf[n - 5] = slot, index
    disk.write("undo.dat", buf, r.finish(buf, n - 4))
    again = console_on(disk)
    keys(again, "A")
    assert again.notice == b"" and again.app.table.game.can_undo()  # the record is taken
    if slot == slots.slot_of[hand_pile(0)]:
        assert cursor_of(again) == (slot, view.NONE)  # on the fan: its top card
    else:
        assert cursor_of(again) == home_of(again)
    keys(again, "LEFT RIGHT UP DOWN A B")  # and the keys work from there


class CountingStorage(MemoryStorage):
    """Memory storage that counts its writes and removals, and names the files written."""

    def __init__(self):
        MemoryStorage.__init__(self)
        self.ops = 0
        self.written = []

    def write(self, name, buf, n):
        self.ops += 1
        self.written.append(name)
        return MemoryStorage.write(self, name, buf, n)

    def remove(self, name):
        self.ops += 1
        return MemoryStorage.remove(self, name)


def test_a_new_deal_over_a_saved_game_touches_the_flash_only_on_the_frame_after_its_own():
    disk = CountingStorage()
    console = console_on(disk)
    into_play(console)
    play_hints(console, 2)
    keys(console, "WAIT WAIT")  # saved
    assert disk.exists("game.dat")
    keys(console, "START DOWN DOWN DOWN DOWN DOWN A")  # New deal: asked, as the game counts
    assert console.app.mode == ui.CONFIRM
    ops = disk.ops
    keys(console, "A")  # yes: the deal
    console.tick(0)  # the rest of the frame that answers it
    assert console.app.mode == ui.PLAY and disk.ops == ops, "no flash work before the deal is shown"
    assert disk.exists("game.dat"), "the left game's record is still there"
    console.tick(33)  # the next frame: the statistics written, the old records erased
    assert disk.ops > ops and not disk.exists("game.dat")
    assert console_on(disk).keeper.stats.get(0, r.PLAYED) == 1


def test_a_press_the_kiosk_ignores_keeps_the_put_off_work_out_of_the_frame_it_joins():
    # The loop takes a press decided while the frame worked after that frame's tick, then
    # ticks with no time (engine_core/loop.py). SELECT, which the kiosk ignores, joined the
    # frame that answered "To the title": the game kept is still written a frame later, not
    # before that frame is sent.
    disk = CountingStorage()
    console = console_on(disk, kiosk=True)
    into_play(console)
    play_hints(console, 1)
    keys(console, "START UP UP")  # (the move not saved yet: the game to keep)
    ops = disk.ops
    console.press(bt.A)  # To the title: the game kept
    console.tick(30)
    assert console.app.mode == ui.TITLE
    console.press(bt.SELECT)  # latched while the frame worked: nothing in the kiosk
    console.tick(0)
    assert disk.ops == ops, "no flash work before the title is sent"
    console.tick(33)
    assert disk.ops > ops and disk.exists("game.dat")


def test_flash_work_put_off_by_a_press_waits_out_a_long_frame():
    # The flash work a press puts off (here a new deal's: the statistics, the left game's
    # records erased) is done in the frame after it; a frame that ran long is ticked with its
    # time before a press that came during it (engine_core/loop.py), and the work went out in
    # that tick, ahead of the press.
    disk = CountingStorage()
    console = dealt_and_saved(disk)
    play_hints(console, 2)
    keys(console, "WAIT WAIT")  # saved
    keys(console, "START DOWN DOWN DOWN DOWN DOWN A")  # New deal: asked, as the game counts
    assert console.app.mode == ui.CONFIRM
    keys(console, "A")  # yes: the deal
    console.tick(0)  # the rest of the frame that answers it
    ops = disk.ops
    console.tick(100)  # a frame that ran long: a press may wait behind its tick
    assert disk.ops == ops and disk.exists("game.dat"), "flash work in a long frame's tick"
    console.tick(33)  # the next frame: the statistics written, the old records erased
    assert disk.ops > ops
    assert console_on(disk).keeper.stats.get(0, r.PLAYED) == 1


def test_a_slow_host_whose_every_frame_is_long_still_saves_within_a_second():
    # A tick longer than two frames writes nothing (a press may wait behind it), but not for
    # ever: with every frame 70 ms long and a move every 0.42 s, nothing was saved at all.
    disk = MemoryStorage()
    console = dealt_and_saved(disk)
    made = []
    saved = []
    for _ in range(8):
        keys(console, "X A A")
        made.append(console.app.table.move_count)
        for _ in range(6):
            console.tick(70)
        saved.append(saved_game(disk).history.moves)
    assert made[-1] >= 6, made
    assert saved[-1] >= made[-4] > 0, (made, saved)  # at most about a second behind


def test_a_move_after_a_long_rest_is_answered_before_it_is_saved():
    # The loop hands a press over at the last frame's time and then ticks the console with
    # the whole rest before it: that time must not count as the pause after the move.
    disk = CountingStorage()
    console = console_on(disk)
    into_play(console)
    keys(console, "WAIT WAIT")
    ops = disk.ops
    console.press(bt.X)
    console.press(bt.A)
    console.press(bt.A)  # the hinted move
    assert console.keeper.unsaved
    console.tick(1000)  # the frame that took the move, after a second's rest
    assert disk.ops == ops, "saved in the move's own frame"
    keys(console, "WAIT WAIT")
    assert disk.ops > ops and not console.keeper.unsaved


def test_a_save_due_in_a_frame_that_answers_a_press_waits_for_the_next_frame():
    # On the chip a save of the game is some 20 ms of flash work: falling in START's frame it
    # held the pause menu's answer to 35 ms. The frame that answers a press writes nothing;
    # the save comes in the next frame, and the game is kept as it stood.
    disk = CountingStorage()
    writes = disk.written
    console = console_on(disk)
    into_play(console)
    play_hints(console, 2)
    assert console.keeper.unsaved  # (the move's own frame, TICK, writes nothing)
    writes.clear()
    keys(console, "START")
    console.tick(50)  # START's own frame: SAVE_DELAY_MS pass in it
    assert console.app.mode == ui.PAUSE and writes == []
    console.tick(33)  # the next frame writes it
    assert "game.new" in writes and not console.keeper.unsaved, writes  # (written new, then renamed)
    assert resumed(disk) == position(console.app.table.game)[1]


def test_a_move_is_written_in_the_frames_after_its_own_not_in_the_pause_that_follows():
    # A press that goes down while the game is being written waits for the write (on the chip
    # 7-10 ms for the record, 2-4 ms for its journal, up to 16 ms when littlefs compacts). Saved
    # once play had paused half a second, the write fell in the very pauses in which a player
    # thinks and presses again (START 500 ms after a move: 50.9 ms on pico_st7735). Written in
    # the two frames after the move's own, it meets only a press that follows the move within
    # about 70 ms; the pause after it writes nothing.
    disk = CountingStorage()
    console = dealt_and_saved(disk)
    for _ in range(3):
        disk.written.clear()
        keys(console, "X A A")  # a move...
        console.tick(33)  # ...and its frame
        assert disk.written == [], "nothing written in the move's own frame"
        frames = 0
        while console.keeper.unsaved or console.keeper.journal_due:
            console.tick(33)
            frames += 1
            assert frames <= 3, "the move is not on the flash three frames after"
        assert len(disk.written) == 2, disk.written  # the record and its journal
        disk.written.clear()
        for _ in range(30):  # a second's pause, in which the next press may come
            console.tick(33)
        assert disk.written == [], "written in the pause after the move"
    assert resumed(disk) == position(console.app.table.game)[1]


def test_a_stuck_key_keeps_moves_from_the_flash_a_second_at_most_however_steady_the_play():
    # While a key is down the save waits for its release (X acts on it), for a second at most.
    # That second counted from the last move: with a key stuck and a move every 0.6 s, nothing
    # was ever saved (40 moves in 24 s, none found by a restart). It counts from the oldest
    # move not yet saved.
    disk = MemoryStorage()
    console = dealt_and_saved(disk)
    console.held(1 << bt.SELECT)  # stuck
    made = []
    saved = []
    for _ in range(6):
        keys(console, "X A A")
        made.append(console.app.table.move_count)
        for _ in range(18):  # 0.6 s of play
            console.tick(33)
        game = saved_game(disk)
        saved.append(game.history.moves if game is not None else 0)
    assert made[-1] >= 4, made
    assert saved[-1] >= made[-3] and saved[-1] > 0, (made, saved)  # at most ~1.2 s behind


def test_a_long_frame_before_a_press_writes_nothing():
    # A frame that runs long (a hint's search: some 100 ms on the chip) is ticked with its time
    # before a press that came during it is handed over (engine_core/loop.py): a save that fell
    # due in that tick went out first, and the press waited for it.
    disk = CountingStorage()
    console = console_on(disk)
    into_play(console)
    keys(console, "WAIT WAIT")
    keys(console, "X A A")  # a move, in its frame...
    console.tick(33)
    disk.written.clear()
    console.tick(100)  # ...then a frame that ran long, a press waiting behind it
    assert disk.written == [], "written in the long frame's tick"
    keys(console, "RIGHT")
    console.tick(33)  # the press's frame
    assert disk.written == []
    console.tick(33)
    assert "game.new" in disk.written  # the frame after (written new, then renamed)
    assert saved_game(disk).history.moves == console.game.history.moves


def test_a_cut_in_the_computers_turn_keeps_the_moves_it_showed():
    # Spite & Malice shows the computer's turn move by move (450 ms apart). Each of its moves
    # is saved as it comes: a console restarted after a cut in the turn must not play the
    # moves already shown again (planned afresh, they could differ from those shown).
    disk = MemoryStorage()
    console = console_on(disk)
    console.open_game("spite_malice", 3)
    table = console.app.table
    for _ in range(12):  # the player's turns, until the computer plays one of several moves
        for _ in range(60):  # the player's hints until its turn ends
            keys(console, "X A A")
            console.tick(33)
            if table.computer_ms > 0:
                break
        assert table.computer_ms > 0, "the player's turn ended"
        before = table.game.history.moves
        while table.computer_ms > 0 and table.game.history.moves - before < 2:
            console.tick(33)
        if table.computer_ms > 0:
            break
    assert table.computer_ms > 0, "a turn of three moves or more"
    for _ in range(3):  # two frames after its second move
        console.tick(33)
    shown = json.loads(state_json(table.game))
    cut = MemoryStorage()
    for name in disk.listing():
        buf = bytearray(4096)
        cut.write(name, buf, disk.read(name, buf))
    again = console_on(cut)  # the power went: no close(), no save
    keys(again, "A")  # Continue
    resumed = json.loads(state_json(again.app.table.game))
    del shown["clock_ms"], resumed["clock_ms"]
    assert resumed == shown


def test_a_save_waits_while_a_key_is_down_but_not_past_a_second():
    # X acts on its release: a save begun while it was held made its answer wait for the save.
    # A key held on (a repeating cursor, a stuck button) must not keep a move from the flash:
    # after a second of paused play the game is saved whatever is down, and it resumes so.
    for let_go in (True, False):
        disk = MemoryStorage()
        console = console_on(disk)
        into_play(console)
        play_hints(console, 2)
        console.held(1 << bt.LEFT)
        for _ in range(10):  # 0.5 s of play paused, LEFT held all along
            console.tick(50)
        assert console.keeper.unsaved
        waited = 500
        if let_go:
            console.held(0)
        while waited < 5000 and console.keeper.unsaved:
            console.tick(50)
            waited += 50
        assert waited <= (550 if let_go else 1050), (let_go, waited)
        again = console_on(disk)
        keys(again, "A")  # Continue
        assert position(again.app.table.game)[1] == position(console.app.table.game)[1]


def test_the_computer_players_moves_are_saved_every_few_seconds_the_players_own_at_once():
    # Nerts's computer players move about once a second: a save after each wore the flash and
    # took 25-40 ms of the chip's frames, which a press could meet. Their moves now wait for
    # the next save, or five seconds after the last; the player's own move is saved half a
    # second after it, as ever, and a restart finds it.
    disk = CountingStorage()
    writes = disk.written
    console = console_on(disk)
    keys(console, "DOWN A DOWN DOWN DOWN DOWN A")  # the game list: Nerts, against the computer
    table = console.app.table
    assert table.game.NAME == "nerts"
    for _ in range(20):
        console.tick(50)
    writes.clear()
    moves = table.game.history.moves
    for _ in range(200):  # ten seconds of the computer players alone
        console.tick(50)
    assert table.game.history.moves - moves >= 5, "the computer players moved"
    assert 1 <= writes.count("game.new") <= 3, writes.count("game.new")
    own = table.move_count
    keys(console, "X A A")  # the player's own move
    assert table.move_count == own + 1
    writes.clear()
    for _ in range(12):
        console.tick(50)
        if "game.new" in writes:
            break
    assert "game.new" in writes, "the player's move saved within 0.6 s"
    saved = position(table.game)[1]
    again = console_on(disk)  # the power goes now: the restart finds the game as saved
    keys(again, "A")  # Continue
    assert position(again.app.table.game)[1] == saved


@pytest.mark.parametrize("halves", [False, True])
def test_the_players_move_is_saved_while_three_computer_players_keep_moving(halves):
    """Nerts with three computer players: they move more often than every half second, and
    each of their moves put the save of the player's move off again: nothing was written for
    20 seconds. The pause that saves the player's move counts from that move; their moves
    alone are saved within OTHERS_SAVE_MS. Saved in halves (the device), the journal written
    a frame after the record matches it though a computer moved between."""
    from engine_core.save import OTHERS_SAVE_MS, SAVE_DELAY_MS, Keeper
    from engine_core.ui.settings import S_PLAYERS
    disk = MemoryStorage()
    console = Console(App(Screen(240, 240, framebuf)), disk)
    console.keeper.in_halves = halves
    console.start()
    console.app.settings[S_PLAYERS] = 2  # four players
    console.open_game("nerts", 1)
    game = console.app.table.game
    assert game.players == 4 and game.bots
    for _ in range(30):  # a second of play: the computer players move
        console.tick(33)
    keys(console, "X A A")  # the player's own move (Nerts: a hint's move, then its drop)
    own = game.history.moves
    moved_at = None
    for frame in range(40):  # 1.3 s, the computer players moving on
        before = game.history.moves
        console.tick(33)
        if game.history.moves != before and frame < 20:
            moved_at = frame
    assert moved_at is not None, "the computer players moved in the half second after"
    keeper = Keeper(disk)
    keeper.start()
    resumed = keeper.resume()
    assert resumed is not None and resumed.history.moves >= own, "the player's move is saved"
    assert resumed.can_undo(), "with its undo journal"
    assert SAVE_DELAY_MS < 40 * 33 < OTHERS_SAVE_MS


def test_the_computer_players_moves_are_written_right_after_a_press_not_where_the_next_may_fall():
    # A press that goes down while a save is being written waits for it. The computer
    # players' moves were written five seconds after the oldest of them, whenever that fell:
    # A in play on the emulated pico_st7735 met it at 36.1 ms, against about 31. With the
    # player pressing, they are written in the two frames after a press's answer, where the
    # next press is not yet coming.
    from engine_core.ui.settings import S_PLAYERS
    disk = CountingStorage()
    console = Console(App(Screen(240, 240, framebuf)), disk)
    console.keeper.in_halves = True  # as on the device
    console.start()
    console.app.settings[S_PLAYERS] = 2  # four players
    console.open_game("nerts", 1)
    game = console.app.table.game
    moves = game.history.moves
    pressed = []  # the frames that answered a press
    written = []  # the frames that wrote the game record
    for frame in range(600):  # 20 s, a cursor key every 0.7 s (no move of the player's)
        if frame % 21 == 0:
            keys(console, "RIGHT" if frame % 42 else "LEFT")
            pressed.append(frame)
        disk.written.clear()
        console.tick(33)
        if "game.new" in disk.written:
            written.append(frame)
    assert game.history.moves - moves >= 10, "the computer players moved"
    assert len(written) >= 3, written  # every few seconds
    late = [f for f in written if not any(0 < f - p <= 2 for p in pressed)]
    assert late == [], (late, pressed)
    assert saved_game(disk).history.moves > moves


def four_player_nerts(disk, seed=1):
    """A console on `disk` saving as the device does, four players of Nerts dealt."""
    from engine_core.ui.settings import S_PLAYERS
    console = Console(App(Screen(240, 240, framebuf)), disk)
    console.keeper.in_halves = True
    console.start()
    console.app.settings[S_PLAYERS] = 2  # four players
    console.open_game("nerts", seed)
    return console


def ended_by_a_computer_player(disk):
    """Four-player Nerts on `disk` (the deal of seed 7), the player idle until a computer
    player goes out: the console and its ended game."""
    console = four_player_nerts(disk, 7)
    game = console.app.table.game
    for _ in range(20000):
        if game.status() != PLAYING:
            break
        console.tick(33)
    assert game.status() != PLAYING, "a computer player went out"
    return console, game


def test_the_players_move_does_not_wait_behind_the_journal_of_the_computers_save():
    # The computer players' moves, written in the frame after a press, leave their journal
    # for the frame after. A move of the player's in that frame had its record written a
    # frame late, behind that journal: a cut then lost it.
    disk = CountingStorage()
    console = four_player_nerts(disk)
    table = console.app.table
    for _ in range(90):  # 3 s of the computer players alone: their moves wait for a press
        console.tick(33)
    keys(console, "RIGHT")
    console.tick(33)  # RIGHT's frame
    disk.written.clear()
    console.tick(33)  # the computer players' moves: the record, the journal left waiting
    assert disk.written == ["game.new"] and console.keeper.journal_due, disk.written
    own = table.move_count
    keys(console, "X A A")  # the player's move...
    assert table.move_count == own + 1
    console.tick(33)  # ...and its frame
    disk.written.clear()
    console.tick(33)
    assert "game.new" in disk.written, "the player's move waited behind a journal"
    assert position(saved_game(disk))[1] == position(table.game)[1]  # (its journal: next frame)


def test_a_game_a_computer_player_ends_is_written_once_in_a_frame_that_answers_no_press():
    # The statistics and the ended game go out in the frame after the one that ended it:
    # that frame may answer a press, whose answer then waited for three writes.
    disk = CountingStorage()
    console, game = ended_by_a_computer_player(disk)
    keys(console, "RIGHT")
    disk.written.clear()
    console.tick(33)  # RIGHT's frame
    assert disk.written == [], "written in a frame that answers a press"
    console.tick(33)
    assert "stats.new" in disk.written and "game.new" in disk.written, disk.written
    for _ in range(8):
        console.tick(33)
    # once: a save of the computer players' moves, due after the press, wrote it again
    assert disk.written.count("game.new") == 1, disk.written
    assert console_on(disk).keeper.stats.get(games.game_id("nerts"), r.PLAYED) == 1


def test_a_press_in_every_frame_holds_the_computer_players_moves_ten_seconds_at_most():
    # A frame that answers a press writes nothing; with a press in every frame nothing was
    # ever written (two minutes of the computer players' moves lost at a cut).
    disk = CountingStorage()
    console = four_player_nerts(disk)
    game = console.app.table.game
    seen = []
    for frame in range(600):  # 20 s, a press in every frame
        keys(console, "RIGHT" if frame % 2 else "LEFT")
        console.tick(33)
        seen.append(game.history.moves)
    assert seen[-1] - seen[0] >= 10, "the computer players moved"
    kept = saved_game(disk).history.moves
    assert kept >= seen[-1 - 10000 // 33], (kept, seen[-1])


def test_a_setting_changed_in_every_frame_is_still_written_every_second():
    # A setting is written in the frame after the press that changed it, and flash work put
    # off waits for a frame that answers no press: with a press in every frame (each one
    # changing the setting again) it was never written at all.
    disk = CountingStorage()
    console = console_on(disk)
    into_play(console)
    keys(console, "START UP UP UP A")  # pause menu: settings
    assert console.app.mode == ui.SETTINGS
    disk.written.clear()
    for frame in range(90):  # 3 s, sound switched in every frame
        keys(console, "A")
        console.tick(33)
    assert 2 <= disk.written.count("settings.new") <= 4, disk.written
    assert console_on(disk).app.settings[ui.S_SOUND] in (0, 1)


def test_a_game_given_up_is_counted_and_erased_though_keys_are_pressed_in_every_frame():
    disk = CountingStorage()
    console = dealt_and_saved(disk)
    play_hints(console, 2)
    keys(console, "WAIT WAIT")  # saved
    keys(console, "START")
    console.app.selected = 9  # Give up
    keys(console, "A A")  # asked, yes
    assert console.app.mode == ui.TITLE and console.game is None
    for frame in range(60):  # 2 s at the title, a press in every frame
        keys(console, "DOWN" if frame % 2 else "UP")
        console.tick(33)
    assert not disk.exists("game.dat"), "the given-up game would be continued"
    assert console_on(disk).keeper.stats.get(0, r.PLAYED) == 1


def test_a_game_dealt_while_presses_hold_the_last_ones_end_is_saved():
    # A game's end is written in the frame after it, and presses in frame after frame hold
    # that a second. A game dealt and played in that second lost its save: writing the ended
    # game cleared the new one's unsaved move, and nothing was written for it at all.
    disk = CountingStorage()
    console, game = ended_by_a_computer_player(disk)
    frame = 0
    while console.app.guard_ms > 0 and frame < 60:  # the end panel lets no press through yet
        keys(console, "UP")
        console.tick(33)
        frame += 1
    for key in ("B", "UP", "A", "X", "A", "A"):  # the game list: another game dealt, a move
        keys(console, key)
        console.tick(33)
    played = console.app.table.game
    assert played is not game and played.history.moves > 0
    for frame in range(30):  # the presses go on past the second
        keys(console, "UP" if frame % 2 else "DOWN")
        console.tick(33)
    for _ in range(30):
        console.tick(33)
    again = saved_game(disk)
    assert again is not None and position(again)[1] == position(played)[1]


def test_changes_every_other_frame_still_write_their_journals():
    # A save of the player's change writes the journal a save before it left waiting no more
    # (its record is newer). Written in halves, each such save's own journal then waited for
    # a frame the next change took: with undo and redo every other frame, no journal at all.
    disk = CountingStorage()
    console = console_on(disk)
    console.keeper.in_halves = True  # as on the device
    into_play(console)
    play_hints(console, 2)
    keys(console, "WAIT WAIT")
    disk.written.clear()
    for i in range(40):
        if i % 2 == 0:
            console.press(bt.Y)  # undo
        else:
            console.press(bt.X, True)  # long X: redo
        console.tick(33)
        console.tick(33)
    assert disk.written.count("undo.new") >= 10, disk.written.count("undo.new")
    again = console_on(disk)
    keys(again, "A")  # Continue
    assert again.app.table.game.can_undo(), "the journal written with the last record"


def test_computer_players_moves_alone_are_saved_within_five_seconds():
    """With the player idle and three computer players moving, their moves are saved at most
    OTHERS_SAVE_MS apart, never put off for ever by the next of their moves."""
    from engine_core.save import OTHERS_SAVE_MS, Keeper
    from engine_core.ui.settings import S_PLAYERS
    disk = MemoryStorage()
    console = Console(App(Screen(240, 240, framebuf)), disk)
    console.start()
    console.app.settings[S_PLAYERS] = 2  # four players
    console.open_game("nerts", 1)
    for _ in range((OTHERS_SAVE_MS + 1500) // 33):
        console.tick(33)
    keeper = Keeper(disk)
    keeper.start()
    resumed = keeper.resume()
    assert resumed is not None and resumed.clock_ms >= OTHERS_SAVE_MS - 1000, "saved as they played"
