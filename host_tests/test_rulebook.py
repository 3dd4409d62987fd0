"""The in-game Rules pages (firmware.rulebook) and docs/rules.md say the same sentences,
and a page never breaks inside a sentence."""
import importlib
import os
import re

import pytest

from engine.rules import Rules
from firmware import screens as S
from firmware.app import App
from firmware.gfx import Canvas
from firmware.rulebook import rules_lines
from firmware.pages import PagesScreen

DOCS = os.path.join(os.path.dirname(__file__), "..", "docs", "rules.md")
BOARDS = ("pico_display", "pico_oled", "thumby")


def configurations():
    """Both rule sets with the setup's matches, and every option value on top of each."""
    from engine.options import options
    out = []
    for preset in ("classic", "nordic"):
        out += [Rules(preset, match="rounds", rounds=1), Rules(preset, match="rounds", rounds=3),
                Rules(preset, match="elimination", limit=100)]
        for option in options():
            if option[0] in ("deck", "hand_size", "min_players", "max_players", "match",
                             "rounds", "limit"):
                continue
            for value in option[3]:
                out.append(Rules(preset, **{option[0]: value}))
    return out


def test_every_sentence_of_the_rules_pages_is_in_the_players_rules():
    with open(DOCS) as f:
        quoted = set(re.findall(r'"([^"]+)"', " ".join(f.read().split())))
    missing = set()
    for rules in configurations():
        for sentence in rules_lines(rules):
            if sentence not in quoted:
                missing.add(sentence)
    assert not missing, sorted(missing)


def test_each_sentence_fits_a_page_of_the_smallest_screen():
    for rules in configurations():
        for sentence in rules_lines(rules):
            assert len(S.wrap(sentence, 16)) <= 3, sentence     # 72x40: 3 lines of 16


def page_lines(texts, cols, fit):
    """Every page's lines as the Rules pages made them when every text was wrapped at once
    (before they wrapped the page shown only): the pages' rule."""
    lines = []
    for text in texts:
        part = S.wrap(text, cols)
        room = fit - len(lines) % fit
        if room < len(part) <= fit:
            lines += [""] * room
        lines += part
    return [lines[at:at + fit] for at in range(0, max(1, len(lines)), fit)]


def every_page(sc):
    """Each page of `sc`, turned to with NEXT, then back to the first with PREV; the pages'
    lines as the painters show them (a row without a line is blank)."""
    seen = []
    while True:
        assert sc.top == sc.page() * sc.fit
        seen.append(list(sc.lines) + [""] * (sc.fit - len(sc.lines)))
        if sc.page() == sc.pages() - 1:
            break
        assert sc.on(S.NEXT) == S.NOTHING
    for k in range(sc.pages() - 2, -1, -1):
        assert sc.on(S.PREV) == S.NOTHING and sc.page() == k
        assert list(sc.lines) + [""] * (sc.fit - len(sc.lines)) == seen[k]
    return seen


def same_pages(texts, cols, fit):
    sc = PagesScreen("rules", "Rules", texts, cols, fit)
    want = [page + [""] * (fit - len(page)) for page in page_lines(texts, cols, fit)]
    assert every_page(sc) == want, (texts, cols, fit)
    assert sc.pages() == len(want)


def test_pages_push_a_sentence_that_would_straddle_to_the_next_page():
    texts = ["one two three", "four five six seven", "eight"]
    sc = PagesScreen("rules", "Rules", texts, 9, 3)
    assert every_page(sc) == [["one two", "three", ""], ["four five", "six seven", "eight"]]
    sc = PagesScreen("rules", "Rules", ["a b c d e f g h"], 1, 3)   # longer than a page
    assert every_page(sc) == [["a", "b", "c"], ["d", "e", "f"], ["g", "h", ""]]
    assert every_page(PagesScreen("stats", "Statistics", [], 9, 3)) == [["", "", ""]]


def test_a_page_at_a_time_shows_what_wrapping_every_text_at_once_showed():
    import random
    for rules in configurations()[:12]:
        for cols, fit in ((16, 3), (15, 6), (28, 7), (9, 2)):
            same_pages(rules_lines(rules), cols, fit)
    rng = random.Random(15)
    words = ["a", "Jack", "draws", "2", "", "Maximilian's", "supercalifragilistic", "\n"]
    for _ in range(300):
        texts = [" ".join(rng.choice(words) for _ in range(rng.randrange(0, 12)))
                 for _ in range(rng.randrange(0, 9))]
        same_pages(texts, rng.randrange(1, 20), rng.randrange(1, 8))


def rules_pages(name):
    board = importlib.import_module("board_configs." + name)
    app = App(board, Canvas(board.WIDTH, board.HEIGHT, board.DEPTH), None, 0, playouts=4, seed=3)
    app.act(S.OK)                                   # New game
    sc = app.screen
    sc.cursor = sc.rows_of.index(("preset", 0))
    app.act(S.OK)                                   # nordic: the longest rules
    sc.cursor = sc.rows_of.index(("start", 0))
    app.act(S.OK)
    app.pause()
    app.screen.cursor = app.screen.items.index("Rules")
    app.act(S.OK)
    return app, app.screen


@pytest.mark.parametrize("name", BOARDS)
def test_the_rules_pages_break_between_sentences(name):
    app, pages = rules_pages(name)
    assert pages.name == "rules" and pages.pages() > 1
    cols = app.sizes.list_cols
    lines = sum(every_page(pages), [])
    at = 0
    for sentence in rules_lines(app.game.rules):
        part = S.wrap(sentence, cols)
        while lines[at] == "" and part[0] != "":
            at += 1                                  # the blank lines that end a page
        assert lines[at:at + len(part)] == part
        assert at // pages.fit == (at + len(part) - 1) // pages.fit, (name, sentence)
        at += len(part)
