"""Everything the screen shows fits its box, on every board, and the ranks are told apart.

The framebuf painter draws on a recording canvas that measures each drawing: the pixels a
text, a glyph or a card covers, and the box of the painter's region it was drawn for (a
seat, the top card, the wish, the pending draws, a status line, a hand slot, a tile, a
list row: the painter's methods are wrapped to say which). On every screen of scripted
games on every board: each drawing lies inside its region and on the screen; no drawing
covers the ink of another; a clearing rectangle erases a text or a card whole or not at
all (never cuts one); inside a card or an action tile the ink keeps a pixel clear of the
card's edge, the tile's frame and of each other (rank and suit apart). A card flying to
the pile is drawn over the table and taken off again: measured are the screens it leaves
and its way on the screen. (test_circuitpython.py measures the displayio painter's labels.)
"""
import re

import pytest

from firmware import gfx
from firmware import paint as P
from firmware import screens as S
from firmware.boxes import BoxCanvas
from firmware.paint_fly import FlyingPainter
from firmware.paint_large import big_letters
from tools.sim import boards

FRAMEBUF_BOARDS = boards.framebuf_names()


def inside(box, outer):
    """True when the (x, y, w, h) box lies within outer."""
    x, y, w, h = box
    ox, oy, ow, oh = outer
    return ox <= x and oy <= y and x + w <= ox + ow and y + h <= oy + oh


def bounds(pixels):
    """(x, y, w, h) around a set of pixels."""
    xs = [p[0] for p in pixels]
    ys = [p[1] for p in pixels]
    return (min(xs), min(ys), max(xs) - min(xs) + 1, max(ys) - min(ys) + 1)


def near(a, b):
    """True when a pixel of set a touches or lies on a pixel of set b (8 neighbours)."""
    return any((x + dx, y + dy) in b for x, y in a for dx in (-1, 0, 1) for dy in (-1, 0, 1))


def shrink(box, dx, dy):
    x, y, w, h = box
    return (x + dx, y + dy, w - 2 * dx, h - 2 * dy)


NOT_ZERO = re.compile(rb"[^\x00]")


def set_pixels(canvas):
    """The pixels set on a canvas, found from its buffer's bytes that are not 0."""
    w, h, pixel = canvas.width, canvas.height, canvas.fb.pixel
    inked = [m.start() for m in NOT_ZERO.finditer(canvas.buf)]    # (a scan in C)
    if canvas.depth == 4:    # GS4_HMSB: a byte holds two pixels of a row
        row = (w + 1) // 2
        held = ((i % row * 2 + k, i // row) for i in inked for k in (0, 1))
    else:                    # MONO_VLSB: a byte holds eight pixels of a column
        held = ((i % w, i // w * 8 + k) for i in inked for k in range(8))
    return {(x, y) for x, y in held if x < w and y < h and pixel(x, y)}


def overlap(a, b):
    """True when the (x, y, w, h) boxes share a pixel."""
    return a[0] < b[0] + b[2] and b[0] < a[0] + a[2] and a[1] < b[1] + b[3] and b[1] < a[1] + a[3]


class Ink:
    """One text, glyph or card on the screen: what it is, the pixels it covers, its box."""

    def __init__(self, what, pixels, box, owner):
        self.what, self.pixels, self.box, self.owner = what, frozenset(pixels), box, owner

    def __repr__(self):
        return "%s at %r in %r" % (self.what, self.box, self.owner)


class Recorder(BoxCanvas):
    """A canvas that measures its drawings; `owner()` tells the box being drawn for."""

    def __init__(self, w, h, depth):
        BoxCanvas.__init__(self, w, h, depth)
        self.owner = lambda: (0, 0, w, h)
        self.shown = []        # the inks on the screen now
        self.faults = []
        self.in_card = False
        self.paused = False    # drawings not measured (a card flying over the table)
        self.scratch = BoxCanvas(w, h, depth)

    def fault(self, text):
        self.faults.append(text)

    # --- what a drawing covers -----------------------------------------------------

    def _glyph_pixels(self, draw):
        """The pixels a drawing sets, drawn alone on a blank scratch canvas."""
        sc = self.scratch
        sc.fb.fill(0)
        draw(sc)
        return set_pixels(sc)

    def _add(self, what, pixels, cell):
        """A new ink: it must lie on the screen and in its owner's box, and cover no ink shown."""
        if self.paused:
            return
        owner = self.owner()
        if not inside(cell, (0, 0, self.width, self.height)):
            self.fault("%s %r runs off the screen" % (what, cell))
        if not pixels:
            return
        ink = Ink(what, pixels, bounds(pixels), owner)
        if not inside(ink.box, owner):
            self.fault("%r: outside its box" % ink)
        for other in self.shown:
            if other.pixels & ink.pixels:
                self.fault("%r is drawn over %r" % (ink, other))
        self.shown.append(ink)

    def _erase(self, x, y, w, h):
        """A rectangle painted: inks under it are gone; one cut in part is a fault."""
        if w <= 0 or h <= 0 or self.paused:
            return
        box = (x, y, w, h)
        kept = []
        for ink in self.shown:
            if inside(ink.box, box):
                continue
            if not overlap(ink.box, box):
                kept.append(ink)
                continue
            if any(x <= px < x + w and y <= py < y + h for px, py in ink.pixels):
                self.fault("%r is cut by a rectangle %r" % (ink, box))
                continue
            kept.append(ink)
        self.shown = kept

    # --- the canvas's drawing calls ------------------------------------------------

    def fill(self, role):
        self.shown = []
        gfx.Canvas.fill(self, role)

    def rect(self, x, y, w, h, role, mark=True):
        if not self.in_card:
            self._erase(x, y, w, h)
        gfx.Canvas.rect(self, x, y, w, h, role, mark)

    def frame(self, x, y, w, h, role, mark=True):
        for line in ((x, y, w, 1), (x, y + h - 1, w, 1), (x, y, 1, h), (x + w - 1, y, 1, h)):
            self._erase(*line)
        gfx.Canvas.frame(self, x, y, w, h, role, mark)

    def hline(self, x, y, w, role, mark=True):
        self._erase(x, y, w, 1)
        gfx.Canvas.hline(self, x, y, w, role, mark)

    def text(self, s, x, y, role, mark=True):
        if self.size == gfx.TINY:
            self.small(s, x, y, role, mark)
            return
        gfx.Canvas.text(self, s, x, y, role, mark)
        self._add("text %r" % s, self._glyph_pixels(lambda c: c.fb.text(s, x, y, 1)),
                  (x, y, 8 * len(s), 8))

    def small(self, s, x, y, role, mark=True):
        gfx.Canvas.small(self, s, x, y, role, mark)
        self._add("text %r" % s, self._glyph_pixels(lambda c: c._small(s, x, y, 1)),
                  (x, y, 4 * len(s) - 1, 5))

    def big(self, s, x, y, role):
        gfx.Canvas.big(self, s, x, y, role)
        self._add("text %r" % s, self._glyph_pixels(lambda c: big_letters(c, s, x, y, 1)),
                  (x, y, 16 * len(s), 16))

    def suit(self, x, y, s, role, scale=1):
        gfx.Canvas.suit(self, x, y, s, role, scale)
        n = self.suit_size() * scale
        self._add("suit %d" % s,
                  self._glyph_pixels(lambda c: gfx.Canvas.suit(c, x, y, s, 9, scale)),
                  (x, y, n, n))

    def card(self, x, y, c, state=gfx.NORMAL, big=False, mark=True):
        w, h = self.card_size(big)
        self._erase(x, y, w, h)
        self.in_card = True
        gfx.Canvas.card(self, x, y, c, state, big, mark)
        self.in_card = False
        self._add("card %02x" % c, {(i, j) for i in range(x, x + w) for j in range(y, y + h)
                                    if 0 <= i < self.width and 0 <= j < self.height}, (x, y, w, h))
        if not self.paused:
            self._check_face(x, y, c, big, (x, y, w, h))

    def back(self, x, y, big=False):
        w, h = self.card_size(big)
        self._erase(x, y, w, h)
        gfx.Canvas.back(self, x, y, big)
        self._add("back", {(i, j) for i in range(x, x + w) for j in range(y, y + h)}, (x, y, w, h))

    def _check_face(self, x, y, card, big, box):
        """A face's rank and suit: a pixel clear of the card's edge and of each other."""
        rank = rank_pixels(self.scratch, x, y, card, big)
        face = face_ink(self.scratch, x, y, card, big)
        suit = face - rank
        if not inside(bounds(face), shrink(box, 1, 1)):
            self.fault("card %02x: its ink %r touches the edge of %r" % (card, bounds(face), box))
        if near(rank, suit):
            self.fault("card %02x: rank and suit touch" % card)


def face_ink(canvas, x, y, card, big=False):
    """The ink pixels of a card face drawn alone: its rank and its suit."""
    w, h = canvas.card_size(big)
    canvas.fill(gfx.FELT)
    gfx.Canvas.card(canvas, x, y, card, gfx.NORMAL, big)
    corners = {(x, y), (x + w - 1, y), (x, y + h - 1), (x + w - 1, y + h - 1)}
    if canvas.depth == 1:            # a mono face is white with black ink
        return {(i, j) for i in range(x, x + w) for j in range(y, y + h)
                if not canvas.fb.pixel(i, j)} - corners
    inks = {canvas.ink(gfx.INK), canvas.ink(gfx.RED)}
    return {(i, j) for i in range(x, x + w) for j in range(y, y + h) if canvas.fb.pixel(i, j) in inks}


def rank_pixels(canvas, x, y, card, big=False):
    """The pixels of a card's rank drawn alone, where the card draws it."""
    canvas.fb.fill(0)
    if canvas.size == gfx.TINY:
        canvas._tiny_rank(x + 1, y + 1, card & 15, 1)
    else:
        canvas._rank(x + (2 if canvas.size == gfx.LARGE else 1), y + 2, card & 15, 1, big)
    return set_pixels(canvas)


class Measured(FlyingPainter):
    """The framebuf painter (with the 240x135 colour extras: a Painter's methods are its
    own), saying for each of its regions the box it draws in."""

    def __init__(self, canvas):
        P.Painter.__init__(self, canvas)       # the extras' state only where they are drawn
        if canvas.depth == 4 and canvas.size == gfx.LARGE:
            FlyingPainter.__init__(self, canvas)
        self.boxes = []
        canvas.owner = lambda: self.boxes[-1] if self.boxes else (0, 0, canvas.width, canvas.height)

    def paint(self, screen):
        paused, self.c.paused = self.c.paused, False     # a card landing is measured
        try:
            P.Painter.paint(self, screen)
        finally:
            self.c.paused = paused

    def animate(self, now_ms):
        # a card on its way to the pile is drawn over the table and taken off again (its
        # pixels put back): measured are the screens it leaves, and its way on the screen
        self.c.paused = True
        try:
            FlyingPainter.animate(self, now_ms)
            if self.flying >= 0 and self._step >= 0:
                w, h = self.c.card_size()
                if not inside((self._at_x, self._at_y, w, h), (0, 0, self.c.width, self.c.height)):
                    self.c.fault("the card flying to the pile leaves the screen")
        finally:
            self.c.paused = False

    def _within(self, box, draw, *args):
        self.boxes.append(box)
        try:
            return draw(self, *args)
        finally:
            self.boxes.pop()


def _region(box_of):
    """Wrap a Painter method: it draws inside box_of(painter, *args)."""
    def wrap(method):
        def measured(self, *args):
            return self._within(box_of(self, *args), method, *args)
        return measured
    return wrap


def _size(p):
    return p.c.size


def _status_box(p, *args):
    s = _size(p)
    top = P._STATUS_Y[s] - (s != gfx.TINY)
    return (0, top, p.c.width, P._STATUS_Y[s] + P._STATUS_FIT[s] * P._STATUS_H[s] - top)


def _hand_box(p, *args):
    s = _size(p)
    top = P._HAND_Y[s] - (1 if s == gfx.MEDIUM else P._LIFT[s] + 1)
    return (0, top, p.c.width, p.c.height - top)


def _slot_box(p, sc, i, x, y0, w, h):
    s = _size(p)
    top = _hand_box(p)[1]
    return (x - 1, top, P._STEP[s], p.c.height - top)


def _tile_box(p, x, y, w, h, kind, arg, sc):
    # the label and symbol keep a pixel clear of the frame (colour) or of the bars (mono)
    return (x + 2, y + 2, w - 4, h - 4) if p.c.depth == 4 else (x + 1, y + 2, w - 2, h - 4)


def _seat_box(p, sc, who, x, w, h, turn):
    return (x, 0, w, h)


def _mid_box(p, sc):
    y, h = P._MID_Y[_size(p)]
    return (0, y, p.c.width, h)


REGIONS = {
    "_opponents": lambda p, sc: (0, 0, p.c.width, P._BAR_H[_size(p)]),
    "_seat": _seat_box,
    "_middle": _mid_box,
    "_wish": lambda p, suit: P._WISH_AT[_size(p)],
    "_rest": lambda p, sc, name: P._REST_AT[_size(p)],
    "_status": _status_box,
    "_suit_row": _status_box,
    "_page_mark": lambda p, page, pages: (p.c.width - (P._MARK_W[_size(p)] or 4), 0, 16, p.c.height),
    "_hand": _hand_box,
    "_slot": _slot_box,
    "_tile": _tile_box,
}
for _name, _box_of in REGIONS.items():
    setattr(Measured, _name, _region(_box_of)(getattr(FlyingPainter, _name)))


class Board:
    LAYOUT = "dpad"


def play_and_measure(w, h, depth, setup_levels, seed, steps=900, unsaved=False):
    """A scripted match of three rounds on a recording canvas: the faults found on every
    screen, and which screens and table states were seen."""
    from firmware.app import App
    canvas = Recorder(w, h, depth)
    painter = Measured(canvas)
    painter.unsaved = unsaved                # the NOT SAVED mark of a refusing flash
    app = App(Board, canvas, None, 0, playouts=2, seed=seed, painter=painter)
    seen = set()
    app.act(3)                               # New game: the setup
    sc = app.screen
    if setup_levels is not None:
        while sc.rows_of[sc.cursor][0] != "players":
            app.act(1)
        while len(sc.levels) != len(setup_levels):
            app.act(3)
        for k, level in enumerate(setup_levels):
            while sc.rows_of[sc.cursor] != ("seat", k):
                app.act(1)
            while sc.levels[k] != level:
                app.act(3)
    while sc.rows_of[sc.cursor][0] != "match":
        app.act(1)
    app.act(3)                               # three rounds
    while sc.rows_of[sc.cursor][0] != "start":
        app.act(1)
    app.act(3)
    now = 0
    for step in range(steps):
        name = app.screen.name
        seen.add(name)
        if name == "table":
            seen.update(table_states(app.table))
        if name == "final":
            break
        t = app.table
        if name == "picker":
            app.act(1)
            app.act(3)
        elif name in ("cover", "story", "scores", "between", "mau"):   # mau: With Mau
            app.act(3)
        elif name == "table" and t.my_turn:
            walk(app, t, step)
        else:
            now += 350
            app.tick(now)
        if painter.flying >= 0 and painter._step >= 0:
            seen.add("flight")
    return canvas.faults, seen


def table_states(t):
    """What a table shows that is hard to fit: pending draws on your turn, a wish, the Catch
    tile, a 10 and a queen in the hand and on top, a status of several pages."""
    states = set()
    if t.pending and t.my_turn:
        states.add("pending")
    if t.wish >= 0:
        states.add("wish")
    if S.CATCH_ITEM in t.item_kind[:t.item_n]:
        states.add("catch")
    for rank, word in ((10, "10"), (12, "Q")):
        if t.top & 15 == rank:
            states.add("top " + word)
        if any(c & 15 == rank for c in t.hand[:t.hand_n]):
            states.add("hand " + word)
    if t.status_pages() > 1:
        states.add("pages")
    return states


EVERYTHING = {"table", "picker", "scores", "final", "pending", "wish", "mau", "top 10",
              "top Q", "hand 10", "hand Q", "pages"}


def walk(app, t, step):
    """Look at every item of the hand row, sometimes ask for a hint, then play."""
    for _ in range(t.item_n):
        app.act(1)
    if step % 3 == 0:
        hint = next((i for i in range(t.item_n) if t.item_kind[i] == S.HINT_ITEM), -1)
        while t.cursor != hint:
            app.act(1)
        app.act(3)
    target = next((i for i in range(t.item_n) if t.item_kind[i] == S.CARD_ITEM
                   and t.playable[t.item_arg[i]]), t.first_playable())
    while t.cursor != target:
        app.act(1)
    app.act(3)


# the framebuf boards' screens: boards of one size and depth get the same layout
SCREENS = sorted({(b.WIDTH, b.HEIGHT, b.DEPTH) for b in map(boards.load, FRAMEBUF_BOARDS)})


@pytest.mark.parametrize("w,h,depth", SCREENS)
def test_every_drawing_fits_its_box_through_whole_games(w, h, depth):
    faults, seen = play_and_measure(w, h, depth, None, seed=2)
    assert EVERYTHING <= seen, EVERYTHING - seen
    assert ("flight" in seen) == (depth == 4)   # cards fly to the pile on colour screens
    assert not faults, "\n".join(sorted(set(faults))[:20])


def test_every_drawing_fits_its_box_in_pass_and_play_with_the_flash_refusing_saves():
    for w, h, depth in ((240, 135, 4), (128, 64, 1), (72, 40, 1)):
        faults, seen = play_and_measure(w, h, depth, [0, 0, 3], seed=8, steps=500, unsaved=True)
        assert {"cover", "table"} <= seen
        assert not faults, "\n".join(sorted(set(faults))[:20])


@pytest.mark.parametrize("w, h, depth", [(240, 135, 4), (128, 64, 1)])
def test_the_measuring_canvas_finds_each_kind_of_fault(w, h, depth):
    """Text over text, a rectangle cutting text, text off the screen or out of its box:
    each is reported, and text drawn clear of everything is not."""
    canvas = Recorder(w, h, depth)
    canvas.text("Mau", 10, 10, gfx.INK)
    canvas.text("Mau", 60, 10, gfx.INK)
    assert canvas.faults == []
    canvas.text("Mau", 14, 12, gfx.INK)
    assert "is drawn over" in canvas.faults[-1]
    canvas.rect(62, 8, 6, 6, gfx.FELT)
    assert "is cut by a rectangle" in canvas.faults[-1]
    canvas.text("Mau", w - 8, 30, gfx.INK)
    assert "runs off the screen" in canvas.faults[-1]
    canvas.owner = lambda: (0, 40, 20, 10)
    canvas.text("Mau", 2, 41, gfx.INK)
    assert "outside its box" in canvas.faults[-1]
    assert len(canvas.faults) == 4
