"""A bounded JSON reader for `load`: the same answer on CPython and MicroPython.

The runtimes' json modules differ on bad input (what each accepts, and how deep it may nest
before a RecursionError), so `load` reads its JSON here instead:
- at most MAX_TEXT characters and MAX_DEPTH levels of nesting (a state has three);
- numbers are whole, at most MAX_DIGITS digits (a state holds no fractions and nothing past
  2**30); strings are JSON strings; a key may appear once in an object;
- an object comes back as an Object, its keys in the order written, so that the first thing
  wrong is the first one written, on both runtimes (MicroPython's dict keeps no order);
- an error is JsonError with what is wrong and where: "at byte 12: expected ':'".

This is edge code (the protocol's): it allocates.

    parse('{"a": [1, "x"]}').get("a")  ->  [1, "x"]
"""

from engine_core.text import escape_char, quote

MAX_TEXT = 20000  # the largest state (Nerts, four players with jokers) is under 4,000
MAX_DEPTH = 8
MAX_DIGITS = 10


class JsonError(Exception):
    """Text that is not JSON this reader takes; args[0] says what and where."""


class Object:
    """A JSON object: keys in the order written, and their values."""

    def __init__(self):
        self.keys = []
        self.values = {}

    def __contains__(self, key):
        return key in self.values

    def __len__(self):
        return len(self.keys)

    def get(self, key):
        return self.values[key]

    def put(self, key, value):
        self.keys.append(key)
        self.values[key] = value


def parse(text):
    """The value the JSON text holds (dict-like Object, list, str, int, True, False, None)."""
    if len(text) > MAX_TEXT:
        raise JsonError("longer than " + str(MAX_TEXT) + " characters")
    # Read as UTF-8 bytes: indexing a str walks it from the start on MicroPython, a bytes
    # object does not. Positions in errors count bytes (the same as characters in ASCII).
    reader = _Reader(text.encode())
    value = reader.value(0)
    reader.blanks()
    if reader.i < len(reader.data):
        reader.fail("unexpected " + quote(chr(reader.data[reader.i])) + " after the value")
    return value


_QUOTE = 0x22
_BACKSLASH = 0x5C
_ESCAPES = b'"\\/bfnrt'
_ESCAPED = '"\\/\b\f\n\r\t'
_HEX = b"0123456789abcdefABCDEF"


class _Reader:
    def __init__(self, data):
        self.data = data
        self.i = 0

    def fail(self, what):
        raise JsonError("at byte " + str(self.i + 1) + ": " + what)

    def blanks(self):
        data = self.data
        i = self.i
        while i < len(data) and data[i] in b" \t\r\n":
            i += 1
        self.i = i

    def peek(self):
        self.blanks()
        if self.i >= len(self.data):
            self.fail("the text ends too soon")
        return self.data[self.i]

    def value(self, depth):
        c = self.peek()
        if c == 0x7B or c == 0x5B:  # { [
            if depth == MAX_DEPTH:
                self.fail("nested deeper than " + str(MAX_DEPTH) + " levels")
            return self.object(depth + 1) if c == 0x7B else self.array(depth + 1)
        if c == _QUOTE:
            return self.string()
        if c == 0x2D or 0x30 <= c <= 0x39:  # - 0-9
            return self.number()
        for word, value in ((b"true", True), (b"false", False), (b"null", None)):
            if self.data[self.i:self.i + len(word)] == word:
                self.i += len(word)
                return value
        self.fail("expected a value, found " + quote(self.char_at(self.i)))

    def char_at(self, i):
        """The character starting at byte i (a byte of a broken sequence as itself)."""
        for n in (1, 2, 3, 4):
            try:
                return self.data[i:i + n].decode()
            except UnicodeError:
                pass
        return chr(self.data[i])

    def object(self, depth):
        self.i += 1
        obj = Object()
        if self.peek() == 0x7D:  # }
            self.i += 1
            return obj
        while True:
            if self.peek() != _QUOTE:
                self.fail("expected a key in double quotes")
            at = self.i
            key = self.string()
            if key in obj:
                self.i = at
                self.fail("the key " + quote(key) + " appears twice")
            if self.peek() != 0x3A:  # :
                self.fail("expected ':'")
            self.i += 1
            obj.put(key, self.value(depth))
            c = self.peek()
            if c == 0x7D:
                self.i += 1
                return obj
            if c != 0x2C:  # ,
                self.fail("expected ',' or '}'")
            self.i += 1

    def array(self, depth):
        self.i += 1
        if self.peek() == 0x5D:  # ]
            self.i += 1
            return []
        items = [self.value(depth)]
        while True:
            c = self.peek()
            if c == 0x5D:
                self.i += 1
                return items
            if c != 0x2C:
                self.fail("expected ',' or ']'")
            self.i += 1
            items.append(self.value(depth))

    def number(self):
        data = self.data
        start = self.i
        i = start + 1 if data[start] == 0x2D else start
        first = i
        while i < len(data) and 0x30 <= data[i] <= 0x39:
            i += 1
        if i == first or (data[first] == 0x30 and i > first + 1):
            self.fail("a number must be written as JSON writes it")
        if i < len(data) and data[i] in b".eE":
            self.i = i
            self.fail("numbers must be whole")
        if i - first > MAX_DIGITS:
            self.fail("a number longer than " + str(MAX_DIGITS) + " digits")
        self.i = i
        return int(data[start:i])

    def string(self):
        data = self.data
        i = self.i + 1
        out = []
        run = i  # the start of the bytes not yet copied into out
        while True:
            if i >= len(data):
                self.i = i
                self.fail("a string that never ends")
            c = data[i]
            if c == _QUOTE:
                out.append(self.decoded(run, i))
                self.i = i + 1
                return "".join(out)
            if c < 0x20:
                self.i = i
                self.fail("a control character " + escape_char(chr(c)) + " in a string")
            if c == _BACKSLASH:
                out.append(self.decoded(run, i))
                c = data[i + 1] if i + 1 < len(data) else 0
                k = _ESCAPES.find(bytes([c])) if c else -1
                if k >= 0:
                    out.append(_ESCAPED[k])
                    i += 2
                elif c == 0x75:  # u
                    out.append(self.unicode_escape(i))
                    i += 6
                else:
                    self.i = i
                    self.fail("a bad escape in a string")
                run = i
                continue
            i += 1

    def decoded(self, start, end):
        try:
            return self.data[start:end].decode()
        except UnicodeError:  # cannot come from a str; kept for a caller passing bytes
            self.i = start
            self.fail("a string that is not UTF-8")

    def unicode_escape(self, at):
        code = 0
        for k in range(at + 2, at + 6):
            d = _HEX.find(bytes([self.data[k]])) if k < len(self.data) else -1
            if d < 0:
                self.i = k
                self.fail("a bad \\u escape in a string")
            code = code * 16 + (d if d < 16 else d - 6)
        if 0xD800 <= code < 0xE000:
            self.i = at
            self.fail("a \\u escape of a lone surrogate")
        return chr(code)
