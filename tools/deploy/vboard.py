"""A virtual board: the MicroPython VM behind a pseudo-terminal, for mpremote and deploy tests.

    python -m tools.deploy.vboard --root DIR [--flash BYTES] [--no-main] [--screenshot PNG]

prints the serial port (`/dev/pts/N`) and serves it until Ctrl-C. Then, unchanged:

    mpremote connect /dev/pts/N fs ls
    python -m tools.deploy --board pico_display --port /dev/pts/N

The board speaks MicroPython's friendly and raw REPL (with raw-paste), soft-resets on
Ctrl-D (running main.py like a board), and keeps its files in DIR on the host, so they
survive resets and restarts. Its `machine` module logs what the display driver sends;
screen() rebuilds the panel's picture from that with tools/fakes/chipmodels. tools/deploy/vboard.mjs
is the board itself; this module owns the pseudo-terminal, relays bytes between it and
Node, and resets a board stuck in a program that ignores Ctrl-C. From Python:

    with VirtualBoard(tmp_path / "flash") as board:
        subprocess.run(["mpremote", "connect", board.port, "fs", "ls"])
        board.wait_for(b"ready")       # anything the board printed, connected or not
        board.press(12)                # a button to ground on GPIO 12
        rows, problems = board.screen()
"""
import argparse
import importlib
import os
import re
import pty
import selectors
import shutil
import signal
import subprocess
import sys
import threading
import time
import tty
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
NODE_SCRIPT = ROOT / "tools" / "deploy" / "vboard.mjs"
CTRL_C = 3
PIN_RECORD = 0x50           # on the control pipe: "P" gpio level
PENDING_LIMIT = 1 << 20      # bytes kept for a port nobody reads; older ones are dropped
TRANSCRIPT_LIMIT = 1 << 16   # bytes of console output kept for wait_for()
WEDGED_SECONDS = 5           # a Ctrl-C the board has not handled this long: it is stuck


class VirtualBoard:
    """One virtual board: start() it, give `port` to mpremote, stop() it (or use `with`)."""

    def __init__(self, root, flash=0, heapsize=256 * 1024, run_main=True):
        self.root = Path(root)
        self.flash, self.heapsize, self.run_main = flash, heapsize, run_main
        self.bus_log = self.root.with_name(self.root.name + ".bus")
        self._stamp = self.root.with_name(self.root.name + ".synced")
        self.port = None
        self.restarts = 0
        self._node = None
        self._thread = None
        self._transcript = bytearray()
        self._held = {}      # GPIO -> level the host holds an input at
        self._panel = None   # [board, config, controller model, pin levels, bus log offset]
        self._seen = threading.Condition()

    # ---- life cycle ----

    def start(self):
        """Open the pseudo-terminal and boot the board; returns self."""
        if shutil.which("node") is None:
            raise RuntimeError("node is not installed; the virtual board needs Node 20")
        self.root.mkdir(parents=True, exist_ok=True)
        self._stop_r, self._stop_w = os.pipe()
        self.bus_log.write_bytes(b"")
        self._panel = None
        self._master, self._slave = pty.openpty()
        tty.setraw(self._slave)  # no echo, no newline translation: a serial line
        os.set_blocking(self._master, False)
        self.port = os.ttyname(self._slave)
        self._spawn()
        self._thread = threading.Thread(target=self._relay_until_stopped, name="vboard", daemon=True)
        self._thread.start()
        return self

    def stop(self):
        """Shut the board down; its files are written back to `root` first."""
        if self._thread is None:
            return
        os.write(self._stop_w, b"x")
        self._thread.join(timeout=10)
        self._thread = None
        self._end_node()
        for fd in (self._master, self._slave, self._stop_r, self._stop_w):
            os.close(fd)

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.stop()

    def sync(self, timeout=20):
        """Have the board write its files back to `root` now (a running program syncs within
        a second anyway); True once it did."""
        def stamp():
            try:
                return self._stamp.read_text()
            except OSError:
                return ""
        before = stamp()
        self._node.send_signal(signal.SIGUSR1)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if stamp() != before:
                return True
            time.sleep(0.02)
        return False

    # ---- buttons ----

    def set_pin(self, gpio, level):
        """Hold input pin `gpio` at `level` (0 or 1) from now on, as a button or a wire would."""
        self._held[gpio] = level
        _write(self._control_w, bytes((PIN_RECORD, gpio, level)))

    def press(self, gpio, ms=120):
        """Press the button on `gpio` (to ground: pressed reads 0) for `ms`, then release it."""
        self.set_pin(gpio, 0)
        time.sleep(ms / 1000)
        self.set_pin(gpio, 1)

    # ---- what the board printed ----

    def output(self):
        """The console output so far (the last 64 KB), whether or not a client read it."""
        with self._seen:
            return bytes(self._transcript)

    def clear_output(self):
        """Forget the console output so far (wait_for then sees only what comes next)."""
        with self._seen:
            self._transcript.clear()

    def wait_for(self, text, timeout=30):
        """Wait until the console output contains `text` (bytes); False on timeout."""
        deadline = time.monotonic() + timeout
        with self._seen:
            while text not in self._transcript:
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                self._seen.wait(left)
        return True

    # ---- the display ----

    def board_name(self):
        """The board named by board.py in the board's files (None without one)."""
        self.sync()
        try:
            text = (self.root / "board.py").read_text()
        except OSError:
            return None
        match = re.search(r"BOARD\s*=\s*[\"']([A-Za-z0-9_]+)", text)
        return match.group(1) if match else None

    def screen(self, board=None):
        """What the board's display shows, from the bus log: rows of colours (RGB565 ints,
        0/1 on a mono panel, -1 where nothing was ever written) in the canvas orientation,
        and the controller model's problems (empty when the panel shows a picture)."""
        from tools.fakes import chipmodels
        board = board or self.board_name()
        if board is None:
            raise ValueError("the virtual board has no board.py naming its board; pass board=")
        if self._panel is None or self._panel[0] != board:
            config = importlib.import_module("board_configs." + board)
            self._panel = [board, config, chipmodels.model_for(config)[0], {}, 0]
        _, config, model, levels, offset = self._panel
        with open(self.bus_log, "rb") as f:   # only what came since the last look
            f.seek(offset)
            log = f.read()
        for kind, ident, data, end in bus_records(log, offset):
            if kind == "pin":
                levels[ident] = data
            elif kind == "spi" and hasattr(config, "DC"):
                if getattr(config, "CS", None) is not None and levels.get(config.CS, 1):
                    continue   # chip select high: the controller does not listen
                record = [(levels.get(config.DC, 1), data)]
                if config.DEPTH == 4:
                    model.feed_log(record)
                else:
                    model.feed_spi_log(record)
            elif kind == "i2c" and hasattr(config, "ADDRESS"):
                model.feed_i2c_log([(ident, data)], config.ADDRESS)
            self._panel[4] = end
        return chipmodels.board_view(config, model), model.problems()

    def screenshot(self, path, board=None, scale=2):
        """Write the display's picture as a PNG (never-written pixels black); return the path."""
        from PIL import Image
        from tools.sim.image import rgb565_to_rgb
        rows, _ = self.screen(board)
        mono = self._panel[1].DEPTH == 1
        image = Image.new("RGB", (len(rows[0]), len(rows)))
        image.putdata([(0, 0, 0) if c < 0 else ((255,) * 3 if c else (0,) * 3) if mono
                       else rgb565_to_rgb(c) for row in rows for c in row])
        if scale > 1:
            image = image.resize((image.width * scale, image.height * scale), Image.NEAREST)
        image.save(path)
        return path

    # ---- Node and the relay ----

    def _spawn(self, safe_boot=False):
        args = ["node", str(NODE_SCRIPT), "--root", str(self.root), "--heapsize", str(self.heapsize),
                "--bus", str(self.bus_log), "--sync-stamp", str(self._stamp)]
        if self.flash:
            args += ["--flash", str(self.flash)]
        if not self.run_main:
            args.append("--no-main")
        if safe_boot:
            args.append("--safe-boot")   # this start skips main.py (it may be what hangs)
        # every Ctrl-C again, and pin levels, on a pipe the board reads while it runs code;
        # back on another, how many input bytes the board has handled
        control_r, self._control_w = os.pipe()
        self._ack_r, ack_w = os.pipe()
        for fd in (control_r, self._control_w, self._ack_r):
            os.set_blocking(fd, False)
        args += ["--control-fd", str(control_r), "--ack-fd", str(ack_w)]
        self._node = subprocess.Popen(args, stdin=subprocess.PIPE, stdout=subprocess.PIPE, cwd=ROOT,
                                      pass_fds=(control_r, ack_w), start_new_session=True)
        os.close(control_r)
        os.close(ack_w)
        for gpio, level in self._held.items():
            _write(self._control_w, bytes((PIN_RECORD, gpio, level)))
        os.set_blocking(self._node.stdin.fileno(), False)
        os.set_blocking(self._node.stdout.fileno(), False)

    def _end_node(self):
        node = self._node
        if node is None:
            return
        _write(self._control_w, b"\x03")   # stop a running program, so the board reads its input
        node.stdin.close()               # end of input: the board writes its files back, exits
        try:
            node.wait(timeout=5)
        except subprocess.TimeoutExpired:
            node.kill()                  # a program that ignores Ctrl-C: pull the plug
            node.wait()
        node.stdout.close()
        os.close(self._control_w)
        os.close(self._ack_r)
        self._node = None

    def _relay_until_stopped(self):
        try:
            self._relay()
        except Exception as e:  # a dead relay is a dead board: say why
            print("vboard: the relay failed: %r" % e, file=sys.stderr)
            raise

    def _relay(self):
        to_node, to_port, sent = bytearray(), bytearray(), bytearray()
        written = handled = 0   # input bytes given to the board, and handled by it
        acks = bytearray()
        ctrl_c = None           # where in the input the first Ctrl-C not yet handled is
        since = 0.0
        while True:
            node_in, node_out = self._node.stdin.fileno(), self._node.stdout.fileno()
            sel = selectors.DefaultSelector()
            sel.register(self._stop_r, selectors.EVENT_READ, "stop")
            sel.register(self._master, selectors.EVENT_READ
                         | (selectors.EVENT_WRITE if to_port else 0), "port")
            sel.register(node_out, selectors.EVENT_READ, "out")
            sel.register(self._ack_r, selectors.EVENT_READ, "ack")
            if to_node:
                sel.register(node_in, selectors.EVENT_WRITE, "in")
            events = sel.select(timeout=0.5)
            sel.close()
            restart = False
            for key, mask in events:
                if key.data == "stop":
                    return
                if key.data == "port" and mask & selectors.EVENT_READ:
                    data = _read(self._master) or b""
                    if CTRL_C in data:
                        _write(self._control_w, b"\x03")
                        if ctrl_c is None:
                            ctrl_c, since = written + len(to_node) + data.index(CTRL_C), time.monotonic()
                    to_node += data
                if key.data == "port" and mask & selectors.EVENT_WRITE:
                    del to_port[:_write(self._master, to_port)]
                if key.data == "in":
                    n = _write(node_in, to_node)
                    sent += to_node[:n]
                    del sent[:-PENDING_LIMIT]
                    del to_node[:n]
                    written += n
                if key.data == "ack":
                    acks += _read(self._ack_r) or b""
                    while len(acks) >= 4:
                        handled += int.from_bytes(acks[:4], "little")
                        del acks[:4]
                if key.data == "out":
                    data = _read(node_out)
                    if data == b"":      # the VM process ended: power it up again
                        restart = True
                    elif data:
                        to_port += data
                        del to_port[:-PENDING_LIMIT]
                        self._record(data)
            if ctrl_c is not None and handled > ctrl_c:
                ctrl_c = None
            elif ctrl_c is not None and time.monotonic() - since > WEDGED_SECONDS:
                # the program ignores Ctrl-C (it never sleeps nor reads a pin): pull the
                # plug, and give the fresh board the input from that Ctrl-C on
                print("vboard: the program ignored Ctrl-C; hard reset", file=sys.stderr)
                stream = sent + to_node
                to_node[:] = stream[max(0, len(stream) - (written + len(to_node) - ctrl_c)):]
                self._node.kill()
                ctrl_c, restart = None, "safe"
            if restart:
                self._end_node()
                self.restarts += 1
                time.sleep(0.2)  # a board that fails at every start must not spin
                self._spawn(safe_boot=restart == "safe")
                sent.clear()
                acks.clear()
                written = handled = 0
                ctrl_c = None
                if CTRL_C in to_node:
                    _write(self._control_w, b"\x03")

    def _record(self, data):
        with self._seen:
            self._transcript += data
            del self._transcript[:-TRANSCRIPT_LIMIT]
            self._seen.notify_all()


def bus_records(log, offset=0):
    """Decode a bus log that starts at file offset `offset`: ("pin", gpio, level, end),
    ("spi", bus, bytes, end), ("i2c", address, bytes, end); `end` is the file offset after
    the record. A record cut off at the end (still being written) is left for next time."""
    i, n = 0, len(log)
    while i < n:
        kind = log[i]
        if kind == 0x50:
            if i + 4 > n:
                return
            i += 4
            yield "pin", log[i - 3] | log[i - 2] << 8, log[i - 1], offset + i
            continue
        if i + 6 > n:
            return
        length = int.from_bytes(log[i + 2:i + 6], "little")
        if i + 6 + length > n:
            return
        yield ("spi" if kind == 0x53 else "i2c"), log[i + 1], log[i + 6:i + 6 + length], offset + i + 6 + length
        i += 6 + length


def _read(fd):
    """Bytes available on a non-blocking fd: b'' at end of file, None if nothing yet."""
    try:
        return os.read(fd, 65536)
    except BlockingIOError:
        return None
    except OSError:  # EIO from a pseudo-terminal
        return None


def _write(fd, data):
    """Write what fits without blocking; return the number of bytes written."""
    try:
        return os.write(fd, data)
    except (BlockingIOError, BrokenPipeError):
        return 0


def main(argv=None):
    """Command line: serve a virtual board until Ctrl-C."""
    parser = argparse.ArgumentParser(prog="python -m tools.deploy.vboard", description=__doc__.split("\n\n")[0])
    parser.add_argument("--root", default="build/vboard", help="host folder with the board's files")
    parser.add_argument("--flash", type=int, default=0, help="flash size in bytes (0: unlimited)")
    parser.add_argument("--no-main", action="store_true", help="do not run main.py at reset")
    parser.add_argument("--screenshot", metavar="PNG",
                        help="keep this PNG showing the board's display (updated every second)")
    args = parser.parse_args(argv)
    board = VirtualBoard(args.root, flash=args.flash, run_main=not args.no_main).start()
    print(board.port, flush=True)
    print(f"vboard: files in {board.root}; Ctrl-C stops", file=sys.stderr)
    signal.signal(signal.SIGTERM, signal.default_int_handler)
    try:
        while True:
            time.sleep(1)
            if args.screenshot and board.board_name():
                board.screenshot(args.screenshot)
    except KeyboardInterrupt:
        pass
    finally:
        board.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
