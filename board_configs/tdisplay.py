"""LilyGO T-Display (ESP32): ST7789 135x240 turned to landscape, two buttons.

Pins from LilyGO's T-Display pinout: MOSI 19, SCLK 18, CS 5, DC 16, RST 23,
backlight 4 (on the ESP32's SPI 1 through the GPIO matrix: 40 MHz at most for output;
the 26.7 MHz limit of the matrix holds only for reading MISO, which the panel never does).
Buttons GPIO 0 and 35, pressed = 0. GPIO 35 is input-only and has no internal pull-up:
the board's own resistor pulls it up, so it is read with no pull (NO_PULL).
"""
NAME = "LILYGO T-Display"
WIDTH, HEIGHT, DEPTH = 240, 135, 4
LAYOUT = "two"
KEYS = (("A", 35), ("B", 0))
NO_PULL = (35,)
SPI_ID, SPI_BAUD = 1, 40000000
SCK, MOSI, CS, DC, RST, BACKLIGHT = 18, 19, 5, 16, 23, 4
ROTATION = 90   # MADCTL MX|MV, columns from 40, rows from 53 (TFT_eSPI's rotation 1)
NATIVE_ARCH = "xtensawin"   # mpy-cross -march for native code (the colour show: firmware/expand.py)

LINK = "espnow"                     # ESP32: ESP-NOW (docs/link-protocol.md)


def open_display():
    """The display driver (device only)."""
    from board_configs import st7789_display
    return st7789_display(SPI_ID, SPI_BAUD, SCK, MOSI, CS, DC, RST, BACKLIGHT, ROTATION)


def open_buttons():
    """The buttons (device only)."""
    from board_configs import buttons
    return buttons(KEYS, NO_PULL)
