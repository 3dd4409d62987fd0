"""A round's scores, drawn for firmware.paint's Painter (imported for a paint and let go;
the list screens' code is not loaded for them)."""

from engine.compat import const, forget
from firmware.gfx import BG, CARD, INK, RED, DIM, TEXT, RANK_LABELS, LARGE, TINY
from firmware.paint import _ROW_Y, _ROW_H
from firmware.paint_bars import TITLE_H, title_bar, scroll_marks
forget("firmware.paint_bars")    # (kept by the names above while this module is)

_INSIDE = const(0)         # the canvas's `mark` argument: inside a rectangle just drawn
# round end, per size class: x of the names, right edges of the points and the totals,
# x of the held cards (72x40: the right edge of their count)
_SCORE_COLS = ((1, 32, 48, 67), (1, 49, 69, 72), (4, 104, 144, 152))


def paint_scores(p, sc):
    """The round's scores under their headings: name, points, total, and the cards each
    player held as small white chips (rank and suit); on 72x40 how many."""
    c, s = p.c, p.c.size
    if p._changed("bg", 1):
        c.fill(BG)
    title_bar(p, sc.title)
    scroll_marks(p, sc.top > 0, sc.top + sc.fit < len(sc.rows))
    if not p._changed("scores", sc.top):
        return
    y0, h = _ROW_Y[s], _ROW_H[s]
    top = max(y0 - 1, TITLE_H[s])       # the rows' band, below the title's
    c.rect(0, top, c.width - 4, c.height - top, BG)
    cols = _SCORE_COLS[s]
    text = c.text if s == LARGE else c.small
    heads = sc.heads
    c.small(heads[0], cols[0], y0 + 1, DIM)
    for k in (1, 2):
        c.small(heads[k], cols[k] - 4 * len(heads[k]), y0 + 1, DIM)
    c.small(heads[3], cols[3] - (4 * len(heads[3]) if s == TINY else 0), y0 + 1, DIM)
    cw = 8 if s == LARGE else 4
    for r in range(sc.fit):
        if sc.top + r >= len(sc.rows):
            break
        name, points, total, held = sc.rows[sc.top + r]
        y = y0 + (r + 1) * h + (0 if s == LARGE else 1)
        text(name[:(cols[1] - cols[0]) // cw - 2], cols[0], y, TEXT)
        for k, n in ((1, points), (2, total)):
            number = "%d" % n
            text(number, cols[k] - cw * len(number), y, TEXT)
        if s == TINY:
            number = "%d" % len(held)
            c.small(number, cols[3] - 4 * len(number), y, TEXT)
        else:
            _held(p, held, cols[3], y - 1, c.width - 5)


def _held(p, cards, x, y, right):
    """Cards as chips from x to `right` at y (a chip: the rank, then the suit); "+n"
    for those without room."""
    c = p.c
    n = len(cards)
    for i in range(n):
        w = 17 if cards[i] & 15 == 10 else 13
        rest = "+%d" % (n - i)
        if x + w > (right if i == n - 1 else right - 4 * len(rest)):
            c.small(rest, x, y + 2, DIM)
            return
        card = cards[i]
        ink = RED if card >> 4 >= 2 else INK
        c.rect(x, y, w, 8, CARD)
        c.small(RANK_LABELS[card & 15], x + 1, y + 2, ink, _INSIDE)   # on its chip
        c.suit(x + w - 8, y, card >> 4, ink)
        x += w + 1
