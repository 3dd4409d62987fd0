"""TinyCircuits Thumby: SSD1306 72x40 over SPI, d-pad and A/B.

Pins from TinyCircuits' thumby library (thumbyHardware.py, thumbyButton.py): SPI0 with
SCK 18, MOSI 19, CS 16, DC 17, RST 20; the 72x40 glass shows RAM columns 28-99 and
needs the internal current reference (0xAD 0x30). D-pad left 3, up 4, right 5, down 6,
A 27, B 24, pressed = 0. The buzzer on GP28 is driven by PWM (thumbyHardware.py's
`PWM(Pin(28))`, thumbyAudio.py: a frequency, duty 32768 for a tone, 0 for silence).
(The very first Thumbys had the display on I2C; this config is for the SPI boards that
shipped.)
"""
NAME = "TinyCircuits Thumby"
WIDTH, HEIGHT, DEPTH = 72, 40, 1
LAYOUT = "dpad"
KEYS = (("LEFT", 3), ("UP", 4), ("RIGHT", 5), ("DOWN", 6), ("A", 27), ("B", 24))
NO_PULL = ()
SPI_ID, SPI_BAUD = 0, 10000000
SCK, MOSI, CS, DC, RST = 18, 19, 16, 17, 20
COLUMN_OFFSET = 28
BUZZER = 28

LINK = "thumby"                     # the link port: one wire, half duplex
LINK_UARTS = ((0, 0, 1),)           # UART0 TX GP0, RX GP1 (thumbyLink.py)
LINK_ENABLE = 2                     # driven high before the port is used


def open_display():
    """The display driver (device only)."""
    from board_configs import rp2_peripheral_clock, ssd1306_spi_display
    rp2_peripheral_clock()      # SPI at 8.9 MHz for the 10 MHz asked, not 8 MHz
    return ssd1306_spi_display(SPI_ID, SPI_BAUD, SCK, MOSI, CS, DC, RST, WIDTH, HEIGHT,
                               COLUMN_OFFSET, iref=True)


def open_buttons():
    """The buttons (device only)."""
    from board_configs import buttons
    return buttons(KEYS, NO_PULL)


def open_sound():
    """The buzzer, as firmware.sound plays it (device only)."""
    from board_configs import pwm_sound
    return pwm_sound(BUZZER)
