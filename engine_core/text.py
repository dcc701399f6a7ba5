"""Reading what people type: numbers, words and quotes, the same on CPython and MicroPython.

The protocol (engine_core/protocol.py) and the command lines (simulator/, tools/) take their
numbers here, so that both accept exactly the same text on both runtimes:
- digits are ASCII only ("²", "①" and "٣" are refused: CPython's str.isdigit and int() accept
  some of them, MicroPython none);
- at most MAX_DIGITS digits after any leading zeros, so no conversion meets CPython's
  4,300-digit limit or builds a big int on the device;
- words are separated by spaces and tabs only (CPython's str.split() also splits on \\x1c-\\x1f,
  U+0085 and U+2028, MicroPython's does not).
An error quotes at most QUOTE_MAX characters of what was typed, with control characters
escaped, so a reply never carries a NUL, an escape sequence or a megabyte back.

This is edge code: it allocates (strings), and runs once per command, never per frame.

    parse_number("42", "seed", 0, 99)  ->  42
    parse_number("4x", "seed", 0, 99)  raises ValueError("bad seed '4x': expected a whole number")
"""

QUOTE_MAX = 60
MAX_DIGITS = 10  # 2**30 - 1 has 10 digits
BLANKS = " \t"
LINE_ENDS = " \t\r\n"
_HEX = "0123456789abcdef"
DIGITS = "0123456789"


def quote(text):
    """'text' for an error message: at most QUOTE_MAX characters, controls escaped.

    quote("a\\x00b") -> "'a\\\\x00b'"; a longer text ends in '...' after QUOTE_MAX characters.
    """
    out = []
    n = len(text)
    for i in range(n if n < QUOTE_MAX else QUOTE_MAX):
        c = text[i]
        out.append("\\\\" if c == "\\" else escape_char(c))
    return "'" + "".join(out) + ("...'" if n > QUOTE_MAX else "'")


def escape_char(c):
    """A character as it may appear in a reply: controls (C0, DEL, C1, the line and paragraph
    separators) as \\xNN or \\uNNNN, everything else as it is."""
    code = ord(c)
    if code < 0x20 or 0x7F <= code <= 0x9F:
        return "\\x" + _HEX[code >> 4] + _HEX[code & 15]
    if code == 0x2028 or code == 0x2029 or code == 0xFEFF:
        return "\\u" + _HEX[code >> 12] + _HEX[(code >> 8) & 15] + _HEX[(code >> 4) & 15] + _HEX[code & 15]
    return c


def escape_controls(text):
    """text with its control characters escaped (escape_char), the rest as it is."""
    for c in text:
        if escape_char(c) != c:
            return "".join([escape_char(c) for c in text])
    return text


def is_digits(text):
    """True when text is one or more ASCII digits."""
    return len(text) > 0 and not text.strip(DIGITS)


def parse_number(text, what, low, high):
    """The whole number `text` writes in decimal (ASCII digits, an optional leading '-'), when
    it lies in low..high; else ValueError with the message to show.

    parse_number("-3", "x", -5, 5) -> -3; parse_number("7", "players", 1, 4) raises
    ValueError("players 7 is out of range 1..4").
    """
    digits = text[1:] if text.startswith("-") else text
    if not is_digits(digits):
        raise ValueError("bad " + what + " " + quote(text) + ": expected a whole number")
    start = 0
    while start < len(digits) - 1 and digits[start] == "0":
        start += 1
    if len(digits) - start > MAX_DIGITS:
        raise ValueError(what + " " + quote(text) + " is out of range " + str(low) + ".." + str(high))
    value = int(digits[start:])
    if digits is not text:
        value = -value
    if value < low or value > high:
        raise ValueError(what + " " + text + " is out of range " + str(low) + ".." + str(high))
    return value


def strip_line(line):
    """The line without the spaces, tabs and line ends around it."""
    return line.strip(LINE_ENDS)


def split_words(text, most=-1):
    """The words of text, separated by runs of spaces and tabs; with most=1, at most two
    words, the second the rest of the text (its inner blanks kept), as str.split does.

    split_words("new\taces_up  seed=3") -> ["new", "aces_up", "seed=3"]
    """
    text = text.strip(BLANKS)
    if most == 1:  # a command and the rest: one search (indexing a str is slow on MicroPython)
        space = text.find(" ")
        tab = text.find("\t")
        end = space if tab < 0 or 0 <= space < tab else tab
        if end < 0:
            return [text] if text else []
        return [text[:end], text[end:].strip(BLANKS)]
    words = []
    for word in text.replace("\t", " ").split(" "):
        if word:
            words.append(word)
    return words


def is_text(line):
    """False for a line whose characters are not strict UTF-8: MicroPython's decoder takes
    overlong forms (C0 AF), surrogates (ED A0 80) and code points past U+10FFFF, which
    CPython's refuses; the protocol refuses them on both. A line of ASCII is checked at once."""
    if len(line) == len(line.encode()):
        return True
    data = line.encode()
    n = len(data)
    i = 0
    while i < n:
        b = data[i]
        if b < 0x80:
            i += 1
            continue
        if b < 0xC2 or b > 0xF4:
            return False
        second = data[i + 1] if i + 1 < n else 0
        if (b == 0xE0 and second < 0xA0) or (b == 0xED and second >= 0xA0):
            return False
        if (b == 0xF0 and second < 0x90) or (b == 0xF4 and second >= 0x90):
            return False
        size = 2 if b < 0xE0 else 3 if b < 0xF0 else 4
        for j in range(i + 1, i + size):
            if j >= n or data[j] & 0xC0 != 0x80:
                return False
        i += size
    return True
