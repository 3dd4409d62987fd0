"""A colour canvas without the screen's pixels in RAM: each drawing goes to the panel as made.

firmware.gfx's Canvas draws through its `fb`; a DirectCanvas's `fb` is a Panel, which takes
framebuf's calls and sends the ST7789 pieces of the screen. A filled rectangle small enough
opens a piece (a GS4 framebuffer of its size, at most _PIECE pixels); what is drawn inside
it is drawn there, and the piece goes to the panel when a drawing falls outside it or the
frame ends (take_boxes). A larger rectangle goes to the panel at once, in one colour. A text
or stamp outside the open piece opens a piece of its own size, filled first with the colour
under it: that of the newest filled rectangle that holds it (the painters draw every text
on a bar, a card or the felt they filled), else of the last whole-screen fill. A line or a
pixel outside the piece goes to the panel at once.
The canvas holds a piece (1,440 bytes) where a GS4 screen holds 16,200; the played card does
not fly (its flight reads back the pixels under it).
"""
import framebuf
from array import array

from engine.compat import const
from firmware.gfx import PALETTE, Canvas

_PIECE = const(2880)    # pixels a piece holds (1,440 bytes)
_NARROW = const(44)     # the piece's three shapes: 44x65 (a big card),
_MIDDLE = const(96)     # 96x30 (a seat of the opponents' bar)
_WIDE = const(240)      # and 240x12 (a line of text across the screen)
_WIDTHS = (_NARROW, _MIDDLE, _WIDE)
_KEPT = const(16)      # filled rectangles remembered as what lies under later texts


class Piece:
    """A piece of the screen on its way to the panel: what ST7789.send reads of it (`buf`,
    `fb`, `width`, `palette`). Its pixels are one buffer seen in three shapes, made
    once (a framebuffer made for each piece was garbage on every drawing): a card's, a line
    of text's, and a big word's; Panel._open takes the first that holds a rectangle."""

    def __init__(self):
        self.buf = bytearray(_PIECE // 2)
        self.shapes = tuple(framebuf.FrameBuffer(self.buf, w, _PIECE // w, framebuf.GS4_HMSB)
                            for w in _WIDTHS)
        self.fb = None
        self.width = 0
        self.palette = PALETTE


class Panel:
    """framebuf's drawing calls, made on the panel a piece at a time (see above)."""

    def __init__(self, display, width, height):
        self.display, self.width, self.height = display, width, height
        self.piece = Piece()
        self.x = self.y = self.w = self.h = 0         # the open piece (w 0: none)
        self.x1 = self.y1 = -32768                    # its right and bottom edge (none: all
                                                      # drawings fall outside)
        self.kept = array("h", bytes(10 * _KEPT))     # x, y, x1, y1, colour of each
        self.n = 0                                    # rectangles kept so far
        self.base = 0                                 # the last whole-screen fill's colour
        self.canvas = None
        self.stamps = ()                              # (framebuffer, w, h, ...) of the canvas's
        self.right = self.bottom = 32767              # where a stamp's ink ends (small text)

    def flush(self):
        """Send the open piece to the panel."""
        if self.w:
            self.display.send(self.piece, self.w, self.h, self.x, self.y)
            self.w = 0
            self.x1 = self.y1 = -32768

    def _inside(self, x, y, w, h):
        """True when (x, y, w, h) lies in the open piece."""
        return self.x <= x and self.y <= y and x + w <= self.x1 and y + h <= self.y1

    def _open(self, x, y, w, h, c):
        """Send the open piece and open one at (x, y, w, h) (on the screen) in colour c;
        False when it is larger than a piece."""
        if self.w:
            self.display.send(self.piece, self.w, self.h, self.x, self.y)
        # the first of the piece's shapes that holds it (inline: a call a piece costs)
        if w <= _NARROW and h <= _PIECE // _NARROW:
            k = 0
        elif w <= _MIDDLE and h <= _PIECE // _MIDDLE:
            k = 1
        elif w <= _WIDE and h <= _PIECE // _WIDE:
            k = 2
        else:
            self.w = 0
            self.x1 = self.y1 = -32768
            return False
        p = self.piece
        p.fb = p.shapes[k]
        p.width = _WIDTHS[k]
        p.fb.fill_rect(0, 0, w, h, c)
        self.x = x            # (one at a time: four at once would make a tuple)
        self.y = y
        self.w = w
        self.h = h
        self.x1 = x + w
        self.y1 = y + h
        self.canvas.box_n = 1
        return True

    def _solid(self, x, y, w, h, c):
        """One colour straight to the panel (after the open piece), clipped to the screen."""
        if self.w:
            self.flush()
        if x < 0:
            w += x
            x = 0
        if y < 0:
            h += y
            y = 0
        if w > self.width - x:
            w = self.width - x
        if h > self.height - y:
            h = self.height - y
        if w > 0 and h > 0:
            self.display.solid(x, y, w, h, PALETTE[c])

    def _under(self, x, y, w, h):
        """The colour under (x, y, w, h): the newest kept rectangle's that holds it."""
        k = self.kept
        n = self.n
        i = n % _KEPT
        if n > _KEPT:
            n = _KEPT
        while n:
            i = i - 1 if i else _KEPT - 1
            j = 5 * i
            if k[j] <= x and k[j + 1] <= y and x + w <= k[j + 2] and y + h <= k[j + 3]:
                return k[j + 4]
            n -= 1
        return self.base

    def _on(self, x, y, w, h):
        """Open a piece over (x, y, w, h) for a text or stamp the open piece does not hold;
        False when none of it is on the screen."""
        if x + w > self.right:                        # the stamp's blank end
            w = self.right - x
        if y + h > self.bottom:
            h = self.bottom - y
        if self._inside(x, y, w, h):
            return True
        x0, y0 = max(x, 0), max(y, 0)
        x1, y1 = min(x + w, self.width, self.right), min(y + h, self.height, self.bottom)
        if x1 <= x0 or y1 <= y0:
            return False
        if not self._open(x0, y0, x1 - x0, y1 - y0, self._under(x0, y0, x1 - x0, y1 - y0)):
            raise ValueError("a drawing larger than a piece")
        return True

    # --- framebuf's calls ------------------------------------------------------------

    def fill(self, c):
        """The whole screen in colour c."""
        self.w = 0                                    # the open piece is painted over
        self.x1 = self.y1 = -32768
        self.n = 0
        self.base = c
        self._solid(0, 0, self.width, self.height, c)

    def fill_rect(self, x, y, w, h, c):
        """A filled rectangle: in the open piece, a new piece, or straight to the panel."""
        # this and text, blit and pixel run for every drawing: the open piece's test is
        # inline in them (a call of _inside each would cost a move some 40 calls)
        if self.x <= x and self.y <= y and x + w <= self.x1 and y + h <= self.y1:
            self.piece.fb.fill_rect(x - self.x, y - self.y, w, h, c)
            return
        x0, y0 = max(x, 0), max(y, 0)
        x1, y1 = min(x + w, self.width), min(y + h, self.height)
        if x1 <= x0 or y1 <= y0:
            return
        # kept as what lies under the texts drawn on it later (the last _KEPT rectangles)
        k = self.kept
        j = 5 * (self.n % _KEPT)
        k[j] = x0
        k[j + 1] = y0
        k[j + 2] = x1
        k[j + 3] = y1
        k[j + 4] = c
        self.n += 1
        if not self._open(x0, y0, x1 - x0, y1 - y0, c):
            self._solid(x0, y0, x1 - x0, y1 - y0, c)

    def rect(self, x, y, w, h, c, f=False):
        """A rectangle's outline (filled: fill_rect)."""
        if f:
            self.fill_rect(x, y, w, h, c)
        elif self._inside(x, y, w, h):
            self.piece.fb.rect(x - self.x, y - self.y, w, h, c)
        else:
            self._solid(x, y, w, 1, c)
            self._solid(x, y + h - 1, w, 1, c)
            self._solid(x, y, 1, h, c)
            self._solid(x + w - 1, y, 1, h, c)

    def hline(self, x, y, w, c):
        """A horizontal line."""
        if self._inside(x, y, w, 1):
            self.piece.fb.hline(x - self.x, y - self.y, w, c)
        else:
            self._solid(x, y, w, 1, c)

    def vline(self, x, y, h, c):
        """A vertical line."""
        if self._inside(x, y, 1, h):
            self.piece.fb.vline(x - self.x, y - self.y, h, c)
        else:
            self._solid(x, y, 1, h, c)

    def pixel(self, x, y, c):
        """One pixel."""
        if self.x <= x and self.y <= y and x < self.x1 and y < self.y1:
            self.piece.fb.pixel(x - self.x, y - self.y, c)
        else:
            self._solid(x, y, 1, 1, c)

    def text(self, s, x, y, c):
        """framebuf's 8x8 text, on what lies under it."""
        w = 8 * len(s)
        if ((self.x <= x and self.y <= y and x + w <= self.x1 and y + 8 <= self.y1)
                or self._on(x, y, w, 8)):
            self.piece.fb.text(s, x - self.x, y - self.y, c)

    def blit(self, source, x, y, key=-1, palette=None):
        """A one-bit stamp (a stamp tuple, or one of the canvas's framebuffers) in its colour."""
        if type(source) is tuple:
            w, h = source[1], source[2]
        else:
            s = self.stamps
            i = 0
            while s[i] is not source:
                i += 3
            w, h = s[i + 1], s[i + 2]
        if ((self.x <= x and self.y <= y and x + w <= self.x1 and y + h <= self.y1)
                or self._on(x, y, w, h)):
            self.piece.fb.blit(source, x - self.x, y - self.y, key, palette)


class DirectCanvas(Canvas):
    """A GS4 canvas of `width` x `height` whose drawings go to `display` (an ST7789) as made."""

    def __init__(self, width, height, display):
        panel = Panel(display, width, height)
        Canvas.__init__(self, width, height, 4, panel)
        panel.canvas = self
        panel.stamps = (self._eight_fb, 32, 8, self._four_fb, 16, 8, self._glyph_fb, 16, 16,
                        self._rank_fb, 8, 8)
        self.boxes = None          # take_boxes hands out none: the device loop sends nothing

    def _small(self, s, x, y, c):
        """3x5 letters (firmware.gfx's), their stamps' blank ends left alone."""
        panel = self.fb
        panel.right, panel.bottom = x + 4 * len(s) - 1, y + 5
        Canvas._small(self, s, x, y, c)
        panel.right = panel.bottom = 32767

    def take_boxes(self):
        """Send the piece still open; no boxes (the frame's drawings are on the panel)."""
        if self.fb.w:
            self.fb.flush()
        self.box_n = 0
        return 0
