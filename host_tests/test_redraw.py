"""What a move sends to the panel: a change redraws only the part of the screen that shows
it, and the canvas kept up to date equals one painted whole (docs/firmware.md, painter)."""
import pytest

from firmware import gfx, paint
from firmware.boxes import BoxCanvas
from firmware import screens as S
from host_tests.test_gfx import painted_whole, started_game

SIZES = ((240, 135, 4), (128, 64, 1), (72, 40, 1))


def my_turn_table(w, h, depth, seed=5):
    """A canvas and an app whose table waits for the player's move."""
    c, app = started_game(w, h, depth, seed)
    now = 0
    while not (app.table.my_turn and not app.busy):
        now += 1000
        app.tick(now)
    app.painter.paint(app.table)
    c.take_boxes()
    return c, app


def boxes_of(canvas):
    """The dirty boxes since the last call, as (x, y, w, h) tuples."""
    n = canvas.take_boxes()
    b = canvas.boxes
    return [tuple(b[i:i + 4]) for i in range(0, 4 * n, 4)]


def marked(canvas, draw):
    """The rectangles `draw()` marks on the canvas (each drawing call marks its own)."""
    rects, mark = [], canvas.mark
    canvas.mark = lambda x, y, w, h: rects.append((x, y, w, h)) or mark(x, y, w, h)
    try:
        draw()
    finally:
        del canvas.mark
    return rects


def pixels(boxes):
    """How many pixels the boxes cover (they do not overlap by much)."""
    return sum(w * h for _, _, w, h in boxes)


def test_the_private_item_kinds_are_the_screens_kinds():
    assert (paint._CARD, paint._DRAW, paint._MAU, paint._CATCH) == (
        S.CARD_ITEM, S.DRAW_ITEM, S.MAU_ITEM, S.CATCH_ITEM)


def test_on_colour_a_turn_change_redraws_the_strip_below_the_cards_not_the_cards():
    """240x135: the cards that can be played are marked by a bar below them; when the turn
    comes or goes no card face is drawn again, only that strip (and "YOUR TURN")."""
    c, app = my_turn_table(240, 135, 4)
    t, painter = app.table, app.painter
    assert any(t.playable[t.item_arg[i]] for i in range(t.item_n) if t.item_kind[i] == S.CARD_ITEM)
    painter.trace = []
    for mine in (False, True, False):
        t.my_turn = mine
        painter.paint(t)
        drawn = boxes_of(c)
        assert painter.trace == [], mine            # no hand slot drawn
        y0, h = paint._HAND_Y[gfx.LARGE], c.card_size()[1]
        hand = [b for b in drawn if b[1] + b[3] > paint._HAND_Y[gfx.LARGE] - 6]
        assert hand and all(b[1] >= y0 + h for b in hand), (mine, drawn)
        assert pixels(drawn) <= 240 * 6 + 40 * 15, (mine, drawn)
        assert bytes(painted_whole(app, 240, 135, 4).buf) == bytes(c.buf), mine


@pytest.mark.parametrize("w,h,depth", SIZES[1:])
def test_on_mono_screens_a_turn_change_shades_the_cards_that_cannot_be_played(w, h, depth):
    c, app = my_turn_table(w, h, depth)
    t, painter = app.table, app.painter
    cannot = [i for i in range(t.item_n) if t.item_kind[i] == S.CARD_ITEM
              and not t.playable[t.item_arg[i]] and t.scroll <= i < t.scroll + paint.hand_fit(c)]
    assert cannot
    t.my_turn = False
    painter.paint(t)
    painter.trace = []
    t.my_turn = True
    painter.paint(t)
    assert painter.trace, "the shaded cards are drawn again"
    assert bytes(painted_whole(app, w, h, depth).buf) == bytes(c.buf)


@pytest.mark.parametrize("w,h,depth", SIZES)
def test_the_middle_redraws_only_the_part_that_changed(w, h, depth):
    """Whose turn, the pending draws and the direction of play are drawn apart: a change of
    one leaves the others' pixels alone."""
    c, app = my_turn_table(w, h, depth)
    t, painter, s = app.table, app.painter, c.size
    changes = (("pending", paint._PENDING_AT[s], lambda: setattr(t, "pending", t.pending + 2)),
               ("direction", paint._WAY_AT[s], lambda: setattr(t, "direction", -t.direction)),
               ("turn", paint._TURN_AT[s], lambda: setattr(t, "my_turn", not t.my_turn)))
    for name, area, change in changes:
        change()
        drawn = [b for b in marked(c, lambda: painter.paint(t))
                 if b[1] < paint._STATUS_Y[s] - 1]     # above the status lines
        x, y, aw, ah = area
        assert drawn and all(x <= bx and y <= by and bx + bw <= x + aw and by + bh <= y + ah
                             for bx, by, bw, bh in drawn), (name, drawn, area)
        assert bytes(painted_whole(app, w, h, depth).buf) == bytes(c.buf), name


def test_an_unchanged_table_is_checked_without_drawing():
    """A paint with nothing new draws nothing (every region's key is as it was), and looks
    at the keys of the parts that seldom change inline: no call of `_changed` or `_unsaved`
    (each such call costs, on every paint)."""
    for w, h, depth in SIZES:
        c, app = my_turn_table(w, h, depth)
        painter, calls = app.painter, []
        for name in ("_changed", "_unsaved"):
            setattr(painter, name, lambda *a, _f=getattr(painter, name): calls.append(a) or _f(*a))
        painter.paint(app.table)
        assert boxes_of(c) == [] and calls == []


def test_an_action_draws_the_screen_it_shows_once_and_leaves_it_drawn():
    """An action draws each screen once: show() draws a screen it makes current, the end of
    the action draws the screen on show only when show() did not (a second paint of the
    Rules pages or the setup allocated 0.2-0.6 KB more in the VM's highest frames); the
    screen is left up to date (painting it again draws nothing)."""
    for w, h, depth in SIZES:
        c, app = my_turn_table(w, h, depth)
        paint_it, painted = app.painter.paint, []
        app.painter.paint = lambda sc: painted.append(sc) or paint_it(sc)

        def act(action):
            del painted[:]
            app.act(action)
            assert painted and painted[-1] is app.screen, (w, app.screen.name)
            assert len(set(map(id, painted))) == len(painted), (w, [sc.name for sc in painted])
            boxes_of(c)
            paint_it(app.screen)
            assert boxes_of(c) == [], (w, app.screen.name)

        def choose(item):
            while app.screen.items[app.screen.cursor] != item:
                act(S.NEXT)
            act(S.OK)

        act(S.NEXT)                                  # the table: the cursor steps
        act(S.MENU)
        choose("Rules")
        assert app.screen.name == "rules" and app.screen.pages() > 1
        for action in (S.NEXT, S.PREV, S.PREV, S.NEXT, S.OK):
            act(action)
        choose("Resume")
        assert app.screen is app.table
        app.table.cursor = next(i for i in range(app.table.item_n)
                                if app.table.item_kind[i] == S.HINT_ITEM)
        act(S.OK)                                    # the hint: the table changed, not shown
        act(S.MENU)
        choose("Save and quit")
        choose("New game")
        assert app.screen.name == "setup"
        act(S.NEXT)
        act(S.OK)                                    # a row's value changed
        act(S.MENU)
        assert app.screen.name == "title"


def counting(base):
    """A subclass of sequence type `base` that counts the items read from it."""
    class Counting(base):
        reads = 0

        def __getitem__(self, i):
            Counting.reads += 1
            return base.__getitem__(self, i)
    return Counting


CountingPalette = counting(tuple)       # a palette that counts the colours read from it


def test_the_st7789_reads_a_palette_once_not_on_every_show():
    from host_tests.test_drivers import open_st7789
    from tools.fakes.chipmodels import PlainCanvas
    spi, panel = open_st7789(90)
    canvas = PlainCanvas(240, 135, 4)
    canvas.palette = CountingPalette(canvas.palette)
    panel.show(canvas, 0, 0, 16, 5)
    first = CountingPalette.reads
    for k in range(10):
        panel.show(canvas, 16 * k, 0, 16, 5)
    assert first == 16 and CountingPalette.reads == first
    canvas.palette = tuple(0xFFFF - c for c in canvas.palette)   # a new palette is read
    panel.show(canvas, 0, 0, 16, 5)
    assert panel.lut[0] << 8 | panel.lut[1] == canvas.palette[0]


@pytest.mark.parametrize("w,h,depth", SIZES)
def test_the_app_steps_a_flying_card_only_while_one_flies(w, h, depth, monkeypatch):
    """A played card flies to the pile on 240x135 colour screens alone; the app's tick calls
    the painter's animate only while a card is on its way (an idle frame makes no call)."""
    from tools.fakes.chipmodels import turn_target
    from firmware.paint_fly import FlyingPainter
    flying_at_calls = []
    step = FlyingPainter.animate

    def animate(painter, now_ms):
        flying_at_calls.append(painter.flying)
        step(painter, now_ms)

    monkeypatch.setattr(FlyingPainter, "animate", animate)
    c, app = started_game(w, h, depth, seed=5)
    now = app.now
    for _ in range(600):                     # 12 s of frames: you play your first card
        sc = app.screen
        if sc.name == "table" and sc.my_turn:
            target = turn_target(sc)
            while sc.cursor != target:
                app.act(1)
            app.act(3)
            if app.screen.name == "picker":
                app.act(3)
        now += 20
        app.tick(now)
    assert app.game.n_moves > 8
    assert all(card >= 0 for card in flying_at_calls)
    assert bool(flying_at_calls) == (depth == 4 and w >= 200)


def test_the_large_painter_repeats_the_painters_private_constants():
    """firmware.paint_large and paint_fly fold a few of firmware.paint's and firmware.gfx's
    constants at compile time: their copies match, and only a 240x135 colour canvas gets
    their painters (firmware.direct's canvas: test_direct)."""
    from firmware import paint_fly, paint_large
    assert paint_fly._LARGE == gfx.LARGE and paint_fly._SEAT0 == paint._SEAT0
    assert paint_large._INSIDE == paint._INSIDE and paint_large._SPELT == gfx._SPELT
    assert type(paint.painter_for(BoxCanvas(240, 135, 4))) is paint_fly.FlyingPainter
    for w, h, depth in ((128, 64, 1), (72, 40, 1)):
        assert type(paint.painter_for(BoxCanvas(w, h, depth))) is paint.Painter


def test_stamps_in_one_colour_set_their_two_colour_palette_once(monkeypatch):
    """Letters and suits are stamped through a 2-entry palette (the key, the ink): a run of
    them in one colour sets it once, a new colour sets it again."""
    import framebuf
    c = BoxCanvas(240, 135, 4)
    writes = []
    pixel = framebuf.FrameBuffer.pixel

    def counted(fb, x, y, *colour):
        if fb is c._ink_fb and colour:
            writes.append(colour[0])
        return pixel(fb, x, y, *colour)

    monkeypatch.setattr(framebuf.FrameBuffer, "pixel", counted)
    c.small("THE TWENTY-FOUR LETTERS HERE", 0, 0, gfx.TEXT)    # four stamps
    c.suit(0, 10, 2, gfx.TEXT)
    assert len(writes) == 2
    c.suit(10, 10, 2, gfx.RED)
    assert len(writes) == 4 and writes[-1] == c.ink(gfx.RED)


def test_on_240x135_a_turn_passing_redraws_the_names_not_the_seats():
    """Whose turn it is shows as the name lit with a line over it: when the turn passes
    from one opponent to the next, their names are drawn again (with the Mau mark beside
    them), not their seats; a count that changes redraws the count alone."""
    c, app = my_turn_table(240, 135, 4)
    t, painter = app.table, app.painter
    others = t.players - 1
    w = 240 // others
    seat_of = {(t.viewer + 1 + k) % t.players: k for k in range(others)}
    first, second = (t.viewer + 1) % t.players, (t.viewer + 2) % t.players
    t.turn = first
    t.shown += 1                 # the seats' fields set by hand, as a view taken would
    painter.paint(t)
    c.take_boxes()
    names = [(seat_of[p] * w + 4, 0, 40, 10) for p in (first, second)]
    mau = [(seat_of[p] * w + w - 15, 3, 12, 5) for p in (first, second)]
    t.turn = second
    t.shown += 1
    drawn = marked(c, lambda: painter.paint(t))
    bar = [b for b in drawn if b[1] < paint._BAR_H[gfx.LARGE]]
    assert bar and all(any(inside(b, a) for a in names + mau) for b in bar), bar
    assert bytes(painted_whole(app, 240, 135, 4).buf) == bytes(c.buf)
    t.counts[second] += 1
    t.shown += 1
    k = seat_of[second]
    drawn = [b for b in marked(c, lambda: painter.paint(t)) if b[1] < paint._BAR_H[gfx.LARGE]]
    assert drawn and all(inside(b, (k * w + 4, 11, 40, 8)) for b in drawn), drawn
    assert bytes(painted_whole(app, 240, 135, 4).buf) == bytes(c.buf)


def inside(box, area):
    """The box (x, y, w, h) lies within the area."""
    x, y, w, h = box
    ax, ay, aw, ah = area
    return ax <= x and ay <= y and x + w <= ax + aw and y + h <= ay + ah


@pytest.mark.parametrize("names", (("Anna", "Greta", "Hugo", "Ida"),
                                   ("Anna", "Al", "Greta", "Hugo", "Ida", "Birgit")))
def test_on_240x135_a_seat_draws_again_only_its_part_that_changed(names):
    """A turn passing draws the two names again as wide as they are, not the Mau marks; a
    Mau mark draws the mark; a count its digits, unless it gains a digit or comes to one
    card (the word changes). Where a name reaches the Mau mark (six players: seats 48
    pixels wide) both are drawn. The canvas equals the table painted whole after each."""
    from firmware.boxes import BoxCanvas
    c = BoxCanvas(240, 135, 4)
    painter = paint.painter_for(c)
    t = S.TableScreen(list(names), paint.hand_fit(c), paint.status_cols(c), paint.status_fit(c))
    n = t.players
    w = 240 // (n - 1)
    for p in range(n):
        t.counts[p] = 5
    t.turn = 1
    painter.paint(t)
    c.take_boxes()

    def seat(p):            # (x, the name's width, whether it reaches the Mau mark)
        x, width = (p - 1) * w, 8 * len(names[p][:5])
        return x, width, width > w - 19

    def name_area(p):
        x, width, reaches = seat(p)
        return [(x + 4, 0, width, 10)] + mau_area(p) * reaches

    def mau_area(p):
        return [((p - 1) * w + w - 15, 3, 12, 5)]

    def count_area(p, digits):
        return [((p - 1) * w + 4, 11, digits, 8)]

    def bar_drawn(change, allowed):
        change()
        t.shown += 1             # the seats' fields set by hand, as a view taken would
        drawn = [b for b in marked(c, lambda: painter.paint(t)) if b[1] < paint._BAR_H[gfx.LARGE]]
        assert drawn and all(any(inside(b, a) for a in allowed) for b in drawn), (drawn, allowed)
        fresh = BoxCanvas(240, 135, 4)
        paint.painter_for(fresh).paint(t)
        assert bytes(fresh.buf) == bytes(c.buf)

    for p in range(1, n - 1):                 # the turn passes round, seat by seat
        bar_drawn(lambda: setattr(t, "turn", p + 1), name_area(p) + name_area(p + 1))
    for p in range(1, n):
        bar_drawn(lambda: t.mau.__setitem__(p, 1), mau_area(p) + seat(p)[2] * name_area(p))
        bar_drawn(lambda: t.mau.__setitem__(p, 0), mau_area(p) + seat(p)[2] * name_area(p))
    p = n - 1
    for count, digits in ((6, 8), (9, 8), (10, 40), (11, 16), (9, 40), (2, 8), (1, 40), (2, 40)):
        bar_drawn(lambda: t.counts.__setitem__(p, count), count_area(p, digits))


@pytest.mark.parametrize("w,h,depth", SIZES)
def test_the_scroll_marks_are_drawn_again_only_where_a_slot_covers_one(w, h, depth):
    """A cursor step off the first slot draws that slot's column again; only on 72x40 does
    the column hold the left scroll mark (the marks are drawn again then), elsewhere they
    stay."""
    c, app = my_turn_table(w, h, depth)
    t, painter, s = app.table, app.painter, c.size
    t.scroll = 0
    t.cursor = 0
    painter.paint(t)
    c.take_boxes()
    t.cursor = 1
    drawn = marked(c, lambda: painter.paint(t))
    edge = 3 if s == gfx.LARGE else 1
    mid = paint._HAND_Y[s] + c.card_size()[1] // 2 - 2
    ends = [(0, mid, edge, 5), (w - edge, mid, edge, 5)]
    assert [b for b in drawn if b in ends] == (ends if s == gfx.TINY else []), drawn
    assert bytes(painted_whole(app, w, h, depth).buf) == bytes(c.buf)


@pytest.mark.parametrize("w,h,depth", SIZES[:2])
def test_a_drawing_inside_a_part_just_drawn_is_not_marked_again(w, h, depth):
    """A cursor step over every item of the hand row marks the slots' columns (128x64: the
    arrow's strip), not their cards, tiles, the cursor's frame or arrow; a new status line
    marks its clearing, not its text (each of those marks would only find itself inside);
    the canvas equals one painted whole. (On 72x40 the left scroll mark lies in the first
    slot's column, and is marked when drawn again.)"""
    c, app = my_turn_table(w, h, depth)
    t, painter = app.table, app.painter
    t.scroll = 0
    t.cursor = 0
    painter.paint(t)
    c.take_boxes()

    def marks_nothing_inside(change):
        change()
        drawn = marked(c, lambda: painter.paint(t))
        assert drawn and not [b for k, b in enumerate(drawn)
                              if any(inside(b, a) for a in drawn[:k])], drawn
        assert bytes(painted_whole(app, w, h, depth).buf) == bytes(c.buf)

    for i in range(1, min(t.item_n, paint.hand_fit(c))):
        marks_nothing_inside(lambda: setattr(t, "cursor", i))
    marks_nothing_inside(lambda: setattr(t, "status", ["Anna plays 7 of hearts", "Mau"]))


def test_the_hand_rows_keys_are_one_list_made_again_with_the_keys():
    """What each slot shows and the marks below it are kept in one list (read by index on
    every paint, not looked up in the dict slot by slot); the painter's keys made anew (a
    new screen) make it anew, so the table then draws every slot again."""
    c, app = my_turn_table(240, 135, 4)
    t, painter = app.table, app.painter
    fit = paint.hand_fit(c)
    slots = painter.keys["slots"]
    assert len(slots) == 2 * fit and None not in slots
    assert len(painter.keys) < 30        # the regions but the seats' are named (was 39)
    painter.keys = {}
    columns = [b for b in marked(c, lambda: painter.paint(t)) if b[1] == paint._HAND_Y[gfx.LARGE] - 6]
    assert len(columns) == fit and painter.keys["slots"] is not slots


CountingBytes = counting(bytearray)


def test_a_paint_that_changes_nothing_of_the_hand_row_reads_none_of_its_items():
    """The hand row follows from the screen's arrays, which change only when it takes a
    view (its `shown` count), and a few numbers (cursor, scroll, hint, pending, whose turn):
    a new status line reads no item; a cursor step, or a view taken, does."""
    c, app = my_turn_table(240, 135, 4)
    t, painter = app.table, app.painter
    t.item_kind = CountingBytes(t.item_kind)
    CountingBytes.reads = 0
    t.status = ["Anna plays 7 of hearts"]
    assert marked(c, lambda: painter.paint(t)) and CountingBytes.reads == 0
    t.cursor = (t.cursor + 1) % t.item_n
    painter.paint(t)
    assert CountingBytes.reads > 0
    CountingBytes.reads = 0
    t.shown += 1
    painter.paint(t)
    assert CountingBytes.reads > 0
    assert bytes(painted_whole(app, 240, 135, 4).buf) == bytes(c.buf)


def test_a_paint_without_a_new_view_reads_none_of_the_seats():
    """The seats' fields (players, viewer, turn, counts, Mau) are set only when the screen
    takes a view: a paint after none (a status line, a cursor step) reads no count; a view
    taken (its `shown` count) makes the bar look again, and the canvas equals one painted
    whole."""
    c, app = my_turn_table(240, 135, 4)
    t, painter = app.table, app.painter
    t.counts = CountingBytes(t.counts)
    CountingBytes.reads = 0
    t.status = ["Anna plays 7 of hearts"]
    t.cursor = (t.cursor + 1) % t.item_n
    assert marked(c, lambda: painter.paint(t)) and CountingBytes.reads == 0
    p = (t.viewer + 1) % t.players
    t.counts[p] += 1
    t.shown += 1
    CountingBytes.reads = 0
    drawn = [b for b in marked(c, lambda: painter.paint(t)) if b[1] < paint._BAR_H[gfx.LARGE]]
    assert CountingBytes.reads > 0 and drawn
    assert bytes(painted_whole(app, 240, 135, 4).buf) == bytes(c.buf)


class CountingList(list):
    """A list that counts the items read from it by index."""
    reads = 0

    def __getitem__(self, i):
        CountingList.reads += 1
        return list.__getitem__(self, i)


def test_a_card_played_from_no_slot_is_not_looked_for_slot_by_slot():
    """240x135: a card on the pile that no slot showed (an opponent's) is found missing by a
    scan of the slots' keys, not slot by slot; one a slot showed flies from that slot."""
    c, app = my_turn_table(240, 135, 4)
    t, painter = app.table, app.painter
    slots = painter.keys["slots"] = CountingList(painter.keys["slots"])
    shown = [k & 0xFF for k in slots[:paint.hand_fit(c)] if k is not None and 0 <= k < 4096]
    top = t.top
    t.top = next(card for card in range(4, 64) if card not in shown and card != top)
    CountingList.reads = 0
    painter._launch(t)
    assert CountingList.reads == 0
    painter.flying = -1
    t.top = shown[0]
    painter._launch(t)
    assert CountingList.reads > 0 and painter.flying == shown[0]
    painter.flying = -1
    t.top = top
