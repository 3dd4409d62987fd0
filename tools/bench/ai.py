"""AI figures measured in the real MicroPython VM, from the .mpy build.

    python -m tools.bench.ai [--decisions N] [--playouts P] [--quick] [--repeat R]

Prints, for the Expert at 2 to 5 players in both presets: VM milliseconds per decision
(mean and slowest) with P playouts per decision (default: its device budget), the
playouts actually made per decision, the RP2040 estimate
(VM ms x 454 / calibration-loop ms, see tools/bench/micropython.py), and how many
playouts fit in 300 ms on an RP2040 at 125 MHz; bytes allocated per playout once
the player is made (GC disabled, so the count is exact); and the heap of an AI player
(the Player object with every table it will use).
Figures are printed, never asserted (host_tests/test_ai_micropython.py asserts 0 B).
On a busy machine the VM runs slower in bursts: each timed decision is made
``--best-of B`` times (default 3; the player searches anew each time) and the quickest
counts, and ``--repeat R`` measures R times and keeps, per table size, the quickest run.
"""

import re
import sys

from tools import cli
from tools.vm import mpvm
from tools.bench.micropython import RP2040_CALIBRATION_MS, CALIBRATE

TARGET_MS = 300  # an Expert decision on an RP2040 at 125 MHz

# One VM game loop, shared with host_tests/test_ai_micropython.py. Rounds are dealt
# again in place (Round.deal), so nothing but the AI's decisions is measured;
# `locked` wraps every decision and observation in micropython.heap_lock() from the
# first one on (players make all their tables when created), so any allocation
# raises MemoryError there.
VM_GAMES = """
import gc, time, micropython
from array import array
from engine.rules import Rules
from engine.round import Round, View
from engine.rng import Random
from engine import ai

class Tally:
    def __init__(self):
        self.decisions = 0    # turn decisions of the measured level
        self.ms = 0
        self.slowest = 0
        self.playouts = 0
        self.locked = 0       # decisions and observations made under heap_lock
        self.rounds = 0
        self.moves = 0

def _call(bot, view, moves, n, lock):
    if lock:
        micropython.heap_lock()
        try:
            return bot.choose(view, moves, n)
        finally:
            micropython.heap_unlock()
    return bot.choose(view, moves, n)

def games(preset, players, levels, rounds, seed, playouts, locked, tally, measured=4,
          deadline=0, searched_only=True, reps=1, best_of=1, **options):
    rules = Rules(preset, **options)
    rnd = Round(rules, players, Random(seed))
    bots = [ai.Player(rules, levels[k % len(levels)], seed + k, playouts, deadline)
            for k in range(players)]
    views = [View(rules) for _ in range(players)]
    moves = array("H", range(200))
    for g in range(rounds):
        if g:
            rnd.deal(players, g % players)
        for k in range(players):
            bots[k].new_round(rnd.view(k, views[k]))
        while not rnd.is_over():
            seat = -1
            move = 0
            debtor = rnd.debtor()
            if debtor is not None:
                turn = rnd.turn()
                for j in range(1, players):
                    q = (turn + j) % players
                    if q != debtor:
                        n = rnd.legal_moves(q, moves)
                        m = _call(bots[q], rnd.view(q, views[q]), moves, n, locked)
                        if m is not None:
                            seat = q
                            move = m
                            break
            if seat < 0:
                seat = rnd.turn()
                bot = bots[seat]
                n = rnd.legal_moves(seat, moves)
                view = rnd.view(seat, views[seat])
                measuring = bot.level == measured
                times = reps if measuring else 1
                tries = best_of if measuring else 1
                ms = 1 << 30
                for _ in range(tries):  # the quickest of a few tries: the machine is shared
                    before = bot.playouts_done
                    t = time.ticks_ms()
                    for _ in range(times):  # fast levels: time a batch (the VM ticks in ms)
                        move = _call(bot, view, moves, n, locked)
                    ms = min(ms, time.ticks_diff(time.ticks_ms(), t))
                if locked:
                    tally.locked += 1
                if measuring and (bot.playouts_done > before or not searched_only):
                    tally.decisions += times
                    tally.ms += ms
                    tally.playouts += bot.playouts_done - before
                    if ms > tally.slowest:
                        tally.slowest = ms
            for k in range(players):
                bot = bots[k]
                if bot.watches:
                    v = rnd.view(k, views[k])
                    if locked:
                        micropython.heap_lock()
                        try:
                            bot.observe(v, seat, move)
                        finally:
                            micropython.heap_unlock()
                        tally.locked += 1
                    else:
                        bot.observe(v, seat, move)
            rnd.apply(seat, move)
            tally.moves += 1
        tally.rounds += 1
    return bots
"""

MEASURE = CALIBRATE + """
def timing(preset, players, decisions, playouts, device=False, best_of=1):
    # one game untimed first: the WebAssembly engine compiles the interpreter's hot
    # paths during the first milliseconds (a board has no such warm-up)
    games(preset, players, (ai.EXPERT, ai.STRONG), 1, 999, playouts, False, Tally())
    calib = best_calibration(3)  # the loop now: the VM's speed drifts on a shared machine
    # device: the device deadline scaled to the VM's speed (VM ms = RP2040 ms / ratio)
    deadline = ai.DEVICE_MS * calib // 454 if device else 0
    t = Tally()
    seed = 1
    while t.decisions < decisions:
        games(preset, players, (ai.EXPERT, ai.STRONG), 1, seed, playouts, False, t,
              deadline=deadline, best_of=best_of)
        seed += 1
    calib = min(calib, best_calibration(3))
    print("BENCH %s_%s%d %d %d %d %d %d" % ("deadline" if device else "time", preset,
                                            players, t.decisions, t.ms, t.slowest, t.playouts,
                                            calib))

def alloc(preset, players, playouts):
    # what making an Expert allocates, then what its decisions allocate
    rules = Rules(preset)
    rnd = Round(rules, players, Random(5))
    bot = ai.Player(rules, ai.EXPERT, 3, playouts)
    views = View(rules)
    moves = array("H", range(200))
    gc.collect()
    gc.disable()
    a = gc.mem_alloc()
    bot = ai.Player(rules, ai.EXPERT, 3, playouts)
    player_bytes = gc.mem_alloc() - a
    done = 0
    total = 0
    rng = Random(8)
    g = 0
    while done < 400:
        if rnd.is_over():
            g += 1
            rnd.deal(players, g % players)
            bot.new_round(rnd.view(0, views))
        p = rnd.turn()
        n = rnd.legal_moves(p, moves)
        if p == 0:
            v = rnd.view(0, views)
            before = bot.playouts_done
            a = gc.mem_alloc()
            m = bot.choose(v, moves, n)
            total += gc.mem_alloc() - a
            done += bot.playouts_done - before
        else:
            m = moves[rng.below(n)]
        rnd.apply(p, m)
    a = gc.mem_alloc()
    strong = ai.Player(rules, ai.STRONG, 3, playouts)
    strong_bytes = gc.mem_alloc() - a
    gc.enable()
    print("BENCH alloc_%s%d %d %d %d %d" % (preset, players, done, total, player_bytes,
                                            strong_bytes))
"""

SIZES = [("classic", p) for p in (2, 3, 4, 5)] + [("nordic", p) for p in (2, 3, 4, 5)]


def measure(decisions=60, playouts=None, timeout=900, best_of=1):
    """Run the measurements in one VM; return {figure: [ints]}. Each timed decision
    is made `best_of` times (the player searches anew each time) and the quickest
    counts, so that a moment when the shared machine runs something else does not."""
    steps = [VM_GAMES, MEASURE, "calibrate()"]
    for preset, players in SIZES:
        steps.append("timing(%r, %d, %d, %r, False, %d)" % (preset, players, decisions,
                                                            playouts, best_of))
        steps.append("gc.collect()")
    for preset, players in SIZES:
        steps.append("timing(%r, %d, %d, %r, True, %d)" % (preset, players, decisions,
                                                           playouts, best_of))
        steps.append("gc.collect()")
    for preset, players in (("classic", 2), ("nordic", 5)):
        steps.append("alloc(%r, %d, %r)" % (preset, players, playouts))
        steps.append("gc.collect()")
    steps.append("calibrate()")
    result = mpvm.run("import gc", steps=steps, timeout=timeout, heapsize=512 * 1024,
                      label="bench_ai").check()
    figures = {"playouts": [playouts or 0]}
    for line in result.stdout.splitlines():
        m = re.match(r"BENCH (\S+) (.*)", line)
        if m:
            values = [int(x) for x in m.group(2).split()]
            if m.group(1) == "calibration_ms" and "calibration_ms" in figures:
                values = [min(values[0], figures["calibration_ms"][0])]
            figures[m.group(1)] = values
    return figures


def quickest(runs):
    """One set of figures from repeated runs of the same games: per table size the run
    with the least VM time, the quickest calibration loop, the most bytes allocated."""
    out = dict(runs[0])
    for figures in runs[1:]:
        for key, values in figures.items():
            if key not in out:
                out[key] = values
            elif key.startswith(("time_", "deadline_")):
                if values[1] * out[key][4] < out[key][1] * values[4]:   # ms / calibration
                    out[key] = values
            elif key == "calibration_ms":
                out[key] = [min(values[0], out[key][0])]
            elif key.startswith("alloc_") and values[1] > out[key][1]:
                out[key] = values
    return out


def _decision_rows(figures, kind, say, fit):
    """One line per table size measured of `kind` ("time" or "deadline"); with `fit`,
    how many playouts fit in TARGET_MS on an RP2040 as well."""
    for preset, players in SIZES:
        key = "%s_%s%d" % (kind, preset, players)
        if key not in figures:
            continue
        n, ms, slowest, done, cal = figures[key]
        ratio = RP2040_CALIBRATION_MS / max(1, cal)
        mean = ms / max(1, n)
        line = "  %-8s %7d %9d %9.1f %9.1f %9d %4d %10.0f %10.0f" % (
            preset, players, n, done / max(1, n), mean, slowest, cal, mean * ratio,
            slowest * ratio)
        if fit:
            per_playout = ms / max(1, done)
            line += " %14d" % (int(TARGET_MS / (per_playout * ratio)) if done and ms else 0)
        say(line)


def report(figures, out=sys.stdout):
    """Print the figures."""
    def say(text):
        out.write(text + "\n")

    calib = figures["calibration_ms"][0]
    ratio = RP2040_CALIBRATION_MS / calib
    playouts = figures["playouts"][0]
    say("MicroPython VM (%s), engine from .mpy; calibration loop %d ms in the VM, 454 ms on "
        "an RP2040 at 125 MHz: ratio %.1f (each line below uses the loop timed just before "
        "and after it, column 'cal')" % (".".join(map(str, mpvm.vm_mpy_version())), calib,
                                         ratio))
    say("Expert decisions with %s (decisions that searched; Strong opponents):"
        % ("%d playouts" % playouts if playouts else "the device budget, engine.ai.budget"))
    say("  %-8s %7s %9s %9s %9s %9s %4s %10s %10s %14s" % (
        "preset", "players", "decisions", "playouts", "VM ms", "VM max", "cal", "RP2040 ms",
        "RP2040 max", "playouts/300ms"))
    _decision_rows(figures, "time", say, fit=True)
    say("The same with the device deadline as well (DEVICE_MS, scaled to the VM's speed; "
        "1 ms ticks):")
    _decision_rows(figures, "deadline", say, fit=False)
    for preset, players in (("classic", 2), ("nordic", 5)):
        key = "alloc_%s%d" % (preset, players)
        if key not in figures:
            continue
        done, total, player_bytes, strong_bytes = figures[key]
        say("  %s %d players: the Expert's decisions (%d playouts, the first included) "
            "allocated %d bytes (%.2f per playout, target 0); heap of an Expert player %d "
            "bytes (search tables included), of a Strong one %d bytes" % (
                preset, players, done, total, total / max(1, done), player_bytes,
                strong_bytes))


def main(argv=None):
    """Measure and print."""
    parser = cli.Parser(prog="bench.ai", description=__doc__.splitlines()[0])
    parser.add_argument("--decisions", type=cli.at_least(1), default=60,
                        help="searching Expert decisions timed per table size (default 60)")
    parser.add_argument("--playouts", type=cli.at_least(1), default=None,
                        help="playouts per decision (default: the device budget, "
                        "engine.ai.budget, by table size)")
    parser.add_argument("--quick", action="store_true", help="10 decisions each")
    parser.add_argument("--best-of", type=cli.at_least(1), default=3, metavar="B",
                        help="make each timed decision B times, keep the quickest (default 3)")
    parser.add_argument("--repeat", type=cli.at_least(1), default=1, metavar="R",
                        help="measure R times and keep the quickest run per table size")
    args = parser.parse_args(argv)
    if args.quick:
        args.decisions = 10
    report(quickest([measure(args.decisions, args.playouts, best_of=max(1, args.best_of))
                     for _ in range(max(1, args.repeat))]))


if __name__ == "__main__":
    main()
