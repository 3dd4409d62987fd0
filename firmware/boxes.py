"""The dirty boxes: a canvas that keeps what was drawn since the device loop last sent it.

BoxCanvas is firmware.gfx's Canvas holding the whole screen's pixels (mono panels, and
colour boards with room for them). Every drawing marks its rectangle; the canvas keeps up
to MAX_BOXES boxes (a new rectangle joins the box last grown, or else the box it grows
least, when that wastes few pixels, else starts its own; boxes that come to overlap are
merged when taken): a frame that changes the hand row and the opponents sends two boxes,
not the screen between. `take_boxes()` hands them out (`box_n` says how many there are).
firmware.direct's canvas, which sends each drawing as made, has none of this code in its heap.
"""

from array import array

from engine.compat import const
from firmware.gfx import Canvas

MAX_BOXES = const(10)  # dirty boxes kept per frame (a move's frame draws up to 9 parts apart)
_SLACK = const(768)    # pixels a merge may add for free: a box more costs its window's Python,
#                        about what 700 pixels cost to expand in machine code and send
# on mono panels: a pixel sent needlessly is an eighth of a byte (on I2C the driver even
# skips bytes that did not change), while each box costs a show and marks more work
_MONO_SLACK = const(4096)


class BoxCanvas(Canvas):
    """A whole screen's canvas (firmware.gfx) that keeps its dirty boxes."""

    def __init__(self, width, height, depth):
        Canvas.__init__(self, width, height, depth)
        # x0, y0, x1, y1 of each dirty box, and room for one too many (then two are joined)
        self._box = array("H", bytes(8 * MAX_BOXES + 8))
        self._last = 0                           # the box last made or grown (a hint)
        self._slack = _SLACK if depth == 4 else _MONO_SLACK
        self.boxes = array("H", bytes(8 * MAX_BOXES))  # take_boxes(): x, y, w, h of each

    def mark(self, x, y, w, h):
        """Add a rectangle to the dirty boxes (clipped to the screen)."""
        # called for every drawing: plain comparisons (cheaper than min/max calls), and
        # first the box last grown, which most drawings fall inside (on the screen already:
        # no clipping needed then)
        b = self._box
        i = self._last          # always a box in use, or one no rectangle is inside
        x1 = x + w
        y1 = y + h
        if b[i] <= x and b[i + 1] <= y and x1 <= b[i + 2] and y1 <= b[i + 3]:
            return
        n = self.box_n
        if x1 > self.width:
            x1 = self.width
        if y1 > self.height:
            y1 = self.height
        if x < 0:
            x = 0
        if y < 0:
            y = 0
        if x >= x1 or y >= y1:
            return
        area = (x1 - x) * (y1 - y)
        slack = self._slack
        best, waste = i, 1 << 30
        if n:   # the box last made or grown first: the painter draws a part piece by piece, and
            #     a piece that box takes in for at most the slack joins it, no other weighed
            bx0 = b[i]
            by0 = b[i + 1]
            bx1 = b[i + 2]
            by1 = b[i + 3]
            waste = (((bx1 if bx1 > x1 else x1) - (bx0 if bx0 < x else x))
                     * ((by1 if by1 > y1 else y1) - (by0 if by0 < y else y))
                     - (bx1 - bx0) * (by1 - by0) - area)
        for i in range(0, 4 * n if waste > slack else 0, 4):   # else: the box grown least
            bx0 = b[i]
            by0 = b[i + 1]
            bx1 = b[i + 2]
            by1 = b[i + 3]
            # the union's area less both: comparisons, not min/max (a call each, costly)
            grown = (((bx1 if bx1 > x1 else x1) - (bx0 if bx0 < x else x))
                     * ((by1 if by1 > y1 else y1) - (by0 if by0 < y else y))
                     - (bx1 - bx0) * (by1 - by0) - area)
            if grown < waste:
                best, waste = i, grown
        if waste > slack:                   # a box of its own; one too many: join two
            i = 4 * n
            b[i] = x
            b[i + 1] = y
            b[i + 2] = x1
            b[i + 3] = y1
            self.box_n = n + 1
            self._last = i
            if n == MAX_BOXES:
                self._join_closest()
            return
        # box best grows over it (inside it already, it stays as it is); boxes it comes to
        # overlap are merged once, when the boxes are taken (_settle)
        if x < b[best]:
            b[best] = x
        if y < b[best + 1]:
            b[best + 1] = y
        if x1 > b[best + 2]:
            b[best + 2] = x1
        if y1 > b[best + 3]:
            b[best + 3] = y1
        self._last = best

    def _join_closest(self):
        """Merge the two boxes whose union wastes the fewest pixels."""
        b, end = self._box, 4 * self.box_n
        best_i = best_j = 0
        waste = 1 << 30
        for i in range(0, end, 4):
            ix0 = b[i]
            iy0 = b[i + 1]
            ix1 = b[i + 2]
            iy1 = b[i + 3]
            own = (ix1 - ix0) * (iy1 - iy0)
            for j in range(i + 4, end, 4):
                jx0 = b[j]
                jy0 = b[j + 1]
                jx1 = b[j + 2]
                jy1 = b[j + 3]
                grown = (((ix1 if ix1 > jx1 else jx1) - (ix0 if ix0 < jx0 else jx0))
                         * ((iy1 if iy1 > jy1 else jy1) - (iy0 if iy0 < jy0 else jy0))
                         - own - (jx1 - jx0) * (jy1 - jy0))
                if grown < waste:
                    best_i, best_j, waste = i, j, grown
        self._merge(best_i, best_j)          # best_i < best_j: the drop leaves it in place

    def _merge(self, i, j):
        """Grow box i over box j and remove box j (the last box takes its place; i < j)."""
        b = self._box
        for k in range(2):
            if b[j + k] < b[i + k]:
                b[i + k] = b[j + k]
            if b[j + k + 2] > b[i + k + 2]:
                b[i + k + 2] = b[j + k + 2]
        last = 4 * (self.box_n - 1)
        for k in range(4):
            b[j + k] = b[last + k]
        self.box_n -= 1
        self._last = i

    def _settle(self):
        """Merge each two boxes that overlap where their union wastes few pixels (boxes
        overlapping a little stay apart: a few pixels sent twice cost less)."""
        b, slack = self._box, self._slack
        i = 0
        while i < 4 * self.box_n:
            x0 = b[i]
            y0 = b[i + 1]
            x1 = b[i + 2]
            y1 = b[i + 3]
            for j in range(i + 4, 4 * self.box_n, 4):
                # apart (the usual case) is seen by comparisons before the waste is worked out
                if (b[j] < x1 and x0 < b[j + 2] and b[j + 1] < y1 and y0 < b[j + 3]
                        and self._overlap_waste(i, j) <= slack):
                    self._merge(i, j)
                    i = -4                     # box i grew: look at every pair again
                    break
            i += 4

    def _overlap_waste(self, i, j):
        """Pixels the union of overlapping boxes i and j adds to what they cover; huge if apart."""
        b = self._box
        ox = min(b[i + 2], b[j + 2]) - max(b[i], b[j])
        oy = min(b[i + 3], b[j + 3]) - max(b[i + 1], b[j + 1])
        if ox <= 0 or oy <= 0:
            return 1 << 30
        union = ((max(b[i + 2], b[j + 2]) - min(b[i], b[j]))
                 * (max(b[i + 3], b[j + 3]) - min(b[i + 1], b[j + 1])))
        return (union - (b[i + 2] - b[i]) * (b[i + 3] - b[i + 1])
                - (b[j + 2] - b[j]) * (b[j + 3] - b[j + 1]) + ox * oy)

    def take_boxes(self):
        """How many dirty boxes there are; their (x, y, w, h) are in `boxes`. Clears them."""
        if not self.box_n:        # most frames draw nothing (the device loop reads box_n first)
            return 0
        if self.box_n > 1:
            self._settle()
        n = self.box_n
        b, out = self._box, self.boxes
        for i in range(0, 4 * n, 4):
            out[i], out[i + 1] = b[i], b[i + 1]
            out[i + 2], out[i + 3] = b[i + 2] - b[i], b[i + 3] - b[i + 1]
        self._clear()
        return n

    def _clear(self):
        """No dirty boxes: the hint names box 0, made one no rectangle is inside."""
        self.box_n = self._last = 0
        self._box[2] = 0
