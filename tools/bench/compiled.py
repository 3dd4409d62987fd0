"""The engine compiled for CPython by mypyc, from the source the device runs: optional.

    python -m tools.bench.compiled build     # into build/compiled/ (mypyc: .venv-bench)
    python -m tools.bench.compiled check     # golden games: compiled log == pure log

The modules in MODULES are taken from engine/, their const() names folded as on the
device (engine.cpython), the signatures of tools/bench/engine_types.pyi copied onto
their functions, and compiled by mypyc into build/compiled/lib (nothing under engine/
changes; tools/deploy and package.json never see build/compiled). `install()` makes
`import engine.round` load a compiled module when it was built from the current
source, else nothing changes and the pure Python module loads as always. Only the
benchmark installs it; `./mau test` and `./mau play` run pure Python.
"""

import ast
import hashlib
import os
import shutil
import subprocess
import sys
from importlib.machinery import EXTENSION_SUFFIXES, ExtensionFileLoader, ModuleSpec

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BUILD = os.path.join(ROOT, "build", "compiled")
LIB = os.path.join(BUILD, "lib")
STAMP = os.path.join(LIB, "SOURCE")
TYPES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "engine_types.pyi")

MODULES = ("round", "rng")  # the hot path: legal moves, moves, the shuffle
# Read by mypy while it compiles MODULES (imported by them), left as they are.
READ_ALONG = ("__init__", "compat", "cpython", "cards")


def source_digest():
    """A digest of everything a build is made from (sources, types, this file)."""
    h = hashlib.sha256()
    paths = [os.path.join(ROOT, "engine", m + ".py") for m in MODULES + READ_ALONG]
    for path in paths + [TYPES, os.path.abspath(__file__)]:
        with open(path, "rb") as f:
            h.update(f.read())
    return h.hexdigest()


def typed_source(module):
    """engine/<module>.py as mypyc compiles it: const() names folded, signatures typed."""
    from engine.cpython import _Folder
    path = os.path.join(ROOT, "engine", module + ".py")
    with open(path) as f:
        tree = _Folder().visit(ast.parse(f.read(), path))
    with open(TYPES) as f:
        types = ast.parse(f.read(), TYPES)
    _annotate(tree, types)
    return ast.unparse(ast.fix_missing_locations(tree)) + "\n"


def _annotate(tree, types):
    """Copy the signatures and attribute annotations of `types` onto `tree`'s functions
    and classes of the same names; imports of `types` go to the top of `tree`."""
    imports = [node for node in types.body if isinstance(node, (ast.Import, ast.ImportFrom))]
    _annotate_scope(tree.body, types.body)
    tree.body[:0] = imports


def _annotate_scope(body, types):
    typed = {node.name: node for node in types
             if isinstance(node, (ast.FunctionDef, ast.ClassDef))}
    for node in body:
        stub = typed.get(getattr(node, "name", None))
        if isinstance(node, ast.ClassDef) and isinstance(stub, ast.ClassDef):
            attributes = [a for a in stub.body if isinstance(a, ast.AnnAssign)]
            _annotate_scope(node.body, stub.body)
            node.body[:0] = attributes
        elif isinstance(node, ast.FunctionDef) and isinstance(stub, ast.FunctionDef):
            names = [a.arg for a in node.args.args]
            if names != [a.arg for a in stub.args.args]:
                raise ValueError("%s: engine_types.pyi has arguments %s"
                                 % (node.name, [a.arg for a in stub.args.args]))
            for arg, typed_arg in zip(node.args.args, stub.args.args):
                arg.annotation = typed_arg.annotation
            node.returns = stub.returns


def build(python=None, quiet=True):
    """Compile MODULES into LIB with mypyc run by `python` (default: this one)."""
    python = python or sys.executable
    src = os.path.join(BUILD, "src")
    shutil.rmtree(BUILD, ignore_errors=True)
    os.makedirs(os.path.join(src, "engine"))
    for module in READ_ALONG:
        shutil.copy(os.path.join(ROOT, "engine", module + ".py"), os.path.join(src, "engine"))
    for module in MODULES:
        with open(os.path.join(src, "engine", module + ".py"), "w") as f:
            f.write(typed_source(module))
    command = [python, "-m", "mypyc", "--ignore-missing-imports"]
    command += ["engine/%s.py" % m for m in MODULES]
    done = subprocess.run(command, cwd=src, capture_output=quiet, text=True)
    if done.returncode:
        raise RuntimeError("mypyc failed:\n%s%s" % (done.stdout or "", done.stderr or ""))
    os.makedirs(os.path.join(LIB, "engine"))
    for name in os.listdir(src):  # mypyc's shared library of all the modules
        if name.endswith(tuple(EXTENSION_SUFFIXES)):
            shutil.move(os.path.join(src, name), LIB)
    for module in MODULES:
        shutil.move(_extension(os.path.join(src, "engine"), module), os.path.join(LIB, "engine"))
    with open(STAMP, "w") as f:
        f.write(source_digest() + "\n")


def _extension(folder, module):
    for suffix in EXTENSION_SUFFIXES:
        path = os.path.join(folder, module + suffix)
        if os.path.exists(path):
            return path
    return None


def built():
    """Why the compiled engine cannot load, or None when it is built from this source."""
    try:
        with open(STAMP) as f:
            stamp = f.read().strip()
    except OSError:
        return "not built (python -m tools.bench.compiled build)"
    if stamp != source_digest():
        return "built from another source (python -m tools.bench.compiled build)"
    if any(_extension(os.path.join(LIB, "engine"), m) is None for m in MODULES):
        return "not built for %s" % sys.implementation.cache_tag
    return None


def install():
    """Load MODULES compiled from now on, if built from this source; return None then,
    else the reason why not (and the pure modules load). Call before importing them."""
    reason = built()
    if reason is not None:
        return reason
    import engine  # its const-folding finder first, then this one before it
    loaded = [m for m in MODULES if "engine." + m in sys.modules]
    if loaded:
        return "engine.%s already imported" % loaded[0]
    if LIB not in sys.path:
        sys.path.append(LIB)
    sys.meta_path.insert(0, _CompiledFinder())
    return None


def is_compiled(module):
    """True if the imported module is a compiled extension."""
    return module.__file__.endswith(tuple(EXTENSION_SUFFIXES))


class _CompiledFinder:
    """Finds engine.<m> for m in MODULES in LIB."""

    def find_spec(self, name, path, target=None):
        """The extension module's spec for a compiled engine module, else None."""
        package, _, module = name.rpartition(".")
        if package != "engine" or module not in MODULES:
            return None
        origin = _extension(os.path.join(LIB, "engine"), module)
        return ModuleSpec(name, ExtensionFileLoader(name, origin), origin=origin)


# Golden games (host_tests/test_golden_replay.py has the same mixes): preset, options,
# players, seed, seat changes.
GAMES = (("classic", {}, 2, 1, False), ("classic", {}, 3, 7, False),
         ("classic", {"rounds": 3}, 4, 21, False),
         ("classic", {"ace": "draw4", "must_play_if_able": True}, 6, 5, False),
         ("nordic", {}, 2, 3, False), ("nordic", {"limit": 60}, 4, 8, False),
         ("nordic", {"mau_penalty": "challenge", "play_drawn": True}, 5, 13, False),
         ("classic", {"rounds": 6}, 3, 5, True))


def replay_digest():
    """A digest of the replay logs of GAMES played by the engine as imported."""
    from engine.autoplay import play_game
    from engine.rules import Rules
    h = hashlib.sha256()
    for preset, options, players, seed, seat_changes in GAMES:
        play_game(Rules(preset, **options), players, seed,
                  lambda line: h.update(line.encode() + b"\n"), seat_changes=seat_changes)
    return h.hexdigest()


def check(python=None):
    """(identical?, lines to print): GAMES played pure here and compiled in a child."""
    python = python or sys.executable
    pure = replay_digest()
    done = subprocess.run([python, "-m", "tools.bench.compiled", "digest"], cwd=ROOT,
                          capture_output=True, text=True)
    if done.returncode:
        return False, "compiled engine failed:\n" + done.stderr
    compiled = done.stdout.strip()
    return compiled == pure, "%d golden games, replay log digest: pure %s, compiled %s" % (
        len(GAMES), pure[:16], compiled[:16])


def main(argv=None):
    """build | check | digest (the compiled engine's, printed; for check)."""
    argv = sys.argv[1:] if argv is None else argv
    what = argv[0] if argv else "check"
    if what == "build":
        build(quiet=False)
        print("built %s into %s" % (", ".join("engine." + m for m in MODULES), LIB))
        return 0
    if what == "digest":
        reason = install()
        if reason is not None:
            sys.stderr.write("compiled engine %s\n" % reason)
            return 1
        print(replay_digest())
        return 0
    if what == "check":
        same, line = check()
        print(line)
        print("identical" if same else "DIFFERENT")
        return 0 if same else 1
    sys.stderr.write("usage: python -m tools.bench.compiled build|check\n")
    return 2


if __name__ == "__main__":
    sys.exit(main())
