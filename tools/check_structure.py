"""Who owns a name: a class uses what it or its bases define, a module keeps out of another's
private names. Read from the source (ast) over engine_core/, firmware/, simulator/ and web/*.py.

    python -m tools.check_structure            every finding, by file; exit 1 if there is one
    python -m tools.check_structure --lines    each engine module's lines (a figure, not a gate)

Rule 1, own names. Every `self.NAME` (or `cls.NAME`) a class's methods use is defined by the
class itself or by one of its bases, the bases followed through the imports. A class defines
NAME by a method of that name, by assigning it in the class body (an annotation alone, `NAME:
int`, declares it), or by `self.NAME = ...` in one of its methods (a tuple, `for` or `with`
target too; not `+=`, which reads the name first). So a real base class with its own
interface is fine: what a subclass uses of it, the base defines. A mixin is not: it uses names
that neither it nor any base of its own defines, and counts on a sibling in some subclass
(`class Session(Hello, Outbox)`) to supply them; and a base class that calls a method only
its subclasses define must declare it. Dunder names are the language's. A class with a base
from outside these folders (Exception, argparse.ArgumentParser) is left out: what that base
defines is not read.

Rule 2, private names stay home. A module does not use another module's private names (a
leading underscore): not `from x import _y`, not `x._y` where x is a module, not `obj._y`
where obj is anything but self, cls or super() and no class or function of the same file
defines `_y`. Only the project's modules count as "another module"; the standard library's
own privates are its business.

A finding names the file, the line of first use, the class and the name; for rule 1 also the
classes built on it that supply the name, or that no class above or below it defines it.
"""

import ast
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FOLDERS = ("engine_core", "firmware", "simulator")   # every .py below these
TOP_ONLY = ("web",)                                  # only the .py directly in these
PROJECT = ("engine_core", "firmware", "simulator", "web", "boards", "support", "tools", "tests")

OUTSIDE = "outside"   # a base class not among the files read


def is_dunder(name):
    return name.startswith("__") and name.endswith("__")


def is_private(name):
    return name.startswith("_") and not is_dunder(name)


def module_name(path):
    """engine_core/ui/app.py -> engine_core.ui.app; a package's __init__ is the package."""
    name = path[:-3].replace("/", ".")
    return name[:-len(".__init__")] if name.endswith(".__init__") else name


def dotted(node):
    """a.b.c for a chain of attributes on a name, else None."""
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        parts.append(node.id)
        return ".".join(reversed(parts))
    return None


def body_statements(body):
    """The statements of a body, looking into if/try/with blocks but not into defs."""
    for node in body:
        yield node
        if isinstance(node, (ast.If, ast.Try, ast.With, ast.For, ast.While)):
            for field in ("body", "orelse", "finalbody"):
                yield from body_statements(getattr(node, field, []))
            for handler in getattr(node, "handlers", []):
                yield from body_statements(handler.body)


def target_names(target):
    """The plain names bound by an assignment target."""
    if isinstance(target, ast.Name):
        return [target.id]
    if isinstance(target, (ast.Tuple, ast.List)):
        return [n for t in target.elts for n in target_names(t)]
    if isinstance(target, ast.Starred):
        return target_names(target.value)
    return []


def walk_skipping_classes(node):
    """ast.walk under node, not entering a nested class (its `self` is its own)."""
    stack = list(ast.iter_child_nodes(node))
    while stack:
        child = stack.pop()
        if isinstance(child, ast.ClassDef):
            continue
        yield child
        stack.extend(ast.iter_child_nodes(child))


def self_name(func):
    """The name a method's first parameter gives the instance (or class), or None."""
    for deco in func.decorator_list:
        if isinstance(deco, ast.Name) and deco.id == "staticmethod":
            return None
    args = func.args.posonlyargs + func.args.args
    return args[0].arg if args else None


class ClassInfo:
    """A class as read: where, its base expressions, what it defines, what it uses of self."""

    def __init__(self, module, path, node):
        self.module, self.path, self.name, self.line = module, path, node.name, node.lineno
        self.base_nodes = node.bases
        self.bases = []                 # resolved: ClassInfo or OUTSIDE
        self.own = set()
        self.uses = {}                  # name -> line of first use
        for stmt in body_statements(node.body):
            if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                self.own.add(stmt.name)
            elif isinstance(stmt, ast.Assign):
                for target in stmt.targets:
                    self.own.update(target_names(target))
            elif isinstance(stmt, (ast.AnnAssign, ast.AugAssign)):
                self.own.update(target_names(stmt.target))
            if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
                me = self_name(stmt)
                if me is not None:
                    self.read_method(stmt, me)

    def read_method(self, func, me):
        nodes = list(walk_skipping_classes(func))
        updated = set(id(n.target) for n in nodes if isinstance(n, ast.AugAssign))  # += reads first
        for node in nodes:
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == me:
                if isinstance(node.ctx, ast.Store) and id(node) not in updated:
                    self.own.add(node.attr)
                elif not is_dunder(node.attr):
                    self.uses.setdefault(node.attr, node.lineno)
            elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "setattr"
                  and len(node.args) >= 2 and isinstance(node.args[0], ast.Name) and node.args[0].id == me
                  and isinstance(node.args[1], ast.Constant) and isinstance(node.args[1].value, str)):
                self.own.add(node.args[1].value)

    def ancestors(self):
        """Every class above this one, and whether one of them (or a base) is from outside."""
        seen, todo, outside = [], list(self.bases), False
        while todo:
            base = todo.pop(0)
            if base is OUTSIDE:
                outside = True
            elif base not in seen and base is not self:
                seen.append(base)
                todo.extend(base.bases)
        return seen, outside

    def label(self):
        return "%s (%s)" % (self.name, self.path)


class Module:
    """A file as read: its classes, and what its top-level names are bound to."""

    def __init__(self, path, source):
        self.path, self.name = path, module_name(path)
        self.tree = ast.parse(source, path)
        self.package = self.name if path.endswith("__init__.py") else self.name.rpartition(".")[0]
        self.classes = {}        # top-level class name -> ClassInfo
        self.all_classes = []    # every class in the file, nested ones too
        self.imported = {}       # name -> (module, attribute) from `from module import attribute`
        self.modules = {}        # name -> module, from `import a.b` (binds a) or `import a.b as n`
        for stmt in body_statements(self.tree.body):
            if isinstance(stmt, ast.ClassDef):
                self.classes[stmt.name] = None
        for node in ast.walk(self.tree):
            if isinstance(node, ast.ClassDef):
                info = ClassInfo(self, path, node)
                self.all_classes.append(info)
                if self.classes.get(node.name, 0) is None:
                    self.classes[node.name] = info
            elif isinstance(node, ast.ImportFrom):
                source_module = self.absolute(node)
                for alias in node.names:
                    self.imported[alias.asname or alias.name] = (source_module, alias.name)
            elif isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.asname:
                        self.modules[alias.asname] = alias.name
                    else:
                        self.modules[alias.name.split(".")[0]] = alias.name.split(".")[0]

    def absolute(self, node):
        if not node.level:
            return node.module
        parts = self.package.split(".")
        parts = parts[:len(parts) - node.level + 1]
        return ".".join(parts + ([node.module] if node.module else []))


class Tree:
    """Every file read, by module name; the class bases resolved through the imports."""

    def __init__(self, sources):
        self.modules = {}
        for path in sorted(sources):
            module = Module(path, sources[path])
            self.modules[module.name] = module
        for module in self.modules.values():
            for info in module.all_classes:
                info.bases = [self.resolve_base(module, node) for node in info.base_nodes]

    def is_module(self, name):
        return name in self.modules or any(m.startswith(name + ".") for m in self.modules)

    def module_of(self, module, expr):
        """The module a dotted expression names in `module` (`import x`, or `from pkg import
        mod` of a file read here), or None."""
        if expr is None:
            return None
        head, _, rest = expr.partition(".")
        tail = "." + rest if rest else ""
        if head in module.modules:
            return module.modules[head] + tail
        if head in module.imported:
            source, attr = module.imported[head]
            full = source + "." + attr + tail
            return full if self.is_module(full) else None
        return None

    def resolve_base(self, module, node):
        if isinstance(node, ast.Name):
            if node.id in module.classes:
                return module.classes[node.id]
            if node.id in module.imported:
                return self.find_class(*module.imported[node.id])
            return None if node.id == "object" else OUTSIDE
        expr = dotted(node)
        if expr and "." in expr:
            owner, _, attr = expr.rpartition(".")
            target = self.module_of(module, owner)
            if target:
                return self.find_class(target, attr)
        return OUTSIDE

    def find_class(self, module_name, name, depth=0):
        module = self.modules.get(module_name)
        if module is None or depth > 20:
            return OUTSIDE
        if module.classes.get(name):
            return module.classes[name]
        if name in module.imported:
            return self.find_class(*module.imported[name], depth=depth + 1)
        return OUTSIDE

    def classes(self):
        for module in self.modules.values():
            yield from module.all_classes


def not_own(tree):
    """Rule 1: [(path, line, class, name, where)] by file and line; `where` names the classes
    that supply the name in the classes built on this one (the siblings a mixin counts on, a
    subclass a base class counts on), or says that no class above or below it defines it."""
    for info in tree.classes():
        info.bases = [b for b in info.bases if b is not None]   # `object` adds nothing
    lines = {}
    for info in tree.classes():
        lines[info] = info.ancestors()
    found = []
    for info, (above, outside) in lines.items():
        if outside:
            continue
        known = set(info.own)
        for base in above:
            known |= base.own
        below = [d for d, (up, _) in lines.items() if info in up]
        for name, line in info.uses.items():
            if name in known:
                continue
            suppliers = set()
            for d in below:
                for c in [d] + lines[d][0]:
                    if c is not info and c not in above and name in c.own:
                        suppliers.add(c.label())
            where = ("supplied by " + ", ".join(sorted(suppliers)) if suppliers
                     else "defined by no class above or below it")
            found.append((info.path, line, info.name, name, where))
    return sorted(found)


def file_defines(module):
    """Every name a class or function of the file defines (members, self.X = ..., top-level)."""
    names = set()
    for info in module.all_classes:
        names |= info.own
    for stmt in body_statements(module.tree.body):
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(stmt.name)
        elif isinstance(stmt, ast.Assign):
            for target in stmt.targets:
                names.update(target_names(target))
        elif isinstance(stmt, ast.AnnAssign):
            names.update(target_names(stmt.target))
    return names


def own_names_in(module):
    """The names that mean the object itself at each point: self/cls of methods, and `super()`."""
    selves = {}
    for node in ast.walk(module.tree):
        if isinstance(node, ast.ClassDef):
            for stmt in body_statements(node.body):
                if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    me = self_name(stmt)
                    for inner in walk_skipping_classes(stmt):
                        selves[id(inner)] = me
    return selves


def private_reach(tree):
    """Rule 2: [(path, line, what)], by file and line."""
    found = []
    ours = set(PROJECT) | set(name.split(".")[0] for name in tree.modules)
    for module in tree.modules.values():
        defined = file_defines(module)
        selves = own_names_in(module)
        for node in ast.walk(module.tree):
            if isinstance(node, ast.ImportFrom):
                source = module.absolute(node)
                if source and source.split(".")[0] in ours and source != module.name:
                    for alias in node.names:
                        if is_private(alias.name):
                            found.append((module.path, node.lineno, "from %s import %s" % (source, alias.name)))
            elif isinstance(node, ast.Attribute) and is_private(node.attr):
                value = node.value
                if isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id == "super":
                    continue
                if isinstance(value, ast.Name) and value.id in ("self", "cls", selves.get(id(value))):
                    continue
                target = tree.module_of(module, dotted(value))
                if target is not None:
                    if target.split(".")[0] in ours and target != module.name:
                        what = "%s.%s of module %s" % (dotted(value), node.attr, target)
                        found.append((module.path, node.lineno, what))
                    continue
                if node.attr not in defined:
                    what = dotted(value) or ast.unparse(value)
                    found.append((module.path, node.lineno, "%s.%s" % (what, node.attr)))
    return sorted(set(found))


def sources_under(root):
    """{path relative to root: source} for every file the rules read."""
    out = {}
    for folder in FOLDERS:
        for here, dirs, files in os.walk(os.path.join(root, folder)):
            dirs[:] = sorted(d for d in dirs if d not in ("__pycache__", "node_modules"))
            for f in files:
                if f.endswith(".py"):
                    out[os.path.relpath(os.path.join(here, f), root).replace(os.sep, "/")] = None
    for folder in TOP_ONLY:
        for f in sorted(os.listdir(os.path.join(root, folder))):
            if f.endswith(".py"):
                out[folder + "/" + f] = None
    for path in out:
        with open(os.path.join(root, path), encoding="utf-8") as f:
            out[path] = f.read()
    return out


def check(sources):
    """(rule 1 findings, rule 2 findings) for {path: source}."""
    tree = Tree(sources)
    return not_own(tree), private_reach(tree)


def report(own, private):
    """The findings as text, grouped by file and class, then a count per file."""
    lines = []
    by_class, per_file = {}, {}
    for path, line, cls, name, where in own:
        by_class.setdefault((path, cls), []).append((line, name, where))
        per_file.setdefault(path, [0, 0])[0] += 1
    for path, _, _ in private:
        per_file.setdefault(path, [0, 0])[1] += 1
    if by_class:
        lines.append("Rule 1: self.NAME that neither the class nor a base of its own defines "
                     "(%d names in %d classes)" % (len(own), len(by_class)))
    for (path, cls), names in sorted(by_class.items()):
        lines.append("  %s: class %s uses %d:" % (path, cls, len(names)))
        for line, name, where in sorted(names):
            lines.append("    line %d  self.%s  %s" % (line, name, where))
    if private:
        lines.append("Rule 2: another module's private names (%d)" % len(private))
    for path, line, what in private:
        lines.append("  %s:%d  %s" % (path, line, what))
    if per_file:
        lines.append("Per file (rule 1 names, rule 2 uses):")
    for path, (one, two) in sorted(per_file.items()):
        lines.append("  %-40s %3d %3d" % (path, one, two))
    return "\n".join(lines)


def engine_lines(root=ROOT):
    """[(path, lines)] for every engine module, longest first."""
    out = []
    for here, dirs, files in os.walk(os.path.join(root, "engine_core")):
        dirs[:] = [d for d in dirs if d != "__pycache__"]
        for f in files:
            if f.endswith(".py"):
                path = os.path.join(here, f)
                with open(path, encoding="utf-8") as fh:
                    out.append((os.path.relpath(path, root).replace(os.sep, "/"), sum(1 for _ in fh)))
    return sorted(out, key=lambda item: (-item[1], item[0]))


def main(argv):
    if argv == ["--lines"]:
        rows = engine_lines()
        for path, n in rows:
            print("%6d  %s" % (n, path))
        print("%6d  in %d modules" % (sum(n for _, n in rows), len(rows)))
        return 0
    if argv:
        raise SystemExit("usage: python -m tools.check_structure [--lines]")
    own, private = check(sources_under(ROOT))
    if own or private:
        print(report(own, private))
        return 1
    print("every class uses only its own and its bases' names; no module reaches into another's privates")
    return 0


if __name__ == "__main__":
    from tools.cli import help_or_go
    help_or_go(__doc__, "tools/check_structure.py [--lines]")
    sys.exit(main(sys.argv[1:]))
