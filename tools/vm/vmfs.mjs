// The VM's file system, as the Node sides of the VM harness (mpvm.mjs, mesh.mjs) use it.

/** Make `dir` and every folder above it in the VM's FS (those there already are kept). */
export function makeDirs(FS, dir) {
  let sofar = "";
  for (const part of dir.split("/").filter(Boolean)) {
    sofar += "/" + part;
    try {
      FS.mkdir(sofar);
    } catch (e) {
      if (!FS.analyzePath(sofar).exists) throw e;
    }
  }
}
