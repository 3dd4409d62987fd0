"""`python -m tools.sim` as a stranger types it: every mistake is one line and exit status 2,
`--seed` repeats a game, options that do nothing in a mode say so, a window without a
display falls back instead of hanging."""
import os
import subprocess
import sys

import pytest

from tools.sim import __main__ as cli
from tools.sim import boards
from tools.sim.device import ROOT, firmware_app_factory

needs_app = pytest.mark.skipif(firmware_app_factory() is None, reason="firmware/app.py is not written yet")


def sim(*args, env=None, timeout=120):
    """Run the simulator as a program with no terminal: (exit status, stdout, stderr)."""
    environment = dict(os.environ, **(env or {}))
    for name in [k for k, v in environment.items() if v is None]:
        del environment[name]
    proc = subprocess.run([sys.executable, "-m", "tools.sim", *args], cwd=ROOT, env=environment,
                          stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=timeout)
    return proc.returncode, proc.stdout, proc.stderr


def mistakes(tmp_path):
    """Command lines a person may get wrong, and a word the one line must name."""
    a_file = tmp_path / "a-file"
    a_file.write_text("not a folder")
    return [
        (["--board", "../board_configs/thumby"], "unknown board"),
        (["--board", "__init__"], "unknown board"),
        (["--board", "thumby.py"], "unknown board"),
        (["--board", "board_configs.thumby"], "unknown board"),
        (["--board", ""], "unknown board"),
        (["--save-dir", str(a_file)], "--save-dir"),
        (["--save-dir", str(a_file / "inside")], "--save-dir"),
        (["--mode", "headless", "--shots", str(a_file / "shots")], "--shots"),
        (["--mode", "headless", "--shots", str(a_file)], "--shots"),
        (["--mode", "headless", "--script", "@" + str(tmp_path / "missing.txt")], "--script"),
        (["--mode", "headless", "--script", "@" + str(tmp_path)], "--script"),
        (["--scale", "0"], "--scale"),
        (["--scale", "two"], "--scale"),
        (["--seed", "-3"], "--seed"),
        (["--seed", "x"], "--seed"),
        (["--mode", "tv"], "--mode"),
        (["--colour"], "unrecognized"),
    ]


@pytest.mark.parametrize("case", range(17))
def test_each_command_line_mistake_is_one_line_and_status_2(case, tmp_path, capsys):
    argv, word = mistakes(tmp_path)[case]
    save = [] if "--save-dir" in argv else ["--save-dir", str(tmp_path / "save")]
    assert cli.main(argv + save) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1 and word in err, err
    assert "Traceback" not in err


def test_mistakes_are_one_line_from_the_program_too(tmp_path):
    a_file = tmp_path / "f"
    a_file.write_text("")
    for argv in (["--board", "../x"], ["--save-dir", str(a_file)], ["--board", "__init__", "--mode", "headless"]):
        status, out, err = sim(*argv)
        assert status == 2 and out == "" and len(err.splitlines()) == 1, (argv, err)


def test_board_lists_name_every_board_the_circuitpython_ones_too(tmp_path, capsys):
    every = {p.stem for p in (ROOT / "board_configs").glob("*.py") if not p.stem.startswith("_")}
    assert {"pybadge", "pygamer"} <= every and set(boards.names()) == every
    assert cli.main(["--board", "nope", "--save-dir", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert all(name in err for name in every)
    assert cli.main(["--help"]) == 0
    said = " ".join(capsys.readouterr().out.split())
    assert all(name in said for name in every) and "pybadge (CircuitPython)" in said


def test_missing_save_and_shot_folders_are_made(tmp_path, monkeypatch):
    monkeypatch.setattr(cli, "firmware_app_factory", lambda: idle)
    save, shots = tmp_path / "a" / "save", tmp_path / "b" / "shots"
    assert cli.main(["--board", "thumby", "--mode", "headless", "--save-dir", str(save),
                     "--shots", str(shots), "--script", "shot:one"]) == 0
    assert save.is_dir() and (shots / "one.png").is_file()


def idle(board, canvas, store, now_ms, playouts=None, seed=None):
    """A stand-in app that draws nothing and ends after a second."""

    class Idle:
        done = False

        def handle(self, event):
            pass

        def tick(self, now_ms):
            self.done = now_ms >= 1000

    return Idle()


@pytest.mark.parametrize("mode", ["terminal", "window"])
def test_script_and_shots_outside_headless_mode_are_said_to_do_nothing(mode, tmp_path, monkeypatch, capsys):
    from tools.sim import terminal, window
    monkeypatch.setattr(cli, "firmware_app_factory", lambda: idle)
    monkeypatch.setattr(cli, "environment_has_display", lambda: True)
    monkeypatch.setattr(terminal, "run", lambda device, scale=None: None)
    monkeypatch.setattr(window, "Window", lambda device, scale: None)
    monkeypatch.setattr(window, "run", lambda device, scale=None, shown=None: None)
    assert cli.main(["--board", "thumby", "--mode", mode, "--script", "A", "--shots", str(tmp_path / "s"),
                     "--save-dir", str(tmp_path / "save")]) == 0
    err = capsys.readouterr().err
    assert "--script and --shots ignored in %s mode" % mode in err and err.count("\n") == 1


@needs_app
@pytest.mark.parametrize("board", ["pico_display", "thumby"])
def test_the_same_seed_and_script_give_the_same_game(board, tmp_path):
    script = {"pico_display": "A Y*7 A", "thumby": "A RIGHT*7 A"}[board] + " wait:6000 shot:table"
    shots = []
    for run, seed in enumerate((7, 7, 8)):
        folder = tmp_path / str(run)
        status, out, err = sim("--board", board, "--mode", "headless", "--seed", str(seed), "--script",
                               script, "--shots", str(folder), "--save-dir", str(folder / "save"))
        assert status == 0, err
        shots.append((folder / "table.png").read_bytes())
    assert shots[0] == shots[1]     # seed 7 twice: the same deal, the same AI moves, the same pixels
    assert shots[0] != shots[2]     # seed 8 deals another game


def test_a_window_that_does_not_open_runs_the_script_headless_unwarned(tmp_path, monkeypatch, capsys):
    from tools.sim import window

    def no_window(device, scale):
        raise window.NoWindow("the display went away")

    monkeypatch.setattr(cli, "firmware_app_factory", lambda: idle)
    monkeypatch.setattr(cli, "environment_has_display", lambda: True)
    monkeypatch.setattr(cli, "has_terminal", lambda: False)
    monkeypatch.setattr(window, "Window", no_window)
    assert cli.main(["--board", "thumby", "--mode", "window", "--script", "shot:one", "--shots",
                     str(tmp_path / "s"), "--save-dir", str(tmp_path / "save")]) == 0
    out, err = capsys.readouterr()
    assert err == "no window (the display went away): headless mode instead\n"
    assert (tmp_path / "s" / "one.png").is_file() and "1 shots" in out


def test_a_window_without_a_display_falls_back_in_one_line(tmp_path):
    """No DISPLAY: SDL would open its invisible offscreen driver and the game would run unseen
    forever; instead the simulator says so and plays headless (no terminal here)."""
    pytest.importorskip("pygame")
    status, out, err = sim("--board", "thumby", "--mode", "window", "--save-dir", str(tmp_path),
                           env={"DISPLAY": None, "WAYLAND_DISPLAY": None, "SDL_VIDEODRIVER": None},
                           timeout=60)
    assert status == 0 and out.startswith("thumby: ")
    assert err.strip().startswith("no window (") and err.strip().endswith("headless mode instead")
    assert len(err.splitlines()) == 1
