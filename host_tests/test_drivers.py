"""Display drivers against controller models: the panel shows exactly what the canvas holds.

A fake SPI/I2C bus records every byte a driver sends; tools/chipmodels.py's ST7789 and
SSD1306 models turn that stream into panel pixels through the controller's own rules
(MADCTL, address windows, addressing modes, offsets). Each test draws random pictures,
shows them whole and in part, and compares every pixel of the panel with the canvas.
"""
import pytest

from engine.rng import Random
from firmware import ssd1306, st7789
from tools import chipmodels
from tools.chipmodels import (FakeI2C, FakePin, FakeSPI, PlainCanvas, SSD1306Model,
                              ST7789Model, canvas_colours, first_difference, scribble)

DC, CS, RST, BL = 16, 17, 12, 20


WAITS = []


@pytest.fixture(autouse=True)
def fakes(monkeypatch):
    chipmodels.reset_fakes()
    chipmodels.wire_spi(DC, CS)
    WAITS.clear()
    for driver in (st7789, ssd1306):   # the drivers' waits are noted, not slept
        monkeypatch.setattr(driver, "sleep_ms", WAITS.append)
    yield
    chipmodels.reset_fakes()


def test_st7789_waits_after_reset_and_sleep_out():
    spi, panel = open_st7789(90)
    assert WAITS[-2:] == [150, 120]   # reset (datasheet: 120 ms), SLPOUT (120 ms)


def open_st7789(rotation, rst=True):
    spi = FakeSPI(0)
    width, height, madctl, xo, yo = st7789.panel_135x240(rotation)
    panel = st7789.ST7789(spi, FakePin(DC), FakePin(CS), width, height, xo, yo, madctl,
                          rst=FakePin(RST) if rst else None, backlight=FakePin(BL))
    return spi, panel


def panel_state(spi, model):
    model.feed_log(spi.log)
    spi.log.clear()
    return model


def assert_shows(model, canvas, turns):
    assert model.problems() == []
    wrong = first_difference(model.view(turns), canvas_colours(canvas))
    assert wrong is None, "first wrong pixel (x, y, panel, canvas): %r" % (wrong,)
    assert model.written_outside() == 0


@pytest.mark.parametrize("rotation", [0, 90, 180, 270])
def test_st7789_full_picture_in_every_rotation(rotation):
    spi, panel = open_st7789(rotation)
    canvas = PlainCanvas(panel.width, panel.height, 4)
    scribble(canvas, Random(rotation + 1), 25)
    panel.show_all(canvas)
    model = panel_state(spi, ST7789Model())
    assert_shows(model, canvas, rotation // 90)
    assert model.pixels == panel.width * panel.height
    assert FakePin.made[BL].level == 1
    assert FakePin.made[RST].writes[:3] == [1, 0, 1]


@pytest.mark.parametrize("rotation", [90, 270])
def test_st7789_partial_updates_send_only_the_rectangle(rotation):
    spi, panel = open_st7789(rotation, rst=False)
    canvas = PlainCanvas(panel.width, panel.height, 4)
    model = ST7789Model()
    panel.show_all(canvas)
    panel_state(spi, model)
    rng = Random(77)
    for _ in range(12):
        box = scribble(canvas, rng, 1)[0]
        before = model.pixels
        panel.show(canvas, *box)
        panel_state(spi, model)
        rows = panel.rows
        sent = panel.sent_width(box[2])
        assert sent == min(240, (box[2] + 7) // 8 * 8)
        assert model.pixels - before == sent * ((box[3] + rows - 1) // rows * rows)
        assert_shows(model, canvas, rotation // 90)


def test_st7789_bands_tile_the_panel():
    assert [st7789.band_rows(h) for h in (135, 240, 64, 7)] == [5, 8, 8, 7]
    spi, panel = open_st7789(90)
    canvas = PlainCanvas(240, 135, 4)
    model = ST7789Model()
    panel.show_all(canvas)
    canvas.fb.fill_rect(0, 132, 240, 3, 7)       # the last lines: the band moves up
    panel.show(canvas, 0, 132, 240, 3)
    panel_state(spi, model)
    assert model.pixels == 240 * 135 + 240 * 5
    assert_shows(model, canvas, 1)


def test_st7789_clips_rectangles_to_the_panel():
    spi, panel = open_st7789(90)
    canvas = PlainCanvas(240, 135, 4)
    model = ST7789Model()
    panel.show_all(canvas)
    canvas.fb.fill_rect(200, 100, 40, 35, 9)
    canvas.fb.fill_rect(0, 0, 10, 10, 3)
    panel.show(canvas, 200, 100, 80, 80)
    panel.show(canvas, -5, -5, 15, 15)
    panel.show(canvas, 240, 0, 10, 10)       # wholly outside: nothing sent
    panel_state(spi, model)
    # 35 and 10 are whole bands of 5; 10 wide goes out as 16
    assert model.pixels == 240 * 135 + 40 * 35 + 16 * 10
    assert_shows(model, canvas, 1)


def test_st7789_follows_a_palette_change():
    spi, panel = open_st7789(90)
    canvas = PlainCanvas(240, 135, 4)
    scribble(canvas, Random(3), 10)
    panel.show_all(canvas)
    canvas.palette = tuple(0xFFFF - c for c in canvas.palette)
    panel.show_all(canvas)
    assert_shows(panel_state(spi, ST7789Model()), canvas, 1)


def test_st7789_model_catches_a_wrong_offset():
    """The proof has teeth: a panel set up with 52 where MX|MV needs 53 shows a wrong picture."""
    spi = FakeSPI(0)
    panel = st7789.ST7789(spi, FakePin(DC), FakePin(CS), 240, 135, 40, 52,
                          st7789.MX | st7789.MV)
    canvas = PlainCanvas(240, 135, 4)
    scribble(canvas, Random(5), 20)
    panel.show_all(canvas)
    model = panel_state(spi, ST7789Model())
    assert first_difference(model.view(1), canvas_colours(canvas)) is not None
    assert model.written_outside() == 240


def test_st7789_wire_format_is_big_endian_rgb565():
    spi, panel = open_st7789(90)
    canvas = PlainCanvas(240, 135, 4, palette=(0xF800,) + (0x001F,) * 15)
    spi.log.clear()
    panel.show(canvas, 0, 0, 2, 1)
    commands = [data[0] for dc, data in spi.log if dc == 0]
    assert commands == [st7789.CASET, st7789.RASET, st7789.RAMWR]
    params = [data for dc, data in spi.log if dc == 1]
    assert panel.rows == 5      # 135 lines: bands of 5 tile them
    # 2 pixels wide goes out as 8
    assert params[0] == bytes([0, 40, 0, 47]) and params[1] == bytes([0, 53, 0, 57])
    assert params[2] == b"\xf8\x00" * 8 * 5


def open_ssd1306_spi(width=72, height=40, offset=28):
    spi = FakeSPI(0)
    panel = ssd1306.SSD1306_SPI(spi, FakePin(DC), FakePin(CS), width, height,
                                rst=FakePin(RST), col_offset=offset, iref=True)
    return spi, panel


def test_ssd1306_spi_thumby_glass_full_and_partial():
    spi, panel = open_ssd1306_spi()
    canvas = PlainCanvas(72, 40, 1)
    model = SSD1306Model(72, 40, 28)
    panel.show_all(canvas)
    model.feed_spi_log(spi.log)
    spi.log.clear()
    assert model.data_bytes == 72 * 5
    rng = Random(11)
    for _ in range(15):
        box = scribble(canvas, rng, 1)[0]
        x, y, w, h = box
        before = model.data_bytes
        panel.show(canvas, *box)
        model.feed_spi_log(spi.log)
        spi.log.clear()
        pages = (y + h - 1) // 8 - y // 8 + 1
        assert model.data_bytes - before == w * pages
        assert model.problems() == []
        assert first_difference(model.view(), canvas_colours(canvas)) is None
        assert model.written_outside() == 0
    assert model.mode == 0 and model.remap and model.scan_down


def test_ssd1306_i2c_128x64_full_and_partial():
    i2c = FakeI2C(0)
    panel = ssd1306.SSD1306_I2C(i2c, 128, 64)
    canvas = PlainCanvas(128, 64, 1)
    model = SSD1306Model(128, 64, 0)
    scribble(canvas, Random(12), 10)
    panel.show_all(canvas)
    rng = Random(13)
    for _ in range(15):
        panel.show(canvas, *scribble(canvas, rng, 1)[0])
    model.feed_i2c_log(i2c.log)
    assert model.problems() == []
    assert first_difference(model.view(), canvas_colours(canvas)) is None


def test_ssd1306_i2c_absent_device_raises():
    i2c = FakeI2C(0)
    i2c.devices = ()
    with pytest.raises(OSError):
        ssd1306.SSD1306_I2C(i2c, 128, 64)


def test_ssd1306_model_catches_a_missing_offset():
    spi, panel = open_ssd1306_spi(offset=0)
    canvas = PlainCanvas(72, 40, 1)
    scribble(canvas, Random(14), 10)
    panel.show_all(canvas)
    model = SSD1306Model(72, 40, 28)
    model.feed_spi_log(spi.log)
    assert first_difference(model.view(), canvas_colours(canvas)) is not None


VM_LOCKED = """
import micropython
import chipmodels
from firmware import st7789
from firmware.buttons import Buttons

def locked_shows():
    chipmodels.reset_fakes()
    chipmodels.wire_spi(16, 17)
    w, h, madctl, xo, yo = st7789.panel_135x240(90)
    panel = st7789.ST7789(chipmodels.FakeSPI(0), chipmodels.FakePin(16), chipmodels.FakePin(17),
                          w, h, xo, yo, madctl)
    canvas = chipmodels.PlainCanvas(w, h, 4)
    for w in range(8, 240, 8):                # the first rectangle of a width builds its band
        panel.show(canvas, 10, 10, w, 20)
    chipmodels.FakeSPI.record = chipmodels.FakePin.record = False
    micropython.heap_lock()
    try:
        for k in range(50):
            panel.show(canvas, 0, 0, w, h)
            panel.show(canvas, k, 2 * k % 100, 60, 1 + k % 30)
            panel.show(canvas, 3 * k, k, 1 + 4 * k, 7)
    finally:
        micropython.heap_unlock()
    print("SHOWS OK")

def locked_boxes():
    from firmware.gfx import Canvas
    canvas = Canvas(240, 135, 4)
    panel = st7789.ST7789(chipmodels.FakeSPI(0), chipmodels.FakePin(16), chipmodels.FakePin(17),
                          240, 135, 40, 53, st7789.MX | st7789.MV)
    for w in range(8, 248, 8):
        panel.show(canvas, 0, 0, w, 5)
    chipmodels.FakeSPI.record = chipmodels.FakePin.record = False
    micropython.heap_lock()
    try:
        for k in range(60):               # drawings far apart: boxes made, joined, taken
            for j in range(6):
                canvas.rect((37 * j + 11 * k) % 230, (53 * j + k) % 130, 8, 4, 2)
            canvas.card(k % 200, 90, 0x27)
            boxes = canvas.boxes
            for i in range(0, 4 * canvas.take_boxes(), 4):
                panel.show(canvas, boxes[i], boxes[i + 1], boxes[i + 2], boxes[i + 3])
    finally:
        micropython.heap_unlock()
    print("BOXES OK")

def locked_polls():
    chipmodels.reset_fakes()
    pad = Buttons((("A", 12), ("B", 13), ("X", 14), ("Y", 15)))
    pin = chipmodels.FakePin.made[12]
    n = 0
    micropython.heap_lock()
    try:
        for t in range(0, 3000, 5):
            pin.level = 0 if t % 1000 < 700 else 1
            pad.poll(t)
            while pad.get() != -1:
                n += 1
    finally:
        micropython.heap_unlock()
    print("POLLS", n)
"""


def test_show_and_poll_allocate_nothing_on_micropython():
    """Under micropython.heap_lock(): ST7789 shows (full, and partial of widths seen
    before), the canvas's drawing and dirty boxes, and Buttons.poll on pins allocate nothing."""
    from tools import mpvm
    result = mpvm.run(VM_LOCKED, modules=("engine", "firmware", "tools/chipmodels.py"),
                      extra_files={"/lib/machine.py": chipmodels.VM_MACHINE},
                      steps=["locked_shows()", "locked_boxes()", "locked_polls()"],
                      heapsize=2 * 1024 * 1024,
                      timeout=120).check()
    assert "SHOWS OK" in result.stdout
    assert "BOXES OK" in result.stdout    # drawing, several boxes a frame and their shows
    assert "POLLS 9" in result.stdout, result.stdout   # 3 presses of 700 ms: PRESS LONG RELEASE
