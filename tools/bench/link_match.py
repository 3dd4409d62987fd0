"""Linked play's traffic: bytes on the wire per move, per device. Prints; asserts nothing.

    python -m tools.bench.link_match            # classic and nordic, UART and ESP-NOW
    python -m tools.bench.link_match --faults   # the same through the fake wire's faults

A seeded 3-device match (the host with one human and an AI seat, two clients; the humans
played by tools/sim/linkplay.pick) over firmware.link on tools/fakes/wire.py. Each
transport's writes are counted whole (frames with their headers and CRCs, acks and
beacons, retransmissions): bytes each device sends and receives per move of the match,
and the session's own payloads by message kind; ms/move is virtual time a move takes when
every player answers at once (no app pacing: the wire's own latency). Also the recovery after a pulled cable:
virtual time from the replug until the host plays on.
"""
import argparse
import sys

from firmware import linkmsg as M
from tools.fakes.wire import Wire
from tools.sim import linkplay as lp
from tools.sim.linked import links

NAMES, LEVELS = ["Hana", "Ivo", "Jun", "Greta"], [0, 0, 0, 2]
FAULTS = dict(drop=0.1, corrupt=0.05, duplicate=0.1, delay=20, reorder=0.1)
KINDS = {v: k for k, v in vars(M).items() if k.isupper() and isinstance(v, int) and 16 <= v < 64}


def counted(link, tally):
    """Count the bytes the link's transport writes into tally["out"]."""
    t = link.t
    send, broadcast = t.send, t.broadcast

    def counted_send(addr, buf):
        tally["out"] += len(buf)
        return send(addr, buf)

    def counted_broadcast(buf):
        tally["out"] += len(buf) * (len(t.uarts) if hasattr(t, "uarts") else 1)
        return broadcast(buf)
    t.send, t.broadcast = counted_send, counted_broadcast


def kinds_of(link, tally):
    """Count the session's payload bytes by message kind into tally."""
    send = link.send

    def kind_send(peer, kind, payload):
        ok = send(peer, kind, payload)
        if ok:
            tally[kind] = tally.get(kind, 0) + len(payload)
        return ok
    link.send = kind_send


def measure(model, preset, seed=7, faults=None):
    """Figures of one match: moves, per device bytes out and in, payloads by kind."""
    wire = Wire(seed=seed, **(faults or {}))
    ls = links(model, wire, 3)
    tallies = [{"out": 0} for _ in ls]
    kinds = {}
    for link, tally in zip(ls, tallies):
        counted(link, tally)
        kinds_of(link, kinds)
    setup = lp.setup_of(NAMES, LEVELS, preset, rounds=2)

    def clock(now):
        wire.now_us = now * 1000
    t = lp.Table(setup, seed, ls, ["Ivo", "Jun"], clock=clock)
    assert t.run(), "the match did not end"
    moves = len(t.log)
    # each frame reaches one other device (a cable, or one radio addressed); the host's
    # beacon reaches all: "in" is what the others sent this device
    return {"moves": moves, "ms": t.now, "out": [d["out"] for d in tallies], "kinds": kinds}


def recovery(model, seed=7):
    """Virtual ms from the replug of a pulled cable until the match plays on."""
    wire = Wire(seed=seed)

    def clock(now):
        wire.now_us = now * 1000
    t = lp.Table(lp.setup_of(NAMES, LEVELS, rounds=2), seed, links(model, wire, 3),
                 ["Ivo", "Jun"], clock=clock)
    t.run(until=lambda t: len(t.log) > 20)
    wire.unplug(wire.ends[-1])
    t.run(frames=1000, until=lambda t: t.host.waiting == "Jun")
    at = t.now
    wire.replug(wire.ends[-1])
    t.run(frames=2000, until=lambda t: t.host.waiting == "")
    return t.now - at


def report(rows, out):
    """The table of figures."""
    out.write("bytes on the wire per move (whole frames: headers, CRCs, acks, beacons, resends)\n")
    out.write("%-7s %-8s %-6s %5s %7s %9s %9s %9s  payload bytes a move by message\n"
              % ("wire", "preset", "faults", "moves", "ms/move", "host out", "dev2 out", "dev3 out"))
    for model, preset, faults, f in rows:
        n = f["moves"]
        kinds = ", ".join("%s %.0f" % (KINDS.get(k, k), v / n)
                          for k, v in sorted(f["kinds"].items(), key=lambda kv: -kv[1])[:5])
        out.write("%-7s %-8s %-6s %5d %7.0f %9.0f %9.0f %9.0f  %s\n" % (
            model, preset, "yes" if faults else "no", n, f["ms"] / n,
            f["out"][0] / n, f["out"][1] / n, f["out"][2] / n, kinds))


def main(argv=None):
    """Run the matches and print the figures."""
    p = argparse.ArgumentParser(prog="python -m tools.bench.link_match",
                                description=__doc__.split("\n")[0])
    p.add_argument("--faults", action="store_true", help="through drops, corruption, duplicates, delays")
    p.add_argument("--quick", action="store_true", help="classic only")
    args = p.parse_args(argv)
    rows = []
    for preset in ("classic",) if args.quick else ("classic", "nordic"):
        for model in ("uart", "espnow"):
            faults = FAULTS if args.faults else None
            rows.append((model, preset, faults, measure(model, preset, faults=faults)))
            print("  %s %s done" % (model, preset), file=sys.stderr)
    report(rows, sys.stdout)
    for model in ("uart", "espnow"):
        print("recovery after a pulled cable (%s): %d ms of virtual time from the replug"
              % (model, recovery(model)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
