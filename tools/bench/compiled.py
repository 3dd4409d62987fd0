"""The engine compiled for CPython by Cython, from the source the device runs: optional.

    python -m tools.bench.compiled build     # into build/compiled/ (Cython: .venv-bench)
    python -m tools.bench.compiled check     # compiled == pure: logs, events, rule tests

The modules in MODULES are taken from engine/ with their const() names folded as on
the device (engine.cpython) and compiled by Cython in pure-Python mode: the C types
come from augmenting files beside this one (tools/bench/cython/<module>.pxd, as
Cython reads <module>.pxd next to <module>.py), so nothing under engine/ changes.
The build goes to build/compiled/lib, which tools/deploy and package.json never
see. `install()` makes `import engine.round` load a compiled module when it was built
from the current source; else nothing changes and the pure Python module loads as
always. Only the benchmark installs it; `./mau test` and `./mau play` run pure Python.
"""

import ast
import hashlib
import json
import os
import shutil
import subprocess
import sys
from importlib.machinery import EXTENSION_SUFFIXES, ExtensionFileLoader, ModuleSpec

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BUILD = os.path.join(ROOT, "build", "compiled")
LIB = os.path.join(BUILD, "lib")
STAMP = os.path.join(LIB, "SOURCE")
PXD = os.path.join(os.path.dirname(os.path.abspath(__file__)), "cython")

MODULES = ("round", "rng")  # the hot path: legal moves, moves, the shuffle
# Cython's directives: C ints for locals assigned from C ints (every value of the
# engine is a small int, so C longs hold them and Python's % and // are kept).
DIRECTIVES = "language_level=3,infer_types=True"


def source_digest():
    """A digest of everything a build is made from (sources, types, this file)."""
    h = hashlib.sha256()
    paths = [os.path.join(ROOT, "engine", m + ".py") for m in MODULES]
    paths += [os.path.join(PXD, m + ".pxd") for m in MODULES]
    paths += [os.path.join(ROOT, "engine", "cpython.py"), os.path.abspath(__file__)]
    for path in paths:
        with open(path, "rb") as f:
            h.update(f.read())
    return h.hexdigest()


def folded_source(module):
    """engine/<module>.py as Cython compiles it: its const() names folded (the loads
    of `NAME = const(value)` names replaced by the value, as mpy-cross does)."""
    from engine.cpython import _Folder
    path = os.path.join(ROOT, "engine", module + ".py")
    with open(path) as f:
        tree = _Folder().visit(ast.parse(f.read(), path))
    return ast.unparse(ast.fix_missing_locations(tree)) + "\n"


def build(python=None, quiet=True):
    """Compile MODULES into LIB with Cython run by `python` (default: this one)."""
    python = python or sys.executable
    src = os.path.join(BUILD, "src")
    shutil.rmtree(BUILD, ignore_errors=True)
    os.makedirs(os.path.join(src, "engine"))
    with open(os.path.join(src, "engine", "__init__.py"), "w"):
        pass  # (makes the modules engine.<module>)
    for module in MODULES:
        with open(os.path.join(src, "engine", module + ".py"), "w") as f:
            f.write(folded_source(module))
        shutil.copy(os.path.join(PXD, module + ".pxd"), os.path.join(src, "engine"))
    command = [python, "-m", "Cython.Build.Cythonize", "-i", "-q", "-X", DIRECTIVES]
    command += ["engine/%s.py" % m for m in MODULES]
    done = subprocess.run(command, cwd=src, capture_output=quiet, text=True)
    if done.returncode:
        raise RuntimeError("Cython failed:\n%s%s" % (done.stdout or "", done.stderr or ""))
    os.makedirs(os.path.join(LIB, "engine"))
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


def install_or_exit():
    """install(), then exit with the reason unless both modules loaded compiled."""
    reason = install()
    if reason is None:
        from engine import rng, round
        if not (is_compiled(rng) and is_compiled(round)):
            reason = "installed, yet a pure module loaded"
    if reason is not None:
        sys.stderr.write("compiled engine %s\n" % reason)
        sys.exit(1)


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
ROUNDS = 100
# AI matches (tools.tournament: views, sampled tables): preset, options, levels, seed.
AI_MATCHES = (("classic", {}, [4, 3, 2, 1], 1), ("nordic", {"rounds": 1}, [4, 3, 2], 2))


def replay_digest():
    """A digest of the replay logs of GAMES played by the engine as imported, of every
    legal-move list and event of ROUNDS random rounds under each of GAMES' rules, and of
    the results of AI_MATCHES."""
    from array import array
    from engine.autoplay import play_game, random_player
    from engine.rng import Random
    from engine.round import Round
    from engine.rules import Rules
    h = hashlib.sha256()
    moves = array("H", bytes(80))
    for preset, options, players, seed, seat_changes in GAMES:
        rules = Rules(preset, **options)
        play_game(rules, players, seed, lambda line: h.update(line.encode() + b"\n"),
                  seat_changes=seat_changes)
        deal, rng = Random(seed), Random(~seed)
        for _ in range(ROUNDS):
            rnd = Round(rules, players, deal)
            seat = rnd.turn()
            while seat >= 0:
                n = rnd.legal_moves(seat, moves)
                seat = rnd.apply_legal(seat, random_player(rnd, seat, moves, n, rng))
                h.update(moves[:n].tobytes() + rnd.events[:rnd.event_count()].tobytes())
            h.update(rnd.s)
    from tools.tournament import play_match
    for preset, options, levels, seed in AI_MATCHES:
        h.update(repr(play_match(Rules(preset, **options), levels, seed, playouts=8)).encode())
    return h.hexdigest()


RULES_TESTS = "host_tests/portable"  # a scenario for every rule and option, both presets


def check(python=None):
    """(equal?, one line): GAMES and the rest played pure here and compiled in a child
    of `python` (default: this one), then RULES_TESTS run there on the compiled engine."""
    python = python or sys.executable
    pure = replay_digest()
    done = subprocess.run([python, "-m", "tools.bench.compiled", "digest"], cwd=ROOT,
                          capture_output=True, text=True)
    if done.returncode:
        return False, "it failed: %s" % (done.stderr.strip().splitlines() or ["?"])[-1]
    compiled = done.stdout.strip()
    line = "%d golden games, %d random rounds, %d AI matches: digest pure %s, compiled %s" % (
        len(GAMES), len(GAMES) * ROUNDS, len(AI_MATCHES), pure[:12], compiled[:12])
    if compiled != pure:
        return False, line
    done = subprocess.run([python, "-m", "tools.bench.compiled", "rules"], cwd=ROOT,
                          capture_output=True, text=True)
    tail = (done.stdout.strip().splitlines() or ["no output"])[-1]
    return done.returncode == 0, "%s; %s on it: %s" % (line, RULES_TESTS, tail)


def measure(seconds, repeat):
    """{preset: (games/s, moves/s, moves a game)} of the compiled engine: the best of
    `repeat` races (tools.bench.engine.race) of `seconds`."""
    from tools.bench import engine as bench
    bench.race("classic", min(0.2, seconds))  # warm-up
    return {preset: max((bench.race(preset, seconds) for _ in range(repeat)),
                        key=lambda figures: figures[1])
            for preset in ("classic", "nordic")}


def main(argv=None):
    """build | check | digest | rules | measure SECONDS REPEAT (the last three run on
    the compiled engine: its digest, RULES_TESTS, its figures as JSON)."""
    argv = sys.argv[1:] if argv is None else argv
    what = argv[0] if argv else "check"
    if what == "build":
        from tools.bench.peers import PYTHON  # .venv-bench's, where Cython is
        build(PYTHON if os.path.exists(PYTHON) else None, quiet=False)
        print("built %s into %s" % (", ".join("engine." + m for m in MODULES), LIB))
        return 0
    if what == "digest":
        install_or_exit()
        print(replay_digest())
        return 0
    if what == "rules":
        install_or_exit()
        import pytest
        return pytest.main([RULES_TESTS])
    if what == "measure":
        install_or_exit()
        print(json.dumps(measure(float(argv[1]), int(argv[2]))))
        return 0
    if what == "check":
        same, line = check()
        print(line)
        print("the same as pure Python" if same else "NOT the same as pure Python")
        return 0 if same else 1
    sys.stderr.write("usage: python -m tools.bench.compiled build | check\n")
    return 2


if __name__ == "__main__":
    sys.exit(main())
