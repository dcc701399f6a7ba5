"""The words the play control writes into its message line (Table.said: the length, then the
text), for the strip at the foot of the table (reasons.SAID). No allocation."""

RANKS = b"A23456789TJQK"
SUITS = b"SHDC"


def computer_move(b, kind, dst):
    """'CPU: 7H to centre 2' (or 'to side 3') in b."""
    n = put_said(b, 1, b"CPU: ")
    rank = kind % 13
    if rank == 9:
        n = put_said(b, n, b"10")
    else:
        b[n] = RANKS[rank]
        n += 1
    b[n] = SUITS[(kind // 13) % 4]
    n += 1
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
