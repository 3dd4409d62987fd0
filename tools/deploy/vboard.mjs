// The virtual board's MicroPython: the WebAssembly VM behaving like a board on a serial line.
//
//   node tools/deploy/vboard.mjs --root DIR [--heapsize N] [--flash BYTES] [--no-main]
//                         [--control-fd N] [--ack-fd N] [--bus FILE] [--sync-stamp FILE]
//                         [--safe-boot]
//
// stdin is the serial line from the host (tools/deploy/vboard.py relays a pseudo-terminal to it),
// stdout the line back. The control fd is a non-blocking pipe on which the relay repeats
// every Ctrl-C it sees (code running in the VM cannot return to Node's event loop, so the
// VM's sleeps and pin reads poll that pipe and raise KeyboardInterrupt from there) and
// sends the levels of input pins ("P" gpio level: a test pressing the board's buttons).
// On the ack fd the board counts the input bytes it has handled (uint32 LE), so that the
// relay can tell a board that ignores Ctrl-C from one that is only busy starting.
// SIGUSR1 asks for the files to be written back now; after every write-back the count of
// them is written to the sync-stamp file. Diagnostics go to stderr.
//
// What a board does and this file copies:
//  - friendly REPL and raw REPL come from the VM's own event-driven REPL;
//  - raw-paste mode (mpremote's fast path) is answered here: the VM would wait for stdin
//    forever, so the pasted code is collected with flow control and then fed to the raw
//    REPL, whose "OK" is dropped (raw-paste answers without it);
//  - Ctrl-D on an empty line is a soft reset: the VM is loaded anew, the files are put back,
//    "MPY: soft reboot" printed, boot.py run, main.py too when in the friendly REPL;
//  - the filesystem lives in DIR on the host: restored at every (re)start, written back
//    after changes (when the line is idle for a moment, at every reset, and on exit);
//  - OSError numbers are MicroPython's (the VM raises WASI numbers, ENOENT 44 instead of 2);
//  - with --flash, files may hold at most that many bytes (writes then fail with ENOSPC);
//  - a `machine` module whose pins and buses write the bus log the screen is rebuilt from.
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { loadMicroPython } from "@micropython/micropython-webassembly-pyscript/micropython.mjs";

const CTRL_A = 1, CTRL_B = 2, CTRL_C = 3, CTRL_D = 4, CTRL_E = 5;
const PIN_RECORD = 0x50;
const RAW_BANNER = "raw REPL; CTRL-B to exit\r\n";
const PASTE_WINDOW = 4096;
const SYNC_IDLE_MS = 100;
const SYSTEM_DIRS = new Set(["dev", "proc"]);   // the VM's own, never part of the board's files

// Python run once after each (re)start: MicroPython errno numbers, sleeps and pins that poll
// for Ctrl-C, a `machine` module, statvfs that knows the flash size.
const PRELUDE = `
import builtins, os, sys, time, vboard_host

_ERRNO = {44: 2, 20: 17, 54: 20, 31: 21, 55: 39, 2: 13, 8: 9, 28: 22, 29: 5, 63: 1,
          69: 30, 51: 28, 37: 36, 10: 16, 43: 19, 70: 29}

def _mapped(f):
    def call(*args):
        try:
            return f(*args)
        except OSError as e:
            n = _ERRNO.get(e.args[0]) if e.args else None
            if n is None:
                raise
            raise OSError(n) from None
    return call

for _name in ("stat", "mkdir", "rmdir", "remove", "rename", "chdir", "unlink", "getcwd"):
    if hasattr(os, _name):
        setattr(os, _name, _mapped(getattr(os, _name)))
builtins.open = _mapped(builtins.open)
_vm_ilistdir = _mapped(os.ilistdir)

def _ilistdir(path=""):
    # a board's entries carry the file size; the VM's folders dev and proc are not the board's
    base = path if path.startswith("/") else (os.getcwd().rstrip("/") + "/" + path)
    base = base.rstrip("/")
    entries = []
    for entry in _vm_ilistdir(path or "."):
        name = entry[0]
        if base in ("", "/.") and name in ("dev", "proc"):
            continue
        size = os.stat(base + "/" + name)[6] if entry[1] == 0x8000 else 0
        entries.append((name, entry[1], 0, size))
    return iter(entries)

def _listdir(path=""):
    return [entry[0] for entry in _ilistdir(path)]

os.ilistdir, os.listdir = _ilistdir, _listdir
_vm_stat = os.stat

def _stat(path):
    # a board's VFS takes "" as the current folder (mpremote's "fs cp a b :" relies on it)
    return _vm_stat(path or os.getcwd())

os.stat = _stat

def _statvfs(path):
    os.stat(path)
    used, flash = vboard_host.flash_used(), vboard_host.flash_size()
    if flash <= 0:
        return (4096, 4096, 1000000, 500000, 500000, 0, 0, 0, 0, 255)
    blocks, free = flash // 4096, max(0, (flash - used) // 4096)
    return (4096, 4096, blocks, free, free, 0, 0, 0, 0, 255)
os.statvfs = _statvfs

def _sleep_ms(ms):
    vboard_host.sleep(ms)
def _sleep_us(us):
    vboard_host.sleep(us / 1000)
def _sleep(s):
    vboard_host.sleep(s * 1000)
time.sleep_ms, time.sleep_us, time.sleep = _sleep_ms, _sleep_us, _sleep

def run_file(name, g):
    """Run a file the way a board runs boot.py and main.py; True if it asked for a reset."""
    try:
        os.stat(name)
    except OSError:
        return False
    try:
        with open(name) as f:
            code = compile(f.read(), name, "exec")
        exec(code, g)
    except SystemExit:
        return True
    except BaseException as e:
        _print_exception(e)
    return False

def _print_exception(e):
    # as a board prints it: without the frame of run_file itself
    import io
    text = io.StringIO()
    sys.print_exception(e, text)
    lines = text.getvalue().split("\\n")
    print("\\n".join(line for line in lines if "/.vboard/" not in line), end="")
`;

// The `machine` module of the virtual board: enough for board configs and drivers to run.
// Inputs read what the host holds them at, else high (buttons released, pull-ups). Output
// pin changes and the bytes written to SPI and I2C go to the bus log (--bus FILE), from
// which tools/deploy/vboard.py rebuilds the picture on the board's display controller.
// A write hands JS the buffer's address and length, read from the VM's memory, not the
// Python object: each object handed to JS becomes a PyProxy, and micropython.mjs frees
// PyProxies V8 collects through the VM loaded last (globalThis.Module), so after a restart
// the old VM's proxies freed slots of the new VM's proxy table (its qstrs and modules came
// apart: "no module named 'sys'"; seen once a show wrote more bands a frame).
const MACHINE = `
import vboard_host
from uctypes import addressof

class Pin:
    IN, OUT, OPEN_DRAIN = 0, 1, 2
    PULL_UP, PULL_DOWN = 1, 2
    IRQ_FALLING, IRQ_RISING = 4, 8
    def __init__(self, id, mode=-1, pull=-1, value=None):
        self.id, self.level = id, 1
        if value is not None:
            self.value(value)
        elif mode == Pin.OUT:
            vboard_host.pin(id, 1)
    def init(self, mode=-1, pull=-1, value=None):
        if value is not None:
            self.value(value)
    def value(self, level=None):
        if level is None:
            vboard_host.poll()
            held = vboard_host.level(self.id)
            return self.level if held < 0 else held
        level = 1 if level else 0
        if level != self.level:
            self.level = level
            vboard_host.pin(self.id, level)
    def __call__(self, level=None):
        return self.value(level)
    def on(self):
        self.value(1)
    def off(self):
        self.value(0)
    def irq(self, handler=None, trigger=0):
        return None

class SPI:
    MSB, LSB = 0, 1
    def __init__(self, id, *args, **kw):
        self.id = id
    def init(self, *args, **kw):
        pass
    def write(self, data):
        vboard_host.spi(self.id, addressof(data), len(data))
    def deinit(self):
        pass

class I2C:
    def __init__(self, id, *args, **kw):
        self.id = id
    def scan(self):
        return [0x3C]
    def writeto(self, addr, data, stop=True):
        vboard_host.i2c(addr, addressof(data), len(data))
        return len(data)
    def writevto(self, addr, vector, stop=True):
        data = b"".join(bytes(v) for v in vector)
        vboard_host.i2c(addr, addressof(data), len(data))
        return len(data)

class PWM:
    def __init__(self, pin, *args, **kw):
        self.pin = pin
    def freq(self, f=None):
        return 0 if f is None else None
    def duty_u16(self, d=None):
        return 0 if d is None else None
    def deinit(self):
        pass

def freq(hz=None, peripheral_hz=None):
    return 125000000 if hz is None else None

def unique_id():
    return b"vboard01"

def soft_reset():
    raise SystemExit

def reset():
    vboard_host.hard_reset()
    raise SystemExit

def idle():
    vboard_host.poll()
`;

function parseArgs(argv) {
  const opts = { root: null, heapsize: 256 * 1024, flash: 0, main: true, controlFd: -1, ackFd: -1,
                 bus: null, stamp: null };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === "--root") opts.root = path.resolve(argv[++i]);
    else if (arg === "--heapsize") opts.heapsize = parseInt(argv[++i], 10);
    else if (arg === "--flash") opts.flash = parseInt(argv[++i], 10);
    else if (arg === "--no-main") opts.main = false;
    else if (arg === "--safe-boot") opts.safeBoot = true;
    else if (arg === "--bus") opts.bus = path.resolve(argv[++i]);
    else if (arg === "--sync-stamp") opts.stamp = path.resolve(argv[++i]);
    else if (arg === "--control-fd") opts.controlFd = parseInt(argv[++i], 10);
    else if (arg === "--ack-fd") opts.ackFd = parseInt(argv[++i], 10);
    else throw new Error(`unknown option ${arg}`);
  }
  if (!opts.root) throw new Error("--root DIR is required");
  fs.mkdirSync(opts.root, { recursive: true });
  return opts;
}

// ---- the serial line out --------------------------------------------------------------

class Line {
  // Bytes to the host: VM output is "cooked" like a board's (\n becomes \r\n); protocol
  // bytes go out as they are. `swallow` drops an expected prefix of the VM's next output.
  constructor() {
    this.buf = [];
    this.last = 0;
    this.swallow = "";
    this.muted = false;
    this.tail = "";
  }

  vm(c) {
    if (this.muted) return;
    if (this.swallow) {
      if (c === this.swallow.charCodeAt(0)) {
        this.swallow = this.swallow.slice(1);
        return;
      }
      this.swallow = "";
    }
    if (c === 10 && this.last !== 13) this.buf.push(13);
    this.buf.push(c);
    this.last = c;
    this.tail = (this.tail + String.fromCharCode(c)).slice(-32);
    if (c === 10 || this.buf.length >= 512) this.flush();
  }

  raw(text) {
    for (const c of Buffer.from(text, "latin1")) this.buf.push(c);
    this.flush();
  }

  flush() {
    if (!this.buf.length) return;
    const data = Buffer.from(this.buf);
    this.buf = [];
    let off = 0;
    while (off < data.length) {
      try {
        off += fs.writeSync(1, data, off);
      } catch (e) {
        if (e.code !== "EAGAIN") throw e;
      }
    }
  }
}

// ---- the board's files on the host -----------------------------------------------------

class Flash {
  // Mirrors the VM's filesystem (all but its system folders) into a host folder.
  constructor(root, limit) {
    this.root = root;
    this.limit = limit;
    this.known = new Map();   // VM path -> "dir" or content hash, as last written to the host
  }

  restore(FS) {
    this.known.clear();
    for (const name of ["tmp", "home/web_user", "home"]) {
      try {
        FS.rmdir("/" + name);
      } catch (e) { /* already gone */ }
    }
    const walk = (hostDir, vmDir) => {
      for (const entry of fs.readdirSync(hostDir, { withFileTypes: true })) {
        if (entry.name.endsWith(".vboard-tmp")) continue;
        const host = path.join(hostDir, entry.name);
        const vm = (vmDir === "/" ? "" : vmDir) + "/" + entry.name;
        if (vmDir === "/" && SYSTEM_DIRS.has(entry.name)) continue;
        if (entry.isDirectory()) {
          FS.mkdir(vm);
          this.known.set(vm, "dir");
          walk(host, vm);
        } else if (entry.isFile()) {
          const data = fs.readFileSync(host);
          FS.writeFile(vm, data);
          this.known.set(vm, hash(data));
        }
      }
    };
    walk(this.root, "/");
  }

  // Every file and folder of the VM's filesystem: Map VM path -> "dir" or Uint8Array.
  scan(FS) {
    const found = new Map();
    const walk = (dir) => {
      for (const name of FS.readdir(dir)) {
        if (name === "." || name === "..") continue;
        if (dir === "/" && SYSTEM_DIRS.has(name)) continue;
        const vm = (dir === "/" ? "" : dir) + "/" + name;
        const node = FS.lookupPath(vm).node;
        if (FS.isDir(node.mode)) {
          found.set(vm, "dir");
          walk(vm);
        } else if (FS.isFile(node.mode)) {
          found.set(vm, FS.readFile(vm));
        }
      }
    };
    walk("/");
    return found;
  }

  used(FS) {
    let total = 0;
    for (const item of this.scan(FS).values()) if (item !== "dir") total += item.length;
    return total;
  }

  // Write what changed since the last sync to the host folder; true if anything did.
  sync(FS) {
    const now = this.scan(FS);
    let changed = false;
    for (const [vm, item] of now) {
      const host = path.join(this.root, vm);
      if (item === "dir") {
        if (this.known.get(vm) !== "dir") {
          fs.rmSync(host, { force: true });
          fs.mkdirSync(host, { recursive: true });
          changed = true;
        }
        continue;
      }
      const digest = hash(item);
      if (this.known.get(vm) === digest) continue;
      fs.mkdirSync(path.dirname(host), { recursive: true });
      if (this.known.get(vm) === "dir") fs.rmSync(host, { recursive: true, force: true });
      const partial = host + ".vboard-tmp";
      fs.writeFileSync(partial, item);
      fs.renameSync(partial, host);
      changed = true;
    }
    for (const vm of [...this.known.keys()].sort().reverse()) {
      if (!now.has(vm)) {
        fs.rmSync(path.join(this.root, vm), { recursive: true, force: true });
        changed = true;
      }
    }
    this.known = new Map([...now].map(([vm, item]) => [vm, item === "dir" ? "dir" : hash(item)]));
    return changed;
  }

  // Make file writes fail with ENOSPC once the files would hold more than `limit` bytes.
  limitWrites(FS) {
    if (this.limit <= 0) return;
    FS.writeFile("/.vboard-probe", "");
    const ops = FS.lookupPath("/.vboard-probe").node.stream_ops;
    FS.unlink("/.vboard-probe");
    const write = ops.write;
    const flash = this;
    ops.write = function (stream, buffer, offset, length, position, canOwn) {
      const node = stream.node;
      const growth = Math.max(0, position + length - (node.usedBytes ?? 0));
      if (growth > 0 && flash.used(FS) + growth > flash.limit) {
        // MicroPython's ENOSPC (28) directly: no Emscripten code looks at a write's errno.
        throw new FS.ErrnoError(28);
      }
      return write.call(this, stream, buffer, offset, length, position, canOwn);
    };
  }
}

// ---- the display bus ----------------------------------------------------------------

class BusLog {
  // Appends records to a file: "P" gpio:u16 level:u8 | "S" bus:u8 n:u32 bytes | "I" addr:u8 n:u32 bytes
  constructor(file) {
    this.fd = file ? fs.openSync(file, "a") : -1;
  }

  pin(id, level) {
    if (this.fd < 0 || typeof id !== "number") return;
    const rec = Buffer.from([0x50, id & 0xff, (id >> 8) & 0xff, level]);
    fs.writeSync(this.fd, rec);
  }

  write(kind, id, data) {
    if (this.fd < 0) return;
    const head = Buffer.alloc(6);
    head[0] = kind;
    head[1] = typeof id === "number" ? id & 0xff : 0;
    head.writeUInt32LE(data.length, 2);
    fs.writeSync(this.fd, Buffer.concat([head, Buffer.from(data)]));
  }
}

function hash(data) {
  return crypto.createHash("sha1").update(data).digest("hex");
}

// ---- the board -------------------------------------------------------------------------

class Board {
  constructor(opts) {
    this.opts = opts;
    this.line = new Line();
    this.flash = new Flash(opts.root, opts.flash);
    this.mp = null;
    this.mode = "friendly";    // which REPL the VM is in: "friendly" or "raw"
    this.rawLine = [];         // bytes fed to the raw REPL since its last prompt
    this.paste = null;         // raw-paste in progress: {data: [], credit: n}
    this.hardReset = false;
    this.syncTimer = null;
    this.lastSync = Date.now();
    this.sleeper = new Int32Array(new SharedArrayBuffer(4));
    this.bus = new BusLog(opts.bus);
    this.syncs = 0;
    this.controlBuf = Buffer.alloc(256);
    this.control = [];
    this.levels = new Map();   // GPIO -> level the host holds it at (buttons pressed)
  }

  host() {
    return {
      poll: () => this.poll(),
      level: (id) => (this.levels.has(id) ? this.levels.get(id) : -1),
      sleep: (ms) => this.sleep(ms),
      flash_used: () => this.flash.used(this.mp.FS),
      flash_size: () => this.opts.flash,
      hard_reset: () => { this.hardReset = true; },
      pin: (id, level) => this.bus.pin(id, level),
      spi: (id, at, n) => this.bus.write(0x53, id, this.mp._module.HEAPU8.slice(at, at + n)),
      i2c: (addr, at, n) => this.bus.write(0x49, addr, this.mp._module.HEAPU8.slice(at, at + n)),
    };
  }

  async start(soft) {
    if (this.mp) this.sync();
    if (soft) this.line.raw("MPY: soft reboot\r\n");
    if (this.hardReset) this.mode = "friendly";
    this.hardReset = false;
    this.mp = await loadMicroPython({
      heapsize: this.opts.heapsize,
      stdout: (b) => this.line.vm(b[0]),
      stderr: (b) => this.line.vm(b[0]),
      linebuffer: false,
    });
    const FS = this.mp.FS;
    this.flash.restore(FS);
    this.flash.limitWrites(FS);
    this.mp.registerJsModule("vboard_host", this.host());
    this.loadModule("_vboard", PRELUDE);
    this.loadModule("machine", MACHINE);
    this.mp.runPython("import sys\nsys.path[:] = ['', '.frozen', '/lib']\ndel sys");
    if (this.runFile("boot.py")) return this.start(true);
    const safe = this.opts.safeBoot;   // the first start only: main.py hung the board before
    this.opts.safeBoot = false;
    if (this.mode === "friendly" && this.opts.main && !safe && this.runFile("main.py")) return this.start(true);
    this.line.muted = this.mode === "raw";
    this.mp.replInit();
    this.line.muted = false;
    if (this.mode === "raw") {
      this.mp.replProcessChar(CTRL_A);
      this.rawLine = [];
    }
    this.line.flush();
  }

  // Import `source` as module `name` from a file that is removed again (not a board file).
  loadModule(name, source) {
    const FS = this.mp.FS;
    FS.mkdir("/.vboard");
    FS.writeFile(`/.vboard/${name}.py`, source);
    this.mp.runPython(`import sys\nsys.path.insert(0, '/.vboard')\nimport ${name}\nsys.path.pop(0)\ndel sys, ${name}`);
    FS.unlink(`/.vboard/${name}.py`);
    FS.rmdir("/.vboard");
  }

  runFile(name) {
    this.mp.runPython(`_vboard_reset = __import__('_vboard').run_file(${JSON.stringify(name)}, globals())`);
    const reset = this.mp.globals.get("_vboard_reset");
    this.mp.globals.delete("_vboard_reset");
    this.line.flush();
    return reset;
  }

  // ---- input from the host ----

  // Handle one byte from the serial line; returns a promise when the board restarts.
  byte(c) {
    if (this.paste) return this.pasteByte(c);
    if (c === CTRL_C) this.drainInterrupts();
    if (this.mode === "raw") {
      if (c === CTRL_A && this.rawLine.length === 2 && this.rawLine[0] === CTRL_E && this.rawLine[1] === 65) {
        return this.startPaste();
      }
      if (c === CTRL_B) this.mode = "friendly";
      this.rawLine = c === CTRL_A || c === CTRL_C || c === CTRL_D ? [] : [...this.rawLine, c].slice(-2);
    }
    return this.feed(c);
  }

  feed(c) {
    this.line.tail = "";
    const stop = this.mp.replProcessChar(c);
    this.line.flush();
    if (this.mode === "friendly" && this.line.tail.endsWith(RAW_BANNER + ">")) {
      this.mode = "raw";
      this.rawLine = [];
    }
    this.scheduleSync();
    if (stop || this.hardReset) return this.start(true);
    return null;
  }

  startPaste() {
    this.mp.replProcessChar(CTRL_C);   // forget the "\x05A" the raw REPL collected
    this.rawLine = [];
    this.paste = { data: [], credit: PASTE_WINDOW };
    this.line.raw("R\x01" + String.fromCharCode(PASTE_WINDOW & 0xff, PASTE_WINDOW >> 8));
    return null;
  }

  pasteByte(c) {
    const paste = this.paste;
    if (c === CTRL_C) {
      this.paste = null;
      this.drainInterrupts();
      this.line.raw("\x04");
      return null;
    }
    if (c !== CTRL_D) {
      paste.data.push(c);
      if (--paste.credit === 0) {
        paste.credit = PASTE_WINDOW;
        this.line.raw("\x01");
      }
      return null;
    }
    this.paste = null;
    this.line.raw("\x04");
    for (const b of paste.data) this.mp.replProcessChar(b);
    this.line.swallow = "OK";
    return this.feed(CTRL_D);
  }

  // ---- hooks called by code running in the VM ----

  poll() {
    if (this.readControl()) this.mp._module._mp_sched_keyboard_interrupt();
    this.line.flush();
    if (Date.now() - this.lastSync > 1000) this.sync();
  }

  sleep(ms) {
    const end = Date.now() + ms;
    for (;;) {
      this.poll();
      const left = end - Date.now();
      if (left <= 0) return;
      Atomics.wait(this.sleeper, 0, 0, Math.min(left, 20));
    }
  }

  // Read the control pipe: pin levels set by the host ("P" gpio level) are kept for
  // Pin.value(); returns true if a Ctrl-C came.
  readControl() {
    const fd = this.opts.controlFd;
    if (fd < 0) return false;
    for (;;) {
      let n = 0;
      try {
        n = fs.readSync(fd, this.controlBuf, 0, this.controlBuf.length, null);
      } catch (e) { /* EAGAIN: nothing (more) */ }
      if (n <= 0) break;
      for (let i = 0; i < n; i++) this.control.push(this.controlBuf[i]);
    }
    let interrupted = false;
    while (this.control.length) {
      if (this.control[0] === PIN_RECORD) {
        if (this.control.length < 3) break;   // the rest of the record is still coming
        const [, gpio, level] = this.control.splice(0, 3);
        this.levels.set(gpio, level);
      } else if (this.control.shift() === CTRL_C) {
        interrupted = true;
      }
    }
    return interrupted;
  }

  drainInterrupts() {
    this.readControl();
  }

  scheduleSync() {
    clearTimeout(this.syncTimer);
    this.syncTimer = setTimeout(() => this.sync(), SYNC_IDLE_MS);
  }

  sync() {
    clearTimeout(this.syncTimer);
    this.lastSync = Date.now();
    if (this.mp) this.flash.sync(this.mp.FS);
    if (this.opts.stamp) fs.writeFileSync(this.opts.stamp, String(++this.syncs));
  }
}

// An error in one line: Node's own report would print the VM's whole minified source.
function describe(e) {
  return e && e.name ? `${e.name}: ${e.message}` : String(e);
}

async function main() {
  let opts;
  try {
    opts = parseArgs(process.argv.slice(2));
  } catch (e) {
    process.stderr.write(`vboard: ${e.message}\n`);
    process.exit(2);
  }
  const board = new Board(opts);
  const queue = [];
  let busy = false;
  // Tell the relay how many input bytes were handled: before a restart (which may run a
  // main.py that never returns) and after each chunk.
  const ack = (n) => {
    if (opts.ackFd < 0 || n <= 0) return;
    const count = Buffer.alloc(4);
    count.writeUInt32LE(n, 0);
    fs.writeSync(opts.ackFd, count);
  };
  const pump = async () => {
    if (busy) return;
    busy = true;
    try {
      while (queue.length) {
        const chunk = queue.shift();
        let acked = 0;
        for (let i = 0; i < chunk.length; i++) {
          const restart = board.byte(chunk[i]);
          if (restart) {
            ack(i + 1 - acked);
            acked = i + 1;
            await restart;
          }
        }
        ack(chunk.length - acked);
      }
    } catch (e) {
      process.stderr.write(`vboard: the VM failed: ${describe(e)}\n`);
      board.sync();
      process.exit(3);
    }
    busy = false;
  };
  const finish = () => {
    board.sync();
    process.exit(0);
  };
  process.on("SIGUSR1", () => board.sync());
  process.on("SIGTERM", finish);
  process.on("SIGINT", finish);
  process.stdin.on("end", finish);
  // Read the line from the start, also while booting (the bytes wait in the queue): input
  // left in the pipe would look to the relay like a board that ignores Ctrl-C.
  process.stdin.on("data", (chunk) => {
    queue.push(chunk);
    pump();
  });
  busy = true;
  try {
    await board.start(false);
  } catch (e) {
    process.stderr.write(`vboard: the VM failed to start: ${describe(e)}\n`);
    process.exit(3);
  }
  busy = false;
  pump();
}

await main();
