"""Screens as state machines, and what the painter draws of them."""
from array import array

import pytest

from engine import moves as mv
from engine.rng import Random
from engine.round import Round, View
from engine.rules import Rules
from firmware import gfx
from firmware import screens as S
from firmware.pages import CoverScreen, PagesScreen
from firmware.boxes import BoxCanvas
from host_tests.test_gfx import take_dirty
from firmware.paint import painter_for, hand_fit, status_cols, status_fit

SIZES = ((240, 135, 4), (128, 64, 1), (72, 40, 1))


def test_wrap_breaks_at_spaces_and_long_words():
    assert S.wrap("Greta plays 7 of clubs: Emma draws 2", 18) == [
        "Greta plays 7 of", "clubs: Emma draws", "2"]
    assert S.wrap("abcdefghij", 4) == ["abcd", "efgh", "ij"]


def test_wrap_counts_the_lines_it_would_make():
    for text in ("Greta plays 7 of clubs: Emma draws 2", "abcdefghij", "", "a\n\nb c", " x  y "):
        for cols in (1, 4, 18):
            assert S.wrap(text, cols, True) == len(S.wrap(text, cols)), (text, cols)


def test_wrapping_in_the_vm_makes_its_lines_and_not_a_string_a_word():
    """A rules sentence wrapped on MicroPython allocates its lines and their list: the
    words are spans of the sentence, never strings of their own."""
    from tools.vm import mpvm
    text = ("A Jack may be played on any card but a Jack; its player wishes a suit, and the "
            "next player must follow the wish or play a Jack. An 8 skips the next player.")
    lines = S.wrap(text, 20)
    # a line: the slice that cuts it (16 bytes), its str (16) and its characters and a 0
    # in 16-byte blocks; the list: 16 bytes and its item array, which doubles as it fills
    strings = sum(32 + (len(line) + 16) // 16 * 16 for line in lines)
    items = 16 + (8 * len(lines) + 15) // 16 * 16
    made = mpvm.measure_alloc("wrap(TEXT, 20)", "from firmware.screens import wrap\nTEXT = %r"
                              % text, modules=("engine", "firmware"), timeout=60)
    assert made <= strings + items, (made, strings + items)


def test_the_rules_pages_wrap_the_page_shown_alone_in_the_vm():
    """The Rules pages opened on MicroPython (the highest frame on the 128x64 board from
    files) make the lines of their first page, not of every sentence (3.7-4.9 KB before),
    and a page turn the next page's; counting a text's lines makes nothing."""
    from firmware.opening import sizes_of
    from tools.vm import mpvm
    made = mpvm.measure_alloc("wrap(TEXT, 20, True)", "from firmware.screens import wrap\n"
                              "TEXT = 'A Jack may be played on any card but a Jack; ' * 4",
                              modules=("engine", "firmware"), timeout=60)
    assert made == 0
    for w, h, depth in SIZES:
        f = sizes_of(painter_for(BoxCanvas(w, h, depth)))
        setup = VM_PAGES % (f.list_fit, f.title_fit, f.list_cols, f.status_cols, f.status_fit,
                            f.hand_fit)
        # (firmware.pages imported beforehand: its code is not the pages' lines)
        opened = mpvm.measure_alloc('app.pages("rules", "Rules", TEXTS)',
                                    setup + "import firmware.pages\n",
                                    modules=("engine", "firmware"), timeout=60)
        turned = mpvm.measure_alloc("app.act(S.NEXT)", setup + 'app.pages("rules", "Rules", TEXTS)',
                                    modules=("engine", "firmware"), timeout=60)
        # a page: at most list_fit - 1 lines of list_cols characters (the slice, the str, its
        # characters in 16-byte blocks), and room for the screen, its list of where each
        # sentence starts, and the page's sentences' lists
        page = (f.list_fit - 1) * (32 + (f.list_cols + 16) // 16 * 16)
        assert opened <= page + 640 and turned <= page + 640, (w, opened, turned, page)


# An app in the VM whose painter draws nothing (its sizes given), and the nordic rules'
# sentences, the longest Rules pages
VM_PAGES = """
from engine.rules import Rules
from firmware.rulebook import rules_lines
from firmware import screens as S
from firmware.app import App

class Board:
    LAYOUT = "dpad"

class Quiet:
    flying = -1
    sizes = S.Sizes(False, %d, %d, %d, %d, %d, %d)
    def paint(self, sc):
        pass

app = App(Board, None, None, 0, painter=Quiet())
TEXTS = rules_lines(Rules("nordic"))
"""


def test_list_screen_wraps_and_scrolls_with_the_cursor():
    sc = S.ListScreen("x", "T", ["a", "b", "c", "d", "e"], ["line"], fit=3)
    assert sc.on(S.PREV) == S.NOTHING and sc.cursor == 4 and sc.top == 3
    sc.on(S.NEXT)
    assert sc.cursor == 0 and sc.top == 0
    assert sc.on(S.OK) == 0 and sc.on(S.MENU) == S.PAUSE


def table_for(seat, c, rnd=None):
    rules = Rules("classic")
    rnd = rnd or Round(rules, 3, Random(4))
    out = array("H", range(mv.MAX_MOVES))
    t = S.TableScreen(["Anna", "Greta", "Hugo"], hand_fit(c), status_cols(c), status_fit(c))
    n = rnd.legal_moves(seat, out)
    t.show(rnd.view(seat, View(rules)), seat, out, n, rnd.turn() == seat)
    return t, rnd, out, n


def test_table_items_are_exactly_the_legal_moves():
    c = BoxCanvas(240, 135, 4)
    rnd = Round(Rules("classic"), 3, Random(4))
    t, rnd, out, n = table_for(rnd.turn(), c, rnd)
    legal = set(out[k] for k in range(n))
    offered = set()
    for i in range(t.item_n):
        m = t.move_for(i)
        if m >= 0:
            offered.add(m)
        if t.item_kind[i] == S.CARD_ITEM:
            assert bool(t.playable[t.item_arg[i]]) == (m >= 0)
    # every offered move is legal; every legal play without a wish is offered
    assert offered <= legal
    assert {m for m in legal if m & mv.KIND_MASK == mv.PLAY and m & 0xC0 == 0
            and not m & mv.MAU} <= offered
    kinds = [t.item_kind[i] for i in range(t.item_n)]
    assert kinds[-2:] == [S.HINT_ITEM, S.MENU_ITEM] and kinds[:t.hand_n] == [S.CARD_ITEM] * t.hand_n


@pytest.mark.parametrize("w,h,depth", SIZES)
def test_top_card_region_shows_the_top_card(w, h, depth):
    frames = set()
    for seed in range(6):
        c = BoxCanvas(w, h, depth)
        t, rnd, _, _ = table_for(0, c, Round(Rules("classic"), 3, Random(seed)))
        painter_for(c).paint(t)
        x, y, cw, ch = {240: (105, 23, 30, 42), 128: (42, 8, 15, 22), 72: (27, 7, 9, 12)}[w]
        frames.add((rnd.top(), tuple(c.fb.pixel(x + i, y + j) for j in range(ch) for i in range(cw))))
    tops = {f[0] for f in frames}
    assert len({f[1] for f in frames}) == len(tops) > 1   # one picture per top card


@pytest.mark.parametrize("w,h,depth", SIZES)
def test_moving_the_cursor_redraws_only_the_hand_row(w, h, depth):
    c = BoxCanvas(w, h, depth)
    t, _, _, _ = table_for(0, c)
    p = painter_for(c)
    p.paint(t)
    assert take_dirty(c) == (0, 0, w, h)
    t.on(S.NEXT)
    p.paint(t)
    x, y, dw, dh = take_dirty(c)
    assert y >= h // 2 and dh < h // 2       # the hand row at the bottom, nothing else
    p.paint(t)
    assert take_dirty(c) is None             # nothing changed, nothing drawn


@pytest.mark.parametrize("w,h,depth", SIZES)
def test_cover_draws_no_hand(w, h, depth):
    c = BoxCanvas(w, h, depth)
    p = painter_for(c)
    p.trace = []
    p.paint(CoverScreen("Finn", 2))
    assert p.trace == [("cover", 2)]
    if depth == 4:
        assert c.ink(gfx.CARD) not in set(c.fb.pixel(x, y) for x in range(w) for y in range(h))
    else:   # "Finn" is written on the cover
        assert any(c.buf)


def test_pages_screen_turns_pages_then_finishes():
    sc = PagesScreen("story", "T", ["l%d" % i for i in range(7)], 20, fit=3)
    assert sc.pages() == 3
    assert sc.on(S.NEXT) == S.NOTHING and sc.page() == 1
    assert sc.on(S.NEXT) == S.NOTHING and sc.page() == 2
    assert sc.on(S.NEXT) == S.DONE


def test_the_scores_page_their_rows():
    from firmware.pages import ScoresScreen
    sc = ScoresScreen("T", ("Name", "Rnd", "Tot", "Left"), [("P%d" % i, i, i, b"") for i in range(5)],
                      fit=2)
    assert sc.pages() == 3 and sc.page() == 0
    assert sc.on(S.NEXT) == S.NOTHING and (sc.page(), sc.pages(), sc.top) == (1, 3, 2)
    assert sc.on(S.NEXT) == S.NOTHING and (sc.page(), sc.pages(), sc.top) == (2, 3, 4)
    assert sc.on(S.PREV) == S.NOTHING and sc.top == 2
    assert sc.on(S.NEXT) == S.NOTHING and sc.on(S.NEXT) == S.DONE


def stacked(hands, top, turn=0):
    """A classic 2-player round with these hands (short names) and top card."""
    from engine.cards import deck
    from engine.notation import parse
    rules = Rules("classic")
    rnd = Round(rules, 2, Random(1))
    hands = [bytearray(parse(c) for c in h.split()) for h in hands]
    used = set(b for h in hands for b in h) | {parse(top)}
    draw = bytearray(c for c in deck("skat32") if c not in used)
    rnd.set_table(hands, draw, bytearray([parse(top)]), turn)
    return rnd


def test_a_jack_asks_for_a_suit_unless_it_is_the_last_card():
    from engine.notation import parse
    c = BoxCanvas(240, 135, 4)
    t, _, _, _ = table_for(0, c, stacked(["JC", "8S 9S"], "7H"))
    assert not t.wishes(parse("JC"))                     # the last card: no picker
    assert t.play_move(parse("JC"), 0) >= 0
    t, _, _, _ = table_for(0, c, stacked(["JC 7S", "8S 9S"], "7H"))
    assert t.wishes(parse("JC"))
    assert {t.play_move(parse("JC"), w) & 0xC0 for w in range(4)} == {0, 0x40, 0x80, 0xC0}


def test_mau_is_said_with_the_second_last_card_not_with_a_tile_before_it():
    from engine.notation import parse
    c = BoxCanvas(128, 64, 1)
    t, _, _, _ = table_for(0, c, stacked(["7H 8C", "8S 9S"], "7D"))
    assert S.MAU_ITEM not in [t.item_kind[i] for i in range(t.item_n)]
    assert t.asks_mau(parse("7H"))
    assert t.play_move(parse("7H"), 0, True) == parse("7H") | mv.MAU
    assert t.play_move(parse("7H"), 0) == parse("7H")        # forgetting it stays possible
    t, _, _, _ = table_for(0, c, stacked(["7H 8C 9C", "8S 9S"], "7D"))
    assert not t.asks_mau(parse("7H")) and t.play_move(parse("7H"), 0, True) == parse("7H")


@pytest.mark.parametrize("preset", ("classic", "nordic"))
def test_offered_moves_are_legal_and_complete_through_whole_rounds(preset):
    """At every turn of seeded random rounds, the hand row offers exactly the legal moves."""
    import random
    c = BoxCanvas(240, 135, 4)
    rules = Rules(preset)
    out = array("H", range(200))
    pick = random.Random(5)
    turns = 0
    for seed in range(8):
        rnd = Round(rules, 3 + seed % 3, Random(seed))
        t = S.TableScreen(["A", "B", "C", "D", "E"], hand_fit(c), status_cols(c), status_fit(c))
        while not rnd.is_over() and turns < 4000:
            seat = rnd.turn()
            n = rnd.legal_moves(seat, out)
            legal = set(out[k] for k in range(n))
            t.show(rnd.view(seat, View(rules)), seat, out, n, True)
            offered = set()
            for i in range(t.item_n):
                kind = t.item_kind[i]
                if kind == S.CARD_ITEM:
                    card = t.hand[t.item_arg[i]]
                    for mau in (False, True) if t.asks_mau(card) else (False,):
                        for wish in range(4) if t.wishes(card) else (0,):
                            m = t.play_move(card, wish, mau)
                            assert (m >= 0) == bool(t.playable[t.item_arg[i]])
                            if m >= 0:
                                offered.add(m)
                elif t.move_for(i) >= 0:
                    offered.add(t.move_for(i))
            assert offered == legal, (sorted(offered), sorted(legal))
            rnd.apply(seat, pick.choice(sorted(legal)))
            turns += 1
    assert turns > 100


def test_move_layout_mirrored_from_the_engine():
    # screens repeats engine.moves' layout privately (folded at compile time)
    assert (S._KIND_MASK, S._PLAY, S._DRAW, S._PASS, S._CATCH, S._MAU) == (
        mv.KIND_MASK, mv.PLAY, mv.DRAW, mv.PASS, mv.CATCH, mv.MAU)


def names(cards):
    from engine.text import card_name
    return " ".join(card_name(c) for c in cards)


def test_the_hand_is_shown_sorted_and_keeps_its_order_while_others_move():
    """By suit (clubs, spades, hearts, diamonds), then rank; or by rank, then suit. The
    engine puts a drawn card first; the row does not move, and the cursor stays on its
    card."""
    from engine.notation import parse
    c = BoxCanvas(240, 135, 4)
    rnd = stacked(["9H 7C JS AC 8H", "8S 9S TS"], "7D")
    t, rnd, out, n = table_for(0, c, rnd)
    assert names(t.hand[:t.hand_n]) == "7C AC JS 8H 9H"
    t.cursor = 3                                     # on the 8 of hearts
    view = View(rnd.rules)
    for _ in range(4):                               # both draw (and keep what they drew)
        seat = rnd.turn()
        n = rnd.legal_moves(seat, out)
        rnd.apply(seat, mv.DRAW if mv.DRAW in out[:n] else mv.PASS)
        n = rnd.legal_moves(0, out)
        t.show(rnd.view(0, view), 0, out, n, rnd.turn() == 0)
        assert list(t.hand[:t.hand_n]) == sorted(rnd.hand(0))
        assert t.hand[t.item_arg[t.cursor]] == parse("8H"), names(t.hand[:t.hand_n])
    raw = bytearray(10)
    k = rnd.hand_into(0, raw)
    assert k == 6 and list(raw[:k]) != sorted(raw[:k])   # the engine's order is not the row's
    t = S.TableScreen(["Anna", "Greta"], hand_fit(c), status_cols(c), status_fit(c), by_rank=True)
    rnd = stacked(["9H 7C JS AC 8H 7S", "8S 9S TS"], "7D")
    t.show(rnd.view(0, view), 0, out, rnd.legal_moves(0, out), True)
    assert names(t.hand[:t.hand_n]) == "7C 7S 8H 9H JS AC"


def test_sorting_a_hand_allocates_nothing_on_micropython():
    from tools.vm import mpvm
    script = """
import gc, micropython
from array import array
from engine.rng import Random
from engine.round import Round, View
from engine.rules import Rules
from firmware.screens import TableScreen
rules = Rules("nordic")
rnd = Round(rules, 3, Random(5))
view = View(rules)
out = array("H", range(40))
tables = (TableScreen(["A", "B", "C"], 8, 30, 2, 104), TableScreen(["A", "B", "C"], 8, 30, 2, 104, True))
for t in tables:
    t.show(rnd.view(0, view), 0, out, rnd.legal_moves(0, out), rnd.turn() == 0)
gc.collect()
for t in tables:
    for k in range(3):
        rnd.view(0, view)
        n = rnd.legal_moves(0, out)
        micropython.heap_lock()
        try:
            t.show(view, 0, out, n, rnd.turn() == 0)
        finally:
            micropython.heap_unlock()
    print("SORTED", list(t.hand[:t.hand_n]) == sorted(t.hand[:t.hand_n]) if not t.by_rank else
          [c & 15 for c in t.hand[:t.hand_n]] == sorted(c & 15 for c in t.hand[:t.hand_n]))
"""
    out = mpvm.run(script, modules=("engine", "firmware"), timeout=120).check().stdout
    assert out.split().count("True") == 2, out
