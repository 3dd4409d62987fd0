"""What the screen shows, as 24-bit RGB: the canvas's pixels through its palette.

GS4_HMSB canvases hold 4-bit indexes into `canvas.palette` (16 RGB565 colours), two
pixels a byte, the left one in the high nibble. MONO_VLSB canvases (OLEDs) hold one bit a
pixel, eight rows a byte, bit 0 on top; a set bit is a lit (white) pixel on black.
Depth-16 canvases hold RGB565 pixels, little-endian as framebuf writes them; depth-24
ones (a displayio screen copied for the terminal) hold the RGB bytes themselves.
"""


def rgb565_to_rgb(value):
    """(r, g, b) 0-255 of an RGB565 colour, scaled as Pillow's "BGR;16" decoder does (v * 255 // max)."""
    r, g, b = (value >> 11) & 0x1F, (value >> 5) & 0x3F, value & 0x1F
    return (r * 255 // 31, g * 255 // 63, b * 255 // 31)


def _pair_table(palette):
    """byte -> the 6 RGB bytes of its two GS4 pixels (high nibble first)."""
    colours = [bytes(rgb565_to_rgb(c)) for c in palette]
    return [colours[b >> 4] + colours[b & 15] for b in range(256)]


def _rgb565_row(data, w):
    """RGB bytes of w little-endian RGB565 pixels (Pillow's decoder: the same scaling as rgb565_to_rgb)."""
    from PIL import Image
    return Image.frombytes("RGB", (w, 1), data, "raw", "BGR;16").tobytes()


_BIT_ROWS = [[b"\xff\xff\xff" if (v >> bit) & 1 else b"\x00\x00\x00" for v in range(256)] for bit in range(8)]


class Converter:
    """Turns rectangles of one canvas into RGB bytes; keeps its lookup tables between frames."""

    def __init__(self, canvas):
        self.canvas = canvas
        self.width, self.height = canvas.width, canvas.height
        self.depth = 4 if canvas.palette is not None else getattr(canvas, "depth", 1)
        self.mono = self.depth == 1
        self._palette = None
        self._pairs = None

    def _table(self):
        palette = tuple(self.canvas.palette)
        if palette != self._palette:  # a palette may change at run time (themes)
            self._palette, self._pairs = palette, _pair_table(palette)
        return self._pairs

    def row(self, y, x=0, w=None):
        """RGB bytes of pixels x..x+w-1 of row y."""
        w = self.width - x if w is None else w
        buf = self.canvas.buf
        if self.mono:
            start = (y >> 3) * self.width + x
            return b"".join(map(_BIT_ROWS[y & 7].__getitem__, buf[start:start + w]))
        if self.depth == 24:
            start = (y * self.width + x) * 3
            return bytes(buf[start:start + 3 * w])
        if self.depth == 16:
            start = (y * self.width + x) * 2
            return _rgb565_row(bytes(buf[start:start + 2 * w]), w)
        pitch = (self.width + 1) >> 1
        first = y * pitch + (x >> 1)
        last = y * pitch + ((x + w + 1) >> 1)
        data = b"".join(map(self._table().__getitem__, buf[first:last]))
        skip = (x & 1) * 3
        return data[skip:skip + 3 * w]

    def rect(self, x, y, w, h):
        """RGB bytes of the w x h rectangle at (x, y), row after row."""
        return b"".join(self.row(yy, x, w) for yy in range(y, y + h))

    def frame(self):
        """RGB bytes of the whole screen."""
        return self.rect(0, 0, self.width, self.height)

    def pixel(self, x, y):
        """(r, g, b) of one pixel."""
        return tuple(self.row(y, x, 1))


def screenshot(canvas, path=None, scale=1):
    """The screen as a Pillow RGB image (scaled by whole pixels); saved as PNG when path is given."""
    from PIL import Image
    image = Image.frombytes("RGB", (canvas.width, canvas.height), Converter(canvas).frame())
    if scale != 1:
        image = image.resize((canvas.width * scale, canvas.height * scale), Image.NEAREST)
    if path is not None:
        image.save(path, "PNG")
    return image
