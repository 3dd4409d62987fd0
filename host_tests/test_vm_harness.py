"""The MicroPython VM harness itself: tools/vm/mpvm.py, tools/vm/mpvm.mjs, tools/vm/build_mpy.py."""
import time

import pytest

from tools.vm import build_mpy, mpvm


def write(folder, files):
    """Create `files` (relative path -> source text) under `folder`; return the folder."""
    for rel, text in files.items():
        path = folder / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return folder


def test_vm_is_micropython_with_31_bit_small_ints():
    out = mpvm.run(
        "import sys, micropython\n"
        "def allocates(n):\n"
        "    micropython.heap_lock()\n"
        "    try:\n"
        "        n + 1\n"
        "        return False\n"
        "    except MemoryError:\n"
        "        return True\n"
        "    finally:\n"
        "        micropython.heap_unlock()\n"
        "print(sys.implementation.name, sys.maxsize, allocates(2**30 - 2), allocates(2**30 - 1))",
        modules=()).check().stdout.split()
    assert out == ["micropython", str(2**31 - 1), "False", "True"]


def test_the_vms_heap_lies_where_a_boards_does():
    """The GC heap starts at 0x2000_0000 or above, as an RP2040's RAM (tools/vm/vmheap.mjs):
    small numbers in arrays do not read as pointers into it."""
    out = mpvm.run("import uctypes\nprint(uctypes.addressof(bytearray(8)))").check().stdout
    assert 0x20000000 <= int(out) < 0x30000000
    grown = mpvm.run("import uctypes\nb = [bytearray(4096) for _ in range(300)]\n"
                     "print(uctypes.addressof(b[-1]))", heapsize=256 * 1024).check().stdout
    assert int(grown) >= 0x20000000           # the areas the heap grows by lie there too


def test_mpy_cross_emits_the_vm_mpy_version():
    assert mpvm.mpy_cross_mpy_version() == mpvm.vm_mpy_version()


@pytest.mark.parametrize("mpy", [True, False], ids=["mpy", "py"])
def test_exception_names_file_and_line(tmp_path, mpy):
    pkg = write(tmp_path / "boom", {"__init__.py": "", "core.py": "X = 1\n\ndef go():\n    raise ValueError('kaput')\n"})
    result = mpvm.run("import boom.core\nboom.core.go()", modules=(pkg,), mpy=mpy)
    with pytest.raises(AssertionError) as failure:
        result.check()
    message = str(failure.value)
    assert "core.py\", line 4, in go" in message
    assert "raise ValueError('kaput')" in message  # the source line, added on the host
    assert "ValueError: kaput" in message and '"<main>", line 2' in message


def test_device_code_ships_without_line_numbers_and_names_file_and_function():
    """Device code is compiled at -O3 (as manifest.py freezes it) under its module's name:
    its bytecode has no line table, so a traceback names the module and the function, each
    at line 1."""
    source = build_mpy.ROOT / "engine" / "cards.py"
    assert len(build_mpy.compile_source(source, "engine/cards.py")) < len(
        build_mpy.compile_source(source, "sample/cards.py"))      # -O0: line numbers kept
    result = mpvm.run("from engine.cards import lay_deck\nlay_deck(bytearray(1), 0, 'tarot')",
                      modules=("engine",))
    assert not result.ok
    assert 'File "engine.cards", line 1, in lay_deck' in result.stderr
    assert "ValueError: no deck 'tarot'" in result.stderr
    assert result.traceback().splitlines() == result.stderr.splitlines()   # no line 1 quoted


POSITIONAL_ONLY = "def fine():\n    pass\n\ndef f(a, /, b):\n    return a\n"  # CPython accepts


def test_syntax_error_at_build_time_names_file_and_line(tmp_path):
    write(tmp_path / "pkg", {"__init__.py": "", "good.py": "X = 1\n", "bad.py": POSITIONAL_ONLY})
    result = build_mpy.build(dirs=("pkg",), base=tmp_path, out=tmp_path / "out")
    assert [str(e) for e in result.errors] == ["pkg/bad.py:4: SyntaxError: invalid syntax"]
    assert sorted(p.name for p in result.outputs) == ["__init__.mpy", "good.mpy"]
    with pytest.raises(build_mpy.CompileError, match=r"bad\.py:4: SyntaxError"):
        mpvm.run("import pkg.bad", modules=(tmp_path / "pkg",))


def test_syntax_error_in_py_source_names_file_and_line(tmp_path):
    pkg = write(tmp_path / "pkg", {"__init__.py": "", "bad.py": POSITIONAL_ONLY})
    with pytest.raises(AssertionError, match=r'(?s)/lib/pkg/bad\.py", line 4.*SyntaxError'):
        mpvm.run("import pkg.bad", modules=(pkg,), mpy=False).check()


def test_missing_stdlib_module_fails_clearly(tmp_path):
    pkg = write(tmp_path / "pkg", {"__init__.py": "", "uses.py": "import sys\nimport dataclasses\n"})
    with pytest.raises(AssertionError, match=r"(?s)uses\.py\", line 2.*no module named 'dataclasses'"):
        mpvm.run("import pkg.uses", modules=(pkg,)).check()


def test_infinite_loop_is_killed_and_reported():
    start = time.monotonic()
    with pytest.raises(mpvm.VMTimeout, match=r"(?s)'spin forever'.*2 s.*spinning"):
        mpvm.run("print('spinning')\nwhile True:\n    pass", modules=(), timeout=2, label="spin forever")
    assert time.monotonic() - start < 10


def test_build_compiles_every_device_file(tmp_path):
    result = build_mpy.build(out=tmp_path)
    assert result.errors == []
    sources = [p for d in build_mpy.DEVICE_DIRS for p in (build_mpy.ROOT / d).rglob("*.py")
               if "__pycache__" not in p.parts and not build_mpy.is_native(p)]   # no viper in the VM
    assert len(result.outputs) == len(sources)
    assert all(p.read_bytes()[:2] == b"M\x06" for p in result.outputs)  # .mpy v6


def test_vm_imports_a_compiled_package(tmp_path):
    write(tmp_path / "src" / "pkg", {"__init__.py": "NAME = 'pkg'\n", "sub.py": "from pkg import NAME\nVALUE = NAME * 2\n"})
    build = build_mpy.build(dirs=("pkg",), base=tmp_path / "src", out=tmp_path / "out")
    assert build.errors == []
    out = mpvm.run("import pkg.sub\nprint(pkg.sub.VALUE, pkg.sub.__file__)",
                   modules=(tmp_path / "out" / "pkg",), mpy=False).check().stdout
    assert out.split() == ["pkgpkg", "/lib/pkg/sub.mpy"]


def test_vm_imports_the_compiled_engine_package(tmp_path):
    build = build_mpy.build(dirs=("engine",), out=tmp_path)
    assert build.errors == []
    # (not engine.cpython: CPython's stand-ins for MicroPython's built-ins and compiler,
    # which imports CPython's ast and importlib; engine.compat loads it on CPython only)
    names = sorted(p.stem for p in build.outputs if p.stem not in ("__init__", "cpython"))
    assert len(names) > 10
    main = "import engine\n" + "".join(f"import engine.{n}\n" for n in names) + "print(engine.__file__)"
    out = mpvm.run(main, modules=(tmp_path / "engine",), mpy=False).check().stdout
    assert out.strip() == "/lib/engine/__init__.mpy"


def test_garbage_is_collected_between_steps_not_within_a_call():
    out = mpvm.run("import gc\njunk = [bytearray(1000) for _ in range(200)]\njunk = None\n"
                   "gc.collect()\nprint(gc.mem_alloc() > 200000)",
                   modules=(), steps=["print(gc.mem_alloc() < 50000)"]).check().stdout
    assert out.split() == ["True", "True"]


def test_a_repeated_step_is_compiled_once_as_a_device_loop_compiles_nothing():
    # a step compiled each time would take the parser's first block (512 bytes) and more
    # every frame of a capped evening (tools/bench/needs.py); run again, a step's code
    # makes only the function object exec gives it (32 bytes)
    out = mpvm.run("import gc\nA = [0] * 40\nI = [0]\ngc.collect()\ngc.disable()\n",
                   modules=(), steps=[("A[I[0]] = gc.mem_alloc()\nI[0] += 1", 30),
                                      "print(I[0], set(A[i + 1] - A[i] for i in range(28)))"]
                   ).check().stdout
    assert out.split() == ["30", "{32}"]


def test_measure_alloc_counts_heap_blocks():
    assert mpvm.measure_alloc("pass", modules=()) == 0
    assert mpvm.measure_alloc("b = bytearray(12)", modules=()) == 32
    assert mpvm.measure_alloc("x = y * 1.5", setup="y = 2.0", modules=()) == 16


def test_runner_reports_each_test_with_traceback_and_output(tmp_path):
    write(tmp_path, {"test_sample.py": (
        "def test_ok():\n    assert 1 + 1 == 2\n\n"
        "def test_bad():\n    print('about to fail')\n    assert [1] == [2]\n\n"
        "def test_raises():\n    {}['missing']\n")})
    outcomes, result = mpvm.run_tests("test_sample", folder=tmp_path, modules=())
    assert list(outcomes) == ["test_ok", "test_bad", "test_raises"]  # definition order
    assert [o.passed for o in outcomes.values()] == [True, False, False]
    assert 'test_sample.py", line 6, in test_bad' in outcomes["test_bad"].traceback
    assert "assert [1] == [2]" in outcomes["test_bad"].traceback
    assert outcomes["test_bad"].output == "about to fail"
    assert "KeyError: missing" in outcomes["test_raises"].traceback
    assert result.ok



def test_a_full_capped_heap_reports_the_programs_own_failed_allocation():
    # the report of a MemoryError allocates nothing: a buffer for its traceback would not
    # fit in the full heap either, and the VM spun until killed (tools/bench/needs.py says
    # where and why a capped evening ran out from this report); one step, compiled while
    # the heap had room, fills the heap with holes of 80 bytes, then asks for 3,000
    main = ("keep = []\n"
            "def step():\n"
            "    if keep:\n"
            "        return grow()\n"
            "    try:\n"
            "        while True:\n"
            "            keep.append(bytearray(64))\n"
            "    except MemoryError:\n"
            "        pass\n"
            "    for i in range(len(keep) - 200, len(keep), 2):\n"
            "        keep[i] = None\n"
            "def grow():\n"
            "    return bytearray(3000)\n")
    result = mpvm.run(main, modules=(), steps=[("step()", 2)], heapsize=64 * 1024,
                      capped=True, timeout=60)
    assert not result.ok
    assert "in grow" in result.stderr
    assert "MemoryError: memory allocation failed, allocating 3000 bytes" in result.stderr
