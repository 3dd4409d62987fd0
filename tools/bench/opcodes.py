"""The redraw's Python a move, counted: CPython opcodes over the bench's game, exact.

    python -m tools.bench.opcodes [--boards tdisplay,pico_oled] [--decisions N] [--source DIR]
                                  [--direct]

The game of tools.bench.firmware (seed 4, you and three strong AIs, the same key presses,
game after game) on the fake pins and bus, run in CPython with sys.settrace counting each
opcode run in the painter (firmware/paint.py, paint_list.py), the canvas (firmware/gfx.py, boxes.py)
and the display driver (st7789*.py, ssd1306*.py, expand.py); framebuf's C, the fakes, the app
and the engine are not counted. The same on every run and every machine: a cut of a few
percent shows here where the VM's milliseconds swing 20% between runs. An opcode is not a
microsecond (a call costs several, a subscript one): read the counts beside the VM times.
Printed a move: opcodes and calls by file, the functions that run most, shows, pixels and
bytes sent. `--direct`: the colour boards on firmware.direct's canvas (as firmware.boot makes
it where the heap is small), each drawing sent as made (its pieces are not shows).
"""
import collections
import sys

from tools import cli

BOARDS = ("pico_display", "waveshare_lcd114", "tdisplay", "pico_oled", "thumby")
PAINTER = ("/firmware/paint.py", "/firmware/paint_large.py", "/firmware/paint_fly.py",
           "/firmware/paint_list.py",
           "/firmware/paint_pages.py", "/firmware/paint_scores.py", "/firmware/paint_cover.py")
CANVAS = ("/firmware/gfx.py", "/firmware/boxes.py", "/firmware/direct.py")
DRIVER = ("/firmware/st7789.py", "/firmware/st7789_show.py", "/firmware/ssd1306.py",
          "/firmware/ssd1306_i2c.py", "/firmware/ssd1306_spi.py", "/firmware/expand.py")
PART = {}
for _part, _files in (("painter", PAINTER), ("canvas", CANVAS), ("driver", DRIVER)):
    for _f in _files:
        PART[_f] = _part


def use_source(source):
    """Import engine/, firmware/ and board_configs/ from `source` from now on (the fakes and
    the simulator's framebuf stay this checkout's)."""
    import tools.fakes.chipmodels  # noqa: F401  (this checkout's, before the path changes)
    import tools.sim               # noqa: F401
    sys.path.insert(0, source)
    for name in list(sys.modules):
        if name.split(".")[0] in ("engine", "firmware", "board_configs"):
            del sys.modules[name]


def count(name, decisions=300, direct=False):
    """Play the bench's game on board `name` (`direct`: a colour board on firmware.direct's
    canvas); return its figures: moves, shows, pixels, bytes sent, and opcodes and calls per
    (file, function)."""
    import importlib
    from tools.sim import install_framebuf
    install_framebuf()
    from tools.fakes import chipmodels
    from firmware import ssd1306_spi, st7789
    machine = _Patches()
    for driver in (st7789, ssd1306_spi):          # the reset waits: not slept on CPython
        machine.setitem(driver.__dict__, "sleep_ms", lambda ms: None)
    chipmodels.install_machine(machine)
    try:
        rig = chipmodels.Rig(importlib.import_module("board_configs." + name), seed=4,
                             model=False, direct=direct)
        ops, calls = collections.Counter(), collections.Counter()

        def tracer(frame, event, arg):
            path = frame.f_code.co_filename.replace("\\", "/")
            part = PART.get(path[path.rfind("/firmware/"):])
            if part is None:
                return None
            key = (path[path.rfind("/") + 1:], frame.f_code.co_name)
            calls[key] += 1
            frame.f_trace_opcodes = True

            def local(frame, event, arg):
                if event == "opcode":
                    ops[key] += 1
                return local
            return local

        chipmodels.choose(rig, "New game")   # as tools.bench.firmware's start() and play()
        sc = rig.app.screen
        while sc.rows_of[sc.cursor][0] != "start":
            rig.act(1)
        shows, pixels = rig.shows, rig.shown_pixels
        sent = chipmodels.FakeSPI.sent + chipmodels.FakeI2C.sent
        sys.settrace(tracer)
        try:
            rig.act(3)
            moves, game, seen = 0, rig.app.game, rig.app.game.n_moves
            for _ in range(decisions):
                if rig.app.screen.name == "final":
                    chipmodels.choose(rig, "New game")
                chipmodels.play_game(rig, 1)
                if rig.app.game is not None and rig.app.game is not game:
                    game, seen = rig.app.game, 0
                if game is not None and game.n_moves > seen:
                    moves += game.n_moves - seen
                    seen = game.n_moves
        finally:
            sys.settrace(None)
    finally:
        machine.undo()
    return {"moves": moves, "shows": rig.shows - shows, "pixels": rig.shown_pixels - pixels,
            "bytes": chipmodels.FakeSPI.sent + chipmodels.FakeI2C.sent - sent,
            "ops": ops, "calls": calls}


class _Patches:
    """The monkeypatch chipmodels.install_machine asks for (`setitem`), undone after a board
    (the drivers' reset waits too)."""

    def __init__(self):
        self.done = []

    def setitem(self, mapping, key, value):
        self.done.append((mapping, key, mapping.get(key, _Patches)))
        mapping[key] = value

    def undo(self):
        for mapping, key, old in reversed(self.done):
            if old is _Patches:
                mapping.pop(key, None)
            else:
                mapping[key] = old


def report(name, figures, top=12):
    """Print one board's counts a move."""
    moves = figures["moves"]
    ops, calls = figures["ops"], figures["calls"]
    parts = collections.Counter()
    for (path, _), n in ops.items():
        parts[PART["/firmware/" + path]] += n
    print("%s: %d moves; opcodes a move: painter %d, canvas %d, driver %d (all %d); calls a"
          " move %.1f; shows a move %.2f, pixels a move %d, bytes a move %d"
          % (name, moves, parts["painter"] / moves, parts["canvas"] / moves,
             parts["driver"] / moves, sum(ops.values()) / moves,
             sum(calls.values()) / moves, figures["shows"] / moves, figures["pixels"] / moves,
             figures["bytes"] / moves))
    for (path, fn), n in ops.most_common(top):
        print("  %-28s %7d opcodes %6.1f calls a move"
              % ("%s:%s" % (path, fn), n / moves, calls[(path, fn)] / moves))


def main(argv=None):
    """Count each board's game and print."""
    parser = cli.Parser(prog="bench.opcodes", description=__doc__.splitlines()[0])
    cli.add_boards(parser, BOARDS, "a CircuitPython board: this counts the framebuf boards")
    parser.add_argument("--decisions", type=cli.at_least(1), default=300,
                        help="decisions played per board (tools.bench.firmware's default)")
    parser.add_argument("--source", help="a folder with engine/, firmware/, board_configs/ to"
                        " count instead of this checkout's")
    parser.add_argument("--top", type=cli.at_least(0), default=12,
                        help="functions listed per board")
    parser.add_argument("--direct", action="store_true",
                        help="the colour boards on firmware.direct's canvas (a small heap's)")
    args = parser.parse_args(argv)
    if args.source:
        use_source(args.source)
    _, stopped = cli.each_until_stopped(
        "bench.opcodes", args.boards,
        lambda name: report(name, count(name, args.decisions, args.direct), args.top))
    if stopped:
        sys.exit(130)


if __name__ == "__main__":
    main()
