"""The displayio painter: the screens of firmware/screens.py on a CircuitPython display.

It reads the same screen fields as firmware/paint.py (the framebuf painter) and keeps a
fixed set of displayio objects, built once: a group for lists and pages, one for the
pass-and-play cover, one for the table. Painting shows the screen's group and changes
only what differs from what is shown: a label's text or colour, a TileGrid's tiles or
palette, an object's place or visibility. Cards are TileGrids over one sprite sheet
(firmware/sheet_dio.py); text is bitmap_label on terminalio's 6x12 font. Layout for
160x128 (PyBadge, PyGamer); wider screens get more columns.
"""

import displayio
import terminalio
import vectorio
from adafruit_display_text import bitmap_label

from engine.compat import const, ticks_diff
from firmware import screens as S
from firmware import sheet_dio as T

CHAR_W = const(6)
LINE_H = const(12)
TITLE_H = const(14)
ROW_Y = const(15)       # top of a list's first row
LOGO_H = const(53)      # the title screen's logo: its name and a fan of cards
BAR_H = const(13)       # the table's opponents bar
STATUS_Y = const(49)
STATUS_FIT = const(3)   # lines between the table's middle and the raised card
MARK_COLS = const(4)    # a status line leaves room for the page mark ("2/3") and a gap
SLOT = const(26)        # a hand slot: a 24-pixel card and a gap
RAISE = const(4)        # the card under the cursor stands this much higher
MAX_OTHERS = const(5)
_NO_CARD = const(255)
SCORE_X = const(84)     # round end: where the cards held begin (after "Greta   30  45")
_FLIGHT_MS = const(120)   # a played card shows halfway to the pile this long, then lands
_TOP_X = const(44)
_TOP_Y = const(15)
_ACTION_WORDS = ("DRW", "PAS", "MAU", "CAT", "HNT", "MNU")   # 3 letters fit inside a tile's frame
_FACE_ACTION = const(256)   # slot face cache: 256 + item kind for an action tile
_LOGO_CARDS = (0x2b, 0x07, 0x1e, 0x38, 0x2c)   # as firmware/paint.py's: J hearts, 7 clubs, A spades, ...


def _label(group, x, y, colour, anchor_x=0.0, scale=1, spacing=1.25):
    """A bitmap_label anchored at its top (left, centre or right by anchor_x)."""
    label = bitmap_label.Label(terminalio.FONT, text=" ", color=T.RGB[colour], scale=scale,
                               anchor_point=(anchor_x, 0.0), anchored_position=(x, y),
                               line_spacing=spacing)
    group.append(label)
    return label


class DioPainter:
    """Draws screens with displayio objects made once; `root` is the display's root group."""

    def __init__(self, width=160, height=128):
        self.width, self.height = width, height
        self.list_fit = (height - ROW_Y) // LINE_H
        self.title_fit = (height - LOGO_H) // LINE_H
        self.cols = (width - 4) // CHAR_W
        self.hand_fit = (width - 2) // SLOT
        # what firmware.app sizes its screens by (list rows keep room for the scroll marks)
        self.sizes = S.Sizes(False, self.list_fit, self.title_fit, self.cols - 2,
                             self.cols - MARK_COLS, STATUS_FIT, self.hand_fit)
        self.sheet = T.build()
        self.pal = T.palette()
        self.pal_shaded = T.palette(True)
        self.pal_lit = T.palette()
        self.pal_lit[T.PANEL] = T.RGB[T.HILITE]
        self.screen = None
        self.trace = None    # tests: a list that receives ("hand", viewer, cards) and ("cover", seat)
        self.unsaved = False # the app: the flash refuses saves (the table shows NOT SAVED)
        self.updates = 0     # displayio objects changed so far (a figure for tests)
        self._traced = None
        self._cover_shown = None
        self.root = displayio.Group()
        self.bg = self._rect(self.root, 0, 0, width, height, T.BG)
        self._build_list()
        self._build_cover()
        self._build_table()
        self._build_scores()

    # --- building (once) -------------------------------------------------------------

    def _rect(self, group, x, y, w, h, colour):
        rect = vectorio.Rectangle(pixel_shader=self.pal, width=w, height=h, x=x, y=y,
                                  color_index=colour)
        group.append(rect)
        return rect

    def _grid(self, group, x, y, cols, rows):
        grid = displayio.TileGrid(self.sheet, pixel_shader=self.pal, width=cols, height=rows,
                                  tile_width=T.TILE, tile_height=T.TILE, x=x, y=y)
        group.append(grid)
        return grid

    def _build_list(self):
        w = self.width
        g = self.lists = displayio.Group()
        self.root.append(g)
        self._rect(g, 0, 0, w, TITLE_H, T.PANEL)
        self.title = _label(g, w // 2, 1, T.HILITE, 0.5)
        self.bar = self._rect(g, 0, ROW_Y, w, LINE_H, T.CURSOR)
        self.logo = []
        for i in range(len(_LOGO_CARDS)):
            card = self._grid(g, (w - 104) // 2 + 20 * i, 17 + (3 if i in (0, 4) else 0), T.COLS, T.ROWS)
            T.card_tiles(card, _LOGO_CARDS[i])
            self.logo.append(card)
        self.chips, self.rows = [], []
        for r in range(self.list_fit):
            y = ROW_Y + r * LINE_H
            self.chips.append(self._grid(g, 2, y + 2, 1, 1))
            self.rows.append(_label(g, 3, y, T.TEXT))
        self.mark_up = self._rect(g, w - 3, ROW_Y, 3, 3, T.HILITE)
        self.mark_down = self._rect(g, w - 3, self.height - 4, 3, 3, T.HILITE)
        self.foot = _label(g, w - 2, self.height - LINE_H, T.DIM, 1.0)

    def _build_cover(self):
        w = self.width
        g = self.cover = displayio.Group()
        self.root.append(g)
        _label(g, w // 2, 14, T.TEXT, 0.5).text = "Pass the device to"
        self.cover_name = _label(g, w // 2, 32, T.HILITE, 0.5, 2)
        T.picture_tiles(self._grid(g, w // 2 - 22, 62, T.COLS, T.ROWS), T.BACKSIDE)
        T.picture_tiles(self._grid(g, w // 2 - 2, 66, T.COLS, T.ROWS), T.BACKSIDE)
        _label(g, w // 2, self.height - 16, T.DIM, 0.5).text = "press any key"

    def _build_table(self):
        w = self.width
        g = self.table = displayio.Group()
        self.root.append(g)
        self._rect(g, 0, 0, w, BAR_H, T.PANEL)
        self.turn_mark = self._rect(g, 0, BAR_H - 2, 10, 2, T.HILITE)
        self.opponents = [_label(g, 2, -1, T.TEXT) for _ in range(MAX_OTHERS)]   # ink above the mark
        T.picture_tiles(self._grid(g, 4, 15, T.COLS, T.ROWS), T.BACKSIDE)
        self.pile = _label(g, 31, 35, T.TEXT)
        self.top = self._grid(g, _TOP_X, _TOP_Y, T.COLS, T.ROWS)
        self.wish_word = _label(g, 74, 14, T.TEXT)
        self.wish = self._grid(g, 78, 28, 2, 2)
        self.pending = _label(g, 102, 14, T.WARN, 0.0, 2)
        self.you = _label(g, w - 2, 14, T.HILITE, 1.0)
        self.direction = _label(g, w - 2, 30, T.DIM, 1.0)
        self.status = [_label(g, 2, STATUS_Y + i * LINE_H, T.TEXT) for i in range(STATUS_FIT)]
        self.not_saved = _label(g, w - 2, 40, T.WARN, 1.0)      # under the direction
        self.page = _label(g, w - 2, STATUS_Y + (STATUS_FIT - 1) * LINE_H, T.DIM, 1.0)
        self.hand_x = (w - self.hand_fit * SLOT) // 2 + 1
        self.hand_y = self.height - T.CARD_H - 6
        self.slots, self.words, self.fits = [], [], []
        self.faces = [-1] * (self.hand_fit + 1)
        for k in range(self.hand_fit):
            x = self.hand_x + k * SLOT
            self.slots.append(self._grid(g, x, self.hand_y, T.COLS, T.ROWS))
            self.words.append(_label(g, x + T.CARD_W // 2, self.hand_y + 4, T.TEXT, 0.5, 1, 0.9))
            self.fits.append(self._rect(g, x + 2, self.height - 5, T.CARD_W - 4, 2, T.GOOD))
        self.hint = self._rect(g, 0, self.height - 2, 4, 2, T.HILITE)
        self.frame = [self._rect(g, 0, 0, 1, 1, T.CURSOR) for _ in range(4)]
        y = self.hand_y + T.CARD_H // 2 - 3
        self.more_left = self._rect(g, 0, y, 2, 6, T.HILITE)
        self.more_right = self._rect(g, w - 2, y, 2, 6, T.HILITE)
        # a played card on its way to the pile, over everything; counts of the seats shown
        self.flight = self._grid(g, 0, 0, T.COLS, T.ROWS)
        self.flight.hidden = True
        self.flying = -1
        self._t0 = 0
        self.counts = bytearray(MAX_OTHERS + 1)
        self._last_table = None

    # --- changing only what differs ----------------------------------------------------

    def _text(self, label, text):
        """Set a label's text; no text hides it (bitmap_label would drop its TileGrid)."""
        self._show(label, bool(text))
        if text and label.text != text:
            label.text = text
            self.updates += 1

    def _colour(self, label, colour):
        rgb = T.RGB[colour]
        if label.color != rgb:
            label.color = rgb
            self.updates += 1

    def _show(self, obj, visible):
        if obj.hidden == visible:
            obj.hidden = not visible
            self.updates += 1

    def _place(self, obj, x, y):
        if obj.x != x or obj.y != y:
            obj.x, obj.y = x, y
            self.updates += 1

    def _anchor(self, label, x, y):
        """Move a label by its anchor (setting x and y would be undone by its next text)."""
        if tuple(label.anchored_position) != (x, y):
            label.anchored_position = (x, y)
            self.updates += 1

    def _size(self, rect, w, h):
        if rect.width != w or rect.height != h:
            rect.width, rect.height = w, h
            self.updates += 1

    def _paint_with(self, grid, pal):
        if grid.pixel_shader is not pal:
            grid.pixel_shader = pal
            self.updates += 1

    def _background(self, colour):
        if self.bg.color_index != colour:
            self.bg.color_index = colour
            self.updates += 1

    def _only(self, group):
        for g in (self.lists, self.cover, self.table, self.scores):
            self._show(g, g is group)

    # --- painting --------------------------------------------------------------------

    def let_go(self):
        """Nothing to let go of before a screen drawn on the next frame: the displayio
        groups are made once (firmware.paint's Painter forgets its keys and code)."""

    def paint(self, screen):
        """Bring the displayio objects up to date with `screen`."""
        if self.flying >= 0:       # anything to draw lands the flying card first
            self._land()
        self.screen = screen
        kind = screen.kind
        if kind == "table":
            self._table(screen)
        elif kind == "cover":
            self._cover(screen)
        elif kind == "scores":
            self._scores(screen)
        else:
            self._list(screen, kind == "pages")

    def _list(self, sc, pages):
        self._background(T.BG)
        self._only(self.lists)
        self._text(self.title, sc.title[:self.cols])
        lines = sc.lines
        items = () if pages else sc.items
        suits = None if pages else sc.suits
        title = sc.name == "title"
        for card in self.logo:
            self._show(card, title)
        top = self.height - self.title_fit * LINE_H - 1 if title else ROW_Y
        bar = -1
        for r in range(self.list_fit):
            row = r if pages else sc.top + r       # pages: `lines` are the page shown
            label, chip = self.rows[r], self.chips[r]
            y = top + r * LINE_H
            text, colour, suit = "", T.TEXT, -1
            on_screen = r < sc.fit and y + LINE_H <= self.height
            if on_screen and row < len(lines):
                text, colour = lines[row], (T.TEXT if pages else T.DIM)
            elif on_screen and row - len(lines) < len(items):
                i = row - len(lines)
                text = items[i]
                if i == sc.cursor:
                    bar, colour = r, T.BLACK
                if suits:
                    suit = suits[i]
            self._show(chip, suit >= 0)
            if suit >= 0:
                self._tile(chip, T.SMALL + suit)
                self._place(chip, 2, y + 2)
            self._anchor(label, 14 if suit >= 0 else 3, y)
            self._text(label, text[:self.cols - (2 if suit >= 0 else 0)])
            self._colour(label, colour)
        self._show(self.bar, bar >= 0)
        if bar >= 0:
            self._place(self.bar, 0, top + bar * LINE_H)
        self._show(self.mark_up, sc.top > 0)
        rows = len(lines) + len(items)
        self._show(self.mark_down, sc.top + sc.fit < rows and not pages)
        self._text(self.foot, "%d/%d OK" % (sc.page() + 1, sc.pages()) if pages else "")

    def _tile(self, grid, tile):
        if grid[0] != tile:
            grid[0] = tile
            self.updates += 1

    def _cover(self, sc):
        self._background(T.FELT)
        self._only(self.cover)
        name = sc.player[:self.width // (2 * CHAR_W)]
        if sc is not self._cover_shown and self.trace is not None:
            self.trace.append(("cover", sc.seat))
        self._cover_shown = sc
        self._text(self.cover_name, name)

    # --- the table -------------------------------------------------------------------

    def _table(self, sc):
        self._background(T.FELT)
        self._only(self.table)
        self._launch(sc)
        self._opponents(sc)
        self._middle(sc)
        for i in range(STATUS_FIT):
            at = sc.status_top + i
            self._text(self.status[i], sc.status[at] if at < len(sc.status) else "")
        pages = sc.status_pages()
        self._text(self.page, "%d/%d" % (sc.status_top // sc.status_fit + 1, pages)
                   if pages > 1 else "")
        self._unsaved()
        self._hand(sc)

    def _unsaved(self):
        """NOT SAVED below the status lines while the flash refuses saves."""
        self._text(self.not_saved, "NOT SAVED" if self.unsaved else "")

    # --- a played card's flight -----------------------------------------------------------

    def _launch(self, sc):
        """When a card was played, it sets off from where it was (the hand slot that showed
        it, else the seat whose count fell by one) and shows halfway to the pile."""
        was, card = self.faces[self.hand_fit], sc.top
        new = sc is not self._last_table      # a new round's table: nothing flies
        self._last_table = sc
        if new or was < 0 or was == card or card == _NO_CARD:
            self._seen(sc)
            return
        x = y = -1
        for slot in range(self.hand_fit):
            if self.faces[slot] == card and not self.slots[slot].hidden:
                x, y = self.slots[slot].x, self.slots[slot].y
        others = sc.players - 1
        for k in range(others if x < 0 else 0):
            p = (sc.viewer + 1 + k) % sc.players
            if self.counts[p] == sc.counts[p] + 1:
                width = self.width // others
                x, y = k * width + width // 2 - T.CARD_W // 2, 0
        self._seen(sc)
        if x < 0:
            return
        self.flying = card
        self._t0 = -1                 # its clock starts at the next frame
        T.card_tiles(self.flight, card)
        self._place(self.flight, (x + _TOP_X) // 2, (y + _TOP_Y) // 2)

    def _seen(self, sc):
        """Remember each seat's count, to tell next time who played."""
        for p in range(sc.players):
            self.counts[p] = sc.counts[p]

    def animate(self, now_ms):
        """Show the flying card halfway for a moment, then land it (the app's tick calls
        this every frame while `flying` holds a card)."""
        if self.flying < 0:
            return
        if self._t0 < 0:
            self._t0 = now_ms
            self._show(self.flight, True)
        elif ticks_diff(now_ms, self._t0) >= _FLIGHT_MS:
            self._land()
            self.paint(self.screen)         # the pile shows it

    def _land(self):
        """The flight ends: the flying card hidden (the pile is drawn next)."""
        self._show(self.flight, False)
        self.flying = -1

    def _opponents(self, sc):
        n = sc.players
        others = n - 1
        width = self.width // others if others > 0 else self.width
        marked = False
        for k in range(MAX_OTHERS):
            label = self.opponents[k]
            self._show(label, k < others)
            if k >= others:
                continue
            p = (sc.viewer + 1 + k) % n
            count = "%d%s" % (sc.counts[p], "!" if sc.mau[p] else "")
            room = max(1, width // CHAR_W - len(count) - 1)
            self._text(label, "%s %s" % (sc.names[p][:room], count))
            self._anchor(label, k * width + 2, -1)
            turn = p == sc.turn and not sc.over
            self._colour(label, T.HILITE if turn else T.TEXT)
            if turn:
                marked = True
                self._place(self.turn_mark, k * width + 1, self.turn_mark.y)
                self._size(self.turn_mark, width - 2, 2)
        self._show(self.turn_mark, marked)

    def _middle(self, sc):
        self._text(self.pile, "%d" % sc.draw_size)
        self._show(self.top, sc.top != _NO_CARD)
        if sc.top != _NO_CARD and self.flying < 0:   # flying: the pile shows the card below
            self._face(self.top, sc.top, self.pal, self.hand_fit)
        wish = sc.wish >= 0
        self._show(self.wish, wish)
        self._text(self.wish_word, "Wish" if wish else "")
        if wish:
            for q in range(4):
                if self.wish[q] != T.BIG + sc.wish * 4 + q:
                    self.wish[q] = T.BIG + sc.wish * 4 + q
                    self.updates += 1
        self._text(self.pending, "+%d" % sc.pending if sc.pending else "")
        self._text(self.direction, "->" if sc.direction > 0 else "<-")
        self._text(self.you, "YOU" if sc.my_turn else "")

    def _face(self, grid, card, pal, slot):
        """Show `card` on a 3x4 grid (tiles only when the card changed) with palette `pal`;
        faces[slot] remembers what the grid shows (slot hand_fit is the top card)."""
        if self.faces[slot] != card:
            T.card_tiles(grid, card)
            self.faces[slot] = card
            self.updates += 1
        self._paint_with(grid, pal)

    def _hand(self, sc):
        n = sc.item_n
        if self.trace is not None:
            seen = (sc.viewer, bytes(sc.hand[:sc.hand_n]))
            if seen[1] and seen != self._traced:
                self.trace.append(("hand", seen[0], seen[1]))
            self._traced = seen
        cursor_x = -1
        for slot in range(self.hand_fit):
            i = sc.scroll + slot
            grid, word, fit = self.slots[slot], self.words[slot], self.fits[slot]
            shown = i < n
            self._show(grid, shown)
            if not shown:
                self._show(word, False)
                self._show(fit, False)
                continue
            x = self.hand_x + slot * SLOT
            y = self.hand_y - RAISE if i == sc.cursor else self.hand_y
            self._place(grid, x, y)
            if i == sc.cursor:
                cursor_x = x
            self._item(sc, i, slot, grid, word, fit, y)
        self._cursor_frame(cursor_x, self.hand_y - RAISE)
        hint = sc.hint - sc.scroll
        self._show(self.hint, 0 <= sc.hint < n and 0 <= hint < self.hand_fit)
        if 0 <= hint < self.hand_fit:
            self._place(self.hint, self.hand_x + hint * SLOT + T.CARD_W // 2 - 2, self.hint.y)
        self._show(self.more_left, sc.scroll > 0)
        self._show(self.more_right, sc.scroll + self.hand_fit < n)

    def _item(self, sc, i, slot, grid, word, fit, y):
        """One slot of the hand row: a card (shaded when it does not fit) or an action tile."""
        kind, arg = sc.item_kind[i], sc.item_arg[i]
        if kind == S.CARD_ITEM:
            playable = sc.playable[arg]
            shaded = sc.my_turn and not playable
            self._face(grid, sc.hand[arg], self.pal_shaded if shaded else self.pal, slot)
            self._show(word, False)
            self._show(fit, sc.my_turn and playable)
            return
        lit = kind == S.MAU_ITEM and sc.mau_on
        if self.faces[slot] != _FACE_ACTION:
            T.picture_tiles(grid, T.ACTION)
            self.faces[slot] = _FACE_ACTION
            self.updates += 1
        self._paint_with(grid, self.pal_lit if lit else self.pal)
        self._show(fit, False)
        self._show(word, True)
        sym = _symbol(sc, kind, arg, lit)
        self._text(word, "%s\n%s%s" % (_ACTION_WORDS[kind - 1], " " * ((3 - len(sym)) // 2), sym))
        self._colour(word, T.BLACK if lit else T.TEXT)
        self._anchor(word, self.hand_x + slot * SLOT + T.CARD_W // 2, y + 4)

    def _cursor_frame(self, x, y):
        """Four thin rectangles round the raised card (hidden when the cursor is off the row)."""
        top, bottom, left, right = self.frame
        for rect in self.frame:
            self._show(rect, x >= 0)
        if x < 0:
            return
        w, h = T.CARD_W + 2, T.CARD_H + 2
        self._place(top, x - 1, y - 1)
        self._size(top, w, 1)
        self._place(bottom, x - 1, y + T.CARD_H)
        self._size(bottom, w, 1)
        self._place(left, x - 1, y - 1)
        self._size(left, 1, h)
        self._place(right, x + T.CARD_W, y - 1)
        self._size(right, 1, h)

    # --- round end -------------------------------------------------------------------

    def _build_scores(self):
        """Headings, then a row per player: a label (name, points, total) and a TileGrid
        of the cards held, a rank tile and a suit tile each (made once, like the rest)."""
        w = self.width
        g = self.scores = displayio.Group()
        self.root.append(g)
        self._rect(g, 0, 0, w, TITLE_H, T.PANEL)
        self.score_title = _label(g, w // 2, 1, T.HILITE, 0.5)
        self.score_heads = _label(g, 3, ROW_Y, T.DIM)
        self.score_left = _label(g, SCORE_X, ROW_Y, T.DIM)
        # cards a row shows, with room after them for "+2" (the ones that do not fit)
        self.score_fit = (w - 2 - SCORE_X - 3 * CHAR_W) // (2 * T.TILE)
        self.score_rows, self.score_cards, self.score_more = [], [], []
        for r in range(self.list_fit - 1):
            y = ROW_Y + (r + 1) * LINE_H
            self.score_rows.append(_label(g, 3, y, T.TEXT))
            self.score_cards.append(self._grid(g, SCORE_X, y + 2, 2 * self.score_fit, 1))
            self.score_more.append(_label(g, w - 2, y, T.DIM, 1.0))
        self.score_marks = (self._rect(g, w - 3, ROW_Y, 3, 3, T.HILITE),
                            self._rect(g, w - 3, self.height - 4, 3, 3, T.HILITE))

    def _scores(self, sc):
        """The rows of this page under the headings: "Greta  30  45" and the cards held
        ("+2" after them when they do not all fit)."""
        self._background(T.BG)
        self._only(self.scores)
        self._text(self.score_title, sc.title[:self.cols])
        heads = sc.heads
        self._text(self.score_heads, "%-6s%3s%4s" % (heads[0][:6], heads[1][:3], heads[2][:3]))
        self._text(self.score_left, heads[3][:(self.width - SCORE_X) // CHAR_W])
        fit = self.score_fit
        for r in range(len(self.score_rows)):
            label, grid, more = self.score_rows[r], self.score_cards[r], self.score_more[r]
            row = sc.top + r
            shown = r < sc.fit and row < len(sc.rows)
            self._show(grid, shown)
            if not shown:
                self._text(label, "")
                self._text(more, "")
                continue
            name, points, total, held = sc.rows[row]
            self._text(label, "%-6s%3d%4d" % (name[:6], points, total))
            n = min(len(held), fit)
            for i in range(fit):
                rank, suit = T.CLEAR, T.CLEAR
                if i < n:
                    card = held[i]
                    rank = T.RANK + ((card & 15) - 2) * 2 + (1 if card >> 4 >= 2 else 0)
                    suit = T.SMALL + (card >> 4)
                if grid[2 * i] != rank or grid[2 * i + 1] != suit:
                    grid[2 * i], grid[2 * i + 1] = rank, suit
                    self.updates += 1
            self._text(more, "+%d" % (len(held) - n) if n < len(held) else "")
        self._show(self.score_marks[0], sc.top > 0)
        self._show(self.score_marks[1], sc.top + sc.fit < len(sc.rows))


def _symbol(sc, kind, arg, lit):
    """The second line of an action tile: what it does at a glance."""
    if kind == S.DRAW_ITEM:
        return "+%d" % (sc.pending or 1)
    if kind == S.MAU_ITEM:
        return "ON" if lit else "OFF"
    if kind == S.CATCH_ITEM:
        return sc.names[arg][:3]
    if kind == S.HINT_ITEM:
        return "?"
    if kind == S.MENU_ITEM:
        return "="
    return "-"


def count_objects(group):
    """How many displayio objects hang under `group`, itself included (Groups, TileGrids,
    shapes; a bitmap_label counts as its Group and its TileGrid)."""
    n = 1
    if isinstance(group, displayio.Group):
        for child in group:
            n += count_objects(child)
    return n
