"""The words the play control writes into its message line (Table.said: the length, then the
text), for the strip at the foot of the table (reasons.SAID). No allocation."""

# The computer's move told in words, by rank and by suit (cards.py order).
RANK_WORDS = (b"Ace", b"Two", b"Three", b"Four", b"Five", b"Six", b"Seven", b"Eight", b"Nine",
              b"Ten", b"Jack", b"Queen", b"King")
RANK_SHORT = (b"A", b"2", b"3", b"4", b"5", b"6", b"7", b"8", b"9", b"10", b"J", b"Q", b"K")
SUIT_WORDS = (b"spades", b"hearts", b"diamonds", b"clubs")


def computer_move(b, kind, dst, short=False):
    """'Seven of hearts to centre 2' (or 'to side 3: your turn') in b: the longest, 'Queen of
    diamonds to side 3: your turn', is 38 characters, which the strip holds on the narrowest
    screen (240 pixels: 39). short: the one-line strip of a 128x64 screen (21 characters),
    'Q diamonds: side 3', '10 diamonds: centre 2' (its status corner says whose turn it is)."""
    centre = dst <= 3  # Spite & Malice: centre1..3 are piles 1..3, then each player's six
    if short:
        n = put_said(b, 1, RANK_SHORT[kind % 13])
        n = put_said(b, n, b" ")
        n = put_said(b, n, SUIT_WORDS[(kind // 13) % 4])
        n = put_said(b, n, b": centre " if centre else b": side ")
    else:
        n = put_said(b, 1, RANK_WORDS[kind % 13])
        n = put_said(b, n, b" of ")
        n = put_said(b, n, SUIT_WORDS[(kind // 13) % 4])
        n = put_said(b, n, b" to centre " if centre else b" to side ")
    b[n] = 48 + (dst if centre else (dst - 6) % 6 + 1)
    n += 1
    if not centre and not short:
        n = put_said(b, n, b": your turn")
    b[0] = n - 1


def out_of_step(b, here, there):
    """'Out of step: 0A1B2C3D vs 3E4F5A6B' in b: the two consoles' state hashes when they
    disagreed (the host's table is then loaded here)."""
    n = put_said(b, 1, b"Out of step: ")
    n = put_hex(b, n, here)
    n = put_said(b, n, b" vs ")
    n = put_hex(b, n, there)
    b[0] = n - 1


def put_hex(b, n, value):
    for k in range(8):
        d = (value >> (28 - 4 * k)) & 15
        b[n + k] = 48 + d if d < 10 else 55 + d
    return n + 8


def put_said(b, n, text):
    for i in range(len(text)):
        b[n + i] = text[i]
    return n + len(text)
