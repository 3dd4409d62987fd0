"""An in-process wire joining handhelds, in virtual time, with seeded faults.

Two models of the medium, both driven by one `Wire` (its clock, its faults, its random
generator seeded for reproducible runs):

    wire = Wire(seed=7, drop=0.1, corrupt=0.05, duplicate=0.05, delay=30, reorder=0.1)
    a, b = wire.cable(baud=115200)             # fake machine.UART ends: TX to RX, RX to TX
    t1, t2 = wire.cable(half_duplex=True)      # the Thumby's one-wire link port: echo, collisions
    radio = wire.radio(b"\\x02\\x00\\x00\\x00\\x00\\x01")   # ESPNow(): MicroPython's espnow API
    wire.advance(5)                            # 5 ms pass; ticks() reads the clock

Faults apply to each write (a frame, as firmware/link.py writes one frame at a time) or
message: `drop`, `corrupt` (one byte changed), `duplicate` (it arrives twice), `delay`
(up to that many ms late), `reorder` (held back past the next ones). A cable also takes
`noise` (a chance per write of a few garbage bytes on the line). `unplug(end)` cuts a
cable or takes a radio out of range at this instant, mid-frame if a frame is on the wire
(its remaining bytes are lost); `replug(end)` joins it again. A byte takes 10 bits of
time at the cable's baud rate. Written in the Python subset MicroPython runs, so the same
file is the wire in the simulator, in CPython tests and inside the VM.
"""
import random

BROADCAST = b"\xff" * 6
MAX_DATA_LEN = 250          # espnow.MAX_DATA_LEN
ADDR_LEN = 6


class Wire:
    """The clock, the fault settings and the random generator every end shares."""

    def __init__(self, seed=0, drop=0.0, corrupt=0.0, duplicate=0.0, delay=0, reorder=0.0,
                 noise=0.0):
        self.rng = random.Random(seed) if hasattr(random, "Random") else _Rng(seed)
        self.drop, self.corrupt, self.duplicate = drop, corrupt, duplicate
        self.delay, self.reorder, self.noise = delay, reorder, noise
        self.now_us = 0
        self.ends = []
        self.log = {"writes": 0, "dropped": 0, "corrupted": 0, "duplicated": 0,
                    "delayed": 0, "reordered": 0, "cut": 0, "noise": 0, "collided": 0}

    def ticks(self):
        """Milliseconds of virtual time: the Link's clock."""
        return self.now_us // 1000

    def advance(self, ms):
        """Let `ms` milliseconds pass."""
        self.now_us += int(ms * 1000)

    def faults_off(self):
        """A clean wire from now on (the end of a fault test: let everything settle)."""
        self.drop = self.corrupt = self.duplicate = self.reorder = self.noise = 0.0
        self.delay = 0

    def chance(self, p):
        """True with probability p (from the seeded generator)."""
        return p > 0 and self.rng.random() < p

    def fate(self, data):
        """The copies of `data` that arrive and the extra delay (us) of each, faults applied."""
        self.log["writes"] += 1
        if self.chance(self.drop):
            self.log["dropped"] += 1
            return []
        if self.chance(self.corrupt):
            data = bytearray(data)
            i = self.rng.randrange(len(data))
            data[i] ^= 1 << self.rng.randrange(8)
            self.log["corrupted"] += 1
        copies = [bytes(data)]
        if self.chance(self.duplicate):
            copies.append(bytes(data))
            self.log["duplicated"] += 1
        out = []
        for c in copies:
            late = 0
            if self.delay and self.chance(0.5):
                late = self.rng.randrange(self.delay * 1000 + 1)
                self.log["delayed"] += 1
            if self.chance(self.reorder):
                late += (self.delay or 20) * 1000
                self.log["reordered"] += 1
            out.append((c, late))
        return out

    def cable(self, baud=115200, half_duplex=False, rxbuf=1024):
        """Two fake machine.UART ends joined by a cable (TX to RX, RX to TX, GND), or the
        ends of one shared wire (half_duplex: each end hears its own bytes too)."""
        a = FakeUART(self, baud, rxbuf)
        b = FakeUART(self, baud, rxbuf)
        if half_duplex:
            a.hears = b.hears = (a, b)
        else:
            a.hears, b.hears = (b,), (a,)
        a.line = b.line = [a, b]
        self.ends += [a, b]
        return a, b

    def radio(self, mac):
        """A fake `espnow.ESPNow()` with this MAC, in range of every other radio."""
        r = FakeESPNow(self, bytes(mac))
        self.ends.append(r)
        return r

    def in_flight(self, end):
        """True while bytes or a message from `end` are on their way to another end."""
        now = self.now_us
        for e in self.ends:
            if e is not end:
                for x in e.inbox:
                    if x[0] > now and (x[2] is end if isinstance(e, FakeUART)
                                       else x[1] == getattr(end, "mac", None)):
                        return True
        return False

    def unplug(self, end):
        """Cut this end off now; bytes and messages still on the way to or from it are lost."""
        end.plugged = False
        for e in self.ends:
            e.cut(self.now_us, end)

    def replug(self, end):
        """Join this end again."""
        end.plugged = True


class _Rng:
    """random.Random's few methods on MicroPython's module-level generator."""

    def __init__(self, seed):
        random.seed(seed)

    def random(self):
        return random.getrandbits(24) / 16777216

    def randrange(self, n):
        return random.getrandbits(24) % n if n > 1 else 0


class FakeUART:
    """machine.UART at a baud rate: write, any, read, readinto; bytes arrive in time."""

    def __init__(self, wire, baud, rxbuf):
        self.wire, self.baud, self.rxbuf = wire, baud, rxbuf
        self.byte_us = 10 * 1000000 // baud
        self.plugged = True
        self.tx_free = 0            # when our last byte has left
        self.inbox = []             # [arrival_us, byte, sender] in arrival order
        self.runs = []              # (from, to) us of our frames still on the way
        self.overflow = 0

    def _line_busy_until(self):
        return max(e.tx_free for e in self.line)

    def rx_idle(self):
        """The RX pin's level: 1 when no byte is on the line now (a half-duplex carrier sense)."""
        now = self.wire.now_us
        for e in self.line:
            if e.tx_free > now:
                return 0
        return 1

    def rx_pin(self):
        """A machine.Pin stand-in for the RX pin: value() is rx_idle()."""
        return _RxPin(self)

    def write(self, buf):
        """Queue bytes on the line; returns how many (all of them)."""
        w = self.wire
        data = bytes(buf)
        start = max(w.now_us, self.tx_free)
        self.tx_free = start + len(data) * self.byte_us
        if self in self.hears:      # one wire joins TX and RX on the board: our own bytes
            for i, v in enumerate(data):    # come back as they went, plugged in or not
                self._arrive(start + (i + 1) * self.byte_us, v, self)
        if not self.plugged:
            return len(data)
        for copy, late in w.fate(data):
            if w.chance(w.noise):
                w.log["noise"] += 1
                copy = bytes(w.rng.randrange(256) for _ in range(1 + w.rng.randrange(4))) + copy
            t = self._slot(start + late, len(copy) * self.byte_us)
            for i, v in enumerate(copy):
                at = t + (i + 1) * self.byte_us
                for end in self.hears:
                    if end is not self and end.plugged:
                        end._arrive(at, v, self)
        return len(data)

    def _slot(self, t, span):
        """The first time from t when a run of `span` us fits between our runs still on
        the way: a late frame arrives whole, before or after others, never mixed in."""
        now = self.wire.now_us
        self.runs = [r for r in self.runs if r[1] > now]
        moved = True
        while moved:
            moved = False
            for r in self.runs:
                if t < r[1] and r[0] < t + span:
                    t = r[1]
                    moved = True
        self.runs.append((t, t + span))
        return t

    def _arrive(self, at, v, sender):
        box = self.inbox
        for item in box:            # two senders on one wire at once: the bytes collide
            if item[2] is not sender and abs(item[0] - at) < self.byte_us:
                item[1] &= v
                v = item[1]
                self.wire.log["collided"] += 1
        i = len(box)
        while i and box[i - 1][0] > at:
            i -= 1
        box.insert(i, [at, v, sender])

    def cut(self, now, end):
        """Lose what was still on its way to or from `end` at `now`."""
        if end is self:
            self.inbox = [x for x in self.inbox if x[0] <= now or x[2] is self]
        else:
            before = len(self.inbox)
            self.inbox = [x for x in self.inbox if x[0] <= now or x[2] is not end]
            if len(self.inbox) != before:
                self.wire.log["cut"] += 1

    def _ready(self):
        now = self.wire.now_us
        n = 0
        for item in self.inbox:
            if item[0] > now:
                break
            n += 1
        if n > self.rxbuf:          # the FIFO overflowed: the oldest bytes are gone
            self.overflow += n - self.rxbuf
            del self.inbox[:n - self.rxbuf]
            n = self.rxbuf
        return n

    def any(self):
        """Bytes waiting to be read."""
        return self._ready()

    def readinto(self, buf, nbytes=None):
        """Read waiting bytes into buf; the count, or None when there are none."""
        n = min(self._ready(), len(buf) if nbytes is None else nbytes)
        if not n:
            return None
        for i in range(n):
            buf[i] = self.inbox[i][1]
        del self.inbox[:n]
        return n

    def read(self, nbytes=None):
        """Waiting bytes as bytes, or None."""
        n = self._ready() if nbytes is None else min(nbytes, self._ready())
        if not n:
            return None
        out = bytes(x[1] for x in self.inbox[:n])
        del self.inbox[:n]
        return out

    def txdone(self):
        """True when every written byte has left."""
        return self.tx_free <= self.wire.now_us


class _RxPin:
    """The RX pin of a FakeUART: reads 1 while the line is idle."""

    def __init__(self, uart):
        self.uart = uart

    def value(self):
        return self.uart.rx_idle()


class FakeESPNow:
    """espnow.ESPNow(): active, add_peer, send, recv, irecv, recvinto, any; 250-byte
    messages, the broadcast peer b'\\xff' * 6, no delivery guarantee."""

    def __init__(self, wire, mac):
        self.wire, self.mac = wire, mac
        self.plugged = True
        self._active = False
        self.peers = []
        self.inbox = []             # [arrival_us, mac, msg]
        self._data = [None, bytearray(MAX_DATA_LEN)]
        self.airtime_us = 1000      # per message: the radio's turn-around and header
        self.tx_free = 0            # when our last message has left
        self.byte_us = 8            # 1 Mbit/s

    def active(self, flag=None):
        """Switch ESP-NOW on or off (a WLAN interface must be active first on a device)."""
        if flag is not None:
            self._active = bool(flag)
        return self._active

    def add_peer(self, mac, *args, **kw):
        """Register a peer; OSError when it is already registered (ESP_ERR_ESPNOW_EXIST)."""
        mac = bytes(mac)
        if len(mac) != ADDR_LEN:
            raise ValueError("invalid MAC address")
        if mac in self.peers:
            raise OSError(-12395, "ESP_ERR_ESPNOW_EXIST")
        self.peers.append(mac)

    def del_peer(self, mac):
        """Unregister a peer."""
        self.peers.remove(bytes(mac))

    def send(self, mac, msg, sync=True):
        """Send to a registered peer, or every peer (mac None), or all radios (broadcast)."""
        if not self._active:
            raise OSError(-12389, "ESP_ERR_ESPNOW_NOT_INIT")
        if len(msg) > MAX_DATA_LEN:
            raise ValueError("msg too long")
        targets = self.peers if mac is None else [bytes(mac)]
        for m in targets:
            if m not in self.peers:
                raise OSError(-12393, "ESP_ERR_ESPNOW_NOT_FOUND")
        w = self.wire
        data = bytes(msg)
        start = max(w.now_us, self.tx_free)     # one message on the air at a time
        self.tx_free = start + self.airtime_us + len(data) * self.byte_us
        ok = True
        for m in targets:
            for r in w.ends:
                if r is self or not isinstance(r, FakeESPNow) or not (m == BROADCAST or m == r.mac):
                    continue
                if not (self.plugged and r.plugged and r._active):
                    ok = False
                    continue
                fates = w.fate(data)
                ok = ok and bool(fates)
                for copy, late in fates:
                    r._arrive(self.tx_free + late, self.mac, copy)
        return ok if sync else True

    def _arrive(self, at, mac, msg):
        box = self.inbox
        i = len(box)
        while i and box[i - 1][0] > at:
            i -= 1
        box.insert(i, [at, mac, msg])

    def cut(self, now, end):
        """Lose the messages still in the air to or from `end`."""
        before = len(self.inbox)
        if end is self:
            self.inbox = [x for x in self.inbox if x[0] <= now]
        else:
            self.inbox = [x for x in self.inbox if x[0] <= now or x[1] != getattr(end, "mac", None)]
        if len(self.inbox) != before:
            self.wire.log["cut"] += 1

    def any(self):
        """True when a message is waiting."""
        return bool(self.inbox) and self.inbox[0][0] <= self.wire.now_us

    def recvinto(self, data, timeout_ms=None):
        """Fill data = [mac, bytearray(250)] with the next message; its length, or 0."""
        if not self.any():
            return 0
        _, mac, msg = self.inbox.pop(0)
        data[0] = mac
        buf = data[1]
        buf[:] = msg
        return len(msg)

    def irecv(self, timeout_ms=None):
        """[mac, msg] in buffers reused by the next call, or (None, None)."""
        return self._data if self.recvinto(self._data, timeout_ms) else (None, None)

    def recv(self, timeout_ms=None):
        """[mac, msg] as new bytes, or (None, None)."""
        if not self.recvinto(self._data, timeout_ms):
            return (None, None)
        return [self._data[0], bytes(self._data[1])]


class Loopback:
    """One end of two transports joined directly (`a, b = Loopback.pair()`): a frame
    sent is the other end's next frame; no time, no faults, no allocation. For measuring
    the Link itself (heap, CPU)."""

    def __init__(self, size=256):
        self.box = bytearray(size)
        self.n = 0
        self.r = [0, 0]
        self.other = None

    @classmethod
    def pair(cls):
        """Two joined ends."""
        a, b = cls(), cls()
        a.other, b.other = b, a
        return a, b

    def send(self, addr, buf):
        """Put the frame in the other end's box (replacing one not yet read)."""
        o = self.other
        n = len(buf)
        box = o.box
        for i in range(n):
            box[i] = buf[i]
        o.n = n

    def broadcast(self, buf):
        """As send."""
        self.send(0, buf)

    def recv_into(self, buf):
        """The frame in our box: [0, size], or None."""
        n = self.n
        if not n:
            return None
        box = self.box
        for i in range(n):
            buf[i] = box[i]
        self.n = 0
        self.r[1] = n
        return self.r

