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


def test_the_link_heap_is_its_windows_and_little_more():
    main = ("import gc\ngc.collect()\na = gc.mem_alloc()\nimport firmware.link\ngc.collect()\n"
            "b = gc.mem_alloc()\n" + SETUP + "gc.collect()\n"
            "print('LINK_HEAP', b - a, gc.mem_alloc() - b)\n")
    out = mpvm.run(main, modules=("engine", "firmware")).check().stdout
    module, link = (int(x) for x in out.split("LINK_HEAP")[1].split())
    print("firmware.link imported: %d B; a Link (5 peers, window 4): %d B" % (module, link))
    windows = 5 * 4 * 224                # 210-byte frames in 16-byte blocks
    assert windows <= link < windows + 3072     # + rx, broadcast, peers, the test transport
