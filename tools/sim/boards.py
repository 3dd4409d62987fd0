"""The boards the simulator can show: board_configs/<name>.py, or a fallback table of their data.

The simulator reads only a board's data (NAME, WIDTH, HEIGHT, DEPTH, LAYOUT, KEYS); it
never calls its open_display or open_buttons.
"""
import importlib
from pathlib import Path

CONFIGS = Path(__file__).resolve().parents[2] / "board_configs"

DEFAULT_BOARD = "pico_display"

# name: (NAME, WIDTH, HEIGHT, DEPTH, LAYOUT, key names); used while a config file is missing.
FALLBACK = {
    "pico_display": ("Pimoroni Pico Display Pack", 240, 135, 4, "abxy", ("A", "B", "X", "Y")),
    "waveshare_lcd114": ("Waveshare Pico-LCD-1.14", 240, 135, 4, "dpad",
                         ("UP", "DOWN", "LEFT", "RIGHT", "A", "B")),
    "tdisplay": ("LILYGO T-Display", 240, 135, 4, "two", ("A", "B")),
    "pico_oled": ("Pico + SSD1306 OLED 128x64", 128, 64, 1, "dpad", ("UP", "DOWN", "LEFT", "RIGHT", "A", "B")),
    "thumby": ("TinyCircuits Thumby", 72, 40, 1, "dpad", ("UP", "DOWN", "LEFT", "RIGHT", "A", "B")),
}

KEY_NAMES = ("UP", "DOWN", "LEFT", "RIGHT", "A", "B", "X", "Y")

# The keyboard's arrows on a board without a d-pad press the keys that step through lists
# and the hand (firmware.buttons.action: NEXT and PREV); on a d-pad they are the d-pad.
ARROWS = {
    "abxy": {"RIGHT": "Y", "DOWN": "Y", "LEFT": "X", "UP": "X"},
    "two": {"RIGHT": "A", "DOWN": "A", "LEFT": "B", "UP": "B"},
}
ARROW_WORDS = {"abxy": "arrows = Y/X", "two": "arrows = tap A/B"}

# What a layout's buttons do (firmware.buttons.action), for the simulators' key help.
LAYOUT_HINTS = {
    "two": "buttons: A next, hold A choose, B back, hold B menu",
    "abxy": "buttons: Y/X next/prev, A choose, B back, hold B menu",
    "dpad": "buttons: d-pad moves, A choose, B back, hold B menu",
}


class FallbackBoard:
    """A board's data when its board_configs module does not exist (yet)."""

    def __init__(self, module_name, name, width, height, depth, layout, keys):
        self.__name__ = "board_configs." + module_name
        self.NAME, self.WIDTH, self.HEIGHT, self.DEPTH, self.LAYOUT = name, width, height, depth, layout
        self.KEYS = tuple((key, None) for key in keys)


def _all_names():
    files = {p.stem for p in CONFIGS.glob("*.py") if not p.stem.startswith("_")}
    return files | set(FALLBACK)


def names():
    """Names of every board the simulator can show: board_configs/ and the fallback table."""
    return sorted(_all_names())


def framebuf_names():
    """Names of the boards drawn with framebuf (the simulator's own front ends show those)."""
    return sorted(name for name in _all_names() if not draws_with_displayio(load(name)))


def displayio_names():
    """Names of the CircuitPython boards drawn with displayio (tools/sim/circuitpython.py shows those)."""
    return sorted(name for name in _all_names() if draws_with_displayio(load(name)))


def draws_with_displayio(board):
    """True for CircuitPython boards drawn with displayio (the simulator shows framebuf boards)."""
    return bool(getattr(board, "DISPLAYIO", False))


def load(name):
    """The board module board_configs.<name>, or its fallback data; KeyError for unknown boards."""
    if name not in _all_names():   # also keeps out paths, dots and board_configs' own __init__
        raise KeyError("unknown board %r (boards: %s)" % (name, ", ".join(names())))
    try:
        return importlib.import_module("board_configs." + name)
    except ImportError as error:
        if error.name not in ("board_configs", "board_configs." + name):
            raise  # the config exists but imports something missing: a real error
        return FallbackBoard(name, *FALLBACK[name])


def key_mask(board):
    """The pressed-keys bits this board has (a d-pad layout has the four directions): only these reach the app."""
    mask = 0x0F if board.LAYOUT == "dpad" else 0  # a thumbstick read as a d-pad has no pins in KEYS
    for key, _pin in board.KEYS:
        mask |= 1 << KEY_NAMES.index(key)
    return mask


def arrow_keys(board):
    """Keyboard arrow -> the board's key it presses: the d-pad itself, else the NEXT/PREV keys."""
    return ARROWS.get(board.LAYOUT, {name: name for name in KEY_NAMES[:4]})


def key_help(board, labels, last, sep):
    """Two help lines: the board's keys by a front end's `labels` (key, label) then `last`, and what they do."""
    names = [key for key, _ in board.KEYS]
    keys = [ARROW_WORDS.get(board.LAYOUT, "arrows = d-pad")]
    keys += ["%s = %s" % (label, key) for key, label in labels if key in names]
    return ["keys: " + sep.join(keys + last), LAYOUT_HINTS.get(board.LAYOUT, "")]
