"""The CircuitPython app on the laptop: displayio boards (PyBadge, PyGamer) in a window,
in the terminal, or headless to PNG.

    python -m tools.sim.circuitpython --board pybadge                       # a window
    python -m tools.sim.circuitpython --board pybadge --mode headless \\
        --script "A shot:setup A wait:2000 shot:table" --shots shots/

The same firmware as on the device (firmware/app_dio.py, paint_dio.py over firmware/app.py)
draws with CircuitPython's displayio as Adafruit's Blinka runs it on CPython
(adafruit-blinka-displayio, adafruit-circuitpython-display-text), shown through
blinka-displayio-pygamedisplay: an SDL window, or SDL's dummy driver for PNGs and for
the terminal (tools/sim/terminal.py shows the copied pixels). Scripts are tools/sim/headless.py's. Keys: arrows, Z/Enter = A, X/Backspace = B,
A = Start (menu), S = Select (back); Esc quits. `--seed N`: the same game every time.
"""
import argparse
import os
import sys

from tools.sim import boards
from tools.sim.device import FRAME_MS, pump, save_folder

STICK_KEYS = ("UP", "DOWN", "LEFT", "RIGHT")


def quiet_sdl(headless):
    """SDL without a sound card (and without a screen when headless); no pygame banner."""
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    if headless:
        os.environ["SDL_VIDEODRIVER"] = "dummy"


def quiet_blinka():
    """Import Blinka's `microcontroller` once with its stdout muted: on a laptop it prints a
    warning that its chip (GENERIC_X86) is not fully supported, which the simulator never uses."""
    import contextlib
    import io
    with contextlib.redirect_stdout(io.StringIO()):
        try:
            import microcontroller  # noqa: F401
        except ImportError:
            pass


LEGEND = ["keys: arrows = d-pad   Z/Enter = A   X/Bksp = B   A = Start   S = Select   Esc = quit",
          "buttons: d-pad moves, A choose, B back, Start menu, Select back"]


def open_display(width, height, scale=1, caption="Mau-Mau", legend=()):
    """A PyGameDisplay that draws into a width x height surface, shown `scale` times larger,
    with the `legend` lines (the window's key help) under it."""
    import pygame
    from blinka_displayio_pygamedisplay import PyGameDisplay
    from tools.sim.window import BAR_BG, BAR_INK, BAR_LINE, MIN_WIDTH, wrap_help

    class ScaledDisplay(PyGameDisplay):
        """PyGameDisplay rendering at the board's size; the window shows it scaled."""

        def _initialize(self, init_sequence):
            pygame.init()
            pygame.display.set_caption(self._caption)
            size = (width * scale, height * scale)
            lines = []
            if legend:
                font = pygame.font.Font(None, BAR_LINE + 2)
                wide = max(size[0], MIN_WIDTH)
                lines = wrap_help(legend, lambda text: font.size(text)[0] <= wide - 12, "   ")
                size = (wide, size[1] + BAR_LINE * len(lines) + 6)
            self.window = pygame.display.set_mode(size)
            self._pygame_screen = pygame.Surface((width, height))
            self.shown = self.window.subsurface((0, 0, width * scale, height * scale))
            self.legend = lines
            if lines:
                top = height * scale
                self.window.fill(BAR_BG, (0, top, size[0], size[1] - top))
                for i, line in enumerate(lines):
                    self.window.blit(font.render(line, True, BAR_INK), (6, top + 4 + i * BAR_LINE))
                pygame.display.flip()

        def _refresh_display(self):
            busdisplay_refresh(self)
            if scale == 1:
                self.shown.blit(self._pygame_screen, (0, 0))
            else:
                pygame.transform.scale(self._pygame_screen, self.shown.get_size(), self.shown)
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
                 store=None, sound=None):
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
        self.sound = sound   # tools/sim/sound.py's SimSound, or None
        self.app = DioApp(board, self.painter, store, now_ms, playouts, seed, sound)
        self.now_ms = now_ms
        self.frames = 0
        self.events = []
        self.shown = -1

    def frame(self, now_ms, mask):
        """One turn of the loop; True when displayio objects changed (the screen needs a refresh)."""
        pump(self, now_ms, mask)
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


class Pixels:
    """The displayio screen as RGB bytes, shaped as a canvas for tools.sim.image.Converter."""

    palette = None
    depth = 24

    def __init__(self, width, height):
        self.width, self.height = width, height
        self.buf = bytes(3 * width * height)


class TerminalDevice:
    """A CircuitDevice as tools/sim/terminal.run drives a framebuf one: frame() returns the
    whole screen's rectangle when displayio changed, and `canvas` holds its pixels."""

    def __init__(self, device):
        self.device = device
        self.board = device.board
        self.canvas = Pixels(device.board.WIDTH, device.board.HEIGHT)
        self._copy()

    def _copy(self):
        import pygame
        self.device.refresh()
        self.canvas.buf = pygame.image.tobytes(self.device.surface(), "RGB")

    @property
    def now_ms(self):
        """The device's clock."""
        return self.device.now_ms

    @property
    def done(self):
        """True once the app has asked to stop."""
        return self.device.done

    def frame(self, now_ms, mask):
        """One turn of the loop; (0, 0, w, h) when the screen changed, else None."""
        if not self.device.frame(now_ms, mask):
            return None
        self._copy()
        return (0, 0, self.canvas.width, self.canvas.height)


def headless_runner(device, shots_dir=None, scale=1):
    """tools/sim/headless.Runner on a CircuitDevice: shots are the displayio screen."""
    from tools.sim.headless import Runner
    return Runner(device, shots_dir, scale)


class Walker:
    """A person working the app's screens with two moves, `forward()` (the next item) and
    `ok()`; a subclass says which keys make them, how time passes (`wait`) and how a
    human's turn is played (`play_turn`). Shared by the displayio Player here and the
    framebuf app's test driver (host_tests/test_app_flows.py)."""

    def choose(self, label):
        """Move a list's cursor to the item `label` and choose it."""
        if label not in self.screen.items:
            raise AssertionError("no %r in %r" % (label, self.screen.items))
        while self.screen.items[self.screen.cursor] != label:
            self.forward()
        self.ok()

    def press_row(self, row):
        """Choose the setup row `row` (("seat", k), ("match", 0), ("start", 0), ...)."""
        sc = self.screen
        while sc.rows_of[sc.cursor] != row:
            self.forward()
        self.ok()

    def start(self, levels=None, match=None):
        """From the title: New game, the seats' levels (0 human, 1-4 AI), the match, Start."""
        self.choose("New game")
        sc = self.screen
        if levels is not None:
            while len(sc.levels) != len(levels):
                self.choose(sc.items[0])
            for k, level in enumerate(levels):
                while sc.levels[k] != level:
                    self.press_row(("seat", k))
        if match is not None:
            while sc.setup["match"] != match:
                self.press_row(("match", 0))
        self.press_row(("start", 0))

    def play_to(self, names, limit=4000, on_frame=None):
        """Play (humans: play_turn; covers, stories, scores: OK) until a screen in `names`."""
        from firmware.app import AI_PACE_MS
        for _ in range(limit):
            sc = self.screen
            if on_frame:
                on_frame(self)
            if sc.name in names:
                return sc
            if sc.name == "table":
                if sc.my_turn:
                    self.play_turn()
                else:
                    self.wait(AI_PACE_MS)
            elif sc.name in ("cover", "story", "scores", "mau"):
                self.ok()
            elif sc.name == "between":
                self.choose("Deal next round")
            else:
                raise AssertionError("unexpected screen %s" % sc.name)
        raise AssertionError("no %s after %d steps (stalled on %s)" % (names, limit, self.screen.name))


class Player(Walker):
    """Plays a CircuitDevice with key taps as a person would (scripted by what the screen
    shows): lists by DOWN and A, the table by RIGHT to the first playable card (else Draw)."""

    def __init__(self, device, runner=None):
        from tools.sim.headless import TAP_MS, GAP_MS
        self.device = device
        self.app = device.app
        self.runner = runner or headless_runner(device)
        self.tap_ms, self.gap_ms = TAP_MS, GAP_MS
        self.check = None   # called with the player after every tap and wait step

    @property
    def screen(self):
        """The app's current screen."""
        return self.app.screen

    def tap(self, key):
        """Press and release one key."""
        self.runner.run([("hold", boards.KEY_NAMES.index(key), self.tap_ms), ("wait", self.gap_ms)])
        if self.check is not None:
            self.check(self)

    def forward(self):
        """The next item of a list: DOWN."""
        self.tap("DOWN")

    def ok(self):
        """Choose: A."""
        self.tap("A")

    def wait(self, ms):
        """Let `ms` of virtual time pass with no key held."""
        end = self.device.now_ms + ms
        while self.device.now_ms < end and not self.device.done:
            self.runner.advance(50, 0)
            if self.check is not None:
                self.check(self)

    def play_turn(self):
        """The human to move plays the first playable card (a Jack wishes the next suit), else draws."""
        t = self.screen
        target = t.first_playable()
        while t.cursor != target:
            self.tap("RIGHT")
        self.tap("A")
        if self.screen.name == "picker":
            self.tap("DOWN")
            self.tap("A")


def text_mask(text):
    """(lit, blank) pixel offsets of `text` in terminalio's font as bitmap_label draws it,
    cropped to the lit pixels."""
    import terminalio
    from adafruit_display_text import bitmap_label
    bitmap = bitmap_label.Label(terminalio.FONT, text=text).bitmap
    on = [(x, y) for y in range(bitmap.height) for x in range(bitmap.width) if bitmap[x, y]]
    if not on:
        return [], []
    x0, y0 = min(x for x, _ in on), min(y for _, y in on)
    x1, y1 = max(x for x, _ in on), max(y for _, y in on)
    lit = set(on)
    blank = [(x - x0, y - y0) for y in range(y0, y1 + 1) for x in range(x0, x1 + 1) if (x, y) not in lit]
    return [(x - x0, y - y0) for x, y in on], blank


def find_text(image, text):
    """Top-left corners where `text` (terminalio font, one colour, scale 1) shows in the image."""
    from tools.sim.findtext import find_mask
    lit, blank = text_mask(text)
    return find_mask(image, lit, blank)


def shows(image, text):
    """True when `text` appears in the image."""
    return bool(find_text(image, text))


def bitmap_bytes(bitmap):
    """The bytes a displayio.Bitmap keeps on CircuitPython: rows of 32-bit words, 1, 2, 4, 8,
    16 or 32 bits a pixel (the fewest that hold its value count)."""
    bits = bitmap._bits_per_value   # Blinka computes it as CircuitPython does
    return (bitmap.width * bits + 31) // 32 * 4 * bitmap.height


def bitmaps(group, found=None):
    """The distinct Bitmaps under a group (the TileGrids' and the labels')."""
    import displayio
    found = {} if found is None else found
    if isinstance(group, displayio.Group):
        for child in group:
            bitmaps(child, found)
    elif isinstance(group, displayio.TileGrid):
        found[id(group.bitmap)] = group.bitmap
    return found


def figures(display, seed=5, playouts=4):
    """A 4-player game (you and three AIs) on the PyBadge played to the end, measured:
    tracemalloc of the painter and of the whole app while it plays (CPython bytes), the
    displayio objects the screens keep, and the bytes of their bitmaps on a device."""
    import gc
    import tracemalloc
    from firmware.paint_dio import count_objects
    import firmware.game     # noqa: F401  (imported before tracing: code is not the game's heap)
    import engine.ai         # noqa: F401
    board = boards.load("pybadge")
    gc.collect()
    tracemalloc.start()
    base = tracemalloc.get_traced_memory()[0]
    device = CircuitDevice(board, display, None, 0, playouts, seed)
    built = tracemalloc.get_traced_memory()[0] - base
    root = device.painter.root
    player = Player(device)
    out = {"objects_start": count_objects(root), "painter_and_title_bytes": built}
    player.start()
    tracemalloc.reset_peak()
    dealt = tracemalloc.get_traced_memory()[0] - base
    samples = []

    def sample(p):
        samples.append(tracemalloc.get_traced_memory()[0] - base)

    player.check = sample
    player.play_to(("scores",))
    moves = device.app.game.n_moves
    player.tap("A")
    peak = tracemalloc.get_traced_memory()[1] - base
    tracemalloc.stop()
    out.update(objects_end=count_objects(root), dealt_bytes=dealt, peak_bytes=peak,
               mean_bytes=sum(samples) // max(1, len(samples)), moves=moves,
               events=len(device.events), final=player.screen.name == "final",
               bitmap_bytes=sum(bitmap_bytes(b) for b in bitmaps(root).values()),
               sheet_bytes=bitmap_bytes(device.painter.sheet), updates=device.painter.updates,
               frames=device.frames)
    return out


VM_HEAP = """\
import gc
gc.collect()
BASE = gc.mem_alloc()
sizes = []

def resident(what):
    __import__(what)

def measure():
    gc.collect()
    sizes.append(gc.mem_alloc() - BASE)

class Board:
    NAME, WIDTH, HEIGHT, LAYOUT, KEYS = "PyBadge", 160, 128, "dpad", ()

class Blind:     # the displayio painter's place: the VM has no displayio
    updates = 0
    flying = -1  # no card flies
    def __init__(self, sizes):
        self.sizes = sizes   # as firmware.paint_dio.DioPainter(160, 128).sizes
    def paint(self, screen):
        self.updates += 1

app = None
now = 0
used = []

def begin():
    global app, S
    from firmware.app_dio import DioApp
    from firmware import screens as S
    app = DioApp(Board, Blind(S.Sizes(False, 9, 6, 24, 26, 2, 6)), None, 0,
                 playouts=%(playouts)d, seed=%(seed)d)

def heap():
    gc.collect()
    used.append(gc.mem_alloc() - BASE)

def step():
    global now
    sc = app.screen
    if sc.name == "final":
        return
    heap()   # a fresh VM call: the garbage of the last step is collectable now
    if sc.name == "setup" and sc.setup["match"] != "rounds":
        while sc.rows_of[sc.cursor] != ("match", 0):
            app.act(S.DOWN)
        app.act(S.OK)
    elif sc.name == "setup":
        while sc.rows_of[sc.cursor] != ("start", 0):
            app.act(S.DOWN)
        app.act(S.OK)
    elif sc.name == "table" and sc.my_turn:
        target = sc.first_playable()
        while sc.cursor != target:
            app.act(S.NEXT)
        app.act(S.OK)
        if app.screen.name == "picker":
            app.act(S.OK)
    elif sc.name == "table":
        now += 1000
        app.tick(now)
    else:
        app.act(S.OK)

def report():
    import sys
    framebuf_painter = "firmware.gfx" in sys.modules or "firmware.paint" in sys.modules
    print("HEAP", sizes[1], sizes[2], used[2], max(used), sum(used) // len(used), len(used),
          app.screen.name == "final", framebuf_painter)
"""


def vm_heap(seed=5, playouts=4):
    """The MicroPython VM's heap (32-bit, as on a SAMD51) while the shared app plays a 4-player
    match of 3 rounds on the PyBadge's screen sizes, everything but displayio (drawing is a
    no-op there): bytes after the imports, after the deal, at most and on average
    (gc.mem_alloc after gc.collect at every step), and the steps to the match's end."""
    from tools.vm import mpvm
    result = mpvm.run(VM_HEAP % {"seed": seed, "playouts": playouts}, modules=("engine", "firmware"),
                      steps=["measure()", "resident('firmware.screens')", "measure()",
                             "resident('firmware.app_dio')", "measure()", "begin()"]
                      + ["step()"] * 600 + ["report()"],
                      heapsize=2 * 1024 * 1024, timeout=600,
                      label="DioApp heap in the VM").check()
    line = [x for x in result.stdout.splitlines() if x.startswith("HEAP ")][-1]
    words = line.split()
    screens, code, dealt, top, mean, steps = (int(v) for v in words[1:7])
    return {"vm_code": code, "vm_screens": screens, "vm_dealt": dealt, "vm_max": top,
            "vm_mean": mean, "vm_steps": steps, "vm_final": words[7] == "True",
            "vm_framebuf_loaded": words[8] == "True"}


def describe_figures(f):
    """The figures in words (docs/circuitpython.md quotes them)."""
    return "\n".join((
        "PyBadge 160x128, you + 3 AIs, one round to the final table: %d moves, %d frames, %d key events"
        % (f["moves"], f["frames"], f["events"]),
        "displayio objects the screens keep: %d (the same at the start and the end: %d)"
        % (f["objects_start"], f["objects_end"]),
        "bitmap bytes on a device (4-bit sheet %d B + label bitmaps): %d B"
        % (f["sheet_bytes"], f["bitmap_bytes"]),
        "CPython tracemalloc: painter + title %d B; after the deal %d B; mean in play %d B; peak %d B"
        % (f["painter_and_title_bytes"], f["dealt_bytes"], f["mean_bytes"], f["peak_bytes"]),
        "displayio objects changed over the game: %d" % f["updates"]) + ((
        "MicroPython VM (32-bit heap, everything but displayio), 3-round match: %d B after the"
        " imports (firmware.screens alone %d B; framebuf painter loaded: %s), %d B mean and %d B"
        " at most in play (%d steps)" % (f["vm_code"], f["vm_screens"], f["vm_framebuf_loaded"],
                                         f["vm_mean"], f["vm_max"], f["vm_steps"]),)
        if "vm_max" in f else ()))


WINDOW_KEYS = (("UP", "UP"), ("DOWN", "DOWN"), ("LEFT", "LEFT"), ("RIGHT", "RIGHT"),
               ("z", "A"), ("RETURN", "A"), ("x", "B"), ("BACKSPACE", "B"), ("a", "X"),
               ("s", "Y"))


def run_window(device, frame_ms=FRAME_MS):
    """Play in the display's window until the app is done, Esc, or the window closes."""
    import time
    import pygame
    from tools.sim.window import Held
    codes = {}
    for key, name in WINDOW_KEYS:
        codes[pygame.key.key_code(key.lower())] = boards.KEY_NAMES.index(name)
    held = Held()
    device.refresh()
    start, start_ms = time.monotonic(), device.now_ms
    while not device.done:
        for event in pygame.event.get():
            if event.type == pygame.QUIT or (event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE):
                return
            if event.type == pygame.KEYDOWN and event.key in codes:
                held.down(event.key)
            elif event.type == pygame.KEYUP:
                held.up(event.key)
        mask = held.mask(codes.__getitem__)
        now = max(device.now_ms + 1, start_ms + int((time.monotonic() - start) * 1000))
        if device.frame(now, mask):
            device.refresh()
        time.sleep(frame_ms / 1000)


def parse_args(argv):
    """The command line (the same words as python -m tools.sim), checked."""
    from tools.sim.__main__ import parse_args as sim_args
    return sim_args(argv, "python -m tools.sim.circuitpython", "pybadge", __doc__)


def main(argv=None, args=None):
    """Run the CircuitPython app on the host; returns the exit status. tools.sim passes its
    own checked `args` (same names) for a board with DISPLAYIO = True."""
    from tools.sim.__main__ import SEEDED_PLAYOUTS, default_mode, fallback_mode, warn_unused
    from tools.sim.device import environment_has_display
    from tools.sim.headless import play
    args = args if args is not None else parse_args(argv)
    board = boards.load(args.board)
    if not getattr(board, "DISPLAYIO", False):
        print("%s is not a displayio board: use python -m tools.sim" % args.board, file=sys.stderr)
        return 2
    mode = args.mode or default_mode()
    if mode == "window" and not environment_has_display():
        mode = fallback_mode("no display: DISPLAY and WAYLAND_DISPLAY are unset")
    warn_unused(args, mode)
    quiet_sdl(mode != "window")
    quiet_blinka()
    scale = args.scale or (1 if mode == "headless" else 4)
    window = mode == "window"
    display = open_display(board.WIDTH, board.HEIGHT, scale if window else 1,
                           "Mau-Mau: %s" % board.NAME, LEGEND if window else ())
    seed = getattr(args, "seed", None)
    from tools.sim.sound import for_board
    device = CircuitDevice(board, display, save_folder(args.board, args.save_dir),
                           playouts=None if seed is None else SEEDED_PLAYOUTS, seed=seed,
                           sound=for_board(board, mode, getattr(args, "sound_log", None)))
    if mode == "window":
        run_window(device)
        return 0
    if mode == "terminal":
        from tools.sim import terminal
        try:
            terminal.run(TerminalDevice(device), scale=args.scale)
        except KeyboardInterrupt:
            return 130
        return 0
    return play(device, lambda: headless_runner(device, args.shots, scale), args.script,
                args.shots)


if __name__ == "__main__":
    sys.exit(main())
