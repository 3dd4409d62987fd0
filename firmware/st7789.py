"""ST7789 colour TFT over SPI: shows a 4-bit canvas in RGB565, a band of lines at a time.

The controller has 240x320 pixels of RAM; a smaller panel sees only a window of it, so
every address gets the panel's column and row offsets (which depend on MADCTL: a
135x240 panel turned to landscape with MX|MV starts at column 40, row 53). `show`
sends exactly the rectangle asked for: CASET, RASET, RAMWR, then the rectangle's lines
expanded through the canvas's palette into one preallocated band (in C, no Python loop
over pixels) and sent a band at a time. The band holds `rows` lines of the panel's width
(3 of 240), so as many lines of a narrower rectangle as fit in it (45 of 16 pixels): a
rectangle goes out in bands of one height and, for the lines left, one shorter band.
A show allocates one or two small objects and nothing else: the view of the band each
height is sent from (a slice of a memoryview is a new object), and where framebuf's blit
expands, a FrameBuffer on it (band shapes made for every width and kept took 1.7 KB).
Where the board runs native code (firmware/expand.py, compiled for its chip) a band is
expanded by `expand`, about 5 times quicker than the blit on an M0+ by its cycle count
(docs/boards.md), and no FrameBuffer is made; it reads the canvas unclipped, so the canvas
is the panel's size, as the game's always is.
"""
import framebuf
from struct import pack_into
from engine.compat import const, forget

try:
    from firmware.expand import expand
except (ImportError, NameError, SyntaxError, ValueError):  # no viper here: framebuf's blit
    expand = None                                          # (firmware/expand.py says why)

_CASET = const(0x2A)
_RASET = const(0x2B)
_RAMWR = const(0x2C)
_CASET_BYTE = const(b"\x2a")   # the commands as bytes to write (folded like an int const)
_RASET_BYTE = const(b"\x2b")
_RAMWR_BYTE = const(b"\x2c")

_RGB565 = const(1)                # framebuf.RGB565 (the band's size: firmware.st7789_wake)
_CUTS = const(8)                  # band shapes kept for firmware.direct's pieces (_cut)


class ST7789:
    """One ST7789 panel: `show(canvas, x, y, w, h)` sends that rectangle of the canvas (its
    buffers, each attribute with what it holds, are made by firmware.st7789_wake's wake)."""

    def __init__(self, spi, dc, cs, width, height, x_offset, y_offset, madctl,
                 rst=None, backlight=None, invert=True):
        from firmware.st7789_wake import wake   # its buffers and power-on: run once, let go
        wake(self, spi, dc, cs, width, height, x_offset, y_offset, madctl, rst, backlight,
             invert, expand is None)
        forget("firmware.st7789_wake")

    def window(self, x, y, w, h):
        """Address the rectangle and start a RAM write (CS is left low, DC high).

        CS stays low from CASET to the pixels: a command is known by DC alone. The four
        addresses go into one buffer with one call; CASET's and RASET's halves of it are
        sent from views made at start-up."""
        cs, dc, spi = self.cs, self.dc, self.spi
        x += self.x_offset
        y += self.y_offset
        pack_into(">HHHH", self.args, 0, x, x + w - 1, y, y + h - 1)
        cs(0)
        dc(0)
        spi.write(_CASET_BYTE)
        dc(1)
        spi.write(self.columns)
        dc(0)
        spi.write(_RASET_BYTE)
        dc(1)
        spi.write(self.lines)
        dc(0)
        spi.write(_RAMWR_BYTE)
        dc(1)

    def load_palette(self, palette):
        """Make the wire lookup table from 16 RGB565 colours. A show calls it only when the
        canvas's palette is another object than the one loaded last (a canvas changes its
        palette by another tuple: no 16 comparisons to find the same colours)."""
        self.palette = palette
        lut = self.lut
        for i in range(16):
            c = palette[i]
            # framebuf stores RGB565 little-endian; the panel reads high byte first
            lut[2 * i] = c >> 8
            lut[2 * i + 1] = c & 0xFF

    def show(self, canvas, x, y, w, h):
        """Send the rectangle (x, y, w, h) of a whole-screen canvas (clipped to the panel).
        Its code is firmware.st7789_show's, loaded by the first show: firmware.direct's
        canvas never shows, and its heap holds none of it."""
        show = self.shower
        if show is None:       # (imported once: an import each show made an object each)
            from firmware.st7789_show import show
            self.shower = show
        show(self, canvas, x, y, w, h)

    def send(self, piece, w, h, x, y):
        """Send the top left w x h of a piece (firmware.direct's: a GS4 canvas of its own
        width) to (x, y) on the panel, where it lies whole."""
        if piece.palette is not self.palette:
            self.load_palette(piece.palette)
        lines = self.room // w                     # the piece's lines a band holds
        native = expand
        if native:
            source, lut = piece.buf, self.lut
        else:
            source, lut = piece.fb, self.lut_fb
        stride = piece.width >> 1
        spi, cuts = self.spi, self.cuts
        self.window(x, y, w, h)
        n = lines if lines < h else h
        data, band = cuts.get(w << 10 | n) or self._cut(w, n)
        top = 0
        while top < h:
            if h - top < n:                        # the lines left, in one shorter band
                n = h - top                        # (whole bands look their shape up once)
                data, band = cuts.get(w << 10 | n) or self._cut(w, n)
            if native:
                native(data, source, lut, stride, 0, w, top, n)
            else:
                band.blit(source, 0, -top, -1, lut)
            spi.write(data)
            top += n
        self.cs(1)

    def _cut(self, w, lines):
        """(the band's bytes for `lines` lines of `w` pixels, the same as a FrameBuffer or
        None with viper), kept for send(): a piece of a few widths comes in turn, each a
        band and a shorter one (a view and a FrameBuffer made for each would be garbage);
        at most _CUTS kept, then made anew."""
        if len(self.cuts) >= _CUTS:
            self.cuts.clear()
        data = self.data[:2 * w * lines]
        cut = (data, None if expand else framebuf.FrameBuffer(data, w, lines, _RGB565))
        self.cuts[w << 10 | lines] = cut
        return cut

    def solid(self, x, y, w, h, colour):
        """Fill the rectangle (x, y, w, h), clipped already, with one RGB565 colour."""
        if self.fill_fb is None:
            self.fill_fb = framebuf.FrameBuffer(self.band, self.room, 1, _RGB565)
        self.fill_fb.fill((colour & 0xFF) << 8 | colour >> 8)   # little-endian, sent high first
        self.window(x, y, w, h)
        n = w * h
        data, spi, room = self.data, self.spi, self.room
        while n > room:                            # whole bands
            spi.write(data)
            n -= room
        spi.write(data[:2 * n] if n < room else data)
        self.cs(1)
