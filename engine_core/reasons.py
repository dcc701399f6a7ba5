"""Why a move is refused: small ints, each with the screen's words and the protocol's.

A game's `refusal(move)` is its one decision tree for an illegal move: it names the rule the
move breaks as one of these codes and builds no text, so the interface may ask on a keypress.
The words come from one table per code: TEXTS (the screen's, bytes, each within a 240-pixel
line: 38 characters of the 6-pixel font) and SAYS (the protocol's error line, where {src},
{dst}, {card} and {on} stand for the move's piles and cards; Game.explain fills them in).
A game whose words differ (its own pile names, its own moves) lists them in its module's
WORDS: (code, screen words or None, protocol words or None) triples, read by screen_words()
and protocol_words() before the shared table.
"""

from micropython import const

NONE = const(0)
OVER = const(1)
EMPTY = const(2)
STOCK_EMPTY = const(3)
DEAL_WAIT = const(4)
OUTRANK = const(5)
NOT_EMPTY = const(6)
ONLY_CARD = const(7)
NOT_THERE = const(8)
FOUND_ACE = const(9)
FOUND_NEXT = const(10)
HOLDING_SWAP = const(11)
PLACE_FIRST = const(12)
FOUND_STAYS = const(13)
STOCK_DRAW = const(14)
JEWEL = const(15)
LID = const(16)
RESERVE_FULL = const(17)
RESERVE_SWAP = const(18)
LID_EMPTY_BODY = const(19)
BODY_DOWN = const(20)
NOT_YOUR_TURN = const(21)
YOUR_PILES = const(22)
PAYOFF_CENTRE = const(23)
SIDE_SWAP = const(24)
NO_FIT = const(25)
GAME_ON = const(26)
NO_MOVE = const(27)
OWN_PILE = const(28)
ALTERNATE = const(29)
OWN_WORK = const(30)
CALL_EARLY = const(31)
FLIP_EMPTY = const(32)
CYCLE_EARLY = const(33)
ROUND_OVER = const(34)
FOUND_FULL = const(35)
NOT_YOURS = const(36)
JOKER = const(37)
FROM_HAND = const(38)
MATCH_OVER = const(39)
TOO_FEW = const(40)
NO_HOME = const(41)
NO_HINT = const(42)
NO_UNDO = const(43)
TURN_PLAYED = const(44)
SAID = const(45)  # not a reason: the table's own line (what the computer played)
NO_REDO = const(46)
THEIR_TURN = const(47)  # link play (engine_core/ui/linkplay.py) from here on
LINK_SILENT = const(48)
LINK_BACK = const(49)
LINK_NOT_HERE = const(50)
NOT_IN_HAND = const(51)  # game reasons again from here on
ONLY_JOKER = const(52)
JOKER_FIXED = const(53)
CYCLE_SHORT = const(54)
PLAYED_ON = const(55)  # Nerts: undo of the player's own move (Nerts.take_back)
PLAYED_SINCE = const(56)
UNDO_TOO_OLD = const(57)
PEER_PLAYED = const(58)  # link play: TURN_PLAYED's words for the other player
SEEKING = const(59)  # not a reason: X's answer while its hint is sought (Table.press_hint)
HINT_HERE = const(60)  # not a reason: a hint that is the action of the pile the cursor is on
PLAYING_OUT = const(61)  # not a reason: a key that plays the computer's turn out, before its work

TEXTS = (
    b"",
    b"The game is over",
    b"That pile is empty",
    b"The stock is empty: no redeal",
    b"Not yet: a discard or move is left",
    b"Needs a higher card of its suit shown",
    b"Only an empty column takes a card",
    b"Its only card: moving changes nothing",
    b"Cards cannot go there",
    b"A foundation starts with an ace",
    b"Not the next card for that foundation",
    b"Cards never move between holding piles",
    b"Place the turned card before drawing",
    b"Cards never leave a foundation",
    b"A on the stock turns its cards",
    b"The top jewel is never played",
    b"Lids take no cards",
    b"A reserve holds one card",
    b"Cards never move between reserves",
    b"A lid card may not start a body pile",
    b"Body piles build down in suit",
    b"It is the computer's turn",
    b"Play to the centre or your side stacks",
    b"The payoff card goes to the centre",
    b"Side stacks play only to the centre",
    b"It needs the next rank (or a king)",
    b"The game is still being played",
    b"That card has no move now",
    b"A card cannot move onto its own pile",
    b"Work piles: down, alternate colours",
    b"You build only on your own work piles",
    b"Call Nerts once your Nerts pile is out",
    b"Your stock and waste are empty",
    b"Cycle the stock only when stuck",
    b"The round is over",
    b"That foundation is complete",
    b"That is not your pile",
    b"Declare what the joker stands for",
    b"Play from your hand, payoff or sides",
    b"The match is over",
    b"The pile has fewer cards than that",
    b"No foundation takes that card now",
    b"No hint: no move is left",
    b"Nothing to undo",
    b"The computer has played: no undo",
    b"",
    b"Nothing to redo",
    b"It is the other player's turn",
    b"No word from the other console...",
    b"The other console is back",
    b"Not in link play",
    b"That card is not in your hand",
    b"Cards cannot go there",
    b"Not the next card for that foundation",
    b"Cycle the stock only when stuck",
    b"The computer has played on that pile",
    b"The computer's plays since rely on it",
    b"Too many plays since to undo it",
    b"The other player has played: no undo",
    b"Looking for a hint",
    b"Hint: press A on this pile",
    b"Finishing CPU's turn",
)

# The protocol's words, by code as TEXTS (the error line after "illegal move TOKEN: ").
SAYS = (
    "",
    "the game is over",  # OVER
    "{src} is empty",  # EMPTY
    "the stock is empty and there is no redeal",  # STOCK_EMPTY
    "a discard or a move to an empty column is still available",  # DEAL_WAIT
    "{card} is not outranked by another exposed card of its suit",  # OUTRANK
    "{dst} is not empty",  # NOT_EMPTY
    "moving the only card of a column changes nothing",  # ONLY_CARD
    "cards cannot go there",  # NOT_THERE
    "a foundation starts with an Ace, not {card}",  # FOUND_ACE
    "{card} is not next on {dst}",  # FOUND_NEXT
    "cards never move from one holding pile to another",  # HOLDING_SWAP
    "the waste card must be placed before the next draw",  # PLACE_FIRST
    "cards never leave a foundation",  # FOUND_STAYS
    "stock cards are turned onto the waste by 'draw'",  # STOCK_DRAW
    "the top jewel is shown but never played directly",  # JEWEL
    "lids accept no cards",  # LID
    "{dst} already holds a card (a reserve holds one under rules 1)",  # RESERVE_FULL
    "cards never move from one reserve to another",  # RESERVE_SWAP
    "a lid card may not head an empty body pile",  # LID_EMPTY_BODY
    "body piles build down in suit: {card} does not go on {on}",  # BODY_DOWN
    "it is {turn}'s turn",  # NOT_YOUR_TURN
    "you play onto the centre stacks or your own side stacks",  # YOUR_PILES
    "the payoff pile plays only onto a centre stack",  # PAYOFF_CENTRE
    "cards never move from side stack to side stack",  # SIDE_SWAP
    "{card} does not fit on {dst}, which takes a {takes} (or a king)",  # NO_FIT
    "the game is still being played",  # GAME_ON
    "that card has no move now",  # NO_MOVE
    "a card cannot move onto its own pile",  # OWN_PILE
    "work piles build down in alternating colours",  # ALTERNATE
    "a player builds only on their own work piles",  # OWN_WORK
    "{player}'s Nerts pile is not empty",  # CALL_EARLY
    "{player}'s stock and waste are empty",  # FLIP_EMPTY
    "{player} has a play: the stock is cycled only when there is nothing to do but wait",  # CYCLE_EARLY
    "the round is over: 'deal' starts the next one",  # ROUND_OVER
    "{dst} is complete",  # FOUND_FULL
    "that is not your pile",  # NOT_YOURS
    "a joker needs its value declared: {src}>{dst}=CARD",  # JOKER
    "cards are played from your hand, payoff pile or side stacks",  # FROM_HAND
    "the match is over",  # MATCH_OVER
    "{src} holds only {count}",  # TOO_FEW
    "no foundation takes that card now",  # NO_HOME
    "no move is left",  # NO_HINT
    "nothing to undo",  # NO_UNDO
    "the computer has played: no undo",  # TURN_PLAYED
    "",  # SAID
    "nothing to redo",  # NO_REDO
    "it is the other player's turn",  # THEIR_TURN
    "no word from the other console",  # LINK_SILENT
    "the other console is back",  # LINK_BACK
    "not in link play",  # LINK_NOT_HERE
    "{src} holds no {kind}",  # NOT_IN_HAND
    "only a joker is declared",  # ONLY_JOKER
    "the joker is fixed as a {fixed}: a card was played onto it",  # JOKER_FIXED
    "{player}'s stock holds fewer than two cards",  # CYCLE_SHORT
    "the computer has played on that pile",  # PLAYED_ON
    "the computer's plays since rely on it",  # PLAYED_SINCE
    "too many plays since to undo it",  # UNDO_TOO_OLD
    "the other player has played: no undo",  # PEER_PLAYED
    "looking for a hint",  # SEEKING
    "press A on this pile",  # HINT_HERE
    "finishing the computer's turn",  # PLAYING_OUT
)


# The silence notice on a screen with a one-line strip (128x64: 21 characters), whole.
LINK_SILENT_SHORT = b"Other console silent"


def screen_words(game, code):
    """The screen's words for a reason in this game: its own (WORDS) or the shared TEXTS."""
    return _words(game, code, 1, TEXTS)


def protocol_words(game, code):
    """The protocol's words for a reason in this game (with {fields} for Game.explain)."""
    return _words(game, code, 2, SAYS)


def _words(game, code, column, shared):
    """Column `column` of the game's WORDS row for `code` when it has one, else shared[code]."""
    own = game.WORDS
    for i in range(len(own)):
        if own[i][0] == code and own[i][column] is not None:
            return own[i][column]
    return shared[code]
