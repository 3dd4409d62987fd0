"""What the tools' command lines share: a mistake is one line and exit status 2 (never a
traceback), checked before any work starts; Ctrl-C stops a long run at a game boundary;
progress is one updating line on stderr.

    parser = cli.Parser(prog="selfplay", description=...)
    parser.add_argument("--games", type=cli.at_least(1), default=1)
    parser.add_argument("--out", type=cli.new_file, default="-")
    with cli.StopAtGameEnd() as stop, cli.Progress(games, quiet=args.quiet) as progress:
        for i in range(games):
            if stop.asked:
                break
            ...
            progress.show(i + 1)
"""

import argparse
import os
import signal
import sys
import threading
import time


class Parser(argparse.ArgumentParser):
    """argparse.ArgumentParser whose mistakes are one line: `prog: error: why` (exit 2)."""

    def error(self, message):
        self.exit(2, "%s: error: %s\n" % (self.prog, message))


def at_least(low):
    """An argument type: a whole number, `low` or more."""
    def whole(text):
        try:
            n = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError("%r is not a whole number" % text) from None
        if n < low:
            raise argparse.ArgumentTypeError("%d: it must be %d or more" % (n, low))
        return n
    whole.__name__ = "whole number"
    return whole


def above_zero(text):
    """An argument type: a number of seconds (or other measure) above zero."""
    try:
        x = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError("%r is not a number" % text) from None
    if not x > 0:
        raise argparse.ArgumentTypeError("%s: it must be above 0" % text)
    return x


def new_file(path):
    """An argument type: a file that can be written ("-": standard output), checked now
    rather than after a long run."""
    if path == "-":
        return path
    folder = os.path.dirname(path) or "."
    if os.path.isdir(path):
        raise argparse.ArgumentTypeError("%s is a folder, not a file" % path)
    if not os.path.isdir(folder):
        raise argparse.ArgumentTypeError("%s: there is no folder %s" % (path, folder))
    if not os.access(folder, os.W_OK) or (os.path.exists(path) and not os.access(path, os.W_OK)):
        raise argparse.ArgumentTypeError("%s: not allowed to write there" % path)
    return path


def every_board():
    """The names of every board of board_configs/, the CircuitPython ones included."""
    folder = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                          "board_configs")
    return sorted(name[:-3] for name in os.listdir(folder)
                  if name.endswith(".py") and not name.startswith("_"))


def board_of(allowed, why=""):
    """An argument type: one board from `allowed`; the message for any other names every
    board (`why`: what a known board outside `allowed` lacks)."""
    def board(name):
        if name in allowed:
            return name
        if name in every_board():
            raise argparse.ArgumentTypeError("%s: %s (these are: %s)"
                                             % (name, why, ", ".join(allowed)))
        raise argparse.ArgumentTypeError("unknown board %r; the boards: %s"
                                         % (name, ", ".join(every_board())))
    board.__name__ = "board"
    return board


def boards_of(allowed, why=""):
    """An argument type: boards from `allowed` joined by commas."""
    one = board_of(allowed, why)

    def boards(text):
        return [one(name.strip()) for name in text.split(",") if name.strip()]
    boards.__name__ = "boards"
    return boards


def add_boards(parser, boards, why):
    """A bench's --boards: some of `boards` joined by commas, all by default; `why` says why
    another known board is refused."""
    parser.add_argument("--boards", default=list(boards), type=boards_of(boards, why),
                        help="boards joined by commas (default: %s)" % ",".join(boards))


def each_until_stopped(prog, items, work):
    """[work(item) for item in items], cut short by Ctrl-C: the results finished and
    whether Ctrl-C stopped it (then said in one line on stderr, how many of how many)."""
    done = []
    try:
        for item in items:
            done.append(work(item))
    except KeyboardInterrupt:
        sys.stderr.write("%s: stopped by Ctrl-C after %d of %d\n" % (prog, len(done), len(items)))
        return done, True
    return done, False


class StopAtGameEnd:
    """Ctrl-C (SIGINT) asks a run to stop once the game in play is over (`asked` turns
    true); a second Ctrl-C stops at once (KeyboardInterrupt). Outside the main thread
    Ctrl-C is left alone."""

    def __init__(self):
        self.asked = False
        self._old = None

    def _ask(self, signum, frame):
        if self.asked:
            raise KeyboardInterrupt
        self.asked = True

    def __enter__(self):
        if threading.current_thread() is threading.main_thread():
            self._old = signal.signal(signal.SIGINT, self._ask)
        return self

    def __exit__(self, *exc):
        if self._old is not None:
            signal.signal(signal.SIGINT, self._old)
        return False


class Progress:
    """One updating line on stderr: games done of the total, games a second, time left.
    Quiet with `quiet` or when stderr is not a terminal; `say` prints a line of its own
    above it."""

    def __init__(self, total, what="games", quiet=False, stream=None):
        self.stream = sys.stderr if stream is None else stream
        self.on = not quiet and self.stream.isatty()
        self.total, self.what = total, what
        self.start = self.last = time.perf_counter()
        self.width = 0

    def show(self, done):
        """Games done so far (redrawn at most five times a second)."""
        now = time.perf_counter()
        if not self.on or (now - self.last < 0.2 and done < self.total):
            return
        self.last = now
        rate = done / max(now - self.start, 1e-9)
        left = (self.total - done) / rate if rate > 0 else 0
        self._write("%d/%d %s, %.1f/s, %s left" % (done, self.total, self.what, rate,
                                                   clock(left)))

    def say(self, line):
        """A line of its own (a result), above the progress line."""
        self.clear()
        self.stream.write(line + "\n")
        self.stream.flush()

    def clear(self):
        """Take the progress line away."""
        if self.width:
            self._write("")
            self.width = 0

    def _write(self, text):
        self.stream.write("\r" + text.ljust(self.width) + ("\r" if not text else ""))
        self.stream.flush()
        self.width = len(text)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.clear()
        return False


def clock(seconds):
    """1:05:09, 5:09 or 9 s."""
    s = int(seconds + 0.5)
    if s >= 3600:
        return "%d:%02d:%02d" % (s // 3600, s // 60 % 60, s % 60)
    if s >= 60:
        return "%d:%02d" % (s // 60, s % 60)
    return "%d s" % s
