"""Power-on: find the board, open its display, buttons and speaker, make the app.

firmware.main runs this once and lets go of it (and of board_configs' wiring helpers)
before the loop begins, so that none of it stays in the heap while the game is played.
"""

import gc
import time

from firmware.main import link_opener


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
    return app, canvas, display, keys
