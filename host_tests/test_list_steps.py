"""What a step on a list screen sends to the panel: the row the cursor left, the row it
entered, and the title only where its text changes (docs/boards.md, time)."""
import pytest

from firmware.gfx import Canvas
from firmware.paint import painter_for
from host_tests.test_boards import load
from tools.fakes import chipmodels

COLOUR = ("pico_display", "waveshare_lcd114", "tdisplay")
WINDOW = 11     # an ST7789 show's CASET, RASET and RAMWR with their 8 argument bytes


def on_setup(name, monkeypatch):
    """A board on the fake bus with the setup screen open, its cursor on Players."""
    chipmodels.install_machine(monkeypatch)
    rig = chipmodels.Rig(load(name), seed=4, model=False)
    chipmodels.choose(rig, "New game")
    assert rig.app.screen.name == "setup" and rig.app.screen.cursor == 0
    return rig


def sent(rig, act):
    """Bytes on the fake SPI while `act()` runs."""
    before = chipmodels.FakeSPI.sent
    act()
    return chipmodels.FakeSPI.sent - before


def bytes_for(rig, w, h):
    """Bytes the ST7789 driver sends for a w x h box: 2 bytes a pixel of exactly that box,
    and the window's commands."""
    return w * h * 2 + WINDOW


def as_painted_whole(rig):
    """The rig's canvas equals its screen painted whole on a fresh canvas."""
    c = rig.canvas
    fresh = Canvas(c.width, c.height, c.depth)
    painter_for(fresh).paint(rig.app.screen)
    return fresh.buf == c.buf


@pytest.mark.parametrize("name", COLOUR)
def test_a_cursor_step_sends_two_rows_and_the_titles_letters(name, monkeypatch):
    """Players -> the first seat: the two rows (236x12 each, 2 bytes a pixel) and the title
    bar only as wide as "New game" or the seat's explanation reaches (14 lines high)."""
    rig = on_setup(name, monkeypatch)
    old = rig.app.screen.title
    n = sent(rig, lambda: rig.act(1))
    new = rig.app.screen.title
    assert old != new
    assert n <= bytes_for(rig, 236, 2 * 12) + bytes_for(rig, 8 * max(len(old), len(new)), 14)
    assert as_painted_whole(rig)


@pytest.mark.parametrize("name", COLOUR)
def test_a_step_under_the_same_title_sends_the_two_rows(name, monkeypatch):
    """Between two seats of the same level only the rows change."""
    rig = on_setup(name, monkeypatch)
    rig.act(1)
    rig.act(1)              # on the second seat; the third is of the same level
    sc = rig.app.screen
    assert sc.levels[1] == sc.levels[2]
    n = sent(rig, lambda: rig.act(1))
    assert n <= bytes_for(rig, 236, 2 * 12)
    assert as_painted_whole(rig)


@pytest.mark.parametrize("name", COLOUR + ("pico_oled", "thumby"))
def test_the_setup_after_the_final_table_is_drawn_over_its_rows(name, monkeypatch):
    """From the final table "New game" opens the setup over it: the background is not
    cleared again, and it looks as if painted whole. On colour panels less than a whole
    screen is sent (mono panels join their few boxes into one: a byte is 8 pixels)."""
    chipmodels.install_machine(monkeypatch)
    rig = chipmodels.Rig(load(name), seed=4, model=False)
    chipmodels.choose(rig, "New game")
    sc = rig.app.screen
    while sc.rows_of[sc.cursor][0] != "start":
        rig.act(1)
    rig.act(3)
    for _ in range(3000):
        if rig.app.screen.name == "final":
            break
        chipmodels.play_game(rig, 1)
    assert rig.app.screen.name == "final" and rig.app.screen.cursor == 0
    assert rig.app.screen.items[0] == "New game"
    shown = []
    show = rig.display.show
    rig.display.show = lambda c, x, y, w, h: shown.append(w * h) or show(c, x, y, w, h)
    rig.act(3)
    assert rig.app.screen.name == "setup"
    if name in COLOUR:
        assert sum(shown) < 0.9 * rig.canvas.width * rig.canvas.height
    assert as_painted_whole(rig)


@pytest.mark.parametrize("name", COLOUR)
def test_start_sends_the_first_table_once_and_no_screen_between(name, monkeypatch):
    """Start on the setup: the frame that lets the setup go before the deal shows its rows
    as they were (nothing sent), then the first table is sent once, a whole screen, before
    any move (the first AI move comes on the next frame, in parts)."""
    rig = on_setup(name, monkeypatch)
    sc = rig.app.screen
    while sc.items[sc.cursor] != "Start":
        rig.act(1)
    frames, frame = [], rig.frame

    def counted():
        frames.append((sent(rig, frame), rig.app.screen.name, rig.moves))

    monkeypatch.setattr(rig, "frame", counted)
    rig.act(3)
    first = [f[1] for f in frames].index("table")
    assert all(n == 0 for n, _, _ in frames[:first]), frames   # the setup's rows as they were
    n, _, moves = frames[first]
    assert moves == 0 and n <= bytes_for(rig, 240, 135)   # was 119,895: rows cleared, then table
    assert sum(f[0] for f in frames[first + 1:]) < bytes_for(rig, 240, 135) // 2, frames
    assert as_painted_whole(rig)
