// The MicroPython GC heap where a board's is. An RP2040's RAM begins at 0x2000_0000, the
// VM's C heap at about 0x30000. The collector is conservative (a word holding the address
// of a block's start keeps the block), and in a heap at such low addresses small numbers
// read as pointers (two 16-bit moves, four bytes of mono pixels) and keep KBs of garbage,
// which a board's heap addresses seldom do. So the VM starts again over a fresh heap
// allocated past a spacer of C memory that is never touched (the wasm memory grows; no
// RAM is used). mpvm.mjs and mesh.mjs call this right after loadMicroPython.
const DEVICE_HEAP = 0x20000000;
const PYSTACK = 2048;              // loadMicroPython's own

/** Start the VM `mp` again with a `heapsize`-byte GC heap at 0x2000_0000 or above. */
export function heapWhereABoardsIs(mp, heapsize) {
  const mod = mp._module;
  const here = mod._malloc(16);
  mod._free(here);
  if (here < DEVICE_HEAP && !mod._malloc(DEVICE_HEAP - here)) {
    throw new Error("vmheap: no room to place the heap at a board's address");
  }
  mod.ccall("mp_js_init", "null", ["number", "number"], [PYSTACK, heapsize]);
  mod.ccall("proxy_c_init", "null", [], []);
  mp.globals.__dict__ = mp.pyimport("__main__").__dict__;
}
