"""The title bar and the scroll marks of the screens off the table: imported by
firmware.paint_list and firmware.paint_scores, each of which keeps them while it is kept
(a round's scores are drawn without the list screens' code)."""

from firmware.gfx import BG, HILITE, CURSOR, PANEL, TITLE, CURSOR_INK
from firmware.paint import _ROW_Y, cols

TITLE_H = (7, 8, 14)       # per size class (TINY, MEDIUM, LARGE): the title bar's height


def title_bar(p, title):
    """The title bar; a new title is drawn over the old and the new text's width only
    (the setup's title explains the seat under the cursor: a step changes it)."""
    c, s = p.c, p.c.size
    old = p.keys.get("title")
    if not p._changed("title", title):
        return
    title = title[:cols(c)]
    x = max(0, (c.width - c.text_width(title)) // 2)
    if old is None:
        x0, x1 = 0, c.width
    else:
        old = old[:cols(c)]
        x0 = max(0, (c.width - c.text_width(old)) // 2)
        x1 = max(x0 + c.text_width(old), x + c.text_width(title))
        x0 = min(x0, x)
    c.rect(x0, 0, x1 - x0, TITLE_H[s], PANEL if c.depth == 4 else CURSOR)
    c.text(title, x, (1, 0, 3)[s], TITLE if c.depth == 4 else CURSOR_INK)


def scroll_marks(p, up, down):
    """Small arrows at the right edge when rows are hidden above or below."""
    c, s = p.c, p.c.size
    if not p._changed("marks", (up, down)):
        return
    x = c.width - 4
    top, bottom = _ROW_Y[s], c.height - 4
    c.rect(x, top, 4, 3, BG)
    c.rect(x, bottom, 4, 3, BG)
    if up:
        c.hline(x + 1, top, 1, HILITE)
        c.hline(x, top + 1, 3, HILITE)
    if down:
        c.hline(x, bottom + 1, 3, HILITE)
        c.hline(x + 1, bottom + 2, 1, HILITE)
