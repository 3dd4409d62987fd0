"""Power-on: find the board, open its display, buttons and speaker, make the app.

firmware.main runs this once and lets go of it (and of board_configs' wiring helpers)
before the loop begins, so that none of it stays in the heap while the game is played.
"""

import gc
import time

from engine.compat import const
from firmware.main import link_opener

# Free heap when the canvas is made (at boot, the app's modules imported) from which a colour
# board keeps its whole screen as a canvas: from there the VM's evening from .mpy files
# needs about 68 KB more with that canvas and 58 KB with firmware.direct's (docs/boards.md).
# A Pico from files has well over 100 KB free there; a stock ESP32 without PSRAM starts from a
# 64 KB heap and adds pieces as it needs them.
_ROOMY = const(80 * 1024)


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


def start(name=None):
    """(app, canvas, display, keys) on the board `name` (default: board.py's)."""
    from firmware.save import Store
    from firmware.app import App
    board = board_module(name or board_name())
    display = board.open_display()
    keys = board.open_buttons()
    gc.collect()
    canvas = canvas_for(board, display, gc.mem_free())
    sound = board.open_sound() if hasattr(board, "open_sound") else None   # a buzzer
    if not hasattr(board, "open_link"):
        board.open_link = link_opener(board)     # the title then offers link play
    gc.collect()
    app = App(board, canvas, Store("/"), time.ticks_ms(), sound=sound)
    print("Mau-Mau ready on %s" % board.NAME)  # tools/deploy/deploy.py waits for this line
    return app, canvas, display, keys


def canvas_for(board, display, free):
    """The canvas the board draws on: the whole screen's pixels (firmware.boxes), or on a
    colour board with less than _ROOMY bytes `free`, firmware.direct's, which sends each
    drawing to the panel as it is made (a 1,440-byte piece for a 16,200-byte screen; a
    played card does not fly)."""
    if board.DEPTH == 4 and free < _ROOMY:
        from firmware.direct import DirectCanvas
        return DirectCanvas(board.WIDTH, board.HEIGHT, display)
    from firmware.boxes import BoxCanvas
    return BoxCanvas(board.WIDTH, board.HEIGHT, board.DEPTH)
