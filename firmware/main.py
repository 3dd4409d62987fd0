"""Device entry: firmware.boot starts the board and the app, then the loop runs the app
until Quit (the boot's code let go first).

`board.py` on the device names the board: `BOARD = "pico_display"`. A root `main.py`
that says `from firmware.main import run; run()` starts the game at power-on.
"""

import time

from engine.compat import const, forget

FRAME_MS = const(10)   # the loop's nap between polls: buttons need a few ms, not less


def run(name=None):
    """Play on the board `name` (default: board.py's) until the player quits."""
    loop(*_started(name))


def _started(name):
    """The app and what the loop drives, from firmware.boot (let go once they are made:
    the boot's code, and the board's wiring helpers, leave the heap before play)."""
    from firmware.boot import start
    started = start(name)
    forget("firmware.boot")
    forget("board_configs")
    return started


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
    When the heap runs out in a frame, the app is made again from its saves (firmware.rescue).

    clock and nap default to time.ticks_ms and time.sleep_ms (tests pass virtual ones)."""
    clock = clock or time.ticks_ms
    nap = nap or time.sleep_ms
    while not app.done:
        try:
            app.frame(clock(), keys)
        except MemoryError:    # made again, the old app let go first (firmware.rescue)
            remains = app.store, app.sound, app.layout, app.open_link, app.playouts, app.seed
            app = None
            from firmware.rescue import remade
            forget("firmware.rescue")
            app = remade(canvas, remains, clock())
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
