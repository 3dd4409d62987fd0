"""The framebuf painter: draws the screens of firmware/screens.py on a firmware.gfx.Canvas.

It redraws only what changed: each region of a screen remembers the key (the values it
was drawn from) and is drawn again only when its key differs. A new screen clears all.
Layouts come in three size classes: LARGE (240x135), MEDIUM (128x64), TINY (72x40).
"""

from engine.compat import const, forget
from firmware import gfx
from firmware.gfx import (FELT, CARD, INK, RED, DIM, HILITE, CURSOR, TEXT, PANEL,
                          WARN, CURSOR_INK, LARGE, MEDIUM, TINY)
from firmware import screens as S

# per size class (TINY, MEDIUM, LARGE): a list's row top, row height. A row's
# band starts a line above its text, except on the 128x64 OLED, where a row is one page
# of the panel's RAM (8 lines): a row drawn again changes one page, not the two a row
# straddling pages would (the I2C driver sends only changed bytes)
_ROW_Y = (8, 8, 18)
_ROW_H = (7, 8, 12)
# table: hand slot step, hand row x, normal card y, status y, status line height
_STEP = (10, 14, 22)
_HAND_X = (1, 4, 10)
_HAND_Y = (27, 45, 98)
_LIFT = (2, 2, 5)   # how far the cursor raises its card
# 128x64: the cursor is instead an arrow this tall above its card: a raised card changes
# every byte of two cards' columns on a step (some 80 bytes at 400 kHz), the arrow 14
_ARROW = const(4)
_STATUS_Y = (19, 27, 70)   # 128x64: each of the two lines within one page (3 and 4)
_STATUS_H = (5, 6, 10)     # 72x40: the hand row's column begins right below
_STATUS_FIT = (1, 2, 2)
# the page mark of a status text of several pages: "2/3" at the right end of the last line,
# in room the lines leave it (72x40: an arrow, the pages come round; 128x64: an arrow
# below the lines' end, in the cursor arrow's strip: lines a character shorter paged more
# often and cost the I2C bus bytes)
_MARK_W = (4, 0, 16)
_BAR_H = (7, 7, 20)        # the opponents' bar: a line of text and a pixel round it
_LOGO_ROWS = (8, 32, 66)
_UNSAVED_AT = ((56, 14), (88, 21), (180, 59))   # the NOT SAVED mark, in the rest's area
# the hand row's item kinds (firmware.screens' CARD_ITEM, DRAW_ITEM, MAU_ITEM, CATCH_ITEM:
# read privately in the hot loop; a test checks they match)
_CARD = const(0)
_DRAW = const(1)
_MAU = const(3)
_CATCH = const(4)
# the canvas's `mark` argument for a drawing inside a rectangle its part has just drawn (and
# marked): no mark of its own
_INSIDE = const(0)
_SEAT0 = const(200)    # region of the opponents' bar's first seat
# the table's middle per size class: its rows (y, h), the draw pile's back (x, y), and the
# (x, y, w, h) areas of the pile's count, the top card, the wished suit and the rest
_MID_Y = ((7, 12), (8, 18), (20, 48))
_PILE_AT = ((0, 7), (2, 8), (30, 26))
_COUNT_AT = ((10, 10, 12, 5), (17, 14, 12, 5), (24, 57, 32, 8))
_TOP_AT = ((27, 7, 9, 12), (42, 8, 13, 18), (105, 23, 30, 42))
_WISH_AT = ((38, 7, 7, 7), (61, 9, 11, 10), (148, 26, 18, 25))
_REST_AT = ((46, 7, 26, 12), (76, 8, 52, 18), (180, 24, 60, 42))
# its parts: whose turn, the pending draws (up to "+99"), the direction of play
_TURN_AT = ((62, 11, 8, 5), (104, 9, 16, 12), (196, 24, 40, 15))
_PENDING_AT = ((47, 8, 12, 5), (76, 9, 24, 8), (180, 41, 48, 16))
_WAY_AT = ((47, 14, 4, 5), (76, 20, 8, 5), (222, 58, 16, 8))
_TILE_LABELS = (("", "P", "M", "", "?", "="),      # 72x40: one symbol (Draw: +n, Catch: "I!")
                ("DRW", "PAS", "MAU", "CAT", "HNT", "MNU"),
                ("DRAW", "PASS", "MAU", "CTCH", "HINT", "MENU"))   # 4 letters in a tile's frame


def list_fit(canvas):
    """Rows a list screen has room for."""
    s = canvas.size
    return (canvas.height - _ROW_Y[s]) // _ROW_H[s]


def title_fit(canvas):
    """Rows the title screen has room for below its logo."""
    s = canvas.size
    if s == TINY:
        return list_fit(canvas)
    return (canvas.height - _LOGO_ROWS[s]) // _ROW_H[s]


def cols(canvas):
    """Characters a text line has room for."""
    return canvas.width // canvas.cw


def list_cols(canvas):
    """Characters a list row has room for (a margin on the left, scroll marks on the right)."""
    return (canvas.width - (5 if canvas.size == TINY else 8)) // canvas.cw


def status_cols(canvas):
    """Characters a table status line has room for beside the page mark (the medium screen
    uses the 3x5 font)."""
    s = canvas.size
    return (canvas.width - _MARK_W[s]) // (4 if s != LARGE else 8)


def status_fit(canvas):
    """Status lines the table shows at once."""
    return _STATUS_FIT[canvas.size]


def hand_fit(canvas):
    """Slots the table's hand row shows at once."""
    s = canvas.size
    return (canvas.width - 2 * _HAND_X[s]) // _STEP[s]


def painter_for(canvas):
    """The painter for `canvas`: at 240x135 in colour firmware.paint_large's choice, with the
    table's extras that only that screen has (a mono panel's loads none of their code)."""
    if canvas.depth == 4 and canvas.size == LARGE:
        from firmware.paint_large import painter_for as colour_painter   # (no new names here)
        return colour_painter(canvas)
    return Painter(canvas)


class Painter:
    """Draws screens onto one canvas, region by region, only where something changed."""

    def __init__(self, canvas):
        self.c = canvas
        self.screen = None
        self.under = None    # the table a suit picker is drawn over (240x135, 128x64)
        self.keys = {}
        self.trace = None    # tests: a list that receives ("hand", viewer, cards) and ("cover", seat)
        self.unsaved = False # the app: the flash refuses saves (the table shows NOT SAVED)
        self.flying = -1     # the card on its way to the pile, or -1 (paint_fly's)
        self.flies = False   # played cards fly to the pile (paint_fly's, in colour)
        self._card = canvas.card_size()      # a hand card's (w, h)
        self._fit = hand_fit(canvas)

    def paint(self, screen):
        """Bring the canvas up to date with `screen`."""
        if self.flying >= 0:      # anything to draw lands the flying card first
            self._land()
        if screen is not self.screen:
            last = self.screen
            # the Jack's suit picker is drawn over the table, the hand in sight on 240x135 (on
            # 128x64 a screen of its own would change every byte of the panel twice)
            if (screen.name == "picker" and self.c.size != TINY and last is not None
                    and last.kind == "table"):
                self.under = last
            else:
                if screen is self.under:       # back to the table under a picker: keys kept,
                    if self.c.size == LARGE:   # but its status lines drawn whole (the suits)
                        self.keys["status"] = None
                elif not self._alike(last, screen):
                    self.keys = {}
                self.under = None
            self.screen = screen
            if screen.kind == "table":
                forget("firmware.paint_list")   # the list screens' code leaves the heap
        kind = screen.kind
        if self.under is not None:     # the Jack's suit picker: its code while drawn
            from firmware.paint_picker import paint_picker
            forget("firmware.paint_picker")
            paint_picker(self, screen)
        elif kind == "table":
            self._table(screen)
        elif kind == "scores":   # drawn seldom: their code only while they are drawn
            from firmware.paint_scores import paint_scores
            forget("firmware.paint_scores")
            paint_scores(self, screen)
        elif kind == "pages":    # the rules, a story: their code only while drawn
            from firmware.paint_pages import paint_pages
            forget("firmware.paint_pages")
            paint_pages(self, screen)
        else:                    # lists, the cover: their code loaded while one shows
            from firmware.paint_list import paint
            paint(self, screen)

    def let_go(self):
        """Forget the screen drawn last, its regions' keys and the list screens' code: the
        next screen is made on this frame and drawn on the next, which loads the code again
        (the old screen and that code need not be in the heap while the new one is made)."""
        if self.flying < 0:
            self.screen = self.under = None
            self.keys = {}
        forget("firmware.paint_list")

    def _alike(self, last, screen):
        """True when `screen` is a list laid out as `last` was (the final table, then the
        setup): its rows are drawn over the old ones, a row the same kept, not the screen
        cleared (the title's rows are below its logo, the picker's hold suits)."""
        return (last is not None and last.kind == screen.kind == "list"
                and last.fit == screen.fit and last.name != "title" and screen.name != "title"
                and not last.suits and not screen.suits)

    def _slots(self):
        """A new list for the region "slots" (callers read `keys.get("slots") or _slots()`):
        the keys of what each slot of the hand row shows, then of the marks below each
        (colour). A list is read by index, cheaper than the dict on every paint."""
        slots = self.keys["slots"] = [None] * (2 * self._fit)
        return slots

    def _changed(self, region, key):
        """True (and remember `key`) when `region` was drawn from something else."""
        if self.keys.get(region) == key:
            return False
        self.keys[region] = key
        return True

    # --- the table -------------------------------------------------------------------

    def _table(self, sc):
        # run on every paint: the keys of the parts that seldom change are checked inline
        # here and in the parts' own first lines (a call of _changed each would cost)
        keys = self.keys
        if self.flies:
            self._launch(sc)
        if keys.get("felt") != 1:
            keys["felt"] = 1
            self.c.fill(FELT)
        self._opponents(sc)
        self._middle(sc)
        top = sc.status_top
        self._status(tuple(sc.status[top:top + _STATUS_FIT[self.c.size]]))
        if keys.get("unsaved") != self.unsaved:
            self._unsaved()
        self._page_mark(top // sc.status_fit + 1, sc.status_pages())
        self._hand(sc)

    def _opponents(self, sc):
        """The bar of the other seats, seat by seat: a move redraws the seats it changed."""
        keys = self.keys
        if keys.get("bar") == sc.shown:   # all it shows is set when the screen takes a view
            return
        keys["bar"] = sc.shown
        c, s = self.c, self.c.size
        n, viewer = sc.players, sc.viewer
        h = _BAR_H[s]
        if keys.get("opp") != n << 4 | viewer + 1:
            keys["opp"] = n << 4 | viewer + 1
            c.rect(0, 0, c.width, h, PANEL)
        others = n - 1 if viewer >= 0 else n    # nobody's hand shown: every seat
        if others <= 0:
            return
        w = c.width // others
        turn = -1 if sc.over else sc.turn
        counts, mau = sc.counts, sc.mau
        for k in range(others):
            p = (viewer + 1 + k) % n
            # one int: who sits there (names stay with the screen), whose turn, Mau, cards
            key = p << 12 | (p == turn) << 11 | mau[p] << 10 | counts[p]
            was = keys.get(_SEAT0 + k)
            if was == key:
                continue
            keys[_SEAT0 + k] = key
            if s == LARGE and was is not None and (was ^ key) >> 12 == 0:
                self._seat_parts(sc, p, k * w, w, was ^ key, p == turn, was & 0x3FF)
            else:
                c.rect(k * w, 0, w, h, PANEL)
                self._seat(sc, p, k * w, w, h, p == turn)

    def _seat(self, sc, p, x, w, h, turn):
        """One opponent: name (lit, with a line over it, while it is their turn), cards left,
        Mau mark."""
        c, s = self.c, self.c.size
        name = sc.names[p]
        if s == LARGE:
            self._seat_parts(sc, p, x, w, 0xFFF, turn)
        else:
            label = "%s %d%s" % (name[:3] if s == MEDIUM else name[:1], sc.counts[p],
                                 "!" if sc.mau[p] else "")
            if 4 * len(label) > w:
                label = label.replace(" ", "")
            if turn:
                c.rect(x, 0, 4 * len(label) + 2, h, CURSOR)
            c.small(label, x + 1, 1, CURSOR_INK if turn else TEXT)

    def _middle(self, sc):
        """Draw pile, top card, wished suit, and the rest (pending draws, direction, whose
        turn), each part redrawn only when it changed."""
        c, s = self.c, self.c.size
        # while a played card flies to the pile the pile shows the card it covers
        top = sc.top if self.flying < 0 else self.keys["top"]
        mine = sc.viewer + 1 if sc.my_turn else 0          # whose turn, when it is ours
        # all of it as one int (pile < 256, top card, wish, pending < 64, direction, seat)
        whole = (sc.draw_size | top << 8 | (sc.wish + 1) << 16 | sc.pending << 19
                 | (sc.direction > 0) << 25 | mine << 26)
        if self.keys.get("middle") == whole:
            return
        self.keys["middle"] = whole
        if self._changed("mid", 1):
            y, h = _MID_Y[s]
            c.rect(0, y, c.width, h, FELT)
            c.back(*_PILE_AT[s])
        if self._changed("pile", sc.draw_size):
            self._clear(_COUNT_AT[s], FELT)
            count = "%d" % sc.draw_size
            if s == LARGE:
                c.text(count, 40 - 4 * len(count), 57, TEXT)
            else:
                c.small(count, _COUNT_AT[s][0], _COUNT_AT[s][1], TEXT)
        if self._changed("top", top):
            area = _TOP_AT[s]
            self._clear(area, FELT)
            if sc.top != 255:
                c.card(area[0], area[1], sc.top, gfx.NORMAL, s == LARGE, _INSIDE)
        if self._changed("wish", sc.wish):
            self._clear(_WISH_AT[s], FELT)
            if sc.wish >= 0:
                self._wish(sc.wish)
        self._rest(sc, mine)

    def _unsaved(self):
        """NOT SAVED (72x40: "!" by the direction) while the flash refuses saves; in the
        rest's area, beside its parts."""
        c, s = self.c, self.c.size
        if not self._changed("unsaved", self.unsaved):
            return
        x, y = _UNSAVED_AT[s]
        mark = "!" if s == TINY else "NOT SAVED"
        c.rect(x, y, 4 * len(mark), 5, FELT)
        if self.unsaved:
            c.small(mark, x, y, WARN)

    def _clear(self, area, role):
        """Fill an (x, y, w, h) area with a role."""
        self.c.rect(area[0], area[1], area[2], area[3], role)

    def _wish(self, suit):
        """The suit a Jack wished for, on a white chip."""
        c, s = self.c, self.c.size
        ink = RED if suit >= 2 else INK
        if s == LARGE:
            c.small("WISH", 148, 26, TEXT)
            c.rect(148, 33, 18, 18, CARD)
            c.suit(150, 35, suit, ink, 2)
        elif s == MEDIUM:
            c.rect(61, 9, 11, 10, CARD)
            c.suit(63, 10, suit, INK)
        else:
            c.rect(38, 7, 7, 7, CARD)
            c.suit(39, 8, suit, INK)

    def _rest(self, sc, mine):
        """Whose turn it is (`mine`: the viewer's seat + 1 when it is theirs, else 0), the
        pending draws and the direction of play, each part drawn again only when it changed
        (a turn change redraws the first alone)."""
        c, s = self.c, self.c.size
        if self._changed("turn", mine):
            self._clear(_TURN_AT[s], FELT)
            name = sc.names[sc.viewer][:5].upper() if mine else ""
            if name:                # the holder's name (pass-and-play) and "your turn", in
                if s == LARGE:      # the area just cleared
                    c.text(name, 236 - 8 * len(name), 24, HILITE, _INSIDE)
                    c.small("YOUR TURN", 200, 34, TEXT, _INSIDE)
                elif s == MEDIUM:
                    c.small("YOUR", 104, 9, TEXT, _INSIDE)
                    c.small("TURN", 104, 16, TEXT, _INSIDE)
                else:
                    c.small("GO", 62, 11, TEXT, _INSIDE)
        if self._changed("pending", sc.pending):
            self._clear(_PENDING_AT[s], FELT)
            if sc.pending:
                if s == LARGE:
                    c.big("+%d" % sc.pending, 180, 41, WARN)
                elif s == MEDIUM:
                    c.text("+%d" % sc.pending, 76, 9, WARN)
                else:
                    c.small("+%d" % sc.pending, 47, 8, TEXT)
        if self._changed("way", sc.direction > 0):
            self._clear(_WAY_AT[s], FELT)
            ahead = sc.direction > 0
            if s == LARGE:
                c.text("->" if ahead else "<-", 222, 58, DIM)
            elif s == MEDIUM:
                c.small(">>" if ahead else "<<", 76, 20, TEXT)
            else:
                c.small(">" if ahead else "<", 47, 14, TEXT)

    def _status(self, lines):
        """The status lines: a changed line is cleared only as far as its old or new text
        reaches (the rest of the line is table already)."""
        c, s = self.c, self.c.size
        fit = _STATUS_FIT[s]
        old = self.keys.get("status")
        if old == lines:
            return
        self.keys["status"] = lines
        h, y = _STATUS_H[s], _STATUS_Y[s]
        if old is None:
            top = y - (s != TINY)     # 72x40: the table's middle ends right above
            c.rect(0, top, c.width, y + fit * h - top, FELT)
        cw = 8 if s == LARGE else 4
        for i in range(fit):
            line = lines[i] if i < len(lines) else ""
            if old is not None:
                was = old[i] if i < len(old) else ""
                if line == was:
                    continue
                c.rect(0, y + i * h, cw * max(len(line), len(was)), h, FELT)
            if s == LARGE:
                c.text(line, 0, y + i * h, TEXT, _INSIDE)
            else:
                c.small(line, 0, y + i * h, TEXT, _INSIDE)

    def _page_mark(self, page, pages):
        """Which page of the status text shows ("2/3"; mono: an arrow, the text pages round),
        at the right end of the last status line; nothing for a text of one page."""
        c, s = self.c, self.c.size
        key = (page << 8 if s == LARGE else 0) | (pages if pages < 2 else 2)
        if self.keys.get("page") == key:
            return
        self.keys["page"] = key
        x = c.width - (_MARK_W[s] or 4)
        if s == MEDIUM:
            y, rows = _HAND_Y[s] - 1 - _ARROW, 3
        else:           # the 3x5 font's rows, on the 8x8 text's baseline
            y, rows = _STATUS_Y[s] + (_STATUS_FIT[s] - 1) * _STATUS_H[s] + (2 if s == LARGE else 0), 5
        c.rect(x, y, c.width - x, rows, FELT)
        if pages < 2:
            return
        if s == LARGE:
            c.small("%d/%d" % (page, pages), x, y, DIM)
        else:
            for r in range(rows // 2 + 1):    # a small triangle pointing right
                c.rect(x + r, y + r, 1, rows - 2 * r, DIM)

    def _hand(self, sc):
        """The hand row, slot by slot: a slot is drawn again only when what it shows changed
        (a cursor step redraws two cards, or on the 128x64 OLED only moves the arrow)."""
        # what the row shows follows from the screen's arrays, which change only when it
        # takes a view (`shown`), and these numbers (each under 128; pending under 64): when
        # none changed, there is no slot to look at (most paints: 70% in the bench's game)
        keys = self.keys
        row = sc.shown << 8 | sc.item_n
        look = (sc.scroll << 22 | sc.cursor << 15 | (sc.hint + 1) << 8 | sc.pending << 2
                | sc.my_turn << 1)
        if keys.get("row") == row and keys.get("look") == look:
            return
        keys["row"], keys["look"] = row, look
        c, s = self.c, self.c.size
        n = sc.item_n
        w, h = self._card
        y0 = _HAND_Y[s]
        arrow = _ARROW if s == MEDIUM else 0
        top = y0 - 1 if arrow else y0 - _LIFT[s] - 1
        fit = self._fit
        drawn = first_drawn = False
        # what each slot looks like, as one int (run on every paint: locals, no calls)
        kinds, args, hand, playable = sc.item_kind, sc.item_arg, sc.hand, sc.playable
        mine, scroll = sc.my_turn, sc.scroll
        slots = keys.get("slots") or self._slots()
        raised = -1 if arrow else sc.cursor   # the item drawn raised, with the cursor's frame
        # colour screens mark the playable cards below them (a turn change then redraws that
        # strip, not the row); mono screens shade the others, on the cards themselves
        marks = c.depth == 4
        good = mine and marks
        shade = mine and not marks
        hint = sc.hint if s == LARGE else -1  # a mark only where there is room (see _marks)
        bottom = y0 + h if marks else c.height   # a slot's column: the marks' strip is apart
        i = scroll
        for slot in range(fit):
            key = -1
            mark = 0
            if i < n:
                kind = kinds[i]
                if kind == _CARD:
                    fits = playable[args[i]]
                    key = hand[args[i]] | (shade and not fits) << 8 | (i == raised) << 10
                    mark = good and fits
                else:                   # a tile: the cards to draw, Mau on or off, whom
                    look = 0            # to catch
                    if kind == _DRAW:
                        look = sc.pending
                    elif kind == _MAU:
                        look = sc.mau_on
                    elif kind == _CATCH:
                        look = c.first_code(sc.names[args[i]])   # its letter
                    key = kind << 12 | (i == raised) << 10 | look
                if i == hint:
                    mark |= 2
            if slots[slot] != key:
                slots[slot] = key
                if not drawn and self.trace is not None and sc.hand_n:
                    self.trace.append(("hand", sc.viewer, bytes(sc.hand[:sc.hand_n])))
                drawn = True
                x = _HAND_X[s] + slot * _STEP[s]
                c.rect(x - 1, top, _STEP[s], bottom - top, FELT)   # the slot's column
                first_drawn = first_drawn or slot == 0
                if i < n:
                    self._slot(sc, i, x, y0, w, h)
            if marks and slots[fit + slot] != mark:
                slots[fit + slot] = mark
                self._marks(_HAND_X[s] + slot * _STEP[s], y0 + h, w, mark)
            i += 1
        if arrow:
            at = sc.cursor - scroll
            self._arrow(at if sc.cursor < n and 0 <= at < fit else -1)
        # scroll marks at the edges (on the tiny screen the left one is in slot 0's column)
        ends = (scroll > 0) | (scroll + fit < n) << 1
        if keys.get("ends") != ends or first_drawn and s == TINY:   # (only there in a column)
            keys["ends"] = ends
            mid = y0 + h // 2 - 2
            edge = 1 if s != LARGE else 3
            c.rect(0, mid, edge, 5, HILITE if ends & 1 else FELT)
            c.rect(c.width - edge, mid, edge, 5, HILITE if ends & 2 else FELT)

    def _arrow(self, slot):
        """The cursor's arrow above the card in `slot` (-1: none), where the cursor is one."""
        c, s = self.c, self.c.size
        if self.keys.get("arrow") == slot:       # (128x64: on every paint)
            return
        self.keys["arrow"] = slot
        rows = _ARROW
        y = _HAND_Y[s] - 1 - rows
        c.rect(0, y, c.width - 4, rows, FELT)  # only the old arrow's bytes change (not the page mark's)
        if slot >= 0:
            x = _HAND_X[s] + c.card_size()[0] // 2 + slot * _STEP[s] - rows + 1
            for r in range(rows):              # in the strip just cleared
                c.hline(x + r, y + r, 2 * (rows - r) - 1, CURSOR, _INSIDE)

    def _slot(self, sc, i, x, y0, w, h):
        """Hand item i at column x: a card face or an action tile, its marks and the cursor."""
        c, s = self.c, self.c.size
        arrow = s == MEDIUM
        y = y0 - _LIFT[s] if i == sc.cursor and not arrow else y0
        kind, arg = sc.item_kind[i], sc.item_arg[i]
        # all of it inside the slot's column, drawn (and marked) right before
        if kind == S.CARD_ITEM:
            shaded = sc.my_turn and not sc.playable[arg] and c.depth == 1
            c.card(x, y, sc.hand[arg], gfx.SHADED if shaded else gfx.NORMAL, False, _INSIDE)
        else:
            self._tile(x, y, w, h, kind, arg, sc)
        if i == sc.cursor and not arrow:
            if c.depth == 4:
                c.frame(x - 1, y - 1, w + 2, h + 2, CURSOR, _INSIDE)
            else:   # mono: a bar under the raised card
                c.hline(x, c.height - 1, w, CURSOR, _INSIDE)

    def _tile(self, x, y, w, h, kind, arg, sc):
        """An action item drawn like a card: a short label and a symbol, a pixel clear of the
        tile's frame (mono screens: of its bars above and below; 72x40: the symbol alone); all
        of it inside the slot's column."""
        c, s = self.c, self.c.size
        on = kind == S.MAU_ITEM and sc.mau_on
        c.rect(x, y, w, h, HILITE if on else PANEL, _INSIDE)
        if c.depth == 4:
            c.frame(x, y, w, h, TEXT, _INSIDE)
        else:
            c.hline(x, y, w, TEXT, _INSIDE)
            c.hline(x, y + h - 1, w, TEXT, _INSIDE)
        ink = CURSOR_INK if on else TEXT
        label = _TILE_LABELS[s][kind - 1]
        if kind == S.DRAW_ITEM:
            sym = "+%d" % (sc.pending or 1)
        elif kind == S.MAU_ITEM:
            sym = "ON" if on else "OFF"
        elif kind == S.CATCH_ITEM:
            sym = sc.names[arg][:1]
        elif kind == S.HINT_ITEM:
            sym = "?"
        elif kind == S.MENU_ITEM:
            sym = "="
        else:
            sym = "-"
        if s == TINY:      # one symbol: the cards to draw, whom to catch, or the label
            sym = sym[-2:] if kind == S.DRAW_ITEM else sym + "!" if kind == S.CATCH_ITEM else label
            c.small(sym, x + (w - 4 * len(sym) + 1) // 2, y + 4, ink, _INSIDE)
            return
        c.small(label, x + (w - 4 * len(label) + 1) // 2, y + 2, ink, _INSIDE)
        if s == LARGE and 8 * len(sym) <= w - 4:
            c.text(sym, x + (w - 8 * len(sym)) // 2, y + 14, ink, _INSIDE)
        else:
            c.small(sym, x + (w - 4 * len(sym) + 1) // 2, y + (16 if s == LARGE else 10), ink,
                    _INSIDE)
