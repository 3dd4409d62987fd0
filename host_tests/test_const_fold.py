"""CPython compiles the engine as mpy-cross does: const() names become their values.

MicroPython's compiler replaces each module-level ``NAME = const(value)`` name by its
value; engine.cpython.fold_consts gives CPython the same code (engine/__init__.py
turns it on), so that a hot loop reads a constant instead of a global.
"""

import ast
import dis
import importlib
import types
from pathlib import Path

import pytest

from engine.cpython import compile_folded

ENGINE = Path(__file__).resolve().parent.parent / "engine"


def const_names(path):
    """The names a module binds with const() at module level."""
    names = set()
    for statement in ast.parse(path.read_text()).body:
        value = getattr(statement, "value", None)
        if isinstance(value, ast.Call) and getattr(value.func, "id", None) == "const":
            names.add(statement.targets[0].id)
    return names


def global_loads(code):
    """Every global name loaded by `code` and the code nested in it."""
    names = {i.argval for i in dis.get_instructions(code)
             if i.opname in ("LOAD_GLOBAL", "LOAD_NAME")}
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            names |= global_loads(const)
    return names


def function_codes(module):
    """The code of each function and method defined in `module`."""
    for value in vars(module).values():
        if isinstance(value, types.FunctionType) and value.__module__ == module.__name__:
            yield value.__code__
        elif isinstance(value, type) and value.__module__ == module.__name__:
            for member in vars(value).values():
                if isinstance(member, types.FunctionType):
                    yield member.__code__


MODULES = sorted(p.stem for p in ENGINE.glob("*.py") if const_names(p))


@pytest.mark.parametrize("name", MODULES)
def test_no_function_looks_up_a_const_name(name):
    module = importlib.import_module("engine." + name)
    consts = const_names(ENGINE / (name + ".py"))
    codes = list(function_codes(module))
    assert codes
    for code in codes:
        assert not global_loads(code) & consts, code.co_name


def test_the_round_loop_reads_header_bytes_by_number():
    from engine.round import Round
    constants = set(Round.legal_moves.__code__.co_consts)
    assert {15, 24, 0x600, 255} <= constants  # _BOUNDS, _CARDS, _CATCH, NOBODY


SOURCE = '''
from engine.compat import const
def early():
    return LATE          # used before its const line: stays a global, as in mpy-cross
_BASE = const(0x100)
LATE = const(_BASE | 3)  # a const made from another
NOT_CONST = const(len("four"))  # not a constant expression: a plain call
def late(LATE=LATE):
    return _BASE + LATE + NOT_CONST
'''


def test_folding_follows_micropython():
    namespace = {}
    exec(compile_folded(SOURCE, "<sample>"), namespace)
    assert namespace["LATE"] == 0x103 and namespace["_BASE"] == 0x100  # still bound
    assert namespace["early"]() == 0x103 and namespace["late"]() == 0x100 + 0x103 + 4
    assert "LATE" in global_loads(namespace["early"].__code__)
    late = global_loads(namespace["late"].__code__)
    assert "_BASE" not in late and "NOT_CONST" in late
    assert namespace["late"].__defaults__ == (0x103,)
