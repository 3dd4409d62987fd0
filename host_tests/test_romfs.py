"""ROMFS: each board's image builds, mounts in the MicroPython VM as firmware mounts it,
its .mpy files run in place, and the game plays the same from /rom as from /lib.

The image lies outside the VM's GC heap (tools/vm/mpvm.mjs copies it into C memory), as a
ROM partition lies in flash outside a board's RAM. Heap figures are printed by
tools/bench/firmware.py; here only what ROMFS is for is checked: far less heap.
"""
import hashlib
import importlib
import tempfile
from pathlib import Path

import pytest

from tools.deploy import deploy, romfs
from tools.fakes import chipmodels
from tools.vm import mpvm
from tools.bench.micropython import SCRUB
from tools.vm.build_mpy import compile_source

BOARDS = deploy.board_names()
APP = ("engine", "firmware", "board_configs")

# Walks /rom: every file's path, size and SHA-256 as the VM reads it.
WALK = """
import os, hashlib, sys, vfs
def walk(d):
    for name, kind, *_ in os.ilistdir(d):
        p = d + "/" + name
        if kind == 0x4000:
            walk(p)
        else:
            data = open(p, "rb").read()
            print("FILE", p, len(data), "".join("%02x" % b for b in hashlib.sha256(data).digest()))
walk("/rom")
print("PATH", sys.path)
print("MOUNTS", [(type(fs).__name__, at) for fs, at in vfs.mount()])
"""

# Heap left by importing modules, after collections, each in a VM call of its own.
HEAP = """
import gc
BASE = [0]
def base():
    BASE[0] = gc.mem_alloc()
def used(tag):
    print("USED", tag, gc.mem_alloc() - BASE[0])
"""


def heap_steps(modules):
    """VM calls: a clean baseline, the imports, then the heap they left."""
    return [SCRUB, "gc.collect()", SCRUB, "gc.collect()\nbase()"] + \
        ["import %s" % m for m in modules] + [SCRUB, "gc.collect()", SCRUB, "gc.collect()\nused('all')"]


def used(result):
    """The USED figure a HEAP run printed."""
    return int(next(line.split()[2] for line in result.stdout.splitlines() if line.startswith("USED")))


PARTITION = 128 * 1024    # the ROM partition docs/deploy.md asks a board build for


@pytest.mark.parametrize("board", BOARDS)
def test_each_boards_image_fits_a_128_kib_partition(board):
    """A board ships only what it runs: its image fits the 128 KiB partition docs/deploy.md
    names, and holds its own screen's driver and not the other's, the speaker's cues only
    where it has a speaker, and only its own link's transport."""
    built = deploy.build(board)
    files = romfs.image_files(board, built)
    image = romfs.build_image(board, built)
    assert len(image) <= PARTITION, (board, len(image))
    paths = " ".join(str(path) for path in files)
    colour = "st7789" in paths
    assert colour != ("ssd1306" in paths) and ("direct" in paths) == colour, paths
    config = importlib.import_module("board_configs." + board)
    assert ("firmware/sound.mpy" in paths) == hasattr(config, "open_sound"), paths
    assert ("link_espnow" in paths) == (config.LINK == "espnow"), paths
    assert ("link_uart" in paths) == (config.LINK in ("uart", "thumby")), paths


@pytest.mark.parametrize("name", BOARDS)
def test_each_boards_image_holds_exactly_the_modules_deploy_ships(name):
    image = romfs.build_image(name)
    assert image.startswith(b"\xd2\xcd\x31")              # the ROMFS header mpremote checks
    result = mpvm.run(WALK, modules=(), romfs=image, label="walk /rom of %s" % name).check()
    seen = {}
    for line in result.stdout.splitlines():
        if line.startswith("FILE "):
            _, path, size, digest = line.split()
            seen[path] = (int(size), digest)
    ships = deploy.build(name)
    wanted = {"/rom/" + p: (len(d), hashlib.sha256(d).hexdigest())
              for p, d in ships.items() if p not in ("board.py", "main.py")}
    assert seen == wanted
    assert "/rom/lib/board_configs/%s.mpy" % name in seen
    assert not [p for p in seen if "_dio" in p or "cp_main" in p]
    assert "PATH ['', '.frozen', '/rom', '/rom/lib', '/lib']" in result.stdout
    assert "MOUNTS [('VfsRom', '/rom'), ('VfsPosix', '/')]" in result.stdout


def test_the_image_lies_outside_the_gc_heap():
    image = romfs.build_image("pico_display")
    probe = "import gc\ngc.collect()\nprint('USED', 'start', gc.mem_alloc())"
    with_image = used(mpvm.run(probe, modules=(), romfs=image).check())
    without = used(mpvm.run(probe, modules=()).check())
    assert len(image) > 60000 and abs(with_image - without) < 2048, (len(image), with_image, without)


def test_a_large_module_runs_in_place_from_rom():
    """Bytecode and bytes constants stay in the image: importing 30 KB of .mpy from /rom
    takes under a KB of heap, from /lib about its size."""
    body = "\n".join("    x = x * 3 + %d" % i for i in range(3000))
    source = "def big(x):\n%s\n    return x & 0xFFFF\nBLOB = b'%s'\n" % (body, "z" * 4000)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "big.py"
        path.write_text(source)
        mpy = compile_source(path, "big.py", cache=False)
    check = "print('BIG', big.__file__, big.big(1), len(big.BLOB))"
    steps = heap_steps(["big"]) + [check]
    rom = mpvm.run(HEAP, modules=(), romfs=romfs.make_image({"lib/big.mpy": mpy}), steps=steps).check()
    flash = mpvm.run(HEAP, modules=(), extra_files={"/lib/big.mpy": mpy}, steps=steps).check()
    answer = flash.stdout.split("BIG /lib/big.mpy ")[1].split()
    assert answer[1] == "4000" and "BIG /rom/lib/big.mpy %s 4000" % answer[0] in rom.stdout
    assert len(mpy) > 30000
    assert used(rom) < 1024 and used(flash) > 0.9 * len(mpy), (len(mpy), used(rom), used(flash))


def test_the_game_imported_from_rom_leaves_far_less_heap_than_from_files():
    """The app's modules from /rom keep most of their .mpy bytes out of the heap; those
    from /lib copy them in (the rest is names, functions and tables made at import)."""
    name = "pico_display"
    modules = ["firmware.app", "firmware.game", "firmware.paint", "firmware.save", "firmware.story",
               "engine.ai", "firmware.st7789", "board_configs." + name]
    where = ("import sys, firmware.app, firmware.st7789\n"
             "print('FROM', firmware.app.__file__, firmware.st7789.__file__)\n"
             "print('LOADED', ' '.join(sorted(sys.modules)))")
    steps = heap_steps(modules) + [where]
    rom = mpvm.run(HEAP, modules=(), romfs=romfs.build_image(name), steps=steps).check()
    flash = mpvm.run(HEAP, modules=APP, steps=steps).check()
    assert "FROM /rom/lib/firmware/app.mpy /rom/lib/firmware/st7789.mpy" in rom.stdout
    assert "FROM /lib/firmware/app.mpy /lib/firmware/st7789.mpy" in flash.stdout
    loaded = rom.stdout.split("LOADED ")[1].split()     # what the imports brought in
    code = sum(len(d) for path, d in romfs.image_files(name).items()
               if path[4:-4].replace("/", ".").replace(".__init__", "") in loaded)
    assert code > 45000          # the table's modules: enough code for the comparison to tell
    assert used(flash) - used(rom) > code // 2, (code, used(rom), used(flash))


# A game on the board's fake pins and bus (tools/fakes/chipmodels.py), logging every box sent
# with the canvas's CRC-32 and the bytes on the bus so far.
GAME = """
import chipmodels
from binascii import crc32
rig = None

def start(name):
    global rig
    board = __import__("board_configs." + name, None, None, ("NAME",))
    rig = chipmodels.Rig(board, seed=4, model=False)
    chipmodels.FakePin.record = chipmodels.FakeSPI.record = False
    driver_show = rig.display.show
    def show(canvas, x, y, w, h):
        driver_show(canvas, x, y, w, h)
        print("SHOW", rig.frames, x, y, w, h, crc32(canvas.buf),
              chipmodels.FakeSPI.sent + chipmodels.FakeI2C.sent)
    rig.display.show = show

def play(steps):
    if rig.app.screen.name != "final":
        chipmodels.play_game(rig, steps)

def report():
    import firmware.app, firmware.gfx
    print("GAME", rig.app.screen.name, rig.frames, rig.shows)
    print("FROM", firmware.app.__file__, firmware.gfx.__file__)
"""


def play_scripted_game(name, image=None):
    """The same scripted game in the VM, the app from the image (or from /lib); its output."""
    steps = ["start(%r)" % name] + ["play(12)"] * 40 + ["report()"]
    return mpvm.run(GAME, modules=("tools/fakes/chipmodels.py",) if image else APP + ("tools/fakes/chipmodels.py",),
                    extra_files={"/lib/machine.py": chipmodels.VM_MACHINE}, steps=steps,
                    romfs=image, heapsize=4 * 1024 * 1024, timeout=300,
                    label="game on %s from %s" % (name, "ROMFS" if image else "files")).check().stdout


@pytest.mark.parametrize("name", BOARDS)
def test_a_scripted_game_from_rom_sends_the_same_frames_as_from_files(name):
    rom = play_scripted_game(name, romfs.build_image(name)).splitlines()
    flash = play_scripted_game(name).splitlines()
    assert "GAME final" in rom[-2], rom[-2:]
    assert rom[-1] == "FROM /rom/lib/firmware/app.mpy /rom/lib/firmware/gfx.mpy"
    assert flash[-1] == "FROM /lib/firmware/app.mpy /lib/firmware/gfx.mpy"
    shows = [line for line in rom if line.startswith("SHOW ")]
    assert len(shows) > 25    # a whole game of boxes (mono screens merge more: pico_oled 32)
    assert rom[:-1] == flash[:-1]


def test_the_bench_measures_each_board_from_rom_and_says_which_is_which():
    """tools/bench/firmware.py's ROMFS figures (printed, not asserted): the app came from
    /rom, and the report sets them beside the figures from files."""
    import io
    from tools.bench import firmware as bench_firmware
    files = bench_firmware.summary("thumby", bench_firmware.measure("thumby", decisions=12, repeats=2))
    rom = bench_firmware.summary("thumby", bench_firmware.measure("thumby", decisions=12, repeats=2,
                                                                   rom=True))
    assert files["source"] == "/lib/firmware/app.mpy" and rom["source"] == "/rom/lib/firmware/app.mpy"
    assert rom["image"] > 40000, rom["image"]
    assert rom["names"] > 500 and files["names"] > 500, (rom["names"], files["names"])
    out = io.StringIO()
    bench_firmware.report_romfs([(files, rom)], out)
    text = out.getvalue()
    for needle in ("ROMFS", "heap use", "target", "files use", "saved", "thumby (ROMFS)", "firmware.app"):
        assert needle in text, needle


def test_the_command_writes_the_image_and_says_its_size(tmp_path, capsys):
    out = tmp_path / "thumby.romfs"
    assert romfs.main(["--board", "thumby", "--out", str(out)]) == 0
    assert out.read_bytes() == romfs.build_image("thumby")
    said = capsys.readouterr().out
    assert "%s: %d bytes (%d modules" % (out, out.stat().st_size, len(romfs.image_files("thumby"))) in said
    assert romfs.main(["--board", "pybadge"]) == 1
    assert "runs CircuitPython" in capsys.readouterr().err
