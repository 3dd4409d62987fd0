"""Waveshare Pico-LCD-1.14 on a Raspberry Pi Pico: ST7789 240x135, joystick plus A/B.

Pins from Waveshare's demo code: SPI1 with SCK 10, MOSI 11, CS 9, DC 8, RST 12,
backlight 13. Keys to ground: A 15, B 17; joystick up 2, down 18, left 16, right 20,
and its press (GP3) is a second A.
"""
NAME = "Waveshare Pico-LCD-1.14"
WIDTH, HEIGHT, DEPTH = 240, 135, 4
LAYOUT = "dpad"
KEYS = (("UP", 2), ("DOWN", 18), ("LEFT", 16), ("RIGHT", 20), ("A", 15), ("B", 17),
        ("A", 3))
NO_PULL = ()
SPI_ID, SPI_BAUD = 1, 62500000
SCK, MOSI, CS, DC, RST, BACKLIGHT = 10, 11, 9, 8, 12, 13
ROTATION = 90   # as Waveshare's demo: MADCTL MX|MV, columns from 40, rows from 53
NATIVE_ARCH = "armv6m"   # mpy-cross -march for native code (the colour show: firmware/expand.py)

LINK = "uart"                       # link cables (docs/link-protocol.md)
LINK_UARTS = ((0, 0, 1), (1, 4, 5))  # (UART, TX, RX): one cable per peer


def open_display():
    """The display driver (device only)."""
    from board_configs import rp2_peripheral_clock, st7789_display
    rp2_peripheral_clock()      # SPI at the 62.5 MHz asked, not 24 MHz
    return st7789_display(SPI_ID, SPI_BAUD, SCK, MOSI, CS, DC, RST, BACKLIGHT, ROTATION)


def open_buttons():
    """The buttons (device only)."""
    from board_configs import buttons
    return buttons(KEYS, NO_PULL)
