"""The ST7789's making: its buffers, its reset and wake-up commands, and where a 135x240
panel sits.

firmware.st7789's ST7789 runs `wake` once when it is made and lets go of this module, so
that none of this code stays in the heap while the game is played (board_configs' wiring
helper reads `panel_135x240` first, at boot).
"""
import framebuf

from engine.compat import const, sleep_ms

_SWRESET = const(0x01)
_SLPOUT = const(0x11)
_NORON = const(0x13)
_INVON = const(0x21)
_DISPON = const(0x29)
_MADCTL = const(0x36)
_COLMOD = const(0x3A)
_COLOUR_16BIT = const(0x55)
_RGB565 = const(1)          # framebuf.RGB565
# the band's pixels: one line of 240 (480 bytes). A narrower rectangle gets as many of its
# lines a band as fit; each band costs an expansion's call and a write (docs/boards.md: 3
# lines of 240 took 960 bytes more of a heap the colour boards need all of, for about 61
# writes a move fewer on firmware.direct's canvas, 0.3 ms on the cost model)
_BAND_PIXELS = const(240)

# MADCTL bits: row order (mirror Y), column order (mirror X), row/column exchange
_MY = const(0x80)
_MX = const(0x40)
_MV = const(0x20)


def panel_135x240(rotation):
    """(width, height, MADCTL, column offset, row offset) of a 135x240 panel turned by rotation.

    The panel sits at RAM columns 52-186, rows 40-279; mirroring an axis moves its
    window to the other end of that axis (240 - 52 - 135 = 53).
    """
    if rotation == 90:
        return 240, 135, _MX | _MV, 40, 53
    if rotation == 180:
        return 135, 240, _MX | _MY, 53, 40
    if rotation == 270:
        return 240, 135, _MY | _MV, 40, 52
    return 135, 240, 0, 52, 40


def band_rows(width, pixels=_BAND_PIXELS):
    """Lines of `width` pixels a band of about `pixels` holds (one at least)."""
    return pixels // width if pixels >= width else 1


def wake(display, spi, dc, cs, width, height, x_offset, y_offset, madctl, rst, backlight,
         invert, blits):
    """Make the ST7789 `display`'s buffers and bring its panel up (`blits`: framebuf's
    blit expands the bands, the board has no native expansion)."""
    display.spi, display.dc, display.cs, display.rst = spi, dc, cs, rst
    display.width, display.height = width, height
    display.x_offset, display.y_offset = x_offset, y_offset
    display.madctl = madctl
    display.one = bytearray(1)
    display.args = bytearray(8)         # CASET's first and last column, RASET's rows
    display.columns = memoryview(display.args)[:4]
    display.lines = memoryview(display.args)[4:]
    display.rows = band_rows(width)     # the panel's lines a band holds
    display.room = display.rows * width  # its pixels: a rectangle w wide gets room // w lines
    display.band = bytearray(2 * display.room)
    display.data = memoryview(display.band)  # a band height's bytes are sent from a slice
    display.lut = bytearray(32)         # the palette, byte-swapped for the wire
    display.lut_fb = None               # the lut as framebuf's blit reads it (no viper)
    if blits:
        display.lut_fb = framebuf.FrameBuffer(display.lut, 16, 1, _RGB565)
    display.palette = None              # the palette the lut was made from
    display.fill_fb = None              # the band as one line, for solid() (firmware.direct)
    display.cuts = {}                   # send()'s views of the band, by width and lines
    display.shower = None               # firmware.st7789_show's show, once a show loaded it
    cs.init(cs.OUT, value=1)
    dc.init(dc.OUT, value=0)
    _power_on(display, invert)
    if backlight is not None:
        backlight.init(backlight.OUT, value=1)


def _power_on(display, invert):
    """Reset the panel (by its RST pin where the board wires one), then wake it: sleep out,
    16-bit colour, the display's orientation, inversion (IPS panels show true colours
    inverted), on."""
    rst = display.rst
    if rst is not None:
        rst.init(rst.OUT, value=1)
        sleep_ms(1)
        rst(0)
        sleep_ms(1)
        rst(1)
    else:
        command(display, _SWRESET)
    sleep_ms(150)
    command(display, _SLPOUT)
    sleep_ms(120)
    command(display, _COLMOD, _COLOUR_16BIT)
    command(display, _MADCTL, display.madctl)
    if invert:
        command(display, _INVON)
    command(display, _NORON)
    command(display, _DISPON)


def command(display, code, arg=-1):
    """Send one command byte, with one argument byte when arg >= 0."""
    one = display.one
    display.cs(0)
    display.dc(0)
    one[0] = code
    display.spi.write(one)
    if arg >= 0:
        display.dc(1)
        one[0] = arg
        display.spi.write(one)
    display.cs(1)
