"""Headless runs: a script of button presses on a virtual clock, PNG screenshots on request.

A script is words separated by spaces:

    A            tap A (held 60 ms, then 60 ms released): a CLICK
    RIGHT*3      three taps
    long:B       hold B for 700 ms (past the 600 ms LONG, before a REPEAT), then release
    hold:A:1500  hold A for 1500 ms (LONG, then a REPEAT every 150 ms), then release
    wait:700     700 ms with no key held
    shot:name    write <shots>/name.png of the screen as it is now

Key names are the firmware's: UP DOWN LEFT RIGHT A B X Y (any case); a board takes only
the keys it has. `--script @path` reads the script from a file, where `#` starts a
comment. The clock is virtual: a script runs as fast as the app can draw.
"""
import os
import sys

from tools.sim import boards
from tools.sim.device import FRAME_MS

TAP_MS = 60        # well past the 20 ms debounce, far short of LONG
GAP_MS = 60        # released between steps, so the next press is a new one
LONG_HOLD_MS = 700  # LONG comes at 600 ms, the first REPEAT at 750


class ScriptError(ValueError):
    """A word of a button script that means nothing."""


def _key(name, word):
    name = name.upper()
    if name not in boards.KEY_NAMES:
        raise ScriptError("unknown key %r in %r (keys: %s)" % (name, word, " ".join(boards.KEY_NAMES)))
    return boards.KEY_NAMES.index(name)


def _ms(text, word):
    if not text.isdigit():
        raise ScriptError("%r needs a whole number of milliseconds" % word)
    return int(text)


def read(text):
    """The script itself: `text`, or the file it names as @path (comments from # dropped)."""
    if not text.startswith("@"):
        return text
    with open(text[1:]) as f:
        return " ".join(line.partition("#")[0] for line in f)


def parse(script):
    """The steps of a script: ("hold", key, ms), ("wait", ms) and ("shot", name), in order."""
    steps = []
    for word in script.split():
        base, star, count = word.partition("*")
        if star and not count.isdigit():
            raise ScriptError("%r needs a whole number of presses after *" % word)
        times = int(count) if star else 1
        kind, colon, rest = base.partition(":")
        if colon and not rest:
            raise ScriptError("%r needs something after the colon" % word)
        if not rest:
            press = [("hold", _key(base, word), TAP_MS), ("wait", GAP_MS)]
        elif kind == "wait":
            press = [("wait", _ms(rest, word))]
        elif kind == "shot":
            if star or not rest.replace("-", "").replace("_", "").isalnum():
                raise ScriptError("shot names are letters, digits, - and _: %r" % word)
            press = [("shot", rest)]
        elif kind == "long":
            press = [("hold", _key(rest, word), LONG_HOLD_MS), ("wait", GAP_MS)]
        elif kind == "hold":
            name, _, ms = rest.partition(":")
            press = [("hold", _key(name, word), _ms(ms, word)), ("wait", GAP_MS)]
        else:
            raise ScriptError("unknown word %r" % word)
        steps.extend(press * times)
    return steps


class Runner:
    """Plays steps on a Device (or a CircuitDevice) with a virtual clock; writes the shots it is asked for."""

    def __init__(self, device, shots_dir=None, scale=1, on_frame=None):
        self.device = device
        self.shots_dir = shots_dir
        self.scale = scale
        self.on_frame = on_frame  # called as on_frame(device, rect) after every frame
        self.shots = []           # paths written, in order

    def run(self, steps):
        """Play every step (stopping early when the app is done); return the shot paths."""
        for step in steps:
            if self.device.done:
                break
            if step[0] == "hold":
                self._check_key(step[1])
                self.advance(step[2], 1 << step[1])
            elif step[0] == "wait":
                self.advance(step[1], 0)
            else:
                self.shot(step[1])
        return self.shots

    def advance(self, ms, mask):
        """Run frames for ms milliseconds of virtual time with the mask's keys held."""
        end = self.device.now_ms + ms
        while self.device.now_ms < end and not self.device.done:
            rect = self.device.frame(self.device.now_ms + FRAME_MS, mask)
            if self.on_frame is not None:
                self.on_frame(self.device, rect)

    def shot(self, name):
        """Write the screen as <shots>/<name>.png (nothing when no shots folder was given)."""
        if self.shots_dir is None:
            return None
        os.makedirs(self.shots_dir, exist_ok=True)
        path = os.path.join(self.shots_dir, name + ".png")
        self.device.save_png(path, self.scale)
        self.shots.append(path)
        return path

    def _check_key(self, key):
        if not self.device.keys & (1 << key):
            # each name once: a stick's press is A again on the Waveshare
            named = dict.fromkeys(k for k, _ in self.device.board.KEYS)
            raise ScriptError("board %s has no key %s (it has: %s)" % (
                self.device.name, boards.KEY_NAMES[key], " ".join(named)))


def play(device, make_runner, script, shots_dir):
    """Run `script` (text or @file) on `make_runner()` and print what happened; the exit status."""
    try:
        steps = parse(read(script))
        if not steps:
            steps = [("wait", 1000)] + ([("shot", "screen")] if shots_dir else [])
        shots = make_runner().run(steps)
    except (ScriptError, OSError) as error:
        print("script: %s" % error, file=sys.stderr)
        return 2
    print("%s: %d frames, %d ms, %d key events, %d shots%s" % (
        device.name, device.frames, device.now_ms, len(device.events), len(shots),
        ", app done" if device.done else ""))
    for path in shots:
        print("  " + path)
    return 0
