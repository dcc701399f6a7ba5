"""Who owns a name: a class uses what it or its bases define, a module keeps out of another's
private names. Read from the source (ast) over engine_core/, firmware/, simulator/ and web/*.py.

    python -m tools.check_structure            every finding, by file; exit 1 if there is one
    python -m tools.check_structure --lines    each engine module's lines (a figure, not a gate)
    python -m tools.check_structure --writes   each write to another object's attributes, by
                                               file (a figure to bring down, not a gate)

Rule 1, own names. Every `self.NAME` (or `cls.NAME`) a class's methods use is defined by the
class itself or by one of its bases, the bases followed through the imports. A class defines
NAME by a method of that name, by assigning it in the class body, or by `self.NAME = ...` in
one of its methods (a tuple, `for` or `with` target too; not `+=`, which reads the name first).
An annotation alone (`NAME: int`) defines nothing: a sibling could still be the one to set it.
So a real base class with its own interface is fine: what a subclass uses of it, the base
defines. A mixin is not: it uses names that neither it nor any base of its own defines, and
counts on a sibling in some subclass (`class Session(Hello, Outbox)`) to supply them; and a
base class that calls a method only its subclasses define must declare it. Dunder names are
the language's. A base from outside these folders is read where Python can tell what it
defines: a built-in class (Exception) defines what `dir()` of it lists, and any other name is
a finding as usual. A base that cannot be read (argparse.ArgumentParser) may define anything,
so a class built on it is held only to the names a class built on it supplies (a mixin still
shows).

Rule 2, private names stay home. A module does not use another module's private names (a
leading underscore): not `from x import _y`, not `x._y` where x is a module, not `obj._y`
where obj is anything but self, cls, super(), a class of the same file that defines `_y`, or
an instance made there (`Part()._y`) or a name the same file binds only to an instance of
such a class (`part = Part()`, a parameter annotated `part: Part`); nor `getattr(obj, "_y")`
(or setattr, hasattr, delattr) on anything but self. `obj.__dict__` and `vars(obj)` reach
every name by string, so they are findings wherever they are. Only the project's modules
count as "another module"; the standard library's own privates are its business.

Writes (--writes, a figure): `obj.NAME = ...` (or +=, a `for`/`with` target, setattr) where
obj is not the writing class's self and not an instance of a class of the same file: one
object setting another's state. Not a gate; docs/engine.md keeps the count to bring down.

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


class Outside:
    """A base class not among the files read: `names` what it defines, None if not known."""

    def __init__(self, names=None):
        self.names = names


OUTSIDE = Outside()   # a base from outside whose names cannot be read


def outside_base(name):
    """A base from outside named `name`: a built-in class is read (its dir()), else unknown."""
    import builtins
    obj = getattr(builtins, name, None)
    if isinstance(obj, type):
        return Outside(set(dir(obj)))
    return OUTSIDE


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
            elif isinstance(stmt, ast.AnnAssign) and stmt.value is not None:   # `x: int` alone: no
                self.own.update(target_names(stmt.target))
            elif isinstance(stmt, ast.AugAssign):
                self.own.update(target_names(stmt.target))
            if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
                me = self_name(stmt)
                if me is not None:
                    self.read_method(stmt, me)

    def read_method(self, func, me):
        nodes = list(walk_skipping_classes(func))
        updated = set(id(n.target) for n in nodes if isinstance(n, ast.AugAssign))  # += reads first
        updated |= set(id(n.target) for n in nodes if isinstance(n, ast.AnnAssign) and n.value is None)
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
        """Every class above this one, and the bases from outside above it (Outside)."""
        seen, todo, outside = [], list(self.bases), []
        while todo:
            base = todo.pop(0)
            if isinstance(base, Outside):
                outside.append(base)
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
            return None if node.id == "object" else outside_base(node.id)
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
        known = set(info.own)
        for base in above:
            known |= base.own
        unknown = False
        for base in outside:
            if base.names is None:
                unknown = True
            else:
                known |= base.names
        below = [d for d, (up, _) in lines.items() if info in up]
        for name, line in info.uses.items():
            if name in known:
                continue
            suppliers = set()
            for d in below:
                for c in [d] + lines[d][0]:
                    if c is not info and c not in above and name in c.own:
                        suppliers.add(c.label())
            if unknown and not suppliers:
                continue       # the base from outside may define it
            where = ("supplied by " + ", ".join(sorted(suppliers)) if suppliers
                     else "defined by no class above or below it")
            found.append((info.path, line, info.name, name, where))
    return sorted(found)


ATTR_FUNCS = ("getattr", "setattr", "hasattr", "delattr")


def class_names(info):
    """Every name `info` or a class above it defines."""
    names = set(info.own)
    for base in info.ancestors()[0]:
        names |= base.own
    return names


def is_super(node):
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "super"


class Scope:
    """What a function (or the module) binds its names to: {name: class or None}, a class of
    the file when every binding is an instance of it (`x = C(...)`, a parameter `x: C`)."""

    def __init__(self, module, node, me, outer):
        self.module, self.me, self.outer, self.kinds = module, me, outer, {}
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            args = node.args
            for arg in args.posonlyargs + args.args + args.kwonlyargs + [args.vararg, args.kwarg]:
                if arg is not None:
                    self.bind(arg.arg, self.annotated(getattr(arg, "annotation", None)))
            body = node.body if isinstance(node.body, list) else [node.body]
        else:
            body = node.body
        top = outer is None
        for stmt in body:
            nodes = [stmt] + list(walk_skipping_scopes(stmt))
            simple = set()
            for child in nodes:
                if isinstance(child, ast.Assign) and len(child.targets) == 1 and isinstance(child.targets[0], ast.Name):
                    simple.add(id(child.targets[0]))
                    self.bind(child.targets[0].id, self.made(child.value))
                elif isinstance(child, ast.AnnAssign) and isinstance(child.target, ast.Name):
                    simple.add(id(child.target))
                    self.bind(child.target.id, self.made(child.value) if child.value is not None
                              else self.annotated(child.annotation))
            for child in nodes:
                if isinstance(child, ast.Name) and isinstance(child.ctx, (ast.Store, ast.Del)):
                    if id(child) not in simple:
                        self.bind(child.id, None)
                elif isinstance(child, ast.ClassDef):     # the class itself: what it defines
                    self.bind(child.name, module.classes.get(child.name) if top and child is stmt else None)
                elif isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    self.bind(child.name, None)
                elif isinstance(child, (ast.Import, ast.ImportFrom)):
                    for alias in child.names:
                        self.bind((alias.asname or alias.name).split(".")[0], None)

    def bind(self, name, kind):
        if name in self.kinds and self.kinds[name] is not kind:
            kind = None
        self.kinds[name] = kind

    def file_class(self, name):
        return self.module.classes.get(name) if name else None

    def made(self, value):
        if isinstance(value, ast.Call) and isinstance(value.func, ast.Name):
            return self.file_class(value.func.id)
        return None

    def annotated(self, annotation):
        if isinstance(annotation, ast.Name):
            return self.file_class(annotation.id)
        if isinstance(annotation, ast.Constant) and isinstance(annotation.value, str):
            return self.file_class(annotation.value)
        return None

    def lookup(self, name):
        """(found, class or None) for a name read here."""
        scope = self
        while scope is not None:
            if name in scope.kinds:
                return True, scope.kinds[name]
            scope = scope.outer
        return False, None


def walk_skipping_scopes(node):
    """ast.walk under node, not entering a nested function, lambda or class."""
    stack = list(ast.iter_child_nodes(node))
    while stack:
        child = stack.pop()
        yield child
        if not isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
            stack.extend(ast.iter_child_nodes(child))


def scoped_nodes(module):
    """(node, scope) for every node of the file, each with the scope it is read in."""
    top = Scope(module, module.tree, None, None)
    todo = [(stmt, top, False) for stmt in module.tree.body]
    while todo:
        node, scope, in_class = todo.pop()
        yield node, scope
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            me = self_name(node) if in_class and not isinstance(node, ast.Lambda) else scope.me
            for deco in getattr(node, "decorator_list", []):
                todo.append((deco, scope, False))
            for default in node.args.defaults + [d for d in node.args.kw_defaults if d is not None]:
                todo.append((default, scope, False))
            inner = Scope(module, node, me, scope)
            body = node.body if isinstance(node.body, list) else [node.body]
            todo.extend((stmt, inner, False) for stmt in body)
        elif isinstance(node, ast.ClassDef):
            for child in node.bases + node.keywords + node.decorator_list:
                todo.append((child, scope, False))
            todo.extend((stmt, scope, True) for stmt in node.body)
        else:
            todo.extend((child, scope, in_class) for child in ast.iter_child_nodes(node))


def own_object(scope, value, name=None):
    """Whether `value` is the object itself (self, cls, super()), or, given `name`, a class of
    the file or an instance of one that defines `name`."""
    if is_super(value):
        return True
    if name is not None and isinstance(value, ast.Call) and isinstance(value.func, ast.Name):
        kind = scope.lookup(value.func.id)[1]        # C(...), C a class of the file
        return kind is not None and kind is scope.module.classes.get(value.func.id) and name in class_names(kind)
    if not isinstance(value, ast.Name):
        return False
    if value.id in ("self", "cls") or value.id == scope.me:
        return True
    if name is None:
        return False
    kind = scope.lookup(value.id)[1]
    return kind is not None and name in class_names(kind)


def private_reach(tree):
    """Rule 2: [(path, line, what)], by file and line."""
    found = []
    ours = set(PROJECT) | set(name.split(".")[0] for name in tree.modules)
    for module in tree.modules.values():
        for node, scope in scoped_nodes(module):
            if isinstance(node, ast.ImportFrom):
                source = module.absolute(node)
                if source and source.split(".")[0] in ours and source != module.name:
                    for alias in node.names:
                        if is_private(alias.name):
                            found.append((module.path, node.lineno, "from %s import %s" % (source, alias.name)))
            elif isinstance(node, ast.Attribute) and node.attr == "__dict__":
                what = dotted(node.value) or ast.unparse(node.value)
                found.append((module.path, node.lineno, "%s.__dict__ (every name by string)" % what))
            elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.args:
                name = node.func.id
                if name == "vars" and scope.lookup("vars") == (False, None):
                    what = ast.unparse(node.args[0])
                    found.append((module.path, node.lineno, "vars(%s) (every name by string)" % what))
                elif (name in ATTR_FUNCS and len(node.args) >= 2 and isinstance(node.args[1], ast.Constant)
                      and isinstance(node.args[1].value, str) and is_private(node.args[1].value)
                      and not own_object(scope, node.args[0])):
                    what = "%s(%s, %r)" % (name, ast.unparse(node.args[0]), node.args[1].value)
                    found.append((module.path, node.lineno, what))
            elif isinstance(node, ast.Attribute) and is_private(node.attr):
                value = node.value
                if own_object(scope, value, node.attr):
                    continue
                target = tree.module_of(module, dotted(value))
                if target is not None:
                    if target.split(".")[0] in ours and target != module.name:
                        what = "%s.%s of module %s" % (dotted(value), node.attr, target)
                        found.append((module.path, node.lineno, what))
                    continue
                what = dotted(value) or ast.unparse(value)
                found.append((module.path, node.lineno, "%s.%s" % (what, node.attr)))
    return sorted(set(found))


def writes(tree):
    """[(path, line, target)]: each write to the attribute of an object that is not the writing
    class's own (self, cls) nor an instance of a class of the same file."""
    found = []
    for module in tree.modules.values():
        for node, scope in scoped_nodes(module):
            targets = []
            if isinstance(node, ast.Assign):
                targets = node.targets
            elif isinstance(node, (ast.AugAssign, ast.AnnAssign, ast.For, ast.AsyncFor)):
                targets = [node.target]
            elif isinstance(node, ast.withitem) and node.optional_vars is not None:
                targets = [node.optional_vars]
            elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "setattr"
                  and len(node.args) >= 2 and not own_object(scope, node.args[0])):
                found.append((module.path, node.lineno, ast.unparse(node)))
            for target in targets:
                for part in ast.walk(target):
                    if (isinstance(part, ast.Attribute) and isinstance(part.ctx, ast.Store)
                            and not own_object(scope, part.value, part.attr)):
                        found.append((module.path, part.lineno, ast.unparse(part)))
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


def writes_report(found):
    """The writes as text: a count per file, most first, then each file's lines."""
    per_file = {}
    for path, line, target in found:
        per_file.setdefault(path, []).append((line, target))
    lines = ["Writes to another object's attributes: %d in %d files (a figure to bring down, not a gate)"
             % (len(found), len(per_file))]
    order = sorted(per_file, key=lambda p: (-len(per_file[p]), p))
    for path in order:
        lines.append("  %-40s %3d" % (path, len(per_file[path])))
    for path in order:
        lines.append("%s:" % path)
        for line, target in per_file[path]:
            lines.append("    line %d  %s = ..." % (line, target))
    return "\n".join(lines)


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
    if argv == ["--writes"]:
        print(writes_report(writes(Tree(sources_under(ROOT)))))
        return 0
    if argv:
        raise SystemExit("usage: python -m tools.check_structure [--lines | --writes]")
    own, private = check(sources_under(ROOT))
    if own or private:
        print(report(own, private))
        return 1
    print("every class uses only its own and its bases' names; no module reaches into another's privates")
    return 0


if __name__ == "__main__":
    from tools.cli import help_or_go
    help_or_go(__doc__, "tools/check_structure.py [--lines | --writes]")
    sys.exit(main(sys.argv[1:]))
