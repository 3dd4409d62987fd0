"""SSD1306 monochrome OLED over I2C or SPI: shows a MONO_VLSB canvas page by page.

The controller's RAM is 128 columns by 8 pages (a page is 8 rows, one byte a column,
lowest bit on top): the same layout as framebuf's MONO_VLSB, so a page of the canvas
goes out as it is. A glass narrower than 128 columns sits at a column offset (the
Thumby's 72x40 at column 28).

Only what the panel does not already hold is sent: the driver keeps a shadow of the
panel's RAM and, for each page of a rectangle, compares blocks of 16 columns (in C, a
view against a view) to find the first and last changed block; on I2C, where a byte
takes longer to send than to compare in Python, it narrows those to the changed
bytes. Neighbouring pages share one window (horizontal addressing: a column range and
a page range, filled exactly, which leaves the pointer at its start) when that costs
less than a window each, and only the range that moved is set again. Panel RAM is
unknown after power-up, reset or a failed write: the next show sends the whole screen.
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
_UNSET = const(-1)                # no window set since the panel was last (re)started
# Columns compared at once: two views compare in C for about the Python cost of
# comparing one byte (some 7 us on an RP2040 at 125 MHz, a byte's bus time at 2.5 MHz)
_BLOCK = const(16)


class SSD1306:
    """One SSD1306 panel; the I2C and SPI classes below say how bytes reach it.

    A bus class gives `lead` (what each data write starts with), `trims` (narrow a
    changed block to its changed bytes, or send it whole), `window_cost` (what a
    window's commands and transactions cost, in bytes of data that take as long) and
    command(code), commands(codes), data(vector).
    """

    def __init__(self, width, height, col_offset=0, iref=False):
        self.width, self.height = width, height
        self.col_offset = col_offset
        self.pages = (height + 7) // 8
        self.cmds = bytearray(6)
        self.cmds3 = memoryview(self.cmds)[:3]
        self.shadow = bytearray(width * self.pages)   # what the panel's RAM holds
        self.stride = (width + _BLOCK - 1) // _BLOCK   # blocks a page
        self.held = self.blocks_of(self.shadow)
        self.drawn = None                              # the canvas's blocks
        self.known = False      # the shadow is the panel's RAM (not until a whole show)
        self.columns = self.page_range = _UNSET       # the last window, as first << 8 | last
        self.vectors = [None] * (self.pages + 1)      # data vectors for 1 to `pages` runs
        for n in range(1, self.pages + 1):
            self.vectors[n] = vector = [None] * (len(self.lead) + n)
            vector[:len(self.lead)] = self.lead
        self.source = None      # the canvas buffer last shown, and a view of it
        self.view = None
        self.init_panel(iref)

    def init_panel(self, iref):
        """Configure and switch on: charge pump, multiplex, horizontal addressing."""
        self.forget()
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

    def blocks_of(self, buf):
        """Views of a buffer's blocks, _BLOCK columns of a page each, page after page."""
        view, width, stride = memoryview(buf), self.width, self.stride
        blocks = [None] * (self.pages * stride)       # sized once: append over-allocates
        for i in range(len(blocks)):
            start = i // stride * width + i % stride * _BLOCK
            blocks[i] = view[start:start + min(_BLOCK, width - i % stride * _BLOCK)]
        return blocks

    def forget(self):
        """Panel RAM and window unknown: the next show sends the whole screen."""
        self.known = False
        self.columns = self.page_range = _UNSET

    def contrast(self, level):
        """Brightness 0..255."""
        self.command(_SET_CONTRAST)
        self.command(level)

    def power(self, on):
        """Panel on or off (sleep mode)."""
        if on:   # sleep keeps the RAM, but a board may cut the panel's supply meanwhile
            self.forget()
        self.command(_DISPLAY_ON if on else _DISPLAY_OFF)

    def show(self, canvas, x, y, w, h):
        """Send what changed in the rectangle (x, y, w, h) of the canvas."""
        x0, y0 = max(x, 0), max(y, 0)          # clipped to the panel
        x1, y1 = min(x + w, self.width), min(y + h, self.height)
        if x1 <= x0 or y1 <= y0:
            return
        if self.source is not canvas.buf:
            self.source = canvas.buf
            self.view = memoryview(canvas.buf)
            self.drawn = self.blocks_of(canvas.buf)
        try:
            if self.known:
                self.send_changes(x0, x1, y0 >> 3, (y1 - 1) >> 3)
            else:
                self.send_window(0, self.width - 1, 0, self.pages - 1)
                self.known = True
        except Exception:
            self.forget()      # a write cut short leaves the panel in doubt
            raise

    def show_all(self, canvas):
        """Send the whole canvas (what changed of it)."""
        self.show(canvas, 0, 0, self.width, self.height)

    def send_changes(self, x0, x1, first, last):
        """Send the changed part of pages first..last around columns x0..x1 - 1;
        neighbouring pages share a window while that costs less."""
        drawn, held, stride = self.drawn, self.held, self.stride
        c0 = c1 = p0 = -1                      # the window gathered so far (p0 -1: none)
        for page in range(first, last + 1):
            base = page * stride
            k, m = base + x0 // _BLOCK, base + (x1 - 1) // _BLOCK
            while k <= m and drawn[k] == held[k]:      # a block at a time, in C
                k += 1
            if k > m:                          # nothing changed on this page
                if p0 >= 0:
                    self.send_window(c0, c1, p0, page - 1)
                    p0 = -1
                continue
            while drawn[m] == held[m]:         # stops at block k, which differs
                m -= 1
            lo, hi = (k - base) * _BLOCK, min((m - base + 1) * _BLOCK, self.width) - 1
            if self.trims:
                lo, hi = self.first_change(page, lo), self.last_change(page, hi)
            if p0 >= 0:
                joined_lo, joined_hi = min(lo, c0), max(hi, c1)
                above = page - p0
                if ((joined_hi - joined_lo + 1) * (above + 1)
                        <= (c1 - c0 + 1) * above + hi - lo + 1 + self.window_cost):
                    c0, c1 = joined_lo, joined_hi
                    continue
                self.send_window(c0, c1, p0, page - 1)
            c0, c1, p0 = lo, hi, page
        if p0 >= 0:
            self.send_window(c0, c1, p0, last)

    def first_change(self, page, col):
        """The first changed column of a page from col on (one is in col's block or later)."""
        src, shadow = self.source, self.shadow
        i = page * self.width + col
        while src[i] == shadow[i]:
            i += 1
        return i - page * self.width

    def last_change(self, page, col):
        """The last changed column of a page from col back (one is in col's block or before)."""
        src, shadow = self.source, self.shadow
        i = page * self.width + col
        while src[i] == shadow[i]:
            i -= 1
        return i - page * self.width

    def send_window(self, c0, c1, p0, p1):
        """Send columns c0..c1 of pages p0..p1, then note them in the shadow."""
        self.set_window(c0, c1, p0, p1)
        width, view, shadow = self.width, self.view, self.shadow
        lead = len(self.lead)
        if c1 - c0 + 1 == width:               # whole pages: one run of the buffer
            vector = self.vectors[1]
            vector[lead] = view[p0 * width:(p1 + 1) * width]
        else:
            vector = self.vectors[p1 - p0 + 1]
            for page in range(p0, p1 + 1):
                start = page * width + c0
                vector[lead + page - p0] = view[start:start + c1 - c0 + 1]
        self.data(vector)
        start = p0 * width + c0
        for i in range(lead, len(vector)):
            part = vector[i]
            shadow[start:start + len(part)] = part
            vector[i] = None
            start += width

    def set_window(self, c0, c1, p0, p1):
        """Point the panel at columns c0..c1 of pages p0..p1, sending only the range that
        differs from the last window (filled exactly, it left the pointer at its start)."""
        columns, page_range = c0 << 8 | c1, p0 << 8 | p1
        cmds, offset = self.cmds, self.col_offset
        if columns != self.columns and page_range != self.page_range:
            cmds[0], cmds[1], cmds[2] = _SET_COLUMNS, offset + c0, offset + c1
            cmds[3], cmds[4], cmds[5] = _SET_PAGES, p0, p1
            self.commands(cmds)
        elif columns != self.columns:
            cmds[0], cmds[1], cmds[2] = _SET_COLUMNS, offset + c0, offset + c1
            self.commands(self.cmds3)
        elif page_range != self.page_range:
            cmds[0], cmds[1], cmds[2] = _SET_PAGES, p0, p1
            self.commands(self.cmds3)
        self.columns, self.page_range = columns, page_range


class SSD1306_I2C(SSD1306):
    """An SSD1306 on I2C: a control byte (0x00 commands, 0x40 data) opens each write."""

    lead = (b"\x40",)       # Co = 0, D/C = 1: data bytes follow
    trims = True            # a byte takes 22.5 us at 400 kHz: comparing it costs less
    # a window: address, control and 6 command bytes, then the data's address and control
    window_cost = 10

    def __init__(self, i2c, width, height, addr=0x3C, col_offset=0, iref=False):
        self.i2c, self.addr = i2c, addr
        self.one = bytearray(2)
        self.one[0] = 0x00             # Co = 0, D/C = 0: command bytes follow
        self.head = bytearray(7)       # control byte plus 6 command bytes
        self.head4 = memoryview(self.head)[:4]   # or 3
        super().__init__(width, height, col_offset, iref)

    def command(self, code):
        """Send one command byte."""
        self.one[1] = code
        self.i2c.writeto(self.addr, self.one)

    def commands(self, codes):
        """Send three or six command bytes in one transaction."""
        n = len(codes)
        head = self.head if n == 6 else self.head4
        for i in range(n):
            head[i + 1] = codes[i]
        self.i2c.writeto(self.addr, head)

    def data(self, vector):
        """Send display RAM bytes: the control byte and runs of the canvas, one transaction."""
        self.i2c.writevto(self.addr, vector)


class SSD1306_SPI(SSD1306):
    """An SSD1306 on 4-wire SPI: DC low for commands, high for data, CS low around both."""

    lead = ()
    trims = False           # a byte takes 0.8 us at 10 MHz: changed blocks go out whole
    # a window: 6 command bytes, and Python calls to toggle DC and CS for two writes,
    # which take as long as some 40 bytes at 10 MHz
    window_cost = 48

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

    def data(self, vector):
        """Send display RAM bytes: runs of the canvas in one CS-low stretch."""
        self.dc(1)
        self.cs(0)
        for part in vector:
            self.spi.write(part)
        self.cs(1)
