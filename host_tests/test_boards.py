"""Every board config: its data, its display on a fake bus against the controller model,
its buttons on fake pins; on CPython and inside the MicroPython VM (fake `machine`)."""
import importlib
import sys

import pytest

from firmware import buttons
from firmware.gfx import Canvas
from host_tests.conftest import unslept
from tools.fakes import chipmodels
from tools.vm import mpvm

BOARDS = ("pico_display", "waveshare_lcd114", "tdisplay", "pico_oled", "thumby")


def load(name):
    return importlib.import_module("board_configs." + name)


@pytest.fixture(autouse=True)
def no_waiting(monkeypatch):
    """The drivers' reset waits are not slept on CPython (the VM runs sleep as it is)."""
    unslept(monkeypatch)


@pytest.mark.parametrize("name", BOARDS)
def test_board_data(name):
    """The data the simulator reads; importing needs no `machine` (CPython has none)."""
    board = load(name)
    assert board.NAME and board.DEPTH in (1, 4)
    assert (board.WIDTH, board.HEIGHT) in ((240, 135), (128, 64), (72, 40))
    assert board.LAYOUT in ("two", "abxy", "dpad")
    names = {key for key, _ in board.KEYS}
    needed = {"two": {"A", "B"}, "abxy": {"A", "B", "X", "Y"},
              "dpad": {"UP", "DOWN", "LEFT", "RIGHT", "A", "B"}}[board.LAYOUT]
    assert names == needed
    gpios = [gpio for _, gpio in board.KEYS]
    display_pins = [getattr(board, p) for p in ("SCK", "MOSI", "CS", "DC", "RST", "BACKLIGHT",
                                                "SDA", "SCL") if getattr(board, p, None) is not None]
    assert len(set(gpios)) == len(gpios)
    assert not set(gpios) & set(display_pins), "a button shares a display pin"
    assert set(board.NO_PULL) <= set(gpios)


def test_every_layout_action_is_reachable_on_its_boards():
    for name in BOARDS:
        board = load(name)
        reachable = set()
        for key, _ in board.KEYS:
            for kind in (buttons.PRESS, buttons.LONG, buttons.REPEAT, buttons.CLICK):
                reachable.add(buttons.action(board.LAYOUT, buttons.event(buttons.key_number(key), kind)))
        assert {buttons.NEXT, buttons.PREV, buttons.OK, buttons.MENU} <= reachable, name


@pytest.mark.parametrize("name", BOARDS)
def test_board_display_on_the_controller_model(name, monkeypatch):
    chipmodels.install_machine(monkeypatch)
    board = load(name)
    canvas = Canvas(board.WIDTH, board.HEIGHT, board.DEPTH)
    assert chipmodels.check_board_display(board, canvas, seed=len(name), rounds=6) == []


def test_bus_faster_than_the_controller_is_reported(monkeypatch):
    chipmodels.install_machine(monkeypatch)
    board = load("thumby")
    monkeypatch.setattr(board, "SPI_BAUD", 20000000)
    problems = chipmodels.check_board_display(board, Canvas(72, 40, 1), seed=1, rounds=1)
    assert problems == ["SPI at 20000000 Hz, the controller is rated for 10000000"]


@pytest.mark.parametrize("name", BOARDS)
def test_board_buttons_on_fake_pins(name, monkeypatch):
    chipmodels.install_machine(monkeypatch)
    assert chipmodels.check_board_buttons(load(name)) == []


VM_CHECK = """
from firmware.gfx import Canvas
import chipmodels

def check(name, rounds):
    board = __import__("board_configs." + name, None, None, ("NAME",))
    canvas = Canvas(board.WIDTH, board.HEIGHT, board.DEPTH)
    shown = chipmodels.check_board_display(board, canvas, len(name), rounds)
    pressed = chipmodels.check_board_buttons(board)
    print("BOARD", name, "ok" if not shown and not pressed else repr(shown + pressed))
"""


def test_boards_in_the_micropython_vm():
    """Each config imports and drives its display and buttons in the VM, from .mpy files."""
    result = mpvm.run(VM_CHECK, modules=("engine", "firmware", "board_configs",
                                         "tools/fakes/chipmodels.py"),
                      extra_files={"/lib/machine.py": chipmodels.VM_MACHINE},
                      steps=["check(%r, 3)" % name for name in BOARDS],
                      heapsize=4 * 1024 * 1024, timeout=300).check()
    lines = [line for line in result.stdout.splitlines() if line.startswith("BOARD ")]
    assert lines == ["BOARD %s ok" % name for name in BOARDS], result.stdout[-3000:]


VM_GAME = """
import chipmodels
rig = None

def start(name, model):
    global rig
    board = __import__("board_configs." + name, None, None, ("NAME",))
    rig = chipmodels.Rig(board, seed=4, model=model)

def play(steps):
    if rig.app.screen.name != "final":
        chipmodels.play_game(rig, steps, check_every=5 if rig.model else 0)

def report():
    print("GAME", rig.app.screen.name, rig.frames, rig.shows,
          rig.differences() if rig.model else [])
"""

# The ST7789 model costs ~4 us a pixel in the VM: one colour board carries it there (the
# others' drivers run the same code; CPython checks them all, below).
MODEL_IN_VM = ("pico_display", "pico_oled", "thumby")


@pytest.mark.parametrize("name", BOARDS)
def test_scripted_game_to_its_end(name, monkeypatch):
    """On CPython: pins to the final table, the panel checked every few decisions."""
    chipmodels.install_machine(monkeypatch)
    rig = chipmodels.Rig(load(name), seed=4)
    assert chipmodels.play_game(rig, 600, check_every=5) == "final"
    assert rig.differences() == [] and rig.shows > 20


@pytest.mark.parametrize("name", BOARDS)
def test_scripted_game_to_its_end_in_the_micropython_vm(name):
    """Pins pressed, debounced, the app plays a game against three AIs to the final table;
    every few decisions the panel (controller model) equals the canvas."""
    steps = ["start(%r, %r)" % (name, name in MODEL_IN_VM)] + ["play(12)"] * 40 + ["report()"]
    result = mpvm.run(VM_GAME, modules=("engine", "firmware", "board_configs",
                                        "tools/fakes/chipmodels.py"),
                      extra_files={"/lib/machine.py": chipmodels.VM_MACHINE}, steps=steps,
                      heapsize=4 * 1024 * 1024, timeout=300).check()
    last = result.stdout.strip().splitlines()[-1].split(None, 4)
    assert last[:2] == ["GAME", "final"], result.stdout[-2000:]
    assert int(last[3]) > 20 and last[4] == "[]", last


def test_bench_firmware_prints_every_figure():
    """The device benchmark runs (figures are read by people, not asserted)."""
    import io
    from tools.bench import firmware as bench_firmware
    rows = [bench_firmware.summary(name, bench_firmware.measure(name, decisions=12, repeats=2))
            for name in ("pico_display", "thumby")]
    out = io.StringIO()
    bench_firmware.report(rows, out)
    text = out.getvalue()
    for needle in ("heap use", "peak", "full ms", "move ms", "p90", "within a round",
                   "driver alone", "thumby", "firmware.gfx"):
        assert needle in text, needle
    for row in rows:
        assert row["in_use"] > row["code"] > 20000 and row["moves"] > 0
        assert row["peak_full"] >= row["in_use"]
        assert row["move_p90_ms"] >= row["move_p50_ms"] > 0
        names = [m for m, _ in row["modules"]]
        assert "firmware.paint" in names and "engine.round" in names


def test_oled_missing_from_the_bus_says_where_it_was_looked_for(monkeypatch):
    chipmodels.install_machine(monkeypatch)
    monkeypatch.setattr(chipmodels.FakeI2C, "scan", lambda self: [0x3D])
    with pytest.raises(OSError, match="no display answers at 0x3c on I2C0"):
        load("pico_oled").open_display()


def test_rp2_spi_clock_model_matches_the_firmware_measured():
    """Stock rp2 firmware (peripherals on the 48 MHz USB PLL): 62.5 MHz asked runs at 24 MHz
    and 10 MHz at 8 MHz; with the peripheral clock raised to the CPU's, 62.5 MHz."""
    assert chipmodels.rp2_spi_baud(62500000, 48000000) == 24000000
    assert chipmodels.rp2_spi_baud(10000000, 48000000) == 8000000
    assert chipmodels.rp2_spi_baud(62500000, 125000000) == 62500000


@pytest.mark.parametrize("name", ["pico_display", "waveshare_lcd114", "thumby"])
def test_rp2040_spi_displays_get_the_clock_they_ask_for(name, monkeypatch):
    """The RP2040 configs clock the peripherals from the CPU clock before opening SPI, so
    the bus runs at the rate asked (62.5 MHz for the ST7789s), not at most 24 MHz."""
    chipmodels.install_machine(monkeypatch)
    board = load(name)
    chipmodels.wire_spi(board.DC, board.CS)
    board.open_display()
    spi = chipmodels.FakeSPI.made[0]
    assert chipmodels.Clocks.peripheral_hz == chipmodels.Clocks.cpu_hz == 125000000
    real = chipmodels.rp2_spi_baud(spi.baudrate, chipmodels.Clocks.peripheral_hz)
    assert real == (62500000 if board.DEPTH == 4 else 8928571)
