"""The 240x135 colour table's extras over firmware.paint's Painter: a played card flies to
the pile, an opponent's seat is redrawn in its parts, the suit picker shows its suits in a
row beside the question, and marks below the hand's cards say which can be played and
which the hint names. Only a colour board at 240x135 imports this module
(firmware.paint.painter_for); the mono panels' painter has none of it.
"""

from engine.compat import const, ticks_diff
from firmware.gfx import CARD, CURSOR, DIM, FELT, GOOD, HILITE, INK, PANEL, RED, TEXT, WARN
from firmware.paint import Painter, _HAND_X, _HAND_Y, _LIFT, _STEP

# a played card's way to the pile (on mono panels every step would cost the bus a card's
# pages twice): it is drawn halfway, then lands (each step more costs a move some 2 KB on
# the bus: a move would send more bytes than the still table did)
_FLIGHT_MS = const(120)
_FLIGHT_STEPS = const(2)
_LANDING = (110, 30)   # a hand card's place in the middle of the big top card
_SUITS_X = const(112)  # the suit picker's first suit, right of its status lines
_LARGE = const(2)      # firmware.gfx.LARGE (a test keeps these as firmware.paint's)
_INSIDE = const(0)     # firmware.paint's: a drawing inside a rectangle just marked
_SEAT0 = const(200)    # firmware.paint's: the region of the opponents' bar's first seat


class LargePainter(Painter):
    """firmware.paint's Painter with the 240x135 colour table's extras."""

    def __init__(self, canvas):
        Painter.__init__(self, canvas)
        self.flies = canvas.buf is not None   # not on firmware.direct's canvas (no pixels to read back)
        self.under_card = None   # while one flies: the pixels under it, put back each step
        self._from_x = self._from_y = self._step = self._at_x = self._at_y = self._t0 = 0

    def _launch(self, sc):
        """When a card was played, start its flight from where it was: the hand slot that
        showed it, else the seat whose count fell by one."""
        was = self.keys.get("top")
        card = sc.top
        if was is None or was == card or card == 255:
            return
        c, s = self.c, _LARGE
        slots = self.keys.get("slots") or self._slots()
        # a slot showed it if its key is the card's, raised or not (colour: never shaded),
        # which a scan in C finds (the marks' keys after the slots' are 0 to 3: a card 2 or 3
        # of clubs may seem found there, and the loop then looks at the slots alone)
        if card in slots or card | 1024 in slots:
            for slot in range(self._fit):
                key = slots[slot]
                if key is not None and 0 <= key < 4096 and key & 0xFF == card:   # a card
                    raised = _LIFT[s] if key >> 10 & 1 else 0     # under the cursor
                    self._fly(card, _HAND_X[s] + slot * _STEP[s], _HAND_Y[s] - raised)
                    return
        n = sc.players
        others = n - 1 if sc.viewer >= 0 else n
        for k in range(others):
            p = (sc.viewer + 1 + k) % n
            key = self.keys.get(_SEAT0 + k, -1)
            if key >> 12 == p and (key & 0x3FF) == sc.counts[p] + 1:
                w = c.width // others
                self._fly(card, k * w + w // 2 - 10, 0)
                return

    def _fly(self, card, x, y):
        """A card sets off from (x, y) to the pile; animate() draws it on its way. The pixels
        under it are kept for its flight only (a card's worth, 336 bytes, not kept between)."""
        import framebuf
        w, h = self.c.card_size()
        self.under_card = framebuf.FrameBuffer(bytearray((w + 1) // 2 * h), w, h,
                                               framebuf.GS4_HMSB)
        self.flying = card
        self._from_x, self._from_y = x, y
        self._step = -1          # not drawn yet; its clock starts at the next frame

    def animate(self, now_ms):
        """Move a played card a step on its way to the pile when its time has come (the
        app's tick calls this every frame while `flying` holds a card)."""
        if self.flying < 0:
            return
        if self._step < 0:
            self._t0 = now_ms
        step = 1 + ticks_diff(now_ms, self._t0) * (_FLIGHT_STEPS - 1) // _FLIGHT_MS
        if step == self._step:
            return
        if step >= _FLIGHT_STEPS:
            self._land()
            self.paint(self.screen)        # the pile shows it
            return
        self._lift()
        self._step = step
        fx, fy = self._from_x, self._from_y
        x = fx + (_LANDING[0] - fx) * step // _FLIGHT_STEPS
        y = fy + (_LANDING[1] - fy) * step // _FLIGHT_STEPS
        self._at_x, self._at_y = x, y
        self.under_card.blit(self.c.fb, -x, -y)     # what the card covers, for the next step
        self.c.card(x, y, self.flying)

    def _lift(self):
        """Put back the pixels the flying card covered (if it is drawn)."""
        if self._step >= 0:
            w, h = self.c.card_size()
            self.c.fb.blit(self.under_card, self._at_x, self._at_y)
            self.c.mark(self._at_x, self._at_y, w, h)

    def _land(self):
        """The flight ends: the card off the table (the pile is drawn next)."""
        self._lift()
        self.flying = -1
        self.under_card = None

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
