"""The UART transport: frames over link cables, one UART per peer (addr = the port's index).

A cable joins two boards TX to RX, RX to TX and GND to GND; a host with two UARTs (an
RP2040 has UART0 and UART1) serves two peers, one cable each (docs/link-protocol.md).
`half_duplex` is the Thumby's link port: TX and RX on one wire, so every byte we write
comes back to us. We write only while the line is idle and nothing waits to be read,
then skip as many bytes as we wrote: our own echo.
"""
from firmware.link import FRAME_MAX, find_frame

_CHUNK = 64


class UartTransport:
    """Byte streams from UARTs cut into frames; send, broadcast, recv_into."""

    checked = True                      # find_frame checked each frame's CRC

    def __init__(self, uarts, half_duplex=False, rx_pin=None):
        self.uarts = uarts
        self.half = half_duplex
        self.rx_pin = rx_pin            # the RX pin: 1 while the line is idle
        self._buf = [bytearray(2 * FRAME_MAX) for _ in uarts]
        self._n = [0] * len(uarts)      # bytes held in each port's buffer
        self._echo = [0] * len(uarts)   # our own bytes still to come back
        self._chunk = bytearray(_CHUNK)
        self._r = [0, 0]
        self._turn = 0
        self._held = bytearray(FRAME_MAX) if half_duplex else None
        self._heldv = memoryview(self._held) if half_duplex else None
        self._held_n = 0                # a frame waiting for the shared line to go quiet
        self._held_port = 0
        self.busy = 0                   # frames held back: the shared line was in use

    def _quiet(self, i):
        """May we write to port i: we are still sending (queue behind our own bytes), or
        the line is idle and, our echo taken in, nothing else has come."""
        u = self.uarts[i]
        if self._echo[i] and not u.txdone():
            return True
        self._fill(i)
        return not u.any() and (self.rx_pin is None or self.rx_pin.value())

    def send(self, addr, buf):
        """Write one frame to port `addr`; on a busy shared line, hold it (one frame: a
        newer one takes its place, the Link sends again what is lost)."""
        u = self.uarts[addr]
        if self.half:
            if not self._quiet(addr):
                h = self._held
                n = len(buf)
                for j in range(n):
                    h[j] = buf[j]
                self._held_n, self._held_port = n, addr
                self.busy += 1
                return
            self._echo[addr] += len(buf)
        u.write(buf)

    def _release(self):
        """Write the held frame once the line is quiet."""
        i, n = self._held_port, self._held_n
        if self._quiet(i):
            self._held_n = 0
            self._echo[i] += n
            self.uarts[i].write(self._heldv[:n])

    def broadcast(self, buf):
        """Write the frame to every port."""
        for i in range(len(self.uarts)):
            self.send(i, buf)

    def recv_into(self, buf):
        """The next whole valid frame from any port, copied into buf: [port, size] or None."""
        if self._held_n:
            self._release()
        k = len(self.uarts)
        for j in range(k):
            i = (self._turn + j) % k
            size = self._frame(i, buf)
            if size:
                self._turn = (i + 1) % k
                r = self._r
                r[0], r[1] = i, size
                return r
        return None

    def _fill(self, i):
        """Read what port i has into its buffer, less our own echo."""
        u, sb, ch = self.uarts[i], self._buf[i], self._chunk
        n = self._n[i]
        while n < len(sb):
            got = u.readinto(ch, min(_CHUNK, len(sb) - n))
            if not got:
                break
            skip = min(self._echo[i], got)
            self._echo[i] -= skip
            for j in range(skip, got):
                sb[n] = ch[j]
                n += 1
        self._n[i] = n

    def _frame(self, i, out):
        """Cut the next frame from port i's buffer into out; its size, or 0."""
        self._fill(i)
        sb, n = self._buf[i], self._n[i]
        off, size = find_frame(sb, 0, n)
        if size:
            for j in range(size):
                out[j] = sb[off + j]
            off += size
        for j in range(off, n):         # keep the rest (a frame still arriving) at the start
            sb[j - off] = sb[j]
        self._n[i] = n - off
        return size
