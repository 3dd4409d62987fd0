"""The Jack's suit picker over the table, drawn for firmware.paint's Painter (imported for
a paint and let go: the table never holds its code)."""

from firmware.gfx import FELT, CARD, INK, LARGE, MEDIUM
from firmware.paint import _HAND_X, _HAND_Y, _LIFT, _STEP, hand_fit


def paint_picker(p, sc):
    """The question and the suit under the cursor on the status lines, the suits beside
    them (240x135: the hand stays in sight) or on white cards in the hand row (128x64);
    the rest of the table stays as it was."""
    c, s = p.c, p.c.size
    p._status((sc.title, sc.items[sc.cursor]))
    p._page_mark(1, 1)
    if s == LARGE:
        p._suit_row(sc)
        return
    w, h = c.card_size()
    y0 = _HAND_Y[s]
    if p._changed("ends", -1):           # once: the hand row gives way to the suits
        top = y0 - 1 if s == MEDIUM else y0 - _LIFT[s] - 1   # (a raised card's frame)
        c.rect(0, top, c.width, c.height - top, FELT)
        p.keys["row"] = None                 # the row is looked at again after
        slots = p.keys.get("slots") or p._slots()
        for slot in range(hand_fit(c)):
            suit = sc.suits[slot] if slot < len(sc.suits) else -1
            # the table draws its slots again: -1 empty, -2 to -5 no table item's key
            slots[slot] = -2 - suit
            if suit >= 0:
                x = _HAND_X[s] + slot * _STEP[s]
                c.rect(x, y0, w, h, CARD)
                c.suit(x + (w - 7) // 2, y0 + (h - 7) // 2, suit, INK)
    p._arrow(sc.cursor)
