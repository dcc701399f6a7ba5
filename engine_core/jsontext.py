"""A bounded JSON reader for `load`: the same answer on CPython and MicroPython.

The runtimes' json modules differ on bad input (what each accepts, and how deep it may nest
before a RecursionError), so `load` reads its JSON here instead:
- at most MAX_TEXT characters and MAX_DEPTH levels of nesting (a state has three);
- numbers are whole, at most MAX_DIGITS digits (a state holds no fractions and nothing past
  2**30); strings are JSON strings; a key may appear once in an object;
- an object comes back as an Object, its keys in the order written, so that the first thing
  wrong is the first one written, on both runtimes (MicroPython's dict keeps no order);
- an error is JsonError with what is wrong and where: "at character 12: expected ':'".

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
    reader = _Reader(text)
    value = reader.value(0)
    reader.blanks()
    if reader.i < len(text):
        reader.fail("unexpected " + quote(text[reader.i]) + " after the value")
    return value


class _Reader:
    def __init__(self, text):
        self.text = text
        self.i = 0

    def fail(self, what):
        raise JsonError("at character " + str(self.i + 1) + ": " + what)

    def blanks(self):
        text = self.text
        i = self.i
        while i < len(text) and text[i] in " \t\r\n":
            i += 1
        self.i = i

    def peek(self):
        self.blanks()
        if self.i >= len(self.text):
            self.fail("the text ends too soon")
        return self.text[self.i]

    def value(self, depth):
        c = self.peek()
        if c == "{" or c == "[":
            if depth == MAX_DEPTH:
                self.fail("nested deeper than " + str(MAX_DEPTH) + " levels")
            return self.object(depth + 1) if c == "{" else self.array(depth + 1)
        if c == '"':
            return self.string()
        if c == "-" or "0" <= c <= "9":
            return self.number()
        for word, value in (("true", True), ("false", False), ("null", None)):
            if self.text.startswith(word, self.i):
                self.i += len(word)
                return value
        self.fail("expected a value, found " + quote(c))

    def object(self, depth):
        self.i += 1
        obj = Object()
        if self.peek() == "}":
            self.i += 1
            return obj
        while True:
            if self.peek() != '"':
                self.fail("expected a key in double quotes")
            at = self.i
            key = self.string()
            if key in obj:
                self.i = at
                self.fail("the key " + quote(key) + " appears twice")
            if self.peek() != ":":
                self.fail("expected ':'")
            self.i += 1
            obj.put(key, self.value(depth))
            c = self.peek()
            self.i += 1
            if c == "}":
                return obj
            if c != ",":
                self.i -= 1
                self.fail("expected ',' or '}'")

    def array(self, depth):
        self.i += 1
        items = []
        if self.peek() == "]":
            self.i += 1
            return items
        while True:
            items.append(self.value(depth))
            c = self.peek()
            self.i += 1
            if c == "]":
                return items
            if c != ",":
                self.i -= 1
                self.fail("expected ',' or ']'")

    def number(self):
        text = self.text
        start = self.i
        i = start + 1 if text[start] == "-" else start
        first = i
        while i < len(text) and "0" <= text[i] <= "9":
            i += 1
        if i == first or (text[first] == "0" and i > first + 1):
            self.fail("a number must be written as JSON writes it")
        if i < len(text) and text[i] in ".eE":
            self.i = i
            self.fail("numbers must be whole")
        if i - first > MAX_DIGITS:
            self.fail("a number longer than " + str(MAX_DIGITS) + " digits")
        self.i = i
        return int(text[start:i])

    def string(self):
        text = self.text
        i = self.i + 1
        out = []
        while True:
            if i >= len(text):
                self.i = i
                self.fail("a string that never ends")
            c = text[i]
            if c == '"':
                self.i = i + 1
                return "".join(out)
            if c < " ":
                self.i = i
                self.fail("a control character " + escape_char(c) + " in a string")
            if c == "\\":
                i += 1
                c = text[i] if i < len(text) else ""
                k = '"\\/bfnrt'.find(c) if c else -1
                if k >= 0:
                    c = '"\\/\b\f\n\r\t'[k]
                elif c == "u":
                    c = self.unicode_escape(i + 1)
                    i += 4
                else:
                    self.i = i
                    self.fail("a bad escape in a string")
            out.append(c)
            i += 1

    def unicode_escape(self, at):
        code = 0
        for k in range(at, at + 4):
            c = self.text[k] if k < len(self.text) else ""
            d = "0123456789abcdef".find(c.lower()) if c else -1
            if d < 0:
                self.i = k
                self.fail("a bad \\u escape in a string")
            code = code * 16 + d
        if 0xD800 <= code < 0xE000:
            self.i = at - 2
            self.fail("a \\u escape of a lone surrogate")
        return chr(code)
