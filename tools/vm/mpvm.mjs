// Run Python code in the MicroPython WebAssembly VM (the stand-in for the handheld).
//
//   node tools/vm/mpvm.mjs < job.json
//       job = {"heapsize": int, "files": {"/lib/engine/x.mpy": base64, ...},
//              "path": ["", "/lib", ...], "main": "source", "name": "<main>",
//              "steps": ["source" or ["source", times], ...], "romfs": base64,
//              "capped": bool}
//       Writes the files, mounts the ROMFS image if given, sets sys.path, runs `main`, then
//       each of `steps` as a separate call into the VM (the VM only garbage-collects
//       between calls). A step given with a count runs that many times, each a call of
//       its own under the same name (a name is interned for good). Only `main` is required. With "capped", the GC heap cannot grow
//       past `heapsize` (see capHeap).
//   node tools/vm/mpvm.mjs [--heapsize N] [--lib HOSTDIR]... [--romfs IMAGE] script.py
//       Runs a host script; each --lib folder is copied to /lib/<its name>.
//
// A ROMFS image is mounted at /rom as a board's firmware mounts its ROM partition: the
// image's bytes lie in memory taken with the Emscripten module's _malloc, outside the
// MicroPython GC heap (as flash is outside a board's RAM), and Python sees them through
// uctypes.bytearray_at, so .mpy files there run in place.
//
// VM output goes to our stdout/stderr. Exit status: 0 success, 1 uncaught Python exception
// (MicroPython traceback on stderr), n for sys.exit(n), 2 bad usage, 3 the VM itself died.
import fs from "node:fs";
import { makeDirs } from "./vmfs.mjs";
import { heapWhereABoardsIs } from "./vmheap.mjs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { loadMicroPython } from "@micropython/micropython-webassembly-pyscript/micropython.mjs";

// Runs one piece of source under a file name; returns an exit status. Frames of this
// wrapper itself ("<stdin>") are dropped from the traceback.
const WRAPPER = `
import sys, io
_mpvm_code = [None, None]    # the step's source and its code, compiled once while it repeats
def _mpvm_exec(src, name, g):
    try:
        if src is not _mpvm_code[0]:
            _mpvm_code[0], _mpvm_code[1] = src, compile(src, name, "exec")
        exec(_mpvm_code[1], g)
        return 0
    except SystemExit as e:
        code = e.args[0] if e.args else 0
        if code is None or isinstance(code, int):
            return code or 0
        print(code, file=sys.stderr)
        return 1
    except MemoryError as e:    # told at once: the full heap has no room for the buffer below
        sys.print_exception(e, sys.stderr)
        return 1
    except BaseException as e:
        buf = io.StringIO()
        sys.print_exception(e, buf)
        lines = buf.getvalue().split("\\n")
        print("\\n".join(l for l in lines if not l.startswith('  File "<stdin>"')), end="", file=sys.stderr)
        return 1
_mpvm_globals = {"__name__": "__main__"}
def _mpvm_step():
    return _mpvm_exec(_mpvm_src, _mpvm_name, _mpvm_globals)
`;

function lineWriter(stream) {
  // Byte-wise VM output, passed on a line at a time (synchronous on Linux for pipes/files).
  let bytes = [];
  const flush = () => {
    if (bytes.length) stream.write(Buffer.from(bytes));
    bytes = [];
  };
  const put = (c) => {
    bytes.push(c);
    if (c === 10 || bytes.length >= 4096) flush();
  };
  return { put, flush };
}

function parseArgs(argv) {
  const job = { heapsize: 1024 * 1024, files: {}, path: ["", ".frozen", "/lib"], steps: [] };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === "--heapsize") job.heapsize = parseInt(argv[++i], 10);
    else if (arg === "--lib") addHostFolder(job.files, argv[++i]);
    else if (arg === "--romfs") {
      job.romfs = fs.readFileSync(argv[++i]).toString("base64");
      job.path = ["", ".frozen", "/rom", "/rom/lib", "/lib"];   // as firmware that mounted it
    }
    else if (arg.startsWith("-")) throw new Error(`unknown option ${arg}`);
    else {
      job.main = fs.readFileSync(arg, "utf8");
      job.name = arg;
    }
  }
  if (job.main === undefined) throw new Error("no script given");
  return job;
}

function addHostFolder(files, folder) {
  const base = path.basename(path.resolve(folder));
  for (const rel of fs.readdirSync(folder, { recursive: true })) {
    const full = path.join(folder, rel);
    if (fs.statSync(full).isFile() && !rel.split(path.sep).includes("__pycache__")) {
      files[`/lib/${base}/${rel.split(path.sep).join("/")}`] = fs.readFileSync(full).toString("base64");
    }
  }
}

// Mounts at /rom, as the firmware does at boot (extmod/vfs.c, mp_vfs_mount_romfs_protected).
const MOUNT_ROMFS = `
import vfs, uctypes
vfs.mount(vfs.VfsRom(uctypes.bytearray_at(_mpvm_rom_addr, _mpvm_rom_len)), "/rom")
del vfs, uctypes, _mpvm_rom_addr, _mpvm_rom_len
`;

function mountRomfs(mp, b64) {
  // The image outside the GC heap: C memory that lives as long as the VM.
  const image = Buffer.from(b64, "base64");
  const addr = mp._module._malloc(image.length);
  if (!addr) throw new Error(`no memory for a ROMFS image of ${image.length} bytes`);
  mp._module.HEAPU8.set(image, addr);
  mp.globals.set("_mpvm_rom_addr", addr);
  mp.globals.set("_mpvm_rom_len", image.length);
  mp.runPython(MOUNT_ROMFS);
}

// A hard cap on the GC heap, which otherwise grows on demand (split heap): the wasm memory
// may not grow any more, and the C heap is taken up but for about 1 KB (the C code's own
// small needs), so the GC cannot add an area. A call that fills the capped heap spins
// (its collection does not return) rather than raising: run capped jobs with a timeout.
function capHeap(mod) {
  WebAssembly.Memory.prototype.grow = function () {
    throw new RangeError("mpvm: the heap is capped");
  };
  const held = [];
  for (let size = 1 << 24; size >= 16; size >>= 1) {
    for (let p = mod._malloc(size); p; p = mod._malloc(size)) held.push([p, size]);
  }
  for (let back = 0; back < 1024 && held.length; ) {
    const [p, size] = held.pop();
    mod._free(p);
    back += size;
  }
}

async function main() {
  let job;
  try {
    const argv = process.argv.slice(2);
    job = argv.length ? parseArgs(argv) : JSON.parse(fs.readFileSync(0, "utf8"));
    if (typeof job.main !== "string") throw new Error('job has no "main" source');
  } catch (e) {
    process.stderr.write(`mpvm: ${e.message}\n`);
    return 2;
  }
  const out = lineWriter(process.stdout);
  const err = lineWriter(process.stderr);
  try {
    const mp = await loadMicroPython({
      heapsize: job.heapsize ?? 1024 * 1024,
      stdout: (b) => out.put(b[0]),
      stderr: (b) => err.put(b[0]),
      linebuffer: false,
    });
    heapWhereABoardsIs(mp, job.heapsize ?? 1024 * 1024);
    for (const [file, b64] of Object.entries(job.files ?? {})) {
      makeDirs(mp.FS, path.posix.dirname(file));
      mp.FS.writeFile(file, Buffer.from(b64, "base64"));
    }
    mp.runPython(WRAPPER);
    if (job.romfs) mountRomfs(mp, job.romfs);
    const sources = [[job.main, job.name ?? "<main>"]];
    mp.globals.set("_mpvm_path", JSON.stringify(job.path ?? ["", ".frozen", "/lib"]));
    mp.globals.set("_mpvm_name", sources[0][1]);
    mp.runPython("import json\nsys.path[:] = json.loads(_mpvm_path)\nsys.argv[:] = [_mpvm_name]");
    if (job.capped) capHeap(mp._module);
    (job.steps ?? []).forEach((step, i) => {
      const [src, times] = typeof step === "string" ? [step, 1] : step;
      for (let k = 0; k < times; k++) sources.push([src, job.step_name ?? `<step ${i + 1}>`]);
    });
    // A step is a call of _mpvm_exec from here, not a line compiled to call it: a device's
    // loop compiles nothing a frame (the parser's first block alone is 512 bytes, which a
    // capped heap would need free in one piece every step). A step repeated runs the code
    // compiled at its first time, its source and name passed on only when they change.
    const run = mp.globals.get("_mpvm_step");
    let last = null;
    for (const step of sources) {
      const [src, name] = step;
      if (last === null || src !== last[0] || name !== last[1]) {
        mp.globals.set("_mpvm_src", src);
        mp.globals.set("_mpvm_name", name);
        last = step;
      }
      const rc = run();
      if (rc !== 0) return rc;
    }
    return 0;
  } catch (e) {
    err.flush();
    process.stderr.write(`mpvm: the MicroPython VM failed: ${e.stack ?? e}\n`);
    return 3;
  } finally {
    out.flush();
    err.flush();
  }
}

process.exit(await main());
