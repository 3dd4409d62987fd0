"""Find text in a screenshot: where a string was drawn in the 8x8 font or gfx's 3x5 one.

For tests that check what a screen says (not just that a PNG exists): a match is a box
of character cells whose pixels are exactly the glyphs' set bits in one colour, with no
pixel of that colour where the glyphs are blank. FONT_8X8 is MicroPython's built-in
font (framebuf.text); FONT_3X5 is firmware.gfx's tiny font (Canvas.small: 4x5 cells,
lower case drawn as upper case), used on the smallest screens.
"""
from tools.sim.framebuf import FONT

FONT_8X8 = "8x8"
FONT_3X5 = "3x5"

# gfx's 3x5 font, characters 32..95 (lower case drawn as upper case), as rows: two bytes
# a glyph, 15 bits, top row first, each row 3 bits with the left pixel highest (gfx keeps
# it as columns, as it stamps them; host_tests/test_gfx.py checks the two agree).
FONT_3X5_ROWS = (b"\x00\x00$\x82Z\x00_}<\x9eR\xa5*\xab$\x00\x14\x91D\x94\n\xa8\x05\xd0\x00"
                 b"\x14\x01\xc0\x00\x02\x12\xa4{o,\x97s\xe7s\xcf[\xc9y\xcfy\xefrR{\xef{\xcf"
                 b"\x04\x10\x04\x14\x15\x11\x0e8DTr\xc2+\xe3+\xedk\xae9#kny\xa7y\xa49k[\xed"
                 b"t\x97\x12j[\xadI'_\xedkm+jk\xa4+sk\xad8\x8et\x92[o[j[\xfdZ\xadZ\x92r\xa7"
                 b"i&H\x892K*\x00\x00\x07")


def _cells_8x8(text):
    for i, ch in enumerate(text.encode()):
        ch = ch if 32 <= ch <= 127 else 127
        for col in range(8):
            bits = FONT[(ch - 32) * 8 + col]
            for row in range(8):
                yield i * 8 + col, row, bool(bits >> row & 1)


def _cells_3x5(text):
    for i, ch in enumerate(text):
        code = ord(ch)
        code = code - 32 if 97 <= code <= 122 else code
        code = code if 32 <= code <= 95 else 63
        bits = FONT_3X5_ROWS[(code - 32) * 2] << 8 | FONT_3X5_ROWS[(code - 32) * 2 + 1]
        for row in range(5):
            line = bits >> (12 - 3 * row) & 7
            for col in range(4 if i < len(text) - 1 else 3):  # column 4: the gap to the next one
                yield i * 4 + col, row, col < 3 and bool(line >> (2 - col) & 1)


def glyph_box(text, font=FONT_8X8):
    """(lit, blank): the (dx, dy) offsets of the set and the unset pixels of `text`'s cells."""
    lit, blank = [], []
    cells = _cells_8x8(text) if font == FONT_8X8 else _cells_3x5(text)
    for dx, dy, on in cells:
        (lit if on else blank).append((dx, dy))
    return lit, blank


def find_text(image, text, font=FONT_8X8):
    """Top-left corners (x, y) where `text` appears in the Pillow image, in reading order."""
    lit, blank = glyph_box(text, font)
    return find_mask(image, lit, blank)


def find_mask(image, lit, blank):
    """Top-left corners (x, y) where the `lit` offsets (dx, dy) share one colour and no
    `blank` offset has it, in reading order."""
    if not lit:
        return []
    rgb = image.convert("RGB")
    width, height = rgb.size
    data = rgb.tobytes()
    lit_at = [(dy * width + dx) * 3 for dx, dy in lit]
    blank_at = [(dy * width + dx) * 3 for dx, dy in blank]
    first = lit_at[0]
    checks = [(o, True) for o in lit_at[1:]] + [(o, False) for o in blank_at]
    checks.sort(key=lambda check: check[0])  # neighbours first: most places fail at once
    box_w = max(dx for dx, _ in lit + blank) + 1
    box_h = max(dy for _, dy in lit + blank) + 1
    found = []
    for y in range(height - box_h + 1):
        for x in range(width - box_w + 1):
            base = (y * width + x) * 3
            ink = data[base + first:base + first + 3]
            for offset, same in checks:
                if (data[base + offset:base + offset + 3] == ink) != same:
                    break
            else:
                found.append((x, y))
    return found


def shows(image, text, font=FONT_8X8):
    """True when `text` appears somewhere in the image."""
    return bool(find_text(image, text, font))
