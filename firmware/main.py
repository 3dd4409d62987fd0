"""Device entry: find the board, open its display and buttons, run the app until Quit.

`board.py` on the device names the board: `BOARD = "pico_display"`. A root `main.py`
that says `from firmware.main import run; run()` starts the game at power-on.
"""

import time

from engine.compat import const

FRAME_MS = const(10)   # the loop's nap between polls: buttons need a few ms, not less


def board_module(name):
    """The module board_configs.<name>."""
    package = __import__("board_configs." + name)
    return getattr(package, name)


def board_name():
    """The board named in board.py, or the Pico Display Pack."""
    try:
        from board import BOARD
        return BOARD
    except ImportError:
        return "pico_display"


def run(name=None):
    """Play on the board `name` (default: board.py's) until the player quits."""
    import gc
    from firmware.gfx import Canvas
    from firmware.save import Store
    from firmware.app import App
    board = board_module(name or board_name())
    display = board.open_display()
    keys = board.open_buttons()
    canvas = Canvas(board.WIDTH, board.HEIGHT, board.DEPTH)
    sound = board.open_sound() if hasattr(board, "open_sound") else None   # a buzzer
    if not hasattr(board, "open_link"):
        board.open_link = link_opener(board)     # the title then offers link play
    gc.collect()
    app = App(board, canvas, Store("/"), time.ticks_ms(), sound=sound)
    print("Mau-Mau ready on %s" % board.NAME)  # tools/deploy/deploy.py waits for this line
    loop(app, canvas, display, keys)


def link_opener(board):
    """A function opening the board's link (a firmware.link.Link), or None without one.

    Nothing of the link is imported until a player chooses to host or join."""
    if getattr(board, "LINK", None) is None:
        return None

    def open_link():
        from firmware.link import Link, open_transport
        return Link(open_transport(board))
    return open_link


def loop(app, canvas, display, keys, clock=None, nap=None):
    """Poll keys, hand events to the app, tick it, send the boxes that changed to the display.

    clock and nap default to time.ticks_ms and time.sleep_ms (tests pass virtual ones)."""
    clock = clock or time.ticks_ms
    nap = nap or time.sleep_ms
    while not app.done:
        app.frame(clock(), keys)
        if canvas.box_n:       # most frames draw nothing: no call then
            show_boxes(canvas, display)
        nap(FRAME_MS)


def show_boxes(canvas, display):
    """Send each box the canvas changed since the last frame (nothing when none did)."""
    boxes = canvas.boxes
    for i in range(0, 4 * canvas.take_boxes(), 4):
        display.show(canvas, boxes[i], boxes[i + 1], boxes[i + 2], boxes[i + 3])


if __name__ == "__main__":
    run()
