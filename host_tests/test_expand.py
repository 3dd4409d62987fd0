"""The ST7789's native palette expansion (firmware/expand.py): the same bytes as framebuf's blit.

Viper cannot run here, so `expand`'s own source runs in CPython with tools/fakes/viper.py's
pointers (each read and write bounds-checked), against framebuf.blit through a palette:
the host's framebuf for many random cases, MicroPython's own (in the VM) for a seeded
batch; then the driver on the fake SPI bus, its native path against its blit. Then the
builds: native code for each board's chip, none where it cannot run; and the machine code
tools/bench/native.py counts does the same work.
"""
import importlib

import framebuf
import pytest
from hypothesis import given, settings, strategies as st

from engine.rng import Random
from firmware import st7789, st7789_wake
from tools.bench import native
from tools.deploy import deploy, romfs
from tools.deploy.vboard import VirtualBoard
from tools.fakes.chipmodels import FakePin, FakeSPI, PlainCanvas, ST7789Model, scribble
from tools.fakes.viper import load_viper
from tools.vm import build_mpy, mpvm
from tools.vm.build_mpy import ROOT, CompileError, compile_source

SOURCE = ROOT / "firmware" / "expand.py"


def load_expand():
    """expand's source run in CPython, in a pretend address space of its own: the fake
    viper keeps every buffer it is handed and finds an address by a walk through them all,
    so each band, case or panel gets a fresh one (one for the whole module grew to
    thousands of buffers and made the later tests quadratic)."""
    return load_viper(SOURCE, "expand")


def blitted(canvas, width, height, lut, band, x, w, top, lines):
    """The band after framebuf's blit of the rectangle through the lut (the driver's fallback)."""
    band = bytearray(band)
    source = framebuf.FrameBuffer(bytearray(canvas), width, height, framebuf.GS4_HMSB)
    target = framebuf.FrameBuffer(band, w, lines, framebuf.RGB565)
    target.blit(source, -x, -top, -1, framebuf.FrameBuffer(bytearray(lut), 16, 1, framebuf.RGB565))
    return bytes(band)


def expanded(canvas, width, lut, band, x, w, top, lines):
    """The band after expand of the same rectangle."""
    band = bytearray(band)
    load_expand()(band, bytearray(canvas), bytearray(lut), (width + 1) >> 1, x, w, top, lines)
    return bytes(band)


@st.composite
def cases(draw):
    """A canvas (odd widths too), a 16-colour lut, a rectangle in it, a band of leftovers."""
    width, height = draw(st.integers(1, 37)), draw(st.integers(1, 9))
    x, top = draw(st.integers(0, width - 1)), draw(st.integers(0, height - 1))
    w, lines = draw(st.integers(1, width - x)), draw(st.integers(1, height - top))
    canvas = draw(st.binary(min_size=(width + 1) // 2 * height, max_size=(width + 1) // 2 * height))
    lut = draw(st.binary(min_size=32, max_size=32))
    band = draw(st.binary(min_size=2 * w * lines, max_size=2 * w * lines))
    return canvas, width, height, lut, band, x, w, top, lines


@settings(max_examples=400, deadline=None)
@given(cases())
def test_expand_writes_the_bytes_the_blit_writes(case):
    canvas, width, height, lut, band, x, w, top, lines = case
    assert (expanded(canvas, width, lut, band, x, w, top, lines)
            == blitted(canvas, width, height, lut, band, x, w, top, lines))


def test_expand_reads_and_writes_only_the_rectangle_and_band():
    # the pointers raise outside their buffers: the corners of the canvas, every parity
    for x, w in ((0, 240), (1, 239), (1, 238), (0, 239), (225, 15), (224, 16), (239, 1)):
        canvas = bytes(range(256)) * 64
        canvas = canvas[:120 * 135]
        band = bytes(2 * w * 5)
        assert (expanded(canvas, 240, bytes(range(32)), band, x, w, 130, 5)
                == blitted(canvas, 240, 135, bytes(range(32)), band, x, w, 130, 5))


VM_BATCH = """
import framebuf
def blit(canvas, width, height, lut, band, x, w, top, lines):
    source = framebuf.FrameBuffer(canvas, width, height, framebuf.GS4_HMSB)
    target = framebuf.FrameBuffer(band, w, lines, framebuf.RGB565)
    target.blit(source, -x, -top, -1, framebuf.FrameBuffer(lut, 16, 1, framebuf.RGB565))
    print(''.join('%02x' % b for b in band))
"""


def test_expand_writes_the_bytes_micropythons_blit_writes():
    rng = Random(15)
    batch, calls = [], []
    for _ in range(60):
        width, height = 1 + rng.below(40), 1 + rng.below(8)
        x, top = rng.below(width), rng.below(height)
        w, lines = 1 + rng.below(width - x), 1 + rng.below(height - top)
        canvas = bytes(rng.below(256) for _ in range((width + 1) // 2 * height))
        lut = bytes(rng.below(256) for _ in range(32))
        band = bytes(rng.below(256) for _ in range(2 * w * lines))
        batch.append(expanded(canvas, width, lut, band, x, w, top, lines).hex())
        calls.append("blit(bytearray(%r), %d, %d, bytearray(%r), bytearray(%r), %d, %d, %d, %d)"
                     % (canvas, width, height, lut, band, x, w, top, lines))
    out = mpvm.run(VM_BATCH + "\n".join(calls), modules=()).check().stdout
    assert out.split() == batch


# ---- the driver: native path and blit on the fake SPI bus --------------------------

DC, CS = 16, 17      # as the st7789_bus fixture (conftest) wires them


def panel_after(rotation, boxes_seed, native, monkeypatch):
    """The panel model's pixels after a full show and random partial shows."""
    monkeypatch.setattr(st7789, "expand", load_expand() if native else None)
    spi = FakeSPI(0)
    width, height, madctl, xo, yo = st7789_wake.panel_135x240(rotation)
    panel = st7789.ST7789(spi, FakePin(DC), FakePin(CS), width, height, xo, yo, madctl)
    canvas = PlainCanvas(width, height, 4)
    rng = Random(boxes_seed)
    scribble(canvas, rng, 20)
    panel.show(canvas, 0, 0, panel.width, panel.height)
    for _ in range(10):
        x, y, w, h = scribble(canvas, rng, 1)[0]
        panel.show(canvas, x - 3, y, w + 5, h)        # odd x and widths too
    model = ST7789Model()
    model.feed_log(spi.log)
    assert model.problems() == []
    return model.view(rotation // 90), spi.log


@pytest.mark.parametrize("rotation", [0, 90])
def test_the_driver_shows_the_same_panel_with_expand_as_with_the_blit(st7789_bus, monkeypatch,
                                                                      rotation):
    native, native_log = panel_after(rotation, 40 + rotation, True, monkeypatch)
    blit, blit_log = panel_after(rotation, 40 + rotation, False, monkeypatch)
    assert native == blit
    assert native_log == blit_log            # every byte on the wire the same


def test_the_driver_falls_back_to_the_blit_where_viper_cannot_run():
    assert st7789.expand is None             # CPython: no micropython module


# ---- built per chip, left out where it cannot run -----------------------------------

def test_expand_compiles_to_native_code_for_each_chip():
    for arch in ("armv6m", "xtensawin"):
        chip, codes = native.read_mpy(compile_source(SOURCE, "firmware/expand.py", arch=arch))
        assert chip == arch
        assert [kind for kind, _ in codes] == [native.MP_CODE_BYTECODE, native.MP_CODE_NATIVE_VIPER]
    with pytest.raises(CompileError, match="invalid arch"):     # no chip: no native code
        compile_source(SOURCE, "firmware/expand.py", cache=False)


def test_the_vm_build_leaves_native_code_out(tmp_path):
    built = build_mpy.build(dirs=("firmware",), out=tmp_path)
    assert built.errors == [] and built.outputs
    assert not (tmp_path / "firmware" / "expand.mpy").exists()
    files, _ = mpvm.vm_files(("firmware",))
    assert "/lib/firmware/st7789.mpy" in files and "/lib/firmware/expand.mpy" not in files


def test_each_board_gets_expand_for_its_chip_or_not_at_all():
    for board in deploy.board_names():
        config = importlib.import_module("board_configs." + board)
        arch = getattr(config, "NATIVE_ARCH", None)
        shipped = deploy.build(board).get("lib/firmware/expand.mpy")
        if config.DEPTH == 4:                # the ST7789 boards
            assert native.read_mpy(shipped)[0] == arch, board
            assert "lib/firmware/expand.mpy" in romfs.image_files(board)
        else:                                # mono boards never import it
            assert arch is None and shipped is None, board
    assert deploy.native_arch("pico_display") == "armv6m"
    assert deploy.native_arch("tdisplay") == "xtensawin"


def test_a_deploy_puts_expand_on_the_board_and_the_vm_plays_with_the_blit(tmp_path):
    with VirtualBoard(tmp_path / "flash") as board:
        report = deploy.deploy("pico_display", board.port, log=lambda line: None, settle=3)
        assert report.ready.startswith("Mau-Mau ready on")      # it imported st7789 and started
        assert board.sync()
        shipped = (board.root / "lib" / "firmware" / "expand.mpy").read_bytes()
        assert native.read_mpy(shipped)[0] == "armv6m"
        transport = deploy.connect(board.port)
        try:
            said = deploy.run(transport, "import firmware.st7789 as d\nprint(d.expand)")
        finally:
            transport.close()
        assert said.strip() == "None"                          # the VM refused it: the blit


# ---- the price: the armv6m machine code, run by tools/bench/native.py -----------------

@pytest.mark.parametrize("x, w, lines", native.SHAPES)
def test_the_counted_machine_code_writes_the_bytes_the_blit_writes(x, w, lines):
    code = native.viper_code("armv6m")
    cycles, calls, band, cpu = native.band_cycles(code, x, w, lines)
    canvas, lut = bytes(cpu.regions[0][1]), bytes(cpu.regions[2][1])
    assert band == blitted(canvas, 240, 135, lut, bytes(2 * w * lines), x, w, 0, lines)
    assert calls == 8                        # one argument conversion an argument, no more
    assert cycles > 0


def test_the_price_is_counted_on_the_drivers_band():
    """The model's price a pixel is a whole-width band of the lines the driver's band holds."""
    assert native.BAND_LINES == st7789_wake.band_rows(240)
