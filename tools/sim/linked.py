"""Linked devices on one laptop: `./mau play --link 3` (tools/sim/README.md).

`links(model, wire, n)` makes the firmware Links of n devices on one fake wire
(tools/fakes/wire.py): "espnow", radios in range of each other, or "uart", the host
(device 1) with a cable and a UART to each other device. The devices run the real app;
each board gets an `open_link()` that returns its Link, so the title offers Host a
linked game and Join a linked game.
"""
MACS = [bytes([2, 0, 0, 0, 0, k + 1]) for k in range(8)]


def links(model, wire, n):
    """n firmware Links joined by `model` ("espnow" or "uart"), the host's (device 1) first."""
    from firmware.link import Link
    if model == "espnow":
        from firmware.link_espnow import EspNowTransport
        out = []
        for k in range(n):
            radio = wire.radio(MACS[k])
            radio.active(True)
            out.append(Link(EspNowTransport(radio), wire.ticks, epoch=17 * k + 5))
        return out
    if model == "uart":
        from firmware.link_uart import UartTransport
        cables = [wire.cable(baud=115200) for _ in range(n - 1)]
        host = Link(UartTransport(tuple(c[0] for c in cables)), wire.ticks, epoch=5)
        return [host] + [Link(UartTransport((c[1],)), wire.ticks, epoch=17 * k + 22)
                         for k, c in enumerate(cables)]
    raise ValueError("model %r: espnow or uart" % (model,))
