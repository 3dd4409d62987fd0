"""Engine figures measured in the real MicroPython VM, from the .mpy build.

    python -m tools.bench_micropython [--games N] [--quick]

Prints heap bytes resident after import, heap bytes of a round, bytes allocated per
move (legal moves, applying, the random player's choice) with the GC disabled,
games/s in the VM, and the RP2040 estimate from a calibration loop whose time on an
RP2040 at 125 MHz is known (454 ms). Figures are printed, never asserted.
"""

import argparse
import re
import sys

from tools import mpvm

RP2040_CALIBRATION_MS = 454  # `for _ in range(100000): s += 1` in a function, 125 MHz

RULES_MODULES = ("engine.compat", "engine.cards", "engine.rng", "engine.rules",
                 "engine.moves", "engine.events", "engine.round", "engine.match")

# Each string is one VM call: the GC only runs between calls into the VM.
SETUP = "import gc, time\nfrom array import array\n"
BASE = "gc.collect()\n_base = gc.mem_alloc()\n"
# The VM's GC is conservative: a stale pointer on the C stack can keep garbage alive.
# Collecting in its own call after a deep call has overwritten the stack frees it.
SCRUB = "def _deep(n):\n    return _deep(n - 1) if n else 0\n_deep(100)\n"


def _resident(label):
    return ("gc.collect()\nprint('BENCH %s', gc.mem_alloc() - _base)\n"
            "_base = gc.mem_alloc()\n" % label)


# A round's heap: everything its constructor allocates, counted with the GC disabled
# (exact, and the same on a board). It is an upper bound of what stays resident: stale
# pointers make a count after gc.collect() noisy in the VM.
ROUND_BYTES = """
def allocated(make):
    gc.collect()
    gc.disable()
    a = gc.mem_alloc()
    made = make()
    b = gc.mem_alloc()
    gc.enable()
    return b - a

def round_bytes(rules, players, label):
    allocated(lambda: Round(rules, players, rng))  # warm-up: first calls may cache
    print("BENCH round_%s %d" % (label, allocated(lambda: Round(rules, players, rng))))
"""

ALLOC_PER_MOVE = """
from engine.rules import Rules
from engine.round import Round
from engine.rng import Random

def alloc_per_move(preset, players, games, seed):
    rules = Rules(preset)
    rng = Random(seed)
    moves = array("H", range(200))
    legal_b = apply_b = choose_b = count = 0
    rnd = Round(rules, players, rng)
    gc.collect()
    gc.disable()
    for _ in range(games):
        rnd.deal(players, 0)
        while not rnd.is_over():
            p = rnd.turn()
            a = gc.mem_alloc()
            n = rnd.legal_moves(p, moves)
            b = gc.mem_alloc()
            m = moves[rng.below(n)]
            c = gc.mem_alloc()
            rnd.apply(p, m)
            d = gc.mem_alloc()
            legal_b += b - a
            choose_b += c - b
            apply_b += d - c
            count += 1
    gc.enable()
    print("BENCH alloc_%s%d %d %d %d %d" % (preset, players, count, legal_b, apply_b, choose_b))
"""

SPEED = """
def speed(preset, players, games, seed):
    rules = Rules(preset)
    rng = Random(seed)
    moves = array("H", range(200))
    rnd = Round(rules, players, rng)
    count = 0
    t = time.ticks_ms()
    for _ in range(games):
        rnd.deal(players, 0)
        while not rnd.is_over():
            p = rnd.turn()
            n = rnd.legal_moves(p, moves)
            rnd.apply(p, moves[rng.below(n)])
            count += 1
    ms = time.ticks_diff(time.ticks_ms(), t)
    t = time.ticks_ms()
    for _ in range(count):
        rng.below(7)
    choose_ms = time.ticks_diff(time.ticks_ms(), t)
    print("BENCH speed_%s%d %d %d %d %d" % (preset, players, games, count, ms, choose_ms))

"""

# The calibration loop whose RP2040 time is known; CALIBRATION[0] keeps the VM's best.
CALIBRATE = """
def calibration():
    s = 0
    for _ in range(100000):
        s += 1
    return s

CALIBRATION = [16]

def calibrate():
    best = 1 << 20
    for _ in range(5):
        t = time.ticks_ms()
        calibration()
        best = min(best, time.ticks_diff(time.ticks_ms(), t))
    CALIBRATION[0] = best
    print("BENCH calibration_ms", best)
"""


def measure(games, speed_games, timeout=900):
    """Run the measurements in one VM; return {figure: [ints]}."""
    steps = [SCRUB, BASE, "import " + ", ".join(RULES_MODULES), SCRUB,
             _resident("import_resident"),
             "from engine.rules import Rules\nfrom engine.round import Round\n"
             "from engine.rng import Random\n"
             "rc = Rules('classic')\nrn = Rules('nordic')\nrng = Random(1)",
             ROUND_BYTES, "round_bytes(rc, 4, 'classic4')", "round_bytes(rn, 5, 'nordic5')",
             ALLOC_PER_MOVE, SPEED, CALIBRATE, "calibrate()"]
    for preset, players, share in (("classic", 4, 1), ("nordic", 5, 4)):
        steps.append("alloc_per_move(%r, %d, %d, 7)" % (preset, players, max(1, games // share)))
        steps.append("gc.collect()")
    for preset, players in (("classic", 2), ("classic", 4), ("nordic", 2), ("nordic", 5)):
        steps.append("speed(%r, %d, %d, 11)" % (preset, players, speed_games))
    result = mpvm.run(SETUP, steps=steps, timeout=timeout, heapsize=512 * 1024,
                      label="bench_micropython").check()
    figures = {}
    for line in result.stdout.splitlines():
        m = re.match(r"BENCH (\S+) (.*)", line)
        if m:
            figures[m.group(1)] = [int(x) for x in m.group(2).split()]
    return figures


def report(figures, out=sys.stdout):
    """Print the figures with their targets."""
    def say(text):
        out.write(text + "\n")

    say("MicroPython VM (%s), engine from .mpy" % ".".join(map(str, mpvm.vm_mpy_version())))
    say("  rules modules resident after import: %6d bytes  (target < 16384)"
        % figures["import_resident"][0])
    for key, name, target in (("round_classic4", "4-player classic round", 400),
                              ("round_nordic5", "5-player nordic round", 700)):
        say("  %-37s %6d bytes  (target < %d)" % (name + ":", figures[key][0], target))
    for key in ("alloc_classic4", "alloc_nordic5"):
        moves, legal, apply, choose = figures[key]
        say("  %s: %d moves, bytes allocated per move: legal moves %.2f, apply %.2f, "
            "random choice %.2f  (target 0)" % (key[6:], moves, legal / moves, apply / moves,
                                                 choose / moves))
    calib = figures["calibration_ms"][0]
    ratio = RP2040_CALIBRATION_MS / calib
    say("  calibration loop: %d ms in the VM, 454 ms on an RP2040 at 125 MHz: ratio %.1f"
        % (calib, ratio))
    for key in ("speed_classic2", "speed_classic4", "speed_nordic2", "speed_nordic5"):
        games, moves, ms, choose_ms = figures[key]
        engine_us = 1000.0 * (ms - choose_ms) / moves
        say("  %-8s %d players: %6.1f games/s, %7.0f moves/s in the VM; engine move "
            "(legal moves + apply) %.1f us -> RP2040 est. %.2f ms (target < 1 ms)"
            % (key[6:-1], int(key[-1]), 1000.0 * games / ms, 1000.0 * moves / ms, engine_us,
               engine_us * ratio / 1000))


def main(argv=None):
    """Measure and print."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000,
                        help="random games for the allocation count (default 1000)")
    parser.add_argument("--speed-games", type=int, default=200)
    parser.add_argument("--quick", action="store_true", help="20 games each, for a smoke run")
    args = parser.parse_args(argv)
    if args.quick:
        args.games = args.speed_games = 20
    report(measure(args.games, args.speed_games))


if __name__ == "__main__":
    main()
