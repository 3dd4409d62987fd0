"""The wire: numbered, acknowledged messages to peers over one transport.

A frame (docs/link-protocol.md has it byte by byte):

    A5 4D LEN KIND SEQ ACK FROM TO payload[LEN] CRC_HI CRC_LO

two sync bytes, the payload's length, its kind (0-15 the wire's own, 16-255 the session's),
the frame's sequence number, the next number the sender expects from us, the sender's
epoch toward us and the epoch of ours it knows (0: none yet), then CRC-16/CCITT-FALSE
over LEN..payload. A reliable message waits in a window of WINDOW per peer until
acknowledged, and goes out again (with all after it) when no ack comes in RETRY_MS; the
receiver takes only the next number, so each message arrives once and in order. An
epoch is drawn for each new acquaintance: a changed one is a restarted or forgetful
peer, and the numbering both ways starts again from 0 (the window goes out renumbered).
Each unanswered retry doubles the wait, up to 4 x RETRY_MS; an ack brings it back. A
receiver that sees a later frame first says so (an ACK with SEQ 1): the window goes out
again at once, once until the next ack.
A broadcast (TO 0, a session kind) is neither numbered nor acknowledged.

A transport has send(addr, buf), broadcast(buf) and recv_into(buf) -> None or (addr, n),
one whole frame at a time (a stream transport cuts frames out with `find_frame`, which
checks the CRC, and says so with `checked = True`); addr
is hashable and compared with ==. An idle poll allocates nothing; a message sent or
delivered costs one 16-byte memoryview.
"""
from array import array

from engine.compat import const, ticks_ms, ticks_add, ticks_diff

MAX_PAYLOAD = const(200)
HEADER = const(8)
FRAME_MAX = const(210)          # HEADER + MAX_PAYLOAD + 2 CRC bytes
_SYNC0 = const(0xA5)
_SYNC1 = const(0x4D)
ACK = const(0)                  # a bare acknowledgement (also the keep-alive)
HELLO = const(1)                # "who are you?": asks for the peer's epoch
WINDOW = const(4)               # unacknowledged messages per peer
RETRY_MS = const(120)
KEEPALIVE_MS = const(500)
TIMEOUT_MS = const(2000)        # up(peer) is False after this long unheard


def _crc_table():
    t = array("H", bytes(512))
    for i in range(256):
        c = i << 8
        for _ in range(8):
            c = ((c << 1) ^ 0x1021) if c & 0x8000 else (c << 1)
        t[i] = c & 0xFFFF
    return t


_T = _crc_table()


def crc16(buf, start, end):
    """CRC-16/CCITT-FALSE of buf[start:end] (no allocation)."""
    t = _T
    c = 0xFFFF
    for i in range(start, end):
        c = ((c << 8) & 0xFFFF) ^ t[(c >> 8) ^ buf[i]]
    return c


def seal(buf, n):
    """Write the CRC of a frame of payload length n into buf; return the frame's length."""
    end = HEADER + n
    c = crc16(buf, 2, end)
    buf[end] = c >> 8
    buf[end + 1] = c & 0xFF
    return end + 2


def find_frame(buf, start, end):
    """In buf[start:end], (offset, length) of the first whole valid frame, or (offset, 0)
    where a frame may still be completing (offset = end when nothing can start there)."""
    i = start
    while i < end:
        if buf[i] != _SYNC0 or (i + 1 < end and buf[i + 1] != _SYNC1):
            i += 1
            continue
        if i + 3 > end:
            return i, 0
        n = buf[i + 2]
        if n > MAX_PAYLOAD:
            i += 1
            continue
        size = HEADER + n + 2
        if i + size > end:
            return i, 0
        c = crc16(buf, i + 2, i + HEADER + n)
        if buf[i + size - 2] == c >> 8 and buf[i + size - 1] == c & 0xFF:
            return i, size
        i += 1
    return end, 0


def _random_byte():
    """0-255 from the hardware's generator (os.urandom), else the random module's."""
    try:
        from os import urandom
        return urandom(1)[0]
    except ImportError:
        from random import getrandbits
        return getrandbits(8)


class _Peer:
    """One peer's numbering, window and clocks."""

    def __init__(self):
        self.slots = [bytearray(FRAME_MAX) for _ in range(WINDOW)]
        self.whole = [memoryview(b) for b in self.slots]
        self.views = [None] * WINDOW    # each waiting frame, cut to its length
        self.addr = None

    def reset(self, addr, mine, now):
        self.addr = addr
        self.mine = mine        # our epoch toward this peer
        self.epoch = 0          # theirs toward us; 0 until heard
        self.rx_next = 0        # the next number we take from them
        self.base = 0           # the number of the oldest unacknowledged message
        self.head = 0           # its slot
        self.count = 0          # messages in the window
        self.heard = None       # ticks of the last valid frame from them
        self.sent = now         # ticks of the last frame to them
        self.due = now          # when the window goes out again
        self.wait = 0           # how long to wait for an ack: RETRY_MS, doubled to 4x
        self.fast = False       # the window went out again on a gap: not again until acked


class Link:
    """Numbered, acknowledged messages to peers over one transport."""

    def __init__(self, transport, ticks=None, peers=5, epoch=None):
        self.t = transport
        self._checked = getattr(transport, "checked", False)  # it verified each CRC already
        self.ticks = ticks or ticks_ms
        self._epoch = (_random_byte() if epoch is None else epoch) % 255 + 1
        self.retry = RETRY_MS + (self._epoch & 15)   # two devices do not retry in step
        self._peers = [_Peer() for _ in range(peers)]
        self._rx = bytearray(FRAME_MAX)
        self._rxv = memoryview(self._rx)
        self._got = [None, 0, None]     # poll's answer, reused
        self._ctl = bytearray(HEADER + 2)
        self._ctl[0], self._ctl[1] = _SYNC0, _SYNC1
        self._bc = bytearray(FRAME_MAX)
        self._bc[0], self._bc[1] = _SYNC0, _SYNC1
        self._bcv = memoryview(self._bc)
        self.sent_frames = self.resent_frames = self.bad_frames = 0

    def _draw(self):
        """A fresh epoch (1-255) for a peer: each new acquaintance gets the next one."""
        self._epoch = self._epoch % 255 + 1
        return self._epoch

    def _find(self, addr):
        for p in self._peers:
            if p.addr is not None and p.addr == addr:
                return p
        return None

    def _peer(self, addr):
        p = self._find(addr)
        if p is None:
            for q in self._peers:
                if q.addr is None:
                    q.reset(addr, self._draw(), self.ticks())
                    q.wait = self.retry
                    return q
        return p

    def send(self, peer, kind, payload):
        """Queue a reliable message; False when the peer's window is full (or no room)."""
        n = len(payload)
        if n > MAX_PAYLOAD or kind < 16 or kind > 255:
            raise ValueError("kind %d, %d bytes" % (kind, n))
        p = self._peer(peer)
        if p is None or p.count == WINDOW:
            return False
        i = (p.head + p.count) % WINDOW
        b = p.slots[i]
        b[0] = _SYNC0                    # (one by one: a 4-tuple assignment allocates)
        b[1] = _SYNC1
        b[2] = n
        b[3] = kind
        b[HEADER:HEADER + n] = payload
        p.views[i] = p.whole[i][:HEADER + n + 2]
        p.count += 1
        now = self.ticks()
        if p.count == 1 or ticks_diff(now, p.due) < 0:
            if p.epoch:
                self._transmit(p, p.count - 1)      # else the next poll says HELLO
            elif p.count == 1:
                p.due = now
        return True

    def broadcast(self, kind, payload):
        """Send an unreliable message to everyone (discovery, "host here")."""
        n = len(payload)
        if n > MAX_PAYLOAD or kind < 16 or kind > 255:
            raise ValueError("kind %d, %d bytes" % (kind, n))
        b = self._bc
        b[2] = n
        b[3] = kind
        b[4] = b[5] = b[6] = b[7] = 0
        b[HEADER:HEADER + n] = payload
        self.t.broadcast(self._bcv[:seal(b, n)])
        self.sent_frames += 1

    def up(self, peer):
        """True when the peer was heard within TIMEOUT_MS."""
        p = self._find(peer)
        return (p is not None and p.heard is not None
                and ticks_diff(self.ticks(), p.heard) < TIMEOUT_MS)

    def pending(self, peer):
        """Messages to the peer not yet acknowledged."""
        p = self._find(peer)
        return p.count if p else 0

    def forget(self, peer):
        """Drop a peer's state (it left or was replaced)."""
        p = self._find(peer)
        if p is not None:
            p.addr = None
            for i in range(WINDOW):
                p.views[i] = None

    def _transmit(self, p, j):
        """Send window message j (0 = oldest) with the current numbers and ack."""
        i = (p.head + j) % WINDOW
        b = p.slots[i]
        b[4] = (p.base + j) & 0xFF
        b[5] = p.rx_next
        b[6] = p.mine
        b[7] = p.epoch
        seal(b, b[2])
        self.t.send(p.addr, p.views[i])
        now = self.ticks()
        p.sent = now
        p.due = ticks_add(now, p.wait)
        self.sent_frames += 1

    def _control(self, p, kind, gap=0):
        """Send an ACK (our numbers; gap 1: a later frame came first) or a HELLO (asks
        the peer for its epoch)."""
        b = self._ctl
        b[2] = 0
        b[3] = kind
        b[4] = gap
        b[5] = p.rx_next
        b[6] = p.mine
        b[7] = p.epoch if kind == ACK else 0
        seal(b, 0)
        self.t.send(p.addr, b)
        p.sent = self.ticks()
        self.sent_frames += 1

    def _timers(self):
        now = self.ticks()
        for p in self._peers:
            if p.addr is None:
                continue
            if p.count and ticks_diff(now, p.due) >= 0:
                p.wait = min(2 * p.wait, 4 * self.retry)    # unanswered: wait longer
                if p.epoch:
                    for j in range(p.count):
                        self._transmit(p, j)
                    self.resent_frames += p.count
                else:
                    self._control(p, HELLO)
                    p.due = ticks_add(now, p.wait)
            elif ticks_diff(now, p.sent) >= KEEPALIVE_MS:
                self._control(p, ACK if p.epoch else HELLO)

    def _restart(self, p):
        """Numbering starts again from 0 both ways; the window goes out renumbered."""
        p.rx_next = 0
        p.base = 0
        p.wait = self.retry
        p.due = self.ticks()

    def _acked(self, p, ack):
        k = (ack - p.base) & 0xFF
        if 0 < k <= p.count:
            for j in range(k):
                p.views[(p.head + j) % WINDOW] = None
            p.head = (p.head + k) % WINDOW
            p.count -= k
            p.base = ack
            p.fast = False
            p.wait = self.retry
            p.due = ticks_add(self.ticks(), p.wait)

    def poll(self):
        """Receive, acknowledge, retransmit; return [peer, kind, payload] or None.

        Call it every frame. The list and payload (a memoryview) are valid until the next
        poll: unpack them, copy what you keep."""
        self._timers()
        b = self._rx
        for _ in range(8):
            r = self.t.recv_into(b)
            if r is None:
                return None
            addr, size = r
            n = b[2]
            if not self._checked and (
                    size < HEADER + 2 or b[0] != _SYNC0 or b[1] != _SYNC1 or size != HEADER + n + 2
                    or crc16(b, 2, HEADER + n) != (b[HEADER + n] << 8 | b[HEADER + n + 1])):
                self.bad_frames += 1
                continue
            if self._frame(addr, n):
                got = self._got
                got[0] = addr
                got[1] = b[3]
                got[2] = self._rxv[HEADER:HEADER + n]
                return got
        return None

    def _frame(self, addr, n):
        """Handle a valid frame in _rx; True when it is a message to deliver."""
        b = self._rx
        kind = b[3]
        frm = b[6]
        to = b[7]
        if to == 0 and kind >= 16:      # a broadcast
            p = self._find(addr)
            if p is not None:
                p.heard = self.ticks()
            return True
        if frm == 0:
            return False
        p = self._peer(addr)
        if p is None:
            return False                # no room for another peer
        if frm == p.mine:               # our own echo, or a peer that drew our number
            if not p.epoch:             # a stranger yet: take another number, by chance
                self._epoch = (self._epoch + _random_byte()) % 255 + 1  # (both may do so)
                p.mine = self._draw()
                self._control(p, HELLO)
            return False
        if p.epoch != frm:              # a new peer, or one that restarted
            p.epoch = frm
            self._restart(p)
        p.heard = self.ticks()
        if to == 0:                     # a HELLO: answer with our epoch and numbers
            self._control(p, ACK)
            return False
        if to != p.mine:                # meant for our previous life: say who we are now
            self._control(p, HELLO)
            return False
        self._acked(p, b[5])
        if kind < 16:
            if b[4] and p.count and not p.fast:     # they miss our oldest: once, at once
                p.fast = True
                for j in range(p.count):
                    self._transmit(p, j)
                self.resent_frames += p.count
            return False
        ahead = (b[4] - p.rx_next) & 0xFF
        if ahead == 0:
            p.rx_next = (p.rx_next + 1) & 0xFF
        self._control(p, ACK, 0 < ahead < 128)     # a duplicate is answered too
        return ahead == 0


def open_transport(board):
    """The board's transport from its config's LINK data, or None (device only: imports
    machine or espnow)."""
    kind = getattr(board, "LINK", None)
    if kind == "espnow":
        from firmware.link_espnow import EspNowTransport
        return EspNowTransport()
    if kind not in ("uart", "thumby"):
        return None
    from machine import Pin, UART
    from firmware.link_uart import UartTransport
    half = kind == "thumby"
    if half:
        Pin(board.LINK_ENABLE, Pin.OUT).value(1)    # as TinyCircuits' thumbyLink does
    rx_pin = None
    uarts = []
    for uart, tx, rx in board.LINK_UARTS:
        rx_pin = Pin(rx, Pin.IN)        # made before the UART takes it: read as the carrier
        uarts.append(UART(uart, baudrate=115200, tx=Pin(tx, Pin.OUT), rx=rx_pin, timeout=0,
                          rxbuf=1024))
    return UartTransport(tuple(uarts), half, rx_pin if half else None)
