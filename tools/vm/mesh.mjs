// One handheld of a mesh: a MicroPython VM that a Python orchestrator steps over pipes
// (tools/vm/mesh.py runs one such process per device and owns the wire between them).
//
//   node tools/vm/mesh.mjs < lines
//       First line: {"heapsize": int, "files": {"/lib/x.mpy": base64}, "path": [...],
//       "main": "source"}; it loads the VM, writes the files and runs main. Then each line
//       {"do": "fn", "arg": "text"} calls the VM's global fn(arg) (a VM entry of its own,
//       so the VM collects its garbage between calls) and answers {"ret": text, "out":
//       what it printed} or {"error": ...}. While it runs, Python may call
//       `mesh.call(fn, text)`: that writes {"call": fn, "arg": text} and waits for the
//       orchestrator's {"ret": text}. Strings cross, nothing else.
import fs from "node:fs";
import { makeDirs } from "./vmfs.mjs";
import { heapWhereABoardsIs } from "./vmheap.mjs";
import path from "node:path";
import { loadMicroPython } from "@micropython/micropython-webassembly-pyscript/micropython.mjs";

let pending = Buffer.alloc(0);
function readLine() {
  const chunk = Buffer.alloc(65536);
  for (;;) {
    const nl = pending.indexOf(10);
    if (nl >= 0) {
      const line = pending.subarray(0, nl).toString();
      pending = pending.subarray(nl + 1);
      return line;
    }
    let n;
    try {
      n = fs.readSync(0, chunk, 0, chunk.length, null);
    } catch (e) {
      if (e.code === "EAGAIN") continue;
      throw e;
    }
    if (n === 0) return null;
    pending = Buffer.concat([pending, chunk.subarray(0, n)]);
  }
}
const writeLine = (obj) => fs.writeSync(1, JSON.stringify(obj) + "\n");

async function main() {
  const spec = JSON.parse(readLine());
  const out = [];
  const mp = await loadMicroPython({
    heapsize: spec.heapsize ?? 512 * 1024,
    stdout: (b) => out.push(b[0]),
    stderr: (b) => out.push(b[0]),
    linebuffer: false,
  });
  heapWhereABoardsIs(mp, spec.heapsize ?? 512 * 1024);
  const printed = () => Buffer.from(out.splice(0)).toString();
  mp.registerJsModule("mesh", {
    call: (fn, arg) => {
      writeLine({ call: fn, arg: String(arg) });
      const reply = JSON.parse(readLine());
      return reply.ret;
    },
  });
  for (const [file, b64] of Object.entries(spec.files ?? {})) {
    makeDirs(mp.FS, path.posix.dirname(file));
    mp.FS.writeFile(file, Buffer.from(b64, "base64"));
  }
  mp.globals.set("_mesh_path", JSON.stringify(spec.path ?? ["", "/lib"]));
  const fns = {};
  try {
    mp.runPython("import sys, json\nsys.path[:] = json.loads(_mesh_path)");
    mp.runPython(spec.main);
    writeLine({ ret: "", out: printed() });
  } catch (e) {
    writeLine({ error: String(e.message ?? e), out: printed() });
    return 1;
  }
  for (let line = readLine(); line !== null; line = readLine()) {
    const req = JSON.parse(line);
    if (req.do === undefined) break;
    try {
      fns[req.do] ??= mp.globals.get(req.do);
      const r = fns[req.do](req.arg);
      writeLine({ ret: r === undefined || r === null ? "" : String(r), out: printed() });
    } catch (e) {
      writeLine({ error: String(e.message ?? e), out: printed() });
    }
  }
  return 0;
}

process.exit(await main());
