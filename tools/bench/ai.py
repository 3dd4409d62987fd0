"""AI figures measured in the real MicroPython VM, from the .mpy build.

    python -m tools.bench.ai [--decisions N] [--playouts P] [--quick] [--repeat R]

Prints, for the Expert at 2 to 6 players (classic; nordic seats 5), against Strong: the walks a
decision makes (P, default its device budget engine.expert.budget), VM milliseconds per
decision (mean and slowest) and the RP2040 figures on the cost model (VM ms x the
calibration loop's RP2040 time / its VM time x the engine factor; see
tools/bench/micropython.py): ms per decision, walks a second, the longest walk, the
longest UI gap while it thinks (a slice: SLICE_MS and the walk under way, ending by
GAP_MS unless one walk is longer), and the longest pause a player sees (the slowest
decision less what fits into the pace of the move before);
bytes allocated per walk once the player is made (GC disabled, so the count is
exact); and the heap of an Expert player, of the search its table shares, of Strong.
Figures are printed, never asserted (host_tests/test_ai_micropython.py asserts 0 B).
On a busy machine the VM runs slower in bursts: each timed decision is made
``--best-of B`` times (default 3; the player searches anew each time) and the quickest
counts, and ``--repeat R`` measures R times and keeps, per table size, the quickest run.
"""

import re
import sys

from tools import cli
from tools.vm import mpvm
from tools.bench.micropython import RP2040_CALIBRATION_MS, ENGINE_FACTOR, CALIBRATE

AI_PACE_MS = 900     # firmware.app: an AI's move stays on screen this long
PAUSE_MS = 900       # firmware.app: the longest search past the pace
SLICE_MS = 20        # firmware.game: a slice of search between frames ...
GAP_MS = 45          # ... starting no walk the longest walk seen would carry past this
FRAME_MS = 10        # firmware.main: the loop's nap between frames

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
from engine import ai, expert

class Tally:
    def __init__(self):
        self.decisions = 0    # turn decisions of the measured level
        self.ms = 0
        self.slowest = 0
        self.playouts = 0
        self.locked = 0       # decisions and observations made under heap_lock
        self.rounds = 0
        self.moves = 0
        self.pondered = 0     # ponder walks (under heap_lock when locked)

def _call(bot, view, moves, n, lock):
    if lock:
        micropython.heap_lock()
        try:
            return bot.choose(view, moves, n)
        finally:
            micropython.heap_unlock()
    return bot.choose(view, moves, n)

def _ponder(bots, rnd, views, walks, lock, tally):
    # while the move just made is shown, as tools.tournament: the Expert whose tree the
    # search holds walks on in it, unless an Expert is to move next
    if bots[rnd.turn()].level == ai.EXPERT:
        return
    for k in range(len(bots)):
        bot = bots[k]
        if bot.level == ai.EXPERT and bot.search.owner is bot:
            v = rnd.view(k, views[k])
            before = bot.playouts_done
            if lock:
                micropython.heap_lock()
                try:
                    bot.ponder(v, walks)
                finally:
                    micropython.heap_unlock()
            else:
                bot.ponder(v, walks)
            tally.pondered += bot.playouts_done - before
            return

def games(preset, players, levels, rounds, seed, playouts, locked, tally, measured=4,
          deadline=0, searched_only=True, reps=1, best_of=1, ponder=0, **options):
    rules = Rules(preset, **options)
    rnd = Round(rules, players, Random(seed))
    bots = [ai.new_player(rules, levels[k % len(levels)], seed + k, playouts, deadline)
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
                    before = getattr(bot, "playouts_done", 0)   # (an Expert's count)
                    t = time.ticks_ms()
                    for _ in range(times):  # fast levels: time a batch (the VM ticks in ms)
                        move = _call(bot, view, moves, n, locked)
                    ms = min(ms, time.ticks_diff(time.ticks_ms(), t))
                if locked:
                    tally.locked += 1
                done = getattr(bot, "playouts_done", 0) - before
                if measuring and (done > 0 or not searched_only):
                    tally.decisions += times
                    tally.ms += ms
                    tally.playouts += done
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
            if ponder and not rnd.is_over():
                _ponder(bots, rnd, views, ponder, locked, tally)
        tally.rounds += 1
    return bots
"""

MEASURE = CALIBRATE + """
def timing(preset, players, decisions, playouts, device=False, best_of=1):
    # one game untimed first: the WebAssembly engine compiles the interpreter's hot
    # paths during the first milliseconds (a board has no such warm-up); the Expert
    # ponders as on a device, so its decisions start from the trees it keeps
    ponder = expert.ponder_budget(Rules(preset), players)
    games(preset, players, (ai.EXPERT, ai.STRONG), 1, 999, playouts, False, Tally(),
          ponder=ponder)
    calib = best_calibration(3)  # the loop now: the VM's speed drifts on a shared machine
    t = Tally()
    seed = 1
    while t.decisions < decisions:
        games(preset, players, (ai.EXPERT, ai.STRONG), 1, seed, playouts, False, t,
              best_of=best_of, ponder=ponder)
        seed += 1
    calib = min(calib, best_calibration(3))
    print("BENCH time_%s%d %d %d %d %d %d" % (preset, players, t.decisions, t.ms, t.slowest,
                                             t.playouts, calib))

def longest_walk(preset, players, reps=40):
    # the longest walk a search can make: a deal, the tree's deepest path (search._PATH
    # moves, each listed and applied), the playout (its moves applied), the judge
    from engine import search as sr
    rules = Rules(preset)
    rnd = Round(rules, players, Random(7))
    bot = ai.new_player(rules, ai.EXPERT, 3)
    view = rnd.view(rnd.turn(), View(rules))
    moves = array("H", range(200))
    n = rnd.legal_moves(rnd.turn(), moves)
    bot.begin(view, moves, n)
    me = view.player
    world = bot.world
    buf = array("H", range(40))
    suits = bytearray(4)
    tree = 16                       # search._PATH
    length = tree + bot.search.rollout
    calib = best_calibration(3)
    t0 = time.ticks_ms()
    for _ in range(reps):
        bot._deal_world(view)
        p = me
        for i in range(length):
            if p < 0:
                bot._deal_world(view)
                p = me
            if i < tree:
                world.legal_moves(p, buf)
            p = world.apply_legal(p, expert._policy(world.s, p, bot.flags, suits))
        bot._judge(world, me)
    ms = time.ticks_diff(time.ticks_ms(), t0)
    calib = min(calib, best_calibration(3))
    print("BENCH walk_%s%d %d %d %d" % (preset, players, reps, ms, calib))

def alloc(preset, players, playouts):
    # what making an Expert allocates, then what its decisions allocate
    rules = Rules(preset)
    rnd = Round(rules, players, Random(5))
    bot = ai.new_player(rules, ai.EXPERT, 3, playouts)
    views = View(rules)
    moves = array("H", range(200))
    gc.collect()
    gc.disable()
    a = gc.mem_alloc()
    bot = ai.new_player(rules, ai.EXPERT, 3, playouts)
    player_bytes = gc.mem_alloc() - a
    from engine.search import Search
    a = gc.mem_alloc()
    Search(rules, bot.search.cap)
    search_bytes = gc.mem_alloc() - a
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
    strong = ai.new_player(rules, ai.STRONG, 3, playouts)
    strong_bytes = gc.mem_alloc() - a
    gc.enable()
    print("BENCH alloc_%s%d %d %d %d %d %d" % (preset, players, done, total, player_bytes,
                                               strong_bytes, search_bytes))
"""

SIZES = [("classic", p) for p in (2, 3, 4, 5, 6)] + [("nordic", p) for p in (2, 3, 4, 5)]


def measure(decisions=60, playouts=None, timeout=1800, best_of=1):
    """Run the measurements in one VM; return {figure: [ints]}. Each timed decision
    is made `best_of` times (the player searches anew each time) and the quickest
    counts, so that a moment when the shared machine runs something else does not."""
    steps = [VM_GAMES, MEASURE, "calibrate()"]
    for preset, players in SIZES:
        steps.append("timing(%r, %d, %d, %r, False, %d)" % (preset, players, decisions,
                                                            playouts, best_of))
        steps.append("gc.collect()")
        steps.append("longest_walk(%r, %d)" % (preset, players))
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
            elif key.startswith("walk_"):
                if values[1] * out[key][2] < out[key][1] * values[2]:
                    out[key] = values
            elif key == "calibration_ms":
                out[key] = [min(values[0], out[key][0])]
            elif key.startswith("alloc_") and values[1] > out[key][1]:
                out[key] = values
    return out


def rp2040_ms(vm_ms, calibration):
    """The cost model: VM ms x the calibration loop's RP2040 time / its VM time, x the
    engine factor measured on real firmware (tools/bench/micropython.py)."""
    return vm_ms * RP2040_CALIBRATION_MS / max(1, calibration) * ENGINE_FACTOR


def pace_room():
    """The ms of search that fit into an AI move's pace: slices of SLICE_MS between
    frames that also nap FRAME_MS (firmware.app, firmware.main)."""
    return AI_PACE_MS * SLICE_MS // (SLICE_MS + FRAME_MS)


def _decision_rows(figures, say):
    """One line per table size: the Expert's walks, decision time, walks a second,
    the longest walk, the longest UI gap and the longest pause past the pace."""
    room = pace_room()
    for preset, players in SIZES:
        key = "time_%s%d" % (preset, players)
        if key not in figures:
            continue
        n, ms, slowest, done, cal = figures[key]
        mean = rp2040_ms(ms / max(1, n), cal)
        worst = rp2040_ms(slowest, cal)
        rate = done / max(1, n) / max(mean, 1e-9) * 1000
        walk = figures.get("walk_%s%d" % (preset, players))
        longest = rp2040_ms(walk[1] / max(1, walk[0]), walk[2]) if walk else 0
        pause = min(PAUSE_MS, max(0, worst - room))
        gap = min(SLICE_MS + longest, max(GAP_MS, longest))
        say("  %-8s %7d %9d %7.0f %7.1f %6d %4d %9.0f %9.0f %8.0f %8.0f %7.0f %7.0f" % (
            preset, players, n, done / max(1, n), ms / max(1, n), slowest, cal, mean, worst,
            rate, longest, gap, pause))


def report(figures, out=sys.stdout):
    """Print the figures."""
    def say(text):
        out.write(text + "\n")

    calib = figures["calibration_ms"][0]
    playouts = figures["playouts"][0]
    say("MicroPython VM (%s), engine from .mpy; calibration loop %d ms in the VM, %d ms on "
        "an RP2040 at 125 MHz; the cost model: VM ms x %d / calibration x %.1f (engine "
        "factor; each line uses the loop timed just before and after it, column 'cal')"
        % (".".join(map(str, mpvm.vm_mpy_version())), calib, RP2040_CALIBRATION_MS,
           RP2040_CALIBRATION_MS, ENGINE_FACTOR))
    say("Expert decisions with %s (decisions that searched; Strong opponents). RP2040 ms "
        "on the cost model; real firmware ran the old Expert 2x the old estimate (454 "
        "ms loop, no engine factor), about 1.5x this one." % (
            "%d walks" % playouts if playouts else "the device budget, engine.expert.budget"))
    say("A walk: one candidate's way down the tree and its playout. UI gap: a slice "
        "(SLICE_MS %d and the walk under way, none started that the longest walk would "
        "carry past GAP_MS %d). Pause: the slowest decision less the %d ms "
        "of search that fit into the %d ms pace (at most PAUSE_MS %d). Between decisions "
        "the Expert ponders as a device would (engine.expert.ponder_budget walks a move "
        "shown), so its decisions start from the trees it keeps." % (
            SLICE_MS, GAP_MS, pace_room(), AI_PACE_MS, PAUSE_MS))
    say("  %-8s %7s %9s %7s %7s %6s %4s %9s %9s %8s %8s %7s %7s" % (
        "preset", "players", "decisions", "walks", "VM ms", "VM max", "cal", "RP2040 ms",
        "RP2040 max", "walks/s", "walk max", "UI gap", "pause"))
    _decision_rows(figures, say)
    for preset, players in (("classic", 2), ("nordic", 5)):
        key = "alloc_%s%d" % (preset, players)
        if key not in figures:
            continue
        done, total, player_bytes, strong_bytes, search_bytes = figures[key]
        say("  %s %d players: the Expert's decisions (%d walks, the first included) "
            "allocated %d bytes (%.2f per walk, target 0); heap of an Expert player %d "
            "bytes, of the search its table's Experts share %d bytes, of a Strong player "
            "%d bytes" % (preset, players, done, total, total / max(1, done), player_bytes,
                          search_bytes, strong_bytes))


def main(argv=None):
    """Measure and print."""
    parser = cli.Parser(prog="bench.ai", description=__doc__.splitlines()[0])
    parser.add_argument("--decisions", type=cli.at_least(1), default=60,
                        help="searching Expert decisions timed per table size (default 60)")
    parser.add_argument("--playouts", type=cli.at_least(1), default=None,
                        help="walks per decision (default: the device budget, "
                        "engine.expert.budget, by table size)")
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
