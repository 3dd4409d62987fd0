"""Seeded message streams between MicroPython VMs over the fake wire: the wire's VM proof.

    python -m tools.vm.mesh_streams --model espnow --seed 3 [--messages 12] [--clean]

A host and its guests (a star: two link cables on a host with two UARTs, the Thumby's
one-wire port, or four ESP-NOW radios), each a VM of tools/vm/mesh.py running
firmware/link.py and its real transport; every device sends `messages` messages of a
seeded stream to each of its peers while the wire drops, corrupts, duplicates, delays
and reorders, and one end is unplugged mid-frame for 3 s. Each device reports the count
and digest of what it received from each peer; `expected` computes them on CPython.
"""
import argparse
import sys

from tools.fakes.wire import Wire
from tools.vm import mesh
from tools.vm.mesh_proxy import digest_add, serve, stream

FAULTS = dict(drop=0.08, corrupt=0.05, duplicate=0.08, delay=20, reorder=0.08)
MACS = [bytes([2, 0, 0, 0, 0, i]) for i in range(1, 5)]

DEVICE = """
from firmware.link import Link
from firmware.link_uart import UartTransport
from firmware.link_espnow import EspNowTransport
from mesh_proxy import ProxyUART, ProxyRadio, Node, ticks
%(transport)s
link = Link(t, ticks, epoch=%(epoch)d)
node = Node(link, %(peers)s, %(seed)d, %(n)d)
def step(_):
    return 'done' if node.step() else ''
def report(_):
    return node.report()
"""

# model: ({device: (transport source, peers source)}, the wire's ends, the end unplugged)
MODELS = {
    "cable": ({
        "host": ("t = UartTransport((ProxyUART(0), ProxyUART(1)))", "[0, 1]"),
        "left": ("t = UartTransport((ProxyUART(2),))", "[0]"),
        "right": ("t = UartTransport((ProxyUART(3),))", "[0]"),
    }, lambda w: (lambda a1, b1, a2, b2: [a1, a2, b1, b2])(*w.cable(), *w.cable()), 3),
    "thumby": ({
        "host": ("u = ProxyUART(0)\nt = UartTransport((u,), True, u.rx_pin())", "[0]"),
        "guest": ("u = ProxyUART(1)\nt = UartTransport((u,), True, u.rx_pin())", "[0]"),
    }, lambda w: list(w.cable(half_duplex=True)), 1),
    "espnow": ({
        "host": ("r = ProxyRadio(0)\nr.active(True)\nt = EspNowTransport(r)", repr(MACS[1:])),
        **{"guest%d" % i: ("r = ProxyRadio(%d)\nr.active(True)\nt = EspNowTransport(r)" % i,
                           repr(MACS[:1])) for i in (1, 2, 3)},
    }, lambda w: [w.radio(m) for m in MACS], 2),
}


def _peers(model):
    names = list(MODELS[model][0])
    return {names[0]: names[1:], **{g: names[:1] for g in names[1:]}}


def _seed(model, name):
    return 5 + list(MODELS[model][0]).index(name)


def expected(model, n):
    """Each device's report when every stream arrived whole, in order, once (CPython)."""
    links = _peers(model)
    want = {}
    for d, peers in links.items():
        parts = []
        for peer in peers:
            j = links[peer].index(d)        # d's place in the sender's peer list
            dig = 0
            for i in range(n):
                dig = digest_add(dig, 16 + i % 240, stream(_seed(model, peer) * 16 + j, i))
            parts.append("%d:%06x" % (n, dig))
        want[d] = " ".join(parts)
    return want


def run(model, seed, n=12, faults=FAULTS, unplug_ms=3000, timeout=600):
    """Run the streams; (steps, {device: report}, the wire's fault log, cut) where cut
    says whether the unplug came while a frame from the unplugged end was on its way."""
    devices, make_ends, unplugged = MODELS[model]
    wire = Wire(seed=seed, **faults)
    ends = make_ends(wire)
    cut = {}

    def between(step):
        end = ends[unplugged]
        if step >= 40 and "at" not in cut and wire.in_flight(end):
            wire.unplug(end)                # mid-frame: a frame from `end` is on its way
            cut["at"], cut["cut"] = step, wire.log["cut"]
        if step == cut.get("at", -1) + unplug_ms // 2:
            wire.replug(end)
        wire.advance(2)

    vms = [mesh.VM(name, DEVICE % dict(transport=transport, peers=peers, epoch=20 + 40 * i,
                                       seed=_seed(model, name), n=n),
                   modules=("engine", "firmware", mesh.PROXY))
           for i, (name, (transport, peers)) in enumerate(devices.items())]
    steps, out = mesh.run(vms, lambda name, fn, arg: serve(ends, arg), steps=20000,
                          between=between, timeout=timeout)
    return steps, {name: o.report for name, o in out.items()}, wire.log, cut.get("cut", 0) >= 1


def main(argv=None, out=None):
    """Run one model and say whether every stream arrived whole, in order, once."""
    out = out or sys.stdout
    ap = argparse.ArgumentParser(prog="python -m tools.vm.mesh_streams", description=__doc__.split("\n")[0])
    ap.add_argument("--model", choices=sorted(MODELS), default="espnow")
    ap.add_argument("--seed", type=int, default=3)
    ap.add_argument("--messages", type=int, default=12)
    ap.add_argument("--clean", action="store_true", help="no faults (the unplug still happens)")
    args = ap.parse_args(argv)
    steps, reports, log, cut = run(args.model, args.seed, args.messages, {} if args.clean else FAULTS)
    want = expected(args.model, args.messages)
    print("%s, seed %d: %d VMs, %d steps of 2 ms; the wire: %s; unplugged mid-frame: %s"
          % (args.model, args.seed, len(reports), steps,
             ", ".join("%s %d" % kv for kv in sorted(log.items())), "yes" if cut else "no"), file=out)
    for name, got in reports.items():
        print("  %-7s received %s  %s" % (name, got, "as sent" if got == want[name] else
                                          "NOT as sent (want %s)" % want[name]), file=out)
    return 0 if reports == want else 1


if __name__ == "__main__":
    sys.exit(main())
