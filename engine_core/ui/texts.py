"""Words on the screens: menus, settings and the rules pages (game titles are in the
registry, engine_core/games/__init__.py, which names each game's rules page here).

All bytes, so drawing them allocates nothing. The rules pages follow each game's rule
profile; the player reads them from the pause menu.
"""

PAUSE = (b"Resume", b"Hint", b"Undo", b"Redo", b"Restart", b"New deal", b"Rules", b"Settings",
         b"Quit")

SETTINGS = (b"Sound", b"Card back", b"Computer speed", b"Computer level", b"Jokers",
            b"Target score", b"Auto-play", b"Two buttons", b"Casket rules", b"Deals", b"Card slide")
ALL_WINNABLE = (b"Any", b"Winnable")  # the Deals setting (Aces Up, Sir Tommy, Casket)
TITLE_ITEMS = (b"Continue", b"New game", b"Choose a game", b"Statistics", b"Settings", b"Link play")
CONFIRMS = (b"Restart this deal?", b"Leave for a new deal?", b"Leave for that deal?",
            b"Quit this game?", b"Leave it for link play?")
STATS_COLUMNS = (b"Games", b"Won", b"Now", b"Best")
OFF_ON = (b"Off", b"On")
SPEEDS = (b"Slow", b"Normal", b"Fast")
LEVELS = (b"Easy", b"Normal", b"Hard")
TARGETS = (b"Game's", b"50", b"100", b"150")
CASKET_RULES = (b"2: stacks", b"1: one card")  # reserves stack cards, or hold one each

RULES_ACES_UP = (
    b"Goal: remove 48 cards, leaving only the four aces.\n"
    b"Four columns; only the top card of a column is exposed. Aces rank high.\n"
    b"Discard a column's top card when another exposed card of the same suit outranks "
    b"it (long A, or pick it up and place it on the discard). Colour is not enough.\n"
    b"Move a top card into an empty column, but only from a column of two or more.\n"
    b"Deal (A on the stock) puts one card on each column. It is allowed only when no "
    b"discard and no move to an empty column is left.\n"
    b"Won with 48 cards discarded; lost when the stock is empty and nothing can move.\n"
    b"Advice: watch suits with no high card exposed: several lower cards of that suit can "
    b"pile up until their queen, king or ace appears."
)

RULES_SIR_TOMMY = (
    b"Goal: build all four foundations from ace up to king, regardless of suit.\n"
    b"The stock is turned one card at a time; the first card is turned at once. The "
    b"current card goes to a foundation if its rank is next there, or onto any of the "
    b"four holding piles, whatever its rank or suit.\n"
    b"Draw (A on the stock) only once the current card is placed. There is no redeal.\n"
    b"Only the top card of a holding pile may leave it, to a foundation. Cards never "
    b"move between holding piles and never leave a foundation.\n"
    b"Won with all 52 cards on the foundations; lost when the stock and the current card "
    b"are gone and no holding card can move.\n"
    b"Advice: a soon-needed low card can be buried under a high blocker. Spread ranks "
    b"over the four holding piles and keep likely foundation successors near their tops, "
    b"rather than building one deep pile of mixed cards."
)

RULES_CASKET = (
    b"Two decks. Goal: build eight foundations up in suit from ace to king. The waste, "
    b"reserve, lid and body tops may go up; cards never leave a foundation.\n"
    b"Body piles build down in suit. An empty body pile takes a card from the waste, a "
    b"reserve or another body pile, never from a lid.\n"
    b"Lids take no cards; an emptied lid is refilled from the jewels while jewels remain. "
    b"The top jewel is shown but never played.\n"
    b"Reserves take single cards from the waste, a lid or a body pile, and stack them: "
    b"only the top card of a reserve may move. Under rules 1 (Settings: Casket rules) "
    b"a reserve holds one card.\n"
    b"Draw turns one stock card onto the waste, only once the waste card is placed. "
    b"No redeal. Under rules 1 the game is lost when no move remains; stacked reserves "
    b"always take a card.\n"
    b"Advice: prepare a non-empty body target before you take a lid card, so every jewel "
    b"refill stays usable. Clearing a body pile can block a lid move, since lid cards may "
    b"not head an empty body pile. Once the jewels are out, use the reserves to reorder "
    b"the last same-suit descents before you place the final waste cards."
)

RULES_SPITE_MALICE = (
    b"Two players, two decks. Goal: be first to empty your payoff pile.\n"
    b"Centre stacks build up from ace to queen regardless of suit. Kings are wild: a "
    b"king counts as the card that fits. A finished stack is shuffled into the stock.\n"
    b"On your turn, play the top of your payoff pile, a side stack top or a hand card onto "
    b"the centre, as often as you can. Play your whole hand and you draw five more.\n"
    b"End your turn by placing a hand card on one of your four side stacks. Side stack "
    b"cards only go to the centre.\n"
    b"Your hand is refilled to five at the start of your turn. Player 1 starts the "
    b"first game; the loser of a game starts the next.\n"
    b"The winner scores the cards left in the other payoff pile; a stock that runs dry "
    b"ends the game drawn. First to 50 points wins the match."
)

RULES_NERTS = (
    b"Everyone plays at once, each with a deck of their own.\n"
    b"Goal: empty your Nerts pile and score points on the shared foundations.\n"
    b"Work piles build down in alternating colours; a run moves together (up and down "
    b"on a work pile choose how many cards). An empty work pile takes the Nerts top, a "
    b"work-pile run or the waste top.\n"
    b"Foundations build up in suit from the ace; any player may add to any foundation.\n"
    b"A on your stock turns three cards onto the waste; only its top card plays. When "
    b"you are stuck, A on the stock moves its top card to the bottom.\n"
    b"With your Nerts pile empty, A on it calls Nerts and ends the round. Each player "
    b"scores +1 for each of their cards on the foundations and -2 for each card left in "
    b"their Nerts pile. Rounds go on to the target score (100)."
)


WINNABLE_NOTE = (
    b"Winnable deals: with the Deals setting on Winnable, a new deal is one the solver "
    b"proved can be won, playing with every card known (you still have to find the way). "
    b"A game whose table of such deals has not shipped deals any seed."
)

RULES_KEYS = (
    b"Keys: D-pad moves the cursor. A picks up and places. Long A sends a card to a "
    b"foundation. B cancels. X hint. Y undo. START menu. SELECT this page.\n"
    b"Two buttons: B next pile, long B menu, A pick or place, long A foundation or cancel."
)
