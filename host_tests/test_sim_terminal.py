"""The terminal mode end to end, on a pseudo-terminal: keys in, half-block rows out, terminal restored.

The simulator runs as `python -m tools.sim --mode terminal` with a pty as its terminal.
Its output is replayed into a virtual screen (cursor moves, 24-bit colours, "▀"), and
that screen, turned back into pixels, must show what the app drew.
"""
import fcntl
import os
import re
import select
import struct
import subprocess
import sys
import termios
import time

import pytest
from PIL import Image

from tools.sim import findtext
from tools.sim.device import ROOT, firmware_app_factory

pytestmark = pytest.mark.skipif(firmware_app_factory() is None, reason="firmware/app.py is not written yet")

TOKEN = re.compile(r"\x1b\[(\d+);(\d+)H|\x1b\[38;2;(\d+);(\d+);(\d+)m|\x1b\[48;2;(\d+);(\d+);(\d+)m"
                   r"|\x1b\[[0-9;?]*[A-Za-z]|\u2580|.", re.S)


def replay(text, width, rows):
    """The pixels a terminal shows after `text`: a Pillow image width x 2*rows."""
    image = Image.new("RGB", (width, 2 * rows))
    px = image.load()
    row = col = 0
    fg = bg = (0, 0, 0)
    for m in TOKEN.finditer(text):
        if m.group(1):
            row, col = int(m.group(1)) - 1, int(m.group(2)) - 1
        elif m.group(3):
            fg = tuple(int(m.group(k)) for k in (3, 4, 5))
        elif m.group(6):
            bg = tuple(int(m.group(k)) for k in (6, 7, 8))
        elif m.group(0) == "\u2580":
            if 0 <= row < rows and 0 <= col < width:
                px[col, 2 * row], px[col, 2 * row + 1] = fg, bg
            col += 1
    return image


def read_until_quiet(fd, proc, seconds, quiet=0.4):
    """What the process writes to the pty until it exits, or has said something and then
    nothing for `quiet` seconds, or `seconds` are up."""
    chunks, end, last = [], time.monotonic() + seconds, None
    while time.monotonic() < end:
        ready, _, _ = select.select([fd], [], [], 0.05)
        if ready:
            try:
                data = os.read(fd, 65536)
            except OSError:
                break
            if not data:
                break
            chunks.append(data)
            last = time.monotonic()
        elif proc.poll() is not None or (last is not None and time.monotonic() - last > quiet):
            break
    return b"".join(chunks).decode(errors="replace")


def play_in_pty(args, keys, rows, columns, first=20, quiet=0.4):
    """Run the simulator with `args` in a pty of `rows` x `columns`; type each key of
    `keys` once its output is quiet (for `quiet` seconds), then q. Returns each stretch of
    output (before the first key, after each key, after q) and the terminal's modes before
    and after."""
    master, slave = os.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))
    modes = [termios.tcgetattr(slave)]
    proc = subprocess.Popen([sys.executable, "-m", "tools.sim", "--mode", "terminal"] + args,
                            stdin=slave, stdout=slave, stderr=subprocess.PIPE, cwd=ROOT)
    try:
        out = [read_until_quiet(master, proc, first, quiet)]
        for key in keys + [b"q"]:
            os.write(master, key)
            out.append(read_until_quiet(master, proc, 10, quiet))
        assert proc.wait(timeout=10) == 0, proc.stderr.read().decode()
    finally:
        if proc.poll() is None:
            proc.kill()
        modes.append(termios.tcgetattr(slave))
        os.close(master)
        os.close(slave)
    return out, modes


def test_terminal_mode_plays_and_restores_the_terminal(tmp_path):
    (title, setup, rest), (before, after) = play_in_pty(
        ["--save-dir", str(tmp_path)], [b"z"], 80, 250)   # z: A, OK on "New game"
    assert title.startswith("\x1b[?1049h\x1b[?25l\x1b[2J")
    assert (title + setup + rest).endswith("\x1b[0m\x1b[?25h\x1b[?1049l")  # screen and cursor back
    assert after == before  # cbreak mode undone: echo and line editing as they were
    first = replay(title, 240, 68)
    assert findtext.shows(first, "New game") and findtext.shows(first, "Quit")
    assert "z/Enter = A  x/Bksp = B  a = X  s = Y" in title  # the key help under the screen
    now = replay(title + setup, 240, 68)
    assert findtext.shows(now, "Players: 4") and findtext.shows(now, "Greta")
    assert setup.count("H\x1b[") < 68  # only the rows that changed were sent again


CURSOR = re.compile(r"\x1b\[(\d+);(\d+)H|\x1b\[[0-9;?]*[A-Za-z]|(.)", re.S)


def characters(text, columns, lines):
    """The characters a terminal shows after `text` (colours dropped), line by line."""
    grid = [[" "] * columns for _ in range(lines)]
    row = col = 0
    for m in CURSOR.finditer(text):
        if m.group(1):
            row, col = int(m.group(1)) - 1, int(m.group(2)) - 1
        elif m.group(3) is not None:
            if 0 <= row < lines and 0 <= col < columns:
                grid[row][col] = m.group(3)
            col += 1
    return ["".join(line) for line in grid]


def plain(row_text):
    """A rendered row without its colour codes."""
    return re.sub(r"\x1b\[[0-9;]*m", "", row_text)


def test_an_80x24_terminal_shows_the_whole_default_screen_shrunk(tmp_path):
    """240x135 needs 240x70 characters in half blocks; 80x24 gets the whole screen in braille,
    a line saying so, and the key help: exactly what terminal.layout renders for it."""
    from tools.sim import boards, headless, terminal
    from tools.sim.device import Device
    from tools.sim.__main__ import seeded
    # the down arrow: on the Pico Display, Y (next)
    (title, moved, rest), _ = play_in_pty(
        ["--seed", "5", "--save-dir", str(tmp_path / "a")], [b"\x1b[B"], 24, 80,
        quiet=1.5)      # a loaded machine can pause longer than 0.4 s between a key and its frame
    shown = characters(title, 80, 24), characters(title + moved, 80, 24)
    dev = Device(boards.load("pico_display"), seeded(firmware_app_factory(), 5), str(tmp_path / "b"))
    renderer, notes = terminal.layout(dev.canvas, dev.board, 80, 24)
    assert isinstance(renderer, terminal.Shrunk) and renderer.width <= 80
    assert len(renderer.rows) + len(notes) <= 24
    expected = []
    for script in ("", "Y"):
        headless.Runner(dev).run(headless.parse(script))
        expected.append([plain(renderer.row_text(r)) for r in range(len(renderer.rows))])
    for screen, rows in zip(shown, expected):
        assert [line[:renderer.width] for line in screen[:len(rows)]] == rows
        assert screen[len(rows)].startswith("shrunk to ")
        assert any(line.startswith("keys: ") for line in screen)
        assert all(len(line.rstrip()) <= 80 for line in screen)
    assert shown[0] != shown[1]   # the arrow moved the title's cursor
    assert dev.app.screen.cursor == 1


def test_the_circuitpython_boards_play_in_the_terminal_too(tmp_path):
    """The PyBadge's displayio screen, copied to the terminal: shrunk into 80x24, keys work."""
    pytest.importorskip("displayio", reason="the CircuitPython back end is in requirements-circuitpython.txt")
    (title, setup, rest), _ = play_in_pty(
        ["--board", "pybadge", "--save-dir", str(tmp_path)], [b"z"], 24, 80, first=30)  # A: New game
    before, after = characters(title, 80, 24), characters(title + setup, 80, 24)
    picture = [i for i, line in enumerate(before) if any("\u2800" <= ch <= "\u28ff" for ch in line)]
    assert len(picture) > 12   # the screen, in braille rows
    assert any(line.startswith("shrunk to ") for line in before)
    assert before[:len(picture)] != after[:len(picture)]   # z took the title to the setup
    assert (title + setup + rest).endswith("\x1b[0m\x1b[?25h\x1b[?1049l")
