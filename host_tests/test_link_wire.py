"""The wire (firmware/link.py) on CPython over the fake wire (tools/fakes/wire.py): every
reliable message arrives once, in order, through every fault, on each transport's model."""
import random

import pytest

from firmware import link
from firmware.link import Link, MAX_PAYLOAD, crc16, find_frame
from firmware.link_espnow import EspNowTransport
from firmware.link_uart import UartTransport
from tools.fakes.wire import Wire

FAULTS = dict(drop=0.1, corrupt=0.05, duplicate=0.1, delay=20, reorder=0.1, noise=0.05)


def pair(model, wire, epochs=(11, 200)):
    """Two Links joined by `model`: 'cable', 'thumby' (one wire, half duplex) or 'espnow';
    returns (a, b, b's address at a, a's address at b)."""
    if model == "espnow":
        ra, rb = wire.radio(b"\x02\x00\x00\x00\x00\x0a"), wire.radio(b"\x02\x00\x00\x00\x00\x0b")
        ra.active(True)
        rb.active(True)
        ta, tb, to_b, to_a = EspNowTransport(ra), EspNowTransport(rb), rb.mac, ra.mac
    else:
        half = model == "thumby"
        ua, ub = wire.cable(baud=115200, half_duplex=half)
        ta, tb, to_b, to_a = UartTransport((ua,), half, ua.rx_pin()), UartTransport((ub,), half, ub.rx_pin()), 0, 0
    return Link(ta, wire.ticks, epoch=epochs[0]), Link(tb, wire.ticks, epoch=epochs[1]), to_b, to_a


def messages(seed, n, most=MAX_PAYLOAD):
    rng = random.Random(seed)
    return [bytes(rng.randrange(256) for _ in range(rng.randrange(most + 1))) for _ in range(n)]


def exchange(wire, a, b, to_b, to_a, n=40, seed=1, steps=40000, step_ms=2, during=None, most=MAX_PAYLOAD):
    """a sends n messages to b while b sends n to a; returns what each received, in order."""
    out_a, out_b = messages(seed, n, most), messages(seed + 1, n, most)
    got_a, got_b, ia, ib = [], [], 0, 0
    for step in range(steps):
        if during:
            during(step)
        if ia < n and a.send(to_b, 16 + ia % 240, out_a[ia]):
            ia += 1
        if ib < n and b.send(to_a, 16 + ib % 240, out_b[ib]):
            ib += 1
        for me, got in ((a, got_a), (b, got_b)):
            r = me.poll()
            if r:
                got.append((r[1], bytes(r[2])))
        wire.advance(step_ms)
        if len(got_a) == n and len(got_b) == n and not a.pending(to_b) and not b.pending(to_a):
            break
    want_b = [(16 + i % 240, m) for i, m in enumerate(out_a)]
    want_a = [(16 + i % 240, m) for i, m in enumerate(out_b)]
    return got_b, want_b, got_a, want_a


@pytest.mark.parametrize("model", ["cable", "thumby", "espnow"])
def test_messages_arrive_once_in_order_on_a_clean_wire(model):
    wire = Wire(seed=3)
    got_b, want_b, got_a, want_a = exchange(wire, *pair(model, wire))
    assert got_b == want_b and got_a == want_a


@pytest.mark.parametrize("model", ["cable", "thumby", "espnow"])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_messages_arrive_once_in_order_through_every_fault(model, seed):
    wire = Wire(seed=seed, **FAULTS)
    got_b, want_b, got_a, want_a = exchange(wire, *pair(model, wire), seed=seed)
    assert got_b == want_b and got_a == want_a
    assert wire.log["dropped"] and wire.log["corrupted"] and wire.log["duplicated"]
    assert wire.log["reordered"] and wire.log["delayed"]


@pytest.mark.parametrize("model", ["cable", "thumby", "espnow"])
def test_an_unplug_mid_frame_loses_nothing_once_replugged(model):
    wire = Wire(seed=5)
    a, b, to_b, to_a = pair(model, wire)
    end = wire.ends[0]
    seen = {}

    def cut(step):
        if step >= 30 and "at" not in seen and wire.in_flight(end):
            wire.unplug(end)         # mid-frame: a frame from `end` is on the way
            seen["at"], seen["cut"] = step, wire.log["cut"]
        if step == seen.get("at", -1) + 2000:       # 4 s later: past the link timeout
            seen["down"] = (a.up(to_b), b.up(to_a))
            wire.replug(end)

    got_b, want_b, got_a, want_a = exchange(wire, a, b, to_b, to_a, during=cut)
    assert seen["cut"] >= 1, "the cut came while a frame was on the way"
    assert seen["down"] == (False, False)
    assert got_b == want_b and got_a == want_a
    assert a.up(to_b) and b.up(to_a)


@pytest.mark.parametrize("model", ["cable", "espnow"])
def test_numbers_wrap_past_255_without_a_loss(model):
    wire = Wire(seed=8, **FAULTS)
    got_b, want_b, got_a, want_a = exchange(wire, *pair(model, wire), n=600, most=12)
    assert got_b == want_b and got_a == want_a


def test_a_stream_reframes_after_garbage_and_a_cut_frame():
    wire = Wire(seed=1)
    ua, ub = wire.cable()
    ta, tb = UartTransport((ua,)), UartTransport((ub,))
    a, b = Link(ta, wire.ticks, epoch=1), Link(tb, wire.ticks, epoch=2)
    ua.write(b"\xa5\x4d\x30garbage\xa5")       # a sync, a length, then nonsense and a cut
    a.send(0, 20, b"first")
    a.send(0, 21, b"second")
    got = []
    for _ in range(1000):
        r = b.poll()
        if r:
            got.append((r[1], bytes(r[2])))
        a.poll()
        wire.advance(2)
    assert got == [(20, b"first"), (21, b"second")]


def test_a_restarted_peer_is_numbered_from_the_start_again():
    wire = Wire(seed=2)
    a, b, to_b, to_a = pair("espnow", wire)
    got_b, want_b, _, _ = exchange(wire, a, b, to_b, to_a, n=5)
    assert got_b == want_b
    b2 = Link(EspNowTransport(wire.ends[1]), wire.ticks, epoch=99)   # b switched off and on
    got_b, want_b, got_a, want_a = exchange(wire, a, b2, to_b, to_a, n=5, seed=7)
    assert got_b == want_b and got_a == want_a


@pytest.mark.parametrize("model", ["cable", "thumby", "espnow"])
def test_two_devices_that_drew_the_same_number_draw_again(model):
    wire = Wire(seed=6)
    a, b, to_b, to_a = pair(model, wire, epochs=(5, 5))
    got_b, want_b, got_a, want_a = exchange(wire, a, b, to_b, to_a, n=10, steps=5000)
    assert got_b == want_b and got_a == want_a
    assert a._find(to_b).mine != b._find(to_a).mine


def test_a_forgotten_peer_starts_afresh():
    wire = Wire(seed=4)
    a, b, to_b, to_a = pair("cable", wire)
    exchange(wire, a, b, to_b, to_a, n=3)
    b.forget(to_a)
    got_b, want_b, got_a, want_a = exchange(wire, a, b, to_b, to_a, n=6, seed=9)
    assert got_b == want_b and got_a == want_a


def test_a_full_window_refuses_a_message():
    wire = Wire(seed=1)
    ua, _ = wire.cable()
    a = Link(UartTransport((ua,)), wire.ticks, epoch=1)
    assert [a.send(0, 16, b"x") for _ in range(link.WINDOW + 1)] == [True] * link.WINDOW + [False]


def test_broadcasts_reach_every_radio_unacknowledged():
    wire = Wire(seed=1)
    radios = [wire.radio(bytes([2, 0, 0, 0, 0, i])) for i in range(3)]
    for r in radios:
        r.active(True)
    links = [Link(EspNowTransport(r), wire.ticks, epoch=10 + i) for i, r in enumerate(radios)]
    links[0].broadcast(40, b"host here")
    wire.advance(5)
    heard = [(l.poll() or (None, None, b""))[1:] for l in links[1:]]
    assert [(k, bytes(p)) for k, p in heard] == [(40, b"host here")] * 2
    assert links[0].pending(radios[1].mac) == 0


def test_messages_beyond_the_limits_are_refused():
    wire = Wire()
    ua, _ = wire.cable()
    a = Link(UartTransport((ua,)), wire.ticks, epoch=1)
    with pytest.raises(ValueError):
        a.send(0, 16, bytes(MAX_PAYLOAD + 1))
    with pytest.raises(ValueError):
        a.send(0, 3, b"")                       # kinds 0-15 are the wire's own
    r = wire.radio(b"\x02" * 6)
    r.active(True)
    r.add_peer(b"\xff" * 6)
    with pytest.raises(ValueError):
        r.send(b"\xff" * 6, bytes(251))


def test_crc16_is_ccitt_false():
    assert crc16(b"123456789", 0, 9) == 0x29B1


def test_find_frame_skips_a_false_sync():
    frame = bytearray(link.FRAME_MAX)
    frame[0:8] = bytes([0xA5, 0x4D, 3, 16, 0, 0, 1, 2])
    frame[8:11] = b"abc"
    size = link.seal(frame, 3)
    stream = b"\xa5\x4d\x02xx" + bytes(frame[:size])
    buf = bytearray(stream)
    assert find_frame(buf, 0, len(buf)) == (5, size)


def test_a_thumby_opens_its_one_wire_port_as_thumbylink_does(monkeypatch):
    import sys
    import types
    from board_configs import thumby
    made = []

    class Pin:
        IN, OUT = 0, 1

        def __init__(self, gpio, mode=-1):
            self.gpio, self.mode, self.level = gpio, mode, None
            made.append(self)

        def value(self, v=None):
            if v is not None:
                self.level = v
            return 1

    class UART:
        def __init__(self, n, **kw):
            self.n, self.kw = n, kw

    monkeypatch.setitem(sys.modules, "machine", types.SimpleNamespace(Pin=Pin, UART=UART))
    t = link.open_transport(thumby)
    assert t.half and t.rx_pin.gpio == 1
    assert [(p.gpio, p.level) for p in made if p.mode == Pin.OUT] == [(2, 1), (0, None)]
    (u,) = t.uarts
    assert u.n == 0 and u.kw["baudrate"] == 115200 and u.kw["rx"] is t.rx_pin


def test_the_bench_prints_every_figure(capsys):
    from tools.bench import link as bench
    assert bench.main(["--sizes", "8", "--no-vm"]) == 0
    out = capsys.readouterr().out
    for model in ("cable", "thumby", "espnow"):
        lines = [line.split() for line in out.splitlines()]
        assert [model, "8", "B:", "one"] in [line[:4] for line in lines]
        assert [model, "recovery"] in [line[:2] for line in lines]


def test_two_thumbys_on_the_one_wire_take_turns():
    wire = Wire(seed=3)
    got_b, want_b, got_a, want_a = exchange(wire, *pair("thumby", wire), n=10)
    assert got_b == want_b and got_a == want_a
    assert wire.log["collided"] == 0, "one spoke while the other was speaking"


# The RP2040's UART pins (its datasheet's function table, F2): UART -> (TX pins, RX pins)
RP2040_UART_PINS = {0: ({0, 12, 16, 28}, {1, 13, 17, 29}), 1: ({4, 8, 20, 24}, {5, 9, 21, 25})}


@pytest.mark.parametrize("name", ["pico_display", "waveshare_lcd114", "pico_oled", "thumby"])
def test_a_boards_link_cables_take_free_uart_pins(name):
    import importlib
    board = importlib.import_module("board_configs." + name)
    taken = {getattr(board, p) for p in ("SCK", "MOSI", "CS", "DC", "RST", "BACKLIGHT", "SDA",
                                         "SCL", "BUZZER") if getattr(board, p, None) is not None}
    taken |= {gpio for _, gpio in board.KEYS}
    link_pins = [getattr(board, "LINK_ENABLE", None)]
    for uart, tx, rx in board.LINK_UARTS:
        assert tx in RP2040_UART_PINS[uart][0] and rx in RP2040_UART_PINS[uart][1]
        link_pins += [tx, rx]
    link_pins = [p for p in link_pins if p is not None]
    assert len(set(link_pins)) == len(link_pins) and not set(link_pins) & taken


def test_the_esp32_board_links_by_esp_now():
    from board_configs import tdisplay
    assert tdisplay.LINK == "espnow"


def test_guests_find_the_host_by_its_broadcast_and_join():
    wire = Wire(seed=9, drop=0.1)
    radios = [wire.radio(bytes([2, 0, 0, 0, 1, i])) for i in range(4)]
    for r in radios:
        r.active(True)
    host, *guests = [Link(EspNowTransport(r), wire.ticks, epoch=30 * i + 1) for i, r in enumerate(radios)]
    found = [None] * len(guests)
    joined = []
    for step in range(2000):
        if step % 100 == 0:
            host.broadcast(40, b"host here")
        r = host.poll()
        if r:
            joined.append((bytes(r[0]), r[1], bytes(r[2])))
        for i, g in enumerate(guests):
            r = g.poll()
            if r and r[1] == 40 and found[i] is None:
                found[i] = bytes(r[0])
                assert g.send(found[i], 41, b"join %d" % i)
        wire.advance(2)
    assert found == [radios[0].mac] * 3
    assert sorted(joined) == sorted((radios[i + 1].mac, 41, b"join %d" % i) for i in range(3))
    assert all(host.up(r.mac) for r in radios[1:])


def test_a_board_with_link_data_opens_its_link_when_a_player_hosts_or_joins(monkeypatch):
    import sys
    import types
    from board_configs import pico_display, pybadge
    from firmware.link import Link
    from firmware.main import link_opener

    class Pin:
        IN, OUT = 0, 1

        def __init__(self, gpio, mode=-1):
            self.gpio = gpio

    class UART:
        def __init__(self, n, **kw):
            self.n, self.kw = n, kw

    assert link_opener(pybadge) is None            # no transport: the title offers no link
    open_link = link_opener(pico_display)
    monkeypatch.setitem(sys.modules, "machine", types.SimpleNamespace(Pin=Pin, UART=UART))
    link = open_link()
    assert isinstance(link, Link)
    assert [(u.n, u.kw["tx"].gpio, u.kw["rx"].gpio) for u in link.t.uarts] == [
        (0, 0, 1), (1, 4, 5)]
