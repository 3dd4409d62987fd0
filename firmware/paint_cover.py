"""The pass-and-play cover, drawn for firmware.paint_list (imported for a paint and let go)."""

from firmware.gfx import FELT, TEXT, TITLE, DIM, LARGE, MEDIUM
from firmware.paint import cols


def paint_cover(p, sc):
    """Pass the device to the player named (pass-and-play)."""
    c, s = p.c, p.c.size
    if not p._changed("cover", sc.player):
        return
    if p.trace is not None:
        p.trace.append(("cover", sc.seat))
    c.fill(FELT)
    name = sc.player[:cols(c) if s != LARGE else 14]
    if s == LARGE:
        c.text("Pass the device to", (c.width - 18 * 8) // 2, 20, TEXT)
        c.big(name, (c.width - 16 * len(name)) // 2, 40, TITLE)
        c.back(86, 72)
        c.back(110, 76)
        c.text("press any key", (c.width - 13 * 8) // 2, 116, DIM)
    elif s == MEDIUM:
        c.text("Pass to", (c.width - 56) // 2, 8, TEXT)
        c.text(name, (c.width - 8 * len(name)) // 2, 24, TITLE)
        c.small("PRESS ANY KEY", (c.width - 52) // 2, 50, TEXT)
    else:
        c.small("PASS TO", (c.width - 28) // 2, 4, TEXT)
        c.small(name, (c.width - 4 * len(name)) // 2, 16, TITLE)
        c.small("ANY KEY", (c.width - 28) // 2, 30, TEXT)
