"""The console's settings, in one table: what the settings screen shows, what each choice
means, the record it is saved under (engine_core/records.py) and what it does, in a line.

App.settings holds each setting's choice (an index into its row's words), in this order;
the S_* names below are those indexes (a test holds them to the table's record keys).
Everything here is a constant tuple, which the frozen firmware keeps in flash.
"""

from micropython import const

S_SOUND = const(0)
S_BACK = const(1)
S_SPEED = const(2)
S_LEVEL = const(3)
S_JOKERS = const(4)
S_TARGET = const(5)
S_PLAYERS = const(6)
S_AUTOPLAY = const(7)
S_TWO_BUTTONS = const(8)
S_CASKET_RULES = const(9)
S_WINNABLE = const(10)
S_SLIDE = const(11)
S_DIM = const(12)
S_OFF = const(13)

# The row's fields.
NAME = const(0)  # the settings screen's words for it
CHOICES = const(1)  # the words of each choice
KEY = const(2)  # its record's name
VALUES = const(3)  # what the record holds for each choice (None: the choice's index)
DEFAULT = const(4)  # the choice of a new console
ABOUT = const(5)  # what it does: one line under the menu, 34 characters at most
# Where a row's name and its choice do not fit beside each other (the 128- and 160-pixel
# screens; menus.SettingsScreen.draw_words): its name in short, then its choice's words in
# short, where the row has them (a seventh and an eighth field).
SHORT_NAME = const(6)
SHORT_CHOICES = const(7)

SETTINGS: tuple = (  # (its rows differ in type: mypy is told only that it is a tuple)
    (b"Sound", (b"Off", b"On"), "sound", None, 1,
     b"Beeps for moves, wins and losses"),
    (b"Card back", (b"Blue", b"Red", b"Green", b"Purple"), "card_back", None, 0,
     b"The colour of face-down cards"),
    # Nerts's speed levels (nerts_bot.SPEEDS), by how a person fares: one who makes a card
    # move every 1.5 s wins about two rounds in three against Quick at the Normal level, and
    # about one in four against the top one (docs/ai.md, "Who wins how often against a person").
    (b"Computer speed", (b"Relaxed", b"Steady", b"Brisk", b"Quick", b"Faster than most"), "bot_speed",
     None, 3, b"Quick: you win about 2 rounds in 3", b"CPU speed",
     (b"Relaxed", b"Steady", b"Brisk", b"Quick", b"Fastest")),
    (b"Computer level", (b"Easy", b"Normal", b"Hard"), "bot_level", None, 1,
     b"How well the computer plays", b"CPU level"),
    (b"Jokers", (b"Off", b"On"), "jokers", None, 0,
     b"Nerts decks with two wild jokers"),
    (b"Target score", (b"Game's", b"50", b"100", b"150"), "target", (0, 50, 100, 150), 0,
     b"Score that wins a match", b"Target"),
    # How many play a new deal of Nerts: you and one to three computer players (a game in
    # progress keeps its own count; its saved record holds it).
    (b"Nerts players", (b"2", b"3", b"4"), "nerts_players", (2, 3, 4), 0,
     b"You and 1 to 3 computer players"),
    (b"Auto-play", (b"Off", b"On"), "auto_play", None, 1,
     b"A won game plays itself home"),
    (b"Two buttons", (b"Off", b"On"), "two_buttons", None, 0,
     b"Play with the A and B buttons only"),
    (b"Casket rules", (b"2: stacks", b"1: one card"), "casket_rules", (2, 1), 0,
     b"Cards a Casket reserve may hold", b"Casket"),
    (b"Deals", (b"Any", b"Winnable"), "winnable", None, 0,
     b"New deals: any, or proven winnable"),
    (b"Card slide", (b"Off", b"On"), "slide", None, 1,
     b"A moved card glides to its pile"),
    # The times (seconds) come last, in rising order: choice_of() reads them as the nearest.
    (b"Dim after", (b"Never", b"15 s", b"30 s", b"1 min", b"2 min", b"5 min"), "dim_s",
     (0, 15, 30, 60, 120, 300), 2, b"Screen dims when no key comes"),
    (b"Screen off after", (b"Never", b"1 min", b"3 min", b"10 min", b"30 min"), "screen_off_s",
     (0, 60, 180, 600, 1800), 2, b"Screen goes dark, game saved", b"Screen off"),
)

COUNT = const(14)  # len(SETTINGS)

def choices(i):
    """How many choices setting i has."""
    return len(SETTINGS[i][CHOICES])


def label(i, choice):
    """The words of setting i's choice."""
    return SETTINGS[i][CHOICES][choice]


def record_value(i, choice):
    """What setting i's record holds for a choice."""
    values = SETTINGS[i][VALUES]
    return choice if values is None else values[choice]


def choice_of(i, value):
    """The choice a record's value stands for: its default when no choice holds it (a record
    from another version, or damaged); for a time (S_DIM on), the nearest time, the shorter
    of two as near (0 alone is Never: 1 s reads as the shortest time, 3600 s as the longest)."""
    row = SETTINGS[i]
    values = row[VALUES]
    if values is None:
        return value if 0 <= value < len(row[CHOICES]) else row[DEFAULT]
    for k in range(len(values)):
        if values[k] == value:
            return k
    if i < S_DIM or value <= 0:
        return row[DEFAULT]
    k = 1
    while k + 1 < len(values) and values[k + 1] - value < value - values[k]:
        k += 1
    return k


def target_score(choice):
    """The target score a choice of the Target score setting stands for (0: the game's own)."""
    return SETTINGS[S_TARGET][VALUES][choice]


def nerts_players(choice):
    """How many players a new deal of Nerts seats, for a choice of the Nerts players setting."""
    return SETTINGS[S_PLAYERS][VALUES][choice]


def casket_profile(choice):
    """The Casket rule profile a choice of the Casket rules setting plays."""
    return SETTINGS[S_CASKET_RULES][VALUES][choice]
