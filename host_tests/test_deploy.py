"""tools/deploy/deploy.py, package.json (mip) and manifest.py, end to end on the virtual board."""
import importlib
import json
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tools.deploy import deploy
from tools.fakes import chipmodels
from tools.vm.build_mpy import DEVICE_OPT, ROOT
from tools.sim.device import Device, firmware_app_factory
from tools.deploy.vboard import VirtualBoard

pytestmark = pytest.mark.timeout(240)
QUIET = lambda line: None  # noqa: E731  (deploy's log, silenced)
SETTLE = 2   # seconds a main.py without a ready line must run to count as started


def screen_after(name, script, tmp_path):
    """The simulator's screen on `name` after a headless button script (tools/sim/headless): rows of colours."""
    from tools.sim import headless
    board = importlib.import_module("board_configs." + name)
    if getattr(board, "LINK", None):       # firmware.main gives such a board its link
        from tools.sim.linked import with_link
        board = with_link(board, None)     # (opened only when a player hosts or joins)
    device = Device(board, firmware_app_factory(), str(tmp_path / ("sim-" + name)))
    headless.Runner(device).run(headless.parse(script))
    return chipmodels.canvas_colours(device.canvas)


def title_screen(name, tmp_path):
    """The title screen of a fresh game on `name`, as the simulator draws it."""
    return screen_after(name, "", tmp_path)


def wait_for_screen(board, wanted, timeout=30):
    """Poll the virtual board's panel until it shows `wanted`; return the last difference."""
    deadline = time.monotonic() + timeout
    while True:
        seen, problems = board.screen()
        wrong = chipmodels.first_difference(seen, wanted) if not problems else problems
        if wrong is None or time.monotonic() > deadline:
            return wrong
        time.sleep(0.3)


def board_files(board):
    """Relative path -> bytes of every file the virtual board holds (its host folder)."""
    assert board.sync()
    return {p.relative_to(board.root).as_posix(): p.read_bytes()
            for p in sorted(board.root.rglob("*")) if p.is_file()}


@pytest.fixture
def vboard(tmp_path):
    with VirtualBoard(tmp_path / "flash") as b:
        yield b


def test_deploy_boots_the_title_and_a_second_deploy_copies_nothing(vboard, tmp_path):
    first = deploy.deploy("pico_display", vboard.port, log=QUIET, settle=SETTLE)
    assert len(first.copied) == len(deploy.build("pico_display")) and first.removed == []
    assert first.ready == "Mau-Mau ready on Pimoroni Pico Display Pack"   # firmware/main.py's line
    assert wait_for_screen(vboard, title_screen("pico_display", tmp_path)) is None
    files = board_files(vboard)
    assert files["board.py"] == b'BOARD = "pico_display"\n' and files["main.py"] == deploy.MAIN_PY
    assert "lib/board_configs/tdisplay.mpy" not in files    # only this board's config

    second = deploy.deploy("pico_display", vboard.port, log=QUIET, settle=SETTLE)
    assert second.copied == [] and second.removed == [] and second.unchanged == len(first.copied)
    assert second.ready.startswith("Mau-Mau ready on")
    assert wait_for_screen(vboard, title_screen("pico_display", tmp_path)) is None

    # the game answers its buttons: A (GPIO 12) on the title's first item, as in the simulator
    after_a = screen_after("pico_display", "A wait:500", tmp_path / "a")
    assert after_a != title_screen("pico_display", tmp_path / "t")
    vboard.press(12, ms=400)   # held long enough to be seen by a VM slowed by load (LONG is 600 ms)
    assert wait_for_screen(vboard, after_a) is None


def test_another_board_replaces_the_config_and_shows_its_title(vboard, tmp_path):
    deploy.deploy("pico_display", vboard.port, log=QUIET, settle=SETTLE)
    report = deploy.deploy("pico_oled", vboard.port, log=QUIET, settle=SETTLE)
    # the mono screen's driver in, the colour screen's modules out (expand.mpy: native code)
    assert sorted(report.copied) == ["board.py", "lib/board_configs/pico_oled.mpy",
                                     "lib/firmware/ssd1306.mpy", "lib/firmware/ssd1306_i2c.mpy",
                                     "lib/firmware/ssd1306_spi.mpy", "lib/firmware/ssd1306_wake.mpy"]
    assert sorted(report.removed) == ["lib/board_configs/pico_display.mpy",
                                      "lib/firmware/direct.mpy", "lib/firmware/expand.mpy",
                                      "lib/firmware/paint_fly.mpy", "lib/firmware/paint_large.mpy",
                                      "lib/firmware/st7789.mpy", "lib/firmware/st7789_show.mpy",
                                      "lib/firmware/st7789_wake.mpy"]
    assert wait_for_screen(vboard, title_screen("pico_oled", tmp_path)) is None
    from PIL import Image
    from tools.sim.findtext import shows
    shot = Image.open(vboard.screenshot(tmp_path / "oled.png", scale=1))
    assert shot.size == (128, 64) and shows(shot, "New game") and shows(shot, "Quit")


def test_a_deploy_killed_midway_then_redone_leaves_a_working_game(vboard, tmp_path):
    cmd = [sys.executable, "-m", "tools.deploy", "--board", "pico_display", "--port", vboard.port]
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, cwd=ROOT)
    partial = []
    deadline = time.monotonic() + 60
    while not partial and proc.poll() is None and time.monotonic() < deadline:
        vboard.sync()
        if len(list(vboard.root.rglob("*.mpy"))) >= 10:     # a third of the way
            partial = [p for p in vboard.root.rglob("*.tmp") if p.stat().st_size > 0]
    proc.kill()          # in the middle of a file's transfer
    proc.wait(timeout=30)
    assert partial, "the deploy ended before it could be interrupted"
    vboard.sync()
    assert not (vboard.root / "main.py").exists()   # it had not got that far

    report = deploy.deploy("pico_display", vboard.port, log=QUIET, settle=SETTLE)
    assert 0 < len(report.copied) < len(deploy.build("pico_display"))
    assert report.ready
    assert wait_for_screen(vboard, title_screen("pico_display", tmp_path)) is None
    assert not [p for p in board_files(vboard) if p.endswith(".tmp")]


def test_mip_install_of_the_local_package_installs_a_working_game(vboard, tmp_path):
    done = subprocess.run([sys.executable, "-m", "mpremote", "connect", vboard.port,
                           "mip", "install", str(ROOT / "package.json")],
                          capture_output=True, text=True, timeout=180)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr
    installed = board_files(vboard)
    for dest, _ in json.loads((ROOT / "package.json").read_text())["urls"]:
        assert installed["lib/" + dest] == (ROOT / dest).read_bytes()
    (tmp_path / "board.py").write_text('BOARD = "thumby"\n')
    (tmp_path / "main.py").write_bytes(deploy.MAIN_PY)
    done = subprocess.run([sys.executable, "-m", "mpremote", "connect", vboard.port, "fs", "cp",
                           str(tmp_path / "board.py"), str(tmp_path / "main.py"), ":", "+", "reset"],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr       # reset: main.py starts the game
    assert wait_for_screen(vboard, title_screen("thumby", tmp_path), timeout=60) is None
    assert b"Traceback" not in vboard.output().rpartition(b"MPY: soft reboot")[2]


def test_the_ready_line_or_what_went_wrong_at_start(vboard, monkeypatch):
    monkeypatch.setattr(deploy, "MAIN_PY", b"import time\nprint('Mau-Mau ready on the test board')\n"
                                           b"while True:\n    time.sleep_ms(20)\n")
    report = deploy.deploy("pico_display", vboard.port, log=QUIET)
    assert report.ready == "Mau-Mau ready on the test board"
    monkeypatch.setattr(deploy, "MAIN_PY", b"import no_such_module\n")
    with pytest.raises(deploy.DeployError, match=r"(?s)the game did not start.*ImportError"):
        deploy.deploy("pico_display", vboard.port, log=QUIET)
    monkeypatch.setattr(deploy, "MAIN_PY", b"print('bye')\n")
    with pytest.raises(deploy.DeployError, match=r"(?s)main.py ended instead of running.*bye"):
        deploy.deploy("pico_display", vboard.port, log=QUIET)


def test_wrong_mpy_version_says_what_to_flash(vboard, monkeypatch):
    monkeypatch.setattr(deploy, "mpy_cross_version", lambda: "mpy-cross emitting mpy v5.0")
    with pytest.raises(deploy.DeployError, match=r"wrong MicroPython version \(.mpy mismatch\).*"
                                                 r"loads .mpy v6.*mpy-cross here makes .mpy v5"):
        deploy.deploy("pico_display", vboard.port, log=QUIET, settle=SETTLE)
    assert not (vboard.root / "main.py").exists()


def test_full_flash_is_reported_before_copying(tmp_path):
    with VirtualBoard(tmp_path / "flash", flash=32 * 1024) as b:
        with pytest.raises(deploy.DeployError, match="full flash: the game needs"):
            deploy.deploy("pico_display", b.port, log=QUIET)
        assert not (b.root / "lib").exists()


def test_full_flash_met_while_copying_is_reported(tmp_path, monkeypatch):
    monkeypatch.setattr(deploy, "free_space", lambda transport: (None, 1))   # a board that cannot tell
    with VirtualBoard(tmp_path / "flash", flash=32 * 1024) as b:
        with pytest.raises(deploy.DeployError, match="full flash"):
            deploy.deploy("pico_display", b.port, log=QUIET)


def test_space_needed_counts_blocks_and_what_replaced_files_free():
    files = {"a": bytes(5000), "b": bytes(100), "c": bytes(4096)}
    on_board = {"a": "9000 x", "b": "-", "c": "-"}
    # a: 2 blocks replace 3; b and c: one new block each; the old a (3 blocks) while a.tmp exists
    assert deploy.space_needed(["a", "b", "c"], files, on_board, 4096) == (2 - 3 + 1 + 1 + 3) * 4096
    assert deploy.space_needed([], files, on_board, 4096) == 0


def test_unknown_board_lists_the_valid_ones(capsys):
    assert deploy.main(["--board", "gameboy", "--port", "/dev/null"]) == 1
    message = capsys.readouterr().err
    assert "unknown board 'gameboy'" in message
    for name in ("pico_display", "pico_oled", "tdisplay", "thumby", "waveshare_lcd114"):
        assert name in message


def test_circuitpython_boards_are_sent_to_their_instructions():
    for name in deploy.all_board_names():
        if deploy.runs_circuitpython(name):
            with pytest.raises(deploy.DeployError, match=r"runs CircuitPython, not MicroPython \(docs/circuitpython.md\)"):
                deploy.check_board(name)
            assert name not in deploy.board_names()
    shipped = deploy.source_files("pico_display")
    assert "lib/firmware/main.py" in shipped
    assert not [p for p in shipped if p.endswith("_dio.py") or p.endswith("cp_main.py")]


def test_no_board_found(monkeypatch, tmp_path):
    from serial.tools import list_ports
    monkeypatch.setattr(list_ports, "comports", lambda: [])
    with pytest.raises(deploy.DeployError, match="no board found: no USB serial port"):
        deploy.deploy("pico_display", None, log=QUIET)
    with pytest.raises(deploy.DeployError, match="no board found at"):
        deploy.deploy("pico_display", str(tmp_path / "ttyACM9"), log=QUIET)


def test_the_first_micropython_usb_port_is_chosen(monkeypatch):
    from types import SimpleNamespace as Port
    from serial.tools import list_ports
    ports = [Port(device="/dev/ttyS0", vid=None), Port(device="/dev/ttyACM1", vid=0x2E8A),
             Port(device="/dev/ttyUSB0", vid=0x1234), Port(device="/dev/ttyACM0", vid=0x303A)]
    monkeypatch.setattr(list_ports, "comports", lambda: ports)
    assert deploy.find_port() == "/dev/ttyACM0"


def test_package_json_lists_every_module_for_mip():
    package = json.loads((ROOT / "package.json").read_text())
    assert package["urls"] == deploy.mip_urls(), \
        "package.json is out of date: run `python -m tools.deploy --update-package`"
    assert package["deps"] == [] and package["version"]
    assert package["dependencies"] == {"@micropython/micropython-webassembly-pyscript": "1.29.0-6"}
    lock = json.loads((ROOT / "package-lock.json").read_text())
    assert lock["packages"][""]["dependencies"] == package["dependencies"]   # npm ci still agrees


def test_manifest_freezes_the_micropython_game(tmp_path, monkeypatch):
    """Run manifest.py as MicroPython's build does (tools/manifestfile.py: the folder of the
    manifest is the current one, package() with files= takes paths inside the package and
    every file must exist) and compare what it freezes, and at which -O level, with what
    deploy ships."""
    frozen, included, levels = [], [], set()

    def package(package_path, files=None, base_path=".", opt=None):
        levels.add(opt)
        if files is None:
            files = [p.relative_to(package_path).as_posix()
                     for p in sorted(Path(base_path, package_path).rglob("*.py"))]
        for name in files:
            assert Path(base_path, package_path, name).is_file(), name
            frozen.append("%s/%s" % (package_path, name))

    monkeypatch.chdir(ROOT)
    api = {"include": included.append, "package": package, "module": None, "require": None}
    exec(compile((ROOT / "manifest.py").read_text(), str(ROOT / "manifest.py"), "exec"), api)
    assert included == ["$(PORT_DIR)/boards/manifest.py"]
    shipped = set()
    for board in deploy.board_names():
        shipped.update(p[len(deploy.LIB) + 1:] for p in deploy.source_files(board))
    assert sorted(frozen) == sorted(shipped)       # every MicroPython module, once
    assert not [p for p in frozen if deploy.not_for_micropython(p)]
    assert "engine/cpython.py" not in frozen and "engine/rules.py" in frozen
    assert levels == {DEVICE_OPT}                  # frozen as deploy compiles: -O3


# ---- --romfs -----------------------------------------------------------------------------

# boot.py of a virtual board whose "firmware" has a ROMFS partition: a stand-in `vfs` module
# answers rom_ioctl as rp2/esp32 firmware does (partition 0 as a memoryview, erase, write,
# done), keeps the partition in /romfs.part across resets, and at boot mounts a valid image
# at /rom and puts /rom and /rom/lib on sys.path before /lib, as such firmware does.
ROM_BOOT = """\
import sys, vfs as _vfs
_PART = '/romfs.part'

class _Vfs:
    VfsRom, VfsPosix = _vfs.VfsRom, _vfs.VfsPosix
    mount, umount = staticmethod(_vfs.mount), staticmethod(_vfs.umount)

    def __init__(self, size):
        self.part = bytearray(size)
        try:
            with open(_PART, 'rb') as f:
                f.readinto(self.part)
        except OSError:
            pass

    def rom_ioctl(self, op, *args):
        if op == 1:
            return 1
        if args[0] != 0:
            return -22
        if op == 2:
            return memoryview(self.part)
        if op == 6:
            return 4096
        if op == 3:
            for i in range(args[1], args[1] + args[2]):
                self.part[i] = 0xFF
            return 16
        if op == 4:
            self.part[args[1]:args[1] + len(args[2])] = args[2]
            return 0
        if op == 5:
            with open(_PART, 'wb') as f:
                f.write(self.part)
            return 0
        return -22

sys.modules['vfs'] = _rom = _Vfs(%d)
if _rom.part[:3] == b'\\xd2\\xcd\\x31':
    _vfs.mount(_vfs.VfsRom(memoryview(_rom.part)), '/rom')
    sys.path[sys.path.index('/lib'):sys.path.index('/lib')] = ['/rom', '/rom/lib']
"""


def test_romfs_on_a_board_without_a_partition_says_so_and_changes_nothing(vboard, capsys):
    deploy.deploy("thumby", vboard.port, log=QUIET, settle=SETTLE)
    before = board_files(vboard)
    with pytest.raises(deploy.DeployError) as e:
        deploy.deploy_romfs("thumby", vboard.port, log=QUIET, settle=SETTLE)
    message = str(e.value)
    assert "without a ROMFS partition" in message and "nothing was changed" in message
    assert "python -m tools.deploy --board thumby, without --romfs" in message
    assert "manifest.py" in message
    assert board_files(vboard) == before
    assert deploy.main(["--board", "thumby", "--romfs", "--port", vboard.port]) == 1
    assert "without a ROMFS partition" in capsys.readouterr().err
    assert board_files(vboard) == before


def test_romfs_partition_too_small_changes_nothing(vboard):
    (vboard.root / "boot.py").write_text(ROM_BOOT % 4096)
    with pytest.raises(deploy.DeployError, match=r"the ROMFS partition holds 4096 bytes, the image "
                                                 r"needs \d+.*nothing was changed"):
        deploy.deploy_romfs("pico_display", vboard.port, log=QUIET, settle=SETTLE)
    assert sorted(board_files(vboard)) == ["boot.py"]


def test_romfs_deploy_writes_the_image_removes_the_app_from_lib_and_starts(tmp_path):
    """On a board with a partition (boot.py's stand-in firmware): a plain deploy first, then
    --romfs: the partition holds the image mpremote wrote, the app's files under lib/ are
    gone (other files stay), and the game runs from /rom and shows its title."""
    with VirtualBoard(tmp_path / "flash", heapsize=1024 * 1024) as board:
        deploy.deploy("pico_display", board.port, log=QUIET, settle=SETTLE)
        (board.root / "boot.py").write_text(ROM_BOOT % (128 * 1024))
        (board.root / "lib" / "other.mpy").write_bytes(b"not ours")
        (board.root / "mau_save.dat").write_bytes(b"a save")
        report = deploy.deploy_romfs("pico_display", board.port, log=QUIET, settle=SETTLE)
        assert report.ready == "Mau-Mau ready on Pimoroni Pico Display Pack" and report.image_written
        assert report.partition == 128 * 1024 and report.copied == []   # board.py, main.py as they were
        files = board_files(board)
        image = (ROOT / "build" / "romfs" / "pico_display.romfs").read_bytes()
        assert report.image == len(image) and files["romfs.part"][:len(image)] == image
        assert sorted(report.removed) == sorted(p for p in deploy.build("pico_display")
                                                if p.startswith("lib/"))
        assert sorted(files) == ["board.py", "boot.py", "lib/other.mpy", "main.py", "mau_save.dat",
                                 "romfs.part"]
        assert wait_for_screen(board, title_screen("pico_display", tmp_path)) is None
        again = deploy.deploy_romfs("pico_display", board.port, log=QUIET, settle=SETTLE)
        assert again.removed == [] and again.copied == [] and again.ready
        assert not again.image_written           # the partition held this image already
        # a plain deploy now would copy files that /rom/lib shadows: refused, nothing changed
        before = board_files(board)
        with pytest.raises(deploy.DeployError, match=r"the game is in this board's ROMFS.*"
                                                     r"--board pico_display --romfs"):
            deploy.deploy("pico_display", board.port, log=QUIET, settle=SETTLE)
        assert board_files(board) == before


def test_romfs_image_that_does_not_read_back_leaves_lib_as_it_was(vboard):
    """A partition that takes the writes but keeps nothing: the read-back differs, deploy
    says so and the app's files in lib/ stay (the game still runs from them)."""
    deploy.deploy("thumby", vboard.port, log=QUIET, settle=SETTLE)
    lost = ROM_BOOT.replace("self.part[args[1]:args[1] + len(args[2])] = args[2]", "pass")
    assert lost != ROM_BOOT
    (vboard.root / "boot.py").write_text(lost % (128 * 1024))
    before = board_files(vboard)
    with pytest.raises(deploy.DeployError, match="does not hold the image after writing"):
        deploy.deploy_romfs("thumby", vboard.port, log=QUIET, settle=SETTLE)
    after = board_files(vboard)
    assert {p: d for p, d in after.items() if p != "romfs.part"} == before
