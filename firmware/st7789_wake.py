"""The ST7789's power-on: its reset and wake-up commands, and where a 135x240 panel sits.

firmware.st7789's ST7789 runs `wake` once when it is made and lets go of this module, so
that none of this code stays in the heap while the game is played (board_configs' wiring
helper reads `panel_135x240` first, at boot).
"""
from engine.compat import const, sleep_ms

_SWRESET = const(0x01)
_SLPOUT = const(0x11)
_NORON = const(0x13)
_INVON = const(0x21)
_DISPON = const(0x29)
_MADCTL = const(0x36)
_COLMOD = const(0x3A)
_COLOUR_16BIT = const(0x55)

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


def wake(display, invert):
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
