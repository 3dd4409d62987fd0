"""The virtual board: real mpremote against the MicroPython VM on a pseudo-terminal."""
import os
import subprocess
import sys
import time

import pytest
import serial

from tools.deploy.vboard import VirtualBoard, bus_records

pytestmark = pytest.mark.timeout(120)


def mpremote(board, *args, timeout=60):
    """Run `mpremote connect <port> args...`; return the CompletedProcess (text)."""
    return subprocess.run([sys.executable, "-m", "mpremote", "connect", board.port, *args],
                          capture_output=True, text=True, timeout=timeout)


@pytest.fixture
def board(tmp_path):
    with VirtualBoard(tmp_path / "flash") as b:
        yield b


def test_fs_cp_ls_cat_exec_run_and_files_on_the_host(board, tmp_path):
    script = tmp_path / "hello.py"
    script.write_text("print('hello from', __name__)\n")
    done = mpremote(board, "fs", "mkdir", "lib", "+", "fs", "cp", str(script), ":lib/hello.py",
                    "+", "fs", "ls", "lib", "+", "exec", "import hello", "+", "run", str(script))
    assert done.returncode == 0, done.stderr
    assert "%d hello.py" % script.stat().st_size in " ".join(done.stdout.split())
    assert done.stdout.count("hello from") == 2
    listing = mpremote(board, "fs", "ls", ":")
    assert listing.stdout.split() == ["ls", ":", "0", "lib/"]      # no dev/ or proc/ of the VM
    back = tmp_path / "back.py"
    assert mpremote(board, "fs", "cp", ":lib/hello.py", str(back)).returncode == 0
    assert back.read_bytes() == script.read_bytes()
    assert board.sync()
    assert (board.root / "lib" / "hello.py").read_bytes() == script.read_bytes()


def test_recursive_copy_tree_and_remove(board, tmp_path):
    (tmp_path / "pkg" / "sub").mkdir(parents=True)
    (tmp_path / "pkg" / "a.py").write_text("A = 1\n")
    (tmp_path / "pkg" / "sub" / "b.py").write_text("B = 2\n")
    done = mpremote(board, "fs", "cp", "-r", str(tmp_path / "pkg"), ":", "+", "fs", "tree",
                    "+", "exec", "import pkg.sub.b; print('B is', pkg.sub.b.B)")
    assert done.returncode == 0, done.stderr
    names = [w for w in done.stdout.split() if w[0].isalpha()]
    assert names[names.index("tree") + 1:][:4] == ["pkg", "a.py", "sub", "b.py"]
    assert "B is 2" in done.stdout
    done = mpremote(board, "fs", "rm", "-r", ":pkg", "+", "fs", "ls")
    assert done.returncode == 0 and done.stdout.split() == ["rm", ":pkg", "ls", ":"], done.stderr


def test_missing_files_and_folders_report_micropython_errno(board):
    assert "No such file" in mpremote(board, "fs", "cat", "nope.py").stderr
    assert "File exists" in mpremote(board, "fs", "mkdir", "d", "+", "fs", "mkdir", "d").stderr
    done = mpremote(board, "exec", "import os, errno\n"
                    "for f, a, want in ((os.stat, 'x', errno.ENOENT), (os.mkdir, 'd', errno.EEXIST),"
                    " (os.remove, 'd', errno.EISDIR), (os.rmdir, 'zz', errno.ENOENT)):\n"
                    " try:\n  f(a)\n except OSError as e:\n  print(e.errno == want, e)")
    assert done.stdout.split().count("True") == 4, done.stdout + done.stderr


def test_large_copy_uses_raw_paste(board, tmp_path):
    data = os.urandom(100_000)
    (tmp_path / "big.bin").write_bytes(data)
    start = time.monotonic()
    done = mpremote(board, "fs", "cp", str(tmp_path / "big.bin"), ":big.bin")
    seconds = time.monotonic() - start
    assert done.returncode == 0, done.stderr
    print("vboard: mpremote fs cp of 100 KB took %.2f s" % seconds)
    board.stop()   # writes every file back
    assert (board.root / "big.bin").read_bytes() == data
    assert b"R\x01" in board.output()   # the board answered raw-paste, mpremote used it


def test_files_survive_a_restart(tmp_path):
    with VirtualBoard(tmp_path / "flash") as b:
        assert mpremote(b, "exec", "open('keep.txt', 'w').write('kept')").returncode == 0
    with VirtualBoard(tmp_path / "flash") as b:
        assert mpremote(b, "exec", "print(open('keep.txt').read())").stdout.strip() == "kept"


def test_main_py_runs_at_soft_reset_and_ctrl_c_stops_it(board, tmp_path):
    main = tmp_path / "main.py"
    main.write_text("import time\nprint('looping')\nn = 0\nwhile True:\n    time.sleep_ms(20)\n    n += 1\n")
    assert mpremote(board, "fs", "cp", str(main), ":main.py").returncode == 0
    board.clear_output()
    with serial.Serial(board.port, timeout=1) as line:
        line.write(b"\r\x02")          # friendly REPL: a soft reset there runs main.py
        time.sleep(0.2)
        line.write(b"\x04")
        assert board.wait_for(b"looping", 20)
        time.sleep(0.3)
        line.write(b"\x03")
        assert board.wait_for(b"KeyboardInterrupt", 10)
        line.write(b"print(n > 3)\r")
        assert board.wait_for(b"True", 10)   # main.py's globals stay, as on a board
    # mpremote interrupts a running main.py by itself
    line = serial.Serial(board.port)
    line.write(b"\x04")
    line.close()
    assert board.wait_for(b"looping", 20)
    done = mpremote(board, "exec", "print('after main')")
    assert done.stdout.strip() == "after main", done.stderr


def test_soft_reset_forgets_the_heap(board):
    done = mpremote(board, "exec", "x = 42", "+", "soft-reset", "+", "exec", "print('x' in globals())")
    assert done.stdout.split() == ["False"], done.stderr
    assert b"MPY: soft reboot" in board.output()


def test_flash_size_limit_raises_enospc(tmp_path):
    with VirtualBoard(tmp_path / "flash", flash=20_000) as b:
        done = mpremote(b, "exec", "import os\nprint(os.statvfs('/')[0] * os.statvfs('/')[4])\n"
                        "f = open('a', 'wb')\ntry:\n f.write(bytes(30000))\nexcept OSError as e:\n print(e.errno)")
        free, error = done.stdout.split()
        assert int(free) <= 20_000
        assert error == "28", done.stdout + done.stderr   # ENOSPC, as a board numbers it


def test_bus_log_records_decode():
    log = bytes([0x50, 16, 0, 0]) + bytes([0x53, 0]) + (3).to_bytes(4, "little") + b"\x2a\x00\x01"
    log += bytes([0x49, 0x3C]) + (2).to_bytes(4, "little") + b"\x00\xaf" + bytes([0x53, 0, 9])
    assert list(bus_records(log, 100)) == [("pin", 16, 0, 104), ("spi", 0, b"\x2a\x00\x01", 113),
                                           ("i2c", 0x3C, b"\x00\xaf", 121)]   # a cut-off record waits


def test_a_program_that_ignores_ctrl_c_gets_a_hard_reset(board, tmp_path):
    main = tmp_path / "main.py"
    main.write_text("while True:\n    pass\n")    # never sleeps nor reads a pin
    assert mpremote(board, "fs", "cp", str(main), ":main.py", "+", "reset").returncode == 0
    done = mpremote(board, "exec", "print('alive')")
    assert done.stdout.strip() == "alive", done.stderr
    assert board.restarts == 1        # the relay pulled the plug once, then booted safe
