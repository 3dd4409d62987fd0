"""The wire's figures, printed, not asserted (firmware/link.py over tools/fakes/wire.py):

    python -m tools.bench.link [--sizes 8,50,200] [--poll-ms 10] [--no-vm]

- bytes on the wire per message of a given size, its frame and the acknowledgement
  (one message at a time, then a window of them back to back);
- time per message, from send() to the sender seeing its ack, in the wire's virtual time:
  on the UART model at 115,200 baud (a byte is 10 bits: 86.8 us) and on the ESP-NOW model
  (1 ms a message plus 8 us a byte), with both ends polling every --poll-ms;
- recovery after an unplug: from replugging the cable (or the radio coming back in range)
  to the first message that was waiting being delivered;
- the same through the tests' faults;
- the heap firmware/link.py keeps in the MicroPython VM (module, and a Link of 5 peers),
  and the CPU a message costs there, scaled to an RP2040 by the calibration loop
  (/work/shared/MICROPYTHON_VM.md). The wire times above do not include that CPU time.
"""
import argparse
import sys

from firmware.link import Link
from firmware.link_espnow import EspNowTransport
from firmware.link_uart import UartTransport
from tools.fakes.wire import Wire


def _pair(model, wire):
    if model == "espnow":
        ra, rb = wire.radio(b"\x02\x00\x00\x00\x00\x01"), wire.radio(b"\x02\x00\x00\x00\x00\x02")
        ra.active(True)
        rb.active(True)
        return Link(EspNowTransport(ra), wire.ticks, epoch=1), Link(EspNowTransport(rb), wire.ticks, epoch=90), rb.mac, ra
    ua, ub = wire.cable(baud=115200, half_duplex=model == "thumby")
    half = model == "thumby"
    return (Link(UartTransport((ua,), half, ua.rx_pin()), wire.ticks, epoch=1),
            Link(UartTransport((ub,), half, ub.rx_pin()), wire.ticks, epoch=90), 0, ua)


def _bytes_on_wire(wire):
    return sum(len(e.inbox) for e in wire.ends)


def _run(wire, a, b, to_b, until, poll_ms, limit=200000):
    """Poll both every poll_ms until until() is true; virtual ms taken."""
    t0 = wire.now_us
    for _ in range(limit):
        if until():
            break
        a.poll()
        b.poll()
        wire.advance(poll_ms)
    return (wire.now_us - t0) / 1000


def per_message(model, size, count, poll_ms):
    """(wire bytes per message, ms per message) for `count` messages of `size` bytes."""
    wire = Wire(seed=1)
    a, b, to_b, _ = _pair(model, wire)
    a.send(to_b, 16, b"hi")                          # meet first (HELLO, ACK)
    _run(wire, a, b, to_b, lambda: not a.pending(to_b), poll_ms)
    counted = _Counter(wire)
    payload = bytes(size)
    sent = [0]

    def done():
        while sent[0] < count and a.send(to_b, 16, payload):
            sent[0] += 1
        return sent[0] == count and not a.pending(to_b)

    ms = _run(wire, a, b, to_b, done, poll_ms)
    return counted.total() / count, ms / count


class _Counter:
    """Bytes written to every end of the wire from now on."""

    def __init__(self, wire):
        self.n = 0
        for e in wire.ends:
            if hasattr(e, "write"):
                self._wrap(e, "write", lambda buf: len(buf))
            else:
                self._wrap(e, "send", lambda mac, msg, sync=True: len(msg))

    def _wrap(self, e, name, size):
        real = getattr(e, name)

        def counted(*args, **kw):
            self.n += size(*args, **kw)
            return real(*args, **kw)
        setattr(e, name, counted)

    def total(self):
        return self.n


def faulty(model, poll_ms, count=32, seeds=6):
    """ms per 50-byte message through the faults of the tests, the mean of `seeds` runs."""
    total = 0
    for seed in range(1, seeds + 1):
        wire = Wire(seed=seed, drop=0.1, corrupt=0.05, duplicate=0.05, delay=20, reorder=0.1)
        a, b, to_b, _ = _pair(model, wire)
        sent = [0]

        def done():
            while sent[0] < count and a.send(to_b, 16, bytes(50)):
                sent[0] += 1
            return sent[0] == count and not a.pending(to_b)

        total += _run(wire, a, b, to_b, done, poll_ms) / count
    return total / seeds


def recovery(model, poll_ms, away_ms=3000):
    """ms from replug to the first waiting message delivered."""
    wire = Wire(seed=2)
    a, b, to_b, end = _pair(model, wire)
    a.send(to_b, 16, b"hi")
    _run(wire, a, b, to_b, lambda: not a.pending(to_b), poll_ms)
    wire.unplug(end)
    a.send(to_b, 17, b"while away")
    _run(wire, a, b, to_b, lambda: False, poll_ms, limit=int(away_ms / poll_ms))
    wire.replug(end)
    got = []

    def delivered():
        r = b.poll()
        if r:
            got.append(r[1])
        return 17 in got

    t0 = wire.now_us
    for _ in range(100000):
        if delivered():
            break
        a.poll()
        wire.advance(poll_ms)
    return (wire.now_us - t0) / 1000


VM_FIGURES = """
import gc, time
import firmware.link as L
from wire import Loopback
def calibration():
    s = 0
    for _ in range(100000):
        s += 1
def heap():
    gc.collect()
    a = gc.mem_alloc()
    keep = L.Link(Loopback(), lambda: 0, epoch=1)
    gc.collect()
    return gc.mem_alloc() - a
ta, tb = Loopback.pair()
a, b = L.Link(ta, lambda: 0, epoch=1), L.Link(tb, lambda: 0, epoch=100)
a.send(0, 16, b'meet')
for _ in range(4):
    a.poll()
    b.poll()
msg = bytes(200)
def message():
    a.send(0, 16, msg)
    b.poll()
    a.poll()
def ms(f, n):
    t0 = time.ticks_ms()
    for _ in range(n):
        f()
    return time.ticks_diff(time.ticks_ms(), t0) / n
buf = bytearray(210)
print('FIGURES', heap(), ms(calibration, 3), ms(message, 300), ms(lambda: L.crc16(buf, 2, 208), 300))
"""


def vm_figures():
    """A Link's heap (5 peers) and the CPU a 200-byte message costs in the VM: (heap bytes,
    calibration loop ms, message ms, CRC of a full frame ms)."""
    from tools.vm import mpvm
    before = "import gc\ngc.collect()\n_a = gc.mem_alloc()\nimport firmware.link\ngc.collect()\nprint('MODULE', gc.mem_alloc() - _a)\n"
    out = mpvm.run(before + VM_FIGURES, modules=("engine", "firmware", "tools/fakes/wire.py")).check().stdout
    module = int(out.split("MODULE")[1].split()[0])
    heap, cal, message, crc = out.split("FIGURES")[1].split()
    return module, int(heap), float(cal), float(message), float(crc)


RP2040_CALIBRATION_MS = 475     # /work/shared/MICROPYTHON_VM.md: the same loop on the board


def main(argv=None, out=None):
    """Print the figures."""
    out = out or sys.stdout
    ap = argparse.ArgumentParser(prog="python -m tools.bench.link", description=__doc__.split("\n")[0])
    ap.add_argument("--sizes", default="8,50,200")
    ap.add_argument("--poll-ms", type=float, default=10)
    ap.add_argument("--no-vm", action="store_true", help="skip the VM heap figure")
    args = ap.parse_args(argv)
    sizes = [int(s) for s in args.sizes.split(",")]
    print("wire: bytes per message (frame + ack) and virtual ms per message, polling every %g ms"
          % args.poll_ms, file=out)
    for model in ("cable", "thumby", "espnow"):
        for size in sizes:
            one_b, one_ms = per_message(model, size, 1, args.poll_ms)
            many_b, many_ms = per_message(model, size, 32, args.poll_ms)
            print("  %-6s %3d B: one at a time %5.1f B %6.1f ms; 32 in a row %5.1f B %6.1f ms each"
                  % (model, size, one_b, one_ms, many_b, many_ms), file=out)
    for model in ("cable", "thumby", "espnow"):
        print("  %-6s recovery after an unplug of 3 s: %.0f ms from replug to delivery"
              % (model, recovery(model, args.poll_ms)), file=out)
    for model in ("cable", "thumby", "espnow"):
        print("  %-6s with faults (10%% dropped, 5%% corrupted, 5%% doubled, 10%% reordered): "
              "%.1f ms a 50-byte message, 32 in a row (mean of 6 seeds)" % (model, faulty(model, args.poll_ms)), file=out)
    if not args.no_vm:
        module, heap, cal, message, crc = vm_figures()
        scale = RP2040_CALIBRATION_MS / cal
        print("  heap in the VM: the firmware.link module %d B; a Link (5 peers, window 4) %d B"
              % (module, heap), file=out)
        print("  CPU, a 200-byte message sent, delivered and acknowledged (both ends, over a "
              "loopback): %.2f ms in the VM, about %.1f ms on an RP2040 (calibration loop x%.1f);"
              " the CRC of a full frame %.2f ms, about %.1f ms"
              % (message, message * scale, scale, crc, crc * scale), file=out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
