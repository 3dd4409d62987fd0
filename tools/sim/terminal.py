"""The screen in a terminal: two pixels per character cell with the upper half block.

Each text row shows two pixel rows: the top pixel as the foreground colour of "▀", the
bottom one as the background, in 24-bit colour. Only rows whose text changed are sent
again. Keys are read in cbreak mode; a terminal reports no key releases, so a key press
becomes a tap (or, for the capital letters, a long press) of the board's button.
"""
import os
import select
import sys
import time

from tools.sim.boards import KEY_NAMES, key_help
from tools.sim.device import FRAME_MS
from tools.sim.image import Converter

UPPER_HALF = "\u2580"
TAP_MS = 80
LONG_MS = 700  # past the firmware's 600 ms LONG, before its first REPEAT

# terminal input -> (key name, hold ms); capitals hold long
KEYS = {
    "\x1b[A": ("UP", TAP_MS), "\x1b[B": ("DOWN", TAP_MS), "\x1b[C": ("RIGHT", TAP_MS),
    "\x1b[D": ("LEFT", TAP_MS), "\x1bOA": ("UP", TAP_MS), "\x1bOB": ("DOWN", TAP_MS),
    "\x1bOC": ("RIGHT", TAP_MS), "\x1bOD": ("LEFT", TAP_MS),
    "z": ("A", TAP_MS), "\r": ("A", TAP_MS), "\n": ("A", TAP_MS), "Z": ("A", LONG_MS),
    "x": ("B", TAP_MS), "\x7f": ("B", TAP_MS), "\x08": ("B", TAP_MS), "X": ("B", LONG_MS),
    "a": ("X", TAP_MS), "A": ("X", LONG_MS), "s": ("Y", TAP_MS), "S": ("Y", LONG_MS),
}
QUIT = ("\x1b", "q", "Q", "\x03")
KEY_LABELS = (("A", "z/Enter"), ("B", "x/Bksp"), ("X", "a"), ("Y", "s"))


def help_lines(board):
    """Two lines under the screen: the board's keys on this keyboard, and what they do."""
    return key_help(board, KEY_LABELS, ["capital letter = hold", "Esc/q = quit"], "  ")


class Renderer:
    """Turns a canvas into terminal text; remembers each row to send only changed ones.

    `scale` repeats each pixel scale x scale times (small screens); `columns` and `lines`
    crop to the terminal's size.
    """

    def __init__(self, canvas, columns=None, lines=None, scale=1, top=1, left=1):
        self.converter = Converter(canvas)
        self.scale = scale
        self.height = canvas.height
        self.width = canvas.width * scale if columns is None else min(canvas.width * scale, columns)
        rows = (canvas.height * scale + 1) // 2
        self.rows = [None] * (rows if lines is None else min(rows, lines))
        self.top, self.left = top, left

    @property
    def cropped(self):
        """True when the terminal is too small for the whole screen."""
        return self.width < self.converter.width * self.scale or \
            len(self.rows) < (self.height * self.scale + 1) // 2

    def _pixels(self, y):
        """RGB bytes of terminal pixel row y (the canvas row under it, widened by the scale)."""
        y //= self.scale
        if y >= self.height:
            return b"\x00" * (3 * self.width)
        data = self.converter.row(y)
        if self.scale > 1:
            data = b"".join(data[i:i + 3] * self.scale for i in range(0, len(data), 3))
        return data[:3 * self.width]

    def row_text(self, row):
        """The characters and colour codes of text row `row` (terminal pixel rows 2*row and 2*row+1)."""
        top, bottom = self._pixels(2 * row), self._pixels(2 * row + 1)
        parts, fg, bg = [], None, None
        for i in range(0, len(top), 3):
            t, b = top[i:i + 3], bottom[i:i + 3]
            if t != fg:
                parts.append("\x1b[38;2;%d;%d;%dm" % tuple(t))
                fg = t
            if b != bg:
                parts.append("\x1b[48;2;%d;%d;%dm" % tuple(b))
                bg = b
            parts.append(UPPER_HALF)
        parts.append("\x1b[0m")
        return "".join(parts)

    def update(self, rect):
        """Escape sequences that redraw the text rows under rect (x, y, w, h) that changed."""
        if rect is None:
            return ""
        _, y, _, h = rect
        out = []
        first, end = y * self.scale // 2, ((y + h) * self.scale + 1) // 2
        for row in range(first, min(len(self.rows), end)):
            text = self.row_text(row)
            if text != self.rows[row]:
                self.rows[row] = text
                out.append("\x1b[%d;%dH%s" % (self.top + row, self.left, text))
        return "".join(out)

    def full(self):
        """Escape sequences that draw every row."""
        self.rows = [None] * len(self.rows)
        return self.update((0, 0, self.converter.width, self.height))


def fitting_scale(width, height, columns, lines):
    """The largest whole zoom that shows a width x height screen in the terminal (at least 1)."""
    scale = 1
    while width * (scale + 1) <= columns and (height * (scale + 1) + 1) // 2 <= lines:
        scale += 1
    return scale


class Keyboard:
    """Terminal bytes to held keys: each key stays down until its tap or long press is over,
    and for at least MIN_FRAMES frames, so a slow frame cannot swallow a tap."""

    MIN_FRAMES = 3  # frames are at least 10 ms apart: the 20 ms debounce sees the press

    def __init__(self):
        self.release_at = {}  # key name -> ms when it lets go
        self.frames = {}      # key name -> frames it has been reported held
        self.quit = False

    def feed(self, text, now_ms):
        """Take what the terminal sent at now_ms."""
        i = 0
        while i < len(text):
            chunk = text[i:i + 3] if text[i:i + 3] in KEYS else text[i]
            if chunk in KEYS:
                name, hold = KEYS[chunk]
                self.release_at[name] = now_ms + hold
                self.frames.setdefault(name, 0)
            elif chunk == "\x1b" and i + 1 < len(text):
                chunk = text[i:i + 3]  # an escape sequence we do not use (F keys...): skip it
            elif chunk in QUIT:
                self.quit = True
            i += len(chunk)

    def mask(self, now_ms, key_names):
        """The pressed-keys mask for the frame at now_ms (keys whose hold is over are released)."""
        mask = 0
        for name, until in list(self.release_at.items()):
            if now_ms >= until and self.frames[name] >= self.MIN_FRAMES:
                del self.release_at[name], self.frames[name]
            else:
                self.frames[name] += 1
                mask |= 1 << key_names.index(name)
        return mask


def run(device, out=None, scale=None):
    """Play on this terminal until the app is done or the player quits; restores the terminal.

    scale: whole-pixel zoom; default the largest that fits the terminal.
    """
    import termios
    import tty
    out = out or sys.stdout
    fd = sys.stdin.fileno()
    saved = termios.tcgetattr(fd)
    columns, lines = os.get_terminal_size(out.fileno())
    notes = help_lines(device.board)
    screen_lines = max(1, lines - len(notes) - 2)
    canvas = device.canvas
    scale = scale or fitting_scale(canvas.width, canvas.height, columns, screen_lines)
    renderer = Renderer(canvas, columns=columns, lines=screen_lines, scale=scale)
    if renderer.cropped:
        notes.insert(0, "cropped: the screen needs %d x %d characters" % (
            canvas.width * scale, (canvas.height * scale + 1) // 2 + len(notes) + 2))
    keyboard = Keyboard()
    start, start_ms = time.monotonic(), device.now_ms
    try:
        tty.setcbreak(fd)
        out.write("\x1b[?1049h\x1b[?25l\x1b[2J")
        out.write(renderer.full())
        for i, note in enumerate(notes):
            out.write("\x1b[%d;1H\x1b[0m%s" % (len(renderer.rows) + 2 + i, note[:columns - 1]))
        out.flush()
        while not device.done and not keyboard.quit:
            ready, _, _ = select.select([fd], [], [], FRAME_MS / 1000)
            now = max(device.now_ms + 1, start_ms + int((time.monotonic() - start) * 1000))
            if ready:
                keyboard.feed(os.read(fd, 64).decode(errors="ignore"), now)
            text = renderer.update(device.frame(now, keyboard.mask(now, KEY_NAMES)))
            if text:
                out.write(text)
                out.flush()
    finally:
        termios.tcsetattr(fd, termios.TCSADRAIN, saved)
        out.write("\x1b[0m\x1b[?25h\x1b[?1049l")
        out.flush()
