"""The canvas and the painter: card faces legible and distinct at every size, dirty
rectangles, and the same pixels on the host and in the MicroPython VM (real framebuf)."""
import re

import pytest

from firmware import gfx
from firmware.boxes import MAX_BOXES, BoxCanvas
from tools.vm import mpvm
from tools.bench.micropython import RP2040_CALIBRATION_MS

SIZES = ((240, 135, 4), (128, 64, 1), (72, 40, 1))
CARDS = [s << 4 | r for s in range(4) for r in range(2, 15)]


def region(canvas, x, y, w, h):
    """The pixel values of a rectangle, row by row."""
    return tuple(canvas.fb.pixel(x + i, y + j) for j in range(h) for i in range(w))


@pytest.mark.parametrize("w,h,depth", SIZES)
def test_every_card_face_is_distinct(w, h, depth):
    c = BoxCanvas(w, h, depth)
    for big in (False, True):
        cw, ch = c.card_size(big)
        faces = set()
        for card in CARDS:
            c.fill(gfx.FELT)
            c.card(2, 2, card, gfx.NORMAL, big)
            faces.add(region(c, 2, 2, cw, ch))
        assert len(faces) == len(CARDS)   # rank and suit both show: no two cards alike


@pytest.mark.parametrize("w,h,depth", SIZES)
def test_suit_glyphs_differ_and_red_suits_are_red(w, h, depth):
    c = BoxCanvas(w, h, depth)
    n = c.suit_size()
    shapes = set()
    for s in range(4):
        c.fill(gfx.BG)
        c.suit(0, 0, s, gfx.TEXT)
        shapes.add(tuple(p != c.ink(gfx.BG) for p in region(c, 0, 0, n, n)))
    assert len(shapes) == 4
    if depth == 4:
        c.fill(gfx.FELT)
        c.card(0, 0, 2 << 4 | 7, gfx.NORMAL)
        assert c.ink(gfx.RED) in region(c, 0, 0, *c.card_size())
        c.card(0, 0, 0 << 4 | 7, gfx.NORMAL)
        assert c.ink(gfx.RED) not in region(c, 0, 0, *c.card_size())


def take_dirty(c):
    """(x, y, w, h) of one box around all a BoxCanvas drew since its boxes were last taken,
    or None; takes them."""
    n = c.take_boxes()
    if not n:
        return None
    b = c.boxes
    x0 = min(b[i] for i in range(0, 4 * n, 4))
    y0 = min(b[i + 1] for i in range(0, 4 * n, 4))
    x1 = max(b[i] + b[i + 2] for i in range(0, 4 * n, 4))
    y1 = max(b[i + 1] + b[i + 3] for i in range(0, 4 * n, 4))
    return (x0, y0, x1 - x0, y1 - y0)

def test_dirty_box_is_the_union_of_what_was_drawn():
    c = BoxCanvas(240, 135, 4)
    assert take_dirty(c) is None
    c.rect(10, 20, 5, 5, gfx.CARD)
    c.text("Mau", 100, 30, gfx.TEXT)
    assert take_dirty(c) == (10, 20, 114, 18)
    assert take_dirty(c) is None and c.take_boxes() == 0
    c.rect(230, 130, 50, 50, gfx.CARD)    # clipped to the screen
    assert take_dirty(c) == (230, 130, 10, 5)


def boxes(c):
    """The canvas's dirty boxes as (x, y, w, h) tuples (taken)."""
    b = c.boxes
    return [tuple(b[i:i + 4]) for i in range(0, 4 * c.take_boxes(), 4)]


def test_far_apart_drawings_stay_separate_boxes_and_near_ones_merge():
    c = BoxCanvas(240, 135, 4)
    c.rect(0, 0, 240, 20, gfx.PANEL)           # the opponents' bar
    c.rect(0, 92, 240, 43, gfx.FELT)           # the hand row
    c.card(10, 98, 0x27)                       # inside the row: no new box
    assert boxes(c) == [(0, 0, 240, 20), (0, 92, 240, 43)]
    c.rect(0, 0, 240, 20, gfx.PANEL)
    c.rect(0, 20, 240, 48, gfx.FELT)           # touching: one box, nothing wasted
    assert boxes(c) == [(0, 0, 240, 68)]
    c.rect(10, 10, 4, 4, gfx.CARD)
    c.rect(16, 10, 4, 4, gfx.CARD)             # 8 pixels between: merged
    assert boxes(c) == [(10, 10, 10, 4)]


def test_one_box_too_many_joins_the_two_closest():
    c = BoxCanvas(480, 270, 4)                    # room for ten boxes more than a slack apart
    assert MAX_BOXES <= 10
    for k in range(MAX_BOXES):             # 114 apart in a row of five, rows 200 apart
        c.rect(114 * (k % 5), 200 * (k // 5), 10, 10, gfx.CARD)
    c.rect(300, 120, 10, 10, gfx.CARD)
    got = boxes(c)
    assert len(got) == MAX_BOXES
    assert (0, 0, 124, 10) in got and (300, 120, 10, 10) in got
    covered = {(x, y) for (bx, by, bw, bh) in got for x in range(bx, bx + bw)
               for y in range(by, by + bh)}
    assert {(300, 120), (309, 129), (0, 0), (465, 9), (465, 209)} <= covered
    c.rect(0, 0, 480, 40, gfx.PANEL)           # a box over others takes them in
    c.rect(200, 0, 10, 10, gfx.CARD)
    c.rect(0, 200, 10, 10, gfx.CARD)
    c.rect(0, 0, 480, 20, gfx.CARD)
    assert boxes(c) == [(0, 0, 480, 40), (0, 200, 10, 10)]


def canvas_calls(c, draw):
    """The canvas's own Python functions that `draw(c)` runs, in order."""
    import sys
    seen = []

    def profile(frame, event, arg):
        name = frame.f_code.co_filename
        if event == "call" and name.endswith(("firmware/gfx.py", "firmware/boxes.py")):
            seen.append(frame.f_code.co_name)

    sys.setprofile(profile)
    try:
        draw(c)
    finally:
        sys.setprofile(None)
    return seen


def test_a_mark_that_grows_a_box_runs_no_helper_and_overlaps_merge_when_taken():
    """A drawing beside a box grows it inside `mark` itself (no call to weigh the other
    boxes again): the boxes it comes to overlap are merged once a frame, when the boxes are
    taken, as they were at every mark before."""
    c = BoxCanvas(240, 135, 4)
    c.rect(0, 0, 100, 10, gfx.PANEL)
    c.rect(0, 30, 100, 10, gfx.PANEL)             # 2,000 pixels of felt between: apart
    assert canvas_calls(c, lambda c: c.rect(0, 8, 100, 24, gfx.FELT)) == ["rect", "mark"]
    assert boxes(c) == [(0, 0, 100, 40)]          # the grown box took in the one it overlaps
    c.rect(0, 0, 100, 10, gfx.PANEL)
    c.rect(0, 30, 100, 10, gfx.PANEL)
    c.rect(0, 8, 8, 24, gfx.FELT)                 # overlapping both, their union wastes more
    assert sorted(boxes(c)) == [(0, 0, 100, 10), (0, 8, 8, 24), (0, 30, 100, 10)]


def test_a_drawing_the_last_grown_box_takes_in_for_a_slack_joins_it_unweighed():
    """The painter draws a part piece after piece (a hand's next slot, the line below a
    name): a drawing that the box last made or grown takes in for at most the slack joins
    it, the other boxes not weighed against it; beyond the slack, the box that grows least
    takes it, as before."""
    c = BoxCanvas(240, 135, 4)
    c.rect(0, 0, 10, 10, gfx.CARD)
    c.rect(100, 0, 10, 10, gfx.CARD)             # the box last made
    c.rect(30, 0, 10, 10, gfx.CARD)              # 600 pixels more in it, 200 in the first
    assert sorted(boxes(c)) == [(0, 0, 10, 10), (30, 0, 80, 10)]
    c.rect(0, 0, 10, 10, gfx.CARD)
    c.rect(200, 0, 10, 10, gfx.CARD)             # the box last made, far from the next
    c.rect(30, 0, 10, 10, gfx.CARD)
    assert sorted(boxes(c)) == [(0, 0, 40, 10), (200, 0, 10, 10)]


def test_a_move_frame_sends_its_parts_apart():
    """The frame a move is shown in (240x135, from the bench game): two seats' names and a
    Mau mark, the pile, the two status lines, the hand, its scroll arrows and the pending
    draws. Parts further apart than a window's worth of felt (firmware.boxes._SLACK: a box more costs
    its window's Python, about what 700 pixels cost to expand and send) are boxes of their
    own; a name and its Mau mark (270 pixels of felt between) and the hand and its left
    arrow (345) go out as one box each: seven boxes, not nine."""
    parts = ((4, 0, 40, 10), (65, 3, 12, 5), (164, 0, 40, 19), (196, 24, 40, 15),
             (0, 70, 224, 10), (0, 80, 96, 10), (9, 92, 176, 40), (0, 110, 3, 5),
             (237, 110, 3, 5))
    c = BoxCanvas(240, 135, 4)
    for x, y, w, h in parts:
        c.rect(x, y, w, h, gfx.CARD)
    assert sorted(boxes(c)) == [(0, 70, 224, 10), (0, 80, 96, 10), (0, 92, 185, 40),
                                (4, 0, 73, 10), (164, 0, 40, 19), (196, 24, 40, 15),
                                (237, 110, 3, 5)]


def test_random_drawings_are_covered_by_the_boxes():
    import random
    rng = random.Random(3)
    for _ in range(200):
        c = BoxCanvas(240, 135, 4)
        drawn = set()
        for _ in range(rng.randrange(1, 12)):
            x, y = rng.randrange(240), rng.randrange(135)
            w, h = rng.randrange(1, 60), rng.randrange(1, 40)
            c.rect(x, y, w, h, gfx.CARD)
            drawn |= {(i, j) for i in range(x, min(240, x + w)) for j in range(y, min(135, y + h))}
        got = boxes(c)
        assert 1 <= len(got) <= MAX_BOXES
        covered = {(i, j) for bx, by, bw, bh in got
                   for i in range(bx, bx + bw) for j in range(by, by + bh)}
        assert drawn <= covered


def reference_small(c, s, x, y, colour):
    """The 3x5 font drawn pixel by pixel, from its rows (tools/sim/findtext.py)."""
    from tools.sim.findtext import FONT_3X5_ROWS as rows
    for i in range(len(s)):
        code = ord(s[i])
        code = code - 32 if 97 <= code <= 122 else code
        code = code if 32 <= code <= 95 else 63
        bits = rows[2 * (code - 32)] << 8 | rows[2 * (code - 32) + 1]
        for row in range(5):
            for col in range(3):
                if bits >> (14 - 3 * row - col) & 1:
                    c.fb.pixel(x + 4 * i + col, y + row, colour)


def reference_big(c, s, x, y, colour):
    """The 8x8 font doubled pixel by pixel."""
    from tools.sim import framebuf
    g = framebuf.FrameBuffer(bytearray(8), 8, 8, framebuf.MONO_HLSB)
    for i in range(len(s)):
        g.fill(0)
        g.text(s[i], 0, 0, 1)
        for row in range(8):
            for col in range(8):
                if g.pixel(col, row):
                    c.fb.fill_rect(x + 16 * i + 2 * col, y + 2 * row, 2, 2, colour)


# the glyphs as designed, a row a number (the left pixel in its highest bit): clubs, spades,
# hearts, diamonds 7x7 and 5x5, the tiny cards' suits 5x4, and 10 in the 8x8 font's style, 9x7
SUITS7 = ((0x1c, 0x1c, 0x6b, 0x7f, 0x6b, 0x08, 0x1c), (0x08, 0x1c, 0x3e, 0x7f, 0x7f, 0x08, 0x1c),
          (0x36, 0x7f, 0x7f, 0x3e, 0x1c, 0x08, 0x00), (0x08, 0x1c, 0x3e, 0x7f, 0x3e, 0x1c, 0x08))
SUITS5 = ((0x0e, 0x0e, 0x1f, 0x15, 0x04), (0x04, 0x0e, 0x1f, 0x1f, 0x04),
          (0x0a, 0x1f, 0x1f, 0x0e, 0x04), (0x04, 0x0e, 0x1f, 0x0e, 0x04))
SUITS54 = ((0x0e, 0x1f, 0x15, 0x04), (0x04, 0x0e, 0x1f, 0x04), (0x0a, 0x1f, 0x0e, 0x04),
           (0x04, 0x0e, 0x0e, 0x04))
TEN = (0x0ce, 0x1db, 0x0db, 0x0db, 0x0db, 0x0db, 0x1ce)


def stamp_of(rows, n, scale):
    """The (rows, width, height, MONO_HLSB) stamp of a glyph of rows n pixels wide, each pixel
    scale x scale."""
    w, h = n * scale, len(rows) * scale
    per_row = (w + 7) // 8
    out = bytearray(per_row * h)
    for y in range(h):
        for x in range(w):
            if rows[y // scale] >> (n - 1 - x // scale) & 1:
                out[y * per_row + x // 8] |= 0x80 >> (x % 8)
    return (bytes(out), w, h, 3)


def test_the_stamps_are_the_glyphs_as_designed():
    """gfx's stamp constants (blitted as tuples) hold the glyphs above, at scale 1 and 2."""
    assert gfx._SUITS == tuple(stamp_of(g, 7, k) for k in (1, 2) for g in SUITS7)
    assert gfx._TINY_SUITS == (tuple(stamp_of(g, 5, 1) for g in SUITS5)
                               + tuple(stamp_of(g, 5, 1) for g in SUITS54))
    assert gfx._TENS == (stamp_of(TEN, 9, 1), stamp_of(TEN, 9, 2))


def reference_suit(c, x, y, suit, colour, scale):
    """A suit glyph drawn square by square."""
    tiny = c.size == gfx.TINY
    n = 5 if tiny else 7
    rows = (SUITS5 if tiny else SUITS7)[suit]
    for row in range(n):
        for col in range(n):
            if rows[row] >> (n - 1 - col) & 1:
                c.fb.fill_rect(x + scale * col, y + scale * row, scale, scale, colour)


@pytest.mark.parametrize("w,h,depth", SIZES)
def test_stamped_letters_and_suits_equal_pixel_by_pixel_drawing(w, h, depth):
    import random
    rng = random.Random(w)
    a, b = BoxCanvas(w, h, depth), BoxCanvas(w, h, depth)
    for t in range(400):
        x, y, role = rng.randrange(-12, w), rng.randrange(-12, h), rng.randrange(19)
        for c in (a, b):
            c.rect(x - 3, y - 3, 12, 12, (role * 7) % 19)    # stamps leave clear pixels alone
        text = "".join(chr(rng.randrange(32, 200)) for _ in range(rng.randrange(1, 11)))
        colour = a.ink(role)
        if t % 3 == 0:
            a.small(text, x, y, role)
            reference_small(b, text, x, y, colour)
        elif t % 3 == 1:
            a.big(text[:3], x, y, role)
            reference_big(b, text[:3], x, y, colour)
        else:
            scale = 1 + t % 2 if a.size == gfx.LARGE else 1
            a.suit(x, y, t % 4, role, scale)
            reference_suit(b, x, y, t % 4, colour, scale)
        assert bytes(a.buf) == bytes(b.buf), (t, x, y, text)


@pytest.mark.parametrize("w,h,depth", SIZES)
def test_painting_only_what_changed_equals_painting_everything(w, h, depth):
    """Through a seeded game (cursor steps, plays, the AIs' turns), the canvas the painter
    keeps up to date equals a fresh canvas with the screen painted whole."""
    c, app = started_game(w, h, depth, seed=5)
    now, compared = 0, 0
    for step in range(160):
        if app.screen.name == "final":
            break
        if app.table is not None and app.table.my_turn:
            app.act((1, 1, 2, 3)[step % 4])
        else:
            now += 1000
            app.tick(now)
        assert bytes(painted_whole(app, w, h, depth).buf) == bytes(c.buf), (step, app.screen.name)
        compared += 1
    assert compared >= 40


def started_game(w, h, depth, seed):
    """A canvas, and an app drawing on it whose first game (the default setup) has begun."""
    from firmware.app import App

    class Board:
        LAYOUT = "dpad"

    c = BoxCanvas(w, h, depth)
    app = App(Board, c, None, 0, playouts=2, seed=seed)
    app.act(3)
    while app.screen.rows_of[app.screen.cursor][0] != "start":
        app.act(1)
    app.act(3)
    return c, app


def painted_whole(app, w, h, depth):
    """A fresh canvas with the app's screen painted whole (a picker drawn over the table
    is painted over that table, painted whole first), once a card flying to the pile has
    landed on the app's own canvas."""
    from firmware.paint import painter_for
    landed(app)
    fresh = BoxCanvas(w, h, depth)
    painter = painter_for(fresh)
    if app.painter.under is not None:
        painter.paint(app.painter.under)
    painter.paint(app.screen)
    return fresh


def landed(app):
    """Let a played card's flight to the pile end (the frames of its way, 100 ms apart)."""
    now = app.now
    while app.painter.flying >= 0:
        now += 100
        app.painter.animate(now)


def test_the_suit_picker_is_drawn_over_the_table_on_the_oled():
    """On 128x64 the Jack's suit picker takes the status lines and the hand row only (the
    opponents, the pile and the top card stay as they were); stepping through it and back to
    the table leaves the canvas as a whole repaint would."""
    from firmware import screens as S
    c, app = started_game(128, 64, 1, seed=4)
    now, pickers = 0, 0
    for step in range(600):
        if app.screen.name == "final" or pickers >= 3:
            break
        t = app.table
        if app.screen.name == "picker":
            top = bytes(c.buf[:3 * 128])            # pages 0-2: opponents, pile, top card
            app.act(1)
            assert bytes(c.buf[:3 * 128]) == top and app.painter.under is t
            assert bytes(painted_whole(app, 128, 64, 1).buf) == bytes(c.buf)
            app.act(3)                              # the wish: back to the table
            assert app.screen is t and app.painter.under is None
            pickers += 1
        elif t is not None and t.my_turn:        # (no table at a round's scores)
            target = next((i for i in range(t.item_n) if t.item_kind[i] == S.CARD_ITEM
                           and t.playable[t.item_arg[i]] and t.hand[t.item_arg[i]] & 15 == 11
                           and t.hand_n > 1), t.first_playable())
            while t.cursor != target:
                app.act(1)
            app.act(3)
        else:
            now += 1000
            app.tick(now)
        assert bytes(painted_whole(app, 128, 64, 1).buf) == bytes(c.buf), (step, app.screen.name)
    assert pickers >= 1


def test_a_flying_cards_underlay_is_kept_for_its_flight_only():
    """On the colour screen the pixels under a played card are kept while it flies to the
    pile (its steps put them back) and let go when it lands: no card's worth kept between."""
    c, app = started_game(240, 135, 4, seed=4)
    assert app.painter.flies and app.painter.under_card is None
    now, flights = 0, 0
    for _ in range(200):
        if app.screen.name != "table" or flights >= 3:
            break
        t = app.table
        if t.my_turn:
            app.act(3)                  # the cursor's card (or the draw): what the app picks
        else:
            now += 1000
            app.tick(now)
        if app.painter.flying >= 0:
            assert app.painter.under_card is not None
            flights += 1
            landed(app)
            assert app.painter.under_card is None
            assert bytes(painted_whole(app, 240, 135, 4).buf) == bytes(c.buf)
    assert flights >= 3
    assert not painter_of(128, 64, 1).flies and not hasattr(painter_of(128, 64, 1), "under_card")


def painter_of(w, h, depth):
    """A painter on a fresh canvas."""
    from firmware.paint import painter_for
    return painter_for(BoxCanvas(w, h, depth))


def test_buffer_sizes_match_the_formats():
    assert len(BoxCanvas(240, 135, 4).buf) == 16200
    assert len(BoxCanvas(128, 64, 1).buf) == 1024
    assert len(BoxCanvas(72, 40, 1).buf) == 360
    assert BoxCanvas(240, 135, 4).size == gfx.LARGE and len(BoxCanvas(240, 135, 4).palette) == 16
    assert BoxCanvas(128, 64, 1).size == gfx.MEDIUM and BoxCanvas(72, 40, 1).size == gfx.TINY


# The same scripted session on both runtimes: a CRC of the canvas after every step.
SESSION = '''
import binascii
from firmware.boxes import MAX_BOXES, BoxCanvas
from firmware.app import App

class Board:
    LAYOUT = "dpad"

OK, NEXT, PREV, MENU, TICK = 3, 1, 2, 5, 0
SCRIPT = (OK, NEXT, PREV, PREV, OK, TICK, TICK, TICK, TICK, TICK, NEXT, NEXT, OK,
          TICK, TICK, PREV, OK, TICK, TICK, TICK, TICK, NEXT, OK, OK, TICK, TICK, MENU,
          NEXT, OK, NEXT, OK, PREV, OK, OK, TICK, TICK, TICK, NEXT, OK, TICK, TICK)

def session(w, h, depth):
    c = BoxCanvas(w, h, depth)
    app = App(Board, c, None, 0, playouts=4, seed=7)
    now = 0
    crcs = [binascii.crc32(c.buf)]
    for step in SCRIPT:
        if step == TICK:
            now += 1000
            app.tick(now)
        else:
            app.act(step)
        crcs.append(binascii.crc32(c.buf))
    return crcs, c

for w, h, depth in ((240, 135, 4), (128, 64, 1), (72, 40, 1)):
    crcs, c = session(w, h, depth)
    print("SESSION", w, " ".join("%x" % x for x in crcs), binascii.hexlify(c.buf).decode())
'''


def sessions(stdout):
    out = {}
    for line in stdout.splitlines():
        if line.startswith("SESSION "):
            _, w, *rest = line.split()
            out[int(w)] = (rest[:-1], rest[-1])
    return out


def test_screens_are_byte_identical_on_host_and_micropython(capsys):
    exec(compile(SESSION, "<session>", "exec"), {"__name__": "session"})
    host = sessions(capsys.readouterr().out)
    vm = sessions(mpvm.run(SESSION, modules=("engine", "firmware"), timeout=240,
                           heapsize=2 * 1024 * 1024).check().stdout)
    assert set(host) == set(vm) == {240, 128, 72}
    for w in host:
        assert len(set(host[w][0])) > 8            # the session really changed the screen
        assert host[w][0] == vm[w][0], w            # every step's frame
        assert host[w][1] == vm[w][1], w            # and the last frame, byte for byte


# a game against three AIs, started from the title screen and played to the human's turn
TO_MY_TURN = '''
def to_my_turn(app):
    app.act(3)            # New game
    while app.screen.rows_of[app.screen.cursor][0] != "start":
        app.act(1)
    app.act(3)            # Start
    now = 0
    while not app.table.my_turn:
        now += 1000
        app.tick(now)
    return app
'''

DEVICE_LOOP = '''
import gc
gc.collect()
start = gc.mem_alloc()
import sys, time, micropython
from firmware import buttons, main
from firmware.boxes import MAX_BOXES, BoxCanvas
from firmware.app import App
gc.collect()
print("HEAP modules", gc.mem_alloc() - start)

class Display:
    def __init__(self):
        self.rects = []
    def show(self, canvas, x, y, w, h):
        self.rects.append((x, y, w, h))

class Keys(buttons.Debouncer):
    """Presses RIGHT then A (New game -> Quit -> chosen), 60 ms each, a press every 100 ms."""
    def __init__(self):
        super().__init__()
        self.start = None
    def poll(self, now):
        if self.start is None:
            self.start = now
        t = time.ticks_diff(now, self.start)
        mask = 0
        if 100 <= t < 160:
            mask = 1 << buttons.RIGHT
        elif 300 <= t < 360:
            mask = 1 << buttons.A
        self.feed(now, mask)

class Board:
    WIDTH, HEIGHT, DEPTH, LAYOUT = 128, 64, 1, "dpad"

def idle(app, canvas, frames):
    """Frames with no key and nothing due, under heap_lock: MemoryError if one allocates."""
    app.tick(app.now)     # settles: the human is to move
    canvas.take_boxes()
    micropython.heap_lock()
    try:
        for i in range(frames):
            app.tick(app.now)
            canvas.take_boxes()
    finally:
        micropython.heap_unlock()
    return frames

def run():
    gc.collect()
    before = gc.mem_alloc()
    canvas = BoxCanvas(128, 64, 1)
    app = App(Board, canvas, None, 0)
    gc.collect()
    print("HEAP app+canvas", gc.mem_alloc() - before)
    display = Display()
    clock = [0]
    def ticks():
        return clock[0]
    def nap(ms):
        clock[0] += ms
        if clock[0] > 60000:
            raise RuntimeError("the loop did not end")
    main.loop(app, canvas, display, Keys(), ticks, nap)
    print("DONE", app.done, len(display.rects), display.rects[0])
    app = to_my_turn(App(Board, canvas, None, 0, playouts=4, seed=3))
    gc.collect()
    print("HEAP with a 4-player game", gc.mem_alloc() - before)
    print("IDLE", idle(app, canvas, 50))

run()
'''
def test_the_device_loop_takes_boxes_only_from_frames_that_drew():
    """Most frames draw nothing: the loop reads the canvas's box_n and calls nothing then
    (a call a frame cost about 5 ms a move on the bench's model); every box drawn is shown."""
    from firmware import buttons, main
    from firmware.app import App

    class Board:
        WIDTH, HEIGHT, DEPTH, LAYOUT = 128, 64, 1, "dpad"

    class Keys(buttons.Debouncer):
        def poll(self, now):       # RIGHT, then A: New game -> Quit, chosen
            self.feed(now, 1 << buttons.RIGHT if 100 <= now < 160 else
                      1 << buttons.A if 300 <= now < 360 else 0)

    shown, takes, clock = [], [], [0]

    class Display:
        def show(self, canvas, x, y, w, h):
            shown.append((x, y, w, h))

    canvas = BoxCanvas(128, 64, 1)
    app = App(Board, canvas, None, 0)
    take = canvas.take_boxes

    def counted():
        takes.append(canvas.box_n)
        return take()
    canvas.take_boxes = counted

    def nap(ms):
        clock[0] += ms
        assert clock[0] < 60000, "the loop did not end"
    main.loop(app, canvas, Display(), Keys(), lambda: clock[0], nap)
    frames = clock[0] // main.FRAME_MS
    assert app.done and shown[0] == (0, 0, 128, 64)
    assert 0 < len(takes) < frames // 4 and all(takes), (len(takes), frames)
    assert canvas.box_n == 0


def test_device_loop_runs_in_micropython_and_idle_frames_allocate_nothing():
    out = mpvm.run(TO_MY_TURN + DEVICE_LOOP, modules=("engine", "firmware"), timeout=120).check().stdout
    print(out)
    assert "DONE True" in out                 # RIGHT then A chose Quit: the loop ended
    assert "(0, 0, 128, 64)" in out           # the first frame sent the whole screen
    assert "IDLE 50" in out


PAINT_FIGURES = '''
import time, gc
from firmware.boxes import MAX_BOXES, BoxCanvas
from firmware.app import App
from firmware.paint import painter_for

class Board:
    LAYOUT = "dpad"

def calibration_ms():
    s = 0
    t = time.ticks_ms()
    for _ in range(100000):
        s += 1
    return time.ticks_diff(time.ticks_ms(), t)

def figures(w, h, depth, n=20):
    c = BoxCanvas(w, h, depth)
    app = to_my_turn(App(Board, c, None, 0, playouts=4, seed=3))
    t = app.table
    t0 = time.ticks_ms()
    for i in range(n):
        painter_for(c).paint(t)
    full = time.ticks_diff(time.ticks_ms(), t0) / n
    p = painter_for(c)
    p.paint(t)
    t0 = time.ticks_ms()
    for i in range(n):
        t.on(1)
        p.paint(t)
    return full, time.ticks_diff(time.ticks_ms(), t0) / n

ratio = RP2040_MS / max(1, calibration_ms())    # an RP2040's time for the calibration loop
for w, h, depth in ((240, 135, 4), (128, 64, 1), (72, 40, 1)):
    full, move = figures(w, h, depth)
    gc.collect()
    print("PAINT %dx%d: whole table %.1f ms, cursor step %.1f ms in the VM; RP2040 about %d and %d ms"
          % (w, h, full, move, full * ratio, move * ratio))
'''


def test_paint_figures_in_micropython():
    """Prints how long the painter takes for the table (a benchmark, not a limit)."""
    head = "RP2040_MS = %d\n" % RP2040_CALIBRATION_MS
    out = mpvm.run(head + TO_MY_TURN + PAINT_FIGURES, modules=("engine", "firmware"), timeout=200).check().stdout
    print(out)
    assert out.count("PAINT ") == 3


# --- ranks told apart --------------------------------------------------------------------

# pixels by which any two rank glyphs must differ at least (drawn where a card draws them):
# the 3x5 font's 8 and 9 differ by one; the tiny card's own font by three or more
MARGIN = {gfx.TINY: 3, gfx.MEDIUM: 3, gfx.LARGE: 3}
# letters and digits of the screen's font a rank could be taken for
LOOK_ALIKES = {"Q": "09SO", "8": "B", "5": "S", "2": "Z"}


def components(pixels):
    """The 8-connected groups of a set of pixels."""
    left, groups = set(pixels), []
    while left:
        todo, group = [left.pop()], set()
        while todo:
            x, y = todo.pop()
            group.add((x, y))
            for n in [(x + dx, y + dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1)]:
                if n in left:
                    left.remove(n)
                    todo.append(n)
        groups.append(group)
    return groups


def at_origin(pixels):
    """The pixels moved so that their bounding box starts at (0, 0)."""
    x0 = min(p[0] for p in pixels)
    y0 = min(p[1] for p in pixels)
    return {(x - x0, y - y0) for x, y in pixels}


def font_pixels(c, text):
    """Pixels of `text` in the font the screen's cards are read against (8x8, or 3x5)."""
    c.fb.fill(0)
    if c.size == gfx.TINY:
        c._small(text, 8, 8, 1)
    else:
        c.fb.text(text, 8, 8, 1)
    return at_origin({(x, y) for x in range(c.width) for y in range(c.height) if c.fb.pixel(x, y)})


@pytest.mark.parametrize("w,h,depth", SIZES)
def test_rank_glyphs_are_told_apart_by_a_margin(w, h, depth):
    """Each rank as a card shows it differs from every other rank and from the font's look-
    alikes (Q from 9, S and O; 8 from B; ...) by MARGIN pixels; the 1 and the 0 of a 10
    stand apart, and its 0 is no 6, 8 or 9."""
    from test_fit import rank_pixels
    c = BoxCanvas(w, h, depth)
    margin = MARGIN[c.size]
    for big in ((False, True) if c.size == gfx.LARGE else (False,)):
        glyphs = {gfx.RANK_LABELS[r]: rank_pixels(c, 10, 10, r, big) for r in range(2, 15)}
        labels = sorted(glyphs)
        for i, a in enumerate(labels):
            for b in labels[i + 1:]:
                assert len(glyphs[a] ^ glyphs[b]) >= margin, (a, b, big)
        if big:
            continue
        for rank, others in LOOK_ALIKES.items():
            for other in others:
                differ = len(at_origin(glyphs[rank]) ^ font_pixels(c, other))
                assert differ >= margin, (rank, other, differ)
        parts = sorted(components(glyphs["10"]), key=min)
        assert len(parts) == 2, "the 1 and the 0 of a 10 touch"
        for other in "689":
            differ = len(at_origin(parts[1]) ^ font_pixels(c, other))
            assert differ >= margin, ("the 0 of 10 looks like", other, differ)


def rows_of(c, y0, y1):
    """The canvas's pixels of rows y0 to y1 - 1."""
    return tuple(c.fb.pixel(x, y) for y in range(y0, y1) for x in range(c.width))


def test_the_suit_picker_leaves_the_hand_in_sight_on_240x135():
    """Wishing a suit, the player still sees their cards: on 240x135 the picker takes only
    the status lines (the suits beside its question), the hand row and the table above stay
    as they were; back at the table the canvas is as a whole repaint would make it."""
    from firmware import screens as S
    c, app = started_game(240, 135, 4, seed=4)
    now, pickers = 0, 0
    for step in range(600):
        if app.screen.name == "final" or pickers >= 3:
            break
        t = app.table
        if t is not None and t.my_turn and app.screen is t:   # (no table at a round's scores)
            jack = next((i for i in range(t.item_n) if t.item_kind[i] == S.CARD_ITEM
                         and t.playable[t.item_arg[i]] and t.hand[t.item_arg[i]] & 15 == 11
                         and t.hand_n > 1), -1)
            target = jack if jack >= 0 else t.first_playable()
            while t.cursor != target:
                app.act(1)
            table, hand = rows_of(c, 0, 69), rows_of(c, 90, 135)
            app.act(3)
            if jack >= 0:
                assert app.screen.name == "picker"
                for k in range(5):
                    assert rows_of(c, 0, 69) == table and rows_of(c, 90, 135) == hand, k
                    assert bytes(painted_whole(app, 240, 135, 4).buf) == bytes(c.buf)
                    app.act(1)
                app.act(3)                          # the wish: back to the table
                assert app.screen is t and app.painter.under is None
                pickers += 1
        else:
            now += 1000
            app.tick(now)
        assert bytes(painted_whole(app, 240, 135, 4).buf) == bytes(c.buf), (step, app.screen.name)
    assert pickers >= 1


LONG_STATUS = ("Greta plays the seven of clubs and says Mau. Hugo draws two cards. Ida plays "
               "the Jack of spades and wishes hearts. Your turn: play a heart or draw.")


@pytest.mark.parametrize("w,h,depth", SIZES)
def test_a_status_of_several_pages_says_which_page_shows(w, h, depth):
    """A long status pages by itself: the last status line ends with "1/3", "2/3" ... (mono
    screens: an arrow, the pages come round), and its text leaves the mark room; a text of
    one page has no mark."""
    from firmware import paint
    from tools.sim.findtext import FONT_3X5, find_text
    from tools.sim.image import screenshot
    c, app = started_game(w, h, depth, seed=5)
    t = app.table
    t.say(LONG_STATUS)
    app.painter.paint(t)
    pages = t.status_pages()
    assert pages >= 3 and all(len(line) <= paint.status_cols(c) for line in t.status)
    mark_x = w - (paint._MARK_W[c.size] or 4)
    for page in range(1, pages + 1):
        image = screenshot(c)
        if depth == 1:             # the arrow: a triangle, 5, 3 and 1 pixels tall (128x64: 3, 1)
            arrow = ([(0, 0), (0, 2), (1, 1)] if c.size == gfx.MEDIUM
                     else [(0, 0), (0, 4), (1, 1), (1, 3), (2, 2)])
            found = [(x, y) for x in range(mark_x, w - 2) for y in range(15, h - 5)
                     if all(image.getpixel((x + dx, y + dy)) != (0, 0, 0) for dx, dy in arrow)]
            assert found, page
        else:
            found = find_text(image, "%d/%d" % (page, pages), FONT_3X5)
            assert [x for x, y in found if x >= mark_x], page
        t.turn_status_page()
        app.painter.paint(t)
    assert t.status_top == 0      # round again to the first page
    t.say("Your turn")            # one page: no mark
    app.painter.paint(t)
    y, rows = {gfx.TINY: (19, 5), gfx.MEDIUM: (40, 3), gfx.LARGE: (82, 5)}[c.size]
    assert set(region(c, mark_x, y, w - mark_x, rows)) == {c.ink(gfx.FELT)}


@pytest.mark.parametrize("w,h,depth", SIZES)
def test_a_played_card_flies_to_the_pile_on_colour_screens(w, h, depth):
    """On 240x135 a card played (by an AI from its seat, by you from your hand) is drawn on
    its way to the pile, between where it was and the pile, the pile showing the card below
    until it lands; then the canvas is the table painted whole. Mono panels show the move
    at once."""
    from firmware import paint, paint_fly
    c, app = started_game(w, h, depth, seed=5)
    p = app.painter
    cw, ch = c.card_size()
    now, flights, from_hand = 0, 0, 0
    for step in range(400):
        if app.screen.name not in ("table", "picker") or flights >= 6 and from_hand:
            break
        t = app.table
        before = t.top
        if app.screen.name == "picker":
            app.act(3)
        elif t.my_turn:
            target = t.first_playable()
            while t.cursor != target:
                app.act(1)
            app.act(3)
        else:
            now += 1000
            app.tick(now)
        if t.top == before or app.screen is not t:
            continue
        if depth == 1:
            assert p.flying < 0
            continue
        assert p.flying == t.top
        from_hand += p._from_y > 60
        start = abs(p._from_x - paint_fly._LANDING[0]) + abs(p._from_y - paint_fly._LANDING[1])
        pile = paint._TOP_AT[c.size]
        shown = region(c, *pile)
        way = []
        while p.flying >= 0:
            now += 10
            app.tick(now)
            if p.flying < 0 or p._step < 0:
                continue
            x, y = p._at_x, p._at_y
            way.append(abs(x - paint_fly._LANDING[0]) + abs(y - paint_fly._LANDING[1]))
            alone = BoxCanvas(w, h, depth)
            alone.card(x, y, t.top)
            assert region(c, x + 1, y + 1, cw - 2, ch - 2) == region(alone, x + 1, y + 1, cw - 2, ch - 2)
            if x + cw <= pile[0] or y + ch <= pile[1]:     # not over the pile yet:
                assert region(c, *pile) == shown            # it shows the card below
        assert way and way == sorted(way, reverse=True) and 0 < way[-1] < start
        assert bytes(painted_whole(app, w, h, depth).buf) == bytes(c.buf)
        flights += 1
    assert depth == 1 or flights >= 6 and from_hand


NAMES_OF_A_TEXT = r'''
import micropython
from firmware.boxes import MAX_BOXES, BoxCanvas
TEXT = "`{|}~^QJZqjz"      # letters no code here names alone (the text itself is one name)
c = BoxCanvas(72, 40, 1)
c.small("@", 0, 0, 3)      # the first call's own names
c.first_code("@")
micropython.qstr_info()
c.small(TEXT, 0, 0, 3)
c.small(TEXT[3:], 8, 8, 3)
look = c.first_code(TEXT[4:])
micropython.qstr_info()
big = BoxCanvas(240, 135, 4)
big.big("@", 0, 0, 3)
micropython.qstr_info()
big.big(TEXT, 0, 0, 3)
micropython.qstr_info()
print("LOOK", look)
'''


def test_small_print_makes_no_name_of_any_letter():
    """In MicroPython a str iterated or indexed makes each letter a name (an interned
    one-letter string that stays in RAM): the 3x5 font (the Thumby's every text), the big
    letters and a catch tile's letter read a text's bytes instead, and paint new letters
    with the VM's name pool as it was."""
    out = mpvm.run(NAMES_OF_A_TEXT, modules=("engine", "firmware")).check().stdout
    before, after, big_before, big_after = (int(n) for n in re.findall(r"n_qstr=(\d+)", out))
    assert after == before and big_after == big_before
    assert "LOOK %d" % ord("~") in out
