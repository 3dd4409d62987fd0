"""The simulator's front ends: pixels to RGB, PNG, terminal text and window; scripts; the frame loop.

A small fake app stands in for firmware.app here, so these tests check the simulator
alone: a cursor square that RIGHT, Y or an A click moves 10 pixels, A long fills, B long
ends the app.
"""
import os
import random
import re
import struct

import pytest
from PIL import Image

from firmware import buttons, gfx
from tools.sim import boards, findtext, headless, image, terminal
from tools.sim.device import Device
from tools.sim.framebuf import GS4_HMSB, MONO_VLSB, RGB565


class FakeApp:
    """Cursor square on a plain screen; remembers every event and tick.

    RIGHT or Y pressed, or A clicked: the square moves 10 pixels right. A long: filled.
    B long: done.
    """

    def __init__(self, board, canvas, store, now_ms):
        self.canvas, self.store, self.started = canvas, store, now_ms
        self.x, self.filled, self.done = 0, False, False
        self.events, self.ticks = [], 0
        self.draw()

    def draw(self):
        c = self.canvas
        c.fill(gfx.BG)
        size = 8
        if self.filled:
            c.rect(self.x, 4, size, size, gfx.HILITE)
        else:
            c.frame(self.x, 4, size, size, gfx.HILITE)

    def handle(self, event):
        self.events.append(event)
        key, kind = event >> 3, event & 7
        steps = (key in (buttons.RIGHT, buttons.Y) and kind == buttons.PRESS) or (key == buttons.A and kind == buttons.CLICK)
        if steps:
            self.x += 10
            self.draw()
        elif key == buttons.A and kind == buttons.LONG:
            self.filled = True
            self.draw()
        elif key == buttons.B and kind == buttons.LONG:
            self.done = True

    def tick(self, now_ms):
        self.ticks += 1


def device(board_name, tmp_path):
    """A simulated board running the fake app, its store in tmp_path."""
    return Device(boards.load(board_name), FakeApp, str(tmp_path / "save"))


class FakeCanvas:
    """Just the fields the converters read: width, height, buf, palette."""

    def __init__(self, width, height, depth, palette=None):
        import framebuf
        self.width, self.height, self.palette = width, height, palette
        if depth == 4:
            self.buf = bytearray((width + 1) // 2 * height)
            self.fb = framebuf.FrameBuffer(self.buf, width, height, GS4_HMSB)
        else:
            self.buf = bytearray(width * ((height + 7) // 8))
            self.fb = framebuf.FrameBuffer(self.buf, width, height, MONO_VLSB)


def random_canvas(width, height, depth, seed):
    """A canvas of random pixels (and, in colour, a random palette)."""
    rng = random.Random(seed)
    palette = [rng.randrange(65536) for _ in range(16)] if depth == 4 else None
    canvas = FakeCanvas(width, height, depth, palette)
    for y in range(height):
        for x in range(width):
            canvas.fb.pixel(x, y, rng.randrange(16 if depth == 4 else 2))
    return canvas


def pillow_rgb565(value):
    """Pillow's own decoding of one RGB565 pixel: the independent reference for colours."""
    return Image.frombytes("RGB", (1, 1), struct.pack("<H", value), "raw", "BGR;16").getpixel((0, 0))


# Pixels to RGB and PNG

def test_rgb565_conversion_matches_pillow_for_every_colour():
    data = b"".join(struct.pack("<H", v) for v in range(65536))
    reference = Image.frombytes("RGB", (256, 256), data, "raw", "BGR;16").tobytes()
    assert b"".join(bytes(image.rgb565_to_rgb(v)) for v in range(65536)) == reference


@pytest.mark.parametrize("width,height", [(240, 135), (17, 5), (1, 1)])
def test_gs4_png_shows_each_pixels_palette_colour(tmp_path, width, height):
    canvas = random_canvas(width, height, 4, seed=width)
    path = tmp_path / "gs4.png"
    image.screenshot(canvas, str(path))
    png = Image.open(path)
    assert png.size == (width, height) and png.mode == "RGB"
    for y in range(height):
        for x in range(width):
            assert png.getpixel((x, y)) == pillow_rgb565(canvas.palette[canvas.fb.pixel(x, y)]), (x, y)


@pytest.mark.parametrize("width,height", [(128, 64), (72, 40), (5, 13)])
def test_mono_vlsb_png_is_white_on_black(tmp_path, width, height):
    canvas = random_canvas(width, height, 1, seed=height)
    path = tmp_path / "mono.png"
    image.screenshot(canvas, str(path))
    png = Image.open(path)
    assert png.size == (width, height)
    for y in range(height):
        for x in range(width):
            expected = (255, 255, 255) if canvas.fb.pixel(x, y) else (0, 0, 0)
            assert png.getpixel((x, y)) == expected, (x, y)


def test_rgb565_canvas_converts_each_pixel(tmp_path):
    import framebuf
    rng = random.Random(16)
    canvas = FakeCanvas(7, 5, 4)
    canvas.buf = bytearray(7 * 5 * 2)
    canvas.fb = framebuf.FrameBuffer(canvas.buf, 7, 5, RGB565)
    canvas.depth = 16
    for y in range(5):
        for x in range(7):
            canvas.fb.pixel(x, y, rng.randrange(65536))
    png = image.screenshot(canvas)
    assert all(png.getpixel((x, y)) == pillow_rgb565(canvas.fb.pixel(x, y)) for x in range(7) for y in range(5))
    assert image.Converter(canvas).rect(2, 1, 3, 2) == b"".join(
        bytes(image.rgb565_to_rgb(canvas.fb.pixel(x, y))) for y in (1, 2) for x in (2, 3, 4))


def test_rect_of_an_odd_x_reads_the_right_nibbles():
    canvas = random_canvas(9, 4, 4, seed=3)
    conv = image.Converter(canvas)
    whole = conv.frame()
    for x, y, w, h in [(1, 1, 3, 2), (0, 0, 9, 4), (7, 3, 2, 1), (8, 0, 1, 4)]:
        part = conv.rect(x, y, w, h)
        expected = b"".join(whole[3 * (yy * 9 + x):3 * (yy * 9 + x + w)] for yy in range(y, y + h))
        assert part == expected


def test_screenshot_scale_repeats_pixels():
    canvas = random_canvas(6, 3, 4, seed=5)
    small, big = image.screenshot(canvas), image.screenshot(canvas, scale=3)
    assert big.size == (18, 9)
    assert all(big.getpixel((3 * x + 2, 3 * y + 1)) == small.getpixel((x, y)) for x in range(6) for y in range(3))


# Terminal

def test_terminal_row_is_half_blocks_top_foreground_bottom_background():
    palette = [0] * 16
    palette[1], palette[2] = 0xF800, 0x001F  # red, blue
    canvas = FakeCanvas(3, 3, 4, palette)
    fb = canvas.fb
    fb.pixel(0, 0, 1)  # column 0: red over black; column 1: black over blue; column 2: black/black
    fb.pixel(1, 1, 2)
    fb.pixel(2, 2, 1)  # row 2 is the last, alone: red over terminal black
    renderer = terminal.Renderer(canvas)
    assert renderer.row_text(0) == ("\x1b[38;2;255;0;0m\x1b[48;2;0;0;0m\u2580"
                                    "\x1b[38;2;0;0;0m\x1b[48;2;0;0;255m\u2580"
                                    "\x1b[48;2;0;0;0m\u2580\x1b[0m")
    assert renderer.row_text(1) == ("\x1b[38;2;0;0;0m\x1b[48;2;0;0;0m\u2580\u2580"
                                    "\x1b[38;2;255;0;0m\u2580\x1b[0m")


def test_terminal_redraws_only_changed_rows():
    canvas = random_canvas(8, 10, 1, seed=1)
    renderer = terminal.Renderer(canvas, top=3, left=2)
    first = renderer.full()
    assert first.count("\x1b[") > 5 and all(f"\x1b[{3 + r};2H" in first for r in range(5))
    assert renderer.update((0, 0, 8, 10)) == ""  # nothing changed
    canvas.fb.pixel(4, 5, 1 - canvas.fb.pixel(4, 5))  # pixel row 5 is text row 2
    again = renderer.update((0, 0, 8, 10))
    assert again.startswith("\x1b[5;2H") and again.count("H") == 1
    assert renderer.update((0, 4, 8, 2)) == ""


def test_terminal_crops_to_its_size():
    canvas = random_canvas(20, 9, 1, seed=2)
    assert terminal.Renderer(canvas, columns=7).row_text(0).count("\u2580") == 7
    short = terminal.Renderer(canvas, lines=3)
    assert short.cropped and short.full().count("H\x1b[") == 3
    assert not terminal.Renderer(canvas, columns=20, lines=5).cropped


def test_terminal_scale_repeats_pixels():
    canvas = random_canvas(5, 3, 4, seed=9)
    one, two = terminal.Renderer(canvas), terminal.Renderer(canvas, scale=2)
    assert len(two.rows) == 3 and len(one.rows) == 2
    conv = image.Converter(canvas)
    for y in range(3):  # scale 2: text row y shows canvas row y on top and at the bottom
        colours = ["%d;%d;%d" % conv.pixel(x, y) for x in range(5) for _ in range(2)]
        assert cells(two.row_text(y)) == [(c, c) for c in colours]


def cells(text):
    """(foreground, background) of every cell of a rendered row."""
    import re
    found, fg, bg = [], None, None
    for m in re.finditer(r"\x1b\[38;2;([\d;]+)m|\x1b\[48;2;([\d;]+)m|\u2580", text):
        if m.group(1):
            fg = m.group(1)
        elif m.group(2):
            bg = m.group(2)
        else:
            found.append((fg, bg))
    return found


def test_terminal_fitting_scale():
    assert terminal.fitting_scale(240, 135, 250, 76) == 1
    assert terminal.fitting_scale(72, 40, 250, 76) == 3   # 216 columns, 60 rows
    assert terminal.fitting_scale(72, 40, 80, 20) == 1     # too small even for 1: cropped, not 0
    assert terminal.fitting_scale(128, 64, 260, 70) == 2


def test_terminal_keys_become_taps_and_long_presses():
    kb = terminal.Keyboard()
    names = boards.KEY_NAMES
    kb.feed("z", 1000)
    for t in (1000, 1010, 1020):
        assert kb.mask(t, names) == 1 << buttons.A
    assert kb.mask(1000 + terminal.TAP_MS, names) == 0
    kb.feed("X", 2000)
    for t in (2000, 2010, 2020, 2650):  # held past the firmware's 600 ms LONG
        assert kb.mask(t, names) == 1 << buttons.B
    assert kb.mask(2000 + terminal.LONG_MS, names) == 0
    kb.feed("s", 3000)
    assert kb.mask(3500, names) == kb.mask(3600, names) == kb.mask(3700, names) == 1 << buttons.Y
    assert kb.mask(3710, names) == 0  # a slow terminal loop: still held for three frames
    kb.feed("\x1b[15~", 4000)  # F5: ignored, not a quit
    assert not kb.quit
    kb.feed("\x1b", 4000)
    assert kb.quit


def test_keys_that_arrive_together_are_pressed_one_after_the_other():
    """An arrow and z in one read (a fast typist, a pasted script) are two taps, in order:
    pressed together, the app would see A before Y (the debouncer's key order)."""
    kb = terminal.Keyboard(boards.arrow_keys(boards.load("pico_display")))
    names = boards.KEY_NAMES
    kb.feed("\x1b[Bz", 1000)
    masks = [kb.mask(t, names) for t in range(1000, 1400, 10)]
    assert set(masks) == {0, 1 << buttons.Y, 1 << buttons.A}
    down = [m for i, m in enumerate(masks) if m and (i == 0 or masks[i - 1] != m)]
    assert down == [1 << buttons.Y, 1 << buttons.A]                # the arrow first: Y on this board
    first_a, last_y = masks.index(1 << buttons.A), len(masks) - 1 - masks[::-1].index(1 << buttons.Y)
    assert (first_a - last_y - 1) * 10 >= 30                       # up long enough to settle between


# Scripts

def test_script_words_become_steps():
    steps = headless.parse("A RIGHT*2 wait:700 long:b hold:Y:1500 shot:menu-1")
    tap, gap = headless.TAP_MS, headless.GAP_MS
    assert steps == [
        ("hold", buttons.A, tap), ("wait", gap),
        ("hold", buttons.RIGHT, tap), ("wait", gap), ("hold", buttons.RIGHT, tap), ("wait", gap),
        ("wait", 700),
        ("hold", buttons.B, headless.LONG_HOLD_MS), ("wait", gap),
        ("hold", buttons.Y, 1500), ("wait", gap),
        ("shot", "menu-1"),
    ]
    assert headless.parse("  ") == []


def test_a_script_can_come_from_a_file_with_comments(tmp_path):
    path = tmp_path / "game.txt"
    path.write_text("# to the table\nA Y*2   # new game\nshot:x\n")
    assert headless.read("@" + str(path)).split() == ["A", "Y*2", "shot:x"]
    assert headless.read("A B") == "A B"


@pytest.mark.parametrize("bad, told", [
    ("Q", "unknown key 'Q'"), ("wait:abc", "whole number of milliseconds"),
    ("wait:", "something after the colon"), ("long:", "something after the colon"),
    ("shot:", "something after the colon"), ("shot:a/b", "shot names are"),
    ("hold:A", "whole number of milliseconds"), ("A*x", "whole number of presses"),
    ("A*", "whole number of presses"), ("jump:3", "unknown word")])
def test_bad_script_words_are_errors_that_say_what_is_wrong(bad, told):
    with pytest.raises(headless.ScriptError, match=told):
        headless.parse(bad)


# The frame loop with the real debouncer

def test_a_tap_is_press_release_click_and_a_long_press_is_long(tmp_path):
    dev = device("pico_display", tmp_path)
    headless.Runner(dev).run(headless.parse("A long:A"))
    assert [buttons.describe(e) for e in dev.events] == [
        "A PRESS", "A RELEASE", "A CLICK", "A PRESS", "A LONG", "A RELEASE"]
    assert dev.app.events == dev.events and dev.app.ticks == dev.frames
    assert dev.events[0] == buttons.A << 3 | buttons.PRESS and dev.events[4] == buttons.A << 3 | buttons.LONG


def test_holding_repeats_every_150_ms(tmp_path):
    dev = device("waveshare_lcd114", tmp_path)
    headless.Runner(dev).run(headless.parse("hold:RIGHT:1500"))
    kinds = [buttons.describe(e) for e in dev.events]
    # pressed at 30 ms (20 ms stable), LONG at 630, REPEAT at 780, 930, ..., 1380 (held to 1500)
    assert kinds == ["RIGHT PRESS", "RIGHT LONG"] + ["RIGHT REPEAT"] * 5 + ["RIGHT RELEASE"]


def test_keys_the_board_lacks_never_reach_the_app(tmp_path):
    dev = device("tdisplay", tmp_path)  # two buttons: A and B
    runner = headless.Runner(dev)
    with pytest.raises(headless.ScriptError, match="no key RIGHT"):
        runner.run(headless.parse("RIGHT"))
    dev.frame(dev.now_ms + 10, 1 << buttons.RIGHT | 1 << buttons.X)
    dev.frame(dev.now_ms + 40, 1 << buttons.RIGHT | 1 << buttons.X)
    assert dev.events == []


def test_dirty_rectangles_are_what_the_app_drew(tmp_path):
    dev = device("pico_display", tmp_path)
    rects = []
    headless.Runner(dev, on_frame=lambda d, rect: rects.append(rect)).run(headless.parse("wait:50 Y"))
    drawn = [r for r in rects if r is not None]
    assert rects[0] == (0, 0, 240, 135)  # the first frame shows what the app drew at start
    assert drawn == [(0, 0, 240, 135), (0, 0, 240, 135)]  # the fake app redraws the screen on Y
    assert rects.count(None) == len(rects) - 2


# Headless runs end to end (fake app), on three screen sizes

@pytest.mark.parametrize("board,script", [
    ("pico_display", "shot:start Y*3 shot:moved long:A shot:filled long:B"),
    ("pico_oled", "shot:start A*3 shot:moved long:A shot:filled long:B"),
    ("thumby", "shot:start RIGHT*3 shot:moved long:A shot:filled long:B"),
])
def test_headless_script_writes_pngs_of_what_the_app_drew(tmp_path, board, script):
    dev = device(board, tmp_path)
    shots = headless.Runner(dev, str(tmp_path / "shots")).run(headless.parse(script + " wait:1000 shot:never"))
    assert [os.path.basename(p) for p in shots] == ["start.png", "moved.png", "filled.png"]
    assert dev.done  # long:B ended the app: the rest of the script did not run
    spec = boards.load(board)
    bg = dev.canvas.ink(gfx.BG)
    hi = dev.canvas.ink(gfx.HILITE)

    def colour(ink):
        if spec.DEPTH == 4:
            return pillow_rgb565(gfx.PALETTE[ink])
        return (255, 255, 255) if ink else (0, 0, 0)

    start, moved, filled = (Image.open(p) for p in shots)
    assert start.size == (spec.WIDTH, spec.HEIGHT)
    # the cursor square: outline at x 0 first, then at x 30 after three steps, then filled
    assert start.getpixel((0, 4)) == colour(hi) and start.getpixel((3, 7)) == colour(bg)
    assert moved.getpixel((0, 4)) == colour(bg) and moved.getpixel((30, 4)) == colour(hi)
    assert moved.getpixel((33, 7)) == colour(bg) and filled.getpixel((33, 7)) == colour(hi)
    assert sum(1 for px in moved.get_flattened_data() if px == colour(hi)) == 28  # an 8x8 outline
    assert sum(1 for px in filled.get_flattened_data() if px == colour(hi)) == 64


def test_headless_command_line_runs_a_script(tmp_path, monkeypatch, capsys):
    from tools.sim import __main__ as cli
    monkeypatch.setattr(cli, "firmware_app_factory", lambda: FakeApp)
    status = cli.main(["--board", "thumby", "--mode", "headless", "--script", "RIGHT shot:one",
                       "--shots", str(tmp_path / "s"), "--save-dir", str(tmp_path / "save"), "--scale", "2"])
    assert status == 0
    assert Image.open(tmp_path / "s" / "one.png").size == (144, 80)
    out = capsys.readouterr().out
    assert out.startswith("thumby: ") and "1 shots" in out and "3 key events" in out
    assert cli.main(["--board", "nope", "--mode", "headless"]) == 2
    assert cli.main(["--board", "thumby", "--mode", "headless", "--script", "Y",
                     "--save-dir", str(tmp_path / "save")]) == 2  # thumby has no Y


# Window (pygame-ce on SDL's dummy video driver: no display needed)

@pytest.fixture
def dummy_video(monkeypatch):
    """pygame on SDL's dummy video driver."""
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    pytest.importorskip("pygame", reason="pygame-ce is in requirements.txt")


def test_window_shows_the_scaled_screen_and_maps_keys(tmp_path, dummy_video):
    from tools.sim import window
    import pygame
    dev = device("waveshare_lcd114", tmp_path)
    win = window.Window(dev, scale=3)
    try:
        assert win.surface.get_width() == 720 and win.surface.get_height() > 405
        hi = pillow_rgb565(gfx.PALETTE[dev.canvas.ink(gfx.HILITE)])
        bg = pillow_rgb565(gfx.PALETTE[dev.canvas.ink(gfx.BG)])
        assert win.pixel(0, 4) == hi and win.pixel(3, 7) == bg
        assert tuple(win.surface.get_at((2, 14)))[:3] == hi  # inside the scaled pixel (0, 4)
        pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_RIGHT))
        pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_s))
        assert win.poll() == (1 << buttons.RIGHT) | (1 << buttons.Y)
        for t in (10, 20, 30, 40):
            win.present(dev.frame(t, 1 << buttons.RIGHT))
        assert win.pixel(10, 4) == hi and win.pixel(0, 4) == bg
        pygame.event.post(pygame.event.Event(pygame.KEYUP, key=pygame.K_RIGHT))
        masks = [win.poll() for _ in range(window.MIN_FRAMES)]
        assert masks[-1] == 1 << buttons.Y   # RIGHT let go once it was down MIN_FRAMES polls
        pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_ESCAPE))
        win.poll()
        assert win.quit
    finally:
        win.close()


def test_window_help_names_only_the_boards_keys():
    two = window_help("tdisplay")
    assert "Z/Enter = A" in two[0] and "X/Bksp = B" in two[0] and "S = Y" not in two[0]
    assert "hold A choose" in two[1] and "arrows = tap A/B" in two[0]
    assert "arrows = d-pad" in window_help("thumby")[0] and "S = Y" in window_help("pico_display")[0]


def window_help(name):
    """The window's help lines for a board."""
    from tools.sim import window
    return window.help_lines(boards.load(name))


def test_default_scale_makes_a_window_about_720_wide():
    from tools.sim import window
    assert [window.default_scale(w) for w in (240, 128, 72)] == [3, 5, 10]


def test_window_loop_passes_keys_and_stops_when_the_window_closes(tmp_path, dummy_video):
    import pygame
    from tools.sim import window

    class ClosingApp(FakeApp):
        """Presses RIGHT on the keyboard at its first tick, closes the window once it arrives."""

        def tick(self, now_ms):
            super().tick(now_ms)
            if self.ticks == 1:
                pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_RIGHT))
            if buttons.event(buttons.RIGHT, buttons.PRESS) in self.events:
                pygame.event.post(pygame.event.Event(pygame.QUIT))

    dev = Device(boards.load("waveshare_lcd114"), ClosingApp, str(tmp_path / "save"))
    window.run(dev, scale=2)
    assert dev.events[0] == buttons.event(buttons.RIGHT, buttons.PRESS)
    assert dev.app.x == 10 and not pygame.display.get_init()


def test_window_loop_stops_when_the_app_is_done(tmp_path, dummy_video):
    from tools.sim import window

    class QuittingApp(FakeApp):
        def tick(self, now_ms):
            super().tick(now_ms)
            self.done = self.ticks >= 3

    dev = Device(boards.load("thumby"), QuittingApp, str(tmp_path / "save"))
    window.run(dev)
    assert dev.frames == 3


def test_no_window_falls_back_to_headless_without_a_terminal(tmp_path, monkeypatch, capsys):
    pytest.importorskip("pygame", reason="pygame-ce is in requirements.txt")
    from tools.sim import __main__ as cli
    monkeypatch.setenv("SDL_VIDEODRIVER", "no-such-driver")
    monkeypatch.setattr(cli, "firmware_app_factory", lambda: FakeApp)
    status = cli.main(["--board", "thumby", "--mode", "window", "--save-dir", str(tmp_path)])
    captured = capsys.readouterr()
    assert status == 0 and "no window" in captured.err and "headless mode instead" in captured.err
    assert captured.out.startswith("thumby: 100 frames")


# Reading text back from screenshots

def test_findtext_finds_8x8_text_where_it_was_drawn():
    canvas = random_canvas(120, 30, 4, seed=4)
    canvas.fb.fill_rect(0, 0, 120, 30, 0)
    canvas.fb.fill_rect(50, 12, 70, 12, 3)  # a bar behind part of the text
    canvas.fb.text("Pass to Finn", 5, 2, 7)
    canvas.fb.text("Mau!", 60, 14, 9)
    shot = image.screenshot(canvas)
    assert findtext.find_text(shot, "Pass to Finn") == [(5, 2)]
    assert findtext.find_text(shot, "Finn") == [(69, 2)]
    assert findtext.find_text(shot, "Mau!") == [(60, 14)]
    assert not findtext.shows(shot, "Pass to Emma") and not findtext.shows(shot, "Mau?")


def test_findtext_reads_the_tiny_3x5_font():
    canvas = gfx.Canvas(72, 40, 1)
    canvas.fill(gfx.BG)
    canvas.small("Greta 7", 3, 4, gfx.TEXT)
    canvas.small("draws", 40, 30, gfx.TEXT)
    shot = image.screenshot(canvas)
    tiny = findtext.FONT_3X5
    assert findtext.find_text(shot, "GRETA 7", tiny) == [(3, 4)]
    assert findtext.find_text(shot, "greta", tiny) == [(3, 4)]  # lower case is drawn as upper
    assert findtext.find_text(shot, "draws", tiny) == [(40, 30)]
    assert not findtext.shows(shot, "Greta 8", tiny) and not findtext.shows(shot, "Greta", findtext.FONT_8X8)


# Terminal too small for half blocks: the screen shrunk into braille

BRAILLE_BITS = ((0x01, 0x08), (0x02, 0x10), (0x04, 0x20), (0x40, 0x80))


def braille_colours(renderer):
    """{(x, y): (r, g, b)} of every dot a Shrunk renderer shows: lit dots in the foreground
    colour, the others in the cell's background."""
    shown = {}
    for row in range(len(renderer.rows)):
        fg = bg = None
        col = 0
        for m in re.finditer(r"\x1b\[38;2;([\d;]+)m|\x1b\[48;2;([\d;]+)m|\x1b\[0m|(.)",
                             renderer.row_text(row), re.S):
            if m.group(1):
                fg = tuple(int(v) for v in m.group(1).split(";"))
            elif m.group(2):
                bg = tuple(int(v) for v in m.group(2).split(";"))
            elif m.group(3) is not None:
                bits = ord(m.group(3)) - 0x2800 if m.group(3) != " " else 0
                for dy in range(4):
                    for dx in range(2):
                        shown[(2 * col + dx, 4 * row + dy)] = fg if bits & BRAILLE_BITS[dy][dx] else bg
                col += 1
    return shown


def test_braille_at_full_size_shows_every_pixel_of_an_oled():
    canvas = random_canvas(128, 64, 1, seed=12)
    renderer = terminal.Shrunk(canvas, (1.0, 1.0))
    assert (renderer.width, len(renderer.rows)) == (64, 16)   # fits 80x24 without a loss
    shown = braille_colours(renderer)
    conv = image.Converter(canvas)
    assert all(shown[(x, y)] == conv.pixel(x, y) for y in range(64) for x in range(128))


def test_braille_shrinks_a_shape_to_its_place():
    canvas = FakeCanvas(240, 135, 4, [0] * 15 + [0xFFFF])
    canvas.fb.fill_rect(60, 30, 120, 60, 15)   # a white block on black, a quarter in from the edges
    renderer = terminal.Shrunk(canvas, terminal.shrink_factor(240, 135, 80, 20))
    assert renderer.width <= 80 and len(renderer.rows) <= 20
    shown = braille_colours(renderer)
    white = {xy for xy, colour in shown.items() if colour == (255, 255, 255)}
    xs, ys = [x for x, _ in white], [y for _, y in white]
    w, h = renderer.dots_x, renderer.dots_y
    assert abs(min(xs) - w / 4) <= 1 and abs(max(xs) + 1 - 3 * w / 4) <= 1
    assert abs(min(ys) - h * 30 / 135) <= 1 and abs(max(ys) + 1 - h * 90 / 135) <= 1
    assert len(white) == (max(xs) - min(xs) + 1) * (max(ys) - min(ys) + 1)   # solid, no holes
    assert set(shown.values()) <= {(0, 0, 0), (255, 255, 255), None}


def test_terminal_layout_prefers_whole_pixels_and_says_when_it_shrinks():
    canvas = random_canvas(240, 135, 4, seed=1)
    board = boards.load("pico_display")
    big, notes = terminal.layout(canvas, board, 250, 80)
    assert type(big) is terminal.Renderer and not big.cropped
    small, notes = terminal.layout(canvas, board, 80, 24)
    assert isinstance(small, terminal.Shrunk) and notes[0].startswith("shrunk to 59%: 240 x ")
    assert len(small.rows) + len(notes) <= 24 and all(len(n) < 80 for n in notes)
