"""Pages of text (the rules, a story, the statistics), drawn for firmware.paint's Painter
(imported for a paint and let go: the list screens' code is not loaded for them)."""

from engine.compat import forget
from firmware.gfx import BG, DIM, TEXT, MEDIUM, TINY
from firmware.paint import _ROW_Y, _ROW_H, list_cols
from firmware.paint_bars import title_bar
forget("firmware.paint_bars")    # (kept by the name above while this module is)


def paint_pages(p, sc):
    """The page shown, under its title, and which page of how many at the foot."""
    c, s = p.c, p.c.size
    if p._changed("bg", 1):
        c.fill(BG)
    title_bar(p, sc.title)
    lines = sc.lines      # the page shown
    for r in range(sc.fit):
        text = lines[r] if r < len(lines) else ""
        if p._changed(r, text):
            y = _ROW_Y[s] + r * _ROW_H[s]
            c.rect(0, y if s == MEDIUM else y - 1, c.width, _ROW_H[s], BG)
            c.text(text[:list_cols(c)], 1 if s == TINY else 4, y, TEXT)
    foot = "%d/%d OK" % (sc.page() + 1, sc.pages())
    if p._changed("foot", foot):
        y = c.height - (7, 8, 10)[s]
        c.rect(0, y, c.width, c.height - y, BG)
        c.small(foot, c.width - 4 * len(foot) - 2, y + s + 1, DIM)
