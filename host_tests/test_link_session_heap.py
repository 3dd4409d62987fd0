"""The link session's frames allocate nothing in MicroPython while nothing happens: a host
waiting for a linked seat's move and a client waiting for the others (between the beacon
and the heartbeat, which send), measured in the VM from .mpy files with gc.mem_alloc."""
from tools.vm import mpvm

SETUP = """
import gc
import linkplay as lp
from wire import Wire
from linked import links
w = Wire(seed=7)
setup = lp.setup_of(["Hana", "Ivo", "Jun", "Greta"], [0, 0, 0, 2], rounds=2)
def clock(now):
    w.now_us = now * 1000
t = lp.Table(setup, 7, links("espnow", w, 3), ["Ivo", "Jun"], clock=clock)
t.idle.update(t.clients)                 # the clients' players think for ever
t.run(until=lambda t: t.game.linked_to_move() >= 0 and not t.host.behind
      and all(c.game is not None and c.game.n_moves == t.game.n_moves for c in t.clients))
t.run(frames=50)                          # the last answers settle
for d in [t.host] + t.clients:            # from now on the wire is quiet
    d.link.poll = lambda: None
    d.link.up = lambda peer: True
"""
MEASURE = """
def idle(device, start):
    gc.collect()
    gc.disable()
    before = gc.mem_alloc()
    for i in range(30):
        device.tick(start + 10 * i)
    used = gc.mem_alloc() - before
    gc.enable()
    return used
host = t.host
host.tick(t.now)                          # beacon now, the next one 500 ms on
c = t.clients[0]
c.tick(t.now)                             # heartbeat now, the next 1 s on
print("HOST", idle(host, t.now + 10), "CLIENT", idle(c, t.now + 10))
"""


def test_an_idle_frame_of_the_host_and_of_a_client_allocates_nothing():
    result = mpvm.run(SETUP, modules=("engine", "firmware", "tools/fakes/wire.py",
                                      "tools/sim/linked.py", "tools/sim/linkplay.py"),
                      steps=[MEASURE], timeout=300).check()
    line = [l for l in result.stdout.splitlines() if l.startswith("HOST")][0]
    assert line == "HOST 0 CLIENT 0", line
