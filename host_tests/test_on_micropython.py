"""Every portable test (host_tests/portable/test_*.py) again, inside the MicroPython VM.

The engine and the tests are loaded as .mpy, the way they ship. Each portable module runs
in one VM launch; every test function there becomes its own pytest item here.
"""
from functools import lru_cache

import pytest

from tools.vm import mpvm

MODULES = sorted(mpvm.PORTABLE_DIR.glob("test_*.py"))


@lru_cache(maxsize=None)
def vm_results(module):
    """Run one portable module in the VM once; return (outcomes, Result) or the error."""
    try:
        return mpvm.run_tests(module, timeout=240)
    except (mpvm.VMTimeout, mpvm.CompileError) as error:
        return error


@pytest.mark.parametrize("module,name", [
    pytest.param(path.stem, name, id=f"{path.stem}::{name}")
    for path in MODULES for name in mpvm.list_tests(path)
])
def test_portable_on_micropython(module, name):
    got = vm_results(module)
    if isinstance(got, Exception):
        pytest.fail(f"{type(got).__name__}: {got}", pytrace=False)
    outcomes, result = got
    outcome = outcomes.get(name)
    if outcome is None:
        pytest.fail(f"{module}.{name} never reported from the VM (exit {result.returncode}):\n"
                    f"{result.traceback()}\n{result.stdout[-2000:]}", pytrace=False)
    if not outcome.passed:
        printed = f"\n--- printed ---\n{outcome.output}" if outcome.output else ""
        pytest.fail(f"{module}.{name} failed on MicroPython:\n{outcome.traceback}{printed}",
                    pytrace=False)
