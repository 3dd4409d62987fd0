"""SSD1306 monochrome OLED over I2C or SPI: shows a MONO_VLSB canvas page by page.

The controller's RAM is 128 columns by 8 pages (a page is 8 rows, one byte a column,
lowest bit on top): the same layout as framebuf's MONO_VLSB, so a page of the canvas
goes out as it is. Horizontal addressing mode: `show` sets the column and page range
of the rectangle (grown to whole pages) and streams its bytes. A glass narrower than
128 columns sits at a column offset (the Thumby's 72x40 at column 28).
"""
from engine.compat import const

try:
    from time import sleep_ms
except ImportError:  # CPython (tests)
    from time import sleep as _sleep

    def sleep_ms(ms):
        """Wait ms milliseconds."""
        _sleep(ms / 1000)

_SET_MEMORY_MODE = const(0x20)    # 0 horizontal, 1 vertical, 2 page
_SET_COLUMNS = const(0x21)
_SET_PAGES = const(0x22)
_SET_CONTRAST = const(0x81)
_SET_CHARGE_PUMP = const(0x8D)
_SET_IREF = const(0xAD)           # internal current reference (the Thumby's panel wants it)
_SEG_REMAP = const(0xA1)          # column 127 on the left: upright on the usual modules
_DISPLAY_RAM = const(0xA4)
_NORMAL = const(0xA6)
_DISPLAY_OFF = const(0xAE)
_DISPLAY_ON = const(0xAF)
_SET_MUX = const(0xA8)
_COM_SCAN_DOWN = const(0xC8)
_SET_OFFSET = const(0xD3)
_SET_CLOCK = const(0xD5)
_SET_PRECHARGE = const(0xD9)
_SET_COM_PINS = const(0xDA)
_SET_VCOM = const(0xDB)
_START_LINE_0 = const(0x40)


class SSD1306:
    """One SSD1306 panel; the I2C and SPI classes below say how bytes reach it."""

    def __init__(self, width, height, col_offset=0, iref=False):
        self.width, self.height = width, height
        self.col_offset = col_offset
        self.pages = (height + 7) // 8
        self.cmds = bytearray(6)
        self.source = None      # the canvas buffer last shown, and a view of it
        self.view = None
        self.init_panel(iref)

    def init_panel(self, iref):
        """Configure and switch on: charge pump, multiplex, horizontal addressing."""
        for code in (_DISPLAY_OFF, _SET_CLOCK, 0x80, _SET_MUX, self.height - 1,
                     _SET_OFFSET, 0, _START_LINE_0, _SET_CHARGE_PUMP, 0x14,
                     _SET_MEMORY_MODE, 0, _SEG_REMAP, _COM_SCAN_DOWN,
                     _SET_COM_PINS, 0x02 if self.height == 32 else 0x12,
                     _SET_CONTRAST, 0xCF, _SET_PRECHARGE, 0xF1, _SET_VCOM, 0x40):
            self.command(code)
        if iref:
            self.command(_SET_IREF)
            self.command(0x30)
        for code in (_DISPLAY_RAM, _NORMAL, _DISPLAY_ON):
            self.command(code)

    def contrast(self, level):
        """Brightness 0..255."""
        self.command(_SET_CONTRAST)
        self.command(level)

    def power(self, on):
        """Panel on or off (its RAM is kept)."""
        self.command(_DISPLAY_ON if on else _DISPLAY_OFF)

    def show(self, canvas, x, y, w, h):
        """Send the rectangle (x, y, w, h) of the canvas, grown to whole pages."""
        w = min(x + w, self.width) - max(x, 0)     # clipped to the panel
        h = min(y + h, self.height) - max(y, 0)
        if w <= 0 or h <= 0:
            return
        x, y = max(x, 0), max(y, 0)
        first, last = y >> 3, (y + h - 1) >> 3
        cmds = self.cmds
        cmds[0] = _SET_COLUMNS
        cmds[1] = self.col_offset + x
        cmds[2] = self.col_offset + x + w - 1
        cmds[3] = _SET_PAGES
        cmds[4] = first
        cmds[5] = last
        self.commands(cmds)
        if self.source is not canvas.buf:
            self.source = canvas.buf
            self.view = memoryview(canvas.buf)
        buf = self.view
        width = self.width
        if w == width:  # whole rows of pages are one run of the buffer
            if first == 0 and last == self.pages - 1:
                self.data(self.source)
            else:
                self.data(buf[first * width:(last + 1) * width])
            return
        for page in range(first, last + 1):  # a memoryview of 16 bytes each
            start = page * width + x
            self.data(buf[start:start + w])

    def show_all(self, canvas):
        """Send the whole canvas."""
        self.show(canvas, 0, 0, self.width, self.height)


class SSD1306_I2C(SSD1306):
    """An SSD1306 on I2C: a control byte (0x00 commands, 0x40 data) opens each write."""

    def __init__(self, i2c, width, height, addr=0x3C, col_offset=0, iref=False):
        self.i2c, self.addr = i2c, addr
        self.one = bytearray(2)
        self.one[0] = 0x00             # Co = 0, D/C = 0: command bytes follow
        self.head = bytearray(7)        # control byte plus up to 6 command bytes
        self.parts = [b"\x40", None]   # Co = 0, D/C = 1: data bytes follow
        super().__init__(width, height, col_offset, iref)

    def command(self, code):
        """Send one command byte."""
        self.one[1] = code
        self.i2c.writeto(self.addr, self.one)

    def commands(self, codes):
        """Send up to six command bytes in one transaction."""
        head = self.head
        n = len(codes)
        for i in range(n):
            head[i + 1] = codes[i]
        self.i2c.writeto(self.addr, memoryview(head)[:n + 1] if n < 6 else head)

    def data(self, chunk):
        """Send display RAM bytes."""
        self.parts[1] = chunk
        self.i2c.writevto(self.addr, self.parts)


class SSD1306_SPI(SSD1306):
    """An SSD1306 on 4-wire SPI: DC low for commands, high for data, CS low around both."""

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

    def data(self, chunk):
        """Send display RAM bytes."""
        self.dc(1)
        self.cs(0)
        self.spi.write(chunk)
        self.cs(1)
