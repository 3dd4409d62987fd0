"""`python -m tools.sim` (what `./mau play` runs): the firmware on a simulated board.

    python -m tools.sim                          # default board, window or terminal
    python -m tools.sim --board thumby --scale 8
    python -m tools.sim --mode terminal
    python -m tools.sim --mode headless --script "A A wait:700 RIGHT*3 A long:B shot:menu" --shots shots/

Without --mode: a window where a display is available and pygame imports, else the
terminal if stdin is one, else headless.
"""
import argparse
import sys

from tools.sim import boards
from tools.sim.device import Device, environment_has_display, firmware_app_factory, save_folder

MODES = ("window", "terminal", "headless")


def pygame_available():
    """True when pygame(-ce) imports."""
    try:
        import tools.sim.window  # noqa: F401  (sets the quiet-import variable first)
        import pygame  # noqa: F401
    except ImportError:
        return False
    return True


def default_mode():
    """window, terminal or headless: the best this machine can show."""
    if environment_has_display() and pygame_available():
        return "window"
    if sys.stdin.isatty() and sys.stdout.isatty():
        return "terminal"
    return "headless"


def parse_args(argv):
    """The command line."""
    parser = argparse.ArgumentParser(prog="python -m tools.sim", description=__doc__.split("\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter,
                                     epilog="boards: %s; drawn with displayio (CircuitPython): %s" % (
                                         ", ".join(boards.names()), ", ".join(boards.displayio_names()) or "none"))
    parser.add_argument("--board", default=boards.DEFAULT_BOARD, help="a module of board_configs/")
    parser.add_argument("--mode", choices=MODES, help="default: the best available")
    parser.add_argument("--scale", type=int, help="whole-pixel zoom of the window, the terminal or the PNGs")
    parser.add_argument("--script", default="", help="headless: button presses, e.g. 'A RIGHT*3 long:B shot:x', or @file")
    parser.add_argument("--shots", help="headless: folder for the PNG screenshots")
    parser.add_argument("--save-dir", help="the Store's folder (default .sim/<board>)")
    parser.add_argument("--sound-log", help="write the sound cues to this file (headless: stdout)")
    args = parser.parse_args(argv)
    if args.scale is not None and args.scale < 1:
        parser.error("--scale must be 1 or more")
    return args


def run_headless(device, args):
    """Play the script; print what happened."""
    from tools.sim.headless import Runner, play
    return play(device, lambda: Runner(device, args.shots, args.scale or 1), args.script,
                args.shots)


def run_displayio(name, argv):
    """A CircuitPython board drawn with displayio: tools/sim/circuitpython.py runs it."""
    try:
        from tools.sim.circuitpython import main as displayio_main
    except ImportError as error:
        print("%s draws with displayio (CircuitPython) and its simulator does not start (%s); "
              "the framebuf boards are: %s" % (name, error, ", ".join(boards.names())), file=sys.stderr)
        return 2
    return displayio_main(argv) or 0


def main(argv=None):
    """Run the simulator; returns the exit status."""
    args = parse_args(argv)
    try:
        board = boards.load(args.board)
    except KeyError as error:
        print(error.args[0], file=sys.stderr)
        return 2
    if boards.draws_with_displayio(board):
        return run_displayio(args.board, sys.argv[1:] if argv is None else argv)
    app = firmware_app_factory()
    if app is None:
        print("firmware/app.py is not there yet: playing the terminal table instead", file=sys.stderr)
        from tools.table import main as table
        return table([]) or 0
    mode = args.mode or default_mode()
    from tools.sim.sound import for_board
    device = Device(board, app, save_folder(args.board, args.save_dir),
                    sound=for_board(board, mode, args.sound_log))
    if mode == "headless":
        return run_headless(device, args)
    try:
        if mode == "window":
            from tools.sim import window
            try:
                window.run(device, args.scale)
                return 0
            except window.NoWindow as error:
                mode = "terminal" if sys.stdin.isatty() and sys.stdout.isatty() else "headless"
                print("no window (%s): %s mode instead" % (error, mode), file=sys.stderr)
                if mode == "headless":
                    return run_headless(device, args)
        from tools.sim import terminal
        terminal.run(device, scale=args.scale)
    except KeyboardInterrupt:  # Ctrl-C: the front end has already put the screen back
        return 130
    return 0


if __name__ == "__main__":
    sys.exit(main())
