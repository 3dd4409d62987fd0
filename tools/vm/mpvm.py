"""Run code in the MicroPython WebAssembly VM from Python (pytest, benchmarks).

    result = mpvm.run("import engine; print(engine.__name__)").check()

Project folders given as `modules` are copied into the VM under /lib/<folder name>/,
compiled to .mpy (the way they ship) or as .py source. A folder with an __init__ file is a
package (`import engine`); any other folder is also put on sys.path so its modules import
by their own name (`import test_vm_sanity`), as on a device. Every run has a timeout.

    mpvm.run("import firmware.app", modules=(), romfs=romfs.build_image("thumby"))

mounts a ROMFS image (tools/deploy/romfs.py) at /rom the way a board's firmware mounts its ROM
partition: the image lies outside the GC heap, its .mpy files run in place, and sys.path
is the firmware's (ROMFS_PATH).
"""
import ast
import base64
import json
import re
import shutil
import subprocess
import textwrap
from functools import lru_cache
from pathlib import Path

from tools.vm.build_mpy import ROOT, CompileError, compile_source, is_native, mpy_cross_version

NODE_SCRIPT = ROOT / "tools" / "vm" / "mpvm.mjs"
VM_PACKAGE = ROOT / "node_modules" / "@micropython" / "micropython-webassembly-pyscript"
RUNNER = ROOT / "tools" / "vm" / "mp_testrunner.py"
PORTABLE_DIR = ROOT / "host_tests" / "portable"
DEFAULT_HEAPSIZE = 1024 * 1024
DEFAULT_PATH = ["", ".frozen", "/lib"]
# sys.path of firmware that mounted a ROMFS: the image before the writable /lib
# (micropython-lib PR #981 shows ['', '.frozen', '/rom', '/rom/lib', '/flash',
# '/flash/lib'] on a PYBD; rp2 and esp32 have /lib where the PYBD has /flash/lib)
ROMFS_PATH = ["", ".frozen", "/rom", "/rom/lib", "/lib"]


class VMTimeout(RuntimeError):
    """The VM ran past its timeout and was killed; .stdout holds what it printed."""

    def __init__(self, message, stdout=""):
        super().__init__(message)
        self.stdout = stdout


class Result:
    """Outcome of one VM run: stdout, stderr, returncode, label, sources (VM path -> host path)."""

    def __init__(self, stdout, stderr, returncode, label, sources):
        self.stdout, self.stderr, self.returncode, self.label = stdout, stderr, returncode, label
        self.sources = sources

    @property
    def ok(self):
        """True when the run exited with status 0."""
        return self.returncode == 0

    def traceback(self):
        """stderr with the source line added under each traceback frame we can find."""
        return annotate(self.stderr, self.sources)

    def check(self):
        """Return self if the run succeeded, else raise AssertionError with the traceback."""
        if not self.ok:
            tail = "\n".join(self.stdout.splitlines()[-20:])
            raise AssertionError(
                f"MicroPython run {self.label!r} failed (exit {self.returncode}):\n"
                f"{self.traceback()}" + (f"\n--- last stdout ---\n{tail}" if tail else "")
            )
        return self


def _resolve(module):
    path = Path(module)
    return path if path.is_absolute() else ROOT / path


def _display_name(path):
    """Repo-relative name for files in the repo, else the absolute path."""
    try:
        return path.relative_to(ROOT).as_posix()
    except ValueError:
        return str(path)


def vm_files(modules, mpy=True):
    """Map VM path -> (bytes, host path) for the given folders/files, plus extra sys.path dirs.

    .py files become .mpy when `mpy` is true (compiled under their repo-relative name, so
    tracebacks name the repo file; only repo files are cached); other files are copied.
    """
    files, path = {}, []
    for module in modules:
        src = _resolve(module)
        if src.is_file():
            pairs, lib = [(src, src.name)], "/lib"
        else:
            pairs = [(p, p.relative_to(src).as_posix()) for p in sorted(src.rglob("*"))
                     if p.is_file() and "__pycache__" not in p.parts and p.suffix != ".pyc"]
            lib = f"/lib/{src.name}"
            if not any((src / f"__init__{ext}").exists() for ext in (".py", ".mpy")):
                path.append(lib)
        for host, rel in pairs:
            if host.suffix == ".py" and is_native(host):   # viper: the VM cannot run it
                continue
            if mpy and host.suffix == ".py":
                name = _display_name(host)
                data = compile_source(host, name, cache=not name.startswith("/"))
                files[f"{lib}/{rel[:-3]}.mpy"] = (data, host)
            else:
                files[f"{lib}/{rel}"] = (host.read_bytes(), host)
    return files, path


def run(main, modules=("engine",), mpy=True, extra_files=None, heapsize=DEFAULT_HEAPSIZE,
        timeout=60, steps=(), name="<main>", label=None, romfs=None, capped=False,
        step_name=None):
    """Run `main` (then each of `steps`, as separate VM calls) in a fresh VM; return a Result.

    A step may be a (source, times) pair: that many calls of the same source, under one
    name. Steps are named `<step N>` in tracebacks, or all `step_name` (each name is one
    more in the VM's name pool). extra_files maps VM paths to bytes/str; romfs is an image
    (bytes) to mount at /rom; `capped` keeps the GC heap from growing past `heapsize` (a
    MemoryError, or a spin that the timeout ends, when it is full).
    Raises VMTimeout after `timeout` seconds and build_mpy.CompileError when mpy-cross
    rejects a module.
    """
    if label is None:
        label = name if name != "<main>" else (main.strip().splitlines() or ["<empty>"])[0][:60]
    files, path = vm_files(modules, mpy)
    for vm_path, data in (extra_files or {}).items():
        files[vm_path] = (data.encode() if isinstance(data, str) else data, None)
    job = {
        "heapsize": heapsize,
        "files": {k: base64.b64encode(data).decode() for k, (data, _) in files.items()},
        "path": (ROMFS_PATH if romfs is not None else DEFAULT_PATH) + path,
        "main": main,
        "name": name,
        "steps": [step if isinstance(step, str) else list(step) for step in steps],
        "capped": capped,
        "step_name": step_name,
    }
    if romfs is not None:
        job["romfs"] = base64.b64encode(romfs).decode()
    node = shutil.which("node")
    if node is None:
        raise RuntimeError("node is not installed; the MicroPython VM needs Node 20")
    if not VM_PACKAGE.is_dir():      # `./mau play` installs what playing needs only
        raise SystemExit("the MicroPython VM is not installed (node_modules): `./mau test`"
                         " sets up what the tools need")
    try:
        done = subprocess.run([node, str(NODE_SCRIPT)], input=json.dumps(job).encode(),
                              capture_output=True, timeout=timeout, cwd=ROOT)
    except subprocess.TimeoutExpired as e:
        printed = (e.stdout or b"").decode(errors="replace")
        tail = "\n".join(printed.splitlines()[-10:])
        raise VMTimeout(f"MicroPython run {label!r} did not finish in {timeout} s and was killed"
                        + (f"; last output:\n{tail}" if tail else ""), printed) from None
    sources = {vm: host for vm, (_, host) in files.items() if host is not None}
    return Result(done.stdout.decode(errors="replace"), done.stderr.decode(errors="replace"),
                  done.returncode, label, sources)


_FRAME = re.compile(r'^(\s*)File "([^"]+)", line (\d+)')


def annotate(traceback, sources=None):
    """Add the source line under each `File "...", line N` frame whose file we can read.

    A frame names a repo-relative path (.mpy compiled here), an absolute host path, or a
    VM path listed in `sources` (VM path -> host path).
    """
    out = []
    for text in traceback.splitlines():
        out.append(text)
        match = _FRAME.match(text)
        if not match:
            continue
        indent, file, line = match.group(1), match.group(2), int(match.group(3))
        host = (sources or {}).get(file) or _resolve(file)
        try:
            code = host.read_text().splitlines()[line - 1].strip()
        except (OSError, IndexError, ValueError):
            continue
        out.append(f"{indent}    {code}")
    return "\n".join(out)


@lru_cache(maxsize=None)
def vm_mpy_version():
    """(major, minor) .mpy version the VM loads, from sys.implementation._mpy, e.g. (6, 3)."""
    value = int(run("import sys; print(sys.implementation._mpy)", modules=(), timeout=30).check().stdout)
    return value & 0xFF, (value >> 8) & 3


def mpy_cross_mpy_version():
    """(major, minor) .mpy version mpy-cross emits, from its --version banner, e.g. (6, 3)."""
    major, minor = re.search(r"mpy v(\d+)\.(\d+)", mpy_cross_version()).groups()
    return int(major), int(minor)


def measure_alloc(stmt, setup="", modules=("engine",), **run_kwargs):
    """Bytes the VM heap allocates while running `stmt` once, measured with gc disabled.

    Convention: `setup` runs first at module level (imports, building objects); `stmt`
    becomes the body of a function called between two gc.mem_alloc() readings, so its
    names are locals and only what it allocates is counted (a call itself costs 0 B).
    The count is exact and in 16-byte blocks: `bytearray(12)` is 32, a float 16. Assert
    `== 0` to prove code allocation-free (the device then never waits on a collection).
    """
    body = "\n".join("    " + line for line in (textwrap.dedent(stmt).strip() or "pass").splitlines())
    main = f"import gc\n{textwrap.dedent(setup)}\ndef _mpvm_stmt():\n{body}\n"
    measure = ("def _mpvm_measure():\n    gc.disable()\n    a = gc.mem_alloc()\n    _mpvm_stmt()\n"
               "    b = gc.mem_alloc()\n    gc.enable()\n    return b - a\n"
               "print('MPVM_ALLOC', _mpvm_measure())")
    result = run(main, modules=modules, steps=[measure], label=f"measure_alloc: {stmt.strip()[:40]}",
                 **run_kwargs).check()
    return int(re.search(r"^MPVM_ALLOC (\d+)$", result.stdout, re.M).group(1))


def list_tests(path):
    """Names of the top-level `test*` functions of a test file, in definition order."""
    tree = ast.parse(Path(path).read_text(), str(path))
    return [node.name for node in tree.body
            if isinstance(node, ast.FunctionDef) and node.name.startswith("test")]


class Outcome:
    """One test's result in the VM: passed, traceback (annotated), output it printed, ms."""

    def __init__(self, passed, traceback="", output="", ms=0):
        self.passed, self.traceback, self.output, self.ms = passed, traceback, output, ms


def run_tests(module, names=None, folder=PORTABLE_DIR, modules=("engine",), mpy=True,
              timeout=120, heapsize=DEFAULT_HEAPSIZE):
    """Run test functions of `folder`/`module`.py in one VM with tools/vm/mp_testrunner.py.

    Each test is its own VM call (so garbage is collected in between). Returns
    (dict name -> Outcome, Result); a test missing from the dict never reported.
    """
    folder = _resolve(folder)
    names = names if names is not None else list_tests(folder / f"{module}.py")
    try:
        result = run("import mp_testrunner as _t", modules=(*modules, folder, RUNNER), mpy=mpy,
                     steps=[f"_t.run_test({module!r}, {n!r})" for n in names],
                     heapsize=heapsize, timeout=timeout, label=f"{module} on MicroPython")
    except VMTimeout as e:
        done = parse_test_output(e.stdout)
        stuck = next((n for n in names if n not in done), "?")
        raise VMTimeout(f"{e} (stuck in {module}.{stuck})", e.stdout) from None
    return parse_test_output(result.stdout, result.sources), result


def parse_test_output(stdout, sources=None):
    """Parse mp_testrunner's `MPTEST ...` lines into a dict test name -> Outcome."""
    outcomes, printed, current = {}, [], None
    for line in stdout.splitlines():
        if line.startswith("MPTEST | ") and current is not None:
            if 'mp_testrunner.py", line' not in line:  # the runner's own frame
                current.traceback += line[9:] + "\n"
        elif line.startswith(("MPTEST PASS ", "MPTEST FAIL ")):
            _, status, qualname, ms = line.split()
            current = Outcome(status == "PASS", output="\n".join(printed), ms=int(ms[:-2]))
            outcomes[qualname.rpartition(".")[2]] = current
            printed = []
        elif not line.startswith("MPTEST "):
            printed.append(line)
    for outcome in outcomes.values():
        outcome.traceback = annotate(outcome.traceback, sources)
    return outcomes
