"""The CircuitPython app on the laptop: displayio boards (PyBadge, PyGamer) headless to PNG or in a window.

    python -m tools.sim.circuitpython --board pybadge                       # a window
    python -m tools.sim.circuitpython --board pybadge --mode headless \\
        --script "A shot:setup A wait:2000 shot:table" --shots shots/

The same firmware as on the device (firmware/app_dio.py, paint_dio.py over firmware/app.py)
draws with CircuitPython's displayio as Adafruit's Blinka runs it on CPython
(adafruit-blinka-displayio, adafruit-circuitpython-display-text), shown through
blinka-displayio-pygamedisplay: an SDL window, or SDL's dummy driver for PNGs. Scripts
are tools/sim/headless.py's. Keys: arrows, Z/Enter = A, X/Backspace = B,
A = Start (menu), S = Select (back); Esc quits.
"""
import argparse
import os
import sys

from tools.sim import boards
from tools.sim.device import FRAME_MS, save_folder

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
STICK_KEYS = ("UP", "DOWN", "LEFT", "RIGHT")


def quiet_sdl(headless):
    """SDL without a sound card (and without a screen when headless); no pygame banner."""
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    if headless:
        os.environ["SDL_VIDEODRIVER"] = "dummy"


def install_framebuf():
    """firmware/app.py needs `framebuf` to import; the host's (tools/sim/framebuf.py) will do."""
    from tools.sim import install_framebuf as install
    install()


def open_display(width, height, scale=1, caption="Mau-Mau"):
    """A PyGameDisplay that draws into a width x height surface, shown `scale` times larger."""
    import pygame
    from blinka_displayio_pygamedisplay import PyGameDisplay

    class ScaledDisplay(PyGameDisplay):
        """PyGameDisplay rendering at the board's size; the window shows it scaled."""

        def _initialize(self, init_sequence):
            pygame.init()
            pygame.display.set_caption(self._caption)
            self.window = pygame.display.set_mode((width * scale, height * scale))
            self._pygame_screen = pygame.Surface((width, height))

        def _refresh_display(self):
            busdisplay_refresh(self)
            if scale == 1:
                self.window.blit(self._pygame_screen, (0, 0))
            else:
                pygame.transform.scale(self._pygame_screen, self.window.get_size(), self.window)
            pygame.display.flip()
            self._refresh_pending = False

    import busdisplay
    busdisplay_refresh = busdisplay.BusDisplay._refresh_display
    return ScaledDisplay(width=width, height=height, caption=caption, auto_refresh=False)


def board_keys(board):
    """The pressed-keys bits the board has: its KEYS, and a thumbstick's four directions."""
    mask = boards.key_mask(board)
    if getattr(board, "STICK", None):
        for name in STICK_KEYS:
            mask |= 1 << boards.KEY_NAMES.index(name)
    return mask


class CircuitDevice:
    """A displayio board running DioApp: frame(now_ms, mask) as cp_main's loop does, with
    the host's clock and keys. `painter.root` is on `display`; shots refresh it first."""

    def __init__(self, board, display, save_dir=None, now_ms=0, playouts=None, seed=None,
                 store=None):
        install_framebuf()
        from firmware.app_dio import DioApp, DriveStore
        from firmware.buttons import Debouncer
        from firmware.paint_dio import DioPainter
        self.board = board
        self.name = board.__name__.rpartition(".")[2]
        self.display = display
        self.painter = DioPainter(board.WIDTH, board.HEIGHT)
        display.root_group = self.painter.root
        self.buttons = Debouncer()
        self.keys = board_keys(board)
        if store is None and save_dir is not None:
            os.makedirs(save_dir, exist_ok=True)
            store = DriveStore(save_dir)
        self.store = store
        self.app = DioApp(board, self.painter, store, now_ms, playouts, seed)
        self.now_ms = now_ms
        self.frames = 0
        self.events = []
        self.shown = -1

    def frame(self, now_ms, mask):
        """One turn of the loop; True when displayio objects changed (the screen needs a refresh)."""
        self.now_ms = now_ms
        self.frames += 1
        self.buttons.feed(now_ms, mask & self.keys)
        while True:
            event = self.buttons.get()
            if event < 0:
                break
            self.events.append(event)
            self.app.handle(event)
        self.app.tick(now_ms)
        changed = self.painter.updates != self.shown
        self.shown = self.painter.updates
        return changed

    @property
    def done(self):
        """True once the app has asked to stop."""
        return self.app.done

    def refresh(self):
        """Render the displayio tree onto the display's surface."""
        self.display.refresh()

    def surface(self):
        """The board-sized pygame surface the display draws on."""
        return self.display._pygame_screen

    def save_png(self, path, scale=1):
        """Write the screen as a PNG (refreshed first)."""
        import pygame
        self.refresh()
        surface = self.surface()
        if scale != 1:
            surface = pygame.transform.scale(surface, (surface.get_width() * scale,
                                                       surface.get_height() * scale))
        pygame.image.save(surface, path)

    def image(self):
        """The screen now as a Pillow RGB image (refreshed first)."""
        import pygame
        from PIL import Image
        self.refresh()
        surface = self.surface()
        return Image.frombytes("RGB", surface.get_size(), pygame.image.tobytes(surface, "RGB"))


def headless_runner(device, shots_dir=None, scale=1):
    """tools/sim/headless.Runner on a CircuitDevice: shots are the displayio screen."""
    from tools.sim.headless import Runner

    class CircuitRunner(Runner):
        def shot(self, name):
            if self.shots_dir is None:
                return None
            os.makedirs(self.shots_dir, exist_ok=True)
            path = os.path.join(self.shots_dir, name + ".png")
            self.device.save_png(path, self.scale)
            self.shots.append(path)
            return path

        def _check_key(self, key):
            if not self.device.keys & (1 << key):
                from tools.sim.headless import ScriptError
                raise ScriptError("board %s has no key %s" % (self.device.name, boards.KEY_NAMES[key]))

    return CircuitRunner(device, shots_dir, scale)


WINDOW_KEYS = (("UP", "UP"), ("DOWN", "DOWN"), ("LEFT", "LEFT"), ("RIGHT", "RIGHT"),
               ("z", "A"), ("RETURN", "A"), ("x", "B"), ("BACKSPACE", "B"), ("a", "X"),
               ("s", "Y"))


def run_window(device, frame_ms=FRAME_MS):
    """Play in the display's window until the app is done, Esc, or the window closes."""
    import time
    import pygame
    codes = {}
    for key, name in WINDOW_KEYS:
        codes[pygame.key.key_code(key.lower())] = boards.KEY_NAMES.index(name)
    held = set()
    device.refresh()
    start, start_ms = time.monotonic(), device.now_ms
    while not device.done:
        for event in pygame.event.get():
            if event.type == pygame.QUIT or (event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE):
                return
            if event.type == pygame.KEYDOWN and event.key in codes:
                held.add(codes[event.key])
            elif event.type == pygame.KEYUP and event.key in codes:
                held.discard(codes[event.key])
        mask = 0
        for bit in held:
            mask |= 1 << bit
        now = max(device.now_ms + 1, start_ms + int((time.monotonic() - start) * 1000))
        if device.frame(now, mask):
            device.refresh()
        time.sleep(frame_ms / 1000)


def parse_args(argv):
    """The command line (the same words as python -m tools.sim)."""
    parser = argparse.ArgumentParser(prog="python -m tools.sim.circuitpython",
                                     description=__doc__.split("\n")[0])
    parser.add_argument("--board", default="pybadge", help="a displayio board of board_configs/")
    parser.add_argument("--mode", choices=("window", "headless"), help="default: window if a display is there")
    parser.add_argument("--scale", type=int, help="whole-pixel zoom of the window (or of the PNGs)")
    parser.add_argument("--script", default="", help="headless: button presses, or @file")
    parser.add_argument("--shots", help="headless: folder for the PNG screenshots")
    parser.add_argument("--save-dir", help="the store's folder (default .sim/<board>)")
    return parser.parse_args(argv)


def main(argv=None, args=None):
    """Run the CircuitPython app on the host; returns the exit status. tools.sim may pass its
    own parsed `args` (same names) for a board with DISPLAYIO = True."""
    from tools.sim.device import environment_has_display
    from tools.sim.headless import ScriptError, parse, read
    args = args if args is not None else parse_args(argv)
    board = boards.load(args.board)
    if not getattr(board, "DISPLAYIO", False):
        print("%s is not a displayio board: use python -m tools.sim" % args.board, file=sys.stderr)
        return 2
    mode = args.mode or ("window" if environment_has_display() else "headless")
    if mode not in ("window", "headless"):
        mode = "headless"
    quiet_sdl(mode == "headless")
    scale = args.scale or (1 if mode == "headless" else 4)
    display = open_display(board.WIDTH, board.HEIGHT, 1 if mode == "headless" else scale,
                           "Mau-Mau: %s" % board.NAME)
    device = CircuitDevice(board, display, save_folder(args.board, args.save_dir))
    if mode == "window":
        run_window(device)
        return 0
    try:
        steps = parse(read(args.script))
        if not steps:
            steps = [("wait", 1000)] + ([("shot", "screen")] if args.shots else [])
        shots = headless_runner(device, args.shots, scale).run(steps)
    except (ScriptError, OSError) as error:
        print("script: %s" % error, file=sys.stderr)
        return 2
    print("%s: %d frames, %d ms, %d key events, %d shots%s" % (
        device.name, device.frames, device.now_ms, len(device.events), len(shots),
        ", app done" if device.done else ""))
    for path in shots:
        print("  " + path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
