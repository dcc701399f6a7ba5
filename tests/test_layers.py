"""The layers import one way: the rules' core, the games, their computer players, the
services over them (saves, the protocol, kiosk), drawing and the interface, the console,
then the edges (firmware, simulator, web page, board modules) and the tools. Every import in
the tree, at module level or inside a function, is read from the source and checked here.
Besides the floors: a board module is plain data and imports only the engine (the button
names), and nothing outside tests/ imports the tests (what tests and tools share is support/).
"""

import ast
import functools
import os

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

BASE = ("engine_core", "engine_core.cards", "engine_core.piles", "engine_core.rng",
        "engine_core.history", "engine_core.reasons", "engine_core.text", "engine_core.jsontext",
        "engine_core.storage", "engine_core.fields", "engine_core.records", "engine_core.undo_record",
        "engine_core.game", "engine_core.rules")
# (module prefix, layer); the longest prefix that matches decides.
LAYERS = [(name, 0) for name in BASE] + [
    ("engine_core.games", 1),
    ("engine_core.ai", 2),
    ("engine_core.save", 3), ("engine_core.game_record", 3), ("engine_core.protocol", 3),
    ("engine_core.state_text", 3), ("engine_core.kiosk", 3),
    ("engine_core.gfx", 3), ("engine_core.link", 3),
    ("engine_core.ui", 4),
    ("engine_core.console", 5), ("engine_core.pointer", 5), ("engine_core.loop", 5), ("engine_core.power", 5),
    ("firmware", 6), ("simulator", 6), ("web", 6), ("boards", 6),
    ("tools", 7), ("support", 7),
]
PACKAGES = ("engine_core", "firmware", "simulator", "web", "boards", "tools", "support")
IMPORTABLE = PACKAGES + ("tests",)  # imports of these are read; tests/ itself is not checked


def layer_of(module):
    best = None
    for prefix, layer in LAYERS:
        if module == prefix or module.startswith(prefix + "."):
            if best is None or len(prefix) > len(best[0]):
                best = (prefix, layer)
    return best


def module_of(path):
    name = os.path.relpath(path, ROOT)[:-3].replace(os.sep, ".")
    return name[:-len(".__init__")] if name.endswith(".__init__") else name


def imports(path):
    """(imported module, line, at module level) for every import of the file's project modules."""
    tree = ast.parse(open(path, encoding="utf-8").read())
    top = set(id(n) for n in tree.body)
    found = []
    for node in ast.walk(tree):
        names = []
        if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            for alias in node.names:   # `from pkg import module` names the module itself
                sub = node.module + "." + alias.name
                as_file = os.path.join(ROOT, *sub.split("."))
                names.append(sub if os.path.exists(as_file + ".py") or os.path.isdir(as_file) else node.module)
        elif isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        for name in names:
            if name.split(".")[0] in IMPORTABLE:
                found.append((name, node.lineno, id(node) in top))
    return found


def project_files():
    for package in PACKAGES:
        for folder, dirs, files in os.walk(os.path.join(ROOT, package)):
            dirs[:] = [d for d in dirs if d not in ("__pycache__", "node_modules")]
            for f in files:
                if f.endswith(".py"):
                    yield os.path.join(folder, f)


@functools.lru_cache(maxsize=1)
def graph():
    return {module_of(path): imports(path) for path in project_files()}


def upward(graph):
    """Each import of a module on a higher floor."""
    found = []
    for module, imported in graph.items():
        mine = layer_of(module)
        if mine is None:
            continue
        for name, line, _ in imported:
            theirs = layer_of(name)
            if theirs is not None and theirs[1] > mine[1]:
                found.append("%s:%d imports %s" % (module, line, name))
    return found


def outside(graph, package, allowed):
    """Each import by a module of `package` of a project module outside `allowed`."""
    found = []
    for module, imported in graph.items():
        if module.split(".")[0] == package:
            for name, line, _ in imported:
                if name.split(".")[0] not in allowed:
                    found.append("%s:%d imports %s" % (module, line, name))
    return found


def of_tests(graph):
    """Each import of tests/ from outside it."""
    found = []
    for module, imported in graph.items():
        for name, line, _ in imported:
            if name.split(".")[0] == "tests" and module.split(".")[0] != "tests":
                found.append("%s:%d imports %s" % (module, line, name))
    return found


def cycles(graph):
    """The module-level import cycles."""
    edges = {}
    for module, imported in graph.items():
        edges[module] = set(name for name, _, top in imported if top)
    state = {}
    found = []

    def visit(module, path):
        state[module] = 1
        for other in sorted(edges.get(module, ())):
            if other not in edges:
                continue
            if state.get(other) == 1:
                found.append(path[path.index(other):] + [other] if other in path else [module, other])
            elif other not in state:
                visit(other, path + [other])
        state[module] = 2

    for module in sorted(edges):
        if module not in state:
            visit(module, [module])
    return found


def test_every_import_goes_down_the_layers_or_stays_in_its_own():
    assert upward(graph()) == []


def test_the_engine_never_imports_an_edge():
    assert outside(graph(), "engine_core", ("engine_core",)) == []


def test_a_board_module_imports_only_the_engine():
    assert outside(graph(), "boards", ("engine_core", "boards")) == []


def test_nothing_outside_the_tests_imports_them():
    assert of_tests(graph()) == []


def test_no_module_level_import_cycle():
    assert cycles(graph()) == []


def test_each_check_finds_its_fault_in_a_bad_graph():
    bad = {
        "engine_core.games.aces_up": [("engine_core.ui.app", 3, True)],         # up a floor
        "engine_core.cards": [("simulator.framebuf", 4, False)],                # engine -> edge
        "boards.tdisplay": [("firmware.buttons", 7, True)],                     # board -> firmware
        "tools.device.pico": [("tests.panel_model", 29, True)],                 # tool -> tests
        "engine_core.rng": [("engine_core.history", 1, True)],                  # a cycle ...
        "engine_core.history": [("engine_core.rng", 1, True)],                  # ... of two
        "support.panel_model": [("engine_core.cards", 1, True)],                # allowed
    }
    assert upward(bad) == ["engine_core.games.aces_up:3 imports engine_core.ui.app",
                           "engine_core.cards:4 imports simulator.framebuf"]
    assert outside(bad, "engine_core", ("engine_core",)) == ["engine_core.cards:4 imports simulator.framebuf"]
    assert outside(bad, "boards", ("engine_core", "boards")) == ["boards.tdisplay:7 imports firmware.buttons"]
    assert of_tests(bad) == ["tools.device.pico:29 imports tests.panel_model"]
    assert cycles(bad) == [["engine_core.history", "engine_core.rng", "engine_core.history"]]


def test_the_layer_check_sees_an_upward_import():
    """The check itself: a game layer module importing the interface is caught."""
    mine, theirs = layer_of("engine_core.games.aces_up"), layer_of("engine_core.ui.app")
    assert theirs[1] > mine[1]
    assert layer_of("engine_core.gfx.screen")[1] < layer_of("engine_core.ui.view")[1]
    assert layer_of("simulator.framebuf")[1] > layer_of("engine_core.gfx.screen")[1]
