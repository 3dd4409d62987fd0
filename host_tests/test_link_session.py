"""Linked play's session: roles, messages, privacy, faults (firmware.linkhost,
firmware.linkclient over a Link)."""
from collections import deque

import pytest

from host_tests import linkplay as lp


class Hub:
    """A perfect in-process wire: every message arrives, in order, at once; a device
    can be unplugged (its messages and those to it are lost) and plugged in again."""

    def __init__(self):
        self.inbox = {}
        self.unplugged = set()
        self.sent = []                  # (from, to, kind, payload bytes)

    def link(self, addr):
        self.inbox[addr] = deque()
        return PerfectLink(self, addr)


class PerfectLink:
    """firmware.link.Link's interface on the Hub."""

    def __init__(self, hub, addr):
        self.hub, self.addr = hub, addr

    def send(self, peer, kind, payload):
        hub = self.hub
        hub.sent.append((self.addr, peer, kind, bytes(payload)))
        if self.addr not in hub.unplugged and peer not in hub.unplugged:
            hub.inbox[peer].append((self.addr, kind, bytes(payload)))
        return True

    def broadcast(self, kind, payload):
        for peer in self.hub.inbox:
            if peer != self.addr:
                self.send(peer, kind, payload)

    def poll(self):
        box = self.hub.inbox[self.addr]
        if not box:
            return None
        peer, kind, payload = box.popleft()
        return peer, kind, memoryview(payload)

    def up(self, peer):
        return self.addr not in self.hub.unplugged and peer not in self.hub.unplugged

    def forget(self, peer):
        pass


NAMES = ["Hana", "Ivo", "Jun", "Greta"]
LEVELS = [0, 0, 0, 2]


def test_a_linked_match_ends_as_the_same_match_on_one_device():
    setup = lp.setup_of(NAMES, LEVELS)
    alone, game = lp.play_alone(setup, 7)
    hub = Hub()
    t = lp.Table(setup, 7, [hub.link(a) for a in range(3)], ["Ivo", "Jun"])
    assert t.run()
    assert t.log == alone
    assert t.game.totals() == game.totals()
