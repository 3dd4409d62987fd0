"""The displayio sprite sheet: every card part as an 8x8 tile of one Bitmap, and the palettes.

A card is 24x32 pixels, a TileGrid of 3x4 tiles: the rank (with the top-left corner),
a small suit under it, a big suit over the bottom-right 2x2 tiles, plain face tiles
elsewhere. Card backs and action tiles are whole 3x4 pictures. `build()` paints the
sheet once (about 2.7 KB of bitmap on a 4-bit CircuitPython Bitmap); drawing a card is
then setting twelve tile numbers. Colours are firmware.gfx's palette by role.
"""

import displayio

from engine.compat import const

TILE = const(8)
CARD_W = const(24)
CARD_H = const(32)
COLS = const(3)      # tiles across a card
ROWS = const(4)      # tiles down a card

# palette indexes of the sheet (and of every other displayio object)
CLEAR = const(0)     # transparent
BODY = const(1)      # card face
INK = const(2)
RED = const(3)
DIM = const(4)       # quiet text, a card's outline
BACK = const(5)
BACKPAT = const(6)
PANEL = const(7)
TEXT = const(8)
BG = const(9)
FELT = const(10)
BLACK = const(11)    # text on the cursor bar
HILITE = const(12)
CURSOR = const(13)
GOOD = const(14)
WARN = const(15)
COLOURS = const(16)

# 24-bit colours by index: firmware.gfx's PALETTE (RGB565) widened as Pillow does; CLEAR
# is never shown (host_tests/test_circuitpython.py checks them against gfx)
RGB = (0x000000, 0xfffaf6, 0x101010, 0xd51820, 0x7b797b, 0x293cac, 0x5a79e6, 0x083c18,
       0xeeeaee, 0x101818, 0x106131, 0x000000, 0xffd229, 0x29caff, 0x7be67b, 0xff7929)
# the shaded palette (a card that cannot be played now): gfx's SHADE body
SHADED = ((BODY, 0xbdbeb4),)

# tile numbers: 0 is transparent, then three whole 3x4 pictures, ranks, small and big suits
FACE = const(1)        # + row * 3 + col: a blank face tile
BACKSIDE = const(13)   # + row * 3 + col: the card's back
ACTION = const(25)     # + row * 3 + col: an action item's body (Draw, Pass, Mau, ...)
RANK = const(37)       # + (rank - 2) * 2 + red: the top-left tile with the rank
SMALL = const(63)      # + suit: the tile under the rank
BIG = const(67)        # + suit * 4 + quarter: the big suit over the bottom-right tiles
TEN = const(83)        # + red: the tile right of a 10's rank tile, with the rest of its 0
TILES = const(85)

# ranks 2..A, 7 rows of 7 bits (left pixel = bit 6), drawn from pixel (1, 1) of the tile;
# 10 is wider (below)
_RANKS = (b"\x1c\x22\x02\x0c\x10\x20\x3e", b"\x3e\x04\x08\x04\x02\x22\x1c",
          b"\x04\x0c\x14\x24\x3e\x04\x04", b"\x3e\x20\x3c\x02\x02\x22\x1c",
          b"\x0c\x10\x20\x3c\x22\x22\x1c", b"\x3e\x02\x04\x08\x10\x10\x10",
          b"\x1c\x22\x22\x1c\x22\x22\x1c", b"\x1c\x22\x22\x1e\x02\x04\x18",
          b"", b"\x0e\x04\x04\x04\x04\x24\x18",
          b"\x1c\x22\x22\x22\x2a\x24\x1a", b"\x22\x24\x28\x30\x28\x24\x22",
          b"\x08\x14\x22\x22\x3e\x22\x22")
# 10 as wide as two digits and a gap (9 bits, left pixel = bit 8) from pixel (2, 1): its 1
# is kept off the card's edge and its 0 runs on into the next tile
_TEN = (0x08e, 0x191, 0x091, 0x091, 0x091, 0x091, 0x1ce)
# suits (clubs, spades, hearts, diamonds): 7x7, left pixel = bit 6
_SUITS = (b"\x1c\x1c\x6b\x7f\x6b\x08\x1c", b"\x08\x1c\x3e\x7f\x7f\x08\x1c",
          b"\x36\x7f\x7f\x3e\x1c\x08\x00", b"\x08\x1c\x3e\x7f\x3e\x1c\x08")


def palette(shaded=False):
    """The shared palette (index 0 transparent); `shaded` greys the card colours."""
    pal = displayio.Palette(COLOURS)
    for i in range(COLOURS):
        pal[i] = RGB[i]
    if shaded:
        for i, rgb in SHADED:
            pal[i] = rgb
    pal.make_transparent(CLEAR)
    return pal


def _outline(x, y, body, edge, w=CARD_W, h=CARD_H):
    """The colour of card pixel (x, y): clear corners, an edge all round, the body inside."""
    right, bottom = w - 1, h - 1
    if (x == 0 or x == right) and (y == 0 or y == bottom):
        return CLEAR
    if x == 0 or y == 0 or x == right or y == bottom:
        return edge
    return body


def _back(x, y):
    """A card back: blue with a lattice inside a frame."""
    colour = _outline(x, y, BACK, DIM)
    if colour != BACK:
        return colour
    inside = 2 <= x <= CARD_W - 3 and 2 <= y <= CARD_H - 3
    frame = inside and (x in (2, CARD_W - 3) or y in (2, CARD_H - 3))
    lattice = 3 <= x <= CARD_W - 4 and 3 <= y <= CARD_H - 4 and (x % 4 == 0 or y % 4 == 0)
    return BACKPAT if frame or lattice else BACK


def _paint_picture(sheet, first, colour_at):
    """Cut a 24x32 picture (colour_at(x, y)) into 12 tiles from tile `first`."""
    for row in range(ROWS):
        for col in range(COLS):
            left = (first + row * COLS + col) * TILE
            for y in range(TILE):
                for x in range(TILE):
                    sheet[left + x, y] = colour_at(col * TILE + x, row * TILE + y)


def _copy_tile(sheet, src, dst):
    for y in range(TILE):
        for x in range(TILE):
            sheet[dst * TILE + x, y] = sheet[src * TILE + x, y]


def _glyph(sheet, tile, rows, x0, y0, colour, scale=1, width=7):
    """Set the lit pixels of a glyph `width` bits wide into a tile region (clipped to the tile)."""
    for gy in range(len(rows)):
        bits = rows[gy]
        for gx in range(width):
            if bits >> (width - 1 - gx) & 1:
                for dy in range(scale):
                    for dx in range(scale):
                        x, y = x0 + gx * scale + dx, y0 + gy * scale + dy
                        if 0 <= x < TILE and 0 <= y < TILE:
                            sheet[tile * TILE + x, y] = colour


def build():
    """The sheet: a Bitmap of TILES tiles of 8x8, painted once."""
    sheet = displayio.Bitmap(TILES * TILE, TILE, COLOURS)
    _paint_picture(sheet, FACE, lambda x, y: _outline(x, y, BODY, DIM))
    _paint_picture(sheet, BACKSIDE, _back)
    _paint_picture(sheet, ACTION, lambda x, y: _outline(x, y, PANEL, TEXT))
    for rank in range(2, 15):
        for red in range(2):
            tile = RANK + (rank - 2) * 2 + red
            _copy_tile(sheet, FACE, tile)
            if rank == 10:
                _copy_tile(sheet, FACE + 1, TEN + red)
                _glyph(sheet, tile, _TEN, 2, 1, RED if red else INK, 1, 9)
                _glyph(sheet, TEN + red, _TEN, 2 - TILE, 1, RED if red else INK, 1, 9)
            else:
                _glyph(sheet, tile, _RANKS[rank - 2], 1, 1, RED if red else INK)
    for suit in range(4):
        ink = RED if suit >= 2 else INK
        _copy_tile(sheet, FACE + COLS, SMALL + suit)
        _glyph(sheet, SMALL + suit, _SUITS[suit], 1, 1, ink)
        for quarter in range(4):
            qx, qy = quarter & 1, quarter >> 1
            tile = BIG + suit * 4 + quarter
            _copy_tile(sheet, FACE + (2 + qy) * COLS + 1 + qx, tile)
            _glyph(sheet, tile, _SUITS[suit], 1 - qx * TILE, 1 - qy * TILE, ink, 2)
    return sheet


def card_tiles(grid, card):
    """Set a 3x4 TileGrid to the face of `card` (suit in the high bits, rank 2..14 low)."""
    suit, rank = card >> 4, card & 15
    for i in range(COLS * ROWS):
        grid[i] = FACE + i
    grid[0] = RANK + (rank - 2) * 2 + (1 if suit >= 2 else 0)
    if rank == 10:
        grid[1] = TEN + (1 if suit >= 2 else 0)
    grid[COLS] = SMALL + suit
    grid[2 * COLS + 1] = BIG + suit * 4
    grid[2 * COLS + 2] = BIG + suit * 4 + 1
    grid[3 * COLS + 1] = BIG + suit * 4 + 2
    grid[3 * COLS + 2] = BIG + suit * 4 + 3


def picture_tiles(grid, first):
    """Set a 3x4 TileGrid to one of the whole pictures (BACKSIDE, ACTION)."""
    for i in range(COLS * ROWS):
        grid[i] = first + i
