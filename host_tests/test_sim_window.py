"""The simulator's window as a player meets it: the arrows move on every board, and the key
legend under the screen reaches the monitor (pygame-ce on SDL's dummy video driver)."""
import pytest

from firmware import buttons
from tools.sim import boards
from tools.sim.device import Device, firmware_app_factory

App = firmware_app_factory()


@pytest.fixture
def pygame(monkeypatch):
    """pygame on SDL's dummy video driver."""
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    return pytest.importorskip("pygame", reason="pygame-ce is in requirements-play.txt")


class Monitor:
    """What a monitor shows: the window's pixels as they were at each display update or flip
    (pixels drawn but never sent stay unshown, magenta)."""

    UNSHOWN = (255, 0, 255)

    def __init__(self, pygame, monkeypatch):
        self.pygame = pygame
        self.image = None
        real_update, real_flip = pygame.display.update, pygame.display.flip

        def update(rects=None):
            self.copy(rects)
            return real_update(rects) if rects is not None else real_update()

        def flip():
            self.copy(None)
            return real_flip()

        monkeypatch.setattr(pygame.display, "update", update)
        monkeypatch.setattr(pygame.display, "flip", flip)

    def copy(self, rects):
        pygame = self.pygame
        window = pygame.display.get_surface()
        if self.image is None or self.image.get_size() != window.get_size():
            self.image = pygame.Surface(window.get_size())
            self.image.fill(self.UNSHOWN)
        if rects is None:
            rects = [window.get_rect()]
        elif not isinstance(rects, (list, tuple)) or (rects and isinstance(rects[0], int)):
            rects = [rects]
        for rect in rects:
            rect = pygame.Rect(rect)
            self.image.blit(window, rect.topleft, rect)

    def bright(self, top, bottom):
        """How many shown pixels of rows top..bottom-1 are light (legend text on the dark bar)."""
        w = self.image.get_width()
        return sum(1 for y in range(top, bottom) for x in range(w)
                   if sum(tuple(self.image.get_at((x, y)))[:3]) > 450
                   and tuple(self.image.get_at((x, y)))[:3] != self.UNSHOWN)


def idle_app(board, canvas, store, now_ms):
    """A stand-in that records its events (these tests check the window alone)."""

    class Idle:
        done = False

        def __init__(self):
            self.events = []

        def handle(self, event):
            self.events.append(event)

        def tick(self, now_ms):
            pass

    canvas.fill(0)
    return Idle()


ARROWS = {  # board -> the keys the arrows RIGHT, LEFT, DOWN, UP press
    "pico_display": ("Y", "X", "Y", "X"),          # abxy: Y next, X previous
    "tdisplay": ("A", "B", "A", "B"),              # two buttons: A click next, B click previous
    "waveshare_lcd114": ("RIGHT", "LEFT", "DOWN", "UP"),
    "pico_oled": ("RIGHT", "LEFT", "DOWN", "UP"),
    "thumby": ("RIGHT", "LEFT", "DOWN", "UP"),
}


@pytest.mark.parametrize("name", sorted(ARROWS))
def test_the_arrows_press_the_keys_that_step_on_every_board(name, pygame, tmp_path):
    from tools.sim import window
    dev = Device(boards.load(name), idle_app, None)
    win = window.Window(dev, scale=1)
    try:
        for arrow, key in zip((pygame.K_RIGHT, pygame.K_LEFT, pygame.K_DOWN, pygame.K_UP), ARROWS[name]):
            pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=arrow))
            mask = win.poll()
            assert mask == 1 << buttons.key_number(key) and mask & dev.keys, (name, arrow, key)
            pygame.event.post(pygame.event.Event(pygame.KEYUP, key=arrow))
            assert [win.poll() for _ in range(window.MIN_FRAMES)][-1] == 0
    finally:
        win.close()


@pytest.mark.skipif(App is None, reason="firmware/app.py is not written yet")
def test_the_down_arrow_moves_the_title_menu_of_the_default_board(pygame, tmp_path):
    from tools.sim import window
    dev = Device(boards.load(boards.DEFAULT_BOARD), App, str(tmp_path))
    win = window.Window(dev, scale=1)
    try:
        assert dev.app.screen.name == "title" and dev.app.screen.cursor == 0
        pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_DOWN))
        for t in range(10, 100, 10):
            win.present(dev.frame(t, win.poll()))
        pygame.event.post(pygame.event.Event(pygame.KEYUP, key=pygame.K_DOWN))
        for t in range(100, 200, 10):
            win.present(dev.frame(t, win.poll()))
        assert dev.app.screen.cursor == 1
    finally:
        win.close()


@pytest.mark.skipif(App is None, reason="firmware/app.py is not written yet")
def test_a_tap_quicker_than_a_frame_still_reaches_the_app(pygame, tmp_path):
    """xdotool (and a quick finger) sends the press and the release between two frames."""
    from tools.sim import window
    dev = Device(boards.load("waveshare_lcd114"), App, str(tmp_path))
    win = window.Window(dev, scale=1)
    try:
        for key in (pygame.K_DOWN, pygame.K_RETURN):
            pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=key))
            pygame.event.post(pygame.event.Event(pygame.KEYUP, key=key))
            for _ in range(12):
                win.present(dev.frame(dev.now_ms + 10, win.poll()))
        assert [buttons.describe(e) for e in dev.events] == [
            "DOWN PRESS", "DOWN RELEASE", "DOWN CLICK", "A PRESS", "A RELEASE", "A CLICK"]
        assert dev.app.screen.name == "title" and dev.app.done   # DOWN to Quit, A chose it
    finally:
        win.close()


def test_three_quick_taps_in_one_poll_are_three_clicks(pygame):
    from tools.sim import window
    dev = Device(boards.load("pico_oled"), idle_app, None)
    win = window.Window(dev, scale=1)
    try:
        for _ in range(3):
            pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_DOWN))
            pygame.event.post(pygame.event.Event(pygame.KEYUP, key=pygame.K_DOWN))
        for _ in range(30):
            dev.frame(dev.now_ms + 10, win.poll())
        assert [buttons.describe(e) for e in dev.app.events] == ["DOWN PRESS", "DOWN RELEASE", "DOWN CLICK"] * 3
    finally:
        win.close()


@pytest.mark.parametrize("name", ["pico_display", "tdisplay", "thumby"])
def test_the_key_legend_is_shown_under_the_screen(name, pygame, monkeypatch):
    from tools.sim import window
    monitor = Monitor(pygame, monkeypatch)
    dev = Device(boards.load(name), idle_app, None)
    win = window.Window(dev, scale=window.default_scale(boards.load(name).WIDTH))
    try:
        screen_bottom = dev.canvas.height * win.scale
        height = win.surface.get_height()
        assert height >= screen_bottom + window.BAR_LINE * 2
        assert monitor.bright(screen_bottom, height) > 200   # the legend's letters reached the monitor
        assert monitor.bright(0, screen_bottom) == 0          # the screen itself is black here
        for line in win.bar:    # every line fits the window: nothing is cut off at the right
            assert win.font.size(line)[0] <= win.surface.get_width() - 6, line
        said = " ".join(win.bar)
        assert ("arrows = d-pad" if boards.load(name).LAYOUT == "dpad" else "arrows = ") in said
        assert "Esc = quit" in said
    finally:
        win.close()


def test_a_window_on_sdls_invisible_driver_is_no_window(monkeypatch):
    """Without a display SDL opens its "offscreen" driver, which shows nothing: that is no window."""
    pg = pytest.importorskip("pygame")
    from tools.sim import window
    monkeypatch.delenv("SDL_VIDEODRIVER", raising=False)
    monkeypatch.setattr(pg.display, "init", lambda: None)
    monkeypatch.setattr(pg.display, "get_driver", lambda: "offscreen")
    dev = Device(boards.load("thumby"), idle_app, None)
    with pytest.raises(window.NoWindow, match="offscreen"):
        window.Window(dev, scale=1)


def test_the_circuitpython_window_shows_its_key_legend_too(pygame, monkeypatch):
    pytest.importorskip("displayio", reason="the CircuitPython back end is in requirements-circuitpython.txt")
    import displayio
    from tools.sim import circuitpython
    monitor = Monitor(pygame, monkeypatch)
    displayio.release_displays()
    display = circuitpython.open_display(160, 128, 3, legend=circuitpython.LEGEND)
    try:
        window = pygame.display.get_surface()
        assert window.get_width() >= 480 and window.get_height() >= 384 + 2 * 20
        assert monitor.bright(384, window.get_height()) > 200
        assert "arrows = d-pad" in " ".join(display.legend) and "Start" in " ".join(display.legend)
    finally:
        displayio.release_displays()
