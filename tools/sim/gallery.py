"""`python -m tools.sim.gallery --out docs/gallery`: every board's main screens as PNGs, and
an index page (README.md) that shows them.

The firmware's own App plays each board (its painter draws, framebuf or displayio) with a
fixed seed and AI budget; a Scout works it with the actions the buttons send (OK, NEXT,
DOWN) on a virtual clock. A screen that needs luck (a 7 pending on your turn, a forgotten
Mau to catch) is found by playing seed after seed until it appears, so the same code gives
the same pictures, byte for byte. The pictures are scaled by whole pixels to about 480
pixels wide and saved with their few colours as a palette (small files).

    python -m tools.sim.gallery --out docs/gallery                 # every board
    python -m tools.sim.gallery --out /tmp/g --boards thumby pico_oled
"""
import argparse
import os
import sys
import time

from tools.sim import boards, install_framebuf

# name, what the picture shows (the index page's caption)
SCREENS = (
    ("title", "The title: New game, Quit (Continue once a match is saved)"),
    ("setup", "The setup: you against three AIs; seats, rules and match on their rows"),
    ("table", "The table on your turn: the others' hands, the pile, your hand row"),
    ("pending7", "A 7 was played on you: draw two, or answer with a 7 of your own"),
    ("wish", "A Jack wished a suit: only that suit (or another Jack) fits"),
    ("picker", "You play a Jack: wish a suit"),
    ("mau", "Two cards left: play one and say Mau with it"),
    ("catch", "An AI forgot to say Mau: catch it, it draws"),
    ("cover", "Pass-and-play: every hand is hidden until the next player takes the device"),
    ("round_end", "Round end: the round's points and the match table"),
    ("match_end", "Match end: the winner and the final table"),
)
NAMES = tuple(name for name, _ in SCREENS)
PLAYOUTS = 4          # the AI's budget per decision: deterministic and quick
SEEDS = range(1, 400)  # tried in order until a screen that needs luck appears
STEPS = 3000          # actions and ticks one game may take to a screen


class NotFound(RuntimeError):
    """No seed of SEEDS reached the screen."""


class Scout:
    """Works one App with the actions its buttons would send, on a virtual clock."""

    def __init__(self, app):
        from firmware import screens
        from firmware.app import AI_PACE_MS
        self.app = app
        self.S = screens
        self.pace = AI_PACE_MS
        self.now = 0

    @property
    def screen(self):
        """The app's current screen."""
        return self.app.screen

    def act(self, action):
        """One action, as a button press makes it."""
        self.app.act(action)

    def wait(self, ms=None):
        """Let time pass (an AI's pace by default)."""
        self.now += self.pace if ms is None else ms
        self.app.tick(self.now)

    def settle(self):
        """Let a played card's flight land, as the frames after a move do (a shot shows
        the table, not the card in the air)."""
        painter = self.app.painter
        for _ in range(16):
            if getattr(painter, "flying", -1) < 0:
                return
            self.now += 16
            self.app.tick(self.now)

    def choose(self, label):
        """Move a list's cursor to `label` and choose it."""
        sc = self.screen
        if label not in sc.items:
            raise NotFound("no %r in %r" % (label, sc.items))
        while sc.items[sc.cursor] != label:
            self.act(self.S.DOWN)
        self.act(self.S.OK)

    def press_row(self, row):
        """Choose the setup row `row` (("seat", k), ("start", 0), ...)."""
        sc = self.screen
        while sc.rows_of[sc.cursor] != row:
            self.act(self.S.DOWN)
        self.act(self.S.OK)

    def start(self, levels=None):
        """From the title: New game, the seats' levels (0 human, 1-4 AI), Start."""
        self.choose("New game")
        sc = self.screen
        if levels is not None:
            while len(sc.levels) != len(levels):
                self.press_row(("players", 0))
            for k, level in enumerate(levels):
                while sc.levels[k] != level:
                    self.press_row(("seat", k))
        self.press_row(("start", 0))

    def my_turn(self):
        """True when the table waits for the human holding the device."""
        sc = self.screen
        return sc.name == "table" and sc.my_turn and not self.app.busy

    def to_item(self, item):
        """Move the hand row's cursor to `item`."""
        while self.screen.cursor != item:
            self.act(self.S.NEXT)

    def play_turn(self):
        """The human plays the first card that fits (a Jack wishes the first suit), else draws."""
        t = self.screen
        self.to_item(t.first_playable())
        self.act(self.S.OK)
        if self.screen.name == "picker":
            self.act(self.S.OK)
        if self.screen.name == "mau":        # the second-to-last card: with Mau
            self.act(self.S.OK)

    def step(self):
        """One thing a player would do next: play a turn, read a cover or a story, wait."""
        name = self.screen.name
        if name == "table":
            if self.my_turn():
                self.play_turn()
            else:
                self.wait()
        elif name in ("cover", "story", "scores"):
            self.act(self.S.OK)
        elif name == "between":
            self.choose("Deal next round")
        else:
            raise NotFound("stalled on %s" % name)

    def until(self, want):
        """Play on until want(self) holds (True), or the round is over (False)."""
        for _ in range(STEPS):
            if want(self):
                return True
            if self.screen.name in ("scores", "final"):
                return False
            self.step()
        return False


# What each screen needs: the seats' levels, and the moment (a test on the Scout) to stop at.

def _playable_jack(t):
    """The hand row index of a Jack that may be played now, or -1."""
    for i in range(t.hand_n):
        if t.playable[i] and t.wishes(t.hand[i]):   # a Jack that is not the last card
            return i
    return -1


def _has_fit(t):
    """True when a card of the hand may be played now."""
    return any(t.playable[i] for i in range(t.hand_n))


def _mau_card(t):
    """With two cards in hand, the hand row index of a card that fits and needs no wish
    (playing it asks whether to say Mau), or -1."""
    if t.hand_n != 2:
        return -1
    for i in range(t.hand_n):
        if t.playable[i] and not t.wishes(t.hand[i]):
            return i
    return -1


LUCK = {  # screen -> (levels, the moment)
    "pending7": (None, lambda s: s.my_turn() and s.screen.pending > 0),
    "wish": (None, lambda s: s.my_turn() and s.screen.wish >= 0),
    "picker": (None, lambda s: s.my_turn() and _playable_jack(s.screen) >= 0),
    "mau": (None, lambda s: s.my_turn() and _mau_card(s.screen) >= 0),
    "catch": ([0, 1, 1, 1], lambda s: s.screen.name == "table" and s.screen.catch_item() >= 0),
}


def find(make_app, levels, want):
    """A Scout on a fresh app of the first seed whose game reaches want (started with levels)."""
    for seed in SEEDS:
        scout = Scout(make_app(seed))
        scout.start(levels)
        if scout.until(want):
            return scout, seed
    raise NotFound("no seed of %d..%d reached the screen" % (SEEDS[0], SEEDS[-1]))


def scenes(make_app):
    """(screen name, seed, Scout at that screen) for every screen of SCREENS, in order."""
    scout = Scout(make_app(1))
    yield "title", 1, scout
    scout.choose("New game")
    yield "setup", 1, scout
    scout.press_row(("start", 0))
    scout.until(lambda s: s.my_turn() and _has_fit(s.screen))
    yield "table", 1, scout
    for name in ("pending7", "wish"):
        found, seed = find(make_app, *LUCK[name])
        yield name, seed, found
    found, seed = find(make_app, *LUCK["picker"])
    found.to_item(_playable_jack(found.screen))
    found.act(found.S.OK)
    yield "picker", seed, found
    found, seed = find(make_app, *LUCK["mau"])
    found.to_item(_mau_card(found.screen))
    found.act(found.S.OK)
    yield "mau", seed, found
    found, seed = find(make_app, *LUCK["catch"])
    yield "catch", seed, found
    cover = Scout(make_app(1))
    cover.start([0, 0, 3, 3])
    yield "cover", 1, cover
    scout.until(lambda s: False)
    yield "round_end", 1, scout
    scout.act(scout.S.OK)
    yield "match_end", 1, scout


def check(name, scout):
    """Raise unless the app shows the screen `name` promises (what its state says)."""
    sc = scout.screen
    t = scout.app.table
    ok = {
        "title": sc.name == "title" and "New game" in sc.items,
        "setup": sc.name == "setup",
        "table": scout.my_turn() and _has_fit(sc),
        "pending7": scout.my_turn() and sc.pending > 0,
        "wish": scout.my_turn() and sc.wish >= 0,
        "picker": sc.name == "picker" and t is not None and _playable_jack(t) >= 0,
        "mau": sc.name == "mau" and t is not None and t.hand_n == 2,
        "catch": sc.name == "table" and sc.catch_item() >= 0 and sc.cursor == sc.catch_item(),
        "cover": sc.name == "cover",
        "round_end": sc.name == "scores",
        "match_end": sc.name == "final",
    }[name]
    if not ok:
        raise NotFound("%s: the app shows %s instead" % (name, sc.name))


# Boards: an app factory by seed and a screenshot of what it shows.

def scale_for(board):
    """A whole-pixel zoom to about 480 pixels wide."""
    return max(1, 480 // board.WIDTH)


class FramebufBoard:
    """A framebuf board: the App paints a firmware.boxes.BoxCanvas."""

    def __init__(self, board):
        install_framebuf()
        from firmware.app import App
        from firmware.boxes import BoxCanvas
        self.board, self.App, self.Canvas = board, App, BoxCanvas

    def app(self, seed):
        """A fresh App with this seed (no store: nothing saved, no Continue)."""
        b = self.board
        return self.App(b, self.Canvas(b.WIDTH, b.HEIGHT, b.DEPTH), None, 0, PLAYOUTS, seed)

    def image(self, app):
        """The screen the app painted, as a Pillow image."""
        from tools.sim.image import screenshot
        return screenshot(app.canvas)


class DisplayioBoard:
    """A CircuitPython board: DioApp's displayio tree rendered by Blinka on SDL's dummy driver."""

    def __init__(self, board):
        from tools.sim import circuitpython
        circuitpython.quiet_sdl(True)
        circuitpython.quiet_blinka()
        import displayio
        displayio.release_displays()   # Blinka keeps one display: the last board's goes
        self.board = board
        self.cp = circuitpython
        self.display = circuitpython.open_display(board.WIDTH, board.HEIGHT)
        self.devices = {}

    def app(self, seed):
        """A fresh DioApp with this seed on the board's display."""
        device = self.cp.CircuitDevice(self.board, self.display, None, 0, PLAYOUTS, seed)
        self.devices[id(device.app)] = device
        return device.app

    def image(self, app):
        """The displayio screen now (its tree made the display's root first)."""
        device = self.devices[id(app)]
        self.display.root_group = device.painter.root
        return device.image()


def painter_for(board):
    """The board's way of making apps and pictures."""
    return DisplayioBoard(board) if boards.draws_with_displayio(board) else FramebufBoard(board)


def save_small(image, path, scale):
    """Save scaled by whole pixels as a palette PNG (exact: the screens have few colours)."""
    from PIL import Image
    if scale != 1:
        image = image.resize((image.width * scale, image.height * scale), Image.NEAREST)
    colours = sorted(c for _, c in image.getcolors(1 << 16) or [])
    if 0 < len(colours) <= 256:
        index = {c: i for i, c in enumerate(colours)}
        small = Image.new("P", image.size)
        small.putpalette([v for c in colours for v in c])
        small.putdata([index[c] for c in image.get_flattened_data()])
        image = small
    image.save(path, "PNG", optimize=True)


def render(board_name, out, on_shot=None):
    """Write out/<board>/<screen>.png for every screen; [(screen, seed, path)].
    on_shot(name, scout, image) sees each screen as it is saved (tests read them)."""
    board = boards.load(board_name)
    maker = painter_for(board)
    folder = os.path.join(out, board_name)
    os.makedirs(folder, exist_ok=True)
    made = []
    for name, seed, scout in scenes(maker.app):
        scout.settle()
        check(name, scout)
        path = os.path.join(folder, name + ".png")
        image = maker.image(scout.app)
        if on_shot is not None:
            on_shot(name, scout, image)
        save_small(image, path, scale_for(board))
        made.append((name, seed, path))
    return made


def index(out, results, per_row=3):
    """The index page: what each screen shows, then a table of pictures per board."""
    lines = ["# Gallery", "",
             "Every board's main screens as the firmware draws them. `python -m tools.sim.gallery "
             "--out docs/gallery` makes them again, the same bytes every time (seeded games, %d Expert "
             "walks a decision; a screen that needs luck is the first seed that reaches it). "
             "The pictures are the screens' pixels, scaled by whole pixels." % PLAYOUTS, ""]
    lines += ["- **%s**: %s" % (name, caption) for name, caption in SCREENS]
    for board_name, made in results:
        board = boards.load(board_name)
        lines += ["", "## %s (`--board %s`, %dx%d)" % (board.NAME, board_name, board.WIDTH, board.HEIGHT)]
        for first in range(0, len(made), per_row):
            row = made[first:first + per_row]
            lines += ["", "| " + " | ".join("%s (seed %d)" % (name, seed) for name, seed, _ in row) + " |",
                      "|" + "---|" * len(row),
                      "| " + " | ".join("![%s on %s](%s)" % (name, board_name, os.path.relpath(path, out))
                                        for name, _, path in row) + " |"]
    with open(os.path.join(out, "README.md"), "w") as f:
        f.write("\n".join(lines) + "\n")


def parse_args(argv):
    """The command line, checked (one line and exit status 2 for a mistake)."""
    from tools.sim.__main__ import Parser
    parser = Parser(prog="python -m tools.sim.gallery", description=__doc__.split("\n")[0])
    parser.add_argument("--out", required=True, help="the folder for <board>/<screen>.png and README.md")
    parser.add_argument("--boards", nargs="+", default=None, help="default: every board")
    args = parser.parse_args(argv)
    for name in args.boards or ():
        try:
            boards.load(name)
        except KeyError as error:
            parser.error(error.args[0])
    try:
        os.makedirs(args.out, exist_ok=True)
    except OSError as error:
        parser.error("--out %s: not a folder that can be made (%s)" % (args.out, error.strerror))
    return args


def main(argv=None):
    """Render the gallery; the exit status."""
    try:
        args = parse_args(argv)
    except SystemExit as stop:
        return stop.code
    names = args.boards or boards.names()
    results = []
    for name in names:
        start = time.monotonic()
        made = render(name, args.out)
        results.append((name, made))
        print("%s: %d screens in %.1f s" % (name, len(made), time.monotonic() - start))
    if args.boards is None:
        index(args.out, results)
    return 0


if __name__ == "__main__":
    sys.exit(main())
