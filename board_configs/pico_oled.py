"""A Raspberry Pi Pico with an SSD1306 128x64 OLED on I2C0 and six buttons.

OLED: SDA GP4, SCL GP5, address 0x3C, 400 kHz (the SSD1306's rated I2C speed).
Buttons (our choice, each from a GPIO to ground; internal pull-ups, so no resistors):
a d-pad on GP10 up, GP11 down, GP12 left, GP13 right, and A on GP14, B on GP15:
the pins in a row on the Pico's lower left edge (physical pins 14-20, with a ground at
pin 18 between GP13 and GP14 for the common wire).
"""
NAME = "Pico + SSD1306 OLED 128x64"
WIDTH, HEIGHT, DEPTH = 128, 64, 1
LAYOUT = "dpad"
KEYS = (("UP", 10), ("DOWN", 11), ("LEFT", 12), ("RIGHT", 13), ("A", 14), ("B", 15))
NO_PULL = ()
I2C_ID, I2C_FREQ = 0, 400000
SDA, SCL, ADDRESS = 4, 5, 0x3C

LINK = "uart"                       # link cables (docs/link-protocol.md)
LINK_UARTS = ((0, 0, 1), (1, 8, 9))  # (UART, TX, RX): one cable per peer (GP4/5 are I2C)


def open_display():
    """The display driver (device only)."""
    from board_configs import ssd1306_i2c_display
    return ssd1306_i2c_display(I2C_ID, I2C_FREQ, SDA, SCL, ADDRESS, WIDTH, HEIGHT)


def open_buttons():
    """The buttons (device only)."""
    from board_configs import buttons
    return buttons(KEYS, NO_PULL)
