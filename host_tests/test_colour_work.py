"""What a colour show costs in Python, counted (docs/boards.md, Figures: a colour move's
driver and boxes): a show runs one helper of its own, the window, which puts its four
addresses into the bus buffer with one call; no builtin min/max; and the panel still
shows the canvas."""
import sys

import pytest

from engine.rng import Random
from firmware import st7789, st7789_wake
from tools.fakes.chipmodels import (FakePin, FakeSPI, PlainCanvas, ST7789Model, canvas_colours,
                                    first_difference, scribble)

DC, CS = 16, 17
pytestmark = pytest.mark.usefixtures("st7789_bus")   # wires DC 16, CS 17 (conftest)


def landscape_panel():
    """The 240x135 panel of the colour boards, on the fake bus."""
    spi = FakeSPI(0)
    width, height, madctl, xo, yo = st7789_wake.panel_135x240(90)
    return spi, st7789.ST7789(spi, FakePin(DC), FakePin(CS), width, height, xo, yo, madctl)


def calls_in_show(panel, canvas, box):
    """The Python functions of the driver and the builtins a show of `box` calls."""
    seen = []

    def profile(frame, event, arg):
        if not frame.f_code.co_filename.endswith("st7789.py"):
            return                        # the bus, the pins, framebuf: C on a board
        if event == "call":
            seen.append(frame.f_code.co_name)
        elif event == "c_call" and arg.__name__ in ("min", "max"):
            seen.append(arg.__name__)

    sys.setprofile(profile)
    try:
        panel.show(canvas, *box)
    finally:
        sys.setprofile(None)
    return seen


def test_a_box_shown_runs_the_show_and_its_window_only():
    """A box shown runs `show` and `window` and nothing else of the driver's (the clipping,
    the palette check and the band's lines inline), and no min or max call: the four window
    addresses are packed into the argument buffer by one struct call."""
    spi, panel = landscape_panel()
    canvas = PlainCanvas(240, 135, 4)
    scribble(canvas, Random(3), 6)
    panel.show(canvas, 0, 0, panel.width, panel.height)                    # the palette loaded
    boxes = ((0, 70, 224, 10), (4, 0, 73, 10), (-5, 120, 60, 30), (237, 110, 3, 5))
    for box in boxes:
        assert calls_in_show(panel, canvas, box) == ["show", "window"], box


def test_the_window_sends_caset_and_raset_from_one_packed_buffer():
    """A box's set-up on the wire: CASET, its first and last column, RASET, its first and
    last row (the panel's offsets added, high byte first), RAMWR, then exactly its pixels;
    CS low throughout, DC low for each command."""
    spi, panel = landscape_panel()
    canvas = PlainCanvas(240, 135, 4)
    start = len(spi.log)                      # after the panel's init
    panel.show(canvas, 20, 30, 32, 10)        # columns 40+20..40+51, rows 53+30..53+39
    # then its 10 lines in two bands (7 lines of 32 fit in one), and nothing after it
    assert spi.log[start:] == [(0, b"\x2a"), (1, b"\x00\x3c\x00\x5b"), (0, b"\x2b"),
                           (1, b"\x00\x53\x00\x5c"), (0, b"\x2c"), (1, bytes(2 * 32 * 7)),
                           (1, bytes(2 * 32 * 3))]
    model = ST7789Model()
    scribble(canvas, Random(8), 8)
    panel.show(canvas, 0, 0, panel.width, panel.height)
    for box in ((3, 4, 17, 9), (200, 100, 40, 35), (0, 0, 240, 1)):
        panel.show(canvas, *box)
    model.feed_log(spi.log)
    assert model.problems() == []
    assert first_difference(model.view(1), canvas_colours(canvas)) is None
