"""Display drivers against controller models: the panel shows exactly what the canvas holds.

A fake SPI/I2C bus records every byte a driver sends; tools/fakes/chipmodels.py's ST7789 and
SSD1306 models turn that stream into panel pixels through the controller's own rules
(MADCTL, address windows, addressing modes, offsets). Each test draws random pictures,
shows them whole and in part, and compares every pixel of the panel with the canvas.
"""
import pytest

from engine.rng import Random
from firmware import ssd1306, ssd1306_i2c, ssd1306_spi, ssd1306_wake, st7789, st7789_wake
from host_tests.conftest import unslept
from tools.fakes import chipmodels
from tools.fakes.chipmodels import (FakeI2C, FakePin, FakeSPI, PlainCanvas, SSD1306Model,
                              ST7789Model, canvas_colours, first_difference, scribble)

DC, CS, RST, BL = 16, 17, 12, 20


WAITS = []


@pytest.fixture(autouse=True)
def fakes(monkeypatch):
    chipmodels.reset_fakes()
    chipmodels.wire_spi(DC, CS)
    WAITS.clear()
    unslept(monkeypatch, WAITS.append)     # the drivers' waits are noted, not slept
    yield
    chipmodels.reset_fakes()


def test_st7789_waits_after_reset_and_sleep_out():
    spi, panel = open_st7789(90)
    assert WAITS[-2:] == [150, 120]   # reset (datasheet: 120 ms), SLPOUT (120 ms)


def open_st7789(rotation, rst=True):
    spi = FakeSPI(0)
    width, height, madctl, xo, yo = st7789_wake.panel_135x240(rotation)
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
    panel.show(canvas, 0, 0, panel.width, panel.height)
    model = panel_state(spi, ST7789Model())
    assert_shows(model, canvas, rotation // 90)
    assert model.pixels == panel.width * panel.height
    assert FakePin.made[BL].level == 1
    assert FakePin.made[RST].writes[:3] == [1, 0, 1]


def pixel_writes(spi):
    """The pixel bytes of each band written (DC high, after RAMWR), in order."""
    writes, after_ramwr = [], False
    for dc, data in spi.log:
        if dc == 0:
            after_ramwr = data[0] == chipmodels.ST_RAMWR
        elif after_ramwr:
            writes.append(len(data))
    return writes


@pytest.mark.parametrize("rotation", [90, 270])
def test_st7789_partial_updates_send_only_the_rectangle(rotation):
    spi, panel = open_st7789(rotation, rst=False)
    canvas = PlainCanvas(panel.width, panel.height, 4)
    model = ST7789Model()
    panel.show(canvas, 0, 0, panel.width, panel.height)
    panel_state(spi, model)
    rng = Random(77)
    for _ in range(12):
        box = scribble(canvas, rng, 1)[0]
        before = model.pixels
        panel.show(canvas, *box)
        panel_state(spi, model)
        assert model.pixels - before == box[2] * box[3]     # exactly the rectangle
        assert_shows(model, canvas, rotation // 90)


def test_st7789_bands_hold_as_many_lines_as_fit():
    """The band holds one line of 240 (15 of a rectangle 16 wide); a rectangle goes out in
    bands of as many of its lines as fit in it, then one band of the lines left."""
    assert [st7789_wake.band_rows(w) for w in (240, 135, 48, 16, 1000)] == [1, 1, 5, 15, 1]
    spi, panel = open_st7789(90)
    assert panel.rows == 1 and len(panel.band) == 2 * 240
    canvas = PlainCanvas(240, 135, 4)
    scribble(canvas, Random(9), 12)
    model = ST7789Model()
    panel.show(canvas, 0, 0, panel.width, panel.height)
    assert pixel_writes(spi) == [2 * 240] * 135
    panel_state(spi, model)
    for box, bands in (((0, 132, 240, 3), [1, 1, 1]), ((5, 20, 240, 7), [1] * 7),
                       ((7, 0, 16, 135), [15] * 9), ((33, 40, 17, 90), [14] * 6 + [6]),
                       ((100, 60, 9, 4), [4])):
        panel.show(canvas, *box)
        w = min(box[2], 240 - box[0])
        assert pixel_writes(spi) == [2 * w * lines for lines in bands], box
        panel_state(spi, model)
    assert model.pixels == 240 * 135 + 240 * 3 + 235 * 7 + 16 * 135 + 17 * 90 + 9 * 4
    assert_shows(model, canvas, 1)


def test_st7789_clips_rectangles_to_the_panel():
    spi, panel = open_st7789(90)
    canvas = PlainCanvas(240, 135, 4)
    model = ST7789Model()
    panel.show(canvas, 0, 0, panel.width, panel.height)
    canvas.fb.fill_rect(200, 100, 40, 35, 9)
    canvas.fb.fill_rect(0, 0, 10, 10, 3)
    panel.show(canvas, 200, 100, 80, 80)
    panel.show(canvas, -5, -5, 15, 15)
    panel.show(canvas, 240, 0, 10, 10)       # wholly outside: nothing sent
    panel_state(spi, model)
    assert model.pixels == 240 * 135 + 40 * 35 + 10 * 10
    assert_shows(model, canvas, 1)


def test_st7789_follows_a_palette_change():
    spi, panel = open_st7789(90)
    canvas = PlainCanvas(240, 135, 4)
    scribble(canvas, Random(3), 10)
    panel.show(canvas, 0, 0, panel.width, panel.height)
    canvas.palette = tuple(0xFFFF - c for c in canvas.palette)
    panel.show(canvas, 0, 0, panel.width, panel.height)
    assert_shows(panel_state(spi, ST7789Model()), canvas, 1)


def test_st7789_model_catches_a_wrong_offset():
    """The proof has teeth: a panel set up with 52 where MX|MV needs 53 shows a wrong picture."""
    spi = FakeSPI(0)
    panel = st7789.ST7789(spi, FakePin(DC), FakePin(CS), 240, 135, 40, 52,
                          st7789_wake.panel_135x240(90)[2])
    canvas = PlainCanvas(240, 135, 4)
    scribble(canvas, Random(5), 20)
    panel.show(canvas, 0, 0, panel.width, panel.height)
    model = panel_state(spi, ST7789Model())
    assert first_difference(model.view(1), canvas_colours(canvas)) is not None
    assert model.written_outside() == 240


def test_st7789_wire_format_is_big_endian_rgb565():
    spi, panel = open_st7789(90)
    canvas = PlainCanvas(240, 135, 4, palette=(0xF800,) + (0x001F,) * 15)
    spi.log.clear()
    panel.show(canvas, 0, 0, 2, 1)
    commands = [data[0] for dc, data in spi.log if dc == 0]
    assert commands == [chipmodels.ST_CASET, chipmodels.ST_RASET, chipmodels.ST_RAMWR]
    params = [data for dc, data in spi.log if dc == 1]
    # 2 pixels of one line: exactly those
    assert params[0] == bytes([0, 40, 0, 41]) and params[1] == bytes([0, 53, 0, 53])
    assert params[2] == b"\xf8\x00" * 2


def open_ssd1306_spi(width=72, height=40, offset=28):
    spi = FakeSPI(0)
    panel = ssd1306_spi.SSD1306_SPI(spi, FakePin(DC), FakePin(CS), width, height,
                                rst=FakePin(RST), col_offset=offset, iref=True)
    return spi, panel


def test_ssd1306_spi_thumby_glass_full_and_partial():
    """On SPI (a byte goes out faster than Python compares it) rectangles go whole,
    grown to pages."""
    spi, panel = open_ssd1306_spi()
    canvas = PlainCanvas(72, 40, 1)
    model = SSD1306Model(72, 40, 28)
    panel.show(canvas, 0, 0, panel.width, panel.height)
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
    i2c, panel, canvas, model = open_ssd1306_i2c(12, 10)
    rng = Random(13)
    for _ in range(40):
        boxes = scribble(canvas, rng, 1 + rng.below(3))
        for box in boxes:
            panel.show(canvas, *box)
        model.feed_i2c_log(i2c.log)
        i2c.log.clear()
        assert model.problems() == []
        assert first_difference(model.view(), canvas_colours(canvas)) is None
        assert model.written_outside() == 0


def open_ssd1306_i2c(picture_seed=21, strokes=12, i2c=None):
    """A 128x64 panel on I2C (a FakeI2C unless given) showing a random picture, and its
    model (which saw it all)."""
    i2c = FakeI2C(0) if i2c is None else i2c
    panel = ssd1306_i2c.SSD1306_I2C(i2c, 128, 64)
    canvas = PlainCanvas(128, 64, 1)
    scribble(canvas, Random(picture_seed), strokes)
    panel.show(canvas, 0, 0, panel.width, panel.height)
    model = SSD1306Model(128, 64, 0)
    model.feed_i2c_log(i2c.log)
    i2c.log.clear()
    return i2c, panel, canvas, model


def shown_i2c(i2c, model):
    """The transactions since the last call, as (is data, bytes after the control byte);
    the model reads them too."""
    model.feed_i2c_log(i2c.log)
    out = [(data[0] == 0x40, data[1:]) for _, data in i2c.log]
    i2c.log.clear()
    return out


def feed(model, bus):
    """The model reads what the bus recorded since the last call."""
    if isinstance(bus, FakeI2C):
        model.feed_i2c_log(bus.log)
    else:
        model.feed_spi_log(bus.log)
    bus.log.clear()


def lose_ram(model):
    """The panel's supply was cut: nothing of its RAM is known any more."""
    model.ram = bytearray(128 * 8)
    model.written = bytearray(128 * 8)


def test_ssd1306_sends_nothing_for_a_frame_without_changes():
    i2c, panel, canvas, model = open_ssd1306_i2c()
    canvas.fb.fill_rect(10, 10, 30, 20, canvas.fb.pixel(10, 10))
    canvas.fb.fill_rect(10, 10, 30, 20, 0)
    panel.show(canvas, 10, 10, 30, 20)                  # drawn over: changed
    shown_i2c(i2c, model)
    canvas.fb.fill_rect(10, 10, 30, 20, 0)              # the same again
    panel.show(canvas, 10, 10, 30, 20)
    panel.show(canvas, 0, 0, panel.width, panel.height)
    assert i2c.log == []


def test_ssd1306_one_changed_pixel_sends_one_byte():
    i2c, panel, canvas, model = open_ssd1306_i2c()
    x, y = 77, 45                  # column 77 of page 5
    canvas.fb.pixel(x, y, 1 - canvas.fb.pixel(x, y))
    panel.show(canvas, 60, 40, 40, 20)
    assert shown_i2c(i2c, model) == [(False, bytes([0x21, 77, 77, 0x22, 5, 5])),
                                     (True, bytes([canvas.buf[5 * 128 + 77]]))]
    assert first_difference(model.view(), canvas_colours(canvas)) is None
    x, y = 127, 63                 # the last column, in the last block of the last page
    canvas.fb.pixel(x, y, 1 - canvas.fb.pixel(x, y))
    panel.show(canvas, 0, 0, panel.width, panel.height)
    assert shown_i2c(i2c, model) == [(False, bytes([0x21, 127, 127, 0x22, 7, 7])),
                                     (True, bytes([canvas.buf[1023]]))]
    assert first_difference(model.view(), canvas_colours(canvas)) is None


def test_ssd1306_a_box_changed_at_its_right_edge_sends_that_column():
    i2c, panel, canvas, model = open_ssd1306_i2c()
    canvas.fb.fill_rect(20, 12, 30, 16, 0)
    panel.show(canvas, 20, 12, 30, 16)
    shown_i2c(i2c, model)
    canvas.fb.vline(49, 12, 16, 1)          # only the box's last column changes
    panel.show(canvas, 20, 12, 30, 16)
    assert shown_i2c(i2c, model) == [     # one window, a transaction for each page's run
        (False, bytes([0x21, 49, 49, 0x22, 1, 3])), (True, bytes([canvas.buf[128 + 49]])),
        (True, bytes([canvas.buf[256 + 49]])), (True, bytes([canvas.buf[384 + 49]]))]
    assert first_difference(model.view(), canvas_colours(canvas)) is None


def test_ssd1306_sends_only_the_window_ranges_that_moved():
    """A window filled exactly leaves the pointer at its start: a second run on the same
    pages needs only the column command, and one in the same columns only the page one
    (on SPI as well)."""
    i2c, panel, canvas, model = open_ssd1306_i2c()
    for x, y in ((5, 3), (90, 4), (90, 60)):
        canvas.fb.pixel(x, y, 1 - canvas.fb.pixel(x, y))
        panel.show(canvas, x, y, 1, 1)
    commands = [payload for data, payload in shown_i2c(i2c, model) if not data]
    assert commands == [bytes([0x21, 5, 5, 0x22, 0, 0]), bytes([0x21, 90, 90]),
                        bytes([0x22, 7, 7])]
    assert first_difference(model.view(), canvas_colours(canvas)) is None
    spi, panel = open_ssd1306_spi()
    model = SSD1306Model(72, 40, 28)
    canvas = PlainCanvas(72, 40, 1)
    panel.show(canvas, 0, 0, panel.width, panel.height)
    feed(model, spi)
    for box in ((5, 3, 10, 4), (30, 5, 10, 2), (30, 33, 10, 7), (30, 33, 10, 7)):
        canvas.fb.fill_rect(*box, 1)
        panel.show(canvas, *box)
    assert [data for dc, data in spi.log if dc == 0] == [
        bytes([0x21, 28 + 5, 28 + 14, 0x22, 0, 0]), bytes([0x21, 28 + 30, 28 + 39]),
        bytes([0x22, 4, 4])]
    feed(model, spi)
    assert first_difference(model.view(), canvas_colours(canvas)) is None


def test_ssd1306_neighbouring_pages_share_a_window_when_cheaper():
    i2c, panel, canvas, model = open_ssd1306_i2c()
    canvas.fb.fill_rect(30, 20, 40, 12, 1)
    canvas.fb.fill_rect(31, 21, 38, 10, 0)  # a frame across pages 2 to 3
    panel.show(canvas, 30, 20, 40, 12)
    assert [(data, len(payload)) for data, payload in shown_i2c(i2c, model)] == [
        (False, 6), (True, 40), (True, 40)]
    canvas.fb.pixel(0, 16, 1 - canvas.fb.pixel(0, 16))
    canvas.fb.pixel(127, 31, 1 - canvas.fb.pixel(127, 31))   # far apart: two windows
    panel.show(canvas, 0, 16, 128, 16)
    assert [(data, len(payload)) for data, payload in shown_i2c(i2c, model)] == [
        (False, 6), (True, 1), (False, 6), (True, 1)]
    assert first_difference(model.view(), canvas_colours(canvas)) is None


@pytest.mark.parametrize("bus_kind", ["i2c", "spi"])
def test_ssd1306_first_show_after_init_sends_the_whole_screen(bus_kind):
    """Panel RAM is unknown at power-up: even a one-pixel box sends every byte."""
    if bus_kind == "i2c":
        bus = FakeI2C(0)
        panel, model = ssd1306_i2c.SSD1306_I2C(bus, 128, 64), SSD1306Model(128, 64, 0)
    else:
        bus, panel = open_ssd1306_spi()
        model = SSD1306Model(72, 40, 28)
    canvas = PlainCanvas(panel.width, panel.height, 1)
    scribble(canvas, Random(31), 5)
    panel.show(canvas, 3, 3, 1, 1)
    feed(model, bus)
    assert model.data_bytes == panel.width * panel.pages
    assert first_difference(model.view(), canvas_colours(canvas)) is None
    assert model.problems() == []


def test_ssd1306_power_on_and_a_new_init_send_the_whole_screen_again():
    i2c, panel, canvas, model = open_ssd1306_i2c()
    ssd1306_wake.power(panel, False)
    lose_ram(model)             # the board may cut the panel's supply while it is off
    ssd1306_wake.power(panel, True)
    panel.show(canvas, 0, 0, 1, 1)
    feed(model, i2c)
    assert model.data_bytes == 2 * 1024 and model.on
    assert first_difference(model.view(), canvas_colours(canvas)) is None
    ssd1306_wake.contrast(panel, 40)      # keeps the RAM: nothing resent
    panel.show(canvas, 0, 0, 1, 1)
    assert i2c.log == [(0x3C, bytes([0, 0x81])), (0x3C, bytes([0, 40]))]
    feed(model, i2c)
    lose_ram(model)             # a reset, then the driver starts the panel again
    ssd1306_wake.wake(panel, False)
    panel.show(canvas, 0, 0, 1, 1)
    feed(model, i2c)
    assert model.data_bytes == 3 * 1024 and model.problems() == []
    assert first_difference(model.view(), canvas_colours(canvas)) is None


class FlakyI2C(FakeI2C):
    """An I2C bus whose next data write goes unacknowledged (a loose wire)."""

    fail = False

    def writeto(self, addr, data, stop=True):
        """Send, or fail a data write once with ETIMEDOUT after its first bytes went out."""
        if self.fail and data[0] == 0x40:
            self.fail = False
            self.log.append((addr, bytes(data)[:4]))
            raise OSError(110)
        return super().writeto(addr, data, stop)


def test_ssd1306_write_that_fails_resends_everything_next_time():
    """A write cut short leaves the panel's RAM and address pointer in doubt: the error
    reaches the caller, and the next show sends the whole screen from its first byte."""
    i2c, panel, canvas, model = open_ssd1306_i2c(41, 8, FlakyI2C(0))
    canvas.fb.fill_rect(0, 0, 128, 64, 0)
    canvas.fb.text("Mau", 40, 30, 1)
    i2c.fail = True
    with pytest.raises(OSError):
        panel.show(canvas, 40, 30, 24, 8)
    panel.show(canvas, 40, 30, 24, 8)
    feed(model, i2c)
    assert model.data_bytes == 2 * 1024 + 3
    assert first_difference(model.view(), canvas_colours(canvas)) is None


def test_ssd1306_i2c_absent_device_raises():
    i2c = FakeI2C(0)
    i2c.devices = ()
    with pytest.raises(OSError):
        ssd1306_i2c.SSD1306_I2C(i2c, 128, 64)


def test_ssd1306_model_catches_a_missing_offset():
    spi, panel = open_ssd1306_spi(offset=0)
    canvas = PlainCanvas(72, 40, 1)
    scribble(canvas, Random(14), 10)
    panel.show(canvas, 0, 0, panel.width, panel.height)
    model = SSD1306Model(72, 40, 28)
    model.feed_spi_log(spi.log)
    assert first_difference(model.view(), canvas_colours(canvas)) is not None


VM_LOCKED = """
import gc, micropython
import chipmodels
from firmware import st7789, st7789_wake
from firmware.buttons import Buttons

# rectangles on the panel, each with the band heights it goes out in (a line of 240 a band:
# as many lines of a rectangle as fit, then one band of the lines left)
RECTS = ((0, 0, 240, 135, 1), (10, 10, 60, 12, 1), (10, 10, 60, 30, 2), (3, 40, 237, 7, 1),
         (100, 0, 16, 135, 1), (100, 1, 17, 134, 2), (200, 130, 5, 5, 1), (0, 0, 1, 1, 1))

def expand(band, canvas, lut, stride, x, w, top, lines):
    pass        # the viper expansion's place: a call, no allocation

def open_panel():
    w, h, madctl, xo, yo = st7789_wake.panel_135x240(90)
    return st7789.ST7789(chipmodels.FakeSPI(0), chipmodels.FakePin(16), chipmodels.FakePin(17),
                         w, h, xo, yo, madctl)

def spent_showing(panel, canvas, rounds):
    # bytes the shows of RECTS allocate, rounds times over, and the band heights they took
    heights = 0
    gc.collect()
    gc.disable()
    before = gc.mem_alloc()
    for _ in range(rounds):
        for x, y, w, h, n in RECTS:
            panel.show(canvas, x, y, w, h)
            heights += n
    spent = gc.mem_alloc() - before
    gc.enable()
    return spent, heights

def shows():
    chipmodels.reset_fakes()
    chipmodels.wire_spi(16, 17)
    blitting = open_panel()
    canvas = chipmodels.PlainCanvas(240, 135, 4)
    blitting.show(canvas, 0, 0, 240, 135)
    chipmodels.FakeSPI.record = chipmodels.FakePin.record = False
    print("BLIT", *spent_showing(blitting, canvas, 20))
    st7789.expand = expand           # as on a board with viper
    native = open_panel()
    native.show(canvas, 0, 0, 240, 135)
    print("NATIVE", *spent_showing(native, canvas, 20))
    st7789.expand = None

def locked_boxes():
    from firmware.boxes import BoxCanvas
    canvas = BoxCanvas(240, 135, 4)
    panel = st7789.ST7789(chipmodels.FakeSPI(0), chipmodels.FakePin(16), chipmodels.FakePin(17),
                          240, 135, 40, 53, st7789_wake.panel_135x240(90)[2])
    panel.show(canvas, 0, 0, panel.width, panel.height)
    chipmodels.FakeSPI.record = chipmodels.FakePin.record = False
    shown = spent = 0
    for k in range(60):
        micropython.heap_lock()
        try:                              # drawings far apart: boxes made, joined, taken
            for j in range(6):
                canvas.rect((37 * j + 11 * k) % 230, (53 * j + k) % 130, 8, 4, 2)
            canvas.card(k % 200, 90, 0x27)
            n = canvas.take_boxes()
        finally:
            micropython.heap_unlock()
        boxes = canvas.boxes
        gc.disable()
        before = gc.mem_alloc()
        for i in range(0, 4 * n, 4):
            panel.show(canvas, boxes[i], boxes[i + 1], boxes[i + 2], boxes[i + 3])
        spent += gc.mem_alloc() - before
        gc.enable()
        shown += n
    print("BOXES", shown, spent)

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


def test_shows_allocate_a_view_a_band_height_and_poll_nothing_on_micropython():
    """In the VM: an ST7789 show allocates a 16-byte view of its band for each band height
    it sends (one, or two when lines are left under whole bands) and nothing else where
    viper expands (a stand-in for it here); where framebuf's blit expands (no viper: the
    VM) a 32-byte FrameBuffer on each view too. The canvas's drawing and dirty boxes and
    Buttons.poll on pins allocate nothing (micropython.heap_lock())."""
    from tools.vm import mpvm
    result = mpvm.run(VM_LOCKED, modules=("engine", "firmware", "tools/fakes/chipmodels.py"),
                      extra_files={"/lib/machine.py": chipmodels.VM_MACHINE},
                      steps=["shows()", "locked_boxes()", "locked_polls()"],
                      heapsize=2 * 1024 * 1024,
                      timeout=120).check()
    lines = {line.split()[0]: [int(n) for n in line.split()[1:]]
             for line in result.stdout.splitlines() if line.split()}
    spent, heights = lines["NATIVE"]
    assert heights == 20 * 10 and spent == 16 * heights, result.stdout
    spent, heights = lines["BLIT"]
    assert spent == (16 + 32) * heights, result.stdout
    shown, spent = lines["BOXES"]                 # drawing and boxes under heap_lock, then
    assert shown >= 120 and 0 < spent <= 2 * (16 + 32) * shown, result.stdout   # their shows
    assert "POLLS 9" in result.stdout, result.stdout   # 3 presses of 700 ms: PRESS LONG RELEASE


VM_OLED = """
import gc, micropython
import chipmodels
from engine.rng import Random
from firmware import ssd1306_i2c, ssd1306_spi

def open_panel(bus_kind):
    chipmodels.reset_fakes()
    if bus_kind == "i2c":
        bus = chipmodels.FakeI2C(0)
        return bus, ssd1306_i2c.SSD1306_I2C(bus, 128, 64), chipmodels.SSD1306Model(128, 64, 0)
    chipmodels.wire_spi(16, 17)
    bus = chipmodels.FakeSPI(0)
    panel = ssd1306_spi.SSD1306_SPI(bus, chipmodels.FakePin(16), chipmodels.FakePin(17), 72, 40,
                                col_offset=28, iref=True)
    return bus, panel, chipmodels.SSD1306Model(72, 40, 28)

def pictures(bus_kind):
    bus, panel, model = open_panel(bus_kind)
    canvas = chipmodels.PlainCanvas(panel.width, panel.height, 1)
    rng = Random(5)
    wrong = 0
    for step in range(12):
        for box in chipmodels.scribble(canvas, rng, 1 + step % 3):
            panel.show(canvas, box[0], box[1], box[2], box[3])
        if bus_kind == "i2c":
            model.feed_i2c_log(bus.log)
        else:
            model.feed_spi_log(bus.log)
        bus.log = []
        if model.problems() or chipmodels.first_difference(
                model.view(), chipmodels.canvas_colours(canvas)) is not None:
            wrong += 1
    print("PICTURES", bus_kind, wrong, model.data_bytes)

def allocations(bus_kind):
    # what shows allocate: one view a window sent (its run), nothing else
    bus, panel, model = open_panel(bus_kind)
    canvas = chipmodels.PlainCanvas(panel.width, panel.height, 1)
    chipmodels.scribble(canvas, Random(6), 10)
    panel.show(canvas, 0, 0, 8, 8)
    chipmodels.FakeSPI.record = chipmodels.FakePin.record = False
    fb = canvas.fb
    windows = [0, 0]
    send = panel.send_window

    def counted(c0, c1, p0, p1):
        windows[0] += 1
        send(c0, c1, p0, p1)

    panel.send_window = counted
    gc.collect()
    gc.disable()
    before = gc.mem_alloc()
    for k in range(20):    # nothing changed: every page compared (I2C), or sent (SPI)
        panel.show(canvas, k, k, panel.width - k, panel.height - k)
    unchanged, windows[1] = gc.mem_alloc() - before, windows[0]
    for k in range(20):    # three pixels far apart on three pages: three windows
        fb.pixel(k, 0, 1 - fb.pixel(k, 0))
        fb.pixel(40 + k, 9, 1 - fb.pixel(40 + k, 9))
        fb.pixel(k, 38, 1 - fb.pixel(k, 38))
        panel.show(canvas, 0, 0, panel.width, panel.height)
        fb.fill_rect(k, 8, 30, 24, k & 1)    # a box over three pages: one window
        panel.show(canvas, k, 8, 30, 24)
    spent = gc.mem_alloc() - before
    gc.enable()
    print("ALLOCATED", bus_kind, unchanged, windows[1], spent, windows[0])

def vectored():
    # rp2's writevto (modelled by the fake) copies its buffers into one new block
    bus = chipmodels.FakeI2C(0)
    chipmodels.FakeSPI.record = False
    vector = [b"\x40", memoryview(bytearray(1024))]
    gc.collect()
    gc.disable()
    before = gc.mem_alloc()
    bus.writevto(0x3C, vector)
    spent = gc.mem_alloc() - before
    gc.enable()
    micropython.heap_lock()
    try:
        bus.writevto(0x3C, vector)
        locked = "sent"
    except MemoryError:
        locked = "MemoryError"
    finally:
        micropython.heap_unlock()
    print("WRITEVTO", spent, locked)
"""


def test_ssd1306_on_micropython():
    """In the VM from .mpy: random pictures reach the model intact on both buses; shows
    allocate one 16-byte view a window sent and nothing else on either bus (nothing on I2C
    when nothing changed), while the fake
    I2C's writevto allocates a block of the vector's total length, as rp2's does."""
    from tools.vm import mpvm
    result = mpvm.run(VM_OLED, modules=("engine", "firmware", "tools/fakes/chipmodels.py"),
                      steps=["pictures('i2c')", "pictures('spi')", "allocations('i2c')",
                             "allocations('spi')", "vectored()"],
                      heapsize=2 * 1024 * 1024, timeout=120).check()
    lines = [line.split() for line in result.stdout.splitlines()]
    pictures = {line[1]: line[2:] for line in lines if line[0] == "PICTURES"}
    assert pictures["i2c"][0] == "0" and pictures["spi"][0] == "0", result.stdout
    assert int(pictures["i2c"][1]) >= 1024 and int(pictures["spi"][1]) >= 360
    allocated = {line[1]: [int(n) for n in line[2:]] for line in lines if line[0] == "ALLOCATED"}
    for bus_kind, (unchanged, unchanged_windows, spent, windows) in allocated.items():
        assert windows >= 60, result.stdout        # three windows a step at least
        assert spent == 16 * windows, result.stdout   # a 16-byte view a window, nothing else
        assert unchanged == 16 * unchanged_windows, result.stdout
    assert allocated["i2c"][:2] == [0, 0], result.stdout   # an unchanged panel: nothing sent
    spent, locked = next(line[1:] for line in lines if line[0] == "WRITEVTO")
    assert int(spent) >= 1025 and locked == "MemoryError", result.stdout
