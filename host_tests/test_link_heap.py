"""firmware/link.py in the MicroPython VM: an idle poll allocates nothing, a message costs
only its memoryviews, and the Link's heap is what docs/link-protocol.md says."""
from tools.vm import mpvm

SETUP = """
from firmware.link import Link
class Quiet:
    def __init__(self):
        self.frames = 0
    def send(self, addr, buf):
        self.frames += 1
    def broadcast(self, buf):
        self.frames += 1
    def recv_into(self, buf):
        return None
now = [0]
def ticks():
    return now[0]
t = Quiet()
link = Link(t, ticks, epoch=7)
link.send(0, 16, b'hello')          # a peer with a message waiting: HELLOs go out
"""


def test_an_idle_poll_allocates_nothing_even_while_it_retransmits():
    stmt = "for i in range(200):\n    now[0] += 50\n    link.poll()\nassert t.frames > 10"
    assert mpvm.measure_alloc(stmt, SETUP, modules=("engine", "firmware")) == 0


def test_each_peer_costs_its_window_and_little_more():
    main = SETUP + """
import gc
def cost(peers):
    gc.collect()
    a = gc.mem_alloc()
    keep = Link(t, ticks, peers=peers, epoch=7)
    gc.collect()
    return gc.mem_alloc() - a
print('LINK_HEAP', cost(1), cost(5))
"""
    out = mpvm.run(main, modules=("engine", "firmware")).check().stdout
    one, five = (int(x) for x in out.split("LINK_HEAP")[1].split())
    per_peer = (five - one) // 4
    print("a Link: %d B with 1 peer, %d B with 5; %d B a peer" % (one, five, per_peer))
    window = 4 * 224                    # four 210-byte frames in 16-byte blocks
    assert window <= per_peer <= window + 384     # + its views, lists and numbers


LOOP = """
from firmware.link import Link
from wire import Loopback
ta, tb = Loopback.pair()
now = [0]
def ticks():
    return now[0]
a, b = Link(ta, ticks, epoch=1), Link(tb, ticks, epoch=100)
msg = bytes(range(50))
def one():
    assert a.send(0, 16, msg)
    r = b.poll()                # delivers, acknowledges
    assert r[1] == 16 and r[2] == msg
    a.poll()                    # takes the ack
    assert a.pending(0) == 0
a.send(0, 16, b'meet')
for _ in range(4):
    a.poll()
    b.poll()
one()
"""


def test_a_message_costs_two_memoryviews_end_to_end():
    assert mpvm.measure_alloc("one()", LOOP, modules=("engine", "firmware", "tools/fakes/wire.py")) == 32
