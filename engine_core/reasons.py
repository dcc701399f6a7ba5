"""Why a move is refused, as small ints with short words for the screen.

Each game's `refusal(move)` names the rule a well-formed move breaks, by the same reasoning as
its `explain(move)` (which the protocol uses and which names cards and piles), but without
building text: the interface shows TEXTS[code] on a refused keypress and allocates nothing.
Every text fits a 240-pixel line (38 characters of the 6-pixel font).
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
PLAYED_ON = const(51)  # Nerts: undo of the player's own move (Nerts.take_back)
PLAYED_SINCE = const(52)
UNDO_TOO_OLD = const(53)
PEER_PLAYED = const(54)  # link play: TURN_PLAYED's words for the other player

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
    b"The computer has played on that pile",
    b"The computer's plays since rely on it",
    b"Too many plays since to undo it",
    b"The other player has played: no undo",
)
