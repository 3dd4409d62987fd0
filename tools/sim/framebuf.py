"""MicroPython's `framebuf` in pure Python for CPython, byte-identical to MicroPython 1.29.

The simulator and the host tests install it as `sys.modules["framebuf"]` when the real
module is missing, so firmware code draws on the laptop exactly as on the device.
Every method follows extmod/modframebuf.c: the same clipping, the same pixel order, the
same integer arithmetic (C division truncates toward zero), the same colour truncation.
Arguments are positional only and must be ints, as there: code that passes a keyword
or a float fails here too, not first on the device.
"""
from operator import index as _int

MONO_VLSB = MVLSB = 0
RGB565 = 1
GS4_HMSB = 2
MONO_HLSB = 3
MONO_HMSB = 4
GS2_HMSB = 5
GS8 = 6

# MicroPython's built-in 8x8 font (petme128), characters 32 to 127: eight column bytes
# per glyph, bit 0 at the top. Read from the real framebuf in the MicroPython VM.
FONT = bytes.fromhex(
    "00000000000000000000004f4f0000000007070000070700147f7f14147f7f14"
    "00242e6b6b3a1200006333180c66630000327f4d4d7772500000000406030100"
    "00001c3e63410000000041633e1c0000082a3e1c1c3e2a080008083e3e080800"
    "000080e0600000000008080808080800000000606000000000406030180c0602"
    "003e7f49457f3e000040447f7f40400000627351494f460000226349497f3600"
    "00181814167f7f1000276745457d3900003e7f49497b3200000303797d070300"
    "00367f49497f360000266f49497f3e000000002424000000000080e464000000"
    "00081c3663414100001414141414140000414163361c080000020351590f0600"
    "003e7f414d4f2e00007c7e0b0b7e7c00007f7f49497f3600003e7f4141632200"
    "007f7f41633e1c00007f7f4949414100007f7f0909010100003e7f41497b3a00"
    "007f7f08087f7f000000417f7f410000002060417f3f0100007f7f1c36634100"
    "007f7f4040404000007f7f060c067f7f007f7f0e1c7f7f00003e7f41417f3e00"
    "007f7f09090f0600001e3f21617f5e00007f7f19396f460000266f49497b3200"
    "0001017f7f010100003f7f40407f3f00001f3f60603f1f00007f7f3018307f7f"
    "0063771c1c77630000070f78780f0700006171594d47430000007f7f41410000"
    "0002060c18306040000041417f7f000000080c06060c0800c0c0c0c0c0c0c0c0"
    "000001030604000000207454547c7800007f7f44447c380000387c44446c2800"
    "00387c44447f7f0000387c54545c580000087e7f090302000098bca4a4fc7c00"
    "007f7f04047c78000000007d7d0000000040c08080fd7d00007f7f30386c4400"
    "0000417f7f400000007c7c1830187c7c007c7c04047c780000387c44447c3800"
    "00fcfc24243c180000183c2424fcfc00007c7c04040c080000485c5454742000"
    "04043f7f44642000003c7c40407c3c00001c3c60603c1c00001c7c3018307c1c"
    "00446c38386c4400009cbca0a0fc7c00004464745c4c44000008083e77414100"
    "000000ffff000000004141773e0808000002030103020301aa55aa55aa55aa55"
)

_MASK32 = 0xFFFFFFFF
_PIXELS_PER_BYTE = {MONO_HLSB: 8, MONO_HMSB: 8, GS2_HMSB: 4, GS4_HMSB: 2, GS8: 1}
_BITS = {MONO_VLSB: 1, MONO_HLSB: 1, MONO_HMSB: 1, GS2_HMSB: 2, GS4_HMSB: 4, GS8: 8, RGB565: 16}
_REPEAT = {1: 0xFF, 2: 0x55, 4: 0x11, 8: 0x01}
_page_tables = {}  # (bit mask, on) -> 256-byte translation table for MONO_VLSB fills


def _cdiv(a, b):
    """a / b as C computes it for ints: the quotient truncated toward zero."""
    q = abs(a) // abs(b)
    return q if (a < 0) == (b < 0) else -q


def _packed_masks(fmt):
    """Per-pixel bit masks inside one byte for a horizontally packed format, left pixel first."""
    if fmt == MONO_HLSB:
        return [0x80 >> p for p in range(8)]
    if fmt == MONO_HMSB:
        return [1 << p for p in range(8)]
    if fmt == GS2_HMSB:
        return [3 << (p << 1) for p in range(4)]
    if fmt == GS4_HMSB:
        return [0xF0, 0x0F]
    return [0xFF]


def _page_table(mask, on):
    """Translation table that clears the bits of `mask` in a byte, or sets them when `on`."""
    key = (mask, on)
    table = _page_tables.get(key)
    if table is None:
        keep = ~mask & 0xFF
        table = bytes((v & keep) | (mask if on else 0) for v in range(256))
        _page_tables[key] = table
    return table


def _source(obj):
    """A FrameBuffer, or one made from a (buffer, width, height, format[, stride]) sequence."""
    if isinstance(obj, FrameBuffer):
        return obj
    if isinstance(obj, (tuple, list)):
        if not 4 <= len(obj) <= 5:
            raise ValueError
        source = FrameBuffer.__new__(FrameBuffer)
        source._setup(*obj, writable=False)  # a read-only buffer is fine to read from
        return source
    raise TypeError


class FrameBuffer:
    """A frame buffer over a bytearray-like `buf`: pixels, shapes, 8x8 text, blits."""

    def __init__(self, buf, width, height, format, stride=None, /):
        self._setup(buf, width, height, format, stride)

    def _setup(self, buf, width, height, format, stride=None, writable=True):
        width, height, format = _int(width), _int(height), _int(format)
        stride = width if stride is None else _int(stride)
        if width < 1 or height < 1 or width > 0xFFFF or height > 0xFFFF or stride > 0xFFFF or stride < width:
            raise ValueError
        if format not in _BITS:
            raise ValueError("invalid format")
        height_required, width_required, strides_required = height, width, height - 1
        if format == MONO_VLSB:
            height_required = (height + 7) & ~7
            strides_required = height_required - 8
        elif format != RGB565 and format != GS8:
            ppb = _PIXELS_PER_BYTE[format]
            stride = (stride + ppb - 1) & -ppb
            width_required = (width + ppb - 1) & -ppb
        view = memoryview(buf).cast("B")
        if writable and view.readonly:
            raise TypeError("object with buffer protocol required")  # bytes: MicroPython wants it writable
        needed = (strides_required * stride + (height_required - strides_required) * width_required) * _BITS[format] // 8
        if needed > len(view):
            raise ValueError
        self._buf, self._mv = buf, view
        self._width, self._height, self._format, self._stride = width, height, format, stride
        name = {MONO_VLSB: "vlsb", RGB565: "rgb565", GS2_HMSB: "gs2", GS4_HMSB: "gs4", GS8: "gs8",
                MONO_HLSB: "mhlsb", MONO_HMSB: "mhmsb"}[format]
        self._set = getattr(self, "_set_" + name)
        self._get = getattr(self, "_get_" + name)
        if format == MONO_VLSB:
            self._fill = self._fill_vlsb
        elif format == RGB565:
            self._fill = self._fill_rgb565
        else:
            self._fill = self._fill_packed
            self._ppb = _PIXELS_PER_BYTE[format]
            self._masks = _packed_masks(format)

    # Pixels of each format (x, y already inside the buffer).

    def _set_vlsb(self, x, y, col):
        i = (y >> 3) * self._stride + x
        bit = 1 << (y & 7)
        mv = self._mv
        mv[i] = (mv[i] | bit) if col & _MASK32 else (mv[i] & ~bit)

    def _get_vlsb(self, x, y):
        return (self._mv[(y >> 3) * self._stride + x] >> (y & 7)) & 1

    def _set_mhlsb(self, x, y, col):
        i = (x + y * self._stride) >> 3
        bit = 0x80 >> (x & 7)
        mv = self._mv
        mv[i] = (mv[i] | bit) if col & _MASK32 else (mv[i] & ~bit)

    def _get_mhlsb(self, x, y):
        return (self._mv[(x + y * self._stride) >> 3] >> (7 - (x & 7))) & 1

    def _set_mhmsb(self, x, y, col):
        i = (x + y * self._stride) >> 3
        bit = 1 << (x & 7)
        mv = self._mv
        mv[i] = (mv[i] | bit) if col & _MASK32 else (mv[i] & ~bit)

    def _get_mhmsb(self, x, y):
        return (self._mv[(x + y * self._stride) >> 3] >> (x & 7)) & 1

    def _set_rgb565(self, x, y, col):
        i = (x + y * self._stride) << 1
        mv = self._mv
        mv[i] = col & 0xFF
        mv[i + 1] = (col >> 8) & 0xFF

    def _get_rgb565(self, x, y):
        i = (x + y * self._stride) << 1
        return self._mv[i] | (self._mv[i + 1] << 8)

    def _set_gs2(self, x, y, col):
        i = (x + y * self._stride) >> 2
        shift = (x & 3) << 1
        mv = self._mv
        mv[i] = ((col & 3) << shift) | (mv[i] & ~(3 << shift) & 0xFF)

    def _get_gs2(self, x, y):
        return (self._mv[(x + y * self._stride) >> 2] >> ((x & 3) << 1)) & 3

    def _set_gs4(self, x, y, col):
        i = (x + y * self._stride) >> 1
        mv = self._mv
        if x & 1:
            mv[i] = (col & 0x0F) | (mv[i] & 0xF0)
        else:
            mv[i] = ((col & 0x0F) << 4) | (mv[i] & 0x0F)

    def _get_gs4(self, x, y):
        v = self._mv[(x + y * self._stride) >> 1]
        return v & 0x0F if x & 1 else v >> 4

    def _set_gs8(self, x, y, col):
        self._mv[x + y * self._stride] = col & 0xFF

    def _get_gs8(self, x, y):
        return self._mv[x + y * self._stride]

    def _set_checked(self, x, y, col):
        if 0 <= x < self._width and 0 <= y < self._height:
            self._set(x, y, col)

    # Rectangles (already clipped, w and h at least 1), whole bytes at a time.

    def _fill_vlsb(self, x, y, w, h, col):
        on = bool(col & _MASK32)
        mv, stride, yend = self._mv, self._stride, y + h
        while y < yend:
            page_end = min(yend, (y | 7) + 1)
            mask = (0xFF << (y & 7)) & (0xFF >> (8 - (page_end - ((y >> 3) << 3))))
            start = (y >> 3) * stride + x
            if mask == 0xFF:
                mv[start:start + w] = (b"\xff" if on else b"\x00") * w
            else:
                mv[start:start + w] = bytes(mv[start:start + w]).translate(_page_table(mask, on))
            y = page_end

    def _fill_rgb565(self, x, y, w, h, col):
        row = bytes((col & 0xFF, (col >> 8) & 0xFF)) * w
        mv, pitch = self._mv, self._stride << 1
        start = (x + y * self._stride) << 1
        for _ in range(h):
            mv[start:start + 2 * w] = row
            start += pitch

    def _fill_packed(self, x, y, w, h, col):
        ppb = self._ppb
        if self._format in (MONO_HLSB, MONO_HMSB):
            col = 1 if col & _MASK32 else 0
        bits = 8 // ppb
        full = ((col & ((1 << bits) - 1)) * _REPEAT[bits]) & 0xFF  # every pixel of a byte
        x_end = x + w
        head_end = min(x_end, (x + ppb - 1) // ppb * ppb)
        tail_start = max(head_end, x_end // ppb * ppb)
        head = self._mask_of(x, head_end)
        tail = self._mask_of(tail_start, x_end)
        middle = (tail_start - head_end) // ppb
        row = bytes((full,)) * middle
        mv, pitch = self._mv, self._stride // ppb
        line = y * pitch
        for _ in range(h):
            i = line + x // ppb
            if head:
                mv[i] = (mv[i] & ~head) | (full & head)
                i += 1
            if middle:
                mv[i:i + middle] = row
                i += middle
            if tail:
                mv[i] = (mv[i] & ~tail) | (full & tail)
            line += pitch

    def _mask_of(self, x0, x1):
        """Bits of the pixels x0..x1-1, all inside one byte (0 when x0 == x1)."""
        mask = 0
        for x in range(x0, x1):
            mask |= self._masks[x % self._ppb]
        return mask

    def _fill_rect(self, x, y, w, h, col):
        """fill_rect of modframebuf.c: clip to the buffer, then fill."""
        if h < 1 or w < 1 or x + w <= 0 or y + h <= 0 or y >= self._height or x >= self._width:
            return
        xend = min(self._width, x + w)
        yend = min(self._height, y + h)
        x, y = max(x, 0), max(y, 0)
        self._fill(x, y, xend - x, yend - y, col)

    # The public methods of framebuf.FrameBuffer.

    def fill(self, c, /):
        """Fill the whole buffer with colour c."""
        self._fill(0, 0, self._width, self._height, _int(c))

    def fill_rect(self, x, y, w, h, c, /):
        """Fill the w x h rectangle at (x, y), clipped to the buffer."""
        self._fill_rect(_int(x), _int(y), _int(w), _int(h), _int(c))

    def pixel(self, x, y, c=None, /):
        """Colour of the pixel at (x, y) (None outside), or set it to c."""
        x, y = _int(x), _int(y)
        if 0 <= x < self._width and 0 <= y < self._height:
            if c is None:
                return self._get(x, y)
            self._set(x, y, _int(c))
        return None

    def hline(self, x, y, w, c, /):
        """Horizontal line of w pixels from (x, y)."""
        self._fill_rect(_int(x), _int(y), _int(w), 1, _int(c))

    def vline(self, x, y, h, c, /):
        """Vertical line of h pixels from (x, y)."""
        self._fill_rect(_int(x), _int(y), 1, _int(h), _int(c))

    def rect(self, x, y, w, h, c, f=False, /):
        """Outline of the w x h rectangle at (x, y), or the filled rectangle when f is true."""
        x, y, w, h, c = _int(x), _int(y), _int(w), _int(h), _int(c)
        if f:
            self._fill_rect(x, y, w, h, c)
        else:
            self._fill_rect(x, y, w, 1, c)
            self._fill_rect(x, y + h - 1, w, 1, c)
            self._fill_rect(x, y, 1, h, c)
            self._fill_rect(x + w - 1, y, 1, h, c)

    def line(self, x1, y1, x2, y2, c, /):
        """Bresenham line from (x1, y1) to (x2, y2), both ends drawn."""
        self._line(_int(x1), _int(y1), _int(x2), _int(y2), _int(c))

    def _line(self, x1, y1, x2, y2, col):
        dx, sx = (x2 - x1, 1) if x2 - x1 > 0 else (x1 - x2, -1)
        dy, sy = (y2 - y1, 1) if y2 - y1 > 0 else (y1 - y2, -1)
        steep = dy > dx
        if steep:
            x1, y1, dx, dy, sx, sy = y1, x1, dy, dx, sy, sx
        width, height, setpixel = self._width, self._height, self._set
        e = 2 * dy - dx
        for _ in range(dx):
            if steep:
                if 0 <= y1 < width and 0 <= x1 < height:
                    setpixel(y1, x1, col)
            elif 0 <= x1 < width and 0 <= y1 < height:
                setpixel(x1, y1, col)
            while e >= 0:
                y1 += sy
                e -= 2 * dx
            x1 += sx
            e += 2 * dy
        if 0 <= x2 < width and 0 <= y2 < height:
            setpixel(x2, y2, col)

    def ellipse(self, x, y, xr, yr, c, f=False, m=0x0F, /):
        """Ellipse centred at (x, y) with radii xr, yr; filled when f; m masks quadrants (Q1 = 1 top right, counter-clockwise)."""
        cx, cy, a, b, col = _int(x), _int(y), _int(xr), _int(yr), _int(c)
        mask = (0x10 if f else 0) | (_int(m) & 0x0F)
        if a == 0 and b == 0:
            if mask & 0x0F:
                self._set_checked(cx, cy, col)
            return
        two_asquare, two_bsquare = 2 * a * a, 2 * b * b
        px, py = a, 0
        xchange, ychange = b * b * (1 - 2 * a), a * a
        error, stoppingx, stoppingy = 0, two_bsquare * a, 0
        while stoppingx >= stoppingy:
            self._ellipse_points(cx, cy, px, py, col, mask)
            py += 1
            stoppingy += two_asquare
            error += ychange
            ychange += two_asquare
            if 2 * error + xchange > 0:
                px -= 1
                stoppingx -= two_bsquare
                error += xchange
                xchange += two_bsquare
        px, py = 0, b
        xchange, ychange = b * b, a * a * (1 - 2 * b)
        error, stoppingx, stoppingy = 0, 0, two_asquare * b
        while stoppingx <= stoppingy:
            self._ellipse_points(cx, cy, px, py, col, mask)
            px += 1
            stoppingx += two_bsquare
            error += xchange
            xchange += two_bsquare
            if 2 * error + ychange > 0:
                py -= 1
                stoppingy -= two_asquare
                error += ychange
                ychange += two_asquare

    def _ellipse_points(self, cx, cy, x, y, col, mask):
        if mask & 0x10:
            if mask & 1:
                self._fill_rect(cx, cy - y, x + 1, 1, col)
            if mask & 2:
                self._fill_rect(cx - x, cy - y, x + 1, 1, col)
            if mask & 4:
                self._fill_rect(cx - x, cy + y, x + 1, 1, col)
            if mask & 8:
                self._fill_rect(cx, cy + y, x + 1, 1, col)
        else:
            if mask & 1:
                self._set_checked(cx + x, cy - y, col)
            if mask & 2:
                self._set_checked(cx - x, cy - y, col)
            if mask & 4:
                self._set_checked(cx - x, cy + y, col)
            if mask & 8:
                self._set_checked(cx + x, cy + y, col)

    def poly(self, x, y, coords, c, f=False, /):
        """Closed polygon through the (x, y) pairs of the array `coords`, offset by (x, y); filled when f."""
        x, y, col = _int(x), _int(y), _int(c)
        pts = memoryview(coords).tolist()
        n = len(pts) // 2
        if n == 0:
            return
        if f:
            self._poly_fill(x, y, pts, n, col)
            return
        px1, py1 = pts[0], pts[1]
        i = n * 2 - 1
        while True:
            py2, px2 = pts[i], pts[i - 1]
            i -= 2
            self._line(x + px1, y + py1, x + px2, y + py2, col)
            px1, py1 = px2, py2
            if i < 0:
                break

    def _poly_fill(self, x, y, pts, n, col):
        """Scan-line fill of modframebuf.c (alienryderflex.com/polygon_fill, in integers)."""
        ys = pts[1:2 * n:2]
        for row in range(min(ys), max(ys) + 1):
            nodes = []
            px1, py1 = pts[0], pts[1]
            i = n * 2 - 1
            while True:
                py2, px2 = pts[i], pts[i - 1]
                i -= 2
                if py1 != py2 and ((py1 > row >= py2) or (py1 <= row < py2)):
                    nodes.append(_cdiv(32 * px1 + _cdiv(32 * (px2 - px1) * (row - py1), py2 - py1) + 16, 32))
                elif row == max(py1, py2):
                    if py1 < py2:
                        self._set_checked(x + px2, y + py2, col)
                    elif py2 < py1:
                        self._set_checked(x + px1, y + py1, col)
                    else:
                        self._line(x + px1, y + py1, x + px2, y + py2, col)
                px1, py1 = px2, py2
                if i < 0:
                    break
            nodes.sort()
            for k in range(0, len(nodes) - 1, 2):
                self._fill_rect(x + nodes[k], y + row, nodes[k + 1] - nodes[k] + 1, 1, col)

    def blit(self, fbuf, x, y, key=-1, palette=None, /):
        """Draw fbuf (a FrameBuffer or a (buffer, w, h, format[, stride]) tuple) at (x, y).

        Pixels whose colour (after looking it up in `palette`, a FrameBuffer one pixel high)
        equals `key` are skipped.
        """
        src = _source(fbuf)
        x, y, key = _int(x), _int(y), _int(key) & _MASK32
        pal = None if palette is None else _source(palette)
        if x >= self._width or y >= self._height or -x >= src._width or -y >= src._height:
            return
        x0, y0, x1, y1 = max(0, x), max(0, y), max(0, -x), max(0, -y)
        x0end = min(self._width, x + src._width)
        y0end = min(self._height, y + src._height)
        if pal is None and self._copy_rows(src, x0, y0, x1, y1, x0end, y0end, key):
            return
        get, setpixel = src._get, self._set
        lookup = pal._get if pal is not None else None
        while y0 < y0end:
            cx1 = x1
            for cx0 in range(x0, x0end):
                col = get(cx1, y1)
                if lookup is not None:
                    col = lookup(col, 0)
                if col != key:
                    setpixel(cx0, y0, col)
                cx1 += 1
            y0 += 1
            y1 += 1

    def _copy_rows(self, src, x0, y0, x1, y1, x0end, y0end, key):
        """Blit fast path: whole rows of bytes, when formats match and no pixel can be keyed out.

        Returns False when the fast path does not apply (then the pixel loop runs).
        """
        fmt = self._format
        if src._format != fmt or fmt not in (GS8, RGB565, GS4_HMSB) or x0end <= x0:
            return False
        if key <= (1 << _BITS[fmt]) - 1 or src._mv.obj is self._mv.obj:
            return False
        ppb = 2 if fmt == GS4_HMSB else 1
        if fmt == GS4_HMSB and (x0 & 1 or x1 & 1 or (x0end - x0) & 1):
            return False
        size = 2 if fmt == RGB565 else 1
        count = (x0end - x0) * size // ppb
        dst, sv = self._mv, src._mv
        for row in range(y0end - y0):
            d = ((x0 + (y0 + row) * self._stride) * size) // ppb
            s = ((x1 + (y1 + row) * src._stride) * size) // ppb
            dst[d:d + count] = sv[s:s + count]
        return True

    def scroll(self, xstep, ystep, /):
        """Shift the contents by (xstep, ystep); the uncovered area keeps its old pixels."""
        xstep, ystep = _int(xstep), _int(ystep)
        width, height = self._width, self._height
        if xstep < 0:
            sx, xend, dx = 0, width + xstep, 1
            if xend <= 0:
                return
        else:
            sx, xend, dx = width - 1, xstep - 1, -1
            if xend >= sx:
                return
        if ystep < 0:
            y, yend, dy = 0, height + ystep, 1
            if yend <= 0:
                return
        else:
            y, yend, dy = height - 1, ystep - 1, -1
            if yend >= y:
                return
        get, setpixel = self._get, self._set
        while y != yend:
            for x in range(sx, xend, dx):
                setpixel(x, y, get(x - xstep, y - ystep))
            y += dy

    def text(self, s, x, y, c=1, /):
        """Draw s in the built-in 8x8 font with its top left corner at (x, y)."""
        data = s.encode() if isinstance(s, str) else bytes(s)
        x0, y0, col = _int(x), _int(y), _int(c)
        width, height, setpixel = self._width, self._height, self._set
        for ch in data:
            if ch == 0:  # C string end
                break
            if ch < 32 or ch > 127:
                ch = 127
            base = (ch - 32) * 8
            for j in range(8):
                if 0 <= x0 < width:
                    column, py = FONT[base + j], y0
                    while column:
                        if column & 1 and 0 <= py < height:
                            setpixel(x0, py, col)
                        column >>= 1
                        py += 1
                x0 += 1


def FrameBuffer1(buf, width, height, stride=None, /):
    """The legacy constructor: a MONO_VLSB FrameBuffer."""
    return FrameBuffer(buf, width, height, MONO_VLSB, width if stride is None else stride)
