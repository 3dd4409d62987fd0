"""The ST7789's show: a rectangle of a whole-screen canvas through the palette to the panel.

firmware.st7789's ST7789.show runs this module's `show`, imported by the first show and
kept: a colour board drawing on firmware.direct's canvas sends pieces and never shows, so
its heap holds none of this code. How a show goes: firmware/st7789.py's docstring.
"""
import framebuf

from engine.compat import const
from firmware import st7789

_RGB565 = const(1)                # framebuf.RGB565


def show(display, canvas, x, y, w, h):
    """Send the rectangle (x, y, w, h) of the canvas (clipped to the panel) to the ST7789
    `display`."""
    # run for every box drawn: comparisons, not min/max calls (costly on MicroPython),
    # and the helpers' work inline but for the window's commands
    width, height = display.width, display.height
    if x < 0:                                  # clipped to the panel
        w += x
        x = 0
    if y < 0:
        h += y
        y = 0
    if w > width - x:
        w = width - x
    if h > height - y:
        h = height - y
    if w <= 0 or h <= 0:
        return
    if canvas.palette is not display.palette:
        display.load_palette(canvas.palette)
    lines = display.room // w                     # the rectangle's lines a band holds
    if lines > h:
        lines = h
    native = st7789.expand                 # (None where viper is missing, or a test says so)
    if native:
        source, lut = canvas.buf, display.lut
    else:
        source, lut = canvas.fb, display.lut_fb
    stride = (canvas.width + 1) >> 1
    spi = display.spi
    display.window(x, y, w, h)
    rest = h % lines                           # the lines left under whole bands
    top, end = y, y + h - rest
    data = display.data[:2 * w * lines]           # the band's bytes at this height
    band = None if native else framebuf.FrameBuffer(data, w, lines, _RGB565)
    while top < end:   # not range(): a variable step makes a range object
        if native:
            native(data, source, lut, stride, x, w, top, lines)
        else:
            band.blit(source, -x, -top, -1, lut)
        spi.write(data)
        top += lines
    if rest:                                   # one shorter band
        data = display.data[:2 * w * rest]
        if native:
            native(data, source, lut, stride, x, w, top, rest)
        else:
            framebuf.FrameBuffer(data, w, rest, _RGB565).blit(source, -x, -top, -1, lut)
        spi.write(data)
    display.cs(1)
