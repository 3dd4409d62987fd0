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
    from tools.sim.boards import LAYOUT_HINTS
    names = [key for key, _ in board.KEYS]
    keys = ["arrows = d-pad"] if "UP" in names else []
    keys += ["%s = %s" % (label, key) for key, label in KEY_LABELS if key in names]
    keys += ["capital letter = hold", "Esc/q = quit"]
    return ["keys: " + "  ".join(keys), LAYOUT_HINTS.get(board.LAYOUT, "")]


class Renderer:
    """Turns a canvas into terminal text; remembers each row to send only changed ones."""

    def __init__(self, canvas, columns=None, top=1, left=1):
        self.converter = Converter(canvas)
        self.width = canvas.width if columns is None else min(canvas.width, columns)
        self.height = canvas.height
        self.top, self.left = top, left
        self.rows = [None] * ((canvas.height + 1) // 2)

    def row_text(self, row):
        """The characters and colour codes of text row `row` (pixel rows 2*row and 2*row+1)."""
        top = self.converter.row(2 * row, 0, self.width)
        if 2 * row + 1 < self.height:
            bottom = self.converter.row(2 * row + 1, 0, self.width)
        else:
            bottom = b"\x00" * len(top)
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
        for row in range(y // 2, min(len(self.rows), (y + h + 1) // 2)):
            text = self.row_text(row)
            if text != self.rows[row]:
                self.rows[row] = text
                out.append("\x1b[%d;%dH%s" % (self.top + row, self.left, text))
        return "".join(out)

    def full(self):
        """Escape sequences that draw every row."""
        self.rows = [None] * len(self.rows)
        return self.update((0, 0, self.converter.width, self.height))


class Keyboard:
    """Terminal bytes to held keys: each key stays down until its tap or long press is over."""

    def __init__(self):
        self.release_at = {}  # key name -> ms when it lets go
        self.quit = False

    def feed(self, text, now_ms):
        """Take what the terminal sent at now_ms."""
        i = 0
        while i < len(text):
            chunk = text[i:i + 3] if text[i:i + 3] in KEYS else text[i]
            if chunk in KEYS:
                name, hold = KEYS[chunk]
                self.release_at[name] = now_ms + hold
            elif chunk == "\x1b" and i + 1 < len(text):
                chunk = text[i:i + 3]  # an escape sequence we do not use (F keys...): skip it
            elif chunk in QUIT:
                self.quit = True
            i += len(chunk)

    def mask(self, now_ms, key_names):
        """The pressed-keys mask at now_ms (keys whose hold is over are released)."""
        mask = 0
        for name, until in list(self.release_at.items()):
            if now_ms >= until:
                del self.release_at[name]
            else:
                mask |= 1 << key_names.index(name)
        return mask


def run(device, out=None, frame_ms=10):
    """Play on this terminal until the app is done or the player quits; restores the terminal."""
    import termios
    import tty
    from tools.sim.boards import KEY_NAMES
    out = out or sys.stdout
    fd = sys.stdin.fileno()
    saved = termios.tcgetattr(fd)
    columns, lines = os.get_terminal_size(out.fileno())
    renderer = Renderer(device.canvas, columns=columns)
    notes = help_lines(device.board)
    if renderer.width < device.canvas.width:
        notes.insert(0, "cropped: widen the terminal to %d columns" % device.canvas.width)
    keyboard = Keyboard()
    start, start_ms = time.monotonic(), device.now_ms
    try:
        tty.setcbreak(fd)
        out.write("\x1b[?1049h\x1b[?25l\x1b[2J")
        out.write(renderer.full())
        for i, note in enumerate(notes):
            out.write("\x1b[%d;1H\x1b[0m%s" % (len(renderer.rows) + 2 + i, note[:columns]))
        out.flush()
        while not device.done and not keyboard.quit:
            ready, _, _ = select.select([fd], [], [], frame_ms / 1000)
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
