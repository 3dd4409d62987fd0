"""Pimoroni Pico Display Pack on a Raspberry Pi Pico: 1.14" ST7789 240x135, A/B/X/Y.

Pins from Pimoroni's pinout (pico_display.hpp): SPI0 with CS 17, SCK 18, MOSI 19,
DC 16, backlight 20; no reset line (a software reset is sent). Buttons to ground on
GP12-15. The RGB LED (GP6-8) is not used.
"""
NAME = "Pimoroni Pico Display Pack"
WIDTH, HEIGHT, DEPTH = 240, 135, 4
LAYOUT = "abxy"
KEYS = (("A", 12), ("B", 13), ("X", 14), ("Y", 15))
NO_PULL = ()
SPI_ID, SPI_BAUD = 0, 62500000
SCK, MOSI, CS, DC, RST, BACKLIGHT = 18, 19, 17, 16, None, 20
ROTATION = 90   # landscape as Pimoroni's driver sets it: MADCTL MX|MV, offsets 40/53
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
