"""Several MicroPython VMs stepped together: handhelds on one wire (tools/vm/mesh.mjs).

    devices = [mesh.VM("host", HOST_MAIN, modules=("engine", "firmware", mesh.PROXY)), ...]
    steps, out = mesh.run(devices, serve=wire_server, steps=5000)
    out["host"].report        # what the host's report("") returned

One Node process per device, each a VM of its own. The orchestrator (here, CPython) runs
each VM's `main`, then `step(n)` of every VM in the order given, once per step (each call
a separate VM entry, so each collects its garbage), until every step() returns "done",
then `report("")`. While a VM runs, `mesh.call(fn, text)` in it is answered by
`serve(name, fn, text)` here: the wire (tools/fakes/wire.py) lives in the orchestrator,
and tools/vm/mesh_proxy.py gives the device side fake UARTs and radios that reach it, so
the firmware's real transports run unchanged. `between(n)` runs after each step (the
wire's clock, faults and unplugs). A later step can run the whole app in each VM.
"""
import base64
import json
import shutil
import subprocess
import time

from tools.vm.build_mpy import ROOT
from tools.vm.mpvm import VMTimeout, vm_files

NODE_SCRIPT = ROOT / "tools" / "vm" / "mesh.mjs"
PROXY = "tools/vm/mesh_proxy.py"


class VM:
    """One device of the mesh: its name, main source, project modules (as mpvm.run), heap."""

    def __init__(self, name, main, modules=(), heapsize=512 * 1024, mpy=True):
        self.name, self.main, self.modules, self.heapsize, self.mpy = name, main, modules, heapsize, mpy


class Outcome:
    """What one VM printed and reported, and the error that stopped it (None if none)."""

    def __init__(self):
        self.stdout, self.report, self.error = "", None, None


class MeshError(AssertionError):
    """A VM of the mesh raised; the message names it and has its traceback."""


def _start(vm):
    node = shutil.which("node")
    if node is None:
        raise RuntimeError("node is not installed; the MicroPython VM needs Node 20")
    files, path = vm_files(vm.modules, vm.mpy)
    spec = {"heapsize": vm.heapsize, "main": vm.main, "path": ["", "/lib"] + path,
            "files": {k: base64.b64encode(data).decode() for k, (data, _) in files.items()}}
    proc = subprocess.Popen([node, str(NODE_SCRIPT)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, cwd=ROOT)
    proc.stdin.write((json.dumps(spec) + "\n").encode())
    proc.stdin.flush()
    return proc


def _talk(vm, proc, msg, serve, outcome, deadline):
    """Send one request (None: only wait for main's answer); serve its calls; its ret."""
    if msg is not None:
        proc.stdin.write((json.dumps(msg) + "\n").encode())
        proc.stdin.flush()
    while True:
        if time.monotonic() > deadline:
            raise VMTimeout("the mesh did not finish in time (in %s)" % vm.name, outcome.stdout)
        line = proc.stdout.readline()
        if not line:
            raise MeshError("%s: the VM process ended:\n%s" % (vm.name, proc.stderr.read().decode()))
        reply = json.loads(line)
        if "call" in reply:
            ret = serve(vm.name, reply["call"], reply["arg"])
            proc.stdin.write((json.dumps({"ret": ret}) + "\n").encode())
            proc.stdin.flush()
            continue
        outcome.stdout += reply.get("out", "")
        if "error" in reply:
            outcome.error = reply["error"]
            raise MeshError("%s: %s\n%s" % (vm.name, reply["error"], outcome.stdout[-2000:]))
        return reply["ret"]


def run(vms, serve, steps, between=None, timeout=300):
    """Run the mesh; returns (steps run, {name: Outcome}). Raises MeshError when a VM
    raises, VMTimeout after `timeout` seconds."""
    deadline = time.monotonic() + timeout
    procs = [_start(vm) for vm in vms]
    out = {vm.name: Outcome() for vm in vms}
    try:
        for vm, proc in zip(vms, procs):
            _talk(vm, proc, None, serve, out[vm.name], deadline)
        n = 0
        while n < steps:
            done = True
            for vm, proc in zip(vms, procs):
                if _talk(vm, proc, {"do": "step", "arg": str(n)}, serve, out[vm.name], deadline) != "done":
                    done = False
            n += 1
            if done:
                break
            if between:
                between(n)
        for vm, proc in zip(vms, procs):
            out[vm.name].report = _talk(vm, proc, {"do": "report", "arg": ""}, serve, out[vm.name], deadline)
        return n, out
    finally:
        for proc in procs:
            try:
                proc.stdin.close()
            except OSError:
                pass
            try:
                proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                proc.kill()
