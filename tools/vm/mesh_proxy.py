"""The two sides of a mesh's wire (tools/vm/mesh.py), in the Python subset MicroPython runs.

Device side (in a VM): `ProxyUART(end)` and `ProxyRadio(end)` look like machine.UART and
espnow.ESPNow() to the firmware's transports; each call goes through `mesh.call("serve",
text)` to `serve(ends, text)` in the orchestrator, where `ends[end]` is a FakeUART or
FakeESPNow of tools/fakes/wire.py. `ticks()` reads the wire's clock. Also `stream(seed, i)`: the i-th message of a seeded stream, the
same bytes on CPython and MicroPython, and `Node`, a device that sends its streams over
a Link and keeps a digest of everything it receives.
"""
import binascii

try:
    import mesh
except ImportError:     # CPython: only stream() and digests are used there
    mesh = None



def _call(req):
    return mesh.call("serve", req)


def ticks():
    """The wire's clock in ms."""
    return int(_call("t"))


def _hex(buf):
    return binascii.hexlify(buf).decode()


class _Pin:
    def __init__(self, end):
        self.end = end

    def value(self):
        return int(_call("%d p" % self.end))


class ProxyUART:
    """machine.UART whose line is end `end` of the wire VM."""

    def __init__(self, end):
        self.end = end

    def write(self, buf):
        _call("%d w %s" % (self.end, _hex(buf)))
        return len(buf)

    def any(self):
        return int(_call("%d a" % self.end))

    def readinto(self, buf, nbytes=None):
        h = _call("%d r %d" % (self.end, len(buf) if nbytes is None else nbytes))
        if not h:
            return None
        data = binascii.unhexlify(h)
        buf[0:len(data)] = data
        return len(data)

    def txdone(self):
        return _call("%d d" % self.end) == "1"

    def rx_pin(self):
        return _Pin(self.end)


class ProxyRadio:
    """espnow.ESPNow() whose radio is end `end` of the wire VM."""

    def __init__(self, end):
        self.end = end
        self._none = (None, None)
        self._data = [None, bytearray(250)]

    def active(self, flag=None):
        return _call("%d A %d" % (self.end, -1 if flag is None else int(bool(flag)))) == "1"

    def add_peer(self, mac, *args):
        if _call("%d P %s" % (self.end, _hex(mac))):
            raise OSError(-12395, "ESP_ERR_ESPNOW_EXIST")

    def send(self, mac, msg, sync=True):
        return _call("%d s %s %s %d" % (self.end, _hex(mac), _hex(msg), int(sync))) == "1"

    def irecv(self, timeout_ms=None):
        h = _call("%d i" % self.end)
        if not h:
            return self._none
        mac, msg = h.split(" ")
        self._data[0] = binascii.unhexlify(mac)
        self._data[1] = bytearray(binascii.unhexlify(msg))
        return self._data


def serve(ends, req):
    """The wire's side: one call on one of `ends`, as text."""
    if req == "t":
        return str(ends[0].wire.ticks())
    parts = req.split(" ")
    e = ends[int(parts[0])]
    op = parts[1]
    if op == "w":
        e.write(binascii.unhexlify(parts[2]))
        return ""
    if op == "a":
        return str(e.any())
    if op == "r":
        data = e.read(int(parts[2]))
        return _hex(data) if data else ""
    if op == "p":
        return str(e.rx_idle())
    if op == "d":
        return "1" if e.txdone() else "0"
    if op == "A":
        flag = int(parts[2])
        return "1" if e.active(None if flag < 0 else flag) else "0"
    if op == "P":
        try:
            e.add_peer(binascii.unhexlify(parts[2]))
        except OSError:
            return "exists"
        return ""
    if op == "s":
        return "1" if e.send(binascii.unhexlify(parts[2]), binascii.unhexlify(parts[3]), parts[4] == "1") else "0"
    if op == "i":
        mac, msg = e.irecv(0)
        return "%s %s" % (_hex(mac), _hex(msg)) if mac is not None else ""
    raise ValueError(req)


def stream(seed, i):
    """Message i of stream `seed`: 0-200 bytes from a 24-bit LCG (the same everywhere)."""
    x = (seed * 7919 + i * 104729 + 1) & 0xFFFFFF
    x = (x * 1103515245 + 12345) & 0xFFFFFF
    n = x % 201
    out = bytearray(n)
    for k in range(n):
        x = (x * 1103515245 + 12345) & 0xFFFFFF
        out[k] = x >> 16
    return out


def digest_add(d, kind, payload):
    """A running digest of a received stream: CRC-16 chained over kind and bytes."""
    from firmware.link import crc16
    buf = bytearray(1 + len(payload))
    buf[0] = kind
    buf[1:] = payload
    return (d * 31 + crc16(buf, 0, len(buf))) & 0xFFFFFF


class Node:
    """A device sending `n` messages of stream (seed, peer index) to each of its peers over
    `link`, keeping per peer the count and digest of what arrives, in order."""

    def __init__(self, link, peers, seed, n):
        self.link, self.peers, self.seed, self.n = link, peers, seed, n
        self.sent = [0] * len(peers)
        self.got = [0] * len(peers)
        self.dig = [0] * len(peers)
        self.others = 0

    def step(self):
        """Send what fits, take what came; True when all is sent, acknowledged and heard."""
        link = self.link
        for j in range(len(self.peers)):
            i = self.sent[j]
            if i < self.n and link.send(self.peers[j], 16 + i % 240, stream(self.seed * 16 + j, i)):
                self.sent[j] = i + 1
        r = link.poll()
        if r is not None:
            addr, kind, payload = r
            for j in range(len(self.peers)):
                if self.peers[j] == addr:
                    self.got[j] += 1
                    self.dig[j] = digest_add(self.dig[j], kind, payload)
                    break
            else:
                self.others += 1
        for j in range(len(self.peers)):
            if self.sent[j] < self.n or link.pending(self.peers[j]):
                return False
        return True

    def report(self):
        """'got digest' per peer, space-separated."""
        return " ".join("%d:%06x" % (self.got[j], self.dig[j]) for j in range(len(self.peers)))
