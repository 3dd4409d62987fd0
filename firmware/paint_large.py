"""The 240x135 colour table's extras over firmware.paint's Painter: an opponent's seat is
redrawn in its parts, the suit picker shows its suits in a row beside the question, and
marks below the hand's cards say which can be played and which the hint names. Only a
colour board at 240x135 imports this module (firmware.paint.painter_for); the mono panels'
painter has none of it. A played card's flight is firmware.paint_fly's.
"""

from struct import pack_into

from engine.compat import const
from firmware.gfx import (CARD, CURSOR, DIM, FELT, GOOD, HILITE, INK, PANEL, RED, TEXT, WARN,
                          encoded)
from firmware.paint import Painter

_SUITS_X = const(112)  # the suit picker's first suit, right of its status lines
_INSIDE = const(0)     # firmware.paint's: a drawing inside a rectangle just marked (a test
                       # keeps this as firmware.paint's)
_SPELT = const(64)     # firmware.gfx's: bytes of a text its letters read
# four bits of a letter's row, each pixel doubled: a byte of a big letter's row
_SPREAD = b"\x00\x03\x0c\x0f\x30\x33\x3c\x3f\xc0\xc3\xcc\xcf\xf0\xf3\xfc\xff"


def painter_for(canvas):
    """The 240x135 colour painter for `canvas`: firmware.paint_fly's, whose played cards fly,
    where the canvas holds the screen's pixels; on firmware.direct's canvas this module's."""
    if canvas.buf is None:
        return LargePainter(canvas)
    from firmware.paint_fly import FlyingPainter
    return FlyingPainter(canvas)


def big_letters(c, s, x, y, colour):
    """The 8x8 letters of `s` doubled, in pixel value `colour`, on canvas c (its `big` and
    its big cards' ranks: only this screen draws them, so the mono boards load none of it)."""
    letter, lfb, g, spelt = c._letter, c._letter_fb, c._glyph, c._spelt
    spread = _SPREAD
    pack_into("64s", spelt, 0, s if encoded is None else encoded(s))
    n = len(s)
    j = 0                              # the letter's first byte
    for i in range(n if n < _SPELT else _SPELT):
        lfb.fill(0)
        lfb.text(s, -8 * j, 0, 1)      # s from that byte on, one letter in sight (s[i]
        j += 1                         # would make the letter a name)
        while spelt[j] & 0xC0 == 0x80:     # the character's other bytes
            j += 1
        for row in range(8):
            bits = letter[row]
            k = 4 * row                    # each pixel twice, each row twice
            g[k] = g[k + 2] = spread[bits >> 4]
            g[k + 1] = g[k + 3] = spread[bits & 15]
        c._stamp(c._glyph_fb, x + 16 * i, y, colour)


class LargePainter(Painter):
    """firmware.paint's Painter with the 240x135 colour table's extras."""

    def _seat_parts(self, sc, p, x, w, changed, turn, was=-1):
        """240x135: the parts of a seat whose bits of its key `changed`: whose turn (the name
        and its bar), the Mau mark, the cards left (`was` of them before; -1: drawn anew);
        a turn change redraws the name, not the seat, a count its digits."""
        c = self.c
        if changed & 0xC00:                    # the turn bit (the name) or the Mau bit
            name = sc.names[p][:5]
            if 8 * len(name) > w - 19:         # the name reaches the Mau mark: both drawn
                changed |= 0xC00
            if changed & 0x800:
                c.rect(x + 4, 0, 8 * len(name), 10, PANEL)
            if changed & 0x400:
                c.rect(x + w - 15, 3, 12, 5, PANEL)
            if changed & 0x800:
                if turn:                       # a line over the name, a pixel clear of it
                    c.hline(x + 4, 0, 8 * len(name), HILITE, _INSIDE)
                c.text(name, x + 4, 2, HILITE if turn else TEXT, _INSIDE)
            if changed & 0x400 and sc.mau[p]:
                c.small("MAU", x + w - 15, 3, WARN, _INSIDE)
        if changed & 0x3FF:                    # cards left
            count = sc.counts[p]
            number = "%d" % count
            # as many digits (one or two: a third reaches the word) and the same word
            # ("CARD" for one): only the digits are drawn again
            if (0 <= was < 100 and count < 100 and (was > 9) == (count > 9)
                    and (was == 1) == (count == 1)):
                c.rect(x + 4, 11, 8 * len(number), 8, PANEL)
                c.text(number, x + 4, 11, TEXT, _INSIDE)
                return
            c.rect(x + 4, 11, 40, 8, PANEL)
            c.text(number, x + 4, 11, TEXT, _INSIDE)
            c.small("CARDS" if count != 1 else "CARD", x + 14 + (8 if count > 9 else 0), 12, DIM,
                    _INSIDE)

    def _suit_row(self, sc):
        """240x135: the four suits on white chips right of the picker's status lines, the one
        under the cursor framed."""
        c = self.c
        if self._changed("suits", sc):       # once for each picker
            for k in range(4):
                c.rect(_SUITS_X + 30 * k, 71, 18, 18, CARD)
                c.suit(_SUITS_X + 2 + 30 * k, 73, k, RED if k >= 2 else INK, 2)
            self.keys["suit"] = None
        old = self.keys.get("suit")
        if not self._changed("suit", sc.cursor):
            return
        if old is not None:
            c.frame(_SUITS_X - 1 + 30 * old, 70, 20, 20, FELT)
        c.frame(_SUITS_X - 1 + 30 * sc.cursor, 70, 20, 20, CURSOR)

    def _marks(self, x, bottom, w, mark):
        """Colour: the strip below a hand card, a bar when it can be played (mark bit 0), a
        dot when the hint names it (bit 1; smaller screens have no room below the cards: the
        cursor and the status line show the hint there)."""
        c = self.c
        c.rect(x, bottom + 1, w, 5, FELT)
        if mark & 1:
            c.rect(x + 2, bottom + 1, w - 4, 2, GOOD, _INSIDE)
        if mark & 2:
            c.rect(x + w // 2 - 1, bottom + 4, 3, 2, HILITE, _INSIDE)
