"""VM proof of the wire: two to four MicroPython VMs, each running firmware/link.py and
its real transport, joined by the fake wire (tools/fakes/wire.py) that the orchestrator
holds (tools/vm/mesh.py). Seeded message streams arrive complete, in order, exactly once,
through drops, corruption, duplicates, delays, reordering and an unplug mid-frame."""
import pytest

from tools.fakes.wire import Wire
from tools.vm import mesh
from tools.vm.mesh_proxy import digest_add, serve, stream

N = 12                  # messages each way on each link
FAULTS = dict(drop=0.08, corrupt=0.05, duplicate=0.08, delay=20, reorder=0.08)
MACS = [bytes([2, 0, 0, 0, 0, i]) for i in range(1, 5)]

DEVICE = """
from firmware.link import Link
from firmware.link_uart import UartTransport
from firmware.link_espnow import EspNowTransport
from mesh_proxy import ProxyUART, ProxyRadio, Node, ticks
import binascii
%(transport)s
link = Link(t, ticks, epoch=%(epoch)d)
node = Node(link, %(peers)s, %(seed)d, %(n)d)
def step(_):
    return 'done' if node.step() else ''
def report(_):
    return node.report()
"""

# devices: name -> (transport source, peers source); the wire's ends; the end to unplug
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


def expected(model):
    """Each device's report when every stream arrived whole and in order, from CPython."""
    devices = list(MODELS[model][0])
    host, guests = devices[0], devices[1:]
    links = {host: guests, **{g: [host] for g in guests}}
    want = {}
    for d in devices:
        parts = []
        for peer in links[d]:
            j = links[peer].index(d)          # d's place in the sender's peer list
            dig = 0
            for i in range(N):
                dig = digest_add(dig, 16 + i % 240, stream(seed_of(peer, devices) * 16 + j, i))
            parts.append("%d:%06x" % (N, dig))
        want[d] = " ".join(parts)
    return want


def seed_of(name, devices):
    return 5 + devices.index(name)


def devices_of(model, seed):
    devices = MODELS[model][0]
    names = list(devices)
    return [mesh.VM(name, DEVICE % dict(transport=transport, peers=peers, epoch=20 + 40 * i,
                                        seed=seed_of(name, names), n=N),
                    modules=("engine", "firmware", mesh.PROXY))
            for i, (name, (transport, peers)) in enumerate(devices.items())]


@pytest.mark.parametrize("model", ["cable", "thumby", "espnow"])
def test_streams_arrive_whole_in_order_once_through_faults_and_an_unplug(model):
    _, make_ends, unplug = MODELS[model]
    wire = Wire(seed=3, **FAULTS)
    ends = make_ends(wire)
    cut = {}

    def between(n):
        end = ends[unplug]
        if n >= 40 and "at" not in cut and wire.in_flight(end):
            wire.unplug(end)                 # mid-frame: a frame from `end` is on its way
            cut["at"], cut["cut"] = n, wire.log["cut"]
        if n == cut.get("at", -1) + 1500:    # 3 s later: past the link timeout
            wire.replug(end)
        wire.advance(2)

    steps, out = mesh.run(devices_of(model, 3), lambda name, fn, arg: serve(ends, arg),
                          steps=20000, between=between, timeout=600)
    print(model, steps, "steps;", wire.log)
    assert cut["cut"] >= 1, "the unplug came while a frame was on its way"
    for fault in ("dropped", "corrupted", "duplicated", "delayed", "reordered"):
        assert wire.log[fault], fault
    want = expected(model)
    assert {name: out[name].report for name in want} == want
