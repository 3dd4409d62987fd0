"""Find text in a screenshot: where a string in MicroPython's built-in 8x8 font was drawn.

For tests that check what a screen says (not just that a PNG exists): a match is an
8*len x 8 box whose pixels are exactly the glyphs' set bits in one colour, with no pixel
of that colour where the glyphs are blank. Screens drawn in the 3x5 tiny font (72x40)
are not found this way.
"""
from tools.sim.framebuf import FONT


def glyph_box(text):
    """(set, blank): the (dx, dy) offsets of the lit and the unlit pixels of `text`'s box."""
    lit, blank = [], []
    for i, ch in enumerate(text.encode()):
        ch = ch if 32 <= ch <= 127 else 127
        for col in range(8):
            bits = FONT[(ch - 32) * 8 + col]
            for row in range(8):
                (lit if bits >> row & 1 else blank).append((i * 8 + col, row))
    return lit, blank


def find_text(image, text):
    """Top-left corners (x, y) where `text` appears in the Pillow image, in reading order."""
    rgb = image.convert("RGB")
    width, height = rgb.size
    data = rgb.tobytes()
    lit, blank = glyph_box(text)
    if not lit:
        return []
    lit_at = [(dy * width + dx) * 3 for dx, dy in lit]
    blank_at = [(dy * width + dx) * 3 for dx, dy in blank]
    first = lit_at[0]
    checks = [(o, True) for o in lit_at[1:]] + [(o, False) for o in blank_at]
    checks.sort(key=lambda check: check[0])  # neighbours first: most places fail at once
    found = []
    for y in range(height - 7):
        for x in range(width - 8 * len(text) + 1):
            base = (y * width + x) * 3
            ink = data[base + first:base + first + 3]
            for offset, same in checks:
                if (data[base + offset:base + offset + 3] == ink) != same:
                    break
            else:
                found.append((x, y))
    return found


def shows(image, text):
    """True when `text` appears somewhere in the image."""
    return bool(find_text(image, text))
