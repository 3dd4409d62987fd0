"""MicroPython built-ins that CPython lacks, for engine.compat (CPython only: never loaded
on a device).

Also MicroPython's compile-time constants: ``fold_consts`` makes CPython compile the
engine's modules as mpy-cross does, each ``NAME = const(value)`` name replaced by its
value in the code after it, so that a hot loop reads ``s[2]``, not the global ``_PENDING``.
"""

import ast
import sys
import time
from importlib.machinery import PathFinder, SourceFileLoader


def const(value):
    """Return value unchanged: MicroPython's compile-time constant marker."""
    return value


def ticks_ms():
    """Milliseconds from an arbitrary start, like MicroPython's time.ticks_ms."""
    return time.monotonic_ns() // 1000000


def ticks_add(t, delta):
    """t + delta (MicroPython wraps; CPython need not)."""
    return t + delta


def ticks_diff(a, b):
    """a - b in milliseconds."""
    return a - b


def sleep_ms(ms):
    """Wait ms milliseconds, like MicroPython's time.sleep_ms."""
    time.sleep(ms / 1000)


def fold_consts(package):
    """From now on compile the modules of `package` with their const() names folded."""
    if not any(isinstance(f, _ConstFinder) and f.prefix == package + "."
               for f in sys.meta_path):
        sys.meta_path.insert(0, _ConstFinder(package + "."))


def compile_folded(source, path):
    """Compile module source as MicroPython does: a module-level `NAME = const(value)`
    still binds NAME, and every later use of NAME in the module becomes the value."""
    tree = _Folder().visit(ast.parse(source, path))
    return compile(ast.fix_missing_locations(tree), path, "exec", dont_inherit=True)


class _Folder(ast.NodeTransformer):
    """Replaces the loads of names bound by const() with their values."""

    def __init__(self):
        self.values = {}

    def visit_Module(self, node):
        for statement in node.body:  # in order: a name folds only after its const line
            self.visit(statement)
            name, value = _const_binding(statement)
            if name is not None:
                self.values[name] = value
        return node

    def visit_Name(self, node):
        if isinstance(node.ctx, ast.Load) and node.id in self.values:
            return ast.copy_location(ast.Constant(self.values[node.id]), node)
        return node


def _const_binding(statement):
    """(name, value) if statement is `name = const(<constant expression>)`, else (None, None)."""
    if not (isinstance(statement, ast.Assign) and len(statement.targets) == 1
            and isinstance(statement.targets[0], ast.Name)
            and isinstance(statement.value, ast.Call)
            and isinstance(statement.value.func, ast.Name)
            and statement.value.func.id == "const" and len(statement.value.args) == 1):
        return None, None
    expression = ast.fix_missing_locations(ast.Expression(statement.value.args[0]))
    try:  # its names are folded already: what is left uses only constants
        value = eval(compile(expression, "<const>", "eval"), {"__builtins__": {}})
    except NameError:
        return None, None  # not a constant expression: stays a plain call, as on MicroPython
    return statement.targets[0].id, value


class _ConstFinder:
    """Finds `prefix` modules as usual and loads those that use const() folded."""

    def __init__(self, prefix):
        self.prefix = prefix

    def find_spec(self, name, path, target=None):
        """The usual spec, with a folding loader for a source module of the package."""
        if not name.startswith(self.prefix):
            return None
        spec = PathFinder.find_spec(name, path, target)
        if spec is not None and isinstance(spec.loader, SourceFileLoader):
            spec.loader = _FoldingLoader(name, spec.origin)
        return spec


class _FoldingLoader(SourceFileLoader):
    """Compiles a module with const() in it folded, without a cached .pyc (a .pyc
    written by a plain import would hold the unfolded code under the same name)."""

    def get_code(self, fullname):
        """The module's code object."""
        path = self.get_filename(fullname)
        source = self.get_data(path)
        if b"const(" not in source:
            return super().get_code(fullname)
        return compile_folded(source, path)
