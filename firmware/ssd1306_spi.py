"""The SSD1306 on 4-wire SPI: DC low for commands, high for data, CS low around both; a
rectangle goes out whole (firmware.ssd1306).

board_configs imports it for a board whose panel is on SPI (the Thumby); a panel on I2C
loads firmware.ssd1306_i2c instead.
"""
from engine.compat import sleep_ms
from firmware.ssd1306 import SSD1306


class SSD1306_SPI(SSD1306):
    """An SSD1306 on 4-wire SPI: DC low for commands, high for data, CS low around both."""

    command_lead = 0
    data_lead = 0
    compares = False        # a byte takes 0.8 us at 10 MHz: comparing costs more than sending

    def __init__(self, spi, dc, cs, width, height, rst=None, col_offset=0, iref=False):
        self.spi, self.dc, self.cs, self.rst = spi, dc, cs, rst
        self.one = bytearray(1)
        cs.init(cs.OUT, value=1)
        dc.init(dc.OUT, value=0)
        if rst is not None:
            rst.init(rst.OUT, value=1)
            sleep_ms(1)
            rst(0)
            sleep_ms(10)
            rst(1)
            sleep_ms(1)
        super().__init__(width, height, col_offset, iref)

    def command(self, code):
        """Send one command byte."""
        self.one[0] = code
        self.commands(self.one)

    def commands(self, codes):
        """Send command bytes."""
        self.dc(0)
        self.cs(0)
        self.spi.write(codes)
        self.cs(1)

    def begin(self):
        """Before a window's runs: DC high (data), CS low for all of them."""
        self.dc(1)
        self.cs(0)

    def run(self, buf):
        """Send one run of display RAM bytes."""
        self.spi.write(buf)

    def end(self):
        """After a window's runs: CS high."""
        self.cs(1)
