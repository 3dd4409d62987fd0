"""The screen in a window (pygame-ce), scaled by whole pixels, with the board's keys on the keyboard.

Arrows = the d-pad (on a board without one: its NEXT and PREV keys, boards.arrow_keys),
Z or Enter = A, X or Backspace = B, A = X, S = Y; Esc or closing the window quits. A bar
under the screen says which keys the board has and what they do on its layout. Only the
rectangle the app redrew is converted and sent.
"""
import os
import time

from tools.sim.boards import KEY_NAMES, arrow_keys, key_help
from tools.sim.device import FRAME_MS
from tools.sim.image import Converter

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

KEY_LABELS = (("A", "Z/Enter"), ("B", "X/Bksp"), ("X", "A"), ("Y", "S"))
BAR_LINE = 20
BAR_BG = (24, 24, 28)
BAR_INK = (200, 200, 205)
MIN_WIDTH = 360
MIN_FRAMES = 3    # polls a key stays down at least: 30 ms at 10 ms a frame, past the debounce
HIDDEN_DRIVERS = ("offscreen", "dummy")   # SDL's drivers that show nothing (tests ask for them)


def keymap(pygame, board):
    """pygame key code -> the board's key name (arrows as boards.arrow_keys says)."""
    arrows = arrow_keys(board)
    return {pygame.K_UP: arrows["UP"], pygame.K_DOWN: arrows["DOWN"],
            pygame.K_LEFT: arrows["LEFT"], pygame.K_RIGHT: arrows["RIGHT"],
            pygame.K_z: "A", pygame.K_RETURN: "A", pygame.K_KP_ENTER: "A",
            pygame.K_x: "B", pygame.K_BACKSPACE: "B", pygame.K_a: "X", pygame.K_s: "Y"}


def wrap_help(lines, fits, sep):
    """The help lines broken at their `sep`s into lines for which fits(text) is true."""
    out = []
    for line in lines:
        words = line.split(sep)
        text = words[0]
        for word in words[1:]:
            if fits(text + sep + word):
                text += sep + word
            else:
                out.append(text)
                text = "  " + word
        out.append(text)
    return out


def help_lines(board):
    """Two lines for the bar: the board's keys on the keyboard, and what they do."""
    return key_help(board, KEY_LABELS, ["Esc = quit"], "   ")


def default_scale(width):
    """A whole-pixel scale that makes the window about 720 pixels wide."""
    return max(1, 720 // width)


class Held:
    """The keyboard keys held down. A key stays down for MIN_FRAMES polls however short the
    tap (xdotool's press and release come in one poll), so the 20 ms debounce sees it; a key
    pressed again before that is another tap, after as many polls up."""

    def __init__(self):
        self.frames = {}   # key code -> polls reported down (below 0: polls still up between taps)
        self.owed = {}     # key code -> presses waiting after the one reported now
        self.pressed = set()  # keys physically down

    def down(self, code):
        """The key went down."""
        if code in self.frames:
            self.owed[code] = self.owed.get(code, 0) + 1
        else:
            self.frames[code] = 0
        self.pressed.add(code)

    def up(self, code):
        """The key came up (it is let go once it has been down long enough)."""
        self.pressed.discard(code)

    def mask(self, bit_of):
        """The pressed-keys mask for this poll; bit_of(code) is a key's bit number."""
        mask = 0
        for code, frames in list(self.frames.items()):
            owed = self.owed.get(code, 0)
            if frames < 0:
                self.frames[code] = frames + 1
            elif frames >= MIN_FRAMES and (owed or code not in self.pressed):
                if owed:
                    self.owed[code] = owed - 1
                    self.frames[code] = -MIN_FRAMES
                else:
                    del self.frames[code]
            else:
                self.frames[code] = frames + 1
                mask |= 1 << bit_of(code)
        return mask


class NoWindow(RuntimeError):
    """No window could open (no display server reachable, no video driver)."""


class Window:
    """The pygame window: the scaled screen and the help bar."""

    def __init__(self, device, scale):
        import pygame
        self.pygame = pygame
        self.device = device
        self.scale = scale
        self.converter = Converter(device.canvas)
        w, h = device.canvas.width * scale, device.canvas.height * scale
        width = max(w, MIN_WIDTH)
        try:
            pygame.display.init()
            if pygame.display.get_driver() in HIDDEN_DRIVERS and not os.environ.get("SDL_VIDEODRIVER"):
                raise pygame.error("SDL found no display, only its %r driver"
                                   % pygame.display.get_driver())
            pygame.font.init()
            self.font = pygame.font.Font(None, BAR_LINE + 2)
            self.bar = wrap_help(help_lines(device.board),
                                 lambda text: self.font.size(text)[0] <= width - 12, "   ")
            self.surface = pygame.display.set_mode((width, h + BAR_LINE * len(self.bar) + 6))
        except pygame.error as error:
            pygame.display.quit()
            raise NoWindow(str(error)) from None
        pygame.display.set_caption("Mau-Mau: %s" % device.board.NAME)
        self.keymap = keymap(pygame, device.board)
        self.held = Held()
        self.quit = False
        self.bar_top = h
        self._draw_bar(h)
        self.present((0, 0, device.canvas.width, device.canvas.height))
        pygame.display.flip()   # the bar too: present() updates only the screen's rectangle

    def _draw_bar(self, top):
        self.surface.fill(BAR_BG, (0, top, self.surface.get_width(), self.surface.get_height() - top))
        for i, line in enumerate(self.bar):
            self.surface.blit(self.font.render(line, True, BAR_INK), (6, top + 4 + i * BAR_LINE))

    def present(self, rect):
        """Convert and show the (x, y, w, h) rectangle of the canvas."""
        if rect is None:
            return
        pygame, s = self.pygame, self.scale
        x, y, w, h = rect
        image = pygame.image.frombuffer(self.converter.rect(x, y, w, h), (w, h), "RGB")
        if s != 1:
            image = pygame.transform.scale(image, (w * s, h * s))
        self.surface.blit(image, (x * s, y * s))
        pygame.display.update(pygame.Rect(x * s, y * s, w * s, h * s))

    def poll(self):
        """Read the window's events; return the pressed-keys mask of the board's keys."""
        pygame = self.pygame
        for event in pygame.event.get():
            if event.type == pygame.QUIT:
                self.quit = True
            elif event.type == pygame.KEYDOWN:
                if event.key == pygame.K_ESCAPE:
                    self.quit = True
                elif event.key in self.keymap:
                    self.held.down(event.key)
            elif event.type == pygame.KEYUP:
                self.held.up(event.key)
        return self.held.mask(lambda code: KEY_NAMES.index(self.keymap[code]))

    def pixel(self, x, y):
        """(r, g, b) the window shows at screen pixel (x, y) (for tests)."""
        return tuple(self.surface.get_at((x * self.scale, y * self.scale)))[:3]

    def close(self):
        """Close the window."""
        self.pygame.display.quit()


def run(device, scale=None, shown=None):
    """Play in a window (`shown`, else a new one) until the app is done or it is closed."""
    window = shown or Window(device, scale or default_scale(device.canvas.width))
    start, start_ms = time.monotonic(), device.now_ms
    try:
        while not device.done and not window.quit:
            mask = window.poll()
            now = max(device.now_ms + 1, start_ms + int((time.monotonic() - start) * 1000))
            window.present(device.frame(now, mask))
            spare = FRAME_MS / 1000 - (time.monotonic() - start - (now - start_ms) / 1000)
            if spare > 0:
                time.sleep(spare)
    finally:
        window.close()
