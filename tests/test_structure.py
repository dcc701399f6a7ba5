"""Who owns a name (tools/check_structure.py): a class's methods use only `self.` names the
class or one of its own bases defines (no mixin reading state another file's class sets), and
no module reaches into another module's private names. Each rule is shown catching its fault
in small files written here, then run over the engine, the firmware, the simulator and the web
page's Python. This replaced a 500-line limit per file, which the limit's own splits met by
mixins; line counts are a figure now (`python -m tools.check_structure --lines`)."""

import textwrap

from tools.check_structure import ROOT, Tree, check, engine_lines, main, report, sources_under, writes


def files(**sources):
    """{path: source} from keyword arguments: pkg__parts -> pkg/parts.py."""
    return {name.replace("__", "/") + ".py": textwrap.dedent(text) for name, text in sources.items()}


def own_names(sources):
    return [(path, cls, name, where) for path, _, cls, name, where in check(sources)[0]]


def private_names(sources):
    return [(path, what) for path, _, what in check(sources)[1]]


# --- rule 1: a class uses what it or its own bases define ---

def test_a_mixin_reading_state_another_file_sets_is_caught():
    sources = files(
        pkg__parts="""
            class Counting:
                def bump(self):
                    self.total += self._step      # both set by Whole, in another file
                    return self.total
            """,
        pkg__whole="""
            from pkg.parts import Counting

            class Whole(Counting):
                def __init__(self):
                    self.total = 0
                    self._step = 2
            """)
    assert own_names(sources) == [
        ("pkg/parts.py", "Counting", "_step", "supplied by Whole (pkg/whole.py)"),
        ("pkg/parts.py", "Counting", "total", "supplied by Whole (pkg/whole.py)"),
    ]


def test_a_mixin_counting_on_a_sibling_is_caught_in_one_file_too():
    sources = files(pkg__session="""
        class Hello:
            def greet(self):
                return self.send("hi")           # only Outbox, its sibling in Session, has it

        class Outbox:
            def send(self, text):
                self.last = text

        class Session(Hello, Outbox):
            pass
        """)
    assert own_names(sources) == [("pkg/session.py", "Hello", "send", "supplied by Outbox (pkg/session.py)")]


def test_a_base_class_with_its_own_interface_is_fine_across_files():
    sources = files(
        pkg__base="""
            class Game:
                SIZE = 4
                vars: tuple = ()
                def __init__(self):
                    self.piles, self.moves = [], 0
                def legal_moves(self, out):
                    raise NotImplementedError
                def moves_of(self, out):
                    return self.legal_moves(out)
            """,
        pkg____init__="from pkg.base import Game\n",
        pkg__aces="""
            import pkg.base
            from pkg import Game

            class Aces(Game):
                def legal_moves(self, out):
                    self.moves += 1
                    return len(self.piles) + self.SIZE + len(self.vars)

            class Other(pkg.base.Game):
                def count(self):
                    for self.seen in self.piles:
                        pass
                    return self.seen
            """)
    assert own_names(sources) == []


def test_a_base_class_calling_what_only_its_subclasses_define_is_caught():
    sources = files(
        pkg__base="""
            class Game:
                def moves_of(self, out):
                    return self.legal_moves(out)
            """,
        pkg__aces="""
            from pkg.base import Game

            class Aces(Game):
                def legal_moves(self, out):
                    return 0
            """)
    assert own_names(sources) == [("pkg/base.py", "Game", "legal_moves", "supplied by Aces (pkg/aces.py)")]


def test_an_attribute_set_from_outside_the_class_is_caught():
    sources = files(
        pkg__game="""
            class Spite:
                def step(self):
                    return self.bot.choose(self)
            """,
        pkg__ai="""
            def attach(game, bot):
                game.bot = bot
            """)
    assert own_names(sources) == [("pkg/game.py", "Spite", "bot", "defined by no class above or below it")]


def test_a_built_in_base_defines_what_it_has_and_dunders_are_the_languages():
    sources = files(pkg__errors="""
        class Bad(Exception):
            def text(self):
                return self.args[0]

        class Plain:
            def name(self):
                return self.__class__.__name__
        """)
    assert own_names(sources) == []


def test_an_annotation_alone_is_not_a_definition():
    sources = files(
        pkg__sound="""
            class Sounding:
                sound: int                  # declared, but App sets it
                def play(self):
                    return self.sound + 1
            """,
        pkg__app="""
            from pkg.sound import Sounding

            class App(Sounding):
                def __init__(self):
                    self.sound = 3
            """)
    assert own_names(sources) == [("pkg/sound.py", "Sounding", "sound", "supplied by App (pkg/app.py)")]


def test_a_mixin_on_a_base_from_outside_is_still_caught():
    sources = files(
        pkg__fault="""
            import argparse

            class Fault(Exception):
                def text(self):
                    return self.args[0] + self.detail        # Exception has no detail
            class Parsing(argparse.ArgumentParser):
                def error(self, message):
                    return self.prog + self.where            # prog: ArgumentParser's, unread
            """,
        pkg__app="""
            from pkg.fault import Fault, Parsing

            class Wrong(Fault):
                def __init__(self):
                    self.detail = "!"

            class Parser(Parsing):
                def __init__(self):
                    self.where = "here"
            """)
    assert own_names(sources) == [
        ("pkg/fault.py", "Fault", "detail", "supplied by Wrong (pkg/app.py)"),
        ("pkg/fault.py", "Parsing", "where", "supplied by Parser (pkg/app.py)"),
    ]


# --- rule 2: another module's private names ---

def test_each_reach_into_another_modules_private_names_is_caught():
    sources = files(
        pkg__parts="""
            _LIMIT = 3

            def _helper():
                return 1

            class Part:
                def __init__(self):
                    self._queue = []
                def _flush(self):
                    self._queue = []
            """,
        pkg__user="""
            import sys

            import pkg.parts
            from pkg import parts
            from pkg.parts import _helper, Part

            class Own:
                def __init__(self):
                    self._mine = 0
                def same(self, other: "Own"):
                    mine = Own()
                    return other._mine + self._mine + super()._mine + mine._mine + Own._mine

            def use(part):
                part._flush()                  # a Part's private method, from outside its file
                pkg.parts._helper()
                sys._getframe(0)               # the standard library's own business
                return parts._LIMIT + Part()._queue[0]
            """)
    assert private_names(sources) == [
        ("pkg/user.py", "from pkg.parts import _helper"),
        ("pkg/user.py", "part._flush"),
        ("pkg/user.py", "pkg.parts._helper of module pkg.parts"),
        ("pkg/user.py", "Part()._queue"),
        ("pkg/user.py", "parts._LIMIT of module pkg.parts"),
    ]


def test_a_private_name_the_same_file_defines_is_still_anothers_on_an_object_of_unknown_class():
    sources = files(
        pkg__parts="""
            class Part:
                def __init__(self):
                    self._x = 1
            """,
        pkg__user="""
            class Own:
                def __init__(self):
                    self._x = 2
                def peek(self, part):
                    return part._x + self.part._x     # any object: a Part of parts.py perhaps
                def near(self, own: Own):
                    return own._x + Own()._x          # an Own: this file's own business

            def probe(thing):
                found = Own()
                found = thing                         # not only an Own any more
                return found._x
            """)
    assert sorted(private_names(sources)) == [
        ("pkg/user.py", "found._x"),
        ("pkg/user.py", "part._x"),
        ("pkg/user.py", "self.part._x"),
    ]


def test_a_private_name_reached_by_string_is_caught():
    sources = files(
        pkg__parts="""
            class Part:
                def __init__(self):
                    self._x = 1
                    setattr(self, "_y", getattr(self, "_x"))   # its own: fine
            """,
        pkg__user="""
            def poke(part):
                if hasattr(part, "_x"):
                    setattr(part, "_x", getattr(part, "_y") + 1)
                    delattr(part, "_y")
                getattr(part, "x")                             # public: rule 1's business
            """,
        pkg__dicts="""
            class Bag:
                def names(self):
                    return self.__dict__["sound"]

            def fill(part):
                part.__dict__["sound"] = 1
                return vars(part)
            """)
    assert sorted(private_names(sources)) == [
        ("pkg/dicts.py", "part.__dict__ (every name by string)"),
        ("pkg/dicts.py", "self.__dict__ (every name by string)"),
        ("pkg/dicts.py", "vars(part) (every name by string)"),
        ("pkg/user.py", "delattr(part, '_y')"),
        ("pkg/user.py", "getattr(part, '_y')"),
        ("pkg/user.py", "hasattr(part, '_x')"),
        ("pkg/user.py", "setattr(part, '_x')"),
    ]


def test_the_report_names_file_class_and_names():
    sources = files(pkg__parts="""
        class Counting:
            def bump(self):
                return self.total + other._secret
        class Whole(Counting):
            def __init__(self):
                self.total = 0
        """)
    text = report(*check(sources))
    assert "pkg/parts.py: class Counting uses 1:" in text
    assert "line 4  self.total  supplied by Whole (pkg/parts.py)" in text
    assert "pkg/parts.py:4  other._secret" in text


# --- the tree ---

def test_every_class_uses_only_its_own_names_and_no_module_reaches_into_anothers_privates():
    """Every finding is listed by file, class and name."""
    own, private = check(sources_under(ROOT))
    left = sorted((path, what) for path, _, what in private)
    assert not own and not left, "\n" + report(own, private)


# --- writes to another object's attributes: a figure, not a gate ---

def test_writes_to_another_objects_attributes_are_counted():
    sources = files(pkg__user="""
        class Own:
            def __init__(self):
                self.x = 0
            def set(self, other, part):
                other.x = 1                  # whose? another object's
                part.inner.y += 2
                mine = Own()
                mine.x = 3                   # an Own of this file: its own business
                setattr(other, "z", 4)
                for other.i in range(3):
                    pass
        """)
    assert [(line, what) for _, line, what in writes(Tree(sources))] == [
        (6, "other.x"), (7, "part.inner.y"), (10, "setattr(other, 'z', 4)"), (11, "other.i")]


def test_the_writes_are_a_figure_the_command_prints(capsys):
    assert main(["--writes"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Writes to another object's attributes: ")
    assert "(a figure to bring down, not a gate)" in out


def test_the_line_counts_are_a_figure():
    rows = engine_lines()
    assert rows and all(path.startswith("engine_core/") and path.endswith(".py") and n > 0 for path, n in rows)
    assert [n for _, n in rows] == sorted((n for _, n in rows), reverse=True)
