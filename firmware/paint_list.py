"""The framebuf painter's lists (and the pass-and-play cover through firmware.paint_cover,
imported for a paint and let go), drawn for firmware.paint's Painter, which loads this
module while one shows and lets it go at the table (its code is not in the heap while the
table is played). Pages of text are firmware.paint_pages', a round's scores
firmware.paint_scores'."""

from engine.compat import const, forget
from firmware.gfx import (BG, CARD, INK, RED, HILITE, CURSOR, TEXT, WARN, TITLE,
                          CURSOR_INK, LARGE, MEDIUM, TINY)
from firmware.paint import _ROW_Y, _ROW_H, _LOGO_ROWS, list_cols
from firmware.paint_bars import title_bar, scroll_marks
forget("firmware.paint_bars")    # (kept by the names above while this module is)

_INSIDE = const(0)         # the canvas's `mark` argument: inside a rectangle just drawn
_LOGO_CARDS = (0x2b, 0x07, 0x1e, 0x38, 0x2c)   # J hearts, 7 clubs, A spades, 8 diamonds, Q hearts


def paint(p, sc):
    """Bring painter `p`'s canvas up to date with `sc` (a list, the cover)."""
    kind = sc.kind
    if kind == "cover":
        from firmware.paint_cover import paint_cover
        forget("firmware.paint_cover")
        paint_cover(p, sc)
    else:
        _list(p, sc)


def _list(p, sc):
    c, s = p.c, p.c.size
    if p._changed("bg", 1):
        c.fill(BG)
    title_bar(p, sc.title)
    logo = sc.name == "title" and s != TINY   # rows begin below it
    if logo:
        _logo(p)
    lines, items = sc.lines, sc.items
    width = list_cols(c) - (2 if sc.suits else 0)
    band = c.width - 4     # the rows leave the scroll marks' column alone
    for r in range(sc.fit):
        row = sc.top + r
        if row < len(lines):      # style 0, or -1 for a line in colour (see below)
            lit = sc.name == "title" or sc.name == "final" and row == 0
            key = (lines[row], -1 if lit else 0)
        elif row - len(lines) < len(items):
            i = row - len(lines)
            key = (items[i], 1 + (i == sc.cursor), sc.suits[i] if sc.suits else -1)
        else:
            key = None
        if not p._changed(r, key):
            continue
        y = (_LOGO_ROWS[s] if logo else _ROW_Y[s]) + r * _ROW_H[s]
        top = y if s == MEDIUM else y - 1
        c.rect(0, top, band, _ROW_H[s], CURSOR if key is not None and key[1] == 2 else BG)
        if key is None:
            continue
        text, style = key[0], key[1]
        x = 1 if s == TINY else 4
        role = CURSOR_INK if style == 2 else TEXT
        if style < 0:             # a notice ("Save damaged, starting fresh"), or the
            role = WARN if sc.name == "title" else HILITE   # winner heading the final
        if style > 0 and key[2] >= 0:
            _suit_chip(p, x, top, key[2])
            x += c.suit_size() + 5
        c.text(text[:width], x, y, role, _INSIDE)     # on its row
    scroll_marks(p, sc.top > 0, sc.top + sc.fit < sc.rows())


def _logo(p):
    """The title screen's name and a fan of cards."""
    c, s = p.c, p.c.size
    if not p._changed("logo", 1):
        return
    c.fill(BG)
    if s == LARGE:
        c.big("MAU-MAU", (c.width - 112) // 2, 6, TITLE)
        for i in range(5):
            c.card(70 + 20 * i, 28 + (4 if i in (0, 4) else 0), _LOGO_CARDS[i])
    else:
        c.text("MAU-MAU", (c.width - 56) // 2, 1, TITLE)
        for i in range(5):
            c.card(30 + 14 * i, 11, _LOGO_CARDS[i])


def _suit_chip(p, x, y, suit):
    """A suit on a small white chip (readable on any background), within the row at y."""
    c = p.c
    n = c.suit_size()
    c.rect(x, y, n + 4, min(n + 3, _ROW_H[c.size]), CARD)
    c.suit(x + 2, y + 1, suit, RED if suit >= 2 else INK)

