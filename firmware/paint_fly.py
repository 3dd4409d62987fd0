"""A played card flies to the pile: firmware.paint_large's painter on a canvas that holds the
screen's pixels (firmware.gfx's), which the flight reads back to put them in place again.
firmware.paint.painter_for loads this module for that canvas alone; on firmware.direct's
canvas, a small heap's, the card lands at once.
"""

from engine.compat import const, ticks_diff
from firmware.paint import _HAND_X, _HAND_Y, _LIFT, _STEP
from firmware.paint_large import LargePainter

# a played card's way to the pile (on mono panels every step would cost the bus a card's
# pages twice): it is drawn halfway, then lands (each step more costs a move some 2 KB on
# the bus: a move would send more bytes than the still table did)
_FLIGHT_MS = const(120)
_FLIGHT_STEPS = const(2)
_LANDING = (110, 30)   # a hand card's place in the middle of the big top card
_LARGE = const(2)      # firmware.gfx.LARGE (a test keeps these as firmware.paint's)
_SEAT0 = const(200)    # firmware.paint's: the region of the opponents' bar's first seat


class FlyingPainter(LargePainter):
    """firmware.paint_large's painter whose played cards fly to the pile."""

    def __init__(self, canvas):
        LargePainter.__init__(self, canvas)
        self.flies = True
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
