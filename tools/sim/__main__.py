"""`python -m tools.sim` (what `./mau play` runs): the firmware on a simulated board.

    python -m tools.sim                          # default board, window or terminal
    python -m tools.sim --board thumby --scale 8
    python -m tools.sim --mode terminal
    python -m tools.sim --mode headless --script "A A wait:700 RIGHT*3 A long:B shot:menu" --shots shots/

Without --mode: a window where a display is available and pygame imports, else the
terminal if stdin is one, else headless. `--mode window` without a display says so in one
line and plays in the terminal (else headless). A mistake on the command line is one line
and exit status 2. `--seed N` makes the deals and the AI's choices repeatable.
"""
import argparse
import os
import sys

from tools.sim import boards
from tools.sim.device import Device, environment_has_display, firmware_app_factory, save_folder

MODES = ("window", "terminal", "headless")
SEEDED_PLAYOUTS = 40   # the Expert's walks a decision under --seed: a fixed count, so a seeded game
                       # repeats (a device searches by time: engine.expert.budget, 100-160 walks)


class Parser(argparse.ArgumentParser):
    """argparse with one line for a mistake (and exit status 2), not the usage block."""

    def error(self, message):
        """Say what is wrong in one line and exit with status 2."""
        self.exit(2, "%s: %s (--help lists the options)\n" % (self.prog, message))


def pygame_available():
    """True when pygame(-ce) imports."""
    try:
        import tools.sim.window  # noqa: F401  (sets the quiet-import variable first)
        import pygame  # noqa: F401
    except ImportError:
        return False
    return True


def has_terminal():
    """True when stdin and stdout are a terminal."""
    return sys.stdin.isatty() and sys.stdout.isatty()


def default_mode():
    """window, terminal or headless: the best this machine can show."""
    if environment_has_display() and pygame_available():
        return "window"
    if has_terminal():
        return "terminal"
    return "headless"


def board_list():
    """Every board by name, the displayio ones marked (for --help and messages)."""
    dio = set(boards.displayio_names())
    return ", ".join(name + (" (CircuitPython)" if name in dio else "") for name in boards.names())


def make_parser(prog="python -m tools.sim", default_board=boards.DEFAULT_BOARD, doc=None):
    """The simulator's command line (tools.sim.circuitpython takes the same words)."""
    doc = doc or __doc__
    parser = Parser(prog=prog, description=doc.split("\n")[0],
                    formatter_class=argparse.RawDescriptionHelpFormatter,
                    epilog="boards: %s" % board_list())
    parser.add_argument("--board", default=default_board, help="a module of board_configs/")
    parser.add_argument("--mode", choices=MODES, help="default: the best available")
    parser.add_argument("--scale", type=int, help="whole-pixel zoom of the window, the terminal or the PNGs")
    parser.add_argument("--seed", type=int, help="the deals and the AI's choices (and %d walks a "
                        "decision): the same seed and script give the same game" % SEEDED_PLAYOUTS)
    parser.add_argument("--script", default="", help="headless: button presses, e.g. 'A RIGHT*3 long:B shot:x', or @file")
    parser.add_argument("--shots", help="headless: folder for the PNG screenshots (created)")
    parser.add_argument("--save-dir", help="the Store's folder (default .sim/<board>, created)")
    parser.add_argument("--sound-log", help="write the sound cues to this file (headless: stdout)")
    parser.add_argument("--link", type=int, default=0, metavar="N",
                        help="N linked devices (2-6) on one in-process wire: device 1 hosts; "
                        "headless scripts one a device, split at '|'")
    parser.add_argument("--wire", choices=("espnow", "uart"), default="espnow",
                        help="--link: the transport's model (default espnow)")
    parser.add_argument("--faults", action="store_true",
                        help="--link: the wire drops, corrupts, duplicates, delays and reorders (seeded)")
    return parser


def check_args(parser, args):
    """The mistakes argparse cannot see, each as one line (exit 2): the board, the zoom, the folders."""
    if args.scale is not None and args.scale < 1:
        parser.error("--scale must be 1 or more")
    if args.seed is not None and not 0 <= args.seed < 1 << 30:
        parser.error("--seed must be from 0 to %d" % ((1 << 30) - 1))
    try:
        boards.load(args.board)
    except KeyError as error:
        parser.error(error.args[0])
    try:
        args.save_dir = save_folder(args.board, args.save_dir)
    except OSError as error:
        parser.error("--save-dir %s: not a folder that can be used (%s)" % (args.save_dir, error.strerror))
    if args.shots is not None:
        try:
            os.makedirs(args.shots, exist_ok=True)
        except OSError as error:
            parser.error("--shots %s: not a folder that can be made (%s)" % (args.shots, error.strerror))
    if args.link and not 2 <= args.link <= 6:
        parser.error("--link must be from 2 to 6 devices")
    if args.link and boards.draws_with_displayio(boards.load(args.board)):
        parser.error("--link runs the framebuf boards only, not %s" % args.board)
    if args.script.startswith("@") and not os.path.isfile(args.script[1:]):
        parser.error("--script %s: no such file" % args.script)


def parse_args(argv, prog="python -m tools.sim", default_board=boards.DEFAULT_BOARD, doc=None):
    """The command line, checked."""
    parser = make_parser(prog, default_board, doc)
    args = parser.parse_args(argv)
    check_args(parser, args)
    return args


def warn_unused(args, mode):
    """One line when headless-only options are given to another mode."""
    given = [name for name, value in (("--script", args.script), ("--shots", args.shots)) if value]
    if given and mode != "headless":
        print("%s: only --mode headless plays a script or writes shots: %s ignored in %s mode"
              % ("python -m tools.sim", " and ".join(given), mode), file=sys.stderr)


def seeded(app_class, seed):
    """The app factory for Device: the App as it is, or with a fixed seed and AI budget
    (the board's sound handed on: Device gives it only to a factory that takes one)."""
    if seed is None:
        return app_class
    return lambda board, canvas, store, now_ms, sound=None: app_class(
        board, canvas, store, now_ms, playouts=SEEDED_PLAYOUTS, seed=seed, sound=sound)


def run_headless(device, args):
    """Play the script; print what happened."""
    from tools.sim.headless import Runner, play
    return play(device, lambda: Runner(device, args.shots, args.scale or 1), args.script,
                args.shots)


LINK_FAULTS = dict(drop=0.05, corrupt=0.02, duplicate=0.05, delay=20, reorder=0.05)


def run_linked(board, factory, args, mode):
    """--link N: N devices on one wire (tools/sim/linked.py), in a window or headless."""
    from tools.sim import linked
    devices = linked.Linked(board, args.link, factory, args.save_dir, args.wire,
                            args.seed or 0, LINK_FAULTS if args.faults else None)
    if mode == "terminal":
        print("--link plays in a window or headless: headless instead", file=sys.stderr)
        mode = "headless"
    if mode == "headless":
        return linked.run_headless(devices, args)
    try:
        return linked.run_window(devices, args.scale or max(1, 360 // board.WIDTH))
    except KeyboardInterrupt:
        return 130


def run_displayio(args):
    """A CircuitPython board drawn with displayio: tools/sim/circuitpython.py runs it."""
    try:
        from tools.sim.circuitpython import main as displayio_main
    except ImportError as error:
        print("%s draws with displayio (CircuitPython) and its simulator does not start (%s): "
              "./mau play installs what it needs" % (args.board, error), file=sys.stderr)
        return 2
    return displayio_main(args=args) or 0


def fallback_mode(reason):
    """The mode to use when no window opens, said in one line."""
    mode = "terminal" if has_terminal() else "headless"
    print("no window (%s): %s mode instead" % (reason, mode), file=sys.stderr)
    return mode


def main(argv=None):
    """Run the simulator; returns the exit status (2 for a mistake on the command line)."""
    try:
        args = parse_args(argv)
    except SystemExit as stop:   # the one line is said; --help ends here too
        return stop.code
    board = boards.load(args.board)
    if boards.draws_with_displayio(board):
        return run_displayio(args)
    app = firmware_app_factory()
    if app is None:
        print("firmware/app.py is not there yet: playing the terminal table instead", file=sys.stderr)
        from tools.table import main as table
        return table([]) or 0
    mode = args.mode or default_mode()
    if mode == "window" and not environment_has_display():
        mode = fallback_mode("no display: DISPLAY and WAYLAND_DISPLAY are unset")
    if args.link:
        return run_linked(board, seeded(app, args.seed), args, mode)
    from tools.sim.sound import for_board
    device = Device(board, seeded(app, args.seed), args.save_dir,
                    sound=for_board(board, mode, args.sound_log))
    if mode == "headless":
        return run_headless(device, args)
    try:
        if mode == "window":
            from tools.sim import window
            try:
                shown = window.Window(device, args.scale or window.default_scale(board.WIDTH))
            except window.NoWindow as error:
                mode = fallback_mode(error)
                if mode == "headless":
                    return run_headless(device, args)
            else:
                warn_unused(args, mode)
                window.run(device, shown=shown)
                return 0
        warn_unused(args, mode)
        from tools.sim import terminal
        terminal.run(device, scale=args.scale)
    except KeyboardInterrupt:  # Ctrl-C: the front end has already put the screen back
        return 130
    return 0


if __name__ == "__main__":
    sys.exit(main())
