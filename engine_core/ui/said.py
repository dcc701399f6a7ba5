"""The words the play control writes into its message line (Table.said: the length, then the
text), for the strip at the foot of the table (reasons.SAID). No allocation."""

# The computer's move told in words, by rank and by suit (cards.py order).
RANK_WORDS = (b"Ace", b"Two", b"Three", b"Four", b"Five", b"Six", b"Seven", b"Eight", b"Nine",
              b"Ten", b"Jack", b"Queen", b"King")
SUIT_WORDS = (b"spades", b"hearts", b"diamonds", b"clubs")


def computer_move(b, kind, dst):
    """'Seven of hearts to centre 2' (or 'to side 3: your turn') in b: the longest, 'Queen of
    diamonds to side 3: your turn', is 38 characters, which the strip holds on the narrowest
    screen (240 pixels: 39)."""
    n = put_said(b, 1, RANK_WORDS[kind % 13])
    n = put_said(b, n, b" of ")
    n = put_said(b, n, SUIT_WORDS[(kind // 13) % 4])
    centre = dst <= 3  # Spite & Malice: centre1..3 are piles 1..3, then each player's six
    n = put_said(b, n, b" to centre " if centre else b" to side ")
    b[n] = 48 + (dst if centre else (dst - 6) % 6 + 1)
    n += 1
    if not centre:
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
