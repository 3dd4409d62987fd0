"""The linked match in three MicroPython VMs, one a device (tools/vm/mesh.py): the host
with its AI seat and two clients, each running firmware.linkhost or linkclient over
firmware.link and its real transport, joined by the fake wire with its faults and a
pulled cable. The match ends exactly as the same seeded match on one device."""
import ast

import pytest

from tools.fakes.wire import Wire
from tools.sim import linkplay as lp
from tools.vm import mesh
from tools.vm.mesh_proxy import serve

NAMES, LEVELS = ["Hana", "Ivo", "Jun", "Greta"], [0, 0, 0, 2]
FAULTS = dict(drop=0.08, corrupt=0.05, duplicate=0.08, delay=20, reorder=0.08)
MACS = [bytes([2, 0, 0, 0, 0, i]) for i in range(1, 4)]
MODULES = ("engine", "firmware", mesh.PROXY, "tools/sim/linkplay.py")

COMMON = """
from array import array
import linkplay as lp
from firmware.link import Link
from firmware.link_uart import UartTransport
from firmware.link_espnow import EspNowTransport
from mesh_proxy import ProxyUART, ProxyRadio, ticks
%(transport)s
link = Link(t, ticks, epoch=%(epoch)d)
out = array("H", range(40))
"""
HOST = COMMON + """
from firmware.linkhost import HostGame, LinkHost
setup = lp.setup_of(%(names)r, %(levels)r, rounds=2)
setup["linked"] = [1, 2]
game = HostGame(setup, 7, 20)
log = []
game.on_change = lambda g: log.append(lp._entry(g))
host = LinkHost(link, game, "Hana")
host.started = True
waited = []
def step(_):
    lp.host_frame(host, ticks(), out)
    if host.waiting and log and host.waiting not in waited:   # mid-match
        waited.append(host.waiting)
    return "done" if lp.host_done(host) else ""
def report(_):
    return repr((log, waited))
"""
CLIENT = COMMON + """
from firmware.linkclient import LinkClient
c = LinkClient(link, %(name)r)
def step(_):
    lp.client_frame(c, ticks(), out)
    return "done" if c.game is not None and c.game.match_over() else ""
def report(_):
    return "%%d %%d" %% (c.game.me, c.game.told)
"""
MODELS = {   # transports by device, the wire's ends in the proxies' order, the end to pull
    "uart": (("t = UartTransport((ProxyUART(0), ProxyUART(1)))",
              "t = UartTransport((ProxyUART(2),))", "t = UartTransport((ProxyUART(3),))"),
             lambda w: (lambda a1, b1, a2, b2: [a1, a2, b1, b2])(*w.cable(), *w.cable()), 3),
    "espnow": (tuple("r = ProxyRadio(%d)\nr.active(True)\nt = EspNowTransport(r)" % i
                     for i in range(3)), lambda w: [w.radio(m) for m in MACS], 2),
}


def pulled_cable(wire, end, at, back):
    """mesh.run's `between`: the wire advances a frame a step, and `end`'s cable is pulled
    at step `at` and put back at step `back`; the dict returned gets "at" once pulled."""
    cut = {}

    def between(n):
        if n == at:
            wire.unplug(end)
            cut["at"] = n
        if n == back:
            wire.replug(end)
        wire.advance(lp.FRAME_MS)
    return between, cut


@pytest.mark.parametrize("model", ["uart", "espnow"])
def test_three_vms_play_a_linked_match_that_ends_as_on_one_device(model):
    transports, make_ends, pulled = MODELS[model]
    wire = Wire(seed=5, **FAULTS)
    ends = make_ends(wire)
    vms = [mesh.VM("host", HOST % dict(transport=transports[0], epoch=20, names=NAMES,
                                       levels=LEVELS), modules=MODULES)]
    vms += [mesh.VM(name, CLIENT % dict(transport=transports[k], epoch=60 + 40 * k, name=name),
                    modules=MODULES) for k, name in ((1, "Ivo"), (2, "Jun"))]
    between, cut = pulled_cable(wire, ends[pulled], 600, 1100)   # Jun's, 6 s into the match
    steps, out = mesh.run(vms, lambda name, fn, arg: serve(ends, arg), steps=20000,
                          between=between, timeout=900)
    assert "at" in cut, "the cable was pulled mid-match"
    for fault in ("dropped", "corrupted", "duplicated", "delayed", "reordered"):
        assert wire.log[fault], fault
    alone, game = lp.play_alone(lp.setup_of(NAMES, LEVELS, rounds=2), 7)
    log, waited = ast.literal_eval(out["host"].report)
    assert waited == ["Jun"]                   # mid-match it waited for the pulled cable
    assert log == alone
    assert out["Ivo"].report == "1 %d" % game.told and out["Jun"].report == "2 %d" % game.told
