"""CircuitPython entry: the board's display and buttons, the displayio painter, the app until Quit.

CircuitPython runs `code.py`; ours is two lines (docs/circuitpython.md):

    from firmware.cp_main import run
    run()

The board is CircuitPython's own `board.board_id` ("pybadge", "pygamer") unless named.
Saves go to /mau on the CIRCUITPY drive when CircuitPython may write there (boot.py
remounts it; docs/circuitpython.md); otherwise the game plays unsaved and says so.
"""

from engine.compat import forget, ticks_ms

FRAME_S = 0.01        # the loop's nap between polls
SAVE_DIR = "/mau"
_KNOWN = ("pybadge", "pygamer")


def board_module(name=None):
    """board_configs.<name>, by default the board CircuitPython runs on."""
    if name is None:
        import board
        name = board.board_id.replace("-", "_")
        if name not in _KNOWN:
            name = "pybadge"
    package = __import__("board_configs." + name)
    return getattr(package, name)


def drive_read_only(path="/"):
    """True when CircuitPython may not write the drive (a computer has it over USB)."""
    try:
        import storage
        return storage.getmount(path).readonly
    except (ImportError, OSError, AttributeError):
        return False


def run(name=None):
    """Play on the board until the player quits."""
    import gc
    from firmware.paint_dio import DioPainter
    from firmware.app_dio import DioApp, DriveStore
    board = board_module(name)
    display = board.open_display()
    keys = board.open_buttons()
    painter = DioPainter(board.WIDTH, board.HEIGHT)
    display.root_group = painter.root
    display.auto_refresh = False
    store = DriveStore(SAVE_DIR, drive_read_only())
    sound = board.open_sound() if hasattr(board, "open_sound") else None   # the speaker
    gc.collect()
    app = DioApp(board, painter, store, ticks_ms(), sound=sound)
    loop(app, painter, display, keys)


def loop(app, painter, display, keys, clock=None, nap=None):
    """Poll keys, hand events to the app, tick it, refresh the display when objects changed.
    When the heap runs out in a frame, the app is made again from its saves (firmware.rescue).

    clock and nap default to ticks_ms and time.sleep (tests pass virtual ones)."""
    import time
    clock = clock or ticks_ms
    nap = nap or time.sleep
    shown = -1
    while not app.done:
        try:
            app.frame(clock(), keys)
        except MemoryError:    # made again, the old app let go first (firmware.rescue; as
            #                    firmware.main's loop: no helper may hold the old app)
            remains = app.store, app.sound, app.layout, app.open_link, app.playouts, app.seed
            app = None
            from firmware.rescue import remade_dio
            forget("firmware.rescue")
            app = remade_dio(painter, remains, clock())
        if painter.updates != shown:
            shown = painter.updates
            display.refresh()
        nap(FRAME_S)
