"""What a mono redraw costs in Python, counted (docs/boards.md, Figures: the Pico + OLED's
redraw): a 3x5 letter goes into its stamp as one word, a window's page is staged for the
bus with one copy, and the panel still ends up showing the canvas."""
from array import array

import pytest

from firmware import gfx, ssd1306, ssd1306_i2c, ssd1306_spi
from firmware.gfx import Canvas
from tools.fakes.chipmodels import (FakeI2C, FakePin, FakeSPI, SSD1306Model, canvas_colours,
                                    first_difference, reset_fakes, wire_spi)

DC, CS = 17, 16


@pytest.fixture(autouse=True)
def fakes():
    reset_fakes()
    wire_spi(DC, CS)
    yield
    reset_fakes()


class CountingBytes(bytearray):
    """A bytearray that counts the slices written into it."""

    copies = 0

    def __setitem__(self, key, value):
        if isinstance(key, slice):
            CountingBytes.copies += 1
        bytearray.__setitem__(self, key, value)


class CountingArray(array):
    """An array that counts the items written into it."""

    def __init__(self, *args):
        self.writes = 0

    def __setitem__(self, key, value):
        self.writes += 1
        array.__setitem__(self, key, value)


def test_a_small_letter_goes_into_its_stamp_as_one_word(monkeypatch):
    """The 3x5 font's letters are stamped eight at a time from a scratch buffer: each letter
    is one write of its columns (and each unused place of a stamp one write of blank)."""
    from firmware import opening                 # the canvas's scratch is made there
    monkeypatch.setattr(opening, "array", CountingArray)
    c = gfx.Canvas(128, 64, 1)
    for text, writes in (("MAU MAU!", 8), ("Ben plays 7", 12), ("GO", 4)):
        c._eight.writes = 0
        c.small(text, 0, 0, gfx.TEXT)
        assert c._eight.writes == writes, text


def whole_screen_copies(monkeypatch, panel_of, width, height):
    """Slice copies into the driver's own buffers while it sends a whole screen."""
    for module in (ssd1306, ssd1306_i2c, ssd1306_spi):
        monkeypatch.setattr(module, "bytearray", CountingBytes, raising=False)
    panel = panel_of(width, height)
    canvas = Canvas(width, height, 1)
    canvas.text("Mau-Mau", 3, 3, 9)
    CountingBytes.copies = 0
    panel.show(canvas, 0, 0, width, height)
    return CountingBytes.copies, panel


def test_i2c_stages_each_page_of_a_window_with_one_copy(monkeypatch):
    """128x64 on I2C: a page goes into the stage in one copy (not 16 columns at a time) and
    into the driver's copy of the panel's RAM in one more: 2 copies a page."""
    copies, panel = whole_screen_copies(
        monkeypatch, lambda w, h: ssd1306_i2c.SSD1306_I2C(FakeI2C(0), w, h), 128, 64)
    assert copies == 2 * panel.pages


def test_spi_stages_each_page_of_a_window_with_one_copy(monkeypatch):
    """72x40 on SPI (the Thumby; no copy of the panel's RAM): one copy a page."""
    def open_spi(w, h):
        return ssd1306_spi.SSD1306_SPI(FakeSPI(0), FakePin(DC), FakePin(CS), w, h, col_offset=28)
    copies, panel = whole_screen_copies(monkeypatch, open_spi, 72, 40)
    assert copies == panel.pages


def test_windows_of_every_start_column_show_the_canvas():
    """Windows starting in every column of a block (a page's tail is copied from its block's
    start) leave the panel equal to the canvas."""
    bus = FakeI2C(0)
    panel = ssd1306_i2c.SSD1306_I2C(bus, 128, 64)
    model = SSD1306Model(128, 64, 0)
    canvas = Canvas(128, 64, 1)
    panel.show(canvas, 0, 0, 128, 64)
    for x in range(0, 124, 3):
        canvas.fb.fill_rect(x, x % 50, 1 + x % 20, 3 + x % 11, 1 - (x & 1))
        panel.show(canvas, x, x % 50, 1 + x % 20, 3 + x % 11)
    model.feed_i2c_log(bus.log)
    assert model.problems() == []
    assert first_difference(model.view(), canvas_colours(canvas)) is None


def test_the_copy_of_the_panels_ram_lines_up_with_the_canvas():
    """The driver finds changed bytes by comparing the canvas with its copy of the panel's
    RAM at the same index (no offset to add in the loop): after a whole screen they agree."""
    panel = ssd1306_i2c.SSD1306_I2C(FakeI2C(0), 128, 64)
    canvas = Canvas(128, 64, 1)
    canvas.text("Mau-Mau", 3, 3, 9)
    canvas.card(60, 30, 0x27)
    panel.show(canvas, 0, 0, 128, 64)
    assert len(panel.ram) == len(canvas.buf) and bytes(panel.ram) == bytes(canvas.buf)


def test_the_i2c_driver_keeps_a_stage_and_the_panels_copy_and_little_else():
    """128x64 on I2C: the buffers the driver keeps are the stage (two rows: a page staged,
    or a page of the canvas and of the panel compared side by side), the copy of the
    panel's RAM after its pad byte, a window's commands and a command byte's pair: 1,290
    bytes (a compare row of its own had taken 256 more)."""
    panel = ssd1306_i2c.SSD1306_I2C(FakeI2C(0), 128, 64)
    kept = {id(v): len(v) for v in vars(panel).values() if isinstance(v, bytearray)}
    assert sum(kept.values()) == 2 * 128 + (1 + 128 * 8) + 7 + 2


def test_the_i2c_driver_repeats_the_drivers_block_width():
    """firmware.ssd1306_i2c compares the panel's blocks as wide as firmware.ssd1306 cut
    them (each folds the constant at compile time)."""
    assert ssd1306_i2c._BLOCK == ssd1306._BLOCK
