"""The ESP-NOW transport: frames as ESP-NOW messages between ESP32 boards (addr = a MAC).

MicroPython's `espnow`: a WLAN station interface must be active; messages are at most
250 bytes (a frame is at most 210) and delivery is not guaranteed (the Link acknowledges).
Broadcasts go to b'\\xff' * 6, which every radio on the channel hears; a sender is made a
peer the first time it is heard, so that we can answer it.
"""
BROADCAST = b"\xff" * 6


class EspNowTransport:
    """send, broadcast, recv_into over an espnow.ESPNow() (made here when not given)."""

    def __init__(self, radio=None):
        if radio is None:
            import network
            import espnow
            sta = network.WLAN(network.STA_IF)
            sta.active(True)
            radio = espnow.ESPNow()
            radio.active(True)
        self.radio = radio
        self.peers = []
        self._add(BROADCAST)
        self._r = [None, 0]
        self.lost = 0                   # messages the radio would not take (queue full)

    def _add(self, mac):
        for m in self.peers:
            if m == mac:
                return
        try:
            self.radio.add_peer(mac)
        except OSError:                 # already registered, or the table (20) is full
            pass
        self.peers.append(mac)

    def send(self, addr, buf):
        """Send one frame to the peer with MAC `addr`."""
        self._add(addr)
        try:
            self.radio.send(addr, buf, False)
        except OSError:
            self.lost += 1

    def broadcast(self, buf):
        """Send one frame to every radio in range."""
        self.send(BROADCAST, buf)

    def recv_into(self, buf):
        """The next message copied into buf: [mac, size], or None."""
        while True:
            mac, msg = self.radio.irecv(0)
            if mac is None:
                return None
            n = len(msg)
            if n <= len(buf):
                break
        buf[0:n] = msg
        self._add(mac)
        r = self._r
        r[0], r[1] = mac, n
        return r
