"""The SSD1306 on I2C: a control byte opens each write, and only what the panel does not
already hold is sent (the comparing is described in firmware.ssd1306).

board_configs imports it for a board whose panel is on I2C (the Pico + OLED); a panel on
SPI loads firmware.ssd1306_spi instead.
"""
from engine.compat import const
from firmware.ssd1306 import SSD1306

_BLOCK = const(16)      # firmware.ssd1306's: columns compared at once (a test keeps them equal)


class SSD1306_I2C(SSD1306):
    """An SSD1306 on I2C: a control byte (0x00 commands, 0x40 data) opens each write."""

    command_lead = 1        # commands start with a control byte: Co = 0, D/C = 0
    data_lead = 1           # and data with one: Co = 0, D/C = 1
    compares = True         # a byte takes 22.5 us at 400 kHz: finding it unchanged costs less
    # a window: address, control and 6 command bytes (each page's run of it is a
    # transaction of its own either way)
    window_cost = 8

    def __init__(self, i2c, width, height, addr=0x3C, col_offset=0, iref=False):
        self.i2c, self.addr = i2c, addr
        self.one = bytearray(2)
        self.one[0] = 0x00             # Co = 0, D/C = 0: command bytes follow
        super().__init__(width, height, col_offset, iref)

    def command(self, code):
        """Send one command byte."""
        self.one[1] = code
        self.i2c.writeto(self.addr, self.one)

    def commands(self, codes):
        """Send command bytes in one transaction (codes start with the control byte)."""
        self.i2c.writeto(self.addr, codes)

    def begin(self):
        """Before a window's runs: nothing on I2C."""

    def run(self, buf):
        """Send one run of display RAM bytes, its control byte first, in one transaction."""
        self.i2c.writeto(self.addr, buf)

    def end(self):
        """After a window's runs: nothing on I2C."""

    def send_changes(self, x0, x1, first, last):
        """Send the changed part of pages first..last around columns x0..x1 - 1;
        neighbouring pages share a window while that costs less."""
        drawn, held, pair = self.drawn, self.held, self.stage  # (4 at once: a tuple)
        blocks, panel_blocks, width = self.blocks, self.panel_blocks, self.width
        src, ram = self.source, self.ram
        c0 = c1 = p0 = -1                      # the window gathered so far (p0 -1: none)
        left, right = x0 // _BLOCK, (x1 - 1) // _BLOCK   # the rectangle's blocks in a page
        for page in range(first, last + 1):
            k, m = left, right
            if drawn[page] == held[page]:      # the whole page, in C
                k = m + 1
            else:
                pair[:width] = drawn[page]
                pair[width:] = held[page]
                while k <= m and blocks[k] == panel_blocks[k]:   # a block at a time, in C
                    k += 1
            if k > m:                          # nothing changed in this page's part
                if p0 >= 0:
                    self.send_window(c0, c1, p0, page - 1)
                    p0 = -1
                continue
            while blocks[m] == panel_blocks[m]:    # stops at block k, which differs
                m -= 1
            row = page * width                 # the page's first byte in the buffers
            lo = row + k * _BLOCK
            while src[lo] == ram[lo]:          # block k holds a change
                lo += 1
            # from the end of block m or of the rectangle, whichever comes first (a
            # change past the rectangle is its own rectangle's), back to a change
            hi = row + (m + 1) * _BLOCK - 1
            if hi >= row + x1:
                hi = row + x1 - 1 if row + x1 - 1 > lo else lo
            while src[hi] == ram[hi]:          # stops at lo at the latest
                hi -= 1
            lo, hi = lo - row, hi - row
            if p0 >= 0:
                joined_lo = lo if lo < c0 else c0
                joined_hi = hi if hi > c1 else c1
                above = page - p0
                if ((joined_hi - joined_lo + 1) * (above + 1)
                        <= (c1 - c0 + 1) * above + hi - lo + 1 + self.window_cost):
                    c0, c1 = joined_lo, joined_hi
                    continue
                self.send_window(c0, c1, p0, page - 1)
            c0, c1, p0 = lo, hi, page
        if p0 >= 0:
            self.send_window(c0, c1, p0, last)
