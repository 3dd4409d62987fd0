"""SSD1306 monochrome OLED over I2C or SPI: shows a MONO_VLSB canvas page by page.

The controller's RAM is 128 columns by 8 pages (a page is 8 rows, one byte a column,
lowest bit on top): the same layout as framebuf's MONO_VLSB, so a page of the canvas
goes out as it is. A glass narrower than 128 columns sits at a column offset (the
Thumby's 72x40 at column 28).

On I2C only what the panel does not already hold is sent: the driver keeps a shadow of
the panel's RAM and, for each page of a rectangle, compares it with the canvas's page
(in C, a view against a view); where they differ, both pages are copied side by side
into a scratch row (the stage below: it is free then) whose blocks of 16 columns compare
in C, to find the first and last changed block, then narrows those to the changed bytes.
Neighbouring pages share one window (horizontal addressing: a column range and a page
range, filled exactly, which leaves the pointer at its start) when that costs less than
a window each. On SPI a byte is sent faster than Python can compare it, so rectangles go
out whole, grown to pages. On both, only the window range that moved is set again, and
the first show after power-up, a reset or a failed write sends the whole screen (the
panel's RAM is unknown then).

A show allocates one object a window: the view its runs are sent from (the window's
width decides its length; views of every length made at start-up took 2 KB on 128
columns). Each page's run is copied into one preallocated stage, a whole page in one
copy placed so that the run starts at the same byte every time. On I2C the control byte
sits in the stage just before the run, so a run is one `writeto` of one buffer: rp2's
`writevto` copies its buffers into a new heap block of their total length on every call
(extmod/machine_i2c.c), which needs up to 1 KB of contiguous free heap.
"""
from engine.compat import const, forget

_SET_COLUMNS = const(0x21)
_SET_PAGES = const(0x22)
_UNSET = const(-1)                # no window set since the panel was last (re)started
# Columns compared at once: two 16-byte views compare (in C) for about the Python cost
# of comparing one byte, some 10 us on an RP2040 (half a byte's time on 400 kHz I2C)
_BLOCK = const(16)
_DATA = const(0x40)               # I2C control byte: Co = 0, D/C = 1, data bytes follow


class SSD1306:
    """One SSD1306 panel; a bus class (firmware.ssd1306_i2c, firmware.ssd1306_spi) says how
    bytes reach it.

    A bus class gives `command_lead` and `data_lead` (how many bytes each command or
    data write starts with: a control byte on I2C), `compares` (keep a shadow and send
    only changed bytes, or send rectangles whole) and then `window_cost` (what a
    window's commands and transactions cost, in bytes of data that take as long), and
    command(code), commands(codes), and begin(), run(buf), end() around a window's data.
    """

    def __init__(self, width, height, col_offset=0, iref=False):
        self.width, self.height = width, height
        self.col_offset = col_offset
        self.pages = (height + 7) // 8
        # a window's commands after the bus's lead: both ranges, or one of them
        self.cmds = bytearray(7)
        skip = 1 - self.command_lead
        self.both_ranges = memoryview(self.cmds)[skip:]
        self.one_range = memoryview(self.cmds)[skip:4]
        # a run starts at stage[width], whatever its first column: its page is copied in
        # from `width - first column` on (the control byte goes just before the run)
        self.stage = bytearray(2 * width)
        self.staged = memoryview(self.stage)
        # the panel's RAM after a pad byte (a run with its lead is copied in at once), its
        # pages; and views of the stage's 16-column blocks, where a page of the canvas and
        # of the panel are compared side by side (before any run of the page is staged:
        # each page is copied in again)
        self.shadow = self.ram = self.held = None
        if self.compares:
            self.shadow = bytearray(1 + width * self.pages)
            self.ram = memoryview(self.shadow)[1:]     # ram[i]: the panel's byte i, as src[i]
            self.held = self.pages_of(self.ram)
            view = self.staged
            self.blocks = [view[i:i + _BLOCK if i + _BLOCK < width else width]
                           for i in range(0, width, _BLOCK)]
            self.panel_blocks = [view[width + i:width + (i + _BLOCK if i + _BLOCK < width
                                                          else width)]
                                 for i in range(0, width, _BLOCK)]
        self.drawn = None       # the canvas's pages
        self.known = False      # the panel's RAM is known (not until a whole screen went)
        self.columns = self.page_range = _UNSET       # the last window, as first << 8 | last
        self.source = None      # the canvas buffer last shown
        from firmware.ssd1306_wake import wake     # the power-on: run once, then let go
        wake(self, iref)
        forget("firmware.ssd1306_wake")

    def pages_of(self, buf):
        """Views of a buffer's pages, one a page."""
        view, width = memoryview(buf), self.width
        return [view[p * width:(p + 1) * width] for p in range(self.pages)]

    def forget(self):
        """Panel RAM and window unknown: the next show sends the whole screen."""
        self.known = False
        self.columns = self.page_range = _UNSET

    def show(self, canvas, x, y, w, h):
        """Send what changed in the rectangle (x, y, w, h) of the canvas."""
        x0, y0 = max(x, 0), max(y, 0)          # clipped to the panel
        x1, y1 = min(x + w, self.width), min(y + h, self.height)
        if x1 <= x0 or y1 <= y0:
            return
        if self.source is not canvas.buf:
            self.source = canvas.buf
            self.drawn = self.pages_of(canvas.buf)
        try:
            if self.known and self.compares:
                self.send_changes(x0, x1, y0 >> 3, (y1 - 1) >> 3)
            elif self.known:
                self.send_window(x0, x1 - 1, y0 >> 3, (y1 - 1) >> 3)
            else:
                self.send_window(0, self.width - 1, 0, self.pages - 1)
                self.known = True
        except BaseException:  # an I2C error, or Ctrl-C: a write cut short
            self.forget()      # leaves the panel's RAM and pointer in doubt
            raise

    def send_window(self, c0, c1, p0, p1):
        """Send columns c0..c1 of pages p0..p1 and note them in the shadow (if kept;
        should a write fail, show forgets the shadow)."""
        self.set_window(c0, c1, p0, p1)
        drawn, stage, shadow = self.drawn, self.stage, self.shadow   # (4 at once: a tuple)
        width = self.width
        n = c1 - c0 + 1
        run = self.staged[width - self.data_lead:width + n]   # the window's one allocation
        at = width - c0                         # where the page lands: column c0 at `width`
        self.begin()
        for page in range(p0, p1 + 1):
            stage[at:at + width] = drawn[page]
            if self.data_lead:
                stage[width - 1] = _DATA        # the page may have landed on it
            self.run(run)
            if shadow is not None:              # run's lead lands on the byte before c0
                i = page * width + c0           # (shadow[0] is a pad byte)
                keep = shadow[i]
                shadow[i:i + n + 1] = run
                shadow[i] = keep
        self.end()

    def set_window(self, c0, c1, p0, p1):
        """Point the panel at columns c0..c1 of pages p0..p1, sending only the range that
        differs from the last window (filled exactly, it left the pointer at its start)."""
        columns, page_range = c0 << 8 | c1, p0 << 8 | p1
        cmds, offset = self.cmds, self.col_offset
        if columns != self.columns and page_range != self.page_range:
            cmds[1], cmds[2], cmds[3] = _SET_COLUMNS, offset + c0, offset + c1
            cmds[4], cmds[5], cmds[6] = _SET_PAGES, p0, p1
            self.commands(self.both_ranges)
        elif columns != self.columns:
            cmds[1], cmds[2], cmds[3] = _SET_COLUMNS, offset + c0, offset + c1
            self.commands(self.one_range)
        elif page_range != self.page_range:
            cmds[1], cmds[2], cmds[3] = _SET_PAGES, p0, p1
            self.commands(self.one_range)
        self.columns, self.page_range = columns, page_range
