"""The gallery (python -m tools.sim.gallery): every named screen of a board, really that
screen (the app's state, and its words found in the picture), the same bytes every time."""
import os

import pytest
from PIL import Image

from tools.sim import boards, findtext, gallery
from tools.sim.device import ROOT, firmware_app_factory

pytestmark = pytest.mark.skipif(firmware_app_factory() is None, reason="firmware/app.py is not written yet")

SCREEN_OF = {  # gallery name -> the app's screen
    "title": "title", "setup": "setup", "table": "table", "pending7": "table", "wish": "table",
    "picker": "picker", "mau": "mau", "catch": "table", "cover": "cover",
    "round_end": "scores", "match_end": "final",
}


def shown_words(screen):
    """Words the screen's painter must show: a list's first items, the table's status line,
    the cover's player."""
    if screen.name == "table":
        return [screen.status[screen.status_top]] if screen.status else []
    if screen.name == "cover":
        return [screen.player]
    if screen.name == "picker":
        return [screen.items[screen.cursor]]   # the suit under the cursor (beside the suits)
    if screen.name == "scores":
        return [screen.rows[0][0]]        # the first player's name
    return [item for item in screen.items[:2]]


def shows(image, text):
    """True when the 8x8 font's `text` shows in the image, drawn at size 1 or 2."""
    if findtext.shows(image, text):
        return True
    w, h = image.size
    return any(findtext.shows(image.crop((dx, dy, w, h)).resize(((w - dx) // 2, (h - dy) // 2),
                                                                Image.NEAREST), text)
               for dx in (0, 1) for dy in (0, 1))


def seen(board_name, tmp_path):
    """Render a board's gallery; per screen: its state and the words its picture shows."""
    shots = {}

    def look(name, scout, image):
        sc = scout.screen
        shots[name] = {
            "screen": sc.name,
            "words": shown_words(sc),
            "found": [w for w in shown_words(sc) if shows(image, w)],
            "pending": getattr(sc, "pending", 0), "wish": getattr(sc, "wish", -1),
            "my_turn": scout.my_turn(),
            "hand": scout.app.table.hand_n if scout.app.table else 0,
            "catch_under_cursor": sc.name == "table" and sc.catch_item() == sc.cursor >= 0,
            "playable_jack": gallery._playable_jack(scout.app.table) >= 0 if scout.app.table else False,
            "in_flight": getattr(scout.app.painter, "flying", -1) >= 0,
        }

    made = gallery.render(board_name, str(tmp_path), look)
    return made, shots


def test_the_gallery_shows_each_named_screen_of_the_default_board(tmp_path):
    made, shots = seen("pico_display", tmp_path)
    assert [name for name, _, _ in made] == list(gallery.NAMES) == list(SCREEN_OF)
    for name, seed, path in made:
        assert path == os.path.join(str(tmp_path), "pico_display", name + ".png")
        assert Image.open(path).size == (480, 270)           # 240x135, twice
        shot = shots[name]
        assert shot["screen"] == SCREEN_OF[name], name
        assert shot["words"] and shot["found"] == shot["words"], (name, shot["words"])
    assert shots["table"]["my_turn"]
    assert shots["pending7"]["my_turn"] and shots["pending7"]["pending"] > 0
    assert shots["wish"]["my_turn"] and shots["wish"]["wish"] in (0, 1, 2, 3)
    assert shots["picker"]["playable_jack"]
    assert shots["mau"]["hand"] == 2 and "With Mau" in shots["mau"]["words"]
    assert shots["catch"]["catch_under_cursor"]
    # a shot shows the table after the played card landed, never the old top card
    assert not any(shot["in_flight"] for shot in shots.values())


def test_the_gallery_is_the_same_bytes_every_time(tmp_path):
    first = gallery.render("thumby", str(tmp_path / "a"))
    again = gallery.render("thumby", str(tmp_path / "b"))
    assert [(n, s) for n, s, _ in first] == [(n, s) for n, s, _ in again]
    for (_, _, a), (_, _, b) in zip(first, again):
        with open(a, "rb") as fa, open(b, "rb") as fb:
            assert fa.read() == fb.read(), a


def test_the_gallery_draws_the_circuitpython_boards_too(tmp_path):
    pytest.importorskip("displayio", reason="the CircuitPython back end is in requirements-circuitpython.txt")
    made, shots = seen("pybadge", tmp_path)
    assert [name for name, _, _ in made] == list(gallery.NAMES)
    assert all(shots[name]["screen"] == SCREEN_OF[name] for name in gallery.NAMES)
    assert Image.open(made[0][2]).size == (480, 384)


def test_the_command_line_and_its_mistakes(tmp_path, capsys):
    assert gallery.main(["--out", str(tmp_path), "--boards", "pico_oled"]) == 0
    assert sorted(os.listdir(tmp_path / "pico_oled")) == sorted(n + ".png" for n in gallery.NAMES)
    assert "pico_oled: 11 screens" in capsys.readouterr().out
    assert gallery.main(["--out", str(tmp_path), "--boards", "../pico_oled"]) == 2
    (tmp_path / "file").write_text("")
    assert gallery.main(["--out", str(tmp_path / "file")]) == 2
    assert gallery.main([]) == 2
    assert all(line.count("\n") <= 1 for line in capsys.readouterr().err.splitlines(True))


def test_the_index_page_shows_every_picture(tmp_path):
    made = [(name, 1, str(tmp_path / "thumby" / (name + ".png"))) for name in gallery.NAMES]
    gallery.index(str(tmp_path), [("thumby", made)])
    page = (tmp_path / "README.md").read_text()
    assert all("](thumby/%s.png)" % name in page for name in gallery.NAMES)
    assert "## TinyCircuits Thumby (`--board thumby`, 72x40)" in page


def test_docs_gallery_has_every_board_and_screen():
    """The kept gallery: a picture of every screen of every board, each on the index page
    (`python -m tools.sim.gallery --out docs/gallery` renews them)."""
    folder = ROOT / "docs" / "gallery"
    page = (folder / "README.md").read_text()
    for board in boards.names():
        for name in gallery.NAMES:
            assert (folder / board / (name + ".png")).is_file(), (board, name)
            assert "](%s/%s.png)" % (board, name) in page
