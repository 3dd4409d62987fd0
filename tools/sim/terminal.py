"""The screen in a terminal: two pixels per character cell with the upper half block, or
shrunk into braille dots where the terminal is too small for that.

Each text row shows two pixel rows: the top pixel as the foreground colour of "▀", the
bottom one as the background, in 24-bit colour. A terminal too small for one character
per pixel column (the 240x135 boards need 240x70, an 80x24 terminal has far less) gets
`Shrunk`: each cell is 2x4 braille dots over a patch of pixels, in the patch's two
commonest colours, scaled to fit. Only rows whose text changed are sent again. Keys are
read in cbreak mode; a terminal reports no key releases, so a key press becomes a tap
(or, for the capital letters, a long press) of the board's button.
"""
import os
import select
import sys
import time

from tools.sim.boards import KEY_NAMES, arrow_keys, key_help
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


BRAILLE = 0x2800
DOT_BITS = ((0x01, 0x08), (0x02, 0x10), (0x04, 0x20), (0x40, 0x80))  # [dot row][dot column]
INK_SHARE = 0.4   # a dot is lit when this share of its pixels is not the cell's background


def help_lines(board, columns=None):
    """The lines under the screen: the board's keys on this keyboard, and what they do
    (broken to fit `columns`)."""
    lines = key_help(board, KEY_LABELS, ["capital letter = hold", "Esc/q = quit"], "  ")
    if columns is None:
        return lines
    if len(lines[0]) >= columns:   # the same words, tighter
        lines[0] = lines[0].replace("capital letter", "CAPS").replace(" = ", "=").replace("  ", " ")
    out = []
    for line in lines:
        while len(line) >= columns:
            cut = line.rfind("  ", 0, columns - 1)
            cut = cut if cut > 0 else columns - 1
            out.append(line[:cut])
            line = "  " + line[cut:].lstrip()
        out.append(line)
    return out


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


class Shrunk(Renderer):
    """The screen scaled down by `factor` (fx, fy) into braille cells: each cell is 2x4 dots,
    a dot the patch of about 1/fx x 1/fy pixels under it, lit in the cell's commonest colour
    other than its background (its commonest colour) when enough of the patch has ink."""

    def __init__(self, canvas, factor, top=1, left=1):
        self.converter = Converter(canvas)
        self.height = canvas.height
        self.scale = 1
        self.factor = factor
        self.dots_x = max(1, int(canvas.width * factor[0]))
        self.dots_y = max(1, int(canvas.height * factor[1]))
        self.width = (self.dots_x + 1) // 2
        self.rows = [None] * ((self.dots_y + 3) // 4)
        self.top, self.left = top, left
        w, h = canvas.width, canvas.height
        self.xs = [(d * w // self.dots_x, max(d * w // self.dots_x + 1, (d + 1) * w // self.dots_x))
                   for d in range(self.dots_x)]
        self.ys = [(d * h // self.dots_y, max(d * h // self.dots_y + 1, (d + 1) * h // self.dots_y))
                   for d in range(self.dots_y)]

    @property
    def cropped(self):
        """Never: the whole screen is shown, smaller."""
        return False

    def _patch(self, pixel_rows, dy, dx):
        """The colours (3-byte strings) of the pixels under dot (dx, dy)."""
        (x0, x1), (y0, y1) = self.xs[dx], self.ys[dy]
        return [pixel_rows[y][3 * x:3 * x + 3] for y in range(y0, y1) for x in range(x0, x1)]

    def row_text(self, row):
        """The braille characters and colour codes of text row `row`."""
        first = self.ys[4 * row][0]
        last = self.ys[min(len(self.ys), 4 * row + 4) - 1][1]
        pixels = {y: self.converter.row(y) for y in range(first, last)}
        cells, counts = [], []
        for col in range(self.width):
            patches = [[self._patch(pixels, dy, dx) if dy < self.dots_y and dx < self.dots_x else []
                        for dx in (2 * col, 2 * col + 1)] for dy in range(4 * row, 4 * row + 4)]
            count = {}
            for line in patches:
                for patch in line:
                    for colour in patch:
                        count[colour] = count.get(colour, 0) + 1
            cells.append(patches)
            counts.append(count)
        parts, fg, bg = [], None, None
        for col, patches in enumerate(cells):
            back = self._background(counts, col)
            ink = {c: n for c, n in counts[col].items() if c != back}
            bits = 0
            for r, line in enumerate(patches):
                for c, patch in enumerate(line):
                    if patch and sum(1 for colour in patch if colour != back) >= INK_SHARE * len(patch):
                        bits |= DOT_BITS[r][c]
            if back != bg:
                parts.append("\x1b[48;2;%d;%d;%dm" % tuple(back))
                bg = back
            if bits:
                front = max(ink, key=ink.get)
                if front != fg:
                    parts.append("\x1b[38;2;%d;%d;%dm" % tuple(front))
                    fg = front
            parts.append(chr(BRAILLE + bits) if bits else " ")
        parts.append("\x1b[0m")
        return "".join(parts)

    @staticmethod
    def _background(counts, col):
        """The cell's background: of its colours, the one commonest around it (two cells either
        side), so the letters of a line are dots on the line's background, cell after cell."""
        near = {}
        for count in counts[max(0, col - 2):col + 3]:
            for colour, n in count.items():
                near[colour] = near.get(colour, 0) + n
        return max(counts[col], key=near.get)

    def update(self, rect):
        """Escape sequences that redraw the text rows under rect (x, y, w, h) that changed."""
        if rect is None:
            return ""
        _, y, _, h = rect
        out = []
        for row in range(len(self.rows)):
            top, bottom = self.ys[4 * row][0], self.ys[min(len(self.ys), 4 * row + 4) - 1][1]
            if bottom <= y or top >= y + h:
                continue
            text = self.row_text(row)
            if text != self.rows[row]:
                self.rows[row] = text
                out.append("\x1b[%d;%dH%s" % (self.top + row, self.left, text))
        return "".join(out)


def shrink_factor(width, height, columns, lines):
    """How much a width x height screen shrinks across and down to fit columns x lines braille
    cells: as little as it must, and never more than a quarter out of its proportions."""
    fx, fy = min(1.0, 2 * columns / width), min(1.0, 4 * lines / height)
    return min(fx, fy / 0.75), min(fy, fx / 0.75)


def fitting_scale(width, height, columns, lines):
    """The largest whole zoom that shows a width x height screen in the terminal (at least 1)."""
    scale = 1
    while width * (scale + 1) <= columns and (height * (scale + 1) + 1) // 2 <= lines:
        scale += 1
    return scale


class Keyboard:
    """Terminal bytes to held keys, one key at a time as a thumb presses them: each key stays
    down until its tap or long press is over, and for at least MIN_FRAMES frames (a slow frame
    cannot swallow a tap); keys that came together (an arrow and a letter in one read) follow
    one another, each after the last one's release has settled."""

    MIN_FRAMES = 3  # frames are at least 10 ms apart: the 20 ms debounce sees the press
    GAP_MS = 40     # up between two keys, past the 20 ms debounce

    def __init__(self, arrows=None):
        self.arrows = arrows or {}  # arrow key -> the board's key it presses (boards.arrow_keys)
        self.waiting = []     # (key name, hold ms) not pressed yet, in order
        self.held = None      # [key name, ms it lets go, frames it has been reported]
        self.free_at = 0      # ms the next key may go down (the last one's release settled)
        self.quit = False

    def feed(self, text, now_ms):
        """Take what the terminal sent at now_ms."""
        i = 0
        while i < len(text):
            chunk = text[i:i + 3] if text[i:i + 3] in KEYS else text[i]
            if chunk in KEYS:
                name, hold = KEYS[chunk]
                self.waiting.append((self.arrows.get(name, name), hold))
            elif chunk == "\x1b" and i + 1 < len(text):
                chunk = text[i:i + 3]  # an escape sequence we do not use (F keys...): skip it
            elif chunk in QUIT:
                self.quit = True
            i += len(chunk)

    def mask(self, now_ms, key_names):
        """The pressed-keys mask for the frame at now_ms (a key whose hold is over is released,
        the next waiting one pressed once the release has settled)."""
        held = self.held
        if held is not None and now_ms >= held[1] and held[2] >= self.MIN_FRAMES:
            self.held = held = None
            self.free_at = now_ms + self.GAP_MS   # a later frame: the debouncer has seen it up
        if held is None and now_ms >= self.free_at and self.waiting:
            name, hold = self.waiting.pop(0)
            self.held = held = [name, now_ms + hold, 0]
        if held is None:
            return 0
        held[2] += 1
        return 1 << key_names.index(held[0])


def layout(canvas, board, columns, lines, scale=None):
    """The renderer and the note lines for a columns x lines terminal: half blocks at the
    largest whole zoom that fits (or `scale`), else the screen shrunk into braille."""
    notes = help_lines(board, columns)
    room = max(1, lines - len(notes) - 1)
    width, height = canvas.width, canvas.height
    if scale is None and (width > columns or (height + 1) // 2 > room):
        room = max(1, room - 1)    # one more note: how large the terminal must be
        factor = shrink_factor(width, height, columns, room)
        notes.insert(0, "shrunk to %d%%: %d x %d characters show every pixel" % (
            100 * min(factor), width, (height + 1) // 2 + len(notes) + 1))
        return Shrunk(canvas, factor), notes
    scale = scale or fitting_scale(width, height, columns, room)
    renderer = Renderer(canvas, columns=columns, lines=room, scale=scale)
    if renderer.cropped:
        notes.insert(0, "cropped: the screen needs %d x %d characters" % (
            width * scale, (height * scale + 1) // 2 + len(notes) + 1))
    return renderer, notes


def run(device, out=None, scale=None):
    """Play on this terminal until the app is done or the player quits; restores the terminal.

    scale: whole-pixel zoom; default the largest that fits the terminal (or, where not even
    one character a pixel fits, the screen shrunk into braille).
    """
    import termios
    import tty
    out = out or sys.stdout
    fd = sys.stdin.fileno()
    saved = termios.tcgetattr(fd)
    columns, lines = os.get_terminal_size(out.fileno())
    renderer, notes = layout(device.canvas, device.board, columns, lines, scale)
    keyboard = Keyboard(arrow_keys(device.board))
    start, start_ms = time.monotonic(), device.now_ms
    try:
        tty.setcbreak(fd)
        out.write("\x1b[?1049h\x1b[?25l\x1b[2J")
        out.write(renderer.full())
        for i, note in enumerate(notes):
            out.write("\x1b[%d;1H\x1b[0m%s" % (len(renderer.rows) + 1 + i, note[:columns - 1]))
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
