"""One simulated handheld: a board's screen, its buttons and the firmware's app, frame by frame.

This is the device's main loop with the hardware taken out (docs/firmware.md): each
frame feeds the pressed-keys mask to the debouncer, hands every key event to the app,
lets the app tick, and returns the rectangle of the screen that changed (the union of
the canvas's dirty boxes; `boxes` lists the boxes themselves, as the device sends them).
The front ends (window, terminal, headless) only supply the mask and the clock, and show
the rectangle.
"""
import os
from pathlib import Path

from tools.sim import boards, install_framebuf
from tools.sim.image import screenshot

FRAME_MS = 10           # how often the simulated device polls its buttons
ROOT = Path(__file__).resolve().parents[2]
SAVE_ROOT = ROOT / ".sim"  # per-board save folders (git-ignored)


def save_folder(board_name, folder=None):
    """The folder the board's Store keeps its files in (created): .sim/<board> unless given."""
    path = Path(folder) if folder is not None else SAVE_ROOT / board_name
    path.mkdir(parents=True, exist_ok=True)
    return str(path)


def firmware_app_factory():
    """firmware.app.App, or None while the app is not written yet."""
    install_framebuf()
    try:
        from firmware.app import App
    except ImportError as error:
        if error.name != "firmware.app":
            raise
        return None
    return App


def open_store(folder):
    """firmware.save.Store on the folder, created if missing (None while save.py does not exist)."""
    os.makedirs(folder, exist_ok=True)
    try:
        from firmware.save import Store
    except ImportError as error:
        if error.name != "firmware.save":
            raise
        return None
    return Store(folder)


class Device:
    """A board running an app: call frame(now_ms, mask) as the device's loop would.

    app_factory(board, canvas, store, now_ms) makes the app (firmware.app.App); its store
    keeps files in save_dir (None: the app gets no store). A `sound` (tools/sim/sound.py)
    is handed to the app as `sound=` when the factory takes one.
    """

    def __init__(self, board, app_factory, save_dir, now_ms=0, sound=None):
        install_framebuf()
        from firmware.buttons import Debouncer
        from firmware.boxes import BoxCanvas
        self.board = board
        self.name = board.__name__.rpartition(".")[2]
        self.canvas = BoxCanvas(board.WIDTH, board.HEIGHT, board.DEPTH)
        self.buttons = Debouncer()
        self.keys = boards.key_mask(board)
        self.store = None if save_dir is None else open_store(save_dir)
        self.sound = sound if sound is not None and takes_sound(app_factory) else None
        if self.sound is None:
            self.app = app_factory(board, self.canvas, self.store, now_ms)
        else:
            self.app = app_factory(board, self.canvas, self.store, now_ms, sound=sound)
        self.now_ms = now_ms
        self.frames = 0
        self.events = []  # every key event handed to the app, in order
        self.boxes = []   # the last frame's dirty boxes (x, y, w, h), as the device shows them

    def frame(self, now_ms, mask):
        """One turn of the loop at now_ms with these keys held; the changed (x, y, w, h) or None."""
        pump(self, now_ms, mask)
        canvas = self.canvas
        b = canvas.boxes
        self.boxes = [(b[i], b[i + 1], b[i + 2], b[i + 3])
                      for i in range(0, 4 * canvas.take_boxes(), 4)]
        return union(self.boxes)

    def save_png(self, path, scale=1):
        """Write the screen as a PNG, scaled by whole pixels."""
        screenshot(self.canvas, path, scale)

    @property
    def done(self):
        """True once the app has asked to stop."""
        return bool(getattr(self.app, "done", False))


def takes_sound(app_factory):
    """True when app_factory has a `sound` parameter (firmware.app.App; a test's app may not)."""
    import inspect
    try:
        return "sound" in inspect.signature(app_factory).parameters
    except (TypeError, ValueError):
        return False


def pump(device, now_ms, mask):
    """Feed the held keys to the device's debouncer, hand each event to its app, tick it."""
    device.now_ms = now_ms
    device.frames += 1
    next_frame = getattr(device.app, "next_frame", None)   # as App.frame begins
    if next_frame is not None:
        next_frame()
    device.buttons.feed(now_ms, mask & device.keys)
    while True:
        event = device.buttons.get()
        if event < 0:
            break
        device.events.append(event)
        device.app.handle(event)
    device.app.tick(now_ms)


def union(boxes):
    """(x, y, w, h) around all the boxes, or None when there are none."""
    if not boxes:
        return None
    x0 = min(b[0] for b in boxes)
    y0 = min(b[1] for b in boxes)
    x1 = max(b[0] + b[2] for b in boxes)
    y1 = max(b[1] + b[3] for b in boxes)
    return (x0, y0, x1 - x0, y1 - y0)


def environment_has_display():
    """True where a window can open: a desktop OS, or an X11/Wayland display on Linux."""
    import sys
    if sys.platform in ("darwin", "win32"):
        return True
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))
