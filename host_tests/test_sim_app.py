"""The simulator runs the real firmware app: `./mau play`'s default game, headless scripts
on three screen sizes with their screenshots read back, the board table."""
import subprocess
import sys

import pytest
from PIL import Image

from tools.sim import __main__ as cli
from tools.sim import boards, device as device_module, findtext, headless
from tools.sim.device import ROOT, Device, firmware_app_factory
from tools.sim.image import Converter

App = firmware_app_factory()
pytestmark = pytest.mark.skipif(App is None, reason="firmware/app.py is not written yet")

TO_TABLE = {  # title -> New game -> Start, per layout
    "abxy": "A Y*7 A",
    "dpad": "A RIGHT*7 A",
    "two": "long:A A*7 long:A",
}
AI_ONLY = {  # title -> New game -> seat 1 becomes an AI -> Start: four AIs play on their own
    "abxy": "A Y A Y*6 A",
    "dpad": "A RIGHT A RIGHT*6 A",
    "two": "long:A A long:A A*6 long:A",
}


def seeded_app(board, canvas, store, now_ms):
    """The real app with a deterministic AI and deal."""
    return App(board, canvas, store, now_ms, playouts=4, seed=11)


def play(board_name, script, tmp_path, shots=True):
    """Run a script headless on a fresh store; the device and the shot paths by name."""
    dev = Device(boards.load(board_name), seeded_app, str(tmp_path / "save"))
    runner = headless.Runner(dev, str(tmp_path / "shots") if shots else None)
    paths = runner.run(headless.parse(script))
    return dev, {p.rpartition("/")[2][:-4]: p for p in paths}


def test_play_without_arguments_starts_the_default_game(tmp_path, monkeypatch, capsys):
    """The default board is 240x135 colour; its default setup is you against three AIs."""
    monkeypatch.setattr(cli, "default_mode", lambda: "headless")
    status = cli.main(["--script", "shot:title A shot:setup", "--shots", str(tmp_path),
                       "--save-dir", str(tmp_path / "save")])
    assert status == 0 and capsys.readouterr().out.startswith("pico_display: ")
    title, setup = Image.open(tmp_path / "title.png"), Image.open(tmp_path / "setup.png")
    assert title.size == (240, 135)
    assert findtext.shows(title, "New game") and findtext.shows(title, "Quit")
    for text in ("Players: 4", "You", "Greta", "Hugo", "Ida", "Start"):
        assert findtext.shows(setup, text), text


def test_default_mode_follows_the_machine(monkeypatch):
    monkeypatch.setattr(device_module, "environment_has_display", lambda: False)
    monkeypatch.setattr(cli, "environment_has_display", lambda: False)
    monkeypatch.setattr(sys.stdin, "isatty", lambda: False, raising=False)
    assert cli.default_mode() == "headless"
    monkeypatch.setattr(cli, "environment_has_display", lambda: True)
    monkeypatch.setattr(cli, "pygame_available", lambda: True)
    assert cli.default_mode() == "window"
    monkeypatch.setattr(cli, "pygame_available", lambda: False)
    assert cli.default_mode() == "headless"  # no pygame and no terminal


def test_the_module_runs_from_the_command_line(tmp_path):
    done = subprocess.run([sys.executable, "-m", "tools.sim", "--board", "thumby", "--mode", "headless",
                           "--script", "A shot:setup", "--shots", str(tmp_path), "--save-dir",
                           str(tmp_path / "save")], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("thumby: ") and "1 shots" in done.stdout
    assert Image.open(tmp_path / "setup.png").size == (72, 40)


@pytest.mark.parametrize("board_name", ["pico_display", "waveshare_lcd114", "tdisplay", "pico_oled"])
def test_headless_game_reaches_the_table_and_the_ais_play(tmp_path, board_name):
    layout = boards.load(board_name).LAYOUT
    script = "shot:title " + AI_ONLY[layout] + " shot:table wait:6000 shot:later"
    dev, shots = play(board_name, script, tmp_path)
    title, table, later = (Image.open(shots[n]) for n in ("title", "table", "later"))
    assert findtext.shows(title, "New game")
    if table.width >= 200:  # the 8x8 font (smaller tables write in the 3x5 one)
        for name in ("Greta", "Hugo", "Ida"):  # the players are named on the table
            assert findtext.shows(table, name), name
    assert not findtext.shows(table, "Start")
    assert table.tobytes() != later.tobytes()  # six seconds later the AIs have moved
    assert Converter(dev.canvas).frame() == later.tobytes()  # the last shot is the screen now


def test_headless_game_on_the_72x40_screen(tmp_path):
    """The tiny screen writes in the 3x5 font; its pictures change and hold ink."""
    dev, shots = play("thumby", "shot:title " + AI_ONLY["dpad"] + " shot:table wait:6000 shot:later", tmp_path)
    images = [Image.open(shots[n]) for n in ("title", "table", "later")]
    assert findtext.shows(images[0], "New game", findtext.FONT_3X5)
    assert all(im.size == (72, 40) for im in images)
    for im in images:
        lit = sum(1 for px in im.get_flattened_data() if px == (255, 255, 255))
        assert 100 < lit < 72 * 40 - 100  # both lit and dark pixels: something is drawn
        assert set(im.get_flattened_data()) == {(0, 0, 0), (255, 255, 255)}
    assert len({im.tobytes() for im in images}) == 3


def test_a_saved_match_is_offered_after_a_restart(tmp_path):
    """The store lives in the save folder: save and quit, start again, Continue is there."""
    script = TO_TABLE["abxy"] + " wait:500 long:B X shot:pause A wait:200"
    dev, shots = play("pico_display", script + " shot:after", tmp_path)
    if dev.store is None:
        pytest.skip("firmware/save.py is not written yet")
    pause = Image.open(shots["pause"])
    assert findtext.shows(pause, "Save and quit"), "the pause menu's last item is Save and quit"
    again, shots2 = play("pico_display", "shot:title2", tmp_path)
    assert findtext.shows(Image.open(shots2["title2"]), "Continue")


def test_fallback_table_agrees_with_the_board_configs():
    for name in boards.FALLBACK:
        board = boards.load(name)
        assert not isinstance(board, boards.FallbackBoard), "board_configs/%s.py exists" % name
        fallback = boards.FallbackBoard(name, *boards.FALLBACK[name])
        assert (board.WIDTH, board.HEIGHT, board.DEPTH, board.LAYOUT) == \
            (fallback.WIDTH, fallback.HEIGHT, fallback.DEPTH, fallback.LAYOUT), name
        assert {k for k, _ in board.KEYS} == {k for k, _ in fallback.KEYS}, name


def test_displayio_boards_go_to_the_circuitpython_simulator(tmp_path, monkeypatch):
    """PyBadge-like boards draw with displayio: tools/sim/circuitpython.py gets the command line."""
    import types
    displayio = boards.displayio_names()
    if not displayio:
        pytest.skip("no displayio board config")
    assert set(displayio) <= set(boards.names())  # every board is offered
    assert not set(displayio) & set(boards.framebuf_names())
    seen = []
    stand_in = types.ModuleType("tools.sim.circuitpython")
    stand_in.main = lambda args: seen.append(args) or 0
    monkeypatch.setitem(sys.modules, "tools.sim.circuitpython", stand_in)
    argv = ["--board", displayio[0], "--mode", "headless", "--save-dir", str(tmp_path), "--seed", "4"]
    assert cli.main(argv) == 0
    assert [(a.board, a.mode, a.save_dir, a.seed) for a in seen] == [(displayio[0], "headless", str(tmp_path), 4)]
