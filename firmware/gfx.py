"""The canvas: a framebuffer with colour roles, fonts, suit glyphs and card faces.

`Canvas(width, height, depth)`: depth 4 is GS4_HMSB with a 16-colour palette (RGB565, sent
by colour drivers one line at a time), depth 1 is MONO_VLSB (white pixels = 1). Drawing
takes colour *roles* (BG, CARD, INK, ...), so one painter serves colour and mono screens.
Every drawing call marks its rectangle, but for one told (`mark` False) that it lies inside a
rectangle its part marked already (a text on its bar, a card in its slot's column): each
call of `mark` costs. This canvas keeps no marks; firmware.boxes' BoxCanvas keeps them as the
dirty boxes the device loop sends, and firmware.direct's canvas sends each drawing as made
(neither loads the other's code).
framebuf is imported when a Canvas is made (CircuitPython has none and imports the names).
"""

from array import array

from engine.compat import const, forget

try:
    from struct import pack_into
    pack_into("s", bytearray(1), 0, "")   # MicroPython packs a str as its UTF-8 bytes
    encoded = None
except Exception:                         # CPython packs bytes alone
    encoded = str.encode

# size classes
TINY = const(0)     # 72x40: 3x5 font, 9x12 cards
MEDIUM = const(1)   # 128x64: 8x8 font, 13x19 cards
LARGE = const(2)    # 240x135: 8x8 font, 20x28 cards

# colour roles
BG = const(0)         # screen background
FELT = const(1)       # the table
CARD = const(2)       # a card face
INK = const(3)        # black ink on a card
RED = const(4)        # red ink on a card
DIM = const(5)        # quiet text
HILITE = const(6)     # whose turn, titles, Mau marks
CURSOR = const(7)     # the selection
BACKSIDE = const(8)   # a card's back
TEXT = const(9)       # text on the background or the table
PANEL = const(10)     # bars behind text
GOOD = const(11)      # playable marks
SHADE = const(12)     # a card that cannot be played now
SHADE_INK = const(13)  # ink on a shaded card
SHADE_RED = const(14)  # red ink on a shaded card
BACKPAT = const(15)   # the pattern on a card's back
WARN = const(16)      # pending draws, damage notices
TITLE = const(17)     # big titles
CURSOR_INK = const(18)  # text on the selection bar

# role -> palette index (depth 4) and role -> pixel (depth 1)
_GS4 = b"\x00\x01\x02\x03\x04\x05\x06\x07\x08\x09\x0a\x0b\x0c\x03\x04\x0d\x0e\x06\x0f"
_MONO = b"\x00\x00\x01\x00\x00\x01\x01\x01\x01\x01\x00\x01\x00\x01\x01\x00\x01\x01\x00"

# RGB565 for the 16 palette entries: bg, felt, card, ink, red, dim, hilite, cursor,
# backside, text, panel, good, shade, back pattern, warn, black
PALETTE = (0x10c3, 0x1306, 0xffde, 0x1082, 0xd0c4, 0x7bcf, 0xfe85, 0x2e5f,
           0x29f5, 0xef5d, 0x09e3, 0x7f2f, 0xbdf6, 0x5bdc, 0xfbc5, 0x0000)

# 3x5 font for the small letters, characters 32..95 (lower case drawn as upper case), as
# columns (MONO_VLSB: top pixel in bit 0), three bytes a character, as the letters are
# stamped (tools/sim/findtext.py keeps the same font as rows, for reading screenshots)
_COLUMNS = (b"\x00\x00\x00\x00\x17\x00\x03\x00\x03\x1f\n\x1f\x12\x1f\t\x19\x04\x13\n\x15"
            b"\x1a\x00\x03\x00\x00\x0e\x11\x11\x0e\x00\n\x04\n\x04\x0e\x04\x10\x08\x00"
            b"\x04\x04\x04\x00\x10\x00\x18\x04\x03\x1f\x11\x1f\x12\x1f\x10\x1d\x15\x17"
            b"\x15\x15\x1f\x07\x04\x1f\x17\x15\x1d\x1f\x15\x1d\x01\x19\x07\x1f\x15\x1f"
            b"\x17\x15\x1f\x00\n\x00\x10\n\x00\x04\n\x11\n\n\n\x11\n\x04\x01\x15\x07\x0e"
            b"\x15\x16\x1e\x05\x1e\x1f\x15\n\x0e\x11\x11\x1f\x11\x0e\x1f\x15\x11\x1f\x05"
            b"\x01\x0e\x11\x1d\x1f\x04\x1f\x11\x1f\x11\x08\x10\x0f\x1f\x04\x1b\x1f\x10"
            b"\x10\x1f\x06\x1f\x1f\x01\x1e\x0e\x11\x0e\x1f\x05\x02\x0e\x19\x16\x1f\x05"
            b"\x1a\x12\x15\t\x01\x1f\x01\x1f\x10\x1f\x0f\x10\x0f\x1f\x0c\x1f\x1b\x04\x1b"
            b"\x03\x1c\x03\x19\x15\x13\x1f\x11\x00\x03\x04\x18\x00\x11\x1f\x02\x01\x02"
            b"\x10\x10\x10")

# where each character 32..127 starts in _COLUMNS (lower case as upper case, others '?')
_AT = (b"\x00\x03\x06\t\x0c\x0f\x12\x15\x18\x1b\x1e!$'*-0369<?BEHKNQTWZ]`cfilorux{~\x81\x84"
       b"\x87\x8a\x8d\x90\x93\x96\x99\x9c\x9f\xa2\xa5\xa8\xab\xae\xb1\xb4\xb7\xba\xbd]cfilorux{~\x81"
       b"\x84\x87\x8a\x8d\x90\x93\x96\x99\x9c\x9f\xa2\xa5\xa8\xab\xae]]]]]")


def _words():
    """The letters as they are stamped, by character code 0..127: a 32-bit word each, its
    three columns in the low bytes and a blank column (every port here is little-endian)."""
    words = array("I", bytes(4 * 128))
    for code in range(128):
        k = _AT[code - 32] if code >= 32 else 93          # 93: '?'
        words[code] = _COLUMNS[k] | _COLUMNS[k + 1] << 8 | _COLUMNS[k + 2] << 16
    return words


_LETTERS = _words()

# One-bit stamps blitted in one colour, each a (rows, width, height, MONO_HLSB) tuple of
# constants: a row a byte or more, its left pixel in bit 7. framebuf's blit takes such a
# tuple as its source and makes nothing on the heap, and the stamps stay among the module's
# constants (in flash when frozen or in ROMFS; as FrameBuffers made by each canvas they
# took 1 KB of heap on 240x135).
_HLSB = const(3)      # framebuf.MONO_HLSB
# the suits by suit (clubs, spades, hearts, diamonds), 7x7; then each twice the size, for
# the large screen's big cards and wish
_SUITS = ((b"\x38\x38\xd6\xfe\xd6\x10\x38", 7, 7, _HLSB),
          (b"\x10\x38\x7c\xfe\xfe\x10\x38", 7, 7, _HLSB),
          (b"\x6c\xfe\xfe\x7c\x38\x10\x00", 7, 7, _HLSB),
          (b"\x10\x38\x7c\xfe\x7c\x38\x10", 7, 7, _HLSB),
          (b"\x0f\xc0\x0f\xc0\x0f\xc0\x0f\xc0\xf3\x3c\xf3\x3c\xff\xfc\xff\xfc\xf3\x3c\xf3\x3c"
           b"\x03\x00\x03\x00\x0f\xc0\x0f\xc0", 14, 14, _HLSB),
          (b"\x03\x00\x03\x00\x0f\xc0\x0f\xc0\x3f\xf0\x3f\xf0\xff\xfc\xff\xfc\xff\xfc\xff\xfc"
           b"\x03\x00\x03\x00\x0f\xc0\x0f\xc0", 14, 14, _HLSB),
          (b"\x3c\xf0\x3c\xf0\xff\xfc\xff\xfc\xff\xfc\xff\xfc\x3f\xf0\x3f\xf0\x0f\xc0\x0f\xc0"
           b"\x03\x00\x03\x00\x00\x00\x00\x00", 14, 14, _HLSB),
          (b"\x03\x00\x03\x00\x0f\xc0\x0f\xc0\x3f\xf0\x3f\xf0\xff\xfc\xff\xfc\x3f\xf0\x3f\xf0"
           b"\x0f\xc0\x0f\xc0\x03\x00\x03\x00", 14, 14, _HLSB))
# the tiny screen's suits, 5x5; then its cards' 5x4 (a blank row between rank and suit:
# touching, they read as one glyph: a Q over a club looked like a 9 or an S)
_TINY_SUITS = ((b"\x70\x70\xf8\xa8\x20", 5, 5, _HLSB), (b"\x20\x70\xf8\xf8\x20", 5, 5, _HLSB),
               (b"\x50\xf8\xf8\x70\x20", 5, 5, _HLSB), (b"\x20\x70\xf8\x70\x20", 5, 5, _HLSB),
               (b"\x70\xf8\xa8\x20", 5, 4, _HLSB), (b"\x20\x70\xf8\x20", 5, 4, _HLSB),
               (b"\x50\xf8\x70\x20", 5, 4, _HLSB), (b"\x20\x70\x70\x20", 5, 4, _HLSB))
# 10 in the 8x8 font's style, 9x7 (the font's "1" and "0" side by side touch, and its
# slashed 0 beside a 1 reads as 16); then twice the size
_TENS = ((b"\x67\x00\xed\x80\x6d\x80\x6d\x80\x6d\x80\x6d\x80\xe7\x00", 9, 7, _HLSB),
         (b"\x3c\x3f\x00\x3c\x3f\x00\xfc\xf3\xc0\xfc\xf3\xc0\x3c\xf3\xc0\x3c\xf3\xc0\x3c\xf3\xc0"
          b"\x3c\xf3\xc0\x3c\xf3\xc0\x3c\xf3\xc0\x3c\xf3\xc0\x3c\xf3\xc0\xfc\x3f\x00\xfc\x3f\x00",
          18, 14, _HLSB))

# ranks on the tiny card, 4x5, as columns (top pixel in bit 0), four a rank from 2 to A; the
# 3x5 font's 8, 9 and 6 differ by one pixel and its Q is a 9 with a dent. 10 is seven
# columns: its last three follow the ace
_TINY_RANKS = (b"\x19\x15\x15\x12\x11\x15\x15\x0a\x07\x04\x04\x1f\x17\x15\x15\x09\x0c\x16"
               b"\x15\x08\x01\x19\x05\x03\x0a\x15\x15\x0a\x02\x15\x0d\x06\x02\x1f\x00\x0e"
               b"\x08\x10\x11\x0f\x0e\x11\x09\x16\x1f\x04\x0a\x11\x1e\x05\x05\x1e\x11\x11\x0e")

_SPELT = const(64)    # bytes of a text the 3x5 font reads, more than a screen shows (60 letters)

# card faces by state
NORMAL = const(0)     # playable or not judged
SHADED = const(1)     # cannot be played now


class Canvas:
    """The screen's pixels: buffer, framebuffer, palette, size class (each attribute, with
    what it holds, made by firmware.opening's open_canvas)."""

    def __init__(self, width, height, depth, fb=None):
        from firmware.opening import open_canvas   # its buffers made: the code let go
        open_canvas(self, width, height, depth, fb)
        forget("firmware.opening")

    def ink(self, role):
        """The pixel value of a colour role on this canvas."""
        return self._roles[role]

    def _stamp(self, stamp, x, y, c):
        """Blit a one-bit stamp (a FrameBuffer, or a stamp tuple as above): set pixels in colour
        c, clear pixels left alone."""
        ink = self._ink_fb
        if c != self._inked:     # the 2-colour palette is set again only for another colour
            self._inked = c
            ink.pixel(0, 0, c ^ 1)
            ink.pixel(1, 0, c)
        self.fb.blit(stamp, x, y, c ^ 1, ink)

    def mark(self, x, y, w, h):
        """Note that a rectangle was drawn: nothing kept here (firmware.boxes keeps it)."""

    def fill(self, role):
        """Paint the whole screen one role."""
        self.fb.fill(self._roles[role])
        self.mark(0, 0, self.width, self.height)

    def rect(self, x, y, w, h, role, mark=True):
        """A filled rectangle (`mark` False: inside one marked already, as below)."""
        self.fb.fill_rect(x, y, w, h, self._roles[role])
        if mark:
            self.mark(x, y, w, h)

    def frame(self, x, y, w, h, role, mark=True):
        """A rectangle's outline."""
        self.fb.rect(x, y, w, h, self._roles[role])
        if mark:
            self.mark(x, y, w, h)

    def hline(self, x, y, w, role, mark=True):
        """A horizontal line."""
        self.fb.hline(x, y, w, self._roles[role])
        if mark:
            self.mark(x, y, w, 1)

    def text_width(self, s):
        """Width in pixels of `s` in the screen's text font."""
        return len(s) * self.cw

    def text(self, s, x, y, role, mark=True):
        """Text in the screen's font: 8x8 on medium and large screens, 3x5 on the tiny one."""
        if self.size == TINY:
            self.small(s, x, y, role, mark)
            return
        self.fb.text(s, x, y, self._roles[role])
        if mark:
            self.mark(x, y, len(s) * 8, 8)

    def small(self, s, x, y, role, mark=True):
        """Text in the 3x5 font (4 pixels a character)."""
        self._small(s, x, y, self._roles[role])
        if mark:
            self.mark(x, y, 4 * len(s), 5)

    def _small(self, s, x, y, c):
        """3x5 letters in pixel value c, stamped eight at a time, a word each."""
        g, letters, spelt = self._eight, _LETTERS, self._spelt
        # the text's bytes read by index: a str iterated or indexed would make each of its
        # letters a name (an interned one-letter string, kept in RAM for good)
        pack_into("64s", spelt, 0, s if encoded is None else encoded(s))
        n = len(s)
        i = j = 0
        for _ in range(n if n < _SPELT else _SPELT):
            k = spelt[j]
            j += 1
            if k >= 128:                      # beyond ASCII: '?', the character's other bytes
                while spelt[j] & 0xC0 == 0x80:    # skipped
                    j += 1
                k = 63
            g[i] = letters[k]
            i += 1
            if i == 8:
                self._stamp(self._eight_fb, x, y, c)
                x += 32
                i = 0
        if i > 4:
            while i < 8:           # the letters not written this time
                g[i] = 0
                i += 1
            self._stamp(self._eight_fb, x, y, c)
        elif i:                    # four letters or fewer: half the stamp
            while i < 4:
                g[i] = 0
                i += 1
            self._stamp(self._four_fb, x, y, c)

    def first_code(self, s):
        """The code of the first byte of `s` (0 for ""), read without making a name of it."""
        pack_into("1s", self._spelt, 0, s if encoded is None else encoded(s))
        return self._spelt[0]

    def big(self, s, x, y, role):
        """Text in the 8x8 font at twice the size (16 pixels a character; the painters draw it
        on the 240x135 screen only, whose module draws the letters)."""
        self._big(s, x, y, self._roles[role])
        self.mark(x, y, 16 * len(s), 16)

    def _big(self, s, x, y, c):
        """Doubled 8x8 letters in pixel value c: firmware.paint_large's, imported by the first
        (an import at every one made an object each)."""
        draw = self.big_letters
        if draw is None:
            from firmware.paint_large import big_letters as draw
            self.big_letters = draw
        draw(self, s, x, y, c)

    def suit(self, x, y, s, role, scale=1):
        """The suit glyph of suit `s` (7x7, or 5x5 on the tiny screen), at scale 1 (or 2 on
        the large screen)."""
        self._stamp(self._suits[4 * (scale - 1) + s], x, y, self._roles[role])
        n = self.suit_size() * scale
        self.mark(x, y, n, n)

    def suit_size(self):
        """Side of a suit glyph in pixels at scale 1."""
        return 5 if self.size == TINY else 7

    def card_size(self, big=False):
        """(w, h) of a hand card, or of the big top card."""
        size = self.size
        if size == LARGE:
            return (30, 42) if big else (20, 28)
        if size == MEDIUM:
            return (15, 22) if big else (13, 18)
        return (9, 12)

    def card(self, x, y, c, state=NORMAL, big=False, mark=True):
        """A card face: rank at the top left, the suit below; hearts and diamonds red."""
        w, h = self.card_size(big)
        shaded = state == SHADED
        body = SHADE if shaded else CARD
        red = (c >> 4) >= 2
        ink = self._roles[(SHADE_RED if red else SHADE_INK) if shaded else (RED if red else INK)]
        self._card_body(x, y, w, h, body, mark)   # marks the card; what follows lies inside
        rank, suits = c & 15, self._suits
        if self.size == TINY:    # a blank row between rank and suit
            self._tiny_rank(x + 1, y + 1, rank, ink)
            self._stamp(suits[4 + (c >> 4)], x + 2, y + 7, ink)
        elif self.size == MEDIUM:
            self._rank(x + 1, y + 2, rank, ink, False)
            self._stamp(suits[c >> 4], x + (w - 7) // 2, y + h - 8, ink)
        else:
            self._rank(x + 2, y + 2, rank, ink, big)
            self._stamp(suits[4 + (c >> 4)], x + w - 16, y + h - 16, ink)

    def _card_body(self, x, y, w, h, body, mark=True):
        """A card's rounded rectangle: filled on colour screens; mono shades are outlines."""
        fb = self.fb
        if self.depth == 1 and body == SHADE:
            fb.fill_rect(x, y, w, h, 0)
            if self.size != TINY:    # too close to the glyphs on a 9x12 card
                fb.rect(x, y, w, h, 1)
        else:
            fb.fill_rect(x, y, w, h, self._roles[body])
            if self.depth == 4:
                fb.rect(x, y, w, h, self._roles[DIM])
        # round the corners
        edge = self._roles[FELT]
        fb.pixel(x, y, edge)
        fb.pixel(x + w - 1, y, edge)
        fb.pixel(x, y + h - 1, edge)
        fb.pixel(x + w - 1, y + h - 1, edge)
        if mark:
            self.mark(x, y, w, h)

    def _rank(self, x, y, rank, c, big):
        """A rank in pixel value c: the 8x8 font, or twice that size; 10 has its own stamp."""
        if rank == 10:   # where the font's letters start: after a blank column
            self._stamp(_TENS[big], x + 1 + big, y, c)
        elif big:                        # (a big card: the 240x135 screen's)
            self._big(RANK_LABELS[rank], x, y, c)
        else:
            self.fb.text(RANK_LABELS[rank], x, y, c)

    def _tiny_rank(self, x, y, rank, c):
        """A rank in the tiny card's 4x5 font (10: seven columns)."""
        g, font = self._letter, _TINY_RANKS
        k = 4 * (rank - 2)
        for i in range(8):
            g[i] = font[k + i] if i < 4 else font[48 + i] if rank == 10 and i < 7 else 0
        self._stamp(self._rank_fb, x, y, c)

    def back(self, x, y, big=False):
        """A card's back: a blue face with a lattice."""
        w, h = self.card_size(big)
        self._card_body(x, y, w, h, BACKSIDE)
        fb, c = self.fb, self._roles[BACKPAT]
        fb.rect(x + 2, y + 2, w - 4, h - 4, c)
        for k in range(4, w - 4, 4):
            fb.vline(x + k, y + 3, h - 6, c)
        for k in range(4, h - 4, 4):
            fb.hline(x + 3, y + k, w - 6, c)


RANK_LABELS = ("", "", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
